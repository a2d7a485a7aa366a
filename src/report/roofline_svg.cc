#include "report/roofline_svg.h"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <numeric>
#include <optional>
#include <set>

#include "model/time.h"
#include "report/markup_escape.h"

namespace tensormorph {
namespace {

// Canvas and plot area, in SVG user units; the ceilings are labelled in the right margin, where
// no dot or kernel label can hide them.
constexpr double kWidth = 900, kHeight = 580;
constexpr double kLeft = 116, kRight = 760, kTop = 80, kBottom = 500;
constexpr double kMaxRadius = 16, kMinRadius = 2.5, kUntimedRadius = 4;
constexpr size_t kLabelledDots = 5;
constexpr size_t kShortNameLength = 36;

// Legible on white, indexed by Precision: unknown grey, fp64 purple, fp32 blue, tf32 teal,
// fp16 orange, bf16 brown, fp8 green, int8 magenta, fp6 olive, fp4 dark teal (the three counter
// precisions stay colour-blind-safe among themselves).
constexpr std::array<const char*, kPrecisionCount> kColour = {
    "#777777", "#7b3294", "#1f5fa8", "#1b9e77", "#d95f02",
    "#8c510a", "#4d9221", "#c51b7d", "#808000", "#01665e"};

// 344.2 G: rates span many orders of magnitude, SI prefixes keep them readable.
std::string Si(double v, int digits = 4) {
  static constexpr const char* kPrefix[] = {"", " k", " M", " G", " T", " P", " E"};
  int i = 0;
  while (std::abs(v) >= 1000 && i < 6) {
    v /= 1000;
    ++i;
  }
  if (i == 0 && std::abs(v) < 1 && v != 0) return fmt::format("{:.{}g} ", v, digits);
  return fmt::format("{:.{}g}{}", v, digits, i == 0 ? " " : kPrefix[i]);
}

// Demangled names are long (templates, argument lists): keep the function's own name, and
// collapse template arguments so that the label says which kernel, not which instantiation.
std::string ShortName(const std::string& name) {
  std::string s = name;
  if (s.rfind("void ", 0) == 0) s = s.substr(5);
  std::string out;
  int depth = 0;
  for (char c : s) {
    if (depth == 0 && c == '(') break;
    if (c == '<') {
      if (depth++ == 0) out += "<>";
    } else if (c == '>') {
      if (depth > 0) --depth;
    } else if (depth == 0) {
      out += c;
    }
  }
  if (out.empty()) out = s;
  if (out.size() > kShortNameLength) out = out.substr(0, kShortNameLength - 3) + "...";
  return out;
}

// A log10 axis over whole decades [lo, hi], mapped linearly onto [px_lo, px_hi].
struct LogAxis {
  int lo = 0, hi = 1;
  double px_lo = 0, px_hi = 1;
  double At(double v) const { return px_lo + (std::log10(v) - lo) / (hi - lo) * (px_hi - px_lo); }
  double Min() const { return std::pow(10.0, lo); }
  double Max() const { return std::pow(10.0, hi); }
};

// At least two decades, so that a single point still sits on a readable scale, and a margin
// (in decades) so that no dot is cut by the frame and a ceiling right of its ridge stays visible.
LogAxis DecadesAround(const std::vector<double>& values, double px_lo, double px_hi,
                      double margin) {
  auto [mn, mx] = std::minmax_element(values.begin(), values.end());
  LogAxis axis{static_cast<int>(std::floor(std::log10(*mn) - margin)),
               static_cast<int>(std::ceil(std::log10(*mx) + margin)), px_lo, px_hi};
  while (axis.hi - axis.lo < 2) {
    ++axis.hi;
    if (axis.hi - axis.lo < 2) --axis.lo;
  }
  return axis;
}

bool Plottable(const RooflineRow& r) {
  return r.arithmetic_intensity > 0 && std::isfinite(r.arithmetic_intensity) &&
         r.achieved_flops_per_s && *r.achieved_flops_per_s > 0 &&
         std::isfinite(*r.achieved_flops_per_s);
}

// The ceilings drawn: those of one device, taken from its rows.
struct Ceilings {
  std::string device, source;
  std::optional<double> bandwidth;
  std::array<std::optional<double>, kPrecisionCount> peak;
  bool others_differ = false;  // rows of other devices with other (or no) peaks
};

Ceilings PickCeilings(const RooflineResult& result) {
  Ceilings c;
  const RooflineRow* first = nullptr;
  for (const RooflineRow& r : result.rows) {
    if (r.peak_flops_per_s || r.peak_bytes_per_s) {
      first = &r;
      break;
    }
  }
  if (first == nullptr) return c;
  c.device = first->device;
  c.source = first->peak_source;
  for (const RooflineRow& r : result.rows) {
    if (r.device != c.device) continue;
    if (!c.bandwidth && r.peak_bytes_per_s && *r.peak_bytes_per_s > 0) {
      c.bandwidth = r.peak_bytes_per_s;
    }
    auto& peak = c.peak[static_cast<int>(r.precision)];
    if (!peak && r.peak_flops_per_s && *r.peak_flops_per_s > 0) peak = r.peak_flops_per_s;
  }
  for (const RooflineRow& r : result.rows) {
    if (r.device == c.device) continue;
    if (r.peak_bytes_per_s != c.bandwidth ||
        r.peak_flops_per_s != c.peak[static_cast<int>(r.precision)]) {
      c.others_differ = true;
    }
  }
  return c;
}

class Svg {
 public:
  void Add(std::string element) {
    body_ += element;
    body_ += '\n';
  }
  void Text(double x, double y, std::string_view text, std::string_view attrs = {}) {
    Add(fmt::format(R"(<text x="{:.2f}" y="{:.2f}" {}>{}</text>)", x, y, attrs,
                    EscapeMarkup(text)));
  }
  void Line(double x1, double y1, double x2, double y2, std::string_view attrs) {
    Add(fmt::format(R"(<line x1="{:.2f}" y1="{:.2f}" x2="{:.2f}" y2="{:.2f}" {}/>)", x1, y1, x2, y2,
                    attrs));
  }
  std::string Finish() const {
    return fmt::format(
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{0}\" height=\"{1}\" "
        "viewBox=\"0 0 {0} {1}\" font-family=\"sans-serif\" font-size=\"12\">\n"
        "<rect x=\"0\" y=\"0\" width=\"{0}\" height=\"{1}\" fill=\"#ffffff\"/>\n{2}</svg>\n",
        kWidth, kHeight, body_);
  }

