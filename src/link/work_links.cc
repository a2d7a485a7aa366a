#include "tensormorph/link/work_links.h"

#include <algorithm>
#include <future>
#include <utility>

#include "link/id_index.h"
#include "link/link_stage_counters.h"

namespace tensormorph {
namespace {

static_assert(IdIndex::kNone == kNoRow);

// Launch calls by correlation id. Kineto and CUPTI give every launch its own id; when two calls
// share one (a runtime call and the driver call beneath it), the runtime call wins, then the first
// row, and the rest are counted.
IdIndex IndexLaunches(const Trace& trace) {
  std::vector<std::pair<uint64_t, uint32_t>> pairs;
  for (uint32_t i = 0; i < trace.api_calls.size(); ++i) {
    const ApiCall& call = trace.api_calls[i];
    if (call.link.correlation != 0 && call.kind != ApiKind::kSync) {
      pairs.emplace_back(call.link.correlation, i);
    }
  }
  return {pairs, [&](uint32_t row, uint32_t kept) {
            return trace.api_calls[row].kind == ApiKind::kRuntime &&
                   trace.api_calls[kept].kind != ApiKind::kRuntime;
          }};
}

// Framework ops by External id (the first op with an id wins).
IdIndex IndexOpsByExternalId(const Trace& trace) {
  std::vector<std::pair<uint64_t, uint32_t>> pairs;
  for (uint32_t i = 0; i < trace.slices.size(); ++i) {
    const Slice& slice = trace.slices[i];
    if (slice.kind == SliceKind::kOp && slice.external_id >= 0) {
      pairs.emplace_back(static_cast<uint64_t>(slice.external_id), i);
    }
  }
  return IdIndex(pairs);
}

// Slices are sorted by (track, start, longer first), so on each track a stack of open slices
// gives every slice its innermost enclosing one.
std::vector<uint32_t> SliceParents(const Trace& trace) {
  std::vector<uint32_t> parent(trace.slices.size(), kNoRow);
  std::vector<uint32_t> open;
  for (uint32_t i = 0; i < trace.slices.size(); ++i) {
    const Slice& slice = trace.slices[i];
    if (i > 0 && trace.slices[i - 1].track != slice.track) open.clear();
    while (!open.empty() && trace.slices[open.back()].end_ns() <= slice.start_ns) open.pop_back();
    if (!open.empty()) parent[i] = open.back();
    open.push_back(i);
  }
  return parent;
}

// The op named by an External id, if its window holds `time_ns` (see the header: External ids
// of older traces name unrelated ops).
// `exact`: the importer numbered the ids itself (Trace::exact_external_ids), the window is not
// checked.
uint32_t OpByExternalId(const Trace& trace, const IdIndex& ops_by_external_id, int64_t external_id,
                        int64_t time_ns, bool exact = false) {
  if (external_id < 0) return kNoRow;
  const uint32_t op = ops_by_external_id.Find(static_cast<uint64_t>(external_id));
  if (op == kNoRow) return kNoRow;
  const Slice& slice = trace.slices[op];
  return exact || (slice.start_ns <= time_ns && time_ns <= slice.end_ns()) ? op : kNoRow;
}

// Links rows [from, to) of `rows` into `out`, already sized to rows.size().
template <typename Row>
void LinkRows(const Trace& trace, const std::vector<Row>& rows, size_t from, size_t to,
              const IdIndex& launches, const IdIndex& ops_by_external_id, const TraceLinks& links,
              std::vector<WorkLink>* out) {
  const bool exact_ids = trace.exact_external_ids;
  for (size_t i = from; i < to; ++i) {
    const Row& row = rows[i];
    WorkLink& link = (*out)[i];
    if (row.link.correlation != 0) link.launch = launches.Find(row.link.correlation);
    if (link.launch == kNoRow) {
      link.op =
          OpByExternalId(trace, ops_by_external_id, row.link.external_id, row.start_ns, exact_ids);
      link.by_external_id = link.op != kNoRow;
      link.origin = link.op != kNoRow ? WorkOrigin::kOp : WorkOrigin::kNoLaunch;
      continue;
    }
    const ApiCall& call = trace.api_calls[link.launch];
    link.graph = IsGraphLaunch(trace.str(call.name));
    link.op = EnclosingSlice(trace, links, call.track, call.start_ns, SliceKind::kOp);
    if (link.op == kNoRow) {
      const int64_t external_id =
          call.link.external_id >= 0 ? call.link.external_id : row.link.external_id;
      link.op = OpByExternalId(trace, ops_by_external_id, external_id, call.start_ns);
      link.by_external_id = link.op != kNoRow;
    }
    link.origin = WorkOrigin::kOp;
    if (link.op == kNoRow) {
      link.op = EnclosingSlice(trace, links, call.track, call.start_ns, SliceKind::kUserAnnotation);
      link.origin = link.op != kNoRow ? WorkOrigin::kAnnotation : WorkOrigin::kNoOp;
    }
  }
}

}  // namespace

const char* WorkOriginName(WorkOrigin origin) {
  switch (origin) {
    case WorkOrigin::kOp:
      return "op";
    case WorkOrigin::kAnnotation:
      return "annotation";
    case WorkOrigin::kNoOp:
      return "no_op";
    case WorkOrigin::kNoLaunch:
      return "no_launch";
  }
  return "no_launch";
}

bool IsGraphLaunch(std::string_view api_name) {
  // cudaGraphLaunch (nsys: cudaGraphLaunch_v10000), cuGraphLaunch, hipGraphLaunch.
  return api_name.find("GraphLaunch") != std::string_view::npos;
}

bool IsStepAnnotation(std::string_view slice_name) {
  return slice_name.starts_with("ProfilerStep#") || slice_name.starts_with("model_run#");
}

uint32_t EnclosingSlice(const Trace& trace, const TraceLinks& links, uint32_t track,
                        int64_t time_ns, SliceKind kind) {
  const auto& slices = trace.slices;
  // The last slice on `track` that starts at or before time_ns; every slice enclosing time_ns is
  // it or one of its ancestors.
  auto after = std::upper_bound(slices.begin(), slices.end(), std::make_pair(track, time_ns),
                                [](const std::pair<uint32_t, int64_t>& key, const Slice& s) {
                                  return key.first != s.track ? key.first < s.track
                                                              : key.second < s.start_ns;
                                });
  if (after == slices.begin()) return kNoRow;
  uint32_t candidate = static_cast<uint32_t>(after - slices.begin()) - 1;
  if (slices[candidate].track != track) return kNoRow;
  for (uint32_t i = candidate; i != kNoRow; i = links.slice_parent[i]) {
    const Slice& s = slices[i];
    if (s.kind == kind && s.start_ns <= time_ns && time_ns <= s.end_ns() &&
        !(kind == SliceKind::kUserAnnotation && IsStepAnnotation(trace.str(s.name)))) {
      return i;
    }
  }
  return kNoRow;
}

TraceLinks LinkTrace(const Trace& trace, bool concurrent) {
  ++link_stage::links_computed;
  const std::launch policy = concurrent ? std::launch::async : std::launch::deferred;
  TraceLinks links;
  std::future<IdIndex> launches_task =
      std::async(policy, [&trace] { return IndexLaunches(trace); });
  links.slice_parent = SliceParents(trace);
  const IdIndex ops_by_external_id = IndexOpsByExternalId(trace);
  const IdIndex launches = launches_task.get();
  links.duplicate_correlations = launches.duplicates();
  // Each row's link depends only on the indexes and the slice parents, so the kernels split in
  // two halves; the transfers (few) go with the second.
  links.kernels.assign(trace.kernels.size(), WorkLink{});
  links.transfers.assign(trace.transfers.size(), WorkLink{});
  const size_t half = trace.kernels.size() / 2;
  std::future<void> first_half = std::async(policy, [&] {
    LinkRows(trace, trace.kernels, 0, half, launches, ops_by_external_id, links, &links.kernels);
  });
  LinkRows(trace, trace.kernels, half, trace.kernels.size(), launches, ops_by_external_id, links,
           &links.kernels);
  LinkRows(trace, trace.transfers, 0, trace.transfers.size(), launches, ops_by_external_id, links,
           &links.transfers);
  first_half.get();
  return links;
}

}  // namespace tensormorph
