// The device database: peak throughput per precision, memory bandwidth and the sizes a roofline
// and an occupancy estimate need, per GPU model (NVIDIA, AMD, Apple) plus a generic CPU entry.
//
// Every figure carries where it comes from and how sure we are of it (Confidence). A figure that
// could not be found in a cited document is absent, never estimated. The built-in table is data,
// src/devices/devices.json (read by device_table.cc); `--device-spec FILE.json` adds devices or
// overrides figures (LoadDeviceSpecs), in the same schema.
//
// Devices in traces are matched by name (MatchDevice); a name the table does not know ("AMD
// Instinct MI300X VF", "Tesla V100-DGXS-32GB", a bare "gfx90a") is matched on the hardware the
// trace reports (backend, architecture, SM/CU count, memory size) when the name names the entry's
// model or is a generic name of a fully listed architecture. A device without a name is matched
// on that hardware alone when all four are reported ("matched by hardware: ..."). A device that
// does not match exactly
// one entry is reported as unmatched, with the entries that fit: it never borrows another model's
// numbers, because a roofline drawn against the wrong ceiling is worse than none.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "tensormorph/model/status.h"
#include "tensormorph/model/trace.h"

namespace tensormorph {

// How a figure was established, strongest first.
enum class Confidence : uint8_t {
  kVendor,       // read in the vendor's own document (datasheet, whitepaper, ROCm docs)
  kReported,     // reported by the device itself through vendor tooling in a sample file
                 // (nsys TARGET_INFO_GPU, Kineto deviceProperties, Nsight Compute peaks)
  kDerived,      // arithmetic on cited inputs; the source states the formula
  kThirdParty,   // a third-party page reproducing the vendor's figure; vendor document not read
  kUnconfirmed,  // single uncorroborated source, sources disagree, or recalled: verify before use
  kSpecFile,     // given by the user in a --device-spec file
};
const char* ConfidenceName(Confidence confidence);

struct Figure {
  double value = 0;
  Confidence confidence = Confidence::kUnconfirmed;
  std::string source;  // document name and URL where known; for kDerived also the formula
};

// The figures of one device. FLOP/s are dense peaks (no structured sparsity). "matrix" means
// NVIDIA tensor cores / AMD matrix cores; for 16-bit formats it is the rate with FP32
// accumulation (GeForce cards run FP16 accumulation at twice that rate; see the entry's notes).
enum class Metric : uint8_t {
  kFp64FlopsPerS,
  kFp64MatrixFlopsPerS,
  kFp32FlopsPerS,
  kFp32MatrixFlopsPerS,  // AMD matrix cores / packed FP32 (CDNA); NVIDIA has none
  kTf32MatrixFlopsPerS,
  kFp16MatrixFlopsPerS,
  kBf16MatrixFlopsPerS,
  kFp8MatrixFlopsPerS,
  kFp6MatrixFlopsPerS,  // MXFP6 (OCP microscaling)
  kFp4MatrixFlopsPerS,  // MXFP4 / NVFP4 (the dense rate of whichever block format the entry says)
  kInt8MatrixOpsPerS,
  kMemoryBandwidthBytesPerS,
  // Peak data rate per direction of the device's host interconnect (PCIe x16 for every entry that
  // has it): the ceiling of one host<->device copy. The device side's figure: a narrower or older
  // slot, a PCIe switch or the host's root port can be slower, and none of that is in a trace.
  kHostLinkBytesPerS,
  kComputeUnits,  // SMs (NVIDIA), CUs (AMD), GPU cores (Apple)
  kBoostClockHz,
  kL2CacheBytes,
  kMemoryBytes,  // nominal capacity (vendor "GB" read as GiB, as HBM/GDDR sizes are)
};
inline constexpr int kMetricCount = static_cast<int>(Metric::kMemoryBytes) + 1;

// The JSON / spec-file field name, with its unit ("fp32_flops_per_s", "memory_bytes").
const char* MetricName(Metric metric);
std::optional<Metric> ParseMetric(std::string_view name);
// True for counts, bytes and hertz (written as integers); false for FLOP/s (written as floats).
bool MetricIsInteger(Metric metric);

struct DeviceSpec {
  std::string key;                   // stable identifier, e.g. "a100-sxm4-40gb"
  std::string name;                  // display name: "<vendor> <model> [<form>] [<memory>GB]"
  std::vector<std::string> aliases;  // exact names devices report (nvidia-smi, HIP, Metal)
  std::string vendor;                // "NVIDIA", "AMD", "Apple", "" (generic CPU)
  Backend backend = Backend::kOther;
  std::string architecture;     // "sm_80", "gfx942", "apple8"; "" when not applicable
  std::string identity_source;  // where the aliases and the architecture come from
  std::optional<Figure> metrics[kMetricCount];
  // Devices the runtime shows per package: MI250/MI250X expose each of their two GCDs as a
  // device of its own. Figures are for the whole package; divide by this for one device.
  int devices_per_package = 1;
  // The marketing name also covers configurations the table does not list (binned GPU core
  // counts): the name alone is then not enough, the compute-unit count must confirm the match.
  bool name_covers_variants = false;
  std::string notes;

