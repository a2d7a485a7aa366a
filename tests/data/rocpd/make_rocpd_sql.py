#!/usr/bin/env python3
"""Writes the rocpd test databases as SQL text (run once; the output is checked in):

  kernel_trace_results.sql  one rocprofv3 run: the dispatches of kernel_trace.csv
  merged_results.sql        five runs in one file, as `rocpd merge` writes them (each run's
                            tables with its own uuid suffix, unsuffixed UNION ALL views)

  python3 tests/data/rocpd/make_rocpd_sql.py [SHARED_DATA]   (default ../shared/data)

No real rocpd database is public, so the tables (rocpd_schema.sql, our DDL from the published
rocpd 3.0.1 names) are filled with the real rows of the rocprofv3 documentation samples in
SHARED_DATA/other/rocprofv3 (rocm-systems @1b1610fc, see PROVENANCE.md). Those samples come from
different runs, so each becomes its own process:
  run 1  kernel_trace.csv        pid 834304 (the CSV has no process id: its only Thread_Id)
  run 2  hip_trace.csv           pid 15
  run 3  memory_copy_trace.csv   pid 1 (no process id in the CSV); size 0 (the CSV has no bytes)
  run 4  counter_collection.csv  pid 15606; one dispatch per Dispatch_Id, Grid/Workgroup_Size as x
  run 5  rocpd-to-csv.csv        pid 137, the real guid of that rocpd database
and, alone in memory_results.sql, run 6: run 1's kernels with rocpd_memory_allocate rows, those of
memory_allocation_trace.csv and others NOT from the samples (memory_run says which).
Not from the samples: the agents (tests/data/rocprofv3_agent_info.csv, itself hand-written; run 4
ran on "Agent 1", so its GPU row is that file's node 2 renumbered 1), the uuids of runs 1-4
(made up, uuid v7 shaped), and in run 5 ONE SYNTHETIC dispatch "synthetic_launched_kernel" for its
hipLaunchKernel (correlation 10): no public sample pairs a HIP launch with its dispatch.
Event categories are the CSVs' Kind / Domain texts (rocprofiler's buffer tracing kind names).
"""
import csv
import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
DATA = sys.argv[1] if len(sys.argv) > 1 else os.path.join(HERE, "../../../../shared/data")
SAMPLES = os.path.join(DATA, "other/rocprofv3")


def rows(name):
    with open(os.path.join(SAMPLES, name), newline="") as f:
        return list(csv.DictReader(f))


def q(v):
    if v is None:
        return "NULL"
    if isinstance(v, (int, float)):
        return repr(v)
    return "'" + str(v).replace("'", "''") + "'"


def agent_rows():
    with open(os.path.join(HERE, "../rocprofv3_agent_info.csv"), newline="") as f:
        return list(csv.DictReader(f))


class Run:
    def __init__(self, guid, pid):
        self.guid, self.pid = guid, pid
        self.uuid = "_" + guid.replace("-", "_")
        self.sql = []
        self.strings = {}
        self.events = 0

    def insert(self, table, **cols):
        names = ", ".join('"%s"' % k for k in cols)
        values = ", ".join(q(v) for v in cols.values())
        self.sql.append('INSERT INTO "%s%s" (%s) VALUES (%s);' % (table, self.uuid, names, values))

    def string(self, text):
        if text not in self.strings:
            self.strings[text] = len(self.strings) + 1
            self.insert("rocpd_string", id=self.strings[text], guid=self.guid, string=text)
        return self.strings[text]

    def event(self, category, stack_id, extdata="{}"):
        self.events += 1
        self.insert("rocpd_event", id=self.events, guid=self.guid,
                    category_id=self.string(category), stack_id=stack_id,
                    parent_stack_id=stack_id, correlation_id=0, extdata=extdata)
        return self.events

    def header(self, command, agents):
        self.insert("rocpd_metadata", id=1, tag="schema_version", value="3.0.1")
        self.insert("rocpd_metadata", id=2, tag="uuid", value=self.uuid[1:])
        self.insert("rocpd_metadata", id=3, tag="guid", value=self.guid)
        self.insert("rocpd_info_node", id=1, guid=self.guid, hash=1, machine_id="test-node")
        self.insert("rocpd_info_process", id=self.pid, guid=self.guid, nid=1, pid=self.pid,
                    command=command)
        for a in agents:
            ext = {"node_id": int(a["Node_Id"]), "logical_node_id": int(a["Logical_Node_Id"]),
                   "cu_count": int(a["Cu_Count"]), "simd_per_cu": int(a["Simd_Per_Cu"]),
                   "wave_front_size": int(a["Wave_Front_Size"]),
                   "max_waves_per_cu": int(a["Max_Waves_Per_Cu"]),
                   "lds_size_in_kb": int(a["Lds_Size_In_Kb"]),
                   "gfx_target_version": int(a["Gfx_Target_Version"]),
                   "max_engine_clk_fcompute": int(a["Max_Engine_Clk_Fcompute"]),
                   "name": a["Name"], "product_name": a["Product_Name"]}
            self.insert("rocpd_info_agent", id=int(a["Node_Id"]), guid=self.guid, nid=1,
                        pid=self.pid, type=a["Agent_Type"], absolute_index=int(a["Node_Id"]),
                        logical_index=int(a["Logical_Node_Id"]), type_index=0, name=a["Name"],
                        vendor_name=a["Vendor_Name"], product_name=a["Product_Name"],
                        extdata=json.dumps(ext))

    def thread(self, tid):
        self.insert("rocpd_info_thread", id=tid, guid=self.guid, nid=1, pid=self.pid, tid=tid)

    def ddl(self, schema):
        return schema.replace("{{uuid}}", self.uuid).replace("{{guid}}", self.guid)


