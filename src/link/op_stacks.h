// Where each host slice sits: its nearest enclosing attribution target (a framework op or a
// record_function annotation) and, on request, its module path.
#pragma once

#include <string>
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

}  // namespace tensormorph
