// Streams TracePackets to a file as the fields of one Trace message: each packet is written as
// field 1 (tag 0x0A, its length as a varint, its bytes), so the file is a valid serialized Trace
// without the whole Trace ever being built in memory. Output goes through the Chrome-JSON
// exporter's buffered file writer (a temporary file renamed into place by Finish()).
#pragma once

#include <string>

#include "export/chrome_json/json_writer.h"
#include "export/perfetto/perfetto_trace.pb.h"
#include "tensormorph/model/status.h"

namespace tensormorph::perfetto_export {

class PacketStream {
 public:
  explicit PacketStream(std::string path) : file_(std::move(path)) {}
  Status Open() { return file_.Open(); }
  // Appends `packet` (on trusted sequence 1) and clears it for reuse.
  void Write(perfetto::TracePacket* packet);
  Status Finish() { return file_.Finish(); }
  uint64_t packets() const { return packets_; }

 private:
  chrome_json::JsonFileWriter file_;  // a plain byte sink despite its name
  std::string scratch_;
  uint64_t packets_ = 0;
};

}  // namespace tensormorph::perfetto_export
