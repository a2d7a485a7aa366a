#include "tensormorph/analysis/predict/op_predictions.h"

#include <map>
#include <utility>

namespace tensormorph {
namespace {

void AddRow(const PredictRow& row, const std::vector<PredictTargetInfo>& targets,
            std::vector<OpTargetPrediction>* sums) {
  if (sums->empty()) sums->resize(targets.size());
  for (size_t t = 0; t < targets.size(); ++t) {
    OpTargetPrediction& sum = (*sums)[t];
    const Prediction& p = row.predictions[t];
    sum.calls += row.calls;
    sum.measured_ns += row.measured_ns;
    if (!p.predicted_ns) {
      sum.unpredicted_measured_ns += row.measured_ns;
      continue;
    }
    const bool first = !sum.predicted_ns;
    sum.predicted_ns = sum.predicted_ns.value_or(0) + *p.predicted_ns;
    if (p.predicted_low_ns && p.predicted_high_ns && (first || sum.predicted_low_ns)) {
      sum.predicted_low_ns = sum.predicted_low_ns.value_or(0) + *p.predicted_low_ns;
      sum.predicted_high_ns = sum.predicted_high_ns.value_or(0) + *p.predicted_high_ns;
    } else {
      sum.predicted_low_ns.reset();
      sum.predicted_high_ns.reset();
    }
    if (!sum.model && !sum.mixed_models) {
      sum.model = p.model;
    } else if (sum.model != p.model) {
      sum.model.reset();
      sum.mixed_models = true;
    }
  }
}

// Per (op name, name of the outermost op around it): how many of its calls are nested. One
// forward pass (parents precede their children in slice order); names converted once at the end.
void CountOutermostAround(
    const LinkedTrace& linked, int input,
    std::map<std::pair<int, std::string>, std::map<std::string, uint64_t>, std::less<>>* around) {
  const Trace& trace = linked.trace();
  const std::vector<uint32_t>& parent = linked.links().slice_parent;
  const size_t n = trace.slices.size();
  std::vector<uint32_t> nearest_op(n, kNoRow), outermost(n, kNoRow);
  std::map<std::pair<StringId, StringId>, uint64_t> counts;
  for (uint32_t i = 0; i < n; ++i) {
    if (const uint32_t p = parent[i]; p != kNoRow) {
      nearest_op[i] = trace.slices[p].kind == SliceKind::kOp ? p : nearest_op[p];
    }
    if (trace.slices[i].kind != SliceKind::kOp) continue;
    outermost[i] = nearest_op[i] == kNoRow ? i : outermost[nearest_op[i]];
    if (outermost[i] != i) ++counts[{trace.slices[i].name, trace.slices[outermost[i]].name}];
  }
  for (const auto& [names, count] : counts) {
    (*around)[{input, std::string(trace.str(names.first))}][std::string(trace.str(names.second))] +=
        count;
  }
}

}  // namespace

OpPredictions PredictOps(const OpSummary& summary, const OpQuery& ops_query,
                         const std::vector<const LinkedTrace*>& traces,
                         const PredictQuery& predict_query) {
  PredictQuery query = predict_query;
  query.top = 0;
  OpPredictions out;
  // (input or -1 when inputs are combined, op name) -> the summed predictions.
  std::map<std::pair<int, std::string>, std::vector<OpTargetPrediction>, std::less<>> by_name;
  std::map<std::pair<int, std::string>, std::map<std::string, uint64_t>, std::less<>> around;
  for (size_t i = 0; i < traces.size(); ++i) {
    const PredictResult predicted = PredictTrace(*traces[i], query);
    if (i == 0) out.targets = predicted.targets;
    out.source_labels.push_back(predicted.source_label);
    out.source_keys.push_back(predicted.source_key);
    const int input = ops_query.by_input ? static_cast<int>(i) : -1;
    for (const PredictRow& row : predicted.rows) {
      if (row.origin != "op") continue;
      AddRow(row, out.targets, &by_name[{input, row.name}]);
    }
    CountOutermostAround(*traces[i], input, &around);
  }
  out.rows.reserve(summary.rows.size());
  for (const OpRow& row : summary.rows) {
    const auto key = std::make_pair(row.input, row.name);
    auto it = row.origin == "op" ? by_name.find(key) : by_name.end();
    out.rows.push_back(it == by_name.end() ? std::vector<OpTargetPrediction>{} : it->second);
    std::string within;
    if (auto a = around.find(key); row.origin == "op" && it == by_name.end() && a != around.end()) {
      uint64_t most = 0;
      for (const auto& [name, count] : a->second) {
        if (count > most) {
          most = count;
          within = name;
        }
      }
    }
    out.within.push_back(std::move(within));
  }
  return out;
}

}  // namespace tensormorph
