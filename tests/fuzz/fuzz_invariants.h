// What every imported Trace must satisfy, whatever the input was (src/model/trace.h): a fuzz
// input that yields a Trace violating these is a bug even without a crash.
#pragma once

#include "tensormorph/model/trace.h"

namespace tensormorph::fuzz {

// Aborts (so that libFuzzer keeps the input) with a message naming the broken invariant.
void CheckInvariants(const Trace& trace);

}  // namespace tensormorph::fuzz
