#include "export/baseline/baseline_json.h"

#include <fmt/format.h>

#include <algorithm>
#include <string>
#include <tuple>

#include "io/demangle.h"
#include "io/json_position.h"

namespace tensormorph {
namespace {

using nlohmann::json;

Json StepTotals(const std::vector<int64_t>& totals) {
  Json array = Json::array();
  for (int64_t t : totals) array.push_back(t);
  return array;
}

// Checks fields of the parsed document; the first error wins and carries the value's position.
class Checker {
 public:
  explicit Checker(std::string_view text) : text_(text) {}

  Status Fail(const std::string& pointer, const std::string& what) const {
    const uint64_t offset = OffsetOfJsonValue(text_, pointer);
    const SourcePosition at =
        offset == SourcePosition::kNoOffset ? SourcePosition{} : PositionInText(text_, offset);
    return UnreadableInput(fmt::format("baseline: {}", what), at);
  }

  // The member `key` of the object at `pointer`, or an error when it is absent.
  StatusOr<const json*> Member(const json& object, const std::string& pointer,
                               const char* key) const {
    auto it = object.find(key);
    if (it == object.end()) {
      return Fail(pointer, fmt::format("{} has no \"{}\"", Where(pointer), key));
    }
    return &*it;
  }

  Status Int(const json& object, const std::string& pointer, const char* key, int64_t* out) const {
    TM_ASSIGN_OR_RETURN(const json* value, Member(object, pointer, key));
    return IntValue(*value, pointer + "/" + key, out);
  }

  Status IntValue(const json& value, const std::string& pointer, int64_t* out) const {
    const bool fits = value.is_number_integer() &&
                      (!value.is_number_unsigned() || value.get<uint64_t>() <= INT64_MAX);
    if (!fits || value.get<int64_t>() < 0) {
      return Fail(pointer, fmt::format("{} must be a non-negative integer, not {}", Where(pointer),
                                       Describe(value)));
    }
    *out = value.get<int64_t>();
    return Status::Ok();
  }

  Status String(const json& object, const std::string& pointer, const char* key,
                std::string* out) const {
    TM_ASSIGN_OR_RETURN(const json* value, Member(object, pointer, key));
    if (!value->is_string()) {
      return Fail(pointer + "/" + key, fmt::format("{}/{} must be a string, not {}", Where(pointer),
                                                   key, Describe(*value)));
    }
    *out = value->get<std::string>();
    return Status::Ok();
  }

  StatusOr<const json*> Typed(const json& object, const std::string& pointer, const char* key,
                              json::value_t type) const {
    TM_ASSIGN_OR_RETURN(const json* value, Member(object, pointer, key));
    if (value->type() != type) {
      return Fail(
          pointer + "/" + key,
          fmt::format("{}/{} must be {}, not {}", Where(pointer), key,
                      type == json::value_t::array ? "an array" : "an object", Describe(*value)));
    }
    return value;
  }

  Status Integers(const json& object, const std::string& pointer, const char* key, size_t length,
                  std::vector<int64_t>* out) const {
    TM_ASSIGN_OR_RETURN(const json* array, Typed(object, pointer, key, json::value_t::array));
    const std::string here = pointer + "/" + key;
    if (array->size() != length) {
      return Fail(here, fmt::format("{} has {} values, but the baseline has {} steps", Where(here),
                                    array->size(), length));
    }
    for (size_t i = 0; i < length; ++i) {
      int64_t v = 0;
      TM_RETURN_IF_ERROR(IntValue((*array)[i], here + "/" + std::to_string(i), &v));
      out->push_back(v);
    }
    return Status::Ok();
  }

  static std::string Where(const std::string& pointer) {
    return pointer.empty() ? "the document" : pointer;
  }

  static std::string Describe(const json& value) {
    if (value.is_string()) return fmt::format("the string \"{}\"", value.get<std::string>());
    if (value.is_number()) return fmt::format("the number {}", value.dump());
    return value.type_name();
  }

