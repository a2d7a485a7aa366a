#include "tensormorph/model/copy_kinds.h"

#include <fmt/format.h>

#include <array>
#include <utility>

namespace tensormorph {
namespace {

// Each direction's spellings, matched as whole tokens: "HtoD" must not match inside a longer
// word, and the Unified (managed-memory) variants of Nsight are copies in the same direction.
constexpr std::array<std::pair<std::string_view, CopyDirection>, 20> kDirectionTokens = {{
    {"HtoD", CopyDirection::kHostToDevice},
    {"H2D", CopyDirection::kHostToDevice},
    {"Host-to-Device", CopyDirection::kHostToDevice},
    {"HOST_TO_DEVICE", CopyDirection::kHostToDevice},
    {"DtoH", CopyDirection::kDeviceToHost},
    {"D2H", CopyDirection::kDeviceToHost},
    {"Device-to-Host", CopyDirection::kDeviceToHost},
    {"DEVICE_TO_HOST", CopyDirection::kDeviceToHost},
    {"DtoD", CopyDirection::kDeviceToDevice},
    {"D2D", CopyDirection::kDeviceToDevice},
    {"Device-to-Device", CopyDirection::kDeviceToDevice},
    {"DEVICE_TO_DEVICE", CopyDirection::kDeviceToDevice},
    {"HtoH", CopyDirection::kHostToHost},
    {"H2H", CopyDirection::kHostToHost},
    {"Host-to-Host", CopyDirection::kHostToHost},
    {"HOST_TO_HOST", CopyDirection::kHostToHost},
    {"PtoP", CopyDirection::kPeerToPeer},
    {"P2P", CopyDirection::kPeerToPeer},
    {"Peer-to-Peer", CopyDirection::kPeerToPeer},
    {"PEER_TO_PEER", CopyDirection::kPeerToPeer},
}};

// CUPTI's memory kind strings, as Kineto writes them in "(Pinned -> Device)"; ROCm's Kineto writes
// "Host" without saying whether it is pinned.
constexpr std::array<std::pair<std::string_view, MemoryKind>, 9> kMemoryKinds = {{
    {"Pageable", MemoryKind::kPageable},
    {"Pinned", MemoryKind::kPinned},
    {"Device", MemoryKind::kDevice},
    {"Array", MemoryKind::kArray},
    {"Managed", MemoryKind::kManaged},
    {"Device Static", MemoryKind::kDeviceStatic},
    {"Managed Static", MemoryKind::kManagedStatic},
    {"Host", MemoryKind::kHost},
    {"Unknown", MemoryKind::kUnknown},
}};

bool IsWordChar(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
}

// True when `token` occurs in `name` with no letter or digit on either side ("MemcpyD2H" counts:
// the prefix Memcpy is a word of its own there).
bool HasToken(std::string_view name, std::string_view token) {
  for (size_t at = name.find(token); at != std::string_view::npos; at = name.find(token, at + 1)) {
    const size_t end = at + token.size();
    const bool left_ok = at == 0 || !IsWordChar(name[at - 1]) ||
                         name.substr(0, at).ends_with("Memcpy") ||
                         name.substr(0, at).ends_with("memcpy");
    const bool right_ok = end == name.size() || !IsWordChar(name[end]);
    if (left_ok && right_ok) return true;
  }
  return false;
}

MemoryKind ParseMemoryKind(std::string_view text) {
  while (!text.empty() && text.front() == ' ') text.remove_prefix(1);
  while (!text.empty() && text.back() == ' ') text.remove_suffix(1);
  for (const auto& [name, kind] : kMemoryKinds) {
    if (text == name) return kind;
  }
  return MemoryKind::kUnknown;
}

}  // namespace

std::string_view CopyDirectionName(CopyDirection direction) {
  switch (direction) {
    case CopyDirection::kHostToDevice:
      return "HtoD";
    case CopyDirection::kDeviceToHost:
      return "DtoH";
    case CopyDirection::kDeviceToDevice:
      return "DtoD";
    case CopyDirection::kHostToHost:
      return "HtoH";
    case CopyDirection::kPeerToPeer:
      return "PtoP";
    case CopyDirection::kUnknown:
      break;
  }
  return "unknown";
}

std::string_view MemoryKindName(MemoryKind kind) {
  switch (kind) {
    case MemoryKind::kPageable:
      return "pageable";
    case MemoryKind::kPinned:
      return "pinned";
    case MemoryKind::kDevice:
      return "device";
    case MemoryKind::kArray:
      return "array";
    case MemoryKind::kManaged:
      return "managed";
    case MemoryKind::kDeviceStatic:
      return "device_static";
    case MemoryKind::kManagedStatic:
      return "managed_static";
    case MemoryKind::kHost:
      return "host";
    case MemoryKind::kUnknown:
      break;
  }
  return "unknown";
}

CopyDescription DescribeCopyName(std::string_view name) {
  CopyDescription copy;
  for (const auto& [token, direction] : kDirectionTokens) {
    if (HasToken(name, token)) {
      copy.direction = direction;
      break;
    }
  }
  // The kinds: the last "(A -> B)" of the name.
  const size_t open = name.rfind('(');
  const size_t close = name.rfind(')');
  if (open != std::string_view::npos && close != std::string_view::npos && open < close) {
    const std::string_view inside = name.substr(open + 1, close - open - 1);
    const size_t arrow = inside.find("->");
    if (arrow != std::string_view::npos) {
      copy.src = ParseMemoryKind(inside.substr(0, arrow));
      copy.dst = ParseMemoryKind(inside.substr(arrow + 2));
    }
  }
  return copy;
}

void DescribeCopies(Trace* trace) {
  for (Transfer& t : trace->transfers) {
    if (t.kind != TransferKind::kMemcpy) continue;
    if (t.direction != CopyDirection::kUnknown && t.src_memory != MemoryKind::kUnknown &&
        t.dst_memory != MemoryKind::kUnknown) {
      continue;
    }
    const CopyDescription copy = DescribeCopyName(trace->str(t.name));
    if (t.direction == CopyDirection::kUnknown) t.direction = copy.direction;
    if (t.src_memory == MemoryKind::kUnknown) t.src_memory = copy.src;
    if (t.dst_memory == MemoryKind::kUnknown) t.dst_memory = copy.dst;
  }
}

std::string MemcpyKindLabel(CopyDirection direction, MemoryKind src, MemoryKind dst) {
  return fmt::format("memcpy {} ({} -> {})", CopyDirectionName(direction), MemoryKindName(src),
                     MemoryKindName(dst));
}

}  // namespace tensormorph
