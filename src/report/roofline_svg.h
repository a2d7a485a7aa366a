// The roofline as a chart (`tensormorph roofline --format svg`): log-log axes, one ceiling per
// precision with a peak, the DRAM slope, and a dot per kernel row sized by its total time.
//
// Pure: a RooflineResult in, a self-contained SVG document out (no fonts, scripts or links, an
// explicit white background so that dark viewers show it as drawn). Ceilings come from the rows
// themselves, since a row carries the peak of its own precision: the chart draws those of the
// first device that has peaks and says so in its subtitle when other devices' rows differ.
#pragma once

#include <string>

#include "tensormorph/analysis/roofline.h"

namespace tensormorph {

std::string RenderRooflineSvg(const RooflineResult& result);

}  // namespace tensormorph
