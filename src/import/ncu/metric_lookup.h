// The metrics of one launch, looked up by raw metric name or by a section's label, and converted
// to base units only when their unit is of the kind asked for: a duration in "Ghz" is a warning,
// not a number. Every unusable value becomes a warning that points at it.
#pragma once

#include <initializer_list>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>

#include "import/ncu/launch.h"
#include "import/ncu/units.h"

namespace tensormorph::ncu {

enum class Quantity { kTime, kBytes, kPercent, kCount };

class MetricLookup {
 public:
  MetricLookup(const Launch& launch, Diagnostics* diagnostics);

  // The first metric of that raw name (any section), or null.
  const LaunchMetric* Name(std::string_view name) const {
    auto it = names_.find(name);
    return it == names_.end() ? nullptr : it->second;
  }
  // The first metric with that label in that section (a body item's rows count for its section).
  const LaunchMetric* Label(std::string_view section, std::string_view label) const {
    auto it = labels_.find({section, label});
    return it == labels_.end() ? nullptr : it->second;
  }

  // The first of `candidates` (null ones skipped) that holds a usable value, in base units.
  std::optional<double> Number(std::initializer_list<const LaunchMetric*> candidates,
                               Quantity quantity);
  std::optional<int64_t> Integer(std::initializer_list<const LaunchMetric*> candidates,
                                 Quantity quantity);

 private:
  std::optional<Unit> Prepare(const LaunchMetric* m, Quantity quantity, std::string* plain);

  bool base_units_;
  Diagnostics* diagnostics_;
  std::unordered_map<std::string_view, const LaunchMetric*> names_;
  std::map<std::pair<std::string_view, std::string_view>, const LaunchMetric*> labels_;
};

}  // namespace tensormorph::ncu
