// When the command line re-executes itself with glibc's malloc asking for transparent huge pages
// (src/cli/huge_pages.h), and with what GLIBC_TUNABLES.
#include "cli/huge_pages.h"

#include <gtest/gtest.h>

namespace tensormorph {
namespace {

TEST(HugePages, AskedForWhereTheKernelGivesThemOnRequestOnly) {
  EXPECT_EQ(HugePageTunables("always [madvise] never\n", nullptr, nullptr),
            "glibc.malloc.hugetlb=1");
  // Other tunables the user set are kept.
  EXPECT_EQ(HugePageTunables("always [madvise] never\n", "glibc.malloc.arena_max=2", nullptr),
            "glibc.malloc.arena_max=2:glibc.malloc.hugetlb=1");
}

TEST(HugePages, NotAskedWhenGivenAlwaysNeverOrUnknown) {
  EXPECT_EQ(HugePageTunables("[always] madvise never\n", nullptr, nullptr), std::nullopt);
  EXPECT_EQ(HugePageTunables("always madvise [never]\n", nullptr, nullptr), std::nullopt);
  EXPECT_EQ(HugePageTunables("", nullptr, nullptr), std::nullopt);  // no THP in this kernel
}

TEST(HugePages, TheUsersSettingAndTheOptOutWin) {
  // Set by the user (or by the re-execution itself: no second one).
  EXPECT_EQ(HugePageTunables("always [madvise] never", "glibc.malloc.hugetlb=0", nullptr),
            std::nullopt);
  EXPECT_EQ(HugePageTunables("always [madvise] never", "glibc.malloc.hugetlb=1", nullptr),
            std::nullopt);
  EXPECT_EQ(HugePageTunables("always [madvise] never", nullptr, "0"), std::nullopt);
  EXPECT_EQ(HugePageTunables("always [madvise] never", nullptr, "1"), "glibc.malloc.hugetlb=1");
}

}  // namespace
}  // namespace tensormorph
