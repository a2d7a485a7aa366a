// End-to-end tests of the bad-input contract: whatever bytes a user hands to the binary, it gives
// either a clear error naming the file (and the position, where there is one) or a warning and a
// recovered result. Never a crash (signal), never a hang, never a silently wrong number.
//
//   exit 0: ok (possibly with warnings); 2: usage error; 3: input that cannot be read.
//   errors:   `tensormorph: error: <file>[:<line>:<col>]: <what is wrong>` on stderr
//   warnings: `tensormorph: warning: <file>: <message>` on stderr (kernels), or in the output of
//             `info` (inputs[i].warnings in --format json)
//
// Every test writes its inputs into a fresh temporary directory and runs the real binary through
// `timeout`, so that a hang fails the test instead of stalling the suite.

#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>
#include <zlib.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <random>
#include <set>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

#include "support/files.h"
#include "support/run_tensormorph.h"

namespace {
namespace TM_UNITY_ID {  // unique per file in a unity batch (tests/CMakeLists.txt)

using tensormorph::testing::ReadFile;

namespace fs = std::filesystem;
using nlohmann::json;

constexpr int kTimeoutSeconds = 20;

// ------------------------------------------------------------------------------------------------
// Files.

void WriteBytes(const fs::path& path, std::string_view bytes) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
  ASSERT_TRUE(out.good()) << "cannot write " << path;
}

void WriteGzipBytes(const fs::path& path, std::string_view bytes) {
  gzFile gz = gzopen(path.c_str(), "wb");
  ASSERT_NE(gz, nullptr) << "cannot open " << path;
  size_t done = 0;
  while (done < bytes.size()) {
    const unsigned n = static_cast<unsigned>(std::min<size_t>(bytes.size() - done, 1 << 20));
    ASSERT_EQ(gzwrite(gz, bytes.data() + done, n), static_cast<int>(n));
    done += n;
  }
  ASSERT_EQ(gzclose(gz), Z_OK);
}

// Inflates as much of a (possibly cut off) gzip stream as zlib can: what any reader of the file
// could know of its content.
std::string InflatePrefix(std::string_view gz) {
  std::string out;
  if (gz.size() < 2 || static_cast<unsigned char>(gz[0]) != 0x1f ||
      static_cast<unsigned char>(gz[1]) != 0x8b) {
    return out;
  }
  z_stream zs{};
  if (inflateInit2(&zs, 16 + MAX_WBITS) != Z_OK) return out;
  zs.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(gz.data()));
  zs.avail_in = static_cast<uInt>(gz.size());
  char buffer[4096];
  for (;;) {
    zs.next_out = reinterpret_cast<Bytef*>(buffer);
    zs.avail_out = sizeof buffer;
    const int rc = inflate(&zs, Z_NO_FLUSH);
    out.append(buffer, sizeof buffer - zs.avail_out);
    if (rc != Z_OK) break;  // Z_STREAM_END, or Z_BUF_ERROR where the input runs out
  }
  inflateEnd(&zs);
  return out;
}

bool Contains(std::string_view text, std::string_view part) {
  return text.find(part) != std::string_view::npos;
}

// "K" + 3 -> "K3" (appending avoids a GCC 12 -Wrestrict false positive on operator+).
std::string Numbered(std::string prefix, int64_t n) {
  prefix.append(std::to_string(n));
  return prefix;
}

using tensormorph::testing::RunResult;

// Checks the parts of the contract every run must keep, whatever the input.
void ExpectClean(const RunResult& r) {
  EXPECT_FALSE(r.crashed) << "crashed" << r.Describe();
  EXPECT_FALSE(r.timed_out) << "hung" << r.Describe();
  EXPECT_TRUE(r.exit_code == 0 || r.exit_code == 2 || r.exit_code == 3)
      << "unexpected exit code" << r.Describe();
}

json ParseJson(const std::string& text) {
  return json::parse(text, nullptr, /*allow_exceptions=*/false);
}

class BadInput : public ::testing::Test {
 public:
  void SetUp() override {
    const ::testing::TestInfo* info = ::testing::UnitTest::GetInstance()->current_test_info();
    dir_ = fs::temp_directory_path() /
           ("tm_bad_input_" + std::to_string(getpid()) + "_" + info->name());
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  void TearDown() override {
    std::error_code ignored;
    fs::remove_all(dir_, ignored);
  }

  fs::path Path(const std::string& name) const { return dir_ / name; }

  fs::path Write(const std::string& name, std::string_view bytes) {
    fs::path path = Path(name);
    WriteBytes(path, bytes);
    return path;
  }

  fs::path WriteGz(const std::string& name, std::string_view bytes) {
    fs::path path = Path(name);
    WriteGzipBytes(path, bytes);
    return path;
  }

  RunResult Run(const std::vector<std::string>& args) {
    return tensormorph::testing::RunTensormorph(args, kTimeoutSeconds);
  }

  // `kernels --format json --quiet FILE`; the parsed document, or discarded on bad JSON.
  json KernelsJson(const fs::path& path, RunResult* result) {
    *result = Run({"kernels", "--format", "json", "--quiet", path.string()});
    return ParseJson(result->out);
  }
  json InfoJson(const fs::path& path, RunResult* result) {
    *result = Run({"info", "--format", "json", "--quiet", path.string()});
    return ParseJson(result->out);
  }

  fs::path dir_;
};

std::string ErrorPrefix(const fs::path& path) {
  return "tensormorph: error: " + path.string();
}
std::string WarningPrefix(const fs::path& path) {
  return "tensormorph: warning: " + path.string() + ": ";
}

// ------------------------------------------------------------------------------------------------
// Traces written by hand.

std::string Kernel(const std::string& name, const std::string& ts, const std::string& dur,
                   const std::string& args = R"({"device": 0, "stream": 7})") {
  return R"({"ph": "X", "cat": "kernel", "name": ")" + name + R"(", "pid": 0, "tid": 7, "ts": )" +
         ts + R"(, "dur": )" + dur + R"(, "args": )" + args + "}";
}

const char* const kLaunch =
    R"({"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "pid": 10, "tid": 11, )"
    R"("ts": 100, "dur": 4, "args": {"correlation": 1}})";

// Object-form trace, one event per line ("  " + event), so that event i sits on line i + 3,
// column 3. `header` goes before "traceEvents" (e.g. R"("cuda_runtime_version": 12010, )").
std::string ObjectTrace(const std::vector<std::string>& events, const std::string& header = "") {
  std::string text = "{\n\"schemaVersion\": 1, " + header + "\"traceEvents\": [\n";
  for (size_t i = 0; i < events.size(); ++i) {
    text += "  " + events[i] + (i + 1 < events.size() ? ",\n" : "\n");
  }
  return text + "]}\n";
}
int LineOfEvent(size_t index) {
  return static_cast<int>(index) + 3;
}

// What a `kernels --format json` document says: per name, the count and total.
struct KernelTotals {
  uint64_t kernel_count = 0;
  int64_t total_ns = 0;
  std::map<std::string, std::pair<uint64_t, int64_t>> rows;  // name -> (count, total_ns)
  std::set<std::string> backends;
};
KernelTotals ReadKernelTotals(const json& doc) {
  KernelTotals t;
  if (!doc.is_object()) return t;
  t.kernel_count = doc.value("kernel_count", uint64_t{0});
  t.total_ns = doc.value("total_ns", int64_t{0});
  for (const json& row : doc.value("rows", json::array())) {
    auto& entry = t.rows[row.value("name", std::string())];
    entry.first += row.value("count", uint64_t{0});
    entry.second += row.value("total_ns", int64_t{0});
    t.backends.insert(row.value("backend", std::string()));
  }
  return t;
}

// The warnings `info --format json` lists for its only input.
std::vector<std::string> InfoWarnings(const json& info) {
  std::vector<std::string> out;
  if (!info.is_object() || !info.contains("inputs") || info["inputs"].empty()) return out;
  for (const json& w : info["inputs"][0].value("warnings", json::array())) {
    out.push_back(w.get<std::string>());
  }
  return out;
}

bool AnyContains(const std::vector<std::string>& list, std::string_view part) {
  for (const std::string& s : list) {
    if (Contains(s, part)) return true;
  }
  return false;
}

