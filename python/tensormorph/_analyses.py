"""The analyses, with the command line's options as keyword arguments and its JSON as
DataFrames (see _results)."""

import json
import os
import warnings

from . import _native
from ._errors import TraceWarning
from ._results import Result, Timeline, _flat_row, rows_frame
from ._tables import Job, Trace, _expand, _load_one


def _natives(traces):
    """The C++ traces behind `traces` (a Trace, a Job, a path, a folder of rank traces, a glob,
    or a list of them), and whether
    they were given as a Job that insists on being one."""
    if isinstance(traces, (Trace, str, os.PathLike)):
        traces = [traces]
    natives = []
    for t in traces:
        if isinstance(t, Trace):
            natives.append(t._native)
            continue
        # A path: a folder of rank traces or a glob reads as its files, as load_job reads them.
        natives.extend(_load_one(p, None, None, None, None, stacklevel=3)._native
                       for p in _expand(t))
    if not natives:
        raise ValueError("no traces given")
    return natives, isinstance(traces, Job) and traces.as_job


def kernels(traces, group_by="name", backend=None, device=None, by_input=False, name_filter=None,
            top=0):
    """Per kernel name (or device, or stream): count, total_ns, mean_ns, median_ns, min_ns,
    max_ns, stddev_ns, percent — ``tensormorph kernels --format json``'s rows."""
    natives, _ = _natives(traces)
    document = json.loads(_native.kernels_json(
        natives, group_by=group_by, backend=backend, device=device or "", by_input=by_input,
        name_filter=name_filter or "", top=top))
    return rows_frame(document)


def _keys(devices):
    """Device-database keys as a list: "a100-sxm4-80gb,mi300x" or a list of keys."""
    if devices is None:
        return []
    if isinstance(devices, str):
        return [k.strip() for k in devices.split(",")] if devices.strip() else []
    return list(devices)


def _predict_targets(devices=None, calibration=None, device_specs=None):
    """The device table (built-in, with `device_specs` files applied), the calibration file and
    the target keys, resolved as the command line resolves --predict/--device."""
    if isinstance(device_specs, (str, os.PathLike)):
        device_specs = [device_specs]
    return _native.predict_targets(
        _keys(devices), os.fspath(calibration) if calibration else "",
        [os.fspath(p) for p in device_specs or []])


def ops(traces, by_instance=False, by_stack=False, backend=None, by_input=False, top=0,
        top_kernels=3, predict=None, calibration=None, device_specs=None):
    """Per framework op: the backend and device that served it, host and device time, kernels,
    FLOPs and roofline position — ``tensormorph ops --format json``'s rows. ``predict`` (device
    keys) adds each row's predictions on those devices, as ``ops --predict``; ``calibration`` and
    ``device_specs`` are that command's files."""
    natives, _ = _natives(traces)
    if calibration and not _keys(predict):
        raise ValueError("calibration is for predict=KEYS")
    targets = None
    if predict or device_specs:
        targets = _predict_targets(predict, calibration, device_specs)
    document = json.loads(_native.ops_json(
        natives, by_instance=by_instance, by_stack=by_stack, backend=backend, by_input=by_input,
        top=top, top_kernels=top_kernels, predict=targets))
    return rows_frame(document)


def compare(traces, by="shape", labels=None, top=0, device_specs=None):
    """Profiles of one workload side by side (devices, backends, software), op by op —
    ``tensormorph compare --format json`` as DataFrames: sides (each input's totals), rows (one
    per op, shape, stack or category; ``sides``, ``ratio`` and ``children`` as lists in their
    cells), row_sides (each row's cell on each side, by ``key`` and ``side``), categories (device
    time per category and side); ``verdict`` and the other members as attributes."""
    natives, _ = _natives(traces)
    labels = list(labels or [])
    if len(natives) < 2:
        raise ValueError(f"compare needs at least two traces (got {len(natives)}): one per side")
    if len(labels) > len(natives):
        raise ValueError(f"{len(labels)} labels for {len(natives)} traces: one name per trace")
    text = _native.compare_json(natives, by=by, labels=labels, top=top,
                                devices=_predict_targets(device_specs=device_specs))
    document = json.loads(text)
    for message in document["warnings"]:  # sides that do not look like one workload: no verdict
        warnings.warn(TraceWarning(message), stacklevel=2)
    return Result("compare", document, {
        "sides": ("sides", ()),
        "rows": ("rows", ()),
        "row_sides": ("rows[].sides", ("key",), "side"),
        "categories": ("categories[].sides", ("category",), "side"),
    })


