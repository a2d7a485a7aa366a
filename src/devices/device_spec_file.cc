#include "devices/device_spec_file.h"

#include <fmt/format.h>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstring>
#include <fstream>
#include <iterator>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>

namespace tensormorph {
namespace {

using nlohmann::json;

constexpr const char* kSpecSchema = "tensormorph.device-spec/1";
constexpr double kKiB = 1024.0;

// Keys a device entry may carry besides the metric names; anything else is a typo to report.
constexpr std::string_view kEntryKeys[] = {"key",
                                           "name",
                                           "aliases",
                                           "vendor",
                                           "backend",
                                           "architecture",
                                           "notes",
                                           "source",
                                           "sources",
                                           "identity_source",
                                           "identity_cite",
                                           "devices_per_package",
                                           "name_covers_variants"};
// Keys of a figure given as an object.
constexpr std::string_view kFigureKeys[] = {"value",  "gib",  "mib",        "pcie_x16", "links",
                                            "source", "cite", "confidence", "note"};

template <size_t N>
bool Listed(const std::string_view (&list)[N], std::string_view word) {
  return std::find(std::begin(list), std::end(list), word) != std::end(list);
}

// Where a byte offset is, as "LINE:COL" (1-based).
std::string LineColumn(std::string_view text, size_t offset) {
  offset = std::min(offset, text.size());
  size_t line = 1;
  size_t line_start = 0;
  for (size_t i = 0; i < offset; ++i) {
    if (text[i] == '\n') {
      ++line;
      line_start = i + 1;
    }
  }
  return fmt::format("{}:{}", line, offset - line_start + 1);
}

std::string Shown(const json& value) {
  std::string s = value.dump(-1, ' ', false, json::error_handler_t::replace);
  return s.size() > 60 ? s.substr(0, 57) + "..." : s;
}

std::optional<Confidence> ParseConfidence(std::string_view name) {
  for (Confidence c : {Confidence::kVendor, Confidence::kReported, Confidence::kDerived,
                       Confidence::kThirdParty, Confidence::kUnconfirmed}) {
    if (name == ConfidenceName(c)) return c;
  }
  return std::nullopt;
}

// What every entry of one document shares.
struct Document {
  std::string path;
  SpecOrigin origin = SpecOrigin::kUserFile;
  const json* sources = nullptr;  // the top-level {"id": "text"} that "cite" refers to
  std::set<std::string> cited;    // ids cited so far (the built-in table cites every one)
};

// One entry being read: errors say "FILE: devices[i] ("key"): FIELD: what".
struct EntryReader {
  Document* doc;
  const json& entry;
  std::string at;
  std::string default_source;  // a user file's figures without a source of their own

  Status Fail(const std::string& field, const std::string& what) const {
    return UnreadableInput(fmt::format("{}: {}: {}", at, field, what));
  }

  // The source text of `field`: its "source", or the document's text its "cite" names.
  Status SourceText(const json& object, const std::string& field, const char* source_key,
                    const char* cite_key, std::string* out) const {
    auto source = object.find(source_key);
    auto cite = object.find(cite_key);
    if (source != object.end() && cite != object.end()) {
      return Fail(field, fmt::format("give {} or {}, not both", source_key, cite_key));
    }
    if (source != object.end()) {
      if (!source->is_string() || source->get<std::string>().empty()) {
        return Fail(field + "." + source_key, "expected a non-empty string");
      }
      *out = source->get<std::string>();
    } else if (cite != object.end()) {
      if (!cite->is_string()) return Fail(field + "." + cite_key, "expected a string");
      const std::string id = cite->get<std::string>();
      if (doc->sources == nullptr || !doc->sources->contains(id)) {
        return Fail(field + "." + cite_key,
                    fmt::format("\"{}\" is not a key of the document's \"sources\"", id));
      }
      doc->cited.insert(id);
      *out = (*doc->sources)[id].get<std::string>();
    }
    return Status::Ok();
  }

