"""roofline, occupancy, findings, collectives and critical_path equal their commands' JSON, and
their DataFrames hold its rows cell by cell."""

import warnings

import pytest

import tensormorph as tm

from conftest import SHARED_DATA, cli
from test_every_sample import assert_frame_is_rows

NCCL = SHARED_DATA / "kineto/hta/nccl_2rank_rank0_a100.json.gz"
DLRM = SHARED_DATA / "kineto/param_dlrm_8rank"
NCU = SHARED_DATA / "nvidia/ncu_csv/llmperfopt_k0001_ncu.metrics.csv"
QWEN_H100 = SHARED_DATA / "kineto/tracelens_pairs/h100_qwen1.5-0.5b_inference.json.gz"


def flat(obj, prefix=""):
    """The test's own flattening of nested objects to dotted names (lists stay as they are)."""
    out = {}
    for name, value in obj.items():
        if isinstance(value, dict):
            out.update(flat(value, f"{prefix}{name}."))
        else:
            out[prefix + name] = value
    return out


@pytest.mark.parametrize("path", [NCU, QWEN_H100], ids=["ncu", "h100_qwen"])
def test_roofline_is_the_commands(path):
    run = cli("roofline", "--format", "json", "--quiet", path)
    result = tm.roofline(path)
    assert run.document["rows"], "a sample with roofline rows"
    assert result.document == run.document
    assert_frame_is_rows(result.rows, run.document["rows"], "roofline")
    assert_frame_is_rows(result.skipped, run.document["skipped"], "roofline skipped")
    assert result.kernel_count == run.document["kernel_count"]


def test_occupancy_is_the_commands():
    run = cli("occupancy", "--format", "json", "--quiet", NCCL)
    result = tm.occupancy(NCCL)
    assert_frame_is_rows(result.rows, run.document["rows"], "occupancy")
    assert (result.kernel_count, result.computed_count, result.skipped) == (
        run.document["kernel_count"], run.document["computed_count"], run.document["skipped"])
    arch = cli("occupancy", "--format", "json", "--quiet", "--arch", "sm_90", "--top", "5", NCCL)
    assert_frame_is_rows(tm.occupancy(NCCL, arch="sm_90", top=5).rows, arch.document["rows"],
                         "sm_90")
    with pytest.raises(ValueError):
        tm.occupancy(NCCL, arch="sm_1")


@pytest.mark.parametrize("args", [([NCCL], {}), ([NCCL], {"gap_us": 50, "top_items": 2}),
                                  ([DLRM], {})], ids=["nccl", "nccl_options", "dlrm"])
def test_findings_are_the_commands(args):
    paths, options = args
    cli_options = []
    if options:
        cli_options = ["--gap", str(options["gap_us"]), "--top-items", str(options["top_items"])]
    run = cli("findings", "--format", "json", "--quiet", *cli_options, *paths)
    job = tm.load_job(paths)
    result = tm.findings(job, **options)
    frame = result.rows
    assert len(frame) > 0
    assert_frame_is_rows(frame, [flat(f) for f in run.document["findings"]], "findings")
    assert_frame_is_rows(result.gain_bases, run.document["gain_bases"], "gain bases")
    assert result.total_gain_ns == run.document["total_gain_ns"]
    # Ranked by the simulated gain where a fix is simulated, else the estimated gain.
    rank = frame["simulated_gain_ns"].fillna(frame["estimated_gain_ns"])
    assert list(rank) == sorted(rank, reverse=True)
    assert frame["simulated_gain_ns"].notna().any()
    unsimulated = tm.findings(job, simulate=False, **options).rows
    assert unsimulated["simulated_gain_ns"].isna().all()
    assert sorted(unsimulated["rule"]) == sorted(frame["rule"])


