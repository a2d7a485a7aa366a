#include "import/xctrace/xml_tables.h"

#include <expat.h>
#include <fmt/format.h>

#include <algorithm>
#include <cstring>

namespace tensormorph::xctrace {

int Table::ColumnIndex(std::string_view mnemonic) const {
  for (size_t i = 0; i < columns.size(); ++i) {
    if (columns[i].mnemonic == mnemonic) return static_cast<int>(i);
  }
  return -1;
}

uint32_t XmlDocument::Resolve(uint32_t value) const {
  // A chain longer than the number of ids must have a cycle.
  for (size_t hops = 0; value != kNoValue && hops <= ids.size(); ++hops) {
    const XmlValue& v = values[value];
    if (v.sentinel) return kNoValue;
    if (v.ref.empty()) return value;
    auto it = ids.find(v.ref);
    value = it == ids.end() ? kNoValue : it->second;
  }
  return kNoValue;
}

uint32_t XmlDocument::Cell(const Table& table, const Row& row, int column) const {
  if (column < 0 || static_cast<size_t>(column) >= row.cells.size()) return kNoValue;
  return Resolve(row.cells[column]);
}

uint32_t XmlDocument::Find(uint32_t value, std::string_view tag) const {
  // Depth-first over resolved children; a visit budget keeps reference cycles finite.
  std::vector<uint32_t> pending = {Resolve(value)};
  for (size_t visits = 0; !pending.empty() && visits < 4096; ++visits) {
    const uint32_t at = pending.back();
    pending.pop_back();
    if (at == kNoValue) continue;
    for (auto it = values[at].children.rbegin(); it != values[at].children.rend(); ++it) {
      const uint32_t child = Resolve(*it);
      if (child != kNoValue && values[child].tag == tag) return child;
      pending.push_back(child);
    }
  }
  return kNoValue;
}

namespace {

enum class Frame : uint8_t { kRoot, kNode, kSchema, kCol, kColField, kRow, kValue, kOther };

struct Open {
  Frame frame;
  uint32_t value = kNoValue;    // kValue
  std::string* text = nullptr;  // kColField and kValue: where character data goes
};

std::string_view Attr(const XML_Char** attrs, const char* key) {
  for (size_t i = 0; attrs[i] != nullptr; i += 2) {
    if (std::strcmp(attrs[i], key) == 0) return attrs[i + 1];
  }
  return {};
}

void TrimInPlace(std::string* s) {
  const size_t first = s->find_first_not_of(" \t\r\n");
  if (first == std::string::npos) {
    s->clear();
    return;
  }
  s->erase(s->find_last_not_of(" \t\r\n") + 1);
  s->erase(0, first);
}

}  // namespace

struct XmlTableReader::State {
  XML_Parser parser = nullptr;
  XmlDocument doc;
  std::vector<Open> open;

  Table* CurrentTable() { return doc.tables.empty() ? nullptr : &doc.tables.back(); }

  void Start(const XML_Char* name, const XML_Char** attrs) {
    const std::string_view tag = name;
    const Frame parent = open.empty() ? Frame::kOther : open.back().frame;
    if (open.empty()) {
      doc.root = std::string(tag);
      open.push_back({Frame::kRoot});
      return;
    }
    if (parent == Frame::kRoot && tag == "node") {
      Table table;
      table.line = XML_GetCurrentLineNumber(parser);
      doc.tables.push_back(std::move(table));
      open.push_back({Frame::kNode});
    } else if (parent == Frame::kNode && tag == "schema") {
      CurrentTable()->schema = std::string(Attr(attrs, "name"));
      CurrentTable()->columns.clear();
      open.push_back({Frame::kSchema});
    } else if (parent == Frame::kSchema && tag == "col") {
      CurrentTable()->columns.emplace_back();
      open.push_back({Frame::kCol});
    } else if (parent == Frame::kCol) {
      Column& col = CurrentTable()->columns.back();
      std::string* field = tag == "mnemonic"           ? &col.mnemonic
                           : tag == "name"             ? &col.name
                           : tag == "engineering-type" ? &col.engineering_type
                                                       : nullptr;
      open.push_back({field ? Frame::kColField : Frame::kOther, kNoValue, field});
    } else if (parent == Frame::kNode && tag == "row") {
      Table* table = CurrentTable();
      if (table->schema.empty() && table->columns.empty()) InheritSchema();
      table->rows.push_back(Row{{}, XML_GetCurrentLineNumber(parser)});
      open.push_back({Frame::kRow});
    } else if (parent == Frame::kRow || parent == Frame::kValue) {
      const uint32_t index = static_cast<uint32_t>(doc.values.size());
      XmlValue value;
      value.tag = std::string(tag);
      value.fmt = std::string(Attr(attrs, "fmt"));
      value.ref = std::string(Attr(attrs, "ref"));
      value.sentinel = tag == "sentinel";
      doc.values.push_back(std::move(value));
      if (const std::string_view id = Attr(attrs, "id"); !id.empty()) {
        if (!doc.ids.emplace(std::string(id), index).second) ++doc.duplicate_ids;
      }
      if (parent == Frame::kRow) {
        CurrentTable()->rows.back().cells.push_back(index);
      } else {
        doc.values[open.back().value].children.push_back(index);
      }
      open.push_back({Frame::kValue, index, nullptr});
    } else {
      open.push_back({Frame::kOther});
    }
  }

