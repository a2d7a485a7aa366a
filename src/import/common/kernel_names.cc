#include "import/common/kernel_names.h"

#include <unordered_map>

namespace tensormorph {

void DemangleKernelNames(Trace* trace) {
  // Per distinct name id: the demangled id, or the same id when the name is not mangled.
  std::unordered_map<StringId, StringId> renamed;
  for (Kernel& k : trace->kernels) {
    auto [it, added] = renamed.try_emplace(k.name, k.name);
    if (added) {
      if (std::optional<std::string> readable = DemangleItanium(trace->str(k.name))) {
        it->second = trace->strings.Intern(*readable);
        trace->mangled_names.try_emplace(it->second, k.name);
      }
    }
    k.name = it->second;
  }
}

}  // namespace tensormorph