@pytest.mark.parametrize("paths", [[NCCL], [DLRM]], ids=["nccl", "dlrm"])
def test_whatif_is_the_commands(paths):
    run = cli("whatif", "--format", "json", "--quiet", "--speedup", "gemm=2",
              "--remove-sync", "cudaDeviceSynchronize", "--no-host-gaps", *paths)
    result = tm.whatif(tm.load_job(paths), speedup={"gemm": 2},
                       remove_sync=["cudaDeviceSynchronize"], no_host_gaps=True)
    assert result.schema == "tensormorph.whatif/1"
    assert_frame_is_rows(result.steps, run.document["steps"], "whatif steps")
    assert list(result.scenarios["name"]) == [s["name"] for s in run.document["scenarios"]]
    assert list(result.scenarios["simulated_ns"]) == [
        s["simulated_ns"] for s in run.document["scenarios"]]
    assert len(result.scenario_steps) == sum(len(s["steps"]) for s in run.document["scenarios"])
    with pytest.raises(ValueError):
        tm.whatif(tm.load_job(paths), speedup={"gemm": 0})


def test_memory_is_the_commands():
    run = cli("memory", "--format", "json", "--quiet", "--top", "0", QWEN_H100)
    result = tm.memory(QWEN_H100, top=0)
    assert result.document == run.document
    assert (result.records, result.skipped) == (run.document["records"], run.document["skipped"])
    assert len(result.devices) == len(run.document["devices"]) == 2  # the GPU and the host
    for device, frame in zip(run.document["devices"],
                             [result.at_peak[result.at_peak["device"] == d["device"]]
                              for d in run.document["devices"]]):
        # What was alive at the peak, and what survived from before the trace, make the peak.
        assert frame["bytes"].sum() + device["alive_from_before_bytes"] == \
            device["peak_allocated_bytes"]
    with pytest.raises(ValueError):
        tm.memory(QWEN_H100, top=-1)


def test_collectives_are_the_commands():
    run = cli("collectives", "--format", "json", "--quiet", DLRM)
    result = tm.collectives(tm.load_job(DLRM))
    assert result.document == run.document
    assert result.job == run.document["job"] and result.job["complete"]
    assert result.matched_by == run.document["matched_by"]
    assert result.warnings == run.document["warnings"]
    assert_frame_is_rows(result.per_rank, run.document["per_rank"], "per_rank")
    assert_frame_is_rows(result.collectives, [flat(c) for c in run.document["collectives"]],
                         "collectives")
    rank_rows = [dict({"index": c["index"]}, **flat(r)) for c in run.document["collectives"]
                 for r in c["ranks"]]
    assert_frame_is_rows(result.collective_ranks, rank_rows, "collective ranks")
    assert len(result.collective_ranks) == 8 * 8
    unaligned = cli("collectives", "--format", "json", "--quiet", "--no-clock-align", DLRM)
    assert tm.collectives(DLRM, align_clocks=False).document == unaligned.document


def test_critical_path_is_the_commands():
    run = cli("critical-path", "--format", "json", "--quiet", DLRM)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        result = tm.critical_path(tm.load_job(DLRM))
    assert [str(w.message) for w in caught if issubclass(w.category, tm.TraceWarning)] == \
        run.document["warnings"]
    assert result.document == run.document
    assert_frame_is_rows(result.steps, [flat(s) for s in run.document["steps"]], "steps")
    pieces = [dict({"step": s["step"], "input": s["input"]}, **flat(p))
              for s in run.document["steps"] for p in s["path"]]
    assert_frame_is_rows(result.pieces, pieces, "pieces")
    # The composition adds up to each step's length (docs/critical-path.md).
    for _, step in result.steps.iterrows():
        parts = [c for c in result.steps.columns if c.startswith("composition.")]
        assert sum(int(step[c]) for c in parts if c.endswith("_ns")) == step["length_ns"]
    one = tm.critical_path(tm.load_job(DLRM), step=10)
    assert one.document == cli("critical-path", "--format", "json", "--quiet", "--step", "10",
                               DLRM).document