def agent_number(text):
    return int(text.split()[-1])


def kernel_run(guid):
    run = Run(guid, 834304)
    run.header("kernel_trace.csv sample", agent_rows())
    run.thread(834304)
    seen = set()
    for r in rows("kernel_trace.csv"):
        kid = int(r["Kernel_Id"])
        if kid not in seen:
            seen.add(kid)
            run.insert("rocpd_info_kernel_symbol", id=kid, guid=guid, nid=1, pid=run.pid,
                       code_object_id=1, kernel_name=r["Kernel_Name"],
                       display_name=r["Kernel_Name"], group_segment_size=int(r["LDS_Block_Size"]),
                       private_segment_size=int(r["Scratch_Size"]),
                       sgpr_count=int(r["SGPR_Count"]), arch_vgpr_count=int(r["VGPR_Count"]),
                       accum_vgpr_count=int(r["Accum_VGPR_Count"]))
    for queue in sorted({int(r["Queue_Id"]) for r in rows("kernel_trace.csv")}):
        run.insert("rocpd_info_queue", id=queue, guid=guid, nid=1, pid=run.pid,
                   name="Queue %d" % queue)
    for stream in sorted({int(r["Stream_Id"]) for r in rows("kernel_trace.csv")}):
        run.insert("rocpd_info_stream", id=stream, guid=guid, nid=1, pid=run.pid,
                   name="Stream %d" % stream)
    for r in rows("kernel_trace.csv"):
        event = run.event(r["Kind"], int(r["Correlation_Id"]))
        run.insert("rocpd_kernel_dispatch", id=int(r["Dispatch_Id"]), guid=guid, nid=1,
                   pid=run.pid, tid=int(r["Thread_Id"]), agent_id=agent_number(r["Agent_Id"]),
                   kernel_id=int(r["Kernel_Id"]), dispatch_id=int(r["Dispatch_Id"]),
                   queue_id=int(r["Queue_Id"]), stream_id=int(r["Stream_Id"]),
                   start=int(r["Start_Timestamp"]), end=int(r["End_Timestamp"]),
                   private_segment_size=int(r["Scratch_Size"]),
                   group_segment_size=int(r["LDS_Block_Size"]),
                   workgroup_size_x=int(r["Workgroup_Size_X"]),
                   workgroup_size_y=int(r["Workgroup_Size_Y"]),
                   workgroup_size_z=int(r["Workgroup_Size_Z"]),
                   grid_size_x=int(r["Grid_Size_X"]), grid_size_y=int(r["Grid_Size_Y"]),
                   grid_size_z=int(r["Grid_Size_Z"]), event_id=event)
    return run


