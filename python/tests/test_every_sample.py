"""On every file of ../shared/data, the package gives what the command line gives: the same
kernels, ops and timeline documents as DataFrames (every cell, exactly), the same warnings through
Python's warnings module, and for the files it refuses a TraceError reading as the command line's
error, with the same file, line and column."""

import math
import warnings

import pandas as pd
import pytest

import tensormorph as tm

from conftest import SHARED_DATA, cli, sample_files

SAMPLES = sample_files()


def _id(path):
    return str(path.relative_to(SHARED_DATA))


def assert_cell_equal(expected, got, where):
    if expected is None:
        assert got is None or (not isinstance(got, (list, dict)) and pd.isna(got)), where
    elif isinstance(expected, bool):
        assert isinstance(got, (bool,)) or str(type(got)) == "<class 'numpy.bool_'>", where
        assert bool(got) == expected, where
    elif isinstance(expected, int):
        assert not isinstance(got, float), f"{where}: an integer became a float"
        assert int(got) == expected, where
    elif isinstance(expected, float):
        assert float(got) == expected or (math.isnan(expected) and math.isnan(got)), where
    else:
        assert got == expected, where


def assert_frame_is_rows(frame, rows, what):
    """The DataFrame holds exactly the JSON rows: same columns in order, same cells."""
    assert len(frame) == len(rows), f"{what}: {len(frame)} rows, JSON has {len(rows)}"
    if not rows:
        return
    names = list(dict.fromkeys(k for row in rows for k in row))
    assert list(frame.columns) == names, what
    for i, row in enumerate(rows):
        for name in names:
            assert_cell_equal(row.get(name), frame[name].iloc[i], f"{what}: row {i}, {name}")


def assert_launch_table_sums_to(launches, rows):
    """trace.kernels, one row per launch, summed here by pandas, gives the command line's
    per-kernel count, total, min and max: the table holds every launch, with its exact times."""
    assert (launches["end_ns"] - launches["start_ns"] == launches["duration_ns"]).all()
    summed = (launches.groupby(["name", "backend"], observed=True)["duration_ns"]
              .agg(["count", "sum", "min", "max"]))
    expected = {(r["name"], r["backend"]): (r["count"], r["total_ns"], r["min_ns"], r["max_ns"])
                for r in rows}
    got = {key: tuple(int(v) for v in values) for key, values in summed.iterrows()}
    assert got == expected


def _load(path):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        trace = tm.load(path)
    return trace, [str(w.message) for w in caught if issubclass(w.category, tm.TraceWarning)]


@pytest.mark.parametrize("path", SAMPLES, ids=_id)
def test_sample_as_the_command_line_reads_it(path):
    run = cli("kernels", "--format", "json", "--quiet", path)
    if run.exit_code != 0:
        assert run.exit_code == 3, run.stderr
        with pytest.raises(tm.TraceError) as raised:
            tm.load(path)
        assert str(raised.value) == run.error()
        assert raised.value.path == str(path)
        assert str(raised.value).startswith(
            str(path) if raised.value.line is None
            else f"{path}:{raised.value.line}:{raised.value.column}: ")
        return
    trace, warned = _load(path)
    assert sorted(warned) == sorted(run.warnings())

    kernels = tm.kernels(trace)
    assert_frame_is_rows(kernels.rows, run.document["rows"], "kernels")
    assert_launch_table_sums_to(trace.kernels, run.document["rows"])
    assert kernels.total_ns == run.document["total_ns"]
    assert kernels.kernel_count == run.document["kernel_count"]

    ops = cli("ops", "--format", "json", "--quiet", path)
    assert ops.exit_code == 0, ops.stderr
    # `kernels` on the command line skips host rows (Nsight's runtime tables) and so may list
    # fewer backends; `ops` reads the input whole, as load() does.
    assert kernels.inputs == ops.document["inputs"]
    assert_frame_is_rows(tm.ops(trace).rows, ops.document["rows"], "ops")

    timeline_run = cli("timeline", "--format", "json", "--quiet", path)
    assert timeline_run.exit_code == 0, timeline_run.stderr
    timeline = tm.timeline(trace)
    assert timeline.document == timeline_run.document
    devices = timeline_run.document["devices"]
    assert len(timeline.devices) == len(devices)
    for i, device in enumerate(devices):
        for name in ("busy_ns", "idle_ns", "span_ns", "kernel_count", "utilization_percent"):
            assert_cell_equal(device[name], timeline.devices[name].iloc[i], f"device {i} {name}")
        assert_cell_equal(device["gaps"]["by_cause"]["queued"]["total_ns"],
                          timeline.devices["gaps.by_cause.queued.total_ns"].iloc[i], "queued")
    gap_rows = [dict({"input": d.get("input"), "label": d.get("label")}, **g)
                for d in devices for g in d["gaps"]["rows"]]
    assert_frame_is_rows(timeline.gaps, gap_rows, "gaps")
    stream_rows = [s for d in devices for s in d["streams"]]
    assert len(timeline.streams) == len(stream_rows)
    if stream_rows:
        assert list(timeline.streams["busy_ns"]) == [s["busy_ns"] for s in stream_rows]
