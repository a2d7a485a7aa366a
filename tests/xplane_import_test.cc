// End-to-end: JAX / XLA profiles through the binary and the library.
//
// Expected numbers come from an independent walk of the protobuf wire format written here (no
// protobuf library, no .proto, no code from src/): XSpace field 1 = planes; XPlane 2 = name,
// 3 = lines, 4 = event metadata map, 5 = stat metadata map, 6 = stats; XLine 2 = name,
// 4 = events; XEvent 1 = metadata id, 3 = duration_ps, 4 = stats; XStat 1 = metadata id,
// 3/4 = integer, 5 = text, 7 = reference to the stat metadata whose name is the text. A kernel is
// an event on a "Stream #" line of a "/device:GPU:N" plane whose name does not start with
// copy / memcpy / memset; its duration in ns is duration_ps / 1000 rounded half away from zero.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdint>
#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>
#include <string>
#include <tuple>
#include <vector>

#include "support/run_tensormorph.h"
#include "tensormorph/import/importer.h"

namespace {
namespace TM_UNITY_ID {  // unique per file in a unity batch (tests/CMakeLists.txt)

namespace fs = std::filesystem;
using nlohmann::json;
using tensormorph::testing::RunResult;
using tensormorph::testing::RunTensormorph;

const std::string kLegacy = TM_SHARED_DATA "/kineto/jax_xplane/jax06_mi300_conv3d.legacy.xplane.pb";
const std::string kCurrent = TM_SHARED_DATA "/kineto/jax_xplane/jax08_mi300_conv3d.tw003.xplane.pb";
// TensorFlow on 8 NVIDIA GPUs (tensorflow/profiler's demo): device_vendor is empty.
const std::string kTensorFlowNvidia =
    TM_SHARED_DATA "/kineto/xplane_nvidia/tf_gpu_multiworker_8gpu.xplane.pb";
const std::string kJsonFixture = TM_SOURCE_DIR "/tests/data/jax/jax08_gpu1_slice.trace.json";
const std::string kTpu =
    TM_SHARED_DATA "/kineto/jax_xplane/xprof_tpu_v6e_4chip_inference_2.xplane.pb";

std::string ReadFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

// ---- the independent wire-format walk -------------------------------------------------------

struct WireField {
  uint32_t number = 0;
  uint64_t varint = 0;    // wire type 0
  std::string_view text;  // wire type 2
};

// All fields of one message; fixed-width fields are skipped, a malformed message fails the test.
std::vector<WireField> Fields(std::string_view data) {
  std::vector<WireField> out;
  size_t pos = 0;
  auto varint = [&]() {
    uint64_t v = 0;
    for (int shift = 0;; shift += 7) {
      EXPECT_LT(pos, data.size());
      if (pos >= data.size()) return v;
      const uint8_t b = static_cast<uint8_t>(data[pos++]);
      v |= uint64_t{b & 0x7fu} << shift;
      if (!(b & 0x80)) return v;
    }
  };
  while (pos < data.size()) {
    const uint64_t key = varint();
    WireField f;
    f.number = static_cast<uint32_t>(key >> 3);
    switch (key & 7) {
      case 0:
        f.varint = varint();
        break;
      case 1:
        pos += 8;
        break;
      case 2: {
        const uint64_t n = varint();
        f.text = data.substr(pos, n);
        pos += n;
        break;
      }
      case 5:
        pos += 4;
        break;
      default:
        ADD_FAILURE() << "wire type " << (key & 7);
        return out;
    }
    out.push_back(f);
  }
  return out;
}

struct OracleEvent {
  std::string line, name, display_name, hlo_op;
  uint64_t duration_ps = 0, correlation = 0;
};

struct OraclePlane {
  std::string name, vendor;
  uint64_t compute_cap_major = 0, compute_cap_minor = 0;
  uint64_t core_count = 0, memory_size = 0;
  std::string device_type;  // device_type_string (TPU planes)
  std::vector<OracleEvent> events;
};

// id -> name of a metadata map (field `map_field` of the plane; entry 1 = key, 2 = value whose
// field 2 is the name).
std::map<uint64_t, std::string> MetadataNames(const std::vector<WireField>& plane, uint32_t field,
                                              uint32_t name_field = 2) {
  std::map<uint64_t, std::string> names;
  for (const WireField& entry : plane) {
    if (entry.number != field) continue;
    uint64_t key = 0;
    std::string name;
    for (const WireField& kv : Fields(entry.text)) {
      if (kv.number == 1) key = kv.varint;
      if (kv.number == 2) {
        for (const WireField& v : Fields(kv.text)) {
          if (v.number == name_field) name = std::string(v.text);
        }
      }
    }
    names[key] = name;
  }
  return names;
}

std::vector<OraclePlane> WalkXSpace(const std::string& path) {
  const std::string data = ReadFile(path);
  std::vector<OraclePlane> planes;
  for (const WireField& p : Fields(data)) {
    if (p.number != 1) continue;
    const std::vector<WireField> plane = Fields(p.text);
    OraclePlane out;
    const auto stat_names = MetadataNames(plane, 5);
    const auto event_names = MetadataNames(plane, 4);
    const auto display_names = MetadataNames(plane, 4, 4);  // XEventMetadata.display_name
    // A stat's (name, text or integer).
    auto stat = [&](std::string_view bytes, std::string* name, std::string* text, uint64_t* n) {
      for (const WireField& f : Fields(bytes)) {
        if (f.number == 1) *name = stat_names.count(f.varint) ? stat_names.at(f.varint) : "";
        if (f.number == 3 || f.number == 4) *n = f.varint;
        if (f.number == 5) *text = std::string(f.text);
        if (f.number == 7) *text = stat_names.count(f.varint) ? stat_names.at(f.varint) : "";
      }
    };
    for (const WireField& f : plane) {
      if (f.number == 2) out.name = std::string(f.text);
      if (f.number == 6) {
        std::string name, text;
        uint64_t n = 0;
        stat(f.text, &name, &text, &n);
        if (name == "device_vendor") out.vendor = text;
        if (name == "compute_cap_major") out.compute_cap_major = n;
        if (name == "compute_cap_minor") out.compute_cap_minor = n;
        if (name == "core_count") out.core_count = n;
        if (name == "memory_size") out.memory_size = n;
        if (name == "device_type_string") out.device_type = text;
      }
      if (f.number != 3) continue;
      std::string line_name;
      std::vector<std::string_view> events;
      for (const WireField& l : Fields(f.text)) {
        if (l.number == 2) line_name = std::string(l.text);
        if (l.number == 4) events.push_back(l.text);
      }
      for (std::string_view e : events) {
        OracleEvent ev;
        ev.line = line_name;
        for (const WireField& ef : Fields(e)) {
          if (ef.number == 1) {
            ev.name = event_names.count(ef.varint) ? event_names.at(ef.varint) : "";
            ev.display_name = display_names.count(ef.varint) ? display_names.at(ef.varint) : "";
          }
          if (ef.number == 3) ev.duration_ps = ef.varint;
          if (ef.number == 4) {
            std::string name, text;
            uint64_t n = 0;
            stat(ef.text, &name, &text, &n);
            if (name == "correlation_id") ev.correlation = n;
            if (name == "hlo_op") ev.hlo_op = text;
          }
        }
        out.events.push_back(ev);
      }
    }
    planes.push_back(std::move(out));
  }
  return planes;
}

bool IsCopyName(std::string name) {
  for (char& c : name) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return name.rfind("copy", 0) == 0 || name.rfind("memcpy", 0) == 0 || name.rfind("memset", 0) == 0;
}

struct Totals {
  uint64_t count = 0;
  int64_t total_ns = 0;
  bool operator==(const Totals&) const = default;
};

struct Expected {
  std::map<int, Totals> kernels_by_gpu, copies_by_gpu;
  std::map<int, std::set<std::string>> stream_lines_by_gpu;  // "Stream #" lines with kernels
  std::map<int, std::pair<uint64_t, uint64_t>> compute_cap_by_gpu;
  std::map<int, std::pair<uint64_t, uint64_t>> cores_and_memory_by_gpu;
  std::map<std::string, Totals> kernels_by_name;
  std::map<std::string, Totals> kernels_by_hlo_op;  // kernels with an hlo_op
  std::map<int, std::map<std::string, Totals>> names_by_gpu, hlo_ops_by_gpu;
  std::set<std::string> vendors;
  int gpu_planes = 0;
  uint64_t host_correlated = 0;  // host events with a correlation_id (launch calls)
};

Expected Expect(const std::string& path) {
  Expected x;
  for (const OraclePlane& p : WalkXSpace(path)) {
    if (p.name.rfind("/device:GPU:", 0) == 0) {
      ++x.gpu_planes;
      x.vendors.insert(p.vendor);
      const int gpu = std::stoi(p.name.substr(12));
      x.compute_cap_by_gpu[gpu] = {p.compute_cap_major, p.compute_cap_minor};
      x.cores_and_memory_by_gpu[gpu] = {p.core_count, p.memory_size};
      for (const OracleEvent& e : p.events) {
        if (e.line.rfind("Stream #", 0) != 0) continue;
        if (!IsCopyName(e.name)) x.stream_lines_by_gpu[gpu].insert(e.line);
        const int64_t ns = static_cast<int64_t>((e.duration_ps + 500) / 1000);
        Totals& t = IsCopyName(e.name) ? x.copies_by_gpu[gpu] : x.kernels_by_gpu[gpu];
        ++t.count;
        t.total_ns += ns;
        if (IsCopyName(e.name)) continue;
        for (Totals* by_name : {&x.kernels_by_name[e.name], &x.names_by_gpu[gpu][e.name]}) {
          ++by_name->count;
          by_name->total_ns += ns;
        }
        if (!e.hlo_op.empty()) {
          for (Totals* op : {&x.kernels_by_hlo_op[e.hlo_op], &x.hlo_ops_by_gpu[gpu][e.hlo_op]}) {
            ++op->count;
            op->total_ns += ns;
          }
        }
      }
    } else if (p.name == "/host:CPU") {
      for (const OracleEvent& e : p.events) x.host_correlated += e.correlation != 0;
    }
  }
  return x;
}

// ---- the same numbers from the importer -----------------------------------------------------

struct Imported {
  std::map<int, Totals> kernels_by_gpu, copies_by_gpu;
  std::map<int, std::set<int64_t>> streams_by_gpu;
  std::map<std::string, Totals> kernels_by_name;
  std::set<tensormorph::Backend> kernel_backends;
};

Imported Import(const tensormorph::Trace& t) {
  Imported m;
  for (const tensormorph::Kernel& k : t.kernels) {
    const tensormorph::Device& d = t.devices.at(k.device);
    ++m.kernels_by_gpu[d.index].count;
    m.kernels_by_gpu[d.index].total_ns += k.duration_ns;
    ++m.kernels_by_name[std::string(t.str(k.name))].count;
    m.kernels_by_name[std::string(t.str(k.name))].total_ns += k.duration_ns;
    m.kernel_backends.insert(d.backend);
    m.streams_by_gpu[d.index].insert(k.stream);
  }
  for (const tensormorph::Transfer& x : t.transfers) {
    const int gpu = t.devices.at(x.device).index;
    ++m.copies_by_gpu[gpu].count;
    m.copies_by_gpu[gpu].total_ns += x.duration_ns;
  }
  return m;
}

tensormorph::Trace Load(const std::string& path) {
  tensormorph::StatusOr<tensormorph::Trace> t = tensormorph::LoadTrace(path, {});
  EXPECT_TRUE(t.ok()) << t.status().message();
  return t.ok() ? std::move(t).value() : tensormorph::Trace{};
}

json RunJson(const std::vector<std::string>& args) {
  RunResult r = RunTensormorph(args);
  EXPECT_TRUE(r.Clean()) << r.Describe();
  EXPECT_EQ(r.exit_code, 0) << r.Describe();
  return json::parse(r.out, nullptr, false);
}

void CheckAgainstOracle(const std::string& path) {
  const Expected x = Expect(path);
  const tensormorph::Trace trace = Load(path);
  const Imported m = Import(trace);
  EXPECT_EQ(x.vendors, std::set<std::string>{"AMD"});
  EXPECT_EQ(trace.described_device_count, x.gpu_planes);
  EXPECT_EQ(m.kernels_by_gpu, x.kernels_by_gpu);
  EXPECT_EQ(m.copies_by_gpu, x.copies_by_gpu);
  EXPECT_EQ(m.kernels_by_name, x.kernels_by_name);
  EXPECT_EQ(m.kernel_backends, std::set<tensormorph::Backend>{tensormorph::Backend::kRocm});
  EXPECT_EQ(trace.api_calls.size(), x.host_correlated);
}

fs::path TempDir(const std::string& name) {
  const fs::path dir =
      fs::temp_directory_path() / ("tm_xplane_" + name + "_" + std::to_string(::getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir);
  return dir;
}

int64_t Sum(const std::map<int, Totals>& by_gpu) {
  int64_t total = 0;
  for (const auto& [gpu, t] : by_gpu) total += t.total_ns;
  return total;
}

TEST(XplaneImport, Jax08KernelsMatchWireWalk) {
  CheckAgainstOracle(kCurrent);
  // The oracle's numbers, pinned: 8 GPUs, 60 kernels on GPU 0 (35 of them rocclr copy kernels)
  // and 25 on each other GPU.
  const Expected x = Expect(kCurrent);
  ASSERT_EQ(x.kernels_by_gpu.size(), 8u);
  EXPECT_EQ(x.kernels_by_gpu.at(0), (Totals{60, 4000165}));
  EXPECT_EQ(x.kernels_by_gpu.at(1), (Totals{25, 3345845}));
  EXPECT_EQ(x.kernels_by_gpu.at(7), (Totals{25, 3502165}));
  EXPECT_EQ(x.kernels_by_name.at("Im3d2Col.kd").count, 40u);
  const tensormorph::Trace t = Load(kCurrent);
  EXPECT_EQ(t.format, "jax-xplane");
  EXPECT_NE(t.format_version.find("current"), std::string::npos) << t.format_version;
  ASSERT_EQ(t.devices.size(), 8u);
  for (const tensormorph::Device& d : t.devices) {
    EXPECT_EQ(d.backend, tensormorph::Backend::kRocm);
    EXPECT_EQ(d.vendor, "AMD");
    EXPECT_EQ(d.sm_count, 304);
    EXPECT_EQ(d.compute_major, 9);
    EXPECT_EQ(d.compute_minor, 4);
  }
  // kernel_details " grid:219,40,1 block:256,1,1 private_mem:0 group_mem:49280 occ_pct:0"
  bool found = false;
  for (const tensormorph::Kernel& k : t.kernels) {
    if (k.grid.x == 219 && k.grid.y == 40) {
      found = true;
      EXPECT_EQ(k.block.x, 256u);
      EXPECT_EQ(k.shared_memory_bytes, 49280u);
    }
  }
  EXPECT_TRUE(found);
}

TEST(XplaneImport, Jax06LegacyMatchesWireWalk) {
  CheckAgainstOracle(kLegacy);
  const Expected x = Expect(kLegacy);
  EXPECT_EQ(x.gpu_planes, 8);
  EXPECT_EQ(x.kernels_by_gpu.size(), 1u);  // only GPU 7 recorded kernels in this profile
  EXPECT_EQ(x.kernels_by_gpu.at(7), (Totals{25, 3586493}));
  EXPECT_EQ(x.copies_by_gpu.at(0), (Totals{53, 889028}));  // CopyDeviceToDevice
  const tensormorph::Trace t = Load(kLegacy);
  EXPECT_NE(t.format_version.find("legacy"), std::string::npos) << t.format_version;
  EXPECT_EQ(t.described_device_count, 8);
  EXPECT_EQ(t.devices.size(), 2u);  // the devices that ran something
  // regs:2191487992 static_shared:32462 on every kernel: not believed, and said so.
  for (const tensormorph::Kernel& k : t.kernels) {
    EXPECT_EQ(k.registers_per_thread, 0);
    EXPECT_EQ(k.shared_memory_bytes, 0u);
    EXPECT_FALSE(k.grid.empty());
  }
  bool warned = false;
  for (const std::string& w : t.warnings) warned |= w.find("registers per thread") != w.npos;
  EXPECT_TRUE(warned);
  for (const tensormorph::Transfer& c : t.transfers) EXPECT_EQ(c.bytes, 655360u);
}

// TensorFlow leaves device_vendor empty on NVIDIA GPUs; the CUDA compute capability says NVIDIA.
TEST(XplaneImport, TensorFlowOnNvidiaIsCuda) {
  const Expected x = Expect(kTensorFlowNvidia);
  EXPECT_EQ(x.vendors, std::set<std::string>{""});
  EXPECT_EQ(x.gpu_planes, 8);
  const tensormorph::Trace t = Load(kTensorFlowNvidia);
  const Imported m = Import(t);
  EXPECT_EQ(m.kernels_by_gpu, x.kernels_by_gpu);
  EXPECT_EQ(m.copies_by_gpu, x.copies_by_gpu);
  EXPECT_EQ(m.kernels_by_name, x.kernels_by_name);
  EXPECT_EQ(m.kernel_backends, std::set<tensormorph::Backend>{tensormorph::Backend::kCuda});
  // Eight GPU planes, all described; the devices of the model are those that ran something (in
  // this capture kernels on GPUs 1 and 4, copies on 1, 4 and 6).
  EXPECT_EQ(t.described_device_count, 8);
  std::set<int> busy;
  for (const auto& by_gpu : {x.kernels_by_gpu, x.copies_by_gpu}) {
    for (const auto& [gpu, totals] : by_gpu) busy.insert(gpu);
  }
  EXPECT_EQ(busy, (std::set<int>{1, 4, 6}));
  ASSERT_EQ(t.devices.size(), busy.size());
  EXPECT_EQ(Sum(x.kernels_by_gpu), Sum(m.kernels_by_gpu));
  for (const tensormorph::Device& d : t.devices) {
    SCOPED_TRACE(d.index);
    EXPECT_EQ(d.backend, tensormorph::Backend::kCuda);
    EXPECT_EQ(d.vendor, "NVIDIA");
    const auto [major, minor] = x.compute_cap_by_gpu.at(d.index);
    EXPECT_EQ(major, 7u);  // V100
    EXPECT_EQ(d.compute_major, static_cast<int32_t>(major));
    EXPECT_EQ(d.compute_minor, static_cast<int32_t>(minor));
    // One stream of the model per "Stream #N" line that ran kernels.
    if (x.stream_lines_by_gpu.contains(d.index)) {
      EXPECT_EQ(m.streams_by_gpu.at(d.index).size(), x.stream_lines_by_gpu.at(d.index).size());
    }
  }
  for (const std::string& w : t.warnings) EXPECT_EQ(w.find("neither AMD nor Nvidia"), w.npos) << w;
}

TEST(XplaneImport, InfoShowsFormatBackendAndDevices) {
  const json doc = RunJson({"info", kCurrent, "--format", "json"});
  ASSERT_TRUE(doc.is_object());
  const json& input = doc.at("inputs").at(0);
  EXPECT_EQ(input.at("format"), "jax-xplane") << input.dump();
  const std::string backends = input.at("backends").dump();
  EXPECT_NE(backends.find("rocm"), std::string::npos) << backends;
  ASSERT_EQ(input.at("devices").size(), 8u) << input.dump();
  for (size_t i = 0; i < 8; ++i) {
    EXPECT_EQ(input.at("devices").at(i).at("backend"), "rocm");
    EXPECT_EQ(input.at("devices").at(i).at("index"), static_cast<int>(i));
  }
  RunResult table = RunTensormorph({"info", kCurrent});
  EXPECT_EQ(table.exit_code, 0) << table.Describe();
  EXPECT_NE(table.out.find("jax-xplane"), std::string::npos) << table.out;
}

// JAX names no GPU on ROCm: each device plane says gfx 9.4 (compute_cap 9.4), 304 cores and
// 192.0 GiB, read here from the wire. That is an MI300X's datasheet (304 CUs, 192 GB HBM3) and no
// other entry's, so the device is matched by its hardware, and the roofline has its ceilings.
TEST(XplaneImport, UnnamedMi300xDevicesMatchByHardware) {
  const Expected x = Expect(kCurrent);
  ASSERT_EQ(x.cores_and_memory_by_gpu.size(), 8u);
  for (const auto& [gpu, hardware] : x.cores_and_memory_by_gpu) {
    EXPECT_EQ(x.compute_cap_by_gpu.at(gpu), (std::pair<uint64_t, uint64_t>{9, 4})) << gpu;
    EXPECT_EQ(hardware.first, 304u) << gpu;
    // 206,141,652,992 bytes: 192.0 GiB to the tenth, the 192 GB of HBM3 the runtime reports.
    EXPECT_NEAR(static_cast<double>(hardware.second) / (1ull << 30), 192.0, 0.05) << gpu;
  }
  const json doc = RunJson({"info", kCurrent, "--format", "json"});
  const json& devices = doc.at("inputs").at(0).at("devices");
  ASSERT_EQ(devices.size(), 8u);
  for (const json& d : devices) {
    EXPECT_TRUE(!d.contains("name") || d["name"].is_null() || d["name"] == "") << d;
    EXPECT_EQ(d.at("database").at("key"), "mi300x") << d;
    EXPECT_EQ(d.at("database").at("reason").get<std::string>().rfind("matched by hardware", 0), 0u)
        << d;
  }
  RunResult table = RunTensormorph({"info", kCurrent});
  EXPECT_NE(table.out.find("device database: mi300x (matched by hardware"), std::string::npos)
      << table.out;
}

// A TPU XSpace (4 x TPU v6e): each TPU plane's "XLA Ops" events, walked here from the wire, are
// the kernels of that TPU, named by their instruction (display_name), times rounded from ps to ns
// one by one; the device is named by the plane's device_type_string. kernels, timeline and
// report all run on it.
TEST(XplaneImport, TpuXlaOpsAreTheKernelsOfTheirTpu) {
  std::map<std::string, Totals> by_name;
  std::map<int, Totals> by_tpu;
  std::map<int, std::string> device_type;
  for (const OraclePlane& p : WalkXSpace(kTpu)) {
    if (p.name.rfind("/device:TPU:", 0) != 0) continue;
    const int tpu = std::stoi(p.name.substr(12));
    device_type[tpu] = p.device_type;
    for (const OracleEvent& e : p.events) {
      if (e.line != "XLA Ops") continue;
      const int64_t ns = static_cast<int64_t>((e.duration_ps + 500) / 1000);
      for (Totals* t : {&by_name[e.display_name.empty() ? e.name : e.display_name], &by_tpu[tpu]}) {
        ++t->count;
        t->total_ns += ns;
      }
    }
  }
  ASSERT_EQ(by_tpu.size(), 4u);
  Totals all;
  for (const auto& [tpu, t] : by_tpu) {
    all.count += t.count;
    all.total_ns += t.total_ns;
  }
  const json kernels = RunJson({"kernels", "--format", "json", "--quiet", kTpu});
  EXPECT_EQ(kernels.at("kernel_count"), all.count);
  EXPECT_EQ(kernels.at("total_ns"), all.total_ns);
  std::map<std::string, Totals> got;
  for (const json& row : kernels.at("rows")) {
    Totals& t = got[row.at("name").get<std::string>()];
    t.count += row.at("count").get<uint64_t>();
    t.total_ns += row.at("total_ns").get<int64_t>();
    EXPECT_EQ(row.at("backend"), "other");
  }
  EXPECT_EQ(got, by_name);

  const json info = RunJson({"info", "--format", "json", kTpu});
  const json& devices = info.at("inputs").at(0).at("devices");
  ASSERT_EQ(devices.size(), 4u) << devices;
  for (const json& d : devices) {
    const int index = d.at("index").get<int>();
    EXPECT_EQ(d.at("backend"), "other") << d;
    EXPECT_EQ(d.at("name"), device_type.at(index)) << d;
    EXPECT_EQ(d.at("name"), "TPU v6 Lite") << d;
  }
  const json timeline = RunJson({"timeline", "--format", "json", "--quiet", kTpu});
  EXPECT_EQ(timeline.at("devices").size(), 4u);
  const fs::path html = fs::temp_directory_path() / ("tm_tpu_report_" + std::to_string(getpid()));
  RunResult report = RunTensormorph({"report", "--quiet", kTpu, "-o", html.string()});
  EXPECT_EQ(report.exit_code, 0) << report.Describe();
  EXPECT_GT(fs::file_size(html), 0u);
  fs::remove(html);
}

TEST(XplaneImport, KernelsTotalsMatchWireWalk) {
  const Expected x = Expect(kCurrent);
  const json doc = RunJson({"kernels", kCurrent, "--format", "json"});
  ASSERT_TRUE(doc.is_object());
  EXPECT_EQ(doc.at("kernel_count"), 235);
  EXPECT_EQ(doc.at("total_ns").get<int64_t>(), Sum(x.kernels_by_gpu));
  std::map<std::string, Totals> rows;
  for (const json& r : doc.at("rows")) {
    EXPECT_EQ(r.at("backend"), "rocm");
    rows[r.at("name")] = {r.at("count").get<uint64_t>(), r.at("total_ns").get<int64_t>()};
  }
  EXPECT_EQ(rows, x.kernels_by_name);
}

// The HLO op rows of `tensormorph ops`: (kernels, device_ns) by op name.
std::map<std::string, Totals> OpRows(const std::string& path) {
  const json doc = RunJson({"ops", path, "--format", "json"});
  std::map<std::string, Totals> ops;
  if (!doc.is_object()) return ops;
  for (const json& r : doc.at("rows")) {
    if (r.at("origin") != "op") continue;
    ops[r.at("name")] = {r.at("kernels").get<uint64_t>(), r.at("device_ns").get<int64_t>()};
    for (const json& p : r.at("placements")) EXPECT_EQ(p.at("backend"), "rocm");
  }
  return ops;
}

// Each HLO op's kernels, as the kernels' own hlo_op stats count them.
void CheckOps(const std::string& path) {
  const Expected x = Expect(path);
  ASSERT_FALSE(x.kernels_by_hlo_op.empty());
  EXPECT_EQ(OpRows(path), x.kernels_by_hlo_op);
}

TEST(XplaneImport, OpsShowHloOpsWithTheirKernels) {
  CheckOps(kCurrent);
  CheckOps(kLegacy);
  const Expected x = Expect(kCurrent);
  EXPECT_EQ(x.kernels_by_hlo_op.at("input_transpose_fusion").count, 40u);
}

TEST(XplaneImport, TruncatedFileIsAClearError) {
  const fs::path dir = TempDir("truncated");
  const std::string data = ReadFile(kCurrent);
  for (size_t cut : {data.size() / 2, data.size() - 1, size_t{1000}}) {
    const fs::path cut_path = dir / "cut.xplane.pb";
    std::ofstream(cut_path, std::ios::binary).write(data.data(), static_cast<std::streamsize>(cut));
    RunResult r = RunTensormorph({"kernels", cut_path.string()});
    EXPECT_TRUE(r.Clean()) << r.Describe();
    EXPECT_EQ(r.exit_code, 3) << r.Describe();
    EXPECT_NE(r.err.find("not a readable XSpace"), std::string::npos) << r.Describe();
    EXPECT_NE(r.err.find("cut.xplane.pb"), std::string::npos) << r.Describe();
  }
  fs::remove_all(dir);
}

TEST(XplaneImport, ProfileLogDirReadsTheNewestRun) {
  const fs::path dir = TempDir("logdir");
  const fs::path runs = dir / "plugins" / "profile";
  fs::create_directories(runs / "2025_09_10_15_08_48");
  fs::create_directories(runs / "2026_02_20_13_53_59");
  fs::copy_file(kLegacy, runs / "2025_09_10_15_08_48" / "hostA.xplane.pb");
  fs::copy_file(kCurrent, runs / "2026_02_20_13_53_59" / "hostA.xplane.pb");
  const json doc = RunJson({"kernels", dir.string(), "--format", "json"});
  ASSERT_TRUE(doc.is_object());
  EXPECT_EQ(doc.at("kernel_count"), 235);  // the 2026 run, not the legacy one (25 kernels)

  fs::copy_file(kCurrent, runs / "2026_02_20_13_53_59" / "hostB.xplane.pb");
  RunResult r = RunTensormorph({"kernels", dir.string()});
  EXPECT_EQ(r.exit_code, 3) << r.Describe();
  EXPECT_NE(r.err.find("hostA.xplane.pb, hostB.xplane.pb"), std::string::npos) << r.Describe();
  fs::remove_all(dir);
}

// The documented JSON layout, written from a slice of the same XSpace (tests/data/jax/README.md):
// GPU 1's 25 kernels and their launch calls must give what the XSpace gives for GPU 1.
TEST(JaxJson, FixtureMatchesTheXSpaceSlice) {
  const Expected x = Expect(kCurrent);
  const tensormorph::Trace t = Load(kJsonFixture);
  EXPECT_EQ(t.format, "jax-json");
  ASSERT_EQ(t.devices.size(), 1u);
  EXPECT_EQ(t.devices[0].index, 1);
  EXPECT_EQ(t.devices[0].backend, tensormorph::Backend::kRocm);  // from the hip* launch calls
  const Imported m = Import(t);
  EXPECT_EQ(m.kernels_by_gpu.at(1), x.kernels_by_gpu.at(1));
  EXPECT_EQ(m.kernels_by_gpu.at(1), (Totals{25, 3345845}));
  EXPECT_EQ(m.kernels_by_name, x.names_by_gpu.at(1));
  for (const tensormorph::Kernel& k : t.kernels) EXPECT_EQ(k.stream, 19);
  EXPECT_EQ(t.api_calls.size(), 25u);
  EXPECT_EQ(t.counts.runtime_calls, 25u);
  EXPECT_EQ(t.counts.python_functions, 2u);  // "$profiler.py:101 start_trace", "$<unknown> ..."
  EXPECT_EQ(t.counts.annotations, 1u);       // PjitFunction(forward_3d_conv)

  // Same start times and launch shapes as the xplane.pb path, kernel by kernel.
  const tensormorph::Trace xs = Load(kCurrent);
  std::vector<std::tuple<int64_t, int64_t, uint32_t, uint32_t>> from_json, from_xspace;
  for (const tensormorph::Kernel& k : t.kernels) {
    from_json.emplace_back(k.start_ns, k.duration_ns, k.grid.x, k.shared_memory_bytes);
  }
  for (const tensormorph::Kernel& k : xs.kernels) {
    if (xs.devices.at(k.device).index == 1) {
      from_xspace.emplace_back(k.start_ns, k.duration_ns, k.grid.x, k.shared_memory_bytes);
    }
  }
  EXPECT_EQ(from_json, from_xspace);

  // HLO ops through the binary: the same rows as the XSpace's GPU 1 kernels give.
  EXPECT_EQ(OpRows(kJsonFixture), x.hlo_ops_by_gpu.at(1));
  const json info = RunJson({"info", kJsonFixture, "--format", "json"});
  ASSERT_TRUE(info.is_object());
  EXPECT_EQ(info.at("inputs").at(0).at("format"), "jax-json");
}

}  // namespace TM_UNITY_ID
}  // namespace
