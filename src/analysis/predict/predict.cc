// PredictRows / PredictTrace (predict.h): each row's model, stated, on each target.

#include "tensormorph/analysis/predict/predict.h"

#include <algorithm>
#include <cmath>

#include "analysis/predict/roof_time.h"
#include "tensormorph/analysis/kernels.h"

namespace tensormorph {
namespace {

// A floor share above this makes a roofline row latency-bound.
constexpr double kLatencyShare = 0.5;

int64_t RoundNs(double ns) {
  return static_cast<int64_t>(std::llround(ns));
}

struct Target {
  const DeviceSpec* spec = nullptr;
  std::string family;
  const FamilyCalibration* calibration = nullptr;
};

// The kernels of the part of a row its work estimates cover (all, unless part of the row is not).
double CountedKernels(const PredictRow& row) {
  return row.measured_ns > 0
             ? static_cast<double>(row.kernels) * static_cast<double>(row.counted_ns) /
                   static_cast<double>(row.measured_ns)
             : 0;
}

class Predictor {
 public:
  Predictor(const Calibration& calibration, const DeviceSpec* source, std::string source_family)
      : calibration_(calibration), source_(source), source_family_(std::move(source_family)) {}

  Prediction Predict(const PredictRow& row, const Target& target) const {
    Prediction p;
    if (source_ != nullptr && target.spec == source_) {
      p.model = PredictModel::kSameDevice;
      p.predicted_ns = row.measured_ns;
      p.predicted_low_ns = p.predicted_high_ns = row.measured_ns;
      return p;
    }
    p = PredictWithoutInterval(row, target);
    if (p.predicted_ns && p.model != PredictModel::kSourceFraction) {
      if (const PredictionInterval* i = calibration_.Interval(row.category, IsSmallRow(row))) {
        p.predicted_low_ns = RoundNs(static_cast<double>(*p.predicted_ns) * i->low);
        p.predicted_high_ns = RoundNs(static_cast<double>(*p.predicted_ns) * i->high);
      }
    }
    return p;
  }

 private:
  Prediction PredictWithoutInterval(const PredictRow& row, const Target& target) const {
    Prediction p;
    // Another device of the source's family (H100 -> H200): the calibration's fractions and
    // ratios describe other workloads on other families; the row's own efficiency carries over.
    if (source_ != nullptr && target.family == source_family_) {
      if (std::optional<double> ns = ByRoofRatio(row, *target.spec)) {
        p.model = PredictModel::kRoofRatio;
        p.predicted_ns = RoundNs(*ns);
        p.calibration = source_calibration_ != nullptr
                            ? source_family_ + " fixed costs, the rest by the roofs' ratio"
                            : "the roofs' ratio";
        return p;
      }
    }
    const auto row_kernels = static_cast<double>(row.kernels);
    const double counted_kernels = CountedKernels(row);
    if (std::optional<Prediction> roofline = Roofline(row, counted_kernels, target)) {
      p = *roofline;
      const int64_t rest = row.measured_ns - row.counted_ns;
      if (rest <= 0) return p;
      std::optional<double> rest_ns =
          ByRatio(row.category, rest, row_kernels - counted_kernels, target);
      if (!rest_ns) return None(row, target, "part of the row's time has no work estimate, and ");
      p.model = PredictModel::kRooflineAndRatio;
      *p.predicted_ns += RoundNs(*rest_ns);
      return p;
    }
    if (std::optional<double> ns = ByRatio(row.category, row.measured_ns, row_kernels, target)) {
      p.model = PredictModel::kCategoryRatio;
      p.predicted_ns = RoundNs(*ns);
      p.calibration = source_family_ + " -> " + target.family;
      return p;
    }
    if (target.calibration == nullptr) {
      if (std::optional<Prediction> uncalibrated = SourceFraction(row, target))
        return *uncalibrated;
    }
    return None(row, target, "no work estimate for the row, and ");
  }

