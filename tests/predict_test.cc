// `tensormorph calibrate` and `tensormorph predict` on the H100 / MI300X pairs of
// ../shared/data/kineto/tracelens_pairs. The expectations are recomputed here from other sources
// that share no code with src/analysis/predict: kernel durations read from the raw traces with
// nlohmann-json, `tensormorph compare` rows (tested against TraceLens in compare_tracelens_test),
// `tensormorph devices` peaks, and medians taken over the rows of predict's own JSON.
//
// The evaluation (docs/predict.md, README): calibrate on two models, predict the third, both
// ways; the model must beat both baselines ("no change" and "peak ratio") on every held-out model.

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
#include "support/kineto_events.h"
#include "support/run_tensormorph.h"

namespace {
namespace TM_UNITY_ID {  // unique per file in a unity batch (tests/CMakeLists.txt)

namespace fs = std::filesystem;
using nlohmann::json;
using tensormorph::testing::RunResult;
using tensormorph::testing::RunTensormorph;

const std::string kPairs = std::string(TM_SHARED_DATA) + "/kineto/tracelens_pairs/";
const std::vector<std::string> kModels = {"owlv2-large", "qwen1.5-0.5b", "timesformer"};
const std::string kShipped = std::string(TM_SOURCE_DIR) + "/src/analysis/predict/calibration.json";

std::string PairPath(const std::string& device, const std::string& model) {
  return kPairs + device + "_" + model + "_inference.json.gz";
}

json RunJson(std::vector<std::string> args, int want_exit = 0) {
  args.insert(args.begin() + 1, {"--format", "json"});
  if (args[0] != "devices") args.insert(args.begin() + 1, "--quiet");
  RunResult r = RunTensormorph(args);
  EXPECT_EQ(r.exit_code, want_exit) << r.Describe();
  json doc = json::parse(r.out, nullptr, false);
  EXPECT_FALSE(doc.is_discarded()) << r.Describe();
  return doc;
}

fs::path TempPath(const std::string& name) {
  const testing::TestInfo* test = testing::UnitTest::GetInstance()->current_test_info();
  return fs::temp_directory_path() /
         (std::string("tm_predict_") + test->name() + "_" + name + ".json");
}

// `tensormorph calibrate` on the traces, the file it wrote parsed.
json Calibrate(const std::vector<std::string>& traces, const fs::path& out) {
  std::vector<std::string> args = {"calibrate", "--quiet"};
  args.insert(args.end(), traces.begin(), traces.end());
  args.insert(args.end(), {"-o", out.string()});
  RunResult r = RunTensormorph(args);
  EXPECT_EQ(r.exit_code, 0) << r.Describe();
  return json::parse(tensormorph::testing::ReadFile(out), nullptr, false);
}

std::vector<std::string> AllTraces(const std::string& leave_out = "") {
  std::vector<std::string> traces;
  for (const char* device : {"h100", "mi300"}) {
    for (const std::string& model : kModels) {
      if (model != leave_out) traces.push_back(PairPath(device, model));
    }
  }
  return traces;
}

// The raw trace's kernel durations on its busiest device, in ns (Kineto "dur" is µs with three
// decimals: exact in integer ns).
std::vector<int64_t> KernelDurations(const std::string& path) {
  std::string error;
  const json trace = json::parse(tensormorph::testing::Gunzip(path, &error));
  std::map<int64_t, std::vector<int64_t>> by_device;
  for (const json& e : trace["traceEvents"]) {
    if (!e.contains("cat") || e["cat"] != "kernel" || e.value("ph", "") != "X") continue;
    by_device[e["args"]["device"].get<int64_t>()].push_back(
        std::llround(e["dur"].get<double>() * 1000));
  }
  std::vector<int64_t> busiest;
  int64_t most = -1;
  for (auto& [device, d] : by_device) {
    int64_t sum = 0;
    for (int64_t v : d) sum += v;
    if (sum > most) {
      most = sum;
      busiest = d;
    }
  }
  return busiest;
}

double Median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  const size_t n = v.size();
  return n % 2 == 1 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

const json& Family(const json& calibration, const std::string& family) {
  for (const json& f : calibration["families"]) {
    if (f["family"] == family) return f;
  }
  ADD_FAILURE() << "no family " << family;
  static const json kNone;
  return kNone;
}

TEST(Calibrate, ShippedCalibrationIsCalibrateOnTheSharedPairs) {
  json computed = Calibrate(AllTraces(), TempPath("all"));
  for (json& source : computed["sources"]) {
    source["path"] = fs::path(source["path"].get<std::string>()).filename().string();
  }
  const json shipped = json::parse(tensormorph::testing::ReadFile(kShipped));
  EXPECT_EQ(computed, shipped) << "regenerate with the command in docs/predict.md";
}

TEST(Calibrate, FloorsAreThe5thPercentileOfTheRawKernelDurations) {
  const json calibration = json::parse(tensormorph::testing::ReadFile(kShipped));
  for (const auto& [device, family] :
       std::vector<std::pair<std::string, std::string>>{{"h100", "sm_90"}, {"mi300", "gfx942"}}) {
    std::vector<int64_t> all;
    for (const std::string& model : kModels) {
      const std::vector<int64_t> d = KernelDurations(PairPath(device, model));
      all.insert(all.end(), d.begin(), d.end());
    }
    std::sort(all.begin(), all.end());
    const json& f = Family(calibration, family);
    EXPECT_EQ(f["kernels"], all.size()) << family;
    EXPECT_EQ(f["kernel_floor_ns"], all[static_cast<size_t>(0.05 * (all.size() - 1))]) << family;
  }
}

// The ratios, recomputed from compare's matched rows with the shipped floors.
TEST(Calibrate, RatiosAreTheTimePastTheFloorsOnMatchedRows) {
  const json calibration = json::parse(tensormorph::testing::ReadFile(kShipped));
  const std::map<std::string, int64_t> floor = {
      {"sm_90", Family(calibration, "sm_90")["kernel_floor_ns"]},
      {"gfx942", Family(calibration, "gfx942")["kernel_floor_ns"]}};
  // (from family, category) -> {from, to}
  std::map<std::pair<std::string, std::string>, std::pair<int64_t, int64_t>> sums;
  for (const std::string& model : kModels) {
    const json compared = RunJson({"compare", PairPath("h100", model), PairPath("mi300", model)});
    for (const json& row : compared["rows"]) {
      if (row["status"] != "matched") continue;
      const std::string families[2] = {"sm_90", "gfx942"};
      for (int from = 0; from < 2; ++from) {
        const int to = 1 - from;
        const int64_t k = row["sides"][from]["kernels"];
        auto& [a, b] = sums[{families[from], row["category"]}];
        a += std::max<int64_t>(
            0, row["sides"][from]["device_ns"].get<int64_t>() - k * floor.at(families[from]));
        b += std::max<int64_t>(
            0, row["sides"][to]["device_ns"].get<int64_t>() - k * floor.at(families[to]));
      }
    }
  }
  size_t expected = 0;
  for (const auto& [key, ns] : sums) expected += ns.first > 0 && ns.second > 0;
  ASSERT_EQ(calibration["ratios"].size(), expected);
  for (const json& r : calibration["ratios"]) {
    const auto& [a, b] = sums.at({r["from"], r["category"]});
    EXPECT_EQ(r["from_ns"], a) << r.dump();
    EXPECT_EQ(r["to_ns"], b) << r.dump();
    EXPECT_DOUBLE_EQ(r["ratio"].get<double>(), static_cast<double>(b) / static_cast<double>(a));
  }
}

double Peak(const json& devices, const std::string& key, const std::string& field) {
  for (const json& d : devices["devices"]) {
    if (d["key"] == key) return d[field].get<double>();
  }
  ADD_FAILURE() << key;
  return NAN;
}

TEST(Predict, RooflineRowsAreTheFormulaOnTheTargetsPeaks) {
  const json calibration = json::parse(tensormorph::testing::ReadFile(kShipped));
  const json devices = RunJson({"devices"});
  const json doc = RunJson({"predict", PairPath("h100", "qwen1.5-0.5b"), "--device", "mi300x"});
  const json& mi300 = Family(calibration, "gfx942");
  std::map<std::string, double> fraction;
  for (const json& e : mi300["efficiency"]) fraction[e["category"]] = e["fraction_of_roof"];
  size_t checked = 0;
  for (const json& row : doc["rows"]) {
    const json& p = row["predictions"][0];
    if (p["model"] != "roofline") continue;
    // docs/roofline.md: 16-bit formats at the matrix rate; FP32 at the matrix rate where the
    // table has one (MI300X does).
    const std::string precision = row["precision"];
    ASSERT_TRUE(precision == "bf16" || precision == "fp32") << precision;
    const double peak = Peak(devices, "mi300x", precision + "_matrix_flops_per_s");
    const double roof = std::max(row["flops"].get<double>() / peak,
                                 row["bytes"].get<double>() /
                                     Peak(devices, "mi300x", "memory_bandwidth_bytes_per_s")) *
                        1e9;
    const double floors = row["kernels"].get<double>() * mi300["kernel_floor_ns"].get<double>();
    const double predicted = floors + roof / fraction.at(row["category"]);
    EXPECT_NEAR(p["predicted_ns"].get<double>(), predicted, 1.0) << row["key"];
    EXPECT_EQ(p["bound"], floors > predicted / 2 ? "latency" : "compute") << row["key"];
    ++checked;
  }
  EXPECT_GE(checked, 5u);
}

// H100 -> H200, one family (sm_90): every row is the H100's measured time times the ratio of the
// two devices' roofs (peaks from `devices --format json`): the counted part by its roof times, the
// rest by the bandwidths. The H200's BF16 peak is the H100's, so compute-bound GEMMs stay at 1x
// (a cross-family calibration predicted them at 0.45x); nothing is slower on the H200.
TEST(Predict, SameFamilyTargetKeepsTheRowsOwnEfficiency) {
  const json devices = RunJson({"devices"});
  const json doc =
      RunJson({"predict", PairPath("h100", "qwen1.5-0.5b"), "--device", "h200-sxm-141gb"});
  const double bw_h100 = Peak(devices, "h100-sxm5-80gb", "memory_bandwidth_bytes_per_s");
  const double bw_h200 = Peak(devices, "h200-sxm-141gb", "memory_bandwidth_bytes_per_s");
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
      auto roof = [&](const char* key, double bandwidth) {
        return std::max(row["flops"].get<double>() / Peak(devices, key, peak),
                        row["bytes"].get<double>() / bandwidth);
      };
      const double ratio = roof("h200-sxm-141gb", bw_h200) / roof("h100-sxm5-80gb", bw_h100);
      expected += counted * ratio;
      if (row["category"] == "gemm" && ratio == 1.0) ++compute_bound_gemms;
    }
    EXPECT_NEAR(p["predicted_ns"].get<double>(), expected, 1.0) << row["key"];
    EXPECT_LE(p["predicted_ns"].get<double>(), measured + 1) << row["key"];
  }
  EXPECT_GE(compute_bound_gemms, 3u);
}

