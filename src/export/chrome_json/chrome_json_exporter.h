// Writes any Trace as a Chrome trace (JSON object form) that Perfetto UI and chrome://tracing
// open, in the Kineto dialect, so that our own Kineto importer reads it back with the same
// classification, links and numbers. Format notes: docs/chrome-json-export.md.
#pragma once

#include "export/exporter.h"

namespace tensormorph {

class ChromeJsonExporter : public Exporter {
 public:
  std::string_view name() const override { return "chrome-json"; }
  std::string_view description() const override {
    return "Chrome trace JSON (Kineto dialect) for Perfetto UI and chrome://tracing";
  }
  Status Export(const LinkedTrace& linked, const std::string& output_path) const override;
};

}  // namespace tensormorph
