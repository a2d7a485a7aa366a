#include "import/chrome/event_reader.h"

#include <charconv>
#include <cmath>

#include "model/time.h"

namespace tensormorph::chrome {
namespace {

using simdjson::error_code;
using simdjson::ondemand::json_type;
using simdjson::ondemand::value;

// Which of the keys we read a raw (still escaped) key is. Keys are compared in place, without
// unescaping them into a buffer: the keys we look for contain no escapes, and a key that does is
// simply not one of them.
class KeyMatcher {
 public:
  explicit KeyMatcher(simdjson::ondemand::raw_json_string key) : key_(key) {}
  bool Is(std::string_view target) const { return key_.unsafe_is_equal(target); }
  char first() const { return key_.raw()[0]; }

 private:
  simdjson::ondemand::raw_json_string key_;
};

std::string_view Trim(std::string_view text) {
  while (!text.empty() && (text.back() == ' ' || text.back() == '\n' || text.back() == '\r' ||
                           text.back() == '\t')) {
    text.remove_suffix(1);
  }
  return text;
}

// Plain unsigned decimal digits, the common case for ids, pids and sizes (std::from_chars is
// several times slower here).
bool ParseUnsigned(std::string_view text, uint64_t* out) {
  if (text.empty() || text.size() > 20) return false;
  uint64_t value = 0;
  for (char c : text) {
    const unsigned digit = static_cast<unsigned char>(c) - '0';
    if (digit > 9) return false;
    if (__builtin_mul_overflow(value, 10, &value) || __builtin_add_overflow(value, digit, &value)) {
      return false;
    }
  }
  *out = value;
  return true;
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
  // Written as a decimal ("7.0", "1e3"): accepted only when it is a whole number, never rounded.
  if (text.find_first_of(".eE") != std::string_view::npos) {
    std::optional<int64_t> thousandths = ParseScaledDecimal(text, 3);
    if (!thousandths || *thousandths % 1000 != 0) return false;
    *out = *thousandths / 1000;
    return true;
  }
  std::optional<int64_t> v = ParseScaledDecimal(text, 0);
  if (!v) return false;
  *out = *v;
  return true;
}

error_code ReadInteger(value v, int64_t* out, bool* ok) {
  *ok = false;
  // Fast path: simdjson's own integer parser. On failure the value is not consumed, so the
  // general path below can still look at it.
  if (v.get_int64().get(*out) == simdjson::SUCCESS) {
    *ok = true;
    return simdjson::SUCCESS;
  }
  json_type type;
  if (auto err = v.type().get(type)) return err;
  if (type == json_type::number) {
    std::string_view token = Trim(v.raw_json_token());
    // Ids beyond INT64_MAX (uint64 correlation / comms ids) keep their bit pattern.
    uint64_t u = 0;
    if (ParseUnsigned(token, &u)) {
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

// A non-negative integer (number or numeric string) into *out, which stays -1 otherwise; marks
// the collective's arguments present either way.
error_code ReadCount(value v, int64_t* out, RawCollective* collective) {
  collective->any = true;
  bool ok = false;
  int64_t n = 0;
  if (auto err = ReadInteger(v, &n, &ok)) return err;
  if (ok && n >= 0) *out = n;
  return simdjson::SUCCESS;
}

error_code ReadCollectiveText(value v, std::string_view* out, RawCollective* collective) {
  collective->any = true;
  return ReadText(v, out);
}

error_code ReadArgs(value v, RawArgs* args) {
  simdjson::ondemand::object object;
  if (v.get_object().get(object) != simdjson::SUCCESS) return simdjson::SUCCESS;  // args: null
  for (auto field : object) {
    simdjson::ondemand::raw_json_string raw_key;
    if (auto err = field.key().get(raw_key)) return err;
    const KeyMatcher key(raw_key);
    value val = field.value();
    bool ok = false;
    int64_t n = 0;
    error_code err = simdjson::SUCCESS;
    RawCollective* const collective = &args->collective;
    switch (key.first()) {
      case 'c':
        if (key.Is("correlation") || key.Is("correlation_id")) {  // correlation_id: JAX, a string
          err = ReadInteger(val, &n, &ok);
          args->has_correlation = ok;
          args->correlation = static_cast<uint64_t>(n);
        }
        break;
      case 'h':
        if (key.Is("hlo_op")) {
          err = ReadText(val, &args->hlo_op);
        } else if (key.Is("hlo_module")) {
          err = ReadText(val, &args->hlo_module);
        }
        break;
      case 'k':
        if (key.Is("kernel_details")) err = ReadText(val, &args->kernel_details);
        break;
      case 'P':
        if (key.Is("Process Group Name")) {
          err = ReadCollectiveText(val, &collective->process_group, collective);
        } else if (key.Is("Process Group Description")) {
          err = ReadCollectiveText(val, &collective->process_group_description, collective);
        }
        break;
      case 'p':
        if (key.Is("pg_name"))
          err = ReadCollectiveText(val, &collective->process_group, collective);
        break;
      case 'S':
        if (key.Is("Seq")) err = ReadCount(val, &collective->seq, collective);
        break;
      case 'O':
        if (key.Is("Out msg nelems")) err = ReadCount(val, &collective->out_nelems, collective);
        break;
      case 'G':
        if (key.Is("Group size")) err = ReadCount(val, &collective->group_size, collective);
        break;
      case 'E':
      case 'e':
        if (key.Is("External id") || key.Is("external id")) {
          err = ReadInteger(val, &args->external_id, &ok);
          args->has_external_id = ok;
        } else if (key.Is("est. achieved occupancy %")) {
          err = ReadInteger(val, &args->occupancy_percent, &ok);
        }
        break;
      case 'd':
        if (key.Is("device")) {
          err = ReadInteger(val, &args->device, &ok);
          args->has_device = ok;
        } else if (key.Is("dtype")) {
          err = ReadText(val, &collective->dtype);  // other ops have a dtype too
        }
        break;
      case 's':
        if (key.Is("stream")) {
          err = ReadInteger(val, &args->stream, &ok);
          args->has_stream = ok;
        } else if (key.Is("shared memory")) {
          err = ReadInteger(val, &args->shared_memory, &ok);
        } else if (key.Is("size")) {  // MTIA dma_request
          err = ReadInteger(val, &args->bytes, &ok);
          if (!ok) args->bytes = -1;
        }
        break;
      case 'g':
        if (key.Is("grid")) err = ReadDim3(val, &args->grid);
        break;
      case 'b':
        if (key.Is("block")) {
          err = ReadDim3(val, &args->block);
        } else if (key.Is("bytes")) {
          err = ReadInteger(val, &args->bytes, &ok);
          if (!ok) args->bytes = -1;
        }
        break;
      case 'r':
        if (key.Is("registers per thread"))
          err = ReadInteger(val, &args->registers_per_thread, &ok);
        break;
      case 'I':
        if (key.Is("Input Dims") || key.Is("Input dims")) {
          err = RawContainer(val, &args->input_dims);
          args->input_dims = Trim(args->input_dims);
        } else if (key.Is("Input type")) {
          err = RawContainer(val, &args->input_types);
          args->input_types = Trim(args->input_types);
        } else if (key.Is("Input Strides")) {
          err = RawContainer(val, &args->input_strides);
          args->input_strides = Trim(args->input_strides);
        } else if (key.Is("In msg nelems")) {
          err = ReadCount(val, &collective->in_nelems, collective);
        }
        break;
      case 'C':
        if (key.Is("Concrete Inputs")) {
          err = RawContainer(val, &args->input_values);
          args->input_values = Trim(args->input_values);
        } else if (key.Is("Collective name")) {
          err = ReadCollectiveText(val, &collective->name, collective);
        }
        break;
      case 'n':
        if (key.Is("name")) err = ReadText(val, &args->metadata_name);
        break;
      case 'l':
        if (key.Is("labels")) err = ReadText(val, &args->labels);
        break;
      default:
        break;
    }
    if (err) return err;
  }
  return simdjson::SUCCESS;
}

// Reads args whose text was kept because they came before "ph". A second parser, one per
// thread, over a padded copy: the strings it returns live until its next use, which is after the
// caller has interned this event (ChunkBuilder::Add copies every string it keeps).
error_code ReadDeferredArgs(std::string_view text, RawArgs* args) {
  thread_local simdjson::ondemand::parser parser;
  thread_local simdjson::padded_string copy;
  copy = simdjson::padded_string(text);
  simdjson::ondemand::document doc;
  value v;
  if (auto err = parser.iterate(copy).get(doc)) return err;
  if (auto err = doc.get_value().get(v)) return err;
  return ReadArgs(v, args);
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
  bool ts_ok = true, dur_ok = true, args_deferred = false;
  auto fail = [&](error_code err) {
    *json_error = err;
    return false;
  };
  for (auto field : object) {
    simdjson::ondemand::raw_json_string raw_key;
    if (auto err = field.key().get(raw_key)) return fail(err);
    const KeyMatcher key(raw_key);
    value val = field.value();
    error_code err = simdjson::SUCCESS;
    switch (key.first()) {
      case 'p':
        if (key.Is("ph")) {
          std::string_view ph;
          err = ReadText(val, &ph);
          event->phase = ph.empty() ? 0 : ph[0];
        } else if (key.Is("pid")) {
          err = ReadId(val, &event->pid);
        }
        break;
      case 'n':
        if (key.Is("name")) err = ReadText(val, &event->name);
        break;
      case 'c':
        if (key.Is("cat")) err = ReadText(val, &event->category);
        break;
      case 't':
        if (key.Is("ts")) {
          event->has_ts = true;
          err = ReadMicros(val, &event->ts_ns, &ts_ok);
        } else if (key.Is("tid")) {
          err = ReadId(val, &event->tid);
        }
        break;
      case 'd':
        if (key.Is("dur")) {
          event->has_dur = true;
          err = ReadMicros(val, &event->dur_ns, &dur_ok);
        }
        break;
      case 'i':
        if (key.Is("id")) {
          int64_t id = 0;
          bool ok = false;
          err = ReadInteger(val, &id, &ok);
          event->has_id = ok;
          event->id = static_cast<uint64_t>(id);
        }
        break;
      case 'b':
        if (key.Is("bp")) {
          std::string_view bp;
          err = ReadText(val, &bp);
          event->binds_enclosing = bp == "e";
        }
        break;
      case 'a':
        if (key.Is("args")) {
          if (event->phase == 0 || event->phase == 'i' || event->phase == 'I') {
            // Phase still unknown (files written with sorted keys put "args" before "ph"):
            // keep the text and read it below once the phase is known.
            err = RawContainer(val, &event->raw_args);
            args_deferred = event->phase == 0;
          } else {
            err = ReadArgs(val, &event->args);
          }
        }
        break;
      case 's':
        if (key.Is("s")) err = ReadText(val, &event->scope);
        break;
      default:
        break;
    }
    if (err) return fail(err);
  }
  if (args_deferred && event->phase != 'i' && event->phase != 'I') {
    if (auto err = ReadDeferredArgs(event->raw_args, &event->args)) return fail(err);
    event->raw_args = {};
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
