#include "tables.h"

#include <pybind11/numpy.h>

#include <string_view>
#include <vector>

#include "tensormorph/analysis/kernels.h"
#include "tensormorph/analysis/memory/memory.h"
#include "tensormorph/link/work_links.h"
#include "tensormorph/model/copy_kinds.h"

namespace tensormorph::python {
namespace {

namespace py = pybind11;

template <typename T, typename Value>
py::array_t<T> Column(size_t rows, Value&& value) {
  py::array_t<T> column(static_cast<py::ssize_t>(rows));
  T* out = column.mutable_data();
  for (size_t i = 0; i < rows; ++i) out[i] = static_cast<T>(value(i));
  return column;
}

py::tuple Categorical(py::array_t<int32_t> codes, py::list categories) {
  return py::make_tuple("categorical", std::move(codes), std::move(categories));
}

py::str Str(std::string_view text) {
  return {text.data(), text.size()};
}

// The strings of one column as dense codes, numbered in order of first use, so a column of a few
// distinct names among millions of rows holds those few strings once.
class StringCodes {
 public:
  explicit StringCodes(const Trace& trace) : trace_(trace), code_of_(trace.strings.size(), -1) {}

  int32_t Code(StringId id) {
    int32_t& code = code_of_[id];
    if (code < 0) {
      code = static_cast<int32_t>(ids_.size());
      ids_.push_back(id);
    }
    return code;
  }
  py::list Categories() const {
    py::list categories;
    for (StringId id : ids_) categories.append(Str(trace_.str(id)));
    return categories;
  }

