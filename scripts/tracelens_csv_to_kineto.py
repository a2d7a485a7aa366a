#!/usr/bin/python3
"""Reconstruct a minimal PyTorch-profiler (Kineto) Chrome trace from a TraceLens
`ops_unique_args.csv` (one row per unique (op name, input shapes/types/...) with
per-row kernel aggregates in `kernel_details_summary`).

The result is NOT a raw trace: every call of a row gets the same kernels, each with
that kernel's mean duration for the row (durations are rounded to 1 ns with the
rounding residual carried forward so that the per-row sum of emitted kernel time
equals the row's sum of per-kernel total_duration_us). Events are laid out
sequentially: one op at a time, CPU launches then GPU kernels, no overlap.

Usage:
    python3 scripts/tracelens_csv_to_kineto.py CSV DEVICE OUT.json.gz [--order csv|ex_uid]
        [--runtime-names cuda|hip] [--device-properties-from KINETO_TRACE]
DEVICE is h100 or mi300 (runtime names default to cuda and hip). --device-properties-from copies
the first deviceProperties entry of a real trace of the same machine, so that the device matches
the device database as that trace's does (the shared TraceLens pairs, for TraceLens's tables).
Only the Python standard library is used.

This is how docs/predict.md's "models it has never seen" figures were made, from AMD-AGI/TraceLens
tests/traces/{h100,mi300}/{gaunernst_bert-small-uncased__1016001,
Falconsai_nsfw_image_detection__1016002}_perf_report_csvs/ops_unique_args.csv.
"""
import argparse
import ast
import csv
import gzip
import json
import sys

DEVICES = {
    "h100": {"id": 0, "name": "NVIDIA H100 80GB HBM3", "totalGlobalMem": 85029158912,
             "computeMajor": 9, "computeMinor": 0, "numSms": 132},
    "mi300": {"id": 0, "name": "AMD Instinct MI300X VF", "totalGlobalMem": 205822885888,
              "computeMajor": 9, "computeMinor": 4, "numSms": 304},
}

RUNTIME_NAMES = {
    "cuda": {"kernel": "cudaLaunchKernel", "gpu_memcpy": "cudaMemcpyAsync", "gpu_memset": "cudaMemsetAsync"},
    "hip": {"kernel": "hipLaunchKernel", "gpu_memcpy": "hipMemcpyAsync", "gpu_memset": "hipMemsetAsync"},
}

CPU_PID, CPU_TID, GPU_PID = 1, 1, 0
BASE_TS = 1000.0      # us
OP_GAP = 5.0          # us between ops
RT_DUR = 2.0          # us per runtime (launch) call
RT_GAP = 1.0          # us between consecutive runtime calls inside an op
LAUNCH_LAT = 1.0      # us from end of runtime call to earliest kernel start
OP_PAD = 1.0          # us of cpu_op before its first / after its last runtime call


# ---------------------------------------------------------------- parsing helpers
class _StripNpScalars(ast.NodeTransformer):
    """np.float64(x) / np.int64(x) / numpy.float32(x) ... -> x"""

    def visit_Call(self, node):
        self.generic_visit(node)
        f = node.func
        if (isinstance(f, ast.Attribute) and isinstance(f.value, ast.Name)
                and f.value.id in ("np", "numpy") and len(node.args) == 1 and not node.keywords):
            return node.args[0]
        return node


def safe_eval(text):
    """literal_eval that tolerates numpy scalar reprs (np.float64(1.5))."""
    tree = ast.parse(text.strip(), mode="eval")
    tree = _StripNpScalars().visit(tree)
    ast.fix_missing_locations(tree)
    return ast.literal_eval(tree)


def to_lists(x):
    if isinstance(x, (tuple, list)):
        return [to_lists(v) for v in x]
    return x


def parse_tuple_col(text):
    text = (text or "").strip()
    if not text:
        return None
    return to_lists(ast.literal_eval(text))


def r3(x):
    return round(x + 0.0, 3)


def kernel_cat(name):
    if name.startswith("Memcpy"):
        return "gpu_memcpy"
    if name.startswith("Memset"):
        return "gpu_memset"
    return "kernel"


def split_evenly(total, n):
    """total launches over n calls, as evenly as possible (earlier calls get the extra)."""
    q, r = divmod(total, n)
    return [q + (1 if i < r else 0) for i in range(n)]


