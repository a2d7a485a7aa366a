// Every output trace format is an Exporter: it writes a linked trace (the model of
// src/model/trace.h and its links, link/linked_trace.h) to a file in its format. All
// exporters are listed in one registry (registry.cc), which the `export` command uses to resolve
// `--to NAME`.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "tensormorph/link/linked_trace.h"
#include "tensormorph/model/status.h"

namespace tensormorph {

class Exporter {
 public:
  virtual ~Exporter() = default;
  virtual std::string_view name() const = 0;  // the `--to` value, e.g. "chrome-json"
  virtual std::string_view description() const = 0;
  // Writes the trace to `output_path` (replacing it). Errors name what failed (an I/O error).
  virtual Status Export(const LinkedTrace& linked, const std::string& output_path) const = 0;
};

// The registry, in the order `export --help` lists them.
const std::vector<const Exporter*>& Exporters();

// The exporter named `name`, or nullptr.
const Exporter* FindExporter(std::string_view name);

}  // namespace tensormorph
