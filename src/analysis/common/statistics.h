// Statistics over integer nanoseconds shared by the analyses (the timeline's ranks, the job's
// clock offsets and late causes): kept integer, as every time in the model is.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

namespace tensormorph {

// Median of integer ns values: the middle one, or for an even count the mean of the two middle
// ones rounded down to the ns (nsys stats' median, kept integer). None for no values.
std::optional<int64_t> MedianNs(std::vector<int64_t> values);

}  // namespace tensormorph
