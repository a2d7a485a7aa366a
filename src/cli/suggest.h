// "Did you mean" for mistyped subcommands and options: the closest known name by edit distance,
// when it is close enough to be a typo (at most 2 edits, and fewer than half the word).
#pragma once

#include <CLI/CLI.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace tensormorph {

std::optional<std::string> ClosestName(std::string_view typed,
                                       const std::vector<std::string>& known);

// A hint for a failed command line: "did you mean 'kernels'?" for an unknown subcommand, or
// "did you mean '--top'?" for an unknown option of the subcommand given; "" when none fits.
std::string SuggestFix(const CLI::App& app, int argc, char** argv);

}  // namespace tensormorph
