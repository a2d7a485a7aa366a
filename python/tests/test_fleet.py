"""tm.fleet on a fleet of 258 rank traces made from real ones (fleet_traces.py): its exact
fields equal the single-process computation over the same files (the command line's kernels
analysis, and sums done here by pandas), its quantiles are within the sketch's bound of numpy's,
its clock offsets are the shifts the fleet was made with, its collectives on the DLRM job are
`tensormorph collectives`', and the straggler and the corrupt file are reported. One test runs it
on a real Dask scheduler with two worker processes."""

import math
import os
import pathlib
import subprocess
import sys
import time
import warnings

import numpy as np
import pandas as pd
import pytest

import tensormorph as tm
from tensormorph.fleet import QuantileSketch

from conftest import SHARED_DATA
from fleet_traces import STRETCH, write_fleet

# Debian 12's distributed with its tornado: a deprecation inside Dask, nothing of ours.
pytestmark = pytest.mark.filterwarnings("ignore:make_current is deprecated:DeprecationWarning")

DLRM = SHARED_DATA / "kineto/param_dlrm_8rank"
ACCURACY = 0.01


def within_bound(estimate, exact, accuracy=ACCURACY):
    # 1e-9: the float rounding of log() at a bucket's edge, far below the bound.
    return abs(estimate - exact) <= accuracy * abs(exact) * (1 + 1e-9)


@pytest.fixture(scope="module")
def made(tmp_path_factory):
    return write_fleet(SHARED_DATA, tmp_path_factory.mktemp("fleet"))


@pytest.fixture(scope="module")
def fleet(made):
    return tm.fleet.summarize(made["files"])


@pytest.fixture(scope="module")
def readable(made):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return [tm.load(p) for p in made["files"] if p != made["corrupt"]]


def test_sketch_quantiles_are_within_the_bound_and_merge_exactly():
    rng = np.random.default_rng(7)
    values = np.concatenate([rng.lognormal(9, 2, 20_000).astype(np.int64),
                             np.zeros(300, dtype=np.int64), rng.integers(1, 50, 1_000)])
    whole = QuantileSketch(ACCURACY).add(values)
    parts = [QuantileSketch(ACCURACY).add(chunk) for chunk in np.array_split(values, 13)]
    merged = QuantileSketch(ACCURACY)
    for part in reversed(parts):
        merged.merge(part)
    qs = [0, 0.01, 0.1, 0.25, 0.5, 0.75, 0.9, 0.99, 0.999, 1]
    assert merged.quantiles(qs) == whole.quantiles(qs)
    for q, estimate in zip(qs, whole.quantiles(qs)):
        assert within_bound(estimate, np.quantile(values, q)), q
    assert whole.count == len(values) and whole.zeros == 300
    assert whole.bucket_count() < 1_500
    with pytest.raises(ValueError):
        QuantileSketch(ACCURACY).add([-1])
    with pytest.raises(ValueError):
        whole.merge(QuantileSketch(0.02))
    assert QuantileSketch().quantile(0.5) is None


def test_exact_fields_equal_the_single_process_computation(fleet, readable):
    """Count, total, min, max, mean and stddev per kernel: the command line's kernels analysis
    over all the readable files in one process; sum of squares and quantiles: recomputed here
    from every launch."""
    rows = tm.kernels(readable).rows
    assert len(rows) == len(fleet.kernels)
    ours = fleet.kernels.set_index(["name", "backend"])
    launches = pd.concat([t.kernels[["name", "backend", "duration_ns"]].astype(
        {"name": object, "backend": object}) for t in readable], ignore_index=True)
    for _, row in rows.iterrows():
        mine = ours.loc[(row["name"], row["backend"])]
        for field in ("count", "total_ns", "min_ns", "max_ns"):
            assert int(mine[field]) == int(row[field]), (row["name"], field)
        assert math.isclose(mine["mean_ns"], row["mean_ns"], rel_tol=1e-12)
        assert math.isclose(mine["stddev_ns"], row["stddev_ns"], rel_tol=1e-9, abs_tol=1e-9)
        assert within_bound(mine["median_ns"], row["median_ns"]), row["name"]
    for (name, backend), group in launches.groupby(["name", "backend"]):
        durations = group["duration_ns"].to_numpy()
        mine = ours.loc[(name, backend)]
        assert mine["sum_squares"] == sum(int(d) * int(d) for d in durations)
        for column, q in (("p90_ns", 0.9), ("p99_ns", 0.99)):
            assert within_bound(mine[column], np.quantile(durations, q)), (name, column)


