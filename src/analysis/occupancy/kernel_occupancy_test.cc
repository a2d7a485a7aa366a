// Per-kernel occupancy on real traces. Every expected theoretical value below is worked out by
// hand from the CUDA occupancy rules (../shared/reference/nvidia.md §3, cuda_occupancy.h):
//   warps/block = ceil(threads / 32)
//   warps limit = floor(max warps per SM / warps/block)
//   regs limit  = floor(floor(65536 / 4 / regs per warp) x 4 / warps/block), regs per warp =
//                 registers x 32 rounded up to 256
//   smem limit  = floor(SM capacity / per-block), per-block = shared + 1024 (reserved from CC 8.0)
//                 rounded up to 128 B; capacity = the largest carveout (what traces imply)
//   blocks      = min of the four and the resident-block limit; occupancy = blocks x warps/block
//                 / max warps per SM.
// The launch configurations were read from the trace files with python3 (json / sqlite3).
#include "tensormorph/analysis/occupancy/kernel_occupancy.h"

#include <gtest/gtest.h>

#include <string>

#include "support/linked.h"
#include "tensormorph/import/importer.h"

namespace tensormorph {
namespace {
namespace TM_UNITY_ID {  // unique per file in a unity batch (tests/CMakeLists.txt)

const std::string kAlexNet = TM_SHARED_DATA "/kineto/hta/alexnet_a100_cuda_sync_trace.json.gz";
const std::string kRtx3080 = TM_SHARED_DATA "/nvidia/nsys_sqlite/nsysai_mock_rtx3080_2026.1.sqlite";
const std::string kH100NoGpuInfo =
    TM_SHARED_DATA "/nvidia/nsys_sqlite/nsysai_h100_2gpu_1s_2026.2.sqlite";
const std::string kMi250 = TM_SHARED_DATA "/kineto/hta/mi250_minitoy_train_ROCm6_2_kineto.json.gz";

Trace Load(const std::string& path) {
  StatusOr<Trace> trace = LoadTrace(path, {});
  EXPECT_TRUE(trace.ok()) << path << ": " << trace.status().message();
  return trace.ok() ? std::move(trace).value() : Trace();
}

// The one row whose name starts with `prefix` (the names below are unique by their starts).
const KernelOccupancyRow* Row(const KernelOccupancySummary& s, const std::string& prefix) {
  const KernelOccupancyRow* found = nullptr;
  for (const KernelOccupancyRow& r : s.rows) {
    if (r.name.rfind(prefix, 0) != 0) continue;
    EXPECT_EQ(found, nullptr) << "two rows start with " << prefix;
    found = &r;
  }
  EXPECT_NE(found, nullptr) << "no row starts with " << prefix;
  return found;
}

void ExpectLimits(const KernelOccupancyRow& r, int64_t warps, int64_t registers, int64_t shared,
                  int64_t blocks) {
  EXPECT_EQ(r.occupancy.limits.warps, warps) << r.name;
  EXPECT_EQ(r.occupancy.limits.registers, registers) << r.name;
  EXPECT_EQ(r.occupancy.limits.shared_memory, shared) << r.name;
  EXPECT_EQ(r.occupancy.limits.blocks, blocks) << r.name;
}

// A100 (deviceProperties: computeMajor 8, computeMinor 0 -> sm_80): 64 warps/SM, 32 blocks/SM,
// 65536 registers, 164 KB = 167936 B of shared memory per SM at the largest carveout.
class KernelOccupancyAlexNetA100 : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    trace_ = new Trace(Load(kAlexNet));
    summary_ = new KernelOccupancySummary(SummarizeKernelOccupancy(Linked({trace_}), {}));
  }
  static void TearDownTestSuite() {
    delete summary_;
    delete trace_;
  }
  static Trace* trace_;
  static KernelOccupancySummary* summary_;
};
Trace* KernelOccupancyAlexNetA100::trace_ = nullptr;
KernelOccupancySummary* KernelOccupancyAlexNetA100::summary_ = nullptr;

TEST_F(KernelOccupancyAlexNetA100, EveryLaunchHasItsConfiguration) {
  // 79 kernel events, each with "block", "registers per thread" and "shared memory"; 16 distinct
  // (name, block size, registers, shared memory) combinations.
  EXPECT_EQ(summary_->kernel_count, 79u);
  EXPECT_EQ(summary_->computed_count, 79u);
  EXPECT_TRUE(summary_->skipped.empty());
  EXPECT_EQ(summary_->rows.size(), 16u);
  for (const KernelOccupancyRow& r : summary_->rows) {
    EXPECT_EQ(r.arch, "sm_80") << r.name;
    EXPECT_EQ(r.backend, Backend::kCuda);
    EXPECT_EQ(r.achieved_source, AchievedSource::kKinetoEstimate) << r.name;
  }
  EXPECT_EQ(summary_->rows.front().name, "ampere_sgemm_32x32_sliced1x4_tn");  // most time
}

TEST_F(KernelOccupancyAlexNetA100, SgemmIsLimitedBySharedMemory) {
  // ampere_sgemm_32x32_sliced1x4_tn: 6 launches, block [128,1,1], 86 registers, 32768 B.
  //   warps/block 128 / 32 = 4            -> warps limit 64 / 4 = 16
  //   86 x 32 = 2752 -> 2816 per warp     -> floor(16384 / 2816) = 5 per scheduler, 5 x 4 / 4 = 5
  //   32768 + 1024 = 33792 (already x128) -> floor(167936 / 33792) = 4
  //   min(16, 5, 4, 32) = 4 blocks = 16 warps of 64 = 25 %, shared memory.
  // Kineto: est. achieved occupancy 25 on every launch, blocks per SM 4.74 / 7.11 (>= 4), so
  // min(4, 4.74) x 128 / 2048 = 25 %: it agrees.
  const KernelOccupancyRow* r = Row(*summary_, "ampere_sgemm_32x32_sliced1x4_tn");
  ASSERT_NE(r, nullptr);
  EXPECT_EQ(r->count, 6u);
  EXPECT_EQ(r->total_ns, 2621000);
  EXPECT_EQ(r->block_size, 128);
  EXPECT_EQ(r->registers_per_thread, 86);
  EXPECT_EQ(r->shared_memory_bytes, 32768);
  EXPECT_EQ(r->grid_blocks_min, 512u);  // grids [128,4,1] and [32,4,6]
  EXPECT_EQ(r->grid_blocks_max, 768u);
  ExpectLimits(*r, 16, 5, 4, 32);
  EXPECT_EQ(r->occupancy.active_blocks_per_sm, 4);
  EXPECT_EQ(r->occupancy.active_warps_per_sm, 16);
  EXPECT_DOUBLE_EQ(r->occupancy.occupancy, 0.25);
  EXPECT_EQ(r->occupancy.limiter, OccupancyLimiter::kSharedMemory);
  ASSERT_TRUE(r->achieved.has_value());
  EXPECT_DOUBLE_EQ(*r->achieved, 0.25);
  EXPECT_EQ(r->achieved_launches, 6u);
}

TEST_F(KernelOccupancyAlexNetA100, CudnnConvolutionIsLimitedByRegisters) {
  // cudnn_ampere_scudnn_128x64_relu_xregs_large_nn_v1: 2 launches, [128,1,1], 160 regs, 16384 B.
  //   warps/block 4                        -> warps limit 16
  //   160 x 32 = 5120 (already x256)       -> floor(16384 / 5120) = 3, 3 x 4 / 4 = 3
  //   16384 + 1024 = 17408                 -> floor(167936 / 17408) = 9
  //   min(16, 3, 9, 32) = 3 blocks = 12 warps = 18.75 %, registers.
  // Kineto: 19 (its 18.75 rounded; 3025 blocks / 108 SMs = 28 blocks per SM > 3).
  const KernelOccupancyRow* r = Row(*summary_, "cudnn_ampere_scudnn_128x64_relu_xregs_large_nn_v1");
  ASSERT_NE(r, nullptr);
  EXPECT_EQ(r->count, 2u);
  ExpectLimits(*r, 16, 3, 9, 32);
  EXPECT_EQ(r->occupancy.active_warps_per_sm, 12);
  EXPECT_DOUBLE_EQ(r->occupancy.occupancy, 0.1875);
  EXPECT_EQ(r->occupancy.limiter, OccupancyLimiter::kRegisters);
  ASSERT_TRUE(r->achieved.has_value());
  EXPECT_DOUBLE_EQ(*r->achieved, 0.19);
}

TEST_F(KernelOccupancyAlexNetA100, FftWithUnalignedSharedMemory) {
  // void fft2d_c2r_32x32<...>: 2 launches, [512,1,1], 64 regs, 35904 B.
  //   warps/block 16                       -> warps limit 64 / 16 = 4
  //   64 x 32 = 2048                       -> floor(16384 / 2048) = 8, 8 x 4 / 16 = 2
  //   35904 + 1024 = 36928 -> 289 x 128 = 36992 -> floor(167936 / 36992) = 4
  //   min(4, 2, 4, 32) = 2 blocks = 32 warps = 50 %, registers. Kineto: 50.
  const KernelOccupancyRow* r = Row(*summary_, "void fft2d_c2r_32x32");
  ASSERT_NE(r, nullptr);
  ExpectLimits(*r, 4, 2, 4, 32);
  EXPECT_EQ(r->occupancy.shared_per_block, 36992);
  EXPECT_DOUBLE_EQ(r->occupancy.occupancy, 0.5);
  EXPECT_EQ(r->occupancy.limiter, OccupancyLimiter::kRegisters);
  EXPECT_DOUBLE_EQ(r->achieved.value_or(-1), 0.5);
}

TEST_F(KernelOccupancyAlexNetA100, TiedLimitsAndKinetosZeroEstimate) {
  // sm80_xmma_fprop_implicit_gemm_indexed_tf32f32_...: 6 launches, [128,1,1], 252 regs, 67584 B.
  //   252 x 32 = 8064 -> 8192 per warp     -> floor(16384 / 8192) = 2, 2 x 4 / 4 = 2
  //   67584 + 1024 = 68608                 -> floor(167936 / 68608) = 2
  //   registers and shared memory tie at 2 blocks = 8 warps = 12.5 %; the limiter is registers
  //   (cuda_occupancy.h's bit order), both are listed.
  // Kineto's estimate is 0 on all 6 launches although 3.13-4.69 blocks per SM: presumably it
  // checks the 67584 B against the default 48 KB per-block limit (the kernel opted in to more).
  // We report it as the trace has it.
  const KernelOccupancyRow* r = Row(*summary_, "sm80_xmma_fprop_implicit_gemm_indexed");
  ASSERT_NE(r, nullptr);
  EXPECT_EQ(r->count, 6u);
  ExpectLimits(*r, 16, 2, 2, 32);
  EXPECT_DOUBLE_EQ(r->occupancy.occupancy, 0.125);
  EXPECT_EQ(r->occupancy.limiter, OccupancyLimiter::kRegisters);
  EXPECT_EQ(r->occupancy.limiters.size(), 2u);
  EXPECT_DOUBLE_EQ(r->achieved.value_or(-1), 0.0);
}

TEST_F(KernelOccupancyAlexNetA100, AchievedIsTimeWeighted) {
  // void at::native::vectorized_elementwise_kernel<4, ...launch_clamp_scalar...>: 14 launches,
  // [128,1,1], 18 regs, 0 B.
  //   warps/block 4 -> warps limit 16; 18 x 32 = 576 -> 768 -> floor(16384 / 768) = 21,
  //   21 x 4 / 4 = 21; 0 + 1024 -> floor(167936 / 1024) = 164; min = 16 blocks = 64 warps = 100 %.
  // Kineto's estimate: 100 on 10 launches (663 us) and 59 on the four 5 us launches with a
  // 1024-block grid (1024 / 108 = 9.48 blocks per SM < 16: 9.48 x 128 / 2048 = 59 %).
  //   time-weighted: (663 x 100 + 20 x 59) / 683 = 67480 / 683 = 98.80 %
  const KernelOccupancyRow* r = Row(*summary_, "void at::native::vectorized_elementwise_kernel<4");
  ASSERT_NE(r, nullptr);
  EXPECT_EQ(r->count, 14u);
  EXPECT_EQ(r->total_ns, 683000);
  ExpectLimits(*r, 16, 21, 164, 32);
  EXPECT_DOUBLE_EQ(r->occupancy.occupancy, 1.0);
  EXPECT_EQ(r->occupancy.limiter, OccupancyLimiter::kWarps);
  EXPECT_NEAR(*r->achieved, 67480.0 / 683 / 100, 1e-12);
  EXPECT_EQ(r->achieved_launches, 14u);
}

TEST_F(KernelOccupancyAlexNetA100, ArchOverrideAndTop) {
  // The same trace as if on sm_90 (228 KB = 233472 B): the sgemm's shared memory limit becomes
  // floor(233472 / 33792) = 6, so registers (5) limit: 5 x 4 = 20 warps = 31.25 %.
  KernelOccupancyQuery query;
  query.arch = ParseArch("sm_90").value();
  query.top = 1;
  const KernelOccupancySummary s = SummarizeKernelOccupancy(Linked({trace_}), query);
  ASSERT_EQ(s.rows.size(), 1u);
  EXPECT_EQ(s.row_count_before_top, 16u);
  EXPECT_EQ(s.rows[0].arch, "sm_90");
  EXPECT_EQ(s.rows[0].occupancy.limits.shared_memory, 6);
  EXPECT_DOUBLE_EQ(s.rows[0].occupancy.occupancy, 0.3125);
  EXPECT_EQ(s.rows[0].occupancy.limiter, OccupancyLimiter::kRegisters);
}

// RTX 3080 (TARGET_INFO_GPU: computeMajor 8, computeMinor 6 -> sm_86): 48 warps/SM, 16 blocks/SM,
// 100 KB = 102400 B of shared memory per SM. CUPTI_ACTIVITY_KIND_KERNEL has the launch
// configuration; Nsight Systems has no achieved occupancy.
TEST(KernelOccupancy, NsightSystemsRtx3080) {
  const Trace trace = Load(kRtx3080);
  const KernelOccupancySummary s = SummarizeKernelOccupancy(Linked({&trace}), {});
  EXPECT_EQ(s.kernel_count, 2u);
  EXPECT_TRUE(s.skipped.empty());
  ASSERT_EQ(s.rows.size(), 2u);

  // void at::native::reduce_kernel<(int)512, (int)1, ...>: block 16x1x1, registersPerThread 28,
  // staticSharedMemory 16, dynamicSharedMemory 0.
  //   warps/block ceil(16 / 32) = 1         -> warps limit 48
  //   28 x 32 = 896 -> 1024 per warp         -> floor(16384 / 1024) = 16, 16 x 4 / 1 = 64
  //   16 + 1024 = 1040 -> 9 x 128 = 1152     -> floor(102400 / 1152) = 88
  //   resident blocks 16 -> 16 blocks = 16 warps of 48 = 33.33 %, limited by blocks.
  const KernelOccupancyRow* reduce = Row(s, "void at::native::reduce_kernel<(int)512");
  ASSERT_NE(reduce, nullptr);
  EXPECT_EQ(reduce->arch, "sm_86");
  EXPECT_EQ(reduce->block_size, 16);
  EXPECT_EQ(reduce->registers_per_thread, 28);
  EXPECT_EQ(reduce->shared_memory_bytes, 16);
  EXPECT_EQ(reduce->total_ns, 2689);
  ExpectLimits(*reduce, 48, 64, 88, 16);
  EXPECT_EQ(reduce->occupancy.active_warps_per_sm, 16);
  EXPECT_EQ(reduce->occupancy.max_warps_per_sm, 48);
  EXPECT_DOUBLE_EQ(reduce->occupancy.occupancy, 16.0 / 48);
  EXPECT_EQ(reduce->occupancy.limiter, OccupancyLimiter::kBlocks);
  EXPECT_FALSE(reduce->achieved.has_value());
  EXPECT_EQ(reduce->achieved_source, AchievedSource::kNone);

  // void at::native::vectorized_elementwise_kernel<(int)4, at::native::FillFunctor<float>, ...>:
  // block 128x1x1, 16 registers, no shared memory.
  //   warps/block 4 -> warps limit 12; 16 x 32 = 512 -> floor(16384 / 512) = 32, 32 x 4 / 4 = 32;
  //   0 + 1024 -> floor(102400 / 1024) = 100; resident 16 -> 12 blocks = 48 warps = 100 %, warps.
  const KernelOccupancyRow* fill = Row(s, "void at::native::vectorized_elementwise_kernel<(int)4");
  ASSERT_NE(fill, nullptr);
  ExpectLimits(*fill, 12, 32, 100, 16);
  EXPECT_DOUBLE_EQ(fill->occupancy.occupancy, 1.0);
  EXPECT_EQ(fill->occupancy.limiter, OccupancyLimiter::kWarps);
}

TEST(KernelOccupancy, UnknownArchitectureUntilArchIsGiven) {
  // This H100 export lacks TARGET_INFO_GPU: no compute capability, so nothing can be computed...
  const Trace trace = Load(kH100NoGpuInfo);
  const KernelOccupancySummary s = SummarizeKernelOccupancy(Linked({&trace}), {});
  EXPECT_TRUE(s.rows.empty());
  ASSERT_EQ(s.skipped.count(SkipReason::kUnknownArchitecture), 1u);
  EXPECT_EQ(s.skipped.at(SkipReason::kUnknownArchitecture).count, s.kernel_count);
  EXPECT_GT(s.kernel_count, 0u);
  // ... until --arch names it.
  KernelOccupancyQuery query;
  query.arch = ParseArch("sm_90").value();
  const KernelOccupancySummary with_arch = SummarizeKernelOccupancy(Linked({&trace}), query);
  EXPECT_EQ(with_arch.computed_count, with_arch.kernel_count);
  EXPECT_TRUE(with_arch.skipped.empty());
}

TEST(KernelOccupancy, RocmKinetoTraceHasNoRegisters) {
  // MI250 Kineto trace: 14 kernels whose args hold only device, stream, correlation and kind.
  const Trace trace = Load(kMi250);
  for (const char* arch : {"", "gfx90a"}) {
    KernelOccupancyQuery query;
    if (*arch != '\0') query.arch = ParseArch(arch).value();
    const KernelOccupancySummary s = SummarizeKernelOccupancy(Linked({&trace}), query);
    EXPECT_EQ(s.kernel_count, 14u);
    EXPECT_TRUE(s.rows.empty());
    ASSERT_EQ(s.skipped.size(), 1u);
    EXPECT_EQ(s.skipped.begin()->first, SkipReason::kNoRegisters);
    EXPECT_EQ(s.skipped.begin()->second.count, 14u);
  }
}

// Synthetic: what the real traces above do not have (Nsight Compute's counter next to Kineto's
// estimate, one name launched with two configurations, rejected and incomplete launches).
TEST(KernelOccupancy, GroupingSourcesAndSkips) {
  Trace t;
  Device gpu;
  gpu.backend = Backend::kCuda;
  gpu.compute_major = 8;
  gpu.compute_minor = 0;
  gpu.arch = "8.0";
  Device cpu;
  cpu.backend = Backend::kCpu;
  t.devices = {gpu, cpu};
  auto add = [&](const char* name, uint32_t device, uint32_t block, uint16_t regs, int64_t dur,
                 int8_t estimate) {
    Kernel k;
    k.name = t.strings.Intern(name);
    k.device = device;
    k.block = {block, block > 0 ? 1u : 0u, block > 0 ? 1u : 0u};
    k.grid = {1, 1, 1};
    k.registers_per_thread = regs;
    k.duration_ns = dur;
    k.achieved_occupancy_percent = estimate;
    if (estimate >= 0) k.occupancy_source = CounterSource::kKinetoEstimate;
    t.kernels.push_back(k);
  };
  add("gemm", 0, 256, 32, 100, 80);   // 0
  add("gemm", 0, 256, 32, 300, 40);   // 1: one row with 0, weighted (100 x 80 + 300 x 40) / 400
  add("gemm", 0, 128, 32, 50, 90);    // 2: a second configuration, a second row
  add("norm", 0, 64, 16, 10, 50);     // 3: Nsight Compute's 70 wins over the estimate 50
  add("nolaunch", 0, 0, 32, 10, -1);  // no block
  add("noregs", 0, 128, 0, 10, -1);   // no registers
  add("huge", 0, 128, 300, 10, -1);   // over 255 registers: rejected
  add("host", 1, 1, 1, 10, -1);       // a CPU "kernel"
  KernelCounters c;
  c.kernel = 3;
  c.source = CounterSource::kNsightCompute;
  c.achieved_occupancy_percent = 70;
  t.kernel_counters.push_back(c);

  const KernelOccupancySummary s = SummarizeKernelOccupancy(Linked({&t}), {});
  EXPECT_EQ(s.kernel_count, 8u);
  EXPECT_EQ(s.computed_count, 4u);
  ASSERT_EQ(s.rows.size(), 3u);
  EXPECT_EQ(s.rows[0].name, "gemm");
  EXPECT_EQ(s.rows[0].block_size, 256);
  EXPECT_EQ(s.rows[0].count, 2u);
  EXPECT_DOUBLE_EQ(*s.rows[0].achieved, (100 * 80 + 300 * 40) / 400.0 / 100);
  EXPECT_EQ(s.rows[1].name, "gemm");
  EXPECT_EQ(s.rows[1].block_size, 128);
  EXPECT_EQ(s.rows[2].name, "norm");
  EXPECT_EQ(s.rows[2].achieved_source, AchievedSource::kNcu);
  EXPECT_DOUBLE_EQ(*s.rows[2].achieved, 0.7);
  ASSERT_EQ(s.skipped.size(), 3u);
  EXPECT_EQ(s.skipped.at(SkipReason::kNoLaunchConfiguration).count, 2u);
  EXPECT_EQ(s.skipped.at(SkipReason::kInvalidLaunch).count, 1u);
  EXPECT_EQ(s.skipped.at(SkipReason::kNotAGpuKernel).count, 1u);
  EXPECT_EQ(s.skipped.at(SkipReason::kNotAGpuKernel).example, "host");
}

}  // namespace TM_UNITY_ID
}  // namespace
}  // namespace tensormorph

