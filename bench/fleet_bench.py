"""One measurement of tm.fleet.summarize for bench/run_fleet.sh: prints one line of JSON with the
wall time, this process's peak RSS (with a local cluster, the client and the scheduler) and
the workers' peak RSS.

    python3 bench/fleet_bench.py WORKERS TRACE...   (WORKERS 0: no Dask, all in this process)
"""

import json
import resource
import sys
import time

import tensormorph as tm


def main():
    workers, files = int(sys.argv[1]), sys.argv[2:]
    if workers == 0:
        started = time.monotonic()
        fleet = tm.fleet.summarize(files)
        wall = time.monotonic() - started
    else:
        from distributed import Client

        with tm.fleet.local_cluster(workers) as cluster, Client(cluster) as client:
            client.wait_for_workers(workers)
            started = time.monotonic()  # the cluster's start-up is not the summary's time
            fleet = tm.fleet.summarize(files, client=client)
            wall = time.monotonic() - started
    print(json.dumps({
        "workers": workers, "ranks": len(fleet.ranks), "failed": len(fleet.failed),
        "kernels": int(fleet.kernels["count"].sum()), "wall_s": round(wall, 3),
        "client_rss_kib": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss,
        "worker_rss_kib": fleet.peak_worker_rss_kib}))


if __name__ == "__main__":
    main()
