// Chrome Trace Event JSON: the PyTorch profiler (Kineto, every schema since 2021), the legacy
// autograd profiler export, and other producers of the same format. .json or .json.gz.
#pragma once

#include "tensormorph/import/importer.h"

namespace tensormorph::chrome {

class ChromeImporter final : public Importer {
 public:
  std::string_view name() const override { return "chrome-json"; }
  std::vector<std::string_view> format_names() const override {
    return {"chrome-json", "kineto", "jax-json", "pytorch-autograd"};
  }
  std::string_view description() const override {
    return "PyTorch profiler (Kineto) / Chrome trace JSON, .json or .json.gz";
  }
  int Sniff(std::string_view head) const override;
  StatusOr<Trace> Import(const Input& input, const ImportOptions& options) const override;
};

}  // namespace tensormorph::chrome
