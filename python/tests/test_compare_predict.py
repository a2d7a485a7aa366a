"""compare, predict, and ops'/report's predictions equal their commands' JSON (and pages), on the
H100/MI300X pairs of the same model, and their tables hold its rows cell by cell."""

import pytest

import tensormorph as tm

from conftest import SHARED_DATA, cli
from test_every_sample import assert_frame_is_rows
from test_more_analyses import flat

PAIRS = SHARED_DATA / "kineto/tracelens_pairs"
H100 = PAIRS / "h100_qwen1.5-0.5b_inference.json.gz"
MI300 = PAIRS / "mi300_qwen1.5-0.5b_inference.json.gz"
OTHER_MODEL = PAIRS / "mi300_timesformer_inference.json.gz"


@pytest.mark.parametrize("by", ["shape", "category"])
def test_compare_is_the_commands(by):
    run = cli("compare", "--format", "json", "--quiet", "--by", by, "--label", "h100,mi300x",
              H100, MI300)
    result = tm.compare([H100, MI300], by=by, labels=["h100", "mi300x"])
    assert result.document == run.document
    assert result.verdict == run.document["verdict"]
    assert_frame_is_rows(result.sides, [flat(s) for s in run.document["sides"]], "sides")
    assert_frame_is_rows(result.rows, [flat(r) for r in run.document["rows"]], "rows")
    cells = [dict({"key": r["key"], "side": i}, **flat(c)) for r in run.document["rows"]
             for i, c in enumerate(r["sides"]) if c is not None]
    assert_frame_is_rows(result.row_sides, cells, "row sides")
    # Each side's categories add up to its kernel time (categories[] read independently here).
    per_side = result.categories.groupby("side")["device_ns"].sum()
    assert [int(per_side[i]) for i in range(2)] == [s["kernel_ns"] for s in run.document["sides"]]


def test_other_workloads_get_a_warning_and_no_verdict():
    """Qwen against TimeSformer: nothing matches, so no verdict and no evaluation score; the
    command's warning arrives through Python's warnings module."""
    with pytest.warns(tm.TraceWarning, match="do not look like the same workload"):
        result = tm.compare([H100, OTHER_MODEL])
    assert result.verdict == ""
    with pytest.warns(tm.TraceWarning, match="not evaluated on"):
        predicted = tm.predict(H100, measured=OTHER_MODEL)
    assert predicted.evaluation["overall"] is None
    assert "same workload" in predicted.evaluation["no_basis"]


def test_compare_options_are_checked():
    with pytest.raises(ValueError, match="at least two traces"):
        tm.compare(H100)
    with pytest.raises(ValueError, match="3 labels for 2 traces"):
        tm.compare([H100, MI300], labels=["a", "b", "c"])
    with pytest.raises(ValueError, match="by 'kernel'"):
        tm.compare([H100, MI300], by="kernel")


def test_predict_is_the_commands():
    run = cli("predict", "--format", "json", "--quiet", "--device", "a100-sxm4-80gb,mi300x",
              "--top", "12", H100)
    result = tm.predict(H100, devices="a100-sxm4-80gb,mi300x", top=12)
    assert result.document == run.document
    assert len(result.rows) == 12
    predictions = [dict({"key": r["key"]}, **flat(p)) for r in run.document["rows"]
                   for p in r["predictions"]]
    assert_frame_is_rows(result.predictions, predictions, "predictions")
    assert_frame_is_rows(result.totals, run.document["totals"], "totals")
    assert result.work_coverage == run.document["work_coverage"]
    assert 0 < result.work_coverage["share"] <= result.work_coverage["share_under_ops"] <= 1
    assert tm.predict(H100, devices=["a100-sxm4-80gb", "mi300x"], top=12).document == run.document


def test_predict_measured_is_the_commands():
    """The evaluation against the MI300X trace of the same model: the measured device becomes
    the first target, and the model's error is the command's."""
    run = cli("predict", "--format", "json", "--quiet", "--measured", MI300, H100)
    result = tm.predict(H100, measured=MI300)
    assert result.document == run.document
    assert result.source_device == run.document["source_device"]
    assert result.evaluation["target"] == "mi300x"
    assert result.evaluation["overall"]["model_mdape"] < result.evaluation["overall"][
        "no_change_mdape"]


def test_predict_errors():
    with pytest.raises(ValueError, match="devices=KEYS or measured=TRACE"):
        tm.predict(H100)
    with pytest.raises(ValueError, match='no device "no-such-gpu"'):
        tm.predict(H100, devices="no-such-gpu")
    with pytest.raises(ValueError, match="predict reads one trace, got 2"):
        tm.predict([H100, MI300], devices="mi300x")
    # A measured trace on a device the database lacks: the command's message.
    cpu_only = SHARED_DATA / "kineto/hta/cpu_only_rank34.pt.trace.json.gz"
    run = cli("predict", "--format", "json", "--quiet", "--measured", cpu_only, H100)
    assert run.exit_code != 0
    with pytest.raises(ValueError) as raised:
        tm.predict(H100, measured=cpu_only)
    assert str(raised.value) == run.error()


def test_ops_predict_is_the_commands():
    run = cli("ops", "--format", "json", "--quiet", "--predict", "mi300x", "--top", "10", H100)
    result = tm.ops(H100, predict="mi300x", top=10)
    assert result.document == run.document
    assert_frame_is_rows(result.rows, run.document["rows"], "ops --predict")
    assert result.predict == run.document["predict"]
    with pytest.raises(ValueError, match="not predicted"):
        tm.ops(H100, predict="mi300x", by_instance=True)
    with pytest.raises(ValueError, match="calibration is for predict"):
        tm.ops(H100, calibration="c.json")


def test_report_predict_is_the_commands(tmp_path):
    page = tmp_path / "cli.html"
    run = cli("report", "--quiet", "--predict", "mi300x", "-o", page, H100)
    assert run.exit_code == 0, run.stderr
    ours = tm.report(H100, tmp_path / "py.html", predict="mi300x")
    assert open(ours, "rb").read() == page.read_bytes()
