#include "tensormorph/devices/device_db.h"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
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

// In Metric's order; the assert catches a metric added to one and not the other.
constexpr const char* kMetricNames[] = {
    "fp64_flops_per_s",
    "fp64_matrix_flops_per_s",
    "fp32_flops_per_s",
    "fp32_matrix_flops_per_s",
    "tf32_matrix_flops_per_s",
    "fp16_matrix_flops_per_s",
    "bf16_matrix_flops_per_s",
    "fp8_matrix_flops_per_s",
    "int8_matrix_ops_per_s",
    "memory_bandwidth_bytes_per_s",
    "host_link_bytes_per_s",
    "compute_units",
    "boost_clock_hz",
    "l2_cache_bytes",
    "memory_bytes",
};
static_assert(std::size(kMetricNames) == kMetricCount);

// Reported memory is below the nominal size (ECC and driver reservations: 39.4 GiB on an
// A100 40GB, 79.1 GiB on an H100 80GB) but far from the next size up (80 vs 94 GB is 17%).
constexpr double kMemoryTolerance = 0.08;

template <size_t N>
bool Contains(const std::string_view (&list)[N], std::string_view word) {
  return std::find(std::begin(list), std::end(list), word) != std::end(list);
}

// Words that differ between the ways one device is spelled and never tell models apart.
constexpr std::string_view kBrandWords[] = {"nvidia", "amd",     "apple",
                                            "tesla",  "geforce", "instinct"};
constexpr std::string_view kMemoryTypeWords[] = {"hbm2",  "hbm2e",  "hbm3", "hbm3e",
                                                 "gddr6", "gddr6x", "gddr7"};

// Names that do not identify a model: ROCm reports "AMD Radeon Graphics" for MI250 GCDs.
constexpr std::string_view kGenericNames[] = {"radeon graphics"};

// Architectures for which every product ROCm lists (ROCm "GPU hardware specifications",
// https://rocm.docs.amd.com/en/latest/reference/gpu-arch-specs.html) is in the table, so that
// narrowing a generic name by architecture and CU count cannot land on a missing sibling.
// gfx1100 is not here: the RX 7900 XT/GRE and Radeon PRO W7900/W7800 share it.
constexpr std::string_view kCompleteArchitectures[] = {"gfx908", "gfx90a", "gfx942", "gfx950"};

// A device name split into the part that names the model and the parts that pick a variant.
struct ParsedName {
  std::string exact;  // every token, brand words dropped: "a100 sxm4 40gb"
  std::string model;  // without form factor, memory size and memory type: "a100"
  std::string form;   // "sxm", "pcie", "nvl" or ""
  int memory_gb = 0;  // 0 = not in the name
};

ParsedName ParseName(std::string_view name) {
  std::vector<std::string> tokens;
  std::string current;
  for (char c : name) {
    if (std::isalnum(static_cast<unsigned char>(c))) {
      current += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    } else if (!current.empty()) {
      tokens.push_back(std::move(current));
      current.clear();
    }
  }
  if (!current.empty()) tokens.push_back(std::move(current));
  // "80 GB" and "80GB" are the same size.
  std::vector<std::string> merged;
  for (std::string& t : tokens) {
    bool digits = !merged.empty() && std::all_of(merged.back().begin(), merged.back().end(),
                                                 [](char c) { return std::isdigit(c); });
    if (t == "gb" && digits) {
      merged.back() += "gb";
    } else if (!Contains(kBrandWords, t)) {
      merged.push_back(std::move(t));
    }
  }
  ParsedName parsed;
  auto append = [](std::string* s, const std::string& t) { *s += (s->empty() ? "" : " ") + t; };
  for (const std::string& t : merged) {
    append(&parsed.exact, t);
    bool is_size = t.size() > 2 && t.ends_with("gb") &&
                   std::all_of(t.begin(), t.end() - 2, [](char c) { return std::isdigit(c); });
    if (is_size) {
      parsed.memory_gb = std::stoi(t.substr(0, t.size() - 2));
    } else if (t.starts_with("sxm")) {
      parsed.form = "sxm";
    } else if (t == "pcie" || t == "nvl") {
      parsed.form = t;
    } else if (!Contains(kMemoryTypeWords, t)) {
      append(&parsed.model, t);
    }
  }
  return parsed;
}

std::optional<double> Value(const DeviceSpec& d, Metric m) {
  const std::optional<Figure>& f = d.Get(m);
  return f ? std::optional<double>(f->value) : std::nullopt;
}

