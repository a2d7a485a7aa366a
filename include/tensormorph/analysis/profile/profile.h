// A performance baseline: the compact summary of one profile (one or more traces, the ranks of one
// job) that `tensormorph diff` compares (analysis/diff). Built from linked traces (build.h), saved
// and read back as the JSON document tensormorph.baseline/1 (export/baseline/baseline_json.h);
// diffing a trace builds the same summary on the fly, so a trace and its saved baseline compare
// as equal.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "tensormorph/model/trace.h"

namespace tensormorph {

inline constexpr const char* kBaselineSchema = "tensormorph.baseline/1";

enum class ProfileRowKind : uint8_t { kKernel, kOp };
const char* ProfileRowKindName(ProfileRowKind kind);  // "kernel", "op"

// One kernel name or framework op name on one backend.
struct ProfileRow {
  ProfileRowKind kind = ProfileRowKind::kKernel;
  std::string name;
  Backend backend = Backend::kOther;  // ops: the backend of most of their device time, else cpu
  uint64_t count = 0;                 // kernel launches / op calls
  int64_t total_ns = 0;               // kernel time / op host (wall) time, summed
  int64_t device_ns = 0;              // ops: time of the kernels they launched themselves
  // One value per step of the profile (Baseline::step_numbers): the row's time in that step.
  // Empty when the profile has no steps.
  std::vector<int64_t> step_totals_ns;
};

struct BaselineInput {
  std::string path;
  std::string format;
  std::optional<int64_t> rank;
};

struct Baseline {
  std::string created_by;
  std::vector<BaselineInput> inputs;
  // ProfilerStep#N numbers, ascending; the ranks of one job share them, so a step is summed
  // over the inputs. Empty when no input has steps.
  std::vector<int64_t> step_numbers;
  std::vector<ProfileRow> kernels;  // by (name, backend)
  std::vector<ProfileRow> ops;      // by name
  int64_t kernel_ns = 0;
  uint64_t kernel_count = 0;
  int64_t op_host_ns = 0;  // summed over op rows: nested calls count in each of their ops
  uint64_t op_calls = 0;
  std::vector<int64_t> step_kernel_ns;  // kernel time per step, parallel to step_numbers
  // The coarsest Trace::timestamp_resolution_ns of the inputs (quantized WebGPU clocks); 0 =
  // exact. diff does not call a change below it real.
  int64_t timestamp_resolution_ns = 0;
  // How long the capture ran on the device: the largest over the inputs of (end of the last
  // kernel - start of the first). diff says when two captures differ in length. 0 = unknown
  // (no kernels, or a baseline saved before this was written).
  int64_t kernel_span_ns = 0;

  size_t steps() const { return step_numbers.size(); }
};

}  // namespace tensormorph
