#include "tensormorph/io/block_reader.h"

#include <fmt/format.h>
#include <zlib.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <thread>
#include <utility>

#include "io/bounded_queue.h"

namespace tensormorph {
namespace {

constexpr size_t kCompressedRead = 1 << 20;  // compressed bytes read per fread
constexpr size_t kQueuedBlocks = 4;          // inflated blocks waiting for the splitter
constexpr uint64_t kMaxLeadingWhitespace = 64ull << 20;

struct FileCloser {
  void operator()(FILE* f) const { std::fclose(f); }
};
using File = std::unique_ptr<FILE, FileCloser>;

StatusOr<File> OpenFile(const std::string& path, uint64_t* size) {
  File file(std::fopen(path.c_str(), "rb"));
  if (!file) {
    return Status(StatusCode::kIoError, std::string("cannot open: ") + std::strerror(errno));
  }
  if (std::fseek(file.get(), 0, SEEK_END) == 0) {
    long end = std::ftell(file.get());
    *size = end > 0 ? static_cast<uint64_t>(end) : 0;
    std::fseek(file.get(), 0, SEEK_SET);
  }
  return file;
}

std::string Size(uint64_t bytes) {
  if (bytes < (1ull << 20)) return fmt::format("{} bytes", bytes);  // a limit set for a test
  return bytes % (1ull << 30) == 0 ? fmt::format("{} GiB", bytes >> 30)
                                   : fmt::format("{:.1f} MiB", bytes / 1048576.0);
}

class PlainReader final : public BlockReader {
 public:
  PlainReader(File file, uint64_t size, uint64_t limit) : file_(std::move(file)), limit_(limit) {
    file_size_ = size;
  }

  bool Next(std::vector<char>* block) override {
    block->resize(kReadBlockBytes);
    size_t n = std::fread(block->data(), 1, kReadBlockBytes, file_.get());
    block->resize(n);
    const uint64_t read = file_bytes_consumed_.fetch_add(n, std::memory_order_relaxed) + n;
    if (n == 0 && std::ferror(file_.get())) {
      status_ = Status(StatusCode::kIoError, std::string("read error: ") + std::strerror(errno));
    }
    if (limit_ > 0 && read > limit_) {  // a file that grows while being read (a pipe, a FIFO)
      status_ = InputTooLarge(limit_, false);
      return false;
    }
    return n > 0;
  }

 private:
  File file_;
  uint64_t limit_;
};

// Inflates on a worker thread; the consumer takes finished blocks from a bounded queue.
class GzipReader final : public BlockReader {
 public:
  GzipReader(File file, uint64_t size, uint64_t limit)
      : file_(std::move(file)), limit_(limit), queue_(kQueuedBlocks) {
    file_size_ = size;
    compressed_ = true;
    worker_ = std::thread([this] { Inflate(); });
  }
  ~GzipReader() override {
    queue_.Close();
    if (worker_.joinable()) worker_.join();
  }

  bool Next(std::vector<char>* block) override {
    std::optional<std::vector<char>> next = queue_.Pop();
    if (!next) {
      if (worker_.joinable()) worker_.join();  // publishes status_ / warning_
      return false;
    }
    *block = std::move(*next);
    return true;
  }

 private:
  void Inflate() {
    z_stream zs{};
    // 16 + MAX_WBITS: gzip wrapper only; a raw zlib stream is not what a .gz holds.
    if (inflateInit2(&zs, 16 + MAX_WBITS) != Z_OK) {
      status_ = UnreadableInput("cannot initialise zlib");
      queue_.Close();
      return;
    }
    std::vector<unsigned char> in(kCompressedRead);
    std::vector<char> out(kReadBlockBytes);
    size_t out_used = 0;
    bool stream_ended = false;  // the last gzip member ended cleanly
    bool corrupt = false;       // damaged data after some good output
    uint64_t consumed = 0;
    for (;;) {
      if (zs.avail_in == 0) {
        size_t n = std::fread(in.data(), 1, in.size(), file_.get());
        if (n == 0) break;
        zs.next_in = in.data();
        zs.avail_in = static_cast<uInt>(n);
        consumed += n;
        file_bytes_consumed_.store(consumed, std::memory_order_relaxed);
      }
      if (stream_ended) {
        // Concatenated gzip members are valid; anything else after a member (tape or block
        // padding, often zeros) is not gzip data, and gzip itself ignores it with a warning.
        if (zs.avail_in >= 2 && (zs.next_in[0] != 0x1f || zs.next_in[1] != 0x8b)) {
          warning_ = "ignored " + std::to_string(file_size_ - (consumed - zs.avail_in)) +
                     " bytes after the end of the gzip data";
          break;
        }
        inflateReset(&zs);
        stream_ended = false;
      }
      zs.next_out = reinterpret_cast<Bytef*>(out.data() + out_used);
      zs.avail_out = static_cast<uInt>(out.size() - out_used);
      int rc = inflate(&zs, Z_NO_FLUSH);
      out_used = out.size() - zs.avail_out;
      if (rc == Z_STREAM_END) {
        stream_ended = true;
      } else if (rc != Z_OK && rc != Z_BUF_ERROR) {
        const uint64_t at = consumed - zs.avail_in;
        const std::string what = std::string(zs.msg ? zs.msg : "inflate failed");
        if (zs.total_out == 0 && out_used == 0) {
          status_ = UnreadableInput("corrupt gzip data near compressed byte " + std::to_string(at) +
                                    " (" + what + "); check the file with gzip -t");
        } else {
          // Like a cut-off file: what was inflated before the damage is still good.
          warning_ = "the gzip data is corrupt near compressed byte " + std::to_string(at) + " (" +
                     what + "); reading what was decompressed before it";
          corrupt = true;
        }
        break;
      }
      if (limit_ > 0 && zs.total_out > limit_) {
        status_ = InputTooLarge(limit_, true);
        break;
      }
      if (out_used == out.size()) {
        if (!queue_.Push(std::exchange(out, std::vector<char>(kReadBlockBytes)))) break;
        out_used = 0;
      }
    }
    if (status_.ok() && !stream_ended && !corrupt && warning_.empty() &&
        (zs.total_in > 0 || consumed > 0)) {
      warning_ =
          "the gzip stream ends early (the file was cut off while being written); "
          "reading what was decompressed";
    }
    inflateEnd(&zs);
    if (out_used > 0 && status_.ok()) {
      out.resize(out_used);
      queue_.Push(std::move(out));
    }
    queue_.Close();
  }

