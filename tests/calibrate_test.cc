// `tensormorph calibrate` on the H100 / MI300X pairs of ../shared/data/kineto/tracelens_pairs:
// every figure of the shipped calibration (src/analysis/predict/calibration.json) recomputed here
// from sources that share no code with src/analysis/predict: kernel durations read from the raw
// traces with nlohmann-json, `compare` rows (tested against TraceLens in compare_tracelens_test),
// `predict` rows' work (tested against hand-computed formulas in src/link/op_work_test.cc) and
// `devices` peaks.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "support/files.h"
#include "support/kineto_events.h"
#include "support/tracelens_pairs.h"

namespace {
namespace TM_UNITY_ID {  // unique per file in a unity batch (tests/CMakeLists.txt)

namespace fs = std::filesystem;
using nlohmann::json;
using namespace tensormorph::testing;

json Shipped() {
  return json::parse(ReadFile(ShippedCalibrationPath()));
}

// The raw trace's kernel durations on its busiest device, in ns (Kineto "dur" is µs with three
// decimals: exact in integer ns).
std::vector<int64_t> KernelDurations(const std::string& path) {
  std::string error;
  const json trace = json::parse(Gunzip(path, &error));
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

const std::vector<std::pair<std::string, std::string>> kDeviceFamilies = {{"h100", "sm_90"},
                                                                          {"mi300", "gfx942"}};

TEST(Calibrate, ShippedCalibrationIsCalibrateOnTheSharedPairs) {
  json computed = CalibrateTraces(PairTraces(), TestTempPath("all"));
  for (json& source : computed["sources"]) {
    source["path"] = fs::path(source["path"].get<std::string>()).filename().string();
  }
  EXPECT_EQ(computed, Shipped()) << "regenerate with the command in docs/predict.md";
}

TEST(Calibrate, FloorsAreThe5thPercentileOfTheRawKernelDurations) {
  const json calibration = Shipped();
  for (const auto& [device, family] : kDeviceFamilies) {
    std::vector<int64_t> all;
    for (const std::string& model : PairModels()) {
      const std::vector<int64_t> d = KernelDurations(PairPath(device, model));
      all.insert(all.end(), d.begin(), d.end());
    }
    std::sort(all.begin(), all.end());
    const json& f = CalibrationFamily(calibration, family);
    EXPECT_EQ(f["kernels"], all.size()) << family;
    EXPECT_EQ(f["kernel_floor_ns"], all[static_cast<size_t>(0.05 * (all.size() - 1))]) << family;
  }
}

// The ratios and kernel counts, recomputed from compare's matched rows with the shipped floors.
TEST(Calibrate, RatiosAreTheTimePastTheFloorsOnMatchedRows) {
  const json calibration = Shipped();
  const std::map<std::string, int64_t> floor = {
      {"sm_90", CalibrationFamily(calibration, "sm_90")["kernel_floor_ns"]},
      {"gfx942", CalibrationFamily(calibration, "gfx942")["kernel_floor_ns"]}};
  struct Sums {
    int64_t from_ns = 0, to_ns = 0;
    uint64_t from_kernels = 0, to_kernels = 0;
  };
  std::map<std::pair<std::string, std::string>, Sums> sums;  // (from family, category)
  for (const std::string& model : PairModels()) {
    const json compared =
        RunJsonCommand({"compare", PairPath("h100", model), PairPath("mi300", model)});
    for (const json& row : compared["rows"]) {
      if (row["status"] != "matched") continue;
      const std::string families[2] = {"sm_90", "gfx942"};
      for (int from = 0; from < 2; ++from) {
        const int to = 1 - from;
        const int64_t k = row["sides"][from]["kernels"];
        Sums& s = sums[{families[from], row["category"]}];
        s.from_ns += std::max<int64_t>(
            0, row["sides"][from]["device_ns"].get<int64_t>() - k * floor.at(families[from]));
        s.to_ns += std::max<int64_t>(
            0, row["sides"][to]["device_ns"].get<int64_t>() - k * floor.at(families[to]));
        s.from_kernels += row["sides"][from]["kernels"].get<uint64_t>();
        s.to_kernels += row["sides"][to]["kernels"].get<uint64_t>();
      }
    }
  }
  size_t expected = 0;
  for (const auto& [key, s] : sums) expected += s.from_ns > 0 && s.to_ns > 0;
  ASSERT_EQ(calibration["ratios"].size(), expected);
  for (const json& r : calibration["ratios"]) {
    const Sums& s = sums.at({r["from"], r["category"]});
    EXPECT_EQ(r["from_ns"], s.from_ns) << r.dump();
    EXPECT_EQ(r["to_ns"], s.to_ns) << r.dump();
    EXPECT_DOUBLE_EQ(r["ratio"].get<double>(),
                     static_cast<double>(s.to_ns) / static_cast<double>(s.from_ns));
    EXPECT_EQ(r["from_kernels"], s.from_kernels) << r.dump();
    EXPECT_EQ(r["to_kernels"], s.to_kernels) << r.dump();
    EXPECT_DOUBLE_EQ(r["kernel_ratio"].get<double>(),
                     static_cast<double>(s.to_kernels) / static_cast<double>(s.from_kernels));
  }
}

// A row of one trace on its own device: kernels, roof time (from `devices` peaks), device time.
struct FitRow {
  double kernels, roof_ns, time_ns;
};

// docs/roofline.md: 16-bit formats at the matrix rate; FP32 at the matrix rate where the table has
// one (MI300X), else the vector rate (H100); no peak needed without FLOPs.
double RoofNs(const json& devices, const std::string& key, const json& row) {
  const double flops = row["flops"].get<double>();
  double compute = 0;
  if (flops > 0) {
    const std::string precision = row["precision"];
    std::string field = precision + "_matrix_flops_per_s";
    if (precision == "fp32" && key == "h100-sxm5-80gb") field = "fp32_flops_per_s";
    compute = flops / DeviceFigure(devices, key, field);
  }
  const double memory =
      row["bytes"].get<double>() / DeviceFigure(devices, key, "memory_bandwidth_bytes_per_s");
  return std::max(compute, memory) * 1e9;
}

// The kernel-weighted median of the time per kernel, over (time per kernel, kernels) pairs.
double WeightedMedian(std::vector<std::pair<double, uint64_t>> v) {
  std::sort(v.begin(), v.end());
  uint64_t total = 0;
  for (const auto& [ns, k] : v) total += k;
  uint64_t seen = 0;
  for (const auto& [ns, k] : v) {
    seen += k;
    if (2 * seen >= total + 1) return ns;
  }
  return NAN;
}

// calibration.h: kernel_ns is the median kernel of the latency-regime rows (roof time per kernel
// under 1 us), of the category with 3 such kernels or more, else of the family; the fraction of
// roof minimizes the rows' squared relative error with that fixed cost, at most 1.
TEST(Calibrate, FixedCostsAndFractionsOfRoofFollowFromTheRows) {
  const json calibration = Shipped();
  const json devices = RunJsonCommand({"devices"});
  for (const auto& [device, family] : kDeviceFamilies) {
    const std::string key = device == "h100" ? "h100-sxm5-80gb" : "mi300x";
    std::map<std::string, std::vector<FitRow>> rows;
    for (const std::string& model : PairModels()) {
      const json doc = RunJsonCommand({"predict", PairPath(device, model), "--device", key});
      for (const json& row : doc["rows"]) {
        if (row["flops"].is_null() || row["bytes"].is_null() || row["kernels"] == 0) continue;
        if (row["counted_ns"] != row["measured_ns"] || row["measured_ns"] == 0) continue;
        const double roof = RoofNs(devices, key, row);
        if (!(roof > 0)) continue;
        rows[row["category"]].push_back(
            {row["kernels"].get<double>(), roof, row["measured_ns"].get<double>()});
      }
    }
    std::vector<std::pair<double, uint64_t>> family_latency;
    std::map<std::string, std::vector<std::pair<double, uint64_t>>> latency;
    for (const auto& [category, list] : rows) {
      for (const FitRow& r : list) {
        if (r.roof_ns / r.kernels >= 1000) continue;
        latency[category].emplace_back(r.time_ns / r.kernels, static_cast<uint64_t>(r.kernels));
        family_latency.emplace_back(r.time_ns / r.kernels, static_cast<uint64_t>(r.kernels));
      }
    }
    const json& f = CalibrationFamily(calibration, family);
    ASSERT_EQ(f["efficiency"].size(), rows.size()) << family;
    for (const json& e : f["efficiency"]) {
      const std::string category = e["category"];
      const std::vector<FitRow>& list = rows.at(category);
      uint64_t kernels = 0;
      for (const auto& [ns, k] : latency[category]) kernels += k;
      const bool own = kernels >= 3;
      const double fixed = WeightedMedian(own ? latency[category] : family_latency);
      EXPECT_EQ(e["kernel_ns_from"], own ? "category" : "family") << family << " " << category;
      EXPECT_NEAR(e["kernel_ns"].get<double>(), fixed, 1e-9 * fixed) << family << " " << category;
      // d/db sum((k a + r b - t) / t)^2 = 0  =>  b = sum(r/t (1 - k a / t)) / sum((r/t)^2).
      double numerator = 0, denominator = 0;
      for (const FitRow& r : list) {
        numerator += r.roof_ns / r.time_ns * (1 - r.kernels * fixed / r.time_ns);
        denominator += (r.roof_ns / r.time_ns) * (r.roof_ns / r.time_ns);
      }
      const double fraction = 1 / std::max(1.0, numerator / denominator);
      EXPECT_NEAR(e["fraction_of_roof"].get<double>(), fraction, 1e-9 * fraction)
          << family << " " << category;
      EXPECT_EQ(e["rows"], list.size()) << family << " " << category;
    }
  }
}

// The intervals: for each model, a calibration without it predicts it both ways; measured /
// predicted per category and size class (under 20 us per call on the source: "small"), their
// 10th and 90th percentiles at the plotting positions k / (n + 1), rounded outward, where 10 rows
// or more.
TEST(Calibrate, IntervalsAreThePercentilesOfHeldOutErrors) {
  std::map<std::pair<std::string, std::string>, std::vector<double>> ratios;
  for (const std::string& held_out : PairModels()) {
    const fs::path without = TestTempPath(held_out);
    CalibrateTraces(PairTraces(held_out), without);
    for (const auto& [from, to] :
         std::vector<std::pair<std::string, std::string>>{{"h100", "mi300"}, {"mi300", "h100"}}) {
      const json doc = RunJsonCommand({"predict", PairPath(from, held_out), "--measured",
                                       PairPath(to, held_out), "--calibration", without.string()});
      for (const json& row : doc["rows"]) {
        const json& predicted = row["predictions"][0]["predicted_ns"];
        const json& there = row["measured_on_target_ns"];
        if (predicted.is_null() || there.is_null() || predicted <= 0 || there <= 0) continue;
        const std::string size = SizeClassOf(row);
        const double ratio = there.get<double>() / predicted.get<double>();
        ratios[{row["category"], size}].push_back(ratio);
        ratios[{"all", size}].push_back(ratio);
      }
    }
  }
  std::map<std::pair<std::string, std::string>, std::pair<double, double>> expected;
  for (auto& [key, v] : ratios) {
    if (v.size() < 10) continue;
    std::sort(v.begin(), v.end());
    // Ranks floor(0.1 (n + 1)) and ceil(0.9 (n + 1)), 1-based, kept inside 1..n: the held-out
    // ratios below and above the bounds are each at most a tenth of n + 1.
    const size_t n = v.size();
    size_t low = n, high = 1;
    while (low > 1 && 10 * low > n + 1) --low;           // the largest rank with 10 low <= n + 1
    while (high < n && 10 * high < 9 * (n + 1)) ++high;  // the smallest with 10 high >= 9 (n + 1)
    expected[key] = {v[low - 1], v[high - 1]};
  }
  const json shipped = Shipped();
  ASSERT_EQ(shipped["intervals"].size(), expected.size());
  for (const json& i : shipped["intervals"]) {
    const auto& [low, high] = expected.at({i["category"], i["size"]});
    EXPECT_DOUBLE_EQ(i["low"].get<double>(), low) << i.dump();
    EXPECT_DOUBLE_EQ(i["high"].get<double>(), high) << i.dump();
    EXPECT_EQ(i["rows"], ratios.at({i["category"], i["size"]}).size()) << i.dump();
  }
}

}  // namespace TM_UNITY_ID
}  // namespace
