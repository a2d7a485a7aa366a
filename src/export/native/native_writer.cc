#include "export/native/native_writer.h"

#include <cerrno>
#include <cstring>

#include "export/native/native_records.h"

namespace tensormorph::native {
namespace {

constexpr size_t kFlushBytes = 1 << 20;

// Frames records for one layout and writes the buffer out in large pieces.
class Framer {
 public:
  Framer(Layout layout, std::FILE* file) : layout_(layout), file_(file) {}

  fmt::memory_buffer* out() { return &out_; }

  // NDJSON: a header line. JSON: the top-level object, left open for the tables.
  void Header(const Trace& trace) {
    ObjectWriter header(&out_);
    WriteHeaderMembers(trace, &header);
    if (layout_ == Layout::kNdjson) {
      header.Close();
      out_.push_back('\n');
    }
  }

  // Writes one table: `write(i, record)` fills record i of `count`.
  template <typename WriteRecord>
  void Table(std::string_view type, std::string_view table, size_t count, WriteRecord write) {
    if (layout_ == Layout::kJson) {
      fmt::format_to(std::back_inserter(out_), ",\n\"{}\":[", table);
    }
    for (size_t i = 0; i < count; ++i) {
      if (layout_ == Layout::kJson) out_.append(std::string_view(i == 0 ? "\n" : ",\n"));
      ObjectWriter record(&out_);
      if (layout_ == Layout::kNdjson) record.String("type", type);
      write(i, &record);
      record.Close();
      if (layout_ == Layout::kNdjson) out_.push_back('\n');
      if (out_.size() >= kFlushBytes && !Flush()) return;
    }
    if (layout_ == Layout::kJson) out_.append(std::string_view(count == 0 ? "]" : "\n]"));
  }

  void Finish() {
    if (layout_ == Layout::kJson) out_.append(std::string_view("\n}\n"));
    Flush();
  }

  bool Flush() {
    if (failed_) return false;
    if (!out_.size()) return true;
    if (std::fwrite(out_.data(), 1, out_.size(), file_) != out_.size()) {
      failed_ = true;
      error_ = errno;
    }
    out_.clear();
    return !failed_;
  }

  bool failed() const { return failed_; }
  int error() const { return error_; }

 private:
  Layout layout_;
  std::FILE* file_;
  fmt::memory_buffer out_;
  bool failed_ = false;
  int error_ = 0;
};

}  // namespace

Status WriteNativeTrace(const Trace& trace, Layout layout, std::FILE* file,
                        const std::string& output_name) {
  Framer framer(layout, file);
  framer.Header(trace);
  framer.Table("device", "devices", trace.devices.size(), [&](size_t i, ObjectWriter* r) {
    WriteDeviceMembers(trace.devices[i], static_cast<uint32_t>(i), r);
  });
  framer.Table("track", "tracks", trace.tracks.size(), [&](size_t i, ObjectWriter* r) {
    WriteTrackMembers(trace.tracks[i], static_cast<uint32_t>(i), r);
  });
  framer.Table("kernel", "kernels", trace.kernels.size(),
               [&](size_t i, ObjectWriter* r) { WriteKernelMembers(trace, trace.kernels[i], r); });
  framer.Table(
      "kernel_counters", "kernel_counters", trace.kernel_counters.size(),
      [&](size_t i, ObjectWriter* r) { WriteCountersMembers(trace, trace.kernel_counters[i], r); });
  framer.Table("transfer", "transfers", trace.transfers.size(), [&](size_t i, ObjectWriter* r) {
    WriteTransferMembers(trace, trace.transfers[i], r);
  });
  framer.Table("api_call", "api_calls", trace.api_calls.size(), [&](size_t i, ObjectWriter* r) {
    WriteApiCallMembers(trace, trace.api_calls[i], r);
  });
  framer.Table("slice", "slices", trace.slices.size(),
               [&](size_t i, ObjectWriter* r) { WriteSliceMembers(trace, trace.slices[i], r); });
  framer.Table("flow", "flows", trace.flows.size(),
               [&](size_t i, ObjectWriter* r) { WriteFlowMembers(trace.flows[i], r); });
  framer.Table("instant", "instants", trace.instants.size(), [&](size_t i, ObjectWriter* r) {
    WriteInstantMembers(trace, trace.instants[i], r);
  });
  framer.Finish();
  if (std::fflush(file) != 0 && !framer.failed()) {
    return Status(StatusCode::kIoError,
                  fmt::format("cannot write {}: {}", output_name, std::strerror(errno)));
  }
  if (framer.failed()) {
    return Status(StatusCode::kIoError,
                  fmt::format("cannot write {}: {}", output_name, std::strerror(framer.error())));
  }
  return Status::Ok();
}

}  // namespace tensormorph::native
