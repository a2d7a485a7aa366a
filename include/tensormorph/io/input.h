// One input as an importer receives it (Importer::Import): a file or a folder, opened by the
// registry with the limits of ImportOptions already applied. Importers read bytes only through
// an Input, so --max-input-size and gzip decompression hold the same way for every format, and
// for every further file an input brings in (the CSVs of a folder, a side file a trace names).
//
// Invariants: a file Input's size was at most max_content_bytes() when it was opened (0 = no
// limit); content read through Blocks()/Content()/Head() is inflated when it is gzip data and
// ends with InputTooLarge once it passes that limit.
#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include "tensormorph/io/block_reader.h"
#include "tensormorph/model/status.h"

namespace tensormorph {

class Input {
 public:
  // Opens `path`: a folder, or a regular file (or a pipe) no larger than `max_content_bytes`.
  // A missing path, one that is neither, or a file over the limit is an error naming why.
  static StatusOr<Input> Open(const std::string& path, uint64_t max_content_bytes);

  const std::string& path() const { return path_; }
  bool is_folder() const { return folder_; }
  // The file's size in bytes as stored (compressed, for gzip); 0 for a folder.
  uint64_t file_size() const { return file_size_; }
  uint64_t max_content_bytes() const { return max_content_bytes_; }

  // Another file this input brings in, such as a member of a folder input or a sibling file a
  // trace names, opened with the same limit.
  StatusOr<Input> Related(const std::string& path) const { return Open(path, max_content_bytes_); }

  // The content in large blocks, for formats read as a stream.
  StatusOr<std::unique_ptr<BlockReader>> Blocks() const;
  // The whole content, for formats read as one document. `warning` gets the reader's warning (a
  // gzip stream cut off: the text is what was inflated before it), else is cleared.
  StatusOr<std::string> Content(std::string* warning) const;
  // The first `max_bytes` of content after any leading whitespace, for telling formats apart.
  StatusOr<std::string> Head(size_t max_bytes) const;

  // Formats read by a library that opens the file itself (SQLite databases) use path(); such
  // files are not compressed, and their size was checked against the limit here.

 private:
  Input(std::string path, bool folder, uint64_t file_size, uint64_t max_content_bytes)
      : path_(std::move(path)),
        folder_(folder),
        file_size_(file_size),
        max_content_bytes_(max_content_bytes) {}

  std::string path_;
  bool folder_ = false;
  uint64_t file_size_ = 0;
  uint64_t max_content_bytes_ = 0;
};

}  // namespace tensormorph
