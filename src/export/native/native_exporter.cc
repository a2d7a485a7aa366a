#include "export/native/native_exporter.h"

#include <fmt/format.h>

#include <cerrno>
#include <cstring>

namespace tensormorph::native {

std::string_view NativeExporter::name() const {
  return layout_ == Layout::kJson ? "native" : "native-ndjson";
}

std::string_view NativeExporter::description() const {
  return layout_ == Layout::kJson
             ? "Tensormorph native trace (tensormorph.trace/1), one JSON object"
             : "Tensormorph native trace (tensormorph.trace/1), NDJSON: one record per line";
}

Status NativeExporter::Export(const LinkedTrace& linked, const std::string& output_path) const {
  const Trace& trace = linked.trace();
  std::FILE* file = std::fopen(output_path.c_str(), "wb");
  if (file == nullptr) {
    return Status(StatusCode::kIoError,
                  fmt::format("cannot write {}: {}", output_path, std::strerror(errno)));
  }
  Status written = WriteNativeTrace(trace, layout_, file, output_path);
  const bool closed = std::fclose(file) == 0;
  TM_RETURN_IF_ERROR(written);
  if (!closed) {
    return Status(StatusCode::kIoError,
                  fmt::format("cannot write {}: {}", output_path, std::strerror(errno)));
  }
  return Status::Ok();
}

}  // namespace tensormorph::native