  Prediction None(const PredictRow& row, const Target& target, const std::string& why) const {
    Prediction p;
    if (source_ == nullptr) {
      p.why_none = "the trace's device is not in the device database";
    } else if (target.calibration == nullptr && calibration_.Family(source_family_) != nullptr &&
               BandwidthOf(*target.spec)) {
      p.why_none = "the family " + target.family +
                   " is not calibrated, and the row is not roofline-bound on the source (its "
                   "fixed costs are half its time or more, or it has no work estimate)";
    } else {
      p.why_none = why + "no " + WorkCategoryName(row.category) + " ratio " + source_family_ +
                   " -> " + target.family + " is calibrated";
    }
    return p;
  }

  const CategoryEfficiency* EfficiencyOf(const FamilyCalibration* family,
                                         WorkCategory category) const {
    if (family == nullptr) return nullptr;
    const std::optional<CategoryEfficiency>& e = family->efficiency[static_cast<size_t>(category)];
    return e ? &*e : nullptr;
  }

  // The row's time on a device of the source's family: the fixed costs of its kernels (the
  // family's calibrated kernel_ns, 0 without one) kept; the rest of the part the work estimates
  // cover times (its roof time on the target / on the source); the uncovered part taken as
  // memory-bound (times the source's bandwidth / the target's). nullopt when a peak is unknown.
  std::optional<double> ByRoofRatio(const PredictRow& row, const DeviceSpec& target) const {
    const std::optional<double> source_bandwidth = BandwidthOf(*source_);
    const std::optional<double> target_bandwidth = BandwidthOf(target);
    if (!source_bandwidth || !target_bandwidth || *target_bandwidth <= 0) return std::nullopt;
    double counted = 0;
    int64_t rest = row.measured_ns;
    if (row.flops && row.bytes && row.counted_ns > 0) {
      const std::optional<RoofTime> on_source =
          RoofTimeOn(*source_, row.precision, *row.flops, *row.bytes);
      const std::optional<RoofTime> on_target =
          RoofTimeOn(target, row.precision, *row.flops, *row.bytes);
      if (!on_source || !on_target || on_source->ns() <= 0) return std::nullopt;
      const CategoryEfficiency* e = EfficiencyOf(source_calibration_, row.category);
      const double fixed = std::min(static_cast<double>(row.counted_ns),
                                    e ? CountedKernels(row) * e->kernel_ns : 0.0);
      counted =
          fixed + (static_cast<double>(row.counted_ns) - fixed) * on_target->ns() / on_source->ns();
      rest -= row.counted_ns;
    }
    return counted +
           static_cast<double>(std::max<int64_t>(rest, 0)) * *source_bandwidth / *target_bandwidth;
  }

  // kernels * target floor + the time past the source floors * the category's work ratio.
  std::optional<double> ByRatio(WorkCategory category, int64_t measured_ns, double kernels,
                                const Target& target) const {
    if (source_ == nullptr || source_calibration_ == nullptr || target.calibration == nullptr) {
      return std::nullopt;
    }
    const CategoryRatio* ratio = calibration_.Ratio(source_family_, target.family, category);
    if (ratio == nullptr) return std::nullopt;
    const double work =
        std::max(0.0, static_cast<double>(measured_ns) -
                          kernels * static_cast<double>(source_calibration_->kernel_floor_ns));
    return kernels * static_cast<double>(target.calibration->kernel_floor_ns) + work * ratio->ratio;
  }

  // kernels on the target * the category's fixed cost there + max(FLOPs / peak, bytes /
  // bandwidth) / the fraction of roof the category reaches on the target's family; nullopt when a
  // figure is missing.
  std::optional<Prediction> Roofline(const PredictRow& row, double kernels,
                                     const Target& target) const {
    if (!row.flops || !row.bytes || row.counted_ns <= 0) return std::nullopt;
    const CategoryEfficiency* efficiency = EfficiencyOf(target.calibration, row.category);
    if (efficiency == nullptr) return std::nullopt;
    const std::optional<RoofTime> roof =
        RoofTimeOn(*target.spec, row.precision, *row.flops, *row.bytes);
    if (!roof) return std::nullopt;
    const CategoryRatio* ratio = calibration_.Ratio(source_family_, target.family, row.category);
    const double target_kernels = kernels * (ratio != nullptr ? ratio->kernel_ratio : 1.0);
    const double fixed = target_kernels * efficiency->kernel_ns;
    const double work = roof->ns() / efficiency->fraction_of_roof;
    Prediction p;
    p.model = PredictModel::kRoofline;
    p.predicted_ns = RoundNs(fixed + work);
    p.bound = fixed > kLatencyShare * (fixed + work) ? Bound::kLatency
              : roof->compute_bound()                ? Bound::kCompute
                                                     : Bound::kMemory;
    p.calibration = ratio != nullptr ? target.family + " (kernels " + source_family_ + " -> " +
                                           target.family + ")"
                                     : target.family;
    return p;
  }

