// The gzip layer alone (src/io/block_reader.h): whatever the bytes, reading ends with data, a
// Status error or a warning (a cut-off stream) — never a crash or a hang — and the content handed
// out stays within the configured limit.
#include <cstdint>
#include <cstdlib>

#include "memory_file.h"
#include "tensormorph/io/block_reader.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static tensormorph::fuzz::MemoryFile file;
  file.Assign(data, size);
  auto reader = tensormorph::BlockReader::Open(file.path());
  if (!reader.ok()) return 0;
  std::vector<char> block;
  while ((*reader)->Next(&block)) {
    if (block.empty() || block.size() > tensormorph::kReadBlockBytes) std::abort();
  }
  return 0;
}
