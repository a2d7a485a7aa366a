// One function per subcommand: Add* registers its options, the returned callback runs it.
#pragma once

#include <CLI/CLI.hpp>
#include <functional>

namespace tensormorph {

using CommandRunner = std::function<int()>;

CommandRunner AddInfoCommand(CLI::App* app);
CommandRunner AddKernelsCommand(CLI::App* app);
CommandRunner AddDevicesCommand(CLI::App* app);
CommandRunner AddOccupancyCommand(CLI::App* app);
CommandRunner AddRooflineCommand(CLI::App* app);
CommandRunner AddOpsCommand(CLI::App* app);
CommandRunner AddBaselineCommand(CLI::App* app);
CommandRunner AddDiffCommand(CLI::App* app);
CommandRunner AddCompareCommand(CLI::App* app);
CommandRunner AddPredictCommand(CLI::App* app);
CommandRunner AddCalibrateCommand(CLI::App* app);
CommandRunner AddTimelineCommand(CLI::App* app);
CommandRunner AddFindingsCommand(CLI::App* app);
CommandRunner AddMemoryCommand(CLI::App* app);
CommandRunner AddCollectivesCommand(CLI::App* app);
CommandRunner AddCriticalPathCommand(CLI::App* app);
CommandRunner AddWhatIfCommand(CLI::App* app);
CommandRunner AddExportCommand(CLI::App* app);
CommandRunner AddReportCommand(CLI::App* app);

}  // namespace tensormorph
