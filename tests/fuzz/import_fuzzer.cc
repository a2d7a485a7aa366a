// One libFuzzer harness for every importer: the bytes are imported as the format the environment
// names (TM_FUZZ_FORMAT, an importer's registry name), or detected by content when it is empty
// (the content sniffer). Every outcome but a crash, a sanitizer report, a hang or a runaway
// allocation is fine: a Status error or a Trace. A Trace must still satisfy the model's
// invariants, which are checked here so that a quietly wrong result fails too.
//
// TM_FUZZ_LIST_FORMATS=1 prints the registry's importer names, one per line, and exits:
// scripts/fuzz.sh fuzzes every one of them, so a registered format is fuzzed without a list here.
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "fuzz_invariants.h"
#include "memory_file.h"
#include "tensormorph/import/importer.h"

namespace {
std::string format;  // set once, before the first input
}  // namespace

extern "C" int LLVMFuzzerInitialize(int* argc, char*** argv) {
  if (std::getenv("TM_FUZZ_LIST_FORMATS") != nullptr) {
    for (const tensormorph::Importer* importer : tensormorph::Importers()) {
      std::printf("%.*s\n", static_cast<int>(importer->name().size()), importer->name().data());
    }
    std::exit(0);
  }
  const char* name = std::getenv("TM_FUZZ_FORMAT");
  if (name == nullptr) {
    std::fprintf(stderr, "set TM_FUZZ_FORMAT to an importer's name, or to \"\" for detection\n");
    std::exit(2);
  }
  format = name;
  if (!format.empty() && tensormorph::FindImporter(format) == nullptr) {
    std::fprintf(stderr, "TM_FUZZ_FORMAT=%s names no importer\n", name);
    std::exit(2);
  }
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static tensormorph::fuzz::MemoryFile file;
  file.Assign(data, size);
  tensormorph::ImportOptions options;
  options.input_format = format;
  options.threads = 2;            // the parallel paths too, on small inputs
  options.chunk_bytes = 4 << 10;  // several chunks even for small inputs
  tensormorph::StatusOr<tensormorph::Trace> trace = tensormorph::LoadTrace(file.path(), options);
  if (trace.ok()) tensormorph::fuzz::CheckInvariants(*trace);
  return 0;
}
