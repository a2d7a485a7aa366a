// End-to-end tests of what makes inputs one job (analysis/job/job.h) and of the cross-rank figures
// `timeline` and `findings` take from the collectives, on real traces. The expectations come from
// the inputs themselves, read here with nlohmann-json and SQLite (no code shared with src/):
// distributedInfo's rank and world size, the ProfilerStep#N durations, the Nsight export's
// processes per device, record_param_comms' arguments. The collectives' own figures are recomputed
// in collectives_oracle_test.cc.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <string>
#include <vector>

#include "support/kineto_events.h"
#include "support/run_tensormorph.h"
#include "support/sql_oracle.h"

namespace {
namespace TM_UNITY_ID {  // unique per file in a unity batch (tests/CMakeLists.txt)

namespace fs = std::filesystem;
using nlohmann::json;
using tensormorph::testing::FieldNanos;
using tensormorph::testing::ReadTraceExact;
using tensormorph::testing::RunResult;
using tensormorph::testing::RunTensormorph;

const std::string kData = TM_SHARED_DATA;
const std::string kDlrm = kData + "/kineto/param_dlrm_8rank";
const std::string kQwenH100 = kData + "/kineto/tracelens_pairs/h100_qwen1.5-0.5b_inference.json.gz";
const std::string kQwenMi300 =
    kData + "/kineto/tracelens_pairs/mi300_qwen1.5-0.5b_inference.json.gz";
const std::string kNccl2Rank = kData + "/kineto/hta/nccl_2rank_rank0_a100.json.gz";
const std::string kCudaGraph16 =
    kData + "/kineto/hta_cudagraph/a100_ws16_cudagraph_triton_rank0.json.gz";
const std::string kSampled = kData + "/kineto/hta/multirank_sampled";
const std::string kNsys2Gpu = kData + "/nvidia/nsys_sqlite/nsysai_h100_2gpu_1s_2026.2.sqlite";

json RunJson(const std::vector<std::string>& args) {
  const RunResult r = RunTensormorph(args, 300);
  EXPECT_EQ(r.exit_code, 0) << r.Describe();
  if (r.exit_code != 0) return json::object();
  return json::parse(r.out);
}

std::vector<std::string> FilesOf(const std::string& folder) {
  std::vector<std::string> files;
  for (const auto& e : fs::directory_iterator(folder)) files.push_back(e.path().string());
  std::sort(files.begin(), files.end());
  return files;
}

json ReadTrace(const std::string& path) {
  std::string error;
  json doc = ReadTraceExact(path, &error);
  EXPECT_TRUE(error.empty()) << path << ": " << error;
  return doc;
}

// distributedInfo of a Kineto trace.
struct RankInfo {
  int64_t rank = -1, world_size = -1;
};
RankInfo RankOf(const json& doc) {
  const json& info = doc.at("distributedInfo");
  return {info.at("rank").get<int64_t>(), info.at("world_size").get<int64_t>()};
}

// Median as the tool defines it: the middle, or the floor of the two middles' mean.
int64_t Median(std::vector<int64_t> v) {
  std::sort(v.begin(), v.end());
  const size_t n = v.size();
  if (n % 2 == 1) return v[n / 2];
  const int64_t sum = v[n / 2 - 1] + v[n / 2];
  return sum >= 0 ? sum / 2 : -((-sum + 1) / 2);
}

std::vector<int64_t> StepDurations(const json& doc) {
  std::vector<int64_t> steps;
  for (const json& e : doc.at("traceEvents")) {
    if (e.value("ph", "") != "X" || e.value("cat", "") != "user_annotation") continue;
    if (e.value("name", "").rfind("ProfilerStep#", 0) != 0) continue;
    steps.push_back(*FieldNanos(e.at("dur")));
  }
  return steps;
}

TEST(Job, DlrmFolderIsOneJobOfEightRanks) {
  // The folder is read as its eight files, which name ranks 0..7 of world size 8.
  std::set<int64_t> ranks;
  for (const std::string& f : FilesOf(kDlrm)) {
    const RankInfo info = RankOf(ReadTrace(f));
    EXPECT_EQ(info.world_size, 8) << f;
    ranks.insert(info.rank);
  }
  ASSERT_EQ(ranks.size(), 8u);
  const json out = RunJson({"collectives", "--format", "json", kDlrm});
  EXPECT_EQ(out.at("inputs").size(), 8u);
  EXPECT_TRUE(out.at("job").at("is_job").get<bool>());
  EXPECT_EQ(out.at("job").at("world_size"), 8);
  EXPECT_EQ(out.at("job").at("backend"), "nccl");
  ASSERT_EQ(out.at("ranks").size(), 8u);
  int64_t expected_rank = 0;
  for (const json& r : out.at("ranks")) EXPECT_EQ(r.at("rank"), expected_rank++);
}

TEST(Job, TimelineStragglersAreTheRanksOthersWaitedFor) {
  // The ranks section: every rank's median step from its own ProfilerStep#N, its waits as the
  // collectives report them, and a straggler exactly when its wait caused exceeds 10 % of the
  // median over ranks of their median step.
  const std::vector<std::string> files = FilesOf(kDlrm);
  std::map<int64_t, int64_t> median_step;
  std::vector<int64_t> medians;
  for (const std::string& f : files) {
    const json doc = ReadTrace(f);
    const int64_t m = Median(StepDurations(doc));
    median_step[RankOf(doc).rank] = m;
    medians.push_back(m);
  }
  const int64_t basis = Median(medians);
  std::vector<std::string> args = {"timeline", "--format", "json"};
  args.insert(args.end(), files.begin(), files.end());
  const json timeline = RunJson(args);
  args[0] = "collectives";
  const json collectives = RunJson(args);
  std::map<int64_t, json> caused;
  for (const json& r : collectives.at("per_rank")) caused[r.at("rank").get<int64_t>()] = r;
  ASSERT_EQ(caused.size(), 8u);

  const json& ranks = timeline.at("ranks");
  EXPECT_TRUE(ranks.at("is_job").get<bool>());
  EXPECT_EQ(ranks.at("straggler_basis_ns"), basis);
  ASSERT_EQ(ranks.at("rows").size(), 8u);
  int stragglers = 0;
  int64_t most_caused_rank = -1, most_caused = -1;
  for (const json& row : ranks.at("rows")) {
    const int64_t rank = row.at("rank").get<int64_t>();
    EXPECT_EQ(row.at("median_step_ns"), median_step.at(rank)) << "rank " << rank;
    const json& c = caused.at(rank);
    EXPECT_EQ(row.at("wait_caused_ns"), c.at("wait_caused_ns")) << "rank " << rank;
    EXPECT_EQ(row.at("wait_suffered_ns"), c.at("wait_suffered_ns")) << "rank " << rank;
    const int64_t wait_caused = c.at("wait_caused_ns").get<int64_t>();
    const bool expected = wait_caused > 0 && static_cast<double>(wait_caused) > 0.1 * basis;
    EXPECT_EQ(row.at("straggler").get<bool>(), expected) << "rank " << rank;
    stragglers += expected ? 1 : 0;
    if (wait_caused > most_caused) {
      most_caused = wait_caused;
      most_caused_rank = rank;
    }
  }
  // The rank the others waited for most is a straggler, whatever its own step time.
  EXPECT_GE(stragglers, 1);
  for (const json& row : ranks.at("rows")) {
    if (row.at("rank") == most_caused_rank) {
      EXPECT_TRUE(row.at("straggler").get<bool>());
    }
  }

  // findings: one stragglers finding per straggler, its gain the wait it caused.
  args[0] = "findings";
  const json findings = RunJson(args);
  int straggler_findings = 0;
  for (const json& f : findings.at("findings")) {
    if (f.at("rule") != "stragglers") continue;
    ++straggler_findings;
    EXPECT_GT(f.at("estimated_gain_ns").get<int64_t>(), 0);
    EXPECT_NE(f.at("title").get<std::string>().find("made the other ranks wait"),
              std::string::npos);
  }
  EXPECT_EQ(straggler_findings, stragglers);
}

TEST(Job, UnrelatedRunsAreInputsNotRanks) {
  // The H100 and MI300X Qwen traces are two separate runs: both name rank 0 (or none).
  const json h100 = ReadTrace(kQwenH100), mi300 = ReadTrace(kQwenMi300);
  const auto rank_of = [](const json& doc) {
    return doc.contains("distributedInfo") ? doc["distributedInfo"].value("rank", int64_t{-1})
                                           : int64_t{-1};
  };
  EXPECT_FALSE(rank_of(h100) >= 0 && rank_of(mi300) >= 0 && rank_of(h100) != rank_of(mi300));

  const json collectives = RunJson({"collectives", "--format", "json", kQwenH100, kQwenMi300});
  EXPECT_FALSE(collectives.at("job").at("is_job").get<bool>());
  EXPECT_NE(collectives.at("job").at("verdict").get<std::string>().find("not one job"),
            std::string::npos);
  EXPECT_TRUE(collectives.at("collectives").empty());

  const json timeline = RunJson({"timeline", "--format", "json", kQwenH100, kQwenMi300});
  const json& ranks = timeline.at("ranks");
  EXPECT_FALSE(ranks.at("is_job").get<bool>());
  ASSERT_EQ(ranks.at("rows").size(), 2u);
  for (const json& row : ranks.at("rows")) {
    EXPECT_TRUE(row.at("rank").is_null());
    EXPECT_FALSE(row.at("straggler").get<bool>());
  }
  for (const json& d : timeline.at("devices")) {
    EXPECT_TRUE(d.at("rank").is_null()) << d.dump();
    EXPECT_EQ(d.at("label").get<std::string>().rfind("input ", 0), 0u) << d.at("label");
  }
  const RunResult table = RunTensormorph({"timeline", kQwenH100, kQwenMi300});
  EXPECT_NE(table.out.find("inputs: 2 inputs, not one job"), std::string::npos) << table.out;
  EXPECT_EQ(table.out.find("rank ?"), std::string::npos) << table.out;

  // --as-job insists: the two become ranks (by position), and the report says it was forced.
  const json forced =
      RunJson({"collectives", "--format", "json", "--as-job", kQwenH100, kQwenMi300});
  EXPECT_TRUE(forced.at("job").at("is_job").get<bool>());
  EXPECT_TRUE(forced.at("job").at("forced").get<bool>());
  EXPECT_EQ(forced.at("ranks").size(), 2u);
}

TEST(Job, OneRankOfALargerJobIsReportedAsSuch) {
  // hta_cudagraph: rank 0 of 16; nccl_2rank: rank 0 of 2. One input each, one rank of a job.
  for (const std::string& path : {kCudaGraph16, kNccl2Rank}) {
    const RankInfo info = RankOf(ReadTrace(path));
    const json out = RunJson({"collectives", "--format", "json", path});
    EXPECT_TRUE(out.at("job").at("is_job").get<bool>()) << path;
    EXPECT_EQ(out.at("job").at("world_size"), info.world_size) << path;
    ASSERT_EQ(out.at("ranks").size(), 1u) << path;
    EXPECT_EQ(out.at("ranks")[0].at("rank"), info.rank) << path;
    EXPECT_EQ(out.at("ranks")[0].at("clock_offset_ns"), 0) << path;
    EXPECT_NE(out.at("job").at("verdict").get<std::string>().find(
                  "rank " + std::to_string(info.rank) + " of " + std::to_string(info.world_size) +
                  " ranks"),
              std::string::npos)
        << out.at("job").at("verdict");
    EXPECT_TRUE(out.at("per_rank").empty()) << path;  // nobody to wait for
  }
}

TEST(Job, Nccl2RankCollectivesCarryRecordParamCommsArguments) {
  // Every nccl kernel of the trace is one instance (one rank); its process group, type and bytes
  // come from the record_param_comms op around its launch.
  const json doc = ReadTrace(kNccl2Rank);
  std::map<int64_t, const json*> launch_by_correlation;
  std::vector<const json*> comms, kernels;
  for (const json& e : doc.at("traceEvents")) {
    const std::string cat = e.value("cat", "");
    const std::string name = e.value("name", "");
    if (cat == "kernel" && (name.find("nccl") != std::string::npos)) kernels.push_back(&e);
    if (cat == "cuda_runtime" && e.contains("args") && e["args"].contains("correlation")) {
      launch_by_correlation[e["args"]["correlation"].get<int64_t>()] = &e;
    }
    if (name == "record_param_comms") comms.push_back(&e);
  }
  ASSERT_FALSE(kernels.empty());
  // Each kernel's bytes and type: the innermost record_param_comms on its launch's thread around
  // the launch; bytes = max(In, Out msg nelems) x the dtype's size (Float 4, Long 8 here).
  const std::map<std::string, int64_t> element_bytes = {{"Float", 4}, {"Long", 8}};
  const std::map<std::string, std::string> type_of = {{"allreduce", "all_reduce"},
                                                      {"broadcast", "broadcast"}};
  std::multiset<std::pair<std::string, int64_t>> expected;
  for (const json* k : kernels) {
    const json* launch = launch_by_correlation.at((*k)["args"]["correlation"].get<int64_t>());
    const int64_t at = *FieldNanos((*launch)["ts"]);
    const json* inner = nullptr;
    int64_t inner_start = INT64_MIN;
    for (const json* c : comms) {
      if ((*c)["tid"] != (*launch)["tid"]) continue;
      const int64_t start = *FieldNanos((*c)["ts"]), end = start + *FieldNanos((*c)["dur"]);
      if (start <= at && at <= end && start > inner_start) {
        inner = c;
        inner_start = start;
      }
    }
    ASSERT_NE(inner, nullptr);
    const json& a = (*inner)["args"];
    ASSERT_EQ(a.at("Process Group Name"), "0");
    const int64_t nelems =
        std::max(a.at("In msg nelems").get<int64_t>(), a.at("Out msg nelems").get<int64_t>());
    expected.insert({type_of.at(a.at("Collective name").get<std::string>()),
                     nelems * element_bytes.at(a.at("dtype").get<std::string>())});
  }
  const json out = RunJson({"collectives", "--format", "json", kNccl2Rank});
  ASSERT_EQ(out.at("collectives").size(), kernels.size());
  std::multiset<std::pair<std::string, int64_t>> got;
  for (const json& c : out.at("collectives")) {
    EXPECT_EQ(c.at("process_group"), "0");
    EXPECT_EQ(c.at("group_size"), 2);
    ASSERT_FALSE(c.at("bytes").is_null());
    got.insert({c.at("type").get<std::string>(), c.at("bytes").get<int64_t>()});
  }
  EXPECT_EQ(got, expected);
}

TEST(Job, TwoRankSampledTracesAreOneJobWithAnOffset) {
  const std::vector<std::string> files = FilesOf(kSampled);
  ASSERT_EQ(files.size(), 2u);
  const json out = RunJson({"collectives", "--format", "json", kSampled});
  EXPECT_TRUE(out.at("job").at("is_job").get<bool>());
  ASSERT_EQ(out.at("ranks").size(), 2u);
  EXPECT_EQ(out.at("ranks")[0].at("clock_offset_ns"), 0);
  EXPECT_FALSE(out.at("ranks")[1].at("offset_uncertainty_ns").is_null());
  EXPECT_FALSE(out.at("collectives").empty());
  for (const json& c : out.at("collectives")) EXPECT_EQ(c.at("ranks").size(), 2u);
}

TEST(Job, NsightExportOfTwoProcessesIsTwoRanks) {
  // One process per GPU: the kernels of each device were launched by one process only.
  tensormorph::testing::SqlOracle db(kNsys2Gpu);
  std::map<int64_t, std::set<int64_t>> pids_of_device;
  db.Query("SELECT DISTINCT deviceId, (globalPid >> 24) & 16777215 FROM CUPTI_ACTIVITY_KIND_KERNEL",
           [&](sqlite3_stmt* st) {
             pids_of_device[sqlite3_column_int64(st, 0)].insert(sqlite3_column_int64(st, 1));
           });
  std::vector<int64_t> pids;
  for (const auto& [device, p] : pids_of_device) {
    ASSERT_EQ(p.size(), 1u) << "device " << device;
    pids.push_back(*p.begin());
  }
  std::sort(pids.begin(), pids.end());
  ASSERT_EQ(pids.size(), 2u);

  const json out = RunJson({"collectives", "--format", "json", kNsys2Gpu});
  EXPECT_TRUE(out.at("job").at("is_job").get<bool>());
  EXPECT_EQ(out.at("job").at("world_size"), 2);
  ASSERT_EQ(out.at("ranks").size(), 2u);
  for (size_t i = 0; i < 2; ++i) {
    EXPECT_EQ(out.at("ranks")[i].at("rank"), static_cast<int64_t>(i));
    EXPECT_EQ(out.at("ranks")[i].at("pid"), pids[i]);
  }
  const json timeline = RunJson({"timeline", "--format", "json", kNsys2Gpu});
  EXPECT_TRUE(timeline.at("ranks").at("is_job").get<bool>());
  EXPECT_EQ(timeline.at("ranks").at("rows").size(), 2u);
  std::set<int64_t> device_ranks;
  for (const json& d : timeline.at("devices")) device_ranks.insert(d.at("rank").get<int64_t>());
  EXPECT_EQ(device_ranks, (std::set<int64_t>{0, 1}));
}

}  // namespace TM_UNITY_ID
}  // namespace