 private:
  std::string_view text_;
};

Status ReadRow(const Checker& c, const json& item, const std::string& pointer, ProfileRowKind kind,
               size_t steps, ProfileRow* row) {
  if (!item.is_object()) {
    return c.Fail(pointer,
                  fmt::format("{} must be an object, not {}", pointer, Checker::Describe(item)));
  }
  row->kind = kind;
  std::string backend;
  TM_RETURN_IF_ERROR(c.String(item, pointer, "name", &row->name));
  // Baselines saved before kernel names were demangled carry them mangled: read them the way
  // traces now show them, so that a diff matches the same kernel.
  if (kind == ProfileRowKind::kKernel) {
    if (std::optional<std::string> readable = DemangleItanium(row->name)) row->name = *readable;
  }
  TM_RETURN_IF_ERROR(c.String(item, pointer, "backend", &backend));
  const std::optional<Backend> parsed = ParseBackend(backend);
  if (!parsed) {
    return c.Fail(pointer + "/backend",
                  fmt::format("{}/backend \"{}\" is not one of cpu, cuda, rocm, metal, webgpu, "
                              "other",
                              pointer, backend));
  }
  row->backend = *parsed;
  int64_t count = 0;
  const bool is_op = kind == ProfileRowKind::kOp;
  TM_RETURN_IF_ERROR(c.Int(item, pointer, is_op ? "calls" : "count", &count));
  row->count = static_cast<uint64_t>(count);
  TM_RETURN_IF_ERROR(c.Int(item, pointer, is_op ? "host_ns" : "total_ns", &row->total_ns));
  if (is_op) {
    TM_RETURN_IF_ERROR(c.Int(item, pointer, "device_ns", &row->device_ns));
  }
  if (steps == 0) return Status::Ok();
  return c.Integers(item, pointer, "step_totals_ns", steps, &row->step_totals_ns);
}

Status ReadRows(const Checker& c, const json& doc, const char* key, ProfileRowKind kind,
                size_t steps, std::vector<ProfileRow>* rows) {
  TM_ASSIGN_OR_RETURN(const json* array, c.Typed(doc, "", key, json::value_t::array));
  for (size_t i = 0; i < array->size(); ++i) {
    ProfileRow row;
    const std::string pointer = fmt::format("/{}/{}", key, i);
    TM_RETURN_IF_ERROR(ReadRow(c, (*array)[i], pointer, kind, steps, &row));
    rows->push_back(std::move(row));
  }
  // Demangled names may sort elsewhere; rows stay in (name, backend) order.
  std::sort(rows->begin(), rows->end(), [](const ProfileRow& a, const ProfileRow& b) {
    return std::tie(a.name, a.backend) < std::tie(b.name, b.backend);
  });
  return Status::Ok();
}

Status CheckSchema(const Checker& c, const json& doc) {
  std::string schema;
  TM_RETURN_IF_ERROR(c.String(doc, "", "schema", &schema));
  if (schema == kBaselineSchema) return Status::Ok();
  if (schema.rfind("tensormorph.baseline/", 0) == 0) {
    return c.Fail("/schema", fmt::format("unsupported baseline version \"{}\"; this tensormorph "
                                         "reads {} (save the baseline again)",
                                         schema, kBaselineSchema));
  }
  return c.Fail("/schema", fmt::format("the document's schema is \"{}\", not {}: give a trace or "
                                       "a file written by `tensormorph baseline save`",
                                       schema, kBaselineSchema));
}

Status ReadDocument(const Checker& c, const json& doc, Baseline* b) {
  if (!doc.is_object()) {
    return c.Fail(
        "", fmt::format("the document must be a JSON object, not {}", Checker::Describe(doc)));
  }
  TM_RETURN_IF_ERROR(CheckSchema(c, doc));
  TM_RETURN_IF_ERROR(c.String(doc, "", "created_by", &b->created_by));
  TM_ASSIGN_OR_RETURN(const json* inputs, c.Typed(doc, "", "inputs", json::value_t::array));
  for (size_t i = 0; i < inputs->size(); ++i) {
    const json& item = (*inputs)[i];
    const std::string pointer = fmt::format("/inputs/{}", i);
    BaselineInput input;
    if (!item.is_object()) return c.Fail(pointer, pointer + " must be an object");
    TM_RETURN_IF_ERROR(c.String(item, pointer, "path", &input.path));
    TM_RETURN_IF_ERROR(c.String(item, pointer, "format", &input.format));
    if (auto rank = item.find("rank"); rank != item.end() && !rank->is_null()) {
      int64_t value = 0;
      TM_RETURN_IF_ERROR(c.IntValue(*rank, pointer + "/rank", &value));
      input.rank = value;
    }
    b->inputs.push_back(std::move(input));
  }
  int64_t steps = 0;
  TM_RETURN_IF_ERROR(c.Int(doc, "", "steps", &steps));
  if (doc.contains("step_numbers")) {
    TM_RETURN_IF_ERROR(c.Integers(doc, "", "step_numbers", steps, &b->step_numbers));
  } else {
    for (int64_t i = 0; i < steps; ++i) b->step_numbers.push_back(i);
  }
  const auto n = static_cast<size_t>(steps);
  TM_RETURN_IF_ERROR(ReadRows(c, doc, "kernels", ProfileRowKind::kKernel, n, &b->kernels));
  TM_RETURN_IF_ERROR(ReadRows(c, doc, "ops", ProfileRowKind::kOp, n, &b->ops));
  TM_ASSIGN_OR_RETURN(const json* total, c.Typed(doc, "", "total", json::value_t::object));
  int64_t kernel_count = 0, op_calls = 0;
  TM_RETURN_IF_ERROR(c.Int(*total, "/total", "kernel_ns", &b->kernel_ns));
  TM_RETURN_IF_ERROR(c.Int(*total, "/total", "kernel_count", &kernel_count));
  TM_RETURN_IF_ERROR(c.Int(*total, "/total", "op_host_ns", &b->op_host_ns));
  TM_RETURN_IF_ERROR(c.Int(*total, "/total", "op_calls", &op_calls));
  b->kernel_count = static_cast<uint64_t>(kernel_count);
  b->op_calls = static_cast<uint64_t>(op_calls);
  if (doc.contains("timestamp_resolution_ns")) {  // written since quantized clocks are read
    TM_RETURN_IF_ERROR(c.Int(doc, "", "timestamp_resolution_ns", &b->timestamp_resolution_ns));
  }
  if (total->contains("kernel_span_ns")) {  // written since diff compares spans
    TM_RETURN_IF_ERROR(c.Int(*total, "/total", "kernel_span_ns", &b->kernel_span_ns));
  }
  if (n > 0) return c.Integers(*total, "/total", "step_kernel_ns", n, &b->step_kernel_ns);
  return Status::Ok();
}

// nlohmann's message without its "[json.exception...] parse error at line L, column C: " prefix
// (the position is reported the project's way).
std::string ParseErrorReason(const std::string& what) {
  const size_t column = what.find("column ");
  const size_t colon = column == std::string::npos ? what.find(": ") : what.find(": ", column);
  return colon == std::string::npos ? what : what.substr(colon + 2);
}

}  // namespace

const char* ProfileRowKindName(ProfileRowKind kind) {
  return kind == ProfileRowKind::kKernel ? "kernel" : "op";
}

Json BaselineToJson(const Baseline& b) {
  const bool with_steps = b.steps() > 0;
  Json inputs = Json::array();
  for (const BaselineInput& in : b.inputs) {
    inputs.push_back({{"path", in.path},
                      {"format", in.format},
                      {"rank", in.rank ? Json(*in.rank) : Json(nullptr)}});
  }
  Json kernels = Json::array();
  for (const ProfileRow& r : b.kernels) {
    Json row = {{"name", r.name},
                {"backend", BackendName(r.backend)},
                {"count", r.count},
                {"total_ns", r.total_ns}};
    if (with_steps) row["step_totals_ns"] = StepTotals(r.step_totals_ns);
    kernels.push_back(std::move(row));
  }
  Json ops = Json::array();
  for (const ProfileRow& r : b.ops) {
    Json row = {{"name", r.name},
                {"backend", BackendName(r.backend)},
                {"calls", r.count},
                {"host_ns", r.total_ns},
                {"device_ns", r.device_ns}};
    if (with_steps) row["step_totals_ns"] = StepTotals(r.step_totals_ns);
    ops.push_back(std::move(row));
  }
  Json total = {{"kernel_ns", b.kernel_ns},           {"kernel_count", b.kernel_count},
                {"op_host_ns", b.op_host_ns},         {"op_calls", b.op_calls},
                {"kernel_span_ns", b.kernel_span_ns}, {"steps", b.steps()}};
  if (with_steps) total["step_kernel_ns"] = StepTotals(b.step_kernel_ns);
  return {{"schema", kBaselineSchema},
          {"created_by", b.created_by},
          {"inputs", std::move(inputs)},
          {"steps", b.steps()},
          {"step_numbers", StepTotals(b.step_numbers)},
          {"timestamp_resolution_ns", b.timestamp_resolution_ns},
          {"kernels", std::move(kernels)},
          {"ops", std::move(ops)},
          {"total", std::move(total)}};
}

StatusOr<Baseline> ParseBaseline(std::string_view text) {
  json doc;
  try {
    doc = json::parse(text.begin(), text.end());
  } catch (const json::parse_error& e) {
    // e.byte counts the characters read, the offending one included.
    const uint64_t offset = e.byte > 0 ? e.byte - 1 : 0;
    return UnreadableInput(fmt::format("baseline is not valid JSON ({}): {}",
                                       offset >= text.size() ? "it ends early" : "damaged",
                                       ParseErrorReason(e.what())),
                           PositionInText(text, offset));
  } catch (const json::exception& e) {  // a number beyond double's range (out_of_range.406)
    return UnreadableInput(
        fmt::format("baseline is not readable JSON: {}", ParseErrorReason(e.what())));
  }
  Baseline baseline;
  TM_RETURN_IF_ERROR(ReadDocument(Checker(text), doc, &baseline));
  return baseline;
}

}  // namespace tensormorph