def predict(trace, devices=None, measured=None, calibration=None, device_specs=None, top=0):
    """What other devices would have taken for the trace's ops — ``tensormorph predict
    --format json`` as DataFrames: rows (per op and input shapes; ``predictions`` as a list in
    the cell), predictions (one per row and target, by ``key``), categories (per category and
    target), totals (per target); ``evaluation`` (with ``measured``: a trace of the same workload
    on a target device, whose device becomes the first target) and ``source_device`` as
    attributes."""
    natives, _ = _natives(trace)
    if len(natives) != 1:
        raise ValueError(f"predict reads one trace, got {len(natives)}")
    measured_native = None
    if measured is not None:
        measured_natives, _ = _natives(measured)
        if len(measured_natives) != 1:
            raise ValueError(f"measured is one trace, got {len(measured_natives)}")
        measured_native = measured_natives[0]
    elif not _keys(devices):
        raise ValueError("give devices=KEYS or measured=TRACE")
    text = _native.predict_json(natives[0], measured_native,
                                _predict_targets(devices, calibration, device_specs), top)
    document = json.loads(text)
    evaluation = document.get("evaluation")
    if evaluation and evaluation["no_basis"]:
        warnings.warn(TraceWarning(f"not evaluated on {evaluation['measured_path']}: "
                                   f"{evaluation['no_basis']}"), stacklevel=2)
    return Result("predict", document, {
        "rows": ("rows", ()),
        "predictions": ("rows[].predictions", ("key",)),
        "categories": ("categories[].predictions", ("category",)),
        "totals": ("totals", ()),
    })


def timeline(traces, gap_us=100, straggler_threshold_percent=10, queue_limit=1024, as_job=None):
    """Per device: busy time, utilization, streams, concurrency, idle gaps and their causes,
    launch latency, steps; per rank for a job — ``tensormorph timeline --format json`` as a
    Timeline of DataFrames."""
    natives, job_insists = _natives(traces)
    if gap_us < 0:
        raise ValueError(f"gap_us must be 0 or more, not {gap_us}")
    document = json.loads(_native.timeline_json(
        natives, min_gap_ns=round(gap_us * 1000), straggler_threshold_percent=straggler_threshold_percent,
        queue_limit=queue_limit, as_job=job_insists if as_job is None else as_job))
    return Timeline(document)


def roofline(traces, top=0):
    """Per kernel: arithmetic intensity, achieved FLOP/s, the device's ceiling and the bound —
    ``tensormorph roofline --format json``'s rows (traces with hardware counters)."""
    natives, _ = _natives(traces)
    return rows_frame(json.loads(_native.roofline_json(natives, top=top)))


def occupancy(traces, arch=None, top=0):
    """Per kernel launch configuration: theoretical occupancy, its limiter, achieved occupancy
    where the trace has it — ``tensormorph occupancy TRACE --format json``'s rows."""
    natives, _ = _natives(traces)
    return rows_frame(json.loads(_native.occupancy_json(natives, arch=arch, top=top)))


def findings(traces, gap_us=10, attainable_roof_percent=70, slow_copy_percent=25,
             straggler_threshold_percent=10, top_items=5, as_job=None):
    """What to fix first, ranked by estimated gain — ``tensormorph findings --format json``'s
    findings, one row each (``where`` flattened to where.device...; evidence and top items as
    lists in their cells; total_gain_ns in attrs)."""
    natives, job_insists = _natives(traces)
    if gap_us < 0:
        raise ValueError(f"gap_us must be 0 or more, not {gap_us}")
    document = json.loads(_native.findings_json(
        natives, min_gap_ns=round(gap_us * 1000), attainable_roof_percent=attainable_roof_percent,
        slow_copy_percent=slow_copy_percent,
        straggler_threshold_percent=straggler_threshold_percent, top_items=top_items,
        as_job=job_insists if as_job is None else as_job))
    return rows_frame({**document, "findings": [_flat_row(f) for f in document["findings"]]},
                      rows_key="findings")


def memory(traces, top=10):
    """Where the memory went, per device — ``tensormorph memory --format json`` as DataFrames:
    devices (peak allocated and reserved, basis, capacity), at_peak (what was alive at the peak, by
    op), by_op (allocations per op), largest (the largest allocations) and steps (allocated at each
    ProfilerStep's start and end), each keyed by its device's input and device (docs/memory.md)."""
    natives, _ = _natives(traces)
    if top < 0:
        raise ValueError(f"top must be 0 or more, not {top}")
    document = json.loads(_native.memory_json(natives, top=top))
    return Result("memory", document, {
        "devices": ("devices", ()),
        "at_peak": ("devices[].at_peak", ("input", "device")),
        "by_op": ("devices[].by_op", ("input", "device")),
        "largest": ("devices[].largest", ("input", "device")),
        "steps": ("devices[].steps", ("input", "device")),
    })


