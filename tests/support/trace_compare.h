// Compares two Traces completely (every table, every field; strings by their text, not their ids)
// for round-trip tests: import -> export -> import must lose nothing. Reports the first difference
// as the row and field that differ, e.g.
//   kernels[12] ("volta_sgemm_128x64_nn"): grid.y: 3 vs 1
#pragma once

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "tensormorph/model/trace.h"

namespace tensormorph::testing {

class TraceDiff {
 public:
  TraceDiff(const Trace& a, const Trace& b) : a_(a), b_(b) {}

  // "" when equal; else "<row>: <field>: <a> vs <b>".
  std::string Run(bool compare_path) {
    row_ = "trace";
    if (compare_path) Field("path", a_.path, b_.path);
    Field("format", a_.format, b_.format);
    Field("format_version", a_.format_version, b_.format_version);
    Size("backends", a_.backends.size(), b_.backends.size());
    for (size_t i = 0; i < a_.backends.size() && ok(); ++i) {
      Field(fmt::format("backends[{}]", i), std::string(BackendName(a_.backends[i])),
            std::string(BackendName(b_.backends[i])));
    }
    Field("rank", a_.rank, b_.rank);
    Field("world_size", a_.world_size, b_.world_size);
    Field("base_time_ns", a_.base_time_ns, b_.base_time_ns);
    Field("metadata", a_.metadata, b_.metadata);
    Field("distributed_backend", a_.distributed_backend, b_.distributed_backend);
    Field("exact_external_ids", a_.exact_external_ids, b_.exact_external_ids);
    Field("kernels_traced_on_request", a_.kernels_traced_on_request, b_.kernels_traced_on_request);
    Field("timestamp_resolution_ns", a_.timestamp_resolution_ns, b_.timestamp_resolution_ns);
    Field("described_device_count", a_.described_device_count, b_.described_device_count);
    Field("warnings", a_.warnings, b_.warnings);
    Field("span_start_ns", a_.span_start_ns, b_.span_start_ns);
    Field("span_end_ns", a_.span_end_ns, b_.span_end_ns);
    Counts();
    Table("devices", a_.devices, b_.devices, [&](const Device& x, const Device& y) { Dev(x, y); });
    Table("tracks", a_.tracks, b_.tracks, [&](const Track& x, const Track& y) { Trk(x, y); });
    Table("kernels", a_.kernels, b_.kernels, [&](const Kernel& x, const Kernel& y) { Krn(x, y); });
    Table("kernel_counters", a_.kernel_counters, b_.kernel_counters,
          [&](const KernelCounters& x, const KernelCounters& y) { Ctr(x, y); });
    Table("transfers", a_.transfers, b_.transfers,
          [&](const Transfer& x, const Transfer& y) { Xfr(x, y); });
    Table("api_calls", a_.api_calls, b_.api_calls,
          [&](const ApiCall& x, const ApiCall& y) { Api(x, y); });
    Table("slices", a_.slices, b_.slices, [&](const Slice& x, const Slice& y) { Slc(x, y); });
    Table("flows", a_.flows, b_.flows, [&](const Flow& x, const Flow& y) { Flw(x, y); });
    Table("instants", a_.instants, b_.instants,
          [&](const Instant& x, const Instant& y) { Ins(x, y); });
    return difference_;
  }

 private:
  bool ok() const { return difference_.empty(); }

  static std::string Show(const std::string& s) { return fmt::format("\"{}\"", s); }
  static std::string Show(double v) { return fmt::format("{}", v); }
  template <typename T>
  static std::string Show(const T& v) {
    if constexpr (std::is_enum_v<T>) {
      return std::to_string(static_cast<int>(v));
    } else if constexpr (std::is_same_v<T, bool>) {
      return v ? "true" : "false";
    } else {
      return fmt::format("{}", v);
    }
  }
  template <typename T>
  static std::string Show(const std::optional<T>& v) {
    return v ? Show(*v) : std::string("absent");
  }
  static std::string Show(const std::vector<std::string>& v) {
    std::string out = "[";
    for (const std::string& s : v) out += (out.size() > 1 ? ", " : "") + Show(s);
    return out + "]";
  }
  template <typename V>
  static std::string Show(const std::map<std::string, V>& m) {
    std::string out = "{";
    for (const auto& [k, v] : m) out += (out.size() > 1 ? ", " : "") + Show(k) + ": " + Show(v);
    return out + "}";
  }

