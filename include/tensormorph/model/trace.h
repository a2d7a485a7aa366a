// The trace model of DESIGN.md §2: one Trace per input file, with compact row tables.
// Rows refer to strings by StringId, to devices and tracks by index. After import every device
// table is sorted by (device, stream, start) and every host table by (track, start), so that time
// queries are binary searches.
#pragma once

#include <array>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "tensormorph/model/op_inputs.h"
#include "tensormorph/model/string_pool.h"

namespace tensormorph {

enum class Backend : uint8_t { kCpu, kCuda, kRocm, kMetal, kWebGpu, kOther };
const char* BackendName(Backend backend);
std::optional<Backend> ParseBackend(std::string_view name);

constexpr uint32_t kNoDevice = UINT32_MAX;

struct Device {
  Backend backend = Backend::kOther;
  std::string name;      // as the trace reports it, e.g. "NVIDIA A100-SXM4-40GB"
  std::string vendor;    // "NVIDIA", "AMD", "Meta", ... when known
  int64_t trace_id = 0;  // the id the trace uses for it (Kineto: args.device or GPU pid)
  int32_t index = -1;    // the runtime's device ordinal, -1 when the trace does not say
  int32_t compute_major = 0, compute_minor = 0;  // CUDA compute capability / gfx major.minor
  int32_t sm_count = 0;                          // SMs (NVIDIA) or CUs (AMD)
  int32_t warp_size = 0;
  int32_t max_threads_per_sm = 0;
  int32_t registers_per_sm = 0;
  int64_t shared_memory_per_sm = 0;
  int64_t shared_memory_per_block = 0;
  int64_t total_memory_bytes = 0;
  // The architecture by the name its toolchain targets, when the trace says: the CUDA compute
  // capability ("9.0", also in compute_major/minor) or the AMD gfx target ("gfx942", which
  // compute_major/minor cannot tell from gfx940: both are 9.4). "" when unknown. The occupancy
  // calculator reads this.
  std::string arch;
  bool described = false;  // true when the trace carried properties for it
  // Peaks the profiler measured on this device itself (rocprof-compute's roofline microbenchmark),
  // which override the device database; keys and units in src/devices/measured_peaks.h. Empty for
  // most traces.
  std::map<std::string, double> measured_peaks;
  // What measured them, for the roofline's "measured (...)" label: "rocprof-compute roofline.csv".
  std::string measured_peaks_source;
};

struct Dim3 {
  uint32_t x = 0, y = 0, z = 0;
  bool empty() const { return x == 0 && y == 0 && z == 0; }
};

// Who measured (or estimated) a kernel's achieved occupancy and its counters.
enum class CounterSource : uint8_t {
  kNone,            // not given, or by a tool the model does not know (a native file's writer)
  kKinetoEstimate,  // Kineto's "est. achieved occupancy %": computed from the launch, not measured
  kNsightCompute,   // Nsight Compute replayed the launch (ncu --csv)
  kRocprofCompute,  // rocprof-compute's counter passes (a workload folder)
  kRocprofComputeDb,  // rocprof-compute's analysis database
  kRocpd,             // rocprofv3's counter collection, from its rocpd database
};

// Ids that the linking stage joins on; 0 means "absent" for correlation, -1 for external ids.
struct LinkIds {
  uint64_t correlation = 0;
  int64_t external_id = -1;
};

struct Kernel {
  int64_t start_ns = 0;
  int64_t duration_ns = 0;
  LinkIds link;
  StringId name = 0;
  uint32_t device = kNoDevice;  // index into Trace::devices
  int64_t stream = -1;
  Dim3 grid, block;
  uint32_t shared_memory_bytes = 0;         // static + dynamic, as Kineto reports it
  uint16_t registers_per_thread = 0;        // NVIDIA registers; AMD architected VGPRs
  uint16_t accum_registers_per_thread = 0;  // AMD accumulation VGPRs (AGPRs), CDNA only
  uint16_t scalar_registers = 0;            // AMD SGPRs per wave
  uint8_t wave_size = 0;                    // AMD 32 or 64 when the trace says; 0 = unknown
  int8_t achieved_occupancy_percent = -1;   // Kineto's estimate; -1 when absent
  // Where achieved_occupancy_percent came from: Kineto's estimate, or a measurement the importer
  // copied from the kernel's counters (Nsight Compute) for the exporters.
  CounterSource occupancy_source = CounterSource::kNone;
  int64_t end_ns() const { return start_ns + duration_ns; }
};
static_assert(sizeof(Kernel) <= 88, "Kernel rows must stay compact");

// One measured value of a kernel launch, in base units (see src/import/ncu/units.h): bytes, ns,
// Hz, "X/s" rates, percent on 0..100, counts by their word ("inst", "cycle").
struct CounterValue {
  StringId section = 0;  // where the profiler shows it, e.g. "GPU Speed Of Light Throughput"
  StringId name = 0;     // a metric name (dram__bytes_read.sum) or a section's label (Duration)
  StringId unit = 0;     // the base unit, or the unit as written when it is not a known one
  double value = 0;
};

// The profiler's own occupancy calculation for a launch (Nsight Compute's Occupancy section), kept
// for exports that carry the section but not the launch statistics (registers per thread, shared
// memory per block) needed to compute it again. Block limits are blocks per SM each resource
// allows; absent when the export lacks that row.
struct ReportedOccupancy {
  double theoretical_percent = 0;  // 0..100
  std::optional<double> theoretical_warps_per_sm;
  std::optional<int64_t> warps_limit, registers_limit, shared_memory_limit, blocks_limit,
      barriers_limit;
};

// Hardware counters of one kernel launch, from profilers that replay kernels to measure them
// (Nsight Compute). A side table, since most traces have none: Kernel rows stay compact. Absent
// means not collected (or "n/a").
struct KernelCounters {
  uint32_t kernel = 0;  // index into Trace::kernels, in their final (sorted) order
  CounterSource source = CounterSource::kNone;  // the profiler that measured them
  // FLOPs per precision as Nsight Compute's roofline counts them: add + mul + 2 x fma thread
  // instructions (fp16: 2 x add + 2 x mul + 4 x fma, packed half2); set only when all three
  // instruction counts of the precision were collected.
  std::optional<double> fp64_flops, fp32_flops, fp16_flops;
  std::optional<double> tensor_ops;  // tensor-pipe operations (sm__ops_path_tensor_src_*)
  std::optional<double> dram_bytes;  // read + write
  std::optional<double> achieved_occupancy_percent;  // 0..100
  std::optional<uint32_t> registers_per_thread;
  std::optional<uint64_t> shared_memory_bytes;  // per block, static + dynamic
  std::optional<ReportedOccupancy> reported_occupancy;
  // Speed Of Light: compute (SM) and memory throughput, percent of the device's peak sustained
  // rate (0..100), as Nsight Compute measured them.
  std::optional<double> sm_throughput_percent, memory_throughput_percent;
  std::vector<CounterValue> metrics;  // every numeric metric the input had
};

enum class TransferKind : uint8_t { kMemcpy, kMemset };

// Which way a copy went; kUnknown for memsets and copies whose input does not say.
enum class CopyDirection : uint8_t {
  kUnknown,
  kHostToDevice,
  kDeviceToHost,
  kDeviceToDevice,
  kHostToHost,
  kPeerToPeer,  // between two devices
};

// Where a copy's source or destination lives (CUPTI's memory kinds; pageable host memory makes
// a copy blocking and staged through a driver buffer). kUnknown where the input does not say.
enum class MemoryKind : uint8_t {
  kUnknown,
  kPageable,
  kPinned,
  kDevice,
  kArray,
  kManaged,
  kDeviceStatic,
  kManagedStatic,
  kHost,  // host memory whose pinning the trace does not say (ROCm Kineto: "(Device -> Host)")
};

struct Transfer {
  int64_t start_ns = 0;
  int64_t duration_ns = 0;
  LinkIds link;
  uint64_t bytes = 0;
  StringId name = 0;  // e.g. "Memcpy HtoD (Pageable -> Device)"
  uint32_t device = kNoDevice;
  int64_t stream = -1;
  TransferKind kind = TransferKind::kMemcpy;
  // Set by importers whose input has them as fields (Nsight's copyKind, srcKind, dstKind), else
  // read from the name by FinishImport (copy_kinds.h).
  CopyDirection direction = CopyDirection::kUnknown;
  MemoryKind src_memory = MemoryKind::kUnknown, dst_memory = MemoryKind::kUnknown;
};
static_assert(sizeof(Transfer) <= 64, "Transfer rows must stay compact");

// A host thread (or any track keyed by pid/tid); string pids/tids are kept by name.
struct Track {
  int64_t pid = 0;
  int64_t tid = 0;
  std::string pid_name;  // set when the trace used a string pid ("Spans", "CPU functions")
  std::string tid_name;
  std::string thread_name;  // from thread_name metadata
};

enum class ApiKind : uint8_t { kRuntime, kDriver, kSync };

struct ApiCall {
  int64_t start_ns = 0;
  int64_t duration_ns = 0;
  LinkIds link;
  StringId name = 0;  // cudaLaunchKernel, hipExtModuleLaunchKernel, cuLaunchKernel, ...
  uint32_t track = 0;
  ApiKind kind = ApiKind::kRuntime;
};
static_assert(sizeof(ApiCall) <= 48, "ApiCall rows must stay compact");

enum class SliceKind : uint8_t {
  kOp,              // framework operation (cpu_op, Operator, legacy autograd events)
  kUserAnnotation,  // record_function ranges, ProfilerStep#N
  kGpuAnnotation,   // the GPU mirror of a user annotation
  kPythonFunction,  // python stack frames (with_stack)
};

// Host-side ranges: framework ops, annotations, python frames.
struct Slice {
  int64_t start_ns = 0;
  int64_t duration_ns = 0;
  int64_t external_id = -1;
  StringId name = 0;
  // Recorded arguments (record_shapes=True): an id in Trace::op_inputs, shared by the ops with the
  // same arguments; 0 = none.
  OpInputsId inputs = 0;
  uint32_t track = 0;
  SliceKind kind = SliceKind::kOp;
  int64_t end_ns() const { return start_ns + duration_ns; }
};
static_assert(sizeof(Slice) <= 40, "Slice rows must stay compact");

enum class FlowPhase : uint8_t { kStart, kStep, kFinish };
enum class FlowKind : uint8_t {
  kLaunch,  // runtime call -> GPU op (ac2g; async_gpu / async_cpu_to_gpu / async before 2022-10)
  kForwardBackward,  // forward op -> its autograd backward op (fwdbwd)
  kOther,
};

// Flow arrows. Flow ids are only unique within a kind (fwdbwd reuses small integers).
struct Flow {
  int64_t ts_ns = 0;
  uint64_t id = 0;
  uint32_t track = 0;
  FlowKind kind = FlowKind::kOther;
  FlowPhase phase = FlowPhase::kStart;
  bool binds_enclosing = false;  // "bp": "e"
};
static_assert(sizeof(Flow) <= 24, "Flow rows must stay compact");

enum class InstantScope : uint8_t { kThread, kProcess, kGlobal };  // Chrome "s": t / p / g

// Instant events (Chrome "ph": "i" / "I"): Kineto's [memory] allocation records, iteration and
// record-window markers. They have no duration and do not count towards the trace's span.
// Allocator records of other formats (Nsight Systems' memory usage events, rocpd's memory
// allocations) are kept in Kineto's form too: instants named kMemoryRecordName whose args carry
// "Device Type" (c10::DeviceType: 0 CPU, 1 CUDA, 6 HIP), "Device Id" (the device's ordinal),
// "Addr" and "Bytes" (negative on free), so that one reader serves every format and every export
// keeps them (import/common/allocation_records.h).
struct Instant {
  int64_t ts_ns = 0;
  StringId name = 0;
  StringId category = 0;
  StringId args = 0;  // the event's args object as JSON text, as the source wrote it; 0 = none
  uint32_t track = 0;
  InstantScope scope = InstantScope::kThread;
};
static_assert(sizeof(Instant) <= 32, "Instant rows must stay compact");
inline constexpr std::string_view kMemoryRecordName = "[memory]";

// How many events of each kind one input held, including the ones not kept as rows.
struct EventCounts {
  uint64_t kernels = 0, memcpys = 0, memsets = 0;
  uint64_t runtime_calls = 0, driver_calls = 0, sync_events = 0;
  uint64_t ops = 0, annotations = 0, gpu_annotations = 0, python_functions = 0;
  uint64_t flows = 0, metadata = 0, instants = 0, counter_ranges = 0, other = 0;
  uint64_t skipped = 0;  // unreadable events (each also counted in a warning)
};

struct Trace {
  std::string path;
  std::string format;             // "kineto", "pytorch-autograd"
  std::string format_version;     // human-readable era / schema
  std::vector<Backend> backends;  // backends of the devices that ran something, plus cpu
  std::optional<int64_t> rank;
  std::optional<int64_t> world_size;
  std::optional<int64_t> base_time_ns;  // Kineto baseTimeNanoseconds, already added to times
  // Other top-level scalar keys, as JSON text: facts of the source that the info report and the
  // exporters pass on. Analyses do not read them (nor `format`): what they need has a field.
  std::map<std::string, std::string> metadata;
  std::optional<std::string> distributed_backend;  // Kineto's distributedInfo.backend: "nccl"
  // The importer numbered ops and kernels itself, so External ids are exact: a kernel without a
  // launch call belongs to the op its External id names wherever it ran (ONNX Runtime's WebGPU
  // EP); see link/work_links.h.
  bool exact_external_ids = false;
  // The source records GPU kernels only when told to (Nsight Systems without --trace=cuda exports
  // no kernel table), so a trace without kernels may just not have traced them.
  bool kernels_traced_on_request = false;
  // The clock's resolution when the source quantizes timestamps (WebGPU timestamp queries: Chrome
  // rounds to 100 us, Dawn to 65.536 us); differences below it are not real. 0 = exact / unknown.
  int64_t timestamp_resolution_ns = 0;

