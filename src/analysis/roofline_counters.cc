#include "tensormorph/analysis/roofline_counters.h"

#include <fmt/format.h>

#include <string>
#include <string_view>

#include "devices/measured_peaks.h"

namespace tensormorph {
namespace {

struct PrecisionNames {
  char letter;        // in raw metric names: op_ffma, op_dadd, op_hmul
  const char* upper;  // in labels: "FFMA", "DADD"
  const char* word;   // body item labels: "Single Precision Roofline"
  double weights[3];  // add, mul, fma
};

// FP16 counts packed half2 instructions, as Nsight Compute's half-precision roofline does.
constexpr PrecisionNames kNames[kCounterPrecisionCount] = {
    {'d', "D", "Double", {1, 1, 2}},
    {'f', "F", "Single", {1, 1, 2}},
    {'h', "H", "Half", {2, 2, 4}},
    {'\0', "", "Tensor", {0, 0, 0}},  // no add/mul/fma instructions: read from tensor_ops
};

constexpr int kTensor = static_cast<int>(CounterPrecision::kTensor);

// The launch's metrics, looked up by raw name or by (body item, label).
class Metrics {
 public:
  Metrics(const Trace& trace, const KernelCounters& counters)
      : trace_(trace), counters_(counters) {}

  // The first metric of that name, in any section, whose unit is `unit` (any unit when empty).
  std::optional<double> Name(std::string_view name, std::string_view unit = {}) const {
    for (const CounterValue& m : counters_.metrics) {
      if (trace_.str(m.name) == name && (unit.empty() || trace_.str(m.unit) == unit)) {
        return m.value;
      }
    }
    return std::nullopt;
  }
  // A label within a body item: the details page prints sections as "Section / Body Item".
  std::optional<double> Label(std::string_view body_item, std::string_view label,
                              std::string_view unit = {}) const {
    for (const CounterValue& m : counters_.metrics) {
      if (trace_.str(m.name) == label && trace_.str(m.section).ends_with(body_item) &&
          (unit.empty() || trace_.str(m.unit) == unit)) {
        return m.value;
      }
    }
    return std::nullopt;
  }