  // A <node> whose rows come without a <schema>: the previous node's schema applies.
  void InheritSchema() {
    for (size_t i = doc.tables.size() - 1; i-- > 0;) {
      if (!doc.tables[i].columns.empty()) {
        doc.tables.back().schema = doc.tables[i].schema;
        doc.tables.back().columns = doc.tables[i].columns;
        return;
      }
    }
  }

  void Text(const XML_Char* s, int len) {
    if (open.empty()) return;
    Open& top = open.back();
    if (top.frame == Frame::kColField && top.text) top.text->append(s, len);
    if (top.frame == Frame::kValue) doc.values[top.value].text.append(s, len);
  }

  void End() {
    if (open.empty()) return;
    Open top = open.back();
    open.pop_back();
    if (top.frame == Frame::kColField && top.text) TrimInPlace(top.text);
    if (top.frame == Frame::kValue) TrimInPlace(&doc.values[top.value].text);
    if (top.frame == Frame::kRow) {
      const Table& table = *CurrentTable();
      if (table.rows.back().cells.size() != table.columns.size()) ++doc.ragged_rows;
    }
  }
};

namespace {

void XMLCALL OnStart(void* user, const XML_Char* name, const XML_Char** attrs) {
  static_cast<XmlTableReader::State*>(user)->Start(name, attrs);
}
void XMLCALL OnEnd(void* user, const XML_Char*) {
  static_cast<XmlTableReader::State*>(user)->End();
}
void XMLCALL OnText(void* user, const XML_Char* s, int len) {
  static_cast<XmlTableReader::State*>(user)->Text(s, len);
}

}  // namespace

XmlTableReader::XmlTableReader() : state_(new State) {
  state_->parser = XML_ParserCreate(nullptr);
  XML_SetUserData(state_->parser, state_);
  XML_SetElementHandler(state_->parser, OnStart, OnEnd);
  XML_SetCharacterDataHandler(state_->parser, OnText);
}

XmlTableReader::~XmlTableReader() {
  if (state_->parser) XML_ParserFree(state_->parser);
  delete state_;
}

Status XmlTableReader::Parse(std::string_view block, bool final) {
  // Expat takes int lengths: feed big blocks in pieces.
  constexpr size_t kPiece = 1 << 30;
  do {
    const size_t n = std::min(block.size(), kPiece);
    const bool last = final && n == block.size();
    if (XML_Parse(state_->parser, block.data(), static_cast<int>(n), last) == XML_STATUS_ERROR) {
      return UnreadableInput(
          fmt::format("not well-formed XML: {}", XML_ErrorString(XML_GetErrorCode(state_->parser))),
          SourcePosition{XML_GetCurrentLineNumber(state_->parser),
                         XML_GetCurrentColumnNumber(state_->parser) + 1});
    }
    block.remove_prefix(n);
  } while (!block.empty());
  return Status::Ok();
}

Status XmlTableReader::Feed(std::string_view block) {
  return Parse(block, false);
}

StatusOr<XmlDocument> XmlTableReader::Finish() {
  TM_RETURN_IF_ERROR(Parse({}, true));
  return std::move(state_->doc);
}

StatusOr<XmlDocument> ReadXmlTables(std::string_view content) {
  XmlTableReader reader;
  TM_RETURN_IF_ERROR(reader.Feed(content));
  return reader.Finish();
}

}  // namespace tensormorph::xctrace
