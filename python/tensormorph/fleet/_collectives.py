"""The fleet's collectives: each rank's collective calls (from its summary) matched across ranks,
clocks aligned, and per collective the skew, the waits and the last rank, by the definitions of
`tensormorph collectives` (docs/collectives.md), computed here from the ranks' summaries:

* Jobs: a fleet may hold the ranks of several jobs. Ranks are grouped by the world size their
  traces name (the ranks of one job agree on it, as `DescribeJob` requires), and each group is
  matched on its own; ``job`` is that world size (null: not named).
* Matching: by (process group, Seq) when every call on every rank has both; else by kernel name
  and stream order (the k-th call of that name on the i-th stream, by id, that runs the name on
  that rank). A collective is matched when every rank with collective calls has it; the others
  are counted in a warning. Ranks without any collective call take no part (a CPU-only trace in
  the fleet would otherwise leave nothing matched).
* Clock offsets: rank r's offset from the lowest rank is the median (the lower-rounded mean of
  the two middle values for an even count) over the matched collectives of r's end minus the
  lowest rank's end; its uncertainty 1.4826 x the median absolute deviation, rounded.
* Per collective: skew = last start - first start (aligned times); a rank's wait = max(0,
  min(end, last start) - start); transfer = max(0, last end - last start); the last rank has the
  latest start (ties: the lowest rank).
* Per rank: wait suffered = its waits summed; wait caused = the other ranks' waits at the
  collectives it was last at; times last.

The per-rank late cause (computation, communication or idle before the collective) needs each
rank's device work between collectives, which a summary does not keep; `tensormorph collectives`
over those ranks' traces gives it.
"""

from __future__ import annotations

import dataclasses
import math
from collections import defaultdict
from collections.abc import Mapping, Sequence
from typing import Any, Optional

from ._partial import CallKey, CollectiveCall, RankCalls

# A rank in the matching: its path and (rank, world size, calls).
_Rank = tuple[str, RankCalls]


@dataclasses.dataclass
class CollectivesAnalysis:
    """The fleet's collectives: rows of ``collectives`` and ``arrivals``, each rank's figures
    by path (``per_rank``), how each job (world size) was matched, and the warnings."""

    collectives: list[dict[str, Any]] = dataclasses.field(default_factory=list)
    arrivals: list[dict[str, Any]] = dataclasses.field(default_factory=list)
    per_rank: dict[str, dict[str, Any]] = dataclasses.field(default_factory=dict)
    matched_by: dict[Optional[int], str] = dataclasses.field(default_factory=dict)
    warnings: list[str] = dataclasses.field(default_factory=list)


