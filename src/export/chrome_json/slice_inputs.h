// An op's recorded arguments (Trace::op_inputs, model/op_inputs.h) as the args members of its
// Chrome-JSON event, in the keys Kineto writes.
#pragma once

#include <string>

#include "tensormorph/model/op_inputs.h"

namespace tensormorph::chrome_json {

// `,"Input Dims":...,"Input type":...,"Concrete Inputs":...` (the lists the trace has), each list
// byte for byte as the source spelled it, or as compact JSON when the importer built it from
// values; `,"Inputs":"<text>"` when the source's text was not JSON, which must not be pasted into
// the output as it is.
std::string InputArgs(const OpInputs& inputs);

}  // namespace tensormorph::chrome_json