int NominalMemoryGb(const DeviceSpec& d, const ParsedName& name) {
  if (name.memory_gb > 0) return name.memory_gb;
  std::optional<double> bytes = Value(d, Metric::kMemoryBytes);
  return bytes ? static_cast<int>(std::llround(*bytes / (1024.0 * 1024 * 1024))) : 0;
}

// Does the query's architecture allow this entry? A ROCm "9.4" (HIP's major.minor, as Kineto
// writes it) names gfx94x, so it is compared as a prefix.
bool ArchitectureAllows(const DeviceQuery& q, const DeviceSpec& d) {
  if (q.architecture.empty() || d.architecture.empty()) return true;
  std::string arch = NormalizeArchitecture(q.architecture);
  if (q.backend == Backend::kRocm && arch.starts_with("sm_")) {
    return d.architecture.starts_with("gfx" + arch.substr(3));
  }
  return arch == d.architecture;
}

bool ComputeUnitsAllow(const DeviceQuery& q, const DeviceSpec& d) {
  std::optional<double> units = Value(d, Metric::kComputeUnits);
  if (!q.compute_units) return !d.name_covers_variants;
  if (!units) return true;
  auto total = static_cast<int64_t>(std::llround(*units));
  return *q.compute_units == total || *q.compute_units * d.devices_per_package == total;
}

bool MemoryAllows(const DeviceQuery& q, const DeviceSpec& d) {
  std::optional<double> bytes = Value(d, Metric::kMemoryBytes);
  if (!q.memory_bytes || !bytes) return true;
  double per_device = *bytes / d.devices_per_package;
  return std::abs(static_cast<double>(*q.memory_bytes) - per_device) <=
         kMemoryTolerance * per_device;
}

// The entries a name can mean: exact names (aliases and display names) first, else the model
// with a compatible form factor and memory size; for a generic name, every entry of the given
// architecture.
std::vector<const DeviceSpec*> NameCandidates(const std::vector<DeviceSpec>& devices,
                                              const DeviceQuery& query, const ParsedName& q,
                                              bool generic, std::string* how) {
  std::vector<const DeviceSpec*> named;
  if (generic) {
    *how = "by architecture (generic name)";
    for (const DeviceSpec& d : devices) {
      if (!d.architecture.empty() && ArchitectureAllows(query, d)) named.push_back(&d);
    }
    return named;
  }
  *how = "by name";
  for (const DeviceSpec& d : devices) {
    bool exact = ParseName(d.name).exact == q.exact;
    for (const std::string& alias : d.aliases) exact = exact || ParseName(alias).exact == q.exact;
    if (exact) named.push_back(&d);
  }
  if (!named.empty()) return named;
  *how = "by model, form factor and memory size";
  for (const DeviceSpec& d : devices) {
    ParsedName e = ParseName(d.name);
    if (e.model != q.model) continue;
    if (!q.form.empty() && !e.form.empty() && q.form != e.form) continue;
    int gb = NominalMemoryGb(d, e);
    if (q.memory_gb > 0 && gb > 0 && q.memory_gb != gb) continue;
    named.push_back(&d);
  }
  return named;
}

// Why what the trace reports rules this entry out; empty when it does not.
std::string Disagreement(const DeviceQuery& query, const DeviceSpec& d) {
  if (query.backend && *query.backend != d.backend) {
    return fmt::format("backend {} is not {}", BackendName(*query.backend), BackendName(d.backend));
  }
  if (!ArchitectureAllows(query, d)) {
    return fmt::format("architecture {} is not {}", query.architecture, d.architecture);
  }
  if (!ComputeUnitsAllow(query, d)) {
    if (!query.compute_units) {
      return "the name also covers binned variants: the compute-unit count is needed to "
             "confirm it";
    }
    return fmt::format("{} compute units do not fit {}", *query.compute_units,
                       Value(d, Metric::kComputeUnits).value_or(0));
  }
  if (!MemoryAllows(query, d)) {
    return fmt::format("{} bytes of memory do not fit its {:.0f}", *query.memory_bytes,
                       Value(d, Metric::kMemoryBytes).value_or(0) / d.devices_per_package);
  }
  return "";
}

std::string Keys(const std::vector<const DeviceSpec*>& specs) {
  std::string out;
  for (const DeviceSpec* d : specs) out += (out.empty() ? "" : ", ") + d->key;
  return out;
}

