"""A mergeable quantile sketch of durations with a relative-error bound (the DDSketch scheme of
Masson, Rim and Lee, VLDB 2019), so that a fleet's median, p90 and p99 per kernel never need all
the durations in one place.

Invariants:
* A positive value x goes to bucket i = ceil(log_gamma(x)), gamma = (1 + a) / (1 - a) for the
  relative accuracy a; bucket i holds (gamma^(i-1), gamma^i]. Its representative
  2 gamma^i / (gamma + 1) is within a relative error a of every value in it. Zeros have their own
  bucket, represented exactly by 0. Negative durations do not occur (the importers order
  start <= end) and are refused.
* Merging adds bucket counts, so it is exact, associative and commutative: a sketch of many
  ranks merged in any tree is the sketch of all their values.
* ``quantile(q)`` estimates numpy's default ("linear") quantile: with h = q (n - 1), the order
  statistics x_floor(h) and x_ceil(h), interpolated. Each is estimated within a relative error a,
  so their convex combination is too (the values are not negative): the bound holds for every q.
  With q = 0.5 this is the kernels command's median (the mean of the two middle values for an
  even count).
* Size: one bucket per distinct index; durations from 1 ns to 10^12 ns span at most
  ln(10^12) / ln(gamma) ~ 1,400 buckets at a = 1 %, whatever the count.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Optional

import numpy as np
import numpy.typing as npt

DEFAULT_RELATIVE_ACCURACY = 0.01


class QuantileSketch:
    """Bucket counts of non-negative values; ``add``, ``merge``, ``quantile``, ``count``."""

    __slots__ = ("relative_accuracy", "_log_gamma", "_gamma", "_buckets", "zeros", "count")

    def __init__(self, relative_accuracy: float = DEFAULT_RELATIVE_ACCURACY) -> None:
        if not 0 < relative_accuracy < 1:
            raise ValueError(f"relative_accuracy must be in (0, 1), not {relative_accuracy}")
        self.relative_accuracy = relative_accuracy
        self._gamma = (1 + relative_accuracy) / (1 - relative_accuracy)
        self._log_gamma = math.log(self._gamma)
        self._buckets: dict[int, int] = {}  # bucket index -> count
        self.zeros = 0
        self.count = 0

    def add(self, values: npt.ArrayLike) -> QuantileSketch:
        """Adds an array of non-negative values (int64 nanoseconds)."""
        array = np.asarray(values)
        if array.size == 0:
            return self
        if (array < 0).any():
            raise ValueError("a duration sketch holds values >= 0")
        positive = array[array > 0].astype(np.float64)
        self.zeros += int(array.size - positive.size)
        self.count += int(array.size)
        if positive.size:
            indexes = np.ceil(np.log(positive) / self._log_gamma).astype(np.int64)
            found, counts = np.unique(indexes, return_counts=True)
            buckets = self._buckets
            for index, count in zip(found.tolist(), counts.tolist()):
                buckets[index] = buckets.get(index, 0) + count
        return self

    def merge(self, other: QuantileSketch) -> QuantileSketch:
        """Adds `other`'s counts (a sketch of the same accuracy) to this one."""
        if other.relative_accuracy != self.relative_accuracy:
            raise ValueError("sketches of different accuracy do not merge")
        buckets = self._buckets
        for index, count in other._buckets.items():
            buckets[index] = buckets.get(index, 0) + count
        self.zeros += other.zeros
        self.count += other.count
        return self

    def _order_statistics(self, ranks: Sequence[int]) -> list[float]:
        """The estimates of the 0-based order statistics `ranks` (ascending)."""
        out: list[float] = []
        wanted = iter(ranks)
        rank = next(wanted, None)
        seen = self.zeros
        while rank is not None and rank < seen:
            out.append(0.0)
            rank = next(wanted, None)
        for index in sorted(self._buckets):
            seen += self._buckets[index]
            while rank is not None and rank < seen:
                out.append(2 * self._gamma ** index / (self._gamma + 1))
                rank = next(wanted, None)
            if rank is None:
                break
        return out

    def quantiles(self, qs: Sequence[float]) -> list[Optional[float]]:
        """numpy.quantile(values, q)'s estimates for each q in `qs` (None when empty)."""
        if self.count == 0:
            return [None] * len(qs)
        positions = [q * (self.count - 1) for q in qs]
        ranks = sorted({r for h in positions for r in (math.floor(h), math.ceil(h))})
        value = dict(zip(ranks, self._order_statistics(ranks)))
        out: list[Optional[float]] = []
        for h in positions:
            low, high = math.floor(h), math.ceil(h)
            out.append(value[low] + (h - low) * (value[high] - value[low]))
        return out

    def quantile(self, q: float) -> Optional[float]:
        """numpy.quantile(values, q)'s estimate (None when empty)."""
        return self.quantiles([q])[0]

    def bucket_count(self) -> int:
        """The buckets held (the zeros' included): the sketch's size."""
        return len(self._buckets) + (1 if self.zeros else 0)
