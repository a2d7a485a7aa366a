// The native Tensormorph trace format (docs/native-format.md): tensormorph.trace/1, written by
// `tensormorph export --to native|native-ndjson` or by hand (a WebGPU app's timestamp queries).
// Reads both layouts: one JSON object, or NDJSON (a header line, then one record per line), which
// is streamed line by line so that a large trace is never held as one document.
#pragma once

#include "tensormorph/import/importer.h"

namespace tensormorph::native {

class NativeImporter : public Importer {
 public:
  std::string_view name() const override { return "native"; }
  std::string_view description() const override {
    return "Tensormorph native trace (tensormorph.trace/1), JSON or NDJSON";
  }
  int Sniff(std::string_view head) const override;
  StatusOr<Trace> Import(const Input& input, const ImportOptions& options) const override;
};

// Whether `head` (the start of the content) names the native schema: a "schema" member whose value
// starts with "tensormorph.trace/".
bool HasNativeSchema(std::string_view head);

// Whether `line` is one complete JSON object (and nothing else but whitespace): braces balanced,
// strings and escapes respected. Tells the NDJSON layout (a complete header line) from the JSON
// layout (an object that goes on after its first line).
bool IsCompleteObject(std::string_view line);

}  // namespace tensormorph::native
