// The header and table framing of the native format; the records are read in device_records.cc
// and row_records.cc, and Build() is in build.cc.
#include "import/native/trace_builder.h"

#include <fmt/format.h>

#include "import/native/native_schema.h"
#include "import/native/record_fields.h"

namespace tensormorph::native {
namespace {

using simdjson::ondemand::array;
using simdjson::ondemand::json_type;
using simdjson::ondemand::object;

bool IsHeaderOnly(TablePass pass) {
  return pass == TablePass::kHeaderDevicesTracks;
}

std::optional<TablePass> PassOfTable(std::string_view table) {
  if (table == "devices" || table == "tracks") return TablePass::kHeaderDevicesTracks;
  if (table == "kernels" || table == "transfers" || table == "api_calls" || table == "slices" ||
      table == "flows" || table == "instants") {
    return TablePass::kRows;
  }
  if (table == "kernel_counters") return TablePass::kCounters;
  return std::nullopt;
}

// The record type of each table's elements, for messages.
std::string_view RecordOfTable(std::string_view table) {
  if (table == "devices") return "device";
  if (table == "tracks") return "track";
  if (table == "kernels") return "kernel";
  if (table == "transfers") return "transfer";
  if (table == "api_calls") return "api_call";
  if (table == "slices") return "slice";
  if (table == "flows") return "flow";
  if (table == "instants") return "instant";
  return "kernel_counters";
}

Status CheckSchema(std::string_view schema, value& v, FieldReader& fields) {
  if (!schema.starts_with(kSchemaPrefix)) {
    return fields.Error(v, "schema", fmt::format("must be \"{}\"", kSchema));
  }
  std::string_view version = schema.substr(kSchemaPrefix.size());
  int number = 0;
  for (char c : version) {
    if (c < '0' || c > '9' || number > 1000000) {
      return fields.Error(v, "schema", fmt::format("must be \"{}\"", kSchema));
    }
    number = number * 10 + (c - '0');
  }
  if (version.empty()) return fields.Error(v, "schema", fmt::format("must be \"{}\"", kSchema));
  if (number > kSchemaVersion) {
    return fields.ErrorAt(Where(v), fmt::format("{} is newer than this build reads (it reads {}); "
                                                "use a newer tensormorph",
                                                schema, kSchema));
  }
  if (number < kSchemaVersion) {
    return fields.Error(v, "schema", fmt::format("must be \"{}\"", kSchema));
  }
  return Status::Ok();
}

}  // namespace

TraceBuilder::TraceBuilder(const std::string& path) {
  trace_.path = path;
}

Status TraceBuilder::ReadTopLevel(object top, TablePass pass, FieldReader& fields) {
  fields.set_record("header");
  return ForEachMember(top, fields, [&](std::string_view key, value& v) -> Status {
    if (std::optional<TablePass> table_pass = PassOfTable(key)) {
      if (*table_pass != pass) return Status::Ok();
      Status s = ReadTable(key, v, fields);
      fields.set_record("header");
      return s;
    }
    if (!IsHeaderOnly(pass)) return Status::Ok();
    return ReadHeaderMember(key, v, fields);
  });
}

Status TraceBuilder::ReadHeaderMember(std::string_view key, value v, FieldReader& fields) {
  std::string_view text;
  int64_t n = 0;
  if (key == "schema") {
    TM_RETURN_IF_ERROR(fields.String(v, key, &text));
    TM_RETURN_IF_ERROR(CheckSchema(text, v, fields));
    saw_schema_ = true;
  } else if (key == "type") {
    TM_RETURN_IF_ERROR(fields.String(v, key, &text));  // "header", optional
  } else if (key == "source_format") {
    TM_RETURN_IF_ERROR(fields.String(v, key, &text));
    trace_.format = text;
    format_given_ = true;
  } else if (key == "source_format_version") {
    TM_RETURN_IF_ERROR(fields.String(v, key, &text));
    trace_.format_version = text;
  } else if (key == "backends") {
    array list;
    if (v.get_array().get(list)) return fields.Error(v, key, "must be an array of backend names");
    backends_given_ = true;
    for (auto element : list) {
      value item;
      if (auto error = std::move(element).get(item)) return fields.JsonError(error, nullptr);
      TM_RETURN_IF_ERROR(fields.String(item, key, &text));
      std::optional<Backend> backend = ParseBackend(text);
      if (!backend) {
        return fields.Error(item, key, "must name cpu, cuda, rocm, metal, webgpu or other");
      }
      trace_.backends.push_back(*backend);
    }
  } else if (key == "rank" || key == "world_size" || key == "base_time_ns") {
    TM_RETURN_IF_ERROR(fields.Int(v, key, INT64_MIN, INT64_MAX, &n));
    (key == "rank"         ? trace_.rank
     : key == "world_size" ? trace_.world_size
                           : trace_.base_time_ns) = n;
  } else if (key == "timestamp_resolution_ns") {
    TM_RETURN_IF_ERROR(fields.Int(v, key, 0, kMaxTimeNs, &n));
    trace_.timestamp_resolution_ns = n;
  } else if (key == "described_device_count") {
    TM_RETURN_IF_ERROR(fields.Int(v, key, 0, INT32_MAX, &n));
    trace_.described_device_count = static_cast<int32_t>(n);
    described_count_given_ = true;
  } else if (key == "counts") {
    TM_RETURN_IF_ERROR(ReadCounts(v, fields));
  } else if (key == "metadata" || key == "metadata_text") {
    TM_RETURN_IF_ERROR(ReadMetadata(v, key == "metadata_text", fields));
  } else if (key == "warnings") {
    array list;
    if (v.get_array().get(list)) return fields.Error(v, key, "must be an array of strings");
    for (auto element : list) {
      value item;
      if (auto error = std::move(element).get(item)) return fields.JsonError(error, nullptr);
      TM_RETURN_IF_ERROR(fields.String(item, key, &text));
      trace_.warnings.emplace_back(text);
    }
  } else {
    Unknown(key, v, fields);
  }
  return Status::Ok();
}

Status TraceBuilder::ReadCounts(value v, FieldReader& fields) {
  object counts;
  if (v.get_object().get(counts)) return fields.Error(v, "counts", "must be an object");
  fields.set_record("counts");
  Status s = ForEachMember(counts, fields, [&](std::string_view key, value& item) -> Status {
    for (size_t i = 0; i < std::size(kCountFields); ++i) {
      if (kCountFields[i].name != key) continue;
      uint64_t n = 0;
      TM_RETURN_IF_ERROR(fields.UInt(item, key, UINT64_MAX, &n));
      trace_.counts.*kCountFields[i].member = n;
      counts_given_[i] = true;
      return Status::Ok();
    }
    Unknown(key, item, fields);
    return Status::Ok();
  });
  fields.set_record("header");
  return s;
}

// "metadata" values are kept as their JSON text (the model's convention); "metadata_text" values
// are strings kept as they are (text that is not JSON).
Status TraceBuilder::ReadMetadata(value v, bool as_text, FieldReader& fields) {
  const std::string_view name = as_text ? "metadata_text" : "metadata";
  object map;
  if (v.get_object().get(map)) return fields.Error(v, name, "must be an object");
  fields.set_record(name);
  Status s = ForEachMember(map, fields, [&](std::string_view key, value& item) -> Status {
    std::string stored_key(key);
    std::string_view text;
    if (as_text) {
      TM_RETURN_IF_ERROR(fields.String(item, key, &text));
      trace_.metadata[stored_key] = std::string(text);
      return Status::Ok();
    }
    json_type type;
    if (auto error = item.type().get(type)) return fields.JsonError(error, nullptr);
    if (type == json_type::object) {
      object o;
      if (auto error = item.get_object().get(o)) return fields.JsonError(error, nullptr);
      if (auto error = o.raw_json().get(text)) return fields.JsonError(error, nullptr);
    } else if (type == json_type::array) {
      array a;
      if (auto error = item.get_array().get(a)) return fields.JsonError(error, nullptr);
      if (auto error = a.raw_json().get(text)) return fields.JsonError(error, nullptr);
    } else {
      text = item.raw_json_token();
      while (!text.empty() && std::isspace(static_cast<unsigned char>(text.back()))) {
        text.remove_suffix(1);
      }
    }
    trace_.metadata[stored_key] = std::string(text);
    return Status::Ok();
  });
  fields.set_record("header");
  return s;
}

Status TraceBuilder::ReadTable(std::string_view table, value v, FieldReader& fields) {
  array rows;
  if (v.get_array().get(rows)) {
    return fields.Error(v, table,
                        fmt::format("must be an array of {} records", RecordOfTable(table)));
  }
  fields.set_record(RecordOfTable(table));
  for (auto element : rows) {
    value row;
    if (auto error = std::move(element).get(row)) return fields.JsonError(error, nullptr);
    const char* row_at = Where(row);
    object record;
    if (row.get_object().get(record)) {
      return fields.ErrorAt(Where(row), fmt::format("each element of {} must be an object, not {}",
                                                    table, Excerpt(row)));
    }
    TM_RETURN_IF_ERROR(ReadRecord(record, RecordOfTable(table), row_at, fields));
  }
  return Status::Ok();
}

Status TraceBuilder::ReadRecord(object record, std::string_view type, const char* record_at,
                                FieldReader& fields) {
  fields.set_record(type);
  if (type == "kernel") return ReadKernel(record, record_at, fields);
  if (type == "slice") return ReadSlice(record, record_at, fields);
  if (type == "api_call") return ReadApiCall(record, record_at, fields);
  if (type == "flow") return ReadFlow(record, record_at, fields);
  if (type == "instant") return ReadInstant(record, record_at, fields);
  if (type == "transfer") return ReadTransfer(record, record_at, fields);
  if (type == "kernel_counters") return ReadCounters(record, record_at, fields);
  if (type == "device") return ReadDevice(record, record_at, fields);
  if (type == "track") return ReadTrack(record, record_at, fields);
  return Status::Ok();  // the caller reports unknown record types
}

bool TraceBuilder::IsRecordType(std::string_view type) {
  for (std::string_view known : {"device", "track", "kernel", "transfer", "api_call", "slice",
                                 "flow", "instant", "kernel_counters"}) {
    if (type == known) return true;
  }
  return false;
}

void TraceBuilder::Unknown(std::string_view key, value& v, FieldReader& fields) {
  UnknownField& seen = unknown_[fmt::format("{}.{}", fields.record(), key)];
  if (seen.count++ == 0) seen.first = fields.Locate(Where(v));
}

void TraceBuilder::UnknownRecordType(std::string_view type, SourcePosition where) {
  UnknownField& seen = unknown_[fmt::format("record type \"{}\"", type)];
  if (seen.count++ == 0) seen.first = where;
}

}  // namespace tensormorph::native
