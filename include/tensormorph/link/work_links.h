// Linking device work to the host: which runtime call launched each kernel / memcpy / memset, and
// which framework operation was running on the launching thread at that moment.
//
// The rule (DESIGN §3, as Kineto and Holistic Trace Analysis link them):
//  1. the launch is the runtime or driver call with the same correlation id;
//  2. the op is the innermost framework op on the launch's thread enclosing the launch's start;
//     failing that, the op whose External id the launch (or, without a launch, the kernel)
//     carries, if that op's time window holds the launch (the kernel start). External ids alone
//     are not trusted: older Kineto wrote the correlation id into runtime calls' External id, so
//     it names an unrelated op (alexnet_a100_cuda_sync_trace.json.gz: correlation 218). A trace
//     whose importer numbered ops and kernels itself says so (Trace::exact_external_ids): a
//     kernel without a launch then belongs to the op its External id names wherever it ran (ONNX
//     Runtime's WebGPU EP dispatches run on the GPU after their node's host time);
//  3. without an op, the innermost user annotation (record_function range, not ProfilerStep#N)
//     around the launch: serving frameworks such as SGLang replay CUDA/HIP graphs under their own
//     annotations with no aten op around the graph launch;
//  4. kernels sharing the correlation of a graph launch (cudaGraphLaunch, hipGraphLaunch, ...) are
//     a graph replay: attributed like any other kernel of that launch and marked as graph kernels.
// Whatever cannot be linked says why (WorkOrigin); nothing is dropped.
#pragma once

#include <cstdint>
#include <string_view>
#include <vector>

#include "tensormorph/model/trace.h"

namespace tensormorph {

constexpr uint32_t kNoRow = UINT32_MAX;

enum class WorkOrigin : uint8_t {
  kOp,          // linked to a framework op
  kAnnotation,  // no op, but a user annotation encloses the launch
  kNoOp,        // its launch call is in the trace, but no op or annotation encloses it
  kNoLaunch,    // no launch call with its correlation id (GPU-only trace, or the call fell outside)
};
const char* WorkOriginName(WorkOrigin origin);  // "op", "annotation", "no_op", "no_launch"

struct WorkLink {
  uint32_t launch = kNoRow;  // index into Trace::api_calls
  uint32_t op = kNoRow;      // index into Trace::slices: the kOp row, or the kUserAnnotation row
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

// Pure: reads the trace, returns the links. Linear in the rows (plus a radix sort of the ids when
// they are sparse: link/id_index.h). `concurrent`: the indexes are built and the
// kernels linked on two threads; the links are the same.
TraceLinks LinkTrace(const Trace& trace, bool concurrent = false);

// True for the runtime/driver calls that launch a whole captured graph.
bool IsGraphLaunch(std::string_view api_name);

// The innermost slice of `kind` on `track` whose [start, end] contains `time_ns`, or kNoRow. Uses
// the parent links: O(log n + nesting depth). Step annotations (IsStepAnnotation) never count:
// steps are not an attribution target (see link/steps.h).
uint32_t EnclosingSlice(const Trace& trace, const TraceLinks& links, uint32_t track,
                        int64_t time_ns, SliceKind kind);

// ProfilerStep#N (PyTorch), model_run#N (ONNX Runtime's runs, as its importer names them): one
// iteration each, so never a module path element nor an attribution target.
bool IsStepAnnotation(std::string_view slice_name);

}  // namespace tensormorph