def _job_document(json_text, warned, stacklevel):
    for message in warned:
        warnings.warn(TraceWarning(message), stacklevel=stacklevel + 1)
    return json.loads(json_text)


def collectives(traces, as_job=None, align_clocks=True):
    """NCCL/RCCL collectives matched across a job's ranks — ``tensormorph collectives --format
    json`` as DataFrames: ranks (clock offsets), collectives (one row per instance),
    collective_ranks (each rank's start, end and wait in each, by the instance's index), by_type,
    per_rank (waits suffered and caused, late cause); ``job`` and ``matched_by`` as attributes."""
    natives, job_insists = _natives(traces)
    text, warned = _native.collectives_json(
        natives, as_job=job_insists if as_job is None else as_job, align_clocks=align_clocks)
    return Result("collectives", _job_document(text, warned, 2), {
        "ranks": ("ranks", ()),
        "collectives": ("collectives", ()),
        "collective_ranks": ("collectives[].ranks", ("index",)),
        "by_type": ("by_type", ()),
        "per_rank": ("per_rank", ()),
    })


def critical_path(traces, step=None, as_job=None, align_clocks=True):
    """Per step, the chain of work that bounded it across a job's ranks — ``tensormorph
    critical-path --format json`` as DataFrames: ranks, steps (length, end rank, composition.*),
    pieces (every piece of each step's path, by step and input)."""
    natives, job_insists = _natives(traces)
    text, warned = _native.critical_path_json(
        natives, as_job=job_insists if as_job is None else as_job, align_clocks=align_clocks,
        step=step)
    return Result("critical path", _job_document(text, warned, 2), {
        "ranks": ("ranks", ()),
        "steps": ("steps", ()),
        "pieces": ("steps[].path", ("step", "input")),
    })


def baseline(traces):
    """The traces summarised as `tensormorph baseline save` summarises them: a Profile whose
    ``save(path)`` writes the baseline file `diff` and `report --baseline` read."""
    natives, _ = _natives(traces)
    return _native.profile_of_traces(natives)


def _profile(side):
    """A side of a diff: a Profile, a saved baseline's path, or traces (Trace, Job, path...)."""
    if isinstance(side, _native.Profile):
        return side
    if isinstance(side, (str, os.PathLike)) and os.path.isfile(side):
        saved = _native.read_baseline(os.fspath(side))
        if saved is not None:
            return saved
    return baseline(side)


def diff(base, new, threshold_percent=5, alpha=0.05, top=0, kind="all"):
    """Two profiles (traces or saved baselines) compared per kernel and per op — ``tensormorph
    diff --format json``'s rows, with the verdict, totals and counts in attrs."""
    document = json.loads(_native.diff_json(
        _profile(base), _profile(new), threshold_percent=threshold_percent, alpha=alpha, top=top,
        kind=kind))
    return rows_frame(document)


def report(traces, path, baseline=None, gap_us=100, threshold_percent=5, max_boxes=100_000,
           compare=False, compare_by="shape", labels=None, predict=None, calibration=None,
           device_specs=None):
    """Writes `tensormorph report`'s self-contained HTML page of the traces to `path`:
    ``baseline`` (traces or a saved baseline) adds the diff view, ``compare=True`` the
    comparison of the traces as sides (``labels`` name them), ``predict`` (device keys) the
    Compute panel's predictions on those devices. Returns the path."""
    natives, _ = _natives(traces)
    if (calibration or device_specs) and not _keys(predict):
        raise ValueError("calibration and device_specs are for predict=KEYS")
    targets = _predict_targets(predict, calibration, device_specs) if _keys(predict) else None
    labels = list(labels or [])
    if compare and len(natives) < 2:
        raise ValueError(f"compare needs at least two traces (got {len(natives)}): one per side")
    if labels and not compare:
        raise ValueError("labels name the sides of compare=True")
    if len(labels) > len(natives):
        raise ValueError(f"{len(labels)} labels for {len(natives)} traces: one name per trace")
    page = _native.report_html(
        natives, None if baseline is None else _profile(baseline),
        threshold_percent=threshold_percent, min_gap_ns=round(gap_us * 1000),
        max_boxes=max_boxes, compare_by=compare_by if compare else None, labels=labels,
        predict=targets)
    with open(path, "w", encoding="utf-8") as out:
        out.write(page)
    return path