std::string Join(const std::vector<std::string>& list) {
  std::string out;
  for (const std::string& s : list) out += "\n    " + s;
  return out;
}

// ================================================================================================
// 1. Empty file.

TEST_F(BadInput, EmptyFile) {
  const fs::path path = Write("empty.json", "");
  for (const char* command : {"kernels", "info"}) {
    RunResult r = Run({command, path.string()});
    ExpectClean(r);
    EXPECT_EQ(r.exit_code, 3) << r.Describe();
    EXPECT_TRUE(r.err.starts_with(ErrorPrefix(path))) << r.Describe();
    EXPECT_TRUE(Contains(r.err, "empty")) << r.Describe();
    EXPECT_TRUE(r.out.empty()) << r.Describe();
  }
}

// ================================================================================================
// 2. A single "{" or "[": an error or a warning, never a crash.

TEST_F(BadInput, OneByteFiles) {
  for (const std::string text : {"{", "[", "{\n", "[\n", " [", "]", "}", "\""}) {
    const fs::path path = Write("one.json", text);
    RunResult r = Run({"kernels", "--quiet", path.string()});
    ExpectClean(r);
    SCOPED_TRACE("input: '" + text + "'");
    if (r.exit_code == 3) {
      EXPECT_TRUE(r.err.starts_with(ErrorPrefix(path))) << r.Describe();
    } else {
      EXPECT_EQ(r.exit_code, 0) << r.Describe();
      EXPECT_TRUE(Contains(r.err, WarningPrefix(path))) << "no warning" << r.Describe();
      EXPECT_TRUE(Contains(r.out, "no kernels")) << r.Describe();
    }
  }
}

// ================================================================================================
// 3. Binary garbage.

TEST_F(BadInput, BinaryGarbage) {
  std::mt19937 rng(20240611);
  std::string bytes(64 << 10, '\0');
  for (char& c : bytes) c = static_cast<char>(rng() & 0xff);
  bytes[0] = '\x93';  // whatever the seed gives, not the start of JSON or gzip

  const fs::path path = Write("trace.json", bytes);
  RunResult r = Run({"kernels", "--quiet", path.string()});
  ExpectClean(r);
  EXPECT_EQ(r.exit_code, 3) << r.Describe();
  EXPECT_TRUE(r.err.starts_with(ErrorPrefix(path))) << r.Describe();
  EXPECT_TRUE(Contains(r.err, "not a trace") || Contains(r.err, "not JSON") ||
              Contains(r.err, "not a JSON"))
      << r.Describe();

  // Forced through the JSON importer, it still gets a clean error with a position.
  r = Run({"kernels", "--quiet", "--input-format", "chrome-json", path.string()});
  ExpectClean(r);
  EXPECT_EQ(r.exit_code, 3) << r.Describe();
  EXPECT_TRUE(r.err.starts_with(ErrorPrefix(path) + ":1:1:")) << r.Describe();
  EXPECT_TRUE(Contains(r.err, "not a JSON trace")) << r.Describe();

  // Garbage that starts like JSON or like gzip goes deeper into the readers: any clean answer.
  for (const std::string start : {"[", "{", "{\"traceEvents\": [", "\x1f\x8b\x08"}) {
    const fs::path deeper = Write("deeper.json", start + bytes.substr(1));
    for (const char* command : {"kernels", "info"}) {
      RunResult d = Run({command, "--quiet", "--format", "json", deeper.string()});
      SCOPED_TRACE(std::string(command) + " on garbage after '" + start + "'");
      ExpectClean(d);
      if (d.exit_code == 0) {
        EXPECT_FALSE(ParseJson(d.out).is_discarded()) << d.Describe();
      } else {
        EXPECT_TRUE(d.err.starts_with(ErrorPrefix(deeper))) << d.Describe();
      }
    }
  }
}

// ================================================================================================
// 4. Plain text.

TEST_F(BadInput, PlainText) {
  const fs::path path = Write("hello.json", "hello world\n");
  RunResult r = Run({"kernels", path.string()});
  ExpectClean(r);
  EXPECT_EQ(r.exit_code, 3) << r.Describe();
  EXPECT_TRUE(r.err.starts_with(ErrorPrefix(path) + ":1:1: ")) << r.Describe();
  EXPECT_TRUE(r.out.empty()) << r.Describe();
}

// ================================================================================================
// 5. A JSON object that is not a trace.

TEST_F(BadInput, ObjectWithoutTraceEvents) {
  for (const std::string text :
       {R"({"foo": 1})", R"({"foo": {"traceEvents": []}})", R"({"foo": "\"traceEvents\": []"})"}) {
    const fs::path path = Write("foo.json", text);
    RunResult r = Run({"kernels", path.string()});
    SCOPED_TRACE(text);
    ExpectClean(r);
    EXPECT_EQ(r.exit_code, 3) << r.Describe();
    EXPECT_TRUE(r.err.starts_with(ErrorPrefix(path))) << r.Describe();
    EXPECT_TRUE(Contains(r.err, "traceEvents")) << r.Describe();
  }
}

// ================================================================================================
// 6. traceEvents that is not an array.

TEST_F(BadInput, TraceEventsNotAnArray) {
  const fs::path path = Write("te.json", "{\n  \"traceEvents\": 5}\n");
  RunResult r = Run({"kernels", path.string()});
  ExpectClean(r);
  EXPECT_EQ(r.exit_code, 3) << r.Describe();
  EXPECT_TRUE(r.err.starts_with(ErrorPrefix(path) + ":2:18: ")) << r.Describe();
  EXPECT_TRUE(Contains(r.err, "traceEvents")) << r.Describe();
  EXPECT_TRUE(Contains(r.err, "not an array")) << r.Describe();

  const fs::path object = Write("te2.json", R"({"traceEvents": {"ph": "X"}})");
  r = Run({"kernels", object.string()});
  ExpectClean(r);
  EXPECT_EQ(r.exit_code, 3) << r.Describe();
  EXPECT_TRUE(r.err.starts_with(ErrorPrefix(object) + ":1:17: ")) << r.Describe();
  EXPECT_TRUE(Contains(r.err, "not an array")) << r.Describe();
}

// ================================================================================================
// 7. Truncated traces: cut at every byte, plain and gzip.

struct EventSpan {
  size_t begin = 0, end = 0;  // byte range of the event text
  std::string kernel;         // kernel name, or empty for the runtime call
  int64_t dur_ns = 0;
};

struct TruncationTrace {
  std::string text;
  std::vector<EventSpan> events;
};

