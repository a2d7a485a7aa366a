// Edits as lists of what they change (replay.h): on a four-event graph whose replay is worked out
// by hand, speedups of one event multiply, the shortest delay wins, an entry that changes nothing
// leaves the edit empty, Changed counts each event once whatever changed it and in whatever order
// edits were merged, and a ReplayScratch is left as it was found.
#include "analysis/whatif/replay.h"

#include <gtest/gtest.h>

#include <vector>

namespace tensormorph::whatif {
namespace {
namespace TM_UNITY_ID {  // unique per file in a unity batch (tests/CMakeLists.txt)

// Two items on one stream: the first [0, 105) (100 of duration, 5 of delay), the second released
// by it at 120 (15 of delay) and ending 200 later.
StepGraph TwoItems() {
  StepGraph g;
  g.time = {0, 105, 120, 320};
  g.delay = {0, 5, 15, 0};
  g.collective = {0, 0, 0, 0};
  g.edges = {
      {100, 0, EdgeKind::kDuration}, {0, 1, EdgeKind::kStream}, {200, 2, EdgeKind::kDuration}};
  g.in_begin = {0, 0, 1, 2};
  g.in_end = {0, 1, 2, 3};
  g.order = {0, 1, 2, 3};
  return g;
}

TEST(GraphEdit, UnchangedReplayIsTheMeasuredTimes) {
  const StepGraph g = TwoItems();
  const GraphEdit none;
  EXPECT_TRUE(none.empty());
  EXPECT_EQ(none.Changed(g), 0u);
  ReplayScratch scratch(g);
  scratch.Apply(none);
  ReplayEvents(g, none, g.order, &scratch);
  EXPECT_EQ(scratch.times(), g.time);
  EXPECT_EQ(scratch.scale(), nullptr);  // no per-event speedups made for an edit without any
}

TEST(GraphEdit, SpeedupsMultiplyAndTheShortestDelayWins) {
  const StepGraph g = TwoItems();
  GraphEdit faster, shorter;
  faster.Scale(g, 3, 2.0);
  faster.Scale(g, 3, 1.5);     // 3x: 200 / 3 = 66.7, rounded to 67
  shorter.CapDelay(g, 2, 20);  // longer than the graph's 15: nothing
  EXPECT_TRUE(shorter.empty());
  shorter.CapDelay(g, 2, 9);
  shorter.CapDelay(g, 2, 5);
  shorter.CapDelay(g, 2, 7);  // the least, 5, wins
  EXPECT_EQ(faster.Changed(g), 1u);
  EXPECT_EQ(shorter.Changed(g), 1u);
  GraphEdit both = faster;
  both.Merge(g, shorter);
  GraphEdit other_order = shorter;
  other_order.Merge(g, faster);
  EXPECT_EQ(both.Changed(g), 2u);
  EXPECT_EQ(other_order.Changed(g), 2u);
  ReplayScratch scratch(g);
  for (const GraphEdit* edit : {&both, &other_order}) {
    scratch.Apply(*edit);
    ReplayEvents(g, *edit, g.order, &scratch);
    EXPECT_EQ(scratch.times(), (std::vector<int64_t>{0, 105, 110, 177}));
    // Put back as ReplayWindows does: the next edit starts from the measured state.
    scratch.times() = g.time;
    scratch.Restore(*edit);
    EXPECT_EQ(scratch.delay(), g.delay);
    ASSERT_NE(scratch.scale(), nullptr);
    EXPECT_EQ(scratch.scale()[3], 1.0);
  }
}

TEST(GraphEdit, ChangedCountsEachEventOnce) {
  const StepGraph g = TwoItems();
  GraphEdit a, b;
  a.Flag(g, 2, kGraphLaunch);
  a.CapDelay(g, 2, 0);  // the flagged event again
  b.Scale(g, 3, 2.0);
  b.CapDelay(g, 1, 0);
  b.CapDelay(g, 1, 1);  // event 1 twice
  EXPECT_EQ(a.Changed(g), 1u);
  EXPECT_EQ(b.Changed(g), 2u);
  GraphEdit ab = a, ba = b;
  ab.Merge(g, b);
  ba.Merge(g, a);
  EXPECT_EQ(ab.Changed(g), 3u);
  EXPECT_EQ(ba.Changed(g), 3u);
  // Speedups that multiply back to 1 change nothing, though the edit was touched.
  GraphEdit undone;
  undone.Scale(g, 3, 2.0);
  undone.Scale(g, 3, 0.5);
  EXPECT_FALSE(undone.empty());
  EXPECT_EQ(undone.Changed(g), 0u);
}

}  // namespace TM_UNITY_ID
}  // namespace
}  // namespace tensormorph::whatif
