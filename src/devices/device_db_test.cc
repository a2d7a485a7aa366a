#include "tensormorph/devices/device_db.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>

namespace tensormorph {
namespace {
namespace TM_UNITY_ID {  // unique per file in a unity batch (tests/CMakeLists.txt)

constexpr double kGiB = 1024.0 * 1024 * 1024;

const DeviceSpec* Find(const std::vector<DeviceSpec>& devices, std::string_view key) {
  for (const DeviceSpec& d : devices) {
    if (d.key == key) return &d;
  }
  return nullptr;
}

std::vector<std::string> CandidateKeys(const DeviceMatch& m) {
  std::vector<std::string> keys;
  for (const DeviceSpec* c : m.candidates) keys.push_back(c->key);
  std::sort(keys.begin(), keys.end());
  return keys;
}

DeviceQuery Query(std::string name, std::string arch = "", std::optional<Backend> backend = {},
                  std::optional<int64_t> units = {}, std::optional<int64_t> memory = {}) {
  return DeviceQuery{std::move(name), std::move(arch), backend, units, memory};
}

// ------------------------------------------------------------------------------------------------
// The table itself.

TEST(DeviceTable, EveryEntryHasIdentityAndEveryFigureASource) {
  const std::vector<DeviceSpec>& devices = BuiltInDevices();
  std::set<std::string> keys;
  for (const DeviceSpec& d : devices) {
    SCOPED_TRACE(d.key);
    EXPECT_TRUE(keys.insert(d.key).second) << "duplicate key";
    EXPECT_FALSE(d.key.empty());
    EXPECT_FALSE(d.name.empty());
    EXPECT_FALSE(d.aliases.empty());
    EXPECT_FALSE(d.identity_source.empty());
    EXPECT_GE(d.devices_per_package, 1);
    if (d.backend != Backend::kCpu) {
      EXPECT_FALSE(d.vendor.empty());
      EXPECT_FALSE(d.architecture.empty());
      EXPECT_EQ(NormalizeArchitecture(d.architecture), d.architecture) << "not normalized";
      EXPECT_TRUE(d.Get(Metric::kMemoryBandwidthBytesPerS)) << "a GPU needs its bandwidth";
    }
    for (int i = 0; i < kMetricCount; ++i) {
      auto m = static_cast<Metric>(i);
      const std::optional<Figure>& f = d.Get(m);
      if (!f) continue;
      SCOPED_TRACE(MetricName(m));
      EXPECT_TRUE(std::isfinite(f->value) && f->value > 0);
      EXPECT_GT(f->source.size(), 10u) << "a figure without a source";
      EXPECT_NE(f->confidence, Confidence::kSpecFile);
      if (MetricIsInteger(m)) {
        EXPECT_NEAR(f->value, std::round(f->value), 1e-3);
      }
      if (f->confidence == Confidence::kDerived) {
        EXPECT_NE(f->source.find("derived"), std::string::npos) << "derivations state how";
      }
    }
  }
}

TEST(DeviceTable, CoversTheDevicesTheIssueNames) {
  const std::vector<DeviceSpec>& devices = BuiltInDevices();
  for (const char* key : {"v100-sxm2-16gb",
                          "t4",
                          "a100-sxm4-40gb",
                          "a100-sxm4-80gb",
                          "a100-pcie-40gb",
                          "a100-pcie-80gb",
                          "a10",
                          "l4",
                          "l40s",
                          "h100-sxm5-80gb",
                          "h100-pcie-80gb",
                          "h100-nvl-94gb",
                          "h200-sxm-141gb",
                          "b200",
                          "gb200",
                          "rtx-3080-10gb",
                          "rtx-3090",
                          "rtx-4080",
                          "rtx-4090",
                          "rtx-5080",
                          "rtx-5090",
                          "mi100",
                          "mi210",
                          "mi250",
                          "mi250x",
                          "mi300x",
                          "mi300a",
                          "mi325x",
                          "mi355x",
                          "rx-7900-xtx",
                          "apple-m1-8c",
                          "apple-m2-max-38c",
                          "apple-m3-pro-18c",
                          "apple-m4-max-40c",
                          "cpu"}) {
    EXPECT_NE(Find(devices, key), nullptr) << key;
  }
}

// Issue 40's devices, each found by the name and hardware its runtime reports (the B300's from a
// held-back Kineto trace; the GB300's 250.7 GiB from nvidia-smi; the others from public
// nvidia-smi, deviceQuery and rocminfo output named in the entries' identity sources).
TEST(DeviceTable, DevicesOf2026AndOlderCardsMatchWhatTheirRuntimesReport) {
  struct Case {
    DeviceQuery query;
    const char* key;
  };
  const auto gib = [](double g) { return static_cast<int64_t>(g * kGiB); };
  const Case cases[] = {
      {Query("NVIDIA B300 SXM6 AC", "10.3", Backend::kCuda, 148, gib(268)), "b300"},
      {Query("NVIDIA GB300", "10.3", Backend::kCuda, {}, gib(250.7)), "gb300"},
      {Query("NVIDIA H20", "9.0", Backend::kCuda, 78, gib(95.0)), "h20"},
      {Query("NVIDIA H800", "9.0", Backend::kCuda, 132, gib(79.6)), "h800-sxm5-80gb"},
      {Query("NVIDIA H800 PCIe", "9.0", Backend::kCuda, 114, gib(79.6)), "h800-pcie-80gb"},
      {Query("NVIDIA RTX PRO 6000 Blackwell Workstation Edition", "12.0", Backend::kCuda, 188),
       "rtx-pro-6000-blackwell"},
      {Query("NVIDIA GeForce RTX 2080 Ti", "7.5", Backend::kCuda, 68, 11554586624), "rtx-2080-ti"},
      {Query("GeForce RTX 2080 Ti", "7.5", Backend::kCuda, 68), "rtx-2080-ti"},
      {Query("Quadro RTX 6000", "7.5", Backend::kCuda, 72), "quadro-rtx-6000"},
      {Query("Quadro GP100", "6.0", Backend::kCuda, 56, gib(15.9)), "quadro-gp100"},
      {Query("Tesla P100-SXM2-16GB", "6.0", Backend::kCuda, 56, gib(15.9)), "p100-sxm2-16gb"},
      {Query("Tesla P100-PCIE-16GB", "6.0", Backend::kCuda, 56, gib(15.9)), "p100-pcie-16gb"},
      {Query("Tesla P100-PCIE-12GB", "6.0", Backend::kCuda, 56, 12786073600), "p100-pcie-12gb"},
      {Query("TITAN V", "7.0", Backend::kCuda, 80, 12621381632), "titan-v"},
      {Query("AMD Radeon AI PRO R9700", "gfx1201", Backend::kRocm, 64), "radeon-ai-pro-r9700"},
      {Query("AMD Radeon RX 9070 XT", "gfx1201", Backend::kRocm, 64), "rx-9070-xt"},
      {Query("AMD Radeon 8060S Graphics", "gfx1151", Backend::kRocm, 40), "radeon-8060s"},
  };
  for (const Case& c : cases) {
    DeviceMatch m = MatchDevice(c.query);
    ASSERT_TRUE(m.matched()) << c.query.name << ": " << m.reason;
    EXPECT_EQ(m.spec->key, c.key) << c.query.name;
  }
}

// Narrower formats run at least as fast as wider ones on every part that has them: a figure
// entered in the wrong unit, or a sparse rate not halved beside a dense one, breaks the order.
TEST(DeviceTable, NarrowerMatrixFormatsAreNeverSlower) {
  const Metric order[] = {Metric::kTf32MatrixFlopsPerS, Metric::kBf16MatrixFlopsPerS,
                          Metric::kFp8MatrixFlopsPerS, Metric::kFp6MatrixFlopsPerS,
                          Metric::kFp4MatrixFlopsPerS};
  int compared = 0;
  for (const DeviceSpec& d : BuiltInDevices()) {
    const Figure* wider = nullptr;
    for (Metric m : order) {
      const std::optional<Figure>& f = d.Get(m);
      if (!f) continue;
      if (wider != nullptr) {
        EXPECT_GE(f->value, wider->value) << d.key << ": " << MetricName(m);
        ++compared;
      }
      wider = &*f;
    }
  }
  EXPECT_GT(compared, 40);
  // The microscaling formats of issue 40 (dense): B200 9 PF FP4, MI355X 10 PF FP4 and FP6.
  EXPECT_EQ(Find(BuiltInDevices(), "b200")->Get(Metric::kFp4MatrixFlopsPerS)->value, 9e15);
  EXPECT_EQ(Find(BuiltInDevices(), "mi355x")->Get(Metric::kFp4MatrixFlopsPerS)->value, 10e15);
  EXPECT_EQ(Find(BuiltInDevices(), "mi355x")->Get(Metric::kFp6MatrixFlopsPerS)->value, 10e15);
}

// The table a reviewer reads (src/devices/devices.json) is the table the tool uses: each figure
// of the file, read here with a plain JSON walk and its units applied by hand, equals the loaded
// one, with the file's confidence and its cited source.
TEST(DeviceTable, TheBuiltInTableIsTheJsonFileAReviewerReads) {
  std::ifstream in(std::string(TM_SOURCE_DIR) + "/src/devices/devices.json");
  ASSERT_TRUE(in) << "src/devices/devices.json";
  std::stringstream text;
  text << in.rdbuf();
  const nlohmann::json file = nlohmann::json::parse(text.str());
  const nlohmann::json& sources = file["sources"];
  const std::vector<DeviceSpec>& devices = BuiltInDevices();
  ASSERT_EQ(file["devices"].size(), devices.size());
  std::set<std::string> cited;
  int figures = 0;
  for (size_t i = 0; i < devices.size(); ++i) {
    const nlohmann::json& entry = file["devices"][i];
    const DeviceSpec& d = devices[i];
    SCOPED_TRACE(d.key);
    EXPECT_EQ(entry["key"], d.key);
    for (int m = 0; m < kMetricCount; ++m) {
      const auto metric = static_cast<Metric>(m);
      const std::optional<Figure>& loaded = d.Get(metric);
      if (!entry.contains(MetricName(metric))) {
        EXPECT_FALSE(loaded) << MetricName(metric);
        continue;
      }
      ASSERT_TRUE(loaded) << MetricName(metric);
      const nlohmann::json& f = entry[MetricName(metric)];
      double expected = 0;
      if (f.contains("value")) expected = f["value"].get<double>();
      if (f.contains("gib")) expected = f["gib"].get<double>() * kGiB;
      if (f.contains("mib")) expected = f["mib"].get<double>() * 1024 * 1024;
      if (f.contains("pcie_x16")) {  // 8 GT/s at Gen3, doubling per generation; 128b/130b
        const double gt = 8 * std::pow(2, f["pcie_x16"].get<int>() - 3);
        expected = std::round(f.value("links", 1) * gt * 1e9 * 16 * 128 / 130 / 8);
      }
      EXPECT_EQ(loaded->value, expected) << MetricName(metric);
      EXPECT_EQ(ConfidenceName(loaded->confidence), f.value("confidence", std::string("derived")))
          << MetricName(metric);
      const std::string source = f.contains("cite")
                                     ? sources[f["cite"].get<std::string>()].get<std::string>()
                                     : f.value("source", std::string());
      if (f.contains("cite")) cited.insert(f["cite"].get<std::string>());
      EXPECT_NE(loaded->source.find(source), std::string::npos) << MetricName(metric);
      ++figures;
    }
    if (entry.contains("identity_cite")) cited.insert(entry["identity_cite"].get<std::string>());
  }
  EXPECT_GT(figures, 550);
  EXPECT_EQ(cited.size(), sources.size()) << "every source in the file is cited";
}

// An entry without any FLOP/s figure is one whose sources were not found; the list is explicit
// so that losing a figure by accident fails here.
TEST(DeviceTable, EntriesWithoutPeakFlopsAreTheKnownGaps) {
  std::set<std::string> without;
  for (const DeviceSpec& d : BuiltInDevices()) {
    bool any = false;
    for (int i = 0; i <= static_cast<int>(Metric::kInt8MatrixOpsPerS); ++i) {
      any = any || d.Get(static_cast<Metric>(i)).has_value();
    }
    if (!any) without.insert(d.key);
  }
  std::set<std::string> expected = {"h100-nvl-94gb",    "apple-m1-max-24c",
                                    "apple-m3-10c",     "apple-m3-pro-14c",
                                    "apple-m3-pro-18c", "apple-m3-max-30c",
                                    "apple-m3-max-40c", "apple-m4-8c",
                                    "apple-m4-10c",     "apple-m4-pro-16c",
                                    "apple-m4-pro-20c", "apple-m4-max-32c",
                                    "apple-m4-max-40c", "cpu"};
  EXPECT_EQ(without, expected);
}

TEST(DeviceTable, VendorDocumentedFiguresAreExact) {
  const std::vector<DeviceSpec>& devices = BuiltInDevices();
  // ROCm MI300X table: FP16 matrix 2048 FLOPS/clock/CU -> 1307.4 TFLOPS; 5.3 TB/s.
  const DeviceSpec* mi300x = Find(devices, "mi300x");
  ASSERT_NE(mi300x, nullptr);
  EXPECT_DOUBLE_EQ(mi300x->Get(Metric::kFp16MatrixFlopsPerS)->value, 1307.4e12);
  EXPECT_EQ(mi300x->Get(Metric::kFp16MatrixFlopsPerS)->confidence, Confidence::kVendor);
  EXPECT_DOUBLE_EQ(mi300x->Get(Metric::kMemoryBandwidthBytesPerS)->value, 5.3e12);
  // nsys TARGET_INFO_GPU of the RTX 3080 sample.
  const DeviceSpec* rtx3080 = Find(devices, "rtx-3080-10gb");
  ASSERT_NE(rtx3080, nullptr);
  EXPECT_DOUBLE_EQ(rtx3080->Get(Metric::kMemoryBandwidthBytesPerS)->value, 760080000000.0);
  EXPECT_EQ(rtx3080->Get(Metric::kComputeUnits)->confidence, Confidence::kReported);
  // RTX 5090: Nsight Compute's FFMA peak (21,760/cycle) at the 2407 MHz boost clock.
  const DeviceSpec* rtx5090 = Find(devices, "rtx-5090");
  ASSERT_NE(rtx5090, nullptr);
  EXPECT_NEAR(rtx5090->Get(Metric::kFp32FlopsPerS)->value, 104.75e12, 0.01e12);
  EXPECT_EQ(rtx5090->Get(Metric::kComputeUnits)->value, 170);
}

// The host link is derived from a PCIe generation at x16; recomputed here from the signalling
// rate (8 / 16 / 32 GT/s per lane for Gen3 / 4 / 5) and 128b/130b encoding, not from the table's
// helper.
TEST(DeviceTable, HostLinkIsAPcieX16DataRate) {
  auto x16 = [](double gt_per_s) { return gt_per_s * 1e9 * 16 * 128.0 / 130.0 / 8.0; };
  const double gen3 = x16(8), gen4 = x16(16), gen5 = x16(32);
  EXPECT_NEAR(gen3, 15.754e9, 1e6);
  EXPECT_NEAR(gen4, 31.508e9, 1e6);
  EXPECT_NEAR(gen5, 63.015e9, 1e6);
  EXPECT_EQ(ParseMetric("host_link_bytes_per_s"), Metric::kHostLinkBytesPerS);
  EXPECT_STREQ(MetricName(Metric::kHostLinkBytesPerS), "host_link_bytes_per_s");
  EXPECT_TRUE(MetricIsInteger(Metric::kHostLinkBytesPerS));

  const std::vector<DeviceSpec>& devices = BuiltInDevices();
  int with_link = 0;
  for (const DeviceSpec& d : devices) {
    SCOPED_TRACE(d.key);
    const std::optional<Figure>& link = d.Get(Metric::kHostLinkBytesPerS);
    if (d.backend == Backend::kCpu || d.backend == Backend::kMetal || d.key == "mi300a" ||
        d.key == "gb200") {
      EXPECT_FALSE(link) << "no host<->device link of its own (unified memory or NVLink-C2C)";
    }
    if (!link) continue;
    ++with_link;
    // Figures are per package; each device of a package (MI250's GCDs) has its own x16 link.
    const double per_device = link->value / d.devices_per_package;
    const bool is_rate = std::abs(per_device - gen3) < 1 || std::abs(per_device - gen4) < 1 ||
                         std::abs(per_device - gen5) < 1;
    EXPECT_TRUE(is_rate) << per_device << " B/s is no PCIe Gen3/4/5 x16 rate";
    EXPECT_EQ(link->confidence, Confidence::kDerived);
    EXPECT_NE(link->source.find("x16"), std::string::npos) << "the source states the width";
  }
  EXPECT_GT(with_link, 0);

  auto link_of = [&](std::string_view key) {
    const DeviceSpec* d = Find(devices, key);
    return d != nullptr && d->Get(Metric::kHostLinkBytesPerS)
               ? d->Get(Metric::kHostLinkBytesPerS)->value
               : 0.0;
  };
  EXPECT_NEAR(link_of("a100-sxm4-40gb"), gen4, 1);
  EXPECT_NEAR(link_of("h100-sxm5-80gb"), gen5, 1);
  EXPECT_NEAR(link_of("mi300x"), gen5, 1);
}

// Every entry can be reached by each of its names, given what a runtime would report.
TEST(DeviceTable, EveryAliasMatchesItsOwnEntry) {
  const std::vector<DeviceSpec>& devices = BuiltInDevices();
  for (const DeviceSpec& d : devices) {
    for (const std::string& alias : d.aliases) {
      DeviceQuery q = Query(alias, d.architecture, d.backend);
      if (auto units = d.Get(Metric::kComputeUnits)) {
        q.compute_units = std::llround(units->value) / d.devices_per_package;
      }
      if (auto memory = d.Get(Metric::kMemoryBytes)) {
        q.memory_bytes = std::llround(memory->value) / d.devices_per_package;
      }
      DeviceMatch m = MatchDevice(devices, q);
      ASSERT_TRUE(m.matched()) << d.key << " by \"" << alias << "\": " << m.reason;
      EXPECT_EQ(m.spec->key, d.key) << alias;
    }
  }
}

// ------------------------------------------------------------------------------------------------
// Names as the sample traces under ../shared/data report them.

TEST(MatchDevice, KinetoA100Pg509IsTheSxm4FortyGigabyteBoard) {
  // hta/*.json.gz deviceProperties: CC 8.0, 108 SMs, totalGlobalMem 42297524224.
  DeviceMatch m =
      MatchDevice(Query("NVIDIA A100-PG509-200", "8.0", Backend::kCuda, 108, 42297524224));
  ASSERT_TRUE(m.matched()) << m.reason;
  EXPECT_EQ(m.spec->key, "a100-sxm4-40gb");
}

TEST(MatchDevice, KinetoV100) {
  // hta/trace_diff/test.json.gz: CC 7.0, 80 SMs, 16945512448 bytes.
  DeviceMatch m =
      MatchDevice(Query("Tesla V100-SXM2-16GB", "7.0", Backend::kCuda, 80, 16945512448));
  ASSERT_TRUE(m.matched()) << m.reason;
  EXPECT_EQ(m.spec->key, "v100-sxm2-16gb");
}

TEST(MatchDevice, KinetoRocmNamesWithHipComputeCapability) {
  // tracelens/rocm_*.json.gz: "AMD Instinct MI300X", 9.4, 304 CUs, 192 GiB.
  DeviceMatch mi300x =
      MatchDevice(Query("AMD Instinct MI300X", "9.4", Backend::kRocm, 304, 206141652992));
  ASSERT_TRUE(mi300x.matched()) << mi300x.reason;
  EXPECT_EQ(mi300x.spec->key, "mi300x");
  // tracelens/mi210_gpu_only_trace.json.gz: 9.0, 104 CUs, 64 GiB.
  DeviceMatch mi210 =
      MatchDevice(Query("AMD Instinct MI210", "9.0", Backend::kRocm, 104, 68702699520));
  ASSERT_TRUE(mi210.matched()) << mi210.reason;
  EXPECT_EQ(mi210.spec->key, "mi210");
}

TEST(MatchDevice, GenericRadeonNameOfAnMi250StaysUnmatched) {
  // hta/mi250_minitoy_train_ROCm6_2_kineto.json.gz reports each MI250 GCD as "AMD Radeon
  // Graphics" with 9.0, 104 CUs and 64 GiB: exactly what an MI210 reports too.
  DeviceMatch bare = MatchDevice(Query("AMD Radeon Graphics"));
  EXPECT_FALSE(bare.matched());
  EXPECT_NE(bare.reason.find("generic"), std::string::npos);

  DeviceMatch traced =
      MatchDevice(Query("AMD Radeon Graphics", "9.0", Backend::kRocm, 104, 68702699520));
  EXPECT_FALSE(traced.matched());
  EXPECT_EQ(CandidateKeys(traced), (std::vector<std::string>{"mi210", "mi250"}));

  // gfx90a alone does not help either: MI210, MI250 and MI250X all are gfx90a.
  DeviceMatch by_arch = MatchDevice(Query("AMD Radeon Graphics", "gfx90a:sramecc+:xnack-"));
  EXPECT_FALSE(by_arch.matched());
  EXPECT_EQ(CandidateKeys(by_arch), (std::vector<std::string>{"mi210", "mi250", "mi250x"}));
}

TEST(MatchDevice, GenericNameResolvesWhenArchitectureAndUnitsLeaveOneDevice) {
  // 110 CUs per GCD is only MI250X; gfx908 is only MI100.
  DeviceMatch mi250x = MatchDevice(Query("AMD Radeon Graphics", "gfx90a", Backend::kRocm, 110));
  ASSERT_TRUE(mi250x.matched()) << mi250x.reason;
  EXPECT_EQ(mi250x.spec->key, "mi250x");
  DeviceMatch mi100 = MatchDevice(Query("AMD Radeon Graphics", "gfx908"));
  ASSERT_TRUE(mi100.matched()) << mi100.reason;
  EXPECT_EQ(mi100.spec->key, "mi100");
  // gfx1100 is also the RX 7900 XT/GRE and Radeon PRO W7900/W7800, none of them in the table.
  DeviceMatch navi = MatchDevice(Query("AMD Radeon Graphics", "gfx1100", Backend::kRocm, 96));
  EXPECT_FALSE(navi.matched());
  EXPECT_EQ(CandidateKeys(navi), (std::vector<std::string>{"rx-7900-xtx"}));
}

TEST(MatchDevice, NsysTargetInfoGpuNames) {
  // nsys_sqlite/nsysai_mock_rtx3080_2026.1.sqlite: CC 8.6, 68 SMs, 10736893952 bytes.
  DeviceMatch rtx3080 =
      MatchDevice(Query("NVIDIA GeForce RTX 3080", "8.6", Backend::kCuda, 68, 10736893952));
  ASSERT_TRUE(rtx3080.matched()) << rtx3080.reason;
  EXPECT_EQ(rtx3080.spec->key, "rtx-3080-10gb");
  // jacc_report1_no_cuda_kernels_2026.1.sqlite: CC 8.0, 108 SMs, 42405855232 bytes.
  DeviceMatch a100 =
      MatchDevice(Query("NVIDIA A100-PCIE-40GB", "8.0", Backend::kCuda, 108, 42405855232));
  ASSERT_TRUE(a100.matched()) << a100.reason;
  EXPECT_EQ(a100.spec->key, "a100-pcie-40gb");
}

TEST(MatchDevice, NsightComputeRtx5090) {
  DeviceMatch m = MatchDevice(Query("NVIDIA GeForce RTX 5090", "12.0", Backend::kCuda, 170));
  ASSERT_TRUE(m.matched()) << m.reason;
  EXPECT_EQ(m.spec->key, "rtx-5090");
  EXPECT_EQ(m.spec->architecture, "sm_120");
}

// ------------------------------------------------------------------------------------------------
// Matching rules.

TEST(MatchDevice, NormalizesCaseBrandAndVariantSpelling) {
  EXPECT_EQ(MatchDevice(Query("nvidia a100 sxm 80gb")).spec->key, "a100-sxm4-80gb");
  EXPECT_EQ(MatchDevice(Query("A100 PCIe 80 GB")).spec->key, "a100-pcie-80gb");
  EXPECT_EQ(MatchDevice(Query("NVIDIA A100 80GB PCIe")).spec->key, "a100-pcie-80gb");
  EXPECT_EQ(MatchDevice(Query("NVIDIA H100 80GB HBM3")).spec->key, "h100-sxm5-80gb");
  EXPECT_EQ(MatchDevice(Query("NVIDIA H100 PCIe")).spec->key, "h100-pcie-80gb");
  EXPECT_EQ(MatchDevice(Query("Tesla T4")).spec->key, "t4");
  EXPECT_EQ(MatchDevice(Query("GeForce RTX 4090")).spec->key, "rtx-4090");
  EXPECT_EQ(MatchDevice(Query("Instinct MI355X")).spec->key, "mi355x");
}

TEST(MatchDevice, NeverFallsBackToANeighbouringModel) {
  for (const char* name :
       {"NVIDIA GeForce RTX 3080 Ti", "NVIDIA GeForce RTX 4090 Laptop GPU",
        "NVIDIA GeForce RTX 4090 D", "NVIDIA A10G", "Tesla V100S-PCIE-32GB", "NVIDIA A100-SXM-64GB",
        "NVIDIA PG509-210", "NVIDIA L40", "NVIDIA H200 NVL", "AMD Instinct MI250X / MI250",
        "AMD Instinct MI300X VF", "Apple M1 Ultra", "ACME X1"}) {
    DeviceMatch m = MatchDevice(Query(name));
    EXPECT_FALSE(m.matched()) << name << " matched " << m.spec->key;
  }
}

TEST(MatchDevice, AmbiguousNamesListTheCandidates) {
  DeviceMatch a100 = MatchDevice(Query("A100"));
  EXPECT_FALSE(a100.matched());
  EXPECT_EQ(a100.candidates.size(), 4u);
  DeviceMatch h100 = MatchDevice(Query("NVIDIA H100"));
  EXPECT_FALSE(h100.matched());
  EXPECT_EQ(CandidateKeys(h100),
            (std::vector<std::string>{"h100-nvl-94gb", "h100-pcie-80gb", "h100-sxm5-80gb"}));
  DeviceMatch rtx3080 = MatchDevice(Query("NVIDIA GeForce RTX 3080"));
  EXPECT_FALSE(rtx3080.matched());
  EXPECT_NE(rtx3080.reason.find("ambiguous"), std::string::npos);
  // The memory size picks the board when the SM count is not given.
  EXPECT_EQ(MatchDevice(Query("NVIDIA GeForce RTX 3080", "", {}, {}, 12 * 1073741824LL)).spec->key,
            "rtx-3080-12gb");
}

TEST(MatchDevice, WhatTheTraceSaysMustAgreeWithTheEntry) {
  DeviceMatch arch = MatchDevice(Query("NVIDIA GeForce RTX 4090", "8.6"));
  EXPECT_FALSE(arch.matched());
  EXPECT_NE(arch.reason.find("architecture"), std::string::npos);
  DeviceMatch memory = MatchDevice(Query("NVIDIA A100-SXM4-40GB", "sm_80", Backend::kCuda, 108,
                                         static_cast<int64_t>(80 * kGiB)));
  EXPECT_FALSE(memory.matched());
  EXPECT_NE(memory.reason.find("memory"), std::string::npos);
  DeviceMatch backend = MatchDevice(Query("AMD Instinct MI300X", "", Backend::kCuda));
  EXPECT_FALSE(backend.matched());
  DeviceMatch units = MatchDevice(Query("NVIDIA H100 80GB HBM3", "9.0", Backend::kCuda, 114));
  EXPECT_FALSE(units.matched());
}

// Names the table does not know, matched on the hardware the trace reports (vendor through the
// backend, architecture, SM/CU count, memory) when the name names the entry's model.
TEST(MatchByHardware, VirtualFunctionOfAnMi300x) {
  // tracelens_pairs/mi300_*.json.gz deviceProperties: 9.4, 304 CUs, 205571227648 bytes.
  DeviceMatch m =
      MatchDevice(Query("AMD Instinct MI300X VF", "9.4", Backend::kRocm, 304, 205571227648));
  ASSERT_TRUE(m.matched()) << m.reason;
  EXPECT_EQ(m.spec->key, "mi300x");
  EXPECT_TRUE(m.reason.starts_with("matched by architecture, CU count and memory size"))
      << m.reason;
  // Without memory the MI325X (also gfx942, 304 CUs) is named by neither: still the MI300X.
  DeviceMatch no_memory = MatchDevice(Query("AMD Instinct MI300X VF", "9.4", Backend::kRocm, 304));
  ASSERT_TRUE(no_memory.matched()) << no_memory.reason;
  EXPECT_TRUE(no_memory.reason.starts_with("matched by architecture and CU count"))
      << no_memory.reason;
  // The hardware must agree: 228 CUs is an MI300A's count, not an MI300X's.
  EXPECT_FALSE(MatchDevice(Query("AMD Instinct MI300X VF", "9.4", Backend::kRocm, 228)).matched());
  // Without architecture and CU count there is nothing to confirm the name with.
  DeviceMatch bare = MatchDevice(Query("AMD Instinct MI300X VF", "", Backend::kRocm));
  EXPECT_FALSE(bare.matched());
  EXPECT_NE(bare.reason.find("architecture and CU count"), std::string::npos) << bare.reason;
}

TEST(MatchByHardware, TheTraceDeviceOfTheRealMi300xVf) {
  Device d;
  d.backend = Backend::kRocm;
  d.name = "AMD Instinct MI300X VF";
  d.compute_major = 9;
  d.compute_minor = 4;
  d.sm_count = 304;
  d.total_memory_bytes = 205571227648;
  EXPECT_EQ(QueryForTraceDevice(d).architecture, "9.4");
  DeviceMatch m = MatchTraceDevice(BuiltInDevices(), d);
  ASSERT_TRUE(m.matched()) << m.reason;
  EXPECT_EQ(m.spec->key, "mi300x");
  // rocprof names the gfx target, which is preferred over major.minor.
  d.arch = "gfx942";
  EXPECT_EQ(QueryForTraceDevice(d).architecture, "gfx942");
  EXPECT_EQ(MatchTraceDevice(BuiltInDevices(), d).spec->key, "mi300x");
}

// A device without a name: matched on backend, architecture, CU/SM count and memory alone.
// The figures are the products' datasheets': MI300X 304 CUs and 192 GB HBM3 (as JAX's XPlane
// reports its GPUs: gfx 9.4, 304 CUs, 192.0 GiB); MI210 and an MI250 GCD both 104 CUs, 64 GB.
TEST(MatchByHardware, UnnamedDeviceMatchesOnItsHardwareAlone) {
  DeviceMatch m = MatchDevice(Query("", "9.4", Backend::kRocm, 304, 206158430208));
  ASSERT_TRUE(m.matched()) << m.reason;
  EXPECT_EQ(m.spec->key, "mi300x");
  EXPECT_TRUE(m.reason.starts_with("matched by hardware")) << m.reason;
  EXPECT_NE(m.reason.find("304 CUs, 192.0 GiB"), std::string::npos) << m.reason;

  DeviceMatch h200 = MatchDevice(Query("", "9.0", Backend::kCuda, 132, 150754820096));
  ASSERT_TRUE(h200.matched()) << h200.reason;
  EXPECT_EQ(h200.spec->key, "h200-sxm-141gb");
  // An H100 SXM's hardware is an H800's too (132 SMs, 80 GB): without a name, neither.
  DeviceMatch h100 = MatchDevice(Query("", "9.0", Backend::kCuda, 132, 85520809984));
  EXPECT_FALSE(h100.matched()) << h100.reason;
  EXPECT_EQ(CandidateKeys(h100), (std::vector<std::string>{"h100-sxm5-80gb", "h800-sxm5-80gb"}));

  DeviceMatch two = MatchDevice(Query("", "gfx90a", Backend::kRocm, 104, 68702699520));
  EXPECT_FALSE(two.matched()) << "MI210 and an MI250 GCD have the same hardware";
  EXPECT_EQ(CandidateKeys(two), (std::vector<std::string>{"mi210", "mi250"}));
  EXPECT_NE(two.reason.find("none is picked"), std::string::npos) << two.reason;

  DeviceMatch none = MatchDevice(Query("", "9.4", Backend::kRocm, 100, 206158430208));
  EXPECT_FALSE(none.matched());
  EXPECT_NE(none.reason.find("no entry has its hardware"), std::string::npos) << none.reason;
}

TEST(MatchByHardware, UnnamedDeviceNeedsAllOfItsHardware) {
  // Without the memory size an MI300X's CUs and architecture would also be an MI325X's.
  for (const DeviceQuery& q :
       {Query("", "9.4", Backend::kRocm, 304), Query("", "", Backend::kRocm, 304, 206158430208),
        Query("", "9.4", Backend::kRocm, {}, 206158430208),
        Query("", "9.4", {}, 304, 206158430208)}) {
    DeviceMatch m = MatchDevice(q);
    EXPECT_FALSE(m.matched()) << m.reason;
    EXPECT_NE(m.reason.find("does not name the device, nor report"), std::string::npos) << m.reason;
  }
  Device d;  // the trace's device as JAX reports it, through MatchTraceDevice
  d.backend = Backend::kRocm;
  d.compute_major = 9;
  d.compute_minor = 4;
  d.sm_count = 304;
  d.total_memory_bytes = 206158430208;
  EXPECT_EQ(MatchTraceDevice(BuiltInDevices(), d).spec->key, "mi300x");
}

TEST(MatchByHardware, DgxStationV100FitsTwoEntriesAndPicksNone) {
  // The DGX Station's V100 32GB: sm_70, 80 SMs, 32 GiB, like both the SXM2 and the PCIe board.
  DeviceMatch m =
      MatchDevice(Query("Tesla V100-DGXS-32GB", "7.0", Backend::kCuda, 80, 34089730048));
  EXPECT_FALSE(m.matched());
  EXPECT_EQ(CandidateKeys(m), (std::vector<std::string>{"v100-pcie-32gb", "v100-sxm2-32gb"}));
  EXPECT_NE(m.reason.find("2 entries fit"), std::string::npos) << m.reason;
}

TEST(MatchByHardware, Mi250xOrMi250NameIsToldApartByItsCuCount) {
  // ROCm names MI250 and MI250X GCDs "AMD Instinct MI250X / MI250"; a GCD has 110 CUs on an
  // MI250X and 104 on an MI250. The MI210 (104 CUs, 64 GiB, gfx90a) is not named.
  DeviceMatch x =
      MatchDevice(Query("AMD Instinct MI250X / MI250", "9.0", Backend::kRocm, 110, 68702699520));
  ASSERT_TRUE(x.matched()) << x.reason;
  EXPECT_EQ(x.spec->key, "mi250x");
  DeviceMatch plain =
      MatchDevice(Query("AMD Instinct MI250X / MI250", "gfx90a", Backend::kRocm, 104, 68702699520));
  ASSERT_TRUE(plain.matched()) << plain.reason;
  EXPECT_EQ(plain.spec->key, "mi250");
}

TEST(MatchByHardware, GfxTargetAsTheName) {
  // JAX and rocprof name a device by its gfx target when they know no product name.
  DeviceMatch mi250x = MatchDevice(Query("gfx90a", "", Backend::kRocm, 110));
  ASSERT_TRUE(mi250x.matched()) << mi250x.reason;
  EXPECT_EQ(mi250x.spec->key, "mi250x");
  DeviceMatch mi300x =
      MatchDevice(Query("gfx942:sramecc+:xnack-", "", Backend::kRocm, 304, 205571227648));
  ASSERT_TRUE(mi300x.matched()) << mi300x.reason;
  EXPECT_EQ(mi300x.spec->key, "mi300x");
  // 304 CUs without memory: MI300X or MI325X.
  DeviceMatch either = MatchDevice(Query("gfx942", "", Backend::kRocm, 304));
  EXPECT_FALSE(either.matched());
  EXPECT_EQ(CandidateKeys(either), (std::vector<std::string>{"mi300x", "mi325x"}));
  // 104 CUs and 64 GiB: an MI210 or an MI250 GCD.
  DeviceMatch gcd = MatchDevice(Query("gfx90a", "", Backend::kRocm, 104, 68702699520));
  EXPECT_FALSE(gcd.matched());
  EXPECT_EQ(CandidateKeys(gcd), (std::vector<std::string>{"mi210", "mi250"}));
}

TEST(MatchByHardware, SameHardwareUnderAnotherModelNameIsNotBorrowed) {
  // The A800 shares the A100 SXM's SMs and memory, not its NVLink; the H200 NVL shares the
  // H200 SXM's, not its clocks; the RTX PRO 6000 Server Edition the Workstation Edition's, not its
  // power; a V100S is not a V100.
  for (const DeviceQuery& q :
       {Query("NVIDIA A800-SXM4-80GB", "8.0", Backend::kCuda, 108, 85051572224),
        Query("NVIDIA RTX PRO 6000 Blackwell Server Edition", "12.0", Backend::kCuda, 188,
              102641958912),
        Query("NVIDIA H200 NVL", "9.0", Backend::kCuda, 132, 150754820096),
        Query("Tesla V100S-PCIE-32GB", "7.0", Backend::kCuda, 80, 34089730048)}) {
    DeviceMatch m = MatchDevice(q);
    EXPECT_FALSE(m.matched()) << q.name << " matched " << m.spec->key;
    EXPECT_FALSE(m.candidates.empty()) << q.name;
    EXPECT_NE(m.reason.find("the name names none of them"), std::string::npos) << m.reason;
  }
}

TEST(MatchDevice, AppleChipsNeedTheirGpuCoreCount) {
  DeviceMatch bare = MatchDevice(Query("Apple M3 Max"));
  EXPECT_FALSE(bare.matched());
  EXPECT_NE(bare.reason.find("compute-unit"), std::string::npos);
  DeviceMatch forty = MatchDevice(Query("Apple M3 Max", "", Backend::kMetal, 40));
  ASSERT_TRUE(forty.matched()) << forty.reason;
  EXPECT_EQ(forty.spec->key, "apple-m3-max-40c");
  EXPECT_FALSE(MatchDevice(Query("Apple M3 Max", "", Backend::kMetal, 35)).matched());
  // A single documented configuration is no exception: a 7-core M1 exists too.
  EXPECT_FALSE(MatchDevice(Query("Apple M1")).matched());
}

TEST(NormalizeArchitecture, ComputeCapabilitiesAndTargets) {
  EXPECT_EQ(NormalizeArchitecture("8.0"), "sm_80");
  EXPECT_EQ(NormalizeArchitecture("80"), "sm_80");
  EXPECT_EQ(NormalizeArchitecture("SM_90"), "sm_90");
  EXPECT_EQ(NormalizeArchitecture("sm90"), "sm_90");
  EXPECT_EQ(NormalizeArchitecture("12.0"), "sm_120");
  EXPECT_EQ(NormalizeArchitecture("gfx90a:sramecc+:xnack-"), "gfx90a");
  EXPECT_EQ(NormalizeArchitecture("GFX942"), "gfx942");
  EXPECT_EQ(NormalizeArchitecture("apple9"), "apple9");
  EXPECT_EQ(NormalizeArchitecture(""), "");
}

// ------------------------------------------------------------------------------------------------
// --device-spec files.

StatusOr<std::vector<DeviceSpec>> Apply(std::string_view text) {
  return ApplyDeviceSpecText(text, "specs.json", BuiltInDevices());
}

TEST(DeviceSpecFile, OverridesFiguresAndAddsDevices) {
  StatusOr<std::vector<DeviceSpec>> loaded = Apply(R"({
    "schema": "tensormorph.device-spec/1",
    "devices": [
      {"key": "a100-sxm4-40gb", "memory_bandwidth_bytes_per_s": 1.40e12,
       "source": "nvbandwidth on node 7", "fp8_matrix_flops_per_s": null},
      {"key": "acme-x1", "name": "ACME X1", "aliases": ["ACME X1 Accelerator"],
       "vendor": "ACME", "backend": "cuda", "architecture": "9.0", "compute_units": 100,
       "fp32_flops_per_s": 5.0e13, "memory_bandwidth_bytes_per_s": 2.0e12,
       "sources": {"fp32_flops_per_s": "ACME X1 datasheet rev 3"}}
    ]})");
  ASSERT_TRUE(loaded.ok()) << loaded.status().message();
  const std::vector<DeviceSpec>& devices = loaded.value();
  EXPECT_EQ(devices.size(), BuiltInDevices().size() + 1);