def _median_floor(values: Sequence[int]) -> int:
    """The median, the lower-rounded mean of the two middle values for an even count."""
    ordered = sorted(values)
    n = len(ordered)
    if n % 2:
        return ordered[n // 2]
    return (ordered[n // 2 - 1] + ordered[n // 2]) // 2


def _rank_order(item: _Rank) -> tuple[bool, int, str]:
    path, (rank, _, _) = item
    return (rank is None, rank if rank is not None else 0, path)


def _job_order(world_size: Optional[int]) -> tuple[bool, int]:
    return (world_size is None, world_size or 0)


def analyze_collectives(calls_by_path: Mapping[str, RankCalls]) -> CollectivesAnalysis:
    """calls_by_path: path -> (rank, world size, [CollectiveCall]) from the rank summaries."""
    jobs: dict[Optional[int], list[_Rank]] = {}
    for path, (rank, world_size, calls) in calls_by_path.items():
        if calls:
            jobs.setdefault(world_size, []).append((path, (rank, world_size, calls)))
    out = CollectivesAnalysis()
    for world_size in sorted(jobs, key=_job_order):
        _analyze_job(world_size, sorted(jobs[world_size], key=_rank_order), out)
    return out


def _analyze_job(job: Optional[int], ranks: Sequence[_Rank], out: CollectivesAnalysis) -> None:
    """One job's ranks (sorted by rank), into `out`."""
    prefix = f"job of world size {job}: " if job is not None else "ranks naming no world size: "
    if len(ranks) < 2:
        for path, _ in ranks:
            out.per_rank[path] = {"job": job}
        return
    by_seq = all(c.process_group is not None and c.seq is not None
                 for _, (_, _, calls) in ranks for c in calls)
    matched_by = "process group and Seq" if by_seq else "kernel name and stream order"
    out.matched_by[job] = matched_by

    def key_of(c: CollectiveCall) -> CallKey:
        return (c.process_group, c.seq) if by_seq else c.stream_key

    keyed: list[tuple[str, Optional[int], dict[CallKey, CollectiveCall]]] = []
    for path, (rank, _, calls) in ranks:
        table: dict[CallKey, CollectiveCall] = {}
        for c in calls:
            table.setdefault(key_of(c), c)
        keyed.append((path, rank, table))
    on_every_rank = set(keyed[0][2])
    for _, _, table in keyed[1:]:
        on_every_rank &= set(table)
    unmatched = sum(len(table) - len(on_every_rank) for _, _, table in keyed)
    if unmatched:
        out.warnings.append(
            f"{prefix}{unmatched} collective kernels are on some ranks only (matched by "
            f"{matched_by}) and are left out")
    common = sorted(on_every_rank, key=lambda k: (keyed[0][2][k].start_ns, str(k)))

    lowest = keyed[0][2]
    offsets: dict[str, tuple[int, Optional[int]]] = {}
    for path, rank, table in keyed:
        if table is lowest or not common:
            offsets[path] = (0, None)
            continue
        differences = [table[k].end_ns - lowest[k].end_ns for k in common]
        median = _median_floor(differences)
        spread = _median_floor([abs(d - median) for d in differences])
        offsets[path] = (median, math.floor(1.4826 * spread + 0.5))

    # path -> [suffered, caused, times last]
    waits: defaultdict[str, list[int]] = defaultdict(lambda: [0, 0, 0])
    instances: list[dict[str, Any]] = []
    for k in common:
        # (path, rank, aligned start, aligned end, call)
        timings: list[tuple[str, Optional[int], int, int, CollectiveCall]] = []
        for path, rank, table in keyed:
            c = table[k]
            offset = offsets[path][0]
            timings.append((path, rank, c.start_ns - offset, c.end_ns - offset, c))
        first_start = min(t[2] for t in timings)
        last = timings[0]
        for t in timings[1:]:
            if t[2] > last[2]:
                last = t
        last_start = last[2]
        last_end = max(t[3] for t in timings)
        wait_of = {t[0]: max(0, min(t[3], last_start) - t[2]) for t in timings}
        total_wait = sum(wait_of.values())
        for path, w in wait_of.items():
            waits[path][0] += w
        waits[last[0]][1] += total_wait - wait_of[last[0]]
        waits[last[0]][2] += 1
        sizes = [t[4].bytes for t in timings if t[4].bytes is not None]
        first_call = timings[0][4]
        instances.append({
            "job": job, "name": first_call.name, "type": first_call.type,
            "process_group": first_call.process_group, "seq": first_call.seq,
            "bytes": max(sizes) if sizes else None, "ranks": len(timings),
            "first_start_ns": first_start, "last_start_ns": last_start, "last_end_ns": last_end,
            "skew_ns": last_start - first_start, "transfer_ns": max(0, last_end - last_start),
            "duration_ns": last_end - first_start, "wait_ns": total_wait,
            "last_rank": last[1], "last_path": last[0],
            "_timings": [(t[0], t[1], t[2], t[3], wait_of[t[0]]) for t in timings]})
    instances.sort(key=lambda i: (i["first_start_ns"], i["name"]))
    for index, instance in enumerate(instances):
        instance["index"] = index
        for path, rank, start, end, wait in instance.pop("_timings"):
            out.arrivals.append({"job": job, "index": index, "rank": rank, "path": path,
                                 "start_ns": start, "end_ns": end, "wait_ns": wait,
                                 "late_ns": start - instance["first_start_ns"]})
    out.collectives.extend({"index": i.pop("index"), **i} for i in instances)

    transfers = [i["transfer_ns"] for i in instances]
    typical = _median_floor(transfers) if transfers else None
    for path, rank, _ in keyed:
        offset, uncertainty = offsets[path]
        suffered, caused, times_last = waits[path]
        out.per_rank[path] = {
            "job": job, "clock_offset_ns": offset, "offset_uncertainty_ns": uncertainty,
            "collectives": len(common), "wait_suffered_ns": suffered, "wait_caused_ns": caused,
            "times_last": times_last}
        if uncertainty is not None and typical is not None and uncertainty > typical:
            out.warnings.append(
                f"{prefix}rank {rank}'s clock offset ({offset} ns) is uncertain by {uncertainty} "
                f"ns, more than the median transfer ({typical} ns): its skews and waits are not "
                f"reliable")