  StringPool strings;
  std::vector<Device> devices;         // the devices that ran something, by trace id
  int32_t described_device_count = 0;  // devices the trace's header describes (may be idle)
  std::vector<Track> tracks;
  std::vector<Kernel> kernels;
  std::vector<KernelCounters> kernel_counters;  // by kernel index; empty for most formats
  std::vector<Transfer> transfers;
  std::vector<ApiCall> api_calls;
  std::vector<Slice> slices;
  OpInputTable op_inputs;  // the slices' recorded arguments, by Slice::inputs
  std::vector<Flow> flows;
  std::vector<Instant> instants;  // by (track, ts)
  // Kernel names the trace wrote Itanium-mangled, by the id of the demangled name the kernels now
  // carry (src/import/common/kernel_names.h).
  std::map<StringId, StringId> mangled_names;
  EventCounts counts;
  std::vector<std::string> warnings;

  // Earliest start and latest end over every timed row; {0, 0} for an empty trace.
  int64_t span_start_ns = 0;
  int64_t span_end_ns = 0;

  std::string_view str(StringId id) const { return strings.Get(id); }
  // A slice's recorded arguments; null when it has none.
  const OpInputs* inputs_of(const Slice& slice) const { return op_inputs.Find(slice.inputs); }
  bool HasBackend(Backend backend) const;
};

}  // namespace tensormorph
