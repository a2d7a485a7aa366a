#include "export/chrome_json/json_writer.h"

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <system_error>

namespace tensormorph::chrome_json {
namespace {

// Length of the well-formed UTF-8 sequence at text[i] (RFC 3629: no overlong forms, no
// surrogates, nothing above U+10FFFF), or 0 when the byte there starts none.
size_t Utf8SequenceLength(std::string_view text, size_t i) {
  const auto byte = [&](size_t k) { return static_cast<unsigned char>(text[k]); };
  const unsigned char lead = byte(i);
  size_t length = 0;
  unsigned char second_min = 0x80, second_max = 0xBF;
  if (lead >= 0xC2 && lead <= 0xDF) {
    length = 2;
  } else if (lead >= 0xE0 && lead <= 0xEF) {
    length = 3;
    if (lead == 0xE0) second_min = 0xA0;  // overlong
    if (lead == 0xED) second_max = 0x9F;  // surrogates
  } else if (lead >= 0xF0 && lead <= 0xF4) {
    length = 4;
    if (lead == 0xF0) second_min = 0x90;  // overlong
    if (lead == 0xF4) second_max = 0x8F;  // above U+10FFFF
  } else {
    return 0;
  }
  if (i + length > text.size()) return 0;
  if (byte(i + 1) < second_min || byte(i + 1) > second_max) return 0;
  for (size_t k = 2; k < length; ++k) {
    if (byte(i + k) < 0x80 || byte(i + k) > 0xBF) return 0;
  }
  return length;
}

}  // namespace

void AppendJsonString(fmt::memory_buffer& out, std::string_view text) {
  static constexpr char kHex[] = "0123456789abcdef";
  out.push_back('"');
  size_t run_start = 0;  // bytes [run_start, i) are copied as they are
  size_t i = 0;
  const auto flush_run = [&] { out.append(text.data() + run_start, text.data() + i); };
  while (i < text.size()) {
    const unsigned char c = static_cast<unsigned char>(text[i]);
    if (c >= 0x20 && c < 0x80 && c != '"' && c != '\\') {
      ++i;
      continue;
    }
    if (c >= 0x80) {
      if (size_t length = Utf8SequenceLength(text, i)) {
        i += length;
        continue;
      }
      flush_run();
      out.append(std::string_view("\xEF\xBF\xBD"));  // U+FFFD for one stray byte
      run_start = ++i;
      continue;
    }
    flush_run();
    switch (c) {
      case '"':
        out.append(std::string_view("\\\""));
        break;
      case '\\':
        out.append(std::string_view("\\\\"));
        break;
      case '\n':
        out.append(std::string_view("\\n"));
        break;
      case '\r':
        out.append(std::string_view("\\r"));
        break;
      case '\t':
        out.append(std::string_view("\\t"));
        break;
      default: {
        const char escape[] = {'\\', 'u', '0', '0', kHex[c >> 4], kHex[c & 15]};
        out.append(escape, escape + sizeof escape);
      }
    }
    run_start = ++i;
  }
  flush_run();
  out.push_back('"');
}

void AppendMicros(fmt::memory_buffer& out, int64_t ns) {
  // The magnitude as unsigned, so that INT64_MIN has one too.
  const uint64_t magnitude =
      ns < 0 ? uint64_t{0} - static_cast<uint64_t>(ns) : static_cast<uint64_t>(ns);
  if (ns < 0) out.push_back('-');
  fmt::format_to(std::back_inserter(out), "{}", magnitude / 1000);
  uint32_t fraction = static_cast<uint32_t>(magnitude % 1000);
  if (fraction == 0) return;
  char digits[4] = {'.', static_cast<char>('0' + fraction / 100),
                    static_cast<char>('0' + fraction / 10 % 10),
                    static_cast<char>('0' + fraction % 10)};
  size_t length = 4;
  while (digits[length - 1] == '0') --length;  // 1.500 -> 1.5: shorter, the same number
  out.append(digits, digits + length);
}

JsonFileWriter::JsonFileWriter(std::string path)
    : path_(std::move(path)), temp_path_(path_ + ".tmp") {}

JsonFileWriter::~JsonFileWriter() {
  if (file_ != nullptr) std::fclose(file_);
  if (!finished_) {
    std::error_code ignored;
    std::filesystem::remove(temp_path_, ignored);
  }
}

Status JsonFileWriter::Open() {
  file_ = std::fopen(temp_path_.c_str(), "wb");
  if (file_ == nullptr) {
    return {StatusCode::kIoError, fmt::format("{}: cannot write: {}", path_, std::strerror(errno))};
  }
  return Status::Ok();
}

void JsonFileWriter::Flush() {
  if (buffer_.size() == 0) return;
  if (file_ != nullptr && write_errno_ == 0 &&
      std::fwrite(buffer_.data(), 1, buffer_.size(), file_) != buffer_.size()) {
    write_errno_ = errno != 0 ? errno : EIO;
  }
  bytes_written_ += buffer_.size();
  buffer_.clear();
}

Status JsonFileWriter::Finish() {
  Flush();
  if (file_ == nullptr) return {StatusCode::kIoError, fmt::format("{}: not open", path_)};
  if (std::fclose(file_) != 0 && write_errno_ == 0) write_errno_ = errno != 0 ? errno : EIO;
  file_ = nullptr;
  if (write_errno_ != 0) {
    return {StatusCode::kIoError,
            fmt::format("{}: cannot write: {}", path_, std::strerror(write_errno_))};
  }
  std::error_code error;
  std::filesystem::rename(temp_path_, path_, error);
  if (error) {
    return {StatusCode::kIoError, fmt::format("{}: cannot replace it: {}", path_, error.message())};
  }
  finished_ = true;
  return Status::Ok();
}

}  // namespace tensormorph::chrome_json
