// The library's version, as `tensormorph --version` prints it and as saved baselines name their
// writer (Baseline::created_by). Kept equal to project(VERSION) in CMakeLists.txt.
#pragma once

namespace tensormorph {

inline constexpr const char* kTensormorphVersion = "tensormorph 0.1.0";

}  // namespace tensormorph