  const std::optional<Figure>& Get(Metric m) const { return metrics[static_cast<int>(m)]; }
  std::optional<Figure>& Get(Metric m) { return metrics[static_cast<int>(m)]; }
};

// The built-in table (src/devices/devices.json), one entry per model and memory / form-factor
// variant.
const std::vector<DeviceSpec>& BuiltInDevices();

// What a trace says about a device. Everything but the name is optional and narrows the match; a
// query without a name needs all of it.
struct DeviceQuery {
  std::string name;
  std::string architecture;  // "sm_86", "8.6" (compute capability), "gfx90a:sramecc+:xnack-"
  std::optional<Backend> backend;
  std::optional<int64_t> compute_units;  // SMs / CUs as the runtime reports them
  std::optional<int64_t> memory_bytes;   // total device memory as the runtime reports it
};

struct DeviceMatch {
  const DeviceSpec* spec = nullptr;  // points into the table passed to MatchDevice
  std::string reason;  // why it matched ("matched by name", "matched by architecture, CU count
                       // and memory size (...)"), or why not
  std::vector<const DeviceSpec*> candidates;  // the entries the name could mean (ambiguous)
  bool matched() const { return spec != nullptr; }
};

DeviceMatch MatchDevice(const std::vector<DeviceSpec>& devices, const DeviceQuery& query);
inline DeviceMatch MatchDevice(const DeviceQuery& query) {
  return MatchDevice(BuiltInDevices(), query);
}

// The query a trace's device gives: its name, compute capability (CUDA), backend, SM/CU count
// and memory size, each only when the trace reported it.
DeviceQuery QueryForTraceDevice(const Device& device);

// MatchDevice for a device of a trace (an unnamed one by its hardware alone, see above).
DeviceMatch MatchTraceDevice(const std::vector<DeviceSpec>& devices, const Device& device);

// "sm_80" from "8.0", "80", "sm_80", "SM80"; "gfx90a" from "gfx90a:sramecc+:xnack-"; other
// text lowercased. Empty stays empty.
std::string NormalizeArchitecture(std::string_view architecture);

// Reads a `--device-spec` file (format: docs/devices.md) and applies it to `base`: an entry
// whose "key" exists overrides the figures it gives, a new key adds a device. Errors name the
// file, the entry and the key: "FILE: devices[2] (\"my-gpu\"): fp32_flops_per_s: ...".
StatusOr<std::vector<DeviceSpec>> LoadDeviceSpecs(const std::string& path,
                                                  std::vector<DeviceSpec> base);
// The same on text already in memory (`path` only names it in errors).
StatusOr<std::vector<DeviceSpec>> ApplyDeviceSpecText(std::string_view text,
                                                      const std::string& path,
                                                      std::vector<DeviceSpec> base);

}  // namespace tensormorph
