// `tensormorph memory TRACE...`: where the memory went, per device (analysis/memory/memory.h;
// docs/memory.md).
#include <iostream>
#include <memory>

#include "cli/commands.h"
#include "cli/common.h"
#include "report/memory_report.h"
#include "tensormorph/analysis/memory/memory.h"

namespace tensormorph {
namespace {

struct MemoryCommandOptions {
  CommonOptions common;
  MemoryQuery query;
  std::vector<std::string> spec_files;
};

}  // namespace

CommandRunner AddMemoryCommand(CLI::App* app) {
  auto options = std::make_shared<MemoryCommandOptions>();
  CLI::App* command = app->add_subcommand(
      "memory",
      "where the memory went, per device (Kineto, Nsight Systems, rocpd; snapshots in Python): "
      "peak allocated and reserved, what was alive at the peak by op and module, the largest, "
      "memory per step, the capacity; a lane in the report; whether it fits another device in "
      "`compare`/`predict`");
  AddCommonOptions(command, &options->common);
  command->add_option("--top", options->query.top, "rows per table (0 = all)")
      ->capture_default_str();
  command->add_option("--device-spec", options->spec_files,
                      "JSON file adding or overriding device figures (docs/devices.md)");
  return [options]() {
    std::vector<DeviceSpec> devices;
    if (int rc = LoadDevices(options->spec_files, &devices); rc != kExitOk) return rc;
    std::vector<Trace> traces;
    if (int rc = LoadInputs(options->common, &traces); rc != kExitOk) return rc;
    PrintWarnings(traces);
    const std::vector<LinkedTrace> linked = LinkTraces(traces, LinkOptionsOf(options->common));
    MemoryQuery query = options->query;
    query.devices = &devices;
    const MemoryResult result = AnalyzeMemory(Pointers(linked), query);
    RenderMemory(std::cout, Pointers(traces), result, FormatOf(options->common));
    return kExitOk;
  };
}

}  // namespace tensormorph
