// From launches to the model. Each field is looked up by raw metric name first (what `--metrics`
// and the raw page print) and by a section's label second (what the details page prints for
// sections); see metric_lookup.h for how values are checked and converted.
//
// Nsight Compute replays each launch on its own and records how long it ran, not when: there are
// no timestamps. Start times are therefore synthetic: per (device, stream) the launches are laid
// end to end in ID (profiling) order from 0. Durations, names and counters are real; gaps and
// overlaps between kernels are not, which the importer says in the trace's format_version.

#include "import/ncu/trace_builder.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <set>

#include "import/ncu/launch.h"
#include "import/ncu/metric_lookup.h"
#include "import/ncu/units.h"

namespace tensormorph::ncu {
namespace {

// Section names as the details page prints them, for the label lookups.
constexpr std::string_view kSpeedOfLight = "GPU Speed Of Light Throughput";
constexpr std::string_view kLaunchStats = "Launch Statistics";
constexpr std::string_view kOccupancy = "Occupancy";

// Up to three components separated by `separator`, each a count (thousands separators allowed).
std::optional<Dim3> SplitDims(std::string_view text, std::string_view separator) {
  uint32_t dims[3] = {1, 1, 1};
  for (int i = 0; i < 3; ++i) {
    const size_t end = text.find(separator);
    std::string plain;
    if (CleanNumber(text.substr(0, end), &plain) != NumberText::kNumber) return std::nullopt;
    std::optional<int64_t> value = ParseInteger(plain);
    if (!value || *value < 0 || *value > UINT32_MAX) return std::nullopt;
    dims[i] = static_cast<uint32_t>(*value);
    if (end == std::string_view::npos) return Dim3{dims[0], dims[1], dims[2]};
    text.remove_prefix(end + separator.size());
  }
  return std::nullopt;  // more than three
}

// "(32, 4, 1)" as ncu prints Block Size and Grid Size; a plain "128" is (128, 1, 1). Components
// are split at ", " first, so that a thousands separator ("(8,192, 1, 1)") is not taken for one.
std::optional<Dim3> ParseDim3(std::string_view text) {
  if (text.starts_with('(') && text.ends_with(')')) text = text.substr(1, text.size() - 2);
  if (std::optional<Dim3> dims = SplitDims(text, ", ")) return dims;
  return SplitDims(text, ",");
}

// Block or grid: the identity column, else launch__X_dim_{x,y,z}, else a total (x only).
Dim3 ReadDims(const std::string& text, uint64_t line, uint32_t column, std::string_view kind,
              MetricLookup& metrics, Diagnostics* diagnostics) {
  if (!text.empty()) {
    if (std::optional<Dim3> dims = ParseDim3(text)) return *dims;
    diagnostics->Add(line, column,
                     fmt::format("{} size '{}' is not '(x, y, z)'; ignored", kind, text));
  }
  const std::string prefix = fmt::format("launch__{}_dim_", kind);
  std::optional<int64_t> x = metrics.Integer({metrics.Name(prefix + "x")}, Quantity::kCount);
  std::optional<int64_t> y = metrics.Integer({metrics.Name(prefix + "y")}, Quantity::kCount);
  std::optional<int64_t> z = metrics.Integer({metrics.Name(prefix + "z")}, Quantity::kCount);
  auto fits = [](std::optional<int64_t> v) { return v && *v >= 0 && *v <= UINT32_MAX; };
  if (fits(x) && fits(y) && fits(z)) {
    return Dim3{static_cast<uint32_t>(*x), static_cast<uint32_t>(*y), static_cast<uint32_t>(*z)};
  }
  // Only the total is known: kept as (total, 1, 1), which is what occupancy needs.
  std::optional<int64_t> total =
      metrics.Integer({metrics.Name(fmt::format("launch__{}_size", kind)),
                       metrics.Label(kLaunchStats, kind == "block" ? "Block Size" : "Grid Size")},
                      Quantity::kCount);
  if (fits(total)) return Dim3{static_cast<uint32_t>(*total), 1, 1};
  return Dim3{};
}

std::optional<double> Flops(MetricLookup& metrics, char precision, double weight) {
  double sum = 0;
  for (std::string_view op : {"add", "mul", "fma"}) {
    auto name = [&](std::string_view unit) {
      return fmt::format("{}__sass_thread_inst_executed_op_{}{}_pred_on.sum", unit, precision, op);
    };
    std::optional<double> count =
        metrics.Number({metrics.Name(name("sm")), metrics.Name(name("smsp"))}, Quantity::kCount);
    if (!count) return std::nullopt;  // a partial count would understate the work
    sum += (op == "fma" ? 2 : 1) * *count;
  }
  return weight * sum;
}

// Tensor-pipe operations: the sum of the sm__ops_path_tensor_src_*.sum metrics collected. The
// _sparsity_on/_off variants are parts of the plain ones and are not added again.
std::optional<double> TensorOps(const Launch& launch, MetricLookup& metrics) {
  std::set<std::string_view> seen;
  std::optional<double> total;
  for (const LaunchMetric& m : launch.metrics) {
    std::string_view name = m.name;
    if (!name.starts_with("sm__ops_path_tensor_src_") || !name.ends_with(".sum") ||
        name.find("_sparsity_") != std::string_view::npos || !seen.insert(name).second) {
      continue;
    }
    if (std::optional<double> v = metrics.Number({&m}, Quantity::kCount))
      total = total.value_or(0) + *v;
  }
  return total;
}

// The Occupancy section as Nsight Compute computed it (raw names: launch__occupancy_limit_*,
// sm__maximum_warps_per_active_cycle_pct); absent without its theoretical occupancy.
std::optional<ReportedOccupancy> ReadReportedOccupancy(MetricLookup& metrics) {
  std::optional<double> theoretical =
      metrics.Number({metrics.Name("sm__maximum_warps_per_active_cycle_pct"),
                      metrics.Label(kOccupancy, "Theoretical Occupancy")},
                     Quantity::kPercent);
  if (!theoretical) return std::nullopt;
  ReportedOccupancy r;
  r.theoretical_percent = *theoretical;
  r.theoretical_warps_per_sm =
      metrics.Number({metrics.Name("sm__maximum_warps_avg_per_active_cycle"),
                      metrics.Label(kOccupancy, "Theoretical Active Warps per SM")},
                     Quantity::kCount);
  auto limit = [&](const char* name, const char* label) -> std::optional<int64_t> {
    std::optional<int64_t> v =
        metrics.Integer({metrics.Name(name), metrics.Label(kOccupancy, label)}, Quantity::kCount);
    return v && *v >= 0 ? v : std::nullopt;
  };
  r.warps_limit = limit("launch__occupancy_limit_warps", "Block Limit Warps");
  r.registers_limit = limit("launch__occupancy_limit_registers", "Block Limit Registers");
  r.shared_memory_limit = limit("launch__occupancy_limit_shared_mem", "Block Limit Shared Mem");
  r.blocks_limit = limit("launch__occupancy_limit_blocks", "Block Limit SM");
  r.barriers_limit = limit("launch__occupancy_limit_barriers", "Block Limit Barriers");
  return r;
}

KernelCounters ReadCounters(const Launch& launch, MetricLookup& metrics) {
  KernelCounters c;
  c.fp64_flops = Flops(metrics, 'd', 1);
  c.fp32_flops = Flops(metrics, 'f', 1);
  c.fp16_flops = Flops(metrics, 'h', 2);  // packed half2, as the half-precision roofline counts
  c.tensor_ops = TensorOps(launch, metrics);
  c.dram_bytes = metrics.Number({metrics.Name("dram__bytes.sum")}, Quantity::kBytes);
  if (!c.dram_bytes) {
    std::optional<double> read =
        metrics.Number({metrics.Name("dram__bytes_read.sum")}, Quantity::kBytes);
    std::optional<double> write =
        metrics.Number({metrics.Name("dram__bytes_write.sum")}, Quantity::kBytes);
    if (read && write) c.dram_bytes = *read + *write;
  }
  c.achieved_occupancy_percent =
      metrics.Number({metrics.Name("sm__warps_active.avg.pct_of_peak_sustained_active"),
                      metrics.Label(kOccupancy, "Achieved Occupancy")},
                     Quantity::kPercent);
  c.reported_occupancy = ReadReportedOccupancy(metrics);
  c.sm_throughput_percent =
      metrics.Number({metrics.Name("sm__throughput.avg.pct_of_peak_sustained_elapsed"),
                      metrics.Label(kSpeedOfLight, "Compute (SM) Throughput")},
                     Quantity::kPercent);
  c.memory_throughput_percent = metrics.Number(
      {metrics.Name("gpu__compute_memory_throughput.avg.pct_of_peak_sustained_elapsed"),
       metrics.Label(kSpeedOfLight, "Memory Throughput")},
      Quantity::kPercent);
  std::optional<int64_t> registers =
      metrics.Integer({metrics.Name("launch__registers_per_thread"),
                       metrics.Label(kLaunchStats, "Registers Per Thread")},
                      Quantity::kCount);
  if (registers && *registers >= 0 && *registers <= UINT32_MAX) {
    c.registers_per_thread = static_cast<uint32_t>(*registers);
  }
  std::optional<int64_t> static_smem =
      metrics.Integer({metrics.Name("launch__shared_mem_per_block_static"),
                       metrics.Label(kLaunchStats, "Static Shared Memory Per Block")},
                      Quantity::kBytes);
  std::optional<int64_t> dynamic_smem =
      metrics.Integer({metrics.Name("launch__shared_mem_per_block_dynamic"),
                       metrics.Label(kLaunchStats, "Dynamic Shared Memory Per Block")},
                      Quantity::kBytes);
  if ((static_smem || dynamic_smem) && static_smem.value_or(0) >= 0 &&
      dynamic_smem.value_or(0) >= 0) {
    c.shared_memory_bytes =
        static_cast<uint64_t>(static_smem.value_or(0) + dynamic_smem.value_or(0));
  }
  return c;
}

// Every numeric metric, in base units; a unit this table does not know is kept as written.
void ReadAllMetrics(const Launch& launch, StringPool* strings, KernelCounters* counters) {
  for (const LaunchMetric& m : launch.metrics) {
    std::string plain;
    if (CleanNumber(m.value, &plain) != NumberText::kNumber) continue;
    std::optional<Unit> unit = ParseUnit(m.unit);
    std::optional<double> value = ToBase(plain, unit.value_or(Unit{}));
    if (!value) continue;
    counters->metrics.push_back({strings->Intern(m.section), strings->Intern(m.name),
                                 strings->Intern(unit ? unit->base : m.unit), *value});
  }
}

// "12.0" -> 12, 0; false when it is not major.minor.
bool ParseComputeCapability(std::string_view text, int32_t* major, int32_t* minor) {
  const size_t dot = text.find('.');
  if (dot == std::string_view::npos) return false;
  std::optional<int64_t> a = ParseInteger(text.substr(0, dot));
  std::optional<int64_t> b = ParseInteger(text.substr(dot + 1));
  if (!a || !b || *a < 0 || *a > 1000 || *b < 0 || *b > 1000) return false;
  *major = static_cast<int32_t>(*a);
  *minor = static_cast<int32_t>(*b);
  return true;
}

// The device as the launch describes it: CC from its column, the rest from device__attribute_*
// metrics, which the raw page carries (the details page names no device).
Device ReadDevice(int64_t key, const Launch& launch, MetricLookup& metrics) {
  Device d;
  d.backend = Backend::kCuda;
  d.vendor = "NVIDIA";
  d.trace_id = key;
  d.index = key >= 0 && key <= INT32_MAX ? static_cast<int32_t>(key) : -1;
  if (!ParseComputeCapability(launch.cc, &d.compute_major, &d.compute_minor)) {
    std::optional<int64_t> major = metrics.Integer(
        {metrics.Name("device__attribute_compute_capability_major")}, Quantity::kCount);
    std::optional<int64_t> minor = metrics.Integer(
        {metrics.Name("device__attribute_compute_capability_minor")}, Quantity::kCount);
    if (major && minor && *major >= 0 && *major < 1000 && *minor >= 0 && *minor < 1000) {
      d.compute_major = static_cast<int32_t>(*major);
      d.compute_minor = static_cast<int32_t>(*minor);
    }
  }
  if (const LaunchMetric* name = metrics.Name("device__attribute_display_name")) {
    d.name = name->value;
  }
  auto attribute = [&](const char* name, Quantity quantity) -> int64_t {
    std::optional<int64_t> v = metrics.Integer({metrics.Name(name)}, quantity);
    if (v && *v > 0) d.described = true;
    return v && *v > 0 ? *v : 0;
  };
  auto as_int32 = [](int64_t v) { return static_cast<int32_t>(std::min<int64_t>(v, INT32_MAX)); };
  d.sm_count = as_int32(attribute("device__attribute_multiprocessor_count", Quantity::kCount));
  d.warp_size = as_int32(attribute("device__attribute_warp_size", Quantity::kCount));
  d.max_threads_per_sm =
      as_int32(attribute("device__attribute_max_threads_per_multiprocessor", Quantity::kCount));
  d.registers_per_sm =
      as_int32(attribute("device__attribute_max_registers_per_multiprocessor", Quantity::kCount));
  d.shared_memory_per_sm =
      attribute("device__attribute_max_shared_memory_per_multiprocessor", Quantity::kBytes);
  d.shared_memory_per_block =
      attribute("device__attribute_max_shared_memory_per_block", Quantity::kBytes);
  if (!d.name.empty()) d.described = true;
  return d;
}

}  // namespace

void BuildNcuTrace(std::vector<Launch>& launches, Diagnostics* diagnostics, Trace* trace) {
  struct Row {
    Kernel kernel;
    KernelCounters counters;
    int64_t device_key = -1;
  };
  std::vector<Row> rows;
  rows.reserve(launches.size());
  std::map<int64_t, Device> devices;  // by "Device" ordinal; -1 when the file does not say
  std::vector<int64_t> no_duration;

  for (const Launch& launch : launches) {  // in ID order
    MetricLookup metrics(launch, diagnostics);
    Row row;
    Kernel& k = row.kernel;
    k.name = trace->strings.Intern(launch.kernel_name);
    row.device_key = ParseInteger(launch.device).value_or(-1);
    if (!devices.count(row.device_key)) {
      devices.emplace(row.device_key, ReadDevice(row.device_key, launch, metrics));
    }
    k.stream = ParseInteger(launch.stream).value_or(-1);
    std::optional<int64_t> duration = metrics.Integer(
        {metrics.Name("gpu__time_duration.sum"), metrics.Label(kSpeedOfLight, "Duration")},
        Quantity::kTime);
    if (duration && *duration < 0) {
      diagnostics->Add(
          launch.line, 1,
          fmt::format("launch {} has a negative duration; taken as unknown", launch.id));
      duration.reset();
    }
    if (!duration) no_duration.push_back(launch.id);
    k.duration_ns = duration.value_or(0);
    k.block = ReadDims(launch.block_size, launch.line, launch.block_size_column, "block", metrics,
                       diagnostics);
    k.grid = ReadDims(launch.grid_size, launch.line, launch.grid_size_column, "grid", metrics,
                      diagnostics);
    row.counters = ReadCounters(launch, metrics);
    row.counters.source = CounterSource::kNsightCompute;
    const KernelCounters& c = row.counters;
    if (c.registers_per_thread) {
      k.registers_per_thread =
          static_cast<uint16_t>(std::min<uint32_t>(*c.registers_per_thread, UINT16_MAX));
    }
    if (c.shared_memory_bytes) {
      k.shared_memory_bytes =
          static_cast<uint32_t>(std::min<uint64_t>(*c.shared_memory_bytes, UINT32_MAX));
    }
    if (c.achieved_occupancy_percent) {
      // A copy of the measurement, for the exporters (occupancy reads the counters).
      k.achieved_occupancy_percent =
          static_cast<int8_t>(std::clamp(std::lround(*c.achieved_occupancy_percent), 0L, 100L));
      k.occupancy_source = CounterSource::kNsightCompute;
    }
    ReadAllMetrics(launch, &trace->strings, &row.counters);
    rows.push_back(std::move(row));
  }

  // Device table in ordinal order, then the kernels' keys become indices.
  std::map<int64_t, uint32_t> device_index;
  for (auto& [key, device] : devices) {
    device_index[key] = static_cast<uint32_t>(trace->devices.size());
    if (device.described) ++trace->described_device_count;
    trace->devices.push_back(std::move(device));
  }
  for (Row& row : rows) row.kernel.device = device_index[row.device_key];

  // Synthetic starts: each (device, stream) timeline from 0, launches end to end in ID order.
  std::map<std::pair<uint32_t, int64_t>, int64_t> cursor;
  bool capped = false;
  for (Row& row : rows) {
    int64_t& at = cursor[{row.kernel.device, row.kernel.stream}];
    row.kernel.start_ns = at;
    if (__builtin_add_overflow(at, row.kernel.duration_ns, &at)) {
      at = INT64_MAX;
      capped = true;
    }
  }
  if (capped) {
    diagnostics->Note(
        "the summed durations of one stream exceed int64 nanoseconds; later start "
        "times are capped");
  }
  // The model's order, (device, stream, start); stable, so that ties keep ID order. The counters
  // refer to kernels by index, so the tables are not sorted again after this.
  std::stable_sort(rows.begin(), rows.end(), [](const Row& a, const Row& b) {
    return std::tie(a.kernel.device, a.kernel.stream, a.kernel.start_ns) <
           std::tie(b.kernel.device, b.kernel.stream, b.kernel.start_ns);
  });
  trace->kernels.reserve(rows.size());
  trace->kernel_counters.reserve(rows.size());
  for (Row& row : rows) {
    row.counters.kernel = static_cast<uint32_t>(trace->kernels.size());
    trace->kernels.push_back(row.kernel);
    trace->kernel_counters.push_back(std::move(row.counters));
  }
  trace->counts.kernels = trace->kernels.size();

  if (!no_duration.empty()) {
    std::string ids;
    for (size_t i = 0; i < std::min<size_t>(no_duration.size(), 10); ++i) {
      ids += fmt::format("{}{}", i == 0 ? "" : ", ", no_duration[i]);
    }
    if (no_duration.size() > 10) ids += ", ...";
    diagnostics->Note(fmt::format(
        "{} of {} launches carry no duration (neither gpu__time_duration.sum nor the Speed Of "
        "Light section's Duration was collected); their kernels are listed with 0 ns (IDs {})",
        no_duration.size(), launches.size(), ids));
  }
}

}  // namespace tensormorph::ncu
