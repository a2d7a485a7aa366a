#include "report/roofline_svg.h"

#include <gtest/gtest.h>

#include <cmath>
#include <regex>
#include <string>
#include <vector>

namespace tensormorph {
namespace {
namespace TM_UNITY_ID {  // unique per file in a unity batch (tests/CMakeLists.txt)

// Well-formedness without an XML library: every element closed in order, every & an entity.
// Returns the error, or "" when the document is fine.
std::string CheckTags(const std::string& svg) {
  std::vector<std::string> stack;
  size_t i = 0;
  while ((i = svg.find('<', i)) != std::string::npos) {
    if (svg.compare(i, 2, "<?") == 0) {
      i = svg.find("?>", i);
      if (i == std::string::npos) return "unterminated <?";
      continue;
    }
    const size_t end = svg.find('>', i);
    if (end == std::string::npos) return "unterminated tag at " + std::to_string(i);
    const std::string tag = svg.substr(i + 1, end - i - 1);
    if (tag.find('<') != std::string::npos) return "< inside a tag: " + tag;
    if (tag.front() == '/') {
      if (stack.empty() || stack.back() != tag.substr(1)) return "unbalanced </" + tag;
      stack.pop_back();
    } else if (tag.back() != '/') {
      stack.push_back(tag.substr(0, tag.find_first_of(" \n")));
    }
    i = end + 1;
  }
  if (!stack.empty()) return "unclosed <" + stack.back();
  for (size_t a = svg.find('&'); a != std::string::npos; a = svg.find('&', a + 1)) {
    static const std::regex kEntity("^&(amp|lt|gt|quot|apos|#[0-9]+);");
    if (!std::regex_search(svg.substr(a, 8), kEntity)) return "bare & at " + std::to_string(a);
  }
  return "";
}

TEST(CheckTagsTest, CatchesBrokenDocuments) {
  EXPECT_EQ(CheckTags("<a><b/><c>x</c></a>"), "");
  EXPECT_NE(CheckTags("<a><b></a></b>"), "");
  EXPECT_NE(CheckTags("<a>"), "");
  EXPECT_NE(CheckTags("<a>x & y</a>"), "");
}

struct Dot {
  double cx, cy, r;
  std::string title;
};

std::vector<Dot> Dots(const std::string& svg) {
  static const std::regex kCircle(
      R"re(<circle cx="([0-9.]+)" cy="([0-9.]+)" r="([0-9.]+)"[^>]*><title>([^<]*)</title>)re");
  std::vector<Dot> dots;
  for (std::sregex_iterator it(svg.begin(), svg.end(), kCircle), end; it != end; ++it) {
    dots.push_back({std::stod((*it)[1]), std::stod((*it)[2]), std::stod((*it)[3]), (*it)[4]});
  }
  return dots;
}

double TickX(const std::string& svg, const std::string& value) {
  const std::regex tick(R"re(<line x1="([0-9.]+)"[^>]*class="tick-x" data-value=")re" + value +
                        "\"");
  std::smatch m;
  if (!std::regex_search(svg, m, tick)) return NAN;
  return std::stod(m[1]);
}

const Dot* Find(const std::vector<Dot>& dots, const std::string& text) {
  for (const Dot& d : dots) {
    if (d.title.find(text) != std::string::npos) return &d;
  }
  return nullptr;
}

RooflineRow Row(std::string name, Precision p, double intensity, double achieved, int64_t ns,
                std::string device = "cuda:0 Test GPU") {
  RooflineRow r;
  r.name = std::move(name);
  r.precision = p;
  r.arithmetic_intensity = intensity;
  r.achieved_flops_per_s = achieved;
  r.total_ns = ns;
  r.count = 1;
  r.device = std::move(device);
  // Test GPU: 1 TB/s, fp64 10, fp32 40, fp16 80 TFLOP/s.
  r.peak_bytes_per_s = 1e12;
  r.peak_flops_per_s = p == Precision::kFp64 ? 10e12 : p == Precision::kFp32 ? 40e12 : 80e12;
  r.ceiling_flops_per_s = std::min(*r.peak_flops_per_s, intensity * 1e12);
  r.percent_of_roof = 100 * achieved / *r.ceiling_flops_per_s;
  r.peak_source = "database: test";
  return r;
}

RooflineResult Synthetic() {
  RooflineResult result;
  result.rows = {
      Row("void gemm<float, 128>(float*, int) & \"quoted\" 'x' <y>", Precision::kFp32, 10, 5e12,
          4000000),
      Row("dgemm", Precision::kFp64, 1, 5e11, 1000000),
      Row("hgemm_tensorless", Precision::kFp16, 100, 2e13, 500000),
      Row("elementwise_a", Precision::kFp32, 0.5, 1e11, 200000),
      Row("elementwise_b", Precision::kFp32, 0.25, 1e11, 100000),
      Row("elementwise_c", Precision::kFp32, 0.3, 2e11, 50000),
      Row("no_time_kernel", Precision::kFp32, 2, 1e12, 0),
  };
  RooflineRow other = Row("other_device_kernel", Precision::kFp32, 4, 1e12, 10000, "cuda:1 Big");
  other.peak_bytes_per_s = 3e12;
  result.rows.push_back(other);
  result.kernel_count = result.rows.size();
  result.row_count_before_top = result.rows.size();
  return result;
}

TEST(RooflineSvgTest, WellFormedAndSelfContained) {
  const std::string svg = RenderRooflineSvg(Synthetic());
  EXPECT_EQ(svg.rfind("<?xml", 0), 0u);
  EXPECT_EQ(CheckTags(svg), "");
  EXPECT_NE(svg.find(R"(fill="#ffffff")"), std::string::npos) << "explicit background";
  for (const char* external : {"<script", "href", "@import", "url("}) {
    EXPECT_EQ(svg.find(external), std::string::npos) << external;
  }
}

TEST(RooflineSvgTest, EscapesNames) {
  const std::string svg = RenderRooflineSvg(Synthetic());
  EXPECT_NE(svg.find("gemm&lt;float, 128&gt;(float*, int) &amp; &quot;quoted&quot; &apos;x&apos; "
                     "&lt;y&gt;"),
            std::string::npos);
  EXPECT_EQ(svg.find("\"quoted\""), std::string::npos);
}

TEST(RooflineSvgTest, OneDotPerRowSizedByTime) {
  const std::string svg = RenderRooflineSvg(Synthetic());
  const std::vector<Dot> dots = Dots(svg);
  ASSERT_EQ(dots.size(), 8u);
  const Dot* gemm = Find(dots, "gemm&lt;float");
  const Dot* dgemm = Find(dots, "dgemm");
  const Dot* untimed = Find(dots, "no_time_kernel");
  ASSERT_TRUE(gemm && dgemm && untimed);
  // Area proportional to time: 4x the time, 2x the radius.
  EXPECT_NEAR(gemm->r, 2 * dgemm->r, 0.02);
  EXPECT_NEAR(untimed->r, 4, 0.01);
  EXPECT_NE(gemm->title.find("of roof: 50.0%"), std::string::npos) << gemm->title;
  // The five largest dots are labelled, with short names.
  size_t labels = 0;
  for (size_t i = svg.find(R"(class="label")"); i != std::string::npos;
       i = svg.find(R"(class="label")", i + 1)) {
    ++labels;
  }
  EXPECT_EQ(labels, 5u);
  EXPECT_NE(svg.find(">gemm&lt;&gt;</text>"), std::string::npos);
  EXPECT_EQ(svg.find(">no_time_kernel</text>"), std::string::npos);
}

TEST(RooflineSvgTest, LogPositions) {
  const std::string svg = RenderRooflineSvg(Synthetic());
  const double x1 = TickX(svg, "1"), x100 = TickX(svg, "100");
  ASSERT_FALSE(std::isnan(x1) || std::isnan(x100)) << svg;
  const std::vector<Dot> dots = Dots(svg);
  const Dot* at10 = Find(dots, "intensity: 10 FLOP/B");
  ASSERT_NE(at10, nullptr);
  EXPECT_LT(x1, at10->cx);
  EXPECT_LT(at10->cx, x100);
  // log10(10) is halfway between log10(1) and log10(100).
  EXPECT_NEAR(at10->cx, (x1 + x100) / 2, 0.02);
  // Intensity 1 lies on the tick for 1; 5 TFLOP/s at 10 is above 0.5 TFLOP/s at 1 (y grows up).
  const Dot* at1 = Find(dots, "intensity: 1 FLOP/B");
  ASSERT_NE(at1, nullptr);
  EXPECT_NEAR(at1->cx, x1, 0.02);
  EXPECT_LT(at10->cy, at1->cy);
}

TEST(RooflineSvgTest, CeilingsOfTheFirstDevice) {
  const std::string svg = RenderRooflineSvg(Synthetic());
  for (const char* p : {"fp64", "fp32", "fp16"}) {
    EXPECT_NE(svg.find(std::string(R"(class="ceiling" data-precision=")") + p), std::string::npos)
        << p;
  }
  EXPECT_NE(svg.find(R"(class="slope")"), std::string::npos);
  EXPECT_NE(svg.find("DRAM 1000 GB/s"), std::string::npos);
  EXPECT_NE(svg.find("fp32 40 TFLOP/s"), std::string::npos);
  EXPECT_NE(svg.find("ridge 40 FLOP/B"), std::string::npos);
  EXPECT_NE(svg.find("ceilings of cuda:0 Test GPU"), std::string::npos);
  EXPECT_NE(svg.find("other devices"), std::string::npos);
}

TEST(RooflineSvgTest, NoIntensityStillCharts) {
  RooflineResult result;
  result.kernel_count = 12;
  result.skipped.push_back({"no counters & no luck", 12});
  RooflineRow untimed = Row("rates_only", Precision::kFp32, 0, 0, 0);
  untimed.achieved_flops_per_s.reset();
  result.rows.push_back(untimed);
  const std::string svg = RenderRooflineSvg(result);
  EXPECT_EQ(CheckTags(svg), "");
  EXPECT_NE(svg.find("no kernels with counters"), std::string::npos);
  EXPECT_NE(svg.find("no counters &amp; no luck"), std::string::npos);
  EXPECT_EQ(svg.find("<circle"), std::string::npos);
}

}  // namespace TM_UNITY_ID
}  // namespace
}  // namespace tensormorph
