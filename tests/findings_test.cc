// End-to-end tests of `tensormorph findings` on the shared real traces.
//
// Each rule is checked against the figures another command prints for the same trace (timeline,
// roofline, occupancy, devices) and, where a figure can be recomputed without src/, against an
// independent reading of the Kineto file (tests/support/kineto_events.h: zlib, nlohmann-json,
// exact decimal ns): a rule fires exactly where its condition holds in those figures, and the
// set of traces below has, for every rule, one where it fires and one where it stays silent:
//  - host_launch_gaps: fires on hta/nccl_2rank_rank0_a100; silent on
//    tracelens/rocm_torch_compile_triton.
//  - synchronization: fires on hta/alexnet_a100_cuda_sync; silent on tracelens/mi210_gpu_only.
//  - blocking_copies: fires on alexnet (16 pageable HtoD); silent on nccl_2rank.
//  - launch_bound_kernels: fires on hta_cudagraph (graph kernels left out); silent on
//    rocm_torch_compile_triton.
//  - exposed_communication: fires on nccl_2rank; silent on alexnet.
//  - slow_copies: fires on nccl_2rank (DtoD at 17.5 % of half the HBM rate); silent on alexnet.
//  - below_roof: fires on tracelens_pairs/h100_qwen1.5-0.5b; silent on alexnet (no op shapes).
//  - fp32_matmul: fires on hta_cudagraph (FP32 aten::mm on an A100, TF32 roof) and on
//    hta/trace_diff/test (a V100, FP16 roof); silent on h100_qwen (BF16).
//  - low_occupancy: fires on alexnet (cuBLAS and cuDNN kernels, named as such); silent on the
//    MI300X qwen trace (no launch registers) and on nccl_2rank's NCCL kernel.
//  - stragglers: fires on param_dlrm_8rank (4 of 8 ranks); silent on hta/multirank_sampled.
//  - dominant_op: fires on alexnet (aten::cudnn_convolution, no op shapes) and on the MTIA trace
//    (kernel event_wait, a device the database lacks); silent on the sglang prefill trace
//    (below_roof names its GEMMs) and on nccl_2rank (no op holds 40 %).
//  - memory_near_capacity, memory_fragmentation, memory_growth, allocation_churn:
//    tests/memory_test.cc (MemoryFindings).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <string>
#include <vector>

#include "support/kineto_events.h"
#include "support/run_tensormorph.h"

