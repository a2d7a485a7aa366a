"""The analyses, with the command line's options as keyword-only arguments and its JSON as
typed results holding DataFrames (see _results)."""

from __future__ import annotations

import json
import os
import warnings
from collections.abc import Iterable, Sequence
from typing import Any, Optional, Union

from . import _native
from ._errors import TraceWarning
from ._results import (CollectivesResult, CompareResult, CriticalPathResult, DiffResult,
                       FindingsResult, KernelsResult, MemoryResult, OccupancyResult, OpsResult,
                       PredictResult, RooflineResult, Timeline, WhatIfResult)
from ._tables import Job, PathLike, Trace, Traces, _expand, _load_one

# Device-database keys: "a100-sxm4-80gb,mi300x" (the command line's text) or a list of keys.
DeviceKeys = Union[str, Iterable[str], None]
# Files of --device-spec: one path or several.
SpecFiles = Union[PathLike, Iterable[PathLike], None]
# A side of a diff: a Profile (tm.baseline), a saved baseline's path, or traces.
ProfileLike = Union[_native.Profile, Traces]

# The options' defaults are the library's (its options structs), read once here by native function
# and argument name, so that the signatures below show them and never restate them.
_DEFAULTS: dict[str, dict[str, Any]] = _native.option_defaults()
_OPS = _DEFAULTS["ops_json"]
_TIMELINE = _DEFAULTS["timeline_json"]
_FINDINGS = _DEFAULTS["findings_json"]
_MEMORY = _DEFAULTS["memory_json"]
_DIFF = _DEFAULTS["diff_json"]
_REPORT = _DEFAULTS["report_html"]


def _natives(traces: Traces) -> tuple[list[_native.Trace], bool]:
    """The C++ traces behind `traces` (a Trace, a Job, a path, a folder of rank traces, a glob,
    or a list of them), and whether they were given as a Job that insists on being one."""
    given = traces
    if isinstance(traces, (Trace, str, os.PathLike)):
        traces = [traces]
    natives: list[_native.Trace] = []
    for t in traces:
        if isinstance(t, Trace):
            natives.append(t._native)
            continue
        # A path: a folder of rank traces or a glob reads as its files, as load_job reads them.
        natives.extend(_load_one(p, None, None, None, None, stacklevel=3)._native
                       for p in _expand(t))
    if not natives:
        raise ValueError("no traces given")
    return natives, isinstance(given, Job) and given.as_job


def kernels(traces: Traces, *, group_by: str = "name", backend: Optional[str] = None,
            device: Optional[str] = None, by_input: bool = False,
            name_filter: Optional[str] = None, top: int = 0) -> KernelsResult:
    """Per kernel name (or device, or stream): count, total_ns, mean_ns, median_ns, min_ns,
    max_ns, stddev_ns, percent — ``tensormorph kernels --format json``'s rows, in ``rows``."""
    natives, _ = _natives(traces)
    document = json.loads(_native.kernels_json(
        natives, group_by=group_by, backend=backend, device=device or "", by_input=by_input,
        name_filter=name_filter or "", top=top))
    return KernelsResult.from_document(document)


def _keys(devices: DeviceKeys) -> list[str]:
    """Device-database keys as a list: "a100-sxm4-80gb,mi300x" or a list of keys."""
    if devices is None:
        return []
    if isinstance(devices, str):
        return [k.strip() for k in devices.split(",")] if devices.strip() else []
    return list(devices)


def _predict_targets(devices: DeviceKeys = None, calibration: Optional[PathLike] = None,
                     device_specs: SpecFiles = None) -> _native.PredictTargets:
    """The device table (built-in, with `device_specs` files applied), the calibration file and
    the target keys, resolved as the command line resolves --predict/--device."""
    if isinstance(device_specs, (str, os.PathLike)):
        device_specs = [device_specs]
    return _native.predict_targets(
        _keys(devices), os.fspath(calibration) if calibration else "",
        [os.fspath(p) for p in device_specs or []])


def ops(traces: Traces, *, by_instance: bool = False, by_stack: bool = False,
        backend: Optional[str] = None, by_input: bool = False, top: int = 0,
        top_kernels: int = _OPS["top_kernels"], predict: DeviceKeys = None,
        calibration: Optional[PathLike] = None, device_specs: SpecFiles = None) -> OpsResult:
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
    return OpsResult.from_document(document)


def compare(traces: Traces, *, by: str = "shape", labels: Optional[Iterable[str]] = None,
            top: int = 0, device_specs: SpecFiles = None) -> CompareResult:
    """Profiles of one workload side by side (devices, backends, software), op by op —
    ``tensormorph compare --format json`` as DataFrames: sides (each input's totals), rows (one
    per op, shape, stack or category; ``sides``, ``ratio`` and ``children`` as lists in their
    cells), row_sides (each row's cell on each side, by ``key`` and ``side``), categories (device
    time per category and side); ``verdict`` and the other members as fields."""
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
    return CompareResult.from_document(document)


