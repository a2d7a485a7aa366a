#include "import/xctrace/trace_builder.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <map>
#include <nlohmann/json.hpp>

#include "import/common/finish_import.h"
#include "import/xctrace/xctrace_importer.h"
#include "model/time.h"

namespace tensormorph::xctrace {
namespace {

constexpr int64_t kMaxTimeNs = int64_t{1} << 62;

struct Process {
  int64_t pid = 0;
  std::string name;
};

// One metal-gpu-intervals row before nesting is decided.
struct GpuRow {
  int64_t start = 0, duration = 0, depth = 0;
  uint32_t device = 0;
  int64_t stream = 0;
  uint64_t encoder_id = 0;
  StringId name = 0;
};

class Builder {
 public:
  Builder(const XmlDocument& doc, const ImportOptions& options, Trace* trace)
      : doc_(doc), options_(options), trace_(trace) {}

  Status Build();

 private:
  std::string Text(uint32_t v) const {
    if (v == kNoValue) return {};
    const XmlValue& value = doc_.values[v];
    return value.text.empty() ? value.fmt : value.text;
  }
  std::optional<int64_t> Int(uint32_t v) const {
    if (v == kNoValue) return std::nullopt;
    return ParseScaledDecimal(doc_.values[v].text, 0);
  }
  uint32_t Cell(const Table& t, const Row& r, std::string_view column) const {
    return doc_.Cell(t, r, t.ColumnIndex(column));
  }
  Process ProcessOf(uint32_t v) const;
  uint32_t DeviceOf(const std::string& gpu_name);
  int64_t ChannelCode(const std::string& channel);
  uint32_t TrackOf(uint32_t thread, uint32_t process);
  // A host-side row (encoding, submission) as a runtime call on its thread, named by its
  // event-type or `default_name`; nullopt (counted as other) when host rows are not wanted or
  // its times are unusable.
  std::optional<ApiCall> HostCall(const Table& t, const Row& r, const char* default_name);
  void ReadEncoders(const Table& t);
  void ReadSubmissions(const Table& t);
  void ReadGpuInfo(const Table& t, std::string_view name_column);
  Status ReadGpuIntervals(const Table& t);
  void AddKernels();

