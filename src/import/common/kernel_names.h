// Kernel names as people read them. ROCm, HIP and Triton kernels often reach a trace as their
// Itanium-mangled symbol (`_ZN5aiter24add_rmsnorm_quant_kernel...`, sometimes with AMD's `.kd`
// descriptor suffix): those are shown demangled (io/demangle.h), and the name as the trace wrote
// it is kept in Trace::mangled_names.
//
// Invariants: a name is rewritten only when io/demangle.h's DemangleItanium accepts it, so
// readable names (including already-demangled ones, which never start with "_Z") are left as they
// are and demangling twice changes nothing.
#pragma once

#include "io/demangle.h"
#include "tensormorph/model/trace.h"

namespace tensormorph {

// Replaces every mangled kernel name of the trace by its demangled form and records the original
// in Trace::mangled_names (keyed by the demangled name's id).
void DemangleKernelNames(Trace* trace);

}  // namespace tensormorph
