#include "import/rocprof/rocprof_importer.h"

#include <fmt/format.h>

#include <algorithm>
#include <filesystem>

#include "import/common/finish_import.h"
#include "import/rocprof/api_calls.h"
#include "import/rocprof/common/agents.h"
#include "import/rocprof/common/kernels.h"
#include "import/rocprof/compute/workload.h"
#include "import/rocprof/copies.h"
#include "import/rocprof/json_trace.h"
#include "import/rocprof/siblings.h"
#include "import/rocprof/side_files.h"
#include "import/rocprof/sysinfo.h"
#include "import/rocprof/v1_chrome_trace.h"
#include "import/rocprof/v1_results_db.h"
#include "io/sqlite_db.h"
#include "tensormorph/io/block_reader.h"

namespace tensormorph::rocprof {
namespace {

constexpr int64_t kSameRunGapNs = int64_t{3600} * 1000 * 1000 * 1000;  // one hour

const char* KindFileName(CsvKind kind) {
  switch (kind) {
    case CsvKind::kKernels:
      return "kernel_trace.csv";
    case CsvKind::kMemoryCopy:
      return "memory_copy_trace.csv";
    case CsvKind::kHipApi:
      return "hip_api_trace.csv";
    case CsvKind::kAgentInfo:
      return "agent_info.csv";
    default:
      return "csv";
  }
}

std::string FileName(const std::string& path) {
  return std::filesystem::path(path).filename().string();
}

// How many rows each table had before a file was read, to take a file back out.
struct Mark {
  size_t kernels, transfers, api_calls, tracks, devices;
  EventCounts counts;
  explicit Mark(const Trace& t)
      : kernels(t.kernels.size()),
        transfers(t.transfers.size()),
        api_calls(t.api_calls.size()),
        tracks(t.tracks.size()),
        devices(t.devices.size()),
        counts(t.counts) {}
};

struct Span {
  int64_t start = INT64_MAX, end = INT64_MIN;
  bool empty() const { return start > end; }
  template <typename Row>
  void Add(const std::vector<Row>& rows, size_t from) {
    for (size_t i = from; i < rows.size(); ++i) {
      start = std::min(start, rows[i].start_ns);
      end = std::max(end, rows[i].start_ns + rows[i].duration_ns);
    }
  }
};

Span SpanSince(const Trace& t, const Mark& m) {
  Span s;
  s.Add(t.kernels, m.kernels);
  s.Add(t.transfers, m.transfers);
  s.Add(t.api_calls, m.api_calls);
  return s;
}

void Rollback(const Mark& m, Trace* t) {
  t->kernels.resize(m.kernels);
  t->transfers.resize(m.transfers);
  t->api_calls.resize(m.api_calls);
  t->tracks.resize(m.tracks);
  t->devices.resize(m.devices);
  t->counts = m.counts;
}

Status ReadRows(CsvKind kind, CsvFile* file, DeviceResolver* devices, Trace* trace,
                Warnings* warnings) {
  switch (kind) {
    case CsvKind::kKernels:
      return ReadKernels(file, devices, trace, warnings);
    case CsvKind::kMemoryCopy:
      return ReadMemoryCopies(file, devices, trace, warnings);
    case CsvKind::kHipApi:
      return ReadApiCalls(file, trace, warnings);
    default:
      return Status::Ok();
  }
}

CsvKind KindOf(const CsvFile& file) {
  return ClassifyHeader(Columns(file.header()));
}

// At most 40 bytes of a header field, with anything but printable ASCII as '?', for a message
// about a file that may be binary.
std::string Printable(const std::string& field) {
  std::string out = field.substr(0, 40);
  for (char& c : out) {
    if (c < 0x20 || c > 0x7e) c = '?';
  }
  return out;
}

Status NotRocprof(const std::vector<std::string>& header) {
  std::string first;
  for (size_t i = 0; i < std::min<size_t>(header.size(), 4); ++i) {
    first += fmt::format("{}\"{}\"", i == 0 ? "" : ",", Printable(header[i]));
  }
  return UnreadableInput(
      fmt::format("not a rocprof CSV header (starts {}); expected rocprofv3 kernel_trace.csv "
                  "(\"Kind\",\"Agent_Id\",...,\"Kernel_Name\",...), memory_copy_trace.csv, "
                  "hip_api_trace.csv, or rocprof v1/v2 results.csv (Index,KernelName,... / "
                  "Dispatch_ID,GPU_ID,...)",
                  first),
      SourcePosition{1, 1});
}

// " (why it could not be opened)" for a sibling file that could not be, else nothing.
std::string WhyNot(const StatusOr<std::unique_ptr<CsvFile>>& file) {
  return file.ok() ? std::string() : " (" + file.status().message() + ")";
}

// The rocprofv3 kernel_trace.csv files of a folder or of its only subfolder (`<host>/`).
std::vector<std::string> KernelTraceFiles(const std::string& folder) {
  namespace fs = std::filesystem;
  std::vector<std::string> found, subfolders;
  std::error_code ec;
  for (const fs::directory_entry& entry : fs::directory_iterator(folder, ec)) {
    std::error_code type_ec;
    const std::string name = entry.path().filename().string();
    if (entry.is_directory(type_ec)) subfolders.push_back(entry.path().string());
    if (entry.is_regular_file(type_ec) && name.ends_with("kernel_trace.csv")) {
      found.push_back(entry.path().string());
    }
  }
  if (found.empty() && subfolders.size() == 1) return KernelTraceFiles(subfolders[0]);
  std::sort(found.begin(), found.end());
  return found;
}

}  // namespace

int RocprofImporter::SniffFolder(const std::string& folder) const {
  const int workload = compute::SniffWorkloadFolder(folder);
  if (workload > 0) return workload;
  return KernelTraceFiles(folder).empty() ? 0 : 90;
}

int RocprofImporter::Sniff(std::string_view head) const {
  if (head.starts_with("\xEF\xBB\xBF")) head.remove_prefix(3);
  if (LooksLikeV1ResultsDb(head)) return 100;
  if (head.starts_with("{")) {
    // rocprof v1's results.json is a traceEvents document too: above the Chrome reader's 100.
    if (LooksLikeV1ChromeTrace(head)) return 110;
    return head.find("\"rocprofiler-sdk-tool\"") != std::string_view::npos ? 100 : 0;
  }
  if (ClassifySideFile(head) != SideFile::kNone) return 80;  // Import() says what it is
  const size_t end = head.find_first_of("\r\n");
  if (end == std::string_view::npos && head.size() >= (64 << 10)) return 0;
  CsvReader reader(head.substr(0, end));
  CsvRecord header;
  if (!reader.Next(&header)) return 0;
  switch (ClassifyHeader(Columns(header.fields))) {
    case CsvKind::kNone:
      return 0;
    case CsvKind::kCounterCollection:
      return 90;  // Import() explains why it is not read
    default:
      return 100;
  }
}

StatusOr<Trace> RocprofImporter::Import(const Input& input, const ImportOptions& options) const {
  const std::string& path = input.path();
  if (input.is_folder()) {
    if (compute::SniffWorkloadFolder(path) > 0) return compute::ImportWorkload(input, path);
    const std::vector<std::string> traces = KernelTraceFiles(path);
    if (traces.size() != 1) {
      return UnreadableInput(
          traces.empty()
              ? "this folder holds neither a rocprof-compute workload (pmc_perf.csv) nor a "
                "rocprofv3 kernel_trace.csv"
              : fmt::format("this folder holds {} rocprofv3 kernel_trace.csv files (one per "
                            "process, e.g. {}): name one of them",
                            traces.size(), traces.front()));
    }
    TM_ASSIGN_OR_RETURN(Input trace_file, input.Related(traces.front()));
    return Import(trace_file, options);
  }
  TM_ASSIGN_OR_RETURN(std::string head, input.Head(64 << 10));
  if (head.starts_with("\xEF\xBB\xBF")) head.erase(0, 3);
  if (head.starts_with(sqlite::kSqliteMagic)) {
    if (LooksLikeV1ResultsDb(head)) return ImportV1ResultsDb(input);
    return UnreadableInput(
        "an SQLite database without rocprof v1's KERN table: not a rocprof results.db (a "
        "rocprofv3 database is read as rocpd, an Nsight Systems export as nsys)");
  }
  if (head.starts_with("{")) {
    return LooksLikeV1ChromeTrace(head) ? ImportV1ChromeTrace(input) : ImportRocprofJson(input);
  }
  if (const SideFile side = ClassifySideFile(head); side != SideFile::kNone) {
    return ImportSideFile(side, input);
  }

  TM_ASSIGN_OR_RETURN(std::unique_ptr<CsvFile> opened, CsvFile::Open(input, path));
  CsvFile& primary = *opened;
  const CsvKind kind = KindOf(primary);
  if (kind == CsvKind::kNone) return NotRocprof(primary.header());
  // rocprof-compute's counter file; through rocpd (ROCm 7) it has one row per (dispatch,
  // counter), a counter collection's layout, which the workload reader pivots.
  if ((kind == CsvKind::kKernels || kind == CsvKind::kCounterCollection) &&
      compute::IsWorkloadCounterFile(path, primary.header())) {
    return compute::ImportWorkload(input, path);
  }
  // rocprof-compute's timestamps.csv is read with its workload (the counters and the device).
  if (const std::string folder = std::filesystem::path(path).parent_path().string();
      FileName(path) == "timestamps.csv" &&
      compute::SniffWorkloadFolder(folder.empty() ? "." : folder) == 100) {
    return compute::ImportWorkload(input, folder.empty() ? "." : folder);
  }
  if (kind == CsvKind::kCounterCollection) {
    return UnreadableInput(
        "a rocprofv3 counter_collection.csv has one row per (dispatch, counter), and no times "
        "before ROCm 6.4: read the run's kernel_trace.csv (rocprofv3 --kernel-trace) instead",
        SourcePosition{1, 1});
  }

  Trace trace;
  trace.path = path;
  trace.format = "rocprof";
  Warnings warnings;
  std::vector<AgentInfo> agents;
  const std::vector<Sibling> siblings = FindSiblings(path, kind);
  std::vector<std::string> used;  // sibling file names read

  // Agent info first: every other file resolves its agent ids against it.
  if (kind == CsvKind::kAgentInfo) {
    TM_RETURN_IF_ERROR(ReadAgentInfo(&primary, &warnings, &agents));
  }
  for (const Sibling& s : siblings) {
    if (s.kind != CsvKind::kAgentInfo) continue;
    StatusOr<std::unique_ptr<CsvFile>> file = CsvFile::Open(input, s.path);
    if (!file.ok() || KindOf(**file) != CsvKind::kAgentInfo) {
      warnings.File(s.path, "not a readable rocprofv3 agent_info.csv" + WhyNot(file) +
                                ": devices stay unnamed");
      continue;
    }
    Status read = ReadAgentInfo(file.value().get(), &warnings, &agents);
    if (!read.ok()) {
      warnings.File(s.path, "could not be read: " + read.message());
      agents.clear();
      continue;
    }
    used.push_back(FileName(s.path));
  }
  // rocprof v1 keeps rocminfo's text beside results.csv instead (results.sysinfo.txt).
  if (agents.empty() && kind == CsvKind::kKernels) {
    std::string warning;
    SysinfoAgents sysinfo = ReadSysinfoBeside(input, &warning);
    if (!warning.empty()) trace.warnings.push_back(warning);
    if (!sysinfo.file_name.empty()) used.push_back(sysinfo.file_name);
    agents = std::move(sysinfo.agents);
  }
  DeviceResolver devices(agents, &trace);

  const Mark before_primary(trace);
  TM_RETURN_IF_ERROR(ReadRows(kind, &primary, &devices, &trace, &warnings));
  const Span primary_span = SpanSince(trace, before_primary);

  for (const Sibling& s : siblings) {
    if (s.kind == CsvKind::kAgentInfo) continue;
    StatusOr<std::unique_ptr<CsvFile>> file = CsvFile::Open(input, s.path);
    if (!file.ok() || KindOf(**file) != s.kind) {
      warnings.File(s.path, fmt::format("not a readable rocprofv3 {}{}: not used",
                                        KindFileName(s.kind), WhyNot(file)));
      continue;
    }
    const Mark mark(trace);
    Status read = ReadRows(s.kind, file.value().get(), &devices, &trace, &warnings);
    const Span span = SpanSince(trace, mark);
    if (!read.ok()) {
      Rollback(mark, &trace);
      devices.Forget(mark.devices);
      warnings.File(s.path, "could not be read, not used: " + read.message());
      continue;
    }
    if (!primary_span.empty() && !span.empty()) {
      const int64_t gap = std::max(span.start - primary_span.end, primary_span.start - span.end);
      if (gap > kSameRunGapNs) {
        Rollback(mark, &trace);
        devices.Forget(mark.devices);
        warnings.File(s.path, fmt::format("its times lie {:.1f} hours away from {}'s: from another "
                                          "run, not used",
                                          static_cast<double>(gap) / 3.6e12, FileName(path)));
        continue;
      }
    }
    used.push_back(FileName(s.path));
  }

  trace.format_version = kind == CsvKind::kKernels
                             ? DescribeKernelHeader(Columns(primary.header()))
                             : fmt::format("rocprofv3 {}", KindFileName(kind));
  if (!used.empty()) {
    std::string list;
    for (const std::string& u : used) list += (list.empty() ? "" : ", ") + u;
    trace.format_version += "; with " + list;
  }
  for (const AgentInfo& a : agents) trace.described_device_count += a.gpu ? 1 : 0;
  if (trace.counts.kernels == 0 && kind == CsvKind::kKernels) {
    warnings.File(path, "no kernel dispatch rows");
  }
  warnings.AppendTo(&trace.warnings);
  FinishImport(&trace, {.backends = {.deviceless = Backend::kRocm}});
  return trace;
}

}  // namespace tensormorph::rocprof