 private:
  const Trace& trace_;
  const KernelCounters& counters_;
};

std::optional<double> Product(std::optional<double> a, std::optional<double> b) {
  if (!a || !b) return std::nullopt;
  return *a * *b;
}

// Achieved FLOP/s of one precision from per-cycle rates (see the header for the formula).
std::optional<double> FlopRate(const Metrics& m, int p) {
  const PrecisionNames& n = kNames[p];
  // Raw metric names: thread instructions per elapsed cycle, weighted here.
  std::optional<double> clock = m.Name("smsp__cycles_elapsed.avg.per_second", "Hz");
  double sum = 0;
  bool complete = true;
  const char* ops[3] = {"add", "mul", "fma"};
  for (int i = 0; i < 3 && complete; ++i) {
    std::optional<double> rate = m.Name(fmt::format(
        "smsp__sass_thread_inst_executed_op_{}{}_pred_on.sum.per_cycle_elapsed", n.letter, ops[i]));
    if (!rate) {
      rate = m.Name(fmt::format(
          "sm__sass_thread_inst_executed_op_{}{}_pred_on.sum.per_cycle_elapsed", n.letter, ops[i]));
    }
    if (rate) {
      sum += n.weights[i] * *rate;
    } else {
      complete = false;
    }
  }
  if (complete && clock) return sum * *clock;

  // Labels of the chart's "<Word> Precision Achieved Value" body item. Its "FMA Operations Per
  // Cycle" is already 2 x the FMA instructions (158.12 = 2 x 79.06 in the sample export). Only
  // the single and double precision items have been seen; half precision is read by raw name.
  if (p == static_cast<int>(CounterPrecision::kFp16)) return std::nullopt;
  const std::string item = fmt::format("{} Precision Achieved Value", n.word);
  std::optional<double> fma =
      m.Label(item, fmt::format("Predicated-On {}FMA Operations Per Cycle", n.upper));
  std::optional<double> add = m.Label(
      item, fmt::format("Predicated-On {}ADD Thread Instructions Executed Per Cycle", n.upper));
  std::optional<double> mul = m.Label(
      item, fmt::format("Predicated-On {}MUL Thread Instructions Executed Per Cycle", n.upper));
  std::optional<double> sm_clock = m.Label(item, "SM Frequency", "Hz");
  if (!fma || !add || !mul || !sm_clock) return std::nullopt;
  return (*fma + *add + *mul) * *sm_clock;
}

std::optional<double> DramRate(const Metrics& m) {
  if (std::optional<double> rate = m.Name("dram__bytes.sum.per_second", "byte/s")) return rate;
  for (const char* word : {"Single", "Double"}) {
    if (std::optional<double> rate =
            m.Label(fmt::format("{} Precision Achieved Value", word), "DRAM Bandwidth", "byte/s")) {
      return rate;
    }
  }
  return std::nullopt;
}

}  // namespace

Precision ToPrecision(CounterPrecision precision) {
  switch (precision) {
    case CounterPrecision::kFp64:
      return Precision::kFp64;
    case CounterPrecision::kFp32:
      return Precision::kFp32;
    case CounterPrecision::kFp16:
      return Precision::kFp16;
    case CounterPrecision::kTensor:
      break;
  }
  return Precision::kUnknown;
}

// AMD: the MFMA MOPS counter with the most operations (SQ_INSTS_VALU_MFMA_MOPS_BF16 -> bf16).
// gfx950's F6F4 counter counts MXFP6 and MXFP4 together; the ROCm MI350 page gives both one rate
// (twice FP8), so the FP4 roof is the roof of either. NVIDIA's fp4_fp6_fp8 tensor sources mix
// formats whose roofs differ and stay unmapped (the row then says the precision is unknown).
Precision MfmaSourcePrecision(const Trace& trace, const KernelCounters& counters) {
  constexpr std::string_view kPrefix = "SQ_INSTS_VALU_MFMA_MOPS_";
  static constexpr std::pair<std::string_view, Precision> kSources[] = {
      {"F64", Precision::kFp64},  {"F32", Precision::kFp32}, {"F16", Precision::kFp16},
      {"BF16", Precision::kBf16}, {"F8", Precision::kFp8},   {"F6F4", Precision::kFp4}};
  Precision best = Precision::kUnknown;
  double most = 0;
  for (const CounterValue& m : counters.metrics) {
    std::string_view name = trace.str(m.name);
    if (!name.starts_with(kPrefix) || m.value <= most) continue;
    name.remove_prefix(kPrefix.size());
    for (const auto& [source, precision] : kSources) {
      if (name == source) {
        best = precision;
        most = m.value;
      }
    }
  }
  return best;
}

Precision TensorSourcePrecision(const Trace& trace, const KernelCounters& counters) {
  if (Precision amd = MfmaSourcePrecision(trace, counters); amd != Precision::kUnknown) {
    return amd;
  }
  constexpr std::string_view kPrefix = "sm__ops_path_tensor_src_";
  static constexpr std::pair<std::string_view, Precision> kSources[] = {
      {"fp64", Precision::kFp64}, {"tf32", Precision::kTf32}, {"fp16", Precision::kFp16},
      {"bf16", Precision::kBf16}, {"fp8", Precision::kFp8},   {"int8", Precision::kInt8}};
  Precision best = Precision::kUnknown;
  double most = 0;
  for (const CounterValue& m : counters.metrics) {
    std::string_view name = trace.str(m.name);
    if (!name.starts_with(kPrefix) || name.find("_sparsity_") != std::string_view::npos ||
        m.value <= most) {
      continue;
    }
    name.remove_prefix(kPrefix.size());
    for (const auto& [source, precision] : kSources) {
      if (name.starts_with(source) && name.substr(source.size()).starts_with("_")) {
        best = precision;
        most = m.value;
      }
    }
  }
  return best;
}

LaunchWork ReadLaunchWork(const Trace& trace, const KernelCounters& counters, int64_t duration_ns) {
  LaunchWork w;
  std::optional<double> tensor;
  if (counters.tensor_ops && *counters.tensor_ops > 0) tensor = counters.tensor_ops;
  w.flops = {counters.fp64_flops, counters.fp32_flops, counters.fp16_flops, tensor};
  w.dram_bytes = counters.dram_bytes;
  const Metrics m(trace, counters);
  const double seconds = duration_ns > 0 ? duration_ns * 1e-9 : 0;
  // Counts win over rates: they are exact, the rates are rounded to what ncu prints.
  for (int p = 0; p < kCounterPrecisionCount; ++p) {
    if (w.flops[p] || p == kTensor) continue;
    std::optional<double> rate = FlopRate(m, p);
    if (!rate) continue;
    w.from_rates = true;
    if (seconds > 0) {
      w.flops[p] = *rate * seconds;
    } else {
      w.flops_per_s[p] = rate;
    }
  }
  if (!w.dram_bytes) {
    if (std::optional<double> rate = DramRate(m)) {
      w.from_rates = true;
      if (seconds > 0) {
        w.dram_bytes = *rate * seconds;
      } else {
        w.dram_bytes_per_s = rate;
      }
    }
  }
  return w;
}

MeasuredPeaks ReadMeasuredPeaks(const Trace& trace, const KernelCounters& counters) {
  MeasuredPeaks peaks;
  const Metrics m(trace, counters);
  for (int p = 0; p < kCounterPrecisionCount; ++p) {
    if (p == kTensor) continue;  // no tensor peak is read: the device database gives it
    const PrecisionNames& n = kNames[p];
    // peak_sustained counts FMA instructions per cycle; an FMA is 2 FLOPs (4 for packed half2).
    std::optional<double> raw =
        Product(m.Name(fmt::format(
                    "sm__sass_thread_inst_executed_op_{}fma_pred_on.sum.peak_sustained", n.letter)),
                m.Name("sm__cycles_elapsed.avg.per_second", "Hz"));
    if (raw) {
      peaks.flops_per_s[p] = n.weights[2] * *raw;
      continue;
    }
    if (p == static_cast<int>(CounterPrecision::kFp16)) continue;  // its labels have not been seen
    // "Theoretical Predicated-On FFMA Operations" is already 2 x the FMA peak (43,520 = 2 x
    // 21,760 in the sample export).
    const std::string item = fmt::format("{} Precision Roofline", n.word);
    peaks.flops_per_s[p] =
        Product(m.Label(item, fmt::format("Theoretical Predicated-On {}FMA Operations", n.upper)),
                m.Label(item, "SM Frequency", "Hz"));
  }
  peaks.dram_bytes_per_s = Product(m.Name("dram__bytes.sum.peak_sustained"),
                                   m.Name("dram__cycles_elapsed.avg.per_second", "Hz"));
  for (const char* word : {"Single", "Double"}) {
    if (peaks.dram_bytes_per_s) break;
    const std::string item = fmt::format("{} Precision Roofline", word);
    peaks.dram_bytes_per_s =
        Product(m.Label(item, "Theoretical DRAM Bytes Accessible", "byte/cycle"),
                m.Label(item, "DRAM Frequency", "Hz"));
  }
  return peaks;
}

MeasuredPeaks DeviceMeasuredPeaks(const Trace& trace, const Device& device,
                                  Precision tensor_precision) {
  namespace mp = measured_peaks;
  MeasuredPeaks peaks;
  auto get = [&](const char* key) -> std::optional<double> {
    auto it = device.measured_peaks.find(key);
    if (it == device.measured_peaks.end() || !(it->second > 0)) return std::nullopt;
    return it->second;
  };
  peaks.dram_bytes_per_s = get(mp::kHbmBytesPerS);
  if (!peaks.dram_bytes_per_s) return MeasuredPeaks{};
  peaks.flops_per_s[static_cast<int>(CounterPrecision::kFp64)] = get(mp::kFp64FlopsPerS);
  peaks.flops_per_s[static_cast<int>(CounterPrecision::kFp32)] = get(mp::kFp32FlopsPerS);
  peaks.flops_per_s[static_cast<int>(CounterPrecision::kFp16)] = get(mp::kFp16FlopsPerS);
  const char* matrix = nullptr;
  switch (tensor_precision) {
    case Precision::kFp64:
      matrix = mp::kMatrixFp64FlopsPerS;
      break;
    case Precision::kFp32:
      matrix = mp::kMatrixFp32FlopsPerS;
      break;
    case Precision::kFp16:
      matrix = mp::kMatrixFp16FlopsPerS;
      break;
    case Precision::kBf16:
      matrix = mp::kMatrixBf16FlopsPerS;
      break;
    case Precision::kFp8:
      matrix = mp::kMatrixFp8FlopsPerS;
      break;
    case Precision::kInt8:
      matrix = mp::kMatrixInt8OpsPerS;
      break;
    default:
      break;
  }
  if (matrix != nullptr) peaks.flops_per_s[kTensor] = get(matrix);
  peaks.source =
      fmt::format("measured ({})",
                  device.measured_peaks_source.empty() ? "device" : device.measured_peaks_source);
  return peaks;
}

}  // namespace tensormorph
