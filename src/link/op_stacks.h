// Where each host slice sits: its nearest enclosing attribution target (a framework op or a
// record_function annotation) and, on request, its module path.
#pragma once

#include <string>
#include <unordered_map>
#include <vector>

#include "tensormorph/link/work_links.h"
#include "tensormorph/model/trace.h"

namespace tensormorph {

class OpStacks {
 public:
  // `with_paths`: also build module paths (costs a string per distinct path).
  OpStacks(const Trace& trace, const TraceLinks& links, bool with_paths);

  // The nearest enclosing op or (non-step) user annotation, or kNoRow.
  uint32_t TargetParentOf(uint32_t slice) const { return target_parent_[slice]; }

  // The module path around a slice, outermost first: nn.Module frames (with_modules=True python
  // frames named "nn.Module: Name_N", prefix dropped) and user annotations other than
  // step markers (IsStepAnnotation: ProfilerStep#N, model_run#N), joined by " > ". Empty without
  // paths or when nothing encloses it.
  const std::string& PathOf(uint32_t slice) const;
  // Which distinct path PathOf(slice) is: equal indices, equal paths.
  uint32_t PathIndexOf(uint32_t slice) const { return path_of_.empty() ? 0 : path_of_[slice]; }

 private:
  std::vector<uint32_t> target_parent_;
  std::vector<uint32_t> path_of_;  // index into paths_
  std::vector<std::string> paths_;
};

// The module paths of a few slices, found on demand (OpStacks builds every slice's path: the cost
// of a string per distinct path over the whole trace). Each query walks the slice's parents to its
// innermost path element and memoises that element's path, so that the slices under one module
// share one string and cost O(nesting depth) each. The same paths as OpStacks::PathOf.
class LazyModulePaths {
 public:
  LazyModulePaths(const Trace& trace, const TraceLinks& links) : trace_(trace), links_(links) {}

  // The index of the path around `slice` (0: none); Path(index) is its text.
  uint32_t PathIndexOf(uint32_t slice);
  const std::string& Path(uint32_t index) const { return paths_[index]; }

 private:
  uint32_t PathOfElement(uint32_t element);  // the path that ends with element's own name

  const Trace& trace_;
  const TraceLinks& links_;
  std::vector<std::string> paths_{std::string()};
  std::unordered_map<uint32_t, uint32_t> of_element_;  // element slice -> index into paths_
  std::unordered_map<std::string, uint32_t> ids_;
};

}  // namespace tensormorph
