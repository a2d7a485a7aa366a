#include "export/perfetto/perfetto_exporter.h"

#include <algorithm>
#include <unordered_map>

#include "export/chrome_json/event_writer.h"
#include "export/perfetto/packet_stream.h"
#include "export/perfetto/timeline.h"

namespace tensormorph {
namespace {

using perfetto_export::Edge;
using perfetto_export::Table;
using perfetto_export::TimelineEvent;
namespace pb = tensormorph::perfetto;

// Interned debug annotation names and categories, sent once in the first packet. Iids start at 1.
enum Arg : uint64_t {
  kArgDevice = 1,
  kArgStream,
  kArgCorrelation,
  kArgExternalId,
  kArgGridX,
  kArgGridY,
  kArgGridZ,
  kArgBlockX,
  kArgBlockY,
  kArgBlockZ,
  kArgRegisters,
  kArgSharedMemory,
  kArgOccupancy,
  kArgBytes,
  kArgInputs,
  kArgArgs,
  kArgCount
};
constexpr const char* kArgNames[kArgCount] = {"",
                                              "device",
                                              "stream",
                                              "correlation",
                                              "external_id",
                                              "grid_x",
                                              "grid_y",
                                              "grid_z",
                                              "block_x",
                                              "block_y",
                                              "block_z",
                                              "registers_per_thread",
                                              "shared_memory_bytes",
                                              "achieved_occupancy_percent",
                                              "bytes",
                                              "inputs",
                                              "args"};

enum Category : uint64_t {
  kCatKernel = 1,
  kCatMemcpy,
  kCatMemset,
  kCatRuntime,
  kCatDriver,
  kCatSync,
  kCatOp,
  kCatUserAnnotation,
  kCatGpuAnnotation,
  kCatPython,
  kCatCount
};
// The Kineto categories the Chrome-JSON export uses for the same rows.
constexpr const char* kCategoryNames[kCatCount] = {"",
                                                   "kernel",
                                                   "gpu_memcpy",
                                                   "gpu_memset",
                                                   "cuda_runtime",
                                                   "cuda_driver",
                                                   "cuda_sync",
                                                   "cpu_op",
                                                   "user_annotation",
                                                   "gpu_user_annotation",
                                                   "python_function"};

Category ApiCategory(ApiKind kind) {
  return kind == ApiKind::kDriver ? kCatDriver : kind == ApiKind::kSync ? kCatSync : kCatRuntime;
}

Category SliceCategory(SliceKind kind) {
  switch (kind) {
    case SliceKind::kOp:
      return kCatOp;
    case SliceKind::kUserAnnotation:
      return kCatUserAnnotation;
    case SliceKind::kGpuAnnotation:
      return kCatGpuAnnotation;
    case SliceKind::kPythonFunction:
      return kCatPython;
  }
  return kCatOp;
}

class Writer {
 public:
  Writer(const Trace& trace, perfetto_export::PacketStream* out)
      : trace_(trace), out_(*out), name_sent_(trace.strings.size(), false) {}

  void Run() {
    const std::vector<int64_t> keys = chrome_json::ChooseDeviceKeys(trace_);
    device_keys_ = &keys;
    perfetto_export::Timeline timeline = perfetto_export::BuildTimeline(trace_, keys);
    LinkLaunches();
    // Perfetto timestamps are unsigned: traces with times before the epoch move up.
    int64_t earliest = 0;
    if (!timeline.events.empty()) earliest = std::min(earliest, timeline.events.front().ts_ns);
    offset_ = -earliest;
    WriteFirstPacket();
    for (const perfetto_export::TrackInfo& track : timeline.tracks) WriteTrack(track);
    for (const TimelineEvent& event : timeline.events) WriteEvent(event);
  }

 private:
  void WriteFirstPacket() {
    packet_.set_sequence_flags(pb::TracePacket::SEQ_INCREMENTAL_STATE_CLEARED);
    pb::InternedData* interned = packet_.mutable_interned_data();
    for (uint64_t i = 1; i < kArgCount; ++i) {
      pb::InternedString* name = interned->add_debug_annotation_names();
      name->set_iid(i);
      name->set_name(kArgNames[i]);
    }
    for (uint64_t i = 1; i < kCatCount; ++i) {
      pb::InternedString* category = interned->add_event_categories();
      category->set_iid(i);
      category->set_name(kCategoryNames[i]);
    }
    out_.Write(&packet_);
  }

