// Edits as lists of what they change (replay.h): on a four-event graph whose replay is worked out
// by hand, speedups of one event multiply, the shortest delay wins, an entry that changes nothing
// leaves the edit empty, Changed counts each event once whatever changed it and in whatever order
// edits were merged, and a ReplayScratch is left as it was found.
#include "analysis/whatif/replay.h"

#include <gtest/gtest.h>

#include <vector>

#include "analysis/whatif/step_windows.h"

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

// Every event's time in `scratch`.
std::vector<int64_t> TimesIn(const StepGraph& g, const ReplayScratch& scratch) {
  std::vector<int64_t> out;
  for (uint32_t e = 0; e < g.events(); ++e) out.push_back(scratch.time(e));
  return out;
}

// One window of every event but the first (which keeps its measured time, as any event no window
// holds does).
WindowSlots LastThree(const StepGraph& g) {
  StepWindow w;
  w.events = {1, 2, 3};
  return SlotsOf(g, {w});
}

TEST(GraphEdit, UnchangedReplayIsTheMeasuredTimes) {
  const StepGraph g = TwoItems();
  const WindowSlots slots = LastThree(g);
  EXPECT_EQ(slots.events, (std::vector<uint32_t>{1, 2, 3}));
  EXPECT_EQ(slots.slot_of[0], WindowSlots::kNone);
  const GraphEdit none;
  EXPECT_TRUE(none.empty());
  EXPECT_EQ(none.Changed(g), 0u);
  ReplayScratch scratch(g, slots);
  scratch.Apply(none);
  scratch.Replay(none, {1, 2, 3});
  EXPECT_EQ(TimesIn(g, scratch), g.time);
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
  shorter.Scale(g, 0, 4.0);   // an event no window holds: counted, never replayed
  EXPECT_EQ(faster.Changed(g), 1u);
  EXPECT_EQ(shorter.Changed(g), 2u);
  GraphEdit both = faster;
  both.Merge(g, shorter);
  GraphEdit other_order = shorter;
  other_order.Merge(g, faster);
  EXPECT_EQ(both.Changed(g), 3u);
  EXPECT_EQ(other_order.Changed(g), 3u);
  const WindowSlots slots = LastThree(g);
  ReplayScratch scratch(g, slots);
  for (const GraphEdit* edit : {&both, &other_order, &both}) {
    scratch.Apply(*edit);
    scratch.Replay(*edit, {1, 2, 3});
    EXPECT_EQ(TimesIn(g, scratch), (std::vector<int64_t>{0, 105, 110, 177}));
    // Put back as ReplayWindows does: the next edit starts from the measured state.
    scratch.PutBack({1, 2, 3});
    scratch.Restore(*edit);
    EXPECT_EQ(TimesIn(g, scratch), g.time);
  }
  // Restored: the unchanged replay again.
  scratch.Replay(GraphEdit{}, {1, 2, 3});
  EXPECT_EQ(TimesIn(g, scratch), g.time);
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
