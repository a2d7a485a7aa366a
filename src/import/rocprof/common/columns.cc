#include "import/rocprof/common/columns.h"

#include <fmt/format.h>

#include <charconv>

namespace tensormorph::rocprof {

std::string Lower(std::string_view text) {
  std::string out(text);
  for (char& c : out) {
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
  }
  return out;
}

Columns::Columns(const std::vector<std::string>& header) {
  lower_.reserve(header.size());
  for (const std::string& name : header) lower_.push_back(Lower(name));
}

size_t Columns::Find(std::initializer_list<std::string_view> names) const {
  for (std::string_view name : names) {
    const std::string want = Lower(name);
    for (size_t i = 0; i < lower_.size(); ++i) {
      if (lower_[i] == want) return i;
    }
  }
  return kMissing;
}

CsvKind ClassifyHeader(const Columns& c) {
  const bool times = c.Has({"Start_Timestamp", "BeginNs"}) && c.Has({"End_Timestamp", "EndNs"});
  // A kernel header names the kernel and a dispatch; v1 without --timestamp has no times, which
  // the importer reports as such rather than as a foreign file.
  if (c.Has({"Counter_Name"}) && c.Has({"Counter_Value"})) return CsvKind::kCounterCollection;
  if (c.Has({"Kernel_Name", "KernelName"}) &&
      c.Has({"Dispatch_Id", "Index", "Agent_Id", "gpu-id", "GPU_ID"})) {
    return CsvKind::kKernels;
  }
  if (c.Has({"Direction"}) && c.Has({"Source_Agent_Id"}) && c.Has({"Destination_Agent_Id"}) &&
      times) {
    return CsvKind::kMemoryCopy;
  }
  if (c.Has({"Domain"}) && c.Has({"Function"}) && c.Has({"Correlation_Id"}) && times) {
    return CsvKind::kHipApi;
  }
  if (c.Has({"Agent_Type"}) && c.Has({"Logical_Node_Id"}) && c.Has({"Node_Id"})) {
    return CsvKind::kAgentInfo;
  }
  return CsvKind::kNone;
}

std::string DescribeKernelHeader(const Columns& c) {
  if (c.Has({"Kind"})) {
    const char* guid = c.Has({"Guid"}) ? ", rocpd2csv conversion (Guid column)" : "";
    if (c.Has({"VGPR_Count"})) {
      return fmt::format(
          "rocprofv3 kernel_trace.csv (ROCm 6.4+ header: Stream_Id, LDS_Block_Size, VGPR/SGPR "
          "counts){}",
          guid);
    }
    return fmt::format(
        "rocprofv3 kernel_trace.csv (ROCm 6.2 header: Group_Segment_Size, no registers){}", guid);
  }
  if (c.Has({"KernelName"})) {
    return c.Has({"arch_vgpr"}) ? "rocprof v1 results.csv (arch_vgpr, accum_vgpr, wave_size)"
                                : "rocprof v1 results.csv (ROCm <= 5.2 header: vgpr, fbar)";
  }
  if (c.Has({"Kernel_Name"}) && c.Has({"Dispatch_ID"})) {
    return c.Has({"DispatchNs"}) || c.Has({"queue-id"})
               ? "rocprof-compute timestamps/pmc_perf.csv (rocprof v1 columns, renamed)"
               : "rocprofv2 results.csv (file plugin v2)";
  }
  return "rocprof kernel CSV";
}

KernelColumns::KernelColumns(const Columns& c)
    : kind(c.Find({"Kind"})),
      name(c.Find({"Kernel_Name", "KernelName"})),
      agent(c.Find({"Agent_Id", "gpu-id", "GPU_ID"})),
      queue(c.Find({"Queue_Id", "queue-id"})),
      stream(c.Find({"Stream_Id"})),
      correlation(c.Find({"Correlation_Id"})),
      start(c.Find({"Start_Timestamp", "BeginNs"})),
      end(c.Find({"End_Timestamp", "EndNs"})),
      // LDS per workgroup: v3 static LDS (LDS_Block_Size), 6.2-era dispatch value
      // (Group_Segment_Size), v1 `lds`, v2/rocprof-compute LDS_Per_Workgroup.
      lds(c.Find({"LDS_Block_Size", "Group_Segment_Size", "lds", "LDS_Per_Workgroup"})),
      vgpr(c.Find({"VGPR_Count", "Arch_VGPR", "arch_vgpr", "vgpr"})),
      accum_vgpr(c.Find({"Accum_VGPR_Count", "Accum_VGPR", "accum_vgpr"})),
      sgpr(c.Find({"SGPR_Count", "SGPR", "sgpr"})),
      wave_size(c.Find({"Wave_Size", "wave_size"})),
      block_x(c.Find({"Workgroup_Size_X"})),
      block_y(c.Find({"Workgroup_Size_Y"})),
      block_z(c.Find({"Workgroup_Size_Z"})),
      grid_x(c.Find({"Grid_Size_X"})),
      grid_y(c.Find({"Grid_Size_Y"})),
      grid_z(c.Find({"Grid_Size_Z"})),
      block_size(c.Find({"Workgroup_Size", "wgr"})),
      grid_size(c.Find({"Grid_Size", "grd"})) {}

std::optional<int64_t> ParseInt(std::string_view text) {
  if (!text.empty() && text.front() == '+') text.remove_prefix(1);
  if (text.empty()) return std::nullopt;
  int64_t value = 0;
  const char* end = text.data() + text.size();
  auto [ptr, ec] = std::from_chars(text.data(), end, value);
  if (ec != std::errc() || ptr != end) return std::nullopt;
  return value;
}

std::optional<int64_t> ParseTimestamp(std::string_view text) {
  std::optional<int64_t> v = ParseInt(text);
  if (!v || *v < 0 || *v > (int64_t{1} << 62)) return std::nullopt;
  return v;
}

std::optional<AgentRef> ParseAgent(std::string_view text) {
  AgentRef ref;
  if (text.starts_with("Agent ")) {
    ref.space = AgentRef::Space::kLogical;
    text.remove_prefix(6);
  } else if (text.starts_with("GPU ")) {
    ref.space = AgentRef::Space::kGpu;
    text.remove_prefix(4);
  } else if (text.starts_with("CPU ")) {
    ref.space = AgentRef::Space::kCpu;
    text.remove_prefix(4);
  } else {
    ref.space = AgentRef::Space::kNode;
  }
  std::optional<int64_t> n = ParseInt(text);
  if (!n || *n < 0 || *n > INT32_MAX) return std::nullopt;
  ref.number = *n;
  return ref;
}

bool ReadRowSpan(const CsvFile& file, const CsvRecord& row, size_t start, size_t end, Trace* trace,
                 Warnings* warnings, int64_t* start_ns, int64_t* duration_ns) {
  const std::optional<int64_t> s = ParseTimestamp(row.at(start));
  const std::optional<int64_t> e = ParseTimestamp(row.at(end));
  if (!s || !e) {
    ++trace->counts.skipped;
    warnings->Row(file.path(), row.line,
                  fmt::format("timestamps '{}', '{}' are not integer nanoseconds within 2^62 "
                              "(saved through a spreadsheet?): row skipped",
                              row.at(start).substr(0, 40), row.at(end).substr(0, 40)));
    return false;
  }
  if (*e < *s) {
    ++trace->counts.skipped;
    warnings->Row(file.path(), row.line, "it ends before it starts: row skipped");
    return false;
  }
  *start_ns = *s;
  *duration_ns = *e - *s;
  return true;
}

}  // namespace tensormorph::rocprof
