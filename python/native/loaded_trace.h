// One trace as the Python package holds it: the imported Trace and, once an analysis or the
// kernels' `op` column needs it, its LinkedTrace.
//
// Invariants: the Trace lives behind a unique_ptr and is never modified after import, so the
// LinkedTrace (which points into it) stays valid for the object's life. The link is built at most
// once (std::call_once), with the GIL released, so Python threads may share a LoadedTrace.
#pragma once

#include <memory>
#include <mutex>
#include <string>

#include "tensormorph/import/importer.h"
#include "tensormorph/link/linked_trace.h"
#include "tensormorph/model/trace.h"

namespace tensormorph::python {

class LoadedTrace {
 public:
  explicit LoadedTrace(Trace trace) : trace_(std::make_unique<Trace>(std::move(trace))) {}

  const Trace& trace() const { return *trace_; }
  const LinkedTrace& linked() const {
    std::call_once(linked_once_, [this] {
      linked_ = std::make_unique<LinkedTrace>(*trace_, LinkOptions{.concurrent = true});
    });
    return *linked_;
  }

 private:
  std::unique_ptr<Trace> trace_;
  mutable std::once_flag linked_once_;
  mutable std::unique_ptr<LinkedTrace> linked_;
};

// A failed import, as the Python package raises it (tensormorph.TraceError): the file, the place
// in it when the importer knows one (1-based; 0 = unknown), and the message without them.
struct LoadFailure {
  std::string path;
  uint64_t line = 0;
  uint64_t column = 0;
  std::string message;
  bool usage = false;  // the options were wrong (StatusCode::kInvalidArgument), not the file
};

}  // namespace tensormorph::python
