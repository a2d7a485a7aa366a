// `tensormorph devices`: the device database (built-in table plus --device-spec files), and with
// --match NAME which entry a device name resolves to.
#include <fmt/format.h>

#include <cmath>
#include <iostream>
#include <memory>

#include "cli/commands.h"
#include "cli/common.h"
#include "report/csv.h"
#include "report/json_output.h"
#include "report/table.h"
#include "tensormorph/devices/device_db.h"

namespace tensormorph {
namespace {

struct DevicesOptions {
  std::string format = "table";
  std::vector<std::string> spec_files;
  std::string match;
  std::string arch;
  std::string backend;
  int64_t compute_units = 0;
  int64_t memory_bytes = 0;
};

// The table shows these, in this order, with a scale and a unit in the header.
struct Column {
  Metric metric;
  const char* header;
  double scale;
};
constexpr Column kColumns[] = {
    {Metric::kFp64FlopsPerS, "FP64", 1e12},
    {Metric::kFp64MatrixFlopsPerS, "FP64mx", 1e12},
    {Metric::kFp32FlopsPerS, "FP32", 1e12},
    {Metric::kFp32MatrixFlopsPerS, "FP32mx", 1e12},
    {Metric::kTf32MatrixFlopsPerS, "TF32mx", 1e12},
    {Metric::kFp16MatrixFlopsPerS, "FP16mx", 1e12},
    {Metric::kBf16MatrixFlopsPerS, "BF16mx", 1e12},
    {Metric::kFp8MatrixFlopsPerS, "FP8mx", 1e12},
    {Metric::kFp6MatrixFlopsPerS, "FP6mx", 1e12},
    {Metric::kFp4MatrixFlopsPerS, "FP4mx", 1e12},
    {Metric::kInt8MatrixOpsPerS, "INT8mx", 1e12},
    {Metric::kMemoryBandwidthBytesPerS, "GB/s", 1e9},
    {Metric::kHostLinkBytesPerS, "Link GB/s", 1e9},
    {Metric::kComputeUnits, "Units", 1},
    {Metric::kBoostClockHz, "MHz", 1e6},
    {Metric::kL2CacheBytes, "L2 MiB", 1024.0 * 1024},
    {Metric::kMemoryBytes, "Mem GiB", 1024.0 * 1024 * 1024},
};

// One character after a figure in the table says how sure it is; the legend repeats this.
const char* Mark(Confidence c) {
  switch (c) {
    case Confidence::kVendor:
    case Confidence::kReported:
      return "";
    case Confidence::kDerived:
      return "~";
    case Confidence::kThirdParty:
      return "*";
    case Confidence::kUnconfirmed:
      return "?";
    case Confidence::kSpecFile:
      return "!";
  }
  return "?";
}

std::string Cell(const DeviceSpec& d, const Column& c) {
  const std::optional<Figure>& f = d.Get(c.metric);
  if (!f) return "-";
  // About four significant digits without exponents: 0.47, 19.5, 494.5, 1979.
  double v = f->value / c.scale;
  int decimals = v == std::floor(v) ? 0 : v < 1 ? 2 : v < 1000 ? 1 : 0;
  return fmt::format("{:.{}f}{}", v, decimals, Mark(f->confidence));
}

Json FigureValue(const std::optional<Figure>& f, Metric m) {
  if (!f) return nullptr;
  if (MetricIsInteger(m)) return static_cast<int64_t>(std::llround(f->value));
  return f->value;
}

Json DescribeDevice(const DeviceSpec& d) {
  Json aliases = Json::array();
  for (const std::string& a : d.aliases) aliases.push_back(a);
  Json out = {{"key", d.key},
              {"name", d.name},
              {"aliases", std::move(aliases)},
              {"vendor", d.vendor},
              {"backend", BackendName(d.backend)},
              {"architecture", d.architecture},
              {"devices_per_package", d.devices_per_package},
              {"name_covers_variants", d.name_covers_variants}};
  Json sources = Json::array();
  for (int i = 0; i < kMetricCount; ++i) {
    auto m = static_cast<Metric>(i);
    out[MetricName(m)] = FigureValue(d.Get(m), m);
    if (const std::optional<Figure>& f = d.Get(m)) {
      sources.push_back({{"field", MetricName(m)},
                         {"confidence", ConfidenceName(f->confidence)},
                         {"source", f->source}});
    }
  }
  out["sources"] = std::move(sources);
  out["identity_source"] = d.identity_source;
  out["notes"] = d.notes;
  return out;
}

std::vector<std::string> CsvHeader() {
  std::vector<std::string> h = {"key", "name", "vendor", "backend", "architecture"};
  for (int i = 0; i < kMetricCount; ++i) h.emplace_back(MetricName(static_cast<Metric>(i)));
  for (const char* extra : {"devices_per_package", "aliases", "sources"}) h.emplace_back(extra);
  return h;
}

std::vector<std::string> CsvRow(const DeviceSpec& d) {
  std::vector<std::string> row = {d.key, d.name, d.vendor, BackendName(d.backend), d.architecture};
  std::string sources;
  for (int i = 0; i < kMetricCount; ++i) {
    auto m = static_cast<Metric>(i);
    const std::optional<Figure>& f = d.Get(m);
    if (!f) {
      row.emplace_back();
      continue;
    }
    row.push_back(MetricIsInteger(m) ? std::to_string(std::llround(f->value))
                                     : fmt::format("{:.6g}", f->value));
    sources += fmt::format("{}{}: {}: {}", sources.empty() ? "" : " | ", MetricName(m),
                           ConfidenceName(f->confidence), f->source);
  }
  std::string aliases;
  for (const std::string& a : d.aliases) aliases += (aliases.empty() ? "" : "; ") + a;
  row.push_back(std::to_string(d.devices_per_package));
  row.push_back(aliases);
  row.push_back(sources);
  return row;
}

void PrintTable(std::ostream& out, const std::vector<const DeviceSpec*>& devices) {
  TextTable table;
  using A = TextTable::Align;
  table.AddColumn("Key", A::kLeft);
  table.AddColumn("Name", A::kLeft, 34);
  table.AddColumn("Arch", A::kLeft);
  for (const Column& c : kColumns) table.AddColumn(c.header, A::kRight);
  for (const DeviceSpec* d : devices) {
    std::vector<std::string> cells = {d->key, d->name, d->architecture};
    for (const Column& c : kColumns) cells.push_back(Cell(*d, c));
    table.AddRow(std::move(cells));
  }
  table.Print(out);
  out << "\nFLOP/s in TFLOPS (INT8: TOPS), dense; mx = tensor/matrix units, 16-bit with FP32 "
         "accumulation.\nNo mark: vendor document or reported by the device; ~ derived; "
         "* third-party copy of a vendor figure; ? unconfirmed; ! --device-spec file; - unknown.\n"
         "`--format json` gives every figure's source.\n";
}

void PrintMatchTable(std::ostream& out, const DeviceQuery& q, const DeviceMatch& m) {
  if (!m.matched()) {
    out << fmt::format("\"{}\": unmatched: {}\n", q.name, m.reason);
    for (const DeviceSpec* c : m.candidates) {
      out << fmt::format("  candidate {} ({})\n", c->key, c->name);
    }
    out << "No figures are used for an unmatched device; --device-spec can add it.\n";
    return;
  }
  const DeviceSpec& d = *m.spec;
  out << fmt::format("\"{}\" -> {} ({}), {}\n", q.name, d.key, d.name, m.reason);
  out << fmt::format("  vendor {}, backend {}, architecture {}\n",
                     d.vendor.empty() ? "-" : d.vendor, BackendName(d.backend),
                     d.architecture.empty() ? "-" : d.architecture);
  for (int i = 0; i < kMetricCount; ++i) {
    auto metric = static_cast<Metric>(i);
    const std::optional<Figure>& f = d.Get(metric);
    if (!f) continue;
    std::string value = MetricIsInteger(metric) ? std::to_string(std::llround(f->value))
                                                : fmt::format("{:.4g}", f->value);
    out << fmt::format("  {:<30} {:>16}  {:<11}  {}\n", MetricName(metric), value,
                       ConfidenceName(f->confidence), f->source);
  }
  if (d.devices_per_package > 1) {
    out << fmt::format("  figures are per package of {} devices\n", d.devices_per_package);
  }
  if (!d.notes.empty()) out << "  notes: " << d.notes << '\n';
}

int Run(const DevicesOptions& o) {
  std::vector<DeviceSpec> devices;
  if (int rc = LoadDevices(o.spec_files, &devices); rc != kExitOk) return rc;
  OutputFormat format = ParseOutputFormat(o.format).value_or(OutputFormat::kTable);
  Json spec_files = Json::array();
  for (const std::string& p : o.spec_files) spec_files.push_back(p);

  if (o.match.empty()) {
    std::vector<const DeviceSpec*> all;
    all.reserve(devices.size());
    for (const DeviceSpec& d : devices) all.push_back(&d);
    if (format == OutputFormat::kJson) {
      Json list = Json::array();
      for (const DeviceSpec* d : all) list.push_back(DescribeDevice(*d));
      WriteJson(std::cout, {{"schema", "tensormorph.devices/1"},
                            {"spec_files", spec_files},
                            {"device_count", all.size()},
                            {"devices", std::move(list)}});
    } else if (format == OutputFormat::kCsv) {
      WriteCsvRow(std::cout, CsvHeader());
      for (const DeviceSpec* d : all) WriteCsvRow(std::cout, CsvRow(*d));
    } else {
      PrintTable(std::cout, all);
    }
    return kExitOk;
  }

  DeviceQuery q;
  q.name = o.match;
  q.architecture = o.arch;
  q.backend = ParseBackend(o.backend);
  if (o.compute_units > 0) q.compute_units = o.compute_units;
  if (o.memory_bytes > 0) q.memory_bytes = o.memory_bytes;
  DeviceMatch m = MatchDevice(devices, q);
  if (format == OutputFormat::kJson) {
    Json candidates = Json::array();
    for (const DeviceSpec* c : m.candidates) candidates.push_back(c->key);
    Json list = Json::array();
    if (m.matched()) list.push_back(DescribeDevice(*m.spec));
    Json query = {{"name", q.name}, {"architecture", q.architecture}};
    query["backend"] = q.backend ? Json(BackendName(*q.backend)) : Json(nullptr);
    query["compute_units"] = q.compute_units ? Json(*q.compute_units) : Json(nullptr);
    query["memory_bytes"] = q.memory_bytes ? Json(*q.memory_bytes) : Json(nullptr);
    Json match = {{"query", std::move(query)},
                  {"matched", m.matched()},
                  {"key", m.matched() ? Json(m.spec->key) : Json(nullptr)},
                  {"reason", m.reason},
                  {"candidates", std::move(candidates)}};
    WriteJson(std::cout, {{"schema", "tensormorph.devices/1"},
                          {"spec_files", spec_files},
                          {"match", std::move(match)},
                          {"device_count", list.size()},
                          {"devices", std::move(list)}});
  } else if (format == OutputFormat::kCsv) {
    WriteCsvRow(std::cout, {"query", "matched", "key", "reason", "candidates"});
    std::string candidates;
    for (const DeviceSpec* c : m.candidates)
      candidates += (candidates.empty() ? "" : "; ") + c->key;
    WriteCsvRow(std::cout, {q.name, m.matched() ? "true" : "false", m.matched() ? m.spec->key : "",
                            m.reason, candidates});
  } else {
    PrintMatchTable(std::cout, q, m);
  }
  return kExitOk;
}

}  // namespace

CommandRunner AddDevicesCommand(CLI::App* app) {
  auto options = std::make_shared<DevicesOptions>();
  CLI::App* command = app->add_subcommand(
      "devices",
      "the device database: peak FLOP/s per precision, memory bandwidth and sizes, "
      "each with its source; --match shows what a device name resolves to");
  command->add_option("--format", options->format, "output format")
      ->check(CLI::IsMember({"table", "json", "csv"}))
      ->capture_default_str();
  command->add_option("--device-spec", options->spec_files,
                      "JSON file adding devices or overriding figures (docs/devices.md); "
                      "may be given more than once");
  CLI::Option* match = command->add_option("--match", options->match,
                                           "show which entry this device name resolves to");
  // The rest describe the device being matched, so they only make sense with --match.
  command
      ->add_option("--arch", options->arch,
                   "with --match: architecture or compute capability (sm_80, 8.0, gfx90a)")
      ->needs(match);
  command->add_option("--backend", options->backend, "with --match: the device's backend")
      ->check(CLI::IsMember({"cpu", "cuda", "rocm", "metal", "webgpu", "other"}))
      ->needs(match);
  command
      ->add_option("--compute-units", options->compute_units,
                   "with --match: SMs / CUs / GPU cores the device reports")
      ->check(CLI::PositiveNumber)
      ->needs(match);
  command
      ->add_option("--memory-bytes", options->memory_bytes,
                   "with --match: device memory the runtime reports, in bytes")
      ->check(CLI::PositiveNumber)
      ->needs(match);
  return [options]() { return Run(*options); };
}

}  // namespace tensormorph
