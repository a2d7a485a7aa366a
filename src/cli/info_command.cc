#include <iostream>
#include <memory>

#include "cli/commands.h"
#include "cli/common.h"
#include "report/info_report.h"

namespace tensormorph {

CommandRunner AddInfoCommand(CLI::App* app) {
  auto options = std::make_shared<CommonOptions>();
  CLI::App* command = app->add_subcommand("info",
                                          "what each trace is: format and version, backends, "
                                          "devices, ranks, span, event counts, warnings");
  AddCommonOptions(command, options.get());
  return [options]() {
    std::vector<Trace> traces;
    if (int rc = LoadInputs(*options, &traces); rc != kExitOk) return rc;
    RenderInfo(std::cout, Pointers(traces), FormatOf(*options));  // warnings are part of the output
    return kExitOk;
  };
}

}  // namespace tensormorph
