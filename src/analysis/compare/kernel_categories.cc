#include "analysis/compare/kernel_categories.h"

namespace tensormorph {
namespace {

constexpr uint8_t kUnknown = 0xFF;

// An op's own category, counting communication as none (see the header's rule 2).
WorkCategory OwnCategory(const Trace& trace, uint32_t slice) {
  const WorkCategory c = CategoryOfOp(trace.str(trace.slices[slice].name));
  return c == WorkCategory::kCommunication ? WorkCategory::kOther : c;
}

}  // namespace

KernelCategories::KernelCategories(const Trace& trace, const std::vector<uint32_t>& op_parent)
    : trace_(trace), op_parent_(op_parent), op_category_(op_parent.size(), kUnknown) {}

WorkCategory KernelCategories::OfOp(uint32_t slice) {
  // Walk out to the first op whose answer is known or that has a category of its own, then give
  // that answer to every op passed on the way (iteratively: call trees can be deep).
  std::vector<uint32_t> passed;
  WorkCategory answer = WorkCategory::kOther;
  for (uint32_t s = slice; s != kNoRow; s = op_parent_[s]) {
    if (op_category_[s] != kUnknown) {
      answer = static_cast<WorkCategory>(op_category_[s]);
      break;
    }
    const WorkCategory own = OwnCategory(trace_, s);
    passed.push_back(s);
    if (own != WorkCategory::kOther) {
      answer = own;
      break;
    }
  }
  for (uint32_t s : passed) op_category_[s] = static_cast<uint8_t>(answer);
  return answer;
}

WorkCategory KernelCategories::Of(uint32_t kernel, uint32_t innermost_op) {
  const uint32_t name = trace_.kernels[kernel].name;
  if (name >= name_category_.size()) name_category_.resize(name + 1, kUnknown);
  if (name_category_[name] == kUnknown) {
    const std::string_view text = trace_.str(name);
    // CategoryOfKernel names communication by the timeline's table (ClassifyKernelName).
    name_category_[name] = static_cast<uint8_t>(CategoryOfKernel(text));
  }
  const auto by_name = static_cast<WorkCategory>(name_category_[name]);
  if (by_name == WorkCategory::kCommunication) return by_name;
  if (innermost_op != kNoRow) {
    const WorkCategory by_op = OfOp(innermost_op);
    if (by_op != WorkCategory::kOther) return by_op;
  }
  return by_name;
}

}  // namespace tensormorph
