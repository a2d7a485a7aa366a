"""tm.baseline, tm.diff and tm.report against `baseline save`, `diff` and `report`."""

import json

import pytest

import tensormorph as tm

from conftest import SHARED_DATA, cli
from test_every_sample import assert_frame_is_rows

CONTROL = SHARED_DATA / "kineto/hta/trace_diff/control.json.gz"
TEST = SHARED_DATA / "kineto/hta/trace_diff/test.json.gz"
NCCL = SHARED_DATA / "kineto/hta/nccl_2rank_rank0_a100.json.gz"
QWEN = [SHARED_DATA / "kineto/tracelens_pairs" / f"{side}_qwen1.5-0.5b_inference.json.gz"
        for side in ("h100", "mi300")]


def test_diff_of_traces_is_the_commands():
    run = cli("diff", "--format", "json", "--quiet", CONTROL, TEST)
    result = tm.diff(CONTROL, tm.load(TEST))
    assert result.document == run.document
    assert_frame_is_rows(result.rows, run.document["rows"], "diff")
    assert result.verdict == run.document["verdict"] == "fail"
    assert result.counts == run.document["counts"]
    assert result.total == run.document["total"] and result.op_total == run.document["op_total"]
    options = cli("diff", "--format", "json", "--quiet", "--threshold", "20", "--kind", "op",
                  "--top", "5", CONTROL, TEST)
    assert_frame_is_rows(tm.diff(CONTROL, TEST, threshold_percent=20, kind="op", top=5).rows,
                         options.document["rows"], "diff options")
    assert tm.diff(CONTROL, TEST, kind="kernel").op_total is None
    with pytest.raises(ValueError, match="kind"):
        tm.diff(CONTROL, TEST, kind="kernels")


def test_saved_baseline_is_the_commands_and_diffs_the_same(tmp_path):
    ours = tmp_path / "ours.json"
    theirs = tmp_path / "theirs.json"
    tm.baseline(tm.load(CONTROL)).save(str(ours))
    assert cli("baseline", "save", "--quiet", "-o", theirs, CONTROL).exit_code == 0
    assert json.loads(ours.read_text()) == json.loads(theirs.read_text())
    run = cli("diff", "--format", "json", "--quiet", theirs, TEST)
    result = tm.diff(ours, TEST)
    assert_frame_is_rows(result.rows, run.document["rows"], "diff from a baseline")
    assert result.base["type"] == run.document["base"]["type"]


def test_report_of_a_trace_without_device_work(tmp_path):
    """A trace with no kernels (here: none at all) still gives the command's page, not an
    internal error."""
    empty = tmp_path / "empty.json"
    empty.write_text('{"traceEvents": []}')
    ours, theirs = tmp_path / "ours.html", tmp_path / "theirs.html"
    assert tm.report(str(empty), str(ours)) == str(ours)
    assert cli("report", "--quiet", "-o", theirs, empty).exit_code == 0
    assert ours.read_bytes() == theirs.read_bytes()
    assert b"<html" in ours.read_bytes()


def test_report_is_the_commands_page(tmp_path):
    ours, theirs = tmp_path / "ours.html", tmp_path / "theirs.html"
    assert tm.report(NCCL, str(ours)) == str(ours)
    assert cli("report", "--quiet", "-o", theirs, NCCL).exit_code == 0
    assert ours.read_bytes() == theirs.read_bytes()
    tm.report(TEST, str(ours), baseline=CONTROL, gap_us=50)
    assert cli("report", "--quiet", "--baseline", CONTROL, "--gap", "50", "-o", theirs,
               TEST).exit_code == 0
    assert ours.read_bytes() == theirs.read_bytes()
    tm.report(QWEN, str(ours), compare=True, labels=["H100", "MI300X"])
    assert cli("report", "--quiet", "--compare", "--label", "H100,MI300X", "-o", theirs,
               *QWEN).exit_code == 0
    assert ours.read_bytes() == theirs.read_bytes()
    with pytest.raises(ValueError, match="at least two"):
        tm.report(NCCL, str(ours), compare=True)
    with pytest.raises(ValueError, match="labels"):
        tm.report(QWEN, str(ours), labels=["a", "b"])


def test_version_is_the_command_lines():
    import subprocess
    from conftest import BINARY
    printed = subprocess.run([BINARY, "--version"], capture_output=True, text=True).stdout.split()
    assert tm.__version__ == printed[-1]
