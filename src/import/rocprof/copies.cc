#include "import/rocprof/copies.h"

#include <fmt/format.h>

namespace tensormorph::rocprof {
namespace {

// "MEMORY_COPY_HOST_TO_DEVICE" -> "Memcpy HtoD", the spelling of the other importers.
std::string CopyName(std::string_view direction) {
  if (direction == "MEMORY_COPY_HOST_TO_DEVICE") return "Memcpy HtoD";
  if (direction == "MEMORY_COPY_DEVICE_TO_HOST") return "Memcpy DtoH";
  if (direction == "MEMORY_COPY_DEVICE_TO_DEVICE") return "Memcpy DtoD";
  if (direction == "MEMORY_COPY_HOST_TO_HOST") return "Memcpy HtoH";
  return std::string(direction);
}

}  // namespace

Status ReadMemoryCopies(CsvFile* file, DeviceResolver* devices, Trace* trace, Warnings* warnings) {
  const Columns c(file->header());
  const size_t direction = c.Find({"Direction"}), source = c.Find({"Source_Agent_Id"}),
               destination = c.Find({"Destination_Agent_Id"}), stream = c.Find({"Stream_Id"}),
               correlation = c.Find({"Correlation_Id"}), start = c.Find({"Start_Timestamp"}),
               end = c.Find({"End_Timestamp"}), bytes = c.Find({"Size", "Bytes", "Copy_Bytes"});
  CsvRecord row;
  while (file->Next(&row, warnings)) {
    int64_t start_ns = 0, duration_ns = 0;
    if (!ReadRowSpan(*file, row, start, end, trace, warnings, &start_ns, &duration_ns)) continue;
    Transfer t;
    t.start_ns = start_ns;
    t.duration_ns = duration_ns;
    t.kind = TransferKind::kMemcpy;
    const std::string& dir = row.at(direction);
    t.name = trace->strings.Intern(CopyName(dir));
    const bool to_device = dir == "MEMORY_COPY_HOST_TO_DEVICE" ||
                           (dir != "MEMORY_COPY_DEVICE_TO_HOST" && devices->IsHost(row.at(source)));
    t.device = devices->Resolve(row.at(to_device ? destination : source));
    if (stream != kMissing) t.stream = ParseInt(row.at(stream)).value_or(-1);
    if (correlation != kMissing) {
      std::optional<int64_t> id = ParseInt(row.at(correlation));
      if (id && *id > 0) t.link.correlation = static_cast<uint64_t>(*id);
    }
    if (bytes != kMissing) {
      std::optional<int64_t> n = ParseInt(row.at(bytes));
      if (n && *n > 0) t.bytes = static_cast<uint64_t>(*n);
    }
    trace->transfers.push_back(t);
    ++trace->counts.memcpys;
  }
  return file->status();
}

}  // namespace tensormorph::rocprof
