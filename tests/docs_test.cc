// The documentation against the binary. The subcommands are taken from `tensormorph --help`:
//  - every subcommand has its page, docs/<command>.md, which names every option of the command's
//    `--help` (and of its own subcommands', for `baseline save`), and whose "## Options" table
//    names no option the command lacks;
//  - the README lists every subcommand, linked to its page, with the description `--help` gives;
//    its question table links only to pages that exist; it is at most 300 lines and opens with the
//    set-up commands, among them every command .ci/run runs;
//  - every relative link of the README and docs/ that points into the repository resolves;
//  - every example line `$ build/tensormorph ...` of the README and docs/*.md runs, in order, from
//    a scratch folder that mirrors the repository root, and exits 0 (or the code its `# exit N`
//    says), on paths inside the repository.
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <optional>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "support/files.h"
#include "support/run_tensormorph.h"

namespace {
namespace TM_UNITY_ID {  // unique per file in a unity batch (tests/CMakeLists.txt)

using tensormorph::testing::ReadFile;

namespace fs = std::filesystem;
using tensormorph::testing::RunResult;
using tensormorph::testing::RunTensormorph;
using tensormorph::testing::ShellQuote;

const fs::path kSource = TM_SOURCE_DIR;
constexpr size_t kMaxReadmeLines = 300;
const char kQuestionHeading[] = "## Your question → the command";

std::vector<std::string> Lines(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

bool StartsWith(const std::string& s, const std::string& prefix) {
  return s.rfind(prefix, 0) == 0;
}

std::string Trim(const std::string& s) {
  const size_t begin = s.find_first_not_of(" \t");
  if (begin == std::string::npos) return "";
  return s.substr(begin, s.find_last_not_of(" \t") - begin + 1);
}

// What CLI11 prints for one (sub)command: its description (the first line), its long options and
// its subcommands with their descriptions.
struct Help {
  std::string description;
  std::set<std::string> options;  // "--format", ...; -h/--help left out
  std::vector<std::pair<std::string, std::string>> subcommands;
};

Help ParseHelp(const std::string& text) {
  Help help;
  enum class Section { kNone, kOptions, kSubcommands } section = Section::kNone;
  const std::vector<std::string> lines = Lines(text);
  if (!lines.empty()) help.description = Trim(lines.front());
  for (const std::string& line : lines) {
    if (line.empty()) continue;
    if (line[0] != ' ') {
      section = line == "Options:"       ? Section::kOptions
                : line == "Subcommands:" ? Section::kSubcommands
                                         : Section::kNone;
      continue;
    }
    if (section == Section::kOptions && StartsWith(line, "  -")) {
      std::string names = line.substr(2, line.find(' ', 2) - 2);  // "-o,--output"
      std::stringstream split(names);
      for (std::string name; std::getline(split, name, ',');) {
        if (StartsWith(name, "--") && name != "--help") help.options.insert(name);
      }
    } else if (section == Section::kSubcommands && line.size() > 2 && line[2] != ' ') {
      const std::string rest = line.substr(2);
      const size_t space = rest.find(' ');
      help.subcommands.emplace_back(rest.substr(0, space),
                                    space == std::string::npos ? "" : Trim(rest.substr(space)));
    } else if (section == Section::kSubcommands && !help.subcommands.empty()) {
      help.subcommands.back().second += " " + Trim(line);  // a wrapped description
    }
  }
  return help;
}

Help HelpOf(const std::vector<std::string>& command) {
  std::vector<std::string> args = command;
  args.push_back("--help");
  const RunResult r = RunTensormorph(args);
  EXPECT_EQ(r.exit_code, 0) << r.Describe();
  return ParseHelp(r.out);
}

// The subcommands `tensormorph --help` lists, each with its description and the long options of
// it and of its own subcommands (`baseline save`).
struct Command {
  std::string name;
  std::string description;
  std::set<std::string> options;
};

const std::vector<Command>& Commands() {
  static const std::vector<Command> commands = [] {
    std::vector<Command> out;
    for (const auto& [name, description] : HelpOf({}).subcommands) {
      Command c{name, description, {}};
      const Help help = HelpOf({name});
      c.options = help.options;
      for (const auto& sub : help.subcommands) {
        const Help sub_help = HelpOf({name, sub.first});
        c.options.insert(sub_help.options.begin(), sub_help.options.end());
      }
      out.push_back(std::move(c));
    }
    return out;
  }();
  return commands;
}

fs::path PageOf(const std::string& command) {
  return kSource / "docs" / (command + ".md");
}

// Whether `text` holds `option` as a whole word: `--top` is not found in `--top-kernels`.
bool NamesOption(const std::string& text, const std::string& option) {
  for (size_t at = text.find(option); at != std::string::npos; at = text.find(option, at + 1)) {
    const size_t end = at + option.size();
    if (end == text.size()) return true;
    const unsigned char next = static_cast<unsigned char>(text[end]);
    if (std::isalnum(next) == 0 && next != '-' && next != '_') return true;
  }
  return false;
}

// The cells of a Markdown table row; `\|` does not split.
std::vector<std::string> Cells(const std::string& row) {
  std::vector<std::string> cells;
  std::string cell;
  for (size_t i = 1; i < row.size(); ++i) {  // row[0] is the leading '|'
    if (row[i] == '\\' && i + 1 < row.size() && row[i + 1] == '|') {
      cell += '|';
      ++i;
    } else if (row[i] == '|') {
      cells.push_back(Trim(cell));
      cell.clear();
    } else {
      cell += row[i];
    }
  }
  return cells;
}

// The body rows of the first table after the line `heading` (header and separator left out).
std::vector<std::string> TableAfter(const std::vector<std::string>& lines,
                                    const std::string& heading) {
  std::vector<std::string> rows;
  auto it = std::find(lines.begin(), lines.end(), heading);
  if (it == lines.end()) return rows;
  bool in_table = false;
  for (++it; it != lines.end(); ++it) {
    if (StartsWith(*it, "|")) {
      in_table = true;
      rows.push_back(*it);
    } else if (in_table || StartsWith(*it, "#")) {
      break;
    }
  }
  if (rows.size() >= 2) rows.erase(rows.begin(), rows.begin() + 2);
  return rows;
}

std::vector<fs::path> DocumentationFiles() {
  std::vector<fs::path> files = {kSource / "README.md"};
  for (const auto& entry : fs::directory_iterator(kSource / "docs")) {
    if (entry.path().extension() == ".md") files.push_back(entry.path());
  }
  std::sort(files.begin() + 1, files.end());
  return files;
}

TEST(Docs, TheHelpListsTheCommands) {
  // Guards the parsing below: were the help's layout to change, every other test would pass
  // on an empty list.
  std::set<std::string> names;
  for (const Command& c : Commands()) names.insert(c.name);
  for (const char* name : {"info", "kernels", "timeline", "diff", "baseline", "report"}) {
    EXPECT_TRUE(names.count(name)) << name;
  }
  for (const Command& c : Commands()) {
    EXPECT_FALSE(c.description.empty()) << c.name;
    if (c.name != "baseline") {
      EXPECT_FALSE(c.options.empty()) << c.name;
    }
  }
  const auto baseline = std::find_if(Commands().begin(), Commands().end(),
                                     [](const Command& c) { return c.name == "baseline"; });
  ASSERT_NE(baseline, Commands().end());
  EXPECT_TRUE(baseline->options.count("--output"));  // from `baseline save --help`
}

TEST(Docs, EveryCommandHasItsPage) {
  for (const Command& c : Commands()) {
    EXPECT_TRUE(fs::is_regular_file(PageOf(c.name)))
        << "`tensormorph " << c.name << "` has no page: write " << PageOf(c.name).string();
  }
}

TEST(Docs, EveryPageNamesEveryOptionOfItsCommand) {
  for (const Command& c : Commands()) {
    const std::string page = ReadFile(PageOf(c.name));
    for (const std::string& option : c.options) {
      EXPECT_TRUE(NamesOption(page, option))
          << "docs/" << c.name << ".md does not name " << option << ", an option of `tensormorph "
          << c.name << " --help`";
    }
  }
}

TEST(Docs, EveryOptionInAPageTableIsAnOptionOfItsCommand) {
  const std::regex option_re("--[a-z][a-z0-9-]*");
  for (const Command& c : Commands()) {
    const std::vector<std::string> rows = TableAfter(Lines(ReadFile(PageOf(c.name))), "## Options");
    EXPECT_FALSE(rows.empty()) << "docs/" << c.name << ".md has no \"## Options\" table";
    for (const std::string& row : rows) {
      const std::vector<std::string> cells = Cells(row);
      if (cells.empty()) continue;
      for (std::sregex_iterator it(cells[0].begin(), cells[0].end(), option_re), end; it != end;
           ++it) {
        EXPECT_TRUE(c.options.count(it->str()))
            << "docs/" << c.name << ".md lists " << it->str() << ", which `tensormorph " << c.name
            << " --help` does not have";
      }
    }
  }
}

TEST(Docs, ReadmeListsEveryCommandAsItsHelpDescribesIt) {
  const std::string readme = ReadFile(kSource / "README.md");
  std::set<std::string> names;
  for (const Command& c : Commands()) {
    names.insert(c.name);
    EXPECT_NE(readme.find("[`" + c.name + "`](docs/" + c.name + ".md)"), std::string::npos)
        << "the README's command list lacks " << c.name;
    EXPECT_NE(readme.find(c.description), std::string::npos)
        << "the README does not give " << c.name
        << "'s description as --help does: " << c.description;
  }
  const std::regex listed("\\[`([a-z-]+)`\\]\\(docs/([a-z-]+)\\.md\\)");
  for (std::sregex_iterator it(readme.begin(), readme.end(), listed), end; it != end; ++it) {
    if ((*it)[1] != (*it)[2]) continue;
    EXPECT_TRUE(names.count((*it)[1]))
        << "the README lists `" << (*it)[1] << "`, which `tensormorph --help` does not";
  }
}

TEST(Docs, ReadmeQuestionTableLinksToPagesThatExist) {
  const std::vector<std::string> rows =
      TableAfter(Lines(ReadFile(kSource / "README.md")), kQuestionHeading);
  EXPECT_GE(rows.size(), 6u) << "the README has no question table under \"" << kQuestionHeading
                             << "\"";
  const std::regex link("\\]\\((docs/[^)#]+\\.md)(#[^)]*)?\\)");
  for (const std::string& row : rows) {
    size_t links = 0;
    for (std::sregex_iterator it(row.begin(), row.end(), link), end; it != end; ++it, ++links) {
      EXPECT_TRUE(fs::is_regular_file(kSource / (*it)[1].str()))
          << (*it)[1] << " does not exist; linked from: " << row;
    }
    EXPECT_GT(links, 0u) << "a question without a link to its page: " << row;
  }
}

TEST(Docs, ReadmeIsShort) {
  const size_t lines = Lines(ReadFile(kSource / "README.md")).size();
  EXPECT_LE(lines, kMaxReadmeLines) << "move detail into docs/ (a page per command)";
}

TEST(Docs, ReadmeOpensWithTheSetUpCommandsCiRuns) {
  const std::vector<std::string> lines = Lines(ReadFile(kSource / "README.md"));
  // The first code block: exactly `make demo` and `make test`, each with its comment.
  std::vector<std::string> block;
  auto it = std::find_if(lines.begin(), lines.end(),
                         [](const std::string& l) { return StartsWith(l, "```"); });
  ASSERT_NE(it, lines.end());
  for (++it; it != lines.end() && !StartsWith(*it, "```"); ++it) {
    block.push_back(Trim(it->substr(0, it->find('#'))));
  }
  EXPECT_EQ(block, (std::vector<std::string>{"make demo", "make test"}));
  for (const std::string& line : Lines(ReadFile(kSource / ".ci" / "run"))) {
    const std::string command = Trim(line);
    if (command.empty() || StartsWith(command, "#") || StartsWith(command, "set ") ||
        StartsWith(command, "cd ")) {
      continue;
    }
    EXPECT_NE(std::find(block.begin(), block.end(), command), block.end())
        << ".ci/run runs `" << command << "`, which the README's first block does not show";
  }
}

TEST(Docs, RelativeLinksIntoTheRepositoryResolve) {
  const std::regex link("\\]\\(([^)\\s]+)\\)");
  const fs::path root = fs::weakly_canonical(kSource);
  for (const fs::path& file : DocumentationFiles()) {
    const std::string text = ReadFile(file);
    for (std::sregex_iterator it(text.begin(), text.end(), link), end; it != end; ++it) {
      std::string target = (*it)[1];
      if (StartsWith(target, "http://") || StartsWith(target, "https://") ||
          StartsWith(target, "mailto:") || StartsWith(target, "#")) {
        continue;
      }
      target = target.substr(0, target.find('#'));
      const fs::path resolved = fs::weakly_canonical(file.parent_path() / target);
      const std::string rel = resolved.lexically_relative(root).string();
      if (rel.empty() || StartsWith(rel, "..")) continue;  // outside the repository (../shared)
      EXPECT_TRUE(fs::exists(resolved))
          << file.filename() << " links to " << (*it)[1] << ", which does not exist";
    }
  }
}

struct Example {
  std::string line;  // without "$ " and without the "# exit N" comment
  int expected_exit = 0;
};

// The `$ build/tensormorph ...` lines inside code blocks, in document order.
std::vector<Example> ExamplesOf(const fs::path& file) {
  std::vector<Example> examples;
  bool in_code = false;
  const std::regex exit_comment("\\s+#\\s*exit\\s+([0-9]+)\\s*$");
  for (const std::string& line : Lines(ReadFile(file))) {
    if (StartsWith(line, "```")) {
      in_code = !in_code;
      continue;
    }
    if (!in_code || !StartsWith(line, "$ build/tensormorph")) continue;
    Example e;
    e.line = line.substr(2);
    std::smatch m;
    if (std::regex_search(e.line, m, exit_comment)) {
      e.expected_exit = std::stoi(m[1]);
      e.line = m.prefix();
    }
    examples.push_back(e);
  }
  return examples;
}

// A scratch folder that looks like the repository root after `make demo`: the documented
// inputs (linked), and build/ with the binary under test, where the examples write.
fs::path ScratchRoot() {
  const fs::path root = fs::temp_directory_path() / ("tm_docs_" + std::to_string(::getpid()));
  fs::remove_all(root);
  fs::create_directories(root / "build");
  for (const char* entry : {"examples", "tests", "docs", "README.md"}) {
    fs::create_symlink(kSource / entry, root / entry);
  }
  fs::create_symlink(fs::absolute(tensormorph::testing::BinaryUnderTest()),
                     root / "build" / "tensormorph");
  return root;
}

int RunShell(const fs::path& cwd, const std::string& line, std::string* err) {
  char err_path[] = "/tmp/tm_docs_stderr_XXXXXX";
  const int fd = mkstemp(err_path);
  if (fd >= 0) close(fd);
  const std::string command = "cd " + ShellQuote(cwd.string()) + " && timeout -k 5 300 sh -c " +
                              ShellQuote(line) + " >/dev/null 2>" + ShellQuote(err_path) +
                              " </dev/null";
  const int status = std::system(command.c_str());
  *err = ReadFile(err_path);
  std::remove(err_path);
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

TEST(Docs, EveryExampleRuns) {
  const fs::path root = ScratchRoot();
  std::set<std::string> names;
  for (const Command& c : Commands()) names.insert(c.name);
  size_t ran = 0;
  for (const fs::path& file : DocumentationFiles()) {
    for (const Example& e : ExamplesOf(file)) {
      SCOPED_TRACE(file.filename().string() + ": $ " + e.line);
      std::istringstream words(e.line);
      std::string binary, command;
      words >> binary >> command;
      if (e.expected_exit == 0) {  // a failing example may show a mistyped command
        EXPECT_TRUE(names.count(command) || StartsWith(command, "-"))
            << "`" << command << "` is not a command of `tensormorph --help`";
      }
      EXPECT_EQ(e.line.find("../"), std::string::npos)
          << "examples use paths inside the repository (examples/, tests/data/)";
      std::string err;
      EXPECT_EQ(RunShell(root, e.line, &err), e.expected_exit) << err;
      ++ran;
    }
  }
  EXPECT_GE(ran, 10u) << "no examples found: has the `$ build/tensormorph` convention changed?";
  std::cout << ran << " examples ran\n";
  fs::remove_all(root);
}

}  // namespace TM_UNITY_ID
}  // namespace
