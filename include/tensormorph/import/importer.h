// Every input format is an Importer: Sniff() says how sure it is that some content is its format,
// Import() reads an opened Input into a Trace. All importers are listed in one registry
// (src/import/registry/registry.cc); every list of formats (messages, help, the fuzz harnesses) is
// read from it, so a new format is its folder plus one registry line.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "tensormorph/io/block_reader.h"
#include "tensormorph/io/input.h"
#include "tensormorph/model/status.h"
#include "tensormorph/model/trace.h"

namespace tensormorph {

struct ImportOptions {
  int threads = 0;               // parser threads; 0 = one per core
  size_t chunk_bytes = 4 << 20;  // events per parser task; small keeps peak memory low
  std::string input_format;      // force an importer by name; empty = detect by content
  // Whether the caller needs host-side rows (runtime calls, framework ops, annotations). Commands
  // that look at device work only clear it, and importers that read those from tables of their
  // own (Nsight Systems: RUNTIME and NVTX_EVENTS, often most of an export) skip them; the trace
  // then says so in its metadata ("host_rows": "skipped").
  bool host_rows = true;
  // ONNX Runtime profiles: model runs left out as warm-up, in time order; -1 = the first one
  // when there are several (it is summarised in a warning instead); kMarkWarmUpRuns = none, the
  // run -1 would leave out kept and named "model_run#0 (warm-up)" (what `export` does).
  int skip_runs = -1;
  static constexpr int kMarkWarmUpRuns = -2;
  // The most content one input may hold, in bytes: the file, or what its gzip data decompresses
  // to (--max-input-size; src/io/block_reader.h). 0 = no limit.
  uint64_t max_input_bytes = kDefaultMaxInputBytes;
  // Called now and then with (file bytes consumed, file size); may be empty.
  std::function<void(uint64_t, uint64_t)> progress;
};

class Importer {
 public:
  virtual ~Importer() = default;
  virtual std::string_view name() const = 0;
  virtual std::string_view description() const = 0;
  // The names this importer gives Trace::format (what `info` prints), all accepted by
  // --input-format beside name(); just name() for most.
  virtual std::vector<std::string_view> format_names() const { return {name()}; }
  // 0: not this format; 100: certainly this format. `head` is the start of the content.
  virtual int Sniff(std::string_view head) const = 0;
  // Same for a folder given as input (a rocprof-compute workload, a rocprofv3 output folder, a JAX
  // profile log dir): 0 when this importer does not read folders or does not recognise this one.
  virtual int SniffFolder(const std::string& folder) const { return 0; }
  // What folders this importer reads, for messages ("JAX profile log dirs"); empty when none.
  virtual std::string_view folder_description() const { return {}; }
  // Reads `input` (opened with options.max_input_bytes) and finishes the trace
  // (src/import/common/finish_import.h). Every byte comes through `input`.
  virtual StatusOr<Trace> Import(const Input& input, const ImportOptions& options) const = 0;
};

// The registry, in detection order.
const std::vector<const Importer*>& Importers();

// The importer --input-format NAME selects: by its name or one of its format_names(); null when
// none has it.
const Importer* FindImporter(std::string_view name);

// Every name --input-format accepts, importer names first.
std::vector<std::string> InputFormatNames();

// Opens `path` with the limits of `options` and imports it with `importer`, without detection.
StatusOr<Trace> ImportWith(const Importer& importer, const std::string& path,
                           const ImportOptions& options);

// Detects the format of `path` (or uses options.input_format) and imports it. Errors carry a
// line:column position where the importer knows one.
StatusOr<Trace> LoadTrace(const std::string& path, const ImportOptions& options);

// A folder that no importer reads as one input (a job's rank traces side by side) is read as its
// files: the regular files directly in it, by name, whose head some importer recognises. Empty when
// `folder` is not such a folder (an importer reads it whole, or it holds no trace file).
std::vector<std::string> TraceFilesInFolder(const std::string& folder);

}  // namespace tensormorph
