// What the two CSV layouts have in common once read: one Launch per profiled kernel launch (an
// "ID" of the report), with its identity columns and its metrics as written. The layouts
// (details_layout.cc, raw_layout.cc) only collect text; launch.cc turns it into the model, so that
// units and numbers are interpreted in one place.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "io/csv_reader.h"
#include "tensormorph/model/status.h"
#include "tensormorph/model/trace.h"

namespace tensormorph::ncu {

struct LaunchMetric {
  std::string section;  // details: "Section Name" (+ " / Body Item Label"); raw: empty
  std::string name;     // a metric name (gpu__time_duration.sum) or a section label (Duration)
  std::string unit;     // as written ("Mbyte", "us", ""), before normalisation
  std::string value;    // as written ("13,485", "n/a")
  uint64_t line = 0;
  uint32_t column = 0;  // of the value
};

struct Launch {
  int64_t id = 0;     // ncu's result ID: the order in which launches were profiled
  uint64_t line = 0;  // first line of the launch
  std::string kernel_name, process_id, process_name, context, stream, device, cc;
  std::string block_size, grid_size;  // "(32, 4, 1)"
  uint32_t block_size_column = 0, grid_size_column = 0;
  std::vector<LaunchMetric> metrics;
  // The raw page without a units row: values are in ncu's base units (ns, byte).
  bool base_units = false;
};

// Warnings that point into the file ("LINE:COL: message"), listed in file order. The first
// kDetailed (by position) are spelled out, the rest counted, so that a file with a million bad
// rows does not print a million lines.
class Diagnostics {
 public:
  static constexpr size_t kDetailed = 20;
  void Add(uint64_t line, uint32_t column, std::string message);
  // General warnings, always kept.
  void Note(std::string message) { notes_.push_back(std::move(message)); }
  void AppendTo(std::vector<std::string>* warnings) const;

 private:
  struct Detailed {
    uint64_t line;
    uint32_t column;
    std::string message;
  };
  std::vector<Detailed> detailed_;  // the first kDetailed by position in the file
  size_t more_ = 0;
  std::vector<std::string> notes_;
};

// Column positions by header name; ncu's layouts differ between versions and exports.
class Header {
 public:
  explicit Header(const CsvRecord& record);
  static constexpr size_t kMissing = SIZE_MAX;
  size_t Find(std::string_view name) const;
  bool Has(std::string_view name) const { return Find(name) != kMissing; }
  size_t size() const { return names_.size(); }
  const std::string& name(size_t i) const { return names_[i]; }
  // The columns that say which launch a row belongs to, not which metric it holds.
  static bool IsIdentity(std::string_view name);

 private:
  std::vector<std::string> names_;
};

// "==PROF==", "==WARNING==", "==ERROR==": ncu's own messages, which share stdout with the CSV
// when it is not written with --log-file. Returns the tag ("ERROR") or "".
std::string_view ToolMessageTag(std::string_view line);
// True for a row that holds no data: such a tool line (==ERROR== and ==WARNING== lines become
// warnings), or a last row cut off inside a quoted field (a warning too).
bool SkipUnusableRow(const CsvRecord& row, Diagnostics* diagnostics);

// A decimal integer, the whole text; nullopt otherwise.
std::optional<int64_t> ParseInteger(std::string_view text);

// Fills the launch's identity fields from a row of either layout.
void ReadIdentity(const Header& header, const CsvRecord& row, Launch* launch);

// Reads the rows after the header. Launches come back in ID order.
Status ReadDetailsLayout(CsvReader* reader, const Header& header, std::vector<Launch>* launches,
                         Diagnostics* diagnostics);
Status ReadRawLayout(CsvReader* reader, const Header& header, std::vector<Launch>* launches,
                     Diagnostics* diagnostics);

}  // namespace tensormorph::ncu
