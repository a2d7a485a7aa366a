// `tensormorph export TRACE --to FORMAT -o OUT`: writes one trace in another format, through the
// exporter registry (src/export/registry/registry.cc).
#include <fmt/format.h>
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <memory>

#include "cli/commands.h"
#include "cli/common.h"
#include "export/exporter.h"
#include "tensormorph/import/importer.h"

namespace tensormorph {
namespace {

struct ExportOptions {
  CommonOptions common;
  std::string to;
  std::string output;
};

std::string KnownExporters() {
  std::string known;
  for (const Exporter* exporter : Exporters()) {
    known += fmt::format("{}{}", known.empty() ? "" : ", ", exporter->name());
  }
  return known;
}

// `-o -`: exporters write files (SQLite needs one it can seek in), so the output goes to a
// temporary file first and is copied to stdout.
int ExportToStdout(const Exporter& exporter, const LinkedTrace& trace) {
  char temp_path[] = "/tmp/tensormorph_export_XXXXXX";
  const int fd = mkstemp(temp_path);
  if (fd < 0) {
    return PrintError(kExitUnreadable, "cannot create a temporary file for -o -");
  }
  close(fd);
  const Status written = exporter.Export(trace, temp_path);
  int rc = kExitOk;
  if (!written.ok()) {
    rc = PrintError(kExitUnreadable, written.message());
  } else {
    std::ifstream in(temp_path, std::ios::binary);
    std::cout << in.rdbuf();
    std::cout.flush();
    if (!std::cout) {
      rc = PrintError(kExitUnreadable, "cannot write to stdout");
    }
  }
  std::remove(temp_path);
  return rc;
}

}  // namespace

CommandRunner AddExportCommand(CLI::App* app) {
  auto options = std::make_shared<ExportOptions>();
  CLI::App* command = app->add_subcommand(
      "export",
      "write a trace in another format: the native Tensormorph format (JSON or NDJSON), "
      "and the other formats the registry lists");
  // The input options every command shares (one TRACE here); --format is the tables' and means
  // nothing to export, whose output format is --to.
  AddCommonOptions(command, &options->common);
  command->remove_option(command->get_option("--format"));
  command->get_option("TRACE")->expected(1)->description(
      TraceArgumentHelp("the trace file or folder to convert,"));
  command->add_option("--to", options->to, fmt::format("output format: {}", KnownExporters()))
      ->required();
  command->add_option("-o,--output", options->output, "output file ('-' for stdout)")->required();
  return [options]() {
    const Exporter* exporter = FindExporter(options->to);
    if (exporter == nullptr) {
      return PrintError(kExitUsage, fmt::format("unknown export format '{}'; known formats: {}",
                                                options->to, KnownExporters()));
    }
    if (options->common.inputs.size() != 1) {
      return PrintError(kExitUsage, "export converts one trace at a time");
    }
    // An export keeps every ONNX Runtime model run, the warm-up one marked as such, unless the
    // user asks for runs to be left out with --skip-runs.
    if (options->common.skip_runs < 0) options->common.skip_runs = ImportOptions::kMarkWarmUpRuns;
    std::vector<Trace> traces;
    if (int rc = LoadInputs(options->common, &traces); rc != kExitOk) return rc;
    PrintWarnings(traces);
    const LinkedTrace linked(traces.front());
    if (options->output == "-") return ExportToStdout(*exporter, linked);
    const Status written = exporter->Export(linked, options->output);
    if (!written.ok()) {
      return PrintError(kExitUnreadable, written.message());
    }
    return kExitOk;
  };
}

}  // namespace tensormorph
