// What every subcommand shares: the input options, loading with progress, and how errors and
// warnings reach the user (`tensormorph: error: FILE[:LINE:COL]: ...` on stderr).
#pragma once

#include <CLI/CLI.hpp>
#include <string>
#include <vector>

#include "io/block_reader.h"
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
  int skip_runs = -1;                                // ImportOptions::skip_runs
  uint64_t max_input_bytes = kDefaultMaxInputBytes;  // ImportOptions::max_input_bytes
  bool host_rows = true;  // cleared by commands that use device rows only (ImportOptions)
};

// The input options every command that reads traces takes, declared here once: --threads,
// -q/--quiet, --input-format, --skip-runs and --max-input-size. The options are appended to
// `added` when given (for commands whose other form takes no trace).
void AddInputOptions(CLI::App* command, CommonOptions* options,
                     std::vector<CLI::Option*>* added = nullptr);

// "trace files or folders: Kineto / Chrome JSON, Nsight Systems SQLite, ... (gzip too)", from the
// importer registry, for the help of TRACE arguments.
std::string TraceArgumentHelp(std::string_view what);

// Adds TRACE... plus --format and the input options (AddInputOptions) to a subcommand.
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
