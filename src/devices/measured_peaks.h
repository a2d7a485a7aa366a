// Keys and units of Device::measured_peaks: peaks a profiler measured on the device itself, which
// the roofline prefers to the device database. All values are in base units: bytes per second for
// bandwidths, operations per second for compute. The only source today is rocprof-compute's
// empirical roofline microbenchmark (roofline.csv, written in GB/s and GFLOP/s; see
// ../shared/reference/other-backends.md §1.4).
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace tensormorph::measured_peaks {

// Bandwidth per memory level, bytes/s.
inline constexpr const char* kHbmBytesPerS = "hbm_bytes_per_s";
inline constexpr const char* kL2BytesPerS = "l2_bytes_per_s";
inline constexpr const char* kL1BytesPerS = "l1_bytes_per_s";
inline constexpr const char* kLdsBytesPerS = "lds_bytes_per_s";
// Vector ALU peaks, FLOP/s (integer types: operations/s).
inline constexpr const char* kFp64FlopsPerS = "fp64_flops_per_s";
inline constexpr const char* kFp32FlopsPerS = "fp32_flops_per_s";
inline constexpr const char* kFp16FlopsPerS = "fp16_flops_per_s";
// Matrix-core (MFMA) peaks, FLOP/s (int8: operations/s).
inline constexpr const char* kMatrixFp64FlopsPerS = "matrix_fp64_flops_per_s";
inline constexpr const char* kMatrixFp32FlopsPerS = "matrix_fp32_flops_per_s";
inline constexpr const char* kMatrixFp16FlopsPerS = "matrix_fp16_flops_per_s";
inline constexpr const char* kMatrixBf16FlopsPerS = "matrix_bf16_flops_per_s";
inline constexpr const char* kMatrixFp8FlopsPerS = "matrix_fp8_flops_per_s";
inline constexpr const char* kMatrixInt8OpsPerS = "matrix_int8_ops_per_s";

// Trace::metadata key (JSON text) that says where a trace's measured peaks come from, e.g.
// "\"rocprof-compute roofline.csv\""; the roofline prints it as "measured (<source>)".
inline constexpr const char* kSourceMetadataKey = "measured_peaks_source";

// The measured-peak key for a rocprof-compute roofline.csv column, with the factor from the
// column's unit (GB/s, GFLOP/s) to base units; nullopt for columns that are not a peak mean
// ("device", the "...Low" / "...High" bounds). Names compare case-insensitively, so the typos of
// real files ("hbmBwHigh", "MFMAFI8OpsLow") are tolerated, and columns newer than this code
// ("FP16Flops", "I32Ops", "MFMAF8Flops", "MFMAF6F4Flops") get keys by the same rule:
// [matrix_]<type>_{flops,ops}_per_s, <level>_bytes_per_s.
struct RooflineColumnKey {
  std::string key;
  double to_base_units = 1e9;
};
std::optional<RooflineColumnKey> KeyForRooflineColumn(std::string_view column);

}  // namespace tensormorph::measured_peaks