// "gfx90a" for a name that is an AMD gfx target ("gfx90a", "gfx942:sramecc+:xnack-"), as JAX and
// rocprof name a device they know no product name for; "" for any other name.
std::string GfxTargetName(std::string_view name) {
  std::string arch = NormalizeArchitecture(name);
  if (arch.size() < 6 || !arch.starts_with("gfx")) return "";
  const bool hex = std::all_of(arch.begin() + 3, arch.end(),
                               [](char c) { return std::isxdigit(static_cast<unsigned char>(c)); });
  return hex ? arch : "";
}

// Does the name name this entry's model: are its model tokens ("mi300x", "rtx 4090") a run of the
// name's tokens, with no form factor or memory size in the name that contradicts the entry's?
// "AMD Instinct MI300X VF" names MI300X; "Tesla V100-DGXS-32GB" names V100 (and 32 GB);
// "NVIDIA H800" names no H100 though its SMs and memory are those of one; "NVIDIA H200 NVL" is
// not the H200 SXM (same SMs and memory, lower clocks).
bool NameNamesModel(const ParsedName& name, const DeviceSpec& d) {
  const ParsedName entry = ParseName(d.name);
  if (entry.model.empty()) return false;
  if (!name.form.empty() && name.form != entry.form) return false;
  if (name.memory_gb > 0 && name.memory_gb != NominalMemoryGb(d, entry)) return false;
  const std::string padded = " " + name.exact + " ";
  return padded.find(" " + entry.model + " ") != std::string::npos;
}

std::string_view UnitWord(const DeviceQuery& query) {
  return query.backend == Backend::kCuda ? "SM count" : "CU count";
}

// The entries whose architecture, SM/CU count and memory size the query's hardware fits.
std::vector<const DeviceSpec*> HardwareFits(const std::vector<DeviceSpec>& devices,
                                            const DeviceQuery& query) {
  std::vector<const DeviceSpec*> fit;
  for (const DeviceSpec& d : devices) {
    if (!d.architecture.empty() && Disagreement(query, d).empty()) fit.push_back(&d);
  }
  return fit;
}

// "architecture 9.4, 304 CUs, 192.0 GiB": what the trace reported, for the reasons below.
std::string HardwareText(const DeviceQuery& query) {
  return fmt::format(
      "architecture {}, {} {}{}", query.architecture, query.compute_units.value_or(0),
      query.backend == Backend::kCuda ? "SMs" : "CUs",
      query.memory_bytes ? fmt::format(", {:.1f} GiB", static_cast<double>(*query.memory_bytes) /
                                                           (1024.0 * 1024 * 1024))
                         : "");
}

// A device without a name (JAX's XPlane on ROCm, some vLLM traces), matched on its hardware
// alone: backend, architecture, SM/CU count and memory size must all be reported and fit
// exactly one entry. A product the table does not list with the same hardware (the H800 has the
// H100's SMs and memory) would read as that entry, so the reason says the match is by hardware
// and what it rests on; several entries that fit are listed and none is picked.
DeviceMatch MatchUnnamed(const std::vector<DeviceSpec>& devices, const DeviceQuery& query) {
  DeviceMatch match;
  const bool gpu =
      query.backend && (*query.backend == Backend::kCuda || *query.backend == Backend::kRocm);
  if (!gpu || query.architecture.empty() || !query.compute_units || !query.memory_bytes) {
    match.reason = fmt::format(
        "the trace does not name the device, nor report the architecture, {} and memory size "
        "that would identify it by its hardware",
        UnitWord(query));
    return match;
  }
  const std::vector<const DeviceSpec*> fit = HardwareFits(devices, query);
  const std::string hardware = HardwareText(query);
  if (fit.size() == 1) {
    match.spec = fit[0];
    match.reason = fmt::format(
        "matched by hardware: the trace does not name the device, and its {} fit only {} (a "
        "product the table does not list with the same hardware would read as it)",
        hardware, fit[0]->name);
  } else if (fit.size() > 1) {
    match.candidates = fit;
    match.reason = fmt::format(
        "the trace does not name the device, and its hardware ({}) fits {} entries: {}; none "
        "is picked",
        hardware, fit.size(), Keys(fit));
  } else {
    match.reason = fmt::format(
        "the trace does not name the device, and no entry has its hardware ({})", hardware);
  }
  return match;
}

