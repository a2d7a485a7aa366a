// One libFuzzer harness per importer: the bytes are imported as TM_FUZZ_FORMAT (the importer's
// registry name), or detected by content when it is empty (the content sniffer). Every outcome
// but a crash, a sanitizer report, a hang or a runaway allocation is fine: a Status error or a
// Trace. A Trace must still satisfy the model's invariants, which are checked here so that a
// quietly wrong result fails too.
#include <cstdint>
#include <cstdlib>

#include "fuzz_invariants.h"
#include "memory_file.h"
#include "tensormorph/import/importer.h"

#ifndef TM_FUZZ_FORMAT
#error "TM_FUZZ_FORMAT must name an importer (or be empty for detection)"
#endif

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static tensormorph::fuzz::MemoryFile file;
  file.Assign(data, size);
  tensormorph::ImportOptions options;
  options.input_format = TM_FUZZ_FORMAT;
  options.threads = 2;            // the parallel paths too, on small inputs
  options.chunk_bytes = 4 << 10;  // several chunks even for small inputs
  tensormorph::StatusOr<tensormorph::Trace> trace = tensormorph::LoadTrace(file.path(), options);
  if (trace.ok()) tensormorph::fuzz::CheckInvariants(*trace);
  return 0;
}
