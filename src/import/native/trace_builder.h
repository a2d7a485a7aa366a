// Builds a Trace from the records of a native-format file, in file order. Records refer to
// devices and tracks by the ids their own records gave them, and kernel counters to kernels by
// their position among the kernel records; a reference must come after what it refers to (NDJSON)
// or the JSON layout's tables are read in that order (header, devices, tracks; then the rows;
// then kernel_counters).
#pragma once

#include <simdjson.h>

#include <map>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "import/native/json_fields.h"
#include "tensormorph/model/trace.h"

namespace tensormorph::native {

// Which tables a pass over the JSON layout's top-level object reads.
enum class TablePass { kHeaderDevicesTracks, kRows, kCounters };

class TraceBuilder {
 public:
  explicit TraceBuilder(const std::string& path);

  // The top-level object (the JSON layout's document or the NDJSON header line): header members
  // and, in the JSON layout, the tables that `pass` reads.
  Status ReadTopLevel(simdjson::ondemand::object object, TablePass pass, FieldReader& fields);
  // One record of type `type` (an NDJSON line after the header, or an element of a table) that
  // starts at `record_at`. Unknown types are the caller's to report.
  Status ReadRecord(simdjson::ondemand::object object, std::string_view type, const char* record_at,
                    FieldReader& fields);
  static bool IsRecordType(std::string_view type);
  // A record of a type this version does not know: skipped, and reported once per type.
  void UnknownRecordType(std::string_view type, SourcePosition where);
  // The header must have named the schema before any record is read.
  bool saw_schema() const { return saw_schema_; }

  // Sorts, fills in defaults and returns the trace (FinishImport, which the importer runs next,
  // derives the backends unless backends_given()).
  StatusOr<Trace> Build();
  bool backends_given() const { return backends_given_; }

 private:
  Status ReadHeaderMember(std::string_view key, value v, FieldReader& fields);
  Status ReadTable(std::string_view table, value v, FieldReader& fields);
  Status ReadCounts(value v, FieldReader& fields);
  Status ReadMetadata(value v, bool as_text, FieldReader& fields);
  Status ReadDevice(simdjson::ondemand::object object, const char* record_at, FieldReader& fields);
  Status ReadTrack(simdjson::ondemand::object object, const char* record_at, FieldReader& fields);
  Status ReadKernel(simdjson::ondemand::object object, const char* record_at, FieldReader& fields);
  Status ReadTransfer(simdjson::ondemand::object object, const char* record_at,
                      FieldReader& fields);
  Status ReadApiCall(simdjson::ondemand::object object, const char* record_at, FieldReader& fields);
  Status ReadSlice(simdjson::ondemand::object object, const char* record_at, FieldReader& fields);
  Status ReadFlow(simdjson::ondemand::object object, const char* record_at, FieldReader& fields);
  Status ReadInstant(simdjson::ondemand::object object, const char* record_at, FieldReader& fields);
  Status ReadReportedOccupancy(value v, FieldReader& fields, ReportedOccupancy* out);
  Status ReadCounters(simdjson::ondemand::object object, const char* record_at,
                      FieldReader& fields);
  Status ReadMetric(value v, FieldReader& fields, CounterValue* metric);

  // Index of the device / track a record names by id.
  Status DeviceIndex(value& v, std::string_view key, FieldReader& fields, uint32_t* out);
  Status TrackIndex(value& v, std::string_view key, FieldReader& fields, uint32_t* out);
  uint32_t DefaultTrack();
  // A member this version does not know: skipped, and reported once per record type and name.
  void Unknown(std::string_view key, value& v, FieldReader& fields);

  Trace trace_;
  bool saw_schema_ = false;
  bool backends_given_ = false;
  bool described_count_given_ = false;
  bool format_given_ = false;
  bool counts_given_[16] = {};
  std::unordered_map<int64_t, uint32_t> device_ids_;
  std::unordered_map<int64_t, uint32_t> track_ids_;
  std::unordered_map<std::string, OpInputsId> inputs_by_text_;  // slice.inputs read once each
  std::optional<uint32_t> default_track_;
  struct UnknownField {
    uint64_t count = 0;
    SourcePosition first;
  };
  std::map<std::string, UnknownField> unknown_;
};

}  // namespace tensormorph::native