  const XmlDocument& doc_;
  const ImportOptions& options_;
  Trace* trace_;
  std::map<std::string, uint32_t> devices_;
  std::map<std::string, int64_t> channels_ = {
      {"Compute", 0}, {"Vertex", 1}, {"Fragment", 2}, {"Blit", 3}};
  int64_t next_channel_ = 4;
  std::map<std::pair<int64_t, int64_t>, uint32_t> tracks_;
  std::map<uint64_t, std::string> encoder_labels_;
  std::map<int64_t, std::pair<std::string, uint64_t>> processes_;  // pid -> (name, GPU rows)
  std::vector<GpuRow> rows_;
  std::vector<std::string> described_gpus_;
  uint64_t skipped_ = 0;
  uint64_t first_skipped_line_ = 0;
};

Process Builder::ProcessOf(uint32_t v) const {
  Process p;
  if (v == kNoValue) return p;
  p.pid = Int(doc_.Find(v, "pid")).value_or(0);
  p.name = doc_.values[v].fmt;
  // fmt is "name (pid)": keep the name.
  if (const size_t open = p.name.rfind(" ("); open != std::string::npos && p.name.ends_with(")")) {
    p.name.erase(open);
  }
  return p;
}

uint32_t Builder::DeviceOf(const std::string& gpu_name) {
  std::string name = gpu_name;
  if (name.empty()) name = described_gpus_.empty() ? "Apple GPU" : described_gpus_.front();
  auto [it, added] = devices_.emplace(name, trace_->devices.size());
  if (added) {
    Device d;
    d.backend = Backend::kMetal;
    d.name = name;
    d.vendor = "Apple";
    d.trace_id = static_cast<int64_t>(trace_->devices.size());
    trace_->devices.push_back(std::move(d));
  }
  return it->second;
}

int64_t Builder::ChannelCode(const std::string& channel) {
  auto [it, added] = channels_.emplace(channel, next_channel_);
  if (added && next_channel_ < 15) ++next_channel_;
  return it->second;
}

uint32_t Builder::TrackOf(uint32_t thread, uint32_t process) {
  const int64_t tid = Int(doc_.Find(thread, "tid")).value_or(0);
  uint32_t process_value = process;
  if (process_value == kNoValue) process_value = doc_.Find(thread, "process");
  const Process p = ProcessOf(process_value);
  auto [it, added] = tracks_.emplace(std::pair{p.pid, tid}, trace_->tracks.size());
  if (added) {
    Track track{p.pid, tid, {}, {}, thread == kNoValue ? p.name : doc_.values[thread].fmt};
    trace_->tracks.push_back(std::move(track));
  }
  return it->second;
}

std::optional<ApiCall> Builder::HostCall(const Table& t, const Row& r, const char* default_name) {
  const std::optional<int64_t> start = Int(Cell(t, r, "start"));
  const std::optional<int64_t> duration = Int(Cell(t, r, "duration"));
  if (!options_.host_rows || !start || !duration || *duration < 0 || *start < 0 ||
      *start > kMaxTimeNs || *duration > kMaxTimeNs) {
    ++trace_->counts.other;
    return std::nullopt;
  }
  ApiCall call;
  call.start_ns = *start;
  call.duration_ns = *duration;
  std::string kind = Text(Cell(t, r, "event-type"));
  call.name = trace_->strings.Intern(kind.empty() ? default_name : kind);
  call.track = TrackOf(Cell(t, r, "thread"), Cell(t, r, "process"));
  return call;
}

void Builder::ReadEncoders(const Table& t) {
  for (const Row& r : t.rows) {
    const std::optional<uint64_t> encoder = Int(Cell(t, r, "encoder-id"));
    std::string label = Text(Cell(t, r, "encoder-label"));
    if (encoder && *encoder != 0 && !label.empty()) encoder_labels_.emplace(*encoder, label);
    std::optional<ApiCall> call = HostCall(t, r, "Encoding");
    if (!call) continue;
    call->link.correlation = encoder.value_or(0);
    trace_->api_calls.push_back(*call);
    ++trace_->counts.runtime_calls;
  }
}

void Builder::ReadSubmissions(const Table& t) {
  for (const Row& r : t.rows) {
    std::optional<ApiCall> call = HostCall(t, r, "CommandBufferSubmission");
    if (!call) continue;
    trace_->api_calls.push_back(*call);
    ++trace_->counts.runtime_calls;
  }
}

void Builder::ReadGpuInfo(const Table& t, std::string_view name_column) {
  for (const Row& r : t.rows) {
    const std::string name = Text(Cell(t, r, name_column));
    if (!name.empty() &&
        std::find(described_gpus_.begin(), described_gpus_.end(), name) == described_gpus_.end()) {
      described_gpus_.push_back(name);
    }
    ++trace_->counts.metadata;
  }
}

Status Builder::ReadGpuIntervals(const Table& t) {
  for (const char* required : {"start", "duration"}) {
    if (t.ColumnIndex(required) < 0) {
      return UnreadableInput(
          fmt::format("the metal-gpu-intervals schema has no '{}' column", required),
          SourcePosition{t.line, 1});
    }
  }
  for (const Row& r : t.rows) {
    const std::optional<int64_t> start = Int(Cell(t, r, "start"));
    const std::optional<int64_t> duration = Int(Cell(t, r, "duration"));
    // Times stay within 2^62 ns, as every importer keeps them, so that sums cannot overflow.
    if (!start || !duration || *duration < 0 || *start < 0 || *start > kMaxTimeNs ||
        *duration > kMaxTimeNs) {
      if (skipped_++ == 0) first_skipped_line_ = r.line;
      continue;
    }
    GpuRow row;
    row.start = *start;
    row.duration = *duration;
    row.depth = Int(Cell(t, r, "event-depth")).value_or(0);
    const Process process = ProcessOf(Cell(t, r, "process"));
    auto& [process_name, process_rows] = processes_[process.pid];
    if (process_name.empty()) process_name = process.name;
    ++process_rows;
    std::string channel = Text(Cell(t, r, "channel-name"));
    row.stream = process.pid * 16 + ChannelCode(channel.empty() ? "(no channel)" : channel);
    row.device = DeviceOf(Text(Cell(t, r, "gpu")));
    row.encoder_id = Int(Cell(t, r, "encoder-id")).value_or(0);
    std::string name;
    if (auto it = encoder_labels_.find(row.encoder_id); it != encoder_labels_.end()) {
      name = it->second;
    }
    if (name.empty()) name = KernelNameFromEventLabel(Text(Cell(t, r, "event-label")));
    if (name.empty()) name = Text(Cell(t, r, "channel-subtitle"));
    if (name.empty()) name = "(unlabeled encoder)";
    row.name = trace_->strings.Intern(name);
    rows_.push_back(row);
  }
  return Status::Ok();
}

// Top-level rows are kernels; nested rows only when no top-level row of their lane overlaps them.
void Builder::AddKernels() {
  std::map<std::pair<uint32_t, int64_t>, std::vector<std::pair<int64_t, int64_t>>> top;
  for (const GpuRow& r : rows_) {
    if (r.depth <= 0) top[{r.device, r.stream}].emplace_back(r.start, r.start + r.duration);
  }
  for (auto& [lane, intervals] : top) std::sort(intervals.begin(), intervals.end());
  uint64_t nested = 0;
  for (const GpuRow& r : rows_) {
    if (r.depth > 0) {
      const auto& intervals = top[{r.device, r.stream}];
      // Top-level intervals of one lane follow each other, so an overlapping one is among the
      // last few that start before this row ends.
      auto it = std::lower_bound(intervals.begin(), intervals.end(),
                                 std::pair{r.start + r.duration, INT64_MIN});
      bool overlaps = false;
      for (auto at = it; at != intervals.begin() && !overlaps;) {
        --at;
        overlaps = at->second > r.start || (r.duration == 0 && at->second >= r.start);
        if (it - at > 64) break;  // lanes are sequential; a deep scan means none covers it
      }
      if (overlaps) {
        ++nested;
        continue;
      }
    }
    Kernel k;
    k.start_ns = r.start;
    k.duration_ns = r.duration;
    k.link.correlation = r.encoder_id;
    k.name = r.name;
    k.device = r.device;
    k.stream = r.stream;
    trace_->kernels.push_back(k);
    ++trace_->counts.kernels;
  }
  trace_->counts.gpu_annotations += nested;
  if (nested > 0) trace_->metadata["nested_gpu_intervals"] = std::to_string(nested);
}

Status Builder::Build() {
  const Table* intervals = nullptr;
  std::vector<std::string> schemas;
  for (const Table& t : doc_.tables) {
    schemas.push_back(t.schema);
    if (t.schema == "metal-gpu-info") ReadGpuInfo(t, "gpu-name");
    if (t.schema == "device-gpu-info") ReadGpuInfo(t, "device-name");
    if (t.schema == "metal-application-encoders-list") ReadEncoders(t);
  }
  for (const Table& t : doc_.tables) {
    if (t.schema == "metal-gpu-intervals") {
      TM_RETURN_IF_ERROR(ReadGpuIntervals(t));
      intervals = &t;
    } else if (t.schema == "metal-application-command-buffer-submissions") {
      ReadSubmissions(t);
    } else if (t.schema != "metal-gpu-info" && t.schema != "device-gpu-info" &&
               t.schema != "metal-application-encoders-list") {
      trace_->counts.other += t.rows.size();
    }
  }
  if (intervals == nullptr) {
    return UnreadableInput(fmt::format(
        "this xctrace export has no metal-gpu-intervals table (tables: {}); export it with: {}",
        schemas.empty() ? "none" : fmt::format("{}", fmt::join(schemas, ", ")), kExportCommand));
  }
  AddKernels();
  trace_->described_device_count = static_cast<int32_t>(described_gpus_.size());
  for (Device& d : trace_->devices) {
    d.described =
        std::find(described_gpus_.begin(), described_gpus_.end(), d.name) != described_gpus_.end();
  }
  trace_->format_version = "xctrace export XML (Metal System Trace)";
  trace_->metadata["time_origin"] = "\"trace start\"";
  trace_->metadata["tables"] = nlohmann::json(schemas).dump();
  if (processes_.size() > 1) {
    std::vector<std::string> listed;
    for (const auto& [pid, entry] : processes_) {
      listed.push_back(fmt::format("{} ({}): {} rows", entry.first, pid, entry.second));
    }
    trace_->warnings.push_back(
        fmt::format("GPU intervals of {} processes, all kept (each on its own streams): {}",
                    processes_.size(), fmt::join(listed, "; ")));
  }
  if (skipped_ > 0) {
    trace_->counts.skipped += skipped_;
    trace_->warnings.push_back(fmt::format(
        "{} metal-gpu-intervals rows without a start and duration in [0, 2^62] ns skipped (the "
        "first at line {})",
        skipped_, first_skipped_line_));
  }
  if (doc_.ragged_rows > 0) {
    trace_->warnings.push_back(fmt::format(
        "{} rows have more or fewer cells than their schema has columns; missing cells read as "
        "empty",
        doc_.ragged_rows));
  }
  if (doc_.duplicate_ids > 0) {
    trace_->warnings.push_back(
        fmt::format("{} values redefine an id already defined; references use the first definition",
                    doc_.duplicate_ids));
  }
  // The host is always traced; every GPU listed is a Metal device.
  FinishImport(trace_, {.backends = {.host_traced = true, .every_device = true}});
  return Status::Ok();
}

}  // namespace

std::string KernelNameFromEventLabel(std::string_view label) {
  auto trim = [](std::string_view s) {
    while (!s.empty() && s.back() == ' ') s.remove_suffix(1);
    while (!s.empty() && s.front() == ' ') s.remove_prefix(1);
    return s;
  };
  label = trim(label);
  // A trailing object address: " 0x4e18".
  if (const size_t space = label.rfind(' ');
      space != std::string_view::npos && label.substr(space + 1).starts_with("0x")) {
    label = trim(label.substr(0, space));
  }
  // A trailing "(python (99926))" / "( qwen38 (2297) )": a group that itself ends in a group.
  if (label.ends_with(')')) {
    int depth = 0;
    for (size_t i = label.size(); i-- > 0;) {
      if (label[i] == ')') ++depth;
      if (label[i] == '(' && --depth == 0) {
        const std::string_view inner = trim(label.substr(i + 1, label.size() - i - 2));
        if (inner.ends_with(')') && i > 0) label = trim(label.substr(0, i));
        break;
      }
    }
  }
  return std::string(label);
}

Status BuildXctraceTrace(const XmlDocument& doc, const ImportOptions& options, Trace* trace) {
  return Builder(doc, options, trace).Build();
}

}  // namespace tensormorph::xctrace
