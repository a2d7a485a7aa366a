// The NVTX ranges PyTorch writes under torch.autograd.profiler.emit_nvtx(): one per framework op,
// named "<op>, seq = <n>, op_id = <n>[, sizes = [[...], ...]][, input_op_ids = [...]]" (the fields
// after the name vary by version and by record_shapes).
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

namespace tensormorph::nsys {

struct PytorchNvtxRange {
  std::string_view name;   // "aten::mm"
  int64_t op_id = -1;      // -1 when absent
  std::string_view sizes;  // the JSON-like "[[2, 3], [3, 4]]" of record_shapes; empty if absent
};

// nullopt unless the text has the name followed by a ", seq = N" or ", op_id = N" field.
std::optional<PytorchNvtxRange> ParsePytorchNvtxRange(std::string_view text);

}  // namespace tensormorph::nsys