  // Doubles are equal when bit-identical in value (NaN equals NaN): a round trip keeps them exact.
  static bool Same(double x, double y) { return x == y || (std::isnan(x) && std::isnan(y)); }
  template <typename T>
  static bool Same(const std::optional<T>& x, const std::optional<T>& y) {
    return x.has_value() == y.has_value() && (!x || Same(*x, *y));
  }
  static bool Same(const std::map<std::string, double>& x, const std::map<std::string, double>& y) {
    if (x.size() != y.size()) return false;
    for (auto i = x.begin(), j = y.begin(); i != x.end(); ++i, ++j) {
      if (i->first != j->first || !Same(i->second, j->second)) return false;
    }
    return true;
  }
  template <typename T>
  static bool Same(const T& x, const T& y) {
    return x == y;
  }

  template <typename T>
  void Field(std::string_view name, const T& x, const T& y) {
    if (ok() && !Same(x, y)) {
      difference_ = fmt::format("{}: {}: {} vs {}", row_, name, Show(x), Show(y));
    }
  }
  void Str(std::string_view name, StringId x, StringId y) {
    Field(name, std::string(a_.str(x)), std::string(b_.str(y)));
  }
  void Size(std::string_view name, size_t x, size_t y) {
    if (ok() && x != y) difference_ = fmt::format("{}: {} rows: {} vs {}", row_, name, x, y);
  }

  template <typename Row, typename CompareRow>
  void Table(std::string_view name, const std::vector<Row>& x, const std::vector<Row>& y,
             CompareRow compare) {
    row_ = "trace";
    Size(name, x.size(), y.size());
    for (size_t i = 0; i < x.size() && ok(); ++i) {
      row_ = fmt::format("{}[{}]", name, i);
      if constexpr (requires { x[i].name; }) {
        if constexpr (std::is_same_v<decltype(x[i].name), StringId>) {
          row_ += fmt::format(" (\"{}\")", a_.str(x[i].name));
        } else {
          row_ += fmt::format(" (\"{}\")", x[i].name);
        }
      }
      compare(x[i], y[i]);
    }
  }

  void Counts() {
    const EventCounts &x = a_.counts, &y = b_.counts;
    Field("counts.kernels", x.kernels, y.kernels);
    Field("counts.memcpys", x.memcpys, y.memcpys);
    Field("counts.memsets", x.memsets, y.memsets);
    Field("counts.runtime_calls", x.runtime_calls, y.runtime_calls);
    Field("counts.driver_calls", x.driver_calls, y.driver_calls);
    Field("counts.sync_events", x.sync_events, y.sync_events);
    Field("counts.ops", x.ops, y.ops);
    Field("counts.annotations", x.annotations, y.annotations);
    Field("counts.gpu_annotations", x.gpu_annotations, y.gpu_annotations);
    Field("counts.python_functions", x.python_functions, y.python_functions);
    Field("counts.flows", x.flows, y.flows);
    Field("counts.metadata", x.metadata, y.metadata);
    Field("counts.instants", x.instants, y.instants);
    Field("counts.counter_ranges", x.counter_ranges, y.counter_ranges);
    Field("counts.other", x.other, y.other);
    Field("counts.skipped", x.skipped, y.skipped);
  }

  void Dev(const Device& x, const Device& y) {
    Field("backend", std::string(BackendName(x.backend)), std::string(BackendName(y.backend)));
    Field("name", x.name, y.name);
    Field("vendor", x.vendor, y.vendor);
    Field("trace_id", x.trace_id, y.trace_id);
    Field("index", x.index, y.index);
    Field("compute_major", x.compute_major, y.compute_major);
    Field("compute_minor", x.compute_minor, y.compute_minor);
    Field("arch", x.arch, y.arch);
    Field("sm_count", x.sm_count, y.sm_count);
    Field("warp_size", x.warp_size, y.warp_size);
    Field("max_threads_per_sm", x.max_threads_per_sm, y.max_threads_per_sm);
    Field("registers_per_sm", x.registers_per_sm, y.registers_per_sm);
    Field("shared_memory_per_sm", x.shared_memory_per_sm, y.shared_memory_per_sm);
    Field("shared_memory_per_block", x.shared_memory_per_block, y.shared_memory_per_block);
    Field("total_memory_bytes", x.total_memory_bytes, y.total_memory_bytes);
    Field("described", x.described, y.described);
    Field("measured_peaks", x.measured_peaks, y.measured_peaks);
    Field("measured_peaks_source", x.measured_peaks_source, y.measured_peaks_source);
  }

