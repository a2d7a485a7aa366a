// The importer on small XSpaces built here with the generated protobuf classes: time arithmetic,
// stat references, vendors, op slices, sniffing, bad input.
#include "import/xplane/xplane_importer.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "import/xplane/plane_readers.h"
#include "import/xplane/xplane.pb.h"

namespace tensormorph::xplane {
namespace {
namespace TM_UNITY_ID {  // unique per file in a unity batch (tests/CMakeLists.txt)

namespace fs = std::filesystem;

class XSpaceBuilder {
 public:
  xplane_pb::XPlane* Plane(const std::string& name) {
    xplane_pb::XPlane* p = space_.add_planes();
    p->set_name(name);
    return p;
  }
  static int64_t StatId(xplane_pb::XPlane* p, const std::string& name) {
    for (const auto& [id, m] : p->stat_metadata()) {
      if (m.name() == name) return id;
    }
    const int64_t id = static_cast<int64_t>(p->stat_metadata().size()) + 1;
    auto& m = (*p->mutable_stat_metadata())[id];
    m.set_id(id);
    m.set_name(name);
    return id;
  }
  static int64_t EventId(xplane_pb::XPlane* p, const std::string& name) {
    const int64_t id = static_cast<int64_t>(p->event_metadata().size()) + 1;
    auto& m = (*p->mutable_event_metadata())[id];
    m.set_id(id);
    m.set_name(name);
    return id;
  }
  static void Text(xplane_pb::XPlane* p, google::protobuf::RepeatedPtrField<xplane_pb::XStat>* s,
                   const std::string& name, const std::string& value, bool by_ref) {
    xplane_pb::XStat* stat = s->Add();
    stat->set_metadata_id(StatId(p, name));
    if (by_ref) {
      stat->set_ref_value(static_cast<uint64_t>(StatId(p, value)));
    } else {
      stat->set_str_value(value);
    }
  }
  static void Number(xplane_pb::XPlane* p, google::protobuf::RepeatedPtrField<xplane_pb::XStat>* s,
                     const std::string& name, uint64_t value) {
    xplane_pb::XStat* stat = s->Add();
    stat->set_metadata_id(StatId(p, name));
    stat->set_uint64_value(value);
  }
  std::string Write(const std::string& name) {
    const fs::path path =
        fs::temp_directory_path() / (name + "_" + std::to_string(::getpid()) + ".xplane.pb");
    std::ofstream out(path, std::ios::binary);
    space_.SerializeToOstream(&out);
    return path.string();
  }
  std::string Serialized() const { return space_.SerializeAsString(); }

