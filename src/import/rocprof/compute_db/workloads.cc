#include "import/rocprof/compute_db/workloads.h"

#include <fmt/format.h>

#include <cmath>
#include <cstdlib>
#include <nlohmann/json.hpp>

#include "devices/measured_peaks.h"

namespace tensormorph::rocprof::compute_db {
namespace {

using nlohmann::json;

std::string TextOf(const json& object, const char* key) {
  auto it = object.find(key);
  if (it == object.end()) return "";
  if (it->is_string()) return it->get<std::string>();
  if (it->is_number()) return it->dump();
  return "";
}

// A positive integer (sysinfo writes 0 for "unknown"); numbers written as text are accepted too.
std::optional<int64_t> PositiveOf(const json& object, const char* key) {
  auto it = object.find(key);
  if (it == object.end()) return std::nullopt;
  double value = 0;
  if (it->is_number()) {
    value = it->get<double>();
  } else if (it->is_string()) {
    const std::string text = it->get<std::string>();
    char* end = nullptr;
    value = std::strtod(text.c_str(), &end);
    if (text.empty() || end != text.c_str() + text.size()) return std::nullopt;
  } else {
    return std::nullopt;
  }
  if (!std::isfinite(value) || value <= 0 || value >= 9e15 || std::floor(value) != value) {
    return std::nullopt;
  }
  return static_cast<int64_t>(value);
}

std::optional<json> ParseObject(std::optional<std::string_view> text, const std::string& where,
                                RowWarnings* warnings) {
  if (!text || text->empty()) return std::nullopt;
  json parsed = json::parse(text->begin(), text->end(), nullptr, false);
  if (parsed.is_discarded() || !parsed.is_object()) {
    warnings->Add(where, "is not a JSON object: not used");
    return std::nullopt;
  }
  return parsed;
}

compute::SystemInfo SystemInfoOf(const json& s) {
  compute::SystemInfo info;
  info.gpu_model = TextOf(s, "gpu_model");
  info.gpu_series = TextOf(s, "gpu_series");
  info.gpu_arch = TextOf(s, "gpu_arch");
  info.rocm_version = TextOf(s, "rocm_version");
  info.workload_name = TextOf(s, "workload_name");
  info.command = TextOf(s, "command");
  info.profiler_version = TextOf(s, "version");
  info.cu_per_gpu = PositiveOf(s, "cu_per_gpu");
  info.simd_per_cu = PositiveOf(s, "simd_per_cu");
  info.wave_size = PositiveOf(s, "wave_size");
  info.max_waves_per_cu = PositiveOf(s, "max_waves_per_cu");
  info.max_sclk_mhz = PositiveOf(s, "max_sclk");
  info.lds_banks_per_cu = PositiveOf(s, "lds_banks_per_cu");
  info.num_xcd = PositiveOf(s, "num_xcd");
  info.gpu_l2_kib = PositiveOf(s, "gpu_l2");
  return info;
}

std::map<std::string, double> PeaksOf(const json& bench, const std::string& where,
                                      RowWarnings* warnings) {
  std::map<std::string, double> peaks;
  for (auto it = bench.begin(); it != bench.end(); ++it) {
    std::optional<measured_peaks::RooflineColumnKey> key =
        measured_peaks::KeyForRooflineColumn(it.key());
    if (!key) continue;
    if (it->is_null()) continue;  // not measured (MFMA F6F4 on some versions)
    if (!it->is_number() || !std::isfinite(it->get<double>()) || it->get<double>() <= 0) {
      warnings->Add(where, fmt::format("roofline_bench_extdata {} is {}, not a positive number: "
                                       "not used",
                                       it.key(), it->dump().substr(0, 40)));
      continue;
    }
    peaks[key->key] = it->get<double>() * key->to_base_units;
  }
  return peaks;
}

}  // namespace

StatusOr<std::map<int64_t, Workload>> ReadWorkloads(const sqlite::Database& db,
                                                    const nsys::Schema& schema,
                                                    const DbVersion& version,
                                                    RowWarnings* warnings) {
  TM_ASSIGN_OR_RETURN(
      sqlite::Statement row,
      SelectColumns(db, schema, version, kWorkloadTable, {"workload_id"},
                    {"name", "sub_name", "sys_info_extdata", "roofline_bench_extdata"}));
  const int id_column = row.Index("workload_id");
  std::map<int64_t, Workload> workloads;
  for (;;) {
    TM_ASSIGN_OR_RETURN(bool more, row.Step());
    if (!more) break;
    std::optional<int64_t> id = IntegerCell(row, id_column);
    if (!id) {
      warnings->Add("compute_workload", "a row without an integer workload_id: skipped");
      continue;
    }
    const std::string where = fmt::format("compute_workload workload_id {}", *id);
    Workload w;
    w.id = *id;
    w.name = std::string(row.Text(row.Index("name")).value_or(""));
    w.sub_name = std::string(row.Text(row.Index("sub_name")).value_or(""));
    if (std::optional<json> s = ParseObject(row.Text(row.Index("sys_info_extdata")),
                                            where + " sys_info_extdata", warnings)) {
      w.system = SystemInfoOf(*s);
      w.cur_sclk_mhz = PositiveOf(*s, "cur_sclk");
      w.max_mclk_mhz = PositiveOf(*s, "max_mclk");
      w.cur_mclk_mhz = PositiveOf(*s, "cur_mclk");
    }
    if (std::optional<json> bench = ParseObject(row.Text(row.Index("roofline_bench_extdata")),
                                                where + " roofline_bench_extdata", warnings)) {
      w.peaks = PeaksOf(*bench, where, warnings);
    }
    if (!workloads.try_emplace(*id, std::move(w)).second) {
      warnings->Add(where, "appears twice: the first row is used");
    }
  }
  return workloads;
}

}  // namespace tensormorph::rocprof::compute_db
