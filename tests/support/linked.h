// Tests call analyses on hand-built or loaded traces: Linked({&a, &b}) links each one for the
// duration of the full expression, e.g. SummarizeKernels(Linked({&t}), {}). The analysis results
// must not keep pointers into the LinkedTraces (none does; they copy what they report).
#pragma once

#include <initializer_list>
#include <vector>

#include "tensormorph/link/linked_trace.h"

namespace tensormorph {

class Linked {
 public:
  Linked(std::initializer_list<const Trace*> traces) {
    owned_.reserve(traces.size());
    for (const Trace* t : traces) owned_.emplace_back(*t);
    pointers_ = Pointers(owned_);
  }
  operator const std::vector<const LinkedTrace*>&() const { return pointers_; }  // NOLINT
  const LinkedTrace& operator[](size_t i) const { return owned_[i]; }

 private:
  std::vector<LinkedTrace> owned_;
  std::vector<const LinkedTrace*> pointers_;
};

}  // namespace tensormorph