def test_ranks_failures_and_the_straggler(fleet, made):
    assert len(fleet.ranks) == len(made["files"]) - 1
    assert list(fleet.failed["path"]) == [made["corrupt"]]
    with pytest.raises(tm.TraceError) as raised:
        tm.load(made["corrupt"])
    assert fleet.failed["error"].iloc[0] == str(raised.value)
    assert raised.value.line is not None

    ranks = fleet.ranks.set_index("path")
    straggler = ranks.loc[made["straggler"]]
    # Its twin: the same DLRM rank in the first copy, unstretched.
    twin = ranks[(ranks["world_size"] == 248) & (ranks["rank"] == straggler["rank"] % 8)].iloc[0]
    assert straggler["computation_ns"] == twin["computation_ns"] * STRETCH
    assert straggler["busy_ns"] == twin["busy_ns"] * STRETCH
    flagged = fleet.stragglers.set_index("path")
    assert made["straggler"] in flagged.index
    assert flagged.loc[made["straggler"], "computation_excess_percent"] > 25
    assert "computation per step" in flagged.loc[made["straggler"], "reason"]
    # No other rank computes slowly; the other stragglers are there for the waits they caused.
    others = flagged.drop(made["straggler"])
    assert (others["computation_excess_percent"] <= 25).all()
    assert (others["wait_caused_ns"] > 0).all()

    # A rank's figures are timeline's for its device.
    one = tm.timeline(made["files"][0]).devices.iloc[0]
    first = ranks.loc[made["files"][0]]
    for column in ("busy_ns", "idle_ns", "span_ns", "communication_ns", "computation_ns",
                   "comm_comp_overlap_ns"):
        assert first[column] == one[column], column
    assert first["idle_gaps.synchronization_ns"] == one["gaps.by_cause.synchronization.total_ns"]
    assert fleet.steps[fleet.steps["path"] == made["files"][0]]["host_ns"].tolist() == \
        tm.timeline(made["files"][0]).steps["host_ns"].tolist()


def test_clock_offsets_are_the_shifts(fleet, made):
    """Copy k of DLRM rank i was shifted by k * SHIFT: its offset from rank 0 is that shift plus
    rank i's own offset in the real job (`tensormorph collectives` on the 8 real ranks)."""
    real = tm.collectives(tm.load_job(DLRM)).ranks.set_index("rank")["clock_offset_ns"]
    ranks = fleet.ranks.set_index("path")
    for path, (dlrm_rank, shift_ns) in made["shifts_ns"].items():
        assert ranks.loc[path, "clock_offset_ns"] == shift_ns + real[dlrm_rank], path
    assert fleet.matched_by[248] == "kernel name and stream order"
    assert len(fleet.collectives[fleet.collectives["job"] == 248]) == 8
    assert len(fleet.arrivals[fleet.arrivals["job"] == 248]) == 8 * (248 - 1)


def test_collectives_equal_the_commands_on_the_real_job():
    fleet = tm.fleet.summarize(DLRM)
    command = tm.collectives(tm.load_job(DLRM))
    ours = fleet.ranks.set_index("rank")
    for _, clock in command.ranks.iterrows():
        assert ours.loc[clock["rank"], "clock_offset_ns"] == clock["clock_offset_ns"]
        expected = clock["offset_uncertainty_ns"]
        got = ours.loc[clock["rank"], "offset_uncertainty_ns"]
        assert (pd.isna(got) and pd.isna(expected)) or got == expected
    for _, waits in command.per_rank.iterrows():
        for column in ("wait_suffered_ns", "wait_caused_ns", "times_last"):
            assert ours.loc[waits["rank"], column] == waits[column], column
    columns = ["index", "type", "skew_ns", "transfer_ns", "last_rank"]
    assert fleet.collectives[columns].astype(object).values.tolist() == \
        command.collectives[columns].astype(object).values.tolist()
    assert list(fleet.stragglers["rank"]) == [7, 5, 4]
    # A straggler's share: the others' wait over their profiled time, the number timeline and
    # findings give (one definition everywhere).
    rows = tm.timeline(tm.load_job(DLRM)).ranks.set_index("rank")
    for _, s in fleet.stragglers.iterrows():
        assert s["wait_caused_percent"] == pytest.approx(rows.loc[s["rank"], "wait_caused_percent"],
                                                         rel=1e-12)
        assert f"{s['wait_caused_percent']:.1f} % of the other ranks' profiled time" in s["reason"]


def test_report_shows_the_fleet(fleet, made, tmp_path):
    page = pathlib.Path(fleet.report(tmp_path / "fleet.html")).read_text()
    assert "<script" not in page and "http" not in page
    heatmap = page[page.index("id='heatmap'"):page.index("id='outliers'")]
    assert heatmap.count("<tr>") == len(fleet.ranks) + 1
    failed = page[page.index("id='failed'"):page.index("id='stragglers'")]
    assert made["corrupt"] in failed and "gzip data is corrupt" in failed
    stragglers = page[page.index("id='stragglers'"):page.index("id='heatmap'")]
    assert stragglers.count("<tr>") == len(fleet.stragglers) + 1
    assert "computation per step" in stragglers
    collectives = page[page.index("id='collectives'"):page.index("id='kernels'")]
    slowest = fleet.collectives.sort_values("duration_ns", ascending=False).iloc[0]
    assert f"{slowest['duration_ns'] / 1e6:,.3f}" in collectives


