#include "import/chrome/trace_metadata.h"

#include <simdjson.h>

#include <charconv>

#include "io/utf8.h"

namespace tensormorph::chrome {
namespace {

using simdjson::dom::element;

std::optional<int64_t> AsInt(element value) {
  int64_t i = 0;
  if (value.get_int64().get(i) == simdjson::SUCCESS) return i;
  uint64_t u = 0;
  if (value.get_uint64().get(u) == simdjson::SUCCESS && u <= INT64_MAX)
    return static_cast<int64_t>(u);
  double d = 0;
  if (value.get_double().get(d) == simdjson::SUCCESS && d >= -9e18 && d <= 9e18 &&
      static_cast<double>(static_cast<int64_t>(d)) == d) {
    return static_cast<int64_t>(d);
  }
  std::string_view s;
  if (value.get_string().get(s) == simdjson::SUCCESS) {
    auto [ptr, ec] = std::from_chars(s.data(), s.data() + s.size(), i);
    if (ec == std::errc() && ptr == s.data() + s.size()) return i;
  }
  return std::nullopt;
}

std::optional<int64_t> IntField(simdjson::dom::object object, std::string_view key) {
  element value;
  if (object.at_key(key).get(value)) return std::nullopt;
  return AsInt(value);
}

Device ParseDevice(simdjson::dom::object props) {
  Device d;
  d.described = true;
  std::string_view name;
  if (props.at_key("name").get_string().get(name) == simdjson::SUCCESS) d.name = std::string(name);
  auto set = [&](std::string_view key, auto* field) {
    if (auto v = IntField(props, key))
      *field = static_cast<std::remove_pointer_t<decltype(field)>>(*v);
  };
  set("id", &d.index);
  set("computeMajor", &d.compute_major);
  set("computeMinor", &d.compute_minor);
  set("numSms", &d.sm_count);
  set("warpSize", &d.warp_size);
  set("maxThreadsPerMultiprocessor", &d.max_threads_per_sm);
  set("regsPerMultiprocessor", &d.registers_per_sm);
  set("sharedMemPerMultiprocessor", &d.shared_memory_per_sm);
  set("maxSharedMemoryPerMultiProcessor", &d.shared_memory_per_sm);  // ROCm spelling
  set("sharedMemPerBlock", &d.shared_memory_per_block);
  set("totalGlobalMem", &d.total_memory_bytes);
  return d;
}

// "tensormorph": {"devices": [{"id": 3, "backend": "rocm", "vendor": "AMD", ...}]}; entries
// that do not read cleanly are ignored (the trace is still a Kineto trace without them).
void ReadExportedDevices(element value, TopLevelMetadata* meta) {
  simdjson::dom::array devices;
  if (value.at_key("devices").get_array().get(devices) != simdjson::SUCCESS) return;
  for (element device : devices) {
    int64_t id = 0;
    std::string_view backend_name, vendor;
    if (device.at_key("id").get_int64().get(id) != simdjson::SUCCESS ||
        device.at_key("backend").get_string().get(backend_name) != simdjson::SUCCESS) {
      continue;
    }
    const std::optional<Backend> backend = ParseBackend(backend_name);
    if (!backend) continue;
    if (device.at_key("vendor").get_string().get(vendor) != simdjson::SUCCESS) vendor = {};
    meta->exported_devices[id] = {*backend, std::string(vendor)};
  }
}

}  // namespace

StatusOr<TopLevelMetadata> ParseTopLevelMetadata(const std::string& json) {
  TopLevelMetadata meta;
  simdjson::dom::parser parser;
  simdjson::dom::object root;
  auto err = parser.parse(json).get_object().get(root);
  std::string repaired;
  if (err == simdjson::UTF8_ERROR) {  // e.g. a host or user name in another encoding
    size_t replaced = 0;
    repaired = RepairUtf8(json, &replaced);
    err = parser.parse(repaired).get_object().get(root);
    if (!err) {
      meta.warnings.push_back(
          std::to_string(replaced) +
          " bytes of invalid UTF-8 in the trace's header were replaced by U+FFFD");
    }
  }
  if (err) {
    meta.warnings.push_back(std::string("the trace's top-level metadata is not valid JSON (") +
                            simdjson::error_message(err) +
                            "); device and rank information ignored");
    return meta;
  }
  for (auto [key, value] : root) {
    if (key == "traceEvents") continue;
    if (key == "schemaVersion") {
      meta.schema_version = AsInt(value);
    } else if (key == "baseTimeNanoseconds") {
      meta.base_time_ns = AsInt(value);
      if (!meta.base_time_ns)
        meta.warnings.push_back("baseTimeNanoseconds is not an integer; ignored");
    } else if (key == "deviceProperties" || key == "computeProperties") {
      simdjson::dom::array devices;
      if (value.get_array().get(devices) == simdjson::SUCCESS) {
        for (element device : devices) {
          simdjson::dom::object props;
          if (device.get_object().get(props) == simdjson::SUCCESS) {
            meta.device_properties.push_back(ParseDevice(props));
          }
        }
      }
    } else if (key == "distributedInfo") {
      simdjson::dom::object info;
      if (value.get_object().get(info) == simdjson::SUCCESS) {
        meta.rank = IntField(info, "rank");
        meta.world_size = IntField(info, "world_size");
        std::string_view backend;
        if (info.at_key("backend").get_string().get(backend) == simdjson::SUCCESS) {
          meta.distributed_backend = std::string(backend);
        }
      }
    } else if (key == "tensormorph") {
      ReadExportedDevices(value, &meta);
    } else if (value.is_string() || value.is_number() || value.is_bool()) {
      std::string_view text;
      if (value.get_string().get(text) == simdjson::SUCCESS) {
        meta.scalars.emplace(std::string(key), std::string(text));
      } else {
        meta.scalars.emplace(std::string(key), simdjson::minify(value));
      }
    }
  }
  return meta;
}

}  // namespace tensormorph::chrome
