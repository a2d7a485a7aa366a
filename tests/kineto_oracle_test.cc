// Independent oracle for `tensormorph kernels --format json` on every real Kineto trace in
// shared/data/kineto/.
//
// This file deliberately shares no code with src/: it decompresses each trace itself (zlib), parses
// it with nlohmann-json's SAX interface (not simdjson), converts the decimal text of every duration
// to integer nanoseconds with its own exact converter, and recomputes the per-kernel statistics
// from the documented rules:
//   * an event is a kernel when ph == "X" and cat is exactly "kernel" or "Kernel";
//   * in Meta MTIA traces, ph == "X" events with cat "mtia_ccp_events" are device kernels, except
//     those named "dma_request" (memcpys);
//   * everything else (gpu_memcpy, gpu_memset, cuda_profiler_range, cpu_op, ...) is not a kernel.
// The expected backend of each file is hard-coded from the provenance notes, not from the product.

#include <gtest/gtest.h>
#include <sys/wait.h>
#include <zlib.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <map>
#include <mutex>
#include <nlohmann/json.hpp>
#include <optional>
#include <set>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "support/cxx_filt.h"
#include "support/kineto_events.h"
#include "support/run_tensormorph.h"

namespace {
namespace TM_UNITY_ID {  // unique per file in a unity batch (tests/CMakeLists.txt)

namespace fs = std::filesystem;
using nlohmann::json;
using tensormorph::testing::Gunzip;
using tensormorph::testing::MicrosTextToNanos;

TEST(KinetoOracleConverter, MicrosTextToNanos) {
  EXPECT_EQ(MicrosTextToNanos("0"), 0);
  EXPECT_EQ(MicrosTextToNanos("12"), 12000);
  EXPECT_EQ(MicrosTextToNanos("12.5"), 12500);
  EXPECT_EQ(MicrosTextToNanos("12.34"), 12340);
  EXPECT_EQ(MicrosTextToNanos("12.345"), 12345);
  EXPECT_EQ(MicrosTextToNanos("12.3454"), 12345);
  EXPECT_EQ(MicrosTextToNanos("12.3455"), 12346);
  EXPECT_EQ(MicrosTextToNanos("12.34549999"), 12345);
  EXPECT_EQ(MicrosTextToNanos("-12.3455"), -12346);
  EXPECT_EQ(MicrosTextToNanos("-12.3454"), -12345);
  EXPECT_EQ(MicrosTextToNanos("0.0005"), 1);
  EXPECT_EQ(MicrosTextToNanos("0.0004999"), 0);
  EXPECT_EQ(MicrosTextToNanos("1712195495505543.2"), 1712195495505543200);
  EXPECT_EQ(MicrosTextToNanos("4203669604595.407"), 4203669604595407);
  EXPECT_EQ(MicrosTextToNanos("1.5e3"), 1500000);
  EXPECT_EQ(MicrosTextToNanos("15E-1"), 1500);
  EXPECT_EQ(MicrosTextToNanos("1.2345e-1"), 123);
  EXPECT_EQ(MicrosTextToNanos("1.2355e-1"), 124);
  EXPECT_EQ(MicrosTextToNanos("99999999999999999999"), std::nullopt);
  EXPECT_EQ(MicrosTextToNanos("abc"), std::nullopt);
  EXPECT_EQ(MicrosTextToNanos("1.2x"), std::nullopt);
}

// ------------------------------------------------------------------------------------------------
// SAX oracle.

struct KernelStats {
  std::vector<int64_t> durations_ns;
};

struct OracleResult {
  bool ok = false;
  std::string error;
  size_t events_seen = 0;
  std::map<std::string, KernelStats> kernels;  // by kernel name
};

// Collects the top-level fields of each trace event (only the direct elements of the top-level
// array, or of the top-level "traceEvents" array) and classifies each event once it is complete.
class KinetoSax : public nlohmann::json_sax<json> {
 public:
  explicit KinetoSax(OracleResult* out) : out_(out) {}

  bool null() override { return Scalar(Value{}); }
  bool boolean(bool) override { return Scalar(Value{}); }
  bool number_integer(number_integer_t v) override {
    return Scalar(Value{Value::kNumber, std::to_string(v)});
  }
  bool number_unsigned(number_unsigned_t v) override {
    return Scalar(Value{Value::kNumber, std::to_string(v)});
  }
  bool number_float(number_float_t, const string_t& s) override {
    return Scalar(Value{Value::kNumber, s});
  }
  bool string(string_t& s) override { return Scalar(Value{Value::kString, s}); }
  bool binary(binary_t&) override { return Scalar(Value{}); }

