// The timed rows of the native format (kernel, transfer, api_call, slice, flow) and the kernel
// counters. Each reads its members in any order, checks them, and appends one row.
#include "import/common/op_inputs_json.h"
#include "import/native/native_schema.h"
#include "import/native/record_fields.h"
#include "import/native/trace_builder.h"

namespace tensormorph::native {
namespace {

using simdjson::ondemand::array;
using simdjson::ondemand::json_type;
using simdjson::ondemand::object;

Status Required(bool present, std::string_view what, const char* record_at,
                const FieldReader& fields) {
  if (present) return Status::Ok();
  return fields.ErrorAt(record_at, fmt::format("a {} needs {}", fields.record(), what));
}

}  // namespace

Status TraceBuilder::ReadKernel(object record, const char* record_at, FieldReader& fields) {
  Kernel k;
  RowTimes times;
  bool has_name = false, has_device = false;
  std::optional<StringId> mangled;
  Status s = ForEachMember(record, fields, [&](std::string_view key, value& v) -> Status {
    bool handled = false;
    TM_RETURN_IF_ERROR(times.Read(key, v, fields, &handled));
    if (!handled) TM_RETURN_IF_ERROR(ReadLink(key, v, fields, &k.link, &handled));
    if (handled) return Status::Ok();
    std::string_view text;
    int64_t n = 0;
    if (key == "name") {
      TM_RETURN_IF_ERROR(fields.String(v, key, &text));
      k.name = trace_.strings.Intern(text);
      has_name = true;
    } else if (key == "mangled_name") {
      TM_RETURN_IF_ERROR(fields.String(v, key, &text));
      mangled = trace_.strings.Intern(text);
    } else if (key == "device") {
      TM_RETURN_IF_ERROR(DeviceIndex(v, key, fields, &k.device));
      has_device = true;
    } else if (key == "stream") {
      TM_RETURN_IF_ERROR(fields.Int(v, key, INT64_MIN, INT64_MAX, &k.stream));
    } else if (key == "grid" || key == "block") {
      TM_RETURN_IF_ERROR(fields.Dim(v, key, key == "grid" ? &k.grid : &k.block));
    } else if (key == "shared_memory_bytes") {
      TM_RETURN_IF_ERROR(ReadNarrow(v, key, fields, &k.shared_memory_bytes));
    } else if (key == "registers_per_thread") {
      TM_RETURN_IF_ERROR(ReadNarrow(v, key, fields, &k.registers_per_thread));
    } else if (key == "accum_registers_per_thread") {
      TM_RETURN_IF_ERROR(ReadNarrow(v, key, fields, &k.accum_registers_per_thread));
    } else if (key == "scalar_registers") {
      TM_RETURN_IF_ERROR(ReadNarrow(v, key, fields, &k.scalar_registers));
    } else if (key == "wave_size") {
      TM_RETURN_IF_ERROR(ReadNarrow(v, key, fields, &k.wave_size));
    } else if (key == "achieved_occupancy_percent") {
      TM_RETURN_IF_ERROR(fields.Int(v, key, -1, 100, &n));
      k.achieved_occupancy_percent = static_cast<int8_t>(n);
    } else if (key != "type") {
      Unknown(key, v, fields);
    }
    return Status::Ok();
  });
  TM_RETURN_IF_ERROR(s);
  TM_RETURN_IF_ERROR(Required(has_name, "a \"name\"", record_at, fields));
  TM_RETURN_IF_ERROR(
      Required(has_device, "a \"device\" (a device record's id, or null)", record_at, fields));
  TM_RETURN_IF_ERROR(times.Resolve(fields, record_at, &k.start_ns, &k.duration_ns));
  if (mangled) trace_.mangled_names.try_emplace(k.name, *mangled);
  trace_.kernels.push_back(k);
  return Status::Ok();
}

constexpr std::string_view kCopyDirectionNames = "HtoD, DtoH, DtoD, HtoH, PtoP, unknown";
constexpr std::string_view kMemoryKindNames =
    "pageable, pinned, device, array, managed, device_static, managed_static, host, unknown";

Status TraceBuilder::ReadTransfer(object record, const char* record_at, FieldReader& fields) {
  Transfer t;
  RowTimes times;
  bool has_device = false;
  Status s = ForEachMember(record, fields, [&](std::string_view key, value& v) -> Status {
    bool handled = false;
    TM_RETURN_IF_ERROR(times.Read(key, v, fields, &handled));
    if (!handled) TM_RETURN_IF_ERROR(ReadLink(key, v, fields, &t.link, &handled));
    if (handled) return Status::Ok();
    std::string_view text;
    if (key == "name") {
      TM_RETURN_IF_ERROR(fields.String(v, key, &text));
      t.name = trace_.strings.Intern(text);
    } else if (key == "kind") {
      TM_RETURN_IF_ERROR(
          ReadEnum<TransferKind>(v, key, fields, &ParseTransferKind, "memcpy, memset", &t.kind));
    } else if (key == "device") {
      TM_RETURN_IF_ERROR(DeviceIndex(v, key, fields, &t.device));
      has_device = true;
    } else if (key == "stream") {
      TM_RETURN_IF_ERROR(fields.Int(v, key, INT64_MIN, INT64_MAX, &t.stream));
    } else if (key == "bytes") {
      TM_RETURN_IF_ERROR(fields.UInt(v, key, UINT64_MAX, &t.bytes));
    } else if (key == "direction") {
      TM_RETURN_IF_ERROR(ReadEnum<CopyDirection>(v, key, fields, &ParseCopyDirection,
                                                 kCopyDirectionNames, &t.direction));
    } else if (key == "src_memory" || key == "dst_memory") {
      TM_RETURN_IF_ERROR(ReadEnum<MemoryKind>(v, key, fields, &ParseMemoryKind, kMemoryKindNames,
                                              key == "src_memory" ? &t.src_memory : &t.dst_memory));
    } else if (key != "type") {
      Unknown(key, v, fields);
    }
    return Status::Ok();
  });
  TM_RETURN_IF_ERROR(s);
  TM_RETURN_IF_ERROR(
      Required(has_device, "a \"device\" (a device record's id, or null)", record_at, fields));
  TM_RETURN_IF_ERROR(times.Resolve(fields, record_at, &t.start_ns, &t.duration_ns));
  trace_.transfers.push_back(t);
  return Status::Ok();
}

Status TraceBuilder::ReadApiCall(object record, const char* record_at, FieldReader& fields) {
  ApiCall c;
  RowTimes times;
  std::optional<uint32_t> track;
  Status s = ForEachMember(record, fields, [&](std::string_view key, value& v) -> Status {
    bool handled = false;
    TM_RETURN_IF_ERROR(times.Read(key, v, fields, &handled));
    if (!handled) TM_RETURN_IF_ERROR(ReadLink(key, v, fields, &c.link, &handled));
    if (handled) return Status::Ok();
    std::string_view text;
    if (key == "name") {
      TM_RETURN_IF_ERROR(fields.String(v, key, &text));
      c.name = trace_.strings.Intern(text);
    } else if (key == "kind") {
      TM_RETURN_IF_ERROR(
          ReadEnum<ApiKind>(v, key, fields, &ParseApiKind, "runtime, driver, sync", &c.kind));
    } else if (key == "track") {
      uint32_t index = 0;
      TM_RETURN_IF_ERROR(TrackIndex(v, key, fields, &index));
      track = index;
    } else if (key != "type") {
      Unknown(key, v, fields);
    }
    return Status::Ok();
  });
  TM_RETURN_IF_ERROR(s);
  TM_RETURN_IF_ERROR(times.Resolve(fields, record_at, &c.start_ns, &c.duration_ns));
  c.track = track ? *track : DefaultTrack();
  trace_.api_calls.push_back(c);
  return Status::Ok();
}

Status TraceBuilder::ReadSlice(object record, const char* record_at, FieldReader& fields) {
  Slice sl;
  RowTimes times;
  std::optional<uint32_t> track;
  Status s = ForEachMember(record, fields, [&](std::string_view key, value& v) -> Status {
    bool handled = false;
    TM_RETURN_IF_ERROR(times.Read(key, v, fields, &handled));
    if (handled) return Status::Ok();
    std::string_view text;
    if (key == "name") {
      TM_RETURN_IF_ERROR(fields.String(v, key, &text));
      sl.name = trace_.strings.Intern(text);
    } else if (key == "kind") {
      TM_RETURN_IF_ERROR(ReadEnum<SliceKind>(v, key, fields, &ParseSliceKind,
                                             "op, user_annotation, gpu_annotation, python_function",
                                             &sl.kind));
    } else if (key == "track") {
      uint32_t index = 0;
      TM_RETURN_IF_ERROR(TrackIndex(v, key, fields, &index));
      track = index;
    } else if (key == "external_id") {
      TM_RETURN_IF_ERROR(fields.Int(v, key, INT64_MIN, INT64_MAX, &sl.external_id));
    } else if (key == "inputs") {
      // The lists as one JSON object: a string is its text, an object is taken as written.
      json_type type;
      if (auto error = v.type().get(type)) return fields.JsonError(error, nullptr);
      if (type == json_type::object) {
        object inputs;
        if (auto error = v.get_object().get(inputs)) return fields.JsonError(error, nullptr);
        if (auto error = inputs.raw_json().get(text)) return fields.JsonError(error, nullptr);
      } else {
        TM_RETURN_IF_ERROR(fields.String(v, key, &text));
      }
      if (!text.empty()) {
        auto [it, added] = inputs_by_text_.try_emplace(std::string(text), 0);
        if (added) it->second = trace_.op_inputs.Add(OpInputsFromObjectText(text));
        sl.inputs = it->second;
      }
    } else if (key != "type") {
      Unknown(key, v, fields);
    }
    return Status::Ok();
  });
  TM_RETURN_IF_ERROR(s);
  TM_RETURN_IF_ERROR(times.Resolve(fields, record_at, &sl.start_ns, &sl.duration_ns));
  sl.track = track ? *track : DefaultTrack();
  trace_.slices.push_back(sl);
  return Status::Ok();
}

Status TraceBuilder::ReadFlow(object record, const char* record_at, FieldReader& fields) {
  Flow f;
  bool has_id = false, has_phase = false, has_ts = false;
  std::optional<uint32_t> track;
  Status s = ForEachMember(record, fields, [&](std::string_view key, value& v) -> Status {
    if (key == "id") {
      TM_RETURN_IF_ERROR(fields.UInt(v, key, UINT64_MAX, &f.id));
      has_id = true;
    } else if (key == "phase") {
      TM_RETURN_IF_ERROR(
          ReadEnum<FlowPhase>(v, key, fields, &ParseFlowPhase, "start, step, finish", &f.phase));
      has_phase = true;
    } else if (key == "kind") {
      TM_RETURN_IF_ERROR(ReadEnum<FlowKind>(v, key, fields, &ParseFlowKind,
                                            "launch, forward_backward, other", &f.kind));
    } else if (key == "track") {
      uint32_t index = 0;
      TM_RETURN_IF_ERROR(TrackIndex(v, key, fields, &index));
      track = index;
    } else if (key == "ts_ns") {
      TM_RETURN_IF_ERROR(fields.TimeNs(v, key, &f.ts_ns));
      has_ts = true;
    } else if (key == "binds_enclosing") {
      TM_RETURN_IF_ERROR(fields.Bool(v, key, &f.binds_enclosing));
    } else if (key != "type") {
      Unknown(key, v, fields);
    }
    return Status::Ok();
  });
  TM_RETURN_IF_ERROR(s);
  TM_RETURN_IF_ERROR(Required(has_id, "an \"id\"", record_at, fields));
  TM_RETURN_IF_ERROR(Required(has_phase, "a \"phase\" (start, step, finish)", record_at, fields));
  TM_RETURN_IF_ERROR(Required(has_ts, "a \"ts_ns\"", record_at, fields));
  f.track = track ? *track : DefaultTrack();
  trace_.flows.push_back(f);
  return Status::Ok();
}

Status TraceBuilder::ReadInstant(object record, const char* record_at, FieldReader& fields) {
  Instant i;
  bool has_name = false, has_ts = false;
  std::optional<uint32_t> track;
  Status s = ForEachMember(record, fields, [&](std::string_view key, value& v) -> Status {
    std::string_view text;
    if (key == "name" || key == "category" || key == "args") {
      TM_RETURN_IF_ERROR(fields.String(v, key, &text));
      const StringId id = trace_.strings.Intern(text);
      (key == "name" ? i.name : key == "category" ? i.category : i.args) = id;
      has_name |= key == "name";
    } else if (key == "ts_ns") {
      TM_RETURN_IF_ERROR(fields.TimeNs(v, key, &i.ts_ns));
      has_ts = true;
    } else if (key == "track") {
      uint32_t index = 0;
      TM_RETURN_IF_ERROR(TrackIndex(v, key, fields, &index));
      track = index;
    } else if (key == "scope") {
      TM_RETURN_IF_ERROR(fields.String(v, key, &text));
      if (text == "thread" || text == "process" || text == "global") {
        i.scope = text == "global"    ? InstantScope::kGlobal
                  : text == "process" ? InstantScope::kProcess
                                      : InstantScope::kThread;
      } else {
        return fields.Error(v, key, "must be one of thread, process, global");
      }
    } else if (key != "type") {
      Unknown(key, v, fields);
    }
    return Status::Ok();
  });
  TM_RETURN_IF_ERROR(s);
  TM_RETURN_IF_ERROR(Required(has_name, "a \"name\"", record_at, fields));
  TM_RETURN_IF_ERROR(Required(has_ts, "a \"ts_ns\"", record_at, fields));
  i.track = track ? *track : DefaultTrack();
  trace_.instants.push_back(i);
  return Status::Ok();
}

Status TraceBuilder::ReadReportedOccupancy(value v, FieldReader& fields, ReportedOccupancy* out) {
  object o;
  if (v.get_object().get(o)) return fields.Error(v, "reported_occupancy", "must be an object");
  bool has_theoretical = false;
  const char* at = Where(v);
  Status s = ForEachMember(o, fields, [&](std::string_view key, value& m) -> Status {
    std::optional<int64_t>* limit = key == "warps_limit"           ? &out->warps_limit
                                    : key == "registers_limit"     ? &out->registers_limit
                                    : key == "shared_memory_limit" ? &out->shared_memory_limit
                                    : key == "blocks_limit"        ? &out->blocks_limit
                                    : key == "barriers_limit"      ? &out->barriers_limit
                                                                   : nullptr;
    if (limit != nullptr) {
      int64_t n = 0;
      TM_RETURN_IF_ERROR(fields.Int(m, key, 0, INT64_MAX, &n));
      *limit = n;
    } else if (key == "theoretical_percent" || key == "theoretical_warps_per_sm") {
      double x = 0;
      TM_RETURN_IF_ERROR(fields.Double(m, key, &x));
      if (key == "theoretical_percent") {
        out->theoretical_percent = x;
        has_theoretical = true;
      } else {
        out->theoretical_warps_per_sm = x;
      }
    } else {
      Unknown(key, m, fields);
    }
    return Status::Ok();
  });
  TM_RETURN_IF_ERROR(s);
  return Required(has_theoretical, "a reported_occupancy.theoretical_percent", at, fields);
}

Status TraceBuilder::ReadMetric(value v, FieldReader& fields, CounterValue* metric) {
  const char* at = Where(v);
  object m;
  if (v.get_object().get(m)) return fields.Error(v, "metrics", "must hold objects");
  bool has_name = false, has_value = false;
  Status s = ForEachMember(m, fields, [&](std::string_view key, value& item) -> Status {
    std::string_view text;
    if (key == "section" || key == "name" || key == "unit") {
      TM_RETURN_IF_ERROR(fields.String(item, key, &text));
      const StringId id = trace_.strings.Intern(text);
      (key == "section" ? metric->section : key == "name" ? metric->name : metric->unit) = id;
      has_name |= key == "name";
    } else if (key == "value") {
      TM_RETURN_IF_ERROR(fields.Double(item, key, &metric->value));
      has_value = true;
    } else {
      Unknown(key, item, fields);
    }
    return Status::Ok();
  });
  TM_RETURN_IF_ERROR(s);
  if (!has_name || !has_value) {
    return fields.ErrorAt(at, "each of kernel_counters.metrics needs a \"name\" and a \"value\"");
  }
  return Status::Ok();
}

Status TraceBuilder::ReadCounters(object record, const char* record_at, FieldReader& fields) {
  KernelCounters c;
  bool has_kernel = false;
  Status s = ForEachMember(record, fields, [&](std::string_view key, value& v) -> Status {
    std::optional<double>* optional_double =
        key == "fp64_flops"                   ? &c.fp64_flops
        : key == "fp32_flops"                 ? &c.fp32_flops
        : key == "fp16_flops"                 ? &c.fp16_flops
        : key == "tensor_ops"                 ? &c.tensor_ops
        : key == "dram_bytes"                 ? &c.dram_bytes
        : key == "achieved_occupancy_percent" ? &c.achieved_occupancy_percent
        : key == "sm_throughput_percent"      ? &c.sm_throughput_percent
        : key == "memory_throughput_percent"  ? &c.memory_throughput_percent
                                              : nullptr;
    if (optional_double != nullptr) {
      double x = 0;
      TM_RETURN_IF_ERROR(fields.Double(v, key, &x));
      *optional_double = x;
    } else if (key == "kernel") {
      uint64_t index = 0;
      TM_RETURN_IF_ERROR(fields.UInt(v, key, UINT32_MAX, &index));
      if (index >= trace_.kernels.size()) {
        return fields.ErrorAt(Where(v), fmt::format("kernel_counters.kernel {} is not the position "
                                                    "of a kernel record before it ({} kernels)",
                                                    index, trace_.kernels.size()));
      }
      c.kernel = static_cast<uint32_t>(index);
      has_kernel = true;
    } else if (key == "registers_per_thread") {
      uint64_t n = 0;
      TM_RETURN_IF_ERROR(fields.UInt(v, key, UINT32_MAX, &n));
      c.registers_per_thread = static_cast<uint32_t>(n);
    } else if (key == "shared_memory_bytes") {
      uint64_t n = 0;
      TM_RETURN_IF_ERROR(fields.UInt(v, key, UINT64_MAX, &n));
      c.shared_memory_bytes = n;
    } else if (key == "reported_occupancy") {
      TM_RETURN_IF_ERROR(ReadReportedOccupancy(v, fields, &c.reported_occupancy.emplace()));
    } else if (key == "metrics") {
      array metrics;
      if (v.get_array().get(metrics)) return fields.Error(v, key, "must be an array");
      for (auto element : metrics) {
        value item;
        if (auto error = std::move(element).get(item)) return fields.JsonError(error, nullptr);
        TM_RETURN_IF_ERROR(ReadMetric(item, fields, &c.metrics.emplace_back()));
      }
    } else if (key != "type") {
      Unknown(key, v, fields);
    }
    return Status::Ok();
  });
  TM_RETURN_IF_ERROR(s);
  TM_RETURN_IF_ERROR(
      Required(has_kernel, "a \"kernel\" (the position of a kernel record)", record_at, fields));
  trace_.kernel_counters.push_back(std::move(c));
  return Status::Ok();
}

}  // namespace tensormorph::native
