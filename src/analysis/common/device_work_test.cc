// CollectDeviceWork's order (device_work.h): each device's kernels, memcpys and memsets by
// (start, end, kind, row), whatever order the tables hold them in: the tables as the importers
// sort them (one run per stream), reversed, and shuffled, each against a plain sort written here.
#include "analysis/common/device_work.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <tuple>
#include <vector>

#include "model/trace_order.h"

namespace tensormorph {
namespace {
namespace TM_UNITY_ID {  // unique per file in a unity batch (tests/CMakeLists.txt)

// Two devices, five streams, many equal starts and durations.
Trace ManyStreams(uint32_t seed) {
  std::mt19937 random(seed);
  auto pick = [&random](int n) {
    return static_cast<int64_t>(random() % static_cast<uint32_t>(n));
  };
  Trace t;
  t.devices.resize(2);
  for (int i = 0; i < 400; ++i) {
    if (pick(4) == 0) {
      Transfer x;
      x.name = t.strings.Intern(pick(2) == 0 ? "Memcpy HtoD" : "Memset");
      x.kind = pick(2) == 0 ? TransferKind::kMemcpy : TransferKind::kMemset;
      x.device = static_cast<uint32_t>(pick(2));
      x.stream = pick(5);
      x.start_ns = pick(50) * 10;
      x.duration_ns = pick(3) * 5;
      t.transfers.push_back(x);
    } else {
      Kernel k;
      k.name = t.strings.Intern(pick(2) == 0 ? "gemm" : "ncclKernel_AllReduce");
      k.device = static_cast<uint32_t>(pick(3));  // 2: a device the table does not name
      k.stream = pick(5);
      k.start_ns = pick(50) * 10;
      k.duration_ns = pick(3) * 5;
      t.kernels.push_back(k);
    }
  }
  return t;
}

// Each device's items sorted by a plain sort of everything.
std::vector<std::vector<WorkItem>> Expected(const Trace& t) {
  std::vector<std::vector<WorkItem>> out(t.devices.size() + 1);
  auto slot = [&t](uint32_t d) { return d < t.devices.size() ? d : t.devices.size(); };
  for (uint32_t i = 0; i < t.kernels.size(); ++i) {
    const Kernel& k = t.kernels[i];
    out[slot(k.device)].push_back({k.start_ns, k.start_ns + k.duration_ns, k.stream, i,
                                   WorkKind::kKernel, ClassifyKernelName(t.str(k.name))});
  }
  for (uint32_t i = 0; i < t.transfers.size(); ++i) {
    const Transfer& x = t.transfers[i];
    out[slot(x.device)].push_back(
        {x.start_ns, x.start_ns + x.duration_ns, x.stream, i,
         x.kind == TransferKind::kMemset ? WorkKind::kMemset : WorkKind::kMemcpy,
         WorkClass::kMemory});
  }
  for (auto& items : out) {
    std::sort(items.begin(), items.end(), [](const WorkItem& a, const WorkItem& b) {
      return std::tie(a.start_ns, a.end_ns, a.kind, a.row) <
             std::tie(b.start_ns, b.end_ns, b.kind, b.row);
    });
  }
  return out;
}

void ExpectSame(const std::vector<std::vector<WorkItem>>& got,
                const std::vector<std::vector<WorkItem>>& want) {
  ASSERT_EQ(got.size(), want.size());
  for (size_t d = 0; d < got.size(); ++d) {
    ASSERT_EQ(got[d].size(), want[d].size()) << "device " << d;
    for (size_t i = 0; i < got[d].size(); ++i) {
      const WorkItem& a = got[d][i];
      const WorkItem& b = want[d][i];
      EXPECT_TRUE(a.start_ns == b.start_ns && a.end_ns == b.end_ns && a.stream == b.stream &&
                  a.row == b.row && a.kind == b.kind && a.work_class == b.work_class)
          << "device " << d << " item " << i;
    }
  }
}

TEST(DeviceWork, ByStartWhateverTheTablesOrder) {
  for (uint32_t seed = 1; seed <= 5; ++seed) {
    Trace sorted = ManyStreams(seed);
    SortTraceTables(&sorted);  // as every importer leaves them: one run per (device, stream)
    ExpectSame(CollectDeviceWork(sorted), Expected(sorted));
    Trace reversed = ManyStreams(seed);
    SortTraceTables(&reversed);
    std::reverse(reversed.kernels.begin(), reversed.kernels.end());
    std::reverse(reversed.transfers.begin(), reversed.transfers.end());
    ExpectSame(CollectDeviceWork(reversed), Expected(reversed));
    Trace shuffled = ManyStreams(seed);
    std::shuffle(shuffled.kernels.begin(), shuffled.kernels.end(), std::mt19937(seed));
    ExpectSame(CollectDeviceWork(shuffled), Expected(shuffled));
  }
}

}  // namespace TM_UNITY_ID
}  // namespace
}  // namespace tensormorph
