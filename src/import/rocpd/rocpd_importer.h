// ROCm 7 rocprofv3's default output, the rocpd SQLite database (`<pid>_results.db`, rocpd schema
// 3.x of rocprofiler-sdk; also `rocpd merge` output holding several runs): kernel dispatches with
// their kernel symbols' registers and PMC counters, agents as devices, HIP / HSA / RCCL API calls
// and roctx ranges linked to kernels and copies by correlation id, memory copies, and processes
// (several in a merged database, each with its own devices, tracks and correlation ids).
// Detected by its rocpd_* table names, not by the file name; tables and columns are read by name
// (schema.h).
#pragma once

#include "tensormorph/import/importer.h"

namespace tensormorph::rocpd {

class RocpdImporter final : public Importer {
 public:
  std::string_view name() const override { return "rocpd"; }
  std::string_view description() const override {
    return "ROCm rocprofv3 rocpd SQLite database (ROCm 7 default output, *_results.db)";
  }
  // 100 for an SQLite file whose schema (in the head) names rocpd tables; 0 otherwise, so that
  // other SQLite files keep the Nsight Systems importer's answer.
  int Sniff(std::string_view head) const override;
  StatusOr<Trace> Import(const Input& input, const ImportOptions& options) const override;
};

}  // namespace tensormorph::rocpd