def predict(trace: Traces, *, devices: DeviceKeys = None, measured: Optional[Traces] = None,
            calibration: Optional[PathLike] = None, device_specs: SpecFiles = None,
            top: int = 0) -> PredictResult:
    """What other devices would have taken for the trace's ops — ``tensormorph predict
    --format json`` as DataFrames: rows (per op and input shapes; ``predictions`` as a list in
    the cell), predictions (one per row and target, by ``key``), categories (per category and
    target), totals (per target); ``evaluation`` (with ``measured``: a trace of the same workload
    on a target device, whose device becomes the first target) and ``source_device`` as
    fields."""
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
    return PredictResult.from_document(document)


def timeline(traces: Traces, *, gap_us: float = _TIMELINE["min_gap_ns"] / 1000,
             straggler_threshold_percent: float = _TIMELINE["straggler_threshold_percent"],
             queue_limit: int = _TIMELINE["queue_limit"],
             as_job: Optional[bool] = None) -> Timeline:
    """Per device: busy time, utilization, streams, concurrency, idle gaps and their causes,
    launch latency, steps; per rank for a job — ``tensormorph timeline --format json`` as a
    Timeline of DataFrames."""
    natives, job_insists = _natives(traces)
    if gap_us < 0:
        raise ValueError(f"gap_us must be 0 or more, not {gap_us}")
    document = json.loads(_native.timeline_json(
        natives, min_gap_ns=round(gap_us * 1000),
        straggler_threshold_percent=straggler_threshold_percent,
        queue_limit=queue_limit, as_job=job_insists if as_job is None else as_job))
    return Timeline.from_document(document)


def roofline(traces: Traces, *, top: int = 0) -> RooflineResult:
    """Per kernel: arithmetic intensity, achieved FLOP/s, the device's ceiling and the bound —
    ``tensormorph roofline --format json``'s rows (traces with hardware counters)."""
    natives, _ = _natives(traces)
    return RooflineResult.from_document(json.loads(_native.roofline_json(natives, top=top)))


def occupancy(traces: Traces, *, arch: Optional[str] = None, top: int = 0) -> OccupancyResult:
    """Per kernel launch configuration: theoretical occupancy, its limiter, achieved occupancy
    where the trace has it — ``tensormorph occupancy TRACE --format json``'s rows."""
    natives, _ = _natives(traces)
    return OccupancyResult.from_document(
        json.loads(_native.occupancy_json(natives, arch=arch, top=top)))


def findings(traces: Traces, *, gap_us: float = _FINDINGS["min_gap_ns"] / 1000,
             attainable_roof_percent: float = _FINDINGS["attainable_roof_percent"],
             slow_copy_percent: float = _FINDINGS["slow_copy_percent"],
             straggler_threshold_percent: float = _FINDINGS["straggler_threshold_percent"],
             top_items: int = _FINDINGS["top_items"],
             as_job: Optional[bool] = None, simulate: bool = True) -> FindingsResult:
    """What to fix first — ``tensormorph findings --format json``'s findings, one row each in
    ``rows`` (``where`` flattened to where.device...; evidence and top items as lists in their
    cells); ``total_gain_ns`` a field. Each fix is simulated on the trace (``simulated_step_ns``,
    ``simulated_gain_ns``; ``tm.whatif``) and the findings ranked by the simulated gain where
    there is one, else the estimated gain; ``simulate=False`` is ``findings --no-simulate``."""
    natives, job_insists = _natives(traces)
    if gap_us < 0:
        raise ValueError(f"gap_us must be 0 or more, not {gap_us}")
    document = json.loads(_native.findings_json(
        natives, min_gap_ns=round(gap_us * 1000), attainable_roof_percent=attainable_roof_percent,
        slow_copy_percent=slow_copy_percent,
        straggler_threshold_percent=straggler_threshold_percent, top_items=top_items,
        as_job=job_insists if as_job is None else as_job, simulate=simulate))
    return FindingsResult.from_document(document)


def memory(traces: Traces, *, top: int = _MEMORY["top"]) -> MemoryResult:
    """Where the memory went, per device — ``tensormorph memory --format json`` as DataFrames:
    devices (peak allocated and reserved, basis, capacity), at_peak (what was alive at the peak, by
    op), by_op (allocations per op), largest (the largest allocations) and steps (allocated at each
    ProfilerStep's start and end), each keyed by its device's input and device (docs/memory.md)."""
    natives, _ = _natives(traces)
    if top < 0:
        raise ValueError(f"top must be 0 or more, not {top}")
    document = json.loads(_native.memory_json(natives, top=top))
    return MemoryResult.from_document(document)


