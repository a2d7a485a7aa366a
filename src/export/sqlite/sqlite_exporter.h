// Writes a Trace as an SQLite database of documented tables (docs/sqlite-export.md): devices,
// streams, threads, kernels, memcpy, api_calls, ops, annotations, kernel_counters, flows,
// warnings and metadata, with names inline so that plain SQL answers questions about the trace.
#pragma once

#include "export/exporter.h"

namespace tensormorph {

class SqliteExporter : public Exporter {
 public:
  std::string_view name() const override { return "sqlite"; }
  std::string_view description() const override {
    return "SQLite database of kernels, copies, API calls, ops and devices (docs/sqlite-export.md)";
  }
  Status Export(const LinkedTrace& linked, const std::string& output_path) const override;
};

}  // namespace tensormorph
