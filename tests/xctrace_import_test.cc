// End-to-end: the binary on the hand-written xctrace export fixtures in tests/data/xctrace (written
// from the layout in shared/reference/other-backends.md §3.2/§3.3; no real export is public).
// Expected numbers are counted by hand from the fixture, as the comments show.

#include <gtest/gtest.h>

#include <map>
#include <nlohmann/json.hpp>
#include <string>

#include "support/run_tensormorph.h"

namespace {
namespace TM_UNITY_ID {  // unique per file in a unity batch (tests/CMakeLists.txt)

using nlohmann::json;
using tensormorph::testing::RunResult;
using tensormorph::testing::RunTensormorph;

const std::string kData = TM_SOURCE_DIR "/tests/data/xctrace/";
const std::string kExport = kData + "metal_gpu_intervals.xml";

json Json(const RunResult& r) {
  return json::parse(r.out, nullptr, false);
}

// metal-gpu-intervals rows of the fixture (start, duration in ns, process):
//   row 1  1,000,000  250,000 python   encoder 1001 -> "matmul_f32" (encoder list)
//   row 2  1,300,000  250,000 python   encoder 1002, no label -> event label "Command Buffer
//                                      0:Compute Command 1"
//   row 3  1,400,000   50,000 python   event-depth 1, inside row 2 -> nested, not a kernel
//   row 4  2,000,000  500,000 WindowServer, Fragment -> "Command Buffer 3:Render Command 0"
//   row 5  2,600,000  <sentinel/> duration -> skipped
//   row 6  3,000,000 1,000,000 python  encoder 1003 -> "matmul_f32" (second node, no schema)
//   row 7  4,500,000  250,000 python   Vertex, encoder 1004 -> "draw_quad"
// Kernels: 5; total 250,000 + 250,000 + 500,000 + 1,000,000 + 250,000 = 2,250,000 ns;
// matmul_f32: 2 calls, 1,250,000 ns.
TEST(XctraceImportE2E, KernelTotalsFromGpuIntervals) {
  RunResult r = RunTensormorph({"kernels", "--format", "json", "--quiet", kExport});
  ASSERT_EQ(r.exit_code, 0) << r.Describe();
  const json doc = Json(r);
  ASSERT_FALSE(doc.is_discarded()) << r.Describe();
  EXPECT_EQ(doc["inputs"][0]["format"], "xctrace");
  EXPECT_EQ(doc["inputs"][0]["backends"], json::array({"cpu", "metal"}));
  EXPECT_EQ(doc["kernel_count"], 5);
  EXPECT_EQ(doc["total_ns"], 2250000);
  std::map<std::string, std::pair<int64_t, int64_t>> rows;
  for (const json& row : doc["rows"]) {
    EXPECT_EQ(row["backend"], "metal");
    rows[row["name"].get<std::string>()] = {row["count"].get<int64_t>(),
                                            row["total_ns"].get<int64_t>()};
  }
  const std::map<std::string, std::pair<int64_t, int64_t>> expected = {
      {"matmul_f32", {2, 1250000}},
      {"Command Buffer 0:Compute Command 1", {1, 250000}},
      {"Command Buffer 3:Render Command 0", {1, 500000}},
      {"draw_quad", {1, 250000}}};
  EXPECT_EQ(rows, expected) << r.out;
}

// info: one device "M3 Ultra" (gpu column; forward ref to id 40), described by metal-gpu-info;
// counts: 5 kernels, 1 nested row (gpu_annotations), 1 skipped row, 6 runtime calls (4 encoder
// rows + 2 submissions), 1 metadata row (metal-gpu-info); span from the first encoder row
// (900,000) to the end of row 7 (4,750,000); two processes (python 4242, WindowServer 388).
TEST(XctraceImportE2E, InfoShowsDeviceCountsAndProcesses) {
  RunResult r = RunTensormorph({"info", "--format", "json", "--quiet", kExport});
  ASSERT_EQ(r.exit_code, 0) << r.Describe();
  const json doc = Json(r);
  ASSERT_FALSE(doc.is_discarded()) << r.Describe();
  const json& input = doc["inputs"][0];
  ASSERT_EQ(input["devices"].size(), 1u) << r.out;
  EXPECT_EQ(input["devices"][0]["name"], "M3 Ultra");
  EXPECT_EQ(input["devices"][0]["backend"], "metal");
  EXPECT_EQ(input["devices"][0]["vendor"], "Apple");
  EXPECT_EQ(input["described_device_count"], 1);
  EXPECT_EQ(input["counts"]["kernels"], 5);
  EXPECT_EQ(input["counts"]["gpu_annotations"], 1);
  EXPECT_EQ(input["counts"]["skipped"], 1);
  EXPECT_EQ(input["counts"]["runtime_calls"], 6);
  EXPECT_EQ(input["counts"]["metadata"], 1);
  EXPECT_EQ(input["span"]["start_ns"], 900000);
  EXPECT_EQ(input["span"]["end_ns"], 4750000);
  EXPECT_EQ(input["timestamp_resolution_ns"], 0);
  const std::string warnings = input["warnings"].dump();
  EXPECT_NE(warnings.find("2 processes"), std::string::npos) << warnings;
  EXPECT_NE(warnings.find("WindowServer (388): 1 rows"), std::string::npos) << warnings;
  EXPECT_NE(warnings.find("python (4242): 5 rows"), std::string::npos) << warnings;

  RunResult table = RunTensormorph({"info", "--quiet", kExport});
  ASSERT_EQ(table.exit_code, 0) << table.Describe();
  EXPECT_NE(table.out.find("metal:id0 M3 Ultra"), std::string::npos) << table.out;
}

TEST(XctraceImportE2E, TocExportIsRefusedWithTheExportCommand) {
  RunResult r = RunTensormorph({"info", "--quiet", kData + "trace_toc.xml"});
  ASSERT_TRUE(r.Clean()) << r.Describe();
  EXPECT_EQ(r.exit_code, 3) << r.Describe();
  EXPECT_NE(r.err.find("--toc"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("table[@schema=\"metal-gpu-intervals\"]"), std::string::npos) << r.err;
}

// malformed.xml line 7: `  <row><start-time id="1" fmt="x">5</duration></row>`; expat stops at
// the mismatched </duration>, byte 37 of the line (0-based) -> column 38.
TEST(XctraceImportE2E, MalformedXmlGivesFileLineColumn) {
  RunResult r = RunTensormorph({"kernels", "--quiet", kData + "malformed.xml"});
  ASSERT_TRUE(r.Clean()) << r.Describe();
  EXPECT_EQ(r.exit_code, 3) << r.Describe();
  EXPECT_NE(r.err.find("malformed.xml:7:38: not well-formed XML: mismatched tag"),
            std::string::npos)
      << r.err;
}

}  // namespace TM_UNITY_ID
}  // namespace