  File file_;
  uint64_t limit_;
  BoundedQueue<std::vector<char>> queue_;
  std::thread worker_;
};

bool HasGzipMagic(FILE* file) {
  unsigned char magic[2] = {0, 0};
  size_t n = std::fread(magic, 1, 2, file);
  std::fseek(file, 0, SEEK_SET);
  return n == 2 && magic[0] == 0x1f && magic[1] == 0x8b;
}

}  // namespace

Status InputTooLarge(uint64_t limit, bool decompressed) {
  return UnreadableInput(fmt::format(
      "{} more than {} (--max-input-size); if this really is a trace, raise the limit, e.g. "
      "--max-input-size {}G, or 0 for none",
      decompressed ? "the gzip data decompresses to" : "the file holds", Size(limit),
      std::max<uint64_t>(2 * (limit >> 30), 1)));
}

StatusOr<std::unique_ptr<BlockReader>> BlockReader::Open(const std::string& path,
                                                         uint64_t max_content_bytes) {
  uint64_t size = 0;
  TM_ASSIGN_OR_RETURN(File file, OpenFile(path, &size));
  std::unique_ptr<BlockReader> reader;
  if (HasGzipMagic(file.get())) {
    reader = std::make_unique<GzipReader>(std::move(file), size, max_content_bytes);
  } else {
    if (max_content_bytes > 0 && size > max_content_bytes) {
      return InputTooLarge(max_content_bytes, false);
    }
    reader = std::make_unique<PlainReader>(std::move(file), size, max_content_bytes);
  }
  return reader;
}

StatusOr<std::string> ReadContent(const std::string& path, uint64_t max_content_bytes,
                                  std::string* warning) {
  TM_ASSIGN_OR_RETURN(std::unique_ptr<BlockReader> reader,
                      BlockReader::Open(path, max_content_bytes));
  std::string text;
  if (!reader->compressed()) text.reserve(reader->file_size());  // one allocation
  std::vector<char> block;
  while (reader->Next(&block)) text.append(block.data(), block.size());
  TM_RETURN_IF_ERROR(reader->status());
  *warning = reader->warning();
  return text;
}

StatusOr<std::string> ReadHead(const std::string& path, size_t max_bytes) {
  TM_ASSIGN_OR_RETURN(std::unique_ptr<BlockReader> reader, BlockReader::Open(path));
  std::string head;
  std::vector<char> block;
  uint64_t leading_space = 0;  // not part of the head: formats are told apart by what follows
  while (head.size() < max_bytes && reader->Next(&block)) {
    size_t i = 0;
    if (head.empty()) {
      while (i < block.size() &&
             (block[i] == ' ' || block[i] == '\n' || block[i] == '\r' || block[i] == '\t')) {
        ++i;
      }
      leading_space += i;
      if (leading_space > kMaxLeadingWhitespace) {
        return UnreadableInput(
            "the content starts with more than 64 MiB of whitespace; not a trace");
      }
    }
    head.append(block.data() + i, std::min(block.size() - i, max_bytes - head.size()));
  }
  if (head.empty()) {
    TM_RETURN_IF_ERROR(reader->status());
    if (!reader->warning().empty()) {
      return UnreadableInput("no content could be read: " + reader->warning());
    }
    if (leading_space > 0) return UnreadableInput("the file holds only whitespace");
  }
  return head;
}

}  // namespace tensormorph
