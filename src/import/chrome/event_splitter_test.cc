#include "import/chrome/event_splitter.h"

#include <gtest/gtest.h>

#include <string>

namespace tensormorph::chrome {
namespace {
namespace TM_UNITY_ID {  // unique per file in a unity batch (tests/CMakeLists.txt)

struct Split {
  std::vector<std::string> events;  // each event's text, across all chunks
  size_t chunks = 0;
  std::string metadata;
  uint64_t truncated = 0;
  Status status;
};

// Feeds `text` in pieces of `piece` bytes, with chunks cut after `chunk_bytes`.
Split RunSplitter(const std::string& text, size_t piece, size_t chunk_bytes) {
  BufferPool pool(0);
  EventSplitter splitter(chunk_bytes, &pool);
  std::vector<EventChunk> chunks;
  Split out;
  for (size_t i = 0; i < text.size() && out.status.ok(); i += piece) {
    out.status = splitter.Feed(text.data() + i, std::min(piece, text.size() - i), &chunks);
  }
  if (out.status.ok()) out.status = splitter.Finish(&chunks);
  for (const EventChunk& c : chunks) {
    EXPECT_EQ(c.text[0], '[');
    EXPECT_EQ(c.text[c.json_length - 1], ']');
    for (auto [b, e] : c.events) {
      std::string event(c.text.data() + b, e - b);
      // The recorded offset points at the same bytes in the input.
      EXPECT_EQ(text.substr(c.content_offset + b - 1, event.size()), event);
      out.events.push_back(event);
    }
  }
  out.chunks = chunks.size();
  out.metadata = splitter.metadata_json();
  out.truncated = splitter.truncated_bytes();
  return out;
}

const std::string kTrace =
    R"({"schemaVersion": 1, "deviceProperties": [{"id": 0, "name": "x]}\"{"}],)"
    "\n"
    R"( "traceEvents": [ {"name": "a\"}]{", "ph": "X", "args": {"x": [1, {"y": "}"}]}},)"
    "\n"
    R"(  {"name": "b\\", "ph": "X"}, {"name": "c"} ],)"
    "\n"
    R"( "distributedInfo": {"rank": 3}, "traceName": "t"})";

TEST(EventSplitter, FindsEventsDespiteBracketsAndEscapesInStrings) {
  for (size_t piece : {1, 2, 3, 7, 64, 4096}) {
    for (size_t chunk : {1, 16, 1 << 20}) {
      Split s = RunSplitter(kTrace, piece, chunk);
      ASSERT_TRUE(s.status.ok()) << s.status.message();
      ASSERT_EQ(s.events.size(), 3u) << "piece " << piece << " chunk " << chunk;
      EXPECT_EQ(s.events[0], R"({"name": "a\"}]{", "ph": "X", "args": {"x": [1, {"y": "}"}]}})");
      EXPECT_EQ(s.events[1], R"({"name": "b\\", "ph": "X"})");
      EXPECT_EQ(s.events[2], R"({"name": "c"})");
      EXPECT_EQ(s.truncated, 0u);
    }
  }
}

TEST(EventSplitter, SmallChunksCutAtEventBoundaries) {
  Split s = RunSplitter(kTrace, 5, 1);
  EXPECT_EQ(s.chunks, 3u);  // one event per chunk when chunks are tiny
}

TEST(EventSplitter, KeepsMetadataBeforeAndAfterTheEvents) {
  Split s = RunSplitter(kTrace, 3, 1 << 20);
  EXPECT_NE(s.metadata.find(R"("traceEvents":[])"), std::string::npos) << s.metadata;
  EXPECT_NE(s.metadata.find(R"("distributedInfo":{"rank":3})"), std::string::npos) << s.metadata;
  EXPECT_NE(s.metadata.find(R"("name":"x]}\"{")"), std::string::npos) << s.metadata;
}

TEST(EventSplitter, TruncatedTraceKeepsCompleteEvents) {
  const std::string cut = kTrace.substr(0, kTrace.find(R"({"name": "c"})") + 5);
  Split s = RunSplitter(cut, 4, 1 << 20);
  ASSERT_TRUE(s.status.ok());
  EXPECT_EQ(s.events.size(), 2u);
  EXPECT_EQ(s.truncated, 5u);  // the 5 bytes of the incomplete third event
}

TEST(EventSplitter, ArrayForm) {
  Split s = RunSplitter(R"([{"ph":"X"}, {"ph":"i"},])", 2, 1 << 20);
  ASSERT_TRUE(s.status.ok());
  EXPECT_EQ(s.events.size(), 2u);
  EXPECT_EQ(s.metadata, "{}");
}

TEST(EventSplitter, RejectsWhatIsNotATrace) {
  EXPECT_FALSE(RunSplitter("", 4, 64).status.ok());
  EXPECT_FALSE(RunSplitter("   \n", 4, 64).status.ok());
  Split text = RunSplitter("hello", 4, 64);
  EXPECT_FALSE(text.status.ok());
  EXPECT_EQ(text.status.position().byte_offset, 0u);
  EXPECT_FALSE(RunSplitter(R"({"a": 1})", 4, 64).status.ok());
  Split not_array = RunSplitter(R"({"traceEvents": 5})", 4, 64);
  EXPECT_FALSE(not_array.status.ok());
  EXPECT_EQ(not_array.status.position().byte_offset, 16u);
}

}  // namespace TM_UNITY_ID
}  // namespace
}  // namespace tensormorph::chrome