// Five kernels K1..K5 after one cudaLaunchKernel, with strings that hold brackets, braces and
// escaped quotes and backslashes (and long ones without escapes, which the splitter scans 64 bytes
// at a time), nested args, and metadata after the events.
TruncationTrace MakeTruncationTrace() {
  TruncationTrace t;
  t.text = "{\n  \"schemaVersion\": 1,\n  \"traceEvents\": [\n";
  auto add = [&](const std::string& event, const std::string& kernel, int64_t dur_ns, bool last) {
    t.text += "  ";
    t.events.push_back({t.text.size(), t.text.size() + event.size(), kernel, dur_ns});
    t.text += event;
    t.text += last ? "\n" : ",\n";
  };
  add(kLaunch, "", 0, false);
  const int64_t durs_us[] = {11, 23, 37, 41, 53};
  const char* const extra[] = {
      R"({"device": 0, "stream": 7, "correlation": 1, "grid": [1, 2, 3], "block": [128, 1, 1], )"
      R"("label": "}]}] a long string of brackets without escapes, across 64-byte blocks {[{[ ]}"})",
      R"({"device": 0, "stream": 7, "note": "a \"quoted\" }] brace [{"})",
      R"({"device": 0, "stream": 7, "path": "C:\\dir\\", "list": [{"a": [1, {"b": null}]}, []]})",
      R"({"device": 0, "stream": 7, "Input Dims": [[2, 3], []], "unicode": "\u00e9\ud83d\ude00"})",
      R"({"device": 0, "stream": 7, "s1": "]", "s2": "}", "s3": "[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[", )"
      R"("s4": "{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{{"})"};
  for (int i = 0; i < 5; ++i) {
    const std::string name = Numbered("K", i + 1);
    add(Kernel(name, std::to_string(200 + 100 * i), std::to_string(durs_us[i]), extra[i]), name,
        durs_us[i] * 1000, i == 4);
  }
  t.text +=
      "  ],\n  \"traceName\": \"run {1}] \\\"x\\\"\",\n"
      "  \"deviceProperties\": [{\"id\": 0, \"name\": \"NVIDIA Test GPU\", \"warpSize\": 32}]\n}\n";
  return t;
}

// The kernels a reader can know of from the first `cut` bytes: the complete kernel events.
struct Expected {
  std::map<std::string, std::pair<uint64_t, int64_t>> rows;
  uint64_t count = 0;
  int64_t total_ns = 0;
  bool cut_in_event = false;
};
Expected ExpectedAt(const TruncationTrace& t, size_t cut) {
  Expected e;
  for (const EventSpan& ev : t.events) {
    if (ev.end <= cut) {
      if (!ev.kernel.empty()) {
        e.rows[ev.kernel] = {1, ev.dur_ns};
        ++e.count;
        e.total_ns += ev.dur_ns;
      }
    } else if (ev.begin < cut) {
      e.cut_in_event = true;
    }
  }
  return e;
}

std::string RowsText(const std::map<std::string, std::pair<uint64_t, int64_t>>& rows) {
  std::string s;
  for (const auto& [name, v] : rows) {
    s += name + "(" + std::to_string(v.first) + "x, " + std::to_string(v.second) + " ns) ";
  }
  return s.empty() ? "none" : s;
}

// What one input of a batched `kernels --by-input` run gave: its rows and the warnings that name
// it.
struct BatchedInput {
  KernelTotals totals;
  std::string warnings;  // the stderr lines that start with this input's warning prefix
};

// The cuts run as batches of one process each: `kernels --by-input` reads every input on its own
// (the importer keeps no state between files), and a process per cut made these two tests take
// ten minutes under ASan. A batch's run must be clean, exit 0 and name one of its inputs on every
// stderr line; otherwise the whole batch fails with the run's description.
constexpr size_t kCutsPerRun = 96;

class TruncatedAtEveryByte : public BadInput {
 public:
  // Runs the batch; false (after a failure naming the batch) when the run broke the contract.
  bool RunBatch(const std::vector<fs::path>& paths, std::vector<BatchedInput>* inputs,
                RunResult* r) {
    std::vector<std::string> args = {"kernels", "--by-input", "--format", "json", "--quiet"};
    for (const fs::path& p : paths) args.push_back(p.string());
    *r = tensormorph::testing::RunTensormorph(args, 6 * kTimeoutSeconds);
    const json doc = ParseJson(r->out);
    if (!r->Clean() || r->exit_code != 0 || !doc.is_object()) {
      ADD_FAILURE() << "expected exit 0 and a JSON document" << r->Describe();
      return false;
    }
    inputs->assign(paths.size(), {});
    for (const json& row : doc.value("rows", json::array())) {
      const size_t index = row.value("input", paths.size());
      if (index >= paths.size()) {
        ADD_FAILURE() << "a row without a valid input index: " << row.dump() << r->Describe();
        return false;
      }
      KernelTotals& t = (*inputs)[index].totals;
      auto& entry = t.rows[row.value("name", std::string())];
      entry.first += row.value("count", uint64_t{0});
      entry.second += row.value("total_ns", int64_t{0});
      t.kernel_count += row.value("count", uint64_t{0});
      t.total_ns += row.value("total_ns", int64_t{0});
      t.backends.insert(row.value("backend", std::string()));
    }
    std::istringstream err(r->err);
    for (std::string line; std::getline(err, line);) {
      size_t owner = paths.size();
      for (size_t i = 0; i < paths.size() && owner == paths.size(); ++i) {
        if (line.starts_with(WarningPrefix(paths[i]))) owner = i;
      }
      if (owner == paths.size()) {
        ADD_FAILURE() << "a stderr line that names no input: " << line << r->Describe();
        return false;
      }
      (*inputs)[owner].warnings += line + "\n";
    }
    return true;
  }
};

TEST_F(TruncatedAtEveryByte, Plain) {
  const TruncationTrace t = MakeTruncationTrace();
  ASSERT_TRUE(ParseJson(t.text).is_object()) << "the full trace must be valid JSON";
  int failures = 0;
  for (size_t first = t.events[1].begin; first <= t.text.size() && failures < 10;
       first += kCutsPerRun) {
    const size_t last = std::min(first + kCutsPerRun - 1, t.text.size());
    std::vector<fs::path> paths;
    for (size_t cut = first; cut <= last; ++cut) {
      paths.push_back(
          Write("cut_" + std::to_string(cut) + ".json", std::string_view(t.text).substr(0, cut)));
    }
    RunResult r;
    std::vector<BatchedInput> inputs;
    if (!RunBatch(paths, &inputs, &r)) return;
    for (size_t cut = first; cut <= last && failures < 10; ++cut) {
      const BatchedInput& got = inputs[cut - first];
      const Expected e = ExpectedAt(t, cut);
      const std::string where = "cut at byte " + std::to_string(cut) + " of " +
                                std::to_string(t.text.size()) + ", after: ..." +
                                t.text.substr(cut >= 40 ? cut - 40 : 0, std::min<size_t>(cut, 40));
      bool ok = got.totals.kernel_count == e.count && got.totals.total_ns == e.total_ns &&
                got.totals.rows == e.rows &&
                (e.count == 0 || got.totals.backends == std::set<std::string>{"cuda"});
      if (!ok) {
        ADD_FAILURE() << where << "\n  expected kernels: " << RowsText(e.rows) << " total "
                      << e.total_ns << "\n  got: " << RowsText(got.totals.rows) << " total "
                      << got.totals.total_ns << "\n  warnings: " << got.warnings;
      }
      if (ok && e.cut_in_event && !Contains(got.warnings, "cut off")) {
        ok = false;
        ADD_FAILURE() << where << "\n  an event was cut in the middle, but no 'cut off' warning"
                      << "\n  warnings: " << got.warnings;
      }
      if (ok && cut == t.text.size() && !got.warnings.empty()) {
        ok = false;
        ADD_FAILURE() << "the whole file gives warnings: " << got.warnings;
      }
      if (!ok) ++failures;
    }
  }
}

TEST_F(TruncatedAtEveryByte, GzipAtEveryCompressedByte) {
  const TruncationTrace t = MakeTruncationTrace();
  const fs::path full = WriteGz("full.json.gz", t.text);
  const std::string gz = ReadFile(full);
  ASSERT_EQ(InflatePrefix(gz), t.text);
  const std::string marker = "\"traceEvents\": [";
  int failures = 0;
  std::vector<size_t> readable;  // the cuts whose content reaches the start of traceEvents
  for (size_t cut = 1; cut <= gz.size() && failures < 10; ++cut) {
    const std::string_view prefix = std::string_view(gz).substr(0, cut);
    if (Contains(InflatePrefix(prefix), marker)) {
      readable.push_back(cut);
      continue;
    }
    // Not even the start of traceEvents is there: an error naming the file, one run each.
    const fs::path path = Write("cut.json.gz", prefix);
    RunResult r;
    KernelsJson(path, &r);
    if (!r.Clean() || r.exit_code != 3 || !r.err.starts_with(ErrorPrefix(path))) {
      ADD_FAILURE() << "gzip cut at compressed byte " << cut << " of " << gz.size()
                    << "\n  expected exit 3 with an error" << r.Describe();
      ++failures;
    }
  }
  for (size_t begin = 0; begin < readable.size() && failures < 10; begin += kCutsPerRun) {
    const size_t end = std::min(begin + kCutsPerRun, readable.size());
    std::vector<fs::path> paths;
    for (size_t i = begin; i < end; ++i) {
      paths.push_back(Write("cut_" + std::to_string(readable[i]) + ".json.gz",
                            std::string_view(gz).substr(0, readable[i])));
    }
    RunResult r;
    std::vector<BatchedInput> inputs;
    if (!RunBatch(paths, &inputs, &r)) return;
    for (size_t i = begin; i < end && failures < 10; ++i) {
      const size_t cut = readable[i];
      const BatchedInput& got = inputs[i - begin];
      const std::string content = InflatePrefix(std::string_view(gz).substr(0, cut));
      const std::string where = "gzip cut at compressed byte " + std::to_string(cut) + " of " +
                                std::to_string(gz.size()) + " (" + std::to_string(content.size()) +
                                " bytes of content)";
      const Expected e = ExpectedAt(t, content.size());
      bool ok = got.totals.kernel_count == e.count && got.totals.total_ns == e.total_ns &&
                got.totals.rows == e.rows;
      if (!ok) {
        ADD_FAILURE() << where << "\n  expected kernels: " << RowsText(e.rows)
                      << "\n  got: " << RowsText(got.totals.rows)
                      << "\n  warnings: " << got.warnings;
      }
      if (ok && cut < gz.size() && !Contains(got.warnings, "gzip stream ends early")) {
        ok = false;
        ADD_FAILURE() << where << "\n  no warning about the gzip stream ending early"
                      << "\n  warnings: " << got.warnings;
      }
      if (ok && e.cut_in_event && !Contains(got.warnings, "cut off")) {
        ok = false;
        ADD_FAILURE() << where << "\n  no 'cut off' warning\n  warnings: " << got.warnings;
      }
      if (!ok) ++failures;
    }
  }
}

// A trace cut off inside traceEvents still has its header (written before the events by Kineto):
// rank, runtime version and device properties must survive the cut.
TEST_F(BadInput, TruncatedTraceKeepsHeaderMetadata) {
  const std::string header =
      R"("distributedInfo": {"rank": 3, "world_size": 8}, "cuda_runtime_version": 12010, )"
      R"("deviceProperties": [{"id": 0, "name": "NVIDIA H100", "warpSize": 32}], )";
  const std::string full = ObjectTrace(
      {Kernel("G1", "10", "3"), Kernel("G2", "20", "4"), Kernel("G3", "30", "5")}, header);
  const size_t cut = full.find("\"G3\"");  // in the middle of the last event
  const fs::path path = Write("cut.json", full.substr(0, cut));

  RunResult r;
  json info = InfoJson(path, &r);
  ExpectClean(r);
  ASSERT_EQ(r.exit_code, 0) << r.Describe();
  ASSERT_FALSE(info.is_discarded()) << r.Describe();
  const json& input = info["inputs"][0];
  EXPECT_EQ(input["counts"]["kernels"], 2) << input.dump();
  EXPECT_TRUE(AnyContains(InfoWarnings(info), "cut off")) << input.dump();
  EXPECT_EQ(input["rank"], 3) << "the header before traceEvents was lost\n" << input.dump();
  EXPECT_EQ(input["world_size"], 8) << input.dump();
  EXPECT_EQ(input["backends"], json::array({"cuda"})) << input.dump();
  ASSERT_EQ(input["devices"].size(), 1u) << input.dump();
  EXPECT_EQ(input["devices"][0]["name"], "NVIDIA H100") << input.dump();
  EXPECT_FALSE(AnyContains(InfoWarnings(info), "not valid JSON"))
      << "a bogus warning about the header" << Join(InfoWarnings(info));
}

// A gzip file cut off before any content could be inflated: the error must say so, not call a
// non-empty file "empty".
TEST_F(BadInput, GzipCutBeforeAnyContent) {
  const TruncationTrace t = MakeTruncationTrace();
  const std::string gz = ReadFile(WriteGz("full.json.gz", t.text));
  for (size_t cut : {size_t{10}, size_t{12}}) {
    ASSERT_TRUE(InflatePrefix(std::string_view(gz).substr(0, cut)).empty());
    const fs::path path = Write("cut.json.gz", std::string_view(gz).substr(0, cut));
    RunResult r = Run({"kernels", path.string()});
    SCOPED_TRACE("cut at compressed byte " + std::to_string(cut));
    ExpectClean(r);
    EXPECT_EQ(r.exit_code, 3) << r.Describe();
    EXPECT_TRUE(r.err.starts_with(ErrorPrefix(path))) << r.Describe();
    EXPECT_TRUE(Contains(r.err, "gzip") || Contains(r.err, "cut off"))
        << "the error does not say that the gzip stream is cut off" << r.Describe();
  }
}

// Many chunks (the importer cuts the input into 32 MB chunks for its parser threads): bad events
// in every chunk keep exact positions, and a cut in the last chunk loses only the cut event.
TEST_F(BadInput, MultiChunkTraceWithBadAndCutEvents) {
  constexpr int kEvents = 400000;
  const std::vector<int> bad = {10, 250000, kEvents - 10};
  std::string text = "{\"cuda_runtime_version\": 12010, \"traceEvents\": [\n";
  int64_t total_ns = 0;
  int good = 0;
  std::vector<size_t> line_starts;
  for (int i = 0; i < kEvents; ++i) {
    const bool is_bad = std::find(bad.begin(), bad.end(), i) != bad.end();
    const std::string args =
        R"({"device": 0, "stream": 7, "note": "a \"q\" }] \\", "grid": [1, 2, 3]})";
    const int64_t dur_us = 1 + i % 13;
    line_starts.push_back(text.size());
    text += "  " + Kernel(Numbered("K", i % 7), is_bad ? "\"x\"" : std::to_string(i),
                          std::to_string(dur_us), args);
    text += i + 1 < kEvents ? ",\n" : "\n";
    if (!is_bad) {
      total_ns += dur_us * 1000;
      ++good;
    }
  }
  text += "]}\n";
  ASSERT_GT(text.size(), size_t{40} << 20) << "the trace must span more than one 32 MB chunk";
  const fs::path path = Write("big.json", text);

  RunResult r;
  json info = InfoJson(path, &r);
  ExpectClean(r);
  ASSERT_EQ(r.exit_code, 0) << r.Describe();
  ASSERT_FALSE(info.is_discarded()) << r.Describe();
  const json& input = info["inputs"][0];
  EXPECT_EQ(input["counts"]["kernels"], good);
  EXPECT_EQ(input["counts"]["skipped"], bad.size());
  const std::vector<std::string> warnings = InfoWarnings(info);
  for (int i : bad) {
    EXPECT_TRUE(AnyContains(warnings, std::to_string(i + 2) + ":3: \"ts\""))
        << "no warning at line " << i + 2 << Join(warnings);
  }
  json kernels = KernelsJson(path, &r);
  ExpectClean(r);
  ASSERT_EQ(r.exit_code, 0) << r.Describe();
  EXPECT_EQ(ReadKernelTotals(kernels).total_ns, total_ns);
  EXPECT_EQ(ReadKernelTotals(kernels).kernel_count, static_cast<uint64_t>(good));

  // Cut in the middle of the last event: it alone is lost.
  const size_t last = line_starts.back();
  const fs::path cut = Write("big_cut.json", std::string_view(text).substr(0, last + 30));
  kernels = KernelsJson(cut, &r);
  ExpectClean(r);
  ASSERT_EQ(r.exit_code, 0) << r.Describe();
  const int64_t last_dur_ns = (1 + (kEvents - 1) % 13) * 1000;
  EXPECT_EQ(ReadKernelTotals(kernels).kernel_count, static_cast<uint64_t>(good - 1));
  EXPECT_EQ(ReadKernelTotals(kernels).total_ns, total_ns - last_dur_ns);
  EXPECT_TRUE(Contains(r.err, "cut off")) << r.Describe();
}

// ================================================================================================
// 8. Wrong types per event.

// kKernel: reported as a kernel; kSkipped: skipped with a warning at its line:col; kEither: not a
// kernel, and may be skipped (with a warning) or ignored.
enum class Want { kKernel, kSkipped, kEither };
struct Line {
  std::string event;
  Want want = Want::kEither;
  std::string kernel;   // kKernel: the name it is reported under
  int64_t dur_ns = 0;   // kKernel: its duration
  std::string message;  // kSkipped: part of the warning
};
Line Good(std::string event, std::string kernel, int64_t dur_ns) {
  return {std::move(event), Want::kKernel, std::move(kernel), dur_ns, ""};
}
Line Bad(std::string event, std::string message = "") {
  return {std::move(event), Want::kSkipped, "", 0, std::move(message)};
}
Line Either(std::string event) {
  return {std::move(event), Want::kEither, "", 0, ""};
}

// Writes `lines` as an object-form trace and checks `info` and `kernels` on it: kernels exact,
// every skipped event warned about at its line:col.
void CheckLines(BadInput* test, const std::vector<Line>& lines, const fs::path& path) {
  std::vector<std::string> events;
  for (const Line& l : lines) events.push_back(l.event);
  WriteBytes(path, ObjectTrace(events, R"("cuda_runtime_version": 12010, )"));

  std::map<std::string, std::pair<uint64_t, int64_t>> rows;
  uint64_t count = 0, skipped = 0, either = 0;
  int64_t total = 0;
  for (const Line& l : lines) {
    if (l.want == Want::kKernel) {
      rows[l.kernel].first += 1;
      rows[l.kernel].second += l.dur_ns;
      ++count;
      total += l.dur_ns;
    }
    if (l.want == Want::kSkipped) ++skipped;
    if (l.want == Want::kEither) ++either;
  }

  RunResult r = test->Run({"info", "--format", "json", path.string()});
  ExpectClean(r);
  ASSERT_EQ(r.exit_code, 0) << r.Describe();
  json info = ParseJson(r.out);
  ASSERT_FALSE(info.is_discarded()) << r.Describe();
  const json& input = info["inputs"][0];
  const std::vector<std::string> warnings = InfoWarnings(info);
  EXPECT_EQ(input["counts"]["kernels"], count) << input.dump();
  EXPECT_GE(input["counts"]["skipped"].get<uint64_t>(), skipped) << input.dump();
  EXPECT_LE(input["counts"]["skipped"].get<uint64_t>(), skipped + either) << input.dump();
  for (size_t i = 0; i < lines.size(); ++i) {
    if (lines[i].want != Want::kSkipped) continue;
    const std::string at = std::to_string(LineOfEvent(i)) + ":3: ";
    bool found = false;
    for (const std::string& w : warnings) {
      if (w.starts_with(at) && Contains(w, lines[i].message)) found = true;
    }
    EXPECT_TRUE(found) << "no warning '" << at << "..." << lines[i].message << "...' for "
                       << lines[i].event << "\n  warnings:" << Join(warnings);
  }

  r = test->Run({"kernels", "--format", "json", path.string()});
  ExpectClean(r);
  ASSERT_EQ(r.exit_code, 0) << r.Describe();
  json kernels = ParseJson(r.out);
  ASSERT_FALSE(kernels.is_discarded()) << r.Describe();
  const KernelTotals got = ReadKernelTotals(kernels);
  EXPECT_EQ(got.kernel_count, count);
  EXPECT_EQ(got.total_ns, total);
  EXPECT_EQ(got.rows, rows) << "expected " << RowsText(rows) << "\n got " << RowsText(got.rows);
  for (size_t i = 0; i < lines.size(); ++i) {
    if (lines[i].want != Want::kSkipped) continue;
    EXPECT_TRUE(Contains(r.err, WarningPrefix(path) + std::to_string(LineOfEvent(i)) + ":3: "))
        << "kernels does not print the warning for line " << LineOfEvent(i) << r.Describe();
  }
}

TEST_F(BadInput, WrongTypesPerEvent) {
  const std::vector<Line> lines = {
      Either(kLaunch),
      Good(Kernel("G1", "10", "3"), "G1", 3000),
      Bad(Kernel("B_ts_string", "\"abc\"", "3"), "\"ts\""),
      Bad(Kernel("B_dur_bool", "20", "true"), "\"dur\""),
      Bad(Kernel("B_ts_null", "null", "3"), "\"ts\""),
      Bad(Kernel("B_dur_negative", "20", "-5"), "negative"),
      Bad(R"({"ph": "X", "cat": "kernel", "name": "B_no_dur", "pid": 0, "tid": 7, "ts": 20})",
          "\"dur\""),
      Bad(R"({"ph": "X", "cat": "kernel", "name": "B_no_ts", "pid": 0, "tid": 7, "dur": 20})",
          "\"ts\""),
      Bad(R"({"cat": "kernel", "name": "B_no_ph", "pid": 0, "tid": 7, "ts": 20, "dur": 2})",
          "\"ph\""),
      Good(R"({"ph": "X", "cat": "kernel", "name": 42, "pid": 0, "tid": 7, "ts": 30, "dur": 4})",
           "42", 4000),
      Good(Kernel("G2", "40", "5", "7"), "G2", 5000),
      Good(Kernel("G3", "50", "6", R"({"device": "x"})"), "G3", 6000),
      Good(Kernel("G4", "\"60.5\"", "\"7\""), "G4", 7000),
      Good(Kernel("G5", "70", "1.5", "null"), "G5", 1500),
      Good(Kernel("G6", "80", "2", R"({"device": [1, 2], "stream": {"a": 1}, "grid": "x"})"), "G6",
           2000),
      Bad("5", "element of traceEvents is not an"),
      Bad("\"a string\"", "element of traceEvents is not an"),
      Bad("[1, 2]", "element of traceEvents is not an"),
      Bad("null", "element of traceEvents is not an"),
      Either("{}"),
      Good(Kernel("G7", "90", "8"), "G7", 8000),
  };
  CheckLines(this, lines, Path("types.json"));
}

// Elements that are not objects, side by side and next to a malformed event (the chunk is then
// read event by event): each one is skipped with a warning of its own, at its own line:col.
TEST_F(BadInput, NonObjectElementNextToMalformedEvent) {
  const std::vector<Line> lines = {
      Good(Kernel("G1", "10", "3"), "G1", 3000),
      Bad("5", "element of traceEvents is not an"),
      Bad("\"a string\"", "element of traceEvents is not an"),
      Bad(Kernel("B_nan", "NaN", "3")),
      Good(Kernel("G2", "20", "4"), "G2", 4000),
  };
  CheckLines(this, lines, Path("mixed.json"));
}

// ================================================================================================
// 9. Huge and odd numbers.

TEST_F(BadInput, HugeAndOddNumbers) {
  const std::vector<Line> lines = {
      Either(kLaunch),
      Bad(Kernel("B_ts_1e300", "1e300", "1"), "\"ts\""),
      Good(Kernel("G_ts_minus_1", "-1", "2"), "G_ts_minus_1", 2000),
      Bad(Kernel("B_dur_huge", "20", "99999999999999999999999"), "\"dur\""),
      Bad(Kernel("B_dur_1e300", "20", "1e300"), "\"dur\""),
      Good(Kernel("G_corr_u64", "30", "3",
                  R"({"device": 0, "stream": 7, "correlation": 18446744073709551615})"),
           "G_corr_u64", 3000),
      Good(Kernel("G_corr_huge", "40", "4",
                  R"({"device": 0, "stream": 7, "correlation": 99999999999999999999999999})"),
           "G_corr_huge", 4000),
      Bad(Kernel("B_end_beyond_int64", "9223372036854775.807", "1"), "int64"),
      Bad(Kernel("B_over_7_days", "50", "604800000001"), "7 days"),
      Bad(Kernel("B_ts_nan", "NaN", "1")),
      Bad(Kernel("B_dur_inf", "60", "Infinity")),
      Bad(Kernel("B_dur_minus_inf", "60", "-Infinity")),
      Good(Kernel("G_ts_tiny", "1e-300", "5"), "G_ts_tiny", 5000),
      Good(Kernel("G_ts_minus_zero", "-0", "6"), "G_ts_minus_zero", 6000),
      Good(Kernel("G_dur_below_ns", "70", "0.0004"), "G_dur_below_ns", 0),
      Good(Kernel("G_dur_exp", "80", "1.5e1"), "G_dur_exp", 15000),
      Good(Kernel("G_last", "90", "7"), "G_last", 7000),
  };
  const fs::path path = Path("numbers.json");
  CheckLines(this, lines, path);

  // ts -1 µs is a legal time: -1000 ns, the start of the span.
  RunResult r;
  json info = InfoJson(path, &r);
  ASSERT_EQ(r.exit_code, 0) << r.Describe();
  EXPECT_EQ(info["inputs"][0]["span"]["start_ns"], -1000) << info.dump();
  EXPECT_EQ(info["inputs"][0]["span"]["end_ns"], 104000) << info.dump();  // cudaLaunchKernel
}

// Timestamps far apart but each in range: the span is too long for int64 nanoseconds. The
// duration must not wrap around to a negative number without a word.
TEST_F(BadInput, SpanLongerThanInt64) {
  const fs::path path =
      Write("span.json", ObjectTrace({kLaunch, Kernel("A", "-9000000000000000", "1"),
                                      Kernel("B", "9000000000000000", "1")},
                                     R"("cuda_runtime_version": 12010, )"));
  RunResult r;
  json info = InfoJson(path, &r);
  ExpectClean(r);
  ASSERT_EQ(r.exit_code, 0) << r.Describe();
  ASSERT_FALSE(info.is_discarded()) << r.Describe();
  const json& span = info["inputs"][0]["span"];
  const __int128 true_duration =
      static_cast<__int128>(span["end_ns"].get<int64_t>()) - span["start_ns"].get<int64_t>();
  const bool exact = span["duration_ns"].is_number_unsigned() &&
                     static_cast<__int128>(span["duration_ns"].get<uint64_t>()) == true_duration;
  EXPECT_TRUE(exact || !InfoWarnings(info).empty())
      << "span.duration_ns is wrong and nothing says so: " << span.dump()
      << " (end - start = " << static_cast<double>(true_duration) << ")";
  EXPECT_FALSE(span["duration_ns"].is_number_integer() && span["duration_ns"].get<int64_t>() < 0)
      << "negative span duration: " << span.dump();
}

// baseTimeNanoseconds near INT64_MAX: the absolute times leave the int64 range. Clamping them all
// to INT64_MAX silently turns a 1 µs trace into a 0 ns one.
TEST_F(BadInput, BaseTimeBeyondInt64) {
  const fs::path path =
      Write("base.json",
            ObjectTrace(
                {Kernel("A", "5", "1")},
                R"("cuda_runtime_version": 12010, "baseTimeNanoseconds": 9223372036854775000, )"));
  RunResult r;
  json info = InfoJson(path, &r);
  ExpectClean(r);
  if (r.exit_code == 3) {
    EXPECT_TRUE(r.err.starts_with(ErrorPrefix(path))) << r.Describe();
    return;
  }
  ASSERT_EQ(r.exit_code, 0) << r.Describe();
  ASSERT_FALSE(info.is_discarded()) << r.Describe();
  const json& input = info["inputs"][0];
  EXPECT_TRUE(input["span"]["duration_ns"] == 1000 || !InfoWarnings(info).empty())
      << "the span is wrong and nothing says so: " << input["span"].dump()
      << " for one 1 us kernel";
  RunResult k;
  json kernels = KernelsJson(path, &k);
  ExpectClean(k);
  EXPECT_EQ(ReadKernelTotals(kernels).total_ns, 1000) << k.Describe();
}

// Kernel time that sums beyond INT64_MAX ns (each kernel just under the 7-day limit): the total
// must be exact or come with a warning, never wrap to a negative number.
TEST_F(BadInput, KernelTotalBeyondInt64) {
  constexpr int kKernels = 16000;
  constexpr int64_t kDurNs = 604800000000000;  // 7 days
  std::vector<std::string> events = {kLaunch};
  for (int i = 0; i < kKernels; ++i) {
    events.push_back(Kernel("K", std::to_string(i), std::to_string(kDurNs / 1000)));
  }
  const fs::path path =
      Write("total.json", ObjectTrace(events, R"("cuda_runtime_version": 12010, )"));
  RunResult r;
  json doc = KernelsJson(path, &r);
  ExpectClean(r);
  ASSERT_EQ(r.exit_code, 0) << r.Describe();
  ASSERT_FALSE(doc.is_discarded()) << r.Describe();
  EXPECT_EQ(doc["kernel_count"], kKernels);
  const uint64_t expected = static_cast<uint64_t>(kKernels) * kDurNs;  // 9.6768e18 > INT64_MAX
  const bool exact = doc["total_ns"].is_number_unsigned() && doc["total_ns"] == expected;
  EXPECT_TRUE(exact || Contains(r.err, "warning"))
      << "total_ns is " << doc["total_ns"].dump() << ", expected " << expected << " or a warning"
      << r.Describe();
  EXPECT_FALSE(doc["total_ns"].is_number_integer() && doc["total_ns"].get<int64_t>() < 0)
      << "negative kernel time: " << doc["total_ns"].dump();
  for (const json& row : doc["rows"]) {
    EXPECT_GE(row["mean_ns"].get<double>(), 0) << row.dump();
  }
}

// ================================================================================================
// 10. Invalid UTF-8 in a kernel name.

TEST_F(BadInput, InvalidUtf8InKernelName) {
  const std::vector<std::string> names = {"bad\xff\xfe", "lone\\ud800surrogate", "nul\\u0000byte",
                                          "overlong\xc0\xaf", "cut\xe2\x82"};
  std::vector<std::string> events = {kLaunch, Kernel("G1", "10", "3")};
  for (size_t i = 0; i < names.size(); ++i) {
    events.push_back(Kernel(names[i], std::to_string(20 + i), "1"));
  }
  events.push_back(Kernel("G2", "50", "4"));
  const fs::path path =
      Write("utf8.json", ObjectTrace(events, R"("cuda_runtime_version": 12010, )"));

  for (const char* command : {"kernels", "info"}) {
    RunResult r = Run({command, "--format", "json", "--quiet", path.string()});
    SCOPED_TRACE(command);
    ExpectClean(r);
    ASSERT_EQ(r.exit_code, 0) << r.Describe();
    json doc = ParseJson(r.out);
    ASSERT_FALSE(doc.is_discarded()) << "not valid JSON output" << r.Describe();
    if (std::string(command) == "kernels") {
      const KernelTotals got = ReadKernelTotals(doc);
      EXPECT_EQ(got.rows.count("G1"), 1u);
      EXPECT_EQ(got.rows.count("G2"), 1u);
      const uint64_t kept = got.kernel_count - 2;
      EXPECT_EQ(got.total_ns, 7000 + static_cast<int64_t>(kept) * 1000);
      auto warned_at = [&](size_t i) {
        return Contains(r.err, WarningPrefix(path) + std::to_string(LineOfEvent(i + 2)) + ":3: ");
      };
      // Raw bytes that are not UTF-8 are repaired, each replaced by U+FFFD, and the event is kept
      // with a warning naming its line (RFC 3629: \xe2\x82 before a quote is two bad bytes).
      const std::string fffd = "\xEF\xBF\xBD";
      for (const auto& [index, repaired] : std::vector<std::pair<size_t, std::string>>{
               {0, "bad" + fffd + fffd}, {3, "overlong" + fffd + fffd}, {4, "cut" + fffd + fffd}}) {
        EXPECT_EQ(got.rows.count(repaired), 1u) << repaired << r.Describe();
        EXPECT_TRUE(warned_at(index)) << "no warning for " << repaired << r.Describe();
      }
      // Escapes (a lone surrogate, a NUL) are either kept or skipped with a warning.
      size_t escaped_kept_or_warned = 0;
      for (size_t i : {1, 2}) escaped_kept_or_warned += warned_at(i) ? 1 : 0;
      EXPECT_EQ(kept - 3 + escaped_kept_or_warned, 2u) << r.Describe();
    }
  }
  // The other formats do not crash either.
  for (const char* format : {"table", "csv"}) {
    RunResult r = Run({"kernels", "--format", format, "--quiet", path.string()});
    ExpectClean(r);
    EXPECT_EQ(r.exit_code, 0) << r.Describe();
  }
}

// ================================================================================================
// 11. Deep nesting.

TEST_F(BadInput, DeepNesting) {
  constexpr int kDepth = 100000;
  const std::string arrays = std::string(kDepth, '[') + std::string(kDepth, ']');
  std::string objects;
  for (int i = 0; i < kDepth; ++i) objects += "{\"a\":";
  objects += "1" + std::string(kDepth, '}');
  const std::string unclosed = std::string(kDepth, '[');

  const std::vector<Line> lines = {
      Either(kLaunch),
      Good(Kernel("G1", "10", "3"), "G1", 3000),
      Either(Kernel("D_args_arrays", "20", "1", "{\"deep\": " + arrays + "}")),
      Either(Kernel("D_args_objects", "30", "1", "{\"deep\": " + objects + "}")),
      Either(Kernel("D_input_dims", "40", "1", "{\"Input Dims\": " + arrays + "}")),
      Either(Kernel("D_grid", "50", "1", "{\"grid\": " + arrays + "}")),
      Either(arrays),
      Good(Kernel("G2", "60", "4"), "G2", 4000),
  };
  std::vector<std::string> events;
  for (const Line& l : lines) events.push_back(l.event);
  const fs::path path =
      Write("deep.json", ObjectTrace(events, R"("cuda_runtime_version": 12010, )"));

  auto check = [&](const fs::path& file, uint64_t certain, int64_t certain_ns, uint64_t maybe) {
    for (const char* command : {"kernels", "info"}) {
      RunResult r = Run({command, "--format", "json", "--quiet", file.string()});
      SCOPED_TRACE(std::string(command) + " " + file.filename().string());
      ExpectClean(r);
      if (r.exit_code == 3) {
        EXPECT_TRUE(r.err.starts_with(ErrorPrefix(file))) << r.Describe();
        continue;
      }
      ASSERT_EQ(r.exit_code, 0) << r.Describe();
      json doc = ParseJson(r.out);
      ASSERT_FALSE(doc.is_discarded()) << r.Describe();
      if (std::string(command) != "kernels") continue;
      const KernelTotals got = ReadKernelTotals(doc);
      EXPECT_GE(got.kernel_count, certain);
      EXPECT_LE(got.kernel_count, certain + maybe);
      // Deep events that are kept are kept with their own 1 µs.
      EXPECT_EQ(got.total_ns, certain_ns + static_cast<int64_t>(got.kernel_count - certain) * 1000);
      EXPECT_EQ(got.rows.count("G1"), 1u);
      EXPECT_EQ(got.rows.count("G2"), 1u);
      // A deep event that is not counted must be warned about.
      const uint64_t dropped = certain + maybe - got.kernel_count;
      if (dropped > 0) {
        EXPECT_TRUE(Contains(r.err, "warning")) << r.Describe();
      }
    }
  };
  check(path, 2, 7000, 4);

  // Deep nesting in the metadata, and an element of traceEvents left unclosed 100000 deep.
  const fs::path meta =
      Write("deep_meta.json", "{\"deep\": " + arrays + ", \"more\": " + objects +
                                  ", \"traceEvents\": [\n" + Kernel("G1", "10", "3") + ",\n" +
                                  Kernel("G2", "60", "4") + "\n]}");
  check(meta, 2, 7000, 0);
  const fs::path open =
      Write("deep_open.json", "{\"traceEvents\": [\n" + Kernel("G1", "10", "3") + ",\n" +
                                  Kernel("G2", "60", "4") + ",\n" + unclosed);
  check(open, 2, 7000, 0);
  RunResult r = Run({"kernels", "--quiet", open.string()});
  EXPECT_TRUE(Contains(r.err, "cut off")) << r.Describe();
}

// ================================================================================================
// 12. Tolerated syntax errors: trailing comma, missing end.

TEST_F(BadInput, TrailingCommaAndMissingEnd) {
  const std::string g1 = Kernel("G1", "10", "3"), g2 = Kernel("G2", "20", "4");
  const std::string launch = kLaunch;
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"trailing_comma.json", "{\"traceEvents\": [\n" + launch + ",\n" + g1 + ",\n" + g2 + ",\n]}"},
      {"trailing_comma_array.json", "[\n" + launch + ",\n" + g1 + ",\n" + g2 + ",\n]"},
      {"no_end.json", "{\"traceEvents\": [\n" + launch + ",\n" + g1 + ",\n" + g2 + "\n"},
      {"no_end_comma.json", "{\"traceEvents\": [\n" + launch + ",\n" + g1 + ",\n" + g2 + ",\n"},
      {"no_brace.json", "{\"traceEvents\": [\n" + launch + ",\n" + g1 + ",\n" + g2 + "\n]"},
      {"no_end_array.json", "[\n" + launch + ",\n" + g1 + ",\n" + g2 + ",\n"},
  };
  for (const auto& [name, text] : cases) {
    const fs::path path = Write(name, text);
    RunResult r;
    json doc = KernelsJson(path, &r);
    SCOPED_TRACE(name);
    ExpectClean(r);
    ASSERT_EQ(r.exit_code, 0) << r.Describe();
    const KernelTotals got = ReadKernelTotals(doc);
    EXPECT_EQ(got.kernel_count, 2u) << r.Describe();
    EXPECT_EQ(got.total_ns, 7000) << r.Describe();
    EXPECT_EQ(got.backends, std::set<std::string>{"cuda"}) << r.Describe();
  }
}