def _job_document(json_text: str, warned: list[str], stacklevel: int) -> dict[str, Any]:
    """A job analysis's document, its warnings passed on as TraceWarnings."""
    for message in warned:
        warnings.warn(TraceWarning(message), stacklevel=stacklevel + 1)
    document: dict[str, Any] = json.loads(json_text)
    return document


def collectives(traces: Traces, *, as_job: Optional[bool] = None,
                align_clocks: bool = True) -> CollectivesResult:
    """NCCL/RCCL collectives matched across a job's ranks — ``tensormorph collectives --format
    json`` as DataFrames: ranks (clock offsets), collectives (one row per instance),
    collective_ranks (each rank's start, end and wait in each, by the instance's index), by_type,
    per_rank (waits suffered and caused, late cause); ``job`` and ``matched_by`` as fields."""
    natives, job_insists = _natives(traces)
    text, warned = _native.collectives_json(
        natives, as_job=job_insists if as_job is None else as_job, align_clocks=align_clocks)
    return CollectivesResult.from_document(_job_document(text, warned, 2))


def critical_path(traces: Traces, *, step: Optional[int] = None, as_job: Optional[bool] = None,
                  align_clocks: bool = True) -> CriticalPathResult:
    """Per step, the chain of work that bounded it across a job's ranks — ``tensormorph
    critical-path --format json`` as DataFrames: ranks, steps (length, end rank, composition.*),
    pieces (every piece of each step's path, by step and input)."""
    natives, job_insists = _natives(traces)
    text, warned = _native.critical_path_json(
        natives, as_job=job_insists if as_job is None else as_job, align_clocks=align_clocks,
        step=step)
    return CriticalPathResult.from_document(_job_document(text, warned, 2))


def whatif(traces: Traces, *, speedup: Optional[dict[str, float]] = None,
           remove_sync: Sequence[str] = (), no_host_gaps: bool = False, findings: bool = True,
           as_job: Optional[bool] = None, align_clocks: bool = True) -> WhatIfResult:
    """The step after a fix, simulated from the trace's own dependencies — ``tensormorph whatif
    --format json`` as DataFrames: steps (measured, replayed with no change, unexplained),
    scenarios (one per finding with a simulated fix, "all findings", and yours: ``speedup``
    {PATTERN: FACTOR} as ``--speedup PATTERN=FACTOR``, ``remove_sync`` call names,
    ``no_host_gaps``), scenario_steps (each scenario's steps, by ``name``)."""
    natives, job_insists = _natives(traces)
    text, warned = _native.whatif_json(
        natives, speedups=list((speedup or {}).items()), remove_syncs=list(remove_sync),
        no_host_gaps=no_host_gaps, findings=findings,
        as_job=job_insists if as_job is None else as_job, align_clocks=align_clocks)
    return WhatIfResult.from_document(_job_document(text, warned, 2))


def baseline(traces: Traces) -> _native.Profile:
    """The traces summarised as `tensormorph baseline save` summarises them: a Profile whose
    ``save(path)`` writes the baseline file `diff` and `report --baseline` read."""
    natives, _ = _natives(traces)
    return _native.profile_of_traces(natives)


def _profile(side: ProfileLike) -> _native.Profile:
    """A side of a diff: a Profile, a saved baseline's path, or traces (Trace, Job, path...)."""
    if isinstance(side, _native.Profile):
        return side
    if isinstance(side, (str, os.PathLike)) and os.path.isfile(side):
        saved = _native.read_baseline(os.fspath(side))
        if saved is not None:
            return saved
    return baseline(side)


def diff(base: ProfileLike, new: ProfileLike, *,
         threshold_percent: float = _DIFF["threshold_percent"], alpha: float = _DIFF["alpha"],
         top: int = 0, kind: str = "all") -> DiffResult:
    """Two profiles (traces or saved baselines) compared per kernel and per op — ``tensormorph
    diff --format json``'s rows, with the verdict, totals and counts as fields."""
    document = json.loads(_native.diff_json(
        _profile(base), _profile(new), threshold_percent=threshold_percent, alpha=alpha, top=top,
        kind=kind))
    return DiffResult.from_document(document)


def report(traces: Traces, path: PathLike, *, baseline: Optional[ProfileLike] = None,
           gap_us: float = _REPORT["min_gap_ns"] / 1000,
           threshold_percent: float = _REPORT["threshold_percent"],
           max_boxes: int = _REPORT["max_boxes"],
           compare: bool = False, compare_by: str = "shape",
           labels: Optional[Iterable[str]] = None, predict: DeviceKeys = None,
           calibration: Optional[PathLike] = None, device_specs: SpecFiles = None) -> PathLike:
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
