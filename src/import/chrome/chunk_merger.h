// Appends ChunkResults, in file order, into one Trace: remaps chunk-local string, track and
// device ids to the trace's own. Merging in chunk order keeps the result independent of how many
// threads parsed the chunks.
#pragma once

#include <unordered_map>
#include <vector>

#include "import/chrome/chunk_builder.h"
#include "tensormorph/model/trace.h"

namespace tensormorph::chrome {

struct MergedChunks {
  std::vector<int64_t> device_keys;  // Kernel/Transfer::device indexes this until devices resolve
  std::unordered_map<int64_t, std::string> process_names, process_labels;
  std::unordered_map<TrackKey, std::string, TrackKeyHash> thread_names;
  std::vector<TrackKey> track_keys;   // parallel to Trace::tracks
  std::vector<UntypedEvent> untyped;  // trace string and track ids
  FormatEvidence evidence;
  std::vector<PendingWarning> warnings;
};

class ChunkMerger {
 public:
  ChunkMerger(Trace* trace, MergedChunks* merged) : trace_(trace), merged_(merged) {}
  void Append(ChunkResult&& chunk);

 private:
  Trace* trace_;
  MergedChunks* merged_;
  std::unordered_map<TrackKey, uint32_t, TrackKeyHash> track_index_;
  std::unordered_map<int64_t, uint32_t> device_index_;
};

}  // namespace tensormorph::chrome
