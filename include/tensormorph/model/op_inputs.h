// The recorded arguments of framework ops (PyTorch's record_shapes=True, ONNX Runtime's
// input_type_shape, the WebGPU logs' input shapes): a typed side table of Trace (Trace::op_inputs,
// referred to by Slice::inputs), filled by the importers and read by the FLOP counter and the
// exporters, which need not parse any JSON for it.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

namespace tensormorph {

// One positional argument of an op, as the profiler recorded it.
struct OpInput {
  // What its entry of the dims list ("Input Dims") held.
  enum class DimsForm : uint8_t {
    kShape,  // a flat list of non-negative integers: a tensor's sizes (also [] for scalars and
             // for absent optional tensors)
    kNull,   // null
    kOther,  // anything else (a TensorList's list of shapes, a size that does not fit int64, a
             // negative or fractional size, text): `dims_json`
  };
  DimsForm form = DimsForm::kShape;
  std::vector<int64_t> dims;  // kShape: the sizes
  std::string dims_json;      // kOther: the entry as compact JSON text
  // "Input Strides" (newer Kineto): the tensor's strides when recorded as a flat integer list;
  // empty otherwise (scalars, TensorLists, traces without strides).
  std::vector<int64_t> strides;
  // "Input type": the tensor's dtype as the profiler spells it ("float", "c10::BFloat16",
  // "float32") or the argument's kind ("Scalar", "ScalarList", "TensorList", ""); "" also when the
  // trace records no types (OpInputs::has_types).
  std::string dtype;
  // "Concrete Inputs": a non-tensor argument's value as recorded ("1", "[1, 1]", "False"); "" when
  // none was given.
  std::string value;

  bool operator==(const OpInput&) const = default;
};

// What PyTorch's record_param_comms op records of a collective (newer Kineto); each field absent
// or "" where the trace does not say. Matching a collective across ranks reads these
// (analysis/job/collectives.h).
struct CollectiveArgs {
  std::string name;                       // "Collective name": "allreduce", "all_to_all", ...
  std::string process_group;              // "Process Group Name" (or "pg_name"): "0"
  std::string process_group_description;  // "Process Group Description": "default_pg"
  std::string dtype;                      // "dtype": "Float", "BFloat16", ...
  std::optional<int64_t> seq;             // "Seq": the collective's number in its group
  std::optional<int64_t> in_nelems, out_nelems;  // "In msg nelems", "Out msg nelems"
  std::optional<int64_t> group_size;             // "Group size"

  bool operator==(const CollectiveArgs&) const = default;
};

// The arguments of one op.
struct OpInputs {
  std::vector<OpInput> args;  // one per entry of the dims list
  bool has_types = false;     // the trace recorded a dtype (or kind) for every argument
  bool has_values = false;    // ... and concrete values ("Concrete Inputs")
  bool has_strides = false;   // ... and strides
  // False when the trace disagrees with itself: a negative or fractional size, a dims list that is
  // not a list, types or values that are not lists of strings as long as the dims. Analyses do not
  // guess at such an op (its `args` hold what could be read).
  bool consistent = true;

  // How the source spelled the lists, for importers that read them as JSON text (Kineto's args,
  // NVTX ranges, native files): exporters copy it byte for byte. Absent for importers that built
  // the lists from values; exporters then write `args` as compact JSON (OpInputListsText).
  struct Spelling {
    std::string dims, types, values;  // each list's JSON text; "" when the source had none
    // False when the text did not read as JSON lists at all: `dims` then holds the whole text
    // (`{"dims": ...}`), which exporters pass on as a string; `args` is empty.
    bool json = true;
    bool operator==(const Spelling&) const = default;
  };
  std::optional<Spelling> spelling;

  // The graph node the call ran, by its name in the model (ONNX Runtime: the event name without
  // "_kernel_time"); "" for sources without a graph. With the op name it identifies the call site
  // across profiles of one model, whatever shapes each execution provider reports (compare.h).
  // tensormorph.trace/1 does not carry it yet.
  std::string node;

  // record_param_comms' collective arguments; absent for every other op. tensormorph.trace/1 does
  // not carry them yet.
  std::optional<CollectiveArgs> collective;

  bool operator==(const OpInputs&) const = default;
};

// The three lists as JSON text, from the spelling if there is one, else from `args`:
// dims [[1,3,8,8],[4]], types ["float32","float16"], values ["","1"]; a list the trace does not
// have is "". `json` false: not JSON (see OpInputs::Spelling), `dims` is the whole text.
struct OpInputListsText {
  std::string dims, types, values;
  bool json = true;
};
OpInputListsText InputListsText(const OpInputs& inputs);

// The lists as one JSON object, as the native format and Perfetto exports write them:
// {"dims": <dims>, "types": <types>, "concrete": <values>}, lists the trace does not have left
// out; the whole text itself when it is not JSON.
std::string OpInputsText(const OpInputs& inputs);

// Slice::inputs: 0 = no recorded inputs, else 1 + the set's position in the table.
using OpInputsId = uint32_t;

// Each distinct set of op arguments once: ops with the same arguments share an id, as they shared
// an interned string before (shapes repeat across a trace's steps).
class OpInputTable {
 public:
  // The id of `inputs`, adding it when no equal set is there yet.
  OpInputsId Add(OpInputs inputs);
  const OpInputs& Get(OpInputsId id) const { return sets_[id - 1]; }
  // Null for 0 or an id past the end.
  const OpInputs* Find(OpInputsId id) const {
    return id == 0 || id > sets_.size() ? nullptr : &sets_[id - 1];
  }
  size_t size() const { return sets_.size(); }
  bool empty() const { return sets_.empty(); }

 private:
  std::vector<OpInputs> sets_;
  std::unordered_multimap<size_t, OpInputsId> index_;  // by HashOf(set)
};

}  // namespace tensormorph
