// A program that uses Tensormorph as an installed library: only <tensormorph/tensormorph.h>.
// It loads the trace named on the command line, links it once, and prints its kernel summary and
// the timeline of its first device, one "key value" per line; tests/install/install_test.sh
// compares them with `tensormorph kernels --format json` and `tensormorph timeline --format json`.
#include <tensormorph/tensormorph.h>

#include <cstdio>

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: %s TRACE\n", argv[0]);
    return 2;
  }
  tensormorph::StatusOr<tensormorph::Trace> trace = tensormorph::LoadTrace(argv[1], {});
  if (!trace.ok()) {
    std::fprintf(stderr, "%s\n", trace.status().message().c_str());
    return 1;
  }
  const tensormorph::LinkedTrace linked(*trace);

  tensormorph::KernelSummary kernels = tensormorph::SummarizeKernels({&linked}, {});
  tensormorph::TimelineResult timeline = tensormorph::AnalyzeTimeline({&linked}, {});
  if (kernels.rows.empty() || timeline.devices.empty()) {
    std::fprintf(stderr, "no kernels\n");
    return 1;
  }
  const tensormorph::KernelRow& top = kernels.rows[0];
  std::printf("kernel_count %llu\n", static_cast<unsigned long long>(kernels.kernel_count));
  std::printf("total_ns %lld\n", static_cast<long long>(kernels.total_ns));
  std::printf("top_kernel_count %llu\n", static_cast<unsigned long long>(top.count));
  std::printf("top_kernel_total_ns %lld\n", static_cast<long long>(top.total_ns));
  std::printf("top_kernel %s\n", top.name.c_str());
  const tensormorph::DeviceTimeline& device = timeline.devices[0];
  std::printf("device_busy_ns %lld\n", static_cast<long long>(device.busy_ns));
  std::printf("device_launch_p50_ns %lld\n", static_cast<long long>(device.launch.p50_ns));
  std::printf("device_steps %zu\n", device.steps.size());
  return 0;
}
