"""One rank trace reduced to what the fleet keeps of it (a Partial, _partial.py): this runs on a
Dask worker (or in the caller's process without a client), one trace at a time, and only the
summary leaves it.

What a rank contributes:
* per (kernel name, backend): exact count, total, min, max and sum of squares (Python ints, so
  nothing overflows or rounds) and a QuantileSketch of the durations;
* its row in ``ranks``: the device with the most busy time (a rank trace normally has one), its
  busy, idle and span, the idle gaps over the threshold by cause, communication, computation and
  their overlap (``timeline``'s figures for that device), the step times, the kernel time per
  work category (compare's categories), and the warnings count;
* its steps (``timeline``'s steps of that device) and its collective calls with the keys that
  match them across ranks (see _collectives.py);
* or, when the file cannot be read, its path and the error, counted in ``failed``.
"""

from __future__ import annotations

import json
import resource
import sys
import time
import warnings
from collections.abc import Mapping
from typing import Any, Optional

import numpy as np
import pandas as pd

from .. import _native
from .._errors import TraceError
from .._tables import PathLike, Trace, _load_one
from ._partial import CollectiveCall, KernelKey, KernelStats, Partial
from ._sketch import DEFAULT_RELATIVE_ACCURACY, QuantileSketch

# The timeline's gap threshold for idle by cause: the command line's default (100 us).
GAP_THRESHOLD_NS = 100_000
GAP_CAUSES = ("host_launch_delay", "synchronization", "memcpy_wait", "queued", "unknown",
              "graph_capture")


