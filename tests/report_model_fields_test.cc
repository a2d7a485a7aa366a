// End-to-end: the HTML report's data carries the result rows of the commands' `--format json`
// field for field. Both are taken from the built binary's output and parsed here with nlohmann's
// parser (not through the serializers that wrote them): the page's embedded JSON (the
// <script id="tm-data"> element of `tensormorph report`) against `tensormorph kernels`, `roofline`,
// `occupancy`, `timeline`, `diff`, `collectives` and `critical-path --format json` on the same real
// traces. Same key sets, same values; the kernels table's joins point at occupancy and roofline
// rows of the same kernel; a job's top critical-path pieces are this file's own sums of the path.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <functional>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "support/run_tensormorph.h"

namespace tensormorph {
namespace {
namespace TM_UNITY_ID {  // unique per file in a unity batch (tests/CMakeLists.txt)

using testing::RunTensormorph;
using Json = nlohmann::json;

const std::string kDemo = TM_SOURCE_DIR "/examples/nccl_2rank_rank0_a100.json.gz";
const std::string kAlexNet = TM_SHARED_DATA "/kineto/hta/alexnet_a100_cuda_sync_trace.json.gz";
const std::string kNcuFixture = TM_SOURCE_DIR "/tests/data/ncu_raw_fixture.csv";
const std::string kNcuRoofline =
    TM_SHARED_DATA "/nvidia/ncu_csv/llmperfopt_k0001_ncu.section_SpeedOfLight_RooflineChart.csv";
// Roofline rows from op shapes (no counters).
const std::string kOpShapes = TM_SHARED_DATA "/kineto/tracelens/rocm_torch_compile_triton.json.gz";
// One job of 8 ranks (a folder of 8 rank files), and two runs of one model that are not one job.
const std::string kDlrm = TM_SHARED_DATA "/kineto/param_dlrm_8rank";
const std::string kQwenH100 =
    TM_SHARED_DATA "/kineto/tracelens_pairs/h100_qwen1.5-0.5b_inference.json.gz";
const std::string kQwenMi300 =
    TM_SHARED_DATA "/kineto/tracelens_pairs/mi300_qwen1.5-0.5b_inference.json.gz";

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

// The timeline's gaps carry their causes: per device, the count and total of each cause equal
// `timeline --format json`'s gaps.by_cause. Its steps are each input's ProfilerStep#N: per input
// the numbers and host lengths (e - s) of timeline's steps. On the 8 DLRM ranks (one device each).
TEST(ReportModelFields, TimelineGapCausesAndStepsAreThoseOfTimelineJson) {
  const Json model = ReportModel({kDlrm});
  const Json& timeline = model["timeline"];
  const Json devices = CommandJson({"timeline", kDlrm})["devices"];
  ASSERT_EQ(timeline["gaps"].size(), devices.size());
  EXPECT_EQ(timeline["gap_count"], timeline["gaps_embedded"]);  // nothing left out here
  size_t steps_seen = 0;
  for (size_t d = 0; d < devices.size(); ++d) {
    const Json& gaps = timeline["gaps"][d];
    ASSERT_EQ(gaps["input"], devices[d]["input"]);
    std::map<std::string, std::pair<uint64_t, int64_t>> by_cause;  // count, total
    ASSERT_EQ(gaps["c"].size(), gaps["l"].size());
    for (size_t i = 0; i < gaps["c"].size(); ++i) {
      auto& [count, total] = by_cause[timeline["gap_causes"][gaps["c"][i].get<size_t>()]];
      ++count;
      total += gaps["l"][i].get<int64_t>();
    }
    for (const auto& [cause, figures] : devices[d]["gaps"]["by_cause"].items()) {
      EXPECT_EQ(by_cause[cause].first, figures["count"].get<uint64_t>()) << d << " " << cause;
      EXPECT_EQ(by_cause[cause].second, figures["total_ns"].get<int64_t>()) << d << " " << cause;
    }
    std::vector<std::pair<int64_t, int64_t>> model_steps, command_steps;  // number, host ns
    for (const Json& s : timeline["steps"]) {
      if (s["input"] == devices[d]["input"]) {
        model_steps.emplace_back(s["number"], s["e"].get<int64_t>() - s["s"].get<int64_t>());
      }
    }
    for (const Json& s : devices[d]["steps"]) command_steps.emplace_back(s["step"], s["host_ns"]);
    EXPECT_FALSE(command_steps.empty()) << d;
    EXPECT_EQ(model_steps, command_steps) << d;
    steps_seen += model_steps.size();
  }
  EXPECT_EQ(steps_seen, timeline["steps"].size());
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

// Every key of `expected` has the same value in `actual`.
void ExpectHasValuesOf(const Json& actual, const Json& expected, const std::string& what) {
  for (auto it = expected.begin(); it != expected.end(); ++it) {
    EXPECT_EQ(actual.value(it.key(), Json("(absent)")), it.value()) << what << ": " << it.key();
  }
}

// A critical path's pieces summed by (rank, kind, name), as docs/critical-path.md defines the
// top pieces: {"rank", "kind", "category", "name", "time_ns", "pieces"} per sum.
std::vector<Json> SumPieces(const Json& path) {
  std::map<std::string, Json> sums;
  for (const Json& p : path) {
    Json& sum = sums[p["rank"].dump() + "\n" + p["kind"].get<std::string>() + "\n" +
                     p["name"].get<std::string>()];
    if (sum.is_null()) {
      sum = {{"rank", p["rank"]}, {"kind", p["kind"]}, {"category", p["category"]},
             {"name", p["name"]}, {"time_ns", 0},      {"pieces", 0}};
    }
    sum["time_ns"] =
        sum["time_ns"].get<int64_t>() + p["end_ns"].get<int64_t>() - p["start_ns"].get<int64_t>();
    sum["pieces"] = sum["pieces"].get<int64_t>() + 1;
  }
  std::vector<Json> out;
  for (auto& [key, sum] : sums) out.push_back(sum);
  return out;
}

// The Ranks section of the DLRM job's report: the job, each rank's clock and waits, and by_type
// are `collectives --format json`'s; each rank's median step and straggler mark the ranks rows of
// `timeline --format json`; each step's figures `critical-path --format json`'s; its path the same
// pieces in each rank's own clock from the timeline's t0 (aligned time + the rank's clock offset of
// `collectives` - t0); the collectives collectives' rows without their per-rank timings.
TEST(ReportModelFields, JobSectionIsThatOfCollectivesTimelineAndCriticalPathJson) {
  const Json model = ReportModel({kDlrm});
  const Json& job = model["job"];
  ASSERT_TRUE(job.is_object()) << model["job"].dump();
  const Json collectives = CommandJson({"collectives", kDlrm});
  ExpectHasValuesOf(job, collectives["job"], "job");
  EXPECT_EQ(job["collective_count"], collectives["collectives"].size());

  const Json timeline = CommandJson({"timeline", kDlrm})["ranks"]["rows"];
  ASSERT_EQ(job["ranks"].size(), 8u);
  ASSERT_EQ(collectives["per_rank"].size(), 8u);
  size_t stragglers = 0;
  for (size_t i = 0; i < job["ranks"].size(); ++i) {
    const Json& row = job["ranks"][i];
    const std::string what = "rank row " + std::to_string(i);
    ExpectHasValuesOf(row, collectives["ranks"][i], what + " (collectives ranks)");
    ExpectHasValuesOf(row, collectives["per_rank"][i], what + " (collectives per_rank)");
    auto steps = std::find_if(timeline.begin(), timeline.end(),
                              [&](const Json& t) { return t["rank"] == row["rank"]; });
    ASSERT_NE(steps, timeline.end()) << what;
    for (const char* key : {"step_count", "median_step_ns", "straggler", "wait_caused_ns"}) {
      EXPECT_EQ(row[key], (*steps)[key]) << what << ": " << key;
    }
    stragglers += row["straggler"].get<bool>() ? 1 : 0;
  }
  EXPECT_TRUE(job["ranks"][7]["straggler"].get<bool>());  // last at five of the eight collectives
  EXPECT_LT(stragglers, 8u);
  ExpectSameRows(job["by_type"], collectives["by_type"], "by_type");
  ASSERT_EQ(job["collectives"].size(), collectives["collectives"].size());  // 2,000 at most
  for (size_t i = 0; i < job["collectives"].size(); ++i) {
    Json expected = collectives["collectives"][i];
    expected.erase("ranks");
    EXPECT_EQ(job["collectives"][i], expected) << "collective " << i;
  }
  std::map<int64_t, int64_t> offset_of_rank;
  for (const Json& r : collectives["ranks"]) {
    offset_of_rank[r["rank"].get<int64_t>()] = r["clock_offset_ns"].get<int64_t>();
  }
  const int64_t t0 = model["timeline"]["t0_ns"].get<int64_t>();

  const Json steps = CommandJson({"critical-path", kDlrm})["steps"];
  ASSERT_FALSE(steps.empty());
  ASSERT_EQ(job["critical_path"].size(), steps.size());
  for (size_t i = 0; i < steps.size(); ++i) {
    const Json& step = job["critical_path"][i];
    const Json& path = steps[i]["path"];
    const std::string what = "step " + steps[i]["step"].dump();
    Json expected = steps[i];
    expected.erase("path");
    ExpectHasValuesOf(step, expected, what);
    EXPECT_EQ(step["piece_count"], path.size()) << what;
    ASSERT_TRUE(step["path_embedded"].get<bool>()) << what;  // DLRM's steps are far below the cap
    ASSERT_EQ(step["path"].size(), path.size()) << what;
    for (size_t k = 0; k < path.size(); ++k) {
      const Json& piece = step["path"][k];
      const int64_t shift = offset_of_rank.at(path[k]["rank"].get<int64_t>()) - t0;
      EXPECT_EQ(piece["rank"], path[k]["rank"]) << what << " piece " << k;
      EXPECT_EQ(piece["category"], path[k]["category"]) << what << " piece " << k;
      EXPECT_EQ(piece["name"], path[k]["name"]) << what << " piece " << k;
      EXPECT_EQ(piece["s"].get<int64_t>(), path[k]["start_ns"].get<int64_t>() + shift) << what;
      EXPECT_EQ(piece["e"].get<int64_t>(), path[k]["end_ns"].get<int64_t>() + shift) << what;
    }
    std::vector<Json> sums = SumPieces(path);
    EXPECT_EQ(step["group_count"], sums.size()) << what;
    std::stable_sort(sums.begin(), sums.end(),
                     [](const Json& a, const Json& b) { return a["time_ns"] > b["time_ns"]; });
    const Json& top = step["top"];
    ASSERT_EQ(top.size(), std::min<size_t>(10, sums.size())) << what;
    for (size_t k = 0; k < top.size(); ++k) {
      EXPECT_EQ(top[k]["time_ns"], sums[k]["time_ns"]) << what << " top " << k;  // the largest
      auto same = std::find_if(sums.begin(), sums.end(), [&](const Json& s) {
        return s["rank"] == top[k]["rank"] && s["kind"] == top[k]["kind"] &&
               s["name"] == top[k]["name"];
      });
      ASSERT_NE(same, sums.end()) << what << " top " << k << ": " << top[k].dump();
      EXPECT_EQ(top[k], *same) << what << " top " << k;
    }
  }
}

// No Ranks section for one input (rank 0 of a 2-rank job) or for two inputs that are not one job.
TEST(ReportModelFields, JobIsNullForOneInputAndForInputsThatAreNotOneJob) {
  for (const std::vector<std::string>& inputs :
       std::vector<std::vector<std::string>>{{kDemo}, {kQwenH100, kQwenMi300}}) {
    const Json model = ReportModel(inputs);
    ASSERT_TRUE(model.contains("job")) << inputs.front();
    EXPECT_TRUE(model["job"].is_null()) << inputs.front() << ": " << model["job"].dump();
  }
}

// Two runs that are not one job (the Qwen pair: an H100 and an MI300X, issue 39) are not added
// up: the summary's spans, kernel time and gains are null, and each input's figures are those of
// its own report (its devices' spans and busy time, its kernels, its findings' gain).
TEST(ReportModelFields, InputsThatAreNotOneJobAreNotAddedUp) {
  const Json both = ReportModel({kQwenH100, kQwenMi300})["summary"];
  EXPECT_FALSE(both["one_job"]);
  for (const char* summed : {"span_ns", "busy_ns", "busy_percent", "kernel_count",
                             "kernel_total_ns", "findings_total_gain_ns"}) {
    EXPECT_TRUE(both[summed].is_null()) << summed << ": " << both[summed];
  }
  ASSERT_EQ(both["per_input"].size(), 2u);
  const std::string paths[] = {kQwenH100, kQwenMi300};
  for (size_t i = 0; i < 2; ++i) {
    const Json alone = ReportModel({paths[i]})["summary"];
    EXPECT_TRUE(alone["one_job"]);
    const Json& mine = both["per_input"][i];
    EXPECT_EQ(mine["span_ns"], alone["span_ns"]) << paths[i];
    EXPECT_EQ(mine["busy_ns"], alone["busy_ns"]) << paths[i];
    EXPECT_EQ(mine["kernel_count"], alone["kernel_count"]) << paths[i];
    EXPECT_EQ(mine["kernel_total_ns"], alone["kernel_total_ns"]) << paths[i];
    EXPECT_EQ(mine["findings_gain_ns"], alone["findings_total_gain_ns"]) << paths[i];
  }
}

}  // namespace TM_UNITY_ID
}  // namespace
}  // namespace tensormorph
