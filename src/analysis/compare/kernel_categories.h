// The category each kernel's time counts in, in compare's categories (CompareSide::category_ns)
// and so in everything that shows them (the report's category chart, the fleet's rank x category
// heatmap). Rows keep their op's category; these are the kernels':
//  1. communication when its name says so, by the table the timeline uses (ClassifyKernelName):
//     compare's communication is the timeline's, kernel for kernel;
//  2. else the innermost op around it whose name has a category (CategoryOfOp: a backward op,
//     "autograd::engine::evaluate_function: AddmmBackward0", has its forward op's). Ops of
//     communication (record_param_comms, c10d::allreduce_) are passed over: a kernel under one
//     that is not a collective (a bucket's copy) takes the category of an op further out, or of
//     its own name;
//  3. else its own name's family (CategoryOfKernel: GEMM libraries, convolution, attention,
//     normalization, reduction and elementwise kernels of both vendors);
//  4. else other.
// So a kernel under an op no rule knows (DDP's hooks, a compiled graph's annotation) is no longer
// `other` when its name says what it is.
#pragma once

#include <cstdint>
#include <vector>

#include "tensormorph/analysis/compare/categories.h"
#include "tensormorph/link/work_links.h"
#include "tensormorph/model/trace.h"

namespace tensormorph {

class KernelCategories {
 public:
  // `op_parent`: per slice, the nearest enclosing op slice or kNoRow (SideOps::op_parent).
  KernelCategories(const Trace& trace, const std::vector<uint32_t>& op_parent);

  // The category of kernel `kernel`, whose innermost op is `innermost_op` (kNoRow for none).
  WorkCategory Of(uint32_t kernel, uint32_t innermost_op);

  // CategoryOfKernel of the kernel's own name (rule 1 or 3), computed once per name: a trace
  // launches the same few hundred kernels hundreds of thousands of times.
  WorkCategory OfName(uint32_t kernel);

 private:
  // The category of the innermost op at or around `slice` that has one other than
  // communication; kOther where none has.
  WorkCategory OfOp(uint32_t slice);

  const Trace& trace_;
  const std::vector<uint32_t>& op_parent_;
  std::vector<uint8_t> op_category_;       // per slice: OfOp, or kUnknown until computed
  std::vector<uint8_t> name_category_;     // per string id of a kernel name: by name, or kUnknown
  std::vector<uint8_t> op_name_category_;  // per string id of an op name: OwnCategory, or kUnknown
};

}  // namespace tensormorph
