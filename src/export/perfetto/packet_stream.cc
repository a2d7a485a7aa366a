#include "export/perfetto/packet_stream.h"

namespace tensormorph::perfetto_export {
namespace {

constexpr uint32_t kSequenceId = 1;

void AppendVarint(uint64_t value, fmt::memory_buffer& out) {
  while (value >= 0x80) {
    out.push_back(static_cast<char>((value & 0x7F) | 0x80));
    value >>= 7;
  }
  out.push_back(static_cast<char>(value));
}

}  // namespace

void PacketStream::Write(perfetto::TracePacket* packet) {
  packet->set_trusted_packet_sequence_id(kSequenceId);
  scratch_.clear();
  packet->SerializeToString(&scratch_);
  fmt::memory_buffer& out = file_.buffer();
  out.push_back('\x0A');  // Trace.packet: field 1, length-delimited
  AppendVarint(scratch_.size(), out);
  file_.Raw(scratch_);
  file_.MaybeFlush();
  packet->Clear();
  ++packets_;
}

}  // namespace tensormorph::perfetto_export
