// The parts of a Chrome-JSON export: the header (time base, device properties), the process and
// thread names, the events of every table, and the trace's own metadata keys after the events.
#pragma once

#include <cstdint>
#include <vector>

#include "export/chrome_json/json_writer.h"
#include "tensormorph/model/trace.h"

namespace tensormorph::chrome_json {

// The id each device has in the output: its pid and its "device" arg. The Kineto importer takes
// that id as the device's ordinal and matches deviceProperties "id" against it, so it is the
// ordinal when every device has a distinct one, else the trace's own ids when distinct, else the
// position in Trace::devices.
std::vector<int64_t> ChooseDeviceKeys(const Trace& trace);

// The pid each device's process has in the output: its key (above), unless a host process has
// that pid (a host track of runtime/driver calls, ops, user annotations, python frames or instants
// with that numeric pid); such a device moves to the first pid above every host pid and device
// key. Kineto's own GPU-side tracks (GPU annotations, cuda_sync, flow ends) share their device's
// pid and do not count as host processes.
std::vector<int64_t> ChooseDevicePids(const Trace& trace, const std::vector<int64_t>& keys);

// The time base written as baseTimeNanoseconds; event times are written relative to it, so that
// viewers that parse "ts" as a double (Perfetto, chrome://tracing) keep nanoseconds. The trace's
// own base when it has one that precedes every event, else its start rounded down to a second;
// 0 (no base) for traces with times before the epoch.
int64_t ChooseTimeBase(const Trace& trace);

class EventWriter {
 public:
  EventWriter(const Trace& trace, JsonFileWriter* out);

  void WriteHeader();      // `{` and the keys before "traceEvents"
  void WriteNameEvents();  // process_name / thread_name metadata events
  void WriteDeviceWork();  // kernels, memcpys, memsets
  void WriteHostWork();    // runtime/driver calls, ops, annotations, python frames
  void WriteInstants();    // instant events ("ph":"i"), with their args as the source wrote them
  void WriteFlows();       // the trace's flows, or launch flows rebuilt from correlation ids
  void WriteFooter();      // the trace's metadata keys and `}`
  uint64_t events() const { return events_; }

 private:
  void BeginEvent(char phase, std::string_view category, std::string_view name);
  void TrackIds(uint32_t track);
  void DeviceIds(uint32_t device, int64_t stream);
  void Times(int64_t start_ns, int64_t duration_ns);
  void BeginArgs();                   // `,"args":{`
  void ArgKey(std::string_view key);  // `"key":`, after a comma unless it is the first arg
  void DeviceArgs(uint32_t device, int64_t stream);  // `,"args":{"device":D,"stream":S`
  void LinkArgs(const LinkIds& link);                // correlation and External id, when present
  void FlowFields(uint64_t id, int64_t ts_ns, bool binds_enclosing);
  void DeviceProperties();
  void KernelMetrics(const KernelCounters& counters);  // `,"metrics":{...}`
  int64_t DeviceKey(uint32_t device) const;
  int64_t DevicePid(uint32_t device) const;
  void NameHostProcesses();  // process_name + process_sort_index for each host pid

  const Trace& trace_;
  JsonFileWriter& out_;
  std::vector<int64_t> device_keys_;
  std::vector<int64_t> device_pids_;
  int64_t time_base_ = 0;
  uint64_t events_ = 0;
  bool args_empty_ = true;
};

}  // namespace tensormorph::chrome_json
