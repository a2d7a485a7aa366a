#include "io/demangle.h"

#include <libiberty/demangle.h>

#include <cstdlib>
#include <memory>

namespace tensormorph {

std::optional<std::string> DemangleItanium(std::string_view name) {
  if (!name.starts_with("_Z")) return std::nullopt;
  const std::string symbol(name);  // the demangler needs a terminated string
  // Parameters and cv-qualifiers included, as c++filt shows them.
  std::unique_ptr<char, decltype(&std::free)> text(
      cplus_demangle_v3(symbol.c_str(), DMGL_PARAMS | DMGL_ANSI), &std::free);
  if (text == nullptr) return std::nullopt;
  return std::string(text.get());
}

}  // namespace tensormorph