def api_run(guid, pid, sample):
    run = Run(guid, pid)
    run.header(sample + " sample", agent_rows())
    for tid in sorted({int(r["Thread_Id"]) for r in rows(sample)}):
        run.thread(tid)
    for r in rows(sample):
        event = run.event(r["Domain"], int(r["Correlation_Id"]))
        run.insert("rocpd_region", id=int(r["Correlation_Id"]), guid=guid, nid=1, pid=pid,
                   tid=int(r["Thread_Id"]), start=int(r["Start_Timestamp"]),
                   end=int(r["End_Timestamp"]), name_id=run.string(r["Function"]),
                   event_id=event)
    return run


def copy_run(guid):
    run = Run(guid, 1)
    run.header("memory_copy_trace.csv sample", agent_rows())
    for i, r in enumerate(rows("memory_copy_trace.csv"), 1):
        event = run.event(r["Kind"], int(r["Correlation_Id"]))
        run.insert("rocpd_memory_copy", id=i, guid=guid, nid=1, pid=1,
                   start=int(r["Start_Timestamp"]), end=int(r["End_Timestamp"]),
                   name_id=run.string(r["Direction"]),
                   src_agent_id=agent_number(r["Source_Agent_Id"]),
                   dst_agent_id=agent_number(r["Destination_Agent_Id"]), size=0,
                   stream_id=int(r["Stream_Id"]), event_id=event)
    return run


def counter_run(guid):
    samples = rows("counter_collection.csv")
    run = Run(guid, int(samples[0]["Process_Id"]))
    agents = agent_rows()
    gpu = dict(agents[2], Node_Id="1", Logical_Node_Id="1")
    run.header("counter_collection.csv sample", [agents[0], gpu])
    run.thread(int(samples[0]["Thread_Id"]))
    counters, dispatch_events, symbols = {}, {}, set()
    for r in samples:
        name = r["Counter_Name"]
        if name not in counters:
            counters[name] = len(counters) + 1
            run.insert("rocpd_info_pmc", id=counters[name], guid=guid, nid=1, pid=run.pid,
                       agent_id=agent_number(r["Agent_Id"]), target_arch="GPU", name=name,
                       symbol=name, component="rocm", value_type="ABS")
        kid = int(r["Kernel_Id"])
        if kid not in symbols:
            symbols.add(kid)
            run.insert("rocpd_info_kernel_symbol", id=kid, guid=guid, nid=1, pid=run.pid,
                       code_object_id=1, kernel_name=r["Kernel_Name"],
                       display_name=r["Kernel_Name"], sgpr_count=int(r["SGPR_Count"]),
                       arch_vgpr_count=int(r["VGPR_Count"]),
                       accum_vgpr_count=int(r["Accum_VGPR_Count"]))
        did = int(r["Dispatch_Id"])
        if did not in dispatch_events:
            dispatch_events[did] = run.event("KERNEL_DISPATCH", int(r["Correlation_Id"]))
            run.insert("rocpd_kernel_dispatch", id=did, guid=guid, nid=1, pid=run.pid,
                       tid=int(r["Thread_Id"]), agent_id=agent_number(r["Agent_Id"]),
                       kernel_id=kid, dispatch_id=did, queue_id=int(r["Queue_Id"]), stream_id=0,
                       start=int(r["Start_Timestamp"]), end=int(r["End_Timestamp"]),
                       private_segment_size=int(r["Scratch_Size"]),
                       group_segment_size=int(r["LDS_Block_Size"]),
                       workgroup_size_x=int(r["Workgroup_Size"]), workgroup_size_y=1,
                       workgroup_size_z=1, grid_size_x=int(r["Grid_Size"]), grid_size_y=1,
                       grid_size_z=1, event_id=dispatch_events[did])
        run.insert("rocpd_pmc_event", id=len(run.sql), guid=guid, event_id=dispatch_events[did],
                   pmc_id=counters[name], value=float(r["Counter_Value"]))
    return run


