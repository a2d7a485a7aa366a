#include "import/chrome/categories.h"

#include <array>
#include <utility>

namespace tensormorph::chrome {

Category ClassifyCategory(std::string_view cat) {
  static constexpr std::array<std::pair<std::string_view, Category>, 31> kTable = {{
      {"kernel", Category::kKernel},
      {"Kernel", Category::kKernel},
      {"gpu_memcpy", Category::kMemcpy},
      {"Memcpy", Category::kMemcpy},
      {"gpu_memset", Category::kMemset},
      {"Memset", Category::kMemset},
      {"cuda_runtime", Category::kRuntime},
      {"Runtime", Category::kRuntime},
      {"xpu_runtime", Category::kRuntime},
      {"mtia_runtime", Category::kRuntime},
      {"glow_runtime", Category::kRuntime},
      {"privateuse1_runtime", Category::kRuntime},
      {"cuda_driver", Category::kDriver},
      {"xpu_driver", Category::kDriver},
      {"privateuse1_driver", Category::kDriver},
      {"cuda_sync", Category::kSync},
      {"xpu_sync", Category::kSync},
      {"cpu_op", Category::kCpuOp},
      {"Operator", Category::kCpuOp},
      {"user_annotation", Category::kUserAnnotation},
      {"User", Category::kUserAnnotation},
      {"gpu_user_annotation", Category::kGpuAnnotation},
      {"gpu_user_Annotation", Category::kGpuAnnotation},
      {"python_function", Category::kPythonFunction},
      {"Trace", Category::kTraceSpan},
      {"mtia_ccp_events", Category::kMtiaDevice},
      {"cuda_profiler_range", Category::kProfilerRange},
      {"cpu_instant_event", Category::kInstant},
      {"overhead", Category::kOverhead},
      {"fwdbwd", Category::kFlow},
      {"ac2g", Category::kFlow},
  }};
  if (cat.empty()) return Category::kNone;
  // The hot categories first, by length, before the full table.
  switch (cat.size()) {
    case 6:
      if (cat == "cpu_op") return Category::kCpuOp;
      if (cat == "kernel") return Category::kKernel;
      break;
    case 4:
      if (cat == "ac2g") return Category::kFlow;
      break;
    case 12:
      if (cat == "cuda_runtime") return Category::kRuntime;
      break;
    default:
      break;
  }
  for (const auto& [name, category] : kTable) {
    if (cat == name) return category;
  }
  if (cat == "async_gpu" || cat == "async_cpu_to_gpu" || cat == "async" || cat == "cpu_to_cuda") {
    return Category::kFlow;
  }
  return Category::kUnknown;
}

}  // namespace tensormorph::chrome
