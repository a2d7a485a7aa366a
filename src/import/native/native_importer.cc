#include "import/native/native_importer.h"

#include <fmt/format.h>

#include <algorithm>
#include <nlohmann/json.hpp>

#include "import/common/finish_import.h"
#include "import/native/native_schema.h"
#include "import/native/trace_builder.h"
#include "tensormorph/io/block_reader.h"

namespace tensormorph::native {
namespace {

using simdjson::ondemand::document;
using simdjson::ondemand::object;

constexpr TablePass kPasses[] = {TablePass::kHeaderDevicesTracks, TablePass::kRows,
                                 TablePass::kCounters};

// simdjson reports where it stopped, not where the text went wrong; nlohmann's parser (run only
// on this error path) names the byte where it did.
Status LocateSyntaxError(const Status& status, std::string_view text, const FieldReader& fields) {
  if (!status.message().starts_with(kSyntaxErrorPrefix)) return status;
  try {
    [[maybe_unused]] const nlohmann::json parsed = nlohmann::json::parse(text.begin(), text.end());
  } catch (const nlohmann::json::parse_error& error) {
    const size_t at = std::min<size_t>(error.byte == 0 ? 0 : error.byte - 1, text.size());
    std::string what = error.what();
    if (size_t colon = what.rfind(": "); colon != std::string::npos) what = what.substr(colon + 2);
    return fields.ErrorAt(text.data() + at, fmt::format("not valid JSON: {}", what));
  } catch (const nlohmann::json::exception&) {
    // Valid syntax that nlohmann cannot hold (a number beyond double's range): keep simdjson's.
  }
  return status;
}

// Line and column of `where` in a text held whole (the JSON layout); error path only.
SourcePosition PositionIn(std::string_view text, const char* where) {
  if (where == nullptr || where < text.data() || where > text.data() + text.size()) return {};
  const size_t offset = where - text.data();
  const std::string_view before = text.substr(0, offset);
  const size_t newline = before.rfind('\n');
  const size_t line_start = newline == std::string_view::npos ? 0 : newline + 1;
  return {1 + static_cast<uint64_t>(std::count(before.begin(), before.end(), '\n')),
          offset - line_start + 1, offset};
}

Status MissingSchema(const FieldReader& fields, const char* at) {
  return fields.ErrorAt(
      at, fmt::format("not a native trace: the header has no \"schema\": \"{}\"", kSchema));
}

// Whether anything but whitespace follows the object just read.
bool TrailingContent(document& doc, const char** where) {
  return doc.current_location().get(*where) == simdjson::SUCCESS;
}

// Reads the top-level object in `text` (the whole JSON layout, or an NDJSON header line).
Status ReadTopLevelText(std::string_view text, size_t capacity, simdjson::ondemand::parser& parser,
                        FieldReader& fields, TraceBuilder* builder) {
  document doc;
  if (auto error = parser.iterate(text.data(), text.size(), capacity).get(doc)) {
    return LocateSyntaxError(fields.JsonError(error, text.data()), text, fields);
  }
  for (TablePass pass : kPasses) {
    object top;
    if (auto error = doc.get_object().get(top)) {
      if (error == simdjson::INCORRECT_TYPE) {
        return fields.ErrorAt(text.data(), "a native trace is a JSON object");
      }
      return LocateSyntaxError(fields.JsonError(error, text.data()), text, fields);
    }
    Status s = builder->ReadTopLevel(top, pass, fields);
    const char* trailing = nullptr;
    if (s.ok() && TrailingContent(doc, &trailing)) {
      s = fields.ErrorAt(trailing, "not valid JSON: more text after the top-level object");
    }
    if (!s.ok()) return LocateSyntaxError(s, text, fields);  // by hand: adds the position
    if (pass == TablePass::kHeaderDevicesTracks && !builder->saw_schema()) {
      return MissingSchema(fields, text.data());
    }
    doc.rewind();
  }
  return Status::Ok();
}

// One NDJSON record line after the header.
Status ReadRecordLine(std::string_view line, size_t capacity, simdjson::ondemand::parser& parser,
                      FieldReader& fields, TraceBuilder* builder) {
  document doc;
  object record;
  if (auto error = parser.iterate(line.data(), line.size(), capacity).get(doc)) {
    return LocateSyntaxError(fields.JsonError(error, line.data()), line, fields);
  }
  if (auto error = doc.get_object().get(record)) {
    if (error != simdjson::INCORRECT_TYPE) {
      return LocateSyntaxError(fields.JsonError(error, line.data()), line, fields);
    }
    return fields.ErrorAt(line.data(), "each line of an NDJSON native trace is a JSON object");
  }
  std::string_view type;
  simdjson::ondemand::value type_value;
  auto found = record.find_field_unordered("type");
  if (std::move(found).get(type_value) || type_value.get_string().get(type)) {
    if (found.error() && found.error() != simdjson::NO_SUCH_FIELD) {
      return LocateSyntaxError(fields.JsonError(found.error(), line.data()), line, fields);
    }
    return fields.ErrorAt(line.data(),
                          "a record needs a \"type\" string (device, track, kernel, "
                          "transfer, api_call, slice, flow or kernel_counters)");
  }
  const std::string type_name(type);  // the view does not outlive a reset
  if (auto error = record.reset().error()) return fields.JsonError(error, nullptr);
  if (!TraceBuilder::IsRecordType(type_name)) {
    builder->UnknownRecordType(type_name, fields.Locate(line.data()));
    return Status::Ok();
  }
  Status s = builder->ReadRecord(record, type_name, line.data(), fields);
  const char* trailing = nullptr;
  if (s.ok() && TrailingContent(doc, &trailing)) {
    s = fields.ErrorAt(trailing, "not valid JSON: more text after the record's object");
  }
  return LocateSyntaxError(s, line, fields);
}

bool Blank(std::string_view line) {
  return line.find_first_not_of(" \t\r\n") == std::string_view::npos;
}

}  // namespace

StatusOr<Trace> NativeImporter::Import(const Input& input, const ImportOptions& options) const {
  const std::string& path = input.path();
  TM_ASSIGN_OR_RETURN(std::unique_ptr<BlockReader> opened, input.Blocks());
  BlockReader& reader = *opened;
  auto progress = [&] {
    if (options.progress) options.progress(reader.file_bytes_consumed(), reader.file_size());
  };

  // Read until the first line that is not blank is complete: it decides the layout.
  std::string text;
  std::vector<char> block;
  size_t first_line_end = std::string::npos;
  bool more = true;
  while (first_line_end == std::string::npos && (more = reader.Next(&block))) {
    const size_t searched = text.size();
    text.append(block.data(), block.size());
    progress();
    for (size_t from = searched; first_line_end == std::string::npos;) {
      const size_t newline = text.find('\n', from);
      if (newline == std::string::npos) break;
      if (!Blank(std::string_view(text).substr(0, newline))) first_line_end = newline;
      from = newline + 1;
    }
  }
  if (!more) TM_RETURN_IF_ERROR(reader.status());
  const std::string_view first_line = std::string_view(text).substr(
      0, first_line_end == std::string::npos ? text.size() : first_line_end);
  if (Blank(first_line)) return UnreadableInput("the file is empty", SourcePosition{1, 1});

  TraceBuilder builder(path);
  simdjson::ondemand::parser parser;
  if (!IsCompleteObject(first_line)) {
    // The JSON layout: one document, held whole.
    while (more && (more = reader.Next(&block))) {
      text.append(block.data(), block.size());
      progress();
    }
    TM_RETURN_IF_ERROR(reader.status());
    text.reserve(text.size() + simdjson::SIMDJSON_PADDING);
    const std::string_view whole(text);
    FieldReader fields([whole](const char* at) { return PositionIn(whole, at); }, "header");
    TM_RETURN_IF_ERROR(ReadTopLevelText(whole, text.capacity(), parser, fields, &builder));
  } else {
    // NDJSON: the header line, then one record per line, streamed.
    std::vector<char> line_buffer;
    uint64_t line_number = 0, line_offset = 0;
    bool header_done = false;
    auto handle_line = [&](std::string_view line) -> Status {
      ++line_number;
      const uint64_t this_line_offset = line_offset;
      line_offset += line.size() + 1;
      if (Blank(line)) return Status::Ok();
      line_buffer.assign(line.begin(), line.end());
      line_buffer.resize(line.size() + simdjson::SIMDJSON_PADDING);
      const std::string_view padded(line_buffer.data(), line.size());
      FieldReader fields(
          [&, base = line_buffer.data()](const char* at) {
            const uint64_t column = at == nullptr ? 0 : static_cast<uint64_t>(at - base);
            return SourcePosition{line_number, column + 1, this_line_offset + column};
          },
          "header");
      if (!header_done) {
        header_done = true;
        return ReadTopLevelText(padded, line_buffer.size(), parser, fields, &builder);
      }
      return ReadRecordLine(padded, line_buffer.size(), parser, fields, &builder);
    };
    // Lines in `text` so far, then the rest of the file block by block; `text` keeps the partial
    // last line.
    size_t consumed = 0;
    auto drain = [&]() -> Status {
      for (size_t newline; (newline = text.find('\n', consumed)) != std::string::npos;) {
        TM_RETURN_IF_ERROR(
            handle_line(std::string_view(text).substr(consumed, newline - consumed)));
        consumed = newline + 1;
      }
      text.erase(0, consumed);
      consumed = 0;
      return Status::Ok();
    };
    TM_RETURN_IF_ERROR(drain());
    while (more && (more = reader.Next(&block))) {
      text.append(block.data(), block.size());
      progress();
      TM_RETURN_IF_ERROR(drain());
    }
    TM_RETURN_IF_ERROR(reader.status());
    if (!text.empty()) {
      TM_RETURN_IF_ERROR(handle_line(text));
    }
  }
  TM_ASSIGN_OR_RETURN(Trace trace, builder.Build());
  if (!reader.warning().empty()) {
    trace.warnings.push_back(fmt::format("{}: {}", path, reader.warning()));
  }
  // Build() put the tables in order itself (a stable order that keeps rows as the file wrote
  // them, and kernel_counters' positions); a file that lists its backends keeps them.
  FinishImport(&trace, {.order = TableOrder::kInOrder,
                        .backends = {.host_traced = true, .given = builder.backends_given()}});
  return trace;
}

}  // namespace tensormorph::native
