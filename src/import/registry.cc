#include <fmt/format.h>

#include <filesystem>

#include "import/chrome/chrome_importer.h"
#include "import/importer.h"
#include "import/ncu/ncu_importer.h"
#include "import/nsys/nsys_importer.h"
#include "import/onnxruntime/ort_importer.h"
#include "import/rocprof/rocprof_importer.h"
#include "io/block_reader.h"
#include "io/positions.h"

namespace tensormorph {
namespace {
constexpr size_t kSniffBytes = 64 << 10;
}

const std::vector<const Importer*>& Importers() {
  static const chrome::ChromeImporter kChrome;
  static const nsys::NsysImporter kNsys;
  static const ncu::NcuCsvImporter kNcu;
  static const rocprof::RocprofImporter kRocprof;
  static const onnxruntime::OrtImporter kOnnxRuntime;
  static const std::vector<const Importer*> kImporters = {&kChrome, &kNsys, &kNcu, &kRocprof,
                                                          &kOnnxRuntime};
  return kImporters;
}

StatusOr<Trace> LoadTrace(const std::string& path, const ImportOptions& options) {
  const Importer* chosen = nullptr;
  if (!options.input_format.empty()) {
    for (const Importer* importer : Importers()) {
      if (importer->name() == options.input_format) chosen = importer;
    }
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
          "not a trace format tensormorph reads (expected PyTorch profiler / Kineto or Chrome "
          "trace JSON, optionally gzip-compressed, an Nsight Systems SQLite export, an Nsight "
          "Compute CSV, a rocprof CSV/JSON or an ONNX Runtime profile); use --input-format to "
          "force "
          "one",
          SourcePosition{1, 1});
    }
  }
  StatusOr<Trace> trace = chosen->Import(path, options);
  if (!trace.ok()) return WithLineAndColumn(path, trace.status());
  return trace;
}

}  // namespace tensormorph
