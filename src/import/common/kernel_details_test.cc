#include "import/common/kernel_details.h"

#include <gtest/gtest.h>

namespace tensormorph::xplane {
namespace {
namespace TM_UNITY_ID {  // unique per file in a unity batch (tests/CMakeLists.txt)

TEST(XplaneKernelDetails, CudaSpelling) {
  const KernelDetails d = ParseKernelDetails(
      "regs:32 static_shared:1024 dynamic_shared:2048 grid:80,2,1 block:128,1,1 occ_pct:50.0");
  EXPECT_EQ(d.grid.x, 80u);
  EXPECT_EQ(d.grid.y, 2u);
  EXPECT_EQ(d.block.x, 128u);
  Kernel k;
  EXPECT_TRUE(ApplyKernelDetails(d, &k));
  EXPECT_EQ(k.registers_per_thread, 32);
  EXPECT_EQ(k.shared_memory_bytes, 3072u);  // static + dynamic
}

TEST(XplaneKernelDetails, RocmSpelling) {
  const KernelDetails d =
      ParseKernelDetails(" grid:219,40,1 block:256,1,1 private_mem:16 group_mem:49280 occ_pct:0");
  Kernel k;
  EXPECT_TRUE(ApplyKernelDetails(d, &k));
  EXPECT_EQ(k.grid.x, 219u);
  EXPECT_EQ(k.grid.y, 40u);
  EXPECT_EQ(k.grid.z, 1u);
  EXPECT_EQ(k.block.x, 256u);
  EXPECT_EQ(k.shared_memory_bytes, 49280u);  // LDS per workgroup
  EXPECT_EQ(k.registers_per_thread, 0);      // not in the ROCm spelling
  EXPECT_EQ(d.private_memory, 16u);
}

TEST(XplaneKernelDetails, UninitialisedRegistersAreNotBelieved) {
  // JAX 0.6 on ROCm, every kernel of jax06_mi300_conv3d.legacy.xplane.pb.
  const KernelDetails d = ParseKernelDetails(
      "regs:2191487992 static_shared:32462 dynamic_shared:0 grid:219,40,1 block:256,1,1 "
      "occ_pct:0");
  EXPECT_TRUE(d.implausible);
  Kernel k;
  EXPECT_FALSE(ApplyKernelDetails(d, &k));
  EXPECT_EQ(k.registers_per_thread, 0);
  EXPECT_EQ(k.shared_memory_bytes, 0u);
  EXPECT_EQ(k.grid.x, 219u);  // the launch shape is still right
}

TEST(XplaneKernelDetails, GarbageLeavesFieldsUnset) {
  for (const char* text :
       {"", "grid:1,2", "grid:a,b,c block:-1,1,1", "regs:", "::::", "grid:1,2,3,4"}) {
    const KernelDetails d = ParseKernelDetails(text);
    EXPECT_TRUE(d.grid.empty()) << text;
    EXPECT_TRUE(d.block.empty()) << text;
    EXPECT_FALSE(d.registers.has_value()) << text;
  }
}

TEST(XplaneKernelDetails, MemcpyBytes) {
  EXPECT_EQ(MemcpyBytes("kind:Unknown size:655360 dest:2 async:1"), 655360u);
  EXPECT_EQ(MemcpyBytes("kind:HtoD bytes_size:5 size:7"), 7u);
  EXPECT_EQ(MemcpyBytes("kind:Unknown"), 0u);
  EXPECT_EQ(MemcpyBytes("size:x"), 0u);
}

}  // namespace TM_UNITY_ID
}  // namespace
}  // namespace tensormorph::xplane