// ================================================================================================
// 13. The array form, and the legacy autograd profiler export.

TEST_F(BadInput, ArrayFormAndLegacyAutograd) {
  const fs::path array =
      Write("array.json", "[ " + std::string(kLaunch) + ", " + Kernel("G1", "10", "3") + ", " +
                              Kernel("G2", "20", "4") + " ]");
  RunResult r;
  json doc = KernelsJson(array, &r);
  ExpectClean(r);
  ASSERT_EQ(r.exit_code, 0) << r.Describe();
  EXPECT_EQ(ReadKernelTotals(doc).kernel_count, 2u) << r.Describe();
  EXPECT_EQ(ReadKernelTotals(doc).total_ns, 7000) << r.Describe();

  std::string autograd = "[";
  constexpr int kOps = 6;
  for (int i = 0; i < kOps; ++i) {
    autograd += std::string(i ? ",\n" : "\n") + R"({"name": "aten::mm", "ph": "X", "ts": )" +
                std::to_string(10 + 10 * i) +
                R"(, "dur": 5, "tid": 1, "pid": "CPU functions", "args": {}})";
  }
  autograd += "\n]\n";
  const fs::path legacy = Write("autograd.json", autograd);
  json info = InfoJson(legacy, &r);
  ExpectClean(r);
  ASSERT_EQ(r.exit_code, 0) << r.Describe();
  ASSERT_FALSE(info.is_discarded()) << r.Describe();
  EXPECT_EQ(info["inputs"][0]["format"], "pytorch-autograd") << info.dump();
  EXPECT_EQ(info["inputs"][0]["counts"]["ops"], kOps) << info.dump();
  EXPECT_EQ(info["inputs"][0]["counts"]["kernels"], 0) << info.dump();

  r = Run({"kernels", "--quiet", legacy.string()});
  ExpectClean(r);
  EXPECT_EQ(r.exit_code, 0) << r.Describe();
  EXPECT_TRUE(Contains(r.out, "no kernels")) << r.Describe();
  doc = KernelsJson(legacy, &r);
  EXPECT_EQ(r.exit_code, 0) << r.Describe();
  EXPECT_EQ(doc["kernel_count"], 0) << r.Describe();
  EXPECT_TRUE(doc["rows"].empty()) << r.Describe();
}