def launch_run(guid):
    run = api_run(guid, 137, "rocpd-to-csv.csv")
    launch = [r for r in rows("rocpd-to-csv.csv") if r["Function"] == "hipLaunchKernel"][0]
    # SYNTHETIC (see the docstring): the dispatch of that launch, 10 us after it returns.
    start = int(launch["End_Timestamp"]) + 10000
    run.insert("rocpd_info_kernel_symbol", id=1, guid=guid, nid=1, pid=137, code_object_id=1,
               kernel_name="synthetic_launched_kernel", display_name="synthetic_launched_kernel",
               sgpr_count=16, arch_vgpr_count=8, accum_vgpr_count=0)
    event = run.event("KERNEL_DISPATCH", int(launch["Correlation_Id"]))
    run.insert("rocpd_kernel_dispatch", id=1, guid=guid, nid=1, pid=137, tid=137, agent_id=4,
               kernel_id=1, dispatch_id=1, queue_id=1, stream_id=0, start=start, end=start + 5000,
               group_segment_size=0, workgroup_size_x=256, workgroup_size_y=1, workgroup_size_z=1,
               grid_size_x=1048576, grid_size_y=1, grid_size_z=1, event_id=event)
    return run


def memory_run(guid):
    """Run 1's kernels with allocations: the REAL rows of memory_allocation_trace.csv (host memory
    on CPU agent 0; frees with size 0 and no agent, as rocprofv3 writes them), then rows that are
    NOT real: GPU memory on agents 2 and 3 (a free without size or agent, a REALLOC without an
    agent, which stays on its allocation's device), and a
    VIRTUAL and a SCRATCH row, which are not the program's allocations."""
    run = kernel_run(guid)
    allocations = []
    for r in rows("memory_allocation_trace.csv"):
        free = r["Operation"].endswith("FREE")
        allocations.append((None if not r["Agent_Id"] else agent_number(r["Agent_Id"]),
                            "FREE" if free else "ALLOC", "REAL", int(r["Start_Timestamp"]),
                            int(r["End_Timestamp"]), int(r["Address"], 16),
                            int(r["Allocation_Size"])))
    t = 816098791300000  # between the real rows
    gib = 1 << 30
    allocations += [  # NOT real (see the docstring)
        (2, "ALLOC", "REAL", t, t + 100, 0x7f5000000000, gib),
        (2, "ALLOC", "REAL", t + 100000, t + 100100, 0x7f5040000000, gib // 2),
        (None, "FREE", "REAL", t + 200000, t + 200100, 0x7f5000000000, 0),
        (2, "ALLOC", "REAL", t + 300000, t + 300100, 0x7f5080000000, 3 * gib // 4),
        (None, "REALLOC", "REAL", t + 350000, t + 350100, 0x7f5080000000, gib // 4),
        (3, "ALLOC", "REAL", t + 10000, t + 10100, 0x7f6000000000, gib // 16),
        (2, "ALLOC", "VIRTUAL", t + 20000, t + 20100, 0x7f7000000000, 1 << 40),
        (2, "ALLOC", "SCRATCH", t + 30000, t + 30100, 0x7f8000000000, gib // 8),
    ]
    for i, (agent, kind, level, start, end, address, size) in enumerate(allocations, 1):
        run.insert("rocpd_memory_allocate", id=i, guid=guid, nid=1, pid=run.pid, tid=run.pid,
                   agent_id=agent, type=kind, level=level, start=start, end=end, address=address,
                   size=size)
    return run


def write(path, runs, schema):
    tables = [line.split('"')[1].replace("{{uuid}}", "")
              for line in schema.splitlines() if line.startswith("CREATE TABLE")]
    with open(path, "w") as out:
        out.write("-- Generated by make_rocpd_sql.py from the rocprofv3 samples (see its "
                  "docstring); do not edit.\n")
        for run in runs:
            out.write(run.ddl(schema) + "\n".join(run.sql) + "\n")
        for table in tables:
            union = " UNION ALL ".join('SELECT * FROM "%s%s"' % (table, r.uuid) for r in runs)
            out.write('CREATE VIEW "%s" AS %s;\n' % (table, union))


def main():
    with open(os.path.join(HERE, "rocpd_schema.sql")) as f:
        schema = "".join(l for l in f if not l.startswith("--"))
    guid = "00000000-0000-7000-8000-00000000000%d"
    write(os.path.join(HERE, "kernel_trace_results.sql"), [kernel_run(guid % 1)], schema)
    write(os.path.join(HERE, "memory_results.sql"), [memory_run(guid % 6)], schema)
    write(os.path.join(HERE, "merged_results.sql"),
          [kernel_run(guid % 1), api_run(guid % 2, 15, "hip_trace.csv"), copy_run(guid % 3),
           counter_run(guid % 4), launch_run("0000ddb5-8903-7903-b269-cd8d3745bb8a")], schema)


if __name__ == "__main__":
    main()
