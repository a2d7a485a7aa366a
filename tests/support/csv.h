// RFC 4180 CSV for the tests' oracles (TraceLens tables, written outputs); independent of
// src/report, so that an oracle never reads output through the code that wrote it.
#pragma once

#include <map>
#include <string>
#include <utility>
#include <vector>

namespace tensormorph::testing {

// Records of `text`: fields quoted or not, "" inside quotes, commas and line breaks inside quotes;
// CRLF and LF both end a record. A trailing line break adds no empty record.
inline std::vector<std::vector<std::string>> ParseCsv(const std::string& text) {
  std::vector<std::vector<std::string>> rows(1);
  std::string field;
  bool quoted = false;
  for (size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (quoted) {
      if (c == '"' && i + 1 < text.size() && text[i + 1] == '"') {
        field += '"';
        ++i;
      } else if (c == '"') {
        quoted = false;
      } else {
        field += c;
      }
    } else if (c == '"') {
      quoted = true;
    } else if (c == ',') {
      rows.back().push_back(std::move(field));
      field.clear();
    } else if (c == '\n' || c == '\r') {
      if (c == '\r' && i + 1 < text.size() && text[i + 1] == '\n') ++i;
      rows.back().push_back(std::move(field));
      field.clear();
      rows.emplace_back();
    } else {
      field += c;
    }
  }
  if (!field.empty() || !rows.back().empty()) rows.back().push_back(std::move(field));
  if (rows.back().empty()) rows.pop_back();
  return rows;
}

// The records after the header as column name -> field; a record with another field count than
// the header is left out (the caller counts rows when that matters).
inline std::vector<std::map<std::string, std::string>> CsvRecords(const std::string& text) {
  const std::vector<std::vector<std::string>> records = ParseCsv(text);
  std::vector<std::map<std::string, std::string>> rows;
  for (size_t r = 1; r < records.size(); ++r) {
    if (records[r].size() != records[0].size()) continue;
    std::map<std::string, std::string> row;
    for (size_t c = 0; c < records[0].size(); ++c) row[records[0][c]] = records[r][c];
    rows.push_back(std::move(row));
  }
  return rows;
}

}  // namespace tensormorph::testing
