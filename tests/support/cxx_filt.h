// The demangled form of a symbol as binutils' c++filt prints it: the oracle for kernel-name
// demangling (a separate program, not the library src/io/demangle.cc links). "" when c++filt
// leaves the name as it is, or cannot be run.
#pragma once

#include <cstdio>
#include <string>

namespace tensormorph::testing {

inline std::string DemangledByCxxFilt(const std::string& symbol) {
  // Mangled names hold only [A-Za-z0-9_.$]; anything else is not one to ask about.
  for (char c : symbol) {
    const bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
                    c == '_' || c == '.' || c == '$';
    if (!ok) return "";
  }
  FILE* pipe = ::popen(("c++filt '" + symbol + "'").c_str(), "r");
  if (pipe == nullptr) return "";
  std::string out;
  char buffer[4096];
  while (size_t n = std::fread(buffer, 1, sizeof buffer, pipe)) out.append(buffer, n);
  ::pclose(pipe);
  while (!out.empty() && (out.back() == '\n' || out.back() == '\r')) out.pop_back();
  return out == symbol ? "" : out;
}

}  // namespace tensormorph::testing
