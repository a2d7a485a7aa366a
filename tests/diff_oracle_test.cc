// End-to-end tests of `tensormorph baseline save` and `tensormorph diff`.
//
// The oracle shares no code with src/: it inflates each trace with zlib, reads the events with
// nlohmann-json's SAX interface, converts each `dur` from its decimal µs text to integer ns exactly
// (as tests/kineto_oracle_test.cc does), and sums per name: kernels are ph "X" with cat "kernel",
// ops ph "X" with cat "cpu_op". The diff's counts, totals, deltas and added/removed sets must
// match it exactly.

#include <gtest/gtest.h>
#include <zlib.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "support/files.h"
#include "support/kineto_events.h"
#include "support/run_tensormorph.h"

namespace {
namespace TM_UNITY_ID {  // unique per file in a unity batch (tests/CMakeLists.txt)

using tensormorph::testing::ReadFile;

namespace fs = std::filesystem;
using nlohmann::json;
using tensormorph::testing::RunResult;
using tensormorph::testing::RunTensormorph;

// ------------------------------------------------------------------------------------------------
// Oracle.

std::optional<int64_t> MicrosToNanos(const std::string& text) {
  return tensormorph::testing::MicrosTextToNanos(text);
}

struct Sum {
  int64_t count = 0;
  int64_t total_ns = 0;
};

struct Profile {
  std::map<std::string, Sum> kernels;
  std::map<std::string, Sum> ops;
  int64_t kernel_ns = 0;
  std::string error;
};

// Keeps the scalar fields of each element of "traceEvents" and classifies it when it closes.
class EventSax : public nlohmann::json_sax<json> {
 public:
  explicit EventSax(Profile* out) : out_(out) {}
  bool null() override { return Scalar(""); }
  bool boolean(bool) override { return Scalar(""); }
  bool number_integer(number_integer_t v) override { return Scalar(std::to_string(v)); }
  bool number_unsigned(number_unsigned_t v) override { return Scalar(std::to_string(v)); }
  bool number_float(number_float_t, const string_t& s) override { return Scalar(s); }
  bool string(string_t& s) override { return Scalar(s); }
  bool binary(binary_t&) override { return Scalar(""); }
  bool key(string_t& k) override {
    if (depth_ == 1) top_key_ = k;
    if (depth_ == 3 && in_events_) key_ = k;
    return true;
  }
  bool start_object(std::size_t) override {
    ++depth_;
    if (depth_ == 3 && in_events_) fields_.clear();
    return true;
  }
  bool end_object() override {
    if (depth_ == 3 && in_events_) Finish();
    --depth_;
    return true;
  }
  bool start_array(std::size_t) override {
    ++depth_;
    if (depth_ == 2 && top_key_ == "traceEvents") in_events_ = true;
    return true;
  }
  bool end_array() override {
    if (depth_ == 2) in_events_ = false;
    --depth_;
    return true;
  }
  bool parse_error(std::size_t, const std::string&, const nlohmann::detail::exception& e) override {
    out_->error = e.what();
    return false;
  }

 private:
  bool Scalar(const std::string& text) {
    if (depth_ == 3 && in_events_) fields_[key_] = text;
    return true;
  }
  void Finish() {
    if (fields_["ph"] != "X") return;
    const std::string& cat = fields_["cat"];
    if (cat != "kernel" && cat != "cpu_op") return;
    const std::optional<int64_t> dur = MicrosToNanos(fields_["dur"]);
    if (!dur) {
      out_->error = "unreadable dur " + fields_["dur"];
      return;
    }
    Sum& s = (cat == "kernel" ? out_->kernels : out_->ops)[fields_["name"]];
    ++s.count;
    s.total_ns += *dur;
    if (cat == "kernel") out_->kernel_ns += *dur;
  }

