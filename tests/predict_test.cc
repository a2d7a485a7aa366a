// `tensormorph predict` on the H100 / MI300X pairs of ../shared/data/kineto/tracelens_pairs: each
// model's formula recomputed from the shipped calibration and `tensormorph devices` peaks (the
// calibration itself: calibrate_test.cc; the held-out evaluation: predict_evaluation_test.cc).

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "support/files.h"
#include "support/tracelens_pairs.h"

namespace {
namespace TM_UNITY_ID {  // unique per file in a unity batch (tests/CMakeLists.txt)

namespace fs = std::filesystem;
using nlohmann::json;
using namespace tensormorph::testing;

// kernels on the target (the row's times the category's kernel_ratio H100 -> MI300X) * the
// category's fixed cost there + roof time at the target's peaks / its fraction of roof.
TEST(Predict, RooflineRowsAreTheFormulaOnTheTargetsPeaks) {
  const json calibration = json::parse(ReadFile(ShippedCalibrationPath()));
  const json devices = RunJsonCommand({"devices"});
  const json doc =
      RunJsonCommand({"predict", PairPath("h100", "qwen1.5-0.5b"), "--device", "mi300x"});
  const json& mi300 = CalibrationFamily(calibration, "gfx942");
  std::map<std::string, double> fraction, fixed_cost, kernel_ratio;
  for (const json& e : mi300["efficiency"]) {
    fraction[e["category"]] = e["fraction_of_roof"];
    fixed_cost[e["category"]] = e["kernel_ns"];
  }
  for (const json& r : calibration["ratios"]) {
    if (r["from"] == "sm_90" && r["to"] == "gfx942")
      kernel_ratio[r["category"]] = r["kernel_ratio"];
  }
  size_t checked = 0;
  for (const json& row : doc["rows"]) {
    const json& p = row["predictions"][0];
    if (p["model"] != "roofline") continue;
    // docs/roofline.md: 16-bit formats at the matrix rate; FP32 at the matrix rate where the
    // table has one (MI300X does).
    // Rows of memory-bound work without FLOPs (copies) have no precision and need no peak.
    const std::string precision = row["precision"];
    const bool no_flops = row["flops"].get<double>() == 0;
    ASSERT_TRUE(precision == "bf16" || precision == "fp32" || no_flops) << precision;
    const double peak =
        no_flops ? 1.0 : DeviceFigure(devices, "mi300x", precision + "_matrix_flops_per_s");
    const double roof =
        std::max(row["flops"].get<double>() / peak,
                 row["bytes"].get<double>() /
                     DeviceFigure(devices, "mi300x", "memory_bandwidth_bytes_per_s")) *
        1e9;
    const double compute = row["flops"].get<double>() / peak;
    const double memory = row["bytes"].get<double>() /
                          DeviceFigure(devices, "mi300x", "memory_bandwidth_bytes_per_s");
    const double floors = row["kernels"].get<double>() * kernel_ratio.at(row["category"]) *
                          fixed_cost.at(row["category"]);
    const double predicted = floors + roof / fraction.at(row["category"]);
    EXPECT_NEAR(p["predicted_ns"].get<double>(), predicted, 1.0) << row["key"];
    EXPECT_EQ(p["bound"], floors > predicted / 2 ? "latency"
                          : compute >= memory    ? "compute"
                                                 : "memory")
        << row["key"];
    // GEMMs and attention are compute-bound here; elementwise and normalization ops (whose work
    // is the bytes they move, link/op_work.h) memory-bound.
    if (p["bound"] != "latency" &&
        (row["category"] == "elementwise" || row["category"] == "normalization")) {
      EXPECT_EQ(p["bound"], "memory") << row["key"];
    }
    ++checked;
  }
  EXPECT_GE(checked, 5u);
}

// H100 -> H200, one family (sm_90): the fixed costs of a row's kernels (the sm_90 calibration's
// kernel_ns of its category) stay; the rest of the counted time scales by the ratio of the two
// devices' roofs (peaks from `devices --format json`), the uncounted time by the bandwidths. The
// H200's BF16 peak is the H100's, so compute-bound GEMMs stay at 1x (a cross-family calibration
// predicted them at 0.45x); nothing is slower on the H200.
TEST(Predict, SameFamilyTargetKeepsTheRowsOwnEfficiency) {
  const json devices = RunJsonCommand({"devices"});
  const json calibration = json::parse(ReadFile(ShippedCalibrationPath()));
  std::map<std::string, double> fixed_cost;
  for (const json& e : CalibrationFamily(calibration, "sm_90")["efficiency"]) {
    fixed_cost[e["category"]] = e["kernel_ns"];
  }
  const json doc =
      RunJsonCommand({"predict", PairPath("h100", "qwen1.5-0.5b"), "--device", "h200-sxm-141gb"});
  const double bw_h100 = DeviceFigure(devices, "h100-sxm5-80gb", "memory_bandwidth_bytes_per_s");
  const double bw_h200 = DeviceFigure(devices, "h200-sxm-141gb", "memory_bandwidth_bytes_per_s");
  ASSERT_GT(bw_h200, bw_h100);
  size_t compute_bound_gemms = 0;
  for (const json& row : doc["rows"]) {
    const json& p = row["predictions"][0];
    ASSERT_EQ(p["model"], "roof_ratio") << row["key"];
    const double measured = row["measured_ns"], counted = row["counted_ns"];
    double expected = (measured - counted) * bw_h100 / bw_h200;
    if (counted > 0) {
      // docs/roofline.md: 16-bit formats at the matrix rate; FP32 at the vector rate on NVIDIA.
      const std::string precision = row["precision"];
      const std::string peak =
          precision == "fp32" ? "fp32_flops_per_s" : precision + "_matrix_flops_per_s";
      const double flops = row["flops"].get<double>();  // 0 for copies: no peak needed
      auto roof = [&](const char* key, double bandwidth) {
        return std::max(flops > 0 ? flops / DeviceFigure(devices, key, peak) : 0.0,
                        row["bytes"].get<double>() / bandwidth);
      };
      const double ratio = roof("h200-sxm-141gb", bw_h200) / roof("h100-sxm5-80gb", bw_h100);
      const double kernels = row["kernels"].get<double>() * counted / measured;
      const auto cost = fixed_cost.find(row["category"]);
      const double fixed =
          std::min(counted, cost != fixed_cost.end() ? kernels * cost->second : 0.0);
      expected += fixed + (counted - fixed) * ratio;
      if (row["category"] == "gemm" && ratio == 1.0) ++compute_bound_gemms;
    }
    EXPECT_NEAR(p["predicted_ns"].get<double>(), expected, 1.0) << row["key"];
    EXPECT_LE(p["predicted_ns"].get<double>(), measured + 1) << row["key"];
  }
  EXPECT_GE(compute_bound_gemms, 3u);
}

// H100 -> A100: the family sm_80 has no calibration. Rows that are roofline-bound on the H100 (the
// sm_90 fixed costs under half their time) get their roof time on the A100's peaks at the sm_90
// fraction of roof of their category (source_fraction); every other row none, saying why.
TEST(Predict, UncalibratedFamilyPredictsOnlyRooflineBoundRows) {
  const json devices = RunJsonCommand({"devices"});
  const json calibration = json::parse(ReadFile(ShippedCalibrationPath()));
  std::map<std::string, std::pair<double, double>> sm90;  // category -> (kernel_ns, fraction)
  for (const json& e : CalibrationFamily(calibration, "sm_90")["efficiency"]) {
    sm90[e["category"]] = {e["kernel_ns"], e["fraction_of_roof"]};
  }
  const json doc =
      RunJsonCommand({"predict", PairPath("h100", "qwen1.5-0.5b"), "--device", "a100-sxm4-80gb"});
  EXPECT_TRUE(doc["targets"][0]["unusable"].is_null());
  size_t predicted = 0, none = 0;
  for (const json& row : doc["rows"]) {
    const json& p = row["predictions"][0];
    const auto cal = sm90.find(row["category"]);
    const bool roofline_bound =
        row["counted_ns"] == row["measured_ns"] && row["measured_ns"].get<double>() > 0 &&
        cal != sm90.end() &&
        row["kernels"].get<double>() * cal->second.first < 0.5 * row["measured_ns"].get<double>();
    if (!roofline_bound) {
      EXPECT_EQ(p["model"], "none") << row["key"];
      EXPECT_NE(p["why_none"].get<std::string>().find("sm_80 is not calibrated"), std::string::npos)
          << p.dump();
      ++none;
      continue;
    }
    ASSERT_EQ(p["model"], "source_fraction") << row["key"];
    // docs/roofline.md: 16-bit formats at the matrix rate; FP32 at the vector rate on NVIDIA.
    const std::string precision = row["precision"];
    const double flops = row["flops"].get<double>();
    const double compute =
        flops > 0 ? flops / DeviceFigure(devices, "a100-sxm4-80gb",
                                         precision == "fp32" ? "fp32_flops_per_s"
                                                             : precision + "_matrix_flops_per_s")
                  : 0;
    const double memory = row["bytes"].get<double>() /
                          DeviceFigure(devices, "a100-sxm4-80gb", "memory_bandwidth_bytes_per_s");
    EXPECT_NEAR(p["predicted_ns"].get<double>(),
                std::max(compute, memory) * 1e9 / cal->second.second, 1.0)
        << row["key"];
    EXPECT_NE(p["calibration"].get<std::string>().find("sm_90 fraction of roof"),
              std::string::npos);
    ++predicted;
  }
  EXPECT_GE(predicted, 10u);
  EXPECT_GE(none, 3u);
}

// Each calibrated prediction carries the interval its category and size class had on held-out
// rows: predicted_ns times the calibration's 10th and 90th percentiles of measured / predicted.
TEST(Predict, IntervalsAreThePredictionTimesTheHeldOutPercentiles) {
  const json calibration = json::parse(ReadFile(ShippedCalibrationPath()));
  std::map<std::pair<std::string, std::string>, std::pair<double, double>> intervals;
  for (const json& i : calibration["intervals"]) {
    intervals[{i["category"], i["size"]}] = {i["low"], i["high"]};
  }
  ASSERT_FALSE(intervals.empty());
  const json doc =
      RunJsonCommand({"predict", PairPath("mi300", "timesformer"), "--device", "h100-sxm5-80gb"});
  size_t checked = 0;
  for (const json& row : doc["rows"]) {
    const json& p = row["predictions"][0];
    if (p["predicted_ns"].is_null()) continue;
    const std::string size = SizeClassOf(row);
    auto found = intervals.find({row["category"], size});
    if (found == intervals.end()) found = intervals.find({"all", size});
    ASSERT_NE(found, intervals.end()) << row["key"];
    const double at = p["predicted_ns"].get<double>();
    EXPECT_EQ(p["predicted_low_ns"], std::llround(at * found->second.first)) << row["key"];
    EXPECT_EQ(p["predicted_high_ns"], std::llround(at * found->second.second)) << row["key"];
    EXPECT_LE(p["predicted_low_ns"].get<int64_t>(), p["predicted_high_ns"].get<int64_t>());
    ++checked;
  }
  EXPECT_GE(checked, 20u);
  // The CSV has them too, per target.
  RunResult csv = RunTensormorph({"predict", "--quiet", "--format", "csv", "--device",
                                  "h100-sxm5-80gb", PairPath("mi300", "timesformer")});
  EXPECT_NE(csv.out.find("h100-sxm5-80gb:predicted_low_ns,h100-sxm5-80gb:predicted_high_ns"),
            std::string::npos);
}

TEST(Predict, TotalsAddUpAndNoneIsNeverACopy) {
  const std::string trace = PairPath("h100", "qwen1.5-0.5b");
  const json kernels = RunJsonCommand({"kernels", trace});
  const json doc =
      RunJsonCommand({"predict", trace, "--device", "mi300x,h100-sxm5-80gb,h200-sxm-141gb,cpu"});
  const int64_t kernel_ns = kernels["total_ns"];
  ASSERT_EQ(doc["targets"].size(), 4u);
  EXPECT_EQ(doc["source_device"]["database_key"], "h100-sxm5-80gb");
  for (size_t t = 0; t < 4; ++t) {
    int64_t measured = 0, predicted = 0, unpredicted = 0;
    for (const json& row : doc["rows"]) {
      const json& p = row["predictions"][t];
      measured += row["measured_ns"].get<int64_t>();
      if (p["model"] == "none") {
        EXPECT_TRUE(p["predicted_ns"].is_null()) << row["key"];
        EXPECT_FALSE(p["why_none"].is_null()) << row["key"];
        unpredicted += row["measured_ns"].get<int64_t>();
      } else {
        predicted += p["predicted_ns"].get<int64_t>();
      }
      if (doc["targets"][t]["key"] == "h100-sxm5-80gb") {
        EXPECT_EQ(p["model"], "same_device");
        EXPECT_EQ(p["predicted_ns"], row["measured_ns"]);
      }
    }
    const json& total = doc["totals"][t];
    EXPECT_EQ(measured, kernel_ns);
    EXPECT_EQ(total["measured_ns"], kernel_ns);
    EXPECT_EQ(total["predicted_ns"], predicted);
    EXPECT_EQ(total["unpredicted_measured_ns"], unpredicted);
  }
  // The H200 is of the H100's family: every row by the roofs' ratio (roof_ratio), none left
  // out; the CPU entry has no peaks.
  EXPECT_EQ(doc["totals"][2]["unpredicted_measured_ns"], 0);
  EXPECT_EQ(doc["totals"][3]["unpredicted_measured_ns"], kernel_ns);
  EXPECT_FALSE(doc["targets"][3]["unusable"].is_null());
}

// `predict A --measured B` with B another model (Qwen on the H100 against TimeSformer on the
// MI300X): no op matches, so there is nothing to score; the evaluation says so instead of
// "Model 0.0 %, No change 0.0 %" over zero rows. The same model measured there is scored.
TEST(Predict, MeasuredOnAnotherWorkloadIsNotScored) {
  const std::string h100 = PairPath("h100", "qwen1.5-0.5b");
  RunResult r = RunTensormorph(
      {"predict", "--format", "json", h100, "--measured", PairPath("mi300", "timesformer")});
  ASSERT_EQ(r.exit_code, 0) << r.Describe();
  EXPECT_NE(r.err.find("warning: not evaluated on"), std::string::npos) << r.err;
  const json doc = json::parse(r.out);
  const json& evaluation = doc["evaluation"];
  EXPECT_TRUE(evaluation["overall"].is_null()) << evaluation;
  EXPECT_TRUE(evaluation["categories"].empty()) << evaluation;
  EXPECT_NE(evaluation["no_basis"].get<std::string>().find("do not look like the same workload"),
            std::string::npos)
      << evaluation;
  RunResult table =
      RunTensormorph({"predict", "--quiet", h100, "--measured", PairPath("mi300", "timesformer")});
  EXPECT_NE(table.out.find("Not evaluated on"), std::string::npos) << table.out;
  EXPECT_EQ(table.out.find("No change"), std::string::npos) << table.out;

  const json same =
      RunJsonCommand({"predict", h100, "--measured", PairPath("mi300", "qwen1.5-0.5b")});
  EXPECT_TRUE(same["evaluation"]["no_basis"].is_null());
  EXPECT_GT(same["evaluation"]["overall"]["rows"].get<int>(), 0);
}

TEST(Predict, UsageErrorsSayWhatToDo) {
  const std::string trace = PairPath("h100", "qwen1.5-0.5b");
  RunResult unknown = RunTensormorph({"predict", trace, "--device", "mi301x"});
  EXPECT_EQ(unknown.exit_code, 2) << unknown.Describe();
  EXPECT_NE(unknown.err.find("no device \"mi301x\""), std::string::npos) << unknown.err;
  RunResult none = RunTensormorph({"predict", trace});
  EXPECT_EQ(none.exit_code, 2) << none.Describe();
  EXPECT_NE(none.err.find("--device"), std::string::npos) << none.err;
  RunResult two = RunTensormorph({"predict", trace, trace, "--device", "mi300x"});
  EXPECT_EQ(two.exit_code, 2) << two.Describe();

  const fs::path bad = TestTempPath("bad");
  {
    json doc = json::parse(ReadFile(ShippedCalibrationPath()));
    doc["families"][1]["kernel_floor_ns"] = "soon";
    std::ofstream(bad) << doc.dump();
  }
  RunResult broken =
      RunTensormorph({"predict", trace, "--device", "mi300x", "--calibration", bad.string()});
  EXPECT_EQ(broken.exit_code, 3) << broken.Describe();
  EXPECT_NE(broken.err.find("families[1].kernel_floor_ns: expected an integer"), std::string::npos)
      << broken.err;
}

}  // namespace TM_UNITY_ID
}  // namespace
