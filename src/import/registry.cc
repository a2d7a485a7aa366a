#include <fmt/format.h>

#include <algorithm>
#include <filesystem>

#include "import/chrome/chrome_importer.h"
#include "import/native/native_importer.h"
#include "import/ncu/ncu_importer.h"
#include "import/nsys/nsys_importer.h"
#include "import/onnxruntime/ort_importer.h"
#include "import/rocpd/rocpd_importer.h"
#include "import/rocprof/compute_db/importer.h"
#include "import/rocprof/rocprof_importer.h"
#include "import/webgpu/webgpu_importer.h"
#include "import/xctrace/xctrace_importer.h"
#include "import/xplane/xplane_importer.h"
#include "io/positions.h"
#include "tensormorph/import/importer.h"
#include "tensormorph/io/block_reader.h"

namespace tensormorph {
namespace {
constexpr size_t kSniffBytes = 64 << 10;

// "NAME (description); ..." for every importer, in detection order: the list of formats in
// messages comes from the registry, so a new importer appears in it by being registered.
std::string DescribeFormats() {
  std::string out;
  for (const Importer* importer : Importers()) {
    out += fmt::format("{}{} ({})", out.empty() ? "" : "; ", importer->description(),
                       importer->name());
  }
  return out;
}
}  // namespace

const std::vector<const Importer*>& Importers() {
  static const chrome::ChromeImporter kChrome;
  static const nsys::NsysImporter kNsys;
  static const rocpd::RocpdImporter kRocpd;
  static const ncu::NcuCsvImporter kNcu;
  static const rocprof::RocprofImporter kRocprof;
  static const rocprof::compute_db::ComputeDbImporter kRocprofComputeDb;
  static const onnxruntime::OrtImporter kOnnxRuntime;
  static const native::NativeImporter kNative;
  static const xctrace::XctraceImporter kXctrace;
  static const webgpu::WebGpuImporter kWebGpu;
  static const xplane::XplaneImporter kXplane;
  static const std::vector<const Importer*> kImporters = {
      &kChrome,      &kNsys,    &kRocpd,  &kRocprofComputeDb, &kNcu,   &kRocprof,
      &kOnnxRuntime, &kXctrace, &kWebGpu, &kXplane,           &kNative};
  return kImporters;
}

const Importer* FindImporter(std::string_view name) {
  for (const Importer* importer : Importers()) {
    if (importer->name() == name) return importer;
  }
  for (const Importer* importer : Importers()) {
    for (std::string_view format : importer->format_names()) {
      if (format == name) return importer;
    }
  }
  return nullptr;
}

std::vector<std::string> InputFormatNames() {
  std::vector<std::string> names;
  for (const Importer* importer : Importers()) names.emplace_back(importer->name());
  for (const Importer* importer : Importers()) {
    for (std::string_view format : importer->format_names()) {
      if (std::find(names.begin(), names.end(), format) == names.end()) names.emplace_back(format);
    }
  }
  return names;
}

StatusOr<Trace> LoadTrace(const std::string& path, const ImportOptions& options) {
  const Importer* chosen = nullptr;
  if (!options.input_format.empty()) {
    chosen = FindImporter(options.input_format);
    if (chosen == nullptr) {
      std::string known;
      for (const Importer* importer : Importers()) known += fmt::format(" {}", importer->name());
      return Status(
          StatusCode::kInvalidArgument,
          fmt::format("unknown input format '{}'; known formats:{}", options.input_format, known));
    }
  } else if (std::filesystem::is_directory(path)) {
    int best = 0;
    for (const Importer* importer : Importers()) {
      int score = importer->SniffFolder(path);
      if (score > best) {
        best = score;
        chosen = importer;
      }
    }
    if (chosen == nullptr) {
      return UnreadableInput(
          "a folder that holds no trace tensormorph recognises (folders it reads: rocprof-compute "
          "workloads, rocprofv3 output folders, JAX profile log dirs); name a trace file inside it "
          "instead");
    }
  } else {
    // The file itself over the limit: refused before any importer reads it (SQLite and protobuf
    // importers do not read through BlockReader, which checks decompressed content).
    std::error_code error;
    const uintmax_t size = std::filesystem::file_size(path, error);
    if (!error && options.max_input_bytes > 0 && size > options.max_input_bytes) {
      return InputTooLarge(options.max_input_bytes, false);
    }
    StatusOr<std::string> head = ReadHead(path, kSniffBytes);
    if (!head.ok()) return head.status();
    if (head->empty()) return UnreadableInput("the file is empty");
    int best = 0;
    for (const Importer* importer : Importers()) {
      int score = importer->Sniff(*head);
      if (score > best) {
        best = score;
        chosen = importer;
      }
    }
    if (chosen == nullptr) {
      return UnreadableInput(
          fmt::format("not a trace format tensormorph reads (expected one of: {}; gzip-compressed "
                      "files too); use --input-format NAME to force one",
                      DescribeFormats()),
          SourcePosition{1, 1});
    }
  }
  StatusOr<Trace> trace = chosen->Import(path, options);
  // The importer finished the trace itself (import/common/finish_import.h).
  if (!trace.ok()) return WithLineAndColumn(path, trace.status());
  return trace;
}

}  // namespace tensormorph
