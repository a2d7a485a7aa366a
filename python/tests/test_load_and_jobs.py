"""load() and load_job() as a user meets them: errors with their place in the file, warnings
through Python's warnings module, the options' checks, a job's ranks, the interpreter."""

import gzip
import sys
import sysconfig
import warnings

import pytest

import tensormorph as tm

from conftest import SHARED_DATA, cli

NCCL = SHARED_DATA / "kineto/hta/nccl_2rank_rank0_a100.json.gz"
DLRM = SHARED_DATA / "kineto/param_dlrm_8rank"


def test_bad_json_raises_trace_error_at_its_line_and_column(tmp_path):
    bad = tmp_path / "bad.json"
    bad.write_text('{\n  "traceEvents": 5}\n')
    run = cli("kernels", bad)
    assert run.exit_code == 3
    with pytest.raises(tm.TraceError) as raised:
        tm.load(bad)
    error = raised.value
    assert str(error) == run.error()
    assert (error.path, error.line, error.column) == (str(bad), 2, 18)
    assert "not an array" in error.message
    assert str(error) == f"{bad}:{error.line}:{error.column}: {error.message}"


def test_missing_file_is_a_trace_error_without_a_place(tmp_path):
    missing = tmp_path / "missing.json"
    with pytest.raises(tm.TraceError) as raised:
        tm.load(missing)
    assert raised.value.line is None and raised.value.path == str(missing)
    assert str(raised.value) == cli("kernels", missing).error()


def test_cut_off_trace_warns_and_keeps_the_complete_events(tmp_path):
    text = gzip.decompress(NCCL.read_bytes()).decode()
    cut = tmp_path / "cut.json"
    cut.write_text(text[: len(text) // 2])
    run = cli("kernels", "--format", "json", "--quiet", cut)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        trace = tm.load(cut)
    messages = [str(w.message) for w in caught if issubclass(w.category, tm.TraceWarning)]
    assert messages == run.warnings() and any("cut off" in m for m in messages)
    assert len(trace.kernels) == sum(r["count"] for r in run.document["rows"]) > 0


def test_options_are_checked_and_passed_on(tmp_path):
    with pytest.raises(ValueError, match="not a size"):
        tm.load(NCCL, max_input_size="lots")
    with pytest.raises(ValueError, match="threads"):
        tm.load(NCCL, threads=-1)
    with pytest.raises(ValueError):
        tm.load(NCCL, input_format="no-such-format")
    small = cli("kernels", "--max-input-size", "1K", NCCL)
    assert small.exit_code == 3
    with pytest.raises(tm.TraceError) as raised:
        tm.load(NCCL, max_input_size="1K")
    assert str(raised.value) == small.error()
    one_thread = tm.load(NCCL, threads=1, input_format="kineto")
    assert one_thread.kernels.equals(tm.load(NCCL).kernels)


def test_a_folder_of_ranks_is_load_jobs_to_read(tmp_path):
    with pytest.raises(ValueError, match="load_job"):
        tm.load(DLRM)
    job = tm.load_job(DLRM)
    assert isinstance(job, tm.Job) and len(job) == 8
    assert sorted(t.rank for t in job) == list(range(8))
    globbed = tm.load_job(str(DLRM / "worker*.json.gz"))
    assert [t.path for t in globbed] == [t.path for t in job]
    with pytest.raises(FileNotFoundError):
        tm.load_job(str(DLRM / "nothing*.json.gz"))


def test_job_timeline_ranks_are_the_command_lines():
    run = cli("timeline", "--format", "json", "--quiet", DLRM)
    timeline = tm.timeline(tm.load_job(DLRM))
    assert timeline.document == run.document
    ranks = run.document["ranks"]
    assert timeline.job == {k: v for k, v in ranks.items() if k != "rows"}
    assert timeline.job is not None and timeline.job["verdict"] == ranks["verdict"]
    assert tm.timeline(NCCL).job is None  # one input: no ranks
    assert list(timeline.ranks["wait_caused_ns"]) == [r["wait_caused_ns"] for r in ranks["rows"]]
    assert list(timeline.ranks["straggler"]) == [r["straggler"] for r in ranks["rows"]]


def test_as_job_insists_as_the_command_line_does():
    pair = [SHARED_DATA / "kineto/tracelens_pairs" / name
            for name in ("h100_qwen1.5-0.5b_inference.json.gz", "mi300_qwen1.5-0.5b_inference.json.gz")]
    for path in pair:
        assert path.exists(), path
    plain = tm.timeline(pair)
    assert not plain.document["ranks"]["is_job"]
    forced = tm.timeline(tm.load_job(pair, as_job=True))
    assert forced.document == cli("timeline", "--format", "json", "--quiet", "--as-job",
                                  *pair).document
    assert forced.document["ranks"]["is_job"]


def test_analyses_take_paths_traces_and_jobs_alike():
    trace = tm.load(NCCL)
    by_path = tm.kernels(NCCL, top=5).rows
    assert by_path.equals(tm.kernels(trace, top=5).rows) and len(by_path) == 5
    assert tm.kernels([trace], group_by="stream").rows.equals(
        tm.kernels(trace, group_by="stream").rows)
    with pytest.raises(ValueError, match="group_by"):
        tm.kernels(trace, group_by="colour")
    with pytest.raises(ValueError, match="backend"):
        tm.ops(trace, backend="tpu")
    with pytest.raises(ValueError, match="no traces"):
        tm.kernels([])


def test_built_for_this_interpreter():
    """The module is the one CMake built for this interpreter (Debian's, by default), so its
    file name carries this interpreter's extension suffix."""
    assert tm._native.__file__.endswith(sysconfig.get_config_var("EXT_SUFFIX"))
    assert sys.version_info >= (3, 9)
