#include "cli/common.h"

#include <fmt/format.h>

#include <cstdio>
#include <fstream>
#include <iostream>
#include <optional>

#include "cli/progress.h"
#include "io/byte_size.h"
#include "tensormorph/import/importer.h"

namespace tensormorph {

std::string TraceArgumentHelp(std::string_view what) {
  std::string formats;
  for (const Importer* importer : Importers()) {
    formats += fmt::format("{}{}", formats.empty() ? "" : ", ", importer->name());
  }
  return fmt::format("{} in any format tensormorph reads, detected by content ({}; gzip too)", what,
                     formats);
}

void AddCommonOptions(CLI::App* command, CommonOptions* options,
                      const std::vector<std::string>& extra_formats) {
  std::vector<std::string> formats = {"table", "json", "csv"};
  formats.insert(formats.end(), extra_formats.begin(), extra_formats.end());
  command
      ->add_option("TRACE", options->inputs,
                   TraceArgumentHelp("trace files or folders; several = ranks of one job,"))
      ->required();
  command->add_option("--format", options->format, "output format")
      ->check(CLI::IsMember(formats))
      ->capture_default_str();
  AddInputOptions(command, options);
}

void AddInputOptions(CLI::App* command, CommonOptions* options, std::vector<CLI::Option*>* added) {
  std::vector<CLI::Option*> declared;
  declared.push_back(
      command
          ->add_option(
              "--threads", options->threads,
              "parser threads (0 = one per core; 1 also runs the analyses one after another)")
          ->check(CLI::Range(0, 256))
          ->capture_default_str());
  declared.push_back(command->add_flag("-q,--quiet", options->quiet, "no progress bar"));
  declared.push_back(command
                         ->add_option("--input-format", options->input_format,
                                      "skip detection and read the inputs as this format")
                         ->check(CLI::IsMember(InputFormatNames())));
  declared.push_back(
      command
          ->add_option("--skip-runs", options->skip_runs,
                       "ONNX Runtime profiles: leave out the first N model runs as warm-up "
                       "(default: the first of several runs, summarised in a warning)")
          ->check(CLI::NonNegativeNumber));
  declared.push_back(
      command
          ->add_option_function<std::string>(
              "--max-input-size",
              [options](const std::string& text) {
                std::optional<uint64_t> bytes = ParseByteSize(text);
                if (!bytes) {
                  throw CLI::ValidationError("--max-input-size",
                                             "'" + text + "' is not a size such as 512M, 32G or 0");
                }
                options->max_input_bytes = *bytes;
              },
              "refuse inputs whose content (decompressed, for gzip) is larger: bytes or K/M/G/T; 0 "
              "= no limit")
          ->default_str(fmt::format("{}G", kDefaultMaxInputBytes >> 30)));
  if (added != nullptr) added->insert(added->end(), declared.begin(), declared.end());
}

int LoadDevices(const std::vector<std::string>& spec_files, std::vector<DeviceSpec>* devices) {
  *devices = BuiltInDevices();
  for (const std::string& path : spec_files) {
    StatusOr<std::vector<DeviceSpec>> loaded = LoadDeviceSpecs(path, std::move(*devices));
    if (!loaded.ok()) return PrintError(kExitUnreadable, loaded.status().message());
    *devices = std::move(loaded).value();
  }
  return kExitOk;
}

void AddAsJobOption(CLI::App* command, bool* as_job) {
  command->add_flag("--as-job", *as_job,
                    "treat the inputs as the ranks of one job even when they do not look like one "
                    "(no rank named, world sizes that differ, time spans apart)");
}

void AddJobOptions(CLI::App* command, JobOptions* options) {
  AddAsJobOption(command, &options->as_job);
  command->add_flag("--no-clock-align", options->no_clock_align,
                    "use each rank's own clock (offsets 0) instead of aligning the ranks on the "
                    "collectives' ends");
}

int LoadInputs(const CommonOptions& options, std::vector<Trace>* traces) {
  // A folder no importer reads whole is a job's rank traces side by side: its files.
  std::vector<std::string> paths;
  for (const std::string& path : options.inputs) {
    std::vector<std::string> files =
        options.input_format.empty() ? TraceFilesInFolder(path) : std::vector<std::string>{};
    if (files.empty()) {
      paths.push_back(path);
    } else {
      paths.insert(paths.end(), files.begin(), files.end());
    }
  }
  for (const std::string& path : paths) {
    ImportOptions import_options;
    import_options.threads = options.threads;
    import_options.input_format = options.input_format;
    import_options.host_rows = options.host_rows;
    import_options.skip_runs = options.skip_runs;
    import_options.max_input_bytes = options.max_input_bytes;
    ProgressBar bar(path, !options.quiet);
    import_options.progress = [&bar](uint64_t done, uint64_t total) { bar.Update(done, total); };
    StatusOr<Trace> trace = LoadTrace(path, import_options);
    if (!trace.ok()) return PrintError(path, trace.status());
    traces->push_back(std::move(trace).value());
  }
  return kExitOk;
}

CLI::Option* AddBackendOption(CLI::App* command, std::optional<Backend>* backend,
                              const std::string& help) {
  return command
      ->add_option_function<std::string>(
          "--backend", [backend](const std::string& name) { *backend = ParseBackend(name); }, help)
      ->check(CLI::IsMember({"cpu", "cuda", "rocm", "metal", "webgpu", "other"}));
}

int PrintError(int exit_code, std::string_view message, std::string_view usage_of) {
  std::cerr << fmt::format("tensormorph: error: {}\n", message);
  if (!usage_of.empty()) std::cerr << fmt::format("Run '{} --help' for usage.\n", usage_of);
  return exit_code;
}

void PrintWarning(std::string_view message) {
  std::cerr << fmt::format("tensormorph: warning: {}\n", message);
}

void PrintNote(std::string_view message) {
  std::cerr << fmt::format("tensormorph: note: {}\n", message);
}

int PrintError(const std::string& path, const Status& status) {
  std::string where = path;
  if (status.position().line > 0) {
    where += fmt::format(":{}:{}", status.position().line, status.position().column);
  }
  // A bug of ours, not the input's: said so, with the exit code of an input that cannot be read.
  if (status.code() == StatusCode::kInternal) {
    const std::string_view prefix = "internal error: ";
    return PrintError(kExitUnreadable, fmt::format("{}{}: {}", prefix, where,
                                                   status.message().starts_with(prefix)
                                                       ? status.message().substr(prefix.size())
                                                       : status.message()));
  }
  return PrintError(status.code() == StatusCode::kInvalidArgument ? kExitUsage : kExitUnreadable,
                    fmt::format("{}: {}", where, status.message()));
}

int WriteOutputFile(const std::string& path, const std::string& text) {
  if (path.empty()) {
    std::cout << text;
    return kExitOk;
  }
  std::ofstream file(path, std::ios::binary | std::ios::trunc);
  file << text;
  file.close();
  if (!file) return PrintError(kExitUsage, fmt::format("{}: cannot write the output file", path));
  return kExitOk;
}

void PrintWarnings(const std::vector<Trace>& traces) {
  for (const Trace& t : traces) {
    for (const std::string& w : t.warnings) {
      // Warnings with a position already start with the path ("FILE:LINE: ...").
      const bool has_path = w.starts_with(t.path + ":");
      PrintWarning(fmt::format("{}{}", has_path ? "" : t.path + ": ", w));
    }
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

LinkOptions LinkOptionsOf(const CommonOptions& options) {
  return {.concurrent = options.threads != 1};
}

std::vector<std::string> SplitLabels(std::string_view text) {
  std::vector<std::string> labels;
  for (size_t start = 0;;) {
    const size_t comma = text.find(',', start);
    labels.emplace_back(
        text.substr(start, comma == std::string_view::npos ? comma : comma - start));
    if (comma == std::string_view::npos) return labels;
    start = comma + 1;
  }
}

int CheckCompareSides(size_t traces, size_t labels, std::string_view command) {
  if (traces < 2) {
    return PrintError(kExitUsage,
                      fmt::format("{} needs at least two traces (got {}): one per side, such as "
                                  "the same model profiled on two devices",
                                  command == "compare" ? "compare" : "--compare", traces),
                      fmt::format("tensormorph {}", command));
  }
  if (labels > traces) {
    return PrintError(kExitUsage,
                      fmt::format("{} labels for {} traces: --label takes one name per trace, "
                                  "comma-separated (--label H100,MI300X)",
                                  labels, traces),
                      fmt::format("tensormorph {}", command));
  }
  return kExitOk;
}

}  // namespace tensormorph
