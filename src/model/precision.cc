#include "tensormorph/model/precision.h"

namespace tensormorph {

const char* PrecisionName(Precision p) {
  switch (p) {
    case Precision::kFp64:
      return "fp64";
    case Precision::kFp32:
      return "fp32";
    case Precision::kTf32:
      return "tf32";
    case Precision::kFp16:
      return "fp16";
    case Precision::kBf16:
      return "bf16";
    case Precision::kFp8:
      return "fp8";
    case Precision::kInt8:
      return "int8";
    case Precision::kFp6:
      return "fp6";
    case Precision::kFp4:
      return "fp4";
    case Precision::kUnknown:
      break;
  }
  return "unknown";
}

}  // namespace tensormorph
