#include "tensormorph/analysis/diff/diff.h"

#include <gtest/gtest.h>

namespace tensormorph {
namespace {
namespace TM_UNITY_ID {  // unique per file in a unity batch (tests/CMakeLists.txt)

ProfileRow Kernel(const std::string& name, std::vector<int64_t> steps) {
  ProfileRow r;
  r.name = name;
  r.backend = Backend::kCuda;
  r.count = steps.size();
  for (int64_t s : steps) r.total_ns += s;
  r.step_totals_ns = std::move(steps);
  return r;
}

Baseline Profile(std::vector<ProfileRow> kernels) {
  Baseline b;
  const size_t steps = kernels.empty() ? 0 : kernels[0].step_totals_ns.size();
  for (size_t i = 0; i < steps; ++i) b.step_numbers.push_back(static_cast<int64_t>(i));
  b.step_kernel_ns.assign(steps, 0);
  for (const ProfileRow& k : kernels) {
    b.kernel_ns += k.total_ns;
    b.kernel_count += k.count;
    for (size_t i = 0; i < steps; ++i) b.step_kernel_ns[i] += k.step_totals_ns[i];
  }
  b.kernels = std::move(kernels);
  return b;
}

const DiffRow& Row(const DiffResult& r, const std::string& name) {
  for (const DiffRow& row : r.rows) {
    if (row.name == name) return row;
  }
  static DiffRow none;
  ADD_FAILURE() << "no row " << name;
  return none;
}

TEST(DiffProfiles, ThresholdAloneWithoutSteps) {
  ProfileRow a = Kernel("a", {}), b = Kernel("b", {}), gone = Kernel("gone", {});
  a.total_ns = 1000;
  b.total_ns = 1000;
  gone.total_ns = 7;
  ProfileRow a2 = a, b2 = b, fresh = Kernel("fresh", {});
  a2.total_ns = 1040;  // +4%: under the 5% threshold
  b2.total_ns = 1100;  // +10%
  fresh.total_ns = 30;
  const DiffResult r = DiffProfiles(Profile({a, b, gone}), Profile({a2, b2, fresh}), {});
  EXPECT_EQ(r.basis, DiffBasis::kTotal);
  EXPECT_FALSE(r.noise_test);
  EXPECT_EQ(Row(r, "a").comparison.status, DiffStatus::kUnchanged);
  EXPECT_EQ(Row(r, "a").comparison.delta_ns, 40);
  EXPECT_EQ(Row(r, "b").comparison.status, DiffStatus::kRegressed);
  EXPECT_EQ(Row(r, "b").comparison.decided_by, DecidedBy::kThreshold);
  EXPECT_DOUBLE_EQ(*Row(r, "b").comparison.delta_percent, 10.0);
  EXPECT_EQ(Row(r, "fresh").comparison.status, DiffStatus::kAdded);
  EXPECT_FALSE(Row(r, "fresh").comparison.delta_percent.has_value());
  EXPECT_EQ(Row(r, "gone").comparison.status, DiffStatus::kRemoved);
  EXPECT_DOUBLE_EQ(*Row(r, "gone").comparison.delta_percent, -100.0);
  EXPECT_TRUE(r.regressed);
  EXPECT_EQ(r.counts.regressed, 1u);
  EXPECT_EQ(r.counts.unchanged, 1u);
  // Largest |delta| first: b (+100), a (+40), fresh (+30), gone (-7).
  EXPECT_EQ(r.rows[0].name, "b");
  EXPECT_EQ(r.rows[3].name, "gone");
}

TEST(DiffProfiles, MannWhitneyOverridesTheThresholdWhenStepsAreNoisy) {
  // Six steps each. "steady" grows 20% in every step: separated samples, p = 2/924.
  // "noisy" grows 20% in total but its steps overlap: not significant.
  const Baseline base = Profile({Kernel("steady", {100, 101, 99, 103, 102, 98}),
                                 Kernel("noisy", {50, 150, 80, 120, 60, 140})});
  const Baseline next = Profile({Kernel("steady", {120, 121, 119, 123, 122, 118}),
                                 Kernel("noisy", {70, 160, 90, 135, 75, 190})});
  const DiffResult r = DiffProfiles(base, next, {});
  EXPECT_TRUE(r.noise_test);
  const Comparison& steady = Row(r, "steady").comparison;
  EXPECT_EQ(steady.status, DiffStatus::kRegressed);
  EXPECT_EQ(steady.decided_by, DecidedBy::kMannWhitney);
  ASSERT_TRUE(steady.test.has_value());
  EXPECT_NEAR(steady.test->p_value, 2.0 / 924.0, 1e-12);
  const Comparison& noisy = Row(r, "noisy").comparison;
  EXPECT_GT(*noisy.delta_percent, 5.0);
  EXPECT_EQ(noisy.status, DiffStatus::kUnchanged);
  EXPECT_EQ(noisy.decided_by, DecidedBy::kMannWhitney);
  DiffOptions loose;
  loose.alpha = 1.01;  // every p-value rejects
  EXPECT_EQ(Row(DiffProfiles(base, next, loose), "noisy").comparison.status,
            DiffStatus::kRegressed);
}

TEST(DiffProfiles, DifferentStepCountsCompareMeansPerStep) {
  // The same 100 ns per step, six steps against five: no regression although the totals
  // differ by 20%.
  const Baseline six = Profile({Kernel("k", {100, 100, 100, 100, 100, 100})});
  const Baseline five = Profile({Kernel("k", {100, 100, 100, 100, 100})});
  const DiffResult r = DiffProfiles(five, six, {});
  EXPECT_EQ(r.basis, DiffBasis::kPerStepMean);
  const Comparison& c = Row(r, "k").comparison;
  EXPECT_EQ(c.base_total_ns, 500);
  EXPECT_EQ(c.new_total_ns, 600);
  EXPECT_DOUBLE_EQ(c.base_value, 100.0);
  EXPECT_DOUBLE_EQ(c.new_value, 100.0);
  EXPECT_EQ(c.delta_ns, 0);
  EXPECT_EQ(c.status, DiffStatus::kUnchanged);
  EXPECT_EQ(c.decided_by, DecidedBy::kThreshold);
  EXPECT_FALSE(r.regressed);
  EXPECT_EQ(r.kernel_total.status, DiffStatus::kUnchanged);
}

TEST(DiffProfiles, KindFilterAndTopKeepTheVerdictOfAllRows) {
  Baseline base = Profile({Kernel("k", {})});
  base.kernels[0].total_ns = 100;
  ProfileRow op = Kernel("aten::mm", {});
  op.kind = ProfileRowKind::kOp;
  op.backend = Backend::kCpu;
  op.total_ns = 1000;
  base.ops = {op};
  Baseline next = base;
  next.kernels[0].total_ns = 200;  // regressed, |delta| 100
  next.ops[0].total_ns = 500;      // improved, |delta| 500
  DiffOptions top1;
  top1.top = 1;
  const DiffResult all = DiffProfiles(base, next, top1);
  ASSERT_EQ(all.rows.size(), 1u);
  EXPECT_EQ(all.rows[0].name, "aten::mm");
  EXPECT_EQ(all.row_count_before_top, 2u);
  EXPECT_TRUE(all.regressed);  // the kernel, though not shown
  DiffOptions ops_only;
  ops_only.kernels = false;
  const DiffResult ops = DiffProfiles(base, next, ops_only);
  ASSERT_EQ(ops.rows.size(), 1u);
  EXPECT_EQ(ops.rows[0].kind, ProfileRowKind::kOp);
  EXPECT_FALSE(ops.regressed);
}

TEST(DiffProfiles, IdenticalProfilesAreUnchanged) {
  const Baseline b = Profile({Kernel("x", {5, 6, 7}), Kernel("y", {0, 0, 9})});
  const DiffResult r = DiffProfiles(b, b, {});
  for (const DiffRow& row : r.rows) {
    EXPECT_EQ(row.comparison.status, DiffStatus::kUnchanged) << row.name;
    EXPECT_EQ(row.comparison.delta_ns, 0);
  }
  EXPECT_EQ(r.kernel_total.delta_ns, 0);
  EXPECT_FALSE(r.regressed);
}

TEST(DiffProfiles, ThreeStepsPerSideFallBackToTheSpread) {
  // 3 + 3 steps: Mann-Whitney's smallest p is 0.1, above alpha 0.05, so the test could never
  // call a change; the spread rule calls it only when the step times do not overlap.
  const DiffResult r = DiffProfiles(
      Profile({Kernel("separate", {100, 101, 102}), Kernel("overlap", {100, 120, 101})}),
      Profile({Kernel("separate", {110, 111, 112}), Kernel("overlap", {115, 118, 119})}), {});
  EXPECT_TRUE(r.noise_test);
  EXPECT_EQ(Row(r, "separate").comparison.status, DiffStatus::kRegressed);
  EXPECT_EQ(Row(r, "separate").comparison.decided_by, DecidedBy::kSpread);
  // overlap: +9.9% in total, but its slowest base step (120) is slower than every new step.
  EXPECT_EQ(Row(r, "overlap").comparison.status, DiffStatus::kUnchanged);
  EXPECT_EQ(Row(r, "overlap").comparison.decided_by, DecidedBy::kSpread);
}

TEST(DiffProfiles, SubResolutionPerCallChangesAreUnchanged) {
  // 4 calls each side, no steps. "small": per call 65,536 -> 95,536 ns (+30,000 ns, +45.8%), below
  // a 65,536 ns clock; "large": per call 65,536 -> 196,608 ns (+131,072 ns: two quanta).
  ProfileRow small = Kernel("small", {}), large = Kernel("large", {});
  small.count = large.count = 4;
  small.total_ns = large.total_ns = 4 * 65536;
  ProfileRow small2 = small, large2 = large;
  small2.total_ns = 4 * 95536;
  large2.total_ns = 4 * 196608;
  const Baseline base = Profile({small, large}), next = Profile({small2, large2});

  const DiffResult exact = DiffProfiles(base, next, {});
  EXPECT_EQ(Row(exact, "small").comparison.status, DiffStatus::kRegressed);
  EXPECT_EQ(Row(exact, "small").comparison.decided_by, DecidedBy::kThreshold);

  for (bool on_base : {false, true}) {  // the resolution of either side counts
    DiffOptions options;
    (on_base ? options.base_resolution_ns : options.new_resolution_ns) = 65536;
    const DiffResult r = DiffProfiles(base, next, options);
    EXPECT_EQ(Row(r, "small").comparison.status, DiffStatus::kUnchanged) << on_base;
    EXPECT_EQ(Row(r, "small").comparison.decided_by, DecidedBy::kResolution) << on_base;
    EXPECT_STREQ(DecidedByName(Row(r, "small").comparison.decided_by), "resolution");
    EXPECT_EQ(Row(r, "small").comparison.delta_ns, 4 * 30000);  // the delta is still reported
    EXPECT_EQ(Row(r, "large").comparison.status, DiffStatus::kRegressed) << on_base;
    EXPECT_EQ(r.counts.unchanged, 1u);
    EXPECT_TRUE(r.regressed);
  }
}

}  // namespace TM_UNITY_ID
}  // namespace
}  // namespace tensormorph
