#include "tensormorph/analysis/compare/compare.h"

#include <gtest/gtest.h>

#include "model/trace_order.h"
#include "support/linked.h"

namespace tensormorph {
namespace {
namespace TM_UNITY_ID {  // unique per file in a unity batch (tests/CMakeLists.txt)

// A trace of one device: ops on one thread, each kernel launched at a time (inside the ops around
// it) or, with launch_at < 0, with no launch call.
class TraceBuilder {
 public:
  explicit TraceBuilder(Backend backend) {
    trace_.tracks.push_back({});
    Device device;
    device.backend = backend;
    device.index = 0;
    device.name = backend == Backend::kCuda ? "GPU A" : "GPU B";
    trace_.devices = {device};
  }
  TraceBuilder& Op(const char* name, int64_t start, int64_t duration,
                   std::vector<int64_t> dims = {}) {
    Slice s;
    s.name = trace_.strings.Intern(name);
    s.start_ns = start;
    s.duration_ns = duration;
    if (!dims.empty()) {
      OpInputs inputs;
      OpInput input;
      input.dims = std::move(dims);
      input.dtype = "float";
      inputs.args.push_back(input);
      inputs.has_types = true;
      s.inputs = trace_.op_inputs.Add(std::move(inputs));
    }
    trace_.slices.push_back(s);
    return *this;
  }
  TraceBuilder& Kernel(const char* name, int64_t launch_at, int64_t duration) {
    const uint64_t correlation = ++correlation_;
    if (launch_at >= 0) {
      ApiCall c;
      c.name = trace_.strings.Intern("cudaLaunchKernel");
      c.start_ns = launch_at;
      c.duration_ns = 1;
      c.link.correlation = correlation;
      trace_.api_calls.push_back(c);
    }
    tensormorph::Kernel k;
    k.name = trace_.strings.Intern(name);
    k.device = 0;
    k.start_ns = 10'000 + static_cast<int64_t>(correlation) * 100;
    k.duration_ns = duration;
    k.link.correlation = correlation;
    trace_.kernels.push_back(k);
    return *this;
  }
  Trace Build() {
    trace_.span_start_ns = 0;
    trace_.span_end_ns = 20'000;
    SortTraceTables(&trace_);
    return std::move(trace_);
  }

