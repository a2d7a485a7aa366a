// What every subcommand shares: the input options, loading with progress, and how errors and
// warnings reach the user (`tensormorph: error: FILE[:LINE:COL]: ...` on stderr).
#pragma once

#include <CLI/CLI.hpp>
#include <string>
#include <vector>

#include "model/trace.h"
#include "report/output_format.h"

namespace tensormorph {

// Exit codes (DESIGN §5).
constexpr int kExitOk = 0;
constexpr int kExitGateFailed = 1;
constexpr int kExitUsage = 2;
constexpr int kExitUnreadable = 3;

struct CommonOptions {
  std::vector<std::string> inputs;
  std::string format = "table";
  int threads = 0;
  bool quiet = false;
  std::string input_format;
  bool host_rows = true;  // cleared by commands that use device rows only (ImportOptions)
};

// Adds TRACE... plus --format, --threads, --quiet and --input-format to a subcommand.
// `extra_formats` are those only this subcommand renders (roofline's svg); FormatOf maps them to
// the table, so the subcommand checks for them itself.
void AddCommonOptions(CLI::App* command, CommonOptions* options,
                      const std::vector<std::string>& extra_formats = {});

// Loads every input; on failure prints the error and returns the exit code (else kExitOk).
int LoadInputs(const CommonOptions& options, std::vector<Trace>* traces);

// Prints each input's warnings to stderr.
void PrintWarnings(const std::vector<Trace>& traces);

std::vector<const Trace*> Pointers(const std::vector<Trace>& traces);
OutputFormat FormatOf(const CommonOptions& options);

}  // namespace tensormorph
