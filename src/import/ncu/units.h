// Nsight Compute prints values for people: auto-scaled units ("Kbyte", "us", "Ghz", "Gbyte/s"),
// thousands separators ("13,485", "9,495.42") and "n/a" for what it could not collect. These
// helpers turn a (value, unit) pair of text into a number in base units.
//
// Base units: bytes ("byte"), nanoseconds for time ("ns"), hertz ("Hz"), rates per second
// ("byte/s"), and percent stays a percentage on the 0..100 scale ("%"), as ncu prints it. Counts
// keep their own word ("cycle", "inst", "warp", "block", ...). Every SI prefix is a power of ten
// (ncu scales bytes by 1000, not 1024: CLI docs §4.3.6), so a unit is a base and an exponent, and
// integers (ns, bytes) convert exactly, without passing through a double.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace tensormorph::ncu {

// value_in_base = written_value × 10^exponent.
struct Unit {
  std::string base;  // "byte", "ns", "Hz", "byte/s", "%", "inst/cycle", "" (dimensionless)
  int exponent = 0;
  bool operator==(const Unit&) const = default;
};

// "Mbyte" -> {byte, 6}; "us" / "usecond" -> {ns, 3}; "Ghz" -> {Hz, 9}; "Gbyte/s" -> {byte/s, 9};
// "cycle/nsecond" -> {Hz, 9}; "register/thr" -> {register/thread, 0}; "" -> {"", 0}.
// nullopt for a unit this table does not know (the caller keeps the value as written).
std::optional<Unit> ParseUnit(std::string_view text);

enum class NumberText {
  kNumber,     // `plain` holds the number: optional sign, digits, fraction, exponent
  kAbsent,     // "", "n/a": ncu did not collect it
  kNotNumber,  // anything else, including misplaced thousands separators ("1,5")
};

// Strips surrounding blanks and thousands separators ("9,495.42" -> "9495.42"). Separators must
// group the integer digits by three; otherwise the text may be a decimal comma, which we do not
// guess at.
NumberText CleanNumber(std::string_view text, std::string* plain);

// A cleaned number in base units.
std::optional<double> ToBase(std::string_view plain, const Unit& unit);
// The same, exactly, as an integer rounded half away from zero (nanoseconds, bytes); nullopt
// outside int64.
std::optional<int64_t> ToBaseInteger(std::string_view plain, const Unit& unit);

}  // namespace tensormorph::ncu
