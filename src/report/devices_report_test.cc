#include "report/devices_report.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "io/csv_reader.h"
#include "io/json.h"

namespace tensormorph {
namespace {
namespace TM_UNITY_ID {  // unique per file in a unity batch (tests/CMakeLists.txt)

std::vector<CsvRecord> ReadCsv(const std::string& text) {
  CsvReader reader(text);
  std::vector<CsvRecord> records;
  CsvRecord record;
  while (reader.Next(&record)) records.push_back(record);
  EXPECT_TRUE(reader.status().ok());
  return records;
}

std::string Rendered(const std::vector<DeviceSpec>& devices, OutputFormat format) {
  std::ostringstream out;
  RenderDevices(out, {}, devices, format);
  return out.str();
}

std::string RenderedMatch(const std::string& name, OutputFormat format) {
  DeviceQuery query;
  query.name = name;
  std::ostringstream out;
  RenderDeviceMatch(out, {}, query, MatchDevice(query), format);
  return out.str();
}

// The table a reviewer edits, read here on its own.
Json DevicesJsonFile() {
  std::ifstream in(std::string(TM_SOURCE_DIR) + "/src/devices/devices.json");
  EXPECT_TRUE(in) << "src/devices/devices.json";
  return Json::parse(in);
}

const Json* FindKey(const Json& devices, const std::string& key) {
  for (const Json& d : devices) {
    if (d["key"] == key) return &d;
  }
  return nullptr;
}

// Each entry's identity and each figure written with a plain value (or in GiB / MiB) in
// devices.json is what `devices --format json` reports for it.
TEST(DevicesReport, JsonIsTheDataFile) {
  const Json file = DevicesJsonFile();
  const Json doc = Json::parse(Rendered(BuiltInDevices(), OutputFormat::kJson));
  EXPECT_EQ(doc["schema"], "tensormorph.devices/1");
  ASSERT_EQ(doc["device_count"], file["devices"].size());
  int figures = 0;
  for (const Json& entry : file["devices"]) {
    const Json* out = FindKey(doc["devices"], entry["key"].get<std::string>());
    ASSERT_NE(out, nullptr) << entry["key"];
    for (const char* field : {"name", "vendor", "backend", "architecture"}) {
      if (entry.contains(field)) {
        EXPECT_EQ((*out)[field], entry[field]) << entry["key"] << " " << field;
      }
    }
    if (entry.contains("aliases")) {
      EXPECT_EQ((*out)["aliases"], entry["aliases"]) << entry["key"];
    }
    for (const auto& [field, value] : entry.items()) {
      if (!value.is_object()) continue;
      double expected;
      if (value.contains("value")) {
        expected = value["value"].get<double>();
      } else if (value.contains("gib")) {
        expected = value["gib"].get<double>() * 1024 * 1024 * 1024;
      } else if (value.contains("mib")) {
        expected = value["mib"].get<double>() * 1024 * 1024;
      } else {
        continue;  // derived from other inputs (a PCIe generation)
      }
      ASSERT_TRUE(out->contains(field)) << entry["key"] << " " << field;
      EXPECT_NEAR((*out)[field].get<double>(), expected, std::abs(expected) * 1e-12 + 0.5)
          << entry["key"] << " " << field;
      ++figures;
    }
  }
  EXPECT_GT(figures, 500);
  // One by hand, so that the loop above cannot pass by skipping everything.
  const Json* h100 = FindKey(doc["devices"], "h100-sxm5-80gb");
  ASSERT_NE(h100, nullptr);
  EXPECT_EQ((*h100)["compute_units"], 132);
  EXPECT_EQ((*h100)["memory_bytes"], int64_t{80} << 30);
}

// The CSV's columns are JSON fields of an entry, in the JSON's order where they are flat (the
// figures), and hold the same values.
TEST(DevicesReport, CsvFlattensTheJson) {
  const std::vector<CsvRecord> csv = ReadCsv(Rendered(BuiltInDevices(), OutputFormat::kCsv));
  const Json doc = Json::parse(Rendered(BuiltInDevices(), OutputFormat::kJson));
  ASSERT_EQ(csv.size(), doc["devices"].size() + 1);
  EXPECT_EQ(csv[0].fields, DeviceSpecCsvHeader());
  const Json& first = doc["devices"][0];
  std::vector<std::string> figure_keys;  // the JSON's keys between the identity and "sources"
  for (const auto& [key, value] : first.items()) {
    for (int i = 0; i < kMetricCount; ++i) {
      if (key == MetricName(static_cast<Metric>(i))) figure_keys.push_back(key);
    }
  }
  ASSERT_EQ(figure_keys.size(), static_cast<size_t>(kMetricCount));
  std::vector<std::string> csv_figures;
  for (const std::string& name : csv[0].fields) {
    EXPECT_TRUE(first.contains(name)) << name;
    if (std::find(figure_keys.begin(), figure_keys.end(), name) != figure_keys.end()) {
      csv_figures.push_back(name);
    }
  }
  EXPECT_EQ(csv_figures, figure_keys);
  for (size_t row = 1; row < csv.size(); ++row) {
    const Json& device = doc["devices"][row - 1];
    for (size_t i = 0; i < csv[0].size(); ++i) {
      const std::string& name = csv[0].fields[i];
      const std::string& cell = csv[row].at(i);
      const Json& value = device[name];
      if (value.is_null()) {
        EXPECT_EQ(cell, "") << name;
      } else if (value.is_number()) {
        const double v = value.get<double>();
        EXPECT_NEAR(std::stod(cell), v, std::abs(v) * 1e-5) << device["key"] << " " << name;
      } else if (value.is_string()) {
        EXPECT_EQ(cell, value.get<std::string>()) << name;
      } else if (name == "aliases" && !value.empty()) {
        EXPECT_EQ(cell.substr(0, cell.find(';')), value[0].get<std::string>());
      }
    }
  }
}

TEST(DevicesReport, MatchedNameIsTheEntryThatListsIt) {
  // The entry of devices.json whose aliases hold the name.
  std::string expected;
  const Json file = DevicesJsonFile();
  for (const Json& entry : file["devices"]) {
    for (const Json& alias : entry.value("aliases", Json::array())) {
      if (alias == "NVIDIA H100 80GB HBM3") expected = entry["key"].get<std::string>();
    }
  }
  ASSERT_FALSE(expected.empty());
  const Json doc = Json::parse(RenderedMatch("NVIDIA H100 80GB HBM3", OutputFormat::kJson));
  EXPECT_EQ(doc["match"]["matched"], true);
  EXPECT_EQ(doc["match"]["key"], expected);
  EXPECT_EQ(doc["match"]["query"]["name"], "NVIDIA H100 80GB HBM3");
  EXPECT_TRUE(doc["match"]["query"]["backend"].is_null());
  ASSERT_EQ(doc["device_count"], 1);
  EXPECT_EQ(doc["devices"][0]["key"], expected);
  // The CSV's header is the "match" object's keys; its key cell the same entry.
  const std::vector<CsvRecord> csv =
      ReadCsv(RenderedMatch("NVIDIA H100 80GB HBM3", OutputFormat::kCsv));
  ASSERT_EQ(csv.size(), 2u);
  std::vector<std::string> keys;
  for (const auto& [key, value] : doc["match"].items()) keys.push_back(key);
  EXPECT_EQ(csv[0].fields, keys);
  EXPECT_EQ(csv[1].at(0), "NVIDIA H100 80GB HBM3");
  EXPECT_EQ(csv[1].at(1), "true");
  EXPECT_EQ(csv[1].at(2), expected);
  EXPECT_NE(RenderedMatch("NVIDIA H100 80GB HBM3", OutputFormat::kTable)
                .find("\"NVIDIA H100 80GB HBM3\" -> " + expected),
            std::string::npos);
}

TEST(DevicesReport, UnmatchedNameHasNoKey) {
  const Json doc = Json::parse(RenderedMatch("Foo GPU", OutputFormat::kJson));
  EXPECT_EQ(doc["match"]["matched"], false);
  EXPECT_TRUE(doc["match"]["key"].is_null());
  EXPECT_EQ(doc["device_count"], 0);
  const std::vector<CsvRecord> csv = ReadCsv(RenderedMatch("Foo GPU", OutputFormat::kCsv));
  ASSERT_EQ(csv.size(), 2u);
  EXPECT_EQ(csv[1].at(1), "false");
  EXPECT_EQ(csv[1].at(2), "");
  EXPECT_EQ(csv[1].at(3), doc["match"]["reason"].get<std::string>());
}

}  // namespace TM_UNITY_ID
}  // namespace
}  // namespace tensormorph