  bool start_object(std::size_t) override {
    if (events_depth_ >= 0 && static_cast<int>(stack_.size()) == events_depth_) {
      in_event_ = true;
      event_ = Event{};
    }
    stack_.push_back('O');
    return true;
  }
  bool key(string_t& k) override {
    if (stack_.size() == 1) top_key_ = k;
    if (AtEventLevel()) event_key_ = k;
    return true;
  }
  bool end_object() override {
    if (AtEventLevel()) {
      in_event_ = false;
      if (!Finish()) return false;
    }
    stack_.pop_back();
    return true;
  }
  bool start_array(std::size_t) override {
    if (stack_.empty()) {
      events_depth_ = 1;  // array form: [ {event}, ... ]
    } else if (stack_.size() == 1 && stack_[0] == 'O' && top_key_ == "traceEvents") {
      events_depth_ = 2;  // object form: { "traceEvents": [ ... ] }
    }
    stack_.push_back('A');
    return true;
  }
  bool end_array() override {
    if (static_cast<int>(stack_.size()) == events_depth_) events_depth_ = -1;
    stack_.pop_back();
    return true;
  }
  bool parse_error(std::size_t position, const std::string&,
                   const nlohmann::detail::exception& ex) override {
    out_->error = "JSON parse error at byte " + std::to_string(position) + ": " + ex.what();
    return false;
  }

 private:
  struct Value {
    enum Kind { kOther, kNumber, kString } kind = kOther;
    std::string text;
  };
  struct Event {
    std::map<std::string, Value> fields;
  };

  bool AtEventLevel() const {
    return in_event_ && static_cast<int>(stack_.size()) == events_depth_ + 1;
  }
  bool Scalar(Value v) {
    if (AtEventLevel()) event_.fields[event_key_] = std::move(v);  // last duplicate key wins
    return true;
  }
  const Value* Field(const char* name) const {
    auto it = event_.fields.find(name);
    return it == event_.fields.end() ? nullptr : &it->second;
  }
  std::optional<std::string> StringField(const char* name) const {
    const Value* v = Field(name);
    if (v == nullptr || v->kind != Value::kString) return std::nullopt;
    return v->text;
  }

  bool Finish() {
    ++out_->events_seen;
    const auto ph = StringField("ph");
    const auto cat = StringField("cat");
    if (!ph || *ph != "X" || !cat) return true;
    const auto name = StringField("name").value_or("");
    bool is_kernel = *cat == "kernel" || *cat == "Kernel";
    if (*cat == "mtia_ccp_events" && name != "dma_request") is_kernel = true;
    if (!is_kernel) return true;
    const Value* dur = Field("dur");
    if (dur == nullptr || dur->kind == Value::kOther) {
      out_->error = "kernel event '" + name + "' has no numeric dur; the oracle does not decide";
      return false;
    }
    const auto ns = MicrosTextToNanos(dur->text);
    if (!ns) {
      out_->error = "kernel event '" + name + "' has unparseable dur '" + dur->text + "'";
      return false;
    }
    out_->kernels[name].durations_ns.push_back(*ns);
    return true;
  }