// A name the table does not know, matched on what the hardware reports: vendor (backend),
// architecture, SM/CU count and, when given, memory size. The entry must also be named inside the
// device's name: a virtual function ("MI300X VF"), a workstation board ("V100-DGXS") or a
// two-model name ("MI250X / MI250") is the chip it names, while a cut-down model under another
// name (H800, A800) shares SMs and memory with an entry but not all of its ceilings.
DeviceMatch MatchByHardware(const std::vector<DeviceSpec>& devices, const DeviceQuery& query,
                            const ParsedName& q) {
  DeviceMatch match;
  if (query.backend && *query.backend != Backend::kCuda && *query.backend != Backend::kRocm) {
    match.reason = fmt::format("no entry is named \"{}\"", query.name);
    return match;
  }
  if (query.architecture.empty() || !query.compute_units) {
    match.reason = fmt::format(
        "no entry is named \"{}\", and the trace does not give the architecture and {} that "
        "would identify it by its hardware",
        query.name, UnitWord(query));
    return match;
  }
  const std::vector<const DeviceSpec*> fit = HardwareFits(devices, query);
  std::vector<const DeviceSpec*> named;
  for (const DeviceSpec* d : fit) {
    if (NameNamesModel(q, *d)) named.push_back(d);
  }
  const std::string hardware = HardwareText(query);
  if (named.size() == 1) {
    match.spec = named[0];
    match.reason =
        fmt::format("matched by architecture{} (\"{}\" is not in the table; it names {}: {})",
                    query.memory_bytes ? fmt::format(", {} and memory size", UnitWord(query))
                                       : fmt::format(" and {}", UnitWord(query)),
                    query.name, named[0]->name, hardware);
  } else if (named.size() > 1) {
    match.candidates = named;
    match.reason = fmt::format(
        "\"{}\" is not a name in the table, and {} entries fit its name and hardware ({}): {}",
        query.name, named.size(), hardware, Keys(named));
  } else if (!fit.empty()) {
    match.candidates = fit;
    match.reason = fmt::format(
        "no entry is named \"{}\"; its hardware ({}) fits {}, but the name names none of them "
        "(another model can have the same SMs and memory, as the H800 has the H100's)",
        query.name, hardware, Keys(fit));
  } else {
    match.reason =
        fmt::format("no entry is named \"{}\" or has its hardware ({})", query.name, hardware);
  }
  return match;
}

}  // namespace

const char* ConfidenceName(Confidence confidence) {
  switch (confidence) {
    case Confidence::kVendor:
      return "vendor";
    case Confidence::kReported:
      return "reported";
    case Confidence::kDerived:
      return "derived";
    case Confidence::kThirdParty:
      return "third-party";
    case Confidence::kUnconfirmed:
      return "unconfirmed";
    case Confidence::kSpecFile:
      return "spec-file";
  }
  return "unconfirmed";
}

const char* MetricName(Metric metric) {
  return kMetricNames[static_cast<int>(metric)];
}

std::optional<Metric> ParseMetric(std::string_view name) {
  for (int i = 0; i < kMetricCount; ++i) {
    if (name == kMetricNames[i]) return static_cast<Metric>(i);
  }
  return std::nullopt;
}

bool MetricIsInteger(Metric metric) {
  return metric == Metric::kMemoryBandwidthBytesPerS || metric == Metric::kHostLinkBytesPerS ||
         metric == Metric::kComputeUnits || metric == Metric::kBoostClockHz ||
         metric == Metric::kL2CacheBytes || metric == Metric::kMemoryBytes;
}

std::string NormalizeArchitecture(std::string_view architecture) {
  std::string a;
  for (char c : architecture) {
    if (c == ':') break;  // gfx90a:sramecc+:xnack- -> gfx90a
    if (!std::isspace(static_cast<unsigned char>(c))) {
      a += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    }
  }
  if (a.starts_with("sm_")) a = a.substr(3);
  if (a.starts_with("sm")) a = a.substr(2);
  // Compute capability "8.6" or "86" (also "12.0" / "120").
  std::string digits;
  for (char c : a) {
    if (std::isdigit(static_cast<unsigned char>(c))) {
      digits += c;
    } else if (c != '.') {
      return a;
    }
  }
  if (digits.size() < 2 || digits.size() > 3) return a;
  return "sm_" + digits;
}

