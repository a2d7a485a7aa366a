// The native Tensormorph trace format as export targets: `native` (one JSON object) and
// `native-ndjson` (one record per line, for traces too large to hold as one document).
#pragma once

#include "export/exporter.h"
#include "export/native/native_writer.h"

namespace tensormorph::native {

class NativeExporter : public Exporter {
 public:
  explicit NativeExporter(Layout layout) : layout_(layout) {}
  std::string_view name() const override;
  std::string_view description() const override;
  Status Export(const LinkedTrace& linked, const std::string& output_path) const override;

 private:
  Layout layout_;
};

}  // namespace tensormorph::native
