"""What ranks reduce to and how those reductions merge.

Invariants:
* A Partial is the summary of a set of rank traces; ``merge`` of two is the Partial of the union
  (kernel statistics add, sketches merge, per-rank rows concatenate). It is associative and
  commutative up to row order, which ``finish`` (_result.py) fixes by sorting, so any merge
  tree gives the same result.
* Its size does not grow with the number of kernel launches: per kernel name and backend a fixed
  set of integers and a sketch of at most ~1,400 buckets, per rank one row, its steps, its total
  per kernel name and its collective calls (tuples; every rank's (name, backend) keys are the
  merged kernels' own key objects, so a name is stored once however many ranks run it). A
  merged rank of the DLRM job takes about 30 KiB (bench/run_fleet.sh's ranks, tracemalloc).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, NamedTuple, Optional, Union

from ._sketch import QuantileSketch

# A kernel's key in the fleet's statistics: (name, backend).
KernelKey = tuple[str, str]


@dataclass
class KernelStats:
    """Exact moments of one kernel name's durations (Python ints) and their sketch."""

    count: int
    total_ns: int
    min_ns: int
    max_ns: int
    sum_squares: int
    sketch: QuantileSketch

    def merge(self, other: KernelStats) -> KernelStats:
        """Adds `other`'s launches (the same kernel's, on other ranks) to these."""
        self.count += other.count
        self.total_ns += other.total_ns
        self.min_ns = min(self.min_ns, other.min_ns)
        self.max_ns = max(self.max_ns, other.max_ns)
        self.sum_squares += other.sum_squares
        self.sketch.merge(other.sketch)
        return self


class CollectiveCall(NamedTuple):
    """One collective kernel of a rank: its keys for matching across ranks (process group and
    Seq; stream_key = (name, the index of its stream among the rank's streams running that name,
    its ordinal on that stream)) and its times."""

    name: str
    type: str
    process_group: Optional[str]
    seq: Optional[int]
    bytes: Optional[int]
    start_ns: int
    end_ns: int
    stream_key: tuple[str, int, int]


# A collective's key for matching: (process group, Seq), or the stream key.
CallKey = Union[tuple[Optional[str], Optional[int]], tuple[str, int, int]]
# A rank's collective calls with what groups them into jobs: (rank, world size, calls).
RankCalls = tuple[Optional[int], Optional[int], list[CollectiveCall]]
# One rank's total for one kernel: (path, (name, backend), count, total_ns).
RankKernel = tuple[str, KernelKey, int, int]


@dataclass
class Partial:
    """The mergeable summary of some rank traces (see the module's invariants)."""

    kernels: dict[KernelKey, KernelStats] = field(default_factory=dict)
    ranks: list[dict[str, Any]] = field(default_factory=list)  # one row per rank trace read
    steps: list[dict[str, Any]] = field(default_factory=list)  # one row per step of each rank
    # Per kernel name of each rank: which ranks are far from the fleet's median for a kernel.
    rank_kernels: list[RankKernel] = field(default_factory=list)
    calls: dict[str, RankCalls] = field(default_factory=dict)  # by path
    failed: list[dict[str, str]] = field(default_factory=list)  # {"path", "error"} per unread
    peak_rss_kib: int = 0  # the largest worker RSS seen (getrusage)

    def merge(self, other: Partial) -> Partial:
        """Adds `other` (the summary of other traces) to this one."""
        for key, stats in other.kernels.items():
            mine = self.kernels.get(key)
            if mine is None:
                self.kernels[key] = stats
            else:
                mine.merge(stats)
        self.ranks.extend(other.ranks)
        self.steps.extend(other.steps)
        key_objects = {key: key for key in self.kernels}
        self.rank_kernels.extend((path, key_objects.get(key, key), count, total_ns)
                                 for path, key, count, total_ns in other.rank_kernels)
        self.calls.update(other.calls)
        self.failed.extend(other.failed)
        self.peak_rss_kib = max(self.peak_rss_kib, other.peak_rss_kib)
        return self


def merge_partials(*partials: Partial) -> Partial:
    """One Partial of several (a node of the merge tree)."""
    merged = Partial()
    for p in partials:
        merged.merge(p)
    return merged
