#include "export/exporter.h"

namespace tensormorph {

const std::vector<const Exporter*>& Exporters() {
  static const std::vector<const Exporter*> kExporters = {};
  return kExporters;
}

const Exporter* FindExporter(std::string_view name) {
  for (const Exporter* exporter : Exporters()) {
    if (exporter->name() == name) return exporter;
  }
  return nullptr;
}

}  // namespace tensormorph
