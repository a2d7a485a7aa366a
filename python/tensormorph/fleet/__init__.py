"""Fleet-scale summaries: hundreds to thousands of rank traces, each read by a Dask worker and
reduced to a small mergeable summary; the summaries merge in a tree, so neither the client nor
any worker ever holds more than one trace's rows (docs/python.md, "Fleets on Dask").

    import tensormorph as tm
    from distributed import Client
    fleet = tm.fleet.summarize("traces/rank*.json.gz", client=Client("tcp://head:8786"))
    fleet.kernels        # per kernel: exact count/total/min/max/mean/stddev, sketched quantiles
    fleet.ranks          # one row per rank trace
    fleet.failed         # the traces that could not be read, with their errors
    fleet.report("fleet.html")

From a shell: ``python3 -m tensormorph.fleet TRACES... [--scheduler ADDRESS] [--workers N]
-o fleet.html``.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Any, Optional, Union

from .._tables import PathLike, _expand
from ._partial import Partial, merge_partials
from ._rank import summarize_rank
from ._result import FleetSummary
from ._sketch import DEFAULT_RELATIVE_ACCURACY, QuantileSketch

__all__ = ["FleetSummary", "QuantileSketch", "WORKER_MALLOC_ENVIRON", "local_cluster", "summarize",
           "summarize_rank"]

# Dask's nanny starts workers with MALLOC_TRIM_THRESHOLD_=65536, and setting any glibc malloc
# threshold also fixes the mmap threshold at 128 KiB: every chunk buffer of every trace is then
# mapped fresh and faulted in page by page, which made reading a rank trace 2.5x slower in a
# worker than in this process (docs/python.md, "Fleets on Dask"). These are the values glibc's
# own dynamic thresholds reach at most on 64-bit (mmap 32 MiB, trim twice that): the parser's
# 4 MiB chunk buffers are reused from the heap, and free heap above 64 MiB goes back to the
# system.
WORKER_MALLOC_ENVIRON = {"MALLOC_TRIM_THRESHOLD_": 64 << 20, "MALLOC_MMAP_THRESHOLD_": 32 << 20}


if TYPE_CHECKING:  # Dask is imported where it is used: summarising without it needs none
    from distributed import Client, Future, LocalCluster


def local_cluster(n_workers: int, **kwargs: Any) -> LocalCluster:
    """A distributed.LocalCluster of n_workers processes of one thread each, whose workers
    start with WORKER_MALLOC_ENVIRON."""
    import dask
    from distributed import LocalCluster

    environ = {f"distributed.nanny.pre-spawn-environ.{name}": value
               for name, value in WORKER_MALLOC_ENVIRON.items()}
    with dask.config.set(environ):
        return LocalCluster(n_workers=n_workers, threads_per_worker=1, processes=True,
                            dashboard_address=None, **kwargs)


def _tree_reduce(client: Client, futures: list[Future], fan_in: int) -> Partial:
    """Merges the futures' Partials fan_in at a time on the workers until one is left."""
    while len(futures) > 1:
        futures = [client.submit(merge_partials, *futures[i:i + fan_in], pure=False)
                   for i in range(0, len(futures), fan_in)]
    merged: Partial = futures[0].result()
    return merged


def summarize(paths: Union[PathLike, Iterable[PathLike]], *, client: Optional[Client] = None,
              threads: int = 1, relative_accuracy: float = DEFAULT_RELATIVE_ACCURACY,
              straggler_threshold_percent: float = 10, slow_rank_threshold_percent: float = 25,
              fan_in: int = 8) -> FleetSummary:
    """Summarises rank traces (files, folders of them, or globs) into a FleetSummary.

    client: a ``distributed.Client``; each worker task reads one trace, and the summaries merge
    in a tree of ``fan_in`` on the workers. None reads the traces here, one at a time, with the
    same functions. threads: parser threads per trace (1 suits one task per core; 0 = one per
    core). relative_accuracy: the quantile sketches' bound (1 %). straggler_threshold_percent:
    the wait a rank caused, as a percentage of its job's median step, that makes it a straggler
    (the collectives' rule); slow_rank_threshold_percent: computation per step above its job's
    median that makes a rank slow. A trace that cannot be read is listed in ``failed`` with its
    error, and the others are still summarised.
    """
    if fan_in < 2:
        raise ValueError(f"fan_in must be 2 or more, not {fan_in}")
    files = [str(p) for p in _expand(paths)]
    if not files:
        raise ValueError("no rank traces given")
    if client is None:
        merged = merge_partials()
        for path in files:
            merged.merge(summarize_rank(path, threads=threads,
                                        relative_accuracy=relative_accuracy))
    else:
        futures = client.map(summarize_rank, files, threads=threads,
                             relative_accuracy=relative_accuracy, pure=False)
        merged = _tree_reduce(client, futures, fan_in)
    return FleetSummary.of_partial(merged, relative_accuracy=relative_accuracy,
                                   straggler_threshold_percent=straggler_threshold_percent,
                                   slow_rank_threshold_percent=slow_rank_threshold_percent)