# ---------------------------------------------------------------- conversion
def convert(csv_path, device, out_path, order="csv", runtime_names=None, verbose=True,
            device_properties=None):
    if runtime_names is None:
        runtime_names = "hip" if device == "mi300" else "cuda"
    rt_names = RUNTIME_NAMES[runtime_names]
    with open(csv_path, newline="", encoding="utf-8") as fh:
        rows = list(csv.DictReader(fh))
    if order == "ex_uid":
        rows.sort(key=lambda r: int(float(r["ex_UID"])) if r.get("ex_UID") else 10**12)

    events = []
    notes = []
    ext_id = 0
    corr = 0
    cpu_t = BASE_TS
    gpu_t = BASE_TS
    first_op_ts = None
    streams = set()
    checks = []

    for ri, row in enumerate(rows):
        n_calls = int(float(row["operation_count"]))
        kd_text = (row.get("kernel_details_summary") or "").strip()
        kernels = safe_eval(kd_text) if kd_text else []
        if not kernels:
            notes.append(f"row {ri} {row['name']}: no kernel details")

        # Per kernel entry: launches per call + per-launch durations (ns-rounded, residual carried).
        plan = []  # list of (kernel dict, launches_per_call list, durations list in launch order)
        row_emitted_target = 0.0
        for k in kernels:
            cnt = int(k["count"])
            mean = float(k["mean_duration_us"])
            tot = float(k.get("total_duration_us", mean * cnt))
            if cnt % n_calls != 0:
                notes.append(f"row {ri} {row['name']} kernel '{k['name'][:60]}': count {cnt} "
                             f"not a multiple of operation_count {n_calls} -> spread {split_evenly(cnt, n_calls)}")
            per_call = split_evenly(cnt, n_calls)
            # durations: mean each, rounded so cumulative sum tracks mean*i at 1 ns
            durs = []
            prev = 0.0
            for i in range(1, cnt + 1):
                cum = r3(mean * i)
                durs.append(r3(cum - prev))
                prev = cum
            plan.append((k, per_call, durs))
            row_emitted_target += tot

        # the row's recorded arguments, the same for each of its calls: lists of shapes, and of
        # strings for the type and value columns
        shape_args = {}
        for column, as_text in (("Input Dims", False), ("Input type", True),
                                ("Input Strides", False), ("Concrete Inputs", True)):
            value = parse_tuple_col(row.get(column))
            if value is not None:
                shape_args[column] = [str(x) for x in value] if as_text else value

        # emit calls
        row_emitted = 0.0
        n_kernels_row = 0
        cursors = [0] * len(plan)  # next duration index per kernel entry
        for c in range(n_calls):
            ext_id += 1
            op_ts = max(cpu_t, gpu_t) + (OP_GAP if ext_id > 1 else 0.0)
            if first_op_ts is None:
                first_op_ts = op_ts
            t = op_ts + OP_PAD
            gt = max(gpu_t, op_ts)
            child = []
            for pi, (k, per_call, durs) in enumerate(plan):
                stream = int(k.get("stream", 0))
                streams.add(stream)
                cat = kernel_cat(k["name"])
                for _ in range(per_call[c]):
                    corr += 1
                    dur = durs[cursors[pi]]
                    cursors[pi] += 1
                    rt_ts = t
                    k_ts = max(gt, rt_ts + RT_DUR + LAUNCH_LAT)
                    child.append({"ph": "X", "cat": "cuda_runtime", "name": rt_names[cat],
                                  "pid": CPU_PID, "tid": CPU_TID, "ts": r3(rt_ts), "dur": RT_DUR,
                                  "args": {"External id": ext_id, "correlation": corr}})
                    child.append({"ph": "s", "cat": "ac2g", "name": "ac2g", "id": corr,
                                  "pid": CPU_PID, "tid": CPU_TID, "ts": r3(rt_ts)})
                    child.append({"ph": "X", "cat": cat, "name": k["name"],
                                  "pid": GPU_PID, "tid": stream, "ts": r3(k_ts), "dur": dur,
                                  "args": {"External id": ext_id, "correlation": corr,
                                           "device": 0, "stream": stream}})
                    child.append({"ph": "f", "bp": "e", "cat": "ac2g", "name": "ac2g", "id": corr,
                                  "pid": GPU_PID, "tid": stream, "ts": r3(k_ts)})
                    t = rt_ts + RT_DUR + RT_GAP
                    gt = k_ts + dur
                    row_emitted += dur
                    n_kernels_row += 1
            op_end = (t - RT_GAP + OP_PAD) if child else (op_ts + 10.0)
            args = {"External id": ext_id, "Record function id": ext_id, "Ev Idx": ext_id - 1,
                    **shape_args}
            events.append({"ph": "X", "cat": "cpu_op", "name": row["name"], "pid": CPU_PID,
                           "tid": CPU_TID, "ts": r3(op_ts), "dur": r3(op_end - op_ts), "args": args})
            events.extend(child)
            cpu_t = op_end
            gpu_t = gt if child else gpu_t
        csv_sum = float(row["total_direct_kernel_time_sum"]) if row.get("total_direct_kernel_time_sum") else 0.0
        checks.append((ri, row["name"], n_calls, n_kernels_row, row_emitted, row_emitted_target, csv_sum))

    end_t = max(cpu_t, gpu_t) + 1.0
    step_ts = (first_op_ts if first_op_ts is not None else BASE_TS) - 1.0
    meta = [
        {"ph": "M", "name": "process_name", "pid": CPU_PID, "tid": 0, "ts": BASE_TS, "args": {"name": "python3"}},
        {"ph": "M", "name": "process_labels", "pid": CPU_PID, "tid": 0, "ts": BASE_TS, "args": {"labels": "CPU"}},
        {"ph": "M", "name": "thread_name", "pid": CPU_PID, "tid": CPU_TID, "ts": BASE_TS,
         "args": {"name": f"thread {CPU_TID} (python3)"}},
        {"ph": "M", "name": "process_name", "pid": GPU_PID, "tid": 0, "ts": BASE_TS, "args": {"name": "python3"}},
        {"ph": "M", "name": "process_labels", "pid": GPU_PID, "tid": 0, "ts": BASE_TS, "args": {"labels": "GPU 0"}},
    ]
    for s in sorted(streams):
        meta.append({"ph": "M", "name": "thread_name", "pid": GPU_PID, "tid": s, "ts": BASE_TS,
                     "args": {"name": f"stream {s}"}})
    step = {"ph": "X", "cat": "user_annotation", "name": "ProfilerStep#1", "pid": CPU_PID, "tid": CPU_TID,
            "ts": r3(step_ts), "dur": r3(end_t - step_ts), "args": {"External id": 0, "Record function id": 0}}

    trace = {
        "schemaVersion": 1,
        "deviceProperties": [device_properties or DEVICES[device]],
        "displayTimeUnit": "ms",
        "traceName": f"reconstructed from {csv_path}",
        "traceEvents": meta + [step] + events,
    }
    with gzip.open(out_path, "wt", encoding="utf-8") as fh:
        json.dump(trace, fh)

    if verbose:
        worst = 0.0
        for ri, name, n, nk, em, tgt, cs in checks:
            d_t = em - tgt
            d_c = em - cs
            worst = max(worst, abs(d_c))
            flag = "" if abs(d_c) < 5e-3 else "   <-- MISMATCH"
            print(f"  row {ri:2d} {name:32s} calls={n:3d} kernels={nk:3d} emitted={em:10.3f} "
                  f"sum(kernel total_duration_us)={tgt:10.3f} (d={d_t:+.4f}) "
                  f"total_direct_kernel_time_sum={cs:12.6f} (d={d_c:+.4f}){flag}")
        print(f"  max |emitted - total_direct_kernel_time_sum| per row = {worst:.6f} us")
        for n in notes:
            print("  NOTE:", n)
    return trace, checks, notes


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("csv")
    ap.add_argument("device", choices=sorted(DEVICES))
    ap.add_argument("out")
    ap.add_argument("--order", choices=["csv", "ex_uid"], default="csv",
                    help="row order: as in the CSV (default) or by ex_UID (approx. first appearance)")
    ap.add_argument("--device-properties-from", metavar="KINETO_TRACE",
                    help="copy deviceProperties[0] from this (optionally gzipped) Kineto trace")
    ap.add_argument("--runtime-names", choices=sorted(RUNTIME_NAMES), default=None,
                    help="names of the runtime launch events (default: hip for mi300, else cuda)")
    a = ap.parse_args(argv)
    print(f"{a.csv} -> {a.out}")
    properties = None
    if a.device_properties_from:
        opener = gzip.open if a.device_properties_from.endswith(".gz") else open
        with opener(a.device_properties_from, "rt") as f:
            properties = dict(json.load(f)["deviceProperties"][0], id=0)
    convert(a.csv, a.device, a.out, order=a.order, runtime_names=a.runtime_names,
            device_properties=properties)


if __name__ == "__main__":
    sys.exit(main())
