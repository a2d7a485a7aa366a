#include "import/ncu/units.h"

#include <array>
#include <charconv>

#include "model/time.h"

namespace tensormorph::ncu {
namespace {

// One word of a unit, e.g. "Mbyte" or "nsecond". Time is kept in nanoseconds.
struct Term {
  std::string base;
  int exponent = 0;
  bool time = false;
};

std::string_view Trim(std::string_view text) {
  while (!text.empty() && (text.front() == ' ' || text.front() == '\t')) text.remove_prefix(1);
  while (!text.empty() && (text.back() == ' ' || text.back() == '\t')) text.remove_suffix(1);
  return text;
}

bool EqualsIgnoringCase(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i) {
    auto lower = [](char c) { return c >= 'A' && c <= 'Z' ? static_cast<char>(c + 32) : c; };
    if (lower(a[i]) != lower(b[i])) return false;
  }
  return true;
}

// A unit word without prefix. Counts keep their word; "thr" is ncu's short "thread".
std::optional<Term> BaseWord(std::string_view word) {
  if (word == "byte" || word == "bytes" || word == "B") return Term{"byte", 0, false};
  if (word == "second" || word == "seconds" || word == "s" || word == "sec") {
    return Term{"ns", 9, true};
  }
  if (EqualsIgnoringCase(word, "hz")) return Term{"Hz", 0, false};
  if (word == "thr") return Term{"thread", 0, false};
  static constexpr std::array<std::string_view, 14> kCounts = {
      "cycle",   "inst",    "warp",      "block",       "thread",      "register", "sector",
      "request", "cluster", "wavefront", "instruction", "transaction", "op",       "ops"};
  for (std::string_view count : kCounts) {
    if (word == count) return Term{std::string(count), 0, false};
  }
  return std::nullopt;
}

std::optional<Term> ParseTerm(std::string_view word) {
  if (std::optional<Term> plain = BaseWord(word)) return plain;
  struct Prefix {
    std::string_view text;
    int exponent;
  };
  static constexpr std::array<Prefix, 10> kPrefixes = {{{"\xC2\xB5", -6},  // µ
                                                        {"n", -9},
                                                        {"u", -6},
                                                        {"m", -3},
                                                        {"K", 3},
                                                        {"k", 3},
                                                        {"M", 6},
                                                        {"G", 9},
                                                        {"T", 12},
                                                        {"P", 15}}};
  for (const Prefix& prefix : kPrefixes) {
    if (!word.starts_with(prefix.text)) continue;
    if (std::optional<Term> term = BaseWord(word.substr(prefix.text.size()))) {
      term->exponent += prefix.exponent;
      return term;
    }
  }
  return std::nullopt;
}

bool IsDigit(char c) {
  return c >= '0' && c <= '9';
}

}  // namespace

std::optional<Unit> ParseUnit(std::string_view text) {
  text = Trim(text);
  if (text.empty()) return Unit{"", 0};
  if (text == "%") return Unit{"%", 0};
  const size_t slash = text.find('/');
  if (slash == std::string_view::npos) {
    std::optional<Term> term = ParseTerm(text);
    if (!term) return std::nullopt;
    return Unit{term->base, term->exponent};
  }
  std::optional<Term> num = ParseTerm(Trim(text.substr(0, slash)));
  std::optional<Term> den = ParseTerm(Trim(text.substr(slash + 1)));
  if (!num || !den || den->base.find('/') != std::string::npos) return std::nullopt;
  if (den->time) {
    // Per unit of time -> per second: x per ns is x·10^9 per s (den->exponent is in ns).
    const int exponent = num->exponent + 9 - den->exponent;
    if (num->base == "cycle") return Unit{"Hz", exponent};
    return Unit{num->base + "/s", exponent};
  }
  return Unit{num->base + "/" + den->base, num->exponent - den->exponent};
}

NumberText CleanNumber(std::string_view text, std::string* plain) {
  plain->clear();
  text = Trim(text);
  if (text.empty() || EqualsIgnoringCase(text, "n/a")) return NumberText::kAbsent;
  size_t pos = 0;
  if (text[pos] == '-' || text[pos] == '+') plain->push_back(text[pos++]);
  // Integer digits, optionally grouped by three with commas: "13,485", "1,234,567".
  size_t group = 0;
  bool grouped = false, any_digit = false;
  for (; pos < text.size(); ++pos) {
    const char c = text[pos];
    if (IsDigit(c)) {
      plain->push_back(c);
      ++group;
      any_digit = true;
    } else if (c == ',') {
      if (group == 0 || (grouped && group != 3) || (!grouped && group > 3)) {
        return NumberText::kNotNumber;
      }
      grouped = true;
      group = 0;
    } else {
      break;
    }
  }
  if (grouped && group != 3) return NumberText::kNotNumber;
  if (pos < text.size() && text[pos] == '.') {
    plain->push_back('.');
    for (++pos; pos < text.size() && IsDigit(text[pos]); ++pos) {
      plain->push_back(text[pos]);
      any_digit = true;
    }
  }
  if (!any_digit) return NumberText::kNotNumber;
  if (pos < text.size() && (text[pos] == 'e' || text[pos] == 'E')) {
    plain->push_back('e');
    ++pos;
    if (pos < text.size() && (text[pos] == '-' || text[pos] == '+')) plain->push_back(text[pos++]);
    if (pos >= text.size() || !IsDigit(text[pos])) return NumberText::kNotNumber;
    for (; pos < text.size() && IsDigit(text[pos]); ++pos) plain->push_back(text[pos]);
  }
  return pos == text.size() ? NumberText::kNumber : NumberText::kNotNumber;
}

std::optional<double> ToBase(std::string_view plain, const Unit& unit) {
  // Scale by moving the decimal exponent, so that "2.33" Mbyte is exactly 2330000, not
  // 2.33 * 1e6 with a rounding error.
  std::string_view mantissa = plain;
  long exponent = unit.exponent;
  const size_t e = plain.find('e');
  if (e != std::string_view::npos) {
    mantissa = plain.substr(0, e);
    std::string_view written = plain.substr(e + 1);
    if (!written.empty() && written.front() == '+') written.remove_prefix(1);
    long value = 0;
    auto [end, error] = std::from_chars(written.data(), written.data() + written.size(), value);
    if (error != std::errc() || end != written.data() + written.size()) return std::nullopt;
    if (value > 100000 || value < -100000) return std::nullopt;
    exponent += value;
  }
  std::string text(mantissa);
  text += 'e';
  text += std::to_string(exponent);
  double result = 0;
  const char* begin = text.data();
  if (*begin == '+') ++begin;
  auto [end, error] = std::from_chars(begin, text.data() + text.size(), result);
  if (error != std::errc() || end != text.data() + text.size()) return std::nullopt;
  return result;
}

std::optional<int64_t> ToBaseInteger(std::string_view plain, const Unit& unit) {
  return ParseScaledDecimal(plain, unit.exponent);
}

}  // namespace tensormorph::ncu
