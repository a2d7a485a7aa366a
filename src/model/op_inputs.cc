#include "tensormorph/model/op_inputs.h"

#include <functional>
#include <nlohmann/json.hpp>
#include <string_view>
#include <utility>

namespace tensormorph {
namespace {

// A string as JSON, spelled as nlohmann's dump() spells it (the importers that build the lists
// from values wrote them that way before the table existed); bytes that are not UTF-8 become
// U+FFFD, as a log's text may hold them.
void AppendJsonString(const std::string& s, std::string* out) {
  *out += nlohmann::json(s).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

void AppendInts(const std::vector<int64_t>& v, std::string* out) {
  out->push_back('[');
  for (size_t i = 0; i < v.size(); ++i) {
    if (i > 0) out->push_back(',');
    *out += std::to_string(v[i]);
  }
  out->push_back(']');
}

std::string StringList(const std::vector<OpInput>& args, std::string OpInput::*field) {
  std::string out = "[";
  for (size_t i = 0; i < args.size(); ++i) {
    if (i > 0) out.push_back(',');
    AppendJsonString(args[i].*field, &out);
  }
  out.push_back(']');
  return out;
}

void Mix(size_t* seed, size_t h) {
  *seed ^= h + 0x9e3779b97f4a7c15ULL + (*seed << 6) + (*seed >> 2);
}

void MixInts(size_t* seed, const std::vector<int64_t>& v) {
  Mix(seed, v.size());
  for (int64_t x : v) Mix(seed, std::hash<int64_t>()(x));
}

size_t HashOf(const OpInputs& s) {
  const std::hash<std::string_view> text;
  size_t seed = s.args.size();
  Mix(&seed, (s.has_types ? 1 : 0) | (s.has_values ? 2 : 0) | (s.has_strides ? 4 : 0) |
                 (s.consistent ? 8 : 0) | (s.spelling ? 16 : 0));
  Mix(&seed, text(s.node));
  if (s.collective) {
    const CollectiveArgs& c = *s.collective;
    Mix(&seed, text(c.name));
    Mix(&seed, text(c.process_group));
    Mix(&seed, std::hash<int64_t>()(c.seq.value_or(-1)));
    Mix(&seed, std::hash<int64_t>()(c.in_nelems.value_or(-1)));
  }
  if (s.spelling) {
    // Spelled sets are read from their text: it decides the rest.
    Mix(&seed, text(s.spelling->dims));
    Mix(&seed, text(s.spelling->types));
    Mix(&seed, text(s.spelling->values));
    return seed;
  }
  for (const OpInput& a : s.args) {
    Mix(&seed, static_cast<size_t>(a.form));
    MixInts(&seed, a.dims);
    Mix(&seed, text(a.dims_json));
    MixInts(&seed, a.strides);
    Mix(&seed, text(a.dtype));
    Mix(&seed, text(a.value));
  }
  return seed;
}

}  // namespace

OpInputListsText InputListsText(const OpInputs& inputs) {
  if (inputs.spelling) {
    const OpInputs::Spelling& s = *inputs.spelling;
    return {s.dims, s.types, s.values, s.json};
  }
  OpInputListsText out;
  out.dims = "[";
  for (size_t i = 0; i < inputs.args.size(); ++i) {
    const OpInput& a = inputs.args[i];
    if (i > 0) out.dims.push_back(',');
    switch (a.form) {
      case OpInput::DimsForm::kShape:
        AppendInts(a.dims, &out.dims);
        break;
      case OpInput::DimsForm::kNull:
        out.dims += "null";
        break;
      case OpInput::DimsForm::kOther:
        out.dims += a.dims_json;
        break;
    }
  }
  out.dims.push_back(']');
  if (inputs.has_types) out.types = StringList(inputs.args, &OpInput::dtype);
  if (inputs.has_values) out.values = StringList(inputs.args, &OpInput::value);
  return out;
}

std::string OpInputsText(const OpInputs& inputs) {
  OpInputListsText lists = InputListsText(inputs);
  if (!lists.json) return std::move(lists.dims);
  std::string out = "{";
  for (const auto& [key, value] : {std::pair<const char*, const std::string*>{"dims", &lists.dims},
                                   {"types", &lists.types},
                                   {"concrete", &lists.values}}) {
    if (value->empty()) continue;
    if (out.size() > 1) out += ", ";
    out += '"';
    out += key;
    out += "\": ";
    out += *value;
  }
  out.push_back('}');
  return out;
}

OpInputsId OpInputTable::Add(OpInputs inputs) {
  const size_t hash = HashOf(inputs);
  auto [first, last] = index_.equal_range(hash);
  for (auto it = first; it != last; ++it) {
    if (sets_[it->second - 1] == inputs) return it->second;
  }
  sets_.push_back(std::move(inputs));
  const auto id = static_cast<OpInputsId>(sets_.size());
  index_.emplace(hash, id);
  return id;
}

}  // namespace tensormorph