  Status ReadFigure(const json& v, Metric metric, Figure* out) const {
    const std::string field = MetricName(metric);
    const bool built_in = doc->origin == SpecOrigin::kBuiltInTable;
    const bool integral = MetricIsInteger(metric);
    auto positive = [&](double x, const json& shown) -> Status {
      if (!std::isfinite(x) || x <= 0 || (integral && x != std::floor(x)) || x > 1e21) {
        return Fail(field, fmt::format("expected a positive {}, got {}",
                                       integral ? "integer" : "number", Shown(shown)));
      }
      return Status::Ok();
    };
    if (!v.is_object()) {
      if (built_in) {
        return Fail(field,
                    R"(the built-in table gives {"value", "confidence", "source" or "cite"})");
      }
      double x = v.is_number() ? v.get<double>() : NAN;
      TM_RETURN_IF_ERROR(positive(x, v));
      *out = Figure{x, Confidence::kSpecFile, default_source};
      return Status::Ok();
    }
    for (const auto& [name, value] : v.items()) {
      if (!Listed(kFigureKeys, name)) {
        return Fail(field + "." + name,
                    "unknown key (a figure has value, gib, mib or pcie_x16, and source or cite)");
      }
    }
    const int given = static_cast<int>(v.contains("value")) + static_cast<int>(v.contains("gib")) +
                      static_cast<int>(v.contains("mib")) +
                      static_cast<int>(v.contains("pcie_x16"));
    if (given != 1) return Fail(field, "give exactly one of value, gib, mib, pcie_x16");
    std::string source = default_source;
    TM_RETURN_IF_ERROR(SourceText(v, field, "source", "cite", &source));
    if (built_in && !v.contains("source") && !v.contains("cite")) {
      return Fail(field, "every figure of the built-in table names its source or cite");
    }
    if (auto note = v.find("note"); note != v.end()) {  // what this figure adds to its source
      if (!note->is_string() || note->get<std::string>().empty()) {
        return Fail(field + ".note", "expected a non-empty string");
      }
      source += "; " + note->get<std::string>();
    }

    if (v.contains("pcie_x16")) {
      if (metric != Metric::kHostLinkBytesPerS) {
        return Fail(field + ".pcie_x16", "only host_link_bytes_per_s is a PCIe link");
      }
      const json& gen = v["pcie_x16"];
      const json links = v.value("links", json(1));
      if (!gen.is_number_integer() || !links.is_number_integer() || links.get<int64_t>() < 1 ||
          links.get<int64_t>() > 8) {
        return Fail(field, "expected \"pcie_x16\": 3, 4 or 5 and \"links\": 1 to 8");
      }
      if (gen.get<int64_t>() < 3 || gen.get<int64_t>() > 5) {  // before narrowing it to int
        return Fail(field + ".pcie_x16", "expected generation 3, 4 or 5, got " + Shown(gen));
      }
      if (v.contains("confidence")) {
        return Fail(field + ".confidence", "a PCIe link is derived: its confidence is implied");
      }
      std::optional<Figure> link = PcieX16Link(gen.get<int>(), links.get<int>(), source);
      if (!link) {
        return Fail(field + ".pcie_x16", "expected generation 3, 4 or 5, got " + Shown(gen));
      }
      if (!built_in) link->confidence = Confidence::kSpecFile;
      *out = std::move(*link);
      return Status::Ok();
    }
    if (v.contains("links")) return Fail(field + ".links", "only with pcie_x16");

    double x = NAN;
    if (auto it = v.find("value"); it != v.end()) {
      x = it->is_number() ? it->get<double>() : NAN;
      TM_RETURN_IF_ERROR(positive(x, *it));
    } else {
      const bool gib = v.contains("gib");
      const json& amount = gib ? v["gib"] : v["mib"];
      if (metric != Metric::kMemoryBytes && metric != Metric::kL2CacheBytes) {
        return Fail(field + (gib ? ".gib" : ".mib"), "only memory_bytes and l2_cache_bytes");
      }
      x = amount.is_number() ? amount.get<double>() * (gib ? kKiB * kKiB * kKiB : kKiB * kKiB)
                             : NAN;
      TM_RETURN_IF_ERROR(positive(x, amount));
    }
    Confidence confidence = Confidence::kSpecFile;
    if (auto it = v.find("confidence"); it != v.end()) {
      if (!built_in) {
        return Fail(field + ".confidence",
                    "only the built-in table states a confidence; a spec file's figures are "
                    "spec-file");
      }
      std::optional<Confidence> c =
          it->is_string() ? ParseConfidence(it->get<std::string>()) : std::nullopt;
      if (!c) {
        return Fail(
            field + ".confidence",
            "expected vendor, reported, derived, third-party or unconfirmed; got " + Shown(*it));
      }
      confidence = *c;
    } else if (built_in) {
      return Fail(field, "every figure of the built-in table states its confidence");
    }
    if (confidence == Confidence::kDerived && source.find("derived") == std::string::npos) {
      return Fail(field, "a derived figure's source states the derivation (\"derived: ...\")");
    }
    *out = Figure{x, confidence, std::move(source)};
    return Status::Ok();
  }
};

// Applies one entry of "devices"; `where` is "FILE: devices[i]" for messages.
Status ApplyEntry(const json& entry, const std::string& where, Document* doc,
                  std::vector<DeviceSpec>* devices, std::set<std::string>* seen) {
  if (!entry.is_object()) {
    return UnreadableInput(where + ": expected an object, got " + Shown(entry));
  }
  auto key_it = entry.find("key");
  if (key_it == entry.end() || !key_it->is_string() || key_it->get<std::string>().empty()) {
    return UnreadableInput(where + ": \"key\" is missing or not a non-empty string");
  }
  const std::string key = key_it->get<std::string>();
  EntryReader r{doc, entry, fmt::format("{} (\"{}\")", where, key), "spec file " + doc->path};
  const bool built_in = doc->origin == SpecOrigin::kBuiltInTable;
  if (!seen->insert(key).second) return r.Fail("key", "this key appears twice in the file");
  for (const auto& [name, value] : entry.items()) {
    if (!Listed(kEntryKeys, name) && !ParseMetric(name)) {
      return r.Fail(name, "unknown key (see docs/devices.md for the fields)");
    }
  }
  auto text = [&](const char* field, std::string* out) -> Status {
    auto it = entry.find(field);
    if (it == entry.end()) return Status::Ok();
    if (!it->is_string()) return r.Fail(field, "expected a string, got " + Shown(*it));
    *out = it->get<std::string>();
    return Status::Ok();
  };
  auto existing = std::find_if(devices->begin(), devices->end(),
                               [&](const DeviceSpec& d) { return d.key == key; });
  const bool adding = existing == devices->end();
  DeviceSpec spec;
  if (!adding) spec = *existing;
  spec.key = key;
  struct TextField {
    const char* name;
    std::string* target;
  };
  for (TextField f :
       {TextField{"name", &spec.name}, TextField{"vendor", &spec.vendor},
        TextField{"architecture", &spec.architecture}, TextField{"notes", &spec.notes}}) {
    TM_RETURN_IF_ERROR(text(f.name, f.target));
  }
  spec.architecture = NormalizeArchitecture(spec.architecture);
  TM_RETURN_IF_ERROR(text("source", &r.default_source));
  if (r.default_source.empty()) return r.Fail("source", "expected a non-empty string");
  TM_RETURN_IF_ERROR(
      r.SourceText(entry, "identity", "identity_source", "identity_cite", &spec.identity_source));
  if (auto it = entry.find("backend"); it != entry.end()) {
    std::optional<Backend> backend =
        it->is_string() ? ParseBackend(it->get<std::string>()) : std::nullopt;
    if (!backend) {
      return r.Fail("backend",
                    "expected one of cpu, cuda, rocm, metal, webgpu, other; got " + Shown(*it));
    }
    spec.backend = *backend;
  }
  if (auto it = entry.find("aliases"); it != entry.end()) {
    if (!it->is_array()) return r.Fail("aliases", "expected an array of strings");
    spec.aliases.clear();
    for (const json& alias : *it) {
      if (!alias.is_string()) return r.Fail("aliases", "expected strings, got " + Shown(alias));
      spec.aliases.push_back(alias.get<std::string>());
    }
  }
  if (auto it = entry.find("devices_per_package"); it != entry.end()) {
    if (!it->is_number_integer() || it->get<int64_t>() < 1 || it->get<int64_t>() > 64) {
      return r.Fail("devices_per_package", "expected an integer from 1 to 64, got " + Shown(*it));
    }
    spec.devices_per_package = it->get<int>();
  }
  if (auto it = entry.find("name_covers_variants"); it != entry.end()) {
    if (!it->is_boolean()) return r.Fail("name_covers_variants", "expected true or false");
    spec.name_covers_variants = it->get<bool>();
  }
  const json* sources = nullptr;
  if (auto it = entry.find("sources"); it != entry.end()) {
    if (!it->is_object()) return r.Fail("sources", R"(expected an object {"field": "source"})");
    for (const auto& [name, value] : it->items()) {
      if (!ParseMetric(name)) return r.Fail("sources", "\"" + name + "\" is not a figure");
      if (!value.is_string() || value.get<std::string>().empty()) {
        return r.Fail("sources." + name, "expected a non-empty string");
      }
      if (!entry.contains(name)) return r.Fail("sources." + name, "this figure is not given");
      if (entry[name].is_object()) {
        return r.Fail("sources." + name, "the figure is an object: give its source there");
      }
    }
    sources = &*it;
  }
  for (int i = 0; i < kMetricCount; ++i) {
    auto metric = static_cast<Metric>(i);
    auto it = entry.find(MetricName(metric));
    if (it == entry.end()) continue;
    if (it->is_null()) {  // null removes a figure the table has
      spec.Get(metric).reset();
      continue;
    }
    Figure figure;
    TM_RETURN_IF_ERROR(r.ReadFigure(*it, metric, &figure));
    if (sources && sources->contains(MetricName(metric))) {
      figure.source = (*sources)[MetricName(metric)].get<std::string>();
    }
    spec.Get(metric) = std::move(figure);
  }
  if (adding) {
    if (spec.name.empty()) return r.Fail("name", "a new device needs a name");
    if (!entry.contains("backend")) return r.Fail("backend", "a new device needs a backend");
    if (spec.aliases.empty()) spec.aliases.push_back(spec.name);
    if (built_in && spec.identity_source.empty()) {
      return r.Fail("identity", "the built-in table names where identity_source comes from");
    }
    if (spec.identity_source.empty()) spec.identity_source = r.default_source;
    devices->push_back(std::move(spec));
  } else {
    *existing = std::move(spec);
  }
  return Status::Ok();
}

}  // namespace

std::optional<Figure> PcieX16Link(int generation, int links, const std::string& cited) {
  if (generation < 3 || generation > 5 || links < 1) return std::nullopt;
  const double gt_per_s = 8 << (generation - 3);
  const double bytes_per_s = std::round(links * gt_per_s * 1e9 * 16 * 128 / 130 / 8);
  const std::string times = links > 1 ? fmt::format("{} x ", links) : "";
  return Figure{bytes_per_s, Confidence::kDerived,
                fmt::format("derived: {}PCIe Gen{} x16 = {}{:.0f} GT/s x 16 lanes x 128/130 / 8 "
                            "bit = {:.3f} GB/s per direction; generation and width: {}",
                            times, generation, times, gt_per_s, bytes_per_s / 1e9, cited)};
}

StatusOr<std::vector<DeviceSpec>> ApplySpecDocument(std::string_view text, const std::string& path,
                                                    std::vector<DeviceSpec> base,
                                                    SpecOrigin origin) {
  json doc;
  try {
    doc = json::parse(text.begin(), text.end());
  } catch (const json::parse_error& e) {
    std::string what = e.what();
    if (size_t p = what.find("parse error"); p != std::string::npos) what = what.substr(p);
    return UnreadableInput(fmt::format("{}:{}: not valid JSON: {}", path,
                                       LineColumn(text, e.byte ? e.byte - 1 : 0), what));
  } catch (const json::exception& e) {  // a number beyond double's range
    return UnreadableInput(fmt::format("{}: not readable JSON: {}", path, e.what()));
  }
  if (!doc.is_object()) {
    return UnreadableInput(fmt::format(
        R"({}: expected an object {{"schema": "{}", "devices": [...]}})", path, kSpecSchema));
  }
  for (const auto& [name, value] : doc.items()) {
    if (name != "schema" && name != "devices" && name != "sources") {
      return UnreadableInput(
          fmt::format("{}: {}: unknown key (expected schema, sources, devices)", path, name));
    }
  }
  if (auto it = doc.find("schema"); it != doc.end() && *it != kSpecSchema) {
    return UnreadableInput(
        fmt::format("{}: schema: expected \"{}\", got {}", path, kSpecSchema, Shown(*it)));
  }
  Document document;
  document.path = path;
  document.origin = origin;
  if (auto it = doc.find("sources"); it != doc.end()) {
    if (!it->is_object()) {
      return UnreadableInput(path + R"(: sources: expected an object {"id": "source text"})");
    }
    for (const auto& [id, value] : it->items()) {
      if (!value.is_string() || value.get<std::string>().empty()) {
        return UnreadableInput(
            fmt::format("{}: sources.{}: expected a non-empty string", path, id));
      }
    }
    document.sources = &*it;
  }
  auto list = doc.find("devices");
  if (list == doc.end() || !list->is_array()) {
    return UnreadableInput(path + ": devices: missing or not an array");
  }
  std::set<std::string> seen;
  for (size_t i = 0; i < list->size(); ++i) {
    TM_RETURN_IF_ERROR(
        ApplyEntry((*list)[i], fmt::format("{}: devices[{}]", path, i), &document, &base, &seen));
  }
  if (origin == SpecOrigin::kBuiltInTable && document.sources != nullptr) {
    for (const auto& [id, value] : document.sources->items()) {
      if (!document.cited.contains(id)) {
        return UnreadableInput(fmt::format("{}: sources.{}: cited by no figure", path, id));
      }
    }
  }
  return base;
}

StatusOr<std::vector<DeviceSpec>> ApplyDeviceSpecText(std::string_view text,
                                                      const std::string& path,
                                                      std::vector<DeviceSpec> base) {
  return ApplySpecDocument(text, path, std::move(base), SpecOrigin::kUserFile);
}

StatusOr<std::vector<DeviceSpec>> LoadDeviceSpecs(const std::string& path,
                                                  std::vector<DeviceSpec> base) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    return Status(StatusCode::kIoError, fmt::format("{}: cannot open the device spec file: {}",
                                                    path, std::strerror(errno)));
  }
  std::ostringstream text;
  text << in.rdbuf();
  return ApplySpecDocument(text.str(), path, std::move(base), SpecOrigin::kUserFile);
}

}  // namespace tensormorph
