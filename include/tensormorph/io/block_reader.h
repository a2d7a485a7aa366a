// Reads an input file in large blocks, inflating gzip on a thread of its own so that
// decompression overlaps parsing. The file is never mapped or loaded whole.
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "tensormorph/model/status.h"

namespace tensormorph {

// Content bytes handed out by one BlockReader::Next().
constexpr size_t kReadBlockBytes = 2 << 20;

// The most content (file bytes, or decompressed bytes of a gzip file) one input may hold unless
// the user says otherwise (--max-input-size; ImportOptions::max_input_bytes): far above real
// traces, whose importers hold at most about 0.7x their content in memory, and low enough that
// a gzip bomb stops long before it fills a machine's memory or disk time. 0 = no limit.
constexpr uint64_t kDefaultMaxInputBytes = 32ull << 30;

// The error for content beyond `limit` bytes, saying how to raise the limit.
Status InputTooLarge(uint64_t limit, bool decompressed);

class BlockReader {
 public:
  virtual ~BlockReader() = default;

  // Opens `path`; gzip is recognised by its magic bytes, not by the file name. Content beyond
  // `max_content_bytes` (0 = no limit) ends reading with InputTooLarge.
  static StatusOr<std::unique_ptr<BlockReader>> Open(
      const std::string& path, uint64_t max_content_bytes = kDefaultMaxInputBytes);

  // Fills `block` with the next bytes of (decompressed) content; false at the end or on error.
  virtual bool Next(std::vector<char>* block) = 0;

  // After Next() returned false: ok, or what went wrong (corrupt gzip data, read error).
  const Status& status() const { return status_; }
  // A problem that still leaves the bytes read so far usable (a truncated gzip stream).
  const std::string& warning() const { return warning_; }

  bool compressed() const { return compressed_; }
  uint64_t file_size() const { return file_size_; }
  // How far into the file (compressed bytes) reading has got; for progress reporting.
  uint64_t file_bytes_consumed() const {
    return file_bytes_consumed_.load(std::memory_order_relaxed);
  }

 protected:
  Status status_;
  std::string warning_;
  bool compressed_ = false;
  uint64_t file_size_ = 0;
  std::atomic<uint64_t> file_bytes_consumed_{0};
};

// The whole content of `path` (decompressed when gzip), for importers whose formats are read as
// one document. `warning` gets the reader's warning (a gzip stream cut off: the text is what
// was inflated before it), else is cleared.
StatusOr<std::string> ReadContent(const std::string& path, uint64_t max_content_bytes,
                                  std::string* warning);

// The first `max_bytes` of content (decompressed when gzip) after any leading whitespace, for
// format sniffing.
StatusOr<std::string> ReadHead(const std::string& path, size_t max_bytes);

}  // namespace tensormorph
