// What a new input format needs besides its folder under src/import and its line in the registry
// (src/import/registry/registry.cc), checked for every registered importer, so that forgetting one
// fails here rather than in a user's hands:
//  - fuzz seeds: tests/fuzz/formats/<name>.conf (scripts/fuzz.sh fuzzes every registered format
//    and refuses one without it);
//  - a row in docs/inputs.md naming it in the `--input-format` column;
//  - no file of src/import opens files itself: importers read through the Input they are given
//    (tensormorph/io/input.h), so --max-input-size and gzip hold for every format. SQLite reads
//    its database by path, in the one file that opens it.
#include <gtest/gtest.h>

#include <filesystem>
#include <regex>
#include <set>
#include <string>

#include "support/files.h"
#include "tensormorph/import/importer.h"

namespace {
namespace TM_UNITY_ID {  // unique per file in a unity batch (tests/CMakeLists.txt)

namespace fs = std::filesystem;
using tensormorph::testing::ReadFile;

const fs::path kSource = TM_SOURCE_DIR;

TEST(ImportRegistry, NamesAreUnique) {
  std::set<std::string> seen;
  for (const tensormorph::Importer* importer : tensormorph::Importers()) {
    EXPECT_TRUE(seen.insert(std::string(importer->name())).second) << importer->name();
    EXPECT_EQ(tensormorph::FindImporter(importer->name()), importer);
  }
  EXPECT_GE(seen.size(), 11u);
}

TEST(ImportRegistry, EveryFormatHasFuzzSeeds) {
  for (const tensormorph::Importer* importer : tensormorph::Importers()) {
    const fs::path conf =
        kSource / "tests/fuzz/formats" / (std::string(importer->name()) + ".conf");
    const std::string text = ReadFile(conf);
    EXPECT_TRUE(text.find("SEEDS=") != std::string::npos)
        << conf << " is missing or names no seeds";
  }
}

TEST(ImportRegistry, EveryFuzzConfigIsARegisteredFormat) {
  for (const fs::directory_entry& entry : fs::directory_iterator(kSource / "tests/fuzz/formats")) {
    const std::string name = entry.path().stem().string();
    if (name == "sniff") continue;  // detection by content, not a format
    EXPECT_NE(tensormorph::FindImporter(name), nullptr) << entry.path() << " names no importer";
  }
}

TEST(ImportRegistry, EveryFormatIsDocumented) {
  const std::string inputs = ReadFile(kSource / "docs/inputs.md");
  ASSERT_FALSE(inputs.empty());
  for (const tensormorph::Importer* importer : tensormorph::Importers()) {
    const std::string cell = "| `" + std::string(importer->name()) + "` |";
    EXPECT_NE(inputs.find(cell), std::string::npos)
        << "docs/inputs.md has no row with " << cell << " in its --input-format column";
  }
}

TEST(ImportRegistry, ImportersReadOnlyThroughTheirInput) {
  // Ways of reading a file other than the Input an importer is given.
  const std::regex opens(
      R"(BlockReader::Open\(|\bReadContent\(|\bReadHead\(|std::ifstream|\bfopen\(|sqlite3_open)");
  const std::set<std::string> allowed = {"src/io/sqlite_db.cc"};
  int files = 0;
  for (const fs::directory_entry& entry :
       fs::recursive_directory_iterator(kSource / "src/import")) {
    const std::string path = fs::relative(entry.path(), kSource).string();
    if (entry.path().extension() != ".cc" || path.ends_with("_test.cc")) continue;
    ++files;
    if (allowed.contains(path)) continue;
    const std::string text = ReadFile(entry.path());
    std::smatch match;
    EXPECT_FALSE(std::regex_search(text, match, opens))
        << path << " reads a file itself (" << match.str() << "); read through the Input";
  }
  EXPECT_GT(files, 50);
}

}  // namespace TM_UNITY_ID
}  // namespace
