#include "analysis/compare/side_ops.h"

#include <map>
#include <tuple>

#include "tensormorph/model/op_inputs.h"

namespace tensormorph {

uint32_t MatchKeys::Intern(MatchKey key) {
  std::string text;
  text.reserve(key.name.size() + key.shapes.size() + key.dtypes.size() + key.stack.size() + 4);
  text.append(key.stack).append(1, '\x1f').append(key.name).append(1, '\x1f');
  if (key.by_node) {
    text.append(1, '\x1e');  // no shapes: a node key never equals a shape key
  } else {
    text.append(key.shapes).append(1, '\x1f').append(key.dtypes);
  }
  auto [it, added] = index_.emplace(std::move(text), static_cast<uint32_t>(keys_.size()));
  if (added) keys_.push_back(std::move(key));
  return it->second;
}

bool SideOps::HasModulePaths(const LinkedTrace& linked) {
  const Trace& trace = linked.trace();
  const OpStacks stacks(trace, linked.links(), true);
  for (uint32_t i = 0; i < trace.slices.size(); ++i) {
    if (trace.slices[i].kind == SliceKind::kOp && stacks.PathIndexOf(i) != 0) return true;
  }
  return false;
}

bool SideOps::HasNodes(const Trace& trace) {
  for (const Slice& s : trace.slices) {
    const OpInputs* inputs = s.kind == SliceKind::kOp ? trace.op_inputs.Find(s.inputs) : nullptr;
    if (inputs != nullptr && !inputs->node.empty()) return true;
  }
  return false;
}

SideOps::SideOps(const LinkedTrace& linked, bool with_stack, bool with_nodes, MatchKeys* keys)
    : linked_(linked) {
  const Trace& trace = linked.trace();
  const TraceLinks& links = linked.links();
  const size_t n = trace.slices.size();
  op_parent.assign(n, kNoRow);
  for (uint32_t i = 0; i < n; ++i) {  // parents precede their children in slice order
    const uint32_t p = links.slice_parent[i];
    if (p == kNoRow) continue;
    op_parent[i] = trace.slices[p].kind == SliceKind::kOp ? p : op_parent[p];
  }
  has_work.assign(n, 0);
  auto mark = [&](uint32_t target) {
    for (uint32_t s = InnermostOp(target); s != kNoRow && !has_work[s]; s = op_parent[s]) {
      has_work[s] = 1;
    }
  };
  for (const WorkLink& link : links.kernels) mark(link.op);
  for (const WorkLink& link : links.transfers) mark(link.op);

  const OpStacks stacks(trace, links, with_stack);
  key_of.assign(n, kNoKey);
  // Ops repeat a few thousand (path, name, inputs) triples: each is made a key once.
  std::map<std::tuple<uint32_t, StringId, OpInputsId>, uint32_t> cache;
  for (uint32_t i = 0; i < n; ++i) {
    if (!has_work[i]) continue;
    const Slice& s = trace.slices[i];
    auto [it, added] = cache.emplace(std::make_tuple(stacks.PathIndexOf(i), s.name, s.inputs), 0);
    if (added) {
      MatchKey key;
      key.name = std::string(trace.str(s.name));
      if (const OpInputs* inputs = trace.op_inputs.Find(s.inputs)) {
        // Compact lists built from the values, not the source's spelling (whose spaces and line
        // breaks differ between profilers and versions).
        OpInputs values = *inputs;
        values.spelling.reset();
        OpInputListsText text = InputListsText(values);
        key.shapes = std::move(text.dims);
        key.dtypes = std::move(text.types);
        key.by_node = with_nodes && !inputs->node.empty();
        if (key.by_node) key.stack = inputs->node;
      }
      if (!key.by_node) key.stack = stacks.PathOf(i);
      it->second = keys->Intern(std::move(key));
    }
    key_of[i] = it->second;
  }
}

uint32_t SideOps::InnermostOp(uint32_t target) const {
  if (target == kNoRow) return kNoRow;
  return linked_.trace().slices[target].kind == SliceKind::kOp ? target : op_parent[target];
}

void SideOps::MarkKeysPresent(std::vector<uint32_t>* sides_with) const {
  std::vector<uint8_t> seen(sides_with->size(), 0);
  for (uint32_t key : key_of) {
    if (key == kNoKey || seen[key]) continue;
    seen[key] = 1;
    ++(*sides_with)[key];
  }
}

void SideOps::AssignRowOps(const std::vector<uint8_t>& shared) {
  const size_t n = has_work.size();
  std::vector<uint32_t> anchor(n, kNoRow), outer(n, kNoRow);
  row_op.assign(n, kNoRow);
  for (uint32_t i = 0; i < n; ++i) {
    if (!has_work[i]) continue;
    const uint32_t p = op_parent[i];  // has work too: marking went up the chain
    outer[i] = p != kNoRow ? outer[p] : i;
    anchor[i] = p != kNoRow && anchor[p] != kNoRow ? anchor[p] : (shared[key_of[i]] ? i : kNoRow);
    row_op[i] = anchor[i] != kNoRow ? anchor[i] : outer[i];
  }
  is_row_op.assign(n, 0);
  const TraceLinks& links = linked_.links();
  for (const auto* list : {&links.kernels, &links.transfers}) {
    for (const WorkLink& link : *list) {
      const uint32_t inner = InnermostOp(link.op);
      if (inner != kNoRow) is_row_op[row_op[inner]] = 1;
    }
  }
}

std::vector<uint32_t> SideOps::RowCallCounts(size_t key_count) const {
  std::vector<uint32_t> counts(key_count, 0);
  for (size_t i = 0; i < is_row_op.size(); ++i) {
    if (is_row_op[i]) ++counts[key_of[i]];
  }
  return counts;
}

}  // namespace tensormorph