// ================================================================================================
// 14. Paths that are not files, and bad usage.

TEST_F(BadInput, MissingPathDirectoryAndBadUsage) {
  const fs::path missing = Path("no such file.json");
  RunResult r = Run({"kernels", missing.string()});
  ExpectClean(r);
  EXPECT_EQ(r.exit_code, 3) << r.Describe();
  EXPECT_TRUE(r.err.starts_with(ErrorPrefix(missing) + ": ")) << r.Describe();

  const fs::path dir = Path("a_directory.json");
  fs::create_directories(dir);
  for (const char* command : {"kernels", "info"}) {
    r = Run({command, dir.string()});
    ExpectClean(r);
    EXPECT_EQ(r.exit_code, 3) << r.Describe();
    EXPECT_TRUE(r.err.starts_with(ErrorPrefix(dir) + ": ")) << r.Describe();
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << "one clean line" << r.Describe();
  }

  const fs::path good = Write("good.json", ObjectTrace({kLaunch, Kernel("G1", "10", "3")}));
  const std::vector<std::vector<std::string>> usage = {
      {},
      {"kernels"},
      {"info"},
      {"frobnicate", good.string()},
      {"kernels", "--format", "xml", good.string()},
      {"kernels", "--group-by", "foo", good.string()},
      {"kernels", "--threads", "-1", good.string()},
      {"kernels", "--top", "many", good.string()},
      {"kernels", "--backend", "tpu", good.string()},
      {"kernels", "--no-such-flag", good.string()},
      {"kernels", "--input-format", "xml", good.string()},
  };
  for (const auto& args : usage) {
    r = Run(args);
    ExpectClean(r);
    EXPECT_EQ(r.exit_code, 2) << r.Describe();
    EXPECT_TRUE(r.err.starts_with("tensormorph: error: ")) << r.Describe();
    EXPECT_TRUE(r.out.empty()) << r.Describe();
  }
  // And the good file reads: the usage errors above are about the arguments alone.
  r = Run({"kernels", good.string()});
  EXPECT_EQ(r.exit_code, 0) << r.Describe();
}

