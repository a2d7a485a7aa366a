// What Tensormorph itself calls: only the public header, as docs/development.md describes it.
#include <gtest/gtest.h>
#include <tensormorph/tensormorph.h>

namespace {
namespace TM_UNITY_ID {  // unique per file in a unity batch (tests/CMakeLists.txt)

TEST(PublicApi, LoadATraceAndSummarizeItsKernels) {
  tensormorph::StatusOr<tensormorph::Trace> trace =
      tensormorph::LoadTrace(TM_SOURCE_DIR "/examples/nccl_2rank_rank0_a100.json.gz", {});
  ASSERT_TRUE(trace.ok()) << trace.status().message();
  EXPECT_TRUE(trace->HasBackend(tensormorph::Backend::kCuda));
  const tensormorph::LinkedTrace linked(*trace);
  tensormorph::KernelSummary kernels = tensormorph::SummarizeKernels({&linked}, {});
  // 2,700 kernel events in the file (cat "kernel"), as the oracle test counts them independently.
  EXPECT_EQ(kernels.kernel_count, 2700u);
  ASSERT_FALSE(kernels.rows.empty());
  EXPECT_EQ(kernels.rows[0].name,
            "ncclKernel_AllReduce_RING_LL_Sum_float(ncclDevComm*, unsigned long, ncclWork*)");
}

TEST(PublicApi, ErrorsAreValuesNotExceptions) {
  tensormorph::StatusOr<tensormorph::Trace> trace =
      tensormorph::LoadTrace(TM_SOURCE_DIR "/tests/data/README.md", {});
  ASSERT_FALSE(trace.ok());
  EXPECT_EQ(trace.status().code(), tensormorph::StatusCode::kUnreadableInput);
  EXPECT_EQ(trace.status().position().line, 1u);
}

}  // namespace TM_UNITY_ID
}  // namespace
