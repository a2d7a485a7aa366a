// What every subcommand shares: the input options, loading with progress, and how errors and
// warnings reach the user (`tensormorph: error: FILE[:LINE:COL]: ...` on stderr).
#pragma once

#include <CLI/CLI.hpp>
#include <optional>
#include <string>
#include <vector>

#include "report/output_format.h"
#include "tensormorph/devices/device_db.h"
#include "tensormorph/io/block_reader.h"
#include "tensormorph/link/linked_trace.h"
#include "tensormorph/model/status.h"
#include "tensormorph/model/trace.h"

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

// --backend NAME bound to `backend` (cpu, cuda, rocm, metal, webgpu, other), checked by CLI11.
CLI::Option* AddBackendOption(CLI::App* command, std::optional<Backend>* backend,
                              const std::string& help);

// --as-job bound to `as_job`: several inputs are one job's ranks whatever DescribeJob finds.
void AddAsJobOption(CLI::App* command, bool* as_job);

// The options of the commands that compare a job's ranks (collectives, critical-path): --as-job
// and --no-clock-align.
struct JobOptions {
  bool as_job = false;
  bool no_clock_align = false;
};
void AddJobOptions(CLI::App* command, JobOptions* options);

// Adds TRACE... plus --format and the input options (AddInputOptions) to a subcommand.
// `extra_formats` are those only this subcommand renders (roofline's svg); FormatOf maps them to
// the table, so the subcommand checks for them itself.
void AddCommonOptions(CLI::App* command, CommonOptions* options,
                      const std::vector<std::string>& extra_formats = {});

// Every message to the user is written by these, on stderr: "tensormorph: error: MESSAGE",
// "tensormorph: warning: ...", "tensormorph: note: ...". PrintError returns `exit_code`, so that a
// command ends with `return PrintError(kExitUsage, ...)`; `usage_of` adds the line that points to
// the help ("Run 'tensormorph occupancy --help' for usage.").
int PrintError(int exit_code, std::string_view message, std::string_view usage_of = {});
void PrintWarning(std::string_view message);
void PrintNote(std::string_view message);
// A Status as an error about `path` ("FILE[:LINE:COL]: message"); kInvalidArgument is a usage
// error (kExitUsage), any other failure kExitUnreadable; kInternal (a bug) is "internal error:
// FILE: message", also kExitUnreadable.
int PrintError(const std::string& path, const Status& status);

// Writes a finished output to `path` (stdout when empty). Called with the whole text, so the file
// is opened, and an existing one truncated, only once the inputs have been read and analysed: a
// run that fails earlier leaves it untouched. A file that cannot be written is a bad -o value,
// a usage error like any other (kExitUsage).
int WriteOutputFile(const std::string& path, const std::string& text);

// `compare` and `report --compare`: at least two traces (one per side) and at most one label each;
// else prints the error and returns kExitUsage (else kExitOk).
int CheckCompareSides(size_t traces, size_t labels, std::string_view command);
// "H100,MI300X" -> {"H100", "MI300X"}: --label takes the sides' names as one comma-separated
// argument, so that the traces after it stay positional.
std::vector<std::string> SplitLabels(std::string_view text);

// The built-in device table with each --device-spec file applied in order (a later entry of the
// same key replaces an earlier one); on failure prints the error and returns kExitUnreadable.
int LoadDevices(const std::vector<std::string>& spec_files, std::vector<DeviceSpec>* devices);

// Loads every input; on failure prints the error and returns the exit code (else kExitOk).
int LoadInputs(const CommonOptions& options, std::vector<Trace>* traces);

// Prints each input's warnings to stderr.
void PrintWarnings(const std::vector<Trace>& traces);

std::vector<const Trace*> Pointers(const std::vector<Trace>& traces);
OutputFormat FormatOf(const CommonOptions& options);
// The linking stage on a second thread unless --threads 1.
LinkOptions LinkOptionsOf(const CommonOptions& options);

}  // namespace tensormorph
