// Numeric precisions of compute, shared by the FLOP counter (link/op_work.h), the roofline and
// the device database's peaks.
#pragma once

#include <cstdint>

namespace tensormorph {

enum class Precision : uint8_t { kUnknown, kFp64, kFp32, kTf32, kFp16, kBf16, kFp8, kInt8 };

// "fp64", "fp32", "tf32", "fp16", "bf16", "fp8", "int8", "unknown". A trace records "float" for
// both FP32 and TF32 math (TF32 is a cuBLAS/cuDNN math mode, not a dtype), so EstimateOpWork never
// returns kTf32; it exists for callers that know the math mode.
const char* PrecisionName(Precision p);

// Number of Precision values, for arrays indexed by them.
inline constexpr int kPrecisionCount = static_cast<int>(Precision::kInt8) + 1;

}  // namespace tensormorph
