#include "import/xplane/event_stats.h"

namespace tensormorph::xplane {

std::string_view PlaneStats::NameOf(const xplane_pb::XStat& stat) const {
  auto it = plane_.stat_metadata().find(stat.metadata_id());
  return it == plane_.stat_metadata().end() ? std::string_view() : it->second.name();
}

std::string_view PlaneStats::Text(const xplane_pb::XStat& stat) const {
  switch (stat.value_case()) {
    case xplane_pb::XStat::kStrValue:
      return stat.str_value();
    case xplane_pb::XStat::kRefValue: {
      const int64_t ref = static_cast<int64_t>(stat.ref_value());
      auto it = plane_.stat_metadata().find(ref);
      return it == plane_.stat_metadata().end() ? std::string_view() : it->second.name();
    }
    default:
      return {};
  }
}

std::optional<int64_t> PlaneStats::Integer(const xplane_pb::XStat& stat) const {
  switch (stat.value_case()) {
    case xplane_pb::XStat::kInt64Value:
      return stat.int64_value();
    case xplane_pb::XStat::kUint64Value:
      return static_cast<int64_t>(stat.uint64_value());
    default:
      return std::nullopt;
  }
}

const xplane_pb::XStat* PlaneStats::Find(const StatList& stats, std::string_view name) const {
  for (const xplane_pb::XStat& stat : stats) {
    if (NameOf(stat) == name) return &stat;
  }
  return nullptr;
}

namespace {

void Collect(const PlaneStats& plane, const StatList& stats, EventStats* out) {
  for (const xplane_pb::XStat& stat : stats) {
    const std::string_view name = plane.NameOf(stat);
    if (name.empty()) continue;
    switch (name[0]) {
      case 'c':
        if (name == "correlation_id") {
          std::optional<int64_t> id = plane.Integer(stat);
          if (id) out->correlation = static_cast<uint64_t>(*id);
        }
        break;
      case 'k':
        if (name == "kernel_details") out->kernel_details = plane.Text(stat);
        break;
      case 'm':
        if (name == "memcpy_details") out->memcpy_details = plane.Text(stat);
        break;
      case 'h':
        if (name == "hlo_op") {
          out->hlo_op = plane.Text(stat);
        } else if (name == "hlo_module") {
          out->hlo_module = plane.Text(stat);
        }
        break;
      default:
        break;
    }
  }
}

}  // namespace

EventStats ReadEventStats(const PlaneStats& stats, const xplane_pb::XEventMetadata* metadata,
                          const xplane_pb::XEvent& event) {
  EventStats out;
  if (metadata != nullptr) Collect(stats, metadata->stats(), &out);
  Collect(stats, event.stats(), &out);
  return out;
}

}  // namespace tensormorph::xplane