  Profile* out_;
  int depth_ = 0;
  bool in_events_ = false;
  std::string top_key_, key_;
  std::map<std::string, std::string> fields_;
};

const fs::path& HtaDir() {
  static const fs::path dir = fs::path(TM_SHARED_DATA) / "kineto" / "hta";
  return dir;
}

const Profile& Oracle(const fs::path& path) {
  static std::map<std::string, Profile> cache;
  auto it = cache.find(path.string());
  if (it != cache.end()) return it->second;
  Profile p;
  std::string error;
  const std::string text = tensormorph::testing::Gunzip(path, &error);
  if (!error.empty()) {
    p.error = "cannot read " + path.string() + ": " + error;
  } else {
    EventSax sax(&p);
    json::sax_parse(text, &sax);
  }
  return cache.emplace(path.string(), std::move(p)).first->second;
}

// ------------------------------------------------------------------------------------------------
// Helpers.

RunResult RunQuiet(const std::vector<std::string>& args) {
  std::vector<std::string> full = args;
  full.emplace_back("--quiet");
  return RunTensormorph(full);
}

std::optional<json> DiffJson(const std::string& base, const std::string& next,
                             std::vector<std::string> extra = {}) {
  std::vector<std::string> args = {"diff", base, next, "--format", "json"};
  args.insert(args.end(), extra.begin(), extra.end());
  const RunResult r = RunQuiet(args);
  EXPECT_TRUE(r.exit_code == 0 || r.exit_code == 1) << r.Describe();
  if (!r.Clean() || r.exit_code > 1) return std::nullopt;
  json doc = json::parse(r.out, nullptr, false);
  EXPECT_FALSE(doc.is_discarded()) << r.Describe();
  if (doc.is_discarded()) return std::nullopt;
  EXPECT_EQ(doc.value("schema", ""), "tensormorph.diff/1");
  return doc;
}

struct TempDir {
  fs::path path;
  TempDir() {
    char pattern[] = "/tmp/tm_diff_test_XXXXXX";
    path = mkdtemp(pattern);
  }
  ~TempDir() {
    std::error_code ec;
    fs::remove_all(path, ec);
  }
  std::string File(const std::string& name) const { return (path / name).string(); }
};

void WriteFile(const std::string& path, const std::string& text) {
  std::ofstream(path, std::ios::binary) << text;
}

std::string SaveBaseline(const TempDir& dir, const fs::path& trace, const std::string& name) {
  const std::string out = dir.File(name);
  const RunResult r = RunQuiet({"baseline", "save", trace.string(), "-o", out});
  EXPECT_EQ(r.exit_code, 0) << r.Describe();
  return out;
}

// Rows of one kind summed per name (an op's backend is derived from where its kernels ran, so one
// name could sit on two backends; the oracle does not know backends).
struct NameSums {
  int64_t base_count = 0, new_count = 0, base_total = 0, new_total = 0;
};

std::map<std::string, NameSums> RowsByName(const json& doc, const std::string& kind) {
  std::map<std::string, NameSums> out;
  for (const json& row : doc["rows"]) {
    if (row["kind"] != kind) continue;
    NameSums& s = out[row["name"].get<std::string>()];
    s.base_count += row["base_count"].get<int64_t>();
    s.new_count += row["new_count"].get<int64_t>();
    s.base_total += row["base_total_ns"].get<int64_t>();
    s.new_total += row["new_total_ns"].get<int64_t>();
    // Row-level invariants of the schema.
    const std::string status = row["status"];
    EXPECT_EQ(row["delta_ns"].get<int64_t>(),
              row["new_total_ns"].get<int64_t>() - row["base_total_ns"].get<int64_t>())
        << row.dump();
    if (status == "added") {
      EXPECT_TRUE(row["delta_percent"].is_null()) << row.dump();
      EXPECT_EQ(row["base_count"], 0);
    } else if (status == "removed") {
      EXPECT_EQ(row["new_count"], 0);
    } else {
      EXPECT_GT(row["base_count"].get<int64_t>(), 0);
      EXPECT_GT(row["new_count"].get<int64_t>(), 0);
    }
  }
  return out;
}

void ExpectMatchesOracle(const json& doc, const std::map<std::string, Sum>& base,
                         const std::map<std::string, Sum>& next, const std::string& kind) {
  SCOPED_TRACE(kind + " rows");
  const std::map<std::string, NameSums> rows = RowsByName(doc, kind);
  std::set<std::string> names;
  for (const auto& [name, s] : base) names.insert(name);
  for (const auto& [name, s] : next) names.insert(name);
  EXPECT_EQ(rows.size(), names.size());
  for (const std::string& name : names) {
    auto it = rows.find(name);
    if (it == rows.end()) {
      ADD_FAILURE() << "no row for " << name;
      continue;
    }
    const Sum b = base.count(name) ? base.at(name) : Sum{};
    const Sum n = next.count(name) ? next.at(name) : Sum{};
    EXPECT_EQ(it->second.base_count, b.count) << name;
    EXPECT_EQ(it->second.new_count, n.count) << name;
    EXPECT_EQ(it->second.base_total, b.total_ns) << name;
    EXPECT_EQ(it->second.new_total, n.total_ns) << name;
  }
  // Added and removed names, exactly.
  std::set<std::string> want_added, want_removed, got_added, got_removed;
  for (const std::string& name : names) {
    if (!base.count(name)) want_added.insert(name);
    if (!next.count(name)) want_removed.insert(name);
  }
  for (const auto& [name, s] : rows) {
    if (s.base_count == 0) got_added.insert(name);
    if (s.new_count == 0) got_removed.insert(name);
  }
  EXPECT_EQ(got_added, want_added);
  EXPECT_EQ(got_removed, want_removed);
}

// `want_removed`: whether the pair has names on the base side only (trace_compare only adds ops).
void ExpectOracleDiff(const fs::path& base_path, const fs::path& new_path, bool want_removed) {
  const Profile& base = Oracle(base_path);
  const Profile& next = Oracle(new_path);
  ASSERT_TRUE(base.error.empty()) << base.error;
  ASSERT_TRUE(next.error.empty()) << next.error;
  const auto doc = DiffJson(base_path.string(), new_path.string());
  ASSERT_TRUE(doc.has_value());
  EXPECT_EQ((*doc)["basis"], "total");  // same step counts on both sides
  const json& total = (*doc)["total"];
  EXPECT_EQ(total["base_ns"].get<int64_t>(), base.kernel_ns);
  EXPECT_EQ(total["new_ns"].get<int64_t>(), next.kernel_ns);
  EXPECT_EQ(total["delta_ns"].get<int64_t>(), next.kernel_ns - base.kernel_ns);
  EXPECT_NEAR(total["delta_percent"].get<double>(),
              100.0 * (next.kernel_ns - base.kernel_ns) / base.kernel_ns, 1e-9);
  for (const json& row : (*doc)["rows"]) {
    if (row["kind"] == "kernel") {
      EXPECT_EQ(row["backend"], "cuda") << row.dump();
    }
  }
  ExpectMatchesOracle(*doc, base.kernels, next.kernels, "kernel");
  ExpectMatchesOracle(*doc, base.ops, next.ops, "op");
  EXPECT_GT((*doc)["counts"]["added"].get<int64_t>(), 0);
  if (want_removed) {
    EXPECT_GT((*doc)["counts"]["removed"].get<int64_t>(), 0);
  }
  EXPECT_EQ((*doc)["row_count"].get<size_t>(), (*doc)["rows"].size());
}

// ------------------------------------------------------------------------------------------------
// Real traces against the oracle.

TEST(DiffOracle, TraceCompareOpsAdded) {
  ExpectOracleDiff(HtaDir() / "trace_compare/base.json.gz", HtaDir() / "trace_compare/test.json.gz",
                   false);
}

TEST(DiffOracle, TraceDiffControlAgainstTest) {
  const fs::path control = HtaDir() / "trace_diff/control.json.gz";
  const fs::path test = HtaDir() / "trace_diff/test.json.gz";
  ExpectOracleDiff(control, test, true);
  // Six steps on each side: rows present on both sides carry the Mann-Whitney test.
  const auto doc = DiffJson(control.string(), test.string());
  ASSERT_TRUE(doc.has_value());
  EXPECT_TRUE((*doc)["noise_test"].get<bool>());
  EXPECT_EQ((*doc)["base"]["steps"], 6);
  EXPECT_EQ((*doc)["new"]["steps"], 6);
  for (const json& row : (*doc)["rows"]) {
    const std::string status = row["status"];
    if (status == "added" || status == "removed") {
      EXPECT_EQ(row["decided_by"], "presence");
      EXPECT_TRUE(row["p_value"].is_null());
    } else {
      EXPECT_TRUE(row["p_value"].is_number()) << row.dump();
    }
    if (status == "regressed" || status == "improved") {
      EXPECT_EQ(row["decided_by"], "mann_whitney") << row.dump();
      EXPECT_LT(row["p_value"].get<double>(), 0.05);
      EXPECT_GT(std::abs(row["delta_percent"].get<double>()), 5.0);
    }
  }
}

// ------------------------------------------------------------------------------------------------
// Baselines.

TEST(BaselineCli, SavedBaselineDiffsAsUnchangedAgainstItsTrace) {
  TempDir dir;
  const fs::path trace = HtaDir() / "trace_diff/control.json.gz";
  const std::string base = SaveBaseline(dir, trace, "control.json");
  const json saved = json::parse(ReadFile(base));
  EXPECT_EQ(saved["schema"], "tensormorph.baseline/1");
  EXPECT_EQ(saved["created_by"], "tensormorph 0.1.0");
  EXPECT_EQ(saved["steps"], 6);
  EXPECT_EQ(saved["total"]["kernel_ns"].get<int64_t>(), Oracle(trace).kernel_ns);
  ASSERT_FALSE(saved["kernels"].empty());
  EXPECT_EQ(saved["kernels"][0]["step_totals_ns"].size(), 6u);
  EXPECT_EQ(saved["inputs"][0]["rank"], 3);

  for (const auto& [a, b] : std::vector<std::pair<std::string, std::string>>{
           {base, trace.string()}, {trace.string(), base}, {base, base}}) {
    SCOPED_TRACE(a + " vs " + b);
    const auto doc = DiffJson(a, b, {"--fail-on-regression"});
    ASSERT_TRUE(doc.has_value());
    EXPECT_EQ((*doc)["verdict"], "pass");
    EXPECT_EQ((*doc)["total"]["delta_ns"], 0);
    EXPECT_GT((*doc)["rows"].size(), 10u);
    for (const json& row : (*doc)["rows"]) {
      EXPECT_EQ(row["status"], "unchanged") << row.dump();
      EXPECT_EQ(row["delta_ns"], 0) << row.dump();
    }
  }
}

// Whether each side is a trace or its baseline, the rows are the same.
TEST(BaselineCli, TraceAndBaselineInAnyCombinationGiveTheSameRows) {
  TempDir dir;
  const fs::path control = HtaDir() / "trace_diff/control.json.gz";
  const fs::path test = HtaDir() / "trace_diff/test.json.gz";
  const std::string control_base = SaveBaseline(dir, control, "control.json");
  const std::string test_base = SaveBaseline(dir, test, "test.json");
  const auto reference = DiffJson(control.string(), test.string());
  ASSERT_TRUE(reference.has_value());
  EXPECT_EQ((*reference)["base"]["type"], "trace");
  for (const auto& [a, b] :
       std::vector<std::pair<std::string, std::string>>{{control_base, test.string()},
                                                        {control.string(), test_base},
                                                        {control_base, test_base}}) {
    SCOPED_TRACE(a + " vs " + b);
    const auto doc = DiffJson(a, b);
    ASSERT_TRUE(doc.has_value());
    EXPECT_EQ((*doc)["rows"], (*reference)["rows"]);
    EXPECT_EQ((*doc)["total"], (*reference)["total"]);
    EXPECT_EQ((*doc)["verdict"], (*reference)["verdict"]);
  }
  const auto both = DiffJson(control_base, test_base);
  ASSERT_TRUE(both.has_value());
  EXPECT_EQ((*both)["base"]["type"], "baseline");
  EXPECT_EQ((*both)["new"]["type"], "baseline");
}

TEST(DiffCli, FailOnRegressionGatesTheExitCode) {
  const std::string control = (HtaDir() / "trace_diff/control.json.gz").string();
  const std::string test = (HtaDir() / "trace_diff/test.json.gz").string();
  // Find the direction in which some row regressed (the two runs are different GPUs).
  const auto forward = DiffJson(control, test);
  ASSERT_TRUE(forward.has_value());
  const bool forward_regressed = (*forward)["counts"]["regressed"].get<int64_t>() > 0;
  const std::string base = forward_regressed ? control : test;
  const std::string next = forward_regressed ? test : control;
  const RunResult gated = RunQuiet({"diff", base, next, "--fail-on-regression"});
  EXPECT_EQ(gated.exit_code, 1) << gated.Describe();
  EXPECT_NE(gated.out.find("verdict: fail"), std::string::npos) << gated.Describe();
  const RunResult ungated = RunQuiet({"diff", base, next});
  EXPECT_EQ(ungated.exit_code, 0) << ungated.Describe();
  const RunResult json_gated =
      RunQuiet({"diff", base, next, "--fail-on-regression", "--format", "json"});
  EXPECT_EQ(json_gated.exit_code, 1);
  EXPECT_EQ(json::parse(json_gated.out)["verdict"], "fail");
  // A threshold no change reaches: nothing regressed, the gate passes.
  const RunResult loose =
      RunQuiet({"diff", base, next, "--fail-on-regression", "--threshold", "1000000000"});
  EXPECT_EQ(loose.exit_code, 0) << loose.Describe();
  const RunResult same = RunQuiet({"diff", base, base, "--fail-on-regression"});
  EXPECT_EQ(same.exit_code, 0) << same.Describe();
}

TEST(DiffCli, CsvAndTableAndOptions) {
  const std::string a = (HtaDir() / "trace_compare/base.json.gz").string();
  const std::string b = (HtaDir() / "trace_compare/test.json.gz").string();
  const RunResult csv = RunQuiet({"diff", a, b, "--format", "csv", "--kind", "kernel"});
  ASSERT_EQ(csv.exit_code, 0) << csv.Describe();
  EXPECT_EQ(csv.out.rfind("kind,name,backend,base_count,new_count,base_total_ns,", 0), 0u);
  EXPECT_EQ(csv.out.find("\nop,"), std::string::npos);
  const auto top = DiffJson(a, b, {"--top", "2", "--kind", "op"});
  ASSERT_TRUE(top.has_value());
  EXPECT_EQ((*top)["rows"].size(), 2u);
  EXPECT_GT((*top)["row_count"].get<int64_t>(), 2);
  EXPECT_EQ((*top)["kind"], "op");
  EXPECT_EQ((*top)["op_total"]["measure"], "op_host_time");
  const RunResult table = RunQuiet({"diff", a, b});
  EXPECT_EQ(table.exit_code, 0);
  EXPECT_NE(table.out.find("verdict: "), std::string::npos) << table.Describe();
  EXPECT_EQ(RunQuiet({"diff", a, b, "--kind", "everything"}).exit_code, 2);
  EXPECT_EQ(RunQuiet({"diff", a}).exit_code, 2);
}

// ------------------------------------------------------------------------------------------------
// Synthetic traces with steps: per-step means and the noise test.

// A Kineto trace with one ProfilerStep#N per value, each holding one kernel "k" of that many µs.
std::string StepTrace(const std::vector<int>& kernel_us) {
  json events = json::array();
  for (size_t i = 0; i < kernel_us.size(); ++i) {
    const int64_t start = 1000 * static_cast<int64_t>(i);
    events.push_back({{"ph", "X"},
                      {"cat", "user_annotation"},
                      {"name", "ProfilerStep#" + std::to_string(i + 1)},
                      {"pid", 1},
                      {"tid", 1},
                      {"ts", start},
                      {"dur", 900}});
    events.push_back({{"ph", "X"},
                      {"cat", "cpu_op"},
                      {"name", "aten::mm"},
                      {"pid", 1},
                      {"tid", 1},
                      {"ts", start + 10},
                      {"dur", 20}});
    events.push_back({{"ph", "X"},
                      {"cat", "kernel"},
                      {"name", "k"},
                      {"pid", 0},
                      {"tid", 7},
                      {"ts", start + 100},
                      {"dur", kernel_us[i]},
                      {"args", {{"device", 0}, {"stream", 7}}}});
  }
  return json({{"schemaVersion", 1}, {"traceEvents", events}}).dump();
}

TEST(DiffCli, DifferentStepCountsCompareMeansPerStep) {
  TempDir dir;
  const std::string five = dir.File("five.json"), six = dir.File("six.json");
  WriteFile(five, StepTrace({10, 11, 10, 9, 10}));
  WriteFile(six, StepTrace({10, 11, 10, 9, 10, 10}));
  const auto doc = DiffJson(five, six, {"--fail-on-regression"});
  ASSERT_TRUE(doc.has_value());
  EXPECT_EQ((*doc)["basis"], "per_step_mean");
  EXPECT_EQ((*doc)["verdict"], "pass");
  EXPECT_EQ((*doc)["total"]["base_ns"], 50000);
  EXPECT_EQ((*doc)["total"]["new_ns"], 60000);
  EXPECT_EQ((*doc)["total"]["delta_ns"], 0);
  EXPECT_EQ((*doc)["total"]["base_per_step_ns"], 10000.0);
  for (const json& row : (*doc)["rows"]) EXPECT_EQ(row["status"], "unchanged") << row.dump();
}

TEST(DiffCli, NoiseTestDecidesOnPerStepTimes) {
  TempDir dir;
  const std::string base = dir.File("base.json"), slower = dir.File("slower.json"),
                    noisy = dir.File("noisy.json");
  // Distinct values (no ties), so the exact test applies.
  WriteFile(base, StepTrace({10, 30, 11, 31, 12, 32}));
  WriteFile(slower, StepTrace({40, 41, 42, 43, 44, 45}));
  WriteFile(noisy, StepTrace({9, 40, 13, 41, 14, 42}));  // +26%, but the steps overlap
  const auto slow = DiffJson(base, slower);
  ASSERT_TRUE(slow.has_value());
  const json* row = nullptr;
  for (const json& r : (*slow)["rows"]) {
    if (r["kind"] == "kernel") row = &r;
  }
  ASSERT_NE(row, nullptr);
  EXPECT_EQ((*row)["status"], "regressed");
  EXPECT_EQ((*row)["decided_by"], "mann_whitney");
  EXPECT_EQ((*row)["test"], "exact");
  EXPECT_NEAR((*row)["p_value"].get<double>(), 2.0 / 924.0, 1e-12);
  const auto same = DiffJson(base, noisy);
  ASSERT_TRUE(same.has_value());
  for (const json& r : (*same)["rows"]) {
    if (r["kind"] != "kernel") continue;
    EXPECT_GT(r["delta_percent"].get<double>(), 5.0);
    EXPECT_EQ(r["status"], "unchanged") << r.dump();
    EXPECT_EQ(r["decided_by"], "mann_whitney");
  }
}

// ------------------------------------------------------------------------------------------------
// Broken baselines: exit 3, the file and the position named.

TEST(BaselineCli, MalformedBaselinesAreReadErrorsWithPositions) {
  TempDir dir;
  const fs::path trace = HtaDir() / "trace_compare/base.json.gz";
  const std::string good = ReadFile(SaveBaseline(dir, trace, "good.json"));
  ASSERT_FALSE(good.empty());

  struct Case {
    std::string name;
    std::string text;
    std::string message;
  };
  std::string wrong_type = good;
  const size_t count_at = wrong_type.find("\"count\": ");
  ASSERT_NE(count_at, std::string::npos);
  wrong_type.insert(count_at + 9, "\"abc\", \"was\": ");
  std::string wrong_schema = good;
  wrong_schema.replace(wrong_schema.find("tensormorph.baseline/1"), 22, "tensormorph.baseline/7");
  std::string negative = good;
  negative.replace(negative.find("\"total_ns\": ") + 12, 0, "-");
  const std::vector<Case> cases = {
      {"truncated.json", good.substr(0, good.size() / 2), "ends early"},
      {"schema.json", wrong_schema, "unsupported baseline version"},
      {"type.json", wrong_type, "/kernels/0/count must be a non-negative integer"},
      {"negative.json", negative, "/kernels/0/total_ns must be a non-negative integer"},
      {"kernels_output.json", R"({"schema": "tensormorph.kernels/1", "rows": []})",
       "not tensormorph.baseline/1"},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.name);
    const std::string path = dir.File(c.name);
    WriteFile(path, c.text);
    for (const auto& args : std::vector<std::vector<std::string>>{{"diff", path, trace.string()},
                                                                  {"diff", trace.string(), path}}) {
      const RunResult r = RunQuiet(args);
      EXPECT_EQ(r.exit_code, 3) << r.Describe();
      EXPECT_NE(r.err.find("tensormorph: error: " + path + ":"), std::string::npos) << r.Describe();
      EXPECT_NE(r.err.find(c.message), std::string::npos) << r.Describe();
      EXPECT_TRUE(r.out.empty()) << r.Describe();
    }
  }
  // The wrong type is reported at its own line and column.
  const RunResult r = RunQuiet({"diff", dir.File("type.json"), trace.string()});
  const size_t line_start = wrong_type.rfind('\n', count_at) + 1;
  const size_t line = std::count(wrong_type.begin(), wrong_type.begin() + count_at, '\n') + 1;
  const std::string where = dir.File("type.json") + ":" + std::to_string(line) + ":" +
                            std::to_string(count_at + 9 - line_start + 1) + ": ";
  EXPECT_NE(r.err.find(where), std::string::npos) << where << r.Describe();

