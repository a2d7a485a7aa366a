// The common shape of every WebGPU profile tensormorph reads (ONNX Runtime Web console lines and
// ondata objects, TensorFlow.js tf.profile() results): a list of dispatches in issue order, each
// with the op that issued it. trace_builder.h turns them into a Trace:
//
// Model: one device (Backend::kWebGpu, named "WebGPU": none of these outputs names the adapter),
// one queue (stream 0), and one host track on which every dispatch also has an op slice (the ONNX
// op type or TF.js kernel name) covering the dispatch's GPU time and joined to its kernel by
// External id, so that `tensormorph ops` sees the ops. None of these formats times the host side:
// op times are the GPU times of their dispatches. Inputs that hold several profiled runs (an array
// of tf.profile() results) also get a user annotation per run on the host track, spanning its
// dispatches.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "tensormorph/model/trace.h"

namespace tensormorph::webgpu {

struct Dispatch {
  std::string kernel;                  // the kernel row's name: the WGSL program, else the op type
  std::string op;                      // the op slice's name: ONNX op type, TF.js kernel name
  std::optional<OpInputs> inputs;      // the op's recorded arguments; none when unknown
  std::optional<int64_t> start_ns;     // measured start, relative ns; none in logs
  std::optional<int64_t> duration_ns;  // none: the profiler could not time it
};

// Dispatches [first, first + count) of a DispatchList, one profiled run of the model.
struct DispatchRun {
  std::string name;  // the annotation's name, e.g. "tf.profile() #2"
  size_t first = 0;
  size_t count = 0;
};

struct DispatchList {
  std::vector<Dispatch> dispatches;
  std::vector<DispatchRun> runs;  // empty: the input is one run (or does not say)
  std::string format_version;     // human-readable source, e.g. "ONNX Runtime Web console log"
  std::string host_track_name;    // "ONNX Runtime Web", "TensorFlow.js"
  // True when the source has durations only: dispatches are then laid end to end from 0 in the
  // order given, and the trace says its timeline is synthetic.
  bool synthetic_starts = false;
  uint64_t other = 0;    // input records that are not dispatches (other console lines)
  uint64_t skipped = 0;  // dispatch records that could not be read (each in a warning)
  std::vector<std::string> warnings;
  std::map<std::string, std::string> metadata;  // values as JSON text
};

}  // namespace tensormorph::webgpu
