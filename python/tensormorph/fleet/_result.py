"""The merged Partial of a fleet as DataFrames (FleetSummary).

Exact: count, total_ns, min_ns, max_ns and sum_squares per kernel name and backend (integers
summed without rounding), and from them mean_ns = total / count and stddev_ns, the sample
standard deviation sqrt((n * sum_squares - total^2) / (n (n - 1))) evaluated in integers before
one correctly rounded division (0 for one launch), the kernels command's definitions.

Estimated: median_ns, p90_ns and p99_ns from the merged sketches, each within the sketch's
relative accuracy of numpy.quantile over every duration (_sketch.py says why).
"""

from __future__ import annotations

import dataclasses
import math
import os
from collections.abc import Mapping, Sequence
from typing import Any, Optional, Union

import numpy as np
import pandas as pd

from .._results import frame_of
from ._collectives import analyze_collectives
from ._partial import KernelKey, KernelStats, Partial
from ._sketch import DEFAULT_RELATIVE_ACCURACY

_Row = dict[str, Any]

KERNEL_COLUMNS = ["name", "backend", "count", "total_ns", "mean_ns", "stddev_ns", "median_ns",
                  "p90_ns", "p99_ns", "min_ns", "max_ns", "sum_squares"]


def _kernel_rows(kernels: Mapping[KernelKey, KernelStats]) -> pd.DataFrame:
    """``kernels``: one row per kernel name and backend, by total time."""
    rows: list[_Row] = []
    for (name, backend), s in kernels.items():
        n = s.count
        spread = n * s.sum_squares - s.total_ns * s.total_ns
        median, p90, p99 = s.sketch.quantiles([0.5, 0.9, 0.99])
        rows.append({
            "name": name, "backend": backend, "count": n, "total_ns": s.total_ns,
            "mean_ns": s.total_ns / n, "stddev_ns": math.sqrt(spread / (n * (n - 1))) if n > 1
            else 0.0, "median_ns": median, "p90_ns": p90, "p99_ns": p99, "min_ns": s.min_ns,
            "max_ns": s.max_ns, "sum_squares": s.sum_squares})
    rows.sort(key=lambda r: (-r["total_ns"], r["name"], r["backend"]))
    frame = frame_of(rows) if rows else pd.DataFrame(columns=KERNEL_COLUMNS)
    # Sums of squares pass 2^63 easily (a 3 s kernel alone): Python ints, never wrapped.
    frame["sum_squares"] = pd.array([r["sum_squares"] for r in rows], dtype=object)
    return frame


def _computation_per_step(rank: Mapping[str, Any]) -> Optional[float]:
    """Kernel time outside collectives (timeline's computation_ns) per step, or in all when the
    trace marks no steps: the rank's own work, which waiting for others does not lengthen."""
    computation = rank.get("computation_ns")
    if computation is None:
        return None
    return computation / rank["steps"] if rank.get("steps") else float(computation)


def _median_step_basis(ranks: Sequence[Mapping[str, Any]]) -> tuple[float, str]:
    """The job's median step over its ranks (their device span without steps), and its name."""
    steps = [r["median_step_ns"] for r in ranks if r.get("median_step_ns") is not None]
    if steps:
        return float(np.median(steps)), "median step"
    spans = [r["span_ns"] for r in ranks]
    return (float(np.median(spans)) if spans else 0.0), "device span"


def _job_stragglers(ranks: Sequence[Mapping[str, Any]], wait_threshold_percent: float,
                    slow_threshold_percent: float, rows: list[_Row]) -> None:
    """One job's stragglers (see _stragglers) into `rows`."""
    basis, basis_name = _median_step_basis(ranks)
    computations = [c for c in map(_computation_per_step, ranks) if c is not None]
    typical_computation = float(np.median(computations)) if computations else 0.0
    # The share of a wait caused, as timeline, findings and the report define it: of the other
    # ranks' profiled time (their steps' summed length, their device span without steps).
    profiled = [r["steps_ns"] if r.get("steps") else r["span_ns"] for r in ranks]
    for r, own in zip(ranks, profiled):
        reasons = []
        caused = r.get("wait_caused_ns")
        others = sum(profiled) - own
        share = 100 * caused / others if caused is not None and others > 0 else None
        if basis > 0 and caused is not None and caused > basis * wait_threshold_percent / 100:
            of_others = f"{share:.1f} % of the other ranks' profiled time; " if share else ""
            reasons.append(f"others waited {caused / 1e6:.3f} ms for it at {r['times_last']} "
                           f"collectives ({of_others}more than {wait_threshold_percent:g} % of "
                           f"its job's {basis_name})")
        computation = _computation_per_step(r)
        excess = None
        if typical_computation > 0 and computation is not None:
            excess = 100 * (computation - typical_computation) / typical_computation
            if excess > slow_threshold_percent:
                reasons.append(f"its computation per step is {excess:.0f} % above its job's "
                               f"median")
        if reasons:
            rows.append({"job": r.get("world_size"), "rank": r["rank"], "path": r["path"],
                         "device": r["device"], "median_step_ns": r.get("median_step_ns"),
                         "computation_excess_percent": excess, "wait_caused_ns": caused,
                         "wait_caused_percent": share,
                         "reason": "; ".join(reasons)})


