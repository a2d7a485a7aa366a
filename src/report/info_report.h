// `tensormorph info`: what each input is (format, version, backends, devices, ranks, span,
// counts per event kind, warnings). JSON schema tensormorph.info/1.
#pragma once

#include <ostream>
#include <vector>

#include "report/output_format.h"
#include "tensormorph/model/trace.h"

namespace tensormorph {

void RenderInfo(std::ostream& out, const std::vector<const Trace*>& traces, OutputFormat format);

}  // namespace tensormorph
