// The op calls of one side of a comparison (compare.h): which op encloses each slice, which ops
// have device work below them, the match key of each, and, once the keys every side shares are
// known, the row op each op call's work belongs to.
#pragma once

#include <cstdint>
#include <string>
#include <unordered_map>
#include <vector>

#include "link/op_stacks.h"
#include "tensormorph/link/linked_trace.h"

namespace tensormorph {

// What calls are matched by: name, recorded input dims and dtypes (as JSON lists), module path.
// When every side names the graph node of its ops (ONNX Runtime, OpInputs::node), by the node and
// the op name only (`by_node`, the node in `stack`): execution providers of one model report the
// same node's inputs differently (the WebGPU EP leaves out prepacked weights), and the node is what
// identifies the call. The shapes are then those of the first side that had the key, for display.
struct MatchKey {
  std::string name, shapes, dtypes, stack;
  bool by_node = false;
};

// Each distinct key once, across all sides; ids are dense from 0.
class MatchKeys {
 public:
  uint32_t Intern(MatchKey key);
  const MatchKey& Get(uint32_t id) const { return keys_[id]; }
  size_t size() const { return keys_.size(); }

 private:
  std::vector<MatchKey> keys_;
  std::unordered_map<std::string, uint32_t> index_;
};

inline constexpr uint32_t kNoKey = UINT32_MAX;

class SideOps {
 public:
  // Keys include the module path when `with_stack`; are the graph node when `with_nodes` (and the
  // op has one).
  SideOps(const LinkedTrace& linked, bool with_stack, bool with_nodes, MatchKeys* keys);

  // True when some op of the trace sits inside an nn.Module frame or a user annotation.
  static bool HasModulePaths(const LinkedTrace& linked);
  // True when some op of the trace names its graph node (OpInputs::node).
  static bool HasNodes(const Trace& trace);

  // The op (SliceKind::kOp) nearest around a kernel's or transfer's target (WorkLink::op, which
  // may be an annotation), or kNoRow.
  uint32_t InnermostOp(uint32_t target) const;

  // Marks the keys of ops with work on this side.
  void MarkKeysPresent(std::vector<uint32_t>* sides_with) const;

  // Fills row_op: for each op slice with work, the outermost op around it (itself included)
  // whose key is `shared`; where there is none, the outermost op around it. Then is_row_op: the
  // row ops some kernel or transfer belongs to.
  void AssignRowOps(const std::vector<uint8_t>& shared);

  // Row-op calls per key.
  std::vector<uint32_t> RowCallCounts(size_t key_count) const;

  std::vector<uint32_t> op_parent;  // per slice: nearest enclosing op slice, or kNoRow
  std::vector<uint8_t> has_work;    // per slice: an op with a kernel or transfer in its subtree
  std::vector<uint32_t> key_of;     // per slice: its key for op slices with work, else kNoKey
  std::vector<uint32_t> row_op;     // per slice (AssignRowOps), kNoRow where no work
  std::vector<uint8_t> is_row_op;

 private:
  const LinkedTrace& linked_;
};

}  // namespace tensormorph
