// One function per record type of the native format: each appends a record's members to an open
// ObjectWriter. Shared by both layouts (which differ only in how records are framed). Devices and
// tracks are given their index as id, which the other records use to refer to them.
#pragma once

#include <cstdint>

#include "export/native/json_text.h"
#include "tensormorph/model/trace.h"

namespace tensormorph::native {

void WriteHeaderMembers(const Trace& trace, ObjectWriter* record);
void WriteDeviceMembers(const Device& device, uint32_t index, ObjectWriter* record);
void WriteTrackMembers(const Track& track, uint32_t index, ObjectWriter* record);
void WriteKernelMembers(const Trace& trace, const Kernel& kernel, ObjectWriter* record);
void WriteTransferMembers(const Trace& trace, const Transfer& transfer, ObjectWriter* record);
void WriteApiCallMembers(const Trace& trace, const ApiCall& call, ObjectWriter* record);
void WriteSliceMembers(const Trace& trace, const Slice& slice, ObjectWriter* record);
void WriteFlowMembers(const Flow& flow, ObjectWriter* record);
void WriteInstantMembers(const Trace& trace, const Instant& instant, ObjectWriter* record);
void WriteCountersMembers(const Trace& trace, const KernelCounters& counters, ObjectWriter* record);

}  // namespace tensormorph::native
