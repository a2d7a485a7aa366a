// Typed reads of one JSON value of a native-format record, with errors that name the record's
// field and point at the value: `kernel.start_ns must be an integer number of nanoseconds, not
// 1.5`. Positions are resolved by a Locator, since NDJSON lines and a whole JSON document are
// parsed from different buffers.
#pragma once

#include <simdjson.h>

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>

#include "tensormorph/model/status.h"
#include "tensormorph/model/trace.h"

namespace tensormorph::native {

using simdjson::ondemand::value;

// Turns a pointer into the parsed buffer into a position in the input.
using Locator = std::function<SourcePosition(const char*)>;

// Returned (with the position simdjson stopped at) when simdjson reports malformed JSON rather than
// a value of the wrong type; the importer then locates the syntax error precisely.
constexpr std::string_view kSyntaxErrorPrefix = "not valid JSON";

class FieldReader {
 public:
  FieldReader(Locator locate, std::string_view record)
      : locate_(std::move(locate)), record_(record) {}

  std::string_view record() const { return record_; }
  void set_record(std::string_view record) { record_ = record; }

  SourcePosition Locate(const char* where) const { return locate_(where); }
  // An error about `where` (a pointer into the buffer).
  Status ErrorAt(const char* where, std::string message) const;
  // An error about the value of field `key`.
  Status Error(value& v, std::string_view key, std::string_view what) const;
  // simdjson failed: a syntax error at `where`, or a plain error when simdjson says the type was
  // wrong.
  Status JsonError(simdjson::error_code error, const char* where) const;

  Status Int(value& v, std::string_view key, int64_t min, int64_t max, int64_t* out) const;
  Status UInt(value& v, std::string_view key, uint64_t max, uint64_t* out) const;
  // A time in integer nanoseconds within ±2^62.
  Status TimeNs(value& v, std::string_view key, int64_t* out) const;
  // A number; also the strings "NaN", "Infinity" and "-Infinity" that the writer uses for values
  // JSON numbers cannot spell.
  Status Double(value& v, std::string_view key, double* out) const;
  Status String(value& v, std::string_view key, std::string_view* out) const;
  Status Bool(value& v, std::string_view key, bool* out) const;
  // [x], [x, y] or [x, y, z]; missing dimensions are 1.
  Status Dim(value& v, std::string_view key, Dim3* out) const;
  // An id that refers to a device or track: an integer, or null (only where `allow_null`).
  Status Reference(value& v, std::string_view key, bool allow_null,
                   std::optional<int64_t>* out) const;

 private:
  Locator locate_;
  std::string_view record_;
};

// Where a value starts in the buffer.
const char* Where(value& v);

// Calls fn(key, value) for each member of `object`, in order; stops at the first error.
template <typename Fn>
Status ForEachMember(simdjson::ondemand::object& object, const FieldReader& fields, Fn fn) {
  for (auto member : object) {
    simdjson::ondemand::field field;
    if (auto error = std::move(member).get(field)) return fields.JsonError(error, nullptr);
    std::string_view key;
    if (auto error = field.unescaped_key().get(key)) return fields.JsonError(error, nullptr);
    value v = field.value();
    TM_RETURN_IF_ERROR(fn(key, v));
  }
  return Status::Ok();
}

// A short, printable excerpt of a value's JSON text, for error messages.
std::string Excerpt(value& v);

}  // namespace tensormorph::native
