#include "io/csv_reader.h"

#include <gtest/gtest.h>

namespace tensormorph {
namespace {
namespace TM_UNITY_ID {  // unique per file in a unity batch (tests/CMakeLists.txt)

std::vector<CsvRecord> ReadAll(CsvReader& reader) {
  std::vector<CsvRecord> records;
  CsvRecord record;
  while (reader.Next(&record)) records.push_back(record);
  EXPECT_TRUE(reader.status().ok()) << reader.status().message();
  return records;
}

std::vector<CsvRecord> ReadText(std::string_view text) {
  CsvReader reader(text);
  return ReadAll(reader);
}

// The same text handed over in blocks of `size` bytes: records cross block boundaries anywhere,
// also between the CR and LF of a line end and between the two quotes of "".
std::vector<CsvRecord> ReadInBlocks(std::string_view text, size_t size) {
  size_t at = 0;
  CsvReader reader([&](std::vector<char>* block) {
    if (at >= text.size()) return false;
    const size_t n = std::min(size, text.size() - at);
    block->assign(text.data() + at, text.data() + at + n);
    at += n;
    return true;
  });
  return ReadAll(reader);
}

using Fields = std::vector<std::string>;

TEST(NcuCsvReader, QuotedAndUnquotedFields) {
  auto r = ReadText("\"ID\",\"Kernel Name\",plain\n\"0\",\"f(int, float)\",x\n");
  ASSERT_EQ(r.size(), 2u);
  EXPECT_EQ(r[0].fields, (Fields{"ID", "Kernel Name", "plain"}));
  EXPECT_EQ(r[1].fields, (Fields{"0", "f(int, float)", "x"}));
  EXPECT_EQ(r[1].line, 2u);
  EXPECT_EQ(r[1].columns, (std::vector<uint32_t>{1, 5, 21}));
  EXPECT_EQ(r[1].raw, "\"0\",\"f(int, float)\",x");
}

TEST(NcuCsvReader, EmbeddedQuotesCommasAndLineBreaks) {
  auto r = ReadText("\"say \"\"hi\"\", then go\",\"two\nlines\",\"\"\n\"next\"\n");
  ASSERT_EQ(r.size(), 2u);
  EXPECT_EQ(r[0].fields, (Fields{"say \"hi\", then go", "two\nlines", ""}));
  EXPECT_EQ(r[0].line, 1u);
  EXPECT_EQ(r[1].fields, (Fields{"next"}));
  EXPECT_EQ(r[1].line, 3u);  // the line break inside the field counts
}

TEST(NcuCsvReader, TrailingCommaGivesAnEmptyLastField) {
  // ncu ends every metric row of the details page this way.
  auto r = ReadText("\"a\",\"b\",\n");
  ASSERT_EQ(r.size(), 1u);
  EXPECT_EQ(r[0].fields, (Fields{"a", "b", ""}));
}

TEST(NcuCsvReader, ByteOrderMarkCrlfAndLoneCr) {
  auto r = ReadText("\xEF\xBB\xBF\"ID\",\"x\"\r\n\"1\",\"y\r\nz\"\r\n\"2\",\"w\"\r\"3\",\"v\"");
  ASSERT_EQ(r.size(), 4u);
  EXPECT_EQ(r[0].fields, (Fields{"ID", "x"}));  // no BOM in the first field
  EXPECT_EQ(r[0].columns[0], 1u);
  EXPECT_EQ(r[1].fields, (Fields{"1", "y\r\nz"}));
  EXPECT_EQ(r[2].fields, (Fields{"2", "w"}));
  EXPECT_EQ(r[2].line, 4u);
  EXPECT_EQ(r[3].fields, (Fields{"3", "v"}));  // last line without a line end
  EXPECT_EQ(r[3].line, 5u);
}

TEST(NcuCsvReader, BlankLinesAreSkippedButCounted) {
  auto r = ReadText("\n\"a\"\n\r\n\n\"b\"\n\n");
  ASSERT_EQ(r.size(), 2u);
  EXPECT_EQ(r[0].line, 2u);
  EXPECT_EQ(r[1].line, 5u);
}

TEST(NcuCsvReader, LenientWithStrayQuotes) {
  auto r = ReadText("ab\"c,\"d\"e,f\n");
  ASSERT_EQ(r.size(), 1u);
  EXPECT_EQ(r[0].fields, (Fields{"ab\"c", "de", "f"}));
  EXPECT_TRUE(r[0].malformed);
  EXPECT_EQ(r[0].malformed_column, 9u);
}

TEST(NcuCsvReader, UnclosedQuoteAtTheEnd) {
  auto r = ReadText("\"a\",\"b\"\n\"c\",\"never closed\nd,e\n");
  ASSERT_EQ(r.size(), 2u);
  EXPECT_FALSE(r[0].unterminated);
  EXPECT_TRUE(r[1].unterminated);
  EXPECT_EQ(r[1].line, 2u);
}

TEST(NcuCsvReader, ToolMessagesAreRecordsWithTheirRawText) {
  auto r = ReadText(
      "==PROF== Connected to process 1 (/usr/bin/python3.12)\n"
      "==ERROR== a, b \"c\"\n");
  ASSERT_EQ(r.size(), 2u);
  EXPECT_EQ(r[1].raw, "==ERROR== a, b \"c\"");
}

TEST(NcuCsvReader, SameRecordsWhateverTheBlockSize) {
  const std::string text =
      "\xEF\xBB\xBF\"ID\",\"Kernel Name\",\"Metric Value\"\r\n"
      "\"0\",\"k<\"\"x\"\", 2>(int,\r\nfloat)\",\"13,485\"\r\n"
      "\r\n"
      "\"1\",plain,\"9,495.42\",\n"
      "\"2\",\"\",\"n/a\"\r";
  const std::vector<CsvRecord> whole = ReadText(text);
  ASSERT_EQ(whole.size(), 4u);
  for (size_t size : {1, 2, 3, 5, 7, 64}) {
    SCOPED_TRACE(size);
    const std::vector<CsvRecord> parts = ReadInBlocks(text, size);
    ASSERT_EQ(parts.size(), whole.size());
    for (size_t i = 0; i < whole.size(); ++i) {
      EXPECT_EQ(parts[i].fields, whole[i].fields);
      EXPECT_EQ(parts[i].columns, whole[i].columns);
      EXPECT_EQ(parts[i].line, whole[i].line);
      EXPECT_EQ(parts[i].raw, whole[i].raw);
    }
  }
  EXPECT_EQ(whole[1].fields[1], "k<\"x\", 2>(int,\r\nfloat)");
  EXPECT_EQ(whole[2].line, 5u);
  EXPECT_EQ(whole[3].line, 6u);
}

TEST(NcuCsvReader, AnUnclosedQuoteDoesNotBufferTheWholeFile) {
  // The record is cut off after kMaxRecordBytes, with an error at its first line.
  size_t served = 0;
  CsvReader reader([&](std::vector<char>* block) {
    if (served > CsvReader::kMaxRecordBytes + (8 << 20)) return false;
    block->assign(4 << 20, 'x');
    if (served == 0) block->front() = '"';
    served += block->size();
    return true;
  });
  CsvRecord record;
  EXPECT_FALSE(reader.Next(&record));
  EXPECT_FALSE(reader.status().ok());
  EXPECT_EQ(reader.status().position().line, 1u);
  EXPECT_LE(served, CsvReader::kMaxRecordBytes + (8 << 20));
}

}  // namespace TM_UNITY_ID
}  // namespace
}  // namespace tensormorph
