// A result row's fields, named once. Each command's report keeps one table of {name, JSON getter,
// CSV getter} per row type; its `--format json` rows, its CSV header and cells, and the HTML
// report's model (report/html/report_model.cc) are all written from that table, so a field cannot
// be spelled two ways.
//
// A column without a JSON getter is CSV only (a flattened form of a nested JSON field, say), one
// without a CSV getter JSON only. A JSON getter may return Omit() for a row that has no such field
// (the key is then left out of that row's object).
#pragma once

#include <span>
#include <string>
#include <vector>

#include "report/json_output.h"

namespace tensormorph {

template <typename Row>
struct Column {
  const char* name;
  Json (*json)(const Row&) = nullptr;        // null: not in JSON
  std::string (*csv)(const Row&) = nullptr;  // null: not in CSV
  const char* csv_name = nullptr;            // the CSV header when it is not `name`
};

// What a JSON getter returns for a row without the field.
inline Json Omit() {
  return Json(Json::value_t::discarded);
}

// The row's JSON fields, in the table's order, appended to `object`.
template <typename Row>
void AddJsonFields(std::span<const Column<Row>> columns, const Row& row, Json* object) {
  for (const Column<Row>& c : columns) {
    if (c.json == nullptr) continue;
    Json value = c.json(row);
    if (!value.is_discarded()) (*object)[c.name] = std::move(value);
  }
}

template <typename Row>
Json ColumnsJson(std::span<const Column<Row>> columns, const Row& row) {
  Json object = Json::object();
  AddJsonFields(columns, row, &object);
  return object;
}

template <typename Row>
void AddCsvHeader(std::span<const Column<Row>> columns, std::vector<std::string>* header) {
  for (const Column<Row>& c : columns) {
    if (c.csv != nullptr) header->emplace_back(c.csv_name != nullptr ? c.csv_name : c.name);
  }
}

template <typename Row>
void AddCsvCells(std::span<const Column<Row>> columns, const Row& row,
                 std::vector<std::string>* cells) {
  for (const Column<Row>& c : columns) {
    if (c.csv != nullptr) cells->push_back(c.csv(row));
  }
}

}  // namespace tensormorph
