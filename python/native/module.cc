// tensormorph._native: the C++ half of the Python package (python/tensormorph is the other).
// It loads traces with the library's importers, hands their rows to pandas column by column
// (tables.h), and runs the analyses through the command line's own serializers (analyses.h).
// Imports and analyses release the GIL.
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <cmath>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "analyses.h"
#include "io/byte_size.h"
#include "loaded_trace.h"
#include "tables.h"
#include "tensormorph/analysis/occupancy/gpu_limits.h"
#include "tensormorph/export/baseline/baseline_file.h"
#include "tensormorph/import/importer.h"
#include "tensormorph/version.h"

namespace py = pybind11;

namespace tensormorph::python {
namespace {

using TraceList = std::vector<std::shared_ptr<LoadedTrace>>;

std::shared_ptr<LoadedTrace> Load(const std::string& path, int threads,
                                  const std::string& input_format, uint64_t max_input_bytes,
                                  int skip_runs) {
  ImportOptions options;
  options.threads = threads;
  options.input_format = input_format;
  options.max_input_bytes = max_input_bytes;
  options.skip_runs = skip_runs;
  StatusOr<Trace> trace = [&] {
    py::gil_scoped_release release;
    return LoadTrace(path, options);
  }();
  if (!trace.ok()) {
    const Status& status = trace.status();
    throw LoadFailure{path, status.position().line, status.position().column, status.message(),
                      status.code() == StatusCode::kInvalidArgument};
  }
  return std::make_shared<LoadedTrace>(std::move(trace).value());
}

Traces Pointers(const TraceList& traces) {
  Traces out;
  for (const auto& t : traces) out.push_back(t.get());
  return out;
}

std::optional<Backend> BackendArgument(const std::optional<std::string>& name) {
  if (!name) return std::nullopt;
  std::optional<Backend> backend = ParseBackend(*name);
  if (!backend) {
    throw py::value_error("backend '" + *name +
                          "' is not one of cpu, cuda, rocm, metal, webgpu, other");
  }
  return backend;
}

template <typename Analysis>
auto Run(Analysis&& analysis) {
  py::gil_scoped_release release;
  return analysis();
}

py::tuple WithWarnings(JsonWithWarnings result) {
  return py::make_tuple(std::move(result.json), std::move(result.warnings));
}

void TranslateLoadFailures() {
  py::register_exception_translator([](std::exception_ptr thrown) {
    try {
      if (thrown) std::rethrow_exception(thrown);
    } catch (const LoadFailure& failure) {
      if (failure.usage) {
        PyErr_SetString(PyExc_ValueError, (failure.path + ": " + failure.message).c_str());
        return;
      }
      py::object type = py::module_::import("tensormorph._errors").attr("TraceError");
      py::object error = type(failure.message, failure.path, failure.line, failure.column);
      PyErr_SetObject(type.ptr(), error.ptr());
    }
  });
}

void BindTrace(py::module_& m) {
  py::class_<LoadedTrace, std::shared_ptr<LoadedTrace>>(m, "Trace")
      .def_property_readonly("path", [](const LoadedTrace& t) { return t.trace().path; })
      .def_property_readonly("format", [](const LoadedTrace& t) { return t.trace().format; })
      .def_property_readonly("format_version",
                             [](const LoadedTrace& t) { return t.trace().format_version; })
      .def_property_readonly("backends",
                             [](const LoadedTrace& t) {
                               std::vector<std::string> names;
                               for (Backend b : t.trace().backends)
                                 names.emplace_back(BackendName(b));
                               return names;
                             })
      .def_property_readonly("rank", [](const LoadedTrace& t) { return t.trace().rank; })
      .def_property_readonly("world_size",
                             [](const LoadedTrace& t) { return t.trace().world_size; })
      .def_property_readonly("warnings", [](const LoadedTrace& t) { return t.trace().warnings; })
      .def_property_readonly("span_start_ns",
                             [](const LoadedTrace& t) { return t.trace().span_start_ns; })
      .def_property_readonly("span_end_ns",
                             [](const LoadedTrace& t) { return t.trace().span_end_ns; })
      .def_property_readonly("metadata", [](const LoadedTrace& t) { return t.trace().metadata; })
      .def("kernel_columns", &KernelColumns)
      .def("memcpy_columns", &MemcpyColumns)
      .def("runtime_call_columns", &RuntimeCallColumns)
      .def("slice_columns", &SliceColumns, py::arg("ops"))
      .def("device_rows", [](const LoadedTrace& t) { return DeviceRows(t.trace()); })
      .def("memory_records", &MemoryRecordRows)
      .def("link", [](const LoadedTrace& t) {
        py::gil_scoped_release release;
        t.linked().links();
      });
}

void BindProfiles(py::module_& m) {
  py::class_<Profile, std::shared_ptr<Profile>>(m, "Profile")
      .def_readonly("path", &Profile::path)
      .def_readonly("is_baseline", &Profile::is_baseline)
      .def("save", [](const Profile& profile, const std::string& path) {
        const Status status = WriteBaselineFile(path, profile.baseline);
        if (!status.ok()) throw LoadFailure{path, 0, 0, status.message()};
      });
  m.def(
      "profile_of_traces",
      [](const TraceList& traces) {
        return Run([&] { return std::make_shared<Profile>(ProfileOfTraces(Pointers(traces))); });
      },
      py::arg("traces"));
  // A saved baseline, or None when the file is not one (it may be a trace).
  m.def(
      "read_baseline",
      [](const std::string& path) -> std::shared_ptr<Profile> {
        StatusOr<std::optional<Baseline>> saved = ReadBaselineFile(path);
        if (!saved.ok()) {
          const Status& status = saved.status();
          throw LoadFailure{path, status.position().line, status.position().column,
                            status.message()};
        }
        if (!saved->has_value()) return nullptr;
        return std::make_shared<Profile>(Profile{std::move(**saved), path, true});
      },
      py::arg("path"));
  m.def(
      "diff_json",
      [](const Profile& base, const Profile& next, double threshold_percent, double alpha,
         size_t top, const std::string& kind) {
        if (kind != "kernel" && kind != "op" && kind != "all") {
          throw py::value_error("kind '" + kind + "' is not one of kernel, op, all");
        }
        DiffOptions options;
        options.threshold_percent = threshold_percent;
        options.alpha = alpha;
        options.top = top;
        options.kernels = kind != "op";
        options.ops = kind != "kernel";
        return Run([&] { return DiffJson(base, next, options); });
      },
      py::arg("base"), py::arg("next"), py::arg("threshold_percent"), py::arg("alpha"),
      py::arg("top"), py::arg("kind"));
  m.def(
      "report_html",
      [](const TraceList& traces, const Profile* base, double threshold_percent, int64_t min_gap_ns,
         size_t max_boxes, std::optional<std::string> compare_by, std::vector<std::string> labels,
         const PredictTargets* predict) {
        ReportAnalysesQuery query;
        ReportPageOptions options;
        if (predict != nullptr) query.predict = predict->query;
        query.timeline.min_gap_ns = min_gap_ns;
        options.max_raw_boxes = max_boxes;
        if (compare_by) {
          std::optional<CompareBy> by = ParseCompareBy(*compare_by);
          if (!by) {
            throw py::value_error("compare_by '" + *compare_by +
                                  "' is not one of op, shape, stack, category");
          }
          query.compare.emplace();
          query.compare->by = *by;
          query.compare->labels = std::move(labels);
        }
        return Run(
            [&] { return ReportHtml(Pointers(traces), base, threshold_percent, query, options); });
      },
      py::arg("traces"), py::arg("base"), py::arg("threshold_percent"), py::arg("min_gap_ns"),
      py::arg("max_boxes"), py::arg("compare_by"), py::arg("labels"), py::arg("predict"));
}

void BindPredictTargets(py::module_& m) {
  // Opaque: the analyses read it; Python only holds it while they run.
  py::class_<PredictTargets>(m, "PredictTargets");
  m.def(
      "predict_targets",
      [](const std::vector<std::string>& keys, const std::string& calibration,
         const std::vector<std::string>& device_specs) {
        return ResolvePredictTargets(keys, calibration, device_specs);
      },
      py::arg("keys"), py::arg("calibration"), py::arg("device_specs"));
}

// The defaults of the analyses' options, by the function below that takes them and its argument
// names: the library's options structs, the one place they are written. The package's signatures
// read them at import (python/tensormorph/_analyses.py), as the command line's options do.
py::dict OptionDefaults() {
  using py::arg;
  const TimelineOptions timeline;
  const FindingsQuery findings;
  const DiffOptions diff;
  const ReportAnalysesQuery report;
  const ReportPageOptions page;
  py::dict out;
  out["ops_json"] = py::dict(arg("top_kernels") = OpQuery{}.top_kernels);
  out["timeline_json"] =
      py::dict(arg("min_gap_ns") = timeline.min_gap_ns,
               arg("straggler_threshold_percent") = timeline.straggler_threshold_percent,
               arg("queue_limit") = timeline.queue_limit);
  out["findings_json"] =
      py::dict(arg("min_gap_ns") = findings.min_gap_ns,
               arg("attainable_roof_percent") = findings.attainable_roof_percent,
               arg("slow_copy_percent") = findings.slow_copy_percent,
               arg("straggler_threshold_percent") = findings.straggler_threshold_percent,
               arg("top_items") = findings.top_items);
  out["memory_json"] = py::dict(arg("top") = MemoryQuery{}.top);
  out["diff_json"] =
      py::dict(arg("threshold_percent") = diff.threshold_percent, arg("alpha") = diff.alpha);
  out["report_html"] = py::dict(arg("threshold_percent") = diff.threshold_percent,
                                arg("min_gap_ns") = report.timeline.min_gap_ns,
                                arg("max_boxes") = page.max_raw_boxes);
  return out;
}

void BindAnalyses(py::module_& m) {
  m.def("option_defaults", &OptionDefaults);
  m.def(
      "kernels_json",
      [](const TraceList& traces, const std::string& group_by, std::optional<std::string> backend,
         std::string device, bool by_input, std::string name_filter, size_t top) {
        static const std::map<std::string, KernelGrouping> kGroupings = {
            {"name", KernelGrouping::kName},
            {"device", KernelGrouping::kDevice},
            {"stream", KernelGrouping::kStream}};
        const auto grouping = kGroupings.find(group_by);
        if (grouping == kGroupings.end()) {
          throw py::value_error("group_by '" + group_by + "' is not one of name, device, stream");
        }
        KernelQuery query{.group_by = grouping->second,
                          .backend = BackendArgument(backend),
                          .device = std::move(device),
                          .by_input = by_input,
                          .name_filter = std::move(name_filter),
                          .top = top};
        return Run([&] { return KernelsJson(Pointers(traces), query); });
      },
      py::arg("traces"), py::arg("group_by"), py::arg("backend"), py::arg("device"),
      py::arg("by_input"), py::arg("name_filter"), py::arg("top"));
  m.def(
      "ops_json",
      [](const TraceList& traces, bool by_instance, bool by_stack,
         std::optional<std::string> backend, bool by_input, size_t top, size_t top_kernels,
         const PredictTargets* predict) {
        OpQuery query{.by_instance = by_instance,
                      .by_stack = by_stack,
                      .backend = BackendArgument(backend),
                      .by_input = by_input,
                      .top = top,
                      .top_kernels = top_kernels};
        if (predict != nullptr && !predict->query.targets.empty() && (by_instance || by_stack)) {
          throw py::value_error(
              "predict adds predictions to rows by op name (with by_input too); rows by instance "
              "or by module path are not predicted (for rows per op and input shapes: "
              "tensormorph.predict)");
        }
        return Run([&] { return OpsJson(Pointers(traces), query, predict); });
      },
      py::arg("traces"), py::arg("by_instance"), py::arg("by_stack"), py::arg("backend"),
      py::arg("by_input"), py::arg("top"), py::arg("top_kernels"), py::arg("predict"));
  m.def(
      "compare_json",
      [](const TraceList& traces, const std::string& by, std::vector<std::string> labels,
         size_t top, const PredictTargets& devices) {
        std::optional<CompareBy> parsed = ParseCompareBy(by);
        if (!parsed)
          throw py::value_error("by '" + by + "' is not one of op, shape, stack, category");
        CompareQuery query;
        query.by = *parsed;
        query.labels = std::move(labels);
        query.top = top;
        return Run([&] { return CompareJson(Pointers(traces), query, devices.devices); });
      },
      py::arg("traces"), py::arg("by"), py::arg("labels"), py::arg("top"), py::arg("devices"));
  m.def(
      "predict_json",
      [](const LoadedTrace& trace, const LoadedTrace* measured, const PredictTargets& targets,
         size_t top) { return Run([&] { return PredictJson(trace, measured, targets, top); }); },
      py::arg("trace"), py::arg("measured"), py::arg("targets"), py::arg("top"));
  m.def(
      "timeline_json",
      [](const TraceList& traces, int64_t min_gap_ns, double straggler_threshold_percent,
         int64_t queue_limit, bool as_job) {
        TimelineOptions options;
        options.min_gap_ns = min_gap_ns;
        options.straggler_threshold_percent = straggler_threshold_percent;
        options.queue_limit = queue_limit;
        options.as_job = as_job;
        return Run([&] { return TimelineJson(Pointers(traces), options); });
      },
      py::arg("traces"), py::arg("min_gap_ns"), py::arg("straggler_threshold_percent"),
      py::arg("queue_limit"), py::arg("as_job"));
  m.def(
      "roofline_json",
      [](const TraceList& traces, size_t top) {
        const RooflineQuery query{.top = top};
        return Run([&] { return RooflineJson(Pointers(traces), query); });
      },
      py::arg("traces"), py::arg("top"));
  m.def(
      "occupancy_json",
      [](const TraceList& traces, const std::optional<std::string>& arch, size_t top) {
        KernelOccupancyQuery query{.top = top};
        if (arch) {
          StatusOr<GpuArch> parsed = ParseArch(*arch);
          if (!parsed.ok()) throw py::value_error(parsed.status().message());
          query.arch = std::move(parsed).value();
        }
        return Run([&] { return OccupancyJson(Pointers(traces), query); });
      },
      py::arg("traces"), py::arg("arch"), py::arg("top"));
  m.def(
      "findings_json",
      [](const TraceList& traces, int64_t min_gap_ns, double attainable_roof_percent,
         double slow_copy_percent, double straggler_threshold_percent, size_t top_items,
         bool as_job, bool simulate) {
        FindingsQuery query;
        query.min_gap_ns = min_gap_ns;
        query.attainable_roof_percent = attainable_roof_percent;
        query.slow_copy_percent = slow_copy_percent;
        query.straggler_threshold_percent = straggler_threshold_percent;
        query.top_items = top_items;
        query.as_job = as_job;
        return Run([&] { return FindingsJson(Pointers(traces), query, simulate); });
      },
      py::arg("traces"), py::arg("min_gap_ns"), py::arg("attainable_roof_percent"),
      py::arg("slow_copy_percent"), py::arg("straggler_threshold_percent"), py::arg("top_items"),
      py::arg("as_job"), py::arg("simulate"));
  m.def(
      "memory_json",
      [](const TraceList& traces, size_t top) {
        MemoryQuery query;
        query.top = top;
        return Run([&] { return MemoryJson(Pointers(traces), query); });
      },
      py::arg("traces"), py::arg("top"));
  m.def(
      "collectives_json",
      [](const TraceList& traces, bool as_job, bool align_clocks) {
        return WithWarnings(
            Run([&] { return CollectivesJson(Pointers(traces), as_job, align_clocks); }));
      },
      py::arg("traces"), py::arg("as_job"), py::arg("align_clocks"));
  m.def(
      "critical_path_json",
      [](const TraceList& traces, bool as_job, bool align_clocks, std::optional<int64_t> step) {
        CriticalPathOptions options;
        options.align_clocks = align_clocks;
        options.step = step;
        return WithWarnings(
            Run([&] { return CriticalPathJson(Pointers(traces), as_job, options); }));
      },
      py::arg("traces"), py::arg("as_job"), py::arg("align_clocks"), py::arg("step"));
  m.def(
      "whatif_json",
      [](const TraceList& traces, const std::vector<std::pair<std::string, double>>& speedups,
         const std::vector<std::string>& remove_syncs, bool no_host_gaps, bool findings,
         bool as_job, bool align_clocks) {
        WhatIfQuery query;
        for (const auto& [pattern, factor] : speedups) {
          if (!(factor > 0) || !std::isfinite(factor)) {
            throw py::value_error("a speedup's factor must be a number above 0");
          }
          query.speedups.push_back({pattern, factor});
        }
        query.remove_syncs = remove_syncs;
        query.no_host_gaps = no_host_gaps;
        query.findings = findings;
        query.as_job = as_job;
        query.align_clocks = align_clocks;
        return WithWarnings(Run([&] { return WhatIfJson(Pointers(traces), query); }));
      },
      py::arg("traces"), py::arg("speedups"), py::arg("remove_syncs"), py::arg("no_host_gaps"),
      py::arg("findings"), py::arg("as_job"), py::arg("align_clocks"));
}

}  // namespace
}  // namespace tensormorph::python

PYBIND11_MODULE(_native, m) {
  using namespace tensormorph;
  using namespace tensormorph::python;
  m.doc() = "tensormorph's C++ library; use the tensormorph package, not this module";
  TranslateLoadFailures();
  BindTrace(m);
  m.def("load", &Load, py::arg("path"), py::kw_only(), py::arg("threads") = 0,
        py::arg("input_format") = "", py::arg("max_input_bytes") = kDefaultMaxInputBytes,
        py::arg("skip_runs") = -1);
  m.def("parse_byte_size", [](const std::string& text) { return ParseByteSize(text); });
  m.def("trace_files_in_folder", &TraceFilesInFolder, py::arg("folder"));
  m.def("input_format_names", &InputFormatNames);
  m.attr("default_max_input_bytes") = kDefaultMaxInputBytes;
  BindPredictTargets(m);
  BindAnalyses(m);
  BindProfiles(m);
  m.attr("version") = kTensormorphVersion;
}
