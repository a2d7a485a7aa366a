// An RFC 4180 CSV reader that streams: records are read one at a time from blocks of content, so a
// large export is never held whole. It knows where every record and field starts (line and
// column), for warnings that point into the file.
//
// What it accepts: fields quoted or not, "" for a quote inside a quoted field, commas and line
// breaks inside quoted fields, CRLF, LF or a lone CR as line ends, a UTF-8 byte order mark, and a
// last line without a line end. It is lenient where RFC 4180 is strict and the profilers' output
// does not need strictness: a quote inside an unquoted field is kept as a character, and text after
// a closing quote is appended to the field (the record is flagged, so that the caller can warn).
// Blank lines are skipped.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "tensormorph/model/status.h"

namespace tensormorph {

struct CsvRecord {
  std::vector<std::string> fields;
  std::vector<uint32_t> columns;  // 1-based byte column where each field starts, in its line
  uint64_t line = 0;              // 1-based line where the record starts
  std::string raw;                // the record as written, without its line end
  bool malformed = false;         // text after a closing quote
  uint32_t malformed_column = 0;
  bool unterminated = false;  // the content ended inside a quoted field (a cut-off file)

  size_t size() const { return fields.size(); }
  // The field, or "" past the end of a short record.
  const std::string& at(size_t i) const;
};

class CsvReader {
 public:
  // `next_block` appends nothing and returns false at the end of the content; else it fills the
  // vector with the next bytes.
  using BlockSource = std::function<bool(std::vector<char>*)>;
  explicit CsvReader(BlockSource next_block);
  // Reads from text in memory (tests, small inputs).
  explicit CsvReader(std::string_view text);

  // The next record; false at the end of the content or on an error (see status()).
  bool Next(CsvRecord* record);
  // Ok, or what stopped reading: a record too long to be CSV (an unclosed quote early on).
  const Status& status() const { return status_; }

  // Records longer than this end reading with an error instead of buffering the whole file.
  static constexpr size_t kMaxRecordBytes = 64 << 20;

 private:
  enum class Parse { kRecord, kBlank, kNeedMore };
  Parse ParseAt(CsvRecord* record, size_t* consumed, uint64_t* newlines);
  bool Refill();

  BlockSource next_block_;
  std::string buffer_;
  size_t pos_ = 0;
  bool at_end_ = false;
  bool bom_checked_ = false;
  uint64_t line_ = 1;
  Status status_;
};

}  // namespace tensormorph
