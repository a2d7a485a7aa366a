// `tensormorph devices`: the device database (built-in table plus --device-spec files), and with
// --match NAME which entry a device name resolves to.
#include <iostream>
#include <memory>

#include "cli/commands.h"
#include "cli/common.h"
#include "report/devices_report.h"
#include "report/output_format.h"
#include "tensormorph/devices/device_db.h"

namespace tensormorph {
namespace {

struct DevicesOptions {
  std::string format = "table";
  std::vector<std::string> spec_files;
  std::string match;
  std::string arch;
  std::string backend;
  int64_t compute_units = 0;
  int64_t memory_bytes = 0;
};

int Run(const DevicesOptions& o) {
  std::vector<DeviceSpec> devices;
  if (int rc = LoadDevices(o.spec_files, &devices); rc != kExitOk) return rc;
  const OutputFormat format = ParseOutputFormat(o.format).value_or(OutputFormat::kTable);
  if (o.match.empty()) {
    RenderDevices(std::cout, o.spec_files, devices, format);
    return kExitOk;
  }
  DeviceQuery q;
  q.name = o.match;
  q.architecture = o.arch;
  q.backend = ParseBackend(o.backend);
  if (o.compute_units > 0) q.compute_units = o.compute_units;
  if (o.memory_bytes > 0) q.memory_bytes = o.memory_bytes;
  RenderDeviceMatch(std::cout, o.spec_files, q, MatchDevice(devices, q), format);
  return kExitOk;
}

}  // namespace

CommandRunner AddDevicesCommand(CLI::App* app) {
  auto options = std::make_shared<DevicesOptions>();
  CLI::App* command = app->add_subcommand(
      "devices",
      "the device database: peak FLOP/s per precision, memory bandwidth and sizes, "
      "each with its source; --match shows what a device name resolves to");
  command->add_option("--format", options->format, "output format")
      ->check(CLI::IsMember({"table", "json", "csv"}))
      ->capture_default_str();
  command->add_option("--device-spec", options->spec_files,
                      "JSON file adding devices or overriding figures (docs/devices.md); "
                      "may be given more than once");
  CLI::Option* match = command->add_option("--match", options->match,
                                           "show which entry this device name resolves to");
  // The rest describe the device being matched, so they only make sense with --match.
  command
      ->add_option("--arch", options->arch,
                   "with --match: architecture or compute capability (sm_80, 8.0, gfx90a)")
      ->needs(match);
  command->add_option("--backend", options->backend, "with --match: the device's backend")
      ->check(CLI::IsMember({"cpu", "cuda", "rocm", "metal", "webgpu", "other"}))
      ->needs(match);
  command
      ->add_option("--compute-units", options->compute_units,
                   "with --match: SMs / CUs / GPU cores the device reports")
      ->check(CLI::PositiveNumber)
      ->needs(match);
  command
      ->add_option("--memory-bytes", options->memory_bytes,
                   "with --match: device memory the runtime reports, in bytes")
      ->check(CLI::PositiveNumber)
      ->needs(match);
  return [options]() { return Run(*options); };
}

}  // namespace tensormorph
