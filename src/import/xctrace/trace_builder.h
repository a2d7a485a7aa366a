// Turns the tables of an xctrace export (xml_tables.h) into the model. See docs/metal.md.
//
//  * metal-gpu-intervals: each top-level row (event-depth 0 or absent) is a Kernel on the Metal
//    device its `gpu` column names. Nested rows (event-depth > 0) lie inside a top-level row of
//    the same channel and are not kernels (counting both would count that GPU time twice); they
//    are counted as gpu_annotations. A nested row that overlaps no top-level row of its channel
//    (its parent outside the recording) is kept as a kernel.
//  * stream = pid * 16 + channel: 0 Compute, 1 Vertex, 2 Fragment, 3 Blit, then 4..15 for other
//    channel names in order of first appearance (15 also for any beyond), so each process gets
//    its own lanes and the numbering of the known channels never depends on the file.
//  * Rows of every process are kept (the tables hold WindowServer and other apps too); the trace
//    warns and lists the processes when there are several.
//  * kernel name: the encoder's label from the encoder list (joined by encoder-id), else the
//    event label without its " (process (pid))" and trailing " 0x..." address, else the channel
//    subtitle.
//  * metal-application-encoders-list rows are runtime calls on the encoding thread, with
//    correlation = encoder-id, as are the kernels': `kernels`/`timeline` link them as launches.
//    Command-buffer submissions are runtime calls without a correlation.
#pragma once

#include "import/xctrace/xml_tables.h"
#include "tensormorph/import/importer.h"

namespace tensormorph::xctrace {

// Fills `trace` (path and format set) from the document; errors when the document has no usable
// metal-gpu-intervals table.
Status BuildXctraceTrace(const XmlDocument& doc, const ImportOptions& options, Trace* trace);

// "Command Buffer 0:Compute Command 0 (python (99926)) 0x4e18" -> "Command Buffer 0:Compute
// Command 0".
std::string KernelNameFromEventLabel(std::string_view label);

}  // namespace tensormorph::xctrace
