// The built-in device table. One block per device; every figure names its source and how sure
// we are of it (see Confidence in device_db.h). Rules for editing:
//   - never estimate: a figure no cited document gives stays out (the field is simply absent);
//   - FLOP/s are dense peaks; vendor tables that quote sparse tensor rates ("*with sparsity")
//     are halved, and the source says so;
//   - derived figures state the formula, and are only as strong as their weakest input;
//   - memory_bytes is the nominal capacity, the vendor's "GB" read as GiB;
//   - host_link_bytes_per_s is derived from the PCIe generation and lane width a cited document
//     gives (PcieX16Link); platform-dependent host links (SXM2 on POWER9, NVLink-C2C) and
//     unified-memory parts (Apple, MI300A) have none.
// Research notes behind the figures: ../shared/reference/other-backends.md §6 and
// ../shared/reference/nvidia.md; the gaps were filled from the pages named below.
#include <fmt/format.h>

#include <cmath>
#include <string>

#include "tensormorph/devices/device_db.h"

// Entries name only the fields they set (designated initializers); the rest keep their defaults
// on purpose, which GCC's -Wextra would otherwise report for every block.
#pragma GCC diagnostic ignored "-Wmissing-field-initializers"

namespace tensormorph {
namespace {

constexpr double kTera = 1e12;
constexpr double kGiga = 1e9;
constexpr double kGiB = 1024.0 * 1024 * 1024;
constexpr double kMiB = 1024.0 * 1024;

using M = Metric;
using C = Confidence;

struct Entry {
  Metric metric;
  double value;
  Confidence confidence;
  const char* source;
};

DeviceSpec Make(DeviceSpec spec, std::initializer_list<Entry> figures) {
  for (const Entry& e : figures) spec.Get(e.metric) = Figure{e.value, e.confidence, e.source};
  return spec;
}

// PCIe generations whose data rate follows from the signalling rate alone: 8 / 16 / 32 GT/s per
// lane with 128b/130b encoding. Gen6 (FLIT encoding) is not here: its per-direction data rate is
// not this formula, and no entry's document gives one.
enum class PcieGen { kGen3 = 3, kGen4 = 4, kGen5 = 5 };

// The host-link figure of `links` PCIe x16 links (more than one where each device of a package
// has its own), rounded to whole bytes/s; `cited` names where the generation and width come from.
Figure PcieX16Link(PcieGen gen, const char* cited, int links = 1) {
  const int generation = static_cast<int>(gen);
  const double gt_per_s = 8 << (generation - 3);
  const double bytes_per_s = std::round(links * gt_per_s * 1e9 * 16 * 128 / 130 / 8);
  return Figure{
      bytes_per_s, Confidence::kDerived,
      fmt::format("derived: {}PCIe Gen{} x16 = {}{:.0f} GT/s x 16 lanes x 128/130 / 8 bit "
                  "= {:.3f} GB/s per direction; generation and width: {}",
                  links > 1 ? fmt::format("{} x ", links) : "", generation,
                  links > 1 ? fmt::format("{} x ", links) : "", gt_per_s, bytes_per_s / 1e9,
                  cited)};
}

// ------------------------------------------------------------------------------------------------
// Sources. Names first, then the URL where one is known.

// Identity (names and architectures).
constexpr const char* kNvNames =
    "device names: NVIDIA Linux driver 550.40.82 README, supported-GPU table "
    "(github.com/NVIDIA/open-gpu-kernel-modules README.md); compute capability: CUDA GPUs list "
    "(https://developer.nvidia.com/cuda-gpus)";
constexpr const char* kNvVoltaNames =
    "device names as nvidia-smi/CUDA report them (Tesla V100-SXM2-16GB in the HTA Kineto sample; "
    "the others in public code: a PCI-id list with 0x1DB5 Tesla V100-SXM2-32GB and 0x1DB6 Tesla "
    "V100-PCIe-32GB, PyTorch environment dumps with Tesla V100-PCIE-32GB); CC 7.0";
constexpr const char* kNvBlackwellNames =
    "device names as CUDA reports them in public benchmark and run logs (the 550 driver README "
    "predates Blackwell); compute capability from the CUDA GPUs list as reproduced by "
    "leimao.github.io (B200/GB200 10.0) and the Nsight Compute samples (RTX 5090: 12.0)";
constexpr const char* kRocmSpecs =
    "AMD ROCm documentation, GPU hardware specifications "
    "(https://rocm.docs.amd.com/en/latest/reference/gpu-arch-specs.html; "
    "github.com/ROCm/legacy-rocm-build docs/reference/gpu-arch-specs.rst)";

// NVIDIA data centre.
constexpr const char* kV100 =
    "NVIDIA Tesla V100 datasheet; reproduced by third parties (grokipedia Tesla V100 page; "
    "developer.nvidia.com 'Programming Tensor Cores in CUDA 9' gives the 125 TFLOPS); not read "
    "from nvidia.com here";
constexpr const char* kV100Ref =
    "NVIDIA V100 datasheet value as listed in ../shared/reference/other-backends.md §6.1 (not "
    "re-read)";
constexpr const char* kVoltaWhitepaper =
    "NVIDIA Tesla V100 GPU architecture whitepaper, table 1 (6144 KB L2), as reproduced by "
    "techrival.com";
constexpr const char* kT4 =
    "NVIDIA T4 datasheet figures as reproduced by third parties (tomshardware.co.uk, "
    "geektopia.es, sysrqmts.com Tesla T4 page); datasheet not read here";
constexpr const char* kA100 =
    "NVIDIA A100 Tensor Core GPU datasheet "
    "(https://www.nvidia.com/content/dam/en-zz/Solutions/Data-Center/a100/pdf/"
    "nvidia-a100-datasheet-us-nvidia-1758950-r4-web.pdf) as reproduced by "
    "glennklockwood.com/garden/processors/A100 and the PC2 Paderborn A100 page";
constexpr const char* kA100Memory =
    "A100 memory bandwidth, boost clock and L2 per variant: thundercompute.com 'NVIDIA A100 "
    "specifications' table (third party)";
constexpr const char* kA10 =
    "NVIDIA A10 datasheet values as listed in ../shared/reference/other-backends.md §6.1 (not "
    "re-read from nvidia.com)";
constexpr const char* kA10Board =
    "sysrqmts.com 'NVIDIA A10 PCIe' page (72 SMs, 1695 MHz, 600.2 GB/s, 6 MB L2, 31.24 TFLOPS); "
    "baseten.co 'A10 vs A10G' (24 GB, 600 GB/s)";
constexpr const char* kL4 =
    "NVIDIA L4 datasheet (quotes sparse tensor rates; dense = half) as reproduced by "
    "store.sourcecode.com and grokipedia 'NVIDIA L4 vs L40S'; board data fpsbench.com";
constexpr const char* kL40S =
    "NVIDIA L40S datasheet table (dense | sparse) as reproduced by mullet.se and "
    "itcreations.com; SM count and clock from the techpowerup-derived listing at m.reach.dog";
constexpr const char* kH100 =
    "NVIDIA H100 Tensor Core GPU datasheet table ('Shown with sparsity. Specifications 1/2 "
    "lower without sparsity') as reproduced by archive-lib.hpctech.co.jp/gpuproduct/"
    "nvidia-h100.html; dense tensor = sparse / 2";
constexpr const char* kH100Clock =
    "glennklockwood.com/garden/processors/h100 citing the Hopper whitepaper (1.98 GHz)";
constexpr const char* kH200 =
    "NVIDIA H200 datasheet: compute as H100 SXM, 141 GB HBM3e at 4.8 TB/s; as reproduced by "
    "lzwjava.github.io and aiminingco.com (third party)";
constexpr const char* kB200Tensor =
    "NVIDIA HGX B200 specification (sparse rates; dense = half) as reproduced at "
    "zdszero.github.io, consistent with glennklockwood.com/garden/processors/B200 (HGX B200 at "
    "1000 W)";
constexpr const char* kB200Disputed =
    "sources disagree: NVIDIA's later HGX B200 table (reproduced at zdszero.github.io) gives "
    "this value, glennklockwood.com/garden/processors/B200 (GTC 2024 figures) gives FP64 40 / "
    "FP32 80 TFLOPS, 8 TB/s, 192 GB";
constexpr const char* kGb200Tensor =
    "NVIDIA GB200 NVL72 specification, per Blackwell GPU (sparse rates; dense = half), as "
    "reproduced at zdszero.github.io; glennklockwood.com gives the same dense tensor rates";
constexpr const char* kGb200Disputed =
    "sources disagree: NVIDIA's GB200 NVL72 table (reproduced at zdszero.github.io) gives "
    "this value, glennklockwood.com/garden/processors/B200 (1200 W GB200) gives FP64 45 / FP32 "
    "90 TFLOPS";

// NVIDIA GeForce.
constexpr const char* kNsys3080 =
    "nsys TARGET_INFO_GPU of ../shared/data/nvidia/nsys_sqlite/nsysai_mock_rtx3080_2026.1.sqlite "
    "(smCount 68, clockRate 1710000000, memoryBandwidth 760080000000, l2CacheSize 5242880, "
    "totalMemory 10736893952)";
constexpr const char* kDerivedFp32 =
    "derived: 2 FLOP x 128 FP32 lanes per SM (CC 8.6/8.9/12.x, CUDA Programming Guide throughput "
    "table via ../shared/reference/nvidia.md §3) x SMs x boost clock";
constexpr const char* kDerivedFp64Geforce =
    "derived: FP32 peak / 64 (FP32:FP64 = 64:1 for CC 8.6/8.9/12.x, CUDA Programming Guide via "
    "../shared/reference/nvidia.md §3)";
constexpr const char* k3080Twelve =
    "sysrqmts.com 'GeForce RTX 3080 12 GB' page (70 SMs, 1710 MHz, 912.4 GB/s, 12 GB)";
constexpr const char* kGa102 =
    "NVIDIA Ampere GA102 GPU architecture whitepaper, appendix A, as listed in "
    "../shared/reference/other-backends.md §6.1 (not re-read)";
constexpr const char* k3090Pages =
    "third-party listings of the GA102 whitepaper figures (ctc.archdevil.net: 35.6 FP32 / 71.2 "
    "FP16 tensor; igorslab.de 35.7 FP32)";
constexpr const char* kAd102 =
    "NVIDIA Ada Lovelace (AD102) architecture whitepaper figures as reproduced by waredb.com, "
    "incpak.com and techgoing.com (72 MB L2, 2.52 GHz, 1008 GB/s)";
constexpr const char* kAd103 =
    "NVIDIA Ada whitepaper table as reproduced by mobylak.com (76 SMs, 2505 MHz, 48.7 TFLOPS)";
constexpr const char* k4080Bandwidth =
    "unconfirmed: 22.4 Gbps x 256 bit / 8 = 716.8 GB/s (db.thegpu.guru); pre-launch "
    "announcements (fudzilla.net) said 23 Gbps / 736 GB/s";
constexpr const char* kGb203 =
    "RTX 5080 specification as reproduced by brojogopalsapui.com (citing NVIDIA's RTX Blackwell "
    "whitepaper) and sipoch.com: 84 SMs, 2.62 GHz, 960 GB/s, 64 MB L2, 16 GB";
constexpr const char* kGb202 =
    "RTX 5090 specification as printed by Linux Format / Tom's Hardware (May 2025): 170 SMs, "
    "2407 MHz, 96 MB, 1792 GB/s, 32 GB; same values on pcspecchart.com and sipoch.com";
constexpr const char* kNcu5090Sm =
    "Nsight Compute sample ../shared/data/nvidia/ncu_csv (CC 12.0): FFMA peak 21,760 "
    "instructions/cycle = 170 SMs x 128";
constexpr const char* kNcu5090Fp32 =
    "derived: 2 x 21,760 FFMA/cycle (Nsight Compute sample, CC 12.0) x 2.407 GHz boost";
constexpr const char* kNcu5090Fp64 =
    "derived: 2 x 340 DFMA/cycle (Nsight Compute sample, CC 12.0) x 2.407 GHz boost";

// AMD.
constexpr const char* kMi100Doc =
    "AMD ROCm documentation, 'AMD Instinct MI100 microarchitecture' peak-performance table "
    "(https://rocm.docs.amd.com/en/latest/conceptual/gpu-arch/mi100.html; "
    "github.com/ROCm/legacy-rocm-build docs/conceptual/gpu-arch/mi100.md)";
constexpr const char* kMi250Doc =
    "AMD ROCm documentation, 'AMD Instinct MI250 microarchitecture' peak-performance table "
    "(https://rocm.docs.amd.com/en/latest/conceptual/gpu-arch/mi250.html; "
    "github.com/ROCm/legacy-rocm-build docs/conceptual/gpu-arch/mi250.md)";
constexpr const char* kMi200Derived =
    "derived: FLOPS/clock/CU of the ROCm MI250 microarchitecture table (FP64 128, FP64 matrix "
    "256, FP32 128, packed/matrix FP32 256, FP16/BF16/INT8 1024) x CUs x 1.7 GHz";
constexpr const char* kMi200Sysinfo =
    "unconfirmed: rocprof-compute sysinfo fixture of an MI200-series device (gfx90a, 104 CUs; "
    "../shared/data/other/rocprof_compute/vcopy_MI200/sysinfo.csv: hbm_bw 1638.4 GB/s, max_sclk "
    "1700 MHz); the fixture does not say whether it is an MI210 or one MI250 GCD";
constexpr const char* kMi250xBandwidth =
    "unconfirmed: 2 GCDs x 1638.4 GB/s (rocprof-compute MI200 fixture), as in "
    "../shared/reference/other-backends.md §6.2";
constexpr const char* kMi300Doc =
    "AMD ROCm documentation, 'AMD Instinct MI300 series microarchitecture' MI300X "
    "peak-performance table and 5.3 TB/s "
    "(https://rocm.docs.amd.com/en/latest/conceptual/gpu-arch/mi300.html; "
    "github.com/ROCm/legacy-rocm-build docs/conceptual/gpu-arch/mi300.md)";
constexpr const char* kMi300Clock =
    "derived: 163.4 TFLOPS FP32 / (304 CUs x 256 FLOPS/clock) = 2.1 GHz (ROCm MI300 table)";
constexpr const char* kMi300aDerived =
    "derived: FLOPS/clock/CU of the ROCm MI300X table x 228 CUs x 2.1 GHz (clock assumed equal "
    "to MI300X's)";
constexpr const char* kMi300aBandwidth =
    "unconfirmed: 5.3 TB/s as for MI300X (../shared/reference/other-backends.md §6.2 cites an "
    "MI300A rocprof-compute fixture with 5324.8 GB/s, not among the samples here)";
constexpr const char* kMi325xDerived =
    "derived: same 304 CDNA3 CUs as MI300X (ROCm specs) at MI300X's 2.1 GHz, so MI300X's "
    "peaks; AMD's own MI325X datasheet not read here";
constexpr const char* kMi325xBandwidth =
    "third party: 6.0 TB/s HBM3E per Vultr's MI325X documentation (via "
    "../shared/reference/other-backends.md §6.2)";
constexpr const char* kMi350Doc =
    "AMD ROCm documentation, 'AMD Instinct MI350 series microarchitecture' "
    "(github.com/ROCm/rocm-docs docs/reference/gpu-arch/mi350.rst), as summarised in "
    "../shared/reference/other-backends.md §6.2";
constexpr const char* kMi350Clock =
    "derived: FP32 peak / (256 CUs x 256 FLOPS/clock): 144.2 TFLOPS -> 2.2 GHz (MI350X), "
    "157.3 TFLOPS -> 2.4 GHz (MI355X)";
constexpr const char* kNavi31 =
    "AMD Radeon RX 7900 XTX product figures as reproduced by cputronic.com (61.42 TFLOPS, "
    "2499 MHz), pcspecchart.com (960 GB/s) and gamingpcbuilder.com (2500 MHz, 20 Gbps x 384 "
    "bit)";
constexpr const char* kNavi31Fp16 =
    "AMD product page figure as listed in ../shared/reference/other-backends.md §6.2 (not "
    "re-read)";

// Host links: where each entry's PCIe generation and lane width are stated.
constexpr const char* kV100PcieLink =
    "third party: grokipedia Tesla V100 page ('supports PCIe 3.0'), hwupgrade.it V100 PCIe "
    "announcement ('connessione PCI Express 16x'), Dell EMC 'Ready Solutions for AI' reference "
    "guide (PCIe 16 x 2 = 32 GB/s); NVIDIA's V100 PCIe product brief PB-08744-001 not read here";
constexpr const char* kT4Link =
    "NVIDIA T4 product brief as reproduced in PNY's T4 manual (manualmachine.com): 'PCI Express "
    "Gen3', 'NVIDIA supports x8 and x16 PCI Express for the T4' (this is the x16 peak; an x8 slot "
    "halves it)";
constexpr const char* kA100SxmLink =
    "glennklockwood.com/garden/processors/A100 (A100 SXM4: '32+32 GB/s PCIe Gen4 (H2D)', citing "
    "the NVIDIA A100 datasheet; 32 GB/s per direction at Gen4 is x16) and the TechPowerUp-derived "
    "table in huggingface.co/spaces/lambdabrendan/Lambda-LLM-Calculator data/gpu_specs.csv (A100 "
    "SXM4 40/80 GB: 'PCIe 4.0 x16'); NVIDIA datasheet not read here";
constexpr const char* kA100Pcie40Link =
    "NVIDIA A100 40GB PCIe product brief PB-10137-001_v03 ('a dual-slot 10.5 inch PCI Express "
    "Gen4 card', as reproduced at docslib.org) and the TechPowerUp-derived table in "
    "huggingface.co/spaces/lambdabrendan/Lambda-LLM-Calculator data/gpu_specs.csv (A100 PCIe 40 "
    "GB: 'PCIe 4.0 x16')";
constexpr const char* kA100Pcie80Link =
    "third party: the A100 80GB PCIe announcement as reported by nvplay.ru ('PCI Express 4.0') "
    "and svethardware.cz ('PCIe x16'); NVIDIA's A100 80GB PCIe product brief PB-10577-001 not "
    "read here";
constexpr const char* kA10Link =
    "sysrqmts.com 'NVIDIA A10 PCIe' page ('PCIe 4.0 x16'; third party)";
constexpr const char* kL4Link =
    "store.sourcecode.com L4 listing ('Host Interface PCI Express 4.0 x16') and NVIDIA's MLPerf "
    "Inference v3.1 system description (github.com/mlcommons/inference_results_v3.1 "
    "closed/NVIDIA/systems, L4x1_TRT: 'PCIe Gen4 x16')";
constexpr const char* kL40SLink =
    "store.sourcecode.com L40S listing ('Host Interface PCI Express 4.0 x16'; third party)";
constexpr const char* kH100Link =
    "NVIDIA H100 datasheet table, interconnect 'PCIe Gen5: 128GB/s' for SXM and PCIe (as "
    "reproduced at archive-lib.hpctech.co.jp/gpuproduct/nvidia-h100.html; 128 GB/s both ways at "
    "Gen5 is x16); H100 PCIe product brief PB-11133-001_v02 ('a dual-slot 10.5 inch PCI Express "
    "Gen5 card', as reproduced at manuals.plus)";
constexpr const char* kH100NvlLink =
    "third party: grokipedia 'NVIDIA H100 NVL (900-21010-0120-030)' ('PCIe 5.0 x16') and "
    "AnandTech's H100 NVL announcement table ('2 x PCIe 5.0', one per board); no NVIDIA document "
    "read";
constexpr const char* kH200Link =
    "saulelectric.com H200 specification ('PCIe Gen5: 128GB/s'; 128 GB/s both ways at Gen5 is "
    "x16; third party) and NVIDIA's MLPerf Inference v4.1 system description "
    "(github.com/mlcommons/inference_results_v4.1 closed/NVIDIA/systems/H200-SXM-141GBx8_TRT.json: "
    "accelerator_host_interconnect 'PCIe Gen5 x16')";
constexpr const char* kGa102Link =
    "third party: TechPowerUp-derived table in "
    "huggingface.co/spaces/lambdabrendan/Lambda-LLM-Calculator data/gpu_specs.csv ('GeForce RTX "
    "3080 ... PCIe 4.0 x16', 'GeForce RTX 3090 ... PCIe 4.0 x16'); Tom's Hardware launch report: "
    "the first GeForce cards with PCIe 4.0";
constexpr const char* k4090Link =
    "NVIDIA RTX 40 series specification table row 'PCI Express Gen 4' (as reproduced at "
    "worldlinkhnepal.blogspot.com); x16 from Inno3D's RTX 4090 iChiLL X3 listing ('PCI Express "
    "x16 4.0', octo24.com)";
constexpr const char* kMi100Link =
    "AMD ROCm 'AMD Instinct MI100 microarchitecture': the GPU's 'PCIe Gen 4 x16 link (16 GT/sec)' "
    "to the host (https://rocm.docs.amd.com/en/latest/conceptual/gpu-arch/mi100.html)";
constexpr const char* kMi210Link =
    "AMD ROCm 'AMD Instinct MI250 microarchitecture': each CDNA 2 GCD has its own PCIe Gen 4 x16 "
    "host link; the MI210 is one CDNA 2 GCD on a PCIe 4.0 card (AnandTech 'AMD Releases Instinct "
    "MI210': GPU 'CDNA 2 GCD', form factor 'PCIe (4.0)')";
constexpr const char* kMi250Link =
    "AMD ROCm 'AMD Instinct MI250 microarchitecture': 'The MI250 OAMs attach to the host system "
    "via PCIe Gen 4 x16 links', 'Each GCD maintains its own PCIe x16 link' (so one x16 link per "
    "device; the doc adds that some platforms wire x8 per GCD)";
constexpr const char* kMi300xLink =
    "AMD ROCm 'AMD Instinct MI300 series microarchitecture': 'The MI300X OAMs attach to the host "
    "system via PCIe Gen 5 x16 links' (https://rocm.docs.amd.com/en/latest/conceptual/gpu-arch/"
    "mi300.html)";
constexpr const char* kMi325xLink =
    "wiaix.com MI325X page reproducing AMD's product text ('PCIe Gen 5 interface with 16 lanes "
    "for high-speed host connections'; third party)";

// Apple.
constexpr const char* kAppleFamilies =
    "Metal feature set tables (Apple7 = M1, Apple8 = M2, Apple9 = M3/M4); GPU core counts from "
    "Apple's announcements as reproduced by the pages named in each entry";
constexpr const char* kAppleRef =
    "Apple announcement figure as listed in ../shared/reference/other-backends.md §6.3 (not "
    "re-read)";
constexpr const char* kM1ProMax =
    "Apple newsroom 'Introducing M1 Pro and M1 Max' (Oct 2021) as reproduced by semiwiki.com, "
    "mybroadband.co.za, stuff.co.za and gizbot.com";
constexpr const char* kM2Family =
    "Apple memory-bandwidth figure, reproduced by Ars Technica's comparison tables "
    "(goodnewsapodcast.com copy) which give 102.4 GB/s (M2), 204.8 GB/s (M2 Pro)";
constexpr const char* kM3Family =
    "Apple M3 family announcement (Oct 2023) as reproduced by pcextreme.com.br / AnandTech and "
    "notebookcheck.net (M3 Pro: 14 of 18 GPU cores in the base model, 150 GB/s)";
constexpr const char* kM4Family =
    "Apple M4 family announcements (2024) as reproduced by Ars Technica's tables "
    "(goodnewsapodcast.com copy: M4 8/10 cores 120 GB/s, M4 Pro 16/20 cores 273 GB/s, M4 Max "
    "410 / 546 GB/s) and macmegasite.com";

// ------------------------------------------------------------------------------------------------

std::vector<DeviceSpec> NvidiaDataCenter() {
  std::vector<DeviceSpec> d;

  d.push_back(Make(
      {.key = "v100-sxm2-16gb",
       .name = "NVIDIA V100 SXM2 16GB",
       .aliases = {"Tesla V100-SXM2-16GB"},
       .vendor = "NVIDIA",
       .backend = Backend::kCuda,
       .architecture = "sm_70",
       .identity_source = "alias as reported in ../shared/data/kineto/hta/trace_diff/"
                          "test.json.gz (CC 7.0, 80 SMs)",
       .notes = "Volta tensor cores: FP16 inputs only (no BF16/TF32/INT8). No host-link figure: "
                "the SXM2 module's host link depends on the platform (PCIe on x86 "
                "servers, NVLink to POWER9 CPUs)."},
      {{M::kFp64FlopsPerS, 7.8 * kTera, C::kThirdParty, kV100},
       {M::kFp32FlopsPerS, 15.7 * kTera, C::kThirdParty, kV100},
       {M::kFp16MatrixFlopsPerS, 125 * kTera, C::kThirdParty, kV100},
       {M::kMemoryBandwidthBytesPerS, 900 * kGiga, C::kUnconfirmed, kV100Ref},
       {M::kComputeUnits, 80, C::kReported,
        "Kineto deviceProperties numSms in ../shared/data/kineto/hta/trace_diff/"
        "test.json.gz"},
       {M::kBoostClockHz, 1530e6, C::kUnconfirmed, kV100Ref},
       {M::kL2CacheBytes, 6 * kMiB, C::kThirdParty, kVoltaWhitepaper},
       {M::kMemoryBytes, 16 * kGiB, C::kThirdParty, kV100}}));
  DeviceSpec v100_32 = d.back();
  v100_32.key = "v100-sxm2-32gb";
  v100_32.name = "NVIDIA V100 SXM2 32GB";
  v100_32.aliases = {"Tesla V100-SXM2-32GB"};
  v100_32.identity_source = kNvVoltaNames;
  v100_32.Get(M::kComputeUnits) = Figure{80, C::kThirdParty, kVoltaWhitepaper};
  v100_32.Get(M::kMemoryBytes) = Figure{32 * kGiB, C::kThirdParty, kV100};
  d.push_back(v100_32);

  const char* v100_pcie =
      "NVIDIA V100 PCIe datasheet values as listed in ../shared/reference/other-backends.md "
      "§6.1 (7 / 14 / 112 TFLOPS, 1380 MHz; not re-read)";
  for (int gb : {16, 32}) {
    d.push_back(
        Make({.key = gb == 16 ? "v100-pcie-16gb" : "v100-pcie-32gb",
              .name = gb == 16 ? "NVIDIA V100 PCIe 16GB" : "NVIDIA V100 PCIe 32GB",
              .aliases = {gb == 16 ? "Tesla V100-PCIE-16GB" : "Tesla V100-PCIE-32GB"},
              .vendor = "NVIDIA",
              .backend = Backend::kCuda,
              .architecture = "sm_70",
              .identity_source = kNvVoltaNames,
              .notes = "Volta tensor cores: FP16 inputs only. V100S (a different board) is not "
                       "this entry."},
             {{M::kFp64FlopsPerS, 7 * kTera, C::kUnconfirmed, v100_pcie},
              {M::kFp32FlopsPerS, 14 * kTera, C::kUnconfirmed, v100_pcie},
              {M::kFp16MatrixFlopsPerS, 112 * kTera, C::kUnconfirmed, v100_pcie},
              {M::kMemoryBandwidthBytesPerS, 900 * kGiga, C::kUnconfirmed, v100_pcie},
              {M::kComputeUnits, 80, C::kThirdParty, kVoltaWhitepaper},
              {M::kBoostClockHz, 1380e6, C::kUnconfirmed, v100_pcie},
              {M::kL2CacheBytes, 6 * kMiB, C::kThirdParty, kVoltaWhitepaper},
              {M::kMemoryBytes, gb * kGiB, C::kThirdParty, kV100}}));
    d.back().Get(M::kHostLinkBytesPerS) = PcieX16Link(PcieGen::kGen3, kV100PcieLink);
  }

  d.push_back(Make({.key = "t4",
                    .name = "NVIDIA T4",
                    .aliases = {"Tesla T4"},
                    .vendor = "NVIDIA",
                    .backend = Backend::kCuda,
                    .architecture = "sm_75",
                    .identity_source = kNvNames,
                    .notes = "Memory bandwidth: NVIDIA quotes '320+ GB/s'; one reseller page "
                             "says 300 GB/s. FP64 not published by NVIDIA."},
                   {{M::kFp32FlopsPerS, 8.1 * kTera, C::kThirdParty, kT4},
                    {M::kFp16MatrixFlopsPerS, 65 * kTera, C::kThirdParty, kT4},
                    {M::kInt8MatrixOpsPerS, 130 * kTera, C::kThirdParty, kT4},
                    {M::kMemoryBandwidthBytesPerS, 320 * kGiga, C::kThirdParty, kT4},
                    {M::kComputeUnits, 40, C::kThirdParty, kT4},
                    {M::kBoostClockHz, 1590e6, C::kThirdParty, kT4},
                    {M::kL2CacheBytes, 4 * kMiB, C::kThirdParty, kT4},
                    {M::kMemoryBytes, 16 * kGiB, C::kThirdParty, kT4}}));
  d.back().Get(M::kHostLinkBytesPerS) = PcieX16Link(PcieGen::kGen3, kT4Link);

  // A100: four boards with the same GA100 configuration; memory and bandwidth differ.
  struct A100Board {
    const char* key;
    const char* name;
    std::vector<std::string> aliases;
    int gb;
    double bandwidth_gbs;
    Confidence bandwidth_confidence;
    const char* bandwidth_source;
    const char* link_source;
  };
  const char* nsys_a100 =
      "nsys TARGET_INFO_GPU of ../shared/data/nvidia/nsys_sqlite/"
      "jacc_report1_no_cuda_kernels_2026.1.sqlite (A100-PCIE-40GB: memoryBandwidth "
      "1555200000000, clockRate 1410000000, smCount 108, l2CacheSize 41943040)";
  std::vector<A100Board> boards = {
      {"a100-sxm4-40gb",
       "NVIDIA A100 SXM4 40GB",
       {"NVIDIA A100-SXM4-40GB", "NVIDIA A100-PG509-200"},
       40,
       1555,
       C::kThirdParty,
       kA100,
       kA100SxmLink},
      {"a100-sxm4-80gb",
       "NVIDIA A100 SXM4 80GB",
       {"NVIDIA A100-SXM4-80GB"},
       80,
       2039,
       C::kThirdParty,
       kA100Memory,
       kA100SxmLink},
      {"a100-pcie-40gb",
       "NVIDIA A100 PCIe 40GB",
       {"NVIDIA A100-PCIE-40GB"},
       40,
       1555.2,
       C::kReported,
       nsys_a100,
       kA100Pcie40Link},
      {"a100-pcie-80gb",
       "NVIDIA A100 PCIe 80GB",
       {"NVIDIA A100 80GB PCIe"},
       80,
       1935,
       C::kThirdParty,
       kA100Memory,
       kA100Pcie80Link},
  };
  for (const A100Board& b : boards) {
    bool pcie40 = std::string_view(b.key) == "a100-pcie-40gb";
    DeviceSpec spec = Make(
        {.key = b.key,
         .name = b.name,
         .aliases = b.aliases,
         .vendor = "NVIDIA",
         .backend = Backend::kCuda,
         .architecture = "sm_80",
         .identity_source =
             std::string(kNvNames) +
             "; 'NVIDIA A100-PG509-200' has PCI device 20B0, the A100-SXM4-40GB's, and the HTA "
             "Kineto samples report it with CC 8.0, 108 SMs and 39.4 GiB",
         .notes = "The datasheet gives the same peaks for the SXM4 and PCIe boards."},
        {{M::kFp64FlopsPerS, 9.7 * kTera, C::kThirdParty, kA100},
         {M::kFp64MatrixFlopsPerS, 19.5 * kTera, C::kThirdParty, kA100},
         {M::kFp32FlopsPerS, 19.5 * kTera, C::kThirdParty, kA100},
         {M::kTf32MatrixFlopsPerS, 156 * kTera, C::kThirdParty, kA100},
         {M::kFp16MatrixFlopsPerS, 312 * kTera, C::kThirdParty, kA100},
         {M::kBf16MatrixFlopsPerS, 312 * kTera, C::kThirdParty, kA100},
         {M::kInt8MatrixOpsPerS, 624 * kTera, C::kThirdParty, kA100},
         {M::kMemoryBandwidthBytesPerS, b.bandwidth_gbs * kGiga, b.bandwidth_confidence,
          b.bandwidth_source},
         {M::kComputeUnits, 108, pcie40 ? C::kReported : C::kThirdParty,
          pcie40 ? nsys_a100 : kA100},
         {M::kBoostClockHz, 1410e6, pcie40 ? C::kReported : C::kThirdParty,
          pcie40 ? nsys_a100 : kA100Memory},
         {M::kL2CacheBytes, 40 * kMiB, pcie40 ? C::kReported : C::kThirdParty,
          pcie40 ? nsys_a100 : kA100Memory},
         {M::kMemoryBytes, b.gb * kGiB, C::kThirdParty, kA100Memory}});
    spec.Get(M::kHostLinkBytesPerS) = PcieX16Link(PcieGen::kGen4, b.link_source);
    d.push_back(std::move(spec));
  }

  d.push_back(Make({.key = "a10",
                    .name = "NVIDIA A10",
                    .aliases = {"NVIDIA A10"},
                    .vendor = "NVIDIA",
                    .backend = Backend::kCuda,
                    .architecture = "sm_86",
                    .identity_source = kNvNames,
                    .notes = "Not the AWS A10G (a different board with its own name)."},
                   {{M::kFp32FlopsPerS, 31.2 * kTera, C::kThirdParty, kA10Board},
                    {M::kTf32MatrixFlopsPerS, 62.5 * kTera, C::kUnconfirmed, kA10},
                    {M::kFp16MatrixFlopsPerS, 125 * kTera, C::kUnconfirmed, kA10},
                    {M::kBf16MatrixFlopsPerS, 125 * kTera, C::kUnconfirmed, kA10},
                    {M::kInt8MatrixOpsPerS, 250 * kTera, C::kUnconfirmed, kA10},
                    {M::kMemoryBandwidthBytesPerS, 600 * kGiga, C::kThirdParty, kA10Board},
                    {M::kComputeUnits, 72, C::kThirdParty, kA10Board},
                    {M::kBoostClockHz, 1695e6, C::kThirdParty, kA10Board},
                    {M::kL2CacheBytes, 6 * kMiB, C::kThirdParty, kA10Board},
                    {M::kMemoryBytes, 24 * kGiB, C::kThirdParty, kA10Board}}));
  d.back().Get(M::kHostLinkBytesPerS) = PcieX16Link(PcieGen::kGen4, kA10Link);

  d.push_back(Make({.key = "l4",
                    .name = "NVIDIA L4",
                    .aliases = {"NVIDIA L4"},
                    .vendor = "NVIDIA",
                    .backend = Backend::kCuda,
                    .architecture = "sm_89",
                    .identity_source = kNvNames,
                    .notes = "SM count left out: listings disagree (58 vs 60)."},
                   {{M::kFp32FlopsPerS, 30.3 * kTera, C::kThirdParty, kL4},
                    {M::kTf32MatrixFlopsPerS, 60 * kTera, C::kThirdParty, kL4},
                    {M::kFp16MatrixFlopsPerS, 121 * kTera, C::kThirdParty, kL4},
                    {M::kBf16MatrixFlopsPerS, 121 * kTera, C::kThirdParty, kL4},
                    {M::kFp8MatrixFlopsPerS, 242.5 * kTera, C::kThirdParty, kL4},
                    {M::kInt8MatrixOpsPerS, 242.5 * kTera, C::kThirdParty, kL4},
                    {M::kMemoryBandwidthBytesPerS, 300 * kGiga, C::kThirdParty, kL4},
                    {M::kBoostClockHz, 2040e6, C::kThirdParty, kL4},
                    {M::kL2CacheBytes, 48 * kMiB, C::kThirdParty, kL4},
                    {M::kMemoryBytes, 24 * kGiB, C::kThirdParty, kL4}}));
  d.back().Get(M::kHostLinkBytesPerS) = PcieX16Link(PcieGen::kGen4, kL4Link);

  d.push_back(
      Make({.key = "l40s",
            .name = "NVIDIA L40S",
            .aliases = {"NVIDIA L40S"},
            .vendor = "NVIDIA",
            .backend = Backend::kCuda,
            .architecture = "sm_89",
            .identity_source = kNvNames,
            .notes = "Not the L40 (its own name and figures). L2 size left out: listings disagree "
                     "(48 vs 96 MB)."},
           {{M::kFp32FlopsPerS, 91.6 * kTera, C::kThirdParty, kL40S},
            {M::kTf32MatrixFlopsPerS, 183 * kTera, C::kThirdParty, kL40S},
            {M::kFp16MatrixFlopsPerS, 362.05 * kTera, C::kThirdParty, kL40S},
            {M::kBf16MatrixFlopsPerS, 362.05 * kTera, C::kThirdParty, kL40S},
            {M::kFp8MatrixFlopsPerS, 733 * kTera, C::kThirdParty, kL40S},
            {M::kInt8MatrixOpsPerS, 733 * kTera, C::kUnconfirmed,
             "NVIDIA L40S datasheet value as listed in ../shared/reference/other-backends.md §6.1; "
             "the reproduced datasheet table leaves the L40S INT8 cell empty"},
            {M::kMemoryBandwidthBytesPerS, 864 * kGiga, C::kThirdParty, kL40S},
            {M::kComputeUnits, 142, C::kThirdParty, kL40S},
            {M::kBoostClockHz, 2520e6, C::kThirdParty, kL40S},
            {M::kMemoryBytes, 48 * kGiB, C::kThirdParty, kL40S}}));
  d.back().Get(M::kHostLinkBytesPerS) = PcieX16Link(PcieGen::kGen4, kL40SLink);

  d.push_back(Make({.key = "h100-sxm5-80gb",
                    .name = "NVIDIA H100 SXM5 80GB",
                    .aliases = {"NVIDIA H100 80GB HBM3"},
                    .vendor = "NVIDIA",
                    .backend = Backend::kCuda,
                    .architecture = "sm_90",
                    .identity_source = kNvNames,
                    .notes = "'NVIDIA H100' alone (PCI 2339) is not matched: it names no "
                             "form factor."},
                   {{M::kFp64FlopsPerS, 34 * kTera, C::kThirdParty, kH100},
                    {M::kFp64MatrixFlopsPerS, 67 * kTera, C::kThirdParty, kH100},
                    {M::kFp32FlopsPerS, 67 * kTera, C::kThirdParty, kH100},
                    {M::kTf32MatrixFlopsPerS, 494.5 * kTera, C::kThirdParty, kH100},
                    {M::kFp16MatrixFlopsPerS, 989.5 * kTera, C::kThirdParty, kH100},
                    {M::kBf16MatrixFlopsPerS, 989.5 * kTera, C::kThirdParty, kH100},
                    {M::kFp8MatrixFlopsPerS, 1979 * kTera, C::kThirdParty, kH100},
                    {M::kInt8MatrixOpsPerS, 1979 * kTera, C::kThirdParty, kH100},
                    {M::kMemoryBandwidthBytesPerS, 3350 * kGiga, C::kThirdParty, kH100},
                    {M::kComputeUnits, 132, C::kThirdParty, kH100},
                    {M::kBoostClockHz, 1980e6, C::kThirdParty, kH100Clock},
                    {M::kL2CacheBytes, 50 * kMiB, C::kThirdParty, kH100},
                    {M::kMemoryBytes, 80 * kGiB, C::kThirdParty, kH100}}));
  d.back().Get(M::kHostLinkBytesPerS) = PcieX16Link(PcieGen::kGen5, kH100Link);

  d.push_back(Make({.key = "h100-pcie-80gb",
                    .name = "NVIDIA H100 PCIe 80GB",
                    .aliases = {"NVIDIA H100 PCIe"},
                    .vendor = "NVIDIA",
                    .backend = Backend::kCuda,
                    .architecture = "sm_90",
                    .identity_source = kNvNames},
                   {{M::kFp64FlopsPerS, 26 * kTera, C::kThirdParty, kH100},
                    {M::kFp64MatrixFlopsPerS, 51 * kTera, C::kThirdParty, kH100},
                    {M::kFp32FlopsPerS, 51 * kTera, C::kThirdParty, kH100},
                    {M::kTf32MatrixFlopsPerS, 378 * kTera, C::kThirdParty, kH100},
                    {M::kFp16MatrixFlopsPerS, 756.5 * kTera, C::kThirdParty, kH100},
                    {M::kBf16MatrixFlopsPerS, 756.5 * kTera, C::kThirdParty, kH100},
                    {M::kFp8MatrixFlopsPerS, 1513 * kTera, C::kThirdParty, kH100},
                    {M::kInt8MatrixOpsPerS, 1513 * kTera, C::kThirdParty, kH100},
                    {M::kMemoryBandwidthBytesPerS, 2000 * kGiga, C::kThirdParty, kH100},
                    {M::kComputeUnits, 114, C::kThirdParty, kH100},
                    {M::kBoostClockHz, 1755e6, C::kUnconfirmed,
                     "../shared/reference/other-backends.md §6.1 (third-party table, not "
                     "re-read)"},
                    {M::kL2CacheBytes, 50 * kMiB, C::kThirdParty, kH100},
                    {M::kMemoryBytes, 80 * kGiB, C::kThirdParty, kH100}}));
  d.back().Get(M::kHostLinkBytesPerS) = PcieX16Link(PcieGen::kGen5, kH100Link);

  d.push_back(
      Make({.key = "h100-nvl-94gb",
            .name = "NVIDIA H100 NVL 94GB",
            .aliases = {"NVIDIA H100 NVL"},
            .vendor = "NVIDIA",
            .backend = Backend::kCuda,
            .architecture = "sm_90",
            .identity_source = kNvNames,
            .notes = "No peak FLOP/s: the H100 NVL datasheet was not found, and the third-party "
                     "pages seen disagree with each other. Supply them with --device-spec."},
           {{M::kMemoryBandwidthBytesPerS, 3.9e12, C::kUnconfirmed,
             "grokipedia 'NVIDIA H100 NVL (900-21010-0120-030)': up to 3.93 TB/s (single source)"},
            {M::kMemoryBytes, 94 * kGiB, C::kThirdParty,
             "grokipedia H100 NVL page; clawkipedia.org H100 page (94 GB HBM3)"}}));
  d.back().Get(M::kHostLinkBytesPerS) = PcieX16Link(PcieGen::kGen5, kH100NvlLink);

  d.push_back(Make(
      {.key = "h200-sxm-141gb",
       .name = "NVIDIA H200 SXM 141GB",
       .aliases = {"NVIDIA H200"},
       .vendor = "NVIDIA",
       .backend = Backend::kCuda,
       .architecture = "sm_90",
       .identity_source = kNvNames,
       .notes = "The H200 NVL (its own name) is not this entry."},
      {{M::kFp64FlopsPerS, 34 * kTera, C::kThirdParty, kH200},
       {M::kFp64MatrixFlopsPerS, 67 * kTera, C::kThirdParty, kH200},
       {M::kFp32FlopsPerS, 67 * kTera, C::kThirdParty, kH200},
       {M::kTf32MatrixFlopsPerS, 494.5 * kTera, C::kThirdParty, kH200},
       {M::kFp16MatrixFlopsPerS, 989.5 * kTera, C::kThirdParty, kH200},
       {M::kBf16MatrixFlopsPerS, 989.5 * kTera, C::kThirdParty, kH200},
       {M::kFp8MatrixFlopsPerS, 1979 * kTera, C::kThirdParty, kH200},
       {M::kInt8MatrixOpsPerS, 1979 * kTera, C::kThirdParty, kH200},
       {M::kMemoryBandwidthBytesPerS, 4800 * kGiga, C::kThirdParty, kH200},
       {M::kComputeUnits, 132, C::kThirdParty, "saulelectric.com H200 specification (132 SMs)"},
       {M::kBoostClockHz, 1980e6, C::kUnconfirmed,
        "a vendor deployment manifest seen in public code (MaxClock SM 1980 MHz "
        "for device 0x2335); single source"},
       {M::kMemoryBytes, 141 * kGiB, C::kThirdParty, kH200}}));
  d.back().Get(M::kHostLinkBytesPerS) = PcieX16Link(PcieGen::kGen5, kH200Link);

  d.push_back(
      Make({.key = "b200",
            .name = "NVIDIA B200",
            .aliases = {"NVIDIA B200"},
            .vendor = "NVIDIA",
            .backend = Backend::kCuda,
            .architecture = "sm_100",
            .identity_source = kNvBlackwellNames,
            .notes = "HGX B200 (1000 W). Clock and L2 are not published by NVIDIA. No host-link "
                     "figure: sources disagree (PCIe Gen5 x16 in NVIDIA's MLPerf v4.1 "
                     "system description, PCIe Gen6 in the GTC 2024 figures)."},
           {{M::kFp64FlopsPerS, 37 * kTera, C::kUnconfirmed, kB200Disputed},
            {M::kFp64MatrixFlopsPerS, 37 * kTera, C::kUnconfirmed, kB200Disputed},
            {M::kFp32FlopsPerS, 75 * kTera, C::kUnconfirmed, kB200Disputed},
            {M::kTf32MatrixFlopsPerS, 1100 * kTera, C::kThirdParty, kB200Tensor},
            {M::kFp16MatrixFlopsPerS, 2250 * kTera, C::kThirdParty, kB200Tensor},
            {M::kBf16MatrixFlopsPerS, 2250 * kTera, C::kThirdParty, kB200Tensor},
            {M::kFp8MatrixFlopsPerS, 4500 * kTera, C::kThirdParty, kB200Tensor},
            {M::kInt8MatrixOpsPerS, 4500 * kTera, C::kThirdParty, kB200Tensor},
            {M::kMemoryBandwidthBytesPerS, 7.7e12, C::kUnconfirmed, kB200Disputed},
            {M::kComputeUnits, 148, C::kThirdParty,
             "not published by NVIDIA; 148 SMs in the hmc-tech.com B200 listing and as "
             "SM_COUNT in public TVM example code"},
            {M::kMemoryBytes, 180 * kGiB, C::kUnconfirmed,
             "sources disagree (180 GB in NVIDIA's HGX B200 table, 192 GB in the GTC 2024 "
             "figures); a public run log shows 'NVIDIA B200 x 2, 183,359 MiB each' "
             "(179 GiB), which fits 180"}}));

  d.push_back(
      Make({.key = "gb200",
            .name = "NVIDIA GB200",
            .aliases = {"NVIDIA GB200"},
            .vendor = "NVIDIA",
            .backend = Backend::kCuda,
            .architecture = "sm_100",
            .identity_source = kNvBlackwellNames,
            .notes = "One Blackwell GPU of a GB200 superchip (NVL72, up to 1200 W). No host-link "
                     "figure: the host link is NVLink-C2C to the Grace CPU, and no NVIDIA "
                     "per-direction figure per GPU was found."},
           {{M::kFp64FlopsPerS, 40 * kTera, C::kUnconfirmed, kGb200Disputed},
            {M::kFp64MatrixFlopsPerS, 40 * kTera, C::kUnconfirmed, kGb200Disputed},
            {M::kFp32FlopsPerS, 80 * kTera, C::kUnconfirmed, kGb200Disputed},
            {M::kTf32MatrixFlopsPerS, 1250 * kTera, C::kThirdParty, kGb200Tensor},
            {M::kFp16MatrixFlopsPerS, 2500 * kTera, C::kThirdParty, kGb200Tensor},
            {M::kBf16MatrixFlopsPerS, 2500 * kTera, C::kThirdParty, kGb200Tensor},
            {M::kFp8MatrixFlopsPerS, 5000 * kTera, C::kThirdParty, kGb200Tensor},
            {M::kInt8MatrixOpsPerS, 5000 * kTera, C::kThirdParty, kGb200Tensor},
            {M::kMemoryBandwidthBytesPerS, 8e12, C::kUnconfirmed, kGb200Disputed},
            {M::kMemoryBytes, 186 * kGiB, C::kUnconfirmed, kGb200Disputed}}));
  return d;
}

std::vector<DeviceSpec> NvidiaGeforce() {
  std::vector<DeviceSpec> d;
  const std::string geforce_notes =
      "GeForce tensor cores run FP16 with FP16 accumulation at twice the FP32-accumulation rate "
      "given here.";

  d.push_back(Make({.key = "rtx-3080-10gb",
                    .name = "NVIDIA GeForce RTX 3080 10GB",
                    .aliases = {"NVIDIA GeForce RTX 3080"},
                    .vendor = "NVIDIA",
                    .backend = Backend::kCuda,
                    .architecture = "sm_86",
                    .identity_source = std::string(kNvNames) + "; " + kNsys3080,
                    .notes = "Shares its name with the 12 GB board: the SM count (68) or the "
                             "memory size tells them apart. Tensor rates not confirmed here."},
                   {{M::kFp64FlopsPerS, 29.77 * kTera / 64, C::kDerived, kDerivedFp64Geforce},
                    {M::kFp32FlopsPerS, 2 * 128 * 68 * 1.71e9, C::kDerived,
                     "derived: 2 x 128 FP32 lanes x 68 SMs x 1.71 GHz (SMs and clock reported "
                     "by nsys, lanes per CUDA Programming Guide via ../shared/reference/"
                     "nvidia.md)"},
                    {M::kMemoryBandwidthBytesPerS, 760.08 * kGiga, C::kReported, kNsys3080},
                    {M::kComputeUnits, 68, C::kReported, kNsys3080},
                    {M::kBoostClockHz, 1710e6, C::kReported, kNsys3080},
                    {M::kL2CacheBytes, 5 * kMiB, C::kReported, kNsys3080},
                    {M::kMemoryBytes, 10 * kGiB, C::kReported, kNsys3080}}));
  d.back().Get(M::kHostLinkBytesPerS) = PcieX16Link(PcieGen::kGen4, kGa102Link);

  d.push_back(
      Make({.key = "rtx-3080-12gb",
            .name = "NVIDIA GeForce RTX 3080 12GB",
            .aliases = {"NVIDIA GeForce RTX 3080"},
            .vendor = "NVIDIA",
            .backend = Backend::kCuda,
            .architecture = "sm_86",
            .identity_source = kNvNames,
            .notes = "Shares its name with the 10 GB board: the SM count (70) or the memory size "
                     "tells them apart. L2 size left out (not confirmed)."},
           {{M::kFp64FlopsPerS, 2 * 128 * 70 * 1.71e9 / 64, C::kDerived, kDerivedFp64Geforce},
            {M::kFp32FlopsPerS, 2 * 128 * 70 * 1.71e9, C::kDerived, kDerivedFp32},
            {M::kMemoryBandwidthBytesPerS, 912 * kGiga, C::kThirdParty, k3080Twelve},
            {M::kComputeUnits, 70, C::kThirdParty, k3080Twelve},
            {M::kBoostClockHz, 1710e6, C::kThirdParty, k3080Twelve},
            {M::kMemoryBytes, 12 * kGiB, C::kThirdParty, k3080Twelve}}));

  d.push_back(Make({.key = "rtx-3090",
                    .name = "NVIDIA GeForce RTX 3090",
                    .aliases = {"NVIDIA GeForce RTX 3090"},
                    .vendor = "NVIDIA",
                    .backend = Backend::kCuda,
                    .architecture = "sm_86",
                    .identity_source = kNvNames,
                    .notes = geforce_notes + " Not the RTX 3090 Ti."},
                   {{M::kFp64FlopsPerS, 0.56 * kTera, C::kUnconfirmed, kGa102},
                    {M::kFp32FlopsPerS, 35.6 * kTera, C::kThirdParty, k3090Pages},
                    {M::kTf32MatrixFlopsPerS, 35.6 * kTera, C::kUnconfirmed, kGa102},
                    {M::kFp16MatrixFlopsPerS, 71 * kTera, C::kThirdParty, k3090Pages},
                    {M::kBf16MatrixFlopsPerS, 71 * kTera, C::kUnconfirmed, kGa102},
                    {M::kInt8MatrixOpsPerS, 284 * kTera, C::kUnconfirmed, kGa102},
                    {M::kMemoryBandwidthBytesPerS, 936 * kGiga, C::kThirdParty,
                     "GA102 whitepaper value (../shared/reference/other-backends.md §6.1), "
                     "same in a public LLM-throughput comparison table"},
                    {M::kComputeUnits, 82, C::kUnconfirmed, kGa102},
                    {M::kBoostClockHz, 1695e6, C::kUnconfirmed, kGa102},
                    {M::kL2CacheBytes, 6 * kMiB, C::kUnconfirmed, kGa102},
                    {M::kMemoryBytes, 24 * kGiB, C::kThirdParty, k3090Pages}}));
  d.back().Get(M::kHostLinkBytesPerS) = PcieX16Link(PcieGen::kGen4, kGa102Link);

  d.push_back(Make({.key = "rtx-4080",
                    .name = "NVIDIA GeForce RTX 4080",
                    .aliases = {"NVIDIA GeForce RTX 4080"},
                    .vendor = "NVIDIA",
                    .backend = Backend::kCuda,
                    .architecture = "sm_89",
                    .identity_source = kNvNames,
                    .notes = "Not the RTX 4080 SUPER. Tensor rates and L2 size not confirmed "
                             "here."},
                   {{M::kFp64FlopsPerS, 48.7 * kTera / 64, C::kDerived, kDerivedFp64Geforce},
                    {M::kFp32FlopsPerS, 48.7 * kTera, C::kThirdParty, kAd103},
                    {M::kMemoryBandwidthBytesPerS, 716.8 * kGiga, C::kUnconfirmed, k4080Bandwidth},
                    {M::kComputeUnits, 76, C::kThirdParty, kAd103},
                    {M::kBoostClockHz, 2505e6, C::kThirdParty, kAd103},
                    {M::kMemoryBytes, 16 * kGiB, C::kThirdParty, kAd103}}));

  d.push_back(Make({.key = "rtx-4090",
                    .name = "NVIDIA GeForce RTX 4090",
                    .aliases = {"NVIDIA GeForce RTX 4090"},
                    .vendor = "NVIDIA",
                    .backend = Backend::kCuda,
                    .architecture = "sm_89",
                    .identity_source = kNvNames,
                    .notes = geforce_notes + " Not the RTX 4090 D."},
                   {{M::kFp64FlopsPerS, 1.29 * kTera, C::kThirdParty, kAd102},
                    {M::kFp32FlopsPerS, 82.6 * kTera, C::kThirdParty, kAd102},
                    {M::kTf32MatrixFlopsPerS, 82.6 * kTera, C::kThirdParty, kAd102},
                    {M::kFp16MatrixFlopsPerS, 165.2 * kTera, C::kThirdParty, kAd102},
                    {M::kBf16MatrixFlopsPerS, 165.2 * kTera, C::kThirdParty, kAd102},
                    {M::kFp8MatrixFlopsPerS, 330.3 * kTera, C::kThirdParty, kAd102},
                    {M::kInt8MatrixOpsPerS, 660.6 * kTera, C::kThirdParty, kAd102},
                    {M::kMemoryBandwidthBytesPerS, 1008 * kGiga, C::kThirdParty, kAd102},
                    {M::kComputeUnits, 128, C::kThirdParty, kAd102},
                    {M::kBoostClockHz, 2520e6, C::kThirdParty, kAd102},
                    {M::kL2CacheBytes, 72 * kMiB, C::kThirdParty, kAd102},
                    {M::kMemoryBytes, 24 * kGiB, C::kThirdParty, kAd102}}));
  d.back().Get(M::kHostLinkBytesPerS) = PcieX16Link(PcieGen::kGen4, k4090Link);

  d.push_back(
      Make({.key = "rtx-5080",
            .name = "NVIDIA GeForce RTX 5080",
            .aliases = {"NVIDIA GeForce RTX 5080"},
            .vendor = "NVIDIA",
            .backend = Backend::kCuda,
            .architecture = "sm_120",
            .identity_source = kNvBlackwellNames,
            .notes = "Tensor rates not confirmed here."},
           {{M::kFp64FlopsPerS, 2 * 128 * 84 * 2.62e9 / 64, C::kDerived, kDerivedFp64Geforce},
            {M::kFp32FlopsPerS, 2 * 128 * 84 * 2.62e9, C::kDerived, kDerivedFp32},
            {M::kMemoryBandwidthBytesPerS, 960 * kGiga, C::kThirdParty, kGb203},
            {M::kComputeUnits, 84, C::kThirdParty, kGb203},
            {M::kBoostClockHz, 2620e6, C::kThirdParty, kGb203},
            {M::kL2CacheBytes, 64 * kMiB, C::kThirdParty, kGb203},
            {M::kMemoryBytes, 16 * kGiB, C::kThirdParty, kGb203}}));

  d.push_back(Make(
      {.key = "rtx-5090",
       .name = "NVIDIA GeForce RTX 5090",
       .aliases = {"NVIDIA GeForce RTX 5090"},
       .vendor = "NVIDIA",
       .backend = Backend::kCuda,
       .architecture = "sm_120",
       .identity_source = kNvBlackwellNames,
       .notes = "Tensor rates with FP32 accumulation not confirmed; the spec box quotes 838 "
                "TFLOPS FP16 and 3,352 FP8/FP4 with sparsity. Nsight Compute's own DRAM peak on "
                "the sample is 128 B/cycle x 13.72 GHz = 1.756 TB/s."},
      {{M::kFp64FlopsPerS, 2 * 340 * 2.407e9, C::kDerived, kNcu5090Fp64},
       {M::kFp32FlopsPerS, 2 * 21760 * 2.407e9, C::kDerived, kNcu5090Fp32},
       {M::kMemoryBandwidthBytesPerS, 1792 * kGiga, C::kThirdParty, kGb202},
       {M::kComputeUnits, 170, C::kReported, kNcu5090Sm},
       {M::kBoostClockHz, 2407e6, C::kThirdParty, kGb202},
       {M::kL2CacheBytes, 96 * kMiB, C::kThirdParty, kGb202},
       {M::kMemoryBytes, 32 * kGiB, C::kThirdParty, kGb202}}));
  return d;
}

std::vector<DeviceSpec> Amd() {
  std::vector<DeviceSpec> d;
  auto instinct = [](const char* key, const char* model, const char* arch) {
    return DeviceSpec{.key = key,
                      .name = std::string("AMD Instinct ") + model,
                      .aliases = {std::string("AMD Instinct ") + model},
                      .vendor = "AMD",
                      .backend = Backend::kRocm,
                      .architecture = arch,
                      .identity_source = kRocmSpecs};
  };

  DeviceSpec mi100 = instinct("mi100", "MI100", "gfx908");
  mi100.notes = "No FP64 matrix rate and no INT8 figure in the ROCm table.";
  d.push_back(Make(mi100, {{M::kFp64FlopsPerS, 11.5 * kTera, C::kVendor, kMi100Doc},
                           {M::kFp32FlopsPerS, 23.1 * kTera, C::kVendor, kMi100Doc},
                           {M::kFp32MatrixFlopsPerS, 46.1 * kTera, C::kVendor, kMi100Doc},
                           {M::kFp16MatrixFlopsPerS, 184.6 * kTera, C::kVendor, kMi100Doc},
                           {M::kBf16MatrixFlopsPerS, 92.3 * kTera, C::kVendor, kMi100Doc},
                           {M::kMemoryBandwidthBytesPerS, 1.2288e12, C::kVendor,
                            "ROCm MI100 microarchitecture: 1.228 TB/s (4096 bit x 2 x 1.2 GHz)"},
                           {M::kComputeUnits, 120, C::kVendor, kRocmSpecs},
                           {M::kBoostClockHz, 1.5e9, C::kVendor, kMi100Doc},
                           {M::kL2CacheBytes, 8 * kMiB, C::kVendor, kRocmSpecs},
                           {M::kMemoryBytes, 32 * kGiB, C::kVendor, kRocmSpecs}}));
  d.back().Get(M::kHostLinkBytesPerS) = PcieX16Link(PcieGen::kGen4, kMi100Link);

  d.push_back(Make(instinct("mi210", "MI210", "gfx90a"),
                   {{M::kFp64FlopsPerS, 128 * 104 * 1.7e9, C::kDerived, kMi200Derived},
                    {M::kFp64MatrixFlopsPerS, 256 * 104 * 1.7e9, C::kDerived, kMi200Derived},
                    {M::kFp32FlopsPerS, 128 * 104 * 1.7e9, C::kDerived, kMi200Derived},
                    {M::kFp32MatrixFlopsPerS, 256 * 104 * 1.7e9, C::kDerived, kMi200Derived},
                    {M::kFp16MatrixFlopsPerS, 1024 * 104 * 1.7e9, C::kDerived, kMi200Derived},
                    {M::kBf16MatrixFlopsPerS, 1024 * 104 * 1.7e9, C::kDerived, kMi200Derived},
                    {M::kInt8MatrixOpsPerS, 1024 * 104 * 1.7e9, C::kDerived, kMi200Derived},
                    {M::kMemoryBandwidthBytesPerS, 1638.4 * kGiga, C::kUnconfirmed, kMi200Sysinfo},
                    {M::kComputeUnits, 104, C::kVendor, kRocmSpecs},
                    {M::kBoostClockHz, 1.7e9, C::kUnconfirmed, kMi200Sysinfo},
                    {M::kL2CacheBytes, 8 * kMiB, C::kVendor, kRocmSpecs},
                    {M::kMemoryBytes, 64 * kGiB, C::kVendor, kRocmSpecs}}));
  d.back().Get(M::kHostLinkBytesPerS) = PcieX16Link(PcieGen::kGen4, kMi210Link);
  d.back().notes =
      "The derived peaks assume MI250's 1.7 GHz peak clock, which the MI200 fixture also shows.";

  DeviceSpec mi250 = instinct("mi250", "MI250", "gfx90a");
  mi250.devices_per_package = 2;
  mi250.notes =
      "Two GCDs, each its own device (104 CUs, 64 GiB, 1.6 TB/s); figures are per package. "
      "ROCm may report a GCD as the generic 'AMD Radeon Graphics', which cannot be told apart "
      "from an MI210 (same CUs and memory).";
  d.push_back(Make(mi250, {{M::kFp64FlopsPerS, 45.3 * kTera, C::kVendor, kMi250Doc},
                           {M::kFp64MatrixFlopsPerS, 90.5 * kTera, C::kVendor, kMi250Doc},
                           {M::kFp32FlopsPerS, 45.3 * kTera, C::kVendor, kMi250Doc},
                           {M::kFp32MatrixFlopsPerS, 90.5 * kTera, C::kVendor, kMi250Doc},
                           {M::kFp16MatrixFlopsPerS, 362.1 * kTera, C::kVendor, kMi250Doc},
                           {M::kBf16MatrixFlopsPerS, 362.1 * kTera, C::kVendor, kMi250Doc},
                           {M::kInt8MatrixOpsPerS, 362.1 * kTera, C::kVendor, kMi250Doc},
                           {M::kMemoryBandwidthBytesPerS, 3.2e12, C::kVendor, kMi250Doc},
                           {M::kComputeUnits, 208, C::kVendor, kRocmSpecs},
                           {M::kBoostClockHz, 1.7e9, C::kVendor, kMi250Doc},
                           {M::kL2CacheBytes, 16 * kMiB, C::kVendor, kRocmSpecs},
                           {M::kMemoryBytes, 128 * kGiB, C::kVendor, kRocmSpecs}}));
  d.back().Get(M::kHostLinkBytesPerS) =
      PcieX16Link(PcieGen::kGen4, kMi250Link, mi250.devices_per_package);

  DeviceSpec mi250x = instinct("mi250x", "MI250X", "gfx90a");
  mi250x.devices_per_package = 2;
  mi250x.notes =
      "Two GCDs, each its own device (110 CUs, 64 GiB); figures are per package. "
      "Peaks assume MI250's 1.7 GHz. No host-link figure: ROCm documents PCIe Gen4 x16 for "
      "the MI250 only, and HPE Cray EX nodes attach the MI250X to the CPU over Infinity Fabric.";
  d.push_back(Make(
      mi250x, {{M::kFp64FlopsPerS, 128 * 220 * 1.7e9, C::kDerived, kMi200Derived},
               {M::kFp64MatrixFlopsPerS, 256 * 220 * 1.7e9, C::kDerived, kMi200Derived},
               {M::kFp32FlopsPerS, 128 * 220 * 1.7e9, C::kDerived, kMi200Derived},
               {M::kFp32MatrixFlopsPerS, 256 * 220 * 1.7e9, C::kDerived, kMi200Derived},
               {M::kFp16MatrixFlopsPerS, 1024 * 220 * 1.7e9, C::kDerived, kMi200Derived},
               {M::kBf16MatrixFlopsPerS, 1024 * 220 * 1.7e9, C::kDerived, kMi200Derived},
               {M::kInt8MatrixOpsPerS, 1024 * 220 * 1.7e9, C::kDerived, kMi200Derived},
               {M::kMemoryBandwidthBytesPerS, 3276.8 * kGiga, C::kUnconfirmed, kMi250xBandwidth},
               {M::kComputeUnits, 220, C::kVendor, kRocmSpecs},
               {M::kL2CacheBytes, 16 * kMiB, C::kVendor, kRocmSpecs},
               {M::kMemoryBytes, 128 * kGiB, C::kVendor, kRocmSpecs}}));

  DeviceSpec mi300x = instinct("mi300x", "MI300X", "gfx942");
  mi300x.notes = "256 MB Infinity Cache (last level) besides the 32 MB L2.";
  d.push_back(Make(mi300x, {{M::kFp64FlopsPerS, 81.7 * kTera, C::kVendor, kMi300Doc},
                            {M::kFp64MatrixFlopsPerS, 163.4 * kTera, C::kVendor, kMi300Doc},
                            {M::kFp32FlopsPerS, 163.4 * kTera, C::kVendor, kMi300Doc},
                            {M::kFp32MatrixFlopsPerS, 163.4 * kTera, C::kVendor, kMi300Doc},
                            {M::kTf32MatrixFlopsPerS, 653.7 * kTera, C::kVendor, kMi300Doc},
                            {M::kFp16MatrixFlopsPerS, 1307.4 * kTera, C::kVendor, kMi300Doc},
                            {M::kBf16MatrixFlopsPerS, 1307.4 * kTera, C::kVendor, kMi300Doc},
                            {M::kFp8MatrixFlopsPerS, 2614.9 * kTera, C::kVendor, kMi300Doc},
                            {M::kInt8MatrixOpsPerS, 2614.9 * kTera, C::kVendor, kMi300Doc},
                            {M::kMemoryBandwidthBytesPerS, 5.3e12, C::kVendor, kMi300Doc},
                            {M::kComputeUnits, 304, C::kVendor, kRocmSpecs},
                            {M::kBoostClockHz, 2.1e9, C::kDerived, kMi300Clock},
                            {M::kL2CacheBytes, 32 * kMiB, C::kVendor, kRocmSpecs},
                            {M::kMemoryBytes, 192 * kGiB, C::kVendor, kRocmSpecs}}));
  d.back().Get(M::kHostLinkBytesPerS) = PcieX16Link(PcieGen::kGen5, kMi300xLink);

  DeviceSpec mi300a = instinct("mi300a", "MI300A", "gfx942");
  mi300a.notes = "APU: the 128 GiB HBM3 is shared with the CPU cores.";
  d.push_back(
      Make(mi300a, {{M::kFp64FlopsPerS, 128 * 228 * 2.1e9, C::kDerived, kMi300aDerived},
                    {M::kFp64MatrixFlopsPerS, 256 * 228 * 2.1e9, C::kDerived, kMi300aDerived},
                    {M::kFp32FlopsPerS, 256 * 228 * 2.1e9, C::kDerived, kMi300aDerived},
                    {M::kFp32MatrixFlopsPerS, 256 * 228 * 2.1e9, C::kDerived, kMi300aDerived},
                    {M::kTf32MatrixFlopsPerS, 1024 * 228 * 2.1e9, C::kDerived, kMi300aDerived},
                    {M::kFp16MatrixFlopsPerS, 2048 * 228 * 2.1e9, C::kDerived, kMi300aDerived},
                    {M::kBf16MatrixFlopsPerS, 2048 * 228 * 2.1e9, C::kDerived, kMi300aDerived},
                    {M::kFp8MatrixFlopsPerS, 4096 * 228 * 2.1e9, C::kDerived, kMi300aDerived},
                    {M::kInt8MatrixOpsPerS, 4096 * 228 * 2.1e9, C::kDerived, kMi300aDerived},
                    {M::kMemoryBandwidthBytesPerS, 5.3e12, C::kUnconfirmed, kMi300aBandwidth},
                    {M::kComputeUnits, 228, C::kVendor, kRocmSpecs},
                    {M::kL2CacheBytes, 24 * kMiB, C::kVendor, kRocmSpecs},
                    {M::kMemoryBytes, 128 * kGiB, C::kVendor, kRocmSpecs}}));

  d.push_back(Make(instinct("mi325x", "MI325X", "gfx942"),
                   {{M::kFp64FlopsPerS, 81.7 * kTera, C::kDerived, kMi325xDerived},
                    {M::kFp64MatrixFlopsPerS, 163.4 * kTera, C::kDerived, kMi325xDerived},
                    {M::kFp32FlopsPerS, 163.4 * kTera, C::kDerived, kMi325xDerived},
                    {M::kFp32MatrixFlopsPerS, 163.4 * kTera, C::kDerived, kMi325xDerived},
                    {M::kTf32MatrixFlopsPerS, 653.7 * kTera, C::kDerived, kMi325xDerived},
                    {M::kFp16MatrixFlopsPerS, 1307.4 * kTera, C::kDerived, kMi325xDerived},
                    {M::kBf16MatrixFlopsPerS, 1307.4 * kTera, C::kDerived, kMi325xDerived},
                    {M::kFp8MatrixFlopsPerS, 2614.9 * kTera, C::kDerived, kMi325xDerived},
                    {M::kInt8MatrixOpsPerS, 2614.9 * kTera, C::kDerived, kMi325xDerived},
                    {M::kMemoryBandwidthBytesPerS, 6.0e12, C::kThirdParty, kMi325xBandwidth},
                    {M::kComputeUnits, 304, C::kVendor, kRocmSpecs},
                    {M::kL2CacheBytes, 32 * kMiB, C::kVendor, kRocmSpecs},
                    {M::kMemoryBytes, 256 * kGiB, C::kVendor, kRocmSpecs}}));
  d.back().Get(M::kHostLinkBytesPerS) = PcieX16Link(PcieGen::kGen5, kMi325xLink);

  struct Cdna4 {
    const char* key;
    const char* model;
    double fp64, fp32, fp16, fp8;
    double clock_ghz;  // fp32 / (256 CUs x 256 FLOPS/clock), rounded as the docs round
  };
  for (const Cdna4& c : {Cdna4{"mi350x", "MI350X", 72.1, 144.2, 2300, 4600, 2.2},
                         Cdna4{"mi355x", "MI355X", 78.6, 157.3, 2500, 5000, 2.4}}) {
    DeviceSpec spec = instinct(c.key, c.model, "gfx950");
    spec.notes = "CDNA4 has no TF32 matrix rate; MXFP6/MXFP4 run at twice the FP8 rate.";
    d.push_back(Make(spec, {{M::kFp64FlopsPerS, c.fp64 * kTera, C::kVendor, kMi350Doc},
                            {M::kFp64MatrixFlopsPerS, c.fp64 * kTera, C::kVendor, kMi350Doc},
                            {M::kFp32FlopsPerS, c.fp32 * kTera, C::kVendor, kMi350Doc},
                            {M::kFp32MatrixFlopsPerS, c.fp32 * kTera, C::kVendor, kMi350Doc},
                            {M::kFp16MatrixFlopsPerS, c.fp16 * kTera, C::kVendor, kMi350Doc},
                            {M::kBf16MatrixFlopsPerS, c.fp16 * kTera, C::kVendor, kMi350Doc},
                            {M::kFp8MatrixFlopsPerS, c.fp8 * kTera, C::kVendor, kMi350Doc},
                            {M::kInt8MatrixOpsPerS, c.fp8 * kTera, C::kVendor, kMi350Doc},
                            {M::kMemoryBandwidthBytesPerS, 8e12, C::kVendor, kMi350Doc},
                            {M::kComputeUnits, 256, C::kVendor, kRocmSpecs},
                            {M::kBoostClockHz, c.clock_ghz * kGiga, C::kDerived, kMi350Clock},
                            {M::kL2CacheBytes, 32 * kMiB, C::kVendor, kRocmSpecs},
                            {M::kMemoryBytes, 288 * kGiB, C::kVendor, kRocmSpecs}}));
  }

  d.push_back(Make({.key = "rx-7900-xtx",
                    .name = "AMD Radeon RX 7900 XTX",
                    .aliases = {"AMD Radeon RX 7900 XTX"},
                    .vendor = "AMD",
                    .backend = Backend::kRocm,
                    .architecture = "gfx1100",
                    .identity_source = kRocmSpecs,
                    .notes = "RDNA3: the FP32 peak counts dual issue (30.7 TFLOPS single "
                             "issue). 96 MB Infinity Cache besides the 6 MB L2."},
                   {{M::kFp32FlopsPerS, 61.4 * kTera, C::kThirdParty, kNavi31},
                    {M::kFp16MatrixFlopsPerS, 122.8 * kTera, C::kUnconfirmed, kNavi31Fp16},
                    {M::kMemoryBandwidthBytesPerS, 960 * kGiga, C::kThirdParty, kNavi31},
                    {M::kComputeUnits, 96, C::kVendor, kRocmSpecs},
                    {M::kBoostClockHz, 2500e6, C::kThirdParty, kNavi31},
                    {M::kL2CacheBytes, 6 * kMiB, C::kVendor, kRocmSpecs},
                    {M::kMemoryBytes, 24 * kGiB, C::kVendor, kRocmSpecs}}));
  return d;
}

std::vector<DeviceSpec> Apple() {
  // One entry per chip and GPU core count that Apple documents. Metal reports only the chip
  // name ("Apple M3 Max"), which covers several core counts, so every entry needs the core
  // count to confirm a match (name_covers_variants). Apple publishes FP32 TFLOPS only for the
  // M1 and M2 families; the rest stay absent.
  struct Chip {
    const char* key;
    const char* name;
    const char* family;
    int cores;
    double bandwidth_gbs;
    Confidence bandwidth_confidence;
    const char* bandwidth_source;
    double fp32_tflops;  // 0 = not published
    Confidence fp32_confidence;
    const char* fp32_source;
  };
  const Chip chips[] = {
      {"apple-m1-8c", "Apple M1", "apple7", 8, 68.25, C::kUnconfirmed, kAppleRef, 2.6,
       C::kUnconfirmed, kAppleRef},
      {"apple-m1-pro-16c", "Apple M1 Pro", "apple7", 16, 200, C::kThirdParty, kM1ProMax, 5.2,
       C::kThirdParty, kM1ProMax},
      {"apple-m1-max-24c", "Apple M1 Max", "apple7", 24, 400, C::kThirdParty, kM1ProMax, 0,
       C::kUnconfirmed, nullptr},
      {"apple-m1-max-32c", "Apple M1 Max", "apple7", 32, 400, C::kThirdParty, kM1ProMax, 10.4,
       C::kUnconfirmed, kAppleRef},
      {"apple-m2-10c", "Apple M2", "apple8", 10, 100, C::kThirdParty, kM2Family, 3.6,
       C::kUnconfirmed, kAppleRef},
      {"apple-m2-pro-19c", "Apple M2 Pro", "apple8", 19, 200, C::kThirdParty, kM2Family, 6.8,
       C::kUnconfirmed, kAppleRef},
      {"apple-m2-max-38c", "Apple M2 Max", "apple8", 38, 400, C::kUnconfirmed, kAppleRef, 13.6,
       C::kUnconfirmed, kAppleRef},
      {"apple-m3-10c", "Apple M3", "apple9", 10, 100, C::kThirdParty, kM3Family, 0, C::kUnconfirmed,
       nullptr},
      {"apple-m3-pro-14c", "Apple M3 Pro", "apple9", 14, 150, C::kThirdParty, kM3Family, 0,
       C::kUnconfirmed, nullptr},
      {"apple-m3-pro-18c", "Apple M3 Pro", "apple9", 18, 150, C::kThirdParty, kM3Family, 0,
       C::kUnconfirmed, nullptr},
      {"apple-m3-max-30c", "Apple M3 Max", "apple9", 30, 300, C::kUnconfirmed, kAppleRef, 0,
       C::kUnconfirmed, nullptr},
      {"apple-m3-max-40c", "Apple M3 Max", "apple9", 40, 400, C::kThirdParty, kM4Family, 0,
       C::kUnconfirmed, nullptr},
      {"apple-m4-8c", "Apple M4", "apple9", 8, 120, C::kThirdParty, kM4Family, 0, C::kUnconfirmed,
       nullptr},
      {"apple-m4-10c", "Apple M4", "apple9", 10, 120, C::kThirdParty, kM4Family, 0, C::kUnconfirmed,
       nullptr},
      {"apple-m4-pro-16c", "Apple M4 Pro", "apple9", 16, 273, C::kThirdParty, kM4Family, 0,
       C::kUnconfirmed, nullptr},
      {"apple-m4-pro-20c", "Apple M4 Pro", "apple9", 20, 273, C::kThirdParty, kM4Family, 0,
       C::kUnconfirmed, nullptr},
      {"apple-m4-max-32c", "Apple M4 Max", "apple9", 32, 410, C::kThirdParty, kM4Family, 0,
       C::kUnconfirmed, nullptr},
      {"apple-m4-max-40c", "Apple M4 Max", "apple9", 40, 546, C::kThirdParty, kM4Family, 0,
       C::kUnconfirmed, nullptr},
  };
  std::vector<DeviceSpec> d;
  for (const Chip& c : chips) {
    DeviceSpec spec{.key = c.key,
                    .name = fmt::format("{} ({}-core GPU)", c.name, c.cores),
                    .aliases = {c.name},
                    .vendor = "Apple",
                    .backend = Backend::kMetal,
                    .architecture = c.family,
                    .identity_source = kAppleFamilies,
                    .name_covers_variants = true,
                    .notes =
                        "Unified memory shared with the CPU; capacity depends on the "
                        "configuration."};
    spec.Get(M::kComputeUnits) =
        Figure{static_cast<double>(c.cores), c.bandwidth_confidence, c.bandwidth_source};
    spec.Get(M::kMemoryBandwidthBytesPerS) =
        Figure{c.bandwidth_gbs * kGiga, c.bandwidth_confidence, c.bandwidth_source};
    if (c.fp32_tflops > 0) {
      spec.Get(M::kFp32FlopsPerS) = Figure{c.fp32_tflops * kTera, c.fp32_confidence, c.fp32_source};
    }
    d.push_back(std::move(spec));
  }
  return d;
}

DeviceSpec GenericCpu() {
  return DeviceSpec{
      .key = "cpu",
      .name = "CPU (generic)",
      .aliases = {"CPU"},
      .vendor = "",
      .backend = Backend::kCpu,
      .architecture = "",
      .identity_source = "tensormorph: the host processor of CPU-backend traces",
      .notes =
          "No figures: CPU peaks depend on the model, core count, vector width and "
          "sustained clock (peak = cores x FLOP/cycle x clock; bandwidth = channels x MT/s x "
          "8 B, ../shared/reference/other-backends.md §6.4). Give them with --device-spec."};
}

}  // namespace

const std::vector<DeviceSpec>& BuiltInDevices() {
  static const std::vector<DeviceSpec> devices = [] {
    std::vector<DeviceSpec> all;
    for (auto* part : {&NvidiaDataCenter, &NvidiaGeforce, &Amd, &Apple}) {
      for (DeviceSpec& d : part()) all.push_back(std::move(d));
    }
    all.push_back(GenericCpu());
    return all;
  }();
  return devices;
}

}  // namespace tensormorph
