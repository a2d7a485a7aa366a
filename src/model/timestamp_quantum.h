// Detects a quantized clock: WebGPU timestamp queries are rounded by the browser (Chrome: 100 us
// unless WebGPU developer features are on) or by Dawn (65.536 us = 2^16 ns, toggle
// `timestamp_quantization`). Differences below the quantum are not real, so an importer (or
// LoadTrace, for WebGPU traces) records it in Trace::timestamp_resolution_ns.
#pragma once

#include <cstdint>
#include <span>
#include <string>

#include "tensormorph/model/trace.h"

namespace tensormorph {

constexpr int64_t kDawnTimestampQuantumNs = 65536;
constexpr int64_t kChromeTimestampQuantumNs = 100000;
// Fewer nonzero values than this never count as quantized: a handful of round numbers is chance.
constexpr size_t kMinQuantumSamples = 8;

// The quantum (65,536 or 100,000 ns) of which every nonzero value in `values` is a multiple, when
// there are at least kMinQuantumSamples nonzero values; 0 otherwise. Zeros are ignored (a
// dispatch shorter than the quantum reads 0).
int64_t DetectQuantum(std::span<const int64_t> values);

// The same over a trace's kernels: every nonzero duration and every nonzero start, starts taken
// relative to the earliest kernel start (absolute clocks have an arbitrary origin).
int64_t DetectTimestampQuantum(const Trace& trace);

// "every kernel time is a multiple of 65536 ns ..." for a trace
// whose timestamp_resolution_ns is set.
std::string QuantizedTimestampsWarning(const Trace& trace);

}  // namespace tensormorph