  // A target family without calibration: a row that is roofline-bound on the source (its fixed
  // costs there under half its time), at the source family's fraction of roof on the target's
  // peaks. Its fixed costs on the target are unknown and left out.
  std::optional<Prediction> SourceFraction(const PredictRow& row, const Target& target) const {
    if (source_ == nullptr || !row.flops || !row.bytes || row.counted_ns != row.measured_ns ||
        row.measured_ns <= 0) {
      return std::nullopt;
    }
    const CategoryEfficiency* e = EfficiencyOf(source_calibration_, row.category);
    if (e == nullptr) return std::nullopt;
    const double fixed = static_cast<double>(row.kernels) * e->kernel_ns;
    if (fixed >= kLatencyShare * static_cast<double>(row.measured_ns)) return std::nullopt;
    const std::optional<RoofTime> roof =
        RoofTimeOn(*target.spec, row.precision, *row.flops, *row.bytes);
    if (!roof) return std::nullopt;
    Prediction p;
    p.model = PredictModel::kSourceFraction;
    p.predicted_ns = RoundNs(roof->ns() / e->fraction_of_roof);
    p.bound = roof->compute_bound() ? Bound::kCompute : Bound::kMemory;
    p.calibration = source_family_ + " fraction of roof; " + target.family + " is not calibrated";
    return p;
  }