def _start(args, log):
    # The workers' malloc settings as the documentation starts them (docs/python.md).
    environ = dict(os.environ, **{k: str(v) for k, v in tm.fleet.WORKER_MALLOC_ENVIRON.items()})
    return subprocess.Popen([sys.executable, "-m", *args], stdout=log, stderr=subprocess.STDOUT,
                            env=environ)


def test_on_a_real_scheduler_with_two_workers(fleet, made, tmp_path):
    from distributed import Client

    scheduler_file = tmp_path / "scheduler.json"
    log = open(tmp_path / "dask.log", "w")
    processes = [_start(["distributed.cli.dask_scheduler", "--host", "127.0.0.1", "--port", "0",
                         "--no-dashboard", "--scheduler-file", str(scheduler_file)], log)]
    try:
        for n in range(2):
            processes.append(_start(
                ["distributed.cli.dask_worker", "--scheduler-file", str(scheduler_file),
                 "--nthreads", "1", "--no-dashboard", "--name", f"worker{n}",
                 "--local-directory", str(tmp_path / f"worker{n}")], log))
        deadline = time.monotonic() + 120
        while not (scheduler_file.exists() and scheduler_file.stat().st_size):
            assert processes[0].poll() is None, (tmp_path / "dask.log").read_text()
            assert time.monotonic() < deadline, "the scheduler did not start"
            time.sleep(0.1)
        with Client(scheduler_file=str(scheduler_file), timeout="60s") as client:
            client.wait_for_workers(2, timeout=120)
            distributed = tm.fleet.summarize(made["files"], client=client)
            address = client.scheduler.address
            ran_on = client.run(lambda: (os.getpid(), os.environ.get("MALLOC_TRIM_THRESHOLD_")))
        assert len({pid for pid, _ in ran_on.values()}) == 2
        assert {trim for _, trim in ran_on.values()} == {str(64 << 20)}
        # Exactly the serial summary: every merge is exact, whatever the tree.
        pd.testing.assert_frame_equal(distributed.kernels, fleet.kernels)
        pd.testing.assert_frame_equal(distributed.ranks.drop(columns="load_s"),
                                      fleet.ranks.drop(columns="load_s"))
        pd.testing.assert_frame_equal(distributed.failed, fleet.failed)
        pd.testing.assert_frame_equal(distributed.collectives, fleet.collectives)
        pd.testing.assert_frame_equal(distributed.stragglers, fleet.stragglers)
        assert distributed.peak_worker_rss_kib > 0

        # The command, on the same cluster.
        page = tmp_path / "fleet.html"
        done = subprocess.run(
            [sys.executable, "-m", "tensormorph.fleet", "--scheduler", address, "-o", str(page),
             *made["files"]], capture_output=True, text=True, timeout=600)
        assert done.returncode == 1, done.stderr  # one trace could not be read
        assert f"{len(fleet.ranks)} rank traces summarised, 1 could not be read" in done.stdout
        assert made["corrupt"] in done.stdout and made["straggler"] in done.stdout
        serial_page = pathlib.Path(fleet.report(tmp_path / "serial.html"))
        assert page.read_text() == serial_page.read_text()
    finally:
        for process in reversed(processes):
            process.terminate()
        for process in processes:
            try:
                process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                process.kill()
        log.close()


def test_command_on_a_local_cluster(tmp_path):
    page = tmp_path / "dlrm.html"
    done = subprocess.run([sys.executable, "-m", "tensormorph.fleet", "--workers", "2", "-o",
                           str(page), str(DLRM)], capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr
    assert "8 rank traces summarised, 0 could not be read" in done.stdout
    assert page.read_text() == pathlib.Path(
        tm.fleet.summarize(DLRM).report(tmp_path / "serial.html")).read_text()


def test_local_cluster_workers_start_with_the_malloc_settings():
    from distributed import Client

    with tm.fleet.local_cluster(1) as cluster, Client(cluster) as client:
        environ = client.run(lambda: {k: os.environ.get(k) for k in tm.fleet.WORKER_MALLOC_ENVIRON})
        summary = tm.fleet.summarize(DLRM, client=client)
    expected = {k: str(v) for k, v in tm.fleet.WORKER_MALLOC_ENVIRON.items()}
    assert list(environ.values()) == [expected]
    serial = tm.fleet.summarize(DLRM)
    pd.testing.assert_frame_equal(summary.kernels, serial.kernels)


def test_command_line_errors(tmp_path):
    done = subprocess.run([sys.executable, "-m", "tensormorph.fleet", "-o", str(tmp_path / "x"),
                           str(tmp_path / "none*.json")], capture_output=True, text=True,
                          timeout=120)
    assert done.returncode == 2 and "no file matches" in done.stderr
    done = subprocess.run([sys.executable, "-m", "tensormorph.fleet", "--workers", "0", "-o",
                           str(tmp_path / "x"), str(DLRM)], capture_output=True, text=True,
                          timeout=120)
    assert done.returncode == 2 and "--workers must be 1 or more" in done.stderr
    with pytest.raises(ValueError, match="fan_in"):
        tm.fleet.summarize(DLRM, fan_in=1)
