#include "tensormorph/analysis/linking/work_links.h"

#include <algorithm>
#include <utility>

#include "analysis/linking/link_stage_counters.h"

namespace tensormorph {
namespace {

// (id, row) pairs sorted by id, for joins by correlation or External id. A sorted vector instead
// of a hash map: half the memory, and the lookups come in roughly increasing order anyway.
using IdIndex = std::vector<std::pair<uint64_t, uint32_t>>;

uint32_t Find(const IdIndex& index, uint64_t id) {
  auto it = std::lower_bound(index.begin(), index.end(), std::make_pair(id, uint32_t{0}));
  return it != index.end() && it->first == id ? it->second : kNoRow;
}

// Launch calls by correlation id. Kineto and CUPTI give every launch its own id; when two calls
// share one (a runtime call and the driver call beneath it), the runtime call wins and the rest
// are counted.
IdIndex IndexLaunches(const Trace& trace, uint64_t* duplicates) {
  IdIndex index;
  for (uint32_t i = 0; i < trace.api_calls.size(); ++i) {
    const ApiCall& call = trace.api_calls[i];
    if (call.link.correlation != 0 && call.kind != ApiKind::kSync) {
      index.emplace_back(call.link.correlation, i);
    }
  }
  std::sort(index.begin(), index.end(), [&](const auto& a, const auto& b) {
    if (a.first != b.first) return a.first < b.first;
    const bool a_runtime = trace.api_calls[a.second].kind == ApiKind::kRuntime;
    const bool b_runtime = trace.api_calls[b.second].kind == ApiKind::kRuntime;
    if (a_runtime != b_runtime) return a_runtime;
    return a.second < b.second;
  });
  auto last = std::unique(index.begin(), index.end(),
                          [](const auto& a, const auto& b) { return a.first == b.first; });
  *duplicates = static_cast<uint64_t>(index.end() - last);
  index.erase(last, index.end());
  return index;
}

// Framework ops by External id (the first op with an id wins).
IdIndex IndexOpsByExternalId(const Trace& trace) {
  IdIndex index;
  for (uint32_t i = 0; i < trace.slices.size(); ++i) {
    const Slice& slice = trace.slices[i];
    if (slice.kind == SliceKind::kOp && slice.external_id >= 0) {
      index.emplace_back(static_cast<uint64_t>(slice.external_id), i);
    }
  }
  std::stable_sort(index.begin(), index.end(),
                   [](const auto& a, const auto& b) { return a.first < b.first; });
  index.erase(std::unique(index.begin(), index.end(),
                          [](const auto& a, const auto& b) { return a.first == b.first; }),
              index.end());
  return index;
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
  const uint32_t op = Find(ops_by_external_id, static_cast<uint64_t>(external_id));
  if (op == kNoRow) return kNoRow;
  const Slice& slice = trace.slices[op];
  return exact || (slice.start_ns <= time_ns && time_ns <= slice.end_ns()) ? op : kNoRow;
}

template <typename Row>
void LinkRows(const Trace& trace, const std::vector<Row>& rows, const IdIndex& launches,
              const IdIndex& ops_by_external_id, const TraceLinks& links,
              std::vector<WorkLink>* out) {
  out->assign(rows.size(), WorkLink{});
  const bool exact_ids = trace.exact_external_ids;
  for (size_t i = 0; i < rows.size(); ++i) {
    const Row& row = rows[i];
    WorkLink& link = (*out)[i];
    if (row.link.correlation != 0) link.launch = Find(launches, row.link.correlation);
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
  return slice_name.starts_with("ProfilerStep#");
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

TraceLinks LinkTrace(const Trace& trace) {
  ++link_stage::links_computed;
  TraceLinks links;
  links.slice_parent = SliceParents(trace);
  const IdIndex launches = IndexLaunches(trace, &links.duplicate_correlations);
  const IdIndex ops_by_external_id = IndexOpsByExternalId(trace);
  LinkRows(trace, trace.kernels, launches, ops_by_external_id, links, &links.kernels);
  LinkRows(trace, trace.transfers, launches, ops_by_external_id, links, &links.transfers);
  return links;
}

}  // namespace tensormorph
