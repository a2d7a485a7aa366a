// The JSON text primitives: exact microsecond text from integer ns, and JSON string escaping
// (checked by parsing the output back with nlohmann, an independent JSON parser).
#include "export/chrome_json/json_writer.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <nlohmann/json.hpp>

#include "io/utf8.h"
#include "model/time.h"

namespace tensormorph::chrome_json {
namespace {
namespace TM_UNITY_ID {  // unique per file in a unity batch (tests/CMakeLists.txt)

std::string Micros(int64_t ns) {
  fmt::memory_buffer out;
  AppendMicros(out, ns);
  return fmt::to_string(out);
}

std::string Quoted(std::string_view text) {
  fmt::memory_buffer out;
  AppendJsonString(out, text);
  return fmt::to_string(out);
}

TEST(ChromeJsonWriter, MicrosAreExactDecimalText) {
  EXPECT_EQ(Micros(0), "0");
  EXPECT_EQ(Micros(1), "0.001");
  EXPECT_EQ(Micros(999), "0.999");
  EXPECT_EQ(Micros(1000), "1");
  EXPECT_EQ(Micros(1500), "1.5");
  EXPECT_EQ(Micros(1234567), "1234.567");
  EXPECT_EQ(Micros(-5), "-0.005");
  EXPECT_EQ(Micros(-1234567), "-1234.567");
  EXPECT_EQ(Micros(1716923416123456789), "1716923416123456.789");
  EXPECT_EQ(Micros(INT64_MAX), "9223372036854775.807");
  EXPECT_EQ(Micros(INT64_MIN), "-9223372036854775.808");
}

TEST(ChromeJsonWriter, MicrosReadBackByTheImportersParser) {
  // Values a double cannot hold exactly (19 significant digits) included.
  for (int64_t ns : {int64_t{0}, int64_t{7}, int64_t{-7}, int64_t{1000001}, int64_t{-999999},
                     int64_t{1716923416123456789}, int64_t{-1716923416123456789},
                     int64_t{4611686018427387903}}) {
    EXPECT_EQ(ParseMicrosAsNanos(Micros(ns)), ns) << Micros(ns);
  }
}

TEST(ChromeJsonWriter, EscapesQuotesBackslashesAndControlBytes) {
  const std::string text = std::string("a\"b\\c\nd\re\tf\x01g\x1fh") + '\0' + "i\x7f";
  const std::string quoted = Quoted(text);
  EXPECT_EQ(quoted, "\"a\\\"b\\\\c\\nd\\re\\tf\\u0001g\\u001fh\\u0000i\x7f\"");
  EXPECT_EQ(nlohmann::json::parse(quoted).get<std::string>(), text);
}

TEST(ChromeJsonWriter, KeepsValidUtf8AndReplacesInvalidBytesLikeRepairUtf8) {
  const std::string valid = "caf\xC3\xA9 \xE2\x82\xAC \xF0\x9F\x9A\x80";  // é € 🚀
  EXPECT_EQ(Quoted(valid), "\"" + valid + "\"");
  for (const std::string& bad : {std::string("\xFF"), std::string("a\xC3"),
                                 std::string("\xC0\x80"),          // overlong NUL
                                 std::string("\xED\xA0\x80"),      // surrogate
                                 std::string("\xF4\x90\x80\x80"),  // above U+10FFFF
                                 std::string("x\xE2\x82y\x80z")}) {
    size_t replaced = 0;
    const std::string expected = RepairUtf8(bad, &replaced);
    ASSERT_GT(replaced, 0u);
    const std::string quoted = Quoted(bad);
    // nlohmann rejects invalid UTF-8, so parsing proves the output is valid.
    EXPECT_EQ(nlohmann::json::parse(quoted).get<std::string>(), expected);
  }
}

TEST(ChromeJsonWriter, FileWriterReplacesTheOutputOnlyWhenFinished) {
  const std::string path = testing::TempDir() + "/chrome_json_writer_test.json";
  {
    JsonFileWriter out(path);
    ASSERT_TRUE(out.Open().ok());
    out.Raw("[1]");
    ASSERT_TRUE(out.Finish().ok());
  }
  {
    JsonFileWriter abandoned(path);  // destroyed without Finish(): the old file stays
    ASSERT_TRUE(abandoned.Open().ok());
    abandoned.Raw("[2");
  }
  std::FILE* file = std::fopen(path.c_str(), "rb");
  ASSERT_NE(file, nullptr);
  char text[8] = {};
  EXPECT_EQ(std::fread(text, 1, sizeof text, file), 3u);
  std::fclose(file);
  EXPECT_STREQ(text, "[1]");
  EXPECT_FALSE(std::filesystem::exists(path + ".tmp"));
}

TEST(ChromeJsonWriter, UnwritablePathIsAnErrorNamingTheFile) {
  JsonFileWriter out("/nonexistent-dir/x/out.json");
  Status status = out.Open();
  ASSERT_FALSE(status.ok());
  EXPECT_EQ(status.code(), StatusCode::kIoError);
  EXPECT_NE(status.message().find("/nonexistent-dir/x/out.json"), std::string::npos);
}

}  // namespace TM_UNITY_ID
}  // namespace
}  // namespace tensormorph::chrome_json