// ================================================================================================
// 15. UTF-8 byte order mark.

TEST_F(BadInput, Utf8ByteOrderMark) {
  const std::string text =
      "\xEF\xBB\xBF" + ObjectTrace({kLaunch, Kernel("G1", "10", "3"), Kernel("G2", "20", "4")});
  for (const fs::path& path : {Write("bom.json", text), WriteGz("bom.json.gz", text)}) {
    RunResult r;
    json doc = KernelsJson(path, &r);
    SCOPED_TRACE(path.filename().string());
    ExpectClean(r);
    ASSERT_EQ(r.exit_code, 0) << r.Describe();
    EXPECT_EQ(ReadKernelTotals(doc).kernel_count, 2u) << r.Describe();
    EXPECT_EQ(ReadKernelTotals(doc).total_ns, 7000) << r.Describe();
    EXPECT_TRUE(r.err.empty()) << r.Describe();
  }
  // A byte order mark followed by the array form.
  const fs::path array = Write("bom_array.json", "\xEF\xBB\xBF[" + Kernel("G1", "10", "3") + "]");
  RunResult r;
  json doc = KernelsJson(array, &r);
  ExpectClean(r);
  EXPECT_EQ(r.exit_code, 0) << r.Describe();
  EXPECT_EQ(ReadKernelTotals(doc).kernel_count, 1u) << r.Describe();
}

