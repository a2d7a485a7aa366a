// Transparent huge pages for the command line's heap. On a kernel that gives huge pages only to
// memory that asks for them (/sys/kernel/mm/transparent_hugepage/enabled = "madvise", Debian's
// default), every 4 KiB page the import and the analyses touch first costs a page fault; on the
// 2-core benchmark VM those faults were a fifth of `report`'s time. glibc's malloc asks for huge
// pages when started with GLIBC_TUNABLES=glibc.malloc.hugetlb=1, which the dynamic loader reads
// before main, so main re-executes the program once with it set (about a millisecond). Measured in
// docs/performance.md ("Huge pages"). TM_HUGE_PAGES=0 turns it off; a GLIBC_TUNABLES that already
// names glibc.malloc.hugetlb is left as the user set it, which also ends the re-execution.
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace tensormorph {

// The GLIBC_TUNABLES to re-execute with, or nullopt to run as started. `thp_enabled` is the text
// of /sys/kernel/mm/transparent_hugepage/enabled ("always [madvise] never"), `tunables` and
// `opt_out` the values of GLIBC_TUNABLES and TM_HUGE_PAGES (null: unset).
inline std::optional<std::string> HugePageTunables(std::string_view thp_enabled,
                                                   const char* tunables, const char* opt_out) {
  if (opt_out != nullptr && std::string_view(opt_out) == "0") return std::nullopt;
  // "always": every large mapping gets them already; "never" or no THP: none to ask for.
  if (thp_enabled.find("[madvise]") == std::string_view::npos) return std::nullopt;
  const std::string_view current = tunables != nullptr ? tunables : "";
  if (current.find("glibc.malloc.hugetlb") != std::string_view::npos) return std::nullopt;
  std::string out(current);
  if (!out.empty()) out += ':';
  return out + "glibc.malloc.hugetlb=1";
}

}  // namespace tensormorph
