// `xcrun xctrace export` XML of a Metal System Trace (docs/metal.md; reference other-backends.md
// §3): the metal-gpu-intervals table, and when the export holds them the encoder list
// (metal-application-encoders-list), the command-buffer submissions and the GPU info tables.
#pragma once

#include <string_view>

#include "tensormorph/import/importer.h"

namespace tensormorph::xctrace {

// The xpath that exports the table this importer needs, for error messages and docs.
inline constexpr std::string_view kExportCommand =
    "xcrun xctrace export --input run.trace --xpath "
    "'/trace-toc/run[@number=\"1\"]/data/table[@schema=\"metal-gpu-intervals\"]' --output "
    "gpu.xml";

class XctraceImporter final : public Importer {
 public:
  std::string_view name() const override { return "xctrace"; }
  std::string_view description() const override {
    return "xctrace export XML of a Metal System Trace (metal-gpu-intervals)";
  }
  // 100 when the document element is <trace-query-result> (after an optional XML declaration
  // and comments); also 100 for <trace-toc>, a --toc export, so that Import can say what to
  // export instead.
  int Sniff(std::string_view head) const override;
  StatusOr<Trace> Import(const Input& input, const ImportOptions& options) const override;
};

}  // namespace tensormorph::xctrace