// ================================================================================================
// 16. A gzip bomb of whitespace.

TEST_F(BadInput, GzipBombOfWhitespace) {
  const fs::path path = Path("bomb.json.gz");
  {
    gzFile gz = gzopen(path.c_str(), "wb9");
    ASSERT_NE(gz, nullptr);
    const std::string block(1 << 20, ' ');
    for (int i = 0; i < 200; ++i) {
      ASSERT_EQ(gzwrite(gz, block.data(), static_cast<unsigned>(block.size())),
                static_cast<int>(block.size()));
    }
    ASSERT_EQ(gzclose(gz), Z_OK);
  }
  EXPECT_LT(fs::file_size(path), 1u << 20);

  for (const std::vector<std::string>& extra :
       {std::vector<std::string>{}, std::vector<std::string>{"--input-format", "chrome-json"}}) {
    std::vector<std::string> args = {"kernels", "--quiet"};
    args.insert(args.end(), extra.begin(), extra.end());
    args.push_back(path.string());
    const auto start = std::chrono::steady_clock::now();
    RunResult r = Run(args);
    const double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    ExpectClean(r);
    EXPECT_EQ(r.exit_code, 3) << r.Describe();
    EXPECT_TRUE(r.err.starts_with(ErrorPrefix(path))) << r.Describe();
    EXPECT_TRUE(Contains(r.err, "whitespace") || Contains(r.err, "not a trace")) << r.Describe();
    // Forced to read it all, the JSON reader gets to the end and says what it found.
    if (!extra.empty()) {
      EXPECT_TRUE(Contains(r.err, "only whitespace")) << r.Describe();
    }
    EXPECT_LT(seconds, 15.0) << r.Describe();
  }
}