  void Trk(const Track& x, const Track& y) {
    Field("pid", x.pid, y.pid);
    Field("tid", x.tid, y.tid);
    Field("pid_name", x.pid_name, y.pid_name);
    Field("tid_name", x.tid_name, y.tid_name);
    Field("thread_name", x.thread_name, y.thread_name);
  }

  void Link(const LinkIds& x, const LinkIds& y) {
    Field("link.correlation", x.correlation, y.correlation);
    Field("link.external_id", x.external_id, y.external_id);
  }

  void Dim(std::string_view name, const Dim3& x, const Dim3& y) {
    Field(fmt::format("{}.x", name), x.x, y.x);
    Field(fmt::format("{}.y", name), x.y, y.y);
    Field(fmt::format("{}.z", name), x.z, y.z);
  }

  void Krn(const Kernel& x, const Kernel& y) {
    Field("start_ns", x.start_ns, y.start_ns);
    Field("duration_ns", x.duration_ns, y.duration_ns);
    Link(x.link, y.link);
    Str("name", x.name, y.name);
    Str("mangled_name", MangledOf(a_, x.name), MangledOf(b_, y.name));
    Field("device", x.device, y.device);
    Field("stream", x.stream, y.stream);
    Dim("grid", x.grid, y.grid);
    Dim("block", x.block, y.block);
    Field("shared_memory_bytes", x.shared_memory_bytes, y.shared_memory_bytes);
    Field("registers_per_thread", x.registers_per_thread, y.registers_per_thread);
    Field("accum_registers_per_thread", x.accum_registers_per_thread, y.accum_registers_per_thread);
    Field("scalar_registers", x.scalar_registers, y.scalar_registers);
    Field("wave_size", int{x.wave_size}, int{y.wave_size});
    Field("achieved_occupancy_percent", int{x.achieved_occupancy_percent},
          int{y.achieved_occupancy_percent});
    Field("occupancy_source", x.occupancy_source, y.occupancy_source);
  }

  void Ctr(const KernelCounters& x, const KernelCounters& y) {
    Field("kernel", x.kernel, y.kernel);
    Field("source", x.source, y.source);
    Field("fp64_flops", x.fp64_flops, y.fp64_flops);
    Field("fp32_flops", x.fp32_flops, y.fp32_flops);
    Field("fp16_flops", x.fp16_flops, y.fp16_flops);
    Field("tensor_ops", x.tensor_ops, y.tensor_ops);
    Field("dram_bytes", x.dram_bytes, y.dram_bytes);
    Field("achieved_occupancy_percent", x.achieved_occupancy_percent, y.achieved_occupancy_percent);
    Field("registers_per_thread", x.registers_per_thread, y.registers_per_thread);
    Field("shared_memory_bytes", x.shared_memory_bytes, y.shared_memory_bytes);
    Field("sm_throughput_percent", x.sm_throughput_percent, y.sm_throughput_percent);
    Field("memory_throughput_percent", x.memory_throughput_percent, y.memory_throughput_percent);
    Field("reported_occupancy", x.reported_occupancy.has_value(), y.reported_occupancy.has_value());
    if (x.reported_occupancy && y.reported_occupancy) {
      const ReportedOccupancy &r = *x.reported_occupancy, &q = *y.reported_occupancy;
      Field("reported_occupancy.theoretical_percent", r.theoretical_percent, q.theoretical_percent);
      Field("reported_occupancy.theoretical_warps_per_sm", r.theoretical_warps_per_sm,
            q.theoretical_warps_per_sm);
      Field("reported_occupancy.warps_limit", r.warps_limit, q.warps_limit);
      Field("reported_occupancy.registers_limit", r.registers_limit, q.registers_limit);
      Field("reported_occupancy.shared_memory_limit", r.shared_memory_limit, q.shared_memory_limit);
      Field("reported_occupancy.blocks_limit", r.blocks_limit, q.blocks_limit);
      Field("reported_occupancy.barriers_limit", r.barriers_limit, q.barriers_limit);
    }
    Size("metrics", x.metrics.size(), y.metrics.size());
    for (size_t i = 0; i < x.metrics.size() && ok(); ++i) {
      const CounterValue &m = x.metrics[i], &n = y.metrics[i];
      Str(fmt::format("metrics[{}].section", i), m.section, n.section);
      Str(fmt::format("metrics[{}].name", i), m.name, n.name);
      Str(fmt::format("metrics[{}].unit", i), m.unit, n.unit);
      Field(fmt::format("metrics[{}].value", i), m.value, n.value);
    }
  }

