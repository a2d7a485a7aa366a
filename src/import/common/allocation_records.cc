#include "import/common/allocation_records.h"

#include <fmt/format.h>

#include <string>

namespace tensormorph {

void AllocationRecordWriter::Allocate(int64_t ts_ns, uint32_t track, int64_t process,
                                      RecordDevice device, uint64_t address, int64_t bytes,
                                      std::optional<int64_t> total_reserved) {
  alive_[{process, address}] = {device, bytes};
  Write(ts_ns, track, device, address, bytes, total_reserved);
}

std::optional<RecordDevice> AllocationRecordWriter::Free(
    int64_t ts_ns, uint32_t track, int64_t process, std::optional<RecordDevice> device,
    uint64_t address, std::optional<int64_t> bytes, std::optional<int64_t> total_reserved) {
  if (auto it = alive_.find({process, address}); it != alive_.end()) {
    // The allocation's device and size are the free's: what the row says of them (an agent
    // handle 0, a size 0) is not more exact.
    device = it->second.device;
    bytes = it->second.bytes;
    alive_.erase(it);
  }
  if (!device || !bytes || *bytes <= 0) {
    ++unmatched_frees_;
    return std::nullopt;
  }
  Write(ts_ns, track, *device, address, -*bytes, total_reserved);
  return device;
}

void AllocationRecordWriter::Write(int64_t ts_ns, uint32_t track, RecordDevice device,
                                   uint64_t address, int64_t bytes,
                                   std::optional<int64_t> total_reserved) {
  if (written_ == 0) {
    name_ = trace_->strings.Intern(kMemoryRecordName);
    category_ = trace_->strings.Intern("cpu_instant_event");
  }
  Instant instant;
  instant.ts_ns = ts_ns;
  instant.name = name_;
  instant.category = category_;
  instant.track = track;
  std::string args = fmt::format(R"({{"Device Type": {}, "Device Id": {}, "Addr": {}, "Bytes": {})",
                                 device.type, device.id, address, bytes);
  if (total_reserved) args += fmt::format(R"(, "Total Reserved": {})", *total_reserved);
  instant.args = trace_->strings.Intern(args + "}");
  trace_->instants.push_back(instant);
  ++trace_->counts.instants;
  ++written_;
}

}  // namespace tensormorph
