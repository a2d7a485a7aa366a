// End-to-end: `tensormorph roofline --format svg -o FILE` on the Nsight Compute raw fixture and the
// roofline-chart section export, the usage error without -o, and -o for the other formats.
#include <gtest/gtest.h>
#include <unistd.h>

#include <fstream>
#include <sstream>

#include "support/files.h"
#include "support/run_tensormorph.h"

namespace tensormorph {
namespace {
namespace TM_UNITY_ID {  // unique per file in a unity batch (tests/CMakeLists.txt)

using tensormorph::testing::ReadFile;

using testing::RunTensormorph;

std::string TempPath(const std::string& suffix) {
  return "/tmp/tm_roofline_svg_" + std::to_string(getpid()) + "_" + suffix;
}

void ExpectChart(const std::string& input, const std::string& suffix) {
  const std::string out = TempPath(suffix);
  auto r = RunTensormorph({"roofline", "-q", "--format", "svg", "-o", out, input});
  ASSERT_EQ(r.exit_code, 0) << r.Describe();
  EXPECT_TRUE(r.out.empty()) << "the chart goes to the file, not stdout";
  const std::string svg = ReadFile(out);
  std::remove(out.c_str());
  ASSERT_FALSE(svg.empty()) << out;
  EXPECT_TRUE(svg.rfind("<svg", 0) == 0 || svg.rfind("<?xml", 0) == 0) << svg.substr(0, 200);
  EXPECT_NE(svg.find("<circle"), std::string::npos);
  EXPECT_NE(svg.find("</svg>"), std::string::npos);
}

TEST(RooflineSvgCliTest, RawFixture) {
  ExpectChart(TM_SOURCE_DIR "/tests/data/ncu_raw_fixture.csv", "raw.svg");
}

TEST(RooflineSvgCliTest, RooflineChartSection) {
  ExpectChart(TM_SHARED_DATA
              "/nvidia/ncu_csv/llmperfopt_k0001_ncu.section_SpeedOfLight_RooflineChart.csv",
              "section.svg");
}

TEST(RooflineSvgCliTest, SvgNeedsOutputFile) {
  auto r = RunTensormorph(
      {"roofline", "-q", "--format", "svg", TM_SOURCE_DIR "/tests/data/ncu_raw_fixture.csv"});
  EXPECT_EQ(r.exit_code, 2) << r.Describe();
  EXPECT_NE(r.err.find("-o"), std::string::npos) << r.err;
  EXPECT_TRUE(r.out.empty());
}

TEST(RooflineSvgCliTest, TraceWithoutCountersStillCharts) {
  const std::string out = TempPath("kineto.svg");
  auto r = RunTensormorph({"roofline", "-q", "--format", "svg", "-o", out,
                           TM_SOURCE_DIR "/examples/nccl_2rank_rank0_a100.json.gz"});
  ASSERT_EQ(r.exit_code, 0) << r.Describe();
  const std::string svg = ReadFile(out);
  std::remove(out.c_str());
  EXPECT_NE(svg.find("no kernels with counters"), std::string::npos);
}

TEST(RooflineSvgCliTest, OutputOptionForJson) {
  const std::string out = TempPath("rows.json");
  auto r = RunTensormorph({"roofline", "-q", "--format", "json", "--output", out,
                           TM_SOURCE_DIR "/tests/data/ncu_raw_fixture.csv"});
  ASSERT_EQ(r.exit_code, 0) << r.Describe();
  EXPECT_TRUE(r.out.empty());
  const std::string json = ReadFile(out);
  std::remove(out.c_str());
  EXPECT_NE(json.find("tensormorph.roofline/1"), std::string::npos);
}

TEST(RooflineSvgCliTest, UnwritableOutputIsAnError) {
  auto r = RunTensormorph({"roofline", "-q", "--format", "svg", "-o", "/nonexistent/dir/x.svg",
                           TM_SOURCE_DIR "/tests/data/ncu_raw_fixture.csv"});
  EXPECT_EQ(r.exit_code, 2) << r.Describe();
  EXPECT_NE(r.err.find("cannot write"), std::string::npos) << r.err;
}

}  // namespace TM_UNITY_ID
}  // namespace
}  // namespace tensormorph