namespace tensormorph {
namespace {
namespace TM_UNITY_ID {  // unique per file in a unity batch (tests/CMakeLists.txt)

// rocprof kernels carry VGPRs, AGPRs, SGPRs and LDS; the gfx target comes from the agent
// (Device::arch, which the importer sets from agent_info) or --arch. By hand (other-backends.md
// §2, gfx90a: 4 SIMDs x 8 waves, 512 unified VGPRs per lane in granules of 8, 64 KiB LDS in 512 B
// granules):
//   256 work-items = 4 waves; 16384 B LDS -> 65536 / 16384 = 4 workgroups; waves 32 / 4 = 8.
//   128 VGPRs + 128 AGPRs = 256 -> 2 waves/SIMD -> 4 x 2 / 4 = 2 workgroups: 8/32 = 25 %.
//   128 VGPRs, no AGPRs = 128 -> 4 waves/SIMD -> 4 x 4 / 4 = 4 workgroups (tied with LDS):
//   16/32 = 50 %, registers first among the tied.
TEST(KernelOccupancy, RocprofKernelsUseTheirAgentsGfxTarget) {
  Trace t;
  Device gpu;
  gpu.backend = Backend::kRocm;
  gpu.trace_id = 4;
  gpu.compute_major = 9;  // says gfx9, not which gfx9: the arch names it
  gpu.arch = "gfx90a";
  t.devices = {gpu};
  auto add = [&](uint16_t vgprs, uint16_t agprs, int64_t duration) {
    Kernel k;
    k.name = t.strings.Intern("gemm");
    k.device = 0;
    k.block = {256, 1, 1};
    k.grid = {64, 1, 1};
    k.registers_per_thread = vgprs;
    k.accum_registers_per_thread = agprs;
    k.scalar_registers = 96;
    k.shared_memory_bytes = 16384;
    k.duration_ns = duration;
    t.kernels.push_back(k);
  };
  add(128, 128, 300);
  add(128, 0, 100);
  add(0, 0, 50);  // a launch without registers (Kineto-style) stays skipped

  KernelOccupancySummary s = SummarizeKernelOccupancy(Linked({&t}), {});
  ASSERT_EQ(s.rows.size(), 2u);
  EXPECT_EQ(s.rows[0].arch, "gfx90a");
  EXPECT_EQ(s.rows[0].occupancy.registers_allocated, 256);
  EXPECT_DOUBLE_EQ(s.rows[0].occupancy.occupancy, 0.25);
  EXPECT_EQ(s.rows[0].occupancy.limiter, OccupancyLimiter::kRegisters);
  EXPECT_EQ(s.rows[0].occupancy.limits.shared_memory, 4);
  EXPECT_EQ(s.rows[1].occupancy.registers_allocated, 128);
  EXPECT_DOUBLE_EQ(s.rows[1].occupancy.occupancy, 0.5);
  EXPECT_EQ(s.rows[1].occupancy.limiter, OccupancyLimiter::kRegisters);
  ASSERT_EQ(s.skipped.count(SkipReason::kNoRegisters), 1u);
  EXPECT_EQ(s.skipped.at(SkipReason::kNoRegisters).count, 1u);

  // --arch overrides the agent's target for AMD kernels; without either the target is unknown.
  KernelOccupancyQuery query;
  query.arch = ParseArch("gfx942").value();
  EXPECT_EQ(SummarizeKernelOccupancy(Linked({&t}), query).rows[0].arch, "gfx942");
  t.devices[0].arch.clear();
  s = SummarizeKernelOccupancy(Linked({&t}), {});
  EXPECT_TRUE(s.rows.empty());
  EXPECT_EQ(s.skipped.at(SkipReason::kUnknownArchitecture).count, 2u);
}

// Who measured a kernel's occupancy is a field of the model (CounterSource), not the trace's
// format: rocprof-compute's counters are named so; a measurement the importer copied into the
// kernel row (Nsight Compute) is not taken for Kineto's estimate; a CUDA compute capability named
// as a ROCm device's arch names no gfx target.
TEST(KernelOccupancy, SourcesAreFieldsOfTheModel) {
  Trace t;
  t.format = "ncu-csv";  // ignored: the fields below decide
  Device gpu;
  gpu.backend = Backend::kRocm;
  gpu.arch = "gfx942";
  Device rocm_cc = gpu;
  rocm_cc.arch = "9.4";
  t.devices = {gpu, rocm_cc};
  auto add = [&](uint32_t device, int8_t row_percent, CounterSource row_source) {
    Kernel k;
    k.name = t.strings.Intern(device == 0 ? "gemm" : "other");
    k.device = device;
    k.block = {256, 1, 1};
    k.grid = {64, 1, 1};
    k.registers_per_thread = 64;
    k.duration_ns = 100;
    k.achieved_occupancy_percent = row_percent;
    k.occupancy_source = row_source;
    t.kernels.push_back(k);
  };
  add(0, 55, CounterSource::kNsightCompute);  // measured, and also in the counters below
  add(0, 30, CounterSource::kNsightCompute);  // measured, but not in the counters: not an estimate
  add(1, -1, CounterSource::kNone);
  KernelCounters c;
  c.kernel = 0;
  c.source = CounterSource::kRocprofCompute;
  c.achieved_occupancy_percent = 55;
  t.kernel_counters.push_back(c);

  const KernelOccupancySummary s = SummarizeKernelOccupancy(Linked({&t}), {});
  ASSERT_EQ(s.rows.size(), 1u);
  EXPECT_EQ(s.rows[0].arch, "gfx942");
  EXPECT_EQ(s.rows[0].achieved_source, AchievedSource::kRocprofCompute);
  EXPECT_EQ(s.rows[0].achieved_launches, 1u);
  EXPECT_DOUBLE_EQ(*s.rows[0].achieved, 0.55);
  EXPECT_EQ(s.skipped.at(SkipReason::kUnknownArchitecture).count, 1u);
}

}  // namespace TM_UNITY_ID
}  // namespace
}  // namespace tensormorph
