#include "import/nsys/memory_usage.h"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <unordered_map>

#include "import/common/allocation_records.h"

namespace tensormorph::nsys {
namespace {

// ENUM_CUDA_DEV_MEM_EVENT_OPER and ENUM_CUDA_MEM_KIND, stable across the exports we know.
constexpr int64_t kAllocation = 0, kDeallocation = 1;
constexpr int64_t kPageable = 0, kPinned = 1;

struct UsageRow {
  int64_t start = 0;
  int64_t global_pid = 0;
  uint64_t correlation = 0;
  int64_t device_id = 0;
  uint64_t address = 0;
  int64_t bytes = 0;
  int64_t operation = 0;
  int64_t mem_kind = 0;
  // cudaMallocAsync and memory-pool allocations: the pool and its size after the event.
  std::optional<int64_t> pool_address, pool_size;
};

}  // namespace

Status ReadMemoryUsage(ImportContext& context) {
  constexpr std::string_view table = kMemoryUsageTable;
  if (!context.schema().HasTable(table)) return Status::Ok();
  TM_ASSIGN_OR_RETURN(
      sqlite::Statement rows,
      SelectColumns(context.db(), context.schema(), table,
                    {"start", "deviceId", "address", "bytes", "memoryOperationType"},
                    {"globalPid", "correlationId", "memKind", "localMemoryPoolAddress",
                     "localMemoryPoolSize"}));
  const int start = rows.Index("start"), device = rows.Index("deviceId");
  const int address = rows.Index("address"), bytes = rows.Index("bytes");
  const int operation = rows.Index("memoryOperationType"), mem_kind = rows.Index("memKind");
  const int global_pid = rows.Index("globalPid"), correlation = rows.Index("correlationId");
  const int pool = rows.Index("localMemoryPoolAddress");
  const int pool_size = rows.Index("localMemoryPoolSize");

  std::vector<UsageRow> usage;
  uint64_t row = 0;
  for (;;) {
    TM_ASSIGN_OR_RETURN(bool more, context.NextRow(rows, &row));
    if (!more) break;
    const std::optional<int64_t> ts = rows.Int(start), id = rows.Int(device);
    const std::optional<int64_t> size = rows.Int(bytes), op = rows.Int(operation);
    if (!ts || !id || !size || !op || (*op != kAllocation && *op != kDeallocation) || *size < 0 ||
        *size > (int64_t{1} << 50)) {
      context.SkipRow(table, row,
                      "no start, deviceId, bytes or memoryOperationType, or a size beyond 1 PiB");
      continue;
    }
    UsageRow u;
    u.start = *ts;
    u.global_pid = rows.IntOr(global_pid, 0);
    u.correlation = context.ProcessCorrelation(u.global_pid, rows.IntOr(correlation, 0));
    u.device_id = *id;
    u.address = static_cast<uint64_t>(rows.IntOr(address, 0));
    u.bytes = *size;
    u.operation = *op;
    u.mem_kind = rows.IntOr(mem_kind, -1);
    u.pool_address = rows.Int(pool);
    u.pool_size = rows.Int(pool_size);
    if (u.pool_size && (*u.pool_size < 0 || *u.pool_size > (int64_t{1} << 50))) u.pool_size.reset();
    usage.push_back(u);
  }
  if (usage.empty()) return Status::Ok();
  std::stable_sort(usage.begin(), usage.end(),
                   [](const UsageRow& a, const UsageRow& b) { return a.start < b.start; });

  Trace& trace = context.trace();
  std::unordered_map<uint64_t, uint32_t> call_tracks;  // correlation -> the calling thread
  for (const ApiCall& c : trace.api_calls) {
    if (c.link.correlation != 0) call_tracks.emplace(c.link.correlation, c.track);
  }
  std::unordered_map<int64_t, int64_t> ordinals;  // deviceId -> CUDA ordinal
  for (const Device& d : trace.devices) {
    if (d.index >= 0) ordinals.emplace(d.trace_id, d.index);
  }
  AllocationRecordWriter writer(&trace);
  // Memory pools (cudaMallocAsync): each pool's size as its latest event says, by device; their
  // sum is what the device's pools hold, written as the records' reserved total once a pool of
  // the device has been seen.
  std::map<int64_t, std::map<int64_t, int64_t>> pools;  // deviceId -> pool address -> size
  for (const UsageRow& u : usage) {
    std::optional<int64_t> reserved;
    if (u.pool_address && u.pool_size) pools[u.device_id][*u.pool_address] = *u.pool_size;
    if (auto it = pools.find(u.device_id); it != pools.end()) {
      // Each size is at most 1 PiB, and the sum is bounded there: a crafted export's many pools
      // cannot overflow it.
      constexpr int64_t kBound = int64_t{1} << 50;
      int64_t sum = 0;
      for (const auto& [address, size] : it->second) sum = std::min(sum + size, kBound);
      reserved = sum;
    }
    auto call = call_tracks.find(u.correlation);
    const uint32_t track = call != call_tracks.end() ? call->second : context.TrackOf(u.global_pid);
    const bool host = u.mem_kind == kPageable || u.mem_kind == kPinned;
    auto ordinal = ordinals.find(u.device_id);
    const RecordDevice device =
        host ? RecordDevice{kC10Cpu, 0}
             : RecordDevice{kC10Cuda, ordinal != ordinals.end() ? ordinal->second : u.device_id};
    const int64_t process = u.global_pid >> 24;
    if (host) reserved.reset();  // pools hold device memory
    if (u.operation == kAllocation) {
      writer.Allocate(u.start, track, process, device, u.address, u.bytes, reserved);
    } else {
      writer.Free(u.start, track, process, device, u.address,
                  u.bytes > 0 ? std::optional<int64_t>(u.bytes) : std::nullopt, reserved);
    }
  }
  if (writer.unmatched_frees() > 0) {
    trace.warnings.push_back(
        fmt::format("{}: {} deallocations of addresses never allocated in the export and without "
                    "a size were left out of the memory records",
                    table, writer.unmatched_frees()));
  }
  return Status::Ok();
}

}  // namespace tensormorph::nsys
