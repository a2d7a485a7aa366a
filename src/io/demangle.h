// Itanium C++ symbol demangling, for kernel names that reach a trace mangled (ROCm, HIP, Triton,
// CUTLASS: `_ZN5aiter24add_rmsnorm_quant_kernelIDF16b...`). It uses GNU libiberty's demangler
// (Debian's libiberty-dev), the code behind c++filt and the C++ runtime's abi::__cxa_demangle, in
// a newer version than GCC 12's runtime carries: that one rejects names real ROCm traces have,
// such as those with std::bfloat16_t (DF16b).
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace tensormorph {

// The demangled form of `name` when it starts with "_Z" and the demangler accepts it whole
// (clone suffixes such as AMD's ".kd" descriptor come out as " [clone .kd]", as c++filt prints
// them). Anything else, readable or already demangled, gives nullopt, so demangling twice
// changes nothing.
std::optional<std::string> DemangleItanium(std::string_view name);

}  // namespace tensormorph
