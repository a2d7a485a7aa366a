// The vocabulary of the native Tensormorph trace format (docs/native-format.md): the schema
// string and the names the format uses for the model's enums and event counts. The importer and
// the exporter (src/export/native) share it, so that what one writes the other reads.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

#include "tensormorph/model/trace.h"

namespace tensormorph::native {

constexpr std::string_view kSchemaPrefix = "tensormorph.trace/";
constexpr int kSchemaVersion = 1;
constexpr std::string_view kSchema = "tensormorph.trace/1";
// Trace::format / format_version of a native file that does not name the format it came from.
constexpr std::string_view kNativeFormat = "native";

std::string_view SliceKindName(SliceKind kind);
std::optional<SliceKind> ParseSliceKind(std::string_view name);
std::string_view ApiKindName(ApiKind kind);
std::optional<ApiKind> ParseApiKind(std::string_view name);
std::string_view TransferKindName(TransferKind kind);
std::optional<TransferKind> ParseTransferKind(std::string_view name);
std::optional<CopyDirection> ParseCopyDirection(std::string_view name);
std::optional<MemoryKind> ParseMemoryKind(std::string_view name);
std::string_view FlowKindName(FlowKind kind);
std::optional<FlowKind> ParseFlowKind(std::string_view name);
std::string_view FlowPhaseName(FlowPhase phase);
std::optional<FlowPhase> ParseFlowPhase(std::string_view name);

// The fields of EventCounts by their names in the format's "counts" object.
struct CountField {
  std::string_view name;
  uint64_t EventCounts::*member;
};
constexpr CountField kCountFields[] = {
    {"kernels", &EventCounts::kernels},
    {"memcpys", &EventCounts::memcpys},
    {"memsets", &EventCounts::memsets},
    {"runtime_calls", &EventCounts::runtime_calls},
    {"driver_calls", &EventCounts::driver_calls},
    {"sync_events", &EventCounts::sync_events},
    {"ops", &EventCounts::ops},
    {"annotations", &EventCounts::annotations},
    {"gpu_annotations", &EventCounts::gpu_annotations},
    {"python_functions", &EventCounts::python_functions},
    {"flows", &EventCounts::flows},
    {"metadata", &EventCounts::metadata},
    {"instants", &EventCounts::instants},
    {"counter_ranges", &EventCounts::counter_ranges},
    {"other", &EventCounts::other},
    {"skipped", &EventCounts::skipped},
};

// Timestamps and durations stay within ±2^62 ns (as every importer keeps them), so that sums of a
// start and a duration never overflow.
constexpr int64_t kMaxTimeNs = int64_t{1} << 62;

}  // namespace tensormorph::native
