// The records that others refer to by id: device and track. Each reads its members in any order,
// checks them, and appends one row.
#include <fmt/format.h>

#include "import/native/native_schema.h"
#include "import/native/record_fields.h"
#include "import/native/trace_builder.h"

namespace tensormorph::native {
namespace {

using simdjson::ondemand::array;
using simdjson::ondemand::json_type;
using simdjson::ondemand::object;

}  // namespace

uint32_t TraceBuilder::DefaultTrack() {
  if (!default_track_) {
    default_track_ = static_cast<uint32_t>(trace_.tracks.size());
    trace_.tracks.push_back(Track{});
  }
  return *default_track_;
}

Status TraceBuilder::DeviceIndex(value& v, std::string_view key, FieldReader& fields,
                                 uint32_t* out) {
  std::optional<int64_t> id;
  TM_RETURN_IF_ERROR(fields.Reference(v, key, /*allow_null=*/true, &id));
  if (!id) {
    *out = kNoDevice;
    return Status::Ok();
  }
  auto it = device_ids_.find(*id);
  if (it == device_ids_.end()) {
    return fields.ErrorAt(Where(v), fmt::format("{}.device {} is not the id of a device record "
                                                "before it",
                                                fields.record(), *id));
  }
  *out = it->second;
  return Status::Ok();
}

Status TraceBuilder::TrackIndex(value& v, std::string_view key, FieldReader& fields,
                                uint32_t* out) {
  std::optional<int64_t> id;
  TM_RETURN_IF_ERROR(fields.Reference(v, key, /*allow_null=*/false, &id));
  auto it = track_ids_.find(*id);
  if (it == track_ids_.end()) {
    return fields.ErrorAt(Where(v), fmt::format("{}.track {} is not the id of a track record "
                                                "before it",
                                                fields.record(), *id));
  }
  *out = it->second;
  return Status::Ok();
}

Status TraceBuilder::ReadDevice(object record, const char* record_at, FieldReader& fields) {
  Device d;
  std::optional<int64_t> id, trace_id;
  std::optional<bool> described;
  bool has_backend = false, has_properties = false;
  const char* id_at = nullptr;
  std::string_view text;
  Status s = ForEachMember(record, fields, [&](std::string_view key, value& v) -> Status {
    int64_t n = 0;
    if (key == "id") {
      id_at = Where(v);
      TM_RETURN_IF_ERROR(fields.Int(v, key, INT64_MIN, INT64_MAX, &n));
      id = n;
      return Status::Ok();
    }
    if (key == "backend") {
      has_backend = true;
      return ReadEnum<Backend>(v, key, fields, &ParseBackend,
                               "cpu, cuda, rocm, metal, webgpu, other", &d.backend);
    }
    if (key == "name" || key == "vendor") {
      TM_RETURN_IF_ERROR(fields.String(v, key, &text));
      (key == "name" ? d.name : d.vendor) = text;
      return Status::Ok();
    }
    if (key == "trace_id") {
      TM_RETURN_IF_ERROR(fields.Int(v, key, INT64_MIN, INT64_MAX, &n));
      trace_id = n;
      return Status::Ok();
    }
    if (key == "index") {
      TM_RETURN_IF_ERROR(fields.Int(v, key, -1, INT32_MAX, &n));
      d.index = static_cast<int32_t>(n);
      return Status::Ok();
    }
    if (key == "described") {
      bool b = false;
      TM_RETURN_IF_ERROR(fields.Bool(v, key, &b));
      described = b;
      return Status::Ok();
    }
    if (key == "measured_peaks") {
      object peaks;
      if (v.get_object().get(peaks)) return fields.Error(v, key, "must be an object of numbers");
      return ForEachMember(peaks, fields, [&](std::string_view name, value& peak) -> Status {
        double x = 0;
        TM_RETURN_IF_ERROR(fields.Double(peak, name, &x));
        d.measured_peaks[std::string(name)] = x;
        return Status::Ok();
      });
    }
    if (key == "type") return Status::Ok();
    has_properties = true;
    int32_t* int32_field = key == "compute_major"        ? &d.compute_major
                           : key == "compute_minor"      ? &d.compute_minor
                           : key == "sm_count"           ? &d.sm_count
                           : key == "warp_size"          ? &d.warp_size
                           : key == "max_threads_per_sm" ? &d.max_threads_per_sm
                           : key == "registers_per_sm"   ? &d.registers_per_sm
                                                         : nullptr;
    if (int32_field != nullptr) return ReadInt32(v, key, fields, int32_field);
    int64_t* int64_field = key == "shared_memory_per_sm"      ? &d.shared_memory_per_sm
                           : key == "shared_memory_per_block" ? &d.shared_memory_per_block
                           : key == "total_memory_bytes"      ? &d.total_memory_bytes
                                                              : nullptr;
    if (int64_field != nullptr) return fields.Int(v, key, 0, INT64_MAX, int64_field);
    has_properties = false;
    Unknown(key, v, fields);
    return Status::Ok();
  });
  TM_RETURN_IF_ERROR(s);
  if (!id) return fields.ErrorAt(record_at, "a device record needs an integer \"id\"");
  if (!has_backend) {
    return fields.ErrorAt(id_at, fmt::format("device {} needs a \"backend\" (cpu, cuda, rocm, "
                                             "metal, webgpu or other)",
                                             *id));
  }
  if (!device_ids_.emplace(*id, static_cast<uint32_t>(trace_.devices.size())).second) {
    return fields.ErrorAt(id_at, fmt::format("device id {} is used by two device records", *id));
  }
  d.trace_id = trace_id.value_or(*id);
  d.described = described.value_or(has_properties);
  trace_.devices.push_back(std::move(d));
  return Status::Ok();
}

Status TraceBuilder::ReadTrack(object record, const char* record_at, FieldReader& fields) {
  Track t;
  std::optional<int64_t> id;
  const char* id_at = nullptr;
  Status s = ForEachMember(record, fields, [&](std::string_view key, value& v) -> Status {
    std::string_view text;
    if (key == "id") {
      id_at = Where(v);
      int64_t n = 0;
      TM_RETURN_IF_ERROR(fields.Int(v, key, INT64_MIN, INT64_MAX, &n));
      id = n;
    } else if (key == "pid" || key == "tid") {
      TM_RETURN_IF_ERROR(fields.Int(v, key, INT64_MIN, INT64_MAX, key == "pid" ? &t.pid : &t.tid));
    } else if (key == "pid_name" || key == "tid_name" || key == "thread_name") {
      TM_RETURN_IF_ERROR(fields.String(v, key, &text));
      (key == "pid_name" ? t.pid_name : key == "tid_name" ? t.tid_name : t.thread_name) = text;
    } else if (key != "type") {
      Unknown(key, v, fields);
    }
    return Status::Ok();
  });
  TM_RETURN_IF_ERROR(s);
  if (!id) return fields.ErrorAt(record_at, "a track record needs an integer \"id\"");
  if (!track_ids_.emplace(*id, static_cast<uint32_t>(trace_.tracks.size())).second) {
    return fields.ErrorAt(id_at, fmt::format("track id {} is used by two track records", *id));
  }
  trace_.tracks.push_back(std::move(t));
  return Status::Ok();
}

}  // namespace tensormorph::native
