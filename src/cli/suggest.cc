#include "cli/suggest.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <numeric>

namespace tensormorph {
namespace {

size_t EditDistance(std::string_view a, std::string_view b) {
  std::vector<size_t> row(b.size() + 1);
  std::iota(row.begin(), row.end(), 0);
  for (size_t i = 1; i <= a.size(); ++i) {
    size_t diagonal = row[0];
    row[0] = i;
    for (size_t j = 1; j <= b.size(); ++j) {
      const size_t above = row[j];
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, diagonal + (a[i - 1] == b[j - 1] ? 0 : 1)});
      diagonal = above;
    }
  }
  return row[b.size()];
}

// The long names of a command's options ("--top"), and its short ones ("-q").
std::vector<std::string> OptionNames(const CLI::App& command) {
  std::vector<std::string> names;
  for (const CLI::Option* option : command.get_options()) {
    for (const std::string& name : option->get_lnames()) names.push_back("--" + name);
    for (const std::string& name : option->get_snames()) names.push_back("-" + name);
  }
  return names;
}

}  // namespace

std::optional<std::string> ClosestName(std::string_view typed,
                                       const std::vector<std::string>& known) {
  std::optional<std::string> best;
  size_t best_distance = SIZE_MAX;
  for (const std::string& name : known) {
    const size_t d = EditDistance(typed, name);
    if (d < best_distance) {
      best_distance = d;
      best = name;
    }
  }
  if (!best || best_distance == 0 || best_distance > 2 || 2 * best_distance >= typed.size()) {
    return std::nullopt;
  }
  return best;
}

std::string SuggestFix(const CLI::App& app, int argc, char** argv) {
  std::vector<std::string> commands;
  for (const CLI::App* sub : app.get_subcommands({})) commands.push_back(sub->get_name());
  const CLI::App* command = nullptr;
  for (int i = 1; i < argc; ++i) {
    const std::string_view arg = argv[i];
    if (arg.starts_with("-")) {
      if (command == nullptr) continue;
      std::string name(arg.substr(0, arg.find('=')));
      const std::vector<std::string> known = OptionNames(*command);
      if (std::find(known.begin(), known.end(), name) != known.end()) continue;
      if (std::optional<std::string> fix = ClosestName(name, known)) {
        return fmt::format("did you mean '{}'?", *fix);
      }
      continue;
    }
    if (command != nullptr) {
      // A nested subcommand (baseline save), else a positional argument.
      std::vector<std::string> nested;
      const CLI::App* next = nullptr;
      for (const CLI::App* sub : command->get_subcommands({})) {
        nested.push_back(sub->get_name());
        if (sub->get_name() == arg) next = sub;
      }
      if (next != nullptr) {
        command = next;
      } else if (!nested.empty()) {
        std::optional<std::string> fix = ClosestName(arg, nested);
        return fmt::format("'{}' is not a command of '{}'{}", arg, command->get_name(),
                           fix ? fmt::format("; did you mean '{}'?", *fix)
                               : fmt::format(" ({})", fmt::join(nested, ", ")));
      }
      continue;
    }
    if (std::find(commands.begin(), commands.end(), arg) != commands.end()) {
      command = app.get_subcommand(std::string(arg));
      continue;
    }
    if (std::optional<std::string> fix = ClosestName(arg, commands)) {
      return fmt::format("'{}' is not a command; did you mean '{}'?", arg, *fix);
    }
    return fmt::format("'{}' is not a command (commands: {})", arg, fmt::join(commands, ", "));
  }
  return "";
}

}  // namespace tensormorph
