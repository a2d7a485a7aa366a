// `tensormorph report` on whatever the Chrome trace / Kineto reader accepts: every analysis the
// page shows runs over the trace and the page renders, or the harness fails. An exception out of
// a serializer is a failure too (uncaught, libFuzzer reports it): a trace without kernels once
// ended the report in nlohmann's "type must be number, but is null". Inputs the reader refuses
// are not the report's concern and are skipped. The analyses run one after another
// (concurrent = false), so a failure reproduces from its input alone. `memory`'s analysis and JSON
// run over the same trace, and `predict` on an MI300X and an A100 (the work estimates of every op
// from its recorded shapes, link/op_work.h; a calibrated and an uncalibrated target family).
#include <cstddef>
#include <cstdint>
#include <sstream>
#include <string>
#include <vector>

#include "memory_file.h"
#include "report/html/report.h"
#include "report/memory_report.h"
#include "tensormorph/analysis/predict/predict.h"
#include "tensormorph/import/importer.h"
#include "tensormorph/link/linked_trace.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static tensormorph::fuzz::MemoryFile file;
  file.Assign(data, size);
  tensormorph::ImportOptions options;
  options.input_format = "chrome-json";
  options.threads = 1;
  tensormorph::StatusOr<tensormorph::Trace> trace = tensormorph::LoadTrace(file.path(), options);
  if (!trace.ok()) return 0;
  tensormorph::LinkOptions link;
  link.concurrent = false;
  const tensormorph::LinkedTrace linked(*trace, link);
  tensormorph::ReportAnalysesQuery query;
  query.concurrent = false;
  tensormorph::ReportPageOptions page;
  page.max_raw_boxes = 2'000;  // the level-of-detail path too, on small inputs
  const std::string html = tensormorph::RenderReport(
      {&linked}, tensormorph::RunReportAnalyses({&linked}, query), nullptr, page);
  if (html.find("</html>") == std::string::npos) __builtin_trap();  // a page that ended early
  // `memory` reads the allocator records' args text, which the report does not.
  const tensormorph::MemoryResult memory = tensormorph::AnalyzeMemory({&linked}, {});
  std::ostringstream json;
  tensormorph::RenderMemory(json, {&*trace}, memory, tensormorph::OutputFormat::kJson);
  if (json.str().empty() || json.str().back() != '\n') __builtin_trap();
  tensormorph::PredictQuery predict;
  for (const tensormorph::DeviceSpec& spec : tensormorph::BuiltInDevices()) {
    if (spec.key == "mi300x" || spec.key == "a100-sxm4-80gb") predict.targets.push_back(&spec);
  }
  const tensormorph::PredictResult predicted = tensormorph::PredictTrace(linked, predict);
  for (const tensormorph::PredictRow& row : predicted.rows) {
    if (row.counted_ns > row.measured_ns || row.predictions.size() != predict.targets.size()) {
      __builtin_trap();
    }
    for (const tensormorph::Prediction& p : row.predictions) {
      if (p.predicted_ns && (*p.predicted_ns < 0 ||
                             (p.predicted_low_ns && *p.predicted_low_ns > *p.predicted_high_ns))) {
        __builtin_trap();
      }
    }
  }
  return 0;
}
