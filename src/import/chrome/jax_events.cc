#include "import/chrome/jax_events.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <optional>

#include "import/common/hlo_ops.h"
#include "import/common/kernel_details.h"

namespace tensormorph::chrome {
namespace {

bool StartsWithNoCase(std::string_view text, std::string_view lower_prefix) {
  if (text.size() < lower_prefix.size()) return false;
  for (size_t i = 0; i < lower_prefix.size(); ++i) {
    if (std::tolower(static_cast<unsigned char>(text[i])) != lower_prefix[i]) return false;
  }
  return true;
}

// The decimal number right after `prefix` ("/device:GPU:3" -> 3, "Stream #16(Kernel)" -> 16).
std::optional<int64_t> NumberAfter(std::string_view text, std::string_view prefix) {
  if (!text.starts_with(prefix)) return std::nullopt;
  text.remove_prefix(prefix.size());
  int64_t n = 0;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), n);
  if (ec != std::errc() || end == text.data() || n < 0) return std::nullopt;
  return n;
}

}  // namespace

JaxEvents ClassifyUntypedEvents(MergedChunks& merged, Trace* trace) {
  JaxEvents jax;
  xplane::HloOpIndex hlo_ops;
  std::map<int64_t, uint32_t> device_of_ordinal;
  auto process_name = [&](int64_t pid) -> std::string_view {
    auto it = merged.process_names.find(pid);
    return it == merged.process_names.end() ? std::string_view() : it->second;
  };
  EventCounts& counts = trace->counts;
  for (const UntypedEvent& u : merged.untyped) {
    const TrackKey& key = merged.track_keys[u.track];
    const std::string_view process = process_name(key.pid);
    const std::string_view name = trace->str(u.name);
    if (std::optional<int64_t> ordinal = NumberAfter(process, "/device:GPU:")) {
      auto thread = merged.thread_names.find(key);
      const std::optional<int64_t> stream = thread == merged.thread_names.end()
                                                ? std::nullopt
                                                : NumberAfter(thread->second, "Stream #");
      if (!stream || *ordinal > INT32_MAX) {
        ++counts.other;  // derived rows (XLA Ops, Steps) repeat what the streams hold
        continue;
      }
      auto [it, inserted] = device_of_ordinal.try_emplace(*ordinal, 0);
      if (inserted) {
        // The device key is the ordinal itself, kept apart from any Kineto key by the map below.
        it->second = static_cast<uint32_t>(merged.device_keys.size());
        merged.device_keys.push_back(*ordinal);
        jax.ordinal_of_device_key[*ordinal] = static_cast<int32_t>(*ordinal);
      }
      ++jax.gpu_events;
      hlo_ops.Add(u.correlation, trace->str(u.hlo_op), trace->str(u.hlo_module), trace);
      const bool memset = StartsWithNoCase(name, "memset");
      if (memset || StartsWithNoCase(name, "memcpy") || StartsWithNoCase(name, "copy")) {
        Transfer t;
        t.start_ns = u.start_ns;
        t.duration_ns = u.duration_ns;
        t.link.correlation = u.correlation;
        t.name = u.name;
        t.device = it->second;
        t.stream = *stream;
        t.kind = memset ? TransferKind::kMemset : TransferKind::kMemcpy;
        trace->transfers.push_back(t);
        ++(memset ? counts.memsets : counts.memcpys);
        continue;
      }
      Kernel k;
      k.start_ns = u.start_ns;
      k.duration_ns = u.duration_ns;
      k.link.correlation = u.correlation;
      k.name = u.name;
      k.device = it->second;
      k.stream = *stream;
      if (u.kernel_details != 0) {
        xplane::ApplyKernelDetails(xplane::ParseKernelDetails(trace->str(u.kernel_details)), &k);
      }
      trace->kernels.push_back(k);
      ++counts.kernels;
      continue;
    }
    if (!process.starts_with("/host:")) {
      ++counts.other;
      continue;
    }
    ++jax.host_events;
    if (u.correlation != 0) {
      hlo_ops.Add(u.correlation, trace->str(u.hlo_op), trace->str(u.hlo_module), trace);
      ApiCall call;
      call.start_ns = u.start_ns;
      call.duration_ns = u.duration_ns;
      call.link.correlation = u.correlation;
      call.name = u.name;
      call.track = u.track;
      trace->api_calls.push_back(call);
      ++counts.runtime_calls;
      continue;
    }
    Slice s;
    s.start_ns = u.start_ns;
    s.duration_ns = u.duration_ns;
    s.name = u.name;
    s.track = u.track;
    if (name.starts_with("$")) {
      s.kind = SliceKind::kPythonFunction;
      ++counts.python_functions;
    } else {
      s.kind = SliceKind::kUserAnnotation;
      ++counts.annotations;
    }
    trace->slices.push_back(s);
  }
  merged.untyped.clear();
  merged.untyped.shrink_to_fit();
  if (jax.any()) hlo_ops.AddOpSlices(trace);
  return jax;
}

void NumberJaxDevices(const JaxEvents& jax, Trace* trace) {
  for (Device& d : trace->devices) {
    auto it = jax.ordinal_of_device_key.find(d.trace_id);
    if (it != jax.ordinal_of_device_key.end()) d.index = it->second;
  }
}

}  // namespace tensormorph::chrome
