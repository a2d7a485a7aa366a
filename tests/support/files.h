// Whole-file reads for the tests (fixtures, written outputs); independent of src/io, so that an
// oracle never reads its input through the code under test.
#pragma once

#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>

namespace tensormorph::testing {

// The bytes of `path`; empty when it cannot be read (the caller's assertion then says so).
inline std::string ReadFile(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

}  // namespace tensormorph::testing
