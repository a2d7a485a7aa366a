// A buffered, streaming JSON text writer for exporters: output goes through a fixed-size buffer
// straight to the file, so writing a trace never needs a second copy of it in memory.
//
// Invariants: every string it writes is valid JSON and valid UTF-8 (bytes that are not
// well-formed UTF-8 become U+FFFD, control bytes become escapes); times are written from integer
// nanoseconds as exact decimal microseconds, never through a double.
#pragma once

#include <fmt/format.h>

#include <cstdint>
#include <cstdio>
#include <string>
#include <string_view>

#include "tensormorph/model/status.h"

namespace tensormorph::chrome_json {

// Appends `text` as a quoted JSON string.
void AppendJsonString(fmt::memory_buffer& out, std::string_view text);

// Appends `ns` nanoseconds as decimal microseconds: 1234567 -> 1234.567, 1500 -> 1.5,
// 2000 -> 2, -5 -> -0.005. Exact for every int64 (INT64_MIN included).
void AppendMicros(fmt::memory_buffer& out, int64_t ns);

// Writes to a file through a buffer. The file is written under a temporary name beside
// `path` and renamed over `path` by Finish(), so a failed export leaves no half-written output
// (and an existing file stays until the new one is complete).
class JsonFileWriter {
 public:
  explicit JsonFileWriter(std::string path);
  ~JsonFileWriter();  // removes the temporary file unless Finish() succeeded
  JsonFileWriter(const JsonFileWriter&) = delete;
  JsonFileWriter& operator=(const JsonFileWriter&) = delete;

  Status Open();
  fmt::memory_buffer& buffer() { return buffer_; }
  // Flushes the buffer to the file when it is over its threshold; call after each event.
  void MaybeFlush() {
    if (buffer_.size() >= kFlushBytes) Flush();
  }
  void Raw(std::string_view text) { buffer_.append(text); }
  void String(std::string_view text) { AppendJsonString(buffer_, text); }
  void Micros(int64_t ns) { AppendMicros(buffer_, ns); }
  template <typename... Args>
  void Format(fmt::format_string<Args...> format, Args&&... args) {
    fmt::format_to(std::back_inserter(buffer_), format, std::forward<Args>(args)...);
  }
  // Flushes, closes and renames the file into place.
  Status Finish();
  uint64_t bytes_written() const { return bytes_written_; }

 private:
  static constexpr size_t kFlushBytes = 1 << 20;
  void Flush();

  std::string path_, temp_path_;
  std::FILE* file_ = nullptr;
  fmt::memory_buffer buffer_;
  uint64_t bytes_written_ = 0;
  int write_errno_ = 0;  // the first failed write's errno
  bool finished_ = false;
};

}  // namespace tensormorph::chrome_json
