#include "tensormorph/model/copy_kinds.h"

#include <gtest/gtest.h>

namespace tensormorph {
namespace {
namespace TM_UNITY_ID {  // unique per file in a unity batch (tests/CMakeLists.txt)

// The names are those the importers give copies of the shared traces: Kineto (CUDA and ROCm),
// Nsight Systems, XPlane and rocprof.
TEST(CopyKinds, KinetoNamesCarryDirectionAndBothKinds) {
  CopyDescription c = DescribeCopyName("Memcpy HtoD (Pageable -> Device)");
  EXPECT_EQ(c.direction, CopyDirection::kHostToDevice);
  EXPECT_EQ(c.src, MemoryKind::kPageable);
  EXPECT_EQ(c.dst, MemoryKind::kDevice);
  c = DescribeCopyName("Memcpy DtoH (Device -> Pinned)");
  EXPECT_EQ(c.direction, CopyDirection::kDeviceToHost);
  EXPECT_EQ(c.src, MemoryKind::kDevice);
  EXPECT_EQ(c.dst, MemoryKind::kPinned);
  c = DescribeCopyName("Memcpy DtoD (Device -> Device)");
  EXPECT_EQ(c.direction, CopyDirection::kDeviceToDevice);
  c = DescribeCopyName("Memcpy HtoD (Managed Static -> Device Static)");
  EXPECT_EQ(c.src, MemoryKind::kManagedStatic);
  EXPECT_EQ(c.dst, MemoryKind::kDeviceStatic);
  // ROCm's Kineto (tracelens/rocm_sglang_qwen3-8b_decode_hipgraph) says Host, not which kind.
  c = DescribeCopyName("Memcpy DtoH (Device -> Host)");
  EXPECT_EQ(c.direction, CopyDirection::kDeviceToHost);
  EXPECT_EQ(c.dst, MemoryKind::kHost);
  EXPECT_EQ(MemoryKindName(c.dst), "host");
}

TEST(CopyKinds, OtherProfilersNamesCarryTheDirectionOnly) {
  const std::pair<const char*, CopyDirection> names[] = {
      {"[CUDA memcpy Host-to-Device]", CopyDirection::kHostToDevice},
      {"[CUDA memcpy Unified Device-to-Host]", CopyDirection::kDeviceToHost},
      {"[CUDA memcpy Peer-to-Peer]", CopyDirection::kPeerToPeer},
      {"MemcpyD2H", CopyDirection::kDeviceToHost},
      {"MemcpyH2D", CopyDirection::kHostToDevice},
      {"Memcpy DtoD", CopyDirection::kDeviceToDevice},
      {"MEMORY_COPY_HOST_TO_HOST", CopyDirection::kHostToHost},
  };
  for (const auto& [name, direction] : names) {
    const CopyDescription c = DescribeCopyName(name);
    EXPECT_EQ(c.direction, direction) << name;
    EXPECT_EQ(c.src, MemoryKind::kUnknown) << name;
    EXPECT_EQ(c.dst, MemoryKind::kUnknown) << name;
  }
}

TEST(CopyKinds, TokensMustStandAlone) {
  // "HtoD" inside a longer word is no direction; nor is a parenthesis without an arrow a kind.
  EXPECT_EQ(DescribeCopyName("myHtoDcopy").direction, CopyDirection::kUnknown);
  EXPECT_EQ(DescribeCopyName("Memcpy (Pinned)").src, MemoryKind::kUnknown);
  EXPECT_EQ(DescribeCopyName("").direction, CopyDirection::kUnknown);
}

TEST(CopyKinds, DescribeCopiesKeepsWhatTheImporterSet) {
  Trace trace;
  Transfer copy;
  copy.name = trace.strings.Intern("[CUDA memcpy Host-to-Device]");
  copy.src_memory = MemoryKind::kPageable;  // as the Nsight importer sets it from srcKind
  trace.transfers.push_back(copy);
  Transfer fill;
  fill.kind = TransferKind::kMemset;
  fill.name = trace.strings.Intern("Memset (Device)");
  trace.transfers.push_back(fill);
  DescribeCopies(&trace);
  EXPECT_EQ(trace.transfers[0].direction, CopyDirection::kHostToDevice);
  EXPECT_EQ(trace.transfers[0].src_memory, MemoryKind::kPageable);
  EXPECT_EQ(trace.transfers[0].dst_memory, MemoryKind::kUnknown);
  EXPECT_EQ(trace.transfers[1].direction, CopyDirection::kUnknown);
  EXPECT_EQ(CopyDirectionName(CopyDirection::kPeerToPeer), "PtoP");
  EXPECT_EQ(MemoryKindName(MemoryKind::kDeviceStatic), "device_static");
}

}  // namespace TM_UNITY_ID
}  // namespace
}  // namespace tensormorph