def _stragglers(ranks: Sequence[Mapping[str, Any]], wait_threshold_percent: float,
                slow_threshold_percent: float) -> pd.DataFrame:
    """Per job (the ranks naming one world size; a rank alone has no peers to lag):
    * ranks whose wait caused exceeds wait_threshold % of the median over the job's ranks of
      their median step (the collectives' straggler rule, docs/collectives.md; the device span
      without steps);
    * slow ranks: computation per step (kernels outside collectives) more than slow_threshold %
      above the job's median. Step times are not used: a rank that waits for a straggler has
      long steps too."""
    jobs: dict[Optional[int], list[Mapping[str, Any]]] = {}
    for r in ranks:
        jobs.setdefault(r.get("world_size"), []).append(r)
    rows: list[_Row] = []
    for job_ranks in jobs.values():
        if len(job_ranks) > 1:
            _job_stragglers(job_ranks, wait_threshold_percent, slow_threshold_percent, rows)
    rows.sort(key=lambda s: (-(s["wait_caused_ns"] or 0),
                             -(s["computation_excess_percent"] or 0), s["path"]))
    return frame_of(rows)


def _rank_sort_key(row: Mapping[str, Any]) -> tuple[bool, int, bool, int, str]:
    """Jobs (by world size) in order, then ranks, then paths."""
    world_size, rank = row.get("world_size"), row.get("rank")
    return (world_size is None, world_size or 0, rank is None, rank or 0, row["path"])


@dataclasses.dataclass(frozen=True, eq=False, repr=False)
class FleetSummary:
    """A fleet of rank traces summarised (tm.fleet.summarize).

    kernels: per kernel name and backend, kernels --format json's names (exact count, total,
    min, max, mean, stddev; sketched median, p90, p99) and sum_squares. ranks: one row per rank
    trace read (device, busy, idle, idle gaps by cause, communication/computation overlap, steps,
    kernel time per category, clock offset and waits). steps: every step of every rank.
    collectives: each matched collective (skew, transfer, waits, last rank); arrivals: each
    rank's aligned start, end and wait in each. stragglers: ranks that kept the others waiting or
    whose steps are slow. rank_kernels: each rank's total per kernel name. failed: path and error
    of each trace that could not be read. matched_by (per job, by world size), warnings, the
    thresholds, relative_accuracy and the workers' peak memory (peak_worker_rss_kib) as fields.
    """

    kernels: pd.DataFrame
    ranks: pd.DataFrame
    steps: pd.DataFrame
    collectives: pd.DataFrame
    arrivals: pd.DataFrame
    stragglers: pd.DataFrame
    rank_kernels: pd.DataFrame
    failed: pd.DataFrame
    matched_by: dict[Optional[int], str]
    warnings: list[str]
    relative_accuracy: float
    straggler_threshold_percent: float
    slow_rank_threshold_percent: float
    peak_worker_rss_kib: int

    @classmethod
    def of_partial(cls, partial: Partial, *,
                   relative_accuracy: float = DEFAULT_RELATIVE_ACCURACY,
                   straggler_threshold_percent: float = 10,
                   slow_rank_threshold_percent: float = 25) -> FleetSummary:
        """The summary of the merged Partial of the fleet's traces."""
        collectives = analyze_collectives(partial.calls)
        rows = sorted(partial.ranks, key=_rank_sort_key)
        for row in rows:
            row.update(collectives.per_rank.get(row["path"], {}))
        return cls(
            kernels=_kernel_rows(partial.kernels),
            ranks=frame_of(rows),
            steps=frame_of(sorted(partial.steps, key=lambda s: (
                s["rank"] is None, s["rank"] or 0, s["path"], s["step"]))),
            collectives=frame_of(collectives.collectives),
            arrivals=frame_of(collectives.arrivals),
            stragglers=_stragglers(rows, straggler_threshold_percent,
                                   slow_rank_threshold_percent),
            rank_kernels=pd.DataFrame(
                sorted((path, name, backend, count, total)
                       for path, (name, backend), count, total in partial.rank_kernels),
                columns=["path", "name", "backend", "count", "total_ns"]),
            failed=pd.DataFrame(sorted(partial.failed, key=lambda f: f["path"]),
                                columns=["path", "error"]),
            matched_by=collectives.matched_by,
            warnings=collectives.warnings,
            relative_accuracy=relative_accuracy,
            straggler_threshold_percent=straggler_threshold_percent,
            slow_rank_threshold_percent=slow_rank_threshold_percent,
            peak_worker_rss_kib=partial.peak_rss_kib,
        )

    def report(self, path: Union[str, os.PathLike[str]], *,
               title: str = "tensormorph fleet") -> Union[str, os.PathLike[str]]:
        """Writes the fleet's self-contained HTML report to `path`; returns the path."""
        from ._html import render_fleet_report
        with open(path, "w", encoding="utf-8") as out:
            out.write(render_fleet_report(self, title))
        return path

    def __repr__(self) -> str:
        return (f"<tensormorph FleetSummary: {len(self.ranks)} ranks, {len(self.failed)} failed, "
                f"{len(self.kernels)} kernels, {len(self.collectives)} collectives, "
                f"{len(self.stragglers)} stragglers>")
