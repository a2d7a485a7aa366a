#pragma once

#include <optional>
#include <string_view>

namespace tensormorph {

enum class OutputFormat { kTable, kJson, kCsv };

inline std::optional<OutputFormat> ParseOutputFormat(std::string_view name) {
  if (name == "table") return OutputFormat::kTable;
  if (name == "json") return OutputFormat::kJson;
  if (name == "csv") return OutputFormat::kCsv;
  return std::nullopt;
}

// The one dispatch on the output format: a command's renderer says what it writes in each, and a
// new format is a compile error at every command until it does.
template <typename Table, typename JsonWriter, typename CsvWriter>
void RenderAs(OutputFormat format, Table&& table, JsonWriter&& json, CsvWriter&& csv) {
  switch (format) {
    case OutputFormat::kTable:
      table();
      return;
    case OutputFormat::kJson:
      json();
      return;
    case OutputFormat::kCsv:
      csv();
      return;
  }
}

}  // namespace tensormorph
