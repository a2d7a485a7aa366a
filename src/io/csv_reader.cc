#include "io/csv_reader.h"

#include <fmt/format.h>

#include <utility>

namespace tensormorph {

const std::string& CsvRecord::at(size_t i) const {
  static const std::string kEmpty;
  return i < fields.size() ? fields[i] : kEmpty;
}

CsvReader::CsvReader(BlockSource next_block) : next_block_(std::move(next_block)) {}

CsvReader::CsvReader(std::string_view text) : buffer_(text), at_end_(true) {}

bool CsvReader::Refill() {
  if (at_end_) return false;
  buffer_.erase(0, pos_);
  pos_ = 0;
  std::vector<char> block;
  if (!next_block_ || !next_block_(&block)) {
    at_end_ = true;
  } else {
    buffer_.append(block.data(), block.size());
  }
  return true;
}

// Parses the record at pos_. Whenever the buffer ends before the record does and more content may
// follow, answers kNeedMore; the caller refills and parses the record again from its start (a
// record is small next to a block, so the repeated work is negligible).
CsvReader::Parse CsvReader::ParseAt(CsvRecord* r, size_t* consumed, uint64_t* newlines) {
  const std::string& b = buffer_;
  const size_t n = b.size();
  size_t i = pos_;
  uint64_t nl = 0;
  // A CR at the end of the buffer may be the first half of a CRLF.
  auto line_end_length = [&](size_t at, size_t* length) {
    if (b[at] == '\n') {
      *length = 1;
      return true;
    }
    if (at + 1 >= n && !at_end_) return false;
    *length = at + 1 < n && b[at + 1] == '\n' ? 2 : 1;
    return true;
  };

  if (i < n && (b[i] == '\n' || b[i] == '\r')) {
    if (!line_end_length(i, consumed)) return Parse::kNeedMore;
    *newlines = 1;
    return Parse::kBlank;
  }

  r->fields.clear();
  r->columns.clear();
  r->malformed = false;
  r->malformed_column = 0;
  r->unterminated = false;
  uint32_t col = 1;
  std::string field;
  for (;;) {  // one field per pass
    r->columns.push_back(col);
    field.clear();
    if (i < n && b[i] == '"') {
      ++i;
      ++col;
      bool closed = false;
      while (i < n) {
        const char c = b[i];
        if (c == '"') {
          if (i + 1 >= n && !at_end_) return Parse::kNeedMore;
          if (i + 1 < n && b[i + 1] == '"') {
            field.push_back('"');
            i += 2;
            col += 2;
            continue;
          }
          ++i;
          ++col;
          closed = true;
          break;
        }
        if (c == '\n' || c == '\r') {  // a line break inside the field: kept as written
          size_t length = 0;
          if (!line_end_length(i, &length)) return Parse::kNeedMore;
          field.append(b, i, length);
          i += length;
          col = 1;
          ++nl;
          continue;
        }
        field.push_back(c);
        ++i;
        ++col;
      }
      if (!closed) {
        if (!at_end_) return Parse::kNeedMore;
        r->unterminated = true;
        r->fields.push_back(std::move(field));
        r->raw.assign(b, pos_, n - pos_);
        *consumed = n - pos_;
        *newlines = nl;
        return Parse::kRecord;
      }
      while (i < n && b[i] != ',' && b[i] != '\n' && b[i] != '\r') {
        if (!r->malformed) {
          r->malformed = true;
          r->malformed_column = col;
        }
        field.push_back(b[i]);
        ++i;
        ++col;
      }
    } else {
      while (i < n && b[i] != ',' && b[i] != '\n' && b[i] != '\r') {
        field.push_back(b[i]);
        ++i;
        ++col;
      }
    }
    r->fields.push_back(field);
    if (i >= n) {
      if (!at_end_) return Parse::kNeedMore;
      break;  // the last record, without a line end
    }
    if (b[i] == ',') {
      ++i;
      ++col;
      continue;
    }
    break;  // a line end
  }
  r->raw.assign(b, pos_, i - pos_);
  if (i < n) {
    size_t length = 0;
    if (!line_end_length(i, &length)) return Parse::kNeedMore;
    i += length;
    ++nl;
  }
  *consumed = i - pos_;
  *newlines = nl;
  return Parse::kRecord;
}

bool CsvReader::Next(CsvRecord* record) {
  if (!status_.ok()) return false;
  if (!bom_checked_) {
    while (buffer_.size() < 3 && Refill()) {
    }
    if (buffer_.compare(0, 3, "\xEF\xBB\xBF") == 0) pos_ = 3;
    bom_checked_ = true;
  }
  for (;;) {
    if (pos_ >= buffer_.size() && !Refill()) return false;
    if (pos_ >= buffer_.size()) continue;  // refilled with an empty block, or reached the end
    size_t consumed = 0;
    uint64_t newlines = 0;
    const Parse parse = ParseAt(record, &consumed, &newlines);
    if (parse == Parse::kNeedMore) {
      if (buffer_.size() - pos_ > kMaxRecordBytes) {
        status_ = UnreadableInput(
            fmt::format("a CSV record longer than {} MiB starts here (a quote that is never "
                        "closed?); not a CSV export",
                        kMaxRecordBytes >> 20),
            SourcePosition{line_, 1});
        return false;
      }
      Refill();
      continue;
    }
    const uint64_t line = line_;
    pos_ += consumed;
    line_ += newlines;
    if (parse == Parse::kBlank) continue;
    record->line = line;
    return true;
  }
}

}  // namespace tensormorph
