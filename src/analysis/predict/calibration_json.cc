// tensormorph.calibration/2 (docs/predict.md): written by `tensormorph calibrate`, read by
// --calibration and for the built-in calibration. The reader checks every field it uses and names
// the one that is wrong; unknown fields are ignored, so a later schema may add some.

#include <fmt/format.h>

#include <algorithm>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "analysis/predict/calibration_embedded.h"
#include "tensormorph/analysis/predict/calibration.h"

namespace tensormorph {
namespace {

using nlohmann::ordered_json;
constexpr const char* kSchema = "tensormorph.calibration/2";

// Reads fields of one object, the first error kept with the path of the field.
class FieldReader {
 public:
  // `where` names the object ("FILE" for the document, "FILE: families[1]" inside it); a
  // field's name follows it after ": " in the document, after "." inside it.
  FieldReader(const ordered_json& object, std::string where, std::string* error,
              const char* separator = ".")
      : object_(object), where_(std::move(where)), error_(error), separator_(separator) {
    if (error_->empty() && !object_.is_object()) Fail("", "expected an object");
  }

  const ordered_json* Get(const char* name, bool (ordered_json::*is)() const, const char* what) {
    if (!error_->empty() || !object_.is_object()) return nullptr;
    auto it = object_.find(name);
    if (it == object_.end()) {
      Fail(name, "missing");
      return nullptr;
    }
    if (!((*it).*is)()) {
      Fail(name, fmt::format("expected {}", what));
      return nullptr;
    }
    return &*it;
  }
  std::string String(const char* name) {
    const ordered_json* v = Get(name, &ordered_json::is_string, "a string");
    return v ? v->get<std::string>() : std::string();
  }
  int64_t Integer(const char* name) {
    const ordered_json* v = Get(name, &ordered_json::is_number_integer, "an integer");
    if (v && v->is_number_unsigned() && v->get<uint64_t>() > INT64_MAX) {
      Fail(name, "out of range");
      return 0;
    }
    if (v && v->get<int64_t>() < 0) {
      Fail(name, "expected a non-negative integer");
      return 0;
    }
    return v ? v->get<int64_t>() : 0;
  }
  double Positive(const char* name) {
    const ordered_json* v = Get(name, &ordered_json::is_number, "a number");
    const double value = v ? v->get<double>() : 0;
    if (v && !(value > 0 && value < 1e300)) Fail(name, "expected a positive number");
    return value;
  }
  double NonNegative(const char* name) {
    const ordered_json* v = Get(name, &ordered_json::is_number, "a number");
    const double value = v ? v->get<double>() : 0;
    if (v && !(value >= 0 && value < 1e300)) Fail(name, "expected a non-negative number");
    return value;
  }
  // One of `allowed`.
  std::string OneOf(const char* name, std::initializer_list<std::string_view> allowed) {
    std::string text = String(name);
    if (error_->empty() && std::find(allowed.begin(), allowed.end(), text) == allowed.end()) {
      Fail(name, fmt::format("unknown value \"{}\"", text));
    }
    return text;
  }
  const ordered_json* Array(const char* name) {
    return Get(name, &ordered_json::is_array, "an array");
  }
  WorkCategory Category(const char* name) {
    const std::string text = String(name);
    if (!error_->empty()) return WorkCategory::kOther;
    std::optional<WorkCategory> category = ParseWorkCategory(text);
    if (!category) Fail(name, fmt::format("unknown category \"{}\"", text));
    return category.value_or(WorkCategory::kOther);
  }
  void Fail(std::string_view name, std::string_view message) {
    if (!error_->empty()) return;
    *error_ = name.empty() ? fmt::format("{}: {}", where_, message)
                           : fmt::format("{}{}{}: {}", where_, separator_, name, message);
  }
  const std::string& where() const { return where_; }