  OracleResult* out_;
  std::vector<char> stack_;
  int events_depth_ = -1;
  std::string top_key_;
  bool in_event_ = false;
  std::string event_key_;
  Event event_;
};

OracleResult ComputeOracle(const fs::path& path) {
  OracleResult result;
  std::string error;
  const std::string text = Gunzip(path, &error);
  if (!error.empty()) {
    result.error = error;
    return result;
  }
  KinetoSax sax(&result);
  const bool parsed = json::sax_parse(text, &sax);
  if (!parsed && result.error.empty()) result.error = "SAX parse stopped";
  result.ok = parsed && result.error.empty();
  for (auto& [name, stats] : result.kernels) {
    std::sort(stats.durations_ns.begin(), stats.durations_ns.end());
  }
  return result;
}

// Each trace is parsed once per process (the multi-file tests reuse the per-file results).
const OracleResult& Oracle(const fs::path& path) {
  static std::mutex mu;
  static std::map<std::string, OracleResult> cache;
  std::lock_guard<std::mutex> lock(mu);
  auto it = cache.find(path.string());
  if (it == cache.end()) it = cache.emplace(path.string(), ComputeOracle(path)).first;
  return it->second;
}

// ------------------------------------------------------------------------------------------------
// Expected per-row statistics.

struct Expected {
  int64_t count = 0;
  int64_t total_ns = 0;
  int64_t min_ns = 0;
  int64_t max_ns = 0;
  double mean_ns = 0;
  double median_ns = 0;
  double stddev_ns = 0;
};

Expected Summarize(std::vector<int64_t> d) {
  std::sort(d.begin(), d.end());
  Expected e;
  e.count = static_cast<int64_t>(d.size());
  if (d.empty()) return e;
  for (int64_t v : d) e.total_ns += v;
  e.min_ns = d.front();
  e.max_ns = d.back();
  const long double mean =
      static_cast<long double>(e.total_ns) / static_cast<long double>(d.size());
  e.mean_ns = static_cast<double>(mean);
  const size_t n = d.size();
  e.median_ns = n % 2 == 1 ? static_cast<double>(d[n / 2])
                           : (static_cast<long double>(d[n / 2 - 1]) + d[n / 2]) / 2.0L;
  if (n > 1) {
    long double ss = 0;
    for (int64_t v : d) {
      const long double dev = static_cast<long double>(v) - mean;
      ss += dev * dev;
    }
    e.stddev_ns = static_cast<double>(std::sqrt(ss / static_cast<long double>(n - 1)));
  }
  return e;
}

bool Close(double actual, double expected) {
  const double diff = std::fabs(actual - expected);
  return diff <= 0.5 || diff <= 1e-6 * std::fabs(expected);
}

int64_t IntField(const json& row, const char* key) {
  const auto it = row.find(key);
  if (it == row.end() || !it->is_number_integer()) {
    ADD_FAILURE() << "row field '" << key << "' missing or not an integer in " << row.dump();
    return INT64_MIN;
  }
  return it->get<int64_t>();
}

double NumField(const json& row, const char* key) {
  const auto it = row.find(key);
  if (it == row.end() || !it->is_number()) {
    ADD_FAILURE() << "row field '" << key << "' missing or not a number in " << row.dump();
    return NAN;
  }
  return it->get<double>();
}

// Checks one output row against the oracle's durations for that kernel.
void CheckRow(const json& row, const std::vector<int64_t>& durations, const std::string& where) {
  const std::string name = row.value("name", std::string("?"));
  SCOPED_TRACE(where + " kernel '" + name + "'");
  const Expected e = Summarize(durations);
  EXPECT_EQ(IntField(row, "count"), e.count);
  EXPECT_EQ(IntField(row, "total_ns"), e.total_ns);
  EXPECT_EQ(IntField(row, "min_ns"), e.min_ns);
  EXPECT_EQ(IntField(row, "max_ns"), e.max_ns);
  const double mean = NumField(row, "mean_ns");
  EXPECT_TRUE(Close(mean, e.mean_ns))
      << "mean_ns: tensormorph " << mean << ", oracle " << e.mean_ns;
  const double median = NumField(row, "median_ns");
  EXPECT_TRUE(Close(median, e.median_ns))
      << "median_ns: tensormorph " << median << ", oracle " << e.median_ns;
  const double stddev = NumField(row, "stddev_ns");
  EXPECT_TRUE(Close(stddev, e.stddev_ns))
      << "stddev_ns: tensormorph " << stddev << ", oracle " << e.stddev_ns;
}

// ------------------------------------------------------------------------------------------------
// Running the binary.

using tensormorph::testing::RunResult;
using tensormorph::testing::RunTensormorph;

// Runs `tensormorph kernels --format json --quiet [extra...] files...` and parses its output.
std::optional<json> RunKernels(const std::vector<fs::path>& files,
                               const std::vector<std::string>& extra = {}) {
  std::vector<std::string> args = {"kernels", "--format", "json", "--quiet"};
  args.insert(args.end(), extra.begin(), extra.end());
  for (const auto& f : files) args.push_back(f.string());
  const RunResult r = RunTensormorph(args);
  EXPECT_EQ(r.exit_code, 0) << "tensormorph exit code; stdout head: " << r.out.substr(0, 500);
  if (r.exit_code != 0) return std::nullopt;
  json doc = json::parse(r.out, nullptr, /*allow_exceptions=*/false);
  EXPECT_FALSE(doc.is_discarded()) << "output is not JSON: " << r.out.substr(0, 500);
  if (doc.is_discarded()) return std::nullopt;
  EXPECT_EQ(doc.value("schema", std::string()), "tensormorph.kernels/1");
  EXPECT_TRUE(doc.contains("inputs") && doc["inputs"].is_array());
  EXPECT_TRUE(doc.contains("rows") && doc["rows"].is_array());
  EXPECT_TRUE(doc.contains("total_ns") && doc["total_ns"].is_number_integer());
  if (!doc.contains("rows") || !doc["rows"].is_array() || !doc.contains("inputs") ||
      !doc["inputs"].is_array()) {
    return std::nullopt;
  }
  EXPECT_EQ(doc["inputs"].size(), files.size());
  return doc;
}

// ------------------------------------------------------------------------------------------------
// The corpus and its hard-coded expectations (from shared/data/PROVENANCE.md).

const fs::path& KinetoDir() {
  static const fs::path dir = fs::path(TM_SHARED_DATA) / "kineto";
  return dir;
}

constexpr size_t kMinTraces = 32;

std::vector<std::string> DiscoverTraces() {  // paths relative to kineto/, sorted
  std::vector<std::string> out;
  std::error_code ec;
  if (!fs::is_directory(KinetoDir(), ec)) return out;
  for (const auto& entry : fs::recursive_directory_iterator(KinetoDir(), ec)) {
    const std::string name = entry.path().filename().string();
    if (entry.is_regular_file() && name.size() > 8 &&
        name.compare(name.size() - 8, 8, ".json.gz") == 0) {
      out.push_back(fs::relative(entry.path(), KinetoDir()).generic_string());
    }
  }
  std::sort(out.begin(), out.end());
  return out;
}

struct FileExpectation {
  bool has_kernels = true;
  std::string backend;  // expected backend of every row ("" when no rows are expected)
};

std::optional<FileExpectation> ExpectationFor(const std::string& rel) {
  auto starts = [&](const char* p) { return rel.rfind(p, 0) == 0; };
  if (rel == "hta/cpu_only_rank34.pt.trace.json.gz") return FileExpectation{false, ""};
  // Only cuda_profiler_range events: a CUDA trace without any kernel row.
  if (rel == "hta/cupti_profiler_counters_trace.json.gz") return FileExpectation{false, "cuda"};
  // tracelens_pairs/: the same models on an H100 (CUDA) and an MI300X (ROCm).
  if (starts("tracelens_pairs/h100_")) return FileExpectation{true, "cuda"};
  if (starts("tracelens_pairs/mi300_")) return FileExpectation{true, "rocm"};
  if (rel == "hta/alexnet_a100_cuda_sync_trace.json.gz" ||
      rel == "hta/inference_rank_1_oldformat.json.gz" ||
      rel == "hta/nccl_2rank_rank0_a100.json.gz" || rel == "hta/triton_example.json.gz" ||
      starts("hta/multirank_sampled/") || starts("hta/trace_diff/") ||
      starts("hta/trace_compare/") || starts("param_dlrm_8rank/") || starts("hta_cudagraph/")) {
    return FileExpectation{true, "cuda"};
  }
  // legacy/: a 2021 autograd-profiler trace (cat "Kernel", Volta) and a 2023 RTX 2080 Ti one;
  // hta_more/: HTA's A100 cross-stream event-wait fixture.
  if (starts("legacy/") || starts("hta_more/")) return FileExpectation{true, "cuda"};
  if (rel == "hta/mi250_minitoy_train_ROCm6_2_kineto.json.gz" || starts("tracelens/") ||
      starts("tracelens_more/")) {
    return FileExpectation{true, "rocm"};
  }
  if (rel == "hta/mtia_inference_rank_0.json.gz") return FileExpectation{true, "other"};
  return std::nullopt;
}

TEST(KinetoOracleCorpus, AllTracesFoundAndClassified) {
  const auto traces = DiscoverTraces();
  EXPECT_GE(traces.size(), kMinTraces) << "too few .json.gz traces under " << KinetoDir();
  for (const auto& rel : traces) {
    EXPECT_TRUE(ExpectationFor(rel).has_value()) << "no hard-coded expectation for " << rel;
  }
}

std::string TestNameFor(const std::string& rel) {
  std::string base = rel;
  if (base.size() > 8 && base.compare(base.size() - 8, 8, ".json.gz") == 0) {
    base.resize(base.size() - 8);
  }
  std::string out;
  for (char c : base) {
    const bool alnum = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
    out += alnum ? c : '_';
  }
  return out;
}

// Checks one single-file (or per-input) set of rows against the oracle of one file.
void CheckRowsAgainstOracle(const std::vector<json>& rows, const OracleResult& oracle,
                            const FileExpectation& expect, const std::string& where) {
  // Rows of Itanium-mangled kernels show the demangled name and keep the trace's in
  // `mangled_name`; the oracle knows the trace's. The demangled text is checked against c++filt.
  std::map<std::string, const json*> by_name;
  for (const json& row : rows) {
    std::string name = row.value("name", std::string());
    if (row.contains("mangled_name") && row["mangled_name"].is_string()) {
      const std::string mangled = row["mangled_name"];
      EXPECT_EQ(name, tensormorph::testing::DemangledByCxxFilt(mangled)) << where;
      name = mangled;
    } else {
      EXPECT_FALSE(name.starts_with("_Z") &&
                   !tensormorph::testing::DemangledByCxxFilt(name).empty())
          << where << ": a mangled name shown as is: " << name;
    }
    EXPECT_TRUE(by_name.emplace(name, &row).second)
        << where << ": duplicate row for kernel '" << name << "'";
    EXPECT_EQ(row.value("backend", std::string()), expect.backend)
        << where << ": backend of kernel '" << name << "'";
  }
  std::set<std::string> got_names;
  for (const auto& [name, row] : by_name) got_names.insert(name);
  std::set<std::string> want_names;
  for (const auto& [name, stats] : oracle.kernels) want_names.insert(name);
  for (const auto& n : want_names) {
    EXPECT_TRUE(got_names.count(n))
        << where << ": kernel missing from output: '" << n << "' (oracle count "
        << oracle.kernels.at(n).durations_ns.size() << ")";
  }
  for (const auto& n : got_names) {
    EXPECT_TRUE(want_names.count(n)) << where << ": unexpected kernel in output: '" << n << "'";
  }
  for (const auto& [name, row] : by_name) {
    auto it = oracle.kernels.find(name);
    if (it != oracle.kernels.end()) CheckRow(*row, it->second.durations_ns, where);
  }
}

int64_t OracleTotal(const OracleResult& oracle) {
  int64_t total = 0;
  for (const auto& [name, stats] : oracle.kernels) {
    for (int64_t d : stats.durations_ns) total += d;
  }
  return total;
}

bool InputHasBackend(const json& input, const std::string& backend) {
  if (!input.contains("backends") || !input["backends"].is_array()) return false;
  for (const auto& b : input["backends"]) {
    if (b.is_string() && b.get<std::string>() == backend) return true;
  }
  return false;
}

// ------------------------------------------------------------------------------------------------
// Per-file test.

class KinetoOracleTest : public ::testing::TestWithParam<std::string> {};

TEST_P(KinetoOracleTest, KernelsMatchOracle) {
  const std::string rel = GetParam();
  const fs::path path = KinetoDir() / rel;
  const auto expect = ExpectationFor(rel);
  ASSERT_TRUE(expect.has_value()) << "no hard-coded expectation for " << rel;

  const OracleResult& oracle = Oracle(path);
  ASSERT_TRUE(oracle.ok) << rel << ": oracle failed: " << oracle.error;
  ASSERT_GT(oracle.events_seen, 0u) << rel << ": oracle found no events";
  if (expect->has_kernels) {
    ASSERT_FALSE(oracle.kernels.empty()) << rel << ": oracle found no kernels";
  } else {
    ASSERT_TRUE(oracle.kernels.empty()) << rel << ": oracle found kernels in a kernel-free trace";
  }

  const auto doc = RunKernels({path});
  ASSERT_TRUE(doc.has_value());
  const json& inputs = (*doc)["inputs"];
  ASSERT_EQ(inputs.size(), 1u);
  EXPECT_TRUE(inputs[0].contains("path") && inputs[0]["path"].is_string());
  EXPECT_TRUE(inputs[0].contains("format") && inputs[0]["format"].is_string());
  EXPECT_TRUE(inputs[0].contains("backends") && inputs[0]["backends"].is_array());
  if (expect->has_kernels) {
    EXPECT_TRUE(InputHasBackend(inputs[0], expect->backend))
        << rel << ": inputs[0].backends lacks '" << expect->backend
        << "': " << inputs[0].value("backends", json::array()).dump();
  }

  const std::vector<json> rows((*doc)["rows"].begin(), (*doc)["rows"].end());
  EXPECT_EQ(rows.size(), oracle.kernels.size()) << rel << ": number of rows";
  CheckRowsAgainstOracle(rows, oracle, *expect, rel);
  EXPECT_EQ((*doc)["total_ns"].get<int64_t>(), OracleTotal(oracle)) << rel << ": total_ns";
}

INSTANTIATE_TEST_SUITE_P(Traces, KinetoOracleTest, ::testing::ValuesIn(DiscoverTraces()),
                         [](const ::testing::TestParamInfo<std::string>& info) {
                           return TestNameFor(info.param);
                         });

// ------------------------------------------------------------------------------------------------
// Multi-file tests (the two ranks of the sampled multi-rank job).

const fs::path kRank0 = "hta/multirank_sampled/sampled_rank-0.json.gz";
const fs::path kRank1 = "hta/multirank_sampled/sampled_rank-1.json.gz";

TEST(KinetoOracleMultiFile, TwoRanksAreSummedPerKernel) {
  const fs::path a = KinetoDir() / kRank0;
  const fs::path b = KinetoDir() / kRank1;
  const OracleResult& oa = Oracle(a);
  const OracleResult& ob = Oracle(b);
  ASSERT_TRUE(oa.ok) << oa.error;
  ASSERT_TRUE(ob.ok) << ob.error;

  std::map<std::string, std::vector<int64_t>> combined;
  for (const auto* o : {&oa, &ob}) {
    for (const auto& [name, stats] : o->kernels) {
      auto& v = combined[name];
      v.insert(v.end(), stats.durations_ns.begin(), stats.durations_ns.end());
    }
  }

  const auto doc = RunKernels({a, b});
  ASSERT_TRUE(doc.has_value());
  for (const auto& input : (*doc)["inputs"]) {
    EXPECT_TRUE(InputHasBackend(input, "cuda")) << input.dump();
  }
  const json& rows = (*doc)["rows"];
  EXPECT_EQ(rows.size(), combined.size()) << "number of rows";
  std::set<std::string> seen;
  for (const json& row : rows) {
    const std::string name = row.value("name", std::string());
    EXPECT_TRUE(seen.insert(name).second) << "duplicate row for kernel '" << name << "'";
    EXPECT_EQ(row.value("backend", std::string()), "cuda") << "backend of '" << name << "'";
    EXPECT_FALSE(row.contains("input")) << "rows carry an input without --by-input";
    auto it = combined.find(name);
    if (it == combined.end()) {
      ADD_FAILURE() << "unexpected kernel in output: '" << name << "'";
      continue;
    }
    CheckRow(row, it->second, "rank0+rank1");
  }
  for (const auto& [name, durations] : combined) {
    EXPECT_TRUE(seen.count(name)) << "kernel missing from output: '" << name << "'";
  }
  EXPECT_EQ((*doc)["total_ns"].get<int64_t>(), OracleTotal(oa) + OracleTotal(ob)) << "total_ns";
}

TEST(KinetoOracleMultiFile, ByInputRowsMatchEachFile) {
  const std::vector<fs::path> files = {KinetoDir() / kRank0, KinetoDir() / kRank1};
  std::vector<const OracleResult*> oracles;
  for (const auto& f : files) {
    oracles.push_back(&Oracle(f));
    ASSERT_TRUE(oracles.back()->ok) << f << ": " << oracles.back()->error;
  }

  const auto doc = RunKernels(files, {"--by-input"});
  ASSERT_TRUE(doc.has_value());
  const json& inputs = (*doc)["inputs"];
  ASSERT_EQ(inputs.size(), files.size());

  // Resolves a row's "input" (an index into inputs[], or a path) to an index into `files`.
  auto resolve = [&](const json& input) -> std::optional<size_t> {
    std::string p;
    if (input.is_number_integer()) {
      const auto idx = input.get<int64_t>();
      if (idx < 0 || idx >= static_cast<int64_t>(inputs.size())) return std::nullopt;
      if (!inputs[idx].contains("path") || !inputs[idx]["path"].is_string()) {
        return static_cast<size_t>(idx);  // fall back to argument order
      }
      p = inputs[idx]["path"].get<std::string>();
    } else if (input.is_string()) {
      p = input.get<std::string>();
    } else {
      return std::nullopt;
    }
    for (size_t i = 0; i < files.size(); ++i) {
      std::error_code ec;
      if (p == files[i].string() || fs::equivalent(p, files[i], ec)) return i;
    }
    return std::nullopt;
  };

  // inputs[i].path must name files[i] (argument order).
  for (size_t i = 0; i < files.size(); ++i) {
    EXPECT_EQ(resolve(json(static_cast<int64_t>(i))), std::optional<size_t>(i))
        << "inputs[" << i << "] does not name " << files[i];
  }

  std::vector<std::vector<json>> per_input(files.size());
  for (const json& row : (*doc)["rows"]) {
    if (!row.contains("input")) {
      ADD_FAILURE() << "--by-input row without an \"input\" field: " << row.dump();
      continue;
    }
    const auto idx = resolve(row["input"]);
    if (!idx) {
      ADD_FAILURE() << "row's input does not name one of the inputs: " << row["input"].dump();
      continue;
    }
    per_input[*idx].push_back(row);
  }
  int64_t want_total = 0;
  for (size_t i = 0; i < files.size(); ++i) {
    const std::string where = "--by-input " + files[i].filename().string();
    EXPECT_EQ(per_input[i].size(), oracles[i]->kernels.size()) << where << ": number of rows";
    CheckRowsAgainstOracle(per_input[i], *oracles[i], FileExpectation{true, "cuda"}, where);
    int64_t got = 0;
    for (const json& row : per_input[i]) got += row.value("total_ns", int64_t{0});
    EXPECT_EQ(got, OracleTotal(*oracles[i])) << where << ": sum of row total_ns";
    want_total += OracleTotal(*oracles[i]);
  }
  EXPECT_EQ((*doc)["total_ns"].get<int64_t>(), want_total) << "total_ns";
}

// Two unrelated runs, one CUDA (Qwen on an H100) and one ROCm (TimeSformer on an MI300X), are
// not one job's ranks: without --by-input the kernels are kept apart anyway, with a warning, and
// each input's rows hold its own kernels (the oracle's, per file) at shares of its own time.
TEST(KinetoOracleMultiFile, UnrelatedInputsAreKeptApart) {
  const std::vector<fs::path> files = {
      KinetoDir() / "tracelens_pairs/h100_qwen1.5-0.5b_inference.json.gz",
      KinetoDir() / "tracelens_pairs/mi300_timesformer_inference.json.gz"};
  std::vector<std::string> args = {"kernels", "--format", "json"};
  for (const fs::path& f : files) args.push_back(f.string());
  const RunResult r = RunTensormorph(args);
  ASSERT_EQ(r.exit_code, 0) << r.Describe();
  EXPECT_NE(r.err.find("not one job"), std::string::npos) << r.err;
  const json doc = json::parse(r.out);
  std::vector<int64_t> total(files.size(), 0);
  std::vector<double> percent(files.size(), 0);
  std::vector<size_t> rows(files.size(), 0);
  for (const json& row : doc["rows"]) {
    ASSERT_TRUE(row.contains("input")) << row.dump();
    const size_t input = row["input"].get<size_t>();
    ASSERT_LT(input, files.size());
    EXPECT_EQ(row["backend"], input == 0 ? "cuda" : "rocm") << row.dump();
    total[input] += row["total_ns"].get<int64_t>();
    percent[input] += row["percent"].get<double>();
    ++rows[input];
  }
  for (size_t i = 0; i < files.size(); ++i) {
    const OracleResult& oracle = Oracle(files[i]);
    ASSERT_TRUE(oracle.ok) << oracle.error;
    EXPECT_EQ(total[i], OracleTotal(oracle)) << files[i];
    EXPECT_EQ(rows[i], oracle.kernels.size()) << files[i];
    EXPECT_NEAR(percent[i], 100.0, 1e-6) << files[i];
  }
}

}  // namespace TM_UNITY_ID
}  // namespace
