#include "devices/measured_peaks.h"

#include <cctype>

namespace tensormorph::measured_peaks {
namespace {

std::string Lower(std::string_view text) {
  std::string out;
  for (char c : text) out += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

// rocprof-compute's data type tokens ("F16", "BF16", "I8", "FP32") as our names.
std::string TypeName(std::string_view token) {
  static constexpr std::pair<std::string_view, std::string_view> kTypes[] = {
      {"f64", "fp64"},  {"fp64", "fp64"}, {"f32", "fp32"},   {"fp32", "fp32"}, {"f16", "fp16"},
      {"fp16", "fp16"}, {"bf16", "bf16"}, {"f8", "fp8"},     {"fp8", "fp8"},   {"i8", "int8"},
      {"i32", "int32"}, {"i64", "int64"}, {"f6f4", "fp6fp4"}};
  for (const auto& [from, to] : kTypes) {
    if (token == from) return std::string(to);
  }
  return std::string(token);
}

}  // namespace

std::optional<RooflineColumnKey> KeyForRooflineColumn(std::string_view column) {
  std::string name = Lower(column);
  if (name.empty() || name == "device" || name.ends_with("low") || name.ends_with("high")) {
    return std::nullopt;
  }
  if (name.ends_with("bw")) {
    const std::string level = name.substr(0, name.size() - 2);
    if (level.empty()) return std::nullopt;
    return RooflineColumnKey{level + "_bytes_per_s"};
  }
  bool flops = false;
  if (name.ends_with("flops")) {
    flops = true;
    name.resize(name.size() - 5);
  } else if (name.ends_with("ops")) {
    name.resize(name.size() - 3);
  } else {
    return std::nullopt;
  }
  const bool matrix = name.starts_with("mfma");
  if (matrix) name = name.substr(4);
  if (name.empty()) return std::nullopt;
  return RooflineColumnKey{(matrix ? "matrix_" : "") + TypeName(name) +
                           (flops ? "_flops_per_s" : "_ops_per_s")};
}

}  // namespace tensormorph::measured_peaks
