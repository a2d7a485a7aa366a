#include "model/timestamp_quantum.h"

#include <gtest/gtest.h>

#include <vector>

namespace tensormorph {
namespace {
namespace TM_UNITY_ID {  // unique per file in a unity batch (tests/CMakeLists.txt)

TEST(TimestampQuantum, DawnQuantumNeedsEightNonzeroMultiples) {
  // 8 nonzero multiples of 65,536 plus zeros (dispatches shorter than the quantum).
  std::vector<int64_t> values = {65536, 131072, 0, 65536, 196608, 65536, 0, 65536, 131072, 65536};
  EXPECT_EQ(DetectQuantum(values), 65536);
  values.resize(7);  // 6 nonzero values left: too few to tell from chance
  EXPECT_EQ(DetectQuantum(values), 0);
}

TEST(TimestampQuantum, ChromeQuantumAndNegativeCases) {
  std::vector<int64_t> chrome(9, 100000);
  chrome[3] = 300000;
  EXPECT_EQ(DetectQuantum(chrome), 100000);
  chrome[5] = 100001;  // one value off the grid: not quantized
  EXPECT_EQ(DetectQuantum(chrome), 0);
  // Round microsecond values are not a quantum.
  EXPECT_EQ(DetectQuantum(std::vector<int64_t>(20, 5000)), 0);
  EXPECT_EQ(DetectQuantum(std::vector<int64_t>(20, 0)), 0);
}

TEST(TimestampQuantum, TraceStartsRelativeToEarliestKernel) {
  Trace trace;
  for (int i = 0; i < 8; ++i) {
    Kernel k;
    k.start_ns = 1000 + int64_t{i} * 131072;  // an arbitrary origin, then multiples
    k.duration_ns = 65536;
    trace.kernels.push_back(k);
  }
  EXPECT_EQ(DetectTimestampQuantum(trace), 65536);
  trace.kernels[4].start_ns += 1;  // a start off the grid
  EXPECT_EQ(DetectTimestampQuantum(trace), 0);
}

}  // namespace TM_UNITY_ID
}  // namespace
}  // namespace tensormorph