  // A JSON document that is neither a trace nor a baseline.
  const std::string neither = dir.File("neither.json");
  WriteFile(neither, R"({"hello": "world"})");
  const RunResult n = RunQuiet({"diff", neither, trace.string()});
  EXPECT_EQ(n.exit_code, 3) << n.Describe();
  EXPECT_NE(n.err.find(neither), std::string::npos) << n.Describe();
  EXPECT_NE(n.err.find("baseline"), std::string::npos) << n.Describe();
  const RunResult missing = RunQuiet({"diff", dir.File("absent.json"), trace.string()});
  EXPECT_EQ(missing.exit_code, 3) << missing.Describe();
}

TEST(BaselineCli, SaveNeedsAnOutputAndReadableInputs) {
  TempDir dir;
  const std::string trace = (HtaDir() / "trace_compare/base.json.gz").string();
  EXPECT_EQ(RunQuiet({"baseline", "save", trace}).exit_code, 2);
  EXPECT_EQ(RunQuiet({"baseline"}).exit_code, 2);
  const std::string garbage = dir.File("garbage.json");
  WriteFile(garbage, "not json at all");
  const std::string out = dir.File("out.json");
  EXPECT_EQ(RunQuiet({"baseline", "save", garbage, "-o", out}).exit_code, 3);
  EXPECT_FALSE(fs::exists(out));
  EXPECT_EQ(RunQuiet({"baseline", "save", trace, "-o", dir.File("no/such/dir/b.json")}).exit_code,
            2);
}

}  // namespace TM_UNITY_ID
}  // namespace
