// Finding the XSpace in a JAX / TensorBoard profile log dir. `jax.profiler.trace(log_dir)` writes
// <log_dir>/plugins/profile/<YYYY_MM_DD_HH_MM_SS>/<host>.xplane.pb, one run folder per trace, one
// file per host. Accepted inputs: the log dir, its plugins/profile folder, or a run folder. The
// newest run is read (run folder names sort by time); a run with several hosts' files is an error
// that names them, since one input is one host's trace.
#pragma once

#include <string>
#include <vector>

#include "tensormorph/model/status.h"

namespace tensormorph::xplane {

// The *.xplane.pb files of the newest run under `folder`, sorted by name; empty when the folder
// is not a profile log dir. `run` is set to the run folder that holds them.
std::vector<std::string> FindRunXplanes(const std::string& folder, std::string* run);

// The single XSpace file to read for `folder`, or an UnreadableInput that says why not.
StatusOr<std::string> ResolveProfileDir(const std::string& folder);

}  // namespace tensormorph::xplane
