#include "export/chrome_json/chrome_json_exporter.h"

#include "export/chrome_json/event_writer.h"
#include "export/chrome_json/json_writer.h"

namespace tensormorph {

Status ChromeJsonExporter::Export(const LinkedTrace& linked, const std::string& output_path) const {
  const Trace& trace = linked.trace();
  chrome_json::JsonFileWriter out(output_path);
  TM_RETURN_IF_ERROR(out.Open());
  chrome_json::EventWriter events(trace, &out);
  events.WriteHeader();
  events.WriteNameEvents();
  events.WriteDeviceWork();
  events.WriteHostWork();
  events.WriteInstants();
  events.WriteFlows();
  events.WriteFooter();
  return out.Finish();
}

}  // namespace tensormorph
