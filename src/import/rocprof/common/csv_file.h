// One rocprof CSV file read row by row: the header first, then only rows with as many fields as
// the header. A ragged row is skipped with a warning naming file:line; a last row that the file
// ends inside (no line end after it and too few fields, or an unclosed quote: the profiler or a
// copy was cut off) is skipped with a warning saying that everything before it was read.
#pragma once

#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "io/csv_reader.h"
#include "tensormorph/io/block_reader.h"
#include "tensormorph/io/input.h"
#include "tensormorph/model/status.h"

namespace tensormorph::rocprof {

// Warnings of one import, each prefixed with the file (and line) it is about. Per file only the
// first kDetailed row warnings are kept; the rest are counted in one summary line.
class Warnings {
 public:
  static constexpr size_t kDetailed = 20;
  void Row(const std::string& path, uint64_t line, const std::string& message);
  void File(const std::string& path, const std::string& message);
  // Appends the kept warnings and a line per file with the number left out.
  void AppendTo(std::vector<std::string>* out) const;
  uint64_t row_warnings() const { return row_warnings_; }

 private:
  std::vector<std::string> kept_;
  std::vector<std::pair<std::string, uint64_t>> left_out_;  // per file, in order of first
  uint64_t row_warnings_ = 0;
};

class CsvFile {
 public:
  // Opens `path` (plain or gzip): the input itself or a file it brings in (a sibling, a member
  // of its folder), with the input's limits. Reads the header row; an empty file or one without
  // a first record is an error at 1:1.
  static StatusOr<std::unique_ptr<CsvFile>> Open(const Input& input, const std::string& path);

  const std::string& path() const { return path_; }
  const std::vector<std::string>& header() const { return header_; }
  // The next whole row, or false at the end (then see status()). Skipped rows are counted.
  bool Next(CsvRecord* row, Warnings* warnings);
  // Ok, or why reading stopped early (an I/O or gzip error, a runaway quoted field).
  Status status() const;
  uint64_t skipped_rows() const { return skipped_; }
  uint64_t rows_read() const { return rows_; }

 private:
  CsvFile(std::string path, std::unique_ptr<BlockReader> blocks);
  bool Advance();  // reads the lookahead record; false at the end

  std::string path_;
  std::unique_ptr<BlockReader> blocks_;
  std::unique_ptr<CsvReader> reader_;
  std::vector<std::string> header_;
  CsvRecord ahead_;
  bool has_ahead_ = false;
  char last_byte_ = '\n';  // the content's last byte: a line end unless the file was cut off
  uint64_t skipped_ = 0;
  uint64_t rows_ = 0;
};

}  // namespace tensormorph::rocprof