  void Xfr(const Transfer& x, const Transfer& y) {
    Field("start_ns", x.start_ns, y.start_ns);
    Field("duration_ns", x.duration_ns, y.duration_ns);
    Link(x.link, y.link);
    Field("bytes", x.bytes, y.bytes);
    Str("name", x.name, y.name);
    Field("device", x.device, y.device);
    Field("stream", x.stream, y.stream);
    Field("kind", x.kind, y.kind);
  }

  void Api(const ApiCall& x, const ApiCall& y) {
    Field("start_ns", x.start_ns, y.start_ns);
    Field("duration_ns", x.duration_ns, y.duration_ns);
    Link(x.link, y.link);
    Str("name", x.name, y.name);
    Field("track", x.track, y.track);
    Field("kind", x.kind, y.kind);
  }

  void Slc(const Slice& x, const Slice& y) {
    Field("start_ns", x.start_ns, y.start_ns);
    Field("duration_ns", x.duration_ns, y.duration_ns);
    Field("external_id", x.external_id, y.external_id);
    Str("name", x.name, y.name);
    Inputs(a_.inputs_of(x), b_.inputs_of(y));
    Field("track", x.track, y.track);
    Field("kind", x.kind, y.kind);
  }

  // Recorded arguments: every typed field, and the spelling the exporters copy. Not strides:
  // tensormorph.trace/1 does not carry them yet (writing them would change every native export of
  // a Kineto trace that records them), so a round trip drops them; nor ONNX Runtime's node names
  // (OpInputs::node), for the same reason.
  void Inputs(const OpInputs* x, const OpInputs* y) {
    Field("inputs", x != nullptr, y != nullptr);
    if (!ok() || x == nullptr) return;
    Field("inputs.text", OpInputsText(*x), OpInputsText(*y));
    Field("inputs.has_types", x->has_types, y->has_types);
    Field("inputs.has_values", x->has_values, y->has_values);
    Field("inputs.consistent", x->consistent, y->consistent);
    Size("inputs.args", x->args.size(), y->args.size());
    for (size_t i = 0; i < x->args.size() && ok(); ++i) {
      const OpInput &p = x->args[i], &q = y->args[i];
      const std::string at = fmt::format("inputs.args[{}]", i);
      Field(at + ".form", p.form, q.form);
      Field(at + ".dims", fmt::format("{}", fmt::join(p.dims, ",")),
            fmt::format("{}", fmt::join(q.dims, ",")));
      Field(at + ".dims_json", p.dims_json, q.dims_json);
      Field(at + ".dtype", p.dtype, q.dtype);
      Field(at + ".value", p.value, q.value);
    }
  }

  void Flw(const Flow& x, const Flow& y) {
    Field("ts_ns", x.ts_ns, y.ts_ns);
    Field("id", x.id, y.id);
    Field("track", x.track, y.track);
    Field("kind", x.kind, y.kind);
    Field("phase", x.phase, y.phase);
    Field("binds_enclosing", x.binds_enclosing, y.binds_enclosing);
  }

  void Ins(const Instant& x, const Instant& y) {
    Field("ts_ns", x.ts_ns, y.ts_ns);
    Str("name", x.name, y.name);
    Str("category", x.category, y.category);
    Str("args", x.args, y.args);
    Field("track", x.track, y.track);
    Field("scope", x.scope, y.scope);
  }

  // The mangled spelling of a kernel name id of `t`, as a string id of `t` (0 = none).
  static StringId MangledOf(const Trace& t, StringId name) {
    auto it = t.mangled_names.find(name);
    return it == t.mangled_names.end() ? 0 : it->second;
  }

  const Trace& a_;
  const Trace& b_;
  std::string row_;
  std::string difference_;
};

// "" when the traces hold the same data (the path aside unless `compare_path`), else the first
// difference.
inline std::string FirstTraceDifference(const Trace& a, const Trace& b, bool compare_path = false) {
  return TraceDiff(a, b).Run(compare_path);
}

// For EXPECT_TRUE(SameTrace(original, reread)).
inline ::testing::AssertionResult SameTrace(const Trace& a, const Trace& b) {
  const std::string difference = FirstTraceDifference(a, b);
  if (difference.empty()) return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure() << "first difference: " << difference;
}

}  // namespace tensormorph::testing
