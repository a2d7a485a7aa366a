#include "link/op_stacks.h"

#include <unordered_map>

namespace tensormorph {
namespace {

constexpr std::string_view kModulePrefix = "nn.Module: ";

bool IsTarget(const Trace& trace, const Slice& slice) {
  return slice.kind == SliceKind::kOp ||
         (slice.kind == SliceKind::kUserAnnotation && !IsStepAnnotation(trace.str(slice.name)));
}

// The name a slice adds to a module path, or empty when it adds none.
std::string_view PathElement(const Trace& trace, const Slice& slice) {
  const std::string_view name = trace.str(slice.name);
  if (slice.kind == SliceKind::kPythonFunction && name.starts_with(kModulePrefix)) {
    return name.substr(kModulePrefix.size());
  }
  if (slice.kind == SliceKind::kUserAnnotation && !IsStepAnnotation(name)) return name;
  return {};
}

}  // namespace

OpStacks::OpStacks(const Trace& trace, const TraceLinks& links, bool with_paths) {
  const size_t n = trace.slices.size();
  target_parent_.assign(n, kNoRow);
  paths_.emplace_back();  // path 0: the empty path
  if (with_paths) path_of_.assign(n, 0);
  std::unordered_map<std::string, uint32_t> path_ids;
  // Parents come before their children in slice order, so one forward pass sees them first.
  for (uint32_t i = 0; i < n; ++i) {
    const uint32_t parent = links.slice_parent[i];
    if (parent == kNoRow) continue;
    target_parent_[i] = IsTarget(trace, trace.slices[parent]) ? parent : target_parent_[parent];
    if (!with_paths) continue;
    const std::string_view element = PathElement(trace, trace.slices[parent]);
    if (element.empty()) {
      path_of_[i] = path_of_[parent];
      continue;
    }
    const std::string& base = paths_[path_of_[parent]];
    std::string path = base.empty() ? std::string(element) : base + " > " + std::string(element);
    auto [it, added] = path_ids.emplace(std::move(path), static_cast<uint32_t>(paths_.size()));
    if (added) paths_.push_back(it->first);
    path_of_[i] = it->second;
  }
}

const std::string& OpStacks::PathOf(uint32_t slice) const {
  return path_of_.empty() ? paths_[0] : paths_[path_of_[slice]];
}

uint32_t LazyModulePaths::PathIndexOf(uint32_t slice) {
  for (uint32_t p = links_.slice_parent[slice]; p != kNoRow; p = links_.slice_parent[p]) {
    if (!PathElement(trace_, trace_.slices[p]).empty()) return PathOfElement(p);
  }
  return 0;
}

uint32_t LazyModulePaths::PathOfElement(uint32_t element) {
  if (auto it = of_element_.find(element); it != of_element_.end()) return it->second;
  const std::string& base = paths_[PathIndexOf(element)];
  const std::string_view name = PathElement(trace_, trace_.slices[element]);
  std::string path = base.empty() ? std::string(name) : base + " > " + std::string(name);
  auto [it, added] = ids_.emplace(std::move(path), static_cast<uint32_t>(paths_.size()));
  if (added) paths_.push_back(it->first);
  of_element_.emplace(element, it->second);
  return it->second;
}

}  // namespace tensormorph
