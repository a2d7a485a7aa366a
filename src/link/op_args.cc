#include "link/op_args.h"

#include <charconv>
#include <limits>
#include <nlohmann/json.hpp>

namespace tensormorph::flops {
namespace {

bool ParseInt(std::string_view s, int64_t& v) {
  while (!s.empty() && s.front() == ' ') s.remove_prefix(1);
  while (!s.empty() && s.back() == ' ') s.remove_suffix(1);
  if (s.empty()) return false;
  auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  return ec == std::errc() && p == s.data() + s.size();
}

// [[2, 3], [2, 5]] -> its shapes; nullopt unless every entry is a flat list of non-negative
// integers (a TensorList with an absent entry, text, or nesting deeper than shapes).
std::optional<std::vector<Shape>> ShapeList(const std::string& dims_json) {
  const nlohmann::json list = nlohmann::json::parse(dims_json, nullptr, false);
  if (!list.is_array() || list.empty()) return std::nullopt;
  std::vector<Shape> shapes;
  for (const nlohmann::json& entry : list) {
    if (!entry.is_array()) return std::nullopt;
    Shape& shape = shapes.emplace_back();
    for (const nlohmann::json& d : entry) {
      if (!d.is_number_unsigned() ||
          d.get<uint64_t>() > static_cast<uint64_t>(std::numeric_limits<int64_t>::max())) {
        return std::nullopt;
      }
      shape.push_back(static_cast<int64_t>(d.get<uint64_t>()));
    }
  }
  return shapes;
}

}  // namespace

std::optional<OpArgs> ArgsOf(const OpInputs& inputs) {
  if (!inputs.consistent) return std::nullopt;
  OpArgs out;
  out.has_types = inputs.has_types;
  out.has_concrete = inputs.has_values;
  out.args.resize(inputs.args.size());
  for (size_t i = 0; i < inputs.args.size(); ++i) {
    const OpInput& in = inputs.args[i];
    OpArg& arg = out.args[i];
    if (in.form == OpInput::DimsForm::kShape) arg.shape = in.dims;
    if (in.form == OpInput::DimsForm::kOther) arg.shapes = ShapeList(in.dims_json);
    arg.type = in.dtype;
    arg.concrete = in.value;
  }
  return out;
}

std::optional<int> ElementSize(std::string_view t) {
  if (t == "float" || t == "int" || t == "c10::complex<c10::Half>") return 4;
  if (t == "double" || t == "long" || t == "long int" || t == "c10::complex<float>") return 8;
  if (t == "c10::Half" || t == "c10::BFloat16" || t == "short" || t == "short int") return 2;
  if (t == "c10::Float8_e4m3fn" || t == "c10::Float8_e5m2" || t == "c10::Float8_e4m3fnuz" ||
      t == "c10::Float8_e5m2fnuz" || t == "signed char" || t == "unsigned char" || t == "int8" ||
      t == "bool") {
    return 1;
  }
  if (t == "c10::complex<double>") return 16;
  // Microscaling: two FP4 values per stored element; E8M0 scale factors one byte each.
  if (t == "c10::Float4_e2m1fn_x2" || t == "c10::Float8_e8m0fnu") return 1;
  return std::nullopt;
}

Precision PrecisionOfType(std::string_view t) {
  if (t == "float") return Precision::kFp32;
  if (t == "double") return Precision::kFp64;
  if (t == "c10::Half") return Precision::kFp16;
  if (t == "c10::BFloat16") return Precision::kBf16;
  if (t == "c10::Float8_e4m3fn" || t == "c10::Float8_e5m2" || t == "c10::Float8_e4m3fnuz" ||
      t == "c10::Float8_e5m2fnuz") {
    return Precision::kFp8;
  }
  if (t == "signed char" || t == "unsigned char" || t == "int8") return Precision::kInt8;
  if (t == "c10::Float4_e2m1fn_x2") return Precision::kFp4;
  return Precision::kUnknown;
}

const Shape* TensorShape(const OpArgs& a, size_t i, bool optional_operand) {
  if (i >= a.args.size() || !a.args[i].shape) return nullptr;
  const OpArg& arg = a.args[i];
  if (a.has_types) {
    const std::string& t = arg.type;
    // Kineto names non-tensor arguments by kind; a tensor by its dtype.
    if (t.empty() || t == "Scalar" || t == "ScalarList" || t == "GenericList" ||
        t == "TensorList" || t == "String" || t == "Device" || t == "Layout" || t == "None") {
      return nullptr;
    }
    return &*arg.shape;
  }
  if (optional_operand && arg.shape->empty()) return nullptr;
  return &*arg.shape;
}

namespace {

// The items of a list value of "Concrete Inputs" ("[1, 1]", "(1, 1)" or a bare "1"), untrimmed;
// nullopt when argument `i` has none.
std::optional<std::vector<std::string_view>> ConcreteItems(const OpArgs& a, size_t i) {
  if (i >= a.args.size()) return std::nullopt;
  std::string_view s = a.args[i].concrete;
  while (!s.empty() && s.front() == ' ') s.remove_prefix(1);
  while (!s.empty() && s.back() == ' ') s.remove_suffix(1);
  if (s.empty()) return std::nullopt;
  bool bracketed = s.front() == '[' || s.front() == '(';
  if (bracketed) {
    if (s.size() < 2 || (s.back() != ']' && s.back() != ')')) return std::nullopt;
    s = s.substr(1, s.size() - 2);
  }
  std::vector<std::string_view> items;
  while (true) {
    const size_t comma = s.find(',');
    items.push_back(s.substr(0, comma));
    if (comma == std::string_view::npos) break;
    s.remove_prefix(comma + 1);
  }
  return items;
}

}  // namespace

std::optional<std::vector<int64_t>> ConcreteIntList(const OpArgs& a, size_t i, size_t n) {
  const std::optional<std::vector<std::string_view>> items = ConcreteItems(a, i);
  if (!items) return std::nullopt;
  std::vector<int64_t> v;
  for (std::string_view item : *items) {
    int64_t x = 0;
    if (!ParseInt(item, x)) return std::nullopt;
    v.push_back(x);
  }
  if (v.size() == 1 && n > 1) v.assign(n, v[0]);
  if (v.size() != n) return std::nullopt;
  return v;
}

std::optional<std::vector<bool>> ConcreteBoolList(const OpArgs& a, size_t i, size_t n) {
  const std::optional<std::vector<std::string_view>> items = ConcreteItems(a, i);
  if (!items || items->size() != n) return std::nullopt;
  std::vector<bool> v;
  for (std::string_view item : *items) {
    while (!item.empty() && item.front() == ' ') item.remove_prefix(1);
    while (!item.empty() && item.back() == ' ') item.remove_suffix(1);
    if (item != "True" && item != "False") return std::nullopt;
    v.push_back(item == "True");
  }
  return v;
}

std::optional<int64_t> ConcreteInt(const OpArgs& a, size_t i) {
  int64_t v = 0;
  if (i >= a.args.size() || !ParseInt(a.args[i].concrete, v)) return std::nullopt;
  return v;
}

std::optional<bool> ConcreteBool(const OpArgs& a, size_t i) {
  if (i >= a.args.size()) return std::nullopt;
  const std::string& s = a.args[i].concrete;
  if (s == "True" || s == "true" || s == "1") return true;
  if (s == "False" || s == "false" || s == "0") return false;
  return std::nullopt;
}

std::string ScalarTypeName(std::string_view concrete) {
  // c10::ScalarType's numbering (c10/core/ScalarType.h), spelled as "Input type" spells tensors.
  if (concrete == "0") return "unsigned char";
  if (concrete == "1") return "signed char";
  if (concrete == "2") return "short int";
  if (concrete == "3") return "int";
  if (concrete == "4") return "long int";
  if (concrete == "5") return "c10::Half";
  if (concrete == "6") return "float";
  if (concrete == "7") return "double";
  if (concrete == "11") return "bool";
  if (concrete == "15") return "c10::BFloat16";
  return concrete.empty() || concrete == "None" ? "" : "ScalarType " + std::string(concrete);
}

const std::vector<Shape>* TensorListShapes(const OpArgs& a, size_t i) {
  return i < a.args.size() && a.args[i].shapes ? &*a.args[i].shapes : nullptr;
}

double Numel(const Shape& s) {
  double n = 1;
  for (int64_t d : s) n *= static_cast<double>(d);
  return n;
}

std::string ShapeText(const Shape& s) {
  std::string out = "[";
  for (size_t i = 0; i < s.size(); ++i) {
    if (i) out += ", ";
    out += std::to_string(s[i]);
  }
  return out + "]";
}

}  // namespace tensormorph::flops
