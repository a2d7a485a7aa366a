"""tensormorph: which kernel launch, on which backend and device, took how long, and how well
each operation's placement performed — from the traces each backend's profiler writes.

    import tensormorph as tm
    trace = tm.load("trace.json.gz")      # Kineto, Nsight Systems, rocprof, XPlane, ... by content
    trace.kernels                          # one row per launch (pandas DataFrame)
    tm.kernels(trace).rows                 # `tensormorph kernels --format json`'s rows
    tm.timeline(tm.load_job("ranks/"))     # a job's ranks

The numbers are the command line's: the same C++ library and serializers (docs/python.md).
"""

from ._analyses import (baseline, collectives, compare, critical_path, diff, findings, kernels,
                        memory, occupancy, ops, predict, report, roofline, timeline, whatif)
from . import _native, fleet
from ._errors import TraceError, TraceWarning
from ._results import (CollectivesResult, CompareResult, CriticalPathResult, DiffResult,
                       FindingsResult, KernelsResult, MemoryResult, OccupancyResult, OpsResult,
                       PredictResult, Result, RooflineResult, Timeline, WhatIfResult)
from ._snapshot import Snapshot, SnapshotError, load_snapshot
from ._tables import Job, Trace, load, load_job

__version__: str = _native.version.split()[-1]

__all__ = [
    "CollectivesResult", "CompareResult", "CriticalPathResult", "DiffResult", "FindingsResult",
    "Job", "KernelsResult", "MemoryResult", "OccupancyResult", "OpsResult", "PredictResult",
    "Result", "RooflineResult", "Snapshot", "SnapshotError", "Timeline", "Trace", "TraceError",
    "TraceWarning", "WhatIfResult", "baseline", "collectives", "compare", "critical_path", "diff",
    "findings", "kernels", "load", "load_job", "load_snapshot", "memory", "occupancy", "ops",
    "predict", "report", "roofline", "timeline", "whatif",
]
