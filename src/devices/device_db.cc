#include "tensormorph/devices/device_db.h"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <iterator>

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
    "fp6_matrix_flops_per_s",
    "fp4_matrix_flops_per_s",
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
// A100 40GB, 79.1 GiB on an H100 80GB, 268 GiB on a B300 288GB, 250.7 GiB on a GB300 288GB: 13 %)
// and never far above it, but far from the next size up (an H100's 79.1 GiB is 16 % below the
// H100 NVL's 94 GB; 10 vs 12 GB and 12 vs 16 GB are further apart still).
constexpr double kMemoryBelowNominal = 0.15;
constexpr double kMemoryAboveNominal = 0.08;

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
  const auto reported = static_cast<double>(*q.memory_bytes);
  return reported >= (1 - kMemoryBelowNominal) * per_device &&
         reported <= (1 + kMemoryAboveNominal) * per_device;
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

}  // namespace tensormorph
