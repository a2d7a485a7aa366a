// Turns RawEvents into model rows for one chunk, with a chunk-local string pool and track table,
// so that chunks are built on worker threads without sharing anything. ChunkMerger (importer side)
// appends the chunks in file order, remapping local ids.
#pragma once

#include <cstdint>
#include <string>
#include <unordered_map>
#include <vector>

#include "import/chrome/categories.h"
#include "import/chrome/raw_event.h"
#include "tensormorph/model/trace.h"

namespace tensormorph::chrome {

// A pid/tid pair; string ids are folded into a number by hash (kept by name in Track).
struct TrackKey {
  int64_t pid = 0;
  int64_t tid = 0;
  bool operator==(const TrackKey&) const = default;
};
struct TrackKeyHash {
  size_t operator()(const TrackKey& k) const {
    return std::hash<int64_t>()(k.pid) * 1000003u ^ std::hash<int64_t>()(k.tid);
  }
};

// A warning tied to a place in the input; positions become line:col after the import.
struct PendingWarning {
  uint64_t content_offset = 0;
  std::string message;
};

enum class MetadataKind : uint8_t { kProcessName, kProcessLabels, kThreadName };
struct MetadataRecord {
  MetadataKind kind;
  TrackKey key;
  std::string value;
};

// What the events themselves say about the producer; decides format version and backend.
struct FormatEvidence {
  uint64_t legacy_gpu_categories = 0;  // Kernel / Runtime / Memcpy (≤ 2022)
  uint64_t async_gpu_flows = 0;        // async_gpu / async_cpu_to_gpu flows (2021-10 .. 2022-10)
  uint64_t ac2g_flows = 0;             // ac2g (2022-10 on)
  uint64_t fractional_timestamps = 0;  // ns-precision ts (2024-03 on)
  uint64_t cpu_functions_pid = 0;      // legacy autograd export
  uint64_t categorised = 0;            // events with a known Kineto category
  uint64_t mtia_events = 0;            // Meta MTIA accelerator categories
};

// A complete event without "cat" (JAX / XLA writes none): whether it is a kernel, a launch call or
// a host range depends on the names of its process and thread, known only once every chunk is
// merged (jax_events.h).
struct UntypedEvent {
  int64_t start_ns = 0, duration_ns = 0;
  uint64_t correlation = 0;
  StringId name = 0, hlo_op = 0, hlo_module = 0, kernel_details = 0;
  uint32_t track = 0;
};

struct ChunkResult {
  // How far into the input this chunk ends, 0..1 (estimated from compressed bytes for gzip); lets
  // the merger size the trace's tables once instead of growing them by doubling.
  double input_fraction = 0;
  StringPool strings;
  std::vector<TrackKey> tracks;  // local track index -> key
  std::vector<std::string> track_pid_names, track_tid_names;
  std::vector<int64_t> device_keys;  // local device index -> raw device id
  std::vector<Kernel> kernels;       // device = local device index; stream = raw
  std::vector<Transfer> transfers;
  std::vector<ApiCall> api_calls;  // track = local track index
  std::vector<Slice> slices;       // inputs = ids in op_inputs
  OpInputTable op_inputs;
  std::vector<Flow> flows;
  std::vector<Instant> instants;      // track = local track index
  std::vector<UntypedEvent> untyped;  // track = local track index; not yet counted
  std::vector<MetadataRecord> metadata;
  EventCounts counts;
  FormatEvidence evidence;
  std::vector<PendingWarning> warnings;
};

class ChunkBuilder {
 public:
  explicit ChunkBuilder(ChunkResult* out) : out_(out) {}

  // Adds one event that was read from `content_offset` in the input.
  void Add(const RawEvent& event, uint64_t content_offset);
  // An event that could not be read at all.
  void Skip(uint64_t content_offset, std::string message);
  // Something about an event that was kept (e.g. repaired text).
  void Warn(uint64_t content_offset, std::string message);

 private:
  Category CategoryOf(std::string_view text);
  uint32_t TrackOf(const RawEvent& event);
  uint32_t DeviceOf(int64_t device_key);
  bool CheckTimes(const RawEvent& event, uint64_t content_offset);
  void AddComplete(const RawEvent& event, Category category, uint64_t content_offset);
  void AddKernel(const RawEvent& event);
  void AddTransfer(const RawEvent& event, TransferKind kind);
  void AddSlice(const RawEvent& event, SliceKind kind);
  void AddUntyped(const RawEvent& event);
  void AddMetadata(const RawEvent& event);

  ChunkResult* out_;
  std::unordered_map<TrackKey, uint32_t, TrackKeyHash> track_index_;
  std::unordered_map<int64_t, uint32_t> device_index_;
  std::string last_category_text_;
  // Recorded inputs by their raw text (dims, types, values, strides, NUL-separated): each
  // distinct text is read once.
  std::unordered_map<std::string, OpInputsId> inputs_by_text_;
  std::string inputs_key_;  // reused buffer for the key
  Category last_category_ = Category::kNone;
};

// Folds a string pid/tid into the number space, away from real (small, non-negative) ids.
int64_t StringIdKey(std::string_view text);

}  // namespace tensormorph::chrome
