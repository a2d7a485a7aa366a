// The Compute panel: per framework operation, which backend and device served it and what it
// cost on the host and on the device. Kernels are attributed through LinkTrace (work_links.h);
// kernels that no op launched are summarised in their own rows, by why they could not be linked.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "tensormorph/analysis/roofline.h"
#include "tensormorph/devices/device_db.h"
#include "tensormorph/link/linked_trace.h"
#include "tensormorph/model/trace.h"

namespace tensormorph {

struct OpQuery {
  bool by_instance = false;        // one row per op call instead of per name
  bool by_stack = false;           // key rows by module path (nn.Module / annotations) + name
  std::optional<Backend> backend;  // keep ops with device work on this backend
  bool by_input = false;           // keep inputs apart instead of combining them
  size_t top = 0;                  // keep the N largest rows; 0 = all
  size_t top_kernels = 3;          // kernels listed per op
  // The device table for the rows' roof and bound (built-in entries with --device-spec files
  // applied); null = BuiltInDevices().
  const std::vector<DeviceSpec>* devices = nullptr;
};

// One backend/device an op's kernels ran on.
struct OpPlacement {
  Backend backend = Backend::kOther;
  std::string device;  // DeviceLabel
  int64_t device_ns = 0;
  uint64_t kernels = 0;
};

struct OpKernel {
  std::string name;
  uint64_t count = 0;
  int64_t total_ns = 0;
};

struct OpRow {
  // The op name (aten::addmm); the annotation name for kernels attributed to a record_function
  // range; for kernels with neither, a description of why ("(launched outside any op)").
  std::string name;
  std::string stack;      // module path when by_stack, "a > b > c"; empty otherwise
  int input = -1;         // index into the inputs, when by_input or by_instance
  int64_t start_ns = -1;  // by_instance: when the call started
  uint64_t calls = 0;
  int64_t host_ns = 0;  // summed inclusive wall time of the calls
  // Device time of the kernels this op launched itself (it is their innermost op), and of those
  // launched anywhere inside it (its children's too; each kernel counted once per name).
  int64_t device_ns = 0;
  int64_t device_inclusive_ns = 0;
  uint64_t kernels = 0;                 // kernel launches it made itself
  uint64_t graph_kernels = 0;           // of those, kernels of graph replays
  int64_t transfer_ns = 0;              // memcpy/memset time it launched itself
  std::vector<OpPlacement> placements;  // by device time, largest first
  std::vector<OpKernel> top_kernels;
  // Work estimated from recorded shapes (src/link (op_work*.cc)), summed over calls with shapes.
  std::optional<double> flops;
  std::optional<double> bytes;
  uint64_t calls_with_flops = 0;
  std::optional<double> achieved_flops_per_s;  // flops / device_inclusive_ns, when both exist
  int64_t flops_device_ns = 0;                 // device_inclusive_ns of the calls that have flops
  // The roofline of the calls with flops, as `roofline` computes it for op shapes
  // (ApplyOpShapeCeiling): the precision with the most FLOPs, the peak of the device that ran
  // most of their device time, the percent of the ceiling at their intensity and the bound
  // (latency for calls averaging under kLatencyFloorNs or far below both roofs). Absent when a
  // call's bytes are unknown or the device has no peak.
  std::optional<double> percent_of_roof;
  std::optional<Bound> bound;
  std::string bound_source;
  std::string origin = "op";  // WorkOriginName: "op", "annotation", "no_op", "no_launch"
  int64_t total_ns = 0;  // the ranking key: device_ns (self, so rows add up), host_ns if host-only
};

struct OpSummary {
  std::vector<OpRow> rows;  // ranked like every per-kernel analysis (ranking.h)
  size_t row_count_before_top = 0;
  uint64_t ops = 0;                 // op calls seen
  uint64_t kernels = 0;             // kernels seen (after filters)
  int64_t kernel_ns = 0;            // their summed time
  uint64_t attributed_kernels = 0;  // linked to an op
  int64_t attributed_ns = 0;
  uint64_t graph_kernels = 0;
  bool host_only = false;  // no device work at all: rows ranked by host time
};

OpSummary SummarizeOps(const std::vector<const LinkedTrace*>& traces, const OpQuery& query);

}  // namespace tensormorph
