#include "analysis/job/collective_calls.h"

#include <algorithm>
#include <cctype>

#include "analysis/common/device_work.h"

namespace tensormorph {
namespace {

// Lower-case letters and digits only: "c10d::_allgather_base_" -> "c10dallgatherbase".
std::string Compact(std::string_view name) {
  std::string out;
  out.reserve(name.size());
  for (char c : name) {
    if (std::isalnum(static_cast<unsigned char>(c))) {
      out.push_back(static_cast<char>(std::tolower(static_cast<unsigned char>(c))));
    }
  }
  return out;
}

bool StartsWith(std::string_view s, std::string_view prefix) {
  return s.substr(0, prefix.size()) == prefix;
}

// How many levels above the launching op record_param_comms may sit (c10d::op > record_param_comms
// > nccl:op > launch, with a record_function range or two between).
constexpr int kMaxOpDepth = 6;

// What the ops around a kernel's launch say of it.
struct LaunchingOps {
  const CollectiveArgs* args = nullptr;    // the nearest op that has collective arguments
  const OpInputs* comms_inputs = nullptr;  // record_param_comms' recorded inputs
  const OpInputs* range_inputs = nullptr;  // the nccl:<type> annotation's recorded inputs
  std::string_view type_name;              // the nearest nccl:/rccl:/c10d:: op's name
};

LaunchingOps LaunchingOpsOf(const LinkedTrace& linked, uint32_t kernel) {
  const Trace& trace = linked.trace();
  const TraceLinks& links = linked.links();
  LaunchingOps ops;
  // ProcessGroupNCCL's nccl:<type> range is a user annotation around the launch, inside
  // record_param_comms; it records the message as one flat tensor, where record_param_comms may
  // have a TensorList.
  if (const uint32_t launch = links.kernels[kernel].launch; launch != kNoRow) {
    const ApiCall& call = trace.api_calls[launch];
    const uint32_t range =
        EnclosingSlice(trace, links, call.track, call.start_ns, SliceKind::kUserAnnotation);
    if (range != kNoRow) {
      const std::string_view name = trace.str(trace.slices[range].name);
      if (StartsWith(name, "nccl:") || StartsWith(name, "rccl:")) {
        ops.type_name = name;
        ops.range_inputs = trace.inputs_of(trace.slices[range]);
      }
    }
  }
  uint32_t slice = links.kernels[kernel].op;
  for (int depth = 0; slice != kNoRow && depth < kMaxOpDepth; ++depth) {
    const Slice& s = trace.slices[slice];
    const std::string_view name = trace.str(s.name);
    const OpInputs* inputs = trace.inputs_of(s);
    if (ops.args == nullptr && inputs != nullptr && inputs->collective) {
      ops.args = &*inputs->collective;
    }
    if (ops.comms_inputs == nullptr && name == "record_param_comms") ops.comms_inputs = inputs;
    if (ops.type_name.empty() &&
        (StartsWith(name, "nccl:") || StartsWith(name, "rccl:") || StartsWith(name, "c10d::"))) {
      ops.type_name = name;
    }
    slice = links.slice_parent[slice];
  }
  return ops;
}

// An op's first input as a message: its sizes' product x its dtype's bytes. None for
// a TensorList (several shapes), a scalar or an unknown dtype.
std::optional<int64_t> FirstInputBytes(const OpInputs* inputs) {
  if (inputs == nullptr || !inputs->consistent || inputs->args.empty()) return std::nullopt;
  const OpInput& first = inputs->args[0];
  if (first.form != OpInput::DimsForm::kShape || first.dims.empty()) return std::nullopt;
  const int64_t element = ElementBytes(first.dtype);
  if (element == 0) return std::nullopt;
  int64_t bytes = element;
  for (int64_t d : first.dims) {
    if (d != 0 && bytes > INT64_MAX / d) return std::nullopt;
    bytes *= d;
  }
  return bytes;
}

std::optional<int64_t> MessageBytes(const CollectiveArgs& args) {
  const int64_t element = ElementBytes(args.dtype);
  const std::optional<int64_t> nelems = std::max(args.in_nelems, args.out_nelems);
  if (element == 0 || !nelems || *nelems > INT64_MAX / element) return std::nullopt;
  return *nelems * element;
}

}  // namespace

std::string CollectiveType(std::string_view name) {
  // Kernel names end in a parameter list whose words are not the collective's.
  if (const size_t paren = name.find('('); paren != std::string_view::npos) {
    name = name.substr(0, paren);
  }
  const std::string c = Compact(name);
  const auto has = [&c](const char* word) { return c.find(word) != std::string::npos; };
  if (has("reducescatter")) return "reduce_scatter";
  if (has("allreduce")) return "all_reduce";
  if (has("allgather")) return "all_gather";
  if (has("alltoall")) return "all_to_all";
  if (has("broadcast")) return "broadcast";
  if (has("sendrecv") || has("send") || has("recv")) return "send_recv";
  if (has("barrier")) return "barrier";
  if (has("reduce")) return "reduce";
  return "";
}

int64_t ElementBytes(std::string_view dtype) {
  std::string c = Compact(dtype);
  if (StartsWith(c, "c10")) c = c.substr(3);
  if (c == "float" || c == "float32" || c == "int" || c == "int32" || c == "uint32" ||
      c == "unsignedint") {
    return 4;
  }
  if (c == "double" || c == "float64" || c == "long" || c == "longint" || c == "int64" ||
      c == "uint64" || c == "complexfloat") {
    return 8;
  }
  if (c == "half" || c == "float16" || c == "bfloat16" || c == "short" || c == "int16" ||
      c == "uint16") {
    return 2;
  }
  if (c == "char" || c == "signedchar" || c == "unsignedchar" || c == "int8" || c == "uint8" ||
      c == "byte" || c == "bool" || StartsWith(c, "float8")) {
    return 1;
  }
  if (c == "complexdouble") return 16;
  return 0;
}

std::vector<CollectiveCall> CollectiveCallsOf(const LinkedTrace& linked, const JobRank& rank) {
  const Trace& trace = linked.trace();
  std::vector<CollectiveCall> calls;
  for (uint32_t k = 0; k < trace.kernels.size(); ++k) {
    const Kernel& kernel = trace.kernels[k];
    const std::string_view name = trace.str(kernel.name);
    if (ClassifyKernelName(name) != WorkClass::kCommunication || !OnRankDevices(rank, kernel)) {
      continue;
    }
    CollectiveCall call;
    call.kernel = k;
    call.name = name;
    call.stream = kernel.stream;
    call.start_ns = kernel.start_ns;
    call.end_ns = kernel.end_ns();
    const LaunchingOps ops = LaunchingOpsOf(linked, k);
    if (ops.args != nullptr) {
      call.type = CollectiveType(ops.args->name);
      call.process_group = ops.args->process_group;
      call.seq = ops.args->seq;
      call.group_size = ops.args->group_size;
      call.bytes = MessageBytes(*ops.args);
    }
    if (!call.bytes) call.bytes = FirstInputBytes(ops.range_inputs);
    if (!call.bytes) call.bytes = FirstInputBytes(ops.comms_inputs);
    if (call.type.empty() && !ops.type_name.empty()) call.type = CollectiveType(ops.type_name);
    if (call.type.empty()) call.type = CollectiveType(name);
    if (call.type.empty()) call.type = "other";
    calls.push_back(std::move(call));
  }
  std::stable_sort(
      calls.begin(), calls.end(),
      [](const CollectiveCall& a, const CollectiveCall& b) { return a.start_ns < b.start_ns; });
  return calls;
}

}  // namespace tensormorph
