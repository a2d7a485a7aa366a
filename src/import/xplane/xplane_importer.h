// XLA profiler XSpace files (<host>.xplane.pb), as written by jax.profiler / TensorBoard's
// profiler plugin / PyTorch-XLA, and JAX profile log dirs holding them (profile_dir.h).
// Mapping (docs/jax.md): "/device:GPU:N" planes -> devices; their "Stream #N(...)" lines ->
// kernels and copies; the "/host:CPU" plane -> threads, launch calls (correlation_id), python
// frames and annotations; each kernel's hlo_op -> an op around its launch call (hlo_ops.h).
#pragma once

#include "tensormorph/import/importer.h"

namespace tensormorph::xplane {

class XplaneImporter final : public Importer {
 public:
  std::string_view name() const override { return "jax-xplane"; }
  std::string_view description() const override {
    return "JAX / XLA profiler XSpace (<host>.xplane.pb) or a JAX profile log dir";
  }
  int Sniff(std::string_view head) const override;
  int SniffFolder(const std::string& folder) const override;
  std::string_view folder_description() const override { return "JAX profile log dirs"; }
  StatusOr<Trace> Import(const Input& input, const ImportOptions& options) const override;
};

// How sure we are that `head` starts a serialized XSpace: its first field is a plane (field 1,
// length-delimited) whose name (field 2, after an optional id) is a profiler plane name
// ("/host:...", "/device:...", "Task Environment"). Protobuf has no magic number; this is the
// strictest test the wire format allows.
int SniffXSpace(std::string_view head);

}  // namespace tensormorph::xplane
