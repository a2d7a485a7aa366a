#include "import/native/native_schema.h"

#include <array>
#include <utility>

#include "tensormorph/model/copy_kinds.h"

namespace tensormorph::native {
namespace {

template <typename Enum, size_t N>
std::string_view NameOf(const std::array<std::pair<Enum, std::string_view>, N>& names, Enum e) {
  for (const auto& [value, name] : names) {
    if (value == e) return name;
  }
  return names[0].second;
}

template <typename Enum, size_t N>
std::optional<Enum> Parse(const std::array<std::pair<Enum, std::string_view>, N>& names,
                          std::string_view text) {
  for (const auto& [value, name] : names) {
    if (name == text) return value;
  }
  return std::nullopt;
}

constexpr std::array<std::pair<SliceKind, std::string_view>, 4> kSliceKinds = {{
    {SliceKind::kOp, "op"},
    {SliceKind::kUserAnnotation, "user_annotation"},
    {SliceKind::kGpuAnnotation, "gpu_annotation"},
    {SliceKind::kPythonFunction, "python_function"},
}};
constexpr std::array<std::pair<ApiKind, std::string_view>, 3> kApiKinds = {{
    {ApiKind::kRuntime, "runtime"},
    {ApiKind::kDriver, "driver"},
    {ApiKind::kSync, "sync"},
}};
constexpr std::array<std::pair<TransferKind, std::string_view>, 2> kTransferKinds = {{
    {TransferKind::kMemcpy, "memcpy"},
    {TransferKind::kMemset, "memset"},
}};
constexpr std::array<std::pair<FlowKind, std::string_view>, 3> kFlowKinds = {{
    {FlowKind::kLaunch, "launch"},
    {FlowKind::kForwardBackward, "forward_backward"},
    {FlowKind::kOther, "other"},
}};
constexpr std::array<std::pair<FlowPhase, std::string_view>, 3> kFlowPhases = {{
    {FlowPhase::kStart, "start"},
    {FlowPhase::kStep, "step"},
    {FlowPhase::kFinish, "finish"},
}};

}  // namespace

std::string_view SliceKindName(SliceKind kind) {
  return NameOf(kSliceKinds, kind);
}
std::optional<SliceKind> ParseSliceKind(std::string_view name) {
  return Parse(kSliceKinds, name);
}
std::string_view ApiKindName(ApiKind kind) {
  return NameOf(kApiKinds, kind);
}
std::optional<ApiKind> ParseApiKind(std::string_view name) {
  return Parse(kApiKinds, name);
}
std::string_view TransferKindName(TransferKind kind) {
  return NameOf(kTransferKinds, kind);
}
std::optional<TransferKind> ParseTransferKind(std::string_view name) {
  return Parse(kTransferKinds, name);
}
// The names are copy_kinds.h's, as every other output spells them.
std::optional<CopyDirection> ParseCopyDirection(std::string_view name) {
  for (int i = 0; i <= static_cast<int>(CopyDirection::kPeerToPeer); ++i) {
    const auto direction = static_cast<CopyDirection>(i);
    if (CopyDirectionName(direction) == name) return direction;
  }
  return std::nullopt;
}
std::optional<MemoryKind> ParseMemoryKind(std::string_view name) {
  for (int i = 0; i <= static_cast<int>(MemoryKind::kHost); ++i) {
    const auto kind = static_cast<MemoryKind>(i);
    if (MemoryKindName(kind) == name) return kind;
  }
  return std::nullopt;
}
std::string_view FlowKindName(FlowKind kind) {
  return NameOf(kFlowKinds, kind);
}
std::optional<FlowKind> ParseFlowKind(std::string_view name) {
  return Parse(kFlowKinds, name);
}
std::string_view FlowPhaseName(FlowPhase phase) {
  return NameOf(kFlowPhases, phase);
}
std::optional<FlowPhase> ParseFlowPhase(std::string_view name) {
  return Parse(kFlowPhases, name);
}

}  // namespace tensormorph::native
