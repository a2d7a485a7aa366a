// Writers of the tables that describe the trace, its devices and the host side.
#include <fmt/format.h>

#include <map>
#include <utility>

#include "export/sqlite/schema.h"
#include "export/sqlite/tables.h"

namespace tensormorph::sqlite_export {
namespace {

std::optional<int64_t> IdOrNull(uint32_t index, size_t count) {
  if (index >= count) return std::nullopt;
  return index;
}

const char* ApiKindName(ApiKind kind) {
  switch (kind) {
    case ApiKind::kRuntime:
      return "runtime";
    case ApiKind::kDriver:
      return "driver";
    case ApiKind::kSync:
      return "sync";
  }
  return "runtime";
}

const char* SliceKindName(SliceKind kind) {
  switch (kind) {
    case SliceKind::kOp:
      return "op";
    case SliceKind::kUserAnnotation:
      return "user_annotation";
    case SliceKind::kGpuAnnotation:
      return "gpu_annotation";
    case SliceKind::kPythonFunction:
      return "python_function";
  }
  return "op";
}

}  // namespace

void WriteMetadata(Database& db, const Trace& trace) {
  Statement insert(&db, "INSERT OR REPLACE INTO metadata VALUES (?1, ?2)");
  const auto row = [&](std::string_view key, std::string_view value) {
    insert.Text(1, key).Text(2, value).Insert();
  };
  std::string backends;
  for (Backend backend : trace.backends) {
    if (!backends.empty()) backends += ",";
    backends += BackendName(backend);
  }
  const std::pair<std::string_view, std::string> rows[] = {
      {"schema_version", fmt::format("{}", kSchemaVersion)},
      {"exporter", "tensormorph sqlite"},
      {"source_path", trace.path},
      {"source_format", trace.format},
      {"source_format_version", trace.format_version},
      {"backends", backends},
      {"span_start_ns", fmt::format("{}", trace.span_start_ns)},
      {"span_end_ns", fmt::format("{}", trace.span_end_ns)},
      {"timestamp_resolution_ns", fmt::format("{}", trace.timestamp_resolution_ns)},
  };
  for (const auto& [key, value] : rows) row(key, value);
  if (trace.rank) row("rank", fmt::format("{}", *trace.rank));
  if (trace.world_size) row("world_size", fmt::format("{}", *trace.world_size));
  if (trace.base_time_ns) row("base_time_ns", fmt::format("{}", *trace.base_time_ns));
  // The input's own top-level keys, prefixed so that they cannot shadow the rows above.
  for (const auto& [key, value] : trace.metadata) row("source." + key, value);
}

void WriteDevices(Database& db, const Trace& trace) {
  Statement insert(&db,
                   "INSERT INTO devices VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, "
                   "?13, ?14, ?15, ?16)");
  Statement peak(&db, "INSERT INTO device_peaks VALUES (?1, ?2, ?3)");
  for (size_t i = 0; i < trace.devices.size(); ++i) {
    const Device& d = trace.devices[i];
    insert.Int(1, static_cast<int64_t>(i))
        .Text(2, BackendName(d.backend))
        .Text(3, d.vendor)
        .Text(4, d.name)
        .OptionalInt(5, d.index >= 0 ? std::optional<int64_t>(d.index) : std::nullopt)
        .Int(6, d.trace_id);
    // Properties the trace did not carry are NULL rather than 0.
    const auto property = [&](int index, int64_t value) {
      insert.OptionalInt(index, d.described ? std::optional<int64_t>(value) : std::nullopt);
    };
    property(7, d.compute_major);
    property(8, d.compute_minor);
    property(9, d.sm_count);
    property(10, d.warp_size);
    property(11, d.max_threads_per_sm);
    property(12, d.registers_per_sm);
    property(13, d.shared_memory_per_sm);
    property(14, d.shared_memory_per_block);
    property(15, d.total_memory_bytes);
    insert.Int(16, d.described ? 1 : 0).Insert();
    for (const auto& [name, value] : d.measured_peaks) {
      peak.Int(1, static_cast<int64_t>(i)).Text(2, name).Real(3, value).Insert();
    }
  }
}

StreamIds WriteStreams(Database& db, const Trace& trace) {
  struct Counts {
    int64_t id = 0, kernels = 0, transfers = 0;
  };
  std::map<std::pair<uint32_t, int64_t>, Counts> streams;
  StreamIds ids;
  ids.kernels.reserve(trace.kernels.size());
  ids.transfers.reserve(trace.transfers.size());
  // Ids in (device, stream) order; the tables are sorted that way, so lookups repeat the last key.
  for (const Kernel& k : trace.kernels) ++streams[{k.device, k.stream}].kernels;
  for (const Transfer& t : trace.transfers) ++streams[{t.device, t.stream}].transfers;
  Statement insert(&db, "INSERT INTO streams VALUES (?1, ?2, ?3, ?4, ?5)");
  int64_t next_id = 0;
  for (auto& [key, counts] : streams) {
    counts.id = next_id++;
    insert.Int(1, counts.id)
        .OptionalInt(2, IdOrNull(key.first, trace.devices.size()))
        .Int(3, key.second)
        .Int(4, counts.kernels)
        .Int(5, counts.transfers)
        .Insert();
  }
  for (const Kernel& k : trace.kernels) ids.kernels.push_back(streams[{k.device, k.stream}].id);
  for (const Transfer& t : trace.transfers)
    ids.transfers.push_back(streams[{t.device, t.stream}].id);
  return ids;
}

void WriteThreads(Database& db, const Trace& trace) {
  Statement insert(&db, "INSERT INTO threads VALUES (?1, ?2, ?3, ?4, ?5, ?6)");
  for (size_t i = 0; i < trace.tracks.size(); ++i) {
    const Track& t = trace.tracks[i];
    const auto text_or_null = [&](int index, const std::string& text) {
      if (text.empty()) {
        insert.Null(index);
      } else {
        insert.Text(index, text);
      }
    };
    insert.Int(1, static_cast<int64_t>(i)).Int(2, t.pid).Int(3, t.tid);
    text_or_null(4, t.pid_name);
    text_or_null(5, t.tid_name);
    text_or_null(6, t.thread_name);
    insert.Insert();
  }
}

void WriteApiCalls(Database& db, const Trace& trace) {
  Statement insert(&db, "INSERT INTO api_calls VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)");
  for (size_t i = 0; i < trace.api_calls.size(); ++i) {
    const ApiCall& c = trace.api_calls[i];
    insert.Int(1, static_cast<int64_t>(i))
        .Text(2, trace.str(c.name))
        .Text(3, ApiKindName(c.kind))
        .OptionalInt(4, IdOrNull(c.track, trace.tracks.size()))
        .Int(5, c.start_ns)
        .Int(6, c.start_ns + c.duration_ns)
        .Int(7, c.duration_ns)
        .OptionalInt(8, c.link.correlation != 0
                            ? std::optional<int64_t>(static_cast<int64_t>(c.link.correlation))
                            : std::nullopt)
        .OptionalInt(
            9, c.link.external_id >= 0 ? std::optional<int64_t>(c.link.external_id) : std::nullopt)
        .Insert();
  }
}

void WriteSlices(Database& db, const Trace& trace, const TraceLinks& links) {
  Statement op(&db, "INSERT INTO ops VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11)");
  Statement annotation(&db, "INSERT INTO annotations VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)");
  for (size_t i = 0; i < trace.slices.size(); ++i) {
    const Slice& s = trace.slices[i];
    const std::optional<int64_t> external_id =
        s.external_id >= 0 ? std::optional<int64_t>(s.external_id) : std::nullopt;
    if (s.kind != SliceKind::kOp) {
      annotation.Int(1, static_cast<int64_t>(i))
          .Text(2, trace.str(s.name))
          .Text(3, SliceKindName(s.kind))
          .OptionalInt(4, IdOrNull(s.track, trace.tracks.size()))
          .Int(5, s.start_ns)
          .Int(6, s.end_ns())
          .Int(7, s.duration_ns)
          .OptionalInt(8, external_id)
          .Insert();
      continue;
    }
    // The innermost enclosing op, skipping annotations and python frames in between.
    uint32_t parent = i < links.slice_parent.size() ? links.slice_parent[i] : kNoRow;
    while (parent != kNoRow && trace.slices[parent].kind != SliceKind::kOp) {
      parent = links.slice_parent[parent];
    }
    op.Int(1, static_cast<int64_t>(i))
        .Text(2, trace.str(s.name))
        .OptionalInt(3, IdOrNull(s.track, trace.tracks.size()))
        .Int(4, s.start_ns)
        .Int(5, s.end_ns())
        .Int(6, s.duration_ns)
        .OptionalInt(7, external_id)
        .OptionalInt(8, IdOrNull(parent, trace.slices.size()));
    const OpInputs* recorded = trace.inputs_of(s);
    const OpInputListsText inputs = recorded ? InputListsText(*recorded) : OpInputListsText{};
    if (recorded != nullptr && inputs.json) {
      const auto text_or_null = [&](int index, std::string_view text) {
        if (text.empty()) {
          op.Null(index);
        } else {
          op.Text(index, text);
        }
      };
      text_or_null(9, inputs.dims);
      text_or_null(10, inputs.types);
      text_or_null(11, inputs.values);
    } else {
      op.Null(9).Null(10).Null(11);
      if (recorded != nullptr) op.Text(9, inputs.dims);  // not JSON: kept as it is
    }
    op.Insert();
  }
}

void WriteFlows(Database& db, const Trace& trace) {
  Statement insert(&db, "INSERT INTO flows VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)");
  for (size_t i = 0; i < trace.flows.size(); ++i) {
    const Flow& f = trace.flows[i];
    insert.Int(1, static_cast<int64_t>(i))
        .Text(2, f.kind == FlowKind::kLaunch            ? "launch"
                 : f.kind == FlowKind::kForwardBackward ? "forward_backward"
                                                        : "other")
        .Text(3, f.phase == FlowPhase::kStart  ? "start"
                 : f.phase == FlowPhase::kStep ? "step"
                                               : "finish")
        .Int(4, static_cast<int64_t>(f.id))
        .OptionalInt(5, IdOrNull(f.track, trace.tracks.size()))
        .Int(6, f.ts_ns)
        .Int(7, f.binds_enclosing ? 1 : 0)
        .Insert();
  }
}

void WriteWarnings(Database& db, const Trace& trace) {
  Statement insert(&db, "INSERT INTO warnings VALUES (?1, ?2)");
  for (size_t i = 0; i < trace.warnings.size(); ++i) {
    insert.Int(1, static_cast<int64_t>(i)).Text(2, trace.warnings[i]).Insert();
  }
}

}  // namespace tensormorph::sqlite_export