  const Calibration& calibration_;
  const DeviceSpec* source_;
  std::string source_family_;
  const FamilyCalibration* source_calibration_ = calibration_.Family(source_family_);
};

void AddTo(PredictTargetTotal* total, const PredictRow& row, const Prediction& p) {
  total->measured_ns += row.measured_ns;
  if (p.predicted_ns) {
    total->predicted_ns += *p.predicted_ns;
  } else {
    total->unpredicted_measured_ns += row.measured_ns;
  }
}

}  // namespace

const char* PredictModelName(PredictModel model) {
  switch (model) {
    case PredictModel::kRoofline:
      return "roofline";
    case PredictModel::kRooflineAndRatio:
      return "roofline+category_ratio";
    case PredictModel::kCategoryRatio:
      return "category_ratio";
    case PredictModel::kSameDevice:
      return "same_device";
    case PredictModel::kRoofRatio:
      return "roof_ratio";
    case PredictModel::kSourceFraction:
      return "source_fraction";
    case PredictModel::kNone:
      return "none";
  }
  return "none";
}

PredictResult PredictRows(const CompareResult& compared, size_t side, const LinkedTrace& linked,
                          const PredictQuery& query) {
  const Trace& trace = linked.trace();
  const std::vector<DeviceSpec>& devices = query.devices ? *query.devices : BuiltInDevices();
  const Calibration& calibration = query.calibration ? *query.calibration : BuiltInCalibration();
  PredictResult result;

  // The source: the busiest device of the trace.
  const DeviceSpec* source = nullptr;
  if (const uint32_t busiest = BusiestDevice(trace); busiest != kNoDevice) {
    result.source_label = DeviceLabel(trace, busiest, false);
    const DeviceMatch match = MatchTraceDevice(devices, trace.devices[busiest]);
    result.source_match = match.reason;
    if (match.matched()) {
      source = match.spec;
      result.source_key = source->key;
      result.source_family = DeviceFamily(*source);
    }
  } else {
    result.source_match = "the trace has no kernels";
  }

  result.memory = WorkloadPeak(linked, devices);
  std::vector<Target> targets;
  for (const DeviceSpec* spec : query.targets) {
    Target t{spec, DeviceFamily(*spec), nullptr};
    t.calibration = calibration.Family(t.family);
    PredictTargetInfo info{spec->key, spec->name, t.family, "", {}};
    if (result.memory) info.memory = FitMemory(*result.memory, spec->key, SpecCapacity(*spec));
    const bool any_ratio = std::any_of(
        calibration.ratios.begin(), calibration.ratios.end(),
        [&](const CategoryRatio& r) { return r.from == result.source_family && r.to == t.family; });
    // A family without calibration still gets the rows that are roofline-bound on the source
    // (source_fraction), when the source's family is calibrated and the target has peaks.
    if (spec != source && !any_ratio && !BandwidthOf(*spec)) {
      info.unusable =
          "the device database has no peaks for it (give them with --device-spec), and no ratio "
          "to it is calibrated";
    } else if (spec != source && !any_ratio && t.calibration == nullptr &&
               t.family != result.source_family &&
               calibration.Family(result.source_family) == nullptr) {
      info.unusable = "neither its family " + t.family + " nor the trace's is calibrated (" +
                      "tensormorph calibrate TRACES... on them, then --calibration FILE)";
    }
    result.targets.push_back(std::move(info));
    targets.push_back(t);
  }
  const Predictor predictor(calibration, source, result.source_family);

  result.totals.resize(targets.size());
  std::array<std::optional<PredictCategory>, kWorkCategoryCount> categories;
  int64_t no_op_communication_ns = 0;
  for (const CompareRow& compare_row : compared.rows) {
    const std::optional<CompareCell>& cell = compare_row.sides[side];
    if (!cell) continue;
    PredictRow row;
    row.key = compare_row.key;
    row.name = compare_row.name;
    row.category = compare_row.category;
    row.shapes = compare_row.shapes;
    row.dtypes = compare_row.dtypes;
    row.origin = compare_row.origin;
    row.calls = cell->calls;
    row.kernels = cell->kernels;
    row.measured_ns = cell->device_ns;
    row.counted_ns = cell->flops ? cell->flops_device_ns : 0;
    row.flops = cell->flops;
    row.bytes = cell->bytes;
    row.precision = cell->precision;
    std::optional<PredictCategory>& category = categories[static_cast<size_t>(row.category)];
    if (!category) {
      category.emplace();
      category->category = row.category;
      category->targets.resize(targets.size());
    }
    category->measured_ns += row.measured_ns;
    result.coverage.kernel_ns += row.measured_ns;
    result.coverage.counted_ns += row.counted_ns;
    if (row.origin == "no_op") {
      result.coverage.under_no_op_ns += row.measured_ns;
      if (row.category == WorkCategory::kCommunication) no_op_communication_ns += row.measured_ns;
    }
    for (size_t t = 0; t < targets.size(); ++t) {
      row.predictions.push_back(predictor.Predict(row, targets[t]));
      AddTo(&result.totals[t], row, row.predictions.back());
      AddTo(&category->targets[t], row, row.predictions.back());
    }
    result.rows.push_back(std::move(row));
  }
  // Communication kernels by their own names (kernel_categories.h), wherever they ran: inside
  // a framework op (DDP's gradient hooks) as well as in c10d's.
  if (side < compared.sides.size()) {
    result.coverage.communication_ns =
        compared.sides[side].category_ns[static_cast<size_t>(WorkCategory::kCommunication)] -
        no_op_communication_ns;
  }
  for (std::optional<PredictCategory>& c : categories) {
    if (c && c->measured_ns > 0) result.categories.push_back(std::move(*c));
  }
  std::stable_sort(result.rows.begin(), result.rows.end(),
                   [](const PredictRow& a, const PredictRow& b) {
                     if (a.measured_ns != b.measured_ns) return a.measured_ns > b.measured_ns;
                     return a.key < b.key;
                   });
  result.row_count_before_top = result.rows.size();
  if (query.top > 0 && result.rows.size() > query.top) result.rows.resize(query.top);
  return result;
}

bool IsSmallRow(const PredictRow& row) {
  const uint64_t per = row.calls > 0 ? row.calls : std::max<uint64_t>(row.kernels, 1);
  return row.measured_ns < kSmallRowNs * static_cast<int64_t>(per);
}

PredictResult PredictTrace(const LinkedTrace& linked, const PredictQuery& query) {
  CompareQuery compare;
  compare.devices = query.devices;
  compare.side_headers = false;
  return PredictRows(CompareTraces({&linked}, compare), 0, linked, query);
}

}  // namespace tensormorph
