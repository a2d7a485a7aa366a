#include "import/ncu/metric_lookup.h"

#include <fmt/format.h>

namespace tensormorph::ncu {
namespace {

bool Fits(Quantity quantity, const Unit& unit) {
  switch (quantity) {
    case Quantity::kTime:
      return unit.base == "ns";
    case Quantity::kBytes:
      return unit.base == "byte" || unit.base == "byte/block";
    case Quantity::kPercent:
      return unit.base == "%";
    case Quantity::kCount:
      return unit.base != "ns" && unit.base != "Hz" && unit.base != "%" &&
             !unit.base.ends_with("/s") && !unit.base.starts_with("byte");
  }
  return false;
}

const char* Describe(Quantity quantity) {
  switch (quantity) {
    case Quantity::kTime:
      return "a time";
    case Quantity::kBytes:
      return "bytes";
    case Quantity::kPercent:
      return "a percentage";
    case Quantity::kCount:
      return "a count";
  }
  return "";
}

// The unit ncu's base-unit output uses for each kind (raw page without its units row).
Unit BaseUnitOf(Quantity quantity) {
  switch (quantity) {
    case Quantity::kTime:
      return {"ns", 0};
    case Quantity::kBytes:
      return {"byte", 0};
    case Quantity::kPercent:
      return {"%", 0};
    case Quantity::kCount:
      return {"", 0};
  }
  return {};
}

}  // namespace

MetricLookup::MetricLookup(const Launch& launch, Diagnostics* diagnostics)
    : base_units_(launch.base_units), diagnostics_(diagnostics) {
  for (const LaunchMetric& m : launch.metrics) {
    names_.try_emplace(m.name, &m);
    // A details section with a body item is "Section / Item"; labels match on the section.
    std::string_view section = m.section;
    section = section.substr(0, section.find(" / "));
    labels_.try_emplace(std::make_pair(section, std::string_view(m.name)), &m);
  }
}

std::optional<double> MetricLookup::Number(std::initializer_list<const LaunchMetric*> candidates,
                                           Quantity quantity) {
  for (const LaunchMetric* m : candidates) {
    std::string plain;
    std::optional<Unit> unit = Prepare(m, quantity, &plain);
    if (unit) {
      if (std::optional<double> value = ToBase(plain, *unit)) return value;
    }
  }
  return std::nullopt;
}

std::optional<int64_t> MetricLookup::Integer(std::initializer_list<const LaunchMetric*> candidates,
                                             Quantity quantity) {
  for (const LaunchMetric* m : candidates) {
    std::string plain;
    std::optional<Unit> unit = Prepare(m, quantity, &plain);
    if (!unit) continue;
    if (std::optional<int64_t> value = ToBaseInteger(plain, *unit)) return value;
    diagnostics_->Add(m->line, m->column,
                      fmt::format("{} '{}' is out of range; ignored", m->name, m->value));
  }
  return std::nullopt;
}

std::optional<Unit> MetricLookup::Prepare(const LaunchMetric* m, Quantity quantity,
                                          std::string* plain) {
  if (m == nullptr) return std::nullopt;
  switch (CleanNumber(m->value, plain)) {
    case NumberText::kAbsent:
      return std::nullopt;
    case NumberText::kNotNumber:
      diagnostics_->Add(m->line, m->column,
                        fmt::format("the value '{}' of {} is not a number; ignored",
                                    m->value.substr(0, 40), m->name));
      return std::nullopt;
    case NumberText::kNumber:
      break;
  }
  std::optional<Unit> unit =
      m->unit.empty() && base_units_ ? BaseUnitOf(quantity) : ParseUnit(m->unit);
  if (!unit) {
    diagnostics_->Add(
        m->line, m->column,
        fmt::format("the unit '{}' of {} is not one tensormorph knows; ignored", m->unit, m->name));
    return std::nullopt;
  }
  if (!Fits(quantity, *unit)) {
    diagnostics_->Add(m->line, m->column,
                      fmt::format("{} is in '{}', which is not {}; ignored", m->name, m->unit,
                                  Describe(quantity)));
    return std::nullopt;
  }
  return unit;
}

}  // namespace tensormorph::ncu
