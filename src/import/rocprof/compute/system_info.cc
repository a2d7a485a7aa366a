#include "import/rocprof/compute/system_info.h"

#include <fmt/format.h>

#include <charconv>
#include <cmath>

#include "devices/measured_peaks.h"
#include "import/rocprof/common/columns.h"

namespace tensormorph::rocprof::compute {
namespace {

std::optional<double> Number(std::string_view text) {
  double value = 0;
  const char* end = text.data() + text.size();
  auto [ptr, ec] = std::from_chars(text.data(), end, value);
  if (text.empty() || ec != std::errc() || ptr != end || !std::isfinite(value)) {
    return std::nullopt;
  }
  return value;
}

// A positive integer cell; 0 (sysinfo's "unknown") and anything else is unset.
std::optional<int64_t> Positive(const CsvRecord& row, size_t column) {
  if (column == kMissing) return std::nullopt;
  std::optional<int64_t> v = ParseInt(row.at(column));
  if (!v || *v <= 0) return std::nullopt;
  return v;
}

std::string Text(const CsvRecord& row, size_t column) {
  return column == kMissing ? std::string() : row.at(column);
}

// gfx90a -> (9, 0), gfx942 -> (9, 4), gfx1100 -> (11, 0): major is all digits but the last two,
// minor the next one (a hex digit a-f is a stepping, as in gfx90a).
std::pair<int32_t, int32_t> GfxVersion(const std::string& arch) {
  if (!arch.starts_with("gfx") || arch.size() < 6) return {0, 0};
  const std::string digits = arch.substr(3);
  int32_t major = 0;
  const std::string major_text = digits.substr(0, digits.size() - 2);
  auto [ptr, ec] = std::from_chars(major_text.data(), major_text.data() + major_text.size(), major);
  if (ec != std::errc() || ptr != major_text.data() + major_text.size()) return {0, 0};
  const char minor = digits[digits.size() - 2];
  if (minor < '0' || minor > '9') return {major, 0};
  return {major, minor - '0'};
}

}  // namespace

StatusOr<SystemInfo> ReadSystemInfo(const Input& input, const std::string& path,
                                    Warnings* warnings) {
  TM_ASSIGN_OR_RETURN(std::unique_ptr<CsvFile> opened, CsvFile::Open(input, path));
  CsvFile& file = *opened;
  const Columns c(file.header());
  CsvRecord row;
  if (!file.Next(&row, warnings)) {
    TM_RETURN_IF_ERROR(file.status());
    return UnreadableInput("sysinfo.csv has a header but no row", SourcePosition{2, 1});
  }
  SystemInfo info;
  info.gpu_model = Text(row, c.Find({"gpu_model"}));
  info.gpu_series = Text(row, c.Find({"gpu_series"}));
  info.gpu_arch = Text(row, c.Find({"gpu_arch"}));
  info.rocm_version = Text(row, c.Find({"rocm_version"}));
  info.workload_name = Text(row, c.Find({"workload_name"}));
  info.command = Text(row, c.Find({"command"}));
  info.profiler_version = Text(row, c.Find({"version"}));
  info.cu_per_gpu = Positive(row, c.Find({"cu_per_gpu"}));
  info.simd_per_cu = Positive(row, c.Find({"simd_per_cu"}));
  info.wave_size = Positive(row, c.Find({"wave_size"}));
  info.max_waves_per_cu = Positive(row, c.Find({"max_waves_per_cu"}));
  info.max_sclk_mhz = Positive(row, c.Find({"max_sclk"}));
  info.lds_banks_per_cu = Positive(row, c.Find({"lds_banks_per_cu"}));
  info.num_xcd = Positive(row, c.Find({"num_xcd"}));
  info.gpu_l2_kib = Positive(row, c.Find({"gpu_l2"}));
  if (const size_t hbm = c.Find({"hbm_bw"}); hbm != kMissing) {
    std::optional<double> v = Number(row.at(hbm));
    if (v && *v > 0) info.hbm_bw_mb_per_s = v;
  }
  return info;
}

Device DeviceFromSystemInfo(const SystemInfo& info) {
  Device d;
  d.backend = Backend::kRocm;
  d.vendor = "AMD";
  d.name = !info.gpu_model.empty() ? info.gpu_model : info.gpu_series;
  std::tie(d.compute_major, d.compute_minor) = GfxVersion(info.gpu_arch);
  d.sm_count = static_cast<int32_t>(std::min<int64_t>(info.cu_per_gpu.value_or(0), INT32_MAX));
  d.warp_size = static_cast<int32_t>(std::min<int64_t>(info.wave_size.value_or(0), 1024));
  d.max_threads_per_sm = static_cast<int32_t>(
      std::min<int64_t>(info.max_waves_per_cu.value_or(0) * d.warp_size, INT32_MAX));
  d.described = true;
  return d;
}

StatusOr<std::map<std::string, double>> ReadRooflinePeaks(const Input& input,
                                                          const std::string& path, int64_t device,
                                                          Warnings* warnings) {
  TM_ASSIGN_OR_RETURN(std::unique_ptr<CsvFile> opened, CsvFile::Open(input, path));
  CsvFile& file = *opened;
  const Columns c(file.header());
  const size_t device_column = c.Find({"device"});
  if (device_column == kMissing) {
    return UnreadableInput("roofline.csv has no 'device' column", SourcePosition{1, 1});
  }
  std::map<std::string, double> peaks;
  CsvRecord row;
  while (file.Next(&row, warnings)) {
    if (ParseInt(row.at(device_column)) != device) continue;
    for (size_t i = 0; i < file.header().size(); ++i) {
      std::optional<measured_peaks::RooflineColumnKey> key =
          measured_peaks::KeyForRooflineColumn(file.header()[i]);
      if (!key) continue;
      std::optional<double> v = Number(row.at(i));
      if (!v || *v <= 0) {
        warnings->Row(path, row.line,
                      fmt::format("{} is '{}', not a positive number: not used", file.header()[i],
                                  row.at(i).substr(0, 40)));
        continue;
      }
      peaks[key->key] = *v * key->to_base_units;
    }
    break;
  }
  TM_RETURN_IF_ERROR(file.status());
  return peaks;
}

}  // namespace tensormorph::rocprof::compute
