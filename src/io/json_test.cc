#include "io/json.h"

#include <gtest/gtest.h>

#include <limits>
#include <random>
#include <sstream>
#include <string>
#include <vector>

namespace tensormorph {
namespace {
namespace TM_UNITY_ID {  // unique per file in a unity batch (tests/CMakeLists.txt)

// The oracle: nlohmann's own serializer, as WriteJson used to call it.
std::string NlohmannDump(const Json& document) {
  return document.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";
}

std::string Written(const Json& document, const std::vector<StreamedArray>& arrays = {}) {
  std::ostringstream out;
  WriteJson(out, document, arrays);
  return out.str();
}

// Strings of what traces hold: plain names, quotes and backslashes, control characters, UTF-8,
// bytes that are not UTF-8, DEL.
std::string RandomString(std::mt19937& random) {
  static const std::vector<std::string> pieces = {"ncclKernel_AllReduce",
                                                  " ",
                                                  "\"",
                                                  "\\",
                                                  "\n",
                                                  "\t",
                                                  "\x01",
                                                  "\x1f",
                                                  "\x7f",
                                                  "µs",
                                                  "→",
                                                  "\xff",
                                                  "\xc3",
                                                  "\xe2\x82",
                                                  "void at::native::(anonymous)<float>",
                                                  "",
                                                  "/"};
  std::string s;
  const int n = static_cast<int>(random() % 6);
  for (int i = 0; i < n; ++i) s += pieces[random() % pieces.size()];
  return s;
}

Json RandomValue(std::mt19937& random, int depth) {
  switch (random() % (depth > 3 ? 6 : 8)) {
    case 0:
      return nullptr;
    case 1:
      return random() % 2 == 0;
    case 2:
      return static_cast<int64_t>(random()) - (int64_t{1} << 31);
    case 3:
      return std::numeric_limits<uint64_t>::max() - random() % 10;
    case 4: {
      const double values[] = {0.0, -0.5, 1e-9, 123.456, 1e300, 2.5, 100.0 / 3};
      return values[random() % std::size(values)];
    }
    case 5:
      return RandomString(random);
    case 6: {
      Json array = Json::array();
      for (int i = static_cast<int>(random() % 4); i > 0; --i) {
        array.push_back(RandomValue(random, depth + 1));
      }
      return array;
    }
    default: {
      Json object = Json::object();
      for (int i = static_cast<int>(random() % 4); i > 0; --i) {
        object[RandomString(random)] = RandomValue(random, depth + 1);
      }
      return object;
    }
  }
}

TEST(WriteJson, WritesNlohmannsBytes) {
  std::mt19937 random(7);
  for (int i = 0; i < 3000; ++i) {
    const Json document = RandomValue(random, 0);
    ASSERT_EQ(Written(document), NlohmannDump(document)) << "document " << i;
  }
}

// Every byte value at every position of a name long enough for the eight-bytes-at-a-time scan:
// the bytes that need an escape or a UTF-8 check must be found in any lane of any word, as keys
// and as values, and integers of every length must be spelled as nlohmann spells them.
TEST(WriteJson, EveryByteAtEveryPositionOfALongName) {
  for (int byte = 0; byte < 256; ++byte) {
    for (size_t position = 0; position < 27; ++position) {
      std::string name(27, 'k');
      name[position] = static_cast<char>(byte);
      const Json document = {{name, name}, {"n", {name, name.substr(0, position)}}};
      ASSERT_EQ(Written(document), NlohmannDump(document)) << "byte " << byte << " at " << position;
    }
  }
  for (int64_t v : {int64_t{0}, int64_t{-1}, int64_t{7}, int64_t{1716423322422883925},
                    std::numeric_limits<int64_t>::min(), std::numeric_limits<int64_t>::max()}) {
    const Json document = {{"v", v}, {"u", static_cast<uint64_t>(v)}};
    ASSERT_EQ(Written(document), NlohmannDump(document)) << v;
  }
}

Json Element(size_t i) {
  std::mt19937 random(static_cast<uint32_t>(i));
  return RandomValue(random, 1);
}

// The document with each placeholder replaced by its array, built whole, is the oracle.
TEST(WriteJson, StreamedArraysWriteWhatTheWholeArraysWould) {
  for (size_t rows : {0u, 1u, 9u}) {
    Json whole = {{"schema", "x"}, {"devices", Json::array()}};
    Json streamed = whole;
    std::vector<StreamedArray> arrays;
    for (size_t device = 0; device < 3; ++device) {
      Json rows_whole = Json::array();
      for (size_t i = 0; i < rows + device; ++i) rows_whole.push_back(Element(i));
      whole["devices"].push_back({{"gaps", {{"count", rows + device}, {"rows", rows_whole}}}});
      streamed["devices"].push_back(
          {{"gaps",
            {{"count", rows + device}, {"rows", StreamedArrayPlaceholder(arrays.size())}}}});
      arrays.push_back({rows + device, Element});
    }
    // As an array element, and a string that spells what a placeholder holds stays a string.
    Json top = Json::array();
    for (size_t i = 0; i < rows; ++i) top.push_back(Element(i));
    whole["top"] = Json::array({top, "binary"});
    streamed["top"] = Json::array({StreamedArrayPlaceholder(arrays.size()), "binary"});
    arrays.push_back({rows, Element});
    EXPECT_EQ(Written(streamed, arrays), NlohmannDump(whole)) << rows << " rows";
  }
}

// A concurrent array long enough to be written in batches on two threads, ending mid-batch.
TEST(WriteJson, ConcurrentStreamedArraysWriteTheSameBytes) {
  const size_t rows = 3 * 8192 + 17;
  Json whole_rows = Json::array();
  for (size_t i = 0; i < rows; ++i) whole_rows.push_back(Element(i));
  const Json whole = {{"rows", whole_rows}, {"after", 1}};
  const Json streamed = {{"rows", StreamedArrayPlaceholder(0)}, {"after", 1}};
  EXPECT_EQ(Written(streamed, {{rows, Element, /*concurrent=*/true}}), NlohmannDump(whole));
}

}  // namespace TM_UNITY_ID
}  // namespace
}  // namespace tensormorph
