// rocprofv3 JSON (`--output-format json`, `<prefix>_results.json`), from the layout documented in
// rocprofiler-sdk's using-rocprofv3.rst and generateJSON.cpp (../shared/reference/
// other-backends.md §1.3; no real file was available to test against): per process in
// "rocprofiler-sdk-tool", agents (devices), kernel_symbols (names and registers by kernel_id),
// buffer_records.kernel_dispatch, .memory_copy and .hip_api, with operation names from
// strings.buffer_records[kind].operations. The file is parsed whole (nlohmann-json): fine for the
// sizes rocprofv3 JSON is meant for; large runs are better read as CSV.
#pragma once

#include <string>

#include "tensormorph/io/input.h"
#include "tensormorph/model/status.h"
#include "tensormorph/model/trace.h"

namespace tensormorph::rocprof {

StatusOr<Trace> ImportRocprofJson(const Input& input);

}  // namespace tensormorph::rocprof
