// The held-out evaluation of `tensormorph predict` (docs/predict.md, the README's table): for each
// of the three shared H100 / MI300X models, calibrate on the other two, predict it both ways and
// score it against the trace measured there. Every figure is recomputed here from the rows of
// predict's JSON (the measured time there, the prediction, the source's time and the peak-ratio
// baseline) and checked against predict's own evaluation; the model must beat "no change" and
// "peak ratio" per op row in every run, and pooled over the runs per op row, per category total
// and on the rows under 20 us per call.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "support/tracelens_pairs.h"

namespace {
namespace TM_UNITY_ID {  // unique per file in a unity batch (tests/CMakeLists.txt)

namespace fs = std::filesystem;
using nlohmann::json;
using namespace tensormorph::testing;

double PercentError(double predicted, double there) {
  return 100 * std::fabs(predicted - there) / there;
}

// Absolute percentage errors of the model and the two baselines.
struct Errors {
  std::vector<double> model, no_change, peak_ratio;
  void Add(double predicted, double unchanged, double peak, double there) {
    model.push_back(PercentError(predicted, there));
    no_change.push_back(PercentError(unchanged, there));
    peak_ratio.push_back(PercentError(peak, there));
  }
  void Append(const Errors& other) {
    model.insert(model.end(), other.model.begin(), other.model.end());
    no_change.insert(no_change.end(), other.no_change.begin(), other.no_change.end());
    peak_ratio.insert(peak_ratio.end(), other.peak_ratio.begin(), other.peak_ratio.end());
  }
  void Print(const std::string& split) const {
    std::printf("| %s | %zu | %.1f %% | %.1f %% | %.1f %% |\n", split.c_str(), model.size(),
                MedianOf(model), MedianOf(no_change), MedianOf(peak_ratio));
  }
  void ExpectModelWins(const std::string& what) const {
    EXPECT_LT(MedianOf(model), MedianOf(no_change)) << what;
    EXPECT_LT(MedianOf(model), MedianOf(peak_ratio)) << what;
  }
};

struct Scores {
  Errors rows, small_rows, category_totals;
  uint64_t interval_rows = 0, inside_interval = 0;
};

// One held-out direction, recomputed from the rows and checked against predict's evaluation.
Scores Evaluate(const std::string& model, const std::string& from, const std::string& to,
                const fs::path& calibration) {
  const json doc = RunJsonCommand({"predict", PairPath(from, model), "--measured",
                                   PairPath(to, model), "--calibration", calibration.string()});
  Scores run;
  struct Totals {
    double there = 0, predicted = 0, source = 0, peak = 0;
  };
  std::map<std::string, Totals> totals;
  for (const json& row : doc["rows"]) {
    const json& p = row["predictions"][0];
    if (row["measured_on_target_ns"].is_null() || p["predicted_ns"].is_null()) continue;
    const double there = row["measured_on_target_ns"].get<double>();
    const double source = row["measured_ns"].get<double>();
    if (there <= 0 || source <= 0) continue;
    const double predicted = p["predicted_ns"].get<double>();
    const double peak = row["peak_ratio_ns"].get<double>();
    run.rows.Add(predicted, source, peak, there);
    if (SizeClassOf(row) == "small") run.small_rows.Add(predicted, source, peak, there);
    Totals& t = totals[row["category"]];
    t.there += there;
    t.predicted += predicted;
    t.source += source;
    t.peak += peak;
    if (!p["predicted_low_ns"].is_null() && !p["predicted_high_ns"].is_null()) {
      ++run.interval_rows;
      run.inside_interval += p["predicted_low_ns"].get<double>() <= there &&
                             there <= p["predicted_high_ns"].get<double>();
    }
  }
  for (const auto& [category, t] : totals) {
    run.category_totals.Add(t.predicted, t.source, t.peak, t.there);
  }
  const json& e = doc["evaluation"];
  EXPECT_EQ(e["overall"]["rows"], run.rows.model.size());
  EXPECT_NEAR(e["overall"]["model_mdape"].get<double>(), MedianOf(run.rows.model), 1e-9);
  EXPECT_NEAR(e["overall"]["no_change_mdape"].get<double>(), MedianOf(run.rows.no_change), 1e-9);
  EXPECT_NEAR(e["overall"]["peak_ratio_mdape"].get<double>(), MedianOf(run.rows.peak_ratio), 1e-9);
  EXPECT_EQ(e["small_rows"]["rows"], run.small_rows.model.size());
  EXPECT_NEAR(e["small_rows"]["model_mdape"].get<double>(), MedianOf(run.small_rows.model), 1e-9);
  EXPECT_EQ(e["category_totals"]["categories"], totals.size());
  EXPECT_NEAR(e["category_totals"]["model_mdape"].get<double>(),
              MedianOf(run.category_totals.model), 1e-6);
  EXPECT_NEAR(e["category_totals"]["no_change_mdape"].get<double>(),
              MedianOf(run.category_totals.no_change), 1e-6);
  EXPECT_EQ(e["interval_rows"], run.interval_rows);
  EXPECT_EQ(e["inside_interval"], run.inside_interval);
  return run;
}

// Prints the README's evaluation table (markdown) as it goes.
TEST(Predict, BeatsBothBaselinesOnEveryHeldOutModel) {
  Scores all;
  std::printf("| held out | rows | model | no change | peak ratio |\n|---|---:|---:|---:|---:|\n");
  for (const std::string& held_out : PairModels()) {
    const fs::path calibration = TestTempPath(held_out);
    const json written = CalibrateTraces(PairTraces(held_out), calibration);
    ASSERT_EQ(written["sources"].size(), 4u);
    for (const auto& [from, to] :
         std::vector<std::pair<std::string, std::string>>{{"h100", "mi300"}, {"mi300", "h100"}}) {
      const Scores run = Evaluate(held_out, from, to, calibration);
      const std::string name = from + " → " + to + ", " + held_out;
      run.rows.Print(name);
      run.rows.ExpectModelWins(name);
      all.rows.Append(run.rows);
      all.small_rows.Append(run.small_rows);
      all.category_totals.Append(run.category_totals);
      all.interval_rows += run.interval_rows;
      all.inside_interval += run.inside_interval;
    }
  }
  std::printf(
      "\n| all six runs | rows | model | no change | peak ratio |\n|---|---:|---:|---:|---:|\n");
  all.rows.Print("per op row");
  all.category_totals.Print("per category total");
  all.small_rows.Print("per op row, under 20 us per call");
  all.rows.ExpectModelWins("per op row");
  all.category_totals.ExpectModelWins("per category total");
  all.small_rows.ExpectModelWins("rows under 20 us");
  ASSERT_GT(all.interval_rows, 0u);
  const double coverage =
      static_cast<double>(all.inside_interval) / static_cast<double>(all.interval_rows);
  std::printf("\nmeasured inside the 10-90 %% interval: %llu of %llu rows (%.1f %%)\n",
              static_cast<unsigned long long>(all.inside_interval),
              static_cast<unsigned long long>(all.interval_rows), 100 * coverage);
  // The intervals are the 10th-90th percentiles of held-out errors (80 % nominal, the issue's
  // target), measured here on models their own calibration never saw: published in
  // docs/predict.md as measured.
  EXPECT_GE(coverage, 0.8);
}

}  // namespace TM_UNITY_ID
}  // namespace
