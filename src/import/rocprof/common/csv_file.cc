#include "import/rocprof/common/csv_file.h"

#include <fmt/format.h>

#include <utility>

namespace tensormorph::rocprof {

void Warnings::Row(const std::string& path, uint64_t line, const std::string& message) {
  ++row_warnings_;
  for (auto& [file, count] : left_out_) {
    if (file != path) continue;
    ++count;
    if (count > kDetailed) return;
    kept_.push_back(fmt::format("{}:{}: {}", path, line, message));
    return;
  }
  left_out_.emplace_back(path, 1);
  kept_.push_back(fmt::format("{}:{}: {}", path, line, message));
}

void Warnings::File(const std::string& path, const std::string& message) {
  kept_.push_back(fmt::format("{}: {}", path, message));
}

void Warnings::AppendTo(std::vector<std::string>* out) const {
  out->insert(out->end(), kept_.begin(), kept_.end());
  for (const auto& [file, count] : left_out_) {
    if (count > kDetailed) {
      out->push_back(fmt::format("{}: {} more row warnings not shown", file, count - kDetailed));
    }
  }
}

CsvFile::CsvFile(std::string path, std::unique_ptr<BlockReader> blocks)
    : path_(std::move(path)), blocks_(std::move(blocks)) {
  reader_ = std::make_unique<CsvReader>([this](std::vector<char>* block) {
    const bool more = blocks_->Next(block);
    if (more && !block->empty()) last_byte_ = block->back();
    return more;
  });
}

StatusOr<std::unique_ptr<CsvFile>> CsvFile::Open(const Input& input, const std::string& path) {
  TM_ASSIGN_OR_RETURN(Input opened, path == input.path() ? input : input.Related(path));
  TM_ASSIGN_OR_RETURN(std::unique_ptr<BlockReader> blocks, opened.Blocks());
  std::unique_ptr<CsvFile> file(new CsvFile(path, std::move(blocks)));
  CsvRecord header;
  if (!file->reader_->Next(&header)) {
    TM_RETURN_IF_ERROR(file->status());
    return UnreadableInput("the file is empty: no rocprof CSV header", SourcePosition{1, 1});
  }
  file->header_ = std::move(header.fields);
  file->has_ahead_ = file->Advance();
  return file;
}

bool CsvFile::Advance() {
  return reader_->Next(&ahead_);
}

bool CsvFile::Next(CsvRecord* row, Warnings* warnings) {
  while (has_ahead_) {
    std::swap(*row, ahead_);
    has_ahead_ = Advance();
    // rocprof ends every row with a line end; a last row without one whose fields are short (or
    // whose quote never closes, or that ends in an empty field: cut right after a comma) is where
    // the file was cut off. A whole last row without a line end is kept: copies of the
    // documentation samples lose their final line end.
    const bool no_line_end = last_byte_ != '\n' && last_byte_ != '\r';
    const bool cut_off =
        !has_ahead_ && (row->unterminated || (no_line_end && (row->size() != header_.size() ||
                                                              row->fields.back().empty())));
    if (cut_off) {
      ++skipped_;
      warnings->Row(path_, row->line,
                    fmt::format("the file ends inside this row (cut off?): it is skipped; the {} "
                                "whole rows before it were read",
                                rows_));
      return false;
    }
    if (row->size() != header_.size()) {
      ++skipped_;
      warnings->Row(path_, row->line,
                    fmt::format("row has {} fields where the header has {}: skipped", row->size(),
                                header_.size()));
      continue;
    }
    ++rows_;
    return true;
  }
  return false;
}

Status CsvFile::status() const {
  TM_RETURN_IF_ERROR(reader_->status());
  return blocks_->status();
}

}  // namespace tensormorph::rocprof
