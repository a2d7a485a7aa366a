#include "analysis/compare/kernel_categories.h"

namespace tensormorph {
namespace {

constexpr uint8_t kUnknown = 0xFF;

// The cached category of string `name` in `cache` (per string id), computed by `compute` once.
template <typename Compute>
WorkCategory Cached(std::vector<uint8_t>* cache, uint32_t name, Compute compute) {
  if (name >= cache->size()) cache->resize(name + 1, kUnknown);
  uint8_t& slot = (*cache)[name];
  if (slot == kUnknown) slot = static_cast<uint8_t>(compute());
  return static_cast<WorkCategory>(slot);
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
    // An op's own category, counting communication as none (see the header's rule 2).
    const WorkCategory own = Cached(&op_name_category_, trace_.slices[s].name, [&] {
      const WorkCategory c = CategoryOfOp(trace_.str(trace_.slices[s].name));
      return c == WorkCategory::kCommunication ? WorkCategory::kOther : c;
    });
    passed.push_back(s);
    if (own != WorkCategory::kOther) {
      answer = own;
      break;
    }
  }
  for (uint32_t s : passed) op_category_[s] = static_cast<uint8_t>(answer);
  return answer;
}

WorkCategory KernelCategories::OfName(uint32_t kernel) {
  const uint32_t name = trace_.kernels[kernel].name;
  // CategoryOfKernel names communication by the timeline's table (ClassifyKernelName).
  return Cached(&name_category_, name, [&] { return CategoryOfKernel(trace_.str(name)); });
}

WorkCategory KernelCategories::Of(uint32_t kernel, uint32_t innermost_op) {
  const WorkCategory by_name = OfName(kernel);
  if (by_name == WorkCategory::kCommunication) return by_name;
  if (innermost_op != kNoRow) {
    const WorkCategory by_op = OfOp(innermost_op);
    if (by_op != WorkCategory::kOther) return by_op;
  }
  return by_name;
}

}  // namespace tensormorph
