// The built-in device table: src/devices/devices.json, compiled in (cmake/embed_text.cmake) and
// read by the same reader as a user's --device-spec file (device_spec_file.h), in its strict
// built-in mode. Rules for editing devices.json:
//   - never estimate: a figure no cited document gives stays out (the field is simply absent);
//   - FLOP/s are dense peaks; vendor tables that quote sparse tensor rates ("*with sparsity")
//     are halved, and the source says so;
//   - every figure states its confidence and its source ("source": text, or "cite": a key of the
//     file's "sources"); every entry names where its aliases and architecture come from;
//   - derived figures state the formula in their source, and are only as strong as their weakest
//     input; a host link is {"pcie_x16": GEN, "cite": ...} and the reader derives its rate;
//   - memory_bytes is the nominal capacity, the vendor's "GB" read as GiB ("gib": 80);
//   - platform-dependent host links (SXM2 on POWER9, NVLink-C2C) and unified-memory parts (Apple,
//     MI300A, Strix Halo) have no host_link_bytes_per_s.
// Research notes behind the figures: ../shared/reference/other-backends.md §6 and
// ../shared/reference/nvidia.md; the gaps were filled from the documents the sources name.
#include <cstdio>
#include <cstdlib>

#include "devices/device_spec_file.h"
#include "devices/devices_embedded.h"
#include "tensormorph/devices/device_db.h"

namespace tensormorph {

const std::vector<DeviceSpec>& BuiltInDevices() {
  static const std::vector<DeviceSpec> devices = [] {
    StatusOr<std::vector<DeviceSpec>> table = ApplySpecDocument(
        embedded::kDevicesJson, "devices.json (built in)", {}, SpecOrigin::kBuiltInTable);
    if (!table.ok()) {
      // The table is compiled in and device_db_test reads it: this is a build that skipped its
      // tests, and no answer from a half-read table would be right.
      std::fprintf(stderr, "tensormorph: internal error: %s\n", table.status().message().c_str());
      std::abort();
    }
    return std::move(table).value();
  }();
  return devices;
}

}  // namespace tensormorph
