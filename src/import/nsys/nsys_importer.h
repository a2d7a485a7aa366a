// Nsight Systems SQLite exports (`nsys export --type sqlite`, or the .sqlite file `nsys stats`
// writes beside a report): CUDA kernels, memory copies and sets, runtime and driver API calls,
// NVTX ranges, GPUs and thread names. Schemas 3.x are read by column name, so the layouts of
// different Nsight versions (3.24, 3.25, ...) need no version switch.
#pragma once

#include "tensormorph/import/importer.h"

namespace tensormorph::nsys {

class NsysImporter final : public Importer {
 public:
  std::string_view name() const override { return "nsys-sqlite"; }
  std::string_view description() const override {
    return "Nsight Systems SQLite export (nsys export --type sqlite), .sqlite";
  }
  int Sniff(std::string_view head) const override;
  StatusOr<Trace> Import(const Input& input, const ImportOptions& options) const override;
};

}  // namespace tensormorph::nsys
