#include <fmt/format.h>

#include <algorithm>
#include <filesystem>

#include "import/chrome/chrome_importer.h"
#include "import/native/native_importer.h"
#include "import/ncu/ncu_importer.h"
#include "import/nsys/nsys_importer.h"
#include "import/onnxruntime/onnxruntime_importer.h"
#include "import/rocpd/rocpd_importer.h"
#include "import/rocprof/compute_db/compute_db_importer.h"
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

// "rocprof-compute workloads, ..." for every importer that reads folders, in detection order.
std::string DescribeFolders() {
  std::string out;
  for (const Importer* importer : Importers()) {
    if (importer->folder_description().empty()) continue;
    out += fmt::format("{}{}", out.empty() ? "" : ", ", importer->folder_description());
  }
  return out;
}

// Runs `importer` on an opened input; the importer finishes the trace itself
// (import/common/finish_import.h), and errors get the line:column of their byte offset.
StatusOr<Trace> ImportOpened(const Importer& importer, const Input& input,
                             const ImportOptions& options) {
  StatusOr<Trace> trace = importer.Import(input, options);
  if (!trace.ok()) return WithLineAndColumn(input.path(), trace.status());  // adds line:column
  return trace;
}
}  // namespace

const std::vector<const Importer*>& Importers() {
  static const chrome::ChromeImporter kChrome;
  static const nsys::NsysImporter kNsys;
  static const rocpd::RocpdImporter kRocpd;
  static const ncu::NcuCsvImporter kNcu;
  static const rocprof::RocprofImporter kRocprof;
  static const rocprof::compute_db::ComputeDbImporter kRocprofComputeDb;
  static const onnxruntime::OnnxRuntimeImporter kOnnxRuntime;
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

StatusOr<Trace> ImportWith(const Importer& importer, const std::string& path,
                           const ImportOptions& options) {
  TM_ASSIGN_OR_RETURN(Input input, Input::Open(path, options.max_input_bytes));
  return ImportOpened(importer, input, options);
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
    return ImportWith(*chosen, path, options);
  }
  TM_ASSIGN_OR_RETURN(Input input, Input::Open(path, options.max_input_bytes));
  int best = 0;
  if (input.is_folder()) {
    for (const Importer* importer : Importers()) {
      if (const int score = importer->SniffFolder(path); score > best) {
        best = score;
        chosen = importer;
      }
    }
    if (chosen == nullptr) {
      return UnreadableInput(fmt::format(
          "a folder that holds no trace tensormorph recognises (folders it reads: {}); name a "
          "trace file inside it instead",
          DescribeFolders()));
    }
  } else {
    TM_ASSIGN_OR_RETURN(std::string head, input.Head(kSniffBytes));
    if (head.empty()) return UnreadableInput("the file is empty");
    for (const Importer* importer : Importers()) {
      if (const int score = importer->Sniff(head); score > best) {
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
  return ImportOpened(*chosen, input, options);
}

std::vector<std::string> TraceFilesInFolder(const std::string& folder) {
  std::error_code error;
  if (!std::filesystem::is_directory(folder, error)) return {};
  for (const Importer* importer : Importers()) {
    if (importer->SniffFolder(folder) > 0) return {};  // read whole
  }
  std::vector<std::string> files;
  for (const auto& entry : std::filesystem::directory_iterator(folder, error)) {
    if (!entry.is_regular_file(error) || entry.path().filename().string().starts_with(".")) {
      continue;
    }
    StatusOr<Input> input = Input::Open(entry.path().string(), kDefaultMaxInputBytes);
    if (!input.ok()) continue;
    StatusOr<std::string> head = input->Head(kSniffBytes);
    if (!head.ok() || head->empty()) continue;
    for (const Importer* importer : Importers()) {
      if (importer->Sniff(*head) > 0) {
        files.push_back(entry.path().string());
        break;
      }
    }
  }
  std::sort(files.begin(), files.end());
  return files;
}

}  // namespace tensormorph
