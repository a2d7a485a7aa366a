// Sizes as users write them for --max-input-size (and the Python package's max_input_size): a
// decimal byte count, optionally followed by K, M, G or T (binary multiples: K = 1024), with an
// optional "B" / "iB" after the letter ("512M", "32GiB", "0").
#pragma once

#include <cstdint>
#include <optional>
#include <string>

namespace tensormorph {

// The size in bytes; nullopt for anything else, or a value past 2^64 - 1.
std::optional<uint64_t> ParseByteSize(std::string text);

}  // namespace tensormorph
