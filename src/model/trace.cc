#include "tensormorph/model/trace.h"

#include <algorithm>

namespace tensormorph {

const char* BackendName(Backend backend) {
  switch (backend) {
    case Backend::kCpu:
      return "cpu";
    case Backend::kCuda:
      return "cuda";
    case Backend::kRocm:
      return "rocm";
    case Backend::kMetal:
      return "metal";
    case Backend::kWebGpu:
      return "webgpu";
    case Backend::kOther:
      return "other";
  }
  return "other";
}

std::optional<Backend> ParseBackend(std::string_view name) {
  for (Backend b : {Backend::kCpu, Backend::kCuda, Backend::kRocm, Backend::kMetal,
                    Backend::kWebGpu, Backend::kOther}) {
    if (name == BackendName(b)) return b;
  }
  return std::nullopt;
}

bool Trace::HasBackend(Backend backend) const {
  return std::find(backends.begin(), backends.end(), backend) != backends.end();
}

}  // namespace tensormorph
