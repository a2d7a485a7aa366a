// Nsight Compute CSV exports (`ncu --csv`, or `ncu --import X.ncu-rep --csv`), in both layouts:
// the details page (one row per metric; the default) and the raw page (`--page raw`, one row per
// launch under a units row). Each profiled launch becomes a kernel with its counters attached
// (Trace::kernel_counters). ncu measures how long each launch ran, not when it started, so start
// times are synthetic; format_version says so. A file that holds only ncu's ==ERROR== lines (a
// failed run redirected to .csv) is an error that quotes them.
#pragma once

#include "tensormorph/import/importer.h"

namespace tensormorph::ncu {

class NcuCsvImporter final : public Importer {
 public:
  std::string_view name() const override { return "ncu-csv"; }
  std::string_view description() const override {
    return "Nsight Compute CSV export (ncu --csv), details or raw page";
  }
  int Sniff(std::string_view head) const override;
  StatusOr<Trace> Import(const Input& input, const ImportOptions& options) const override;
};

}  // namespace tensormorph::ncu
