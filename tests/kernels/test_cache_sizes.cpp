// The cache sizes the kernels size their work by (detail/machine.hpp): DMLREF_CACHE_SIZES
// ("l2=1M,l3=32M", either part optional) over what the system reports, and what a malformed text
// does (nothing). The ctest entry dmlref_tests.small_caches runs the kernel, random and one-pass
// tests again with DMLREF_CACHE_SIZES=l2=256K,l3=2M (tests/CMakeLists.txt); a test here proves
// that the override took effect there. Last, the choices that follow the CPU's make and family,
// and the environment variables that force them.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <string>

#include <stdlib.h>  // mkdtemp

#include "dmlref/dmlref.hpp"

namespace {

namespace detail = dmlref::detail;
using detail::CacheSizes;

constexpr std::int64_t kKiB = 1024, kMiB = 1024 * kKiB, kGiB = 1024 * kMiB;
const CacheSizes kReported{3 * kMiB, 40 * kMiB};

::testing::AssertionResult sizes_are(const char* text, std::int64_t l2, std::int64_t l3) {
  const CacheSizes got = detail::with_override(kReported, text);
  if (got.l2 == l2 && got.l3 == l3) return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure() << "\"" << (text ? text : "(null)") << "\" gives l2 " << got.l2 << ", l3 "
                                       << got.l3 << "; expected l2 " << l2 << ", l3 " << l3;
}

TEST(CacheSizes, NoOverrideKeepsTheReportedSizes) {
  EXPECT_TRUE(sizes_are(nullptr, kReported.l2, kReported.l3));
  EXPECT_TRUE(sizes_are("", kReported.l2, kReported.l3));
}

TEST(CacheSizes, OverrideSetsEitherOrBoth) {
  EXPECT_TRUE(sizes_are("l2=1M,l3=32M", kMiB, 32 * kMiB));
  EXPECT_TRUE(sizes_are("l3=8M,l2=512K", 512 * kKiB, 8 * kMiB));
  EXPECT_TRUE(sizes_are("l2=256K", 256 * kKiB, kReported.l3));
  EXPECT_TRUE(sizes_are("l3=2M", kReported.l2, 2 * kMiB));
  EXPECT_TRUE(sizes_are("l2=1048576,l3=100", kMiB, 100));  // plain bytes
  EXPECT_TRUE(sizes_are("l3=1G", kReported.l2, kGiB));
  EXPECT_TRUE(sizes_are("l3=3G", kReported.l2, 3 * kGiB));  // above 2^31: 64-bit arithmetic
  EXPECT_TRUE(sizes_are("l2=1M,l2=2M", 2 * kMiB, kReported.l3));  // the later part wins
}

// Anything else changes nothing, rather than part of the sizes or a cache of a few bytes.
TEST(CacheSizes, MalformedOverrideChangesNothing) {
  for (const char* text :
       {"garbage", "l2", "l2=", "l2=M", "l2=-1", "l2=0", "l3=0K", "l4=1M", "L2=1M", "l2 =1M", " l2=1M",
        "l3=32m",               // lower-case suffix: not 32 bytes
        "l3=32MB", "l2=1.5M", "l2=1M,l3=2X", "l2=1M l3=2M", "l2=1M;l3=2M",
        "l2=1M,", ",l2=1M", "l2=1M,,l3=2M", "l2=1M,garbage",
        "l2=99999999999999999999",  // beyond 64 bits
        "l3=9000000000G"})            // beyond 64 bits once scaled
    EXPECT_TRUE(sizes_are(text, kReported.l2, kReported.l3));
}

TEST(CacheSizes, ParseBytesStopsAfterTheSuffix) {
  const char* end = nullptr;
  const char text[] = "1024K,rest";
  EXPECT_EQ(detail::parse_bytes(text, &end), kMiB);
  EXPECT_EQ(end, text + 5);
  const char plain[] = "12x";
  EXPECT_EQ(detail::parse_bytes(plain, &end), 12);
  EXPECT_EQ(end, plain + 2);
  EXPECT_EQ(detail::parse_bytes("x", &end), -1);
  EXPECT_EQ(detail::parse_bytes("", &end), -1);
}

// A cache directory as Linux lists it (what lscpu reads): levels 1 to 3, instruction caches
// skipped, the last level the largest-numbered; missing or malformed entries change nothing.
class CacheDirectory : public ::testing::Test {
 protected:
  void SetUp() override {
    char pattern[] = "/tmp/dmlref_cacheXXXXXX";
    ASSERT_NE(mkdtemp(pattern), nullptr);
    root_ = pattern;
  }
  void TearDown() override { std::filesystem::remove_all(root_); }
  void add(int index, const char* level, const char* type, const char* size) {
    const std::filesystem::path dir = std::filesystem::path(root_) / ("index" + std::to_string(index));
    std::filesystem::create_directories(dir);
    std::ofstream(dir / "level") << level << "\n";
    std::ofstream(dir / "type") << type << "\n";
    if (size != nullptr) std::ofstream(dir / "size") << size << "\n";
  }
  /// with_listed over kReported from this directory must give `l2` and `l3`.
  void expect_listed(std::int64_t l2, std::int64_t l3) const {
    const CacheSizes got = detail::with_listed(kReported, root_.c_str());
    EXPECT_EQ(got.l2, l2);
    EXPECT_EQ(got.l3, l3);
  }
  std::string root_;
};

TEST_F(CacheDirectory, ListedSizesOverSysconf) {
  add(0, "1", "Data", "32K");
  add(1, "1", "Instruction", "32K");
  add(2, "2", "Unified", "512K");
  add(3, "3", "Unified", "32768K");
  expect_listed(512 * kKiB, 32 * kMiB);
}

TEST_F(CacheDirectory, MissingOrMalformedEntriesChangeNothing) {
  EXPECT_EQ(detail::with_listed(kReported, "/nonexistent/dmlref").l3, kReported.l3);
  add(0, "1", "Data", "48K");
  add(1, "2", "Unified", nullptr);  // no size: level 2 as reported
  add(2, "3", "Unified", "garbage");
  expect_listed(kReported.l2, kReported.l3);
}

TEST_F(CacheDirectory, AFourthLevelIsTheLastLevel) {
  add(0, "2", "Unified", "2048K");
  add(1, "3", "Unified", "16M");
  add(2, "4", "Unified", "128M");
  expect_listed(2 * kMiB, 128 * kMiB);
}

// The sizes this process uses: what DMLREF_CACHE_SIZES says when it is set (as in the ctest entry
// dmlref_tests.small_caches), otherwise what the system reports; and the choices made from them.
TEST(CacheSizes, ThisProcessUsesTheOverride) {
  const CacheSizes& sizes = detail::cache_sizes();
  const char* text = std::getenv("DMLREF_CACHE_SIZES");
  std::cout << "cache sizes: l2 " << sizes.l2 << ", l3 " << sizes.l3 << " (DMLREF_CACHE_SIZES "
            << (text ? text : "unset") << "); streaming from " << detail::stream_bytes() << " bytes, one-pass blocks of "
            << detail::one_pass_index_bytes() << " bytes of indices\n";
  if (text != nullptr && std::string(text) == "l2=256K,l3=2M") {
    EXPECT_EQ(sizes.l2, 256 * kKiB);
    EXPECT_EQ(sizes.l3, 2 * kMiB);
    EXPECT_EQ(detail::cached_bytes(), kMiB);              // half the last-level cache
    EXPECT_EQ(detail::stream_bytes(), kMiB);              // cached_bytes(), under 4 MiB
    EXPECT_EQ(detail::one_pass_index_bytes(), 64 * kKiB);  // a quarter of level 2
    return;
  }
  const CacheSizes expected = detail::with_override(detail::reported_cache_sizes(), text);
  EXPECT_EQ(sizes.l2, expected.l2);
  EXPECT_EQ(sizes.l3, expected.l3);
}

// A choice's environment variable: "0" or "1" decides, any other text leaves it as measured.
TEST(MachineChoices, FromTheEnvironment) {
  for (const bool measured : {false, true}) {
    EXPECT_EQ(detail::choice_from(nullptr, measured), measured);
    EXPECT_FALSE(detail::choice_from("0", measured));
    EXPECT_TRUE(detail::choice_from("1", measured));
    for (const char* text : {"", "00", "10", "yes", " 1", "1 "})
      EXPECT_EQ(detail::choice_from(text, measured), measured) << text;
  }
}

// The makes measured, from CPUID leaf 1's EAX as `lscpu` reports the four hosts of
// docs/performance.md (family 25 models 1 and 17, family 26 model 2, family 6 model 167): gathers in
// AVX-512 lanes on Intel's and AMD's from family 26; lines with as many rows as elements read in
// place, and rows from memory without their next page's prefetches, on AMD's family 25 alone.
TEST(MachineChoices, OnTheMakesMeasured) {
  using detail::CpuMake;
  using detail::family_from_cpuid;
  EXPECT_EQ(family_from_cpuid(0x00A00F11), 25u);  // Zen 3
  EXPECT_EQ(family_from_cpuid(0x00A10F11), 25u);  // Zen 4
  EXPECT_EQ(family_from_cpuid(0x00B00F21), 26u);  // Zen 5
  EXPECT_EQ(family_from_cpuid(0x000A0671), 6u);   // Intel: the extended family counts only after 15
  const CpuMake intel{true, false, 6}, zen3{false, true, family_from_cpuid(0x00A00F11)},
      zen5{false, true, family_from_cpuid(0x00B00F21)}, later_amd{false, true, 27}, other{false, false, 25};
  EXPECT_TRUE(detail::gathers_were_measured(intel));
  EXPECT_FALSE(detail::gathers_were_measured(zen3));
  EXPECT_TRUE(detail::gathers_were_measured(zen5));
  EXPECT_TRUE(detail::gathers_were_measured(later_amd));
  EXPECT_FALSE(detail::gathers_were_measured(other));
  for (const CpuMake& make : {intel, zen5, later_amd, other}) {
    EXPECT_FALSE(detail::full_lines_in_place_were_measured(make)) << make.family;
    EXPECT_TRUE(detail::next_page_from_memory_was_measured(make)) << make.family;
  }
  EXPECT_TRUE(detail::full_lines_in_place_were_measured(zen3));
  EXPECT_FALSE(detail::next_page_from_memory_was_measured(zen3));
}

// This process's choices: what their variables force where set (the ctest entry
// dmlref_tests.small_caches sets AMD family 25's, dmlref_tests.other_makes the others'), otherwise
// what was measured on this CPU's make.
TEST(MachineChoices, ThisProcessFollowsTheMakeOrTheEnvironment) {
  const detail::CpuMake& make = detail::cpu_make();
  std::cout << "CPU: " << (make.intel ? "Intel" : make.amd ? "AMD" : "other") << ", family " << make.family
            << "; full lines in place " << detail::reads_full_lines_in_place() << ", next page from memory "
            << detail::prefetches_next_page_from_memory() << "\n";
#if DMLREF_HAS_CPUID
  EXPECT_TRUE(make.intel || make.amd || make.family != 0);
#endif
  EXPECT_EQ(detail::reads_full_lines_in_place(),
            detail::choice_from(std::getenv("DMLREF_FULL_LINES_IN_PLACE"),
                                detail::full_lines_in_place_were_measured(make)));
  EXPECT_EQ(detail::prefetches_next_page_from_memory(),
            detail::choice_from(std::getenv("DMLREF_NEXT_PAGE_FROM_MEMORY"),
                                detail::next_page_from_memory_was_measured(make)));
}

}  // namespace
