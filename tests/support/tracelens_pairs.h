// The shared H100 / MI300X pairs of TraceLens (../shared/data/kineto/tracelens_pairs: the same
// three models on both devices) and the command-line runs the calibrate and predict tests make on
// them. Nothing here reads src/analysis/predict: the tests recompute its figures from the traces,
// `compare` rows and `devices` peaks.
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "support/files.h"
#include "support/run_tensormorph.h"

namespace tensormorph::testing {

inline const std::vector<std::string>& PairModels() {
  static const std::vector<std::string> models = {"owlv2-large", "qwen1.5-0.5b", "timesformer"};
  return models;
}

inline std::string PairPath(const std::string& device, const std::string& model) {
  return std::string(TM_SHARED_DATA) + "/kineto/tracelens_pairs/" + device + "_" + model +
         "_inference.json.gz";
}

// Every pair's two traces, but those of `leave_out`.
inline std::vector<std::string> PairTraces(const std::string& leave_out = "") {
  std::vector<std::string> traces;
  for (const char* device : {"h100", "mi300"}) {
    for (const std::string& model : PairModels()) {
      if (model != leave_out) traces.push_back(PairPath(device, model));
    }
  }
  return traces;
}

inline std::string ShippedCalibrationPath() {
  return std::string(TM_SOURCE_DIR) + "/src/analysis/predict/calibration.json";
}

// `tensormorph COMMAND --quiet --format json ARGS...` (no --quiet for `devices`), parsed.
inline nlohmann::json RunJsonCommand(std::vector<std::string> args, int want_exit = 0) {
  args.insert(args.begin() + 1, {"--format", "json"});
  if (args[0] != "devices") args.insert(args.begin() + 1, "--quiet");
  RunResult r = RunTensormorph(args);
  EXPECT_EQ(r.exit_code, want_exit) << r.Describe();
  nlohmann::json doc = nlohmann::json::parse(r.out, nullptr, false);
  EXPECT_FALSE(doc.is_discarded()) << r.Describe();
  return doc;
}

// A file name in the temporary directory, unique per test.
inline std::filesystem::path TestTempPath(const std::string& name) {
  const ::testing::TestInfo* test = ::testing::UnitTest::GetInstance()->current_test_info();
  return std::filesystem::temp_directory_path() /
         (std::string("tm_") + test->test_suite_name() + "_" + test->name() + "_" + name + ".json");
}

// `tensormorph calibrate TRACES -o OUT`, the file it wrote parsed.
inline nlohmann::json CalibrateTraces(const std::vector<std::string>& traces,
                                      const std::filesystem::path& out) {
  std::vector<std::string> args = {"calibrate", "--quiet"};
  args.insert(args.end(), traces.begin(), traces.end());
  args.insert(args.end(), {"-o", out.string()});
  RunResult r = RunTensormorph(args);
  EXPECT_EQ(r.exit_code, 0) << r.Describe();
  return nlohmann::json::parse(ReadFile(out), nullptr, false);
}

inline const nlohmann::json& CalibrationFamily(const nlohmann::json& calibration,
                                               const std::string& family) {
  for (const nlohmann::json& f : calibration["families"]) {
    if (f["family"] == family) return f;
  }
  ADD_FAILURE() << "no family " << family;
  static const nlohmann::json kNone;
  return kNone;
}

inline double MedianOf(std::vector<double> v) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  const size_t n = v.size();
  return n % 2 == 1 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

// docs/predict.md's size class of a `predict` JSON row: "small" under 20 us of source time per
// call (per kernel for kernels under no op), else "large".
inline std::string SizeClassOf(const nlohmann::json& row) {
  const int64_t calls = row["calls"], kernels = row["kernels"];
  const int64_t per = calls > 0 ? calls : std::max<int64_t>(kernels, 1);
  return row["measured_ns"].get<int64_t>() < 20000 * per ? "small" : "large";
}

// A device's figure from `tensormorph devices --format json` (NaN and a failure when absent).
inline double DeviceFigure(const nlohmann::json& devices, const std::string& key,
                           const std::string& field) {
  for (const nlohmann::json& d : devices["devices"]) {
    if (d["key"] == key && d[field].is_number()) return d[field].get<double>();
  }
  ADD_FAILURE() << key << " " << field;
  return NAN;
}

}  // namespace tensormorph::testing
