#include "report/findings_report.h"

#include <fmt/format.h>

#include "model/time.h"
#include "report/csv.h"
#include "report/json_output.h"
#include "report/table.h"

namespace tensormorph {
namespace {

// Names in the terminal's detail section are cut to this width (JSON and CSV carry them whole).
constexpr size_t kNameWidth = 80;

Json ValueJson(const EvidenceValue& value) {
  return std::visit([](const auto& v) { return Json(v); }, value);
}

// Text values longer than `max_width` are cut (0 = whole, as in CSV).
std::string ValueText(const EvidenceValue& value, size_t max_width) {
  if (const auto* i = std::get_if<int64_t>(&value)) return std::to_string(*i);
  if (const auto* d = std::get_if<double>(&value)) return fmt::format("{:.4g}", *d);
  return TruncateToWidth(std::get<std::string>(value), max_width);
}

Json EvidenceJson(const std::vector<Evidence>& evidence) {
  Json object = Json::object();
  for (const Evidence& e : evidence) object[e.key] = ValueJson(e.value);
  return object;
}

std::string EvidenceText(const std::vector<Evidence>& evidence, size_t max_value_width = 0) {
  std::string text;
  for (const Evidence& e : evidence) {
    text += fmt::format("{}{}={}", text.empty() ? "" : "; ", e.key,
                        ValueText(e.value, max_value_width));
  }
  return text;
}

// "op aten::mm, kernel ..." for the detail section: the parts of `where` the table leaves out.
std::string WhereText(const FindingWhere& w) {
  std::string text;
  auto add = [&text](const char* key, const std::string& value) {
    if (!value.empty()) text += fmt::format("{}{} {}", text.empty() ? "" : ", ", key, value);
  };
  add("stream", w.stream ? std::to_string(*w.stream) : "");
  add("op", TruncateToWidth(w.op, kNameWidth));
  add("kernel", TruncateToWidth(w.kernel, kNameWidth));
  return text;
}

Json WhereJson(const FindingWhere& w) {
  return {{"input", w.input},
          {"device", OrNull(w.device)},
          {"stream", OrNull(w.stream)},
          {"op", OrNull(w.op)},
          {"kernel", OrNull(w.kernel)}};
}

void PrintTable(std::ostream& out, const FindingsResult& result) {
  if (result.findings.empty()) {
    out << "No findings: no rule's condition holds on these inputs.\n";
    return;
  }
  auto dur = [](int64_t ns) { return FormatDuration(static_cast<double>(ns)); };
  TextTable table;
  using A = TextTable::Align;
  table.AddColumn("#", A::kRight);
  table.AddColumn("Gain", A::kRight);
  table.AddColumn("%", A::kRight);
  table.AddColumn("Simulated", A::kRight);
  table.AddColumn("Severity", A::kLeft);
  table.AddColumn("Rule", A::kLeft);
  table.AddColumn("Where", A::kLeft, 40);
  table.AddColumn("Finding", A::kLeft, 90);
  for (size_t i = 0; i < result.findings.size(); ++i) {
    const Finding& f = result.findings[i];
    table.AddRow({std::to_string(i + 1), f.estimated_gain_ns > 0 ? dur(f.estimated_gain_ns) : "-",
                  f.estimated_gain_ns > 0 ? fmt::format("{:.1f}", f.gain_percent) : "-",
                  f.simulated_gain_ns ? dur(*f.simulated_gain_ns) : "-", f.severity, f.rule,
                  fmt::format("input {} {}", f.where.input, f.where.device), f.title});
  }
  table.Print(out);
  out << fmt::format("\nTotal estimated gain {} (gains do not overlap; stragglers not added)\n",
                     dur(result.total_gain_ns));
  out << "Simulated: what the fix gives back to the steps, replayed on the trace's dependencies "
         "(tensormorph whatif); ranked by it where there is one\n";
  for (const GainBasis& b : result.bases) {
    out << fmt::format(
        "% of input {}: of {} {} ({}); a straggler's, of the other ranks' profiled "
        "time\n",
        b.input, b.basis == "steps" ? "its steps'" : "its busiest device's span,",
        b.basis == "steps" ? "summed length" : "longer than its steps", dur(b.basis_ns));
  }
  for (size_t i = 0; i < result.findings.size(); ++i) {
    const Finding& f = result.findings[i];
    out << fmt::format("\n{}. [{}] {}\n", i + 1, f.rule, f.title);
    if (const std::string where = WhereText(f.where); !where.empty()) {
      out << fmt::format("   where: {}\n", where);
    }
    out << fmt::format("   evidence: {}\n", EvidenceText(f.evidence, kNameWidth));
    for (const FindingItem& item : f.top) {
      out << fmt::format("   - {}: {}\n", TruncateToWidth(item.name, kNameWidth),
                         EvidenceText(item.figures, kNameWidth));
    }
    out << fmt::format("   fix: {}\n", f.fix);
    if (f.simulated_step_ns && f.simulated_gain_ns) {
      const int64_t before = *f.simulated_step_ns + *f.simulated_gain_ns;
      out << fmt::format(
          "   simulated: steps {} -> {} ({:.1f} %)\n", dur(before), dur(*f.simulated_step_ns),
          before > 0 ? -100.0 * static_cast<double>(*f.simulated_gain_ns) / before : 0.0);
    }
  }
}

}  // namespace

namespace {

Json BasesJson(const std::vector<GainBasis>& bases) {
  Json out = Json::array();
  for (const GainBasis& b : bases) {
    out.push_back({{"input", b.input}, {"basis", b.basis}, {"basis_ns", b.basis_ns}});
  }
  return out;
}

}  // namespace

Json FindingJson(const Finding& f) {
  Json top = Json::array();
  for (const FindingItem& item : f.top) {
    top.push_back({{"name", item.name}, {"figures", EvidenceJson(item.figures)}});
  }
  return {{"rule", f.rule},
          {"severity", f.severity},
          {"title", f.title},
          {"estimated_gain_ns", f.estimated_gain_ns},
          {"gain_percent", f.gain_percent},
          {"gain_basis", f.gain_basis},
          {"simulated_step_ns", OrNull(f.simulated_step_ns)},
          {"simulated_gain_ns", OrNull(f.simulated_gain_ns)},
          {"where", WhereJson(f.where)},
          {"evidence", EvidenceJson(f.evidence)},
          {"top", std::move(top)},
          {"fix", f.fix}};
}

void RenderFindings(std::ostream& out, const std::vector<const Trace*>& traces,
                    const FindingsResult& result, OutputFormat format) {
  RenderAs(
      format, [&] { PrintTable(out, result); },
      [&] {
        Json findings = Json::array();
        for (const Finding& f : result.findings) findings.push_back(FindingJson(f));
        WriteJson(out, {{"schema", "tensormorph.findings/1"},
                        {"inputs", DescribeInputs(traces)},
                        {"total_gain_ns", result.total_gain_ns},
                        {"gain_bases", BasesJson(result.bases)},
                        {"findings", std::move(findings)}});
      },
      [&] {
        WriteCsvRow(out, {"rank", "rule", "severity", "title", "estimated_gain_ns", "gain_percent",
                          "gain_basis", "input", "device", "stream", "op", "kernel", "evidence",
                          "fix", "simulated_step_ns", "simulated_gain_ns"});
        for (size_t i = 0; i < result.findings.size(); ++i) {
          const Finding& f = result.findings[i];
          WriteCsvRow(out, {std::to_string(i + 1), f.rule, f.severity, f.title,
                            std::to_string(f.estimated_gain_ns), CsvNumber(f.gain_percent),
                            f.gain_basis, std::to_string(f.where.input), f.where.device,
                            f.where.stream ? std::to_string(*f.where.stream) : "", f.where.op,
                            f.where.kernel, EvidenceText(f.evidence), f.fix,
                            f.simulated_step_ns ? std::to_string(*f.simulated_step_ns) : "",
                            f.simulated_gain_ns ? std::to_string(*f.simulated_gain_ns) : ""});
        }
      });
}

}  // namespace tensormorph
