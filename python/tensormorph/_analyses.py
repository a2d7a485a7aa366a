"""The analyses, with the command line's options as keyword arguments and its JSON as
DataFrames (see _results)."""

import json
import os

from . import _native
from ._results import Timeline, rows_frame
from ._tables import Job, Trace, _load_one


def _natives(traces):
    """The C++ traces behind `traces` (a Trace, a Job, a path or a list of them), and whether
    they were given as a Job that insists on being one."""
    if isinstance(traces, (Trace, str, os.PathLike)):
        traces = [traces]
    natives = []
    for t in traces:
        if not isinstance(t, Trace):
            t = _load_one(t, None, None, None, None, stacklevel=3)
        natives.append(t._native)
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


def ops(traces, by_instance=False, by_stack=False, backend=None, by_input=False, top=0,
        top_kernels=3):
    """Per framework op: the backend and device that served it, host and device time, kernels,
    FLOPs and roofline position — ``tensormorph ops --format json``'s rows."""
    natives, _ = _natives(traces)
    document = json.loads(_native.ops_json(
        natives, by_instance=by_instance, by_stack=by_stack, backend=backend, by_input=by_input,
        top=top, top_kernels=top_kernels))
    return rows_frame(document)


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
