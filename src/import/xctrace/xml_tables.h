// The document model of an `xcrun xctrace export --xpath ...` XML file (reference:
// other-backends.md §3.2), read with expat as a stream:
//
//   <trace-query-result>
//     <node xpath="..."> <schema name="metal-gpu-intervals"> <col><mnemonic>start</mnemonic>...
//       <row> <start-time id="1" fmt="...">100</start-time> <duration ref="2"/> <sentinel/> ...
//
// Rules the reader keeps: a row's i-th child element is the cell of the node's i-th <col>; the
// first occurrence of a value carries id="N" and later ones are <tag ref="N"/>, with ids global to
// the document, possibly defined nested inside another value and possibly referenced before their
// definition (so references are resolved after the whole document is read); <sentinel/> is an
// empty cell; element text is the raw value, `fmt` its display form.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "tensormorph/model/status.h"

namespace tensormorph::xctrace {

constexpr uint32_t kNoValue = UINT32_MAX;

// One element of a cell's value tree, e.g. <process fmt="python (42)"><pid>42</pid></process>.
struct XmlValue {
  std::string tag;
  std::string fmt;
  std::string text;  // trimmed character data of this element itself
  std::string ref;   // the id it refers to, when it is a <tag ref="N"/>
  std::vector<uint32_t> children;
  bool sentinel = false;
};

struct Column {
  std::string mnemonic;
  std::string name;
  std::string engineering_type;
};

struct Row {
  std::vector<uint32_t> cells;  // XmlValue indexes, by position
  uint64_t line = 0;            // where the <row> starts
};

struct Table {
  std::string schema;
  std::vector<Column> columns;
  std::vector<Row> rows;
  uint64_t line = 0;
  // Column position by mnemonic; -1 when the schema has no such column.
  int ColumnIndex(std::string_view mnemonic) const;
};

struct XmlDocument {
  std::string root;           // "trace-query-result", or "trace-toc" for a --toc export
  std::vector<Table> tables;  // one per <node>; a node without <schema> reuses the previous one
  std::vector<XmlValue> values;
  std::map<std::string, uint32_t, std::less<>> ids;  // id="N" -> value
  uint64_t duplicate_ids = 0;                        // later definitions of an id (first kept)
  uint64_t ragged_rows = 0;  // rows with more or fewer cells than the schema has columns

  // Follows ref="N" links (to any depth, cycles stopped); kNoValue for a sentinel, an unknown id,
  // or kNoValue itself.
  uint32_t Resolve(uint32_t value) const;
  // The resolved cell at `column` of `row`; kNoValue when absent, a sentinel or unresolvable.
  uint32_t Cell(const Table& table, const Row& row, int column) const;
  // The first child (resolved) with this tag, searched depth first; kNoValue when none.
  uint32_t Find(uint32_t value, std::string_view tag) const;
};

// Streams XML content into an XmlDocument: Feed() the blocks in order, then Finish().
// Malformed XML -> UnreadableInput at expat's line:column (1-based).
class XmlTableReader {
 public:
  XmlTableReader();
  ~XmlTableReader();
  XmlTableReader(const XmlTableReader&) = delete;
  XmlTableReader& operator=(const XmlTableReader&) = delete;

  Status Feed(std::string_view block);
  StatusOr<XmlDocument> Finish();

  struct State;  // the expat handlers' state (xml_tables.cc)

 private:
  Status Parse(std::string_view block, bool final);
  State* state_;
};

// The whole content at once (tests).
StatusOr<XmlDocument> ReadXmlTables(std::string_view content);

}  // namespace tensormorph::xctrace
