#include "import/common/trace_checks.h"

#include <fmt/format.h>

#include <algorithm>
#include <tuple>

#include "io/utf8.h"
#include "model/time.h"

namespace tensormorph {
namespace {

bool SameKernel(const Kernel& a, const Kernel& b) {
  auto key = [](const Kernel& k) {
    return std::tie(k.device, k.stream, k.start_ns, k.duration_ns, k.name, k.link.correlation,
                    k.link.external_id, k.grid.x, k.grid.y, k.grid.z, k.block.x, k.block.y,
                    k.block.z, k.shared_memory_bytes, k.registers_per_thread);
  };
  return key(a) == key(b);
}

bool SameTransfer(const Transfer& a, const Transfer& b) {
  auto key = [](const Transfer& t) {
    return std::tie(t.device, t.stream, t.start_ns, t.duration_ns, t.name, t.link.correlation,
                    t.bytes, t.kind);
  };
  return key(a) == key(b);
}

// Removes rows equal to an earlier row with the same start (duplicates are adjacent or separated
// only by rows of the same start, the sort key's prefix). Returns how many were removed.
template <typename Row, typename Same>
size_t DropDuplicates(std::vector<Row>* rows, Same same) {
  size_t kept = 0;
  for (size_t i = 0; i < rows->size(); ++i) {
    const Row& row = (*rows)[i];
    bool duplicate = false;
    if (row.link.correlation != 0) {
      for (size_t j = kept; j-- > 0;) {
        const Row& earlier = (*rows)[j];
        if (earlier.device != row.device || earlier.stream != row.stream ||
            earlier.start_ns != row.start_ns) {
          break;
        }
        if (same(earlier, row)) {
          duplicate = true;
          break;
        }
      }
    }
    if (!duplicate) (*rows)[kept++] = row;
  }
  const size_t dropped = rows->size() - kept;
  rows->resize(kept);
  return dropped;
}

// Programmatic dependent launch (CUDA compute capability 9.0 and later) lets a kernel start
// while its predecessor on the same stream finishes, so overlaps on one stream are real there.
bool AllowsDependentLaunch(const Trace& trace, uint32_t device) {
  if (device >= trace.devices.size()) return false;
  const Device& d = trace.devices[device];
  return d.backend == Backend::kCuda && d.compute_major >= 9;
}

// Kernels that start before the previous kernel on their stream has ended, counted apart on
// devices with programmatic dependent launch (expected) and on the others (a broken clock or
// stream ids): one warning for each kind found.
void WarnOverlaps(Trace* trace) {
  struct Overlaps {
    uint64_t count = 0;
    int64_t largest = 0;
    size_t example = 0;
  };
  Overlaps found[2];  // [0] other devices, [1] devices with programmatic dependent launch
  const std::vector<Kernel>& kernels = trace->kernels;
  int64_t stream_end = INT64_MIN;
  for (size_t i = 0; i < kernels.size(); ++i) {
    const Kernel& k = kernels[i];
    if (i == 0 || k.device != kernels[i - 1].device || k.stream != kernels[i - 1].stream) {
      stream_end = INT64_MIN;
    }
    if (k.stream >= 0 && k.start_ns < stream_end) {
      const int64_t overlap = std::min(stream_end, k.end_ns()) - k.start_ns;
      Overlaps& o = found[AllowsDependentLaunch(*trace, k.device) ? 1 : 0];
      if (o.count == 0 || overlap > o.largest) {
        o.largest = overlap;
        o.example = i;
      }
      ++o.count;
    }
    stream_end = std::max(stream_end, k.end_ns());
  }
  for (int pdl = 0; pdl < 2; ++pdl) {
    const Overlaps& o = found[pdl];
    if (o.count == 0) continue;
    const Kernel& k = kernels[o.example];
    const std::string what = fmt::format(
        "{} kernels start before the previous kernel on their stream has ended (largest overlap "
        "{}: '{}' on stream {})",
        o.count, FormatDuration(static_cast<double>(o.largest)), trace->str(k.name), k.stream);
    trace->warnings.push_back(
        pdl ? what +
                  "; on compute capability 9.0 and later this is programmatic dependent "
                  "launch (a kernel may start while its predecessor finishes), not a clock "
                  "problem; busy times count the overlap once"
            : what +
                  "; kernels of one stream run in order, so the clock or the stream ids of "
                  "this trace are suspect; busy times count the overlap once");
  }
}

}  // namespace

void CheckDeviceRows(Trace* trace) {
  if (trace->kernel_counters.empty()) {
    const size_t kernels = DropDuplicates(&trace->kernels, SameKernel);
    const size_t transfers = DropDuplicates(&trace->transfers, SameTransfer);
    if (kernels + transfers > 0) {
      trace->warnings.push_back(fmt::format(
          "{} kernel and {} memcpy/memset events appear twice (same stream, time, name and "
          "correlation id); the repeats were dropped",
          kernels, transfers));
    }
  }
  WarnOverlaps(trace);
}

void CheckStrings(Trace* trace) {
  size_t bad_names = 0;
  std::string_view example;
  for (StringId id = 0; id < trace->strings.size(); ++id) {
    size_t replaced = 0;
    const std::string_view text = trace->strings.Get(id);
    RepairUtf8(text, &replaced);
    if (replaced > 0 && bad_names++ == 0) example = text;
  }
  if (bad_names > 0) {
    size_t replaced = 0;
    trace->warnings.push_back(
        fmt::format("{} names hold bytes that are not UTF-8, shown as U+FFFD (e.g. '{}')",
                    bad_names, RepairUtf8(example, &replaced)));
  }
}

}  // namespace tensormorph
