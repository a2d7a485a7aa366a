// A copy's direction and memory kinds: their names in every output, and how they are read from
// the names importers give copies ("Memcpy HtoD (Pageable -> Device)" from Kineto, "[CUDA memcpy
// Host-to-Device]" from Nsight Systems, "MemcpyD2H" from XPlane, "Memcpy DtoD" from rocprof).
#pragma once

#include <string>
#include <string_view>

#include "tensormorph/model/trace.h"

namespace tensormorph {

// "HtoD", "DtoH", "DtoD", "HtoH", "PtoP", "unknown": the spelling of CUDA's own copy names.
std::string_view CopyDirectionName(CopyDirection direction);
// "pageable", "pinned", "device", "array", "managed", "device_static", "managed_static", "host"
// (pinning not said), "unknown".
std::string_view MemoryKindName(MemoryKind kind);

// "memcpy DtoD (device -> device)": a memcpy's kind as timeline's copy rows, findings and the
// report name it.
std::string MemcpyKindLabel(CopyDirection direction, MemoryKind src, MemoryKind dst);

struct CopyDescription {
  CopyDirection direction = CopyDirection::kUnknown;
  MemoryKind src = MemoryKind::kUnknown, dst = MemoryKind::kUnknown;
};

// What a copy's name says of it; kUnknown for each part the name does not say. The direction is
// a token of the name (HtoD, H2D, Host-to-Device, HOST_TO_DEVICE, Peer-to-Peer, ...), the kinds
// the "(Source -> Destination)" suffix Kineto writes. A direction without kinds implies none:
// "Memcpy HtoD" may have come from pinned or pageable memory.
CopyDescription DescribeCopyName(std::string_view name);

// Fills direction, src_memory and dst_memory of each memcpy that its importer left unknown, from
// its name. Memsets keep kUnknown.
void DescribeCopies(Trace* trace);

}  // namespace tensormorph
