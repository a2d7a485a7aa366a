#include "import/chrome/chunk_merger.h"

#include <algorithm>

namespace tensormorph::chrome {
namespace {

void AddCounts(const EventCounts& from, EventCounts* to) {
  to->kernels += from.kernels;
  to->memcpys += from.memcpys;
  to->memsets += from.memsets;
  to->runtime_calls += from.runtime_calls;
  to->driver_calls += from.driver_calls;
  to->sync_events += from.sync_events;
  to->ops += from.ops;
  to->annotations += from.annotations;
  to->gpu_annotations += from.gpu_annotations;
  to->python_functions += from.python_functions;
  to->flows += from.flows;
  to->metadata += from.metadata;
  to->instants += from.instants;
  to->counter_ranges += from.counter_ranges;
  to->other += from.other;
  to->skipped += from.skipped;
}

void AddEvidence(const FormatEvidence& from, FormatEvidence* to) {
  to->legacy_gpu_categories += from.legacy_gpu_categories;
  to->async_gpu_flows += from.async_gpu_flows;
  to->ac2g_flows += from.ac2g_flows;
  to->fractional_timestamps += from.fractional_timestamps;
  to->cpu_functions_pid += from.cpu_functions_pid;
  to->categorised += from.categorised;
  to->mtia_events += from.mtia_events;
}

// Makes room for `extra` more rows. When the table must grow, it is sized for the whole input,
// extrapolated from how far into the input this chunk ends: capacity that is never written is
// never resident, while doubling would copy the table and hold old and new copies at once.
template <typename Row>
void ReserveFor(std::vector<Row>* rows, size_t extra, double input_fraction) {
  const size_t needed = rows->size() + extra;
  if (needed <= rows->capacity()) return;
  size_t estimate = needed;
  if (input_fraction > 0.001 && input_fraction < 1) {
    estimate = static_cast<size_t>(static_cast<double>(needed) / input_fraction * 1.05) + 1024;
  }
  rows->reserve(std::max({needed, estimate, rows->capacity() + rows->capacity() / 4}));
}

}  // namespace

void ChunkMerger::Append(ChunkResult&& chunk) {
  ReserveFor(&trace_->kernels, chunk.kernels.size(), chunk.input_fraction);
  ReserveFor(&trace_->transfers, chunk.transfers.size(), chunk.input_fraction);
  ReserveFor(&trace_->api_calls, chunk.api_calls.size(), chunk.input_fraction);
  ReserveFor(&trace_->slices, chunk.slices.size(), chunk.input_fraction);
  ReserveFor(&trace_->flows, chunk.flows.size(), chunk.input_fraction);
  ReserveFor(&trace_->instants, chunk.instants.size(), chunk.input_fraction);

  std::vector<StringId> strings(chunk.strings.size());
  for (StringId id = 0; id < strings.size(); ++id)
    strings[id] = trace_->strings.Intern(chunk.strings.Get(id));

  std::vector<uint32_t> tracks(chunk.tracks.size());
  for (size_t i = 0; i < chunk.tracks.size(); ++i) {
    const TrackKey& key = chunk.tracks[i];
    auto [it, inserted] =
        track_index_.try_emplace(key, static_cast<uint32_t>(trace_->tracks.size()));
    if (inserted) {
      Track track;
      track.pid = key.pid;
      track.tid = key.tid;
      track.pid_name = std::move(chunk.track_pid_names[i]);
      track.tid_name = std::move(chunk.track_tid_names[i]);
      trace_->tracks.push_back(std::move(track));
      merged_->track_keys.push_back(key);
    }
    tracks[i] = it->second;
  }

  std::vector<uint32_t> devices(chunk.device_keys.size());
  for (size_t i = 0; i < chunk.device_keys.size(); ++i) {
    auto [it, inserted] = device_index_.try_emplace(
        chunk.device_keys[i], static_cast<uint32_t>(merged_->device_keys.size()));
    if (inserted) merged_->device_keys.push_back(chunk.device_keys[i]);
    devices[i] = it->second;
  }

  for (Kernel k : chunk.kernels) {
    k.name = strings[k.name];
    k.device = devices[k.device];
    trace_->kernels.push_back(k);
  }
  for (Transfer t : chunk.transfers) {
    t.name = strings[t.name];
    t.device = devices[t.device];
    trace_->transfers.push_back(t);
  }
  for (ApiCall c : chunk.api_calls) {
    c.name = strings[c.name];
    c.track = tracks[c.track];
    trace_->api_calls.push_back(c);
  }
  std::vector<OpInputsId> inputs(chunk.op_inputs.size() + 1, 0);
  for (OpInputsId id = 1; id <= chunk.op_inputs.size(); ++id) {
    inputs[id] = trace_->op_inputs.Add(chunk.op_inputs.Get(id));
  }
  for (Slice s : chunk.slices) {
    s.name = strings[s.name];
    s.inputs = inputs[s.inputs];
    s.track = tracks[s.track];
    trace_->slices.push_back(s);
  }
  for (Flow f : chunk.flows) {
    f.track = tracks[f.track];
    trace_->flows.push_back(f);
  }
  for (Instant i : chunk.instants) {
    i.name = strings[i.name];
    i.category = strings[i.category];
    i.args = strings[i.args];
    i.track = tracks[i.track];
    trace_->instants.push_back(i);
  }
  for (UntypedEvent u : chunk.untyped) {
    u.name = strings[u.name];
    u.hlo_op = strings[u.hlo_op];
    u.hlo_module = strings[u.hlo_module];
    u.kernel_details = strings[u.kernel_details];
    u.track = tracks[u.track];
    merged_->untyped.push_back(u);
  }
  for (MetadataRecord& record : chunk.metadata) {  // later records win, as in Perfetto
    switch (record.kind) {
      case MetadataKind::kProcessName:
        merged_->process_names[record.key.pid] = std::move(record.value);
        break;
      case MetadataKind::kProcessLabels:
        merged_->process_labels[record.key.pid] = std::move(record.value);
        break;
      case MetadataKind::kThreadName:
        merged_->thread_names[record.key] = std::move(record.value);
        break;
    }
  }
  AddCounts(chunk.counts, &trace_->counts);
  AddEvidence(chunk.evidence, &merged_->evidence);
  for (PendingWarning& w : chunk.warnings) merged_->warnings.push_back(std::move(w));
}

}  // namespace tensormorph::chrome
