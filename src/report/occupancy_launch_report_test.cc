#include "report/occupancy_launch_report.h"

#include <gtest/gtest.h>

#include <sstream>
#include <string>
#include <vector>

#include "io/csv_reader.h"
#include "io/json.h"

namespace tensormorph {
namespace {
namespace TM_UNITY_ID {  // unique per file in a unity batch (tests/CMakeLists.txt)

struct Rendered {
  std::string table;
  Json json;
  std::vector<std::string> csv_header;
  std::vector<std::string> csv_cells;
};

Rendered Render(const std::string& arch_name, const LaunchConfig& launch) {
  StatusOr<GpuArch> arch = ParseArch(arch_name);
  EXPECT_TRUE(arch.ok()) << arch.status().message();
  StatusOr<OccupancyResult> result = ComputeOccupancy(*arch, launch);
  EXPECT_TRUE(result.ok()) << result.status().message();
  const OccupancyLaunch report{*arch, launch, *result};
  Rendered out;
  std::ostringstream table, json, csv;
  RenderOccupancyLaunch(table, report, OutputFormat::kTable);
  RenderOccupancyLaunch(json, report, OutputFormat::kJson);
  RenderOccupancyLaunch(csv, report, OutputFormat::kCsv);
  out.table = table.str();
  out.json = Json::parse(json.str());
  CsvReader reader(csv.str());
  CsvRecord record;
  EXPECT_TRUE(reader.Next(&record));
  out.csv_header = record.fields;
  EXPECT_TRUE(reader.Next(&record));
  out.csv_cells = record.fields;
  EXPECT_FALSE(reader.Next(&record));
  return out;
}

// A CSV cell as the JSON value it flattens: numbers compared as numbers, null as "".
void ExpectCellIsJson(const std::string& name, const std::string& cell, const Json& value) {
  if (value.is_null()) {
    EXPECT_EQ(cell, "") << name;
  } else if (value.is_number()) {
    EXPECT_DOUBLE_EQ(std::stod(cell), value.get<double>()) << name;
  } else {
    EXPECT_EQ(cell, value.get<std::string>()) << name;
  }
}

// Every CSV column is a JSON field: a top-level one, one of "launch", or limit_X for "limits"'s X,
// with the same value; and they come in the JSON's order. A field the vendor's JSON leaves out
// (AMD's carveout) is an empty cell.
void ExpectCsvFlattensJson(const Rendered& r) {
  ASSERT_EQ(r.csv_header, OccupancyLaunchCsvHeader());
  ASSERT_EQ(r.csv_header.size(), r.csv_cells.size());
  std::vector<std::string> flattened;  // the JSON's keys, nested ones as CSV names them
  std::vector<Json> values;
  for (const auto& [key, value] : r.json.items()) {
    if (key == "launch" || key == "limits") {
      for (const auto& [inner, v] : value.items()) {
        flattened.push_back(key == "limits" ? "limit_" + inner : inner);
        values.push_back(v);
      }
    } else {
      flattened.push_back(key);
      values.push_back(value);
    }
  }
  size_t at = 0;
  for (size_t i = 0; i < r.csv_header.size(); ++i) {
    size_t found = at;
    while (found < flattened.size() && flattened[found] != r.csv_header[i]) ++found;
    if (found == flattened.size()) {
      EXPECT_EQ(r.json["vendor"], "amd")
          << r.csv_header[i] << ": not a JSON field, or out of order";
      EXPECT_EQ(r.csv_cells[i], "") << r.csv_header[i];
      continue;
    }
    at = found;
    ExpectCellIsJson(r.csv_header[i], r.csv_cells[i], values[at]);
  }
}

TEST(OccupancyLaunchReport, HopperRegisterLimitedLaunch) {
  LaunchConfig launch;
  launch.block_size = 256;
  launch.registers_per_thread = 64;
  const Rendered r = Render("sm_90", launch);
  // By hand (CUDA occupancy calculator, H100: 64K registers and 64 warps per SM): 64 registers x
  // 256 threads = 16384 per block, so 65536 / 16384 = 4 blocks; 8 warps each, 32 of 64 warps.
  EXPECT_EQ(r.json["schema"], "tensormorph.occupancy/1");
  EXPECT_EQ(r.json["vendor"], "nvidia");
  EXPECT_EQ(r.json["compute_capability"], "9.0");
  EXPECT_EQ(r.json["launch"]["block_size"], 256);
  EXPECT_EQ(r.json["launch"]["registers_per_thread"], 64);
  EXPECT_TRUE(r.json["launch"]["carveout_bytes"].is_null());
  EXPECT_FALSE(r.json["launch"].contains("accum_registers"));
  EXPECT_EQ(r.json["limits"]["registers"], 4);
  EXPECT_EQ(r.json["limits"]["warps"], 64 / 8);
  EXPECT_EQ(r.json["active_blocks_per_sm"], 4);
  EXPECT_EQ(r.json["active_warps_per_sm"], 32);
  EXPECT_EQ(r.json["max_warps_per_sm"], 64);
  EXPECT_DOUBLE_EQ(r.json["occupancy"].get<double>(), 0.5);
  EXPECT_EQ(r.json["limiter"], "registers");
  EXPECT_EQ(r.json["registers_per_block"], 16384);
  EXPECT_FALSE(r.json.contains("wave_size"));
  EXPECT_FALSE(r.json["limits"].contains("vgprs"));
  ExpectCsvFlattensJson(r);
  EXPECT_NE(r.table.find("theoretical occupancy: 50.00 %, limited by registers"), std::string::npos)
      << r.table;
}

TEST(OccupancyLaunchReport, CarveoutIsWrittenWhenGiven) {
  LaunchConfig launch;
  launch.block_size = 128;
  launch.registers_per_thread = 32;
  launch.dynamic_shared_bytes = 49152;
  launch.carveout_bytes = 100000;
  const Rendered r = Render("sm_80", launch);
  EXPECT_EQ(r.json["launch"]["shared_memory_bytes"], 49152);
  EXPECT_EQ(r.json["launch"]["carveout_bytes"], 100000);
  EXPECT_FALSE(r.json["limits"].contains("barriers"));  // CC 8.0 has no barrier limit
  ExpectCsvFlattensJson(r);
}

TEST(OccupancyLaunchReport, AmdFieldsInsteadOfNvidiaOnes) {
  LaunchConfig launch;
  launch.block_size = 256;
  launch.registers_per_thread = 64;
  launch.accum_registers = 32;
  launch.scalar_registers = 40;
  const Rendered r = Render("gfx942", launch);
  EXPECT_EQ(r.json["vendor"], "amd");
  EXPECT_FALSE(r.json.contains("compute_capability"));
  EXPECT_FALSE(r.json["launch"].contains("carveout_bytes"));
  EXPECT_EQ(r.json["launch"]["accum_registers"], 32);
  EXPECT_EQ(r.json["launch"]["scalar_registers"], 40);
  EXPECT_TRUE(r.json["limits"].contains("vgprs"));
  EXPECT_TRUE(r.json["limits"].contains("sgprs"));
  EXPECT_EQ(r.json["wave_size"], 64);  // CDNA's default
  EXPECT_EQ(r.json["warps_per_block"], 256 / 64);
  EXPECT_FALSE(r.json.contains("registers_per_block"));
  // The CSV has the same columns for both vendors; AMD leaves the carveout empty.
  ExpectCsvFlattensJson(r);
  EXPECT_NE(r.table.find("workgroup of 256 work-items (4 waves), 64 VGPRs + 32 AGPRs, 40 SGPRs"),
            std::string::npos)
      << r.table;
}

}  // namespace TM_UNITY_ID
}  // namespace
}  // namespace tensormorph
