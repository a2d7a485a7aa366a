#include "import/ncu/ncu_importer.h"

#include <fmt/format.h>

#include <algorithm>
#include <optional>

#include "import/common/device_arch.h"
#include "import/common/finish_import.h"
#include "import/ncu/launch.h"
#include "import/ncu/trace_builder.h"
#include "io/csv_reader.h"
#include "tensormorph/io/block_reader.h"

namespace tensormorph::ncu {
namespace {

bool IsHeaderLine(std::string_view line) {
  return line.starts_with("\"ID\",\"Process ID\"") || line.starts_with("ID,Process ID");
}

// `ncu --print-summary` writes statistics per kernel over its invocations: no launches to read.
bool IsSummaryHeader(const CsvRecord& record) {
  bool process = false, invocations = false;
  for (const std::string& f : record.fields) {
    process |= f == "Process ID";
    invocations |= f == "Invocations";
  }
  return process && invocations && record.at(0) != "ID";
}

constexpr std::string_view kSyntheticStarts =
    "start times synthetic: each stream's launches laid end to end in ID order, as ncu measures "
    "durations, not start times";

}  // namespace

int NcuCsvImporter::Sniff(std::string_view head) const {
  if (head.starts_with("\xEF\xBB\xBF")) head.remove_prefix(3);
  bool tool_lines = false, first = true;
  // ncu's messages and the application's own output may come before the header when stdout was
  // redirected: look at every line start of the head.
  while (!head.empty()) {
    const size_t end = head.find_first_of("\r\n");
    const std::string_view line = head.substr(0, end);
    if (IsHeaderLine(line)) return first ? 100 : 95;
    if (line.starts_with("\"Process ID\",\"Process Name\"") &&
        line.find("\"Invocations\"") != std::string_view::npos) {
      return 90;  // a --print-summary export: Import() explains why it is not read
    }
    if (!ToolMessageTag(line).empty()) tool_lines = true;
    if (end == std::string_view::npos) break;
    head.remove_prefix(end + 1);
    first = false;
  }
  return tool_lines ? 80 : 0;
}

StatusOr<Trace> NcuCsvImporter::Import(const Input& input, const ImportOptions& options) const {
  const std::string& path = input.path();
  TM_ASSIGN_OR_RETURN(std::unique_ptr<BlockReader> opened, input.Blocks());
  BlockReader& blocks = *opened;
  CsvReader reader([&](std::vector<char>* block) {
    const bool more = blocks.Next(block);
    if (options.progress) options.progress(blocks.file_bytes_consumed(), blocks.file_size());
    return more;
  });

  // Before the header: ncu's ==PROF==/==WARNING==/==ERROR== lines and the application's output.
  Diagnostics diagnostics;
  std::vector<std::string> errors;
  uint64_t first_error_line = 0;
  std::optional<Header> header;
  CsvRecord record;
  while (reader.Next(&record)) {
    const std::string_view tag = ToolMessageTag(record.raw);
    if (tag == "ERROR") {
      errors.push_back(record.raw);
      if (first_error_line == 0) first_error_line = record.line;
    } else if (tag == "WARNING") {
      diagnostics.Add(record.line, 1, "ncu reported: " + record.raw.substr(0, 300));
    } else if (tag.empty() && record.at(0) == "ID" && record.size() > 1 &&
               record.at(1) == "Process ID") {
      header.emplace(record);
      break;
    } else if (tag.empty() && IsSummaryHeader(record)) {
      return UnreadableInput(
          "an Nsight Compute --print-summary export (statistics per kernel over its "
          "invocations) has no launches to read; export them with ncu --csv --page details or "
          "--page raw",
          SourcePosition{record.line, 1});
    }
  }
  TM_RETURN_IF_ERROR(reader.status());
  TM_RETURN_IF_ERROR(blocks.status());
  if (!header) {
    if (!errors.empty()) {
      // Quote ncu's own words: they say what to change (here, usually the command line).
      std::string said;
      for (size_t i = 0; i < std::min<size_t>(errors.size(), 3); ++i) {
        std::string_view e = errors[i];
        e.remove_prefix(std::min<size_t>(e.size(), 9));  // "==ERROR=="
        while (e.starts_with(' ')) e.remove_prefix(1);
        said += fmt::format("{}{}", i == 0 ? "" : " | ", e.substr(0, 300));
      }
      if (errors.size() > 3)
        said += fmt::format(" (and {} more ==ERROR== lines)", errors.size() - 3);
      return UnreadableInput(
          fmt::format("Nsight Compute (ncu) failed: the file holds its error messages, not "
                      "results: {}",
                      said),
          SourcePosition{first_error_line, 1});
    }
    return UnreadableInput(
        "no Nsight Compute CSV header (a row starting \"ID\",\"Process ID\") was found",
        SourcePosition{1, 1});
  }
  for (const std::string& e : errors) diagnostics.Note("ncu reported: " + e.substr(0, 300));

  const bool details = header->Has("Metric Name") && header->Has("Metric Value");
  std::vector<Launch> launches;
  TM_RETURN_IF_ERROR(details ? ReadDetailsLayout(&reader, *header, &launches, &diagnostics)
                             : ReadRawLayout(&reader, *header, &launches, &diagnostics));
  TM_RETURN_IF_ERROR(blocks.status());

  Trace trace;
  trace.path = path;
  trace.format = "ncu-csv";
  const bool base_units = !launches.empty() && launches[0].base_units;
  trace.format_version =
      details ? fmt::format("details page, one row per metric{}; {}",
                            header->Has("Body Item Label") ? ", with Body Item Label" : "",
                            kSyntheticStarts)
              : fmt::format("raw page, one row per launch{}; {}",
                            base_units ? ", no units row" : "", kSyntheticStarts);
  trace.metadata["start_times"] = "\"synthetic\"";
  if (!blocks.warning().empty()) trace.warnings.push_back(blocks.warning());
  if (launches.empty()) {
    diagnostics.Note("the export has a header but no launches (ncu profiled no kernel?)");
  }
  BuildNcuTrace(launches, &diagnostics, &trace);
  SetCudaArchs(&trace);
  diagnostics.AppendTo(&trace.warnings);
  // BuildNcuTrace put the kernels in the model's order; kernel_counters refer to them by position.
  FinishImport(&trace,
               {.order = TableOrder::kKernelsInOrder, .backends = {.deviceless = Backend::kCuda}});
  return trace;
}

}  // namespace tensormorph::ncu
