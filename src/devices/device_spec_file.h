// Reading device-spec documents (schema tensormorph.device-spec/1, docs/devices.md): the built-in
// table (src/devices/devices.json, compiled in) and the user's `--device-spec` files share this
// reader, so the table a reviewer reads is the format a user writes.
//
// A figure is a number, or an object that says where it comes from:
//   {"value": 67e12, "confidence": "third-party", "cite": "h100"}   -- cite = a key of "sources"
//   {..., "cite": "h100", "note": "the SXM5 column"}                -- note: appended to the source
//   {"gib": 80, ...} / {"mib": 50, ...}                              -- bytes in binary units
//   {"pcie_x16": 5, "links": 1, "cite": "h100_link"}                 -- derived host link
// Only the built-in table states a confidence, and there every figure and entry must name its
// source; a user's figures are always confidence spec-file.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "tensormorph/devices/device_db.h"

namespace tensormorph {

enum class SpecOrigin {
  kUserFile,      // --device-spec: figures are spec-file, sources default to the file's path
  kBuiltInTable,  // devices.json: every figure states confidence and source
};

// Applies the document `text` to `base` (an entry whose key exists overrides the fields it gives;
// a new key adds a device). Errors name `path`, the entry and the key.
StatusOr<std::vector<DeviceSpec>> ApplySpecDocument(std::string_view text, const std::string& path,
                                                    std::vector<DeviceSpec> base,
                                                    SpecOrigin origin);

// The data rate per direction of `links` PCIe x16 links of `generation` (3, 4 or 5: 8 / 16 / 32
// GT/s per lane, 128b/130b encoding), rounded to whole bytes/s, with the derivation as its source;
// `cited` says where the generation and width come from. Gen6 (FLIT encoding) is not this
// formula: nullopt.
std::optional<Figure> PcieX16Link(int generation, int links, const std::string& cited);

}  // namespace tensormorph
