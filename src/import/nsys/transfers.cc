#include "import/nsys/transfers.h"

#include <fmt/format.h>

#include <algorithm>
#include <map>

namespace tensormorph::nsys {
namespace {

constexpr std::string_view kCopyKindEnum = "ENUM_CUDA_MEMCPY_OPER";

// The labels of ENUM_CUDA_MEMCPY_OPER (CUDA_MEMCPY_KIND_*) as recent exports spell them; used
// only when an export lacks the enum table.
constexpr std::string_view kCopyKindLabels[] = {"Unknown",
                                                "Host-to-Device",
                                                "Device-to-Host",
                                                "Host-to-Array",
                                                "Array-to-Host",
                                                "Array-to-Array",
                                                "Array-to-Device",
                                                "Device-to-Array",
                                                "Device-to-Device",
                                                "Host-to-Host",
                                                "Peer-to-Peer",
                                                "Unified Host-to-Device",
                                                "Unified Device-to-Host",
                                                "Unified Device-to-Device"};

// copyKind → "[CUDA memcpy <label>]", from the export's own enum table when it has one.
StatusOr<std::map<int64_t, StringId>> CopyKindNames(ImportContext& context) {
  std::map<int64_t, StringId> names;
  Trace& trace = context.trace();
  for (size_t id = 0; id < std::size(kCopyKindLabels); ++id) {
    names[static_cast<int64_t>(id)] =
        trace.strings.Intern(fmt::format("[CUDA memcpy {}]", kCopyKindLabels[id]));
  }
  if (!context.schema().HasColumn(kCopyKindEnum, "id") ||
      !context.schema().HasColumn(kCopyKindEnum, "label")) {
    return names;
  }
  TM_ASSIGN_OR_RETURN(sqlite::Statement select, SelectColumns(context.db(), context.schema(),
                                                              kCopyKindEnum, {"id", "label"}, {}));
  const int id = select.Index("id"), label = select.Index("label");
  for (;;) {
    TM_ASSIGN_OR_RETURN(bool more, select.Step());
    if (!more) break;
    std::optional<int64_t> key = select.Int(id);
    std::optional<std::string_view> text = select.Text(label);
    if (key && text && !text->empty()) {
      names[*key] = trace.strings.Intern(fmt::format("[CUDA memcpy {}]", *text));
    }
  }
  return names;
}

// ENUM_CUDA_MEM_KIND (CUDA_MEMOPR_MEMORY_KIND_*): 0 pageable, 1 pinned, 2 device, 3 array,
// 4 managed, 5 device static, 6 managed static, 7 unknown; stable across the exports we read.
constexpr int64_t kUnknownMemKind = 7;
MemoryKind MemoryKindOf(int64_t id) {
  switch (id) {
    case 0:
      return MemoryKind::kPageable;
    case 1:
      return MemoryKind::kPinned;
    case 2:
      return MemoryKind::kDevice;
    case 3:
      return MemoryKind::kArray;
    case 4:
      return MemoryKind::kManaged;
    case 5:
      return MemoryKind::kDeviceStatic;
    case 6:
      return MemoryKind::kManagedStatic;
    default:
      return MemoryKind::kUnknown;
  }
}

Status ReadTable(ImportContext& context, std::string_view table, TransferKind kind,
                 const std::map<int64_t, StringId>& copy_names) {
  if (!context.schema().HasTable(table)) return Status::Ok();
  TM_ASSIGN_OR_RETURN(
      sqlite::Statement rows,
      SelectColumns(
          context.db(), context.schema(), table, {"start", "end", "deviceId"},
          {"streamId", "correlationId", "globalPid", "bytes", "copyKind", "srcKind", "dstKind"}));
  const int start = rows.Index("start"), end = rows.Index("end");
  const int device = rows.Index("deviceId"), stream = rows.Index("streamId");
  const int correlation = rows.Index("correlationId"), bytes = rows.Index("bytes");
  const int copy_kind = rows.Index("copyKind"), global_pid = rows.Index("globalPid");
  const int src_kind = rows.Index("srcKind"), dst_kind = rows.Index("dstKind");

  Trace& trace = context.trace();
  const StringId memset_name = trace.strings.Intern("[CUDA memset]");
  trace.transfers.reserve(trace.transfers.size() + context.ReserveHint(table));
  uint64_t row = 0;
  for (;;) {
    TM_ASSIGN_OR_RETURN(bool more, context.NextRow(rows, &row));
    if (!more) break;
    Transfer t;
    t.kind = kind;
    if (!context.CheckTimes(table, row, rows.Int(start), rows.Int(end), &t.duration_ns)) continue;
    t.start_ns = *rows.Int(start);
    if (!context.ReadPlacement(table, row, rows, {device, stream, correlation, global_pid}, &t))
      continue;
    t.bytes = static_cast<uint64_t>(std::max<int64_t>(0, rows.IntOr(bytes, 0)));
    if (kind == TransferKind::kMemset) {
      t.name = memset_name;
    } else {
      auto it = copy_names.find(rows.IntOr(copy_kind, 0));
      t.name = it != copy_names.end() ? it->second
                                      : trace.strings.Intern(fmt::format("[CUDA memcpy kind {}]",
                                                                         rows.IntOr(copy_kind, 0)));
      t.src_memory = MemoryKindOf(rows.IntOr(src_kind, kUnknownMemKind));
      t.dst_memory = MemoryKindOf(rows.IntOr(dst_kind, kUnknownMemKind));
    }
    ++(kind == TransferKind::kMemcpy ? trace.counts.memcpys : trace.counts.memsets);
    trace.transfers.push_back(t);
  }
  return Status::Ok();
}

}  // namespace

Status ReadTransfers(ImportContext& context) {
  std::map<int64_t, StringId> copy_names;
  if (context.schema().HasTable(kMemcpyTable)) {
    TM_ASSIGN_OR_RETURN(copy_names, CopyKindNames(context));
  }
  TM_RETURN_IF_ERROR(ReadTable(context, kMemcpyTable, TransferKind::kMemcpy, copy_names));
  return ReadTable(context, kMemsetTable, TransferKind::kMemset, copy_names);
}

}  // namespace tensormorph::nsys
