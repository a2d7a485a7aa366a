// End-to-end: the HTML report's data carries the result rows of the commands' `--format json`
// field for field. Both are taken from the built binary's output and parsed here with nlohmann's
// parser (not through the serializers that wrote them): the page's embedded JSON (the
// <script id="tm-data"> element of `tensormorph report`) against `tensormorph kernels`, `roofline`,
// `occupancy`, `timeline` and `diff --format json` on the same real traces. Same key sets, same
// values; the kernels table's joins point at occupancy and roofline rows of the same kernel.
#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "support/run_tensormorph.h"

namespace tensormorph {
namespace {

using testing::RunTensormorph;
using Json = nlohmann::json;

const std::string kDemo = TM_SOURCE_DIR "/examples/nccl_2rank_rank0_a100.json.gz";
const std::string kAlexNet = TM_SHARED_DATA "/kineto/hta/alexnet_a100_cuda_sync_trace.json.gz";
const std::string kNcuFixture = TM_SOURCE_DIR "/tests/data/ncu_raw_fixture.csv";
const std::string kNcuRoofline =
    TM_SHARED_DATA "/nvidia/ncu_csv/llmperfopt_k0001_ncu.section_SpeedOfLight_RooflineChart.csv";
// Roofline rows from op shapes (no counters).
const std::string kOpShapes = TM_SHARED_DATA "/kineto/tracelens/rocm_torch_compile_triton.json.gz";

// The JSON the page embeds ("<" is written \u003c there, which the parser reads back).
Json ReportModel(const std::vector<std::string>& inputs,
                 const std::vector<std::string>& extra = {}) {
  char path[] = "/tmp/tm_report_model_XXXXXX";
  const int fd = mkstemp(path);
  if (fd >= 0) close(fd);
  std::vector<std::string> args = {"report", "--quiet"};
  args.insert(args.end(), inputs.begin(), inputs.end());
  args.insert(args.end(), {"-o", path});
  args.insert(args.end(), extra.begin(), extra.end());
  auto r = RunTensormorph(args);
  std::ifstream file(path, std::ios::binary);
  std::stringstream page;
  page << file.rdbuf();
  std::remove(path);
  EXPECT_EQ(r.exit_code, 0) << r.Describe();
  const std::string html = page.str();
  const std::string open = "<script id=\"tm-data\" type=\"application/json\">";
  const size_t start = html.find(open);
  if (start == std::string::npos) {
    ADD_FAILURE() << "no tm-data element in the page";
    return Json();
  }
  const size_t end = html.find("</script>", start);
  return Json::parse(html.substr(start + open.size(), end - start - open.size()));
}

Json CommandJson(std::vector<std::string> args) {
  args.insert(args.begin() + 1, {"--format", "json", "--quiet"});
  auto r = RunTensormorph(args);
  EXPECT_EQ(r.exit_code, 0) << r.Describe();
  return Json::parse(r.out);
}

std::set<std::string> Keys(const Json& object) {
  std::set<std::string> keys;
  for (auto it = object.begin(); it != object.end(); ++it) keys.insert(it.key());
  return keys;
}

std::string Join(const std::set<std::string>& keys) {
  std::string out;
  for (const std::string& k : keys) out += (out.empty() ? "" : ", ") + k;
  return out;
}

// Row i of the model has exactly the keys (and the values) of row i of the command's JSON.
void ExpectSameRows(const Json& model_rows, const Json& command_rows, const std::string& what) {
  ASSERT_TRUE(model_rows.is_array()) << what;
  ASSERT_EQ(model_rows.size(), command_rows.size()) << what;
  for (size_t i = 0; i < model_rows.size(); ++i) {
    const std::set<std::string> model = Keys(model_rows[i]), command = Keys(command_rows[i]);
    EXPECT_EQ(model, command) << what << " row " << i << ": the report has {" << Join(model)
                              << "}, --format json {" << Join(command) << "}";
    EXPECT_EQ(model_rows[i], command_rows[i]) << what << " row " << i;
  }
}

TEST(ReportModelFields, KernelRowsAreThoseOfKernelsJson) {
  for (const std::string& trace : {kDemo, kAlexNet, kNcuFixture}) {
    const Json model = ReportModel({trace});
    const Json kernels = CommandJson({"kernels", trace});
    ASSERT_FALSE(kernels["rows"].empty()) << trace;
    ExpectSameRows(model["kernels"]["rows"], kernels["rows"], trace + ": kernels");
  }
}

TEST(ReportModelFields, RooflineRowsAreThoseOfRooflineJson) {
  for (const std::string& trace : {kNcuFixture, kNcuRoofline, kOpShapes}) {
    const Json model = ReportModel({trace});
    const Json roofline = CommandJson({"roofline", trace});
    ASSERT_FALSE(roofline["rows"].empty()) << trace;
    ExpectSameRows(model["roofline"]["rows"], roofline["rows"], trace + ": roofline");
    EXPECT_EQ(model["roofline"]["skipped"], roofline["skipped"]) << trace;
    // The documented names, not the ones the page once had.
    for (const Json& row : model["roofline"]["rows"]) {
      EXPECT_TRUE(row.contains("bound") && row.contains("peak_source")) << row.dump();
      EXPECT_FALSE(row.contains("memory_bound")) << row.dump();
    }
  }
}

TEST(ReportModelFields, OccupancyTimelineAndDiffRowsAreThoseOfTheirCommands) {
  const Json model = ReportModel({kAlexNet}, {"--baseline", kDemo});
  const Json occupancy = CommandJson({"occupancy", kAlexNet});
  ASSERT_FALSE(occupancy["rows"].empty());
  ExpectSameRows(model["occupancy"]["rows"], occupancy["rows"], "occupancy");

  // The page embeds the gaps its own way (timeline.gaps): the devices leave out only gaps.rows.
  Json devices = CommandJson({"timeline", kAlexNet})["devices"];
  for (Json& d : devices) d["gaps"].erase("rows");
  ExpectSameRows(model["summary"]["devices"], devices, "timeline devices");

  const Json diff = CommandJson({"diff", kDemo, kAlexNet});
  ASSERT_FALSE(diff["rows"].empty());
  ExpectSameRows(model["diff"]["rows"], diff["rows"], "diff");
  EXPECT_EQ(model["diff"]["counts"], diff["counts"]);
}

// kernels.joined[i] names the occupancy and roofline rows of kernels.rows[i]'s name and backend.
TEST(ReportModelFields, KernelJoinsPointAtRowsOfTheSameKernel) {
  for (const std::string& trace : {kAlexNet, kNcuFixture}) {
    const Json model = ReportModel({trace});
    const Json& rows = model["kernels"]["rows"];
    const Json& joined = model["kernels"]["joined"];
    ASSERT_EQ(joined.size(), rows.size()) << trace;
    size_t occupancy = 0, roofline = 0;
    for (size_t i = 0; i < rows.size(); ++i) {
      for (const char* section : {"occupancy", "roofline"}) {
        const Json& at = joined[i][section];
        if (at.is_null()) continue;
        const Json& target = model[section]["rows"].at(at.get<size_t>());
        EXPECT_EQ(target["name"], rows[i]["name"]) << trace << " " << section;
        EXPECT_EQ(target["backend"], rows[i]["backend"]) << trace << " " << section;
        ++(std::string(section) == "occupancy" ? occupancy : roofline);
      }
    }
    EXPECT_GT(occupancy, 0u) << trace;
    if (trace == kNcuFixture) {
      EXPECT_GT(roofline, 0u);
    }
  }
}

// The summary's findings are `findings --format json`'s, field for field, with its total.
TEST(ReportModelFields, SummaryFindingsAreThoseOfFindingsJson) {
  const Json model = ReportModel({kAlexNet});
  const Json findings = CommandJson({"findings", kAlexNet});
  ASSERT_FALSE(findings["findings"].empty());
  EXPECT_EQ(model["summary"]["findings"], findings["findings"]);
  EXPECT_EQ(model["summary"]["findings_total_gain_ns"], findings["total_gain_ns"]);
}

}  // namespace
}  // namespace tensormorph
