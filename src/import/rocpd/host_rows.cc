#include <fmt/format.h>

#include <nlohmann/json.hpp>

#include "import/rocpd/readers.h"

namespace tensormorph::rocpd {
namespace {

enum class RegionKind { kRuntime, kDriver, kMarker, kOther };

// By rocprofiler's buffer tracing kind names, the rocpd event categories; a region whose event
// is missing is placed by its function's name.
RegionKind KindOf(std::string_view category, std::string_view name) {
  if (category.empty()) {
    if (name.starts_with("hip") || name.starts_with("__hip")) return RegionKind::kRuntime;
    if (name.starts_with("hsa_")) return RegionKind::kDriver;
    if (name.starts_with("roctx")) return RegionKind::kMarker;
    return RegionKind::kOther;
  }
  if (category.starts_with("HIP_") || category == "RCCL_API" || category == "ROCDECODE_API" ||
      category == "ROCDECODE_API_EXT" || category == "ROCJPEG_API") {
    return RegionKind::kRuntime;
  }
  if (category.starts_with("HSA_")) return RegionKind::kDriver;
  if (category.starts_with("MARKER_")) return RegionKind::kMarker;
  return RegionKind::kOther;
}

std::string MarkerMessage(std::optional<std::string_view> extdata) {
  if (!extdata || extdata->empty()) return {};
  nlohmann::json doc =
      nlohmann::json::parse(extdata->begin(), extdata->end(), nullptr, /*allow_exceptions=*/false);
  if (!doc.is_object()) return {};
  auto it = doc.find("message");
  return it != doc.end() && it->is_string() ? it->get<std::string>() : std::string();
}

std::string Joined(std::string_view base_of_row, std::string_view row_alias,
                   std::string_view reference, std::string_view alias, const RocpdSchema& s,
                   std::string_view target) {
  return fmt::format(" LEFT JOIN {} AS {} ON {}", s.Source(target), alias,
                     JoinOn(s, target, alias, base_of_row, row_alias, reference));
}

std::string CopyName(std::string_view direction) {
  if (direction == "MEMORY_COPY_HOST_TO_DEVICE") return "Memcpy HtoD";
  if (direction == "MEMORY_COPY_DEVICE_TO_HOST") return "Memcpy DtoH";
  if (direction == "MEMORY_COPY_DEVICE_TO_DEVICE") return "Memcpy DtoD";
  if (direction == "MEMORY_COPY_HOST_TO_HOST") return "Memcpy HtoH";
  return direction.empty() ? std::string("Memcpy") : std::string(direction);
}

}  // namespace

Status ReadRegions(Context& c) {
  const RocpdSchema& s = c.schema;
  if (!s.Has(kRegions)) return Status::Ok();
  TM_RETURN_IF_ERROR(RequireColumns(s, kRegions, {"start", "end"}));
  const bool strings = s.Has(kStrings) && s.HasColumn(kStrings, "id");
  const bool names = strings && s.HasColumn(kRegions, "name_id");
  const bool events =
      s.Has(kEvents) && s.HasColumn(kEvents, "id") && s.HasColumn(kRegions, "event_id");
  std::string sql = fmt::format(
      "SELECT {}, {}, {}, R.start AS start, R.end AS end, {}, {}, {}, {} FROM {} AS R",
      ColumnOrNull(s, kRegions, "R", "guid", "guid"), ColumnOrNull(s, kRegions, "R", "pid", "pid"),
      ColumnOrNull(s, kRegions, "R", "tid", "tid"),
      names ? ColumnOrNull(s, kStrings, "N", "string", "name") : "NULL AS name",
      events ? ColumnOrNull(s, kEvents, "E", "stack_id", "stack_id") : "NULL AS stack_id",
      events ? ColumnOrNull(s, kEvents, "E", "extdata", "extdata") : "NULL AS extdata",
      events && strings ? ColumnOrNull(s, kStrings, "C", "string", "category") : "NULL AS category",
      s.Source(kRegions));
  if (names) sql += Joined(kRegions, "R", "name_id", "N", s, kStrings);
  if (events) sql += Joined(kRegions, "R", "event_id", "E", s, kEvents);
  if (events && strings) sql += Joined(kEvents, "E", "category_id", "C", s, kStrings);
  TM_ASSIGN_OR_RETURN(Statement q, c.db.Prepare(sql, "table rocpd_region"));
  uint64_t row = 0;
  for (;;) {
    TM_ASSIGN_OR_RETURN(bool more, q.Step());
    if (!more) break;
    ++row;
    std::string name(q.Text(5).value_or(""));
    const RegionKind kind = KindOf(q.Text(8).value_or(""), name);
    if (kind == RegionKind::kOther) {
      ++c.trace.counts.other;
      continue;
    }
    int64_t start = 0, duration = 0;
    if (!c.checks.Span(kRegions, row, q.Int(3), q.Int(4), &start, &duration)) continue;
    const uint32_t process = c.processes.Of(q.Text(0).value_or(""), q.IntOr(1, 0));
    const uint32_t track = c.processes.Track(process, q.IntOr(2, 0));
    if (kind == RegionKind::kMarker) {
      Slice slice;
      slice.start_ns = start;
      slice.duration_ns = duration;
      slice.track = track;
      slice.kind = SliceKind::kUserAnnotation;
      std::string message = MarkerMessage(q.Text(7));
      slice.name = c.trace.strings.Intern(message.empty() ? name : message);
      c.trace.slices.push_back(slice);
      ++c.trace.counts.annotations;
      continue;
    }
    ApiCall call;
    call.start_ns = start;
    call.duration_ns = duration;
    call.track = track;
    call.kind = kind == RegionKind::kDriver ? ApiKind::kDriver : ApiKind::kRuntime;
    call.name = c.trace.strings.Intern(name.empty() ? "(unnamed API call)" : name);
    call.link.correlation = Processes::Correlation(process, q.IntOr(6, 0));
    c.trace.api_calls.push_back(call);
    ++(kind == RegionKind::kDriver ? c.trace.counts.driver_calls : c.trace.counts.runtime_calls);
  }
  return Status::Ok();
}

Status ReadMemoryCopies(Context& c) {
  const RocpdSchema& s = c.schema;
  if (!s.Has(kMemoryCopies)) return Status::Ok();
  TM_RETURN_IF_ERROR(RequireColumns(s, kMemoryCopies, {"start", "end"}));
  const bool strings =
      s.Has(kStrings) && s.HasColumn(kStrings, "id") && s.HasColumn(kMemoryCopies, "name_id");
  const bool events =
      s.Has(kEvents) && s.HasColumn(kEvents, "id") && s.HasColumn(kMemoryCopies, "event_id");
  std::string sql = fmt::format(
      "SELECT {}, {}, M.start AS start, M.end AS end, {}, {}, {}, {}, {}, {}, {} FROM {} AS M",
      ColumnOrNull(s, kMemoryCopies, "M", "guid", "guid"),
      ColumnOrNull(s, kMemoryCopies, "M", "pid", "pid"),
      ColumnOrNull(s, kMemoryCopies, "M", "size", "size"),
      ColumnOrNull(s, kMemoryCopies, "M", "src_agent_id", "src"),
      ColumnOrNull(s, kMemoryCopies, "M", "dst_agent_id", "dst"),
      ColumnOrNull(s, kMemoryCopies, "M", "stream_id", "stream"),
      ColumnOrNull(s, kMemoryCopies, "M", "queue_id", "queue"),
      strings ? ColumnOrNull(s, kStrings, "N", "string", "name") : "NULL AS name",
      events ? ColumnOrNull(s, kEvents, "E", "stack_id", "stack_id") : "NULL AS stack_id",
      s.Source(kMemoryCopies));
  if (strings) sql += Joined(kMemoryCopies, "M", "name_id", "N", s, kStrings);
  if (events) sql += Joined(kMemoryCopies, "M", "event_id", "E", s, kEvents);
  TM_ASSIGN_OR_RETURN(Statement q, c.db.Prepare(sql, "table rocpd_memory_copy"));
  uint64_t row = 0;
  for (;;) {
    TM_ASSIGN_OR_RETURN(bool more, q.Step());
    if (!more) break;
    ++row;
    Transfer t;
    if (!c.checks.Span(kMemoryCopies, row, q.Int(2), q.Int(3), &t.start_ns, &t.duration_ns)) {
      continue;
    }
    const uint32_t process = c.processes.Of(q.Text(0).value_or(""), q.IntOr(1, 0));
    const std::string direction(q.Text(9).value_or(""));
    t.name = c.trace.strings.Intern(CopyName(direction));
    t.kind = TransferKind::kMemcpy;
    std::optional<int64_t> src = q.Int(5), dst = q.Int(6);
    const bool to_device =
        direction == "MEMORY_COPY_HOST_TO_DEVICE" ||
        (direction != "MEMORY_COPY_DEVICE_TO_HOST" && src && c.processes.IsCpuAgent(process, *src));
    std::optional<int64_t> side = to_device ? dst : src;
    t.device = side ? c.processes.Device(process, *side) : kNoDevice;
    const int64_t bytes = q.IntOr(4, 0);
    t.bytes = bytes > 0 ? static_cast<uint64_t>(bytes) : 0;
    std::optional<int64_t> stream = q.Int(7);
    if (!stream) stream = q.Int(8);
    if (stream) t.stream = *stream;
    t.link.correlation = Processes::Correlation(process, q.IntOr(10, 0));
    c.trace.transfers.push_back(t);
    ++c.trace.counts.memcpys;
  }
  return Status::Ok();
}

}  // namespace tensormorph::rocpd
