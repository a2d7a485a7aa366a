// rocpd_memory_allocate as the model's `[memory]` records (import/common/allocation_records.h).
// rocprofv3 traces allocations at the HSA level (hsa_memory_allocate, memory pools, virtual
// memory), type ALLOC / FREE / REALLOC / RECLAIM and level REAL / VIRTUAL / SCRATCH. Only REAL
// memory is read: VIRTUAL rows reserve address space without backing it, SCRATCH rows are the
// runtime's per-queue scratch (rocpd's scratch_memory view), neither an allocation of the
// program's. FREE rows carry no size (0) and, from older writers, no agent: the writer finds
// both from the allocation at that address in the process. REALLOC is read as a free of the
// address followed by an allocation of the new size.
#include <fmt/format.h>

#include <algorithm>

#include "import/common/allocation_records.h"
#include "import/rocpd/readers.h"

namespace tensormorph::rocpd {
namespace {

struct AllocationRow {
  int64_t start = 0;
  uint32_t process = 0;
  int64_t tid = 0;
  std::optional<int64_t> agent;
  std::string type;
  uint64_t address = 0;
  int64_t size = 0;
  uint64_t row = 0;  // 1-based, for warnings
};

}  // namespace

Status ReadMemoryAllocations(Context& c) {
  const RocpdSchema& s = c.schema;
  if (!s.Has(kMemoryAllocations)) return Status::Ok();
  TM_RETURN_IF_ERROR(RequireColumns(s, kMemoryAllocations, {"start", "type", "address"}));
  const std::string sql = fmt::format(
      "SELECT {}, {}, {}, {}, M.type AS type, {}, M.start AS start, M.address AS address, {} "
      "FROM {} AS M",
      ColumnOrNull(s, kMemoryAllocations, "M", "guid", "guid"),
      ColumnOrNull(s, kMemoryAllocations, "M", "pid", "pid"),
      ColumnOrNull(s, kMemoryAllocations, "M", "tid", "tid"),
      ColumnOrNull(s, kMemoryAllocations, "M", "agent_id", "agent"),
      ColumnOrNull(s, kMemoryAllocations, "M", "level", "level"),
      ColumnOrNull(s, kMemoryAllocations, "M", "size", "size"), s.Source(kMemoryAllocations));
  TM_ASSIGN_OR_RETURN(Statement q, c.db.Prepare(sql, "table rocpd_memory_allocate"));
  std::vector<AllocationRow> rows;
  uint64_t row = 0;
  for (;;) {
    TM_ASSIGN_OR_RETURN(bool more, q.Step());
    if (!more) break;
    ++row;
    const std::string level(q.Text(5).value_or("REAL"));
    if (level != "REAL") continue;  // address space and scratch: see the header
    AllocationRow r;
    r.type = std::string(q.Text(4).value_or(""));
    const std::optional<int64_t> start = q.Int(6), address = q.Int(7);
    r.size = q.IntOr(8, 0);
    if (!start || *start < 0 || *start > (int64_t{1} << 62) || !address || r.size < 0 ||
        r.size > (int64_t{1} << 50) ||
        (r.type != "ALLOC" && r.type != "FREE" && r.type != "REALLOC" && r.type != "RECLAIM")) {
      c.checks.Skip(kMemoryAllocations, row,
                    "no start or address, a size below 0 or beyond 1 PiB, or a type other than "
                    "ALLOC, FREE, REALLOC, RECLAIM");
      continue;
    }
    r.start = *start;
    r.address = static_cast<uint64_t>(*address);
    r.process = c.processes.Of(q.Text(0).value_or(""), q.IntOr(1, 0));
    r.tid = q.IntOr(2, 0);
    r.agent = q.Int(3);
    r.row = row;
    rows.push_back(std::move(r));
  }
  std::stable_sort(rows.begin(), rows.end(), [](const AllocationRow& a, const AllocationRow& b) {
    return a.start < b.start;
  });
  AllocationRecordWriter writer(&c.trace);
  for (const AllocationRow& r : rows) {
    std::optional<RecordDevice> device;
    if (r.agent && c.processes.IsCpuAgent(r.process, *r.agent)) {
      device = RecordDevice{kC10Cpu, 0};
    } else if (r.agent) {
      if (const uint32_t d = c.processes.Device(r.process, *r.agent); d != kNoDevice) {
        device = RecordDevice{kC10Hip, c.trace.devices[d].index};
      }
    }
    const uint32_t track = c.processes.Track(r.process, r.tid);
    if (r.type != "ALLOC") {  // FREE, RECLAIM, and the free half of REALLOC
      const bool sized = r.type != "REALLOC" && r.size > 0;
      const std::optional<RecordDevice> freed =
          writer.Free(r.start, track, r.process, device, r.address,
                      sized ? std::optional<int64_t>(r.size) : std::nullopt);
      if (!device) device = freed;  // a REALLOC without an agent stays where it was
    }
    if (r.type == "ALLOC" || r.type == "REALLOC") {
      if (device && r.size > 0) {
        writer.Allocate(r.start, track, r.process, *device, r.address, r.size);
      } else {
        c.checks.Skip(kMemoryAllocations, r.row, "an allocation without a known agent or size");
      }
    }
  }
  if (writer.unmatched_frees() > 0) {
    c.trace.warnings.push_back(fmt::format(
        "rocpd_memory_allocate: {} frees of addresses never allocated in the database (and "
        "without a size or agent of their own) were left out of the memory records",
        writer.unmatched_frees()));
  }
  return Status::Ok();
}

}  // namespace tensormorph::rocpd
