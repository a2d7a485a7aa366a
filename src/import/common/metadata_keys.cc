#include "import/common/metadata_keys.h"

#include <string>

#include "devices/measured_peaks.h"
#include "import/rocprof/common/agents.h"

namespace tensormorph {
namespace {

// JSON text "\"gfx942\"" -> gfx942; "" for text that is not a JSON string.
std::string Unquoted(const std::string& text) {
  return text.size() >= 2 && text.front() == '"' && text.back() == '"'
             ? text.substr(1, text.size() - 2)
             : std::string();
}

}  // namespace

void SetFieldsFromMetadata(Trace* trace) {
  const auto meta = [&](std::string_view key) -> const std::string* {
    auto it = trace->metadata.find(std::string(key));
    return it == trace->metadata.end() ? nullptr : &it->second;
  };
  for (Device& d : trace->devices) {
    if (d.arch.empty() && d.backend == Backend::kRocm) {
      if (const std::string* gfx = meta(rocprof::GfxArchMetadataKey(d.trace_id))) {
        d.arch = Unquoted(*gfx);
      }
    }
    if (!d.measured_peaks.empty() && d.measured_peaks_source.empty()) {
      if (const std::string* source = meta(measured_peaks::kSourceMetadataKey)) {
        d.measured_peaks_source = source->size() >= 2 && source->front() == '"'
                                      ? source->substr(1, source->size() - 2)
                                      : *source;
      }
    }
  }
  if (const std::string* exact = meta(kExactExternalIdsKey)) {
    trace->exact_external_ids |= *exact == kExactExternalIdsValue;
  }
  if (!trace->distributed_backend) {
    if (const std::string* backend = meta(kDistributedBackendKey)) {
      trace->distributed_backend = *backend;
    }
  }
}

}  // namespace tensormorph
