// Trace::metadata keys that importers write beside a typed field of the model. The metadata is
// what the info report and the exporters show of the source; the field is what analyses read. The
// native format and the Chrome JSON export carry only the metadata, so their readers set the field
// again from the key (SetFieldsFromMetadata).
#pragma once

#include <string_view>

#include "tensormorph/model/trace.h"

namespace tensormorph {

// "\"exact\"" when the importer numbered ops and kernels itself: Trace::exact_external_ids.
inline constexpr std::string_view kExactExternalIdsKey = "external_id_links";
inline constexpr std::string_view kExactExternalIdsValue = "\"exact\"";

// Kineto's distributedInfo.backend, as plain text ("nccl"): Trace::distributed_backend.
inline constexpr std::string_view kDistributedBackendKey = "distributed_backend";

// Also: rocprof::GfxArchMetadataKey (Device::arch of a ROCm device) and
// measured_peaks::kSourceMetadataKey (Device::measured_peaks_source).

// Sets the fields above from their keys where the trace has them and the field is not set yet:
// ROCm devices' arch, measured peaks' source, exact External ids, the distributed backend.
void SetFieldsFromMetadata(Trace* trace);

}  // namespace tensormorph
