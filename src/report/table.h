// A plain-text table for the terminal: aligned columns, numbers right-aligned, long text cut to
// a width with an ellipsis (JSON and CSV always carry the full text).
#pragma once

#include <ostream>
#include <string>
#include <vector>

namespace tensormorph {

class TextTable {
 public:
  enum class Align { kLeft, kRight };
  void AddColumn(std::string header, Align align, size_t max_width = 0);
  void AddRow(std::vector<std::string> cells);
  void Print(std::ostream& out) const;

 private:
  struct Column {
    std::string header;
    Align align;
    size_t max_width;  // 0 = unlimited
  };
  std::vector<Column> columns_;
  std::vector<std::vector<std::string>> rows_;
};

// Display width of UTF-8 text (code points; good enough for names and units).
size_t DisplayWidth(const std::string& text);

// `text` cut to `max_width` code points, the last an ellipsis, never inside a UTF-8 sequence;
// unchanged when it fits or `max_width` is 0.
std::string TruncateToWidth(const std::string& text, size_t max_width);

}  // namespace tensormorph
