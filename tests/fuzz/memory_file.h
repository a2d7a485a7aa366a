// Fuzz inputs handed to importers, which read from a path: the bytes live in an anonymous memory
// file (memfd) and are reached as /proc/self/fd/N, so a fuzzing run never touches the disk.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

namespace tensormorph::fuzz {

class MemoryFile {
 public:
  MemoryFile();
  ~MemoryFile();
  MemoryFile(const MemoryFile&) = delete;
  MemoryFile& operator=(const MemoryFile&) = delete;

  // Replaces the file's contents with `size` bytes of `data`.
  void Assign(const uint8_t* data, size_t size);
  const std::string& path() const { return path_; }

 private:
  int fd_ = -1;
  std::string path_;
};

}  // namespace tensormorph::fuzz