DeviceMatch MatchDevice(const std::vector<DeviceSpec>& devices, const DeviceQuery& query_in) {
  DeviceMatch match;
  ParsedName q = ParseName(query_in.name);
  if (q.exact.empty()) return MatchUnnamed(devices, query_in);
  // A gfx target as the name is generic too: it says the architecture and nothing more.
  DeviceQuery query = query_in;
  const std::string gfx_name = GfxTargetName(query.name);
  if (!gfx_name.empty() && query.architecture.empty()) query.architecture = gfx_name;
  const bool generic = Contains(kGenericNames, q.exact) || !gfx_name.empty();
  if (generic && query.architecture.empty()) {
    match.reason = fmt::format(
        "\"{}\" is a generic name; the architecture (gfx...) is needed to tell devices apart",
        query.name);
    return match;
  }
  std::string how;
  std::vector<const DeviceSpec*> named = NameCandidates(devices, query, q, generic, &how);
  if (named.empty() && !generic) return MatchByHardware(devices, query, q);
  if (named.empty()) {
    match.reason = generic
                       ? fmt::format("\"{}\" is a generic name and no entry has architecture {}",
                                     query.name, query.architecture)
                       : fmt::format("no entry is named \"{}\"", query.name);
    return match;
  }
  // Everything else the trace says must agree; the first disagreement explains an empty result.
  std::vector<const DeviceSpec*> kept;
  std::string rejected;
  for (const DeviceSpec* d : named) {
    std::string why = Disagreement(query, *d);
    if (why.empty()) {
      kept.push_back(d);
    } else if (rejected.empty()) {
      rejected = fmt::format("{} ({}): {}", d->key, d->name, why);
    }
  }
  if (kept.empty()) {
    match.candidates = named;
    match.reason = "the name fits, but the trace disagrees with the table: " + rejected;
  } else if (kept.size() > 1) {
    match.candidates = kept;
    match.reason = fmt::format("ambiguous: {} entries fit ({})", kept.size(), Keys(kept));
  } else if (generic && !Contains(kCompleteArchitectures, kept[0]->architecture)) {
    match.candidates = kept;
    match.reason = fmt::format(
        "generic name: {} is shared by products the table does not list, so {} cannot be "
        "confirmed",
        kept[0]->architecture, kept[0]->key);
  } else {
    match.spec = kept[0];
    match.reason = "matched " + how;
  }
  return match;
}

// ------------------------------------------------------------------------------------------------
// --device-spec files.

