// Header → column mapping for every rocprof CSV generation. Columns are found by name, never by
// position, and names compare case-insensitively: the rocpd converter spells `Lds_Block_Size`
// where rocprofv3 spells `LDS_Block_Size`, rocprof-compute renames v1 columns, and each
// generation adds or drops columns (../shared/reference/other-backends.md §1).
#pragma once

#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "import/rocprof/common/csv_file.h"
#include "tensormorph/model/trace.h"

namespace tensormorph::rocprof {

// ASCII lowercase: rocprof's column names differ in case between versions and converters.
std::string Lower(std::string_view text);

// What one rocprof CSV holds, decided from its header alone.
enum class CsvKind : uint8_t {
  kNone,        // not a rocprof header
  kKernels,     // kernel_trace.csv (v3, three generations), results.csv (v1, v2), rocprof-compute
  kMemoryCopy,  // memory_copy_trace.csv
  kHipApi,      // hip_api_trace.csv (the docs' hip_trace.csv), also hsa/marker api traces
  kAgentInfo,   // agent_info.csv
  // counter_collection.csv / 6.2's kernel_names.csv: one row per (dispatch, counter), no times
  // in 6.2; not read as kernels, which would count each dispatch once per counter.
  kCounterCollection,
};

constexpr size_t kMissing = SIZE_MAX;

// Column positions by (case-insensitive) name.
class Columns {
 public:
  explicit Columns(const std::vector<std::string>& header);
  // The first of `names` the header has, or kMissing.
  size_t Find(std::initializer_list<std::string_view> names) const;
  bool Has(std::initializer_list<std::string_view> names) const { return Find(names) != kMissing; }
  size_t size() const { return lower_.size(); }

 private:
  std::vector<std::string> lower_;
};

CsvKind ClassifyHeader(const Columns& columns);

// The generation of a kernel header, for Trace::format_version.
std::string DescribeKernelHeader(const Columns& columns);

// Where each kernel field is, for every generation; kMissing where the header lacks it.
struct KernelColumns {
  size_t kind, name, agent, queue, stream, correlation, start, end;
  size_t lds, vgpr, accum_vgpr, sgpr, wave_size;
  size_t block_x, block_y, block_z, grid_x, grid_y, grid_z;
  size_t block_size, grid_size;  // v1/v2: products x*y*z in work-items
  explicit KernelColumns(const Columns& c);
};

// A whole decimal integer (optional sign), exactly; nullopt on anything else, including
// "8.1097E+14" (a timestamp that went through a spreadsheet) and overflow.
std::optional<int64_t> ParseInt(std::string_view text);

// A timestamp in ns: an integer in [0, 2^62] (the model keeps times within ±2^62 so that any
// difference or offset stays in range); nullopt otherwise.
std::optional<int64_t> ParseTimestamp(std::string_view text);

// The row's start and end columns as integer nanoseconds in order: its start and duration. A row
// without them is counted as skipped, with a warning naming the file and line: false.
bool ReadRowSpan(const CsvFile& file, const CsvRecord& row, size_t start, size_t end, Trace* trace,
                 Warnings* warnings, int64_t* start_ns, int64_t* duration_ns);

// The number in an agent id: "Agent 4" → 4, "GPU 0" → 0, "4" → 4; nullopt otherwise.
struct AgentRef {
  enum class Space : uint8_t { kLogical, kNode, kGpu, kCpu } space = Space::kLogical;
  int64_t number = 0;
};
std::optional<AgentRef> ParseAgent(std::string_view text);

}  // namespace tensormorph::rocprof
