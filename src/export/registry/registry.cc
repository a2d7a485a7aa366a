#include "export/chrome_json/chrome_json_exporter.h"
#include "export/exporter.h"
#include "export/native/native_exporter.h"
#include "export/perfetto/perfetto_exporter.h"
#include "export/sqlite/sqlite_exporter.h"

namespace tensormorph {

const std::vector<const Exporter*>& Exporters() {
  static const native::NativeExporter kNative(native::Layout::kJson);
  static const native::NativeExporter kNativeNdjson(native::Layout::kNdjson);
  static const ChromeJsonExporter kChromeJson;
  static const SqliteExporter kSqlite;
  static const PerfettoExporter kPerfetto;
  static const std::vector<const Exporter*> kExporters = {&kNative, &kNativeNdjson, &kChromeJson,
                                                          &kSqlite, &kPerfetto};
  return kExporters;
}

const Exporter* FindExporter(std::string_view name) {
  for (const Exporter* exporter : Exporters()) {
    if (exporter->name() == name) return exporter;
  }
  return nullptr;
}

}  // namespace tensormorph
