// Renders the device database (`tensormorph devices`) and which entry a device name resolves to
// (`devices --match NAME`) as a table, JSON (schema tensormorph.devices/1) or CSV.
#pragma once

#include <ostream>
#include <string>
#include <vector>

#include "io/json_fwd.h"
#include "report/output_format.h"
#include "tensormorph/devices/device_db.h"

namespace tensormorph {

// One entry as `devices --format json` writes it (docs/devices.md).
Json DeviceSpecJson(const DeviceSpec& device);

// The CSV header of the database, in the order the CSV writes it (for tests: the JSON keys it
// flattens).
std::vector<std::string> DeviceSpecCsvHeader();

// Every entry of `devices` (the built-in table with the `spec_files` applied).
void RenderDevices(std::ostream& out, const std::vector<std::string>& spec_files,
                   const std::vector<DeviceSpec>& devices, OutputFormat format);

// What `query` resolved to in the database (MatchDevice's `match`).
void RenderDeviceMatch(std::ostream& out, const std::vector<std::string>& spec_files,
                       const DeviceQuery& query, const DeviceMatch& match, OutputFormat format);

}  // namespace tensormorph
