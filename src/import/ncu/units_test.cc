#include "import/ncu/units.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <set>

#include "io/csv_reader.h"

namespace tensormorph::ncu {
namespace {
namespace TM_UNITY_ID {  // unique per file in a unity batch (tests/CMakeLists.txt)

Unit U(const char* base, int exponent) {
  return Unit{base, exponent};
}

// Every unit string the real Nsight Compute 2025.1.1 exports in shared/data use.
TEST(NcuUnits, UnitsOfTheRealExports) {
  EXPECT_EQ(ParseUnit(""), U("", 0));
  EXPECT_EQ(ParseUnit("%"), U("%", 0));
  EXPECT_EQ(ParseUnit("byte"), U("byte", 0));
  EXPECT_EQ(ParseUnit("Kbyte"), U("byte", 3));  // SI: ncu scales bytes by 1000
  EXPECT_EQ(ParseUnit("Mbyte"), U("byte", 6));
  EXPECT_EQ(ParseUnit("Gbyte/s"), U("byte/s", 9));
  EXPECT_EQ(ParseUnit("us"), U("ns", 3));
  EXPECT_EQ(ParseUnit("Ghz"), U("Hz", 9));
  EXPECT_EQ(ParseUnit("cycle"), U("cycle", 0));
  EXPECT_EQ(ParseUnit("inst"), U("inst", 0));
  EXPECT_EQ(ParseUnit("inst/cycle"), U("inst/cycle", 0));
  EXPECT_EQ(ParseUnit("byte/cycle"), U("byte/cycle", 0));
  EXPECT_EQ(ParseUnit("warp"), U("warp", 0));
  EXPECT_EQ(ParseUnit("block"), U("block", 0));
  EXPECT_EQ(ParseUnit("cluster"), U("cluster", 0));
}

// Spellings of older and other ncu versions (reference §2.2: nsecond, usecond, msecond,
// cycle/second, register/thr) and the rest of the SI ladder.
TEST(NcuUnits, OtherSpellings) {
  EXPECT_EQ(ParseUnit("nsecond"), U("ns", 0));
  EXPECT_EQ(ParseUnit("usecond"), U("ns", 3));
  EXPECT_EQ(ParseUnit("msecond"), U("ns", 6));
  EXPECT_EQ(ParseUnit("second"), U("ns", 9));
  EXPECT_EQ(ParseUnit("ns"), U("ns", 0));
  EXPECT_EQ(ParseUnit("ms"), U("ns", 6));
  EXPECT_EQ(ParseUnit("s"), U("ns", 9));
  EXPECT_EQ(ParseUnit("\xC2\xB5s"), U("ns", 3));
  EXPECT_EQ(ParseUnit("cycle/second"), U("Hz", 0));
  EXPECT_EQ(ParseUnit("cycle/nsecond"), U("Hz", 9));
  EXPECT_EQ(ParseUnit("cycle/usecond"), U("Hz", 6));
  EXPECT_EQ(ParseUnit("hz"), U("Hz", 0));
  EXPECT_EQ(ParseUnit("Mhz"), U("Hz", 6));
  EXPECT_EQ(ParseUnit("GHz"), U("Hz", 9));
  EXPECT_EQ(ParseUnit("Gbyte"), U("byte", 9));
  EXPECT_EQ(ParseUnit("Tbyte/s"), U("byte/s", 12));
  EXPECT_EQ(ParseUnit("byte/second"), U("byte/s", 0));
  EXPECT_EQ(ParseUnit("Kbyte/block"), U("byte/block", 3));
  EXPECT_EQ(ParseUnit("byte/block"), U("byte/block", 0));
  EXPECT_EQ(ParseUnit("register/thr"), U("register/thread", 0));
  EXPECT_EQ(ParseUnit("register/thread"), U("register/thread", 0));
  EXPECT_EQ(ParseUnit("Minst"), U("inst", 6));
  EXPECT_EQ(ParseUnit("sector"), U("sector", 0));
  EXPECT_EQ(ParseUnit(" Mbyte "), U("byte", 6));
}

TEST(NcuUnits, UnknownUnitsAreNotGuessed) {
  EXPECT_FALSE(ParseUnit("furlong"));
  EXPECT_FALSE(ParseUnit("Xbyte"));
  EXPECT_FALSE(ParseUnit("byte/furlong"));
  EXPECT_FALSE(ParseUnit("%/s"));
  EXPECT_FALSE(ParseUnit("byte/s/s"));
}

// A scan of every "Metric Unit" in the real exports: a new unit string fails here first.
TEST(NcuUnits, EveryUnitInTheRealFilesIsKnown) {
  std::set<std::string> units;
  for (const auto& entry : std::filesystem::directory_iterator(TM_SHARED_DATA "/nvidia/ncu_csv")) {
    if (entry.path().extension() != ".csv") continue;
    std::ifstream in(entry.path(), std::ios::binary);
    std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    CsvReader reader(text);
    CsvRecord record;
    size_t unit_col = SIZE_MAX;
    while (reader.Next(&record)) {
      if (record.at(0) == "ID") {
        for (size_t i = 0; i < record.size(); ++i) {
          if (record.fields[i] == "Metric Unit") unit_col = i;
        }
      } else if (unit_col != SIZE_MAX && record.size() > unit_col) {
        units.insert(record.fields[unit_col]);
      }
    }
  }
  EXPECT_GE(units.size(), 14u);
  for (const std::string& unit : units) EXPECT_TRUE(ParseUnit(unit)) << "'" << unit << "'";
}

TEST(NcuUnits, ThousandsSeparators) {
  std::string plain;
  EXPECT_EQ(CleanNumber("13,485", &plain), NumberText::kNumber);
  EXPECT_EQ(plain, "13485");
  EXPECT_EQ(CleanNumber("9,495.42", &plain), NumberText::kNumber);
  EXPECT_EQ(plain, "9495.42");
  EXPECT_EQ(CleanNumber("1,234,567", &plain), NumberText::kNumber);
  EXPECT_EQ(plain, "1234567");
  EXPECT_EQ(CleanNumber("1.23", &plain), NumberText::kNumber);  // a decimal point stays one
  EXPECT_EQ(plain, "1.23");
  EXPECT_EQ(CleanNumber("0.40", &plain), NumberText::kNumber);
  EXPECT_EQ(plain, "0.40");
  EXPECT_EQ(CleanNumber(" -21,760 ", &plain), NumberText::kNumber);
  EXPECT_EQ(plain, "-21760");
  EXPECT_EQ(CleanNumber("1.5e3", &plain), NumberText::kNumber);
  EXPECT_EQ(plain, "1.5e3");
  EXPECT_EQ(CleanNumber("100", &plain), NumberText::kNumber);
  EXPECT_EQ(plain, "100");
}

TEST(NcuUnits, AbsentAndMalformedValues) {
  std::string plain;
  EXPECT_EQ(CleanNumber("n/a", &plain), NumberText::kAbsent);
  EXPECT_EQ(CleanNumber("N/A", &plain), NumberText::kAbsent);
  EXPECT_EQ(CleanNumber("", &plain), NumberText::kAbsent);
  EXPECT_EQ(CleanNumber("  ", &plain), NumberText::kAbsent);
  // Misplaced separators could be a decimal comma: refused, never read as 123 or 1.23.
  EXPECT_EQ(CleanNumber("1,23", &plain), NumberText::kNotNumber);
  EXPECT_EQ(CleanNumber("12,3456", &plain), NumberText::kNotNumber);
  EXPECT_EQ(CleanNumber("1234,567", &plain), NumberText::kNotNumber);
  EXPECT_EQ(CleanNumber(",123", &plain), NumberText::kNotNumber);
  EXPECT_EQ(CleanNumber("123,", &plain), NumberText::kNotNumber);
  EXPECT_EQ(CleanNumber("1.234,5", &plain), NumberText::kNotNumber);
  EXPECT_EQ(CleanNumber("1.2.3", &plain), NumberText::kNotNumber);
  EXPECT_EQ(CleanNumber("abc", &plain), NumberText::kNotNumber);
  EXPECT_EQ(CleanNumber("12 %", &plain), NumberText::kNotNumber);
  EXPECT_EQ(CleanNumber("1e", &plain), NumberText::kNotNumber);
  EXPECT_EQ(CleanNumber("NVIDIA GeForce RTX 4090", &plain), NumberText::kNotNumber);
}

double Base(const char* value, const char* unit) {
  std::string plain;
  EXPECT_EQ(CleanNumber(value, &plain), NumberText::kNumber) << value;
  std::optional<Unit> u = ParseUnit(unit);
  EXPECT_TRUE(u) << unit;
  return ToBase(plain, u.value_or(Unit{})).value_or(-1);
}

int64_t BaseInteger(const char* value, const char* unit) {
  std::string plain;
  EXPECT_EQ(CleanNumber(value, &plain), NumberText::kNumber) << value;
  std::optional<Unit> u = ParseUnit(unit);
  EXPECT_TRUE(u) << unit;
  return ToBaseInteger(plain, u.value_or(Unit{})).value_or(-1);
}

TEST(NcuUnits, ConversionToBaseUnitsIsExact) {
  EXPECT_EQ(Base("2.33", "Mbyte"), 2330000.0);  // not 2.33 * 1e6 = 2330000.0000000005
  EXPECT_EQ(Base("32.77", "Kbyte"), 32770.0);
  EXPECT_EQ(Base("6.75", "us"), 6750.0);
  EXPECT_EQ(Base("13.72", "Ghz"), 13.72e9);
  EXPECT_EQ(Base("345.14", "Gbyte/s"), 345.14e9);
  EXPECT_EQ(Base("16.67", "%"), 16.67);  // percent stays on 0..100
  EXPECT_EQ(Base("21,760", "inst/cycle"), 21760.0);
  EXPECT_EQ(Base("1.5e3", "Kbyte"), 1.5e6);
  EXPECT_EQ(BaseInteger("4.70", "us"), 4700);
  EXPECT_EQ(BaseInteger("1,234.56", "usecond"), 1234560);
  EXPECT_EQ(BaseInteger("2.05", "msecond"), 2050000);
  EXPECT_EQ(BaseInteger("1", "second"), 1000000000);
  EXPECT_EQ(BaseInteger("812", "nsecond"), 812);
  EXPECT_EQ(BaseInteger("1.2345", "us"), 1235);  // half away from zero
  EXPECT_EQ(BaseInteger("16.38", "Kbyte/block"), 16380);
  EXPECT_FALSE(ToBaseInteger("99999999999", Unit{"ns", 9}));  // beyond int64
}

}  // namespace TM_UNITY_ID
}  // namespace
}  // namespace tensormorph::ncu