 private:
  std::string body_;
};

void DrawAxes(Svg& svg, const LogAxis& x, const LogAxis& y) {
  svg.Add(fmt::format(
      R"(<rect x="{:.2f}" y="{:.2f}" width="{:.2f}" height="{:.2f}" fill="none" stroke="#444"/>)",
      kLeft, kTop, kRight - kLeft, kBottom - kTop));
  for (int k = x.lo; k <= x.hi; ++k) {
    const double v = std::pow(10.0, k), px = x.At(v);
    if (k > x.lo && k < x.hi) svg.Line(px, kTop, px, kBottom, R"(stroke="#e3e3e3")");
    svg.Line(px, kBottom, px, kBottom + 6,
             fmt::format(R"(class="tick-x" data-value="{:g}" stroke="#444")", v));
    svg.Text(px, kBottom + 20, fmt::format("{:g}", v), R"(text-anchor="middle" fill="#222")");
    for (int m = 2; m < 10 && k < x.hi; ++m) {
      const double mpx = x.At(m * v);
      svg.Line(mpx, kBottom, mpx, kBottom + 3, R"(stroke="#888")");
    }
  }
  for (int k = y.lo; k <= y.hi; ++k) {
    const double v = std::pow(10.0, k), py = y.At(v);
    if (k > y.lo && k < y.hi) svg.Line(kLeft, py, kRight, py, R"(stroke="#e3e3e3")");
    svg.Line(kLeft - 6, py, kLeft, py,
             fmt::format(R"(class="tick-y" data-value="{:g}" stroke="#444")", v));
    svg.Text(kLeft - 9, py + 4, Si(v) + "FLOP/s", R"(text-anchor="end" fill="#222")");
    for (int m = 2; m < 10 && k < y.hi; ++m) {
      const double mpy = y.At(m * v);
      svg.Line(kLeft - 3, mpy, kLeft, mpy, R"(stroke="#888")");
    }
  }
  svg.Text((kLeft + kRight) / 2, kBottom + 44, "Arithmetic intensity (FLOP/byte, DRAM)",
           R"(text-anchor="middle" fill="#222" font-size="13")");
  svg.Text(20, (kTop + kBottom) / 2, "Performance (FLOP/s)",
           fmt::format(R"svg(text-anchor="middle" fill="#222" font-size="13" )svg"
                       R"svg(transform="rotate(-90 20 {:.2f})")svg",
                       (kTop + kBottom) / 2));
}

// The DRAM slope up to the highest ceiling, each ceiling from its ridge point on, and the ridges.
void DrawRoofs(Svg& svg, const Ceilings& c, const LogAxis& x, const LogAxis& y) {
  std::optional<double> top;
  for (const auto& p : c.peak) {
    if (p && (!top || *p > *top)) top = p;
  }
  if (c.bandwidth) {
    const double bw = *c.bandwidth;
    const double x0 = std::max(x.Min(), y.Min() / bw);
    const double x1 = std::min(x.Max(), std::min(top.value_or(y.Max()), y.Max()) / bw);
    if (x0 < x1) {
      const double px0 = x.At(x0), py0 = y.At(x0 * bw), px1 = x.At(x1), py1 = y.At(x1 * bw);
      svg.Line(px0, py0, px1, py1, R"(class="slope" stroke="#333" stroke-width="2")");
      const double angle = std::atan2(py1 - py0, px1 - px0) * 180 / M_PI;
      const double mx = (px0 + px1) / 2, my = (py0 + py1) / 2 - 6;
      svg.Text(mx, my, fmt::format("DRAM {:.4g} GB/s", bw / 1e9),
               fmt::format(R"svg(text-anchor="middle" fill="#333" )svg"
                           R"svg(transform="rotate({:.2f} {:.2f} {:.2f})")svg",
                           angle, mx, my));
    }
  }
  std::vector<std::pair<double, int>> labels;  // (y, precision), nudged apart below
  for (int p = 0; p < kPrecisionCount; ++p) {
    if (!c.peak[p]) continue;
    const double peak = *c.peak[p];
    const double ridge = c.bandwidth ? peak / *c.bandwidth : x.Min();
    const double px0 = x.At(std::max(ridge, x.Min())), py = y.At(peak);
    svg.Line(px0, py, kRight, py,
             fmt::format(R"(class="ceiling" data-precision="{}" stroke="{}" stroke-width="2")",
                         PrecisionName(static_cast<Precision>(p)), kColour[p]));
    labels.emplace_back(py + 4, p);
    if (c.bandwidth && ridge >= x.Min() && ridge <= x.Max()) {
      const double px = x.At(ridge);
      svg.Add(fmt::format(
          R"(<path class="ridge" d="M{0:.2f} {1:.2f} l5 5 l-5 5 l-5 -5 z" fill="{2}"/>)", px,
          py - 5, kColour[p]));
      // Up and left of the ridge lies above the slope: unattainable, so no dot is there.
      svg.Text(px - 8, py - 4, fmt::format("ridge {:.3g} FLOP/B", ridge),
               fmt::format(R"(text-anchor="end" fill="{}" font-size="11")", kColour[p]));
    }
  }
  // Peaks a factor of two apart (fp16 and fp32) would print their labels over each other.
  std::sort(labels.begin(), labels.end());
  for (size_t i = 1; i < labels.size(); ++i) {
    labels[i].first = std::max(labels[i].first, labels[i - 1].first + 13);
  }
  for (const auto& [ly, p] : labels) {
    svg.Text(kRight + 6, ly,
             fmt::format("{} {}FLOP/s", PrecisionName(static_cast<Precision>(p)), Si(*c.peak[p])),
             fmt::format(R"(fill="{}" font-size="11")", kColour[p]));
  }
}

double Radius(const RooflineRow& r, int64_t max_ns) {
  if (r.total_ns <= 0 || max_ns <= 0) return kUntimedRadius;
  // Area proportional to time: the radius goes with its square root.
  return std::max(kMinRadius, kMaxRadius * std::sqrt(static_cast<double>(r.total_ns) / max_ns));
}

std::string Tooltip(const RooflineRow& r) {
  std::string t = fmt::format(
      "{}\ndevice: {}\nprecision: {}\nintensity: {:.4g} FLOP/B\n"
      "achieved: {}FLOP/s",
      r.name, r.device, PrecisionName(r.precision), r.arithmetic_intensity,
      Si(*r.achieved_flops_per_s));
  t += r.percent_of_roof ? fmt::format("\nof roof: {:.1f}%", *r.percent_of_roof)
                         : "\nof roof: unknown (no ceiling)";
  if (r.total_ns > 0)
    t += fmt::format("\ntotal time: {} ({} launches)", FormatDuration(r.total_ns), r.count);
  return t;
}

void DrawDots(Svg& svg, const std::vector<const RooflineRow*>& rows, const LogAxis& x,
              const LogAxis& y) {
  int64_t max_ns = 0;
  for (const RooflineRow* r : rows) max_ns = std::max(max_ns, r->total_ns);
  // Largest first, so that small dots stay visible on top of big ones.
  std::vector<size_t> order(rows.size());
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(),
                   [&](size_t a, size_t b) { return rows[a]->total_ns > rows[b]->total_ns; });
  for (size_t i : order) {
    const RooflineRow& r = *rows[i];
    const int p = static_cast<int>(r.precision);
    svg.Add(
        fmt::format(R"(<circle cx="{:.2f}" cy="{:.2f}" r="{:.2f}" fill="{}" fill-opacity="0.65" )"
                    R"(stroke="{}" stroke-width="1"><title>{}</title></circle>)",
                    x.At(r.arithmetic_intensity), y.At(*r.achieved_flops_per_s), Radius(r, max_ns),
                    kColour[p], kColour[p], EscapeMarkup(Tooltip(r))));
  }
  for (size_t k = 0; k < std::min(kLabelledDots, order.size()); ++k) {
    const RooflineRow& r = *rows[order[k]];
    const double rad = Radius(r, max_ns);
    svg.Text(x.At(r.arithmetic_intensity) + rad + 3, y.At(*r.achieved_flops_per_s) + 4,
             ShortName(r.name),
             R"(class="label" fill="#111" font-size="11" stroke="#ffffff" stroke-width="3" )"
             R"(paint-order="stroke")");
  }
}

void DrawLegend(Svg& svg, const std::vector<const RooflineRow*>& rows) {
  std::set<int> present;
  for (const RooflineRow* r : rows) present.insert(static_cast<int>(r->precision));
  double px = kLeft;
  for (int p : present) {
    svg.Add(fmt::format(R"(<rect x="{:.2f}" y="{:.2f}" width="10" height="10" fill="{}"/>)", px,
                        kTop - 18, kColour[p]));
    svg.Text(px + 14, kTop - 9, PrecisionName(static_cast<Precision>(p)), R"(fill="#222")");
    px += 60;
  }
  svg.Text(px, kTop - 9, "dot area proportional to total time; hover a dot for details",
           R"(fill="#555" font-size="11")");
}

}  // namespace

std::string RenderRooflineSvg(const RooflineResult& result) {
  Svg svg;
  svg.Text(kLeft, 26, "Roofline", R"(font-size="18" font-weight="bold" fill="#111")");
  std::vector<const RooflineRow*> rows;
  for (const RooflineRow& r : result.rows) {
    if (Plottable(r)) rows.push_back(&r);
  }
  const Ceilings c = PickCeilings(result);

  std::string subtitle =
      fmt::format("{} kernel launches, {} row{}", result.kernel_count, result.row_count_before_top,
                  result.row_count_before_top == 1 ? "" : "s");
  if (result.rows.size() < result.row_count_before_top) {
    subtitle += fmt::format(" (top {} drawn)", result.rows.size());
  }
  if (rows.size() < result.rows.size()) {
    subtitle +=
        fmt::format("; {} without achieved FLOP/s not drawn", result.rows.size() - rows.size());
  }
  if (!c.device.empty()) {
    subtitle += fmt::format("; ceilings of {} ({})", c.device, c.source);
    if (c.others_differ) subtitle += ", other devices' rows drawn against them (JSON has theirs)";
  } else if (!rows.empty()) {
    subtitle += "; no peaks known, so no ceilings";
  }
  svg.Text(kLeft, 46, subtitle, R"(fill="#444" font-size="12")");

  if (rows.empty()) {
    // Still a chart, so that a pipeline producing it never breaks on a trace without counters.
    const LogAxis x{-1, 3, kLeft, kRight}, y{9, 15, kBottom, kTop};
    DrawAxes(svg, x, y);
    svg.Text((kLeft + kRight) / 2, (kTop + kBottom) / 2, "no kernels with counters",
             R"(class="message" text-anchor="middle" font-size="20" fill="#555")");
    double py = (kTop + kBottom) / 2 + 26;
    for (const RooflineSkip& s : result.skipped) {
      svg.Text((kLeft + kRight) / 2, py, fmt::format("{} launches: {}", s.count, s.reason),
               R"(text-anchor="middle" font-size="11" fill="#555")");
      py += 16;
    }
    return svg.Finish();
  }

  std::vector<double> xs, ys;
  for (const RooflineRow* r : rows) {
    xs.push_back(r->arithmetic_intensity);
    ys.push_back(*r->achieved_flops_per_s);
  }
  for (const auto& p : c.peak) {
    if (!p) continue;
    ys.push_back(*p);
    if (c.bandwidth) xs.push_back(*p / *c.bandwidth);
  }
  const LogAxis x = DecadesAround(xs, kLeft, kRight, 0.3);
  const LogAxis y = DecadesAround(ys, kBottom, kTop, 0.15);
  DrawLegend(svg, rows);
  DrawAxes(svg, x, y);
  DrawRoofs(svg, c, x, y);
  DrawDots(svg, rows, x, y);
  return svg.Finish();
}

}  // namespace tensormorph
