#include "tensormorph/io/input.h"

#include <gtest/gtest.h>
#include <unistd.h>
#include <zlib.h>

#include <filesystem>
#include <fstream>
#include <string>

namespace tensormorph {
namespace {
namespace TM_UNITY_ID {  // unique per file in a unity batch (tests/CMakeLists.txt)

namespace fs = std::filesystem;

class InputTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("tm_input_" + std::to_string(::getpid()));
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }

  std::string Write(const std::string& name, const std::string& bytes) {
    std::ofstream(dir_ / name, std::ios::binary) << bytes;
    return (dir_ / name).string();
  }
  std::string WriteGzip(const std::string& name, const std::string& text) {
    const std::string path = (dir_ / name).string();
    gzFile gz = gzopen(path.c_str(), "wb");
    gzwrite(gz, text.data(), static_cast<unsigned>(text.size()));
    gzclose(gz);
    return path;
  }

  fs::path dir_;
};

TEST_F(InputTest, AFileOverTheLimitIsRefusedWhenOpened) {
  const std::string path = Write("big.json", std::string(1000, 'x'));
  EXPECT_TRUE(Input::Open(path, 1000).ok());
  EXPECT_TRUE(Input::Open(path, 0).ok());  // no limit
  StatusOr<Input> refused = Input::Open(path, 999);
  ASSERT_FALSE(refused.ok());
  EXPECT_NE(refused.status().message().find("--max-input-size"), std::string::npos);
}

TEST_F(InputTest, GzipContentIsCheckedAsItIsInflated) {
  const std::string path = WriteGzip("bomb.json.gz", std::string(100000, ' ') + "{}");
  StatusOr<Input> input = Input::Open(path, 50000);  // the file is small: opened
  ASSERT_TRUE(input.ok());
  EXPECT_LT(input->file_size(), 50000u);
  std::string warning;
  StatusOr<std::string> content = input->Content(&warning);
  ASSERT_FALSE(content.ok());
  EXPECT_NE(content.status().message().find("decompresses"), std::string::npos);
  StatusOr<std::string> whole = Input::Open(path, 0)->Content(&warning);
  ASSERT_TRUE(whole.ok());
  EXPECT_EQ(whole->size(), 100002u);
  StatusOr<std::string> head = Input::Open(path, 0)->Head(8);
  ASSERT_TRUE(head.ok());
  EXPECT_EQ(*head, "{}");  // after the leading whitespace
}

TEST_F(InputTest, FilesAFolderBringsInHaveTheFoldersLimit) {
  Write("small.csv", "a,b\n1,2\n");
  const std::string big = Write("big.csv", std::string(5000, 'x'));
  StatusOr<Input> folder = Input::Open(dir_.string(), 100);
  ASSERT_TRUE(folder.ok());
  EXPECT_TRUE(folder->is_folder());
  EXPECT_TRUE(folder->Related((dir_ / "small.csv").string()).ok());
  EXPECT_FALSE(folder->Related(big).ok());
}

TEST_F(InputTest, AMissingFileSaysSoWhenRead) {
  StatusOr<Input> missing = Input::Open((dir_ / "nothing.json").string(), 100);
  ASSERT_TRUE(missing.ok());  // reading says what is wrong, in the same words for every format
  StatusOr<std::string> head = missing->Head(16);
  ASSERT_FALSE(head.ok());
  EXPECT_NE(head.status().message().find("cannot open"), std::string::npos);
}

}  // namespace TM_UNITY_ID
}  // namespace
}  // namespace tensormorph