 private:
  const Trace& trace_;
  std::vector<int32_t> code_of_;
  std::vector<StringId> ids_;
};

template <typename Row, typename NameOf>
py::tuple StringColumn(const Trace& trace, const std::vector<Row>& rows, NameOf&& name_of) {
  StringCodes codes(trace);
  py::array_t<int32_t> column =
      Column<int32_t>(rows.size(), [&](size_t i) { return codes.Code(name_of(rows[i])); });
  return Categorical(std::move(column), codes.Categories());
}

// A column over a fixed set of labels (an enum's names): codes are the enum values.
template <typename Enum, size_t N, typename Row, typename Member>
py::tuple EnumColumn(const std::vector<Row>& rows, Member&& member,
                     const std::array<std::string_view, N>& names) {
  py::list categories;
  for (std::string_view name : names) categories.append(Str(name));
  return Categorical(
      Column<int32_t>(rows.size(), [&](size_t i) { return static_cast<int32_t>(member(rows[i])); }),
      categories);
}

std::array<std::string_view, 6> BackendNames() {
  std::array<std::string_view, 6> names;
  for (size_t b = 0; b < names.size(); ++b) names[b] = BackendName(static_cast<Backend>(b));
  return names;
}

// backend, device, device_label of device work: the device's backend and label per device index.
template <typename Row>
void AddDeviceColumns(const Trace& trace, const std::vector<Row>& rows, py::dict& columns) {
  columns["backend"] = EnumColumn<Backend>(
      rows,
      [&](const Row& row) {
        return row.device < trace.devices.size() ? trace.devices[row.device].backend
                                                 : Backend::kOther;
      },
      BackendNames());
  columns["device"] = Column<int32_t>(rows.size(), [&](size_t i) {
    return rows[i].device < trace.devices.size() ? static_cast<int32_t>(rows[i].device) : -1;
  });
  py::list labels;
  for (uint32_t d = 0; d < trace.devices.size(); ++d) {
    labels.append(DeviceLabel(trace, d, /*with_rank=*/false));
  }
  columns["device_label"] =
      Categorical(Column<int32_t>(rows.size(),
                                  [&](size_t i) {
                                    return rows[i].device < trace.devices.size()
                                               ? static_cast<int32_t>(rows[i].device)
                                               : -1;
                                  }),
                  labels);
  columns["stream"] = Column<int64_t>(rows.size(), [&](size_t i) { return rows[i].stream; });
}

template <typename Row>
void AddTimeColumns(const std::vector<Row>& rows, py::dict& columns) {
  columns["start_ns"] = Column<int64_t>(rows.size(), [&](size_t i) { return rows[i].start_ns; });
  columns["end_ns"] = Column<int64_t>(
      rows.size(), [&](size_t i) { return rows[i].start_ns + rows[i].duration_ns; });
  columns["duration_ns"] =
      Column<int64_t>(rows.size(), [&](size_t i) { return rows[i].duration_ns; });
}

template <typename Row>
void AddLinkColumns(const std::vector<Row>& rows, py::dict& columns) {
  columns["correlation"] =
      Column<uint64_t>(rows.size(), [&](size_t i) { return rows[i].link.correlation; });
  columns["external_id"] =
      Column<int64_t>(rows.size(), [&](size_t i) { return rows[i].link.external_id; });
}

template <typename Row>
void AddTrackColumns(const Trace& trace, const std::vector<Row>& rows, py::dict& columns) {
  columns["pid"] =
      Column<int64_t>(rows.size(), [&](size_t i) { return trace.tracks[rows[i].track].pid; });
  columns["tid"] =
      Column<int64_t>(rows.size(), [&](size_t i) { return trace.tracks[rows[i].track].tid; });
}

}  // namespace

py::dict KernelColumns(const LoadedTrace& loaded) {
  const Trace& trace = loaded.trace();
  const std::vector<Kernel>& rows = trace.kernels;
  const TraceLinks& links = loaded.linked().links();
  py::dict columns;
  columns["name"] = StringColumn(trace, rows, [](const Kernel& k) { return k.name; });
  AddDeviceColumns(trace, rows, columns);
  AddTimeColumns(rows, columns);
  const auto dim = [&](Dim3 Kernel::*member, uint32_t Dim3::*axis) {
    return Column<uint32_t>(rows.size(), [&](size_t i) { return rows[i].*member.*axis; });
  };
  columns["grid_x"] = dim(&Kernel::grid, &Dim3::x);
  columns["grid_y"] = dim(&Kernel::grid, &Dim3::y);
  columns["grid_z"] = dim(&Kernel::grid, &Dim3::z);
  columns["block_x"] = dim(&Kernel::block, &Dim3::x);
  columns["block_y"] = dim(&Kernel::block, &Dim3::y);
  columns["block_z"] = dim(&Kernel::block, &Dim3::z);
  columns["registers_per_thread"] =
      Column<int32_t>(rows.size(), [&](size_t i) { return rows[i].registers_per_thread; });
  columns["shared_memory_bytes"] =
      Column<int64_t>(rows.size(), [&](size_t i) { return rows[i].shared_memory_bytes; });
  AddLinkColumns(rows, columns);
  // The op (or, without one, the user annotation) that launched the kernel (work_links.h).
  StringCodes ops(trace);
  py::array_t<int32_t> op_codes = Column<int32_t>(rows.size(), [&](size_t i) {
    const uint32_t op = links.kernels[i].op;
    return op == kNoRow ? -1 : ops.Code(trace.slices[op].name);
  });
  columns["op"] = Categorical(std::move(op_codes), ops.Categories());  // after the codes exist
  columns["origin"] = EnumColumn<WorkOrigin>(
      links.kernels, [](const WorkLink& link) { return link.origin; },
      std::array<std::string_view, 4>{
          WorkOriginName(WorkOrigin::kOp), WorkOriginName(WorkOrigin::kAnnotation),
          WorkOriginName(WorkOrigin::kNoOp), WorkOriginName(WorkOrigin::kNoLaunch)});
  columns["graph"] = Column<bool>(rows.size(), [&](size_t i) { return links.kernels[i].graph; });
  return columns;
}

py::dict MemcpyColumns(const LoadedTrace& loaded) {
  const Trace& trace = loaded.trace();
  const std::vector<Transfer>& rows = trace.transfers;
  py::dict columns;
  columns["name"] = StringColumn(trace, rows, [](const Transfer& t) { return t.name; });
  columns["kind"] = EnumColumn<TransferKind>(
      rows, [](const Transfer& t) { return t.kind; },
      std::array<std::string_view, 2>{"memcpy", "memset"});
  std::array<std::string_view, 6> directions;
  for (size_t d = 0; d < directions.size(); ++d) {
    directions[d] = CopyDirectionName(static_cast<CopyDirection>(d));
  }
  columns["direction"] = EnumColumn<CopyDirection>(
      rows, [](const Transfer& t) { return t.direction; }, directions);
  std::array<std::string_view, 9> memory;
  for (size_t m = 0; m < memory.size(); ++m) memory[m] = MemoryKindName(static_cast<MemoryKind>(m));
  columns["src_memory"] = EnumColumn<MemoryKind>(
      rows, [](const Transfer& t) { return t.src_memory; }, memory);
  columns["dst_memory"] = EnumColumn<MemoryKind>(
      rows, [](const Transfer& t) { return t.dst_memory; }, memory);
  columns["bytes"] = Column<uint64_t>(rows.size(), [&](size_t i) { return rows[i].bytes; });
  AddDeviceColumns(trace, rows, columns);
  AddTimeColumns(rows, columns);
  AddLinkColumns(rows, columns);
  return columns;
}

py::dict RuntimeCallColumns(const LoadedTrace& loaded) {
  const Trace& trace = loaded.trace();
  const std::vector<ApiCall>& rows = trace.api_calls;
  py::dict columns;
  columns["name"] = StringColumn(trace, rows, [](const ApiCall& c) { return c.name; });
  columns["kind"] = EnumColumn<ApiKind>(
      rows, [](const ApiCall& c) { return c.kind; },
      std::array<std::string_view, 3>{"runtime", "driver", "sync"});
  AddTrackColumns(trace, rows, columns);
  AddTimeColumns(rows, columns);
  AddLinkColumns(rows, columns);
  return columns;
}

py::dict SliceColumns(const LoadedTrace& loaded, bool ops) {
  const Trace& trace = loaded.trace();
  std::vector<Slice> rows;
  for (const Slice& s : trace.slices) {
    if ((s.kind == SliceKind::kOp) == ops) rows.push_back(s);
  }
  py::dict columns;
  columns["name"] = StringColumn(trace, rows, [](const Slice& s) { return s.name; });
  if (!ops) {
    columns["kind"] = EnumColumn<SliceKind>(
        rows, [](const Slice& s) { return s.kind; },
        std::array<std::string_view, 4>{"op", "user_annotation", "gpu_annotation",
                                        "python_function"});
  }
  AddTrackColumns(trace, rows, columns);
  AddTimeColumns(rows, columns);
  columns["external_id"] =
      Column<int64_t>(rows.size(), [&](size_t i) { return rows[i].external_id; });
  return columns;
}

py::list DeviceRows(const Trace& trace) {
  py::list rows;
  for (uint32_t d = 0; d < trace.devices.size(); ++d) {
    const Device& device = trace.devices[d];
    py::dict row;
    row["device"] = d;
    row["label"] = DeviceLabel(trace, d, /*with_rank=*/false);
    row["backend"] = BackendName(device.backend);
    row["name"] = device.name;
    row["vendor"] = device.vendor;
    row["trace_id"] = device.trace_id;
    row["ordinal"] = device.index;
    row["arch"] = device.arch;
    row["compute_capability"] =
        device.compute_major > 0 ? py::object(py::str(std::to_string(device.compute_major) + "." +
                                                      std::to_string(device.compute_minor)))
                                 : py::object(py::none());
    row["sm_count"] = device.sm_count;
    row["warp_size"] = device.warp_size;
    row["max_threads_per_sm"] = device.max_threads_per_sm;
    row["registers_per_sm"] = device.registers_per_sm;
    row["shared_memory_per_sm"] = device.shared_memory_per_sm;
    row["shared_memory_per_block"] = device.shared_memory_per_block;
    row["total_memory_bytes"] = device.total_memory_bytes;
    rows.append(row);
  }
  return rows;
}

py::list MemoryRecordRows(const LoadedTrace& loaded) {
  std::vector<MemoryRecordRow> records;
  {
    py::gil_scoped_release release;
    records = ListMemoryRecords(loaded.linked());
  }
  const Trace& trace = loaded.trace();
  auto optional = [](const std::optional<int64_t>& v) {
    return v ? py::object(py::int_(*v)) : py::object(py::none());
  };
  py::list rows;
  for (const MemoryRecordRow& r : records) {
    const Track& track = trace.tracks[r.track];
    py::dict row;
    row["ts_ns"] = r.ts_ns;
    row["pid"] = track.pid;
    row["tid"] = track.tid;
    row["device"] = r.device_index ? py::object(py::int_(*r.device_index)) : py::object(py::none());
    row["device_label"] = r.device;
    row["device_type"] = r.device_type;
    row["device_id"] = r.device_id;
    row["address"] = r.address;
    row["bytes"] = r.bytes;
    row["total_allocated"] = optional(r.total_allocated);
    row["total_reserved"] = optional(r.total_reserved);
    row["op"] = r.op;
    row["module"] = r.module.empty() ? py::object(py::none()) : py::object(py::str(r.module));
    rows.append(row);
  }
  return rows;
}

}  // namespace tensormorph::python
