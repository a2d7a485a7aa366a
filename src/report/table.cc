#include "report/table.h"

#include <algorithm>

namespace tensormorph {

size_t DisplayWidth(const std::string& text) {
  size_t width = 0;
  for (unsigned char c : text) {
    if ((c & 0xC0) != 0x80) ++width;
  }
  return width;
}

std::string TruncateToWidth(const std::string& text, size_t max_width) {
  if (max_width == 0 || DisplayWidth(text) <= max_width) return text;
  std::string out;
  size_t width = 0;
  for (size_t i = 0; i < text.size() && width + 1 < max_width; ++i) {
    out.push_back(text[i]);
    if ((static_cast<unsigned char>(text[i]) & 0xC0) != 0x80) ++width;
  }
  while (!out.empty() && (static_cast<unsigned char>(out.back()) & 0xC0) == 0xC0) out.pop_back();
  return out + "\u2026";
}

void TextTable::AddColumn(std::string header, Align align, size_t max_width) {
  columns_.push_back({std::move(header), align, max_width});
}

void TextTable::AddRow(std::vector<std::string> cells) {
  cells.resize(columns_.size());
  for (size_t i = 0; i < cells.size(); ++i)
    cells[i] = TruncateToWidth(cells[i], columns_[i].max_width);
  rows_.push_back(std::move(cells));
}

void TextTable::Print(std::ostream& out) const {
  std::vector<size_t> widths;
  for (const Column& c : columns_) widths.push_back(DisplayWidth(c.header));
  for (const auto& row : rows_) {
    for (size_t i = 0; i < row.size(); ++i) widths[i] = std::max(widths[i], DisplayWidth(row[i]));
  }
  auto print_row = [&](const std::vector<std::string>& cells) {
    std::string line;
    for (size_t i = 0; i < cells.size(); ++i) {
      const size_t pad = widths[i] - DisplayWidth(cells[i]);
      const bool last = i + 1 == cells.size();
      if (columns_[i].align == Align::kRight) line.append(pad, ' ');
      line += cells[i];
      if (columns_[i].align == Align::kLeft && !last) line.append(pad, ' ');
      if (!last) line += "  ";
    }
    out << line << '\n';
  };
  std::vector<std::string> headers;
  for (const Column& c : columns_) headers.push_back(c.header);
  print_row(headers);
  std::vector<std::string> rules;
  for (size_t w : widths) rules.emplace_back(w, '-');
  print_row(rules);
  for (const auto& row : rows_) print_row(row);
}

}  // namespace tensormorph
