// `tensormorph timeline`: renders a TimelineResult as one block per device (table), JSON (schema
// tensormorph.timeline/1, documented in docs/timeline.md) or CSV (one row per device,
// or one row per gap with `gaps_only`).
#pragma once

#include <ostream>
#include <string>
#include <vector>

#include "io/json_fwd.h"
#include "report/output_format.h"
#include "tensormorph/analysis/timeline/timeline.h"

namespace tensormorph {

struct TimelineRenderOptions {
  OutputFormat format = OutputFormat::kTable;
  bool gaps_only = false;  // CSV: gap rows instead of device rows; table: every gap
  size_t table_gaps = 10;  // table: the longest N gaps per device (all with gaps_only)
};

void RenderTimeline(std::ostream& out, const std::vector<const Trace*>& traces,
                    const TimelineOptions& analysis, const TimelineResult& result,
                    const TimelineRenderOptions& render);

// One device as `timeline --format json` writes it (docs/timeline.md); without its
// gaps' "rows" when `gap_rows` is false (the HTML report's model embeds the gaps its own way). Its
// CSV columns come from the same table (timeline_report.cc).
Json DeviceTimelineJson(const DeviceTimeline& device, bool gap_rows);

// One idle gap: {"start_ns", "end_ns", "length_ns", "before", "after", "cause"}.
Json GapJson(const Gap& gap);

// Why the inputs show no device work, in one sentence.
std::string ExplainNoDeviceWork(const std::vector<const Trace*>& traces);

}  // namespace tensormorph
