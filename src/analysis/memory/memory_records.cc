#include "analysis/memory/memory_records.h"

#include <simdjson.h>

#include <algorithm>
#include <future>
#include <string>
#include <thread>
#include <vector>

namespace tensormorph {
namespace {

// The args of one record, read with simdjson's On-Demand API (a 1 GB trace holds hundreds of
// thousands of records: a DOM per record cost more than the rest of the analysis). Integers only;
// a whole number written as a float (1.5e9 by some exporters) is taken, any other float is not.
struct RecordArgs {
  std::optional<int64_t> bytes, device_type, device_id, total_allocated, total_reserved;
  std::optional<uint64_t> address;
};

std::optional<int64_t> Integer(simdjson::ondemand::value value) {
  simdjson::ondemand::number_type type;
  if (value.get_number_type().get(type)) return std::nullopt;
  if (type == simdjson::ondemand::number_type::floating_point_number) {
    double v = 0;
    if (value.get_double().get(v)) return std::nullopt;
    if (v >= -9.2e18 && v <= 9.2e18 && v == static_cast<double>(static_cast<int64_t>(v))) {
      return static_cast<int64_t>(v);
    }
    return std::nullopt;
  }
  int64_t v = 0;
  if (value.get_int64().get(v)) return std::nullopt;
  return v;
}

// False when the text is not a JSON object.
bool ParseArgs(std::string_view text, simdjson::ondemand::parser* parser, std::string* buffer,
               RecordArgs* out) {
  buffer->assign(text);
  buffer->append(simdjson::SIMDJSON_PADDING, ' ');
  simdjson::ondemand::document doc;
  simdjson::ondemand::object object;
  if (parser->iterate(buffer->data(), text.size(), buffer->size()).get(doc) ||
      doc.get_object().get(object)) {
    return false;
  }
  for (auto field : object) {
    std::string_view key;
    simdjson::ondemand::value value;
    if (field.unescaped_key().get(key) || field.value().get(value)) return false;
    if (key == "Bytes") {
      out->bytes = Integer(value);
    } else if (key == "Device Type") {
      out->device_type = Integer(value);
    } else if (key == "Device Id") {
      out->device_id = Integer(value);
    } else if (key == "Total Allocated") {
      out->total_allocated = Integer(value);
    } else if (key == "Total Reserved") {
      out->total_reserved = Integer(value);
    } else if (key == "Addr") {
      // Unsigned in the trace; kept as the allocator's bits.
      uint64_t address = 0;
      if (!value.get_uint64().get(address)) {
        out->address = address;
      } else if (const std::optional<int64_t> v = Integer(value)) {
        out->address = static_cast<uint64_t>(*v);
      }
    }
  }
  return true;
}

}  // namespace

bool IsMemoryRecord(const Trace& trace, const Instant& instant) {
  return trace.str(instant.name) == kMemoryRecordName;
}

namespace {

// The records among instants [begin, end), in order.
MemoryRecords ReadRange(const Trace& trace, StringId name, size_t begin, size_t end) {
  MemoryRecords out;
  simdjson::ondemand::parser parser;
  std::string buffer;
  for (size_t i = begin; i < end; ++i) {
    const Instant& instant = trace.instants[i];
    if (instant.name != name) continue;
    RecordArgs args;
    const bool read = ParseArgs(trace.str(instant.args), &parser, &buffer, &args);
    // Sizes beyond 1 PiB are no allocator's: a corrupt record, skipped like an unreadable one, so
    // that no difference of two sizes below can overflow.
    constexpr int64_t kMaxBytes = int64_t{1} << 50;
    auto implausible = [&](std::optional<int64_t> v) {
      return v && (*v > kMaxBytes || *v < -kMaxBytes);
    };
    if (!read || !args.bytes || !args.device_type || !args.device_id || implausible(args.bytes) ||
        implausible(args.total_allocated) || implausible(args.total_reserved)) {
      ++out.skipped;
      continue;
    }
    MemoryRecord r;
    r.ts_ns = instant.ts_ns;
    r.track = instant.track;
    r.device_type = *args.device_type;
    r.device_id = *args.device_id;
    r.bytes = *args.bytes;
    r.address = args.address.value_or(0);
    r.total_allocated = args.total_allocated;
    r.total_reserved = args.total_reserved;
    out.rows.push_back(r);
  }
  return out;
}

}  // namespace

MemoryRecords ReadMemoryRecords(const Trace& trace, bool concurrent) {
  StringId name = 0;
  if (!trace.strings.Find(kMemoryRecordName, &name)) return {};  // no record in the trace
  // Parsed in ranges of instants on every core when allowed (a 1 GB trace holds hundreds of
  // thousands of records), joined in order: the same rows as one pass.
  constexpr size_t kMinRange = 1 << 14;
  const size_t n = trace.instants.size();
  const size_t ranges =
      concurrent
          ? std::clamp<size_t>(n / kMinRange, 1, std::max(1U, std::thread::hardware_concurrency()))
          : 1;
  std::vector<std::future<MemoryRecords>> parts;
  for (size_t k = 0; k < ranges; ++k) {
    parts.push_back(std::async(ranges > 1 ? std::launch::async : std::launch::deferred,
                               [&trace, name, begin = n * k / ranges, end = n * (k + 1) / ranges] {
                                 return ReadRange(trace, name, begin, end);
                               }));
  }
  MemoryRecords out;
  for (std::future<MemoryRecords>& part : parts) {
    MemoryRecords p = part.get();
    out.rows.insert(out.rows.end(), p.rows.begin(), p.rows.end());
    out.skipped += p.skipped;
  }
  std::stable_sort(out.rows.begin(), out.rows.end(),
                   [](const MemoryRecord& a, const MemoryRecord& b) { return a.ts_ns < b.ts_ns; });
  return out;
}

}  // namespace tensormorph
