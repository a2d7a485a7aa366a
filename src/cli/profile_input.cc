#include "cli/profile_input.h"

#include <fmt/format.h>

#include <iostream>

#include "baseline/baseline_file.h"
#include "baseline/build.h"

namespace tensormorph {

int LoadProfile(const CommonOptions& load, const std::string& path, Baseline* profile,
                bool* is_baseline) {
  StatusOr<std::optional<Baseline>> saved = ReadBaselineFile(path);
  if (!saved.ok()) {
    const Status& s = saved.status();
    std::string where = path;
    if (s.position().line > 0) {
      where += fmt::format(":{}:{}", s.position().line, s.position().column);
    }
    std::cerr << fmt::format("tensormorph: error: {}: {}\n", where, s.message());
    return kExitUnreadable;
  }
  if (saved->has_value()) {
    *profile = std::move(**saved);
    *is_baseline = true;
    return kExitOk;
  }
  CommonOptions one = load;
  one.inputs = {path};
  std::vector<Trace> traces;
  if (int rc = LoadInputs(one, &traces); rc != kExitOk) {
    std::cerr << fmt::format(
        "tensormorph: note: {}: expected a trace or a baseline saved by `tensormorph baseline "
        "save` (\"schema\": \"{}\")\n",
        path, kBaselineSchema);
    return rc;
  }
  PrintWarnings(traces);
  *profile = BuildBaseline(Pointers(traces), kTensormorphVersion);
  *is_baseline = false;
  return kExitOk;
}

}  // namespace tensormorph
