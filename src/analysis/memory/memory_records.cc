#include "analysis/memory/memory_records.h"

#include <algorithm>
#include <nlohmann/json.hpp>

namespace tensormorph {
namespace {

std::optional<int64_t> Integer(const nlohmann::json& args, const char* key) {
  auto it = args.find(key);
  if (it == args.end()) return std::nullopt;
  if (it->is_number_integer()) return it->get<int64_t>();
  if (it->is_number_float()) {  // written as 1.5e9 by some exporters: whole numbers only
    const double v = it->get<double>();
    if (v == static_cast<double>(static_cast<int64_t>(v))) return static_cast<int64_t>(v);
  }
  return std::nullopt;
}

}  // namespace

bool IsMemoryRecord(const Trace& trace, const Instant& instant) {
  return trace.str(instant.name) == kMemoryRecordName;
}

MemoryRecords ReadMemoryRecords(const Trace& trace) {
  MemoryRecords out;
  for (const Instant& instant : trace.instants) {
    if (!IsMemoryRecord(trace, instant)) continue;
    const nlohmann::json args =
        nlohmann::json::parse(trace.str(instant.args), nullptr, /*allow_exceptions=*/false);
    const std::optional<int64_t> bytes = args.is_object() ? Integer(args, "Bytes") : std::nullopt;
    const std::optional<int64_t> type = bytes ? Integer(args, "Device Type") : std::nullopt;
    const std::optional<int64_t> id = bytes ? Integer(args, "Device Id") : std::nullopt;
    // Sizes beyond 1 PiB are no allocator's: a corrupt record, skipped like an unreadable one, so
    // that no difference of two sizes below can overflow.
    constexpr int64_t kMaxBytes = int64_t{1} << 50;
    auto implausible = [&](std::optional<int64_t> v) {
      return v && (*v > kMaxBytes || *v < -kMaxBytes);
    };
    if (!bytes || !type || !id || implausible(bytes) ||
        implausible(Integer(args, "Total Allocated")) ||
        implausible(Integer(args, "Total Reserved"))) {
      ++out.skipped;
      continue;
    }
    MemoryRecord r;
    r.ts_ns = instant.ts_ns;
    r.track = instant.track;
    r.device_type = *type;
    r.device_id = *id;
    r.bytes = *bytes;
    if (auto it = args.find("Addr"); it != args.end() && it->is_number_integer()) {
      r.address = it->get<uint64_t>();  // unsigned in the trace; wraps as the allocator's does
    }
    r.total_allocated = Integer(args, "Total Allocated");
    r.total_reserved = Integer(args, "Total Reserved");
    out.rows.push_back(r);
  }
  std::stable_sort(out.rows.begin(), out.rows.end(),
                   [](const MemoryRecord& a, const MemoryRecord& b) { return a.ts_ns < b.ts_ns; });
  return out;
}

}  // namespace tensormorph