  void WriteTrack(const perfetto_export::TrackInfo& track) {
    pb::TrackDescriptor* d = packet_.mutable_track_descriptor();
    d->set_uuid(track.uuid);
    if (track.parent_uuid != 0) d->set_parent_uuid(track.parent_uuid);
    d->set_name(track.name);
    if (track.is_process) {
      d->mutable_process()->set_pid(track.pid);
      d->mutable_process()->set_process_name(track.name);
    }
    if (track.is_thread) {
      d->mutable_thread()->set_pid(track.pid);
      d->mutable_thread()->set_tid(track.tid);
      d->mutable_thread()->set_thread_name(track.name);
    }
    out_.Write(&packet_);
  }

  // The first runtime / driver call with each correlation id launched the work with that id;
  // each kernel and copy gets a flow of its own from that call.
  void LinkLaunches() {
    std::unordered_map<uint64_t, uint32_t> call_of;
    for (uint32_t i = 0; i < trace_.api_calls.size(); ++i) {
      const ApiCall& call = trace_.api_calls[i];
      if (call.link.correlation != 0 && call.kind != ApiKind::kSync) {
        call_of.try_emplace(call.link.correlation, i);
      }
    }
    kernel_flow_.assign(trace_.kernels.size(), 0);
    transfer_flow_.assign(trace_.transfers.size(), 0);
    uint64_t next_flow = 1;
    const auto link = [&](uint64_t correlation, uint64_t* flow) {
      auto it = correlation == 0 ? call_of.end() : call_of.find(correlation);
      if (it == call_of.end()) return;
      *flow = next_flow++;
      flows_of_call_.emplace_back(it->second, *flow);
    };
    for (size_t i = 0; i < trace_.kernels.size(); ++i) {
      link(trace_.kernels[i].link.correlation, &kernel_flow_[i]);
    }
    for (size_t i = 0; i < trace_.transfers.size(); ++i) {
      link(trace_.transfers[i].link.correlation, &transfer_flow_[i]);
    }
    std::sort(flows_of_call_.begin(), flows_of_call_.end());
  }

  void Name(pb::TrackEvent* e, StringId name) {
    e->set_name_iid(uint64_t{name} + 1);
    if (name_sent_[name]) return;
    name_sent_[name] = true;
    pb::InternedString* interned = packet_.mutable_interned_data()->add_event_names();
    interned->set_iid(uint64_t{name} + 1);
    interned->set_name(std::string(trace_.str(name)));
  }

  void Int(pb::TrackEvent* e, Arg arg, int64_t value) {
    pb::DebugAnnotation* a = e->add_debug_annotations();
    a->set_name_iid(arg);
    a->set_int_value(value);
  }
  void UInt(pb::TrackEvent* e, Arg arg, uint64_t value) {
    pb::DebugAnnotation* a = e->add_debug_annotations();
    a->set_name_iid(arg);
    a->set_uint_value(value);
  }
  void Text(pb::TrackEvent* e, Arg arg, std::string_view value) {
    pb::DebugAnnotation* a = e->add_debug_annotations();
    a->set_name_iid(arg);
    a->set_string_value(std::string(value));
  }

  void Links(pb::TrackEvent* e, const LinkIds& link) {
    if (link.correlation != 0) UInt(e, kArgCorrelation, link.correlation);
    if (link.external_id >= 0) Int(e, kArgExternalId, link.external_id);
  }

  void Place(pb::TrackEvent* e, uint32_t device, int64_t stream) {
    Int(e, kArgDevice, device < device_keys_->size() ? (*device_keys_)[device] : -1);
    Int(e, kArgStream, stream);
  }

  void KernelArgs(pb::TrackEvent* e, uint32_t row) {
    const Kernel& k = trace_.kernels[row];
    Name(e, k.name);
    e->add_category_iids(kCatKernel);
    Place(e, k.device, k.stream);
    Links(e, k.link);
    if (!k.grid.empty()) {
      Int(e, kArgGridX, k.grid.x);
      Int(e, kArgGridY, k.grid.y);
      Int(e, kArgGridZ, k.grid.z);
    }
    if (!k.block.empty()) {
      Int(e, kArgBlockX, k.block.x);
      Int(e, kArgBlockY, k.block.y);
      Int(e, kArgBlockZ, k.block.z);
    }
    if (k.registers_per_thread != 0) Int(e, kArgRegisters, k.registers_per_thread);
    if (k.shared_memory_bytes != 0) Int(e, kArgSharedMemory, k.shared_memory_bytes);
    if (k.achieved_occupancy_percent >= 0) Int(e, kArgOccupancy, k.achieved_occupancy_percent);
    if (kernel_flow_[row] != 0) e->add_terminating_flow_ids(kernel_flow_[row]);
  }

