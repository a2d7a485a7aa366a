// Numeric precisions of compute, shared by the FLOP counter (link/op_work.h), the roofline and
// the device database's peaks.
#pragma once

#include <cstdint>

namespace tensormorph {

// kFp6 and kFp4 are the microscaling block formats (MXFP6/MXFP4, NVFP4): the element type of the
// operands, whatever their scale factors. Appended last so that arrays indexed by precision keep
// their earlier slots.
enum class Precision : uint8_t {
  kUnknown,
  kFp64,
  kFp32,
  kTf32,
  kFp16,
  kBf16,
  kFp8,
  kInt8,
  kFp6,
  kFp4
};

// "fp64", "fp32", "tf32", "fp16", "bf16", "fp8", "int8", "fp6", "fp4", "unknown". A trace records
// "float" for both FP32 and TF32 math (TF32 is a cuBLAS/cuDNN math mode, not a dtype), so
// EstimateOpWork never returns kTf32; it exists for callers that know the math mode.
const char* PrecisionName(Precision p);

// Number of Precision values, for arrays indexed by them.
inline constexpr int kPrecisionCount = static_cast<int>(Precision::kFp4) + 1;

}  // namespace tensormorph
