#include "cli/profile_input.h"

#include <fmt/format.h>

#include <iostream>

#include "tensormorph/analysis/profile/build.h"
#include "tensormorph/export/baseline/baseline_file.h"

namespace tensormorph {

int LoadProfile(const CommonOptions& load, const std::string& path, Baseline* profile,
                bool* is_baseline) {
  StatusOr<std::optional<Baseline>> saved = ReadBaselineFile(path);
  // Its errors are kIoError or kUnreadableInput: kExitUnreadable.
  if (!saved.ok()) return PrintError(path, saved.status());
  if (saved->has_value()) {
    *profile = std::move(**saved);
    *is_baseline = true;
    return kExitOk;
  }
  CommonOptions one = load;
  one.inputs = {path};
  std::vector<Trace> traces;
  if (int rc = LoadInputs(one, &traces); rc != kExitOk) {
    PrintNote(fmt::format(
        "{}: expected a trace or a baseline saved by `tensormorph baseline save` (\"schema\": "
        "\"{}\")",
        path, kBaselineSchema));
    return rc;
  }
  PrintWarnings(traces);
  *profile = BuildBaseline(Pointers(LinkTraces(traces, LinkOptionsOf(load))), kTensormorphVersion);
  *is_baseline = false;
  return kExitOk;
}

}  // namespace tensormorph