 private:
  const ordered_json& object_;
  std::string where_;
  std::string* error_;
  const char* separator_;
};

}  // namespace

std::string CalibrationJson(const Calibration& calibration) {
  ordered_json doc;
  doc["schema"] = kSchema;
  ordered_json& sources = doc["sources"] = ordered_json::array();
  for (const CalibrationSource& s : calibration.sources) {
    sources.push_back({{"path", s.path},
                       {"device", s.device},
                       {"database_key", s.database_key},
                       {"family", s.family},
                       {"kernel_ns", s.kernel_ns}});
  }
  ordered_json& pairs = doc["pairs"] = ordered_json::array();
  for (const CalibrationPair& p : calibration.pairs) {
    pairs.push_back({{"first", p.first}, {"second", p.second}, {"matched_share", p.matched_share}});
  }
  ordered_json& families = doc["families"] = ordered_json::array();
  for (const FamilyCalibration& f : calibration.families) {
    ordered_json efficiency = ordered_json::array();
    for (size_t c = 0; c < kWorkCategoryCount; ++c) {
      if (!f.efficiency[c]) continue;
      const CategoryEfficiency& e = *f.efficiency[c];
      efficiency.push_back({{"category", WorkCategoryName(static_cast<WorkCategory>(c))},
                            {"kernel_ns", e.kernel_ns},
                            {"kernel_ns_from", e.kernel_ns_from},
                            {"latency_kernels", e.latency_kernels},
                            {"fraction_of_roof", e.fraction_of_roof},
                            {"rows", e.rows},
                            {"device_ns", e.device_ns},
                            {"roof_ns", e.roof_ns}});
    }
    families.push_back({{"family", f.family},
                        {"devices", f.devices},
                        {"kernel_floor_ns", f.kernel_floor_ns},
                        {"kernels", f.kernels},
                        {"efficiency", std::move(efficiency)}});
  }
  ordered_json& ratios = doc["ratios"] = ordered_json::array();
  for (const CategoryRatio& r : calibration.ratios) {
    ratios.push_back({{"from", r.from},
                      {"to", r.to},
                      {"category", WorkCategoryName(r.category)},
                      {"ratio", r.ratio},
                      {"from_ns", r.from_ns},
                      {"to_ns", r.to_ns},
                      {"kernel_ratio", r.kernel_ratio},
                      {"from_kernels", r.from_kernels},
                      {"to_kernels", r.to_kernels},
                      {"pairs", r.pairs}});
  }
  ordered_json& intervals = doc["intervals"] = ordered_json::array();
  for (const PredictionInterval& i : calibration.intervals) {
    intervals.push_back({{"category", i.category},
                         {"size", i.size},
                         {"low", i.low},
                         {"high", i.high},
                         {"rows", i.rows}});
  }
  return doc.dump(2) + "\n";
}

StatusOr<Calibration> ParseCalibration(std::string_view text, const std::string& path) {
  const ordered_json doc = ordered_json::parse(text, nullptr, false);
  if (doc.is_discarded()) return UnreadableInput(path + ": not JSON");
  std::string error;
  FieldReader top(doc, path, &error, ": ");
  const std::string schema = top.String("schema");
  if (error.empty() && schema != kSchema) {
    top.Fail("schema", fmt::format(R"("{}", expected "{}")", schema, kSchema));
  }
  Calibration out;
  auto each = [&](const char* name, auto&& read) {
    const ordered_json* array = top.Array(name);
    if (array == nullptr) return;
    for (size_t i = 0; i < array->size() && error.empty(); ++i) {
      FieldReader item((*array)[i], fmt::format("{}: {}[{}]", path, name, i), &error);
      read(item);
    }
  };
  each("sources", [&](FieldReader& r) {
    out.sources.push_back({r.String("path"), r.String("device"), r.String("database_key"),
                           r.String("family"), r.Integer("kernel_ns")});
  });
  each("pairs", [&](FieldReader& r) {
    const auto first = static_cast<size_t>(r.Integer("first"));
    const auto second = static_cast<size_t>(r.Integer("second"));
    if (error.empty() && (first >= out.sources.size() || second >= out.sources.size())) {
      r.Fail("", "names a source that is not in sources");
    }
    out.pairs.push_back({first, second, r.Positive("matched_share")});
  });
  each("families", [&](FieldReader& r) {
    FamilyCalibration f;
    f.family = r.String("family");
    if (const ordered_json* keys = r.Array("devices")) {
      for (const ordered_json& key : *keys) {
        if (!key.is_string()) r.Fail("devices", "expected strings");
        if (key.is_string()) f.devices.push_back(key.get<std::string>());
      }
    }
    f.kernel_floor_ns = r.Integer("kernel_floor_ns");
    f.kernels = static_cast<uint64_t>(r.Integer("kernels"));
    if (const ordered_json* rows = r.Array("efficiency")) {
      for (size_t i = 0; i < rows->size() && error.empty(); ++i) {
        FieldReader e((*rows)[i], fmt::format("{}.efficiency[{}]", r.where(), i), &error);
        const WorkCategory category = e.Category("category");
        CategoryEfficiency value;
        value.kernel_ns = e.NonNegative("kernel_ns");
        value.kernel_ns_from = e.OneOf("kernel_ns_from", {"category", "family", "floor"});
        value.latency_kernels = static_cast<uint64_t>(e.Integer("latency_kernels"));
        value.fraction_of_roof = e.Positive("fraction_of_roof");
        if (error.empty() && value.fraction_of_roof > 1) {
          e.Fail("fraction_of_roof", "expected at most 1");
        }
        value.rows = static_cast<uint64_t>(e.Integer("rows"));
        value.device_ns = e.Integer("device_ns");
        value.roof_ns = e.Positive("roof_ns");
        if (error.empty() && f.efficiency[static_cast<size_t>(category)]) {
          e.Fail("category", "given twice");
        }
        f.efficiency[static_cast<size_t>(category)] = value;
      }
    }
    if (error.empty() && out.Family(f.family) != nullptr) r.Fail("family", "given twice");
    out.families.push_back(std::move(f));
  });
  each("ratios", [&](FieldReader& r) {
    CategoryRatio ratio;
    ratio.from = r.String("from");
    ratio.to = r.String("to");
    ratio.category = r.Category("category");
    ratio.ratio = r.Positive("ratio");
    ratio.from_ns = r.Integer("from_ns");
    ratio.to_ns = r.Integer("to_ns");
    ratio.kernel_ratio = r.Positive("kernel_ratio");
    ratio.from_kernels = static_cast<uint64_t>(r.Integer("from_kernels"));
    ratio.to_kernels = static_cast<uint64_t>(r.Integer("to_kernels"));
    const int64_t pairs = r.Integer("pairs");
    if (pairs > UINT32_MAX) r.Fail("pairs", "out of range");
    ratio.pairs = static_cast<uint32_t>(pairs);
    if (error.empty() && out.Ratio(ratio.from, ratio.to, ratio.category) != nullptr) {
      r.Fail("", "the same (from, to, category) given twice");
    }
    out.ratios.push_back(std::move(ratio));
  });
  each("intervals", [&](FieldReader& r) {
    PredictionInterval i;
    i.category = r.String("category");
    if (error.empty() && i.category != "all" && !ParseWorkCategory(i.category)) {
      r.Fail("category", fmt::format("unknown category \"{}\"", i.category));
    }
    i.size = r.OneOf("size", {"small", "large"});
    i.low = r.Positive("low");
    i.high = r.Positive("high");
    if (error.empty() && i.low > i.high) r.Fail("high", "below low");
    i.rows = static_cast<uint64_t>(r.Integer("rows"));
    out.intervals.push_back(std::move(i));
  });
  if (!error.empty()) return UnreadableInput(error);
  return out;
}

StatusOr<Calibration> LoadCalibration(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return Status(StatusCode::kIoError, path + ": cannot open the calibration file");
  std::ostringstream text;
  text << in.rdbuf();
  return ParseCalibration(text.str(), path);
}

const Calibration& BuiltInCalibration() {
  static const Calibration calibration = [] {
    StatusOr<Calibration> parsed =
        ParseCalibration(embedded::kCalibrationJson, "built-in calibration.json");
    // The file is checked by the tests (predict_calibration_test); a broken one is a build bug.
    return parsed.ok() ? std::move(parsed).value() : Calibration{};
  }();
  return calibration;
}

}  // namespace tensormorph