// More than the sniffing window (64 KiB) of whitespace before a valid trace: still valid JSON.
TEST_F(BadInput, LongLeadingWhitespace) {
  std::string text(100 << 10, ' ');
  for (size_t i = 0; i < text.size(); i += 80) text[i] = '\n';
  text += ObjectTrace({kLaunch, Kernel("G1", "10", "3")});
  const fs::path path = Write("spaced.json", text);
  RunResult r;
  json doc = KernelsJson(path, &r);
  ExpectClean(r);
  EXPECT_EQ(r.exit_code, 0) << r.Describe();
  EXPECT_EQ(ReadKernelTotals(doc).kernel_count, 1u) << r.Describe();
}

// ================================================================================================
// Found in review: padding after the gzip data, and megabytes of separators before any event.

TEST_F(BadInput, GzipWithTrailingPadding) {
  const std::string trace =
      ObjectTrace({kLaunch, Kernel("P1", "10", "3"), Kernel("P2", "20", "5")});
  const fs::path path = WriteGz("padded.json.gz", trace);
  {
    std::ofstream out(path, std::ios::binary | std::ios::app);
    out << std::string(1024, '\0');  // tape-style zero padding: `gzip -t` accepts it
  }
  RunResult r;
  const json doc = KernelsJson(path, &r);
  ASSERT_EQ(r.exit_code, 0) << r.Describe();
  const KernelTotals got = ReadKernelTotals(doc);
  EXPECT_EQ(got.kernel_count, 2u);
  EXPECT_EQ(got.total_ns, 8000);
  EXPECT_TRUE(Contains(r.err, "ignored 1024 bytes after the end of the gzip data")) << r.Describe();
}

TEST_F(BadInput, MegabytesOfSeparatorsBeforeTheFirstEvent) {
  // More than one chunk (4 MB) of spaces and commas, with a stray number among them, before the
  // events: the splitter drops what it scanned instead of buffering it, and says what it skipped.
  const std::string separators = std::string(3 << 20, ' ') + "42," + std::string(3 << 20, ' ');
  const std::string trace = "{\"cuda_runtime_version\": 12010, \"traceEvents\": [" + separators +
                            kLaunch + ",\n" + Kernel("S1", "10", "3") + "]}";
  RunResult r;
  const json doc = KernelsJson(Write("separators.json", trace), &r);
  ASSERT_EQ(r.exit_code, 0) << r.Describe();
  const KernelTotals got = ReadKernelTotals(doc);
  EXPECT_EQ(got.kernel_count, 1u);
  EXPECT_EQ(got.total_ns, 3000);
  EXPECT_TRUE(Contains(r.err, "not event objects")) << r.Describe();
}

TEST_F(BadInput, DecimalIdsAreNeverRounded) {
  // "device": 1.5 is not an id: the kernel must not land on device 2 (nor 1); 2.0 is device 2.
  const std::string trace = ObjectTrace({kLaunch, Kernel("F1", "10", "3", R"({"device": 1.5})"),
                                         Kernel("F2", "20", "4", R"({"device": 2.0})")});
  RunResult r;
  const json info = InfoJson(Write("decimal_ids.json", trace), &r);
  ASSERT_EQ(r.exit_code, 0) << r.Describe();
  std::set<int64_t> trace_ids;
  for (const json& d : info["inputs"][0]["devices"]) trace_ids.insert(d.value("trace_id", -1));
  EXPECT_EQ(trace_ids.count(2), 1u) << info.dump();  // "2.0"
  EXPECT_EQ(trace_ids.count(1), 0u) << info.dump();  // "1.5" was not truncated
  EXPECT_EQ(trace_ids.size(), 2u) << info.dump();    // "1.5" falls back to the pid, 0
}

TEST_F(BadInput, ThreadCountIsCapped) {
  const fs::path path = Write("small.json", ObjectTrace({kLaunch, Kernel("T1", "10", "3")}));
  RunResult r = Run({"kernels", "--threads", "100000", path.string()});
  ExpectClean(r);
  EXPECT_EQ(r.exit_code, 2) << r.Describe();
}

}  // namespace TM_UNITY_ID
}  // namespace
