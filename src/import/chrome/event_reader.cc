#include "import/chrome/event_reader.h"

#include <charconv>
#include <cmath>

#include "model/time.h"

namespace tensormorph::chrome {
namespace {

using simdjson::error_code;
using simdjson::ondemand::json_type;
using simdjson::ondemand::value;

std::string_view Trim(std::string_view text) {
  while (!text.empty() && (text.back() == ' ' || text.back() == '\n' || text.back() == '\r' ||
                           text.back() == '\t')) {
    text.remove_suffix(1);
  }
  return text;
}

// Integers arrive as JSON numbers (possibly beyond int64, possibly written as 1.0), or as strings
// in decimal or hex ("0x0" stream ids in ROCm runtime args, "2560" byte counts).
bool ParseIntegerText(std::string_view text, int64_t* out) {
  text = Trim(text);
  if (text.size() > 2 && text[0] == '0' && (text[1] == 'x' || text[1] == 'X')) {
    uint64_t v = 0;
    auto [ptr, ec] = std::from_chars(text.data() + 2, text.data() + text.size(), v, 16);
    if (ec != std::errc() || ptr != text.data() + text.size()) return false;
    *out = static_cast<int64_t>(v);
    return true;
  }
  std::optional<int64_t> v = ParseScaledDecimal(text, 0);
  if (!v) return false;
  *out = *v;
  return true;
}

error_code ReadInteger(value v, int64_t* out, bool* ok) {
  json_type type;
  if (auto err = v.type().get(type)) return err;
  *ok = false;
  if (type == json_type::number) {
    std::string_view token = Trim(v.raw_json_token());
    // Ids beyond INT64_MAX (uint64 correlation / comms ids) keep their bit pattern.
    uint64_t u = 0;
    auto [ptr, ec] = std::from_chars(token.data(), token.data() + token.size(), u);
    if (ec == std::errc() && ptr == token.data() + token.size()) {
      *out = static_cast<int64_t>(u);
      *ok = true;
      return simdjson::SUCCESS;
    }
    *ok = ParseIntegerText(token, out);
    return simdjson::SUCCESS;
  }
  if (type == json_type::string) {
    std::string_view text;
    if (auto err = v.get_string().get(text)) return err;
    *ok = ParseIntegerText(text, out);
  }
  return simdjson::SUCCESS;
}

// ts / dur: microseconds as a number or numeric string, converted exactly to nanoseconds.
error_code ReadMicros(value v, int64_t* out, bool* ok) {
  json_type type;
  if (auto err = v.type().get(type)) return err;
  *ok = false;
  std::string_view text;
  if (type == json_type::number) {
    text = v.raw_json_token();
  } else if (type == json_type::string) {
    if (auto err = v.get_string().get(text)) return err;
  } else {
    return simdjson::SUCCESS;
  }
  std::optional<int64_t> ns = ParseMicrosAsNanos(text);
  if (ns) {
    *out = *ns;
    *ok = true;
  }
  return simdjson::SUCCESS;
}

// The JSON text of a value (objects and arrays whole).
error_code RawContainer(value v, std::string_view* out) {
  json_type type;
  if (auto err = v.type().get(type)) return err;
  if (type == json_type::array) {
    simdjson::ondemand::array array;
    if (auto err = v.get_array().get(array)) return err;
    return array.raw_json().get(*out);
  }
  if (type != json_type::object) {
    *out = Trim(v.raw_json_token());
    return simdjson::SUCCESS;
  }
  simdjson::ondemand::object object;
  if (auto err = v.get_object().get(object)) return err;
  return object.raw_json().get(*out);
}

error_code ReadText(value v, std::string_view* out) {
  json_type type;
  if (auto err = v.type().get(type)) return err;
  if (type == json_type::string) return v.get_string().get(*out);
  // Names written as numbers or literals: keep their JSON text.
  if (type == json_type::number || type == json_type::boolean || type == json_type::null) {
    *out = Trim(v.raw_json_token());
    return simdjson::SUCCESS;
  }
  return RawContainer(v, out);
}

error_code ReadDim3(value v, Dim3* out) {
  simdjson::ondemand::array array;
  if (v.get_array().get(array) != simdjson::SUCCESS) return simdjson::SUCCESS;  // not a triple
  uint32_t* dims[3] = {&out->x, &out->y, &out->z};
  size_t i = 0;
  for (auto element : array) {
    value item;
    if (auto err = element.get(item)) return err;
    int64_t n = 0;
    bool ok = false;
    if (auto err = ReadInteger(item, &n, &ok)) return err;
    if (i < 3 && ok && n >= 0 && n <= UINT32_MAX) *dims[i] = static_cast<uint32_t>(n);
    ++i;
  }
  return simdjson::SUCCESS;
}

error_code ReadId(value v, RawId* id) {
  json_type type;
  if (auto err = v.type().get(type)) return err;
  id->present = true;
  if (type == json_type::string) {
    id->is_string = true;
    return v.get_string().get(id->text);
  }
  bool ok = false;
  if (auto err = ReadInteger(v, &id->number, &ok)) return err;
  if (!ok) {  // a double such as 1.5, or a literal: keep it by its text
    id->is_string = true;
    return ReadText(v, &id->text);
  }
  return simdjson::SUCCESS;
}

error_code ReadArgs(value v, RawArgs* args) {
  simdjson::ondemand::object object;
  if (v.get_object().get(object) != simdjson::SUCCESS) return simdjson::SUCCESS;  // args: null
  for (auto field : object) {
    std::string_view key;
    if (auto err = field.unescaped_key().get(key)) return err;
    value val = field.value();
    bool ok = false;
    int64_t n = 0;
    if (key == "correlation") {
      if (auto err = ReadInteger(val, &n, &ok)) return err;
      args->has_correlation = ok;
      args->correlation = static_cast<uint64_t>(n);
    } else if (key == "External id" || key == "external id") {
      if (auto err = ReadInteger(val, &args->external_id, &ok)) return err;
      args->has_external_id = ok;
    } else if (key == "device") {
      if (auto err = ReadInteger(val, &args->device, &ok)) return err;
      args->has_device = ok;
    } else if (key == "stream") {
      if (auto err = ReadInteger(val, &args->stream, &ok)) return err;
      args->has_stream = ok;
    } else if (key == "grid") {
      if (auto err = ReadDim3(val, &args->grid)) return err;
    } else if (key == "block") {
      if (auto err = ReadDim3(val, &args->block)) return err;
    } else if (key == "registers per thread") {
      if (auto err = ReadInteger(val, &args->registers_per_thread, &ok)) return err;
    } else if (key == "shared memory") {
      if (auto err = ReadInteger(val, &args->shared_memory, &ok)) return err;
    } else if (key == "est. achieved occupancy %") {
      if (auto err = ReadInteger(val, &args->occupancy_percent, &ok)) return err;
    } else if (key == "bytes" || key == "size") {
      if (auto err = ReadInteger(val, &args->bytes, &ok)) return err;
      if (!ok) args->bytes = -1;
    } else if (key == "Input Dims" || key == "Input dims") {
      if (auto err = RawContainer(val, &args->input_dims)) return err;
      args->input_dims = Trim(args->input_dims);
    } else if (key == "name") {
      if (auto err = ReadText(val, &args->metadata_name)) return err;
    } else if (key == "labels") {
      if (auto err = ReadText(val, &args->labels)) return err;
    }
  }
  return simdjson::SUCCESS;
}

}  // namespace

bool ReadEvent(value element, RawEvent* event, std::string* error, error_code* json_error) {
  *json_error = simdjson::SUCCESS;
  simdjson::ondemand::object object;
  if (auto err = element.get_object().get(object)) {
    if (err == simdjson::INCORRECT_TYPE) {
      *error = "an element of traceEvents is not an object";
      return false;
    }
    *json_error = err;
    return false;
  }
  bool ts_ok = true, dur_ok = true;
  auto fail = [&](error_code err) {
    *json_error = err;
    return false;
  };
  for (auto field : object) {
    std::string_view key;
    if (auto err = field.unescaped_key().get(key)) return fail(err);
    value val = field.value();
    error_code err = simdjson::SUCCESS;
    if (key == "ph") {
      std::string_view ph;
      err = ReadText(val, &ph);
      event->phase = ph.empty() ? 0 : ph[0];
    } else if (key == "name") {
      err = ReadText(val, &event->name);
    } else if (key == "cat") {
      err = ReadText(val, &event->category);
    } else if (key == "ts") {
      event->has_ts = true;
      err = ReadMicros(val, &event->ts_ns, &ts_ok);
    } else if (key == "dur") {
      event->has_dur = true;
      err = ReadMicros(val, &event->dur_ns, &dur_ok);
    } else if (key == "pid") {
      err = ReadId(val, &event->pid);
    } else if (key == "tid") {
      err = ReadId(val, &event->tid);
    } else if (key == "id") {
      int64_t id = 0;
      bool ok = false;
      err = ReadInteger(val, &id, &ok);
      event->has_id = ok;
      event->id = static_cast<uint64_t>(id);
    } else if (key == "bp") {
      std::string_view bp;
      err = ReadText(val, &bp);
      event->binds_enclosing = bp == "e";
    } else if (key == "args") {
      err = ReadArgs(val, &event->args);
    }
    if (err) return fail(err);
  }
  if (!ts_ok) {
    *error = "\"ts\" is not a number of microseconds";
    return false;
  }
  if (!dur_ok) {
    *error = "\"dur\" is not a number of microseconds";
    return false;
  }
  return true;
}

}  // namespace tensormorph::chrome
