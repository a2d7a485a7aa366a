#include "import/common/kernel_names.h"

#include <gtest/gtest.h>

namespace tensormorph {
namespace {
namespace TM_UNITY_ID {  // unique per file in a unity batch (tests/CMakeLists.txt)

TEST(KernelNames, DemanglesItaniumSymbols) {
  EXPECT_EQ(DemangleItanium("_ZN2at6native12_GLOBAL__N_16reduceILi512ELi1EEEvv").value_or(""),
            "void at::native::(anonymous namespace)::reduce<512, 1>()");
  EXPECT_EQ(DemangleItanium("_Z6kernelv").value_or(""), "kernel()");
  EXPECT_EQ(DemangleItanium("_Z6kernelv.kd").value_or(""), "kernel() [clone .kd]");
  // From the shared TraceLens HIP-graph decode trace (MI300X): std::bfloat16_t, which GCC 12's
  // abi::__cxa_demangle rejects.
  EXPECT_EQ(DemangleItanium("_ZN5aiter24add_rmsnorm_quant_kernelIDF16bDF16bLi64ELi8ELb0ELb0ELb1ELi1"
                            "EEEvPT0_PT_PfS4_S4_S4_diiiiiiib")
                .value_or(""),
            "void aiter::add_rmsnorm_quant_kernel<std::bfloat16_t, std::bfloat16_t, 64, 8, false, "
            "false, true, 1>(std::bfloat16_t*, std::bfloat16_t*, float*, std::bfloat16_t*, "
            "std::bfloat16_t*, std::bfloat16_t*, double, int, int, int, int, int, int, int, bool)");
}

TEST(KernelNames, LeavesReadableNamesAlone) {
  for (const char* name : {"ampere_sgemm_32x32_sliced1x4_tn", "triton_poi_fused_add_0",
                           "void at::native::vectorized_elementwise_kernel<4>()", "_Zfoo", "_Z", "",
                           "Memcpy HtoD", "_ZN7ck_tile6kentry"}) {
    EXPECT_FALSE(DemangleItanium(name)) << name;
  }
}

TEST(KernelNames, DemanglingTwiceChangesNothing) {
  Trace t;
  Kernel a, b, c;
  a.name = t.strings.Intern("_Z6kernelv");
  b.name = a.name;
  c.name = t.strings.Intern("plain_kernel");
  t.kernels = {a, b, c};
  DemangleKernelNames(&t);
  EXPECT_EQ(t.str(t.kernels[0].name), "kernel()");
  EXPECT_EQ(t.kernels[0].name, t.kernels[1].name);
  EXPECT_EQ(t.str(t.kernels[2].name), "plain_kernel");
  ASSERT_EQ(t.mangled_names.size(), 1u);
  EXPECT_EQ(t.str(t.mangled_names.at(t.kernels[0].name)), "_Z6kernelv");
  DemangleKernelNames(&t);
  EXPECT_EQ(t.str(t.kernels[0].name), "kernel()");
  EXPECT_EQ(t.mangled_names.size(), 1u);
}

}  // namespace TM_UNITY_ID
}  // namespace
}  // namespace tensormorph
