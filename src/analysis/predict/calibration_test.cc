#include "tensormorph/analysis/predict/calibration.h"

#include <gtest/gtest.h>

#include <string>

#include "support/files.h"

namespace tensormorph {
namespace {
namespace TM_UNITY_ID {  // unique per file in a unity batch (tests/CMakeLists.txt)

const std::string kShipped = std::string(TM_SOURCE_DIR) + "/src/analysis/predict/calibration.json";

TEST(Calibration, ShippedFileIsTheBuiltInOneAndRoundTrips) {
  const std::string text = testing::ReadFile(kShipped);
  StatusOr<Calibration> parsed = ParseCalibration(text, kShipped);
  ASSERT_TRUE(parsed.ok()) << parsed.status().message();
  EXPECT_EQ(CalibrationJson(*parsed), text);
  EXPECT_EQ(CalibrationJson(BuiltInCalibration()), text);
  ASSERT_NE(parsed->Family("sm_90"), nullptr);
  ASSERT_NE(parsed->Family("gfx942"), nullptr);
  const CategoryRatio* gemm = parsed->Ratio("sm_90", "gfx942", WorkCategory::kGemm);
  ASSERT_NE(gemm, nullptr);
  EXPECT_DOUBLE_EQ(gemm->ratio, static_cast<double>(gemm->to_ns) / gemm->from_ns);
}

// Each broken field is named with its path in the document.
TEST(Calibration, ErrorsNameTheFileAndTheField) {
  const std::string good = testing::ReadFile(kShipped);
  auto error_of = [&](const std::string& from, const std::string& to) {
    std::string text = good;
    const size_t at = text.find(from);
    EXPECT_NE(at, std::string::npos) << from;
    text.replace(at, from.size(), to);
    StatusOr<Calibration> parsed = ParseCalibration(text, "cal.json");
    EXPECT_FALSE(parsed.ok()) << from << " -> " << to;
    return parsed.ok() ? std::string() : parsed.status().message();
  };
  EXPECT_EQ(error_of("tensormorph.calibration/2", "tensormorph.calibration/9"),
            "cal.json: schema: \"tensormorph.calibration/9\", expected "
            "\"tensormorph.calibration/2\"");
  EXPECT_EQ(error_of("\"kernel_floor_ns\": ", "\"kernel_floor_ns\": -"),
            "cal.json: families[0].kernel_floor_ns: expected a non-negative integer");
  EXPECT_EQ(error_of("\"category\": \"gemm\"", "\"category\": \"matmul\""),
            "cal.json: families[0].efficiency[0].category: unknown category \"matmul\"");
  EXPECT_EQ(error_of("\"ratio\": ", "\"ratio\": -"),
            "cal.json: ratios[0].ratio: expected a positive number");
  EXPECT_EQ(error_of("\"first\": 0", "\"first\": 99"),
            "cal.json: pairs[0]: names a source that is not in sources");
  EXPECT_EQ(error_of("\"kernel_ns_from\": \"category\"", "\"kernel_ns_from\": \"guess\""),
            "cal.json: families[0].efficiency[0].kernel_ns_from: unknown value \"guess\"");
  EXPECT_EQ(error_of("\"fraction_of_roof\": 0", "\"fraction_of_roof\": 7"),
            "cal.json: families[0].efficiency[0].fraction_of_roof: expected at most 1");
  EXPECT_EQ(error_of("\"size\": \"large\"", "\"size\": \"huge\""),
            "cal.json: intervals[0].size: unknown value \"huge\"");
  EXPECT_EQ(error_of("\"kernel_ratio\": ", "\"kernel_ratio\": -"),
            "cal.json: ratios[0].kernel_ratio: expected a positive number");
  EXPECT_EQ(ParseCalibration("{", "cal.json").status().message(), "cal.json: not JSON");
  EXPECT_EQ(ParseCalibration("[]", "cal.json").status().message(), "cal.json: expected an object");
}

}  // namespace TM_UNITY_ID
}  // namespace
}  // namespace tensormorph
