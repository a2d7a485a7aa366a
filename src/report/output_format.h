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

}  // namespace tensormorph
