#include "import/ncu/launch.h"

#include <fmt/format.h>

#include <algorithm>
#include <charconv>
#include <tuple>

namespace tensormorph::ncu {

void Diagnostics::Add(uint64_t line, uint32_t column, std::string message) {
  // Rows are read before values are interpreted, so messages arrive out of file order; keep the
  // kDetailed earliest.
  detailed_.push_back({line, column, std::move(message)});
  auto earlier = [](const Detailed& a, const Detailed& b) {
    return std::tie(a.line, a.column) < std::tie(b.line, b.column);
  };
  std::push_heap(detailed_.begin(), detailed_.end(), earlier);
  if (detailed_.size() > kDetailed) {
    std::pop_heap(detailed_.begin(), detailed_.end(), earlier);  // the latest goes to the back
    detailed_.pop_back();
    ++more_;
  }
}

void Diagnostics::AppendTo(std::vector<std::string>* warnings) const {
  for (const std::string& note : notes_) warnings->push_back(note);
  std::vector<Detailed> sorted = detailed_;
  std::stable_sort(sorted.begin(), sorted.end(), [](const Detailed& a, const Detailed& b) {
    return std::tie(a.line, a.column) < std::tie(b.line, b.column);
  });
  for (const Detailed& d : sorted) {
    warnings->push_back(fmt::format("{}:{}: {}", d.line, d.column, d.message));
  }
  if (more_ > 0) {
    warnings->push_back(
        fmt::format("... and {} more rows or values skipped for the same kinds of reasons", more_));
  }
}

Header::Header(const CsvRecord& record) : names_(record.fields) {}

size_t Header::Find(std::string_view name) const {
  for (size_t i = 0; i < names_.size(); ++i) {
    if (names_[i] == name) return i;
  }
  return kMissing;
}

bool Header::IsIdentity(std::string_view name) {
  static constexpr std::string_view kIdentity[] = {
      "ID",      "Process ID", "Process Name", "Host Name", "Kernel Name", "Kernel Time",
      "Context", "Stream",     "Block Size",   "Grid Size", "Device",      "CC"};
  for (std::string_view id : kIdentity) {
    if (name == id) return true;
  }
  // With --nvtx, ncu adds columns such as "thread Domain:Push/Pop_Range:PL_Type:...".
  return name.find("Domain:") != std::string_view::npos;
}

std::string_view ToolMessageTag(std::string_view line) {
  for (std::string_view tag : {"PROF", "WARNING", "ERROR", "INFO"}) {
    if (line.size() >= tag.size() + 4 && line.starts_with("==") &&
        line.substr(2, tag.size()) == tag && line.substr(2 + tag.size(), 2) == "==") {
      return tag;
    }
  }
  return {};
}

bool SkipUnusableRow(const CsvRecord& row, Diagnostics* diagnostics) {
  const std::string_view tag = ToolMessageTag(row.raw);
  if (!tag.empty()) {
    if (tag == "ERROR" || tag == "WARNING") {
      diagnostics->Add(row.line, 1, fmt::format("ncu reported: {}", row.raw.substr(0, 300)));
    }
    return true;
  }
  if (row.unterminated) {
    diagnostics->Add(row.line, 1,
                     "the file ends inside a quoted field (cut off while being written?); the "
                     "last row is ignored");
    return true;
  }
  return false;
}

std::optional<int64_t> ParseInteger(std::string_view text) {
  while (!text.empty() && text.front() == ' ') text.remove_prefix(1);
  while (!text.empty() && text.back() == ' ') text.remove_suffix(1);
  int64_t value = 0;
  auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (text.empty() || error != std::errc() || end != text.data() + text.size()) {
    return std::nullopt;
  }
  return value;
}

void ReadIdentity(const Header& header, const CsvRecord& row, Launch* launch) {
  auto field = [&](std::string_view name, uint32_t* column = nullptr) -> std::string {
    const size_t i = header.Find(name);
    if (i == Header::kMissing || i >= row.size()) return {};
    if (column != nullptr) *column = row.columns[i];
    return row.fields[i];
  };
  launch->kernel_name = field("Kernel Name");
  launch->process_id = field("Process ID");
  launch->process_name = field("Process Name");
  launch->context = field("Context");
  launch->stream = field("Stream");
  launch->device = field("Device");
  launch->cc = field("CC");
  launch->block_size = field("Block Size", &launch->block_size_column);
  launch->grid_size = field("Grid Size", &launch->grid_size_column);
}

}  // namespace tensormorph::ncu