namespace {
namespace TM_UNITY_ID {  // unique per file in a unity batch (tests/CMakeLists.txt)

namespace fs = std::filesystem;
using nlohmann::json;
using tensormorph::testing::RunTensormorph;

const fs::path kKineto = fs::path(TM_SHARED_DATA) / "kineto";

const char* const kAlexnet = "hta/alexnet_a100_cuda_sync_trace.json.gz";
const char* const kNccl = "hta/nccl_2rank_rank0_a100.json.gz";
const char* const kCudaGraph = "hta_cudagraph/a100_ws16_cudagraph_triton_rank0.json.gz";
const char* const kH100Qwen = "tracelens_pairs/h100_qwen1.5-0.5b_inference.json.gz";
const char* const kMi300Qwen = "tracelens_pairs/mi300_qwen1.5-0.5b_inference.json.gz";
const char* const kMi210 = "tracelens/mi210_gpu_only_trace.json.gz";
const char* const kTriton = "tracelens/rocm_torch_compile_triton.json.gz";
const char* const kHipGraph = "tracelens/rocm_sglang_qwen3-8b_decode_hipgraph.json.gz";
const char* const kMi250 = "hta/mi250_minitoy_train_ROCm6_2_kineto.json.gz";

json RunJson(std::vector<std::string> args, bool reads_traces = true) {
  args.push_back("--format");
  args.push_back("json");
  if (reads_traces) args.push_back("--quiet");
  const auto r = RunTensormorph(args);
  EXPECT_EQ(r.exit_code, 0) << r.Describe();
  return r.exit_code == 0 ? json::parse(r.out) : json::object();
}

json Findings(const std::string& trace, std::vector<std::string> extra = {}) {
  std::vector<std::string> args = {"findings", (kKineto / trace).string()};
  args.insert(args.end(), extra.begin(), extra.end());
  return RunJson(args);
}

std::vector<json> OfRule(const json& doc, const std::string& rule) {
  std::vector<json> out;
  for (const json& f : doc["findings"]) {
    if (f["rule"] == rule) out.push_back(f);
  }
  return out;
}

// The finding of `rule` on the device labelled `label`; null when there is none.
const json* OnDevice(const json& doc, const std::string& rule, const std::string& label) {
  for (const json& f : doc["findings"]) {
    if (f["rule"] == rule && f["where"]["device"] == label) return &f;
  }
  return nullptr;
}

// Device idle from the file itself: span minus the union of kernel, memcpy and memset events.
int64_t IndependentIdleNs(const std::string& trace) {
  std::string error;
  const json doc = tensormorph::testing::ReadTraceExact(kKineto / trace, &error);
  EXPECT_TRUE(error.empty()) << error;
  std::vector<std::pair<int64_t, int64_t>> work;
  for (const json& e : doc["traceEvents"]) {
    if (!e.is_object() || e.value("ph", "") != "X") continue;
    const std::string cat = e.value("cat", "");
    if (cat != "kernel" && cat != "gpu_memcpy" && cat != "gpu_memset") continue;
    const int64_t ts = tensormorph::testing::FieldNanos(e["ts"]).value();
    work.emplace_back(ts, ts + tensormorph::testing::FieldNanos(e["dur"]).value());
  }
  std::sort(work.begin(), work.end());
  int64_t busy = 0, end = work.front().first, last_end = work.front().first;
  for (const auto& [s, e] : work) {
    if (s > end) end = s;
    if (e > end) {
      busy += e - end;
      end = e;
    }
    last_end = std::max(last_end, e);
  }
  return last_end - work.front().first - busy;
}

// The idle-time rules of one device, against timeline --gap 10 (the same threshold): each fires
// exactly when its figure is there, with that figure as its gain and evidence.
void CheckIdleRules(const std::string& trace, std::map<std::string, std::set<bool>>* seen) {
  SCOPED_TRACE(trace);
  const json timeline = RunJson({"timeline", "--gap", "10", (kKineto / trace).string()});
  const json findings = Findings(trace);
  ASSERT_EQ(timeline["devices"].size(), 1u) << "one device per trace here";
  const json& d = timeline["devices"][0];
  const std::string label = d["label"];
  const json& causes = d["gaps"]["by_cause"];

  const json* host = OnDevice(findings, "host_launch_gaps", label);
  const int64_t host_gap_ns = causes["host_launch_delay"]["total_ns"];
  (*seen)["host_launch_gaps"].insert(host != nullptr);
  ASSERT_EQ(host != nullptr, host_gap_ns > 0);
  if (host != nullptr) {
    EXPECT_EQ((*host)["estimated_gain_ns"], host_gap_ns);
    EXPECT_EQ((*host)["evidence"]["gaps"], causes["host_launch_delay"]["count"]);
    EXPECT_EQ((*host)["evidence"]["device_idle_ns"], d["idle_ns"]);
  }
  const json* sync = OnDevice(findings, "synchronization", label);
  (*seen)["synchronization"].insert(sync != nullptr);
  ASSERT_EQ(sync != nullptr, causes["synchronization"]["total_ns"].get<int64_t>() > 0);
  if (sync != nullptr) {
    EXPECT_EQ((*sync)["estimated_gain_ns"], causes["synchronization"]["total_ns"]);
    int64_t by_op = 0;
    for (const json& item : (*sync)["top"]) by_op += item["figures"]["gap_ns"].get<int64_t>();
    EXPECT_LE(by_op, (*sync)["estimated_gain_ns"].get<int64_t>());
  }
  // launch_bound_kernels: count x (call - kernel), at most the idle outside the listed gaps.
  const json& bound = d["launch_latency"]["launch_bound"];
  const int64_t unclaimed = d["idle_ns"].get<int64_t>() - d["gaps"]["total_ns"].get<int64_t>();
  const int64_t want_launch_gain =
      std::min(bound["call_ns"].get<int64_t>() - bound["total_ns"].get<int64_t>(), unclaimed);
  const json* launch = OnDevice(findings, "launch_bound_kernels", label);
  (*seen)["launch_bound_kernels"].insert(launch != nullptr);
  ASSERT_EQ(launch != nullptr, bound["count"].get<int64_t>() > 0 && want_launch_gain > 0);
  if (launch != nullptr) {
    EXPECT_EQ((*launch)["estimated_gain_ns"], want_launch_gain);
    EXPECT_EQ((*launch)["evidence"]["kernels"], bound["count"]);
    EXPECT_EQ((*launch)["evidence"]["graph_kernels_left_out"],
              d["launch_latency"]["graph_kernels"]);
  }
  const json* comm = OnDevice(findings, "exposed_communication", label);
  const int64_t exposed =
      d["communication_ns"].get<int64_t>() - d["comm_comp_overlap_ns"].get<int64_t>();
  (*seen)["exposed_communication"].insert(comm != nullptr);
  ASSERT_EQ(comm != nullptr, exposed > 0);
  if (comm != nullptr) {
    EXPECT_EQ((*comm)["estimated_gain_ns"], exposed);
  }

  // The gap rules never claim an idle nanosecond twice: their gains fit in the device's idle
  // time, recomputed here from the file.
  const int64_t idle = IndependentIdleNs(trace);
  EXPECT_EQ(d["idle_ns"], idle);
  int64_t idle_claimed = 0;
  for (const char* rule : {"host_launch_gaps", "synchronization", "launch_bound_kernels"}) {
    if (const json* f = OnDevice(findings, rule, label)) {
      idle_claimed += (*f)["estimated_gain_ns"].get<int64_t>();
    }
  }
  if (const json* f = OnDevice(findings, "blocking_copies", label)) {
    idle_claimed += (*f)["evidence"]["memcpy_wait_gap_ns"].get<int64_t>();
  }
  EXPECT_LE(idle_claimed, idle);
}

TEST(FindingsCli, IdleRulesFireExactlyWhereTimelineShowsTheirTime) {
  std::map<std::string, std::set<bool>> seen;
  for (const char* trace :
       {kAlexnet, kNccl, kCudaGraph, kH100Qwen, kMi300Qwen, kMi210, kTriton, kHipGraph, kMi250}) {
    CheckIdleRules(trace, &seen);
  }
  for (const char* rule :
       {"host_launch_gaps", "synchronization", "launch_bound_kernels", "exposed_communication"}) {
    EXPECT_EQ(seen[rule], (std::set<bool>{false, true})) << rule << " must fire and stay silent";
  }
}

// Pageable copies from the file's own names and args: alexnet's 16 "Memcpy HtoD (Pageable ->
// Device)" copies, their bytes and time; nccl_2rank has none and no blocking-copy gaps.
TEST(FindingsCli, BlockingCopiesAreThePageableCopiesOfTheFile) {
  std::string error;
  const json doc = tensormorph::testing::ReadTraceExact(kKineto / kAlexnet, &error);
  ASSERT_TRUE(error.empty()) << error;
  int64_t count = 0, bytes = 0, time_ns = 0;
  for (const json& e : doc["traceEvents"]) {
    if (!e.is_object() || e.value("cat", "") != "gpu_memcpy") continue;
    if (e.value("name", "").find("Pageable") == std::string::npos) continue;
    ++count;
    bytes += e["args"]["bytes"].get<int64_t>();
    time_ns += tensormorph::testing::FieldNanos(e["dur"]).value();
  }
  ASSERT_EQ(count, 16);
  const std::vector<json> found = OfRule(Findings(kAlexnet), "blocking_copies");
  ASSERT_EQ(found.size(), 1u);
  const json& item = found[0]["top"][0];
  EXPECT_EQ(item["name"], "Memcpy HtoD (Pageable -> Device)");
  EXPECT_EQ(item["figures"]["count"], count);
  EXPECT_EQ(item["figures"]["bytes"], bytes);
  EXPECT_EQ(item["figures"]["time_ns"], time_ns);
  // Outside kernels: at most the copies' time; no blocking-copy gaps on this trace.
  EXPECT_LE(found[0]["estimated_gain_ns"].get<int64_t>(), time_ns);
  EXPECT_GT(found[0]["estimated_gain_ns"].get<int64_t>(), 0);
  EXPECT_TRUE(OfRule(Findings(kNccl), "blocking_copies").empty());
}

// slow_copies: timeline's copy rows below 25 % of their peak, the gain the time above 70 % of it.
TEST(FindingsCli, SlowCopiesAreTimelinesCopyRowsBelowTheirLink) {
  for (const char* trace : {kNccl, kAlexnet, kHipGraph}) {
    SCOPED_TRACE(trace);
    const json timeline = RunJson({"timeline", (kKineto / trace).string()});
    const json& d = timeline["devices"][0];
    int64_t want_gain = 0;
    size_t slow = 0;
    for (const json& c : d["copies"]) {
      if (c["kind"] != "memcpy" || c["percent_of_peak"].is_null() || c["bytes"] == 0) continue;
      if (c["src_memory"] == "pageable" || c["dst_memory"] == "pageable") continue;
      if (c["percent_of_peak"].get<double>() >= 25) continue;
      const double at_70 = c["bytes"].get<double>() / (c["peak_bytes_per_s"].get<double>() * 0.7);
      want_gain += c["duration_ns"].get<int64_t>() - static_cast<int64_t>(at_70 * 1e9);
      ++slow;
    }
    if (std::string(trace) == kAlexnet) {
      EXPECT_EQ(slow, 0u) << "the silent case";
    }
    if (std::string(trace) == kNccl) {
      EXPECT_GT(slow, 0u) << "the case that fires";
    }
    const std::vector<json> found = OfRule(Findings(trace), "slow_copies");
    ASSERT_EQ(found.size(), slow > 0 ? 1u : 0u);
    if (slow == 0) continue;
    EXPECT_EQ(found[0]["estimated_gain_ns"], want_gain);
    EXPECT_EQ(found[0]["top"].size(), slow);
  }
  // On nccl_2rank: 960 DtoD copies at 17.5 % of half the A100's 1555 GB/s.
  const std::vector<json> nccl = OfRule(Findings(kNccl), "slow_copies");
  ASSERT_EQ(nccl.size(), 1u);
  const json& item = nccl[0]["top"][0];
  EXPECT_EQ(item["figures"]["count"], 960);
  EXPECT_NEAR(item["figures"]["percent_of_peak"].get<double>(), 17.47, 0.01);
}

const json* RoofRow(const json& roofline, const std::string& name) {
  for (const json& r : roofline["rows"]) {
    if (r["name"] == name) return &r;
  }
  return nullptr;
}

// below_roof: roofline's op rows under 70 % of their roof; each item's figures are the row's and
// its gain is total - total x percent / 70. On the BF16 h100 qwen trace no fp32_matmul.
TEST(FindingsCli, BelowRoofItemsAreRooflineRows) {
  const json roofline = RunJson({"roofline", (kKineto / kH100Qwen).string()});
  const json findings = Findings(kH100Qwen);
  const std::vector<json> below = OfRule(findings, "below_roof");
  ASSERT_EQ(below.size(), 1u);
  EXPECT_TRUE(OfRule(findings, "fp32_matmul").empty());
  int64_t sum = 0;
  for (const json& item : below[0]["top"]) {
    const json* row = RoofRow(roofline, item["name"]);
    ASSERT_NE(row, nullptr) << item["name"];
    const double percent = (*row)["percent_of_roof"];
    EXPECT_LT(percent, 70);
    EXPECT_EQ(item["figures"]["total_ns"], (*row)["total_ns"]);
    EXPECT_DOUBLE_EQ(item["figures"]["percent_of_roof"].get<double>(), percent);
    const int64_t total = (*row)["total_ns"];
    const int64_t gain = total - static_cast<int64_t>(static_cast<double>(total) * percent / 70);
    EXPECT_EQ(item["figures"]["gain_ns"], gain);
    sum += gain;
  }
  EXPECT_EQ(below[0]["estimated_gain_ns"], sum);
  EXPECT_TRUE(OfRule(Findings(kAlexnet), "below_roof").empty());
}

// The fp32_matmul finding of `trace` against the tensor-core roof `peak_field` of the device
// entry `key` (the peak and bandwidth read from `devices --format json`): each of its top rows
// gains its time less the time at the same fraction of that roof, the ceilings at the row's
// intensity from `roofline --format json`; the finding's gain is their sum. Returns the finding.
json CheckFp32MatmulGains(const std::string& trace, const std::string& key,
                          const std::string& peak_field) {
  const json roofline = RunJson({"roofline", (kKineto / trace).string()});
  const std::vector<json> fp32 = OfRule(Findings(trace), "fp32_matmul");
  EXPECT_EQ(fp32.size(), 1u);
  const json devices = RunJson({"devices"}, false);
  const json* device = nullptr;
  for (const json& d : devices["devices"]) {
    if (d["key"] == key) device = &d;
  }
  EXPECT_NE(device, nullptr) << key;
  if (fp32.size() != 1 || device == nullptr) return json();
  const double peak = (*device)[peak_field];
  const double bandwidth = (*device)["memory_bandwidth_bytes_per_s"].get<double>();
  int64_t sum = 0;
  for (const json& item : fp32[0]["top"]) {
    const json* row = RoofRow(roofline, item["name"]);
    EXPECT_NE(row, nullptr) << item["name"];
    if (row == nullptr) continue;
    EXPECT_EQ((*row)["precision"], "fp32");
    const double ceiling = (*row)["ceiling_flops_per_s"];
    const double roof_ceiling =
        std::min(peak, (*row)["arithmetic_intensity"].get<double>() * bandwidth);
    const int64_t total = (*row)["total_ns"];
    const int64_t gain =
        total - static_cast<int64_t>(static_cast<double>(total) * ceiling / roof_ceiling);
    EXPECT_EQ(item["figures"]["gain_ns"], gain) << item["name"];
    sum += gain;
  }
  EXPECT_EQ(fp32[0]["estimated_gain_ns"], sum);
  return fp32[0];
}

// fp32_matmul on the A100 trace: the op at the same fraction of the TF32 roof.
TEST(FindingsCli, Fp32MatmulGainIsTheTimeAtTheTf32Roof) {
  const json finding =
      CheckFp32MatmulGains(kCudaGraph, "a100-sxm4-80gb", "tf32_matrix_flops_per_s");
  EXPECT_NE(finding.dump().find("allow_tf32"), std::string::npos) << finding;
}

// fp32_matmul on a V100 (HTA's trace_diff "test" side: FP32 aten::mm and aten::linear, volta_sgemm
// kernels): Volta has FP16 tensor cores and no TF32, so the gain is the time at the FP16 matrix
// roof, and the fix is mixed precision, not allow_tf32.
TEST(FindingsCli, Fp32MatmulOnVoltaUsesTheFp16TensorCoreRoof) {
  const json devices = RunJson({"devices"}, false);
  for (const json& d : devices["devices"]) {
    if (d["key"] == "v100-sxm2-16gb") {
      EXPECT_TRUE(d["tf32_matrix_flops_per_s"].is_null()) << "Volta has no TF32";
    }
  }
  const json finding = CheckFp32MatmulGains("hta/trace_diff/test.json.gz", "v100-sxm2-16gb",
                                            "fp16_matrix_flops_per_s");
  EXPECT_NE(finding.dump().find("fp16_matrix_flops_per_s"), std::string::npos) << finding;
  const std::string fix = finding.value("fix", "");
  EXPECT_NE(fix.find("torch.float16"), std::string::npos) << fix;
  EXPECT_EQ(fix.find("allow_tf32"), std::string::npos) << fix;
}

// low_occupancy: occupancy's rows with >= 5 % of the file's kernel time and < 50 % theoretical
// occupancy, no gain claimed; none on the MI300X trace, whose launches carry no registers.
TEST(FindingsCli, LowOccupancyRowsAreOccupancysRows) {
  std::string error;
  const json doc = tensormorph::testing::ReadTraceExact(kKineto / kAlexnet, &error);
  ASSERT_TRUE(error.empty()) << error;
  int64_t kernel_ns = 0;
  for (const json& e : doc["traceEvents"]) {
    if (e.is_object() && e.value("cat", "") == "kernel" && e.value("ph", "") == "X") {
      kernel_ns += tensormorph::testing::FieldNanos(e["dur"]).value();
    }
  }
  const json occupancy = RunJson({"occupancy", (kKineto / kAlexnet).string()});
  std::vector<std::string> want;
  for (const json& r : occupancy["rows"]) {
    if (r["theoretical_occupancy"].is_null()) continue;
    if (100.0 * r["total_ns"].get<double>() / kernel_ns < 5) continue;
    if (r["theoretical_occupancy"].get<double>() >= 0.5) continue;
    want.push_back(r["name"]);
  }
  std::vector<std::string> got;
  for (const json& f : OfRule(Findings(kAlexnet), "low_occupancy")) {
    EXPECT_EQ(f["estimated_gain_ns"], 0);
    EXPECT_EQ(f["severity"], "info");
    got.push_back(f["where"]["kernel"]);
  }
  EXPECT_EQ(got, want);
  EXPECT_EQ(got.size(), 4u);
  EXPECT_TRUE(OfRule(Findings(kMi300Qwen), "low_occupancy").empty());
}

// low_occupancy on vendor library kernels: alexnet's four rows are all cuBLAS / cuDNN kernels
// (read here from their names: an architecture prefix with sgemm/gcgemm, cudnn, xmma fprop),
// which no __launch_bounds__ reaches; each finding names the library and says what the user can
// change. NCCL's kernels are left out: on the nccl trace the AllReduce kernel is occupancy's
// row with >= 5 % of the time below 50 %, and no finding is about it.
TEST(FindingsCli, LowOccupancyOfLibraryKernelsSaysWhatTheUserCanChange) {
  auto vendor = [](const std::string& n) {
    return n.rfind("ampere_", 0) == 0 || n.rfind("cudnn_", 0) == 0 ||
           n.find("xmma_fprop") != std::string::npos;
  };
  const std::vector<json> found = OfRule(Findings(kAlexnet), "low_occupancy");
  ASSERT_EQ(found.size(), 4u);
  for (const json& f : found) {
    const std::string kernel = f["where"]["kernel"];
    EXPECT_TRUE(vendor(kernel)) << kernel;
    const std::string fix = f["fix"];
    EXPECT_EQ(fix.find("__launch_bounds__"), std::string::npos) << kernel << ": " << fix;
    EXPECT_NE(fix.find("the library's choice"), std::string::npos) << kernel << ": " << fix;
    EXPECT_NE(
        f.dump().find(kernel.rfind("cudnn", 0) == 0 || kernel.find("fprop") != std::string::npos
                          ? "cuDNN"
                          : "cuBLAS"),
        std::string::npos)
        << f.dump();
  }

  const json occupancy = RunJson({"occupancy", (kKineto / kNccl).string()});
  const json kernels = RunJson({"kernels", (kKineto / kNccl).string()});
  bool nccl_row_qualifies = false;
  for (const json& r : occupancy["rows"]) {
    const std::string name = r["name"];
    if (name.rfind("ncclKernel", 0) != 0 || r["theoretical_occupancy"].is_null()) continue;
    nccl_row_qualifies |=
        r["theoretical_occupancy"].get<double>() < 0.5 &&
        100.0 * r["total_ns"].get<double>() / kernels["total_ns"].get<double>() >= 5;
  }
  EXPECT_TRUE(nccl_row_qualifies) << "the NCCL kernel would have been a finding";
  for (const json& f : OfRule(Findings(kNccl), "low_occupancy")) {
    EXPECT_NE(f["where"]["kernel"].get<std::string>().rfind("ncclKernel", 0), 0u) << f.dump();
  }
}

// stragglers: the ranks timeline marks, each with its median step's excess over the job's; the
// job's total gain leaves them out.
TEST(FindingsCli, StragglersAreTimelinesStragglerRanks) {
  std::vector<std::string> ranks;
  for (const auto& e : fs::directory_iterator(kKineto / "param_dlrm_8rank")) {
    ranks.push_back(e.path().string());
  }
  std::sort(ranks.begin(), ranks.end());
  std::vector<std::string> args = {"timeline"};
  args.insert(args.end(), ranks.begin(), ranks.end());
  const json timeline = RunJson(args);
  args[0] = "findings";
  const json findings = RunJson(args);
  // A straggler made the others wait in collectives: its gain is the wait it caused, as timeline's
  // ranks report it (tests/job_test.cc and collectives_oracle_test.cc check those waits).
  std::map<int64_t, int64_t> want;  // input -> wait caused
  for (const json& r : timeline["ranks"]["rows"]) {
    if (r["straggler"]) want[r["input"]] = r["wait_caused_ns"].get<int64_t>();
  }
  std::map<int64_t, int64_t> got;
  for (const json& f : OfRule(findings, "stragglers")) {
    got[f["where"]["input"]] = f["estimated_gain_ns"];
  }
  EXPECT_EQ(got, want);
  EXPECT_EQ(got.size(), 3u);  // ranks 4, 5 and 7, the ranks the others waited for
  int64_t total = 0;
  for (const json& f : findings["findings"]) {
    if (f["rule"] != "stragglers") total += f["estimated_gain_ns"].get<int64_t>();
  }
  EXPECT_EQ(findings["total_gain_ns"], total);

  // Two ranks of a 128-rank job: the last arrival may be on a rank not given, so no straggler.
  const json sampled =
      RunJson({"findings", (kKineto / "hta/multirank_sampled/sampled_rank-0.json.gz").string(),
               (kKineto / "hta/multirank_sampled/sampled_rank-1.json.gz").string()});
  EXPECT_TRUE(OfRule(sampled, "stragglers").empty());
}

// The document: schema, ranked by gain (rules without gain last), total, percent of the basis,
// every finding's fields; the CSV has one row per finding.
TEST(FindingsCli, JsonIsRankedAndComplete) {
  const json doc = Findings(kNccl);
  EXPECT_EQ(doc["schema"], "tensormorph.findings/1");
  ASSERT_EQ(doc["inputs"].size(), 1u);
  // The basis: the trace's ProfilerStep# annotations, summed, read from the file.
  std::string error;
  const json trace = tensormorph::testing::ReadTraceExact(kKineto / kNccl, &error);
  ASSERT_TRUE(error.empty()) << error;
  double steps = 0;
  for (const json& e : trace["traceEvents"]) {
    if (e.is_object() && e.value("cat", "") == "user_annotation" &&
        e.value("name", "").starts_with("ProfilerStep#")) {
      steps += static_cast<double>(tensormorph::testing::FieldNanos(e["dur"]).value());
    }
  }
  ASSERT_GT(steps, 0);
  int64_t previous = INT64_MAX, total = 0;
  for (const json& f : doc["findings"]) {
    for (const char* key :
         {"rule", "severity", "title", "estimated_gain_ns", "gain_percent", "gain_basis", "where",
          "evidence", "top", "fix", "simulated_step_ns", "simulated_gain_ns"}) {
      EXPECT_TRUE(f.contains(key)) << key;
    }
    const int64_t gain = f["estimated_gain_ns"];
    // Ranked by the simulated gain where the fix is simulated, else by the estimated gain.
    const int64_t rank_gain =
        f["simulated_gain_ns"].is_null() ? gain : f["simulated_gain_ns"].get<int64_t>();
    EXPECT_LE(rank_gain, previous);
    previous = rank_gain;
    total += gain;
    EXPECT_EQ(f["gain_basis"], "steps");
    EXPECT_NEAR(f["gain_percent"].get<double>(), 100.0 * gain / steps, 1e-9);
    const double percent = f["gain_percent"];
    const char* want = gain == 0       ? "info"
                       : percent >= 10 ? "high"
                       : percent >= 2  ? "medium"
                                       : "low";
    EXPECT_EQ(f["severity"], want) << f["rule"];
    EXPECT_FALSE(f["fix"].get<std::string>().empty());
  }
  EXPECT_EQ(doc["total_gain_ns"], total);

  const auto csv =
      RunTensormorph({"findings", "--format", "csv", "--quiet", (kKineto / kNccl).string()});
  ASSERT_EQ(csv.exit_code, 0) << csv.Describe();
  EXPECT_EQ(std::count(csv.out.begin(), csv.out.end(), '\n'),
            static_cast<long>(doc["findings"].size()) + 1);
}

// One basis per input, stated once (issue 39): the longer of the steps' summed length and the
// busiest device's span. On the cudagraph trace the device runs past the host's five
// ProfilerSteps (1,074 ms of steps, a 1,231 ms span): its findings are shares of the span, never
// above 100 %. Both figures are read from the file here: ProfilerStep# annotations summed, and the
// span from the first start to the last end of the device's kernels, copies and fills.
TEST(FindingsCli, GainsAreSharesOfTheLongerOfStepsAndDeviceSpan) {
  std::string error;
  const json trace = tensormorph::testing::ReadTraceExact(kKineto / kCudaGraph, &error);
  ASSERT_TRUE(error.empty()) << error;
  int64_t steps = 0, first = INT64_MAX, last = INT64_MIN;
  for (const json& e : trace["traceEvents"]) {
    if (!e.is_object() || e.value("ph", "") != "X") continue;
    const std::string cat = e.value("cat", "");
    const int64_t ts = tensormorph::testing::FieldNanos(e["ts"]).value();
    const int64_t dur = tensormorph::testing::FieldNanos(e["dur"]).value();
    if (cat == "user_annotation" && e.value("name", "").starts_with("ProfilerStep#")) steps += dur;
    if (cat == "kernel" || cat == "gpu_memcpy" || cat == "gpu_memset") {
      first = std::min(first, ts);
      last = std::max(last, ts + dur);
    }
  }
  const int64_t span = last - first;
  ASSERT_GT(steps, 0);
  ASSERT_GT(span, steps) << "the device outlasts the steps on this trace";
  const json doc = Findings(kCudaGraph);
  ASSERT_EQ(doc["gain_bases"].size(), 1u);
  EXPECT_EQ(doc["gain_bases"][0]["basis"], "span");
  EXPECT_EQ(doc["gain_bases"][0]["basis_ns"], span);
  ASSERT_FALSE(doc["findings"].empty());
  for (const json& f : doc["findings"]) {
    EXPECT_EQ(f["gain_basis"], "span") << f["rule"];
    const double gain = f["estimated_gain_ns"].get<double>();
    EXPECT_NEAR(f["gain_percent"].get<double>(), std::min(100.0, 100.0 * gain / span), 1e-9)
        << f["rule"];
  }
}

// A straggler's share is the others' wait over the others' profiled time, the same number in
// findings and timeline (and tm.fleet, python/tests/test_fleet.py): on the DLRM job each rank's
// profiled time is its ProfilerStep annotations summed, read from its file here.
TEST(FindingsCli, StragglerShareIsOfTheOtherRanksProfiledTime) {
  std::vector<std::string> ranks;
  for (const auto& e : fs::directory_iterator(kKineto / "param_dlrm_8rank")) {
    ranks.push_back(e.path().string());
  }
  std::sort(ranks.begin(), ranks.end());
  std::vector<int64_t> profiled;
  for (const std::string& path : ranks) {
    std::string error;
    const json trace = tensormorph::testing::ReadTraceExact(path, &error);
    ASSERT_TRUE(error.empty()) << error;
    int64_t steps = 0;
    for (const json& e : trace["traceEvents"]) {
      if (e.is_object() && e.value("cat", "") == "user_annotation" &&
          e.value("name", "").starts_with("ProfilerStep#")) {
        steps += tensormorph::testing::FieldNanos(e["dur"]).value();
      }
    }
    profiled.push_back(steps);
  }
  int64_t all = 0;
  for (int64_t p : profiled) all += p;
  std::vector<std::string> args = {"timeline"};
  args.insert(args.end(), ranks.begin(), ranks.end());
  const json timeline = RunJson(args);
  args[0] = "findings";
  const json findings = RunJson(args);
  std::map<int64_t, double> share;
  for (const json& r : timeline["ranks"]["rows"]) {
    const auto input = r["input"].get<size_t>();
    ASSERT_GT(profiled[input], 0) << ranks[input];
    EXPECT_EQ(r["profiled_ns"], profiled[input]);
    EXPECT_EQ(r["others_profiled_ns"], all - profiled[input]);
    const double expected = 100.0 * r["wait_caused_ns"].get<double>() / (all - profiled[input]);
    EXPECT_NEAR(r["wait_caused_percent"].get<double>(), expected, 1e-9);
    EXPECT_LE(expected, 100.0);
    share[r["input"]] = expected;
  }
  const std::vector<json> stragglers = OfRule(findings, "stragglers");
  ASSERT_FALSE(stragglers.empty());
  for (const json& f : stragglers) {
    EXPECT_EQ(f["gain_basis"], "other ranks");
    EXPECT_NEAR(f["gain_percent"].get<double>(), share[f["where"]["input"]], 1e-9);
  }
}

// dominant_op (issue 39): where no roofline rule names anything on a device, the op with 40 % or
// more of its kernel time is named, with its share as `ops` and `kernels` print it; a kernel when
// no op holds that much; and for a device the database lacks, why the roofline rules were skipped.
TEST(FindingsCli, DominantOpIsNamedWhereNoRooflineRuleApplies) {
  const json alexnet = Findings(kAlexnet);
  const std::vector<json> conv = OfRule(alexnet, "dominant_op");
  ASSERT_EQ(conv.size(), 1u);
  EXPECT_EQ(conv[0]["where"]["op"], "aten::cudnn_convolution");
  const json ops = RunJson({"ops", (kKineto / kAlexnet).string()});
  int64_t self_ns = 0;
  for (const json& row : ops["rows"]) {
    if (row["name"] == "aten::cudnn_convolution") self_ns = row["device_ns"];
  }
  const double share = 100.0 * static_cast<double>(self_ns) / ops["kernel_ns"].get<double>();
  EXPECT_GE(share, 40.0);
  EXPECT_NEAR(conv[0]["evidence"]["share_percent"].get<double>(), share, 1e-9);
  EXPECT_EQ(conv[0]["estimated_gain_ns"], 0) << "without a roof it claims no time";
  EXPECT_EQ(conv[0]["severity"], "info");

  // MTIA: no op holds 40 %; the kernel event_wait does, on a device the database lacks. Its
  // share from the file: its events' durations over every device event's but the DMA copies
  // (cat mtia_ccp_events; dma_request is a copy, the rest kernels: 436 of them).
  const char* const mtia = "hta/mtia_inference_rank_0.json.gz";
  std::string error;
  const json trace = tensormorph::testing::ReadTraceExact(kKineto / mtia, &error);
  ASSERT_TRUE(error.empty()) << error;
  int64_t all = 0, waits = 0;
  for (const json& e : trace["traceEvents"]) {
    if (!e.is_object() || e.value("cat", "") != "mtia_ccp_events" ||
        e.value("name", "") == "dma_request") {
      continue;
    }
    const int64_t dur = tensormorph::testing::FieldNanos(e["dur"]).value();
    all += dur;
    if (e.value("name", "") == "event_wait") waits += dur;
  }
  const std::vector<json> wait = OfRule(Findings(mtia), "dominant_op");
  ASSERT_EQ(wait.size(), 1u);
  EXPECT_EQ(wait[0]["where"]["kernel"], "event_wait");
  EXPECT_NEAR(wait[0]["evidence"]["share_percent"].get<double>(), 100.0 * waits / all, 1e-9);
  const std::string fix = wait[0]["fix"];
  EXPECT_NE(fix.find("not in the device database"), std::string::npos) << fix;
  EXPECT_NE(fix.find("roofline rules (below_roof, fp32_matmul) were skipped"), std::string::npos);

  const json prefill = Findings("tracelens_more/rocm_sglang_qwen3-8b_prefill_extend.json.gz");
  EXPECT_FALSE(OfRule(prefill, "below_roof").empty());
  EXPECT_TRUE(OfRule(prefill, "dominant_op").empty());
  EXPECT_TRUE(OfRule(Findings(kNccl), "dominant_op").empty());
}

// Without steps the basis is the device's span: on the compiled Triton trace (no ProfilerStep)
// below_roof's percent is its gain over the span `timeline` prints for that device. The roofline
// rules run beside the timeline by default; --threads 1 runs them after it, with the same output.
TEST(FindingsCli, SpanBasisIsTheDevicesSpanWhateverTheThreads) {
  const json findings = Findings(kTriton);
  const json timeline = RunJson({"timeline", (kKineto / kTriton).string()});
  const std::vector<json> below = OfRule(findings, "below_roof");
  ASSERT_EQ(below.size(), 1u);
  EXPECT_EQ(below[0]["gain_basis"], "span");
  const json* device = nullptr;
  for (const json& d : timeline["devices"]) {
    if (d["label"] == below[0]["where"]["device"]) device = &d;
  }
  ASSERT_NE(device, nullptr) << below[0]["where"]["device"];
  EXPECT_NEAR(
      below[0]["gain_percent"].get<double>(),
      100.0 * below[0]["estimated_gain_ns"].get<double>() / (*device)["span_ns"].get<double>(),
      1e-9);
  for (const char* trace : {kTriton, kCudaGraph}) {
    EXPECT_EQ(Findings(trace, {"--threads", "1"}), Findings(trace)) << trace;
  }
}

TEST(FindingsCli, UsageErrorsExitTwo) {
  for (std::vector<std::string> args :
       {std::vector<std::string>{"findings"},
        {"findings", "--gap", "-1", (kKineto / kNccl).string()},
        {"findings", "--attainable-roof", "0", (kKineto / kNccl).string()},
        {"findings", "--top-items", "x", (kKineto / kNccl).string()}}) {
    const auto r = RunTensormorph(args);
    EXPECT_EQ(r.exit_code, 2) << r.Describe();
    EXPECT_FALSE(r.err.empty());
  }
}

}  // namespace TM_UNITY_ID
}  // namespace
