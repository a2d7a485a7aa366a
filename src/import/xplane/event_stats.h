// Reading XStats: a stat is named by its XStatMetadata (per plane), and a text value is either
// inline (str_value) or a reference to the XStatMetadata whose *name* is the text (ref_value, how
// XLA stores repeated strings such as kernel_details once).
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

#include "import/xplane/xplane.pb.h"

namespace tensormorph::xplane {

using StatList = google::protobuf::RepeatedPtrField<xplane_pb::XStat>;

class PlaneStats {
 public:
  explicit PlaneStats(const xplane_pb::XPlane& plane) : plane_(plane) {}
  std::string_view NameOf(const xplane_pb::XStat& stat) const;
  // Text of a str/bytes/ref stat; empty for numbers and unknown references.
  std::string_view Text(const xplane_pb::XStat& stat) const;
  // A whole number from an int64 / uint64 stat (uint64 keeps its bits); nullopt otherwise.
  std::optional<int64_t> Integer(const xplane_pb::XStat& stat) const;
  // The first stat named `name` in `stats`, or nullptr.
  const xplane_pb::XStat* Find(const StatList& stats, std::string_view name) const;

 private:
  const xplane_pb::XPlane& plane_;
};

// The stats of one event that the importer uses; an event's own stats override those of its
// metadata (XEventMetadata.stats, shared by every event of that name).
struct EventStats {
  uint64_t correlation = 0;
  std::string_view kernel_details, memcpy_details, hlo_op, hlo_module;
};
EventStats ReadEventStats(const PlaneStats& stats, const xplane_pb::XEventMetadata* metadata,
                          const xplane_pb::XEvent& event);

}  // namespace tensormorph::xplane