TEST(Predict, TotalsAddUpAndNoneIsNeverACopy) {
  const std::string trace = PairPath("h100", "qwen1.5-0.5b");
  const json kernels = RunJson({"kernels", trace});
  const json doc =
      RunJson({"predict", trace, "--device", "mi300x,h100-sxm5-80gb,h200-sxm-141gb,cpu"});
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

// Per-row absolute percentage errors of the model and the two baselines, by category.
struct Errors {
  std::vector<double> model, no_change, peak_ratio;
  void Add(double predicted, double unchanged, double peak, double there) {
    model.push_back(100 * std::fabs(predicted - there) / there);
    no_change.push_back(100 * std::fabs(unchanged - there) / there);
    peak_ratio.push_back(100 * std::fabs(peak - there) / there);
  }
};

// One held-out direction: the medians recomputed from the rows, checked against predict's own.
Errors Evaluate(const std::string& model, const std::string& from, const std::string& to,
                const fs::path& calibration, std::map<std::string, Errors>* by_category) {
  const json doc = RunJson({"predict", PairPath(from, model), "--measured", PairPath(to, model),
                            "--calibration", calibration.string()});
  Errors errors;
  for (const json& row : doc["rows"]) {
    const json& p = row["predictions"][0];
    if (row["measured_on_target_ns"].is_null() || p["predicted_ns"].is_null()) continue;
    const double there = row["measured_on_target_ns"].get<double>();
    if (there <= 0 || row["measured_ns"].get<double>() <= 0) continue;
    for (Errors* e : {&errors, &(*by_category)[row["category"].get<std::string>()]}) {
      e->Add(p["predicted_ns"].get<double>(), row["measured_ns"].get<double>(),
             row["peak_ratio_ns"].get<double>(), there);
    }
  }
  const json& overall = doc["evaluation"]["overall"];
  EXPECT_EQ(overall["rows"], errors.model.size());
  EXPECT_NEAR(overall["model_mdape"].get<double>(), Median(errors.model), 1e-9);
  EXPECT_NEAR(overall["no_change_mdape"].get<double>(), Median(errors.no_change), 1e-9);
  EXPECT_NEAR(overall["peak_ratio_mdape"].get<double>(), Median(errors.peak_ratio), 1e-9);
  std::printf("| %s → %s, %s | %zu | %.1f | %.1f | %.1f |\n", from.c_str(), to.c_str(),
              model.c_str(), errors.model.size(), Median(errors.model), Median(errors.no_change),
              Median(errors.peak_ratio));
  return errors;
}

// Prints the README's evaluation tables (markdown) as it goes.
TEST(Predict, BeatsBothBaselinesOnEveryHeldOutModel) {
  std::map<std::string, Errors> by_category;
  Errors all;
  std::printf("| held out | rows | model | no change | peak ratio |\n|---|---:|---:|---:|---:|\n");
  for (const std::string& held_out : kModels) {
    const fs::path calibration = TempPath(held_out);
    const json written = Calibrate(AllTraces(held_out), calibration);
    ASSERT_EQ(written["sources"].size(), 4u);
    for (const auto& [from, to] :
         std::vector<std::pair<std::string, std::string>>{{"h100", "mi300"}, {"mi300", "h100"}}) {
      const Errors e = Evaluate(held_out, from, to, calibration, &by_category);
      EXPECT_LT(Median(e.model), Median(e.no_change)) << held_out << " " << from << " -> " << to;
      EXPECT_LT(Median(e.model), Median(e.peak_ratio)) << held_out << " " << from << " -> " << to;
      for (size_t i = 0; i < e.model.size(); ++i) {
        all.model.push_back(e.model[i]);
        all.no_change.push_back(e.no_change[i]);
        all.peak_ratio.push_back(e.peak_ratio[i]);
      }
    }
  }
  std::printf(
      "\n| category | rows | model | no change | peak ratio |\n|---|---:|---:|---:|---:|\n");
  by_category["all"] = all;
  for (const auto& [category, e] : by_category) {
    std::printf("| %s | %zu | %.1f | %.1f | %.1f |\n", category.c_str(), e.model.size(),
                Median(e.model), Median(e.no_change), Median(e.peak_ratio));
  }
  EXPECT_LT(Median(all.model), Median(all.no_change));
  EXPECT_LT(Median(all.model), Median(all.peak_ratio));
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

  const json same = RunJson({"predict", h100, "--measured", PairPath("mi300", "qwen1.5-0.5b")});
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

  const fs::path bad = TempPath("bad");
  {
    json doc = json::parse(tensormorph::testing::ReadFile(kShipped));
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
