// tensormorph: the kernel profiler's command line.
#include <fmt/format.h>
#include <malloc.h>
#include <unistd.h>

#include <CLI/CLI.hpp>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <map>
#include <optional>
#include <string>
#include <string_view>

#include "cli/commands.h"
#include "cli/common.h"
#include "cli/huge_pages.h"
#include "cli/profile_input.h"
#include "cli/suggest.h"

namespace {

// Re-executes the program once with glibc's malloc asking for transparent huge pages, where that
// helps (cli/huge_pages.h); returns when it does not apply or the exec fails (then it runs as is).
void UseHugePages(char** argv) {
#if !defined(__SANITIZE_ADDRESS__) && !defined(__SANITIZE_THREAD__)
  std::ifstream setting("/sys/kernel/mm/transparent_hugepage/enabled");
  std::string thp;
  std::getline(setting, thp);
  const std::optional<std::string> tunables = tensormorph::HugePageTunables(
      thp, std::getenv("GLIBC_TUNABLES"), std::getenv("TM_HUGE_PAGES"));
  if (!tunables || setenv("GLIBC_TUNABLES", tunables->c_str(), 1) != 0) return;
  execv("/proc/self/exe", argv);
  // The exec failed (no /proc): run as started, with the tunable left set for any child.
#else
  (void)argv;  // the sanitizers bring their own allocator
#endif
}

// One malloc arena for every thread. glibc gives each new thread an arena of its own until there
// are eight per core, and memory freed in one arena serves only the threads of that arena: the
// import's parser threads free their chunks into theirs, then the analyses' tasks (up to a dozen
// threads, most of them new) each fault in fresh pages of a new arena instead of reusing those.
// On the 2-core benchmark VM that was a quarter of `report`'s CPU time in the kernel clearing
// pages, and one arena cut `report` on the 1 GB A100 trace from 2.8x to 2.0x `kernels` and its
// peak RSS from 0.65x to 0.56x the file (docs/performance.md, "Malloc arenas"). The import mallocs
// little (about 30,000 calls for 256 MB: its rows go to a few large vectors), so its threads do
// not queue on the one arena's lock. A GLIBC_TUNABLES naming glibc.malloc.arena_max is left as set.
void UseOneMallocArena() {
#if defined(__GLIBC__) && !defined(__SANITIZE_ADDRESS__) && !defined(__SANITIZE_THREAD__)
  const char* tunables = std::getenv("GLIBC_TUNABLES");
  if (tunables != nullptr &&
      std::string_view(tunables).find("glibc.malloc.arena_max") != std::string_view::npos) {
    return;
  }
  mallopt(M_ARENA_MAX, 1);  // before any thread starts: the limit is read at the first new arena
#endif
}

}  // namespace

int main(int argc, char** argv) {
  UseHugePages(argv);
  UseOneMallocArena();
  CLI::App app("tensormorph: which kernel ran where, for how long, and how well", "tensormorph");
  app.require_subcommand(1);
  app.set_version_flag("--version", tensormorph::kTensormorphVersion);
  std::map<std::string, tensormorph::CommandRunner> commands = {
      {"info", tensormorph::AddInfoCommand(&app)},
      {"kernels", tensormorph::AddKernelsCommand(&app)},
      {"devices", tensormorph::AddDevicesCommand(&app)},
      {"occupancy", tensormorph::AddOccupancyCommand(&app)},
      {"roofline", tensormorph::AddRooflineCommand(&app)},
      {"ops", tensormorph::AddOpsCommand(&app)},
      {"baseline", tensormorph::AddBaselineCommand(&app)},
      {"diff", tensormorph::AddDiffCommand(&app)},
      {"compare", tensormorph::AddCompareCommand(&app)},
      {"predict", tensormorph::AddPredictCommand(&app)},
      {"calibrate", tensormorph::AddCalibrateCommand(&app)},
      {"timeline", tensormorph::AddTimelineCommand(&app)},
      {"findings", tensormorph::AddFindingsCommand(&app)},
      {"memory", tensormorph::AddMemoryCommand(&app)},
      {"collectives", tensormorph::AddCollectivesCommand(&app)},
      {"critical-path", tensormorph::AddCriticalPathCommand(&app)},
      {"whatif", tensormorph::AddWhatIfCommand(&app)},
      {"export", tensormorph::AddExportCommand(&app)},
      {"report", tensormorph::AddReportCommand(&app)},
  };
  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForAllHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForVersion& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    // An unknown command is said as such (CLI11 would say "a subcommand is required").
    const std::string fix = tensormorph::SuggestFix(app, argc, argv);
    const bool unknown_command = fix.find("is not a command") != std::string::npos;
    return tensormorph::PrintError(tensormorph::kExitUsage,
                                   unknown_command ? fix
                                   : fix.empty()   ? std::string(e.what())
                                                   : fmt::format("{}; {}", e.what(), fix),
                                   "tensormorph");
  }
  try {
    for (const CLI::App* sub : app.get_subcommands()) return commands.at(sub->get_name())();
  } catch (const std::bad_alloc&) {
    return tensormorph::PrintError(tensormorph::kExitUnreadable,
                                   "out of memory while reading the input");
  } catch (const std::exception& e) {
    return tensormorph::PrintError(tensormorph::kExitUnreadable,
                                   fmt::format("internal error: {}", e.what()));
  }
  return tensormorph::kExitUsage;
}
