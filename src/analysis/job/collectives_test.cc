// Unit tests of the collectives' names and factors (collective_calls.h, collectives.h); the
// figures on real jobs are tested end to end in tests/collectives_oracle_test.cc and job_test.cc.
#include "tensormorph/analysis/job/collectives.h"

#include <gtest/gtest.h>

#include "analysis/job/collective_calls.h"

namespace tensormorph {
namespace {
namespace TM_UNITY_ID {  // unique per file in a unity batch (tests/CMakeLists.txt)

TEST(CollectiveType, FromEveryKindOfName) {
  // record_param_comms' "Collective name"
  EXPECT_EQ(CollectiveType("allreduce"), "all_reduce");
  EXPECT_EQ(CollectiveType("_allgather_base"), "all_gather");
  EXPECT_EQ(CollectiveType("_reduce_scatter_base"), "reduce_scatter");
  EXPECT_EQ(CollectiveType("all_to_allv"), "all_to_all");
  EXPECT_EQ(CollectiveType("barrier"), "barrier");
  // ops
  EXPECT_EQ(CollectiveType("nccl:all_to_all"), "all_to_all");
  EXPECT_EQ(CollectiveType("c10d::broadcast_"), "broadcast");
  EXPECT_EQ(CollectiveType("nccl:recv 0<-1"), "send_recv");
  // kernels: the parameter list does not count
  EXPECT_EQ(CollectiveType("ncclKernel_AllReduce_RING_LL_Sum_float(ncclDevComm*, unsigned long)"),
            "all_reduce");
  EXPECT_EQ(
      CollectiveType("ncclDevKernel_ReduceScatter_Sum_bf16_RING_LL(ncclDevKernelArgsStorage)"),
      "reduce_scatter");
  EXPECT_EQ(CollectiveType("ncclKernel_SendRecv_RING_SIMPLE_Sum_int8_t(ncclDevComm*)"),
            "send_recv");
  EXPECT_EQ(CollectiveType("ncclKernel_Reduce_RING_LL_Sum_half"), "reduce");
  EXPECT_EQ(CollectiveType("ncclDevKernel_Generic"), "");
}

TEST(CollectiveType, ElementBytes) {
  EXPECT_EQ(ElementBytes("Float"), 4);
  EXPECT_EQ(ElementBytes("float"), 4);
  EXPECT_EQ(ElementBytes("c10::BFloat16"), 2);
  EXPECT_EQ(ElementBytes("c10::Half"), 2);
  EXPECT_EQ(ElementBytes("long int"), 8);
  EXPECT_EQ(ElementBytes("Double"), 8);
  EXPECT_EQ(ElementBytes("unsigned char"), 1);
  EXPECT_EQ(ElementBytes("Float8_e4m3fn"), 1);
  EXPECT_EQ(ElementBytes("TensorList"), 0);
  EXPECT_EQ(ElementBytes(""), 0);
}

TEST(CollectiveType, NcclTestsBusFactors) {
  // nccl-tests doc/PERFORMANCE.md: all-reduce 2(n-1)/n, all-gather / reduce-scatter (n-1)/n,
  // the rest 1; all-to-all (n-1)/n as nccl-tests' alltoall.cu computes it.
  EXPECT_DOUBLE_EQ(BusBandwidthFactor("all_reduce", 8), 2.0 * 7 / 8);
  EXPECT_DOUBLE_EQ(BusBandwidthFactor("all_gather", 8), 7.0 / 8);
  EXPECT_DOUBLE_EQ(BusBandwidthFactor("reduce_scatter", 2), 0.5);
  EXPECT_DOUBLE_EQ(BusBandwidthFactor("all_to_all", 4), 0.75);
  EXPECT_DOUBLE_EQ(BusBandwidthFactor("broadcast", 8), 1);
  EXPECT_DOUBLE_EQ(BusBandwidthFactor("send_recv", 8), 1);
  EXPECT_DOUBLE_EQ(BusBandwidthFactor("all_reduce", 0), 1);
}

TEST(CollectiveType, SizeBuckets) {
  EXPECT_EQ(BytesBucketName(std::nullopt), "unknown");
  EXPECT_EQ(BytesBucketName(1023), "< 1 KiB");
  EXPECT_EQ(BytesBucketName(1024), "1 KiB - 64 KiB");
  EXPECT_EQ(BytesBucketName(24576), "1 KiB - 64 KiB");
  EXPECT_EQ(BytesBucketName(8196000), "1 MiB - 16 MiB");
  EXPECT_EQ(BytesBucketName(int64_t{1} << 28), ">= 256 MiB");
}

}  // namespace TM_UNITY_ID
}  // namespace
}  // namespace tensormorph
