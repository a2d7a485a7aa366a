"""python3 -m tensormorph.fleet TRACES... [--scheduler ADDRESS] [--workers N] -o fleet.html

Summarises rank traces on Dask: on an existing cluster (--scheduler tcp://HOST:8786), or on a
local one of --workers processes, one thread each. Writes the HTML fleet report, and prints the
stragglers, the failures and the kernels with the most time. Exit status: 0 when every trace was
read, 1 when some could not be (they are listed; the rest is summarised), 2 for usage errors or
when no trace could be read.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence
from typing import TYPE_CHECKING, Optional, TextIO

from .. import TraceError
from .._tables import _expand
from . import FleetSummary, local_cluster, summarize

if TYPE_CHECKING:
    from distributed import LocalCluster


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python3 -m tensormorph.fleet",
        description="Summarise a fleet of rank traces on Dask into an HTML report.")
    parser.add_argument("traces", nargs="+", metavar="TRACE",
                        help="rank trace files, folders of them, or glob patterns")
    parser.add_argument("--scheduler", metavar="ADDRESS",
                        help="a running Dask scheduler (tcp://HOST:8786); default: start a "
                             "local cluster")
    parser.add_argument("--workers", type=int, default=os.cpu_count() or 1, metavar="N",
                        help="worker processes of the local cluster (default: one per core)")
    parser.add_argument("--threads", type=int, default=1, metavar="N",
                        help="parser threads per trace (default 1: one trace per core)")
    parser.add_argument("--relative-accuracy", type=float, default=0.01, metavar="A",
                        help="the quantile sketches' relative error bound (default 0.01)")
    parser.add_argument("--straggler-threshold", type=float, default=10, metavar="PERCENT",
                        help="the wait a rank caused, as a percentage of its job's median step, "
                             "that makes it a straggler (default 10)")
    parser.add_argument("--slow-rank-threshold", type=float, default=25, metavar="PERCENT",
                        help="computation per step above its job's median that makes a rank "
                             "slow (default 25)")
    parser.add_argument("-o", "--output", required=True, metavar="FILE",
                        help="write the HTML fleet report to FILE")
    return parser


def _print_summary(fleet: FleetSummary, out: TextIO) -> None:
    print(f"{len(fleet.ranks)} rank traces summarised, {len(fleet.failed)} could not be read",
          file=out)
    for _, failure in fleet.failed.iterrows():
        print(f"  failed: {failure['error']}", file=out)
    for warning in fleet.warnings:
        print(f"  warning: {warning}", file=out)
    for _, s in fleet.stragglers.iterrows():
        print(f"  straggler: rank {s['rank']} ({s['path']}): {s['reason']}", file=out)
    for _, k in fleet.kernels.head(5).iterrows():
        print(f"  {k['total_ns'] / 1e6:12.3f} ms  {k['count']:>9,}x  {k['name'][:90]}", file=out)


def main(argv: Optional[Sequence[str]] = None) -> int:
    """The command: its exit status (see the module's docstring)."""
    parser = _parser()
    args = parser.parse_args(argv)
    if args.workers < 1:
        parser.error(f"--workers must be 1 or more, not {args.workers}")
    try:
        files = [str(p) for p in _expand(args.traces)]
    except FileNotFoundError as error:
        print(f"tensormorph.fleet: error: {error}", file=sys.stderr)
        return 2
    # Imported here: summarising without Dask (tm.fleet.summarize(client=None)) does not need it.
    from distributed import Client

    try:
        if args.scheduler:
            client = Client(args.scheduler, timeout="30s")
            cluster: Optional[LocalCluster] = None
        else:
            cluster = local_cluster(args.workers)
            client = Client(cluster)
    except OSError as error:
        print(f"tensormorph.fleet: error: cannot reach the Dask scheduler "
              f"{args.scheduler or '(local)'}: {error}", file=sys.stderr)
        return 2
    try:
        fleet = summarize(files, client=client, threads=args.threads,
                          relative_accuracy=args.relative_accuracy,
                          straggler_threshold_percent=args.straggler_threshold,
                          slow_rank_threshold_percent=args.slow_rank_threshold)
    except (ValueError, FileNotFoundError, TraceError) as error:
        print(f"tensormorph.fleet: error: {error}", file=sys.stderr)
        return 2
    finally:
        client.close()
        if cluster is not None:
            cluster.close()
    fleet.report(args.output)
    _print_summary(fleet, sys.stdout)
    print(f"wrote {args.output}", file=sys.stdout)
    if fleet.ranks.empty:
        return 2
    return 1 if len(fleet.failed) else 0


if __name__ == "__main__":
    sys.exit(main())
