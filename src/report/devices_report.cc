#include "report/devices_report.h"

#include <fmt/format.h>

#include <cmath>
#include <utility>

#include "report/columns.h"
#include "report/csv.h"
#include "report/json_output.h"
#include "report/table.h"

namespace tensormorph {
namespace {

using Dev = DeviceSpec;

std::string JoinText(const std::vector<std::string>& parts, const char* separator) {
  std::string out;
  for (const std::string& p : parts) out += (out.empty() ? "" : separator) + p;
  return out;
}

Json FigureJson(const Dev& d, Metric m) {
  const std::optional<Figure>& f = d.Get(m);
  if (!f) return nullptr;
  if (MetricIsInteger(m)) return static_cast<int64_t>(std::llround(f->value));
  return f->value;
}

std::string FigureCsv(const Dev& d, Metric m) {
  const std::optional<Figure>& f = d.Get(m);
  if (!f) return "";
  return MetricIsInteger(m) ? std::to_string(std::llround(f->value))
                            : fmt::format("{:.6g}", f->value);
}

// One column per figure, named as the metric (its unit in the name).
template <int I>
Column<Dev> FigureColumn() {
  return {MetricName(static_cast<Metric>(I)),
          [](const Dev& d) { return FigureJson(d, static_cast<Metric>(I)); },
          [](const Dev& d) { return FigureCsv(d, static_cast<Metric>(I)); }};
}

const Column<Dev> kIdentityColumns[] = {
    {"key", [](const Dev& d) { return Json(d.key); }, [](const Dev& d) { return d.key; }},
    {"name", [](const Dev& d) { return Json(d.name); }, [](const Dev& d) { return d.name; }},
    {"aliases", [](const Dev& d) { return Json(d.aliases); }},
    {"vendor", [](const Dev& d) { return Json(d.vendor); }, [](const Dev& d) { return d.vendor; }},
    {"backend", [](const Dev& d) { return Json(BackendName(d.backend)); },
     [](const Dev& d) { return std::string(BackendName(d.backend)); }},
    {"architecture", [](const Dev& d) { return Json(d.architecture); },
     [](const Dev& d) { return d.architecture; }},
    {"devices_per_package", [](const Dev& d) { return Json(d.devices_per_package); }},
    {"name_covers_variants", [](const Dev& d) { return Json(d.name_covers_variants); }},
};

// After the figures. CSV keeps the figures right after the identity, so its devices_per_package
// and aliases (joined with "; ") come here; each figure's source is one cell, " | " between them.
const Column<Dev> kSourceColumns[] = {
    {"devices_per_package", nullptr,
     [](const Dev& d) { return std::to_string(d.devices_per_package); }},
    {"aliases", nullptr, [](const Dev& d) { return JoinText(d.aliases, "; "); }},
    {"sources",
     [](const Dev& d) {
       Json sources = Json::array();
       for (int i = 0; i < kMetricCount; ++i) {
         auto m = static_cast<Metric>(i);
         if (const std::optional<Figure>& f = d.Get(m)) {
           sources.push_back({{"field", MetricName(m)},
                              {"confidence", ConfidenceName(f->confidence)},
                              {"source", f->source}});
         }
       }
       return sources;
     },
     [](const Dev& d) {
       std::vector<std::string> sources;
       for (int i = 0; i < kMetricCount; ++i) {
         auto m = static_cast<Metric>(i);
         if (const std::optional<Figure>& f = d.Get(m)) {
           sources.push_back(
               fmt::format("{}: {}: {}", MetricName(m), ConfidenceName(f->confidence), f->source));
         }
       }
       return JoinText(sources, " | ");
     }},
    {"identity_source", [](const Dev& d) { return Json(d.identity_source); }},
    {"notes", [](const Dev& d) { return Json(d.notes); }},
};

template <size_t... I>
std::vector<Column<Dev>> MakeDeviceColumns(std::index_sequence<I...>) {
  std::vector<Column<Dev>> columns(std::begin(kIdentityColumns), std::end(kIdentityColumns));
  (columns.push_back(FigureColumn<static_cast<int>(I)>()), ...);
  columns.insert(columns.end(), std::begin(kSourceColumns), std::end(kSourceColumns));
  return columns;
}

// An entry's fields (docs/devices.md), in the order JSON and CSV write them.
std::span<const Column<Dev>> DeviceColumns() {
  static const std::vector<Column<Dev>> columns =
      MakeDeviceColumns(std::make_index_sequence<kMetricCount>());
  return columns;
}

// What `--match` resolved.
struct MatchRow {
  const DeviceQuery& query;
  const DeviceMatch& match;
};

// JSON only (CSV's "query" is the name).
const Column<DeviceQuery> kQueryColumns[] = {
    {"name", [](const DeviceQuery& q) { return Json(q.name); }},
    {"architecture", [](const DeviceQuery& q) { return Json(q.architecture); }},
    {"backend",
     [](const DeviceQuery& q) {
       return q.backend ? Json(BackendName(*q.backend)) : Json(nullptr);
     }},
    {"compute_units", [](const DeviceQuery& q) { return OrNull(q.compute_units); }},
    {"memory_bytes", [](const DeviceQuery& q) { return OrNull(q.memory_bytes); }},
};

std::vector<std::string> CandidateKeys(const DeviceMatch& m) {
  std::vector<std::string> keys;
  for (const DeviceSpec* c : m.candidates) keys.push_back(c->key);
  return keys;
}

const Column<MatchRow> kMatchColumns[] = {
    {"query", [](const MatchRow& r) { return ColumnsJson<DeviceQuery>(kQueryColumns, r.query); },
     [](const MatchRow& r) { return r.query.name; }},
    {"matched", [](const MatchRow& r) { return Json(r.match.matched()); },
     [](const MatchRow& r) { return std::string(r.match.matched() ? "true" : "false"); }},
    {"key",
     [](const MatchRow& r) { return r.match.matched() ? Json(r.match.spec->key) : Json(nullptr); },
     [](const MatchRow& r) { return r.match.matched() ? r.match.spec->key : ""; }},
    {"reason", [](const MatchRow& r) { return Json(r.match.reason); },
     [](const MatchRow& r) { return r.match.reason; }},
    {"candidates", [](const MatchRow& r) { return Json(CandidateKeys(r.match)); },
     [](const MatchRow& r) { return JoinText(CandidateKeys(r.match), "; "); }},
};

// The table shows these figures, in this order, with a scale and a unit in the header.
struct TableFigure {
  Metric metric;
  const char* header;
  double scale;
};
constexpr TableFigure kTableFigures[] = {
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
const char* ConfidenceMark(Confidence c) {
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

std::string TableFigureText(const Dev& d, const TableFigure& c) {
  const std::optional<Figure>& f = d.Get(c.metric);
  if (!f) return "-";
  // About four significant digits without exponents: 0.47, 19.5, 494.5, 1979.
  double v = f->value / c.scale;
  int decimals = v == std::floor(v) ? 0 : v < 1 ? 2 : v < 1000 ? 1 : 0;
  return fmt::format("{:.{}f}{}", v, decimals, ConfidenceMark(f->confidence));
}

void PrintDeviceTable(std::ostream& out, const std::vector<DeviceSpec>& devices) {
  TextTable table;
  using A = TextTable::Align;
  table.AddColumn("Key", A::kLeft);
  table.AddColumn("Name", A::kLeft, 34);
  table.AddColumn("Arch", A::kLeft);
  for (const TableFigure& c : kTableFigures) table.AddColumn(c.header, A::kRight);
  for (const DeviceSpec& d : devices) {
    std::vector<std::string> cells = {d.key, d.name, d.architecture};
    for (const TableFigure& c : kTableFigures) cells.push_back(TableFigureText(d, c));
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

void WriteDeviceCsvRows(std::ostream& out, const std::vector<DeviceSpec>& devices) {
  WriteCsvRow(out, DeviceSpecCsvHeader());
  for (const DeviceSpec& d : devices) {
    std::vector<std::string> cells;
    AddCsvCells(DeviceColumns(), d, &cells);
    WriteCsvRow(out, cells);
  }
}

// {"schema", "spec_files", ["match",] "device_count", "devices"}.
void WriteDevicesJson(std::ostream& out, const std::vector<std::string>& spec_files,
                      const MatchRow* match, const std::vector<const DeviceSpec*>& devices) {
  Json list = Json::array();
  for (const DeviceSpec* d : devices) list.push_back(DeviceSpecJson(*d));
  Json doc = {{"schema", "tensormorph.devices/1"}, {"spec_files", spec_files}};
  if (match != nullptr) doc["match"] = ColumnsJson<MatchRow>(kMatchColumns, *match);
  doc["device_count"] = list.size();
  doc["devices"] = std::move(list);
  WriteJson(out, doc);
}

}  // namespace

Json DeviceSpecJson(const DeviceSpec& device) {
  return ColumnsJson(DeviceColumns(), device);
}

std::vector<std::string> DeviceSpecCsvHeader() {
  std::vector<std::string> header;
  AddCsvHeader(DeviceColumns(), &header);
  return header;
}

void RenderDevices(std::ostream& out, const std::vector<std::string>& spec_files,
                   const std::vector<DeviceSpec>& devices, OutputFormat format) {
  RenderAs(
      format, [&] { PrintDeviceTable(out, devices); },
      [&] {
        std::vector<const DeviceSpec*> all;
        all.reserve(devices.size());
        for (const DeviceSpec& d : devices) all.push_back(&d);
        WriteDevicesJson(out, spec_files, nullptr, all);
      },
      [&] { WriteDeviceCsvRows(out, devices); });
}

void RenderDeviceMatch(std::ostream& out, const std::vector<std::string>& spec_files,
                       const DeviceQuery& query, const DeviceMatch& match, OutputFormat format) {
  const MatchRow row{query, match};
  RenderAs(
      format, [&] { PrintMatchTable(out, query, match); },
      [&] {
        std::vector<const DeviceSpec*> matched;
        if (match.matched()) matched.push_back(match.spec);
        WriteDevicesJson(out, spec_files, &row, matched);
      },
      [&] {
        std::vector<std::string> header, cells;
        AddCsvHeader<MatchRow>(kMatchColumns, &header);
        AddCsvCells<MatchRow>(kMatchColumns, row, &cells);
        WriteCsvRow(out, header);
        WriteCsvRow(out, cells);
      });
}

}  // namespace tensormorph