  void TransferArgs(pb::TrackEvent* e, uint32_t row) {
    const Transfer& t = trace_.transfers[row];
    Name(e, t.name);
    e->add_category_iids(t.kind == TransferKind::kMemset ? kCatMemset : kCatMemcpy);
    Place(e, t.device, t.stream);
    Links(e, t.link);
    UInt(e, kArgBytes, t.bytes);
    if (transfer_flow_[row] != 0) e->add_terminating_flow_ids(transfer_flow_[row]);
  }

  void ApiCallArgs(pb::TrackEvent* e, uint32_t row) {
    const ApiCall& c = trace_.api_calls[row];
    Name(e, c.name);
    e->add_category_iids(ApiCategory(c.kind));
    Links(e, c.link);
    auto it = std::lower_bound(flows_of_call_.begin(), flows_of_call_.end(),
                               std::pair<uint32_t, uint64_t>{row, 0});
    for (; it != flows_of_call_.end() && it->first == row; ++it) e->add_flow_ids(it->second);
  }

  void SliceArgs(pb::TrackEvent* e, uint32_t row) {
    const Slice& s = trace_.slices[row];
    Name(e, s.name);
    e->add_category_iids(SliceCategory(s.kind));
    if (s.external_id >= 0) Int(e, kArgExternalId, s.external_id);
    if (const OpInputs* inputs = trace_.inputs_of(s)) Text(e, kArgInputs, OpInputsText(*inputs));
  }

  void InstantArgs(pb::TrackEvent* e, uint32_t row) {
    const Instant& i = trace_.instants[row];
    Name(e, i.name);
    if (i.category != 0) e->add_categories(std::string(trace_.str(i.category)));
    if (i.args != 0) Text(e, kArgArgs, trace_.str(i.args));
  }

  void WriteEvent(const TimelineEvent& event) {
    packet_.set_timestamp(static_cast<uint64_t>(event.ts_ns + offset_));
    packet_.set_sequence_flags(pb::TracePacket::SEQ_NEEDS_INCREMENTAL_STATE);
    pb::TrackEvent* e = packet_.mutable_track_event();
    e->set_track_uuid(event.track_uuid);
    if (event.edge == Edge::kEnd) {
      e->set_type(pb::TrackEvent::TYPE_SLICE_END);
      out_.Write(&packet_);
      return;
    }
    e->set_type(event.edge == Edge::kInstant ? pb::TrackEvent::TYPE_INSTANT
                                             : pb::TrackEvent::TYPE_SLICE_BEGIN);
    switch (event.table) {
      case Table::kKernel:
        KernelArgs(e, event.row);
        break;
      case Table::kTransfer:
        TransferArgs(e, event.row);
        break;
      case Table::kApiCall:
        ApiCallArgs(e, event.row);
        break;
      case Table::kSlice:
        SliceArgs(e, event.row);
        break;
      case Table::kInstant:
        InstantArgs(e, event.row);
        break;
    }
    out_.Write(&packet_);
  }

  const Trace& trace_;
  perfetto_export::PacketStream& out_;
  pb::TracePacket packet_;
  std::vector<bool> name_sent_;
  const std::vector<int64_t>* device_keys_ = nullptr;
  std::vector<uint64_t> kernel_flow_, transfer_flow_;
  std::vector<std::pair<uint32_t, uint64_t>> flows_of_call_;  // (api call row, flow id), sorted
  int64_t offset_ = 0;
};

}  // namespace

Status PerfettoExporter::Export(const LinkedTrace& linked, const std::string& output_path) const {
  const Trace& trace = linked.trace();
  perfetto_export::PacketStream out(output_path);
  TM_RETURN_IF_ERROR(out.Open());
  Writer(trace, &out).Run();
  return out.Finish();
}

}  // namespace tensormorph
