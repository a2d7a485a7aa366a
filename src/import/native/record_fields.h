// Readers for members that several record types share: times, link ids, enums, narrow integers.
#pragma once

#include <fmt/format.h>

#include <limits>
#include <optional>

#include "import/native/json_fields.h"

namespace tensormorph::native {

// A row's time: start_ns plus duration_ns or end_ns (both allowed when they agree).
struct RowTimes {
  std::optional<int64_t> start, duration, end;
  const char* duration_at = nullptr;
  const char* end_at = nullptr;

  // Reads `key` when it is one of the time members; *handled says whether it was.
  Status Read(std::string_view key, value& v, const FieldReader& fields, bool* handled) {
    *handled = true;
    int64_t n = 0;
    if (key == "start_ns") {
      TM_RETURN_IF_ERROR(fields.TimeNs(v, key, &n));
      start = n;
    } else if (key == "duration_ns") {
      duration_at = Where(v);
      TM_RETURN_IF_ERROR(fields.TimeNs(v, key, &n));
      if (n < 0) return fields.Error(v, key, "must not be negative");
      duration = n;
    } else if (key == "end_ns") {
      end_at = Where(v);
      TM_RETURN_IF_ERROR(fields.TimeNs(v, key, &n));
      end = n;
    } else {
      *handled = false;
    }
    return Status::Ok();
  }

  Status Resolve(const FieldReader& fields, const char* record_at, int64_t* start_ns,
                 int64_t* duration_ns) const {
    if (!start)
      return fields.ErrorAt(record_at, fmt::format("a {} needs start_ns", fields.record()));
    if (end && *end < *start) {
      return fields.ErrorAt(end_at, fmt::format("{}.end_ns {} is before its start_ns {}",
                                                fields.record(), *end, *start));
    }
    if (end && duration && *end - *start != *duration) {
      return fields.ErrorAt(duration_at,
                            fmt::format("{}.duration_ns {} disagrees with end_ns - start_ns = {}",
                                        fields.record(), *duration, *end - *start));
    }
    if (!end && !duration) {
      return fields.ErrorAt(record_at,
                            fmt::format("a {} needs duration_ns or end_ns", fields.record()));
    }
    *start_ns = *start;
    *duration_ns = duration ? *duration : *end - *start;
    return Status::Ok();
  }
};

template <typename Enum>
Status ReadEnum(value& v, std::string_view key, const FieldReader& fields,
                std::optional<Enum> (*parse)(std::string_view), std::string_view names, Enum* out) {
  std::string_view text;
  TM_RETURN_IF_ERROR(fields.String(v, key, &text));
  std::optional<Enum> parsed = parse(text);
  if (!parsed) return fields.Error(v, key, fmt::format("must be one of {}", names));
  *out = *parsed;
  return Status::Ok();
}

inline Status ReadLink(std::string_view key, value& v, const FieldReader& fields, LinkIds* link,
                       bool* handled) {
  *handled = true;
  if (key == "correlation") return fields.UInt(v, key, UINT64_MAX, &link->correlation);
  if (key == "external_id") return fields.Int(v, key, INT64_MIN, INT64_MAX, &link->external_id);
  *handled = false;
  return Status::Ok();
}

template <typename Narrow>
Status ReadNarrow(value& v, std::string_view key, const FieldReader& fields, Narrow* out) {
  uint64_t n = 0;
  TM_RETURN_IF_ERROR(fields.UInt(v, key, std::numeric_limits<Narrow>::max(), &n));
  *out = static_cast<Narrow>(n);
  return Status::Ok();
}

inline Status ReadInt32(value& v, std::string_view key, const FieldReader& fields, int32_t* out) {
  int64_t n = 0;
  TM_RETURN_IF_ERROR(fields.Int(v, key, 0, INT32_MAX, &n));
  *out = static_cast<int32_t>(n);
  return Status::Ok();
}

}  // namespace tensormorph::native
