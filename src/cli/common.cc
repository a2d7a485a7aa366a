#include "cli/common.h"

#include <fmt/format.h>

#include <cstdio>
#include <iostream>

#include "cli/progress.h"
#include "import/importer.h"

namespace tensormorph {

void AddCommonOptions(CLI::App* command, CommonOptions* options,
                      const std::vector<std::string>& extra_formats) {
  std::vector<std::string> formats = {"table", "json", "csv"};
  formats.insert(formats.end(), extra_formats.begin(), extra_formats.end());
  command
      ->add_option("TRACE", options->inputs,
                   "trace files (.json, .json.gz); several = ranks of one job")
      ->required();
  command->add_option("--format", options->format, "output format")
      ->check(CLI::IsMember(formats))
      ->capture_default_str();
  command->add_option("--threads", options->threads, "parser threads (0 = one per core)")
      ->check(CLI::Range(0, 256))
      ->capture_default_str();
  command->add_flag("-q,--quiet", options->quiet, "no progress bar");
  command->add_option("--input-format", options->input_format,
                      "skip detection and read the inputs as this format (chrome-json)");
}

int LoadInputs(const CommonOptions& options, std::vector<Trace>* traces) {
  for (const std::string& path : options.inputs) {
    ImportOptions import_options;
    import_options.threads = options.threads;
    import_options.input_format = options.input_format;
    import_options.host_rows = options.host_rows;
    ProgressBar bar(path, !options.quiet);
    import_options.progress = [&bar](uint64_t done, uint64_t total) { bar.Update(done, total); };
    StatusOr<Trace> trace = LoadTrace(path, import_options);
    if (!trace.ok()) {
      const Status& s = trace.status();
      std::string where = path;
      if (s.position().line > 0)
        where += fmt::format(":{}:{}", s.position().line, s.position().column);
      std::cerr << fmt::format("tensormorph: error: {}: {}\n", where, s.message());
      return s.code() == StatusCode::kInvalidArgument ? kExitUsage : kExitUnreadable;
    }
    traces->push_back(std::move(trace).value());
  }
  return kExitOk;
}

void PrintWarnings(const std::vector<Trace>& traces) {
  for (const Trace& t : traces) {
    for (const std::string& w : t.warnings)
      std::cerr << fmt::format("tensormorph: warning: {}: {}\n", t.path, w);
  }
}

std::vector<const Trace*> Pointers(const std::vector<Trace>& traces) {
  std::vector<const Trace*> out;
  for (const Trace& t : traces) out.push_back(&t);
  return out;
}

OutputFormat FormatOf(const CommonOptions& options) {
  return ParseOutputFormat(options.format).value_or(OutputFormat::kTable);
}

}  // namespace tensormorph