 private:
  xplane_pb::XSpace space_;
};

// One GPU (vendor given) with one kernel and one copy, one host thread with their launches.
std::string SmallSpace(XSpaceBuilder& b, const std::string& vendor, int64_t line_ts_ns) {
  xplane_pb::XPlane* gpu = b.Plane("/device:GPU:3");
  XSpaceBuilder::Text(gpu, gpu->mutable_stats(), "device_vendor", vendor, false);
  XSpaceBuilder::Number(gpu, gpu->mutable_stats(), "core_count", 132);
  xplane_pb::XLine* stream = gpu->add_lines();
  stream->set_id(7);
  stream->set_name("Stream #7(Compute)");
  stream->set_timestamp_ns(line_ts_ns);
  xplane_pb::XEvent* k = stream->add_events();
  k->set_metadata_id(XSpaceBuilder::EventId(gpu, "fusion_kernel"));
  k->set_offset_ps(2'000'499);  // 2000.499 ns after the line's base: 2000 ns
  k->set_duration_ps(1'500);    // 1.5 ns: 2 ns, half away from zero
  XSpaceBuilder::Number(gpu, k->mutable_stats(), "correlation_id", 41);
  XSpaceBuilder::Text(gpu, k->mutable_stats(), "kernel_details",
                      "regs:40 static_shared:0 dynamic_shared:512 grid:4,1,1 block:64,1,1 "
                      "occ_pct:25",
                      true);
  XSpaceBuilder::Text(gpu, k->mutable_stats(), "hlo_op", "fusion.3", true);
  XSpaceBuilder::Text(gpu, k->mutable_stats(), "hlo_module", "jit_f", true);
  xplane_pb::XEvent* c = stream->add_events();
  c->set_metadata_id(XSpaceBuilder::EventId(gpu, "MemcpyH2D"));
  c->set_offset_ps(5'000'000);
  c->set_duration_ps(-7);  // corrupt: read as 0
  XSpaceBuilder::Number(gpu, c->mutable_stats(), "correlation_id", 42);
  XSpaceBuilder::Text(gpu, c->mutable_stats(), "memcpy_details", "kind:HtoD size:4096", false);
  xplane_pb::XEvent* agg = stream->add_events();
  agg->set_metadata_id(1);
  agg->set_num_occurrences(9);

  xplane_pb::XPlane* host = b.Plane("/host:CPU");
  xplane_pb::XLine* thread = host->add_lines();
  thread->set_id(100);
  thread->set_name("Host Threads/100");
  thread->set_timestamp_ns(line_ts_ns);
  xplane_pb::XEvent* launch = thread->add_events();
  launch->set_metadata_id(XSpaceBuilder::EventId(host, "cuLaunchKernel"));
  launch->set_offset_ps(1'000'000);
  launch->set_duration_ps(500'000);
  XSpaceBuilder::Number(host, launch->mutable_stats(), "correlation_id", 41);
  xplane_pb::XEvent* frame = thread->add_events();
  frame->set_metadata_id(XSpaceBuilder::EventId(host, "$train.py:10 step"));
  frame->set_offset_ps(0);
  frame->set_duration_ps(9'000'000);
  xplane_pb::XEvent* marker = thread->add_events();
  marker->set_metadata_id(XSpaceBuilder::EventId(host, "ThreadpoolListener::StartRegion"));
  marker->set_offset_ps(10);
  return b.Write("tm_small_" + vendor);
}

TEST(XplaneImporter, ReadsDevicesKernelsCopiesAndLaunches) {
  XSpaceBuilder b;
  // An epoch-based line: timestamp_ns * 1000 does not fit in int64.
  const int64_t base = 1'771'595'639'214'724'894;
  const std::string path = SmallSpace(b, "Nvidia", base);
  XplaneImporter importer;
  StatusOr<Trace> t = ImportWith(importer, path, {});
  ASSERT_TRUE(t.ok()) << t.status().message();
  ASSERT_EQ(t->devices.size(), 1u);
  EXPECT_EQ(t->devices[0].backend, Backend::kCuda);
  EXPECT_EQ(t->devices[0].index, 3);
  EXPECT_EQ(t->devices[0].sm_count, 132);
  ASSERT_EQ(t->kernels.size(), 1u);
  const Kernel& k = t->kernels[0];
  EXPECT_EQ(k.start_ns, base + 2000);
  EXPECT_EQ(k.duration_ns, 2);
  EXPECT_EQ(k.stream, 7);
  EXPECT_EQ(k.link.correlation, 41u);
  EXPECT_EQ(k.registers_per_thread, 40);
  EXPECT_EQ(k.shared_memory_bytes, 512u);
  EXPECT_EQ(k.grid.x, 4u);
  EXPECT_EQ(t->str(k.name), "fusion_kernel");
  ASSERT_EQ(t->transfers.size(), 1u);
  EXPECT_EQ(t->transfers[0].bytes, 4096u);
  EXPECT_EQ(t->transfers[0].duration_ns, 0);
  EXPECT_EQ(t->counts.skipped, 1u);  // the aggregated event
  EXPECT_EQ(t->counts.instants, 1u);
  EXPECT_EQ(t->counts.python_functions, 1u);
  ASSERT_EQ(t->api_calls.size(), 1u);
  EXPECT_EQ(t->str(t->api_calls[0].name), "cuLaunchKernel");
  // The HLO op around the launch, from the kernel's hlo_op.
  bool op = false;
  for (const Slice& s : t->slices) {
    if (s.kind != SliceKind::kOp) continue;
    op = true;
    EXPECT_EQ(t->str(s.name), "fusion.3");
    EXPECT_EQ(s.start_ns, t->api_calls[0].start_ns);
    EXPECT_EQ(s.duration_ns, t->api_calls[0].duration_ns);
    EXPECT_EQ(s.track, t->api_calls[0].track);
  }
  EXPECT_TRUE(op);
  EXPECT_EQ(t->format, "jax-xplane");
  fs::remove(path);
}

TEST(XplaneImporter, UnknownVendorIsOtherWithAWarning) {
  XSpaceBuilder b;
  const std::string path = SmallSpace(b, "Acme", 0);
  StatusOr<Trace> t = ImportWith(XplaneImporter(), path, {});
  ASSERT_TRUE(t.ok());
  EXPECT_EQ(t->devices.at(0).backend, Backend::kOther);
  ASSERT_FALSE(t->warnings.empty());
  fs::remove(path);
}

TEST(XplaneImporter, TimesRoundHalfAwayFromZero) {
  ReadState state;
  EXPECT_EQ(EventTimes(10, 499, 499, &state)->start_ns, 10);
  EXPECT_EQ(EventTimes(10, 499, 499, &state)->duration_ns, 0);
  EXPECT_EQ(EventTimes(10, 500, 500, &state)->start_ns, 11);
  EXPECT_EQ(EventTimes(10, 500, 500, &state)->duration_ns, 1);
  EXPECT_EQ(EventTimes(0, -500, 0, &state)->start_ns, -1);
  EXPECT_EQ(EventTimes(0, -499, 0, &state)->start_ns, 0);
  EXPECT_EQ(EventTimes(0, 0, -5, &state)->duration_ns, 0);
  EXPECT_EQ(state.negative_durations, 1u);
  EXPECT_FALSE(EventTimes(INT64_MAX, INT64_MAX, 0, &state).has_value());
  EXPECT_EQ(state.out_of_range, 1u);
}

TEST(XplaneImporter, SniffsOnlyXSpaces) {
  XSpaceBuilder b;
  const std::string path = SmallSpace(b, "AMD", 5);
  EXPECT_EQ(SniffXSpace(b.Serialized()), 90);
  EXPECT_EQ(SniffXSpace(b.Serialized().substr(0, 12)), 90);  // a short head still decides
  EXPECT_EQ(SniffXSpace(b.Serialized().substr(1)), 90);      // the leading '\n' tag stripped
  EXPECT_EQ(SniffXSpace(""), 0);
  EXPECT_EQ(SniffXSpace("{\"traceEvents\": []}"), 0);
  EXPECT_EQ(SniffXSpace(std::string("\x0a\x05\x12\x03"
                                    "abc",
                                    7)),
            0);
  EXPECT_EQ(SniffXSpace(std::string("\x0a\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff", 11)), 0);
  fs::remove(path);
}

TEST(XplaneImporter, GarbageAndTruncationAreErrors) {
  XSpaceBuilder b;
  const std::string path = SmallSpace(b, "AMD", 5);
  const std::string full = b.Serialized();
  const fs::path bad = fs::temp_directory_path() / ("tm_bad_" + std::to_string(::getpid()));
  for (const std::string& content :
       {full.substr(0, full.size() - 3), std::string("\x0a\xff\xff\x01garbage", 10),
        std::string(1, '\0')}) {
    std::ofstream(bad, std::ios::binary) << content;
    StatusOr<Trace> t = ImportWith(XplaneImporter(), bad.string(), {});
    ASSERT_FALSE(t.ok());
    EXPECT_EQ(t.status().code(), StatusCode::kUnreadableInput);
    EXPECT_NE(t.status().message().find("not a readable XSpace"), std::string::npos);
  }
  std::ofstream(bad, std::ios::binary).flush();  // empty
  StatusOr<Trace> empty = ImportWith(XplaneImporter(), bad.string(), {});
  ASSERT_FALSE(empty.ok());
  EXPECT_NE(empty.status().message().find("empty"), std::string::npos);
  fs::remove(bad);
  fs::remove(path);
}

}  // namespace TM_UNITY_ID
}  // namespace
}  // namespace tensormorph::xplane