  const DeviceSpec* a100 = Find(devices, "a100-sxm4-40gb");
  ASSERT_NE(a100, nullptr);
  const Figure& bandwidth = *a100->Get(Metric::kMemoryBandwidthBytesPerS);
  EXPECT_DOUBLE_EQ(bandwidth.value, 1.40e12);
  EXPECT_EQ(bandwidth.confidence, Confidence::kSpecFile);
  EXPECT_EQ(bandwidth.source, "nvbandwidth on node 7");
  // Figures the file does not mention are kept as they were.
  EXPECT_EQ(a100->Get(Metric::kFp32FlopsPerS)->value, 19.5e12);
  EXPECT_EQ(a100->Get(Metric::kFp32FlopsPerS)->confidence, Confidence::kThirdParty);

  DeviceMatch acme = MatchDevice(devices, Query("ACME X1 Accelerator", "sm_90"));
  ASSERT_TRUE(acme.matched()) << acme.reason;
  EXPECT_EQ(acme.spec->architecture, "sm_90");
  EXPECT_EQ(acme.spec->Get(Metric::kFp32FlopsPerS)->source, "ACME X1 datasheet rev 3");
  EXPECT_EQ(acme.spec->Get(Metric::kMemoryBandwidthBytesPerS)->source, "spec file specs.json");
  // The overridden built-in device still matches by its reported name.
  EXPECT_EQ(MatchDevice(devices, Query("NVIDIA A100-PG509-200")).spec->key, "a100-sxm4-40gb");
}

// A figure may say where it comes from: a cited document of the file's "sources", a note, binary
// units for sizes and a PCIe link to derive. The user's figures stay spec-file all the same.
TEST(DeviceSpecFile, FiguresCiteTheFilesSourcesAndTakeUnits) {
  StatusOr<std::vector<DeviceSpec>> loaded = Apply(R"({
    "sources": {"lab": "lab measurements, node 7, 2026-11"},
    "devices": [
      {"key": "acme-x2", "name": "ACME X2", "backend": "rocm", "architecture": "gfx1201",
       "fp16_matrix_flops_per_s": {"value": 191e12, "cite": "lab", "note": "rocblas-bench"},
       "memory_bytes": {"gib": 32, "cite": "lab"},
       "l2_cache_bytes": {"mib": 5.5, "source": "rocminfo"},
       "host_link_bytes_per_s": {"pcie_x16": 4, "links": 2, "cite": "lab"}}
    ]})");
  ASSERT_TRUE(loaded.ok()) << loaded.status().message();
  const DeviceSpec* x2 = Find(loaded.value(), "acme-x2");
  ASSERT_NE(x2, nullptr);
  const Figure& fp16 = *x2->Get(Metric::kFp16MatrixFlopsPerS);
  EXPECT_EQ(fp16.value, 191e12);
  EXPECT_EQ(fp16.source, "lab measurements, node 7, 2026-11; rocblas-bench");
  EXPECT_EQ(fp16.confidence, Confidence::kSpecFile);
  EXPECT_EQ(x2->Get(Metric::kMemoryBytes)->value, 32 * kGiB);
  EXPECT_EQ(x2->Get(Metric::kL2CacheBytes)->value, 5.5 * 1024 * 1024);
  EXPECT_EQ(x2->Get(Metric::kL2CacheBytes)->source, "rocminfo");
  // Two Gen4 x16 links: 2 x 16 GT/s x 16 lanes x 128/130 / 8 bit.
  const Figure& link = *x2->Get(Metric::kHostLinkBytesPerS);
  EXPECT_EQ(link.value, std::round(2 * 16e9 * 16 * 128 / 130 / 8));
  EXPECT_EQ(link.confidence, Confidence::kSpecFile);
  EXPECT_NE(link.source.find("PCIe Gen4 x16"), std::string::npos) << link.source;
  EXPECT_NE(link.source.find("lab measurements"), std::string::npos) << link.source;
}

TEST(DeviceSpecFile, MalformedFilesNameFileEntryAndKey) {
  struct Case {
    const char* text;
    const char* expected;  // a part of the message
  };
  const Case cases[] = {
      {"{\"devices\": [", "specs.json:1:14: not valid JSON"},
      {"{\n  \"devices\": [],\n  oops\n}", "specs.json:3:3: not valid JSON"},
      {"[]", "specs.json: expected an object"},
      {R"({"device": []})", "specs.json: device: unknown key"},
      {R"({"schema": "tensormorph.device-spec/9", "devices": []})", "schema: expected"},
      {R"({"devices": {}})", "devices: missing or not an array"},
      {R"({"devices": [42]})", "devices[0]: expected an object, got 42"},
      {R"({"devices": [{"name": "x"}]})", "devices[0]: \"key\" is missing"},
      {R"({"devices": [{"key": "t4", "fp32_flops": 1}]})",
       "devices[0] (\"t4\"): fp32_flops: unknown key"},
      {R"({"devices": [{"key": "t4", "fp32_flops_per_s": -1}]})",
       "devices[0] (\"t4\"): fp32_flops_per_s: expected a positive number, got -1"},
      {R"({"devices": [{"key": "t4", "fp32_flops_per_s": "8.1e12"}]})",
       "fp32_flops_per_s: expected a positive number, got \"8.1e12\""},
      {R"({"devices": [{"key": "t4", "compute_units": 40.5}]})",
       "compute_units: expected a positive integer, got 40.5"},
      {R"({"devices": [{"key": "t4"}, {"key": "t4"}]})",
       "devices[1] (\"t4\"): key: this key appears twice"},
      {R"({"devices": [{"key": "new", "backend": "cuda"}]})",
       "(\"new\"): name: a new device needs a name"},
      {R"({"devices": [{"key": "new", "name": "New"}]})",
       "(\"new\"): backend: a new device needs a backend"},
      {R"({"devices": [{"key": "new", "name": "New", "backend": "tpu"}]})",
       "backend: expected one of cpu, cuda, rocm, metal, webgpu, other; got \"tpu\""},
      {R"({"devices": [{"key": "t4", "aliases": "Tesla T4"}]})",
       "aliases: expected an array of strings"},
      {R"({"devices": [{"key": "t4", "sources": {"fp32_flops_per_s": "x"}}]})",
       "sources.fp32_flops_per_s: this figure is not given"},
      {R"({"devices": [{"key": "t4", "devices_per_package": 0}]})",
       "devices_per_package: expected an integer from 1 to 64"},
      {R"({"devices": [{"key": "t4", "fp32_flops_per_s": {"value": 8e12, "confidence": "vendor"}}]})",
       "fp32_flops_per_s.confidence: only the built-in table states a confidence"},
      {R"({"devices": [{"key": "t4", "fp32_flops_per_s": {"value": 8e12, "cite": "x"}}]})",
       "fp32_flops_per_s.cite: \"x\" is not a key of the document's \"sources\""},
      {R"({"devices": [{"key": "t4", "memory_bytes": {"value": 1, "gib": 16}}]})",
       "memory_bytes: give exactly one of value, gib, mib, pcie_x16"},
      {R"({"devices": [{"key": "t4", "memory_bandwidth_bytes_per_s": {"gib": 300}}]})",
       "memory_bandwidth_bytes_per_s.gib: only memory_bytes and l2_cache_bytes"},
      {R"({"devices": [{"key": "t4", "host_link_bytes_per_s": {"pcie_x16": 6}}]})",
       "host_link_bytes_per_s.pcie_x16: expected generation 3, 4 or 5, got 6"},
      {R"({"devices": [{"key": "t4", "compute_units": {"value": 40, "links": 2}}]})",
       "compute_units.links: only with pcie_x16"},
      {R"({"devices": [{"key": "t4", "compute_units": {"value": 40, "unit": "SM"}}]})",
       "compute_units.unit: unknown key"},
      {R"({"sources": [], "devices": []})", "sources: expected an object"},
      {R"({"devices": [{"key": "t4", "source": ""}]})", "(\"t4\"): source: expected a non-empty"},
      {R"({"devices": [{"key": "t4", "fp32_flops_per_s": 8e12, "sources": {"fp32_flops_per_s": ""}}]})",
       "sources.fp32_flops_per_s: expected a non-empty string"},
  };
  for (const Case& c : cases) {
    StatusOr<std::vector<DeviceSpec>> loaded = Apply(c.text);
    ASSERT_FALSE(loaded.ok()) << c.text;
    EXPECT_EQ(loaded.status().code(), StatusCode::kUnreadableInput);
    EXPECT_NE(loaded.status().message().find(c.expected), std::string::npos)
        << "message: " << loaded.status().message() << "\nexpected: " << c.expected;
    EXPECT_EQ(loaded.status().message().rfind("specs.json", 0), 0u) << "names the file first";
  }
}

TEST(DeviceSpecFile, MissingFileIsAnIoErrorNamingThePath) {
  StatusOr<std::vector<DeviceSpec>> loaded =
      LoadDeviceSpecs("/nonexistent/devices.json", BuiltInDevices());
  ASSERT_FALSE(loaded.ok());
  EXPECT_EQ(loaded.status().code(), StatusCode::kIoError);
  EXPECT_NE(loaded.status().message().find("/nonexistent/devices.json"), std::string::npos);
}

}  // namespace TM_UNITY_ID
}  // namespace
}  // namespace tensormorph
