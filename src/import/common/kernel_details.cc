#include "import/common/kernel_details.h"

#include <algorithm>
#include <charconv>
#include <limits>

namespace tensormorph::xplane {
namespace {

std::optional<uint64_t> ParseCount(std::string_view text) {
  uint64_t value = 0;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec != std::errc() || end != text.data() + text.size() || text.empty()) return std::nullopt;
  return value;
}

// "x,y,z"; a dimension that is missing or unreadable leaves the whole triple empty.
Dim3 ParseDim3(std::string_view text) {
  uint32_t parts[3] = {0, 0, 0};
  for (int i = 0; i < 3; ++i) {
    const size_t comma = text.find(',');
    std::optional<uint64_t> v = ParseCount(text.substr(0, comma));
    if (!v || *v > std::numeric_limits<uint32_t>::max()) return {};
    parts[i] = static_cast<uint32_t>(*v);
    if (i < 2) {
      if (comma == std::string_view::npos) return {};
      text.remove_prefix(comma + 1);
    } else if (comma != std::string_view::npos) {
      return {};
    }
  }
  return {parts[0], parts[1], parts[2]};
}

template <typename T>
T Clamp(uint64_t v) {
  return static_cast<T>(std::min<uint64_t>(v, std::numeric_limits<T>::max()));
}

}  // namespace

KernelDetails ParseKernelDetails(std::string_view text) {
  KernelDetails d;
  while (!text.empty()) {
    const size_t start = text.find_first_not_of(' ');
    if (start == std::string_view::npos) break;
    text.remove_prefix(start);
    const size_t end = text.find(' ');
    const std::string_view token = text.substr(0, end);
    text.remove_prefix(end == std::string_view::npos ? text.size() : end);
    const size_t colon = token.find(':');
    if (colon == std::string_view::npos) continue;
    const std::string_view key = token.substr(0, colon);
    const std::string_view value = token.substr(colon + 1);
    if (key == "grid") {
      d.grid = ParseDim3(value);
    } else if (key == "block") {
      d.block = ParseDim3(value);
    } else if (key == "regs") {
      d.registers = ParseCount(value);
    } else if (key == "static_shared") {
      d.static_shared = ParseCount(value);
    } else if (key == "dynamic_shared") {
      d.dynamic_shared = ParseCount(value);
    } else if (key == "group_mem") {
      d.group_memory = ParseCount(value);
    } else if (key == "private_mem") {
      d.private_memory = ParseCount(value);
    }
  }
  if (d.registers && *d.registers > kMaxRegisters) {
    d.implausible = true;
    d.registers.reset();
    d.static_shared.reset();
  }
  return d;
}

bool ApplyKernelDetails(const KernelDetails& details, Kernel* kernel) {
  kernel->grid = details.grid;
  kernel->block = details.block;
  if (details.registers) kernel->registers_per_thread = Clamp<uint16_t>(*details.registers);
  uint64_t shared = 0;
  bool any_shared = false;
  for (const std::optional<uint64_t>& part :
       {details.static_shared, details.dynamic_shared, details.group_memory}) {
    if (part) {
      shared += *part;
      any_shared = true;
    }
  }
  if (any_shared && !details.implausible) kernel->shared_memory_bytes = Clamp<uint32_t>(shared);
  // JAX 0.6 / ROCm: dynamic_shared may still be real, but static + dynamic is not; leave it 0.
  return !details.implausible;
}

uint64_t MemcpyBytes(std::string_view memcpy_details) {
  size_t at = memcpy_details.find("size:");
  while (at != std::string_view::npos && at > 0 && memcpy_details[at - 1] != ' ') {
    at = memcpy_details.find("size:", at + 1);
  }
  if (at == std::string_view::npos) return 0;
  std::string_view rest = memcpy_details.substr(at + 5);
  rest = rest.substr(0, rest.find(' '));
  return ParseCount(rest).value_or(0);
}

}  // namespace tensormorph::xplane