 private:
  Trace trace_;
  uint64_t correlation_ = 0;
};

// Side A: attention through flash attention; three linear calls; a wrapper op only A has, around
// a mul both have, launching a kernel of its own; one kernel with no launch call.
// Side B: attention through memory-efficient attention (two kernels); two linear calls; the mul
// on its own.
Trace SideA() {
  return TraceBuilder(Backend::kCuda)
      .Op("aten::scaled_dot_product_attention", 0, 100)
      .Op("aten::_flash_attention_forward", 10, 80)
      .Kernel("flash_fwd_kernel", 20, 40)
      .Op("aten::linear", 200, 100)
      .Kernel("sm90_gemm", 210, 10)
      .Op("aten::linear", 400, 100)
      .Kernel("sm90_gemm", 410, 10)
      .Op("aten::linear", 600, 100)
      .Kernel("sm90_gemm", 610, 10)
      .Op("CompiledFunction", 800, 100)
      .Op("aten::mul", 810, 50)
      .Kernel("mul_kernel", 820, 5)
      .Kernel("triton_poi_fused_0", 870, 7)
      .Kernel("Memcpy DtoD (Device -> Device)", -1, 3)
      .Build();
}
Trace SideB() {
  return TraceBuilder(Backend::kRocm)
      .Op("aten::scaled_dot_product_attention", 0, 100)
      .Op("aten::_efficient_attention_forward", 10, 80)
      .Kernel("efficient_attention_fwd", 20, 60)
      .Kernel("efficient_attention_reduce", 30, 10)
      .Op("aten::linear", 200, 100)
      .Kernel("Cijk_gemm", 210, 15)
      .Op("aten::linear", 400, 100)
      .Kernel("Cijk_gemm", 410, 15)
      .Op("aten::mul", 800, 50)
      .Kernel("mul_kernel", 820, 4)
      .Build();
}

// A kernel's category (kernel_categories.h): communication by its name; else the innermost op
// around it with a category other than communication; else its name; else other.
TEST(CompareTraces, KernelsTakeTheInnermostCategorizedOpElseTheirName) {
  const Trace t = TraceBuilder(Backend::kCuda)
                      .Op("record_param_comms", 0, 300)
                      .Kernel("ncclDevKernel_AllReduce_Sum_f32_RING_LL", 10, 50)
                      .Kernel("at::native::vectorized_elementwise_kernel<4>", 20, 7)  // a copy
                      .Op("autograd::engine::evaluate_function: AddmmBackward0", 400, 200)
                      .Op("aten::mm", 410, 50)
                      .Kernel("volta_sgemm_128x64_nt", 420, 30)
                      .Kernel("Kernel_without_a_family", 480, 9)  // under AddmmBackward0 only
                      .Op("DistributedDataParallel.forward", 700, 200)
                      .Kernel("ncclKernel_Broadcast_RING_LL_Sum_int8_t", 710, 11)
                      .Kernel("Kernel_without_a_family", 720, 5)
                      .Build();
  const CompareResult result = CompareTraces(Linked({&t, &t}), CompareQuery{});
  const auto& ns = result.sides[0].category_ns;
  auto at = [&](WorkCategory c) { return ns[static_cast<size_t>(c)]; };
  EXPECT_EQ(at(WorkCategory::kCommunication), 50 + 11);
  EXPECT_EQ(at(WorkCategory::kElementwise), 7);
  EXPECT_EQ(at(WorkCategory::kGemm), 30 + 9);
  EXPECT_EQ(at(WorkCategory::kOther), 5);
  EXPECT_EQ(result.sides[0].kernel_ns, 50 + 7 + 30 + 9 + 11 + 5);
}

const CompareRow* FindRow(const CompareResult& result, const std::string& name, bool matched) {
  for (const CompareRow& row : result.rows) {
    if (row.name == name && row.matched == matched) return &row;
  }
  return nullptr;
}

TEST(CompareTraces, AlignsThroughOpsAndKeepsEveryKernel) {
  const Trace a = SideA(), b = SideB();
  const CompareResult result = CompareTraces(Linked({&a, &b}), CompareQuery{});
  ASSERT_EQ(result.sides.size(), 2u);
  EXPECT_EQ(result.sides[0].kernel_ns, 40 + 30 + 5 + 7 + 3);
  EXPECT_EQ(result.sides[1].kernel_ns, 70 + 30 + 4);
  for (size_t side = 0; side < 2; ++side) {
    int64_t rows_ns = 0, categories_ns = 0;
    for (const CompareRow& row : result.rows) {
      if (row.sides[side]) rows_ns += row.sides[side]->device_ns;
    }
    for (int64_t ns : result.sides[side].category_ns) categories_ns += ns;
    EXPECT_EQ(rows_ns, result.sides[side].kernel_ns);
    EXPECT_EQ(categories_ns, result.sides[side].kernel_ns);
  }

  // Different call trees below a shared op: one row, each side's inner op among its children.
  const CompareRow* attention = FindRow(result, "aten::scaled_dot_product_attention", true);
  ASSERT_NE(attention, nullptr);
  EXPECT_EQ(attention->category, WorkCategory::kAttention);
  EXPECT_EQ(attention->sides[0]->device_ns, 40);
  EXPECT_EQ(attention->sides[1]->device_ns, 70);
  EXPECT_EQ(attention->sides[1]->kernels, 2u);
  EXPECT_EQ(attention->sides[0]->self_ns, 0);
  EXPECT_EQ(attention->faster, 0u);
  ASSERT_TRUE(attention->ratio[1].has_value());
  EXPECT_DOUBLE_EQ(*attention->ratio[1], 70.0 / 40.0);
  ASSERT_EQ(attention->children.size(), 2u);
  for (const CompareChild& child : attention->children) {
    const bool flash = child.name == "aten::_flash_attention_forward";
    EXPECT_EQ(child.sides[0].has_value(), flash) << child.name;
    EXPECT_EQ(child.sides[1].has_value(), !flash) << child.name;
    EXPECT_EQ((flash ? child.sides[0] : child.sides[1])->self_ns, flash ? 40 : 70);
  }

  // Calls matched in call order: two of A's three linear calls against B's two, the third a row
  // of its own.
  const CompareRow* linear = FindRow(result, "aten::linear", true);
  ASSERT_NE(linear, nullptr);
  EXPECT_EQ(linear->sides[0]->calls, 2u);
  EXPECT_EQ(linear->sides[0]->device_ns, 20);
  EXPECT_EQ(linear->sides[1]->device_ns, 30);
  const CompareRow* extra = FindRow(result, "aten::linear", false);
  ASSERT_NE(extra, nullptr);
  EXPECT_EQ(extra->sides[0]->calls, 1u);
  EXPECT_EQ(extra->sides[0]->device_ns, 10);
  EXPECT_FALSE(extra->sides[1].has_value());
  EXPECT_FALSE(extra->faster.has_value());

  // The shared mul inside A's wrapper is matched with B's; the wrapper keeps its own kernel.
  const CompareRow* mul = FindRow(result, "aten::mul", true);
  ASSERT_NE(mul, nullptr);
  EXPECT_EQ(mul->sides[0]->device_ns, 5);
  EXPECT_EQ(mul->sides[1]->device_ns, 4);
  const CompareRow* wrapper = FindRow(result, "CompiledFunction", false);
  ASSERT_NE(wrapper, nullptr);
  EXPECT_EQ(wrapper->sides[0]->device_ns, 7);
  EXPECT_EQ(wrapper->sides[0]->self_ns, 7);
  EXPECT_FALSE(wrapper->sides[1].has_value());

  // The kernel with no launch call: a row of kernels under no op, in its kernel-name category.
  const CompareRow* orphan = FindRow(result, "(kernels under no op)", false);
  ASSERT_NE(orphan, nullptr);
  EXPECT_EQ(orphan->category, WorkCategory::kMemcpy);
  EXPECT_EQ(orphan->origin, "no_op");
  EXPECT_EQ(orphan->sides[0]->device_ns, 3);

  EXPECT_EQ(result.sides[0].matched_kernel_ns, 40 + 20 + 5);
  EXPECT_EQ(result.sides[0].unmatched_kernel_ns, 10 + 7 + 3);
  EXPECT_EQ(result.sides[0].label, "GPU A");
  EXPECT_EQ(result.sides[1].label, "GPU B");
}

TEST(CompareTraces, ShapesAreInTheKey) {
  const Trace a = TraceBuilder(Backend::kCuda)
                      .Op("aten::mm", 0, 100, {8, 16})
                      .Kernel("gemm", 10, 10)
                      .Op("aten::mm", 200, 100, {8, 32})
                      .Kernel("gemm", 210, 20)
                      .Build();
  const Trace b =
      TraceBuilder(Backend::kRocm).Op("aten::mm", 0, 100, {8, 32}).Kernel("Cijk", 10, 30).Build();
  const CompareResult by_shape = CompareTraces(Linked({&a, &b}), CompareQuery{});
  const CompareRow* matched = FindRow(by_shape, "aten::mm", true);
  ASSERT_NE(matched, nullptr);
  EXPECT_EQ(matched->shapes, "[[8,32]]");
  EXPECT_EQ(matched->dtypes, "[\"float\"]");
  EXPECT_EQ(matched->sides[0]->device_ns, 20);
  EXPECT_EQ(matched->sides[1]->device_ns, 30);
  const CompareRow* only_a = FindRow(by_shape, "aten::mm", false);
  ASSERT_NE(only_a, nullptr);
  EXPECT_EQ(only_a->shapes, "[[8,16]]");
  EXPECT_FALSE(only_a->sides[1].has_value());

  // By op name the matched calls of both shapes are one row, the unmatched one another.
  CompareQuery by_op;
  by_op.by = CompareBy::kOp;
  const CompareResult result = CompareTraces(Linked({&a, &b}), by_op);
  EXPECT_EQ(result.rows.size(), 2u);
  ASSERT_NE(FindRow(result, "aten::mm", true), nullptr);
  EXPECT_TRUE(FindRow(result, "aten::mm", true)->shapes.empty());
}

TEST(CompareTraces, SameDeviceTwiceIsLabelledByFile) {
  Trace a = SideA(), b = SideA();
  a.path = "dir/eager.json";
  b.path = "dir/compiled.json";
  EXPECT_EQ(DefaultCompareLabels(Linked({&a, &b})),
            (std::vector<std::string>{"eager.json", "compiled.json"}));
  b.path = a.path;
  EXPECT_EQ(DefaultCompareLabels(Linked({&a, &b})),
            (std::vector<std::string>{"eager.json #1", "eager.json #2"}));
}

}  // namespace TM_UNITY_ID
}  // namespace
}  // namespace tensormorph
