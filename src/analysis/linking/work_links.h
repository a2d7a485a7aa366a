// Linking device work to the host: which runtime call launched each kernel / memcpy / memset, and
// which framework operation was running on the launching thread at that moment.
//
// The rule (DESIGN §3, as Kineto and Holistic Trace Analysis link them):
//  1. the launch is the runtime or driver call with the same correlation id;
//  2. the op is the framework op with the launch's External id when the trace records it, else the
//     innermost op on the launch's thread enclosing the launch's start;
//  3. kernels sharing the correlation of a graph launch (cudaGraphLaunch, hipGraphLaunch, ...) are
//     a graph replay: attributed to the op around the graph launch and marked as graph kernels.
// Whatever cannot be linked says why (WorkOrigin); nothing is dropped.
#pragma once

#include <cstdint>
#include <string_view>
#include <vector>

#include "model/trace.h"

namespace tensormorph {

constexpr uint32_t kNoRow = UINT32_MAX;

enum class WorkOrigin : uint8_t {
  kOp,        // linked to a framework op
  kNoOp,      // its launch call is in the trace, but no framework op encloses it
  kNoLaunch,  // no launch call with its correlation id (GPU-only trace, or the call fell outside)
};
const char* WorkOriginName(WorkOrigin origin);  // "op", "no_op", "no_launch"

struct WorkLink {
  uint32_t launch = kNoRow;  // index into Trace::api_calls
  uint32_t op = kNoRow;      // index into Trace::slices (a SliceKind::kOp row)
  WorkOrigin origin = WorkOrigin::kNoLaunch;
  bool graph = false;           // one kernel of a graph replay
  bool by_external_id = false;  // the op was found by External id rather than by time
};

struct TraceLinks {
  std::vector<WorkLink> kernels;    // parallel to Trace::kernels
  std::vector<WorkLink> transfers;  // parallel to Trace::transfers
  // Parallel to Trace::slices: the innermost slice (any kind) on the same track that encloses it,
  // kNoRow at the top. Slices that overlap without nesting keep the parent they had at their start.
  std::vector<uint32_t> slice_parent;
  uint64_t duplicate_correlations = 0;  // launch calls whose correlation id was already taken
};

// Pure: reads the trace, returns the links. Linear in the rows plus a sort of the launch ids.
TraceLinks LinkTrace(const Trace& trace);

// True for the runtime/driver calls that launch a whole captured graph.
bool IsGraphLaunch(std::string_view api_name);

// The innermost slice of `kind` on `track` whose [start, end] contains `time_ns`, or kNoRow. Uses
// the parent links: O(log n + nesting depth).
uint32_t EnclosingSlice(const Trace& trace, const TraceLinks& links, uint32_t track,
                        int64_t time_ns, SliceKind kind);

}  // namespace tensormorph
