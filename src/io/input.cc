#include "tensormorph/io/input.h"

#include <filesystem>
#include <system_error>

namespace tensormorph {

StatusOr<Input> Input::Open(const std::string& path, uint64_t max_content_bytes) {
  std::error_code error;
  if (std::filesystem::is_directory(path, error)) return Input(path, true, 0, max_content_bytes);
  // A size that cannot be read (a missing file, a pipe) is not an error here: reading then says
  // what is wrong, in the same words for every format.
  const uintmax_t size = std::filesystem::file_size(path, error);
  if (error) return Input(path, false, 0, max_content_bytes);
  if (max_content_bytes > 0 && size > max_content_bytes) {
    return InputTooLarge(max_content_bytes, false);
  }
  return Input(path, false, size, max_content_bytes);
}

StatusOr<std::unique_ptr<BlockReader>> Input::Blocks() const {
  return BlockReader::Open(path_, max_content_bytes_);
}

StatusOr<std::string> Input::Content(std::string* warning) const {
  return ReadContent(path_, max_content_bytes_, warning);
}

StatusOr<std::string> Input::Head(size_t max_bytes) const {
  return ReadHead(path_, max_bytes);
}

}  // namespace tensormorph