namespace {

using nlohmann::json;

constexpr const char* kSpecSchema = "tensormorph.device-spec/1";

// Keys a device entry may carry besides the metric names; anything else is a typo to report.
constexpr std::string_view kEntryKeys[] = {"key",
                                           "name",
                                           "aliases",
                                           "vendor",
                                           "backend",
                                           "architecture",
                                           "source",
                                           "sources",
                                           "notes",
                                           "devices_per_package",
                                           "name_covers_variants"};

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

// Applies one entry of "devices"; `where` is "FILE: devices[i]" for messages.
Status ApplyEntry(const json& entry, const std::string& where, const std::string& path,
                  std::vector<DeviceSpec>* devices, std::set<std::string>* seen) {
  auto fail = [&](const std::string& what) { return UnreadableInput(where + ": " + what); };
  if (!entry.is_object()) return fail("expected an object, got " + Shown(entry));
  auto key_it = entry.find("key");
  if (key_it == entry.end() || !key_it->is_string() || key_it->get<std::string>().empty()) {
    return fail("\"key\" is missing or not a non-empty string");
  }
  const std::string key = key_it->get<std::string>();
  const std::string at = fmt::format("{} (\"{}\")", where, key);
  auto fail_at = [&](const std::string& field, const std::string& what) {
    return UnreadableInput(fmt::format("{}: {}: {}", at, field, what));
  };
  if (!seen->insert(key).second) return fail_at("key", "this key appears twice in the file");
  for (const auto& [name, value] : entry.items()) {
    if (!Contains(kEntryKeys, name) && !ParseMetric(name)) {
      return fail_at(name, "unknown key (see docs/devices.md for the fields)");
    }
  }
  auto text = [&](const char* field, std::string* out) -> Status {
    auto it = entry.find(field);
    if (it == entry.end()) return Status::Ok();
    if (!it->is_string()) return fail_at(field, "expected a string, got " + Shown(*it));
    *out = it->get<std::string>();
    return Status::Ok();
  };
  auto existing = std::find_if(devices->begin(), devices->end(),
                               [&](const DeviceSpec& d) { return d.key == key; });
  bool adding = existing == devices->end();
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
    if (Status s = text(f.name, f.target); !s.ok()) return s;
  }
  spec.architecture = NormalizeArchitecture(spec.architecture);
  std::string source = "spec file " + path;
  if (Status s = text("source", &source); !s.ok()) return s;
  if (auto it = entry.find("backend"); it != entry.end()) {
    std::optional<Backend> backend =
        it->is_string() ? ParseBackend(it->get<std::string>()) : std::nullopt;
    if (!backend) {
      return fail_at("backend",
                     "expected one of cpu, cuda, rocm, metal, webgpu, other; got " + Shown(*it));
    }
    spec.backend = *backend;
  }
  if (auto it = entry.find("aliases"); it != entry.end()) {
    if (!it->is_array()) return fail_at("aliases", "expected an array of strings");
    spec.aliases.clear();
    for (const json& alias : *it) {
      if (!alias.is_string()) return fail_at("aliases", "expected strings, got " + Shown(alias));
      spec.aliases.push_back(alias.get<std::string>());
    }
  }
  if (auto it = entry.find("devices_per_package"); it != entry.end()) {
    if (!it->is_number_integer() || it->get<int64_t>() < 1 || it->get<int64_t>() > 64) {
      return fail_at("devices_per_package", "expected an integer from 1 to 64, got " + Shown(*it));
    }
    spec.devices_per_package = it->get<int>();
  }
  if (auto it = entry.find("name_covers_variants"); it != entry.end()) {
    if (!it->is_boolean()) return fail_at("name_covers_variants", "expected true or false");
    spec.name_covers_variants = it->get<bool>();
  }
  const json* sources = nullptr;
  if (auto it = entry.find("sources"); it != entry.end()) {
    if (!it->is_object()) return fail_at("sources", R"(expected an object {"field": "source"})");
    for (const auto& [name, value] : it->items()) {
      if (!ParseMetric(name)) return fail_at("sources", "\"" + name + "\" is not a figure");
      if (!value.is_string()) return fail_at("sources." + name, "expected a string");
      if (!entry.contains(name)) return fail_at("sources." + name, "this figure is not given");
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
    bool integral = MetricIsInteger(metric);
    double v = it->is_number() ? it->get<double>() : NAN;
    if (!std::isfinite(v) || v <= 0 || (integral && v != std::floor(v)) || v > 1e21) {
      return fail_at(MetricName(metric), fmt::format("expected a positive {}, got {}",
                                                     integral ? "integer" : "number", Shown(*it)));
    }
    Figure figure{v, Confidence::kSpecFile, source};
    if (sources && sources->contains(MetricName(metric))) {
      figure.source = (*sources)[MetricName(metric)].get<std::string>();
    }
    spec.Get(metric) = figure;
  }
  if (adding) {
    if (spec.name.empty()) return fail_at("name", "a new device needs a name");
    if (!entry.contains("backend")) return fail_at("backend", "a new device needs a backend");
    if (spec.aliases.empty()) spec.aliases.push_back(spec.name);
    if (spec.identity_source.empty()) spec.identity_source = source;
    devices->push_back(std::move(spec));
  } else {
    *existing = std::move(spec);
  }
  return Status::Ok();
}

}  // namespace

StatusOr<std::vector<DeviceSpec>> ApplyDeviceSpecText(std::string_view text,
                                                      const std::string& path,
                                                      std::vector<DeviceSpec> base) {
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
    if (name != "schema" && name != "devices") {
      return UnreadableInput(
          fmt::format("{}: {}: unknown key (expected schema, devices)", path, name));
    }
  }
  if (auto it = doc.find("schema"); it != doc.end() && *it != kSpecSchema) {
    return UnreadableInput(
        fmt::format("{}: schema: expected \"{}\", got {}", path, kSpecSchema, Shown(*it)));
  }
  auto list = doc.find("devices");
  if (list == doc.end() || !list->is_array()) {
    return UnreadableInput(path + ": devices: missing or not an array");
  }
  std::set<std::string> seen;
  for (size_t i = 0; i < list->size(); ++i) {
    Status s = ApplyEntry((*list)[i], fmt::format("{}: devices[{}]", path, i), path, &base, &seen);
    if (!s.ok()) return s;
  }
  return base;
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
  return ApplyDeviceSpecText(text.str(), path, std::move(base));
}

}  // namespace tensormorph
