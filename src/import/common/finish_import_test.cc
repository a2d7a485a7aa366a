#include "import/common/finish_import.h"

#include <gtest/gtest.h>

#include <vector>

namespace tensormorph {
namespace {
namespace TM_UNITY_ID {  // unique per file in a unity batch (tests/CMakeLists.txt)

using Backends = std::vector<Backend>;

Device MakeDevice(Backend backend) {
  Device d;
  d.backend = backend;
  return d;
}

Kernel KernelOn(uint32_t device, int64_t start_ns = 0) {
  Kernel k;
  k.device = device;
  k.start_ns = start_ns;
  k.duration_ns = 10;
  return k;
}

Backends Derive(Trace& trace, const BackendFacts& facts = {}) {
  DeriveBackends(facts, &trace);
  return trace.backends;
}

// nsys, rocpd, xplane, chrome: API calls or slices mean the host was traced.
TEST(FinishImport, HostRowsGiveCpu) {
  Trace api;
  api.api_calls.push_back(ApiCall{});
  EXPECT_EQ(Derive(api), Backends{Backend::kCpu});
  Trace slices;
  slices.slices.push_back(Slice{});
  EXPECT_EQ(Derive(slices), Backends{Backend::kCpu});
}

// Nsight Compute, rocprof-compute: device rows only, so no cpu; an empty trace has no backend.
TEST(FinishImport, DeviceRowsOnlyGiveNoCpu) {
  Trace t;
  t.devices.push_back(MakeDevice(Backend::kCuda));
  t.kernels.push_back(KernelOn(0));
  EXPECT_EQ(Derive(t), Backends{Backend::kCuda});
  Trace empty;
  EXPECT_EQ(Derive(empty), Backends{});
}

// ONNX Runtime, WebGPU, xctrace, native: the profiler always records the host.
TEST(FinishImport, HostTracedGivesCpuWithoutHostRows) {
  Trace t;
  EXPECT_EQ(Derive(t, {.host_traced = true}), Backends{Backend::kCpu});
}

// nsys, rocprof, native: a listed device that ran nothing adds no backend; one that ran a kernel
// or a transfer adds its own.
TEST(FinishImport, OnlyDevicesThatRanCount) {
  Trace t;
  t.devices = {MakeDevice(Backend::kCuda), MakeDevice(Backend::kRocm)};
  EXPECT_EQ(Derive(t), Backends{});
  Transfer x;
  x.device = 1;
  t.transfers.push_back(x);
  EXPECT_EQ(Derive(t), Backends{Backend::kRocm});
}

// ONNX Runtime, WebGPU, xctrace, xplane, a chrome-json export naming its devices: every listed
// device counts, whether it ran something or not.
TEST(FinishImport, EveryDeviceCountsWhenTheImporterSaysSo) {
  Trace t;
  t.devices = {MakeDevice(Backend::kWebGpu)};
  EXPECT_EQ(Derive(t, {.host_traced = true, .every_device = true}),
            (Backends{Backend::kCpu, Backend::kWebGpu}));
  Trace metal;
  EXPECT_EQ(Derive(metal, {.host_traced = true, .every_device = true}), Backends{Backend::kCpu});
}

// nsys, rocprof, rocpd, Nsight Compute, Kineto's guessed runtime: rows that name no device ran
// on the importer's backend.
TEST(FinishImport, DevicelessRowsTakeTheImportersBackend) {
  Trace t;
  t.kernels.push_back(KernelOn(kNoDevice));
  EXPECT_EQ(Derive(t), Backends{});
  EXPECT_EQ(Derive(t, {.deviceless = Backend::kRocm}), Backends{Backend::kRocm});
  t.api_calls.push_back(ApiCall{});
  EXPECT_EQ(Derive(t, {.deviceless = Backend::kCuda}), (Backends{Backend::kCpu, Backend::kCuda}));
}

// A native file's header list is kept as written.
TEST(FinishImport, GivenBackendsAreKept) {
  Trace t;
  t.backends = {Backend::kMetal};
  t.api_calls.push_back(ApiCall{});
  EXPECT_EQ(Derive(t, {.host_traced = true, .given = true}), Backends{Backend::kMetal});
}

// Each backend once, in the enum's order, whatever the devices' order.
TEST(FinishImport, BackendsAreSortedAndUnique) {
  Trace t;
  t.devices = {MakeDevice(Backend::kRocm), MakeDevice(Backend::kCuda), MakeDevice(Backend::kRocm)};
  t.kernels = {KernelOn(0), KernelOn(1), KernelOn(2)};
  t.slices.push_back(Slice{});
  EXPECT_EQ(Derive(t), (Backends{Backend::kCpu, Backend::kCuda, Backend::kRocm}));
}

TEST(FinishImport, SortsUnlessKernelsAreInOrder) {
  Trace t, kept;
  for (Trace* trace : {&t, &kept}) {
    trace->devices = {MakeDevice(Backend::kCuda)};
    trace->kernels = {KernelOn(0, 50), KernelOn(0, 20)};
  }
  FinishImport(&t);
  EXPECT_EQ(t.kernels[0].start_ns, 20);
  EXPECT_EQ(t.span_start_ns, 20);
  EXPECT_EQ(t.span_end_ns, 60);
  EXPECT_EQ(t.backends, Backends{Backend::kCuda});
  FinishImport(&kept, {.order = TableOrder::kKernelsInOrder});
  EXPECT_EQ(kept.kernels[0].start_ns, 50);
  EXPECT_EQ(kept.span_start_ns, 20);
}

}  // namespace TM_UNITY_ID
}  // namespace
}  // namespace tensormorph
