// End-to-end: the binary on every file of ../shared/data/other/webgpu_browser, real output of ONNX
// Runtime Web 1.30 / 1.17 / 1.16 and TensorFlow.js 4.22 on Chromium's WebGPU (PROVENANCE.md,
// section "other/webgpu_browser"). Expected numbers come from walks of the files written here —
// line regexes for the console logs, nlohmann for the JSON — sharing no code with src/.

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <limits>
#include <map>
#include <nlohmann/json.hpp>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "support/files.h"
#include "support/run_tensormorph.h"

namespace {
namespace TM_UNITY_ID {  // unique per file in a unity batch (tests/CMakeLists.txt)

using tensormorph::testing::ReadFile;

namespace fs = std::filesystem;
using nlohmann::json;
using tensormorph::testing::RunResult;
using tensormorph::testing::RunTensormorph;

const std::string kDir = TM_SHARED_DATA "/other/webgpu_browser/";

std::vector<std::string> Lines(const std::string& path) {
  std::vector<std::string> lines;
  std::ifstream in(path, std::ios::binary);
  for (std::string line; std::getline(in, line);) {
    if (!line.empty() && line.back() == '\r') line.pop_back();
    lines.push_back(line);
  }
  return lines;
}

std::vector<std::string> Split(const std::string& s, char by) {
  std::vector<std::string> parts;
  std::stringstream in(s);
  for (std::string part; std::getline(in, part, by);) parts.push_back(part);
  return parts;
}

using Totals = std::map<std::string, std::pair<int64_t, int64_t>>;  // name -> (count, total ns)

// What the oracle expects of one readable file.
struct Expected {
  Totals kernels;
  int64_t kernel_count = 0, total_ns = 0;
  int64_t first_ns = std::numeric_limits<int64_t>::max(), last_end_ns = 0;
  void Add(const std::string& name, int64_t start_ns, int64_t duration_ns) {
    auto& [count, total] = kernels[name];
    ++count;
    total += duration_ns;
    ++kernel_count;
    total_ns += duration_ns;
    first_ns = std::min(first_ns, start_ns);
    last_end_ns = std::max(last_end_ns, start_ns + duration_ns);
  }
};

json RunJson(const std::vector<std::string>& args) {
  RunResult r = RunTensormorph(args);
  EXPECT_EQ(r.exit_code, 0) << r.Describe();
  json doc = json::parse(r.out, nullptr, false);
  EXPECT_FALSE(doc.is_discarded()) << r.Describe();
  return doc;
}

// `tensormorph kernels` per name, checked against the oracle's totals.
void ExpectKernels(const std::string& file, const Expected& expected,
                   std::vector<std::string> extra = {}) {
  std::vector<std::string> args = {"kernels", "--format", "json", "--quiet"};
  args.insert(args.end(), extra.begin(), extra.end());
  args.push_back(kDir + file);
  const json doc = RunJson(args);
  EXPECT_EQ(doc["kernel_count"], expected.kernel_count) << file;
  EXPECT_EQ(doc["total_ns"], expected.total_ns) << file;
  Totals rows;
  for (const json& row : doc["rows"]) {
    EXPECT_EQ(row["backend"], "webgpu") << file;
    rows[row["name"].get<std::string>()] = {row["count"].get<int64_t>(),
                                            row["total_ns"].get<int64_t>()};
  }
  EXPECT_EQ(rows, expected.kernels) << file;
}

// `tensormorph info`: the input, after checking its format and its one WebGPU device.
json Info(const std::string& file, const std::string& format, std::vector<std::string> extra = {}) {
  std::vector<std::string> args = {"info", "--format", "json", "--quiet"};
  args.insert(args.end(), extra.begin(), extra.end());
  args.push_back(kDir + file);
  const json doc = RunJson(args);
  const json& input = doc["inputs"][0];
  EXPECT_EQ(input["format"], format) << file;
  EXPECT_NE(std::find(input["backends"].begin(), input["backends"].end(), "webgpu"),
            input["backends"].end())
      << input["backends"];
  EXPECT_EQ(input["devices"].size(), 1u) << input["devices"];
  EXPECT_EQ(input["devices"][0]["backend"], "webgpu") << file;
  return input;
}

// ns from a decimal ms value of tf.profile() / the DEBUG log. The values have at most 6 decimals
// or are a double's shortest text of such a value (1.5269979999999999): rounding ms * 1e6 gives
// the integer ns that the exact decimal conversion gives.
int64_t MsToNs(double ms) {
  return std::llround(ms * 1e6);
}

// ---------------------------------------------------------------------------------------------
// ONNX Runtime Web 1.30 (JSEP): "[profiling] kernel "id|type|node|program" <shapes>, start time:
// N ns, execution time: N ns". Kernel = program, op = type; real start times.

const std::regex kOrt130Line(
    R"re(^\[profiling\] kernel "([^"]*)" .*start time: (\d+) ns, execution time: (\d+) ns$)re");

struct OrtLines {
  Expected kernels;
  std::map<std::string, std::pair<int64_t, int64_t>> ops;  // kernelType -> (calls, ns)
  int64_t lines = 0;
};

OrtLines Ort130Oracle(const std::string& file) {
  OrtLines out;
  std::smatch m;
  for (const std::string& line : Lines(kDir + file)) {
    if (!std::regex_match(line, m, kOrt130Line)) continue;
    const std::vector<std::string> label = Split(m[1].str(), '|');
    const int64_t start = std::stoll(m[2].str()), duration = std::stoll(m[3].str());
    out.kernels.Add(label.at(3), start, duration);
    auto& [calls, ns] = out.ops[label.at(1)];
    ++calls;
    ns += duration;
    ++out.lines;
  }
  return out;
}

void ExpectOps(const std::string& file,
               const std::map<std::string, std::pair<int64_t, int64_t>>& ops,
               std::vector<std::string> extra = {}) {
  std::vector<std::string> args = {"ops", "--format", "json", "--quiet"};
  args.insert(args.end(), extra.begin(), extra.end());
  args.push_back(kDir + file);
  const json doc = RunJson(args);
  std::map<std::string, std::pair<int64_t, int64_t>> rows;
  for (const json& row : doc["rows"]) {
    if (row["origin"] != "op") continue;
    if (ops.count(row["name"].get<std::string>()) == 0) continue;  // host-only ops (Reshape)
    rows[row["name"].get<std::string>()] = {row["calls"].get<int64_t>(),
                                            row["device_ns"].get<int64_t>()};
  }
  EXPECT_EQ(rows, ops) << file;
}

// The whole console: 133 lines = 52 [profiling] lines, 12 "[harness] ..." lines and the session
// profile ORT printed ("[", 67 event lines, "]"), as the walk below counts them.
TEST(WebGpuBrowser, Ort130WholeConsoleReadsProfilingLinesAtTheirStartTimes) {
  const std::string file = "ort130_jsep_convnet_console.log";
  const OrtLines oracle = Ort130Oracle(file);
  ASSERT_EQ(oracle.lines, 52);  // PROVENANCE: 5 runs of the convnet
  int64_t nonblank = 0, harness = 0, events = 0;
  for (const std::string& line : Lines(kDir + file)) {
    if (line.empty()) continue;
    ++nonblank;
    if (line.rfind("[harness]", 0) == 0) ++harness;
    if (line.rfind("{\"cat\"", 0) == 0) ++events;
  }
  EXPECT_EQ(harness, 12);
  ExpectKernels(file, oracle.kernels);
  ExpectOps(file, oracle.ops);

  const json input = Info(file, "ort-web-log");
  EXPECT_EQ(input["span"]["start_ns"], oracle.kernels.first_ns);  // 0: relative to the first
  EXPECT_EQ(input["span"]["end_ns"], oracle.kernels.last_end_ns);
  EXPECT_FALSE(input["metadata"].contains("timeline"));  // not synthetic
  EXPECT_EQ(input["counts"]["kernels"], oracle.lines);
  EXPECT_EQ(input["counts"]["other"], nonblank - oracle.lines);
  EXPECT_EQ(input["metadata"]["session_profile_events"], std::to_string(events));
  const std::string warnings = input["warnings"].dump();
  EXPECT_NE(warnings.find(std::to_string(nonblank - oracle.lines) + " console lines"),
            std::string::npos)
      << warnings;
  EXPECT_NE(warnings.find("other output: " + std::to_string(harness)), std::string::npos)
      << warnings;
}

TEST(WebGpuBrowser, Ort130ProfilingLinesAloneGiveTheSameKernels) {
  const std::string file = "ort130_jsep_convnet_console.profiling-lines.txt";
  const OrtLines oracle = Ort130Oracle(file);
  EXPECT_EQ(oracle.lines, static_cast<int64_t>(Lines(kDir + file).size()));
  ExpectKernels(file, oracle.kernels);
  const json input = Info(file, "ort-web-log");
  EXPECT_EQ(input["span"]["start_ns"], oracle.kernels.first_ns);
  EXPECT_EQ(input["span"]["end_ns"], oracle.kernels.last_end_ns);
  EXPECT_EQ(input["counts"]["other"], 0);
  EXPECT_EQ(input["warnings"].size(), 0u) << input["warnings"];
}

// ---------------------------------------------------------------------------------------------
// ONNX Runtime Web 1.17 ("id|type|node|program" ... execution time) and 1.16 ("id|type"
// execution time): durations only, laid end to end from 0.

void ExpectOldConsole(const std::string& file, size_t kernel_part, int64_t expected_lines) {
  const std::regex line_re(R"re(^\[profiling\] kernel "([^"]*)" .*execution time: (\d+) ns$)re");
  const std::regex short_re(R"re(^\[profiling\] kernel "([^"]*)" execution time: (\d+) ns$)re");
  Expected oracle;
  int64_t cursor = 0, lines = 0, other = 0;
  std::smatch m;
  for (const std::string& line : Lines(kDir + file)) {
    if (line.empty()) continue;
    if (!std::regex_match(line, m, line_re) && !std::regex_match(line, m, short_re)) {
      ++other;
      continue;
    }
    ASSERT_EQ(line.find("start time"), std::string::npos) << line;
    const int64_t duration = std::stoll(m[2].str());
    oracle.Add(Split(m[1].str(), '|').at(kernel_part), cursor, duration);
    cursor += duration;
    ++lines;
  }
  EXPECT_EQ(lines, expected_lines);
  ExpectKernels(file, oracle);
  const json input = Info(file, "ort-web-log");
  EXPECT_EQ(input["span"]["start_ns"], 0);
  EXPECT_EQ(input["span"]["end_ns"], oracle.total_ns);
  EXPECT_EQ(input["metadata"]["timeline"], "\"synthetic\"");
  EXPECT_EQ(input["counts"]["other"], other);
}

TEST(WebGpuBrowser, Ort1173ConsoleIsDurationsOnly) {
  ExpectOldConsole("ort1173_jsep_convnet_console.log", 3, 52);
}

TEST(WebGpuBrowser, Ort1163ConsoleNamesKernelsByOpType) {
  ExpectOldConsole("ort1163_jsep_convnet_console.log", 1, 62);
}

// ---------------------------------------------------------------------------------------------
// ONNX Runtime Web 1.30 ondata objects: kernel = programName, [startTime, endTime] ns.

Expected OndataOracle(const std::vector<json>& objects) {
  Expected oracle;
  for (const json& o : objects) {
    oracle.Add(o["programName"].get<std::string>(), o["startTime"].get<int64_t>(),
               o["endTime"].get<int64_t>() - o["startTime"].get<int64_t>());
  }
  return oracle;
}

TEST(WebGpuBrowser, Ort130OndataArrayAndNdjson) {
  const json array = json::parse(ReadFile(kDir + "ort130_jsep_convnet_ondata.json"));
  std::vector<json> from_array(array.begin(), array.end());
  std::vector<json> from_lines;
  for (const std::string& line : Lines(kDir + "ort130_jsep_convnet_ondata.ndjson")) {
    if (!line.empty()) from_lines.push_back(json::parse(line));
  }
  ASSERT_EQ(from_array.size(), 52u);
  ASSERT_EQ(from_lines.size(), 52u);
  for (const auto& [file, objects] :
       {std::pair{std::string("ort130_jsep_convnet_ondata.json"), from_array},
        std::pair{std::string("ort130_jsep_convnet_ondata.ndjson"), from_lines}}) {
    const Expected oracle = OndataOracle(objects);
    ExpectKernels(file, oracle);
    const json input = Info(file, "ort-web-profiling");
    EXPECT_EQ(input["span"]["start_ns"], oracle.first_ns);
    EXPECT_EQ(input["span"]["end_ns"], oracle.last_end_ns);
  }
}

// ---------------------------------------------------------------------------------------------
// ONNX Runtime session profiles (the onnxruntime importer). The native WebGPU EP's ends "},\n]"
// (a trailing comma), so the oracle walks its lines with a regex rather than parsing JSON.

TEST(WebGpuBrowser, NativeWebGpuEpDispatchesAreKernelsOfTheirNodes) {
  const std::string file = "ort130_native_convnet_sessprof.session-profile.json";
  const std::regex event_re(
      R"re(^\{"cat" : "(\w+)","pid" :-?\d+,"tid" :-?\d+,"dur" :(\d+),"ts" :(\d+),"ph" : "X","name" :"([^"]*)")re");
  const std::regex op_name_re(R"re("op_name" : "(\w+)")re");
  Expected all;
  std::map<std::string, int64_t> node_calls;                // op type -> Node events
  std::map<std::string, std::pair<int64_t, int64_t>> ops;   // op type -> (node calls, Api ns)
  std::vector<std::pair<int64_t, int64_t>> runs;            // model_run windows, µs
  std::vector<std::pair<int64_t, std::string>> dispatches;  // (ts µs, program)
  std::smatch m;
  for (const std::string& line : Lines(kDir + file)) {
    if (!std::regex_search(line, m, event_re)) continue;
    const int64_t dur = std::stoll(m[2].str()), ts = std::stoll(m[3].str());
    if (m[4] == "model_run") runs.emplace_back(ts, ts + dur);
    std::smatch op;
    if (m[1] == "Node" && std::regex_search(line, op, op_name_re)) ++node_calls[op[1].str()];
    if (m[1] != "Api") continue;
    const std::vector<std::string> parts = Split(m[4].str(), '&');  // node&OpType&Program
    ASSERT_EQ(parts.size(), 3u) << line;
    all.Add(parts[2], ts * 1000, dur * 1000);
    ops[parts[1]].second += dur * 1000;
    dispatches.emplace_back(ts, parts[2]);
  }
  for (auto& [type, calls_ns] : ops) calls_ns.first = node_calls[type];
  ASSERT_EQ(all.kernel_count, 50);
  ASSERT_EQ(runs.size(), 5u);
  ExpectKernels(file, all, {"--skip-runs", "0"});
  // Every dispatch attributed to its node's op (op type = the middle part of the name), though
  // it ran on the GPU after the node's host time.
  ExpectOps(file, ops, {"--skip-runs", "0"});

  // By default the first model run is warm-up: its dispatches (by time) are left out.
  std::sort(runs.begin(), runs.end());
  int64_t kept = 0;
  for (const auto& [ts, program] : dispatches) {
    if (ts < runs[0].first || ts > runs[0].second) ++kept;
  }
  EXPECT_EQ(kept, 40);
  const json doc = RunJson({"kernels", "--format", "json", "--quiet", kDir + file});
  EXPECT_EQ(doc["kernel_count"], kept);

  const json input = Info(file, "onnxruntime", {"--skip-runs", "0"});
  EXPECT_EQ(input["devices"][0]["name"], "WebGpuExecutionProvider");
  EXPECT_EQ(input["counts"]["kernels"], 50);
}

// The JSEP session profile has no GPU events: its kernels are the Node events' host times.
TEST(WebGpuBrowser, JsepSessionProfileHasNodeTimesOnly) {
  const std::string file = "ort130_jsep_convnet_console.session-profile.json";
  const json events = json::parse(ReadFile(kDir + file));
  Expected oracle;
  const std::string suffix = "_kernel_time";
  for (const json& e : events) {
    const std::string name = e["name"];
    if (e["cat"] != "Node" || name.size() <= suffix.size() ||
        name.compare(name.size() - suffix.size(), suffix.size(), suffix) != 0) {
      continue;
    }
    oracle.Add(name.substr(0, name.size() - suffix.size()), e["ts"].get<int64_t>() * 1000,
               e["dur"].get<int64_t>() * 1000);
  }
  EXPECT_EQ(oracle.kernel_count, 55);  // 11 nodes x 5 runs
  ExpectKernels(file, oracle, {"--skip-runs", "0"});
  const json input = Info(file, "onnxruntime", {"--skip-runs", "0"});
  EXPECT_EQ(input["devices"][0]["name"], "JsExecutionProvider");
  EXPECT_NE(input["warnings"].dump().find("no GPU kernel events for JsExecutionProvider"),
            std::string::npos);
}

// ---------------------------------------------------------------------------------------------
// TensorFlow.js 4.22: five tf.profile() results, as a JSON array and as NDJSON. Kernel = name,
// kernelTimeMs (ms) -> ns; laid end to end, a 0 ns kernel 1 ns after the previous end and 1 ns
// before the next start (docs/webgpu.md).

void ExpectTfjsProfiles(const std::string& file, const std::vector<json>& results) {
  Expected oracle;
  int64_t cursor = 0, new_bytes = 0, peak_bytes = 0;
  for (const json& result : results) {
    new_bytes += result["newBytes"].get<int64_t>();
    peak_bytes = std::max(peak_bytes, result["peakBytes"].get<int64_t>());
    for (const json& kernel : result["kernels"]) {
      const int64_t ns = MsToNs(kernel["kernelTimeMs"].get<double>());
      const int64_t start = ns == 0 ? cursor + 1 : cursor;
      oracle.Add(kernel["name"].get<std::string>(), start, ns);
      cursor = start + ns + (ns == 0 ? 1 : 0);
    }
  }
  ExpectKernels(file, oracle);
  const json input = Info(file, "tfjs-profile");
  EXPECT_EQ(input["counts"]["kernels"], oracle.kernel_count);
  EXPECT_EQ(input["counts"]["annotations"], static_cast<int64_t>(results.size()));  // one a run
  EXPECT_EQ(input["span"]["start_ns"], 0);
  EXPECT_EQ(input["span"]["end_ns"], oracle.last_end_ns);
  EXPECT_EQ(input["metadata"]["timeline"], "\"synthetic\"");
  EXPECT_EQ(input["metadata"]["profile_results"], std::to_string(results.size()));
  EXPECT_EQ(input["metadata"]["newBytes"], std::to_string(new_bytes));
  EXPECT_EQ(input["metadata"]["peakBytes"], std::to_string(peak_bytes));
}

TEST(WebGpuBrowser, TfjsProfileArrayAndNdjsonAreRunsOfKernels) {
  const json array = json::parse(ReadFile(kDir + "tfjs422_convnet.profiles.json"));
  std::vector<json> from_array(array.begin(), array.end());
  std::vector<json> from_lines;
  for (const std::string& line : Lines(kDir + "tfjs422_convnet.profiles.ndjson")) {
    if (!line.empty()) from_lines.push_back(json::parse(line));
  }
  ASSERT_EQ(from_array.size(), 5u);
  ASSERT_EQ(from_lines.size(), 5u);
  size_t kernels = 0;
  for (const json& r : from_array) kernels += r["kernels"].size();
  EXPECT_EQ(kernels, 100u);  // 20 a run
  ExpectTfjsProfiles("tfjs422_convnet.profiles.json", from_array);
  ExpectTfjsProfiles("tfjs422_convnet.profiles.ndjson", from_lines);
}

// DEBUG mode: "%c<name>\t%c<ms>ms\t..." a line, 11 lines, every one a kernel.
TEST(WebGpuBrowser, TfjsDebugConsoleKernelLines) {
  const std::string file = "tfjs422_debug_ops.console.log";
  const std::regex line_re(R"re(^%c(\S+) *\t%c([0-9.]+)ms *\t)re");
  Expected oracle;
  int64_t cursor = 0;
  std::smatch m;
  for (const std::string& line : Lines(kDir + file)) {
    ASSERT_TRUE(std::regex_search(line, m, line_re)) << line;
    const int64_t ns = MsToNs(std::stod(m[2].str()));
    oracle.Add(m[1].str(), cursor, ns);
    cursor += ns;
  }
  EXPECT_EQ(oracle.kernel_count, 11);
  ExpectKernels(file, oracle);
  const json input = Info(file, "tfjs-debug-log");
  EXPECT_EQ(input["span"]["end_ns"], oracle.total_ns);
  EXPECT_EQ(input["counts"]["other"], 0);
}

// ---------------------------------------------------------------------------------------------
// Files that hold no per-kernel times: refused (exit 3) with what to save instead.

TEST(WebGpuBrowser, FilesWithoutKernelTimesAreRefusedClearly) {
  for (const auto& [file, message] : std::vector<std::pair<std::string, std::string>>{
           {"tfjs422_convnet.time.json", "tf.time() results"},
           {"adapter_info.json", "a WebGPU adapter description"},
           {"tiny_convnet.onnx", "an ONNX model"}}) {
    RunResult r = RunTensormorph({"info", "--format", "json", kDir + file});
    ASSERT_TRUE(r.Clean()) << r.Describe();
    EXPECT_EQ(r.exit_code, 3) << r.Describe();
    EXPECT_NE(r.err.find(message), std::string::npos) << r.err;
    EXPECT_NE(r.err.find(file), std::string::npos) << r.err;
  }
  RunResult r = RunTensormorph({"kernels", kDir + "tfjs422_convnet.time.json"});
  EXPECT_NE(r.err.find("save tf.profile() results"), std::string::npos) << r.err;
}

// Every file of the folder is covered above: a new one must get a test.
TEST(WebGpuBrowser, EveryFileOfTheFolderIsTested) {
  const std::set<std::string> tested = {
      "adapter_info.json",
      "ort1163_jsep_convnet_console.log",
      "ort1173_jsep_convnet_console.log",
      "ort130_jsep_convnet_console.log",
      "ort130_jsep_convnet_console.profiling-lines.txt",
      "ort130_jsep_convnet_console.session-profile.json",
      "ort130_jsep_convnet_ondata.json",
      "ort130_jsep_convnet_ondata.ndjson",
      "ort130_native_convnet_sessprof.session-profile.json",
      "tfjs422_convnet.profiles.json",
      "tfjs422_convnet.profiles.ndjson",
      "tfjs422_convnet.time.json",
      "tfjs422_debug_ops.console.log",
      "tiny_convnet.onnx",
  };
  std::set<std::string> present;
  for (const auto& entry : fs::directory_iterator(kDir)) {
    present.insert(entry.path().filename().string());
  }
  EXPECT_EQ(present, tested);
}

}  // namespace TM_UNITY_ID
}  // namespace