def _kernel_stats(kernels: pd.DataFrame,
                  relative_accuracy: float) -> dict[KernelKey, KernelStats]:
    """Per (name, backend): exact moments and a sketch, from the launch table's columns."""
    if len(kernels) == 0:
        return {}
    names = kernels["name"].cat
    backends = kernels["backend"].cat
    group = (names.codes.to_numpy().astype(np.int64) * len(backends.categories)
             + backends.codes.to_numpy())
    order = np.argsort(group, kind="stable")
    durations = kernels["duration_ns"].to_numpy()[order]
    group = group[order]
    starts = np.flatnonzero(np.r_[True, group[1:] != group[:-1]])
    ends = np.r_[starts[1:], len(group)]
    totals = np.add.reduceat(durations, starts)
    minima = np.minimum.reduceat(durations, starts)
    maxima = np.maximum.reduceat(durations, starts)
    as_ints = durations.tolist()  # Python ints: exact squares at any size
    out: dict[KernelKey, KernelStats] = {}
    for g, (start, end) in enumerate(zip(starts.tolist(), ends.tolist())):
        code = int(group[start])
        name = names.categories[code // len(backends.categories)]
        backend = backends.categories[code % len(backends.categories)]
        chunk = as_ints[start:end]
        out[(name, backend)] = KernelStats(
            count=end - start, total_ns=int(totals[g]), min_ns=int(minima[g]),
            max_ns=int(maxima[g]), sum_squares=sum(x * x for x in chunk),
            sketch=QuantileSketch(relative_accuracy).add(durations[start:end]))
    return out


def _busiest_device(timeline: Mapping[str, Any]) -> Optional[dict[str, Any]]:
    """The timeline's device with the most busy time (ties: the first input)."""
    devices = timeline.get("devices") or []
    return max(devices, key=lambda d: (d["busy_ns"], -d["input"])) if devices else None


def _rank_row(trace: Trace, timeline: Mapping[str, Any], device: Optional[Mapping[str, Any]],
              categories: Mapping[str, int], warned: list[str],
              seconds: float) -> dict[str, Any]:
    """The rank's row in the fleet's ``ranks`` (see the module's docstring)."""
    gaps = (device or {}).get("gaps", {}).get("by_cause", {})
    steps = (device or {}).get("steps") or []
    step_ns = [s["host_ns"] for s in steps if s.get("host_ns") is not None]
    row: dict[str, Any] = {
        "rank": trace.rank,
        "path": trace.path,
        "world_size": trace.world_size,
        "format": trace.format,
        "device": device["label"] if device else None,
        "devices": len(timeline.get("devices") or []),
        "kernel_count": device["kernel_count"] if device else 0,
        "kernel_ns": device["kernel_ns"] if device else 0,
        "busy_ns": device["busy_ns"] if device else 0,
        "idle_ns": device["idle_ns"] if device else 0,
        "span_ns": device["span_ns"] if device else 0,
        "utilization_percent": device["utilization_percent"] if device else None,
        "communication_ns": device.get("communication_ns") if device else None,
        "computation_ns": device.get("computation_ns") if device else None,
        "comm_comp_overlap_ns": device.get("comm_comp_overlap_ns") if device else None,
        "comm_comp_overlap_percent": device.get("comm_comp_overlap_percent") if device else None,
        "steps": len(steps),
        "median_step_ns": int(np.median(step_ns)) if step_ns else None,
        "steps_ns": int(sum(step_ns)),
        "max_step_ns": max(step_ns) if step_ns else None,
    }
    for cause in GAP_CAUSES:
        row[f"idle_gaps.{cause}_ns"] = gaps.get(cause, {}).get("total_ns", 0)
    for category, device_ns in categories.items():
        row[f"category.{category}_ns"] = device_ns
    row["warnings"] = len(warned)
    row["load_s"] = seconds
    return row


def _categories(native: _native.Trace) -> dict[str, int]:
    """Kernel time per work category, as `compare --by category` files it (every kernel once)."""
    devices = _native.predict_targets([], "", [])
    document = json.loads(_native.compare_json([native], by="category", labels=[], top=0,
                                               devices=devices))
    return {c["category"]: c["sides"][0]["device_ns"] for c in document.get("categories", [])}


def _collective_calls(trace: Trace, native: _native.Trace) -> list[CollectiveCall]:
    """The rank's collective kernels with both matching keys (see _collectives.py)."""
    text, _ = _native.collectives_json([native], as_job=False, align_clocks=False)
    calls: list[dict[str, Any]] = []
    for c in json.loads(text).get("collectives", []):
        mine = c["ranks"][0]
        # Interned: a rank's calls of one kernel share its name (and pickle it once).
        calls.append({"name": sys.intern(c["name"]), "type": sys.intern(c["type"]),
                      "process_group": c["process_group"], "seq": c["seq"],
                      "bytes": mine["bytes"], "start_ns": mine["start_ns"],
                      "end_ns": mine["end_ns"]})
    if not calls:
        return []
    # The stream each ran on, from the launch table, for matching by name and stream order.
    kernels = trace.kernels
    stream_of = dict(zip(zip(kernels["name"].astype(object), kernels["start_ns"]),
                         kernels["stream"]))
    for c in calls:
        c["stream"] = int(stream_of.get((c["name"], c["start_ns"]), -1))
    streams_of_name: dict[str, set[int]] = {}
    for c in calls:
        streams_of_name.setdefault(c["name"], set()).add(c["stream"])
    seen: dict[tuple[str, int], int] = {}
    for c in sorted(calls, key=lambda c: (c["start_ns"], c["end_ns"])):
        nth_stream = sorted(streams_of_name[c["name"]]).index(c["stream"])
        k = seen.get((c["name"], c["stream"]), 0)
        seen[(c["name"], c["stream"])] = k + 1
        c["stream_key"] = (c["name"], nth_stream, k)
    return [CollectiveCall(name=c["name"], type=c["type"], process_group=c["process_group"],
                           seq=c["seq"], bytes=c["bytes"], start_ns=c["start_ns"],
                           end_ns=c["end_ns"], stream_key=c["stream_key"]) for c in calls]


def summarize_rank(path: PathLike, *, threads: int = 1,
                   relative_accuracy: float = DEFAULT_RELATIVE_ACCURACY) -> Partial:
    """The Partial of one rank trace; a trace that cannot be read gives a Partial with its
    failure (never an exception: one bad file must not stop the fleet)."""
    started = time.monotonic()
    try:
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            trace = _load_one(path, threads, None, None, None, stacklevel=2)
        warned = [str(w.message) for w in caught]
        native = trace._native
        timeline = json.loads(_native.timeline_json(
            [native], min_gap_ns=GAP_THRESHOLD_NS, straggler_threshold_percent=10,
            queue_limit=1024, as_job=False))
        device = _busiest_device(timeline)
        row = _rank_row(trace, timeline, device, _categories(native), warned,
                        time.monotonic() - started)
        steps = [{"rank": trace.rank, "path": trace.path, "step": s["step"],
                  "host_ns": s.get("host_ns"), "device_busy_ns": s.get("device_busy_ns"),
                  "device_span_ns": s.get("device_span_ns")}
                 for s in (device or {}).get("steps") or []]
        kernels = _kernel_stats(trace.kernels, relative_accuracy)
        partial = Partial(
            kernels=kernels, ranks=[row], steps=steps,
            rank_kernels=[(trace.path, key, s.count, s.total_ns) for key, s in kernels.items()],
            calls={trace.path: (trace.rank, trace.world_size, _collective_calls(trace, native))})
    except TraceError as error:
        partial = Partial(failed=[{"path": str(path), "error": str(error)}])
    except (OSError, ValueError, RuntimeError, MemoryError) as error:
        partial = Partial(failed=[{"path": str(path),
                                   "error": f"{path}: {type(error).__name__}: {error}"}])
    partial.peak_rss_kib = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return partial
