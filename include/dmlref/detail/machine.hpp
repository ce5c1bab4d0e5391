#ifndef DMLREF_DETAIL_MACHINE_HPP
#define DMLREF_DETAIL_MACHINE_HPP

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>

#if defined(__unix__) || defined(__APPLE__)
#  include <unistd.h>
#endif

#include "../config.hpp"

// What the kernels choose by the machine, found once per program, when a call first needs it: the
// caches they size their blocks by, whether memcpy is slow in a window of run placements,
// whether the index scan can use AVX2, whether a checked gather runs in AVX-512 lanes, and the
// choices that were measured to go opposite ways on different CPUs (by their make and family).
// docs/performance.md, "Both kinds of host", says which choices depend on them and why the others
// do not.

namespace dmlref::detail {

struct CacheSizes {
  std::int64_t l2 = 0;  ///< bytes of the level-2 cache of one core
  std::int64_t l3 = 0;  ///< bytes of the last-level cache
};

/// "1048576", "1024K", "32M", "1G": bytes, or -1 when the text does not start with such a size;
/// `end` is set to the first character after it.
inline std::int64_t parse_bytes(const char* text, const char** end) noexcept {
  std::int64_t v = 0;
  const char* p = text;
  if (*p < '0' || *p > '9') return -1;
  for (; *p >= '0' && *p <= '9'; ++p) {
    if (v > (INT64_MAX - 9) / 10) return -1;
    v = v * 10 + (*p - '0');
  }
  const std::int64_t scale = *p == 'K' ? 1024 : *p == 'M' ? 1024 * 1024 : *p == 'G' ? 1024 * 1024 * 1024 : 1;
  if (scale != 1) ++p;
  if (v > INT64_MAX / scale) return -1;
  *end = p;
  return v * scale;
}

/// The sizes DMLREF_CACHE_SIZES gives ("l2=1M,l3=32M", either part optional), over `sizes`. For
/// tests and for hosts that report caches they do not have (virtual machines often do). A text of
/// any other form (an unknown key, an empty part, a size of 0, anything after a size but a comma:
/// "l3=32m" or "l3=32MB") changes nothing at all, rather than giving a cache of 32 bytes.
DMLREF_COLD inline CacheSizes with_override(CacheSizes sizes, const char* text) noexcept {
  if (text == nullptr) return sizes;
  CacheSizes result = sizes;
  while (*text != '\0') {
    const bool l2 = text[0] == 'l' && text[1] == '2' && text[2] == '=';
    const bool l3 = text[0] == 'l' && text[1] == '3' && text[2] == '=';
    if (!l2 && !l3) return sizes;
    const char* end = text + 3;
    const std::int64_t bytes = parse_bytes(text + 3, &end);
    if (bytes <= 0 || (*end != ',' && *end != '\0')) return sizes;
    (l2 ? result.l2 : result.l3) = bytes;
    text = end;
    if (*text == ',' && *++text == '\0') return sizes;  // a trailing comma: an empty part
  }
  return result;
}

/// The sizes a Linux cache directory lists (/sys/devices/system/cpu/cpu0/cache: index<k>/level,
/// type and size, as `lscpu` reads them), over `sizes`: level 2 and the last level's unified or
/// data caches. Virtual machines may report invented caches through sysconf (an AMD EPYC guest's
/// 256 MiB L3 where its guest topology, read here, says 32 MiB).
DMLREF_COLD inline CacheSizes with_listed(CacheSizes sizes, const char* directory) noexcept {
  CacheSizes listed{0, 0};
  int last_level = 0;
  for (int k = 0; k < 16; ++k) {
    char path[256], text[64];
    auto read = [&](const char* field) {
      std::snprintf(path, sizeof path, "%s/index%d/%s", directory, k, field);
      std::FILE* file = std::fopen(path, "r");
      if (file == nullptr) return false;
      const std::size_t n = std::fread(text, 1, sizeof text - 1, file);
      std::fclose(file);
      text[n] = '\0';
      return true;
    };
    if (!read("level")) break;
    const int level = std::atoi(text);
    if (!read("type") || text[0] == 'I') continue;  // instruction caches do not hold data
    if (!read("size")) continue;
    const char* end = text;
    const std::int64_t bytes = parse_bytes(text, &end);
    if (bytes <= 0) continue;
    if (level == 2) listed.l2 = bytes;
    if (level >= 3 && level >= last_level) {
      listed.l3 = bytes;
      last_level = level;
    }
  }
  if (listed.l2 > 0) sizes.l2 = listed.l2;
  if (listed.l3 > 0) sizes.l3 = listed.l3;
  return sizes;
}

/// What the system reports: the Linux cache directory, else sysconf, with 1 MiB and 32 MiB where
/// neither says.
DMLREF_COLD inline CacheSizes reported_cache_sizes() noexcept {
  CacheSizes sizes{std::int64_t{1} << 20, std::int64_t{32} << 20};
#if defined(_SC_LEVEL2_CACHE_SIZE) && defined(_SC_LEVEL3_CACHE_SIZE)
  const long l2 = sysconf(_SC_LEVEL2_CACHE_SIZE), l3 = sysconf(_SC_LEVEL3_CACHE_SIZE);
  if (l2 > 0) sizes.l2 = l2;
  if (l3 > 0) sizes.l3 = l3;
#endif
#if defined(__linux__)
  sizes = with_listed(sizes, "/sys/devices/system/cpu/cpu0/cache");
#endif
  return sizes;
}

/// This machine's caches, as reported, or as DMLREF_CACHE_SIZES overrides them.
inline const CacheSizes& cache_sizes() noexcept {
  static const CacheSizes sizes = with_override(reported_cache_sizes(), std::getenv("DMLREF_CACHE_SIZES"));
  return sizes;
}

/// Whether an environment variable's text forces a yes-or-no choice: "0" or "1", nothing else.
inline bool forces_a_choice(const char* text) noexcept {
  return text != nullptr && (text[0] == '0' || text[0] == '1') && text[1] == '\0';
}

/// A choice made by the machine: "0" or "1" in its environment variable decides (for tests, and
/// for measuring both on one host); any other text, or none, leaves it to what was `measured`.
inline bool choice_from(const char* text, bool measured) noexcept {
  return forces_a_choice(text) ? text[0] == '1' : measured;
}

/// Whether `memcpy` is slow for a run whose destination starts 1 to 31 bytes past its source
/// modulo 4 KiB (docs/performance.md, "Runs that memcpy copies slowly"): DMLREF_SLOW_ALIASED_MEMCPY
/// "1" or "0" says so, for tests and for hosts where the measurement misleads; any other text, or
/// none, leaves it to `measure()`.
template <class Measure>
bool slow_aliased_memcpy_from(const char* text, Measure measure) noexcept {
  return forces_a_choice(text) ? text[0] == '1' : measure();
}

/// Times `memcpy` of a 16 KiB run, in cache, 8 and 64 bytes past its source modulo 4 KiB (the
/// best of 5 trials of 2 copies each): slow when the first takes over 4 times as long. AMD Zen 3's
/// `rep movsb` takes 10 to 25 times as long there, Zen 4's about 24 times (and about twice as long
/// from 16 to 31 bytes past, which a test there would miss); CPUs without the window, about as
/// long (docs/performance.md, "Runs that memcpy copies slowly"). glibc
/// copies 16 KiB with `rep movsb` wherever it uses it at all. The buffer is static, neither heap
/// (a call with Options::allow_scratch off allocates nothing) nor stack (kernels that get here
/// hold a stage buffer there already): not reentrant, it runs once, as slow_aliased_memcpy()'s
/// static is initialised.
DMLREF_COLD inline bool memcpy_is_slow_when_aliased() noexcept {
  constexpr std::size_t page = 4096, run = 16 * 1024;
  alignas(4096) static unsigned char buffer[2 * run + 2 * page];
  volatile std::size_t run_bytes = run;  // unknown to the compiler: a call to memcpy stays one
  const std::size_t length = run_bytes;
  unsigned char* const source = buffer;
  std::memset(source, 1, length + page + length);
  unsigned char* const target = source + length + page;  // a whole number of pages past the source
  volatile unsigned char sink = 0;
  auto now_ns = [] {
    std::timespec t{};
    std::timespec_get(&t, TIME_UTC);  // <ctime>: lighter than <chrono> for every kernel's includer
    return std::int64_t{t.tv_sec} * 1000000000 + t.tv_nsec;
  };
  auto best_time = [&](std::size_t apart) {
    std::int64_t best = INT64_MAX;
    for (int trial = 0; trial < 5; ++trial) {
      const std::int64_t start = now_ns();
      for (int k = 0; k < 2; ++k) std::memcpy(target + apart, source, length);
      const std::int64_t took = now_ns() - start;
      if (took > 0 && took < best) best = took;  // (a wall clock may step back)
      sink = static_cast<unsigned char>(sink + target[apart + length - 1]);
    }
    return best;
  };
  best_time(64);  // the lines into the caches
  const auto aligned = best_time(64), aliased = best_time(8);
  return aliased / 4 > aligned;
}

/// This machine's answer, measured (or read from DMLREF_SLOW_ALIASED_MEMCPY) once.
inline bool slow_aliased_memcpy() noexcept {
  static const bool slow =
      slow_aliased_memcpy_from(std::getenv("DMLREF_SLOW_ALIASED_MEMCPY"), [] { return memcpy_is_slow_when_aliased(); });
  return slow;
}

/// Whether the index scan runs in AVX2 lanes: when the CPU and its operating system support AVX2,
/// unless DMLREF_AVX2 is "0" (tests run the 16-byte lanes so on any host; any other text changes
/// nothing: it can never turn on what the CPU lacks).
inline bool avx2_scan_from(const char* text, bool supported) noexcept {
  return supported && choice_from(text, true);
}

/// This machine's answer, found once.
inline bool scans_with_avx2() noexcept {
#if DMLREF_HAS_AVX2_SCAN
  static const bool avx2 = [] {
    __builtin_cpu_init();  // in case this runs before the runtime's own constructors
    return avx2_scan_from(std::getenv("DMLREF_AVX2"), __builtin_cpu_supports("avx2") != 0);
  }();
  return avx2;
#else
  return false;
#endif
}

/// Whether a one-pass staged gather checks and gathers its rows in AVX-512 lanes: where the CPU
/// and its operating system support AVX-512 F and VL, by default on the makes it was measured
/// faster on (`measured`: gathers_were_measured; docs/performance.md, "Gathers in AVX-512
/// lanes"). DMLREF_AVX512_GATHERS "0" turns it off, "1" on wherever the CPU supports it; any other
/// text changes nothing.
inline bool avx512_gathers_from(const char* text, bool supported, bool measured) noexcept {
  return supported && choice_from(text, measured);
}

/// The CPU family from CPUID leaf 1's EAX: the base field, plus the extended one where the base is
/// 15 (as AMD's are).
inline unsigned family_from_cpuid(unsigned eax) noexcept {
  const unsigned base = (eax >> 8) & 0xF;
  return base == 0xF ? base + ((eax >> 20) & 0xFF) : base;
}

/// Who made the CPU, and its family: what the choices below follow. All false and 0 where dmlref
/// cannot ask (not x86-64, or neither GCC nor Clang).
struct CpuMake {
  bool intel = false, amd = false;
  unsigned family = 0;
};

/// This CPU's, read once.
inline const CpuMake& cpu_make() noexcept {
#if DMLREF_HAS_CPUID
  static const CpuMake make = [] {
    __builtin_cpu_init();  // in case this runs before the runtime's own constructors
    unsigned eax = 1, ebx = 0, ecx = 0, edx = 0;
    __asm__("cpuid" : "+a"(eax), "=b"(ebx), "+c"(ecx), "=d"(edx));  // leaf 1: signature in EAX
    return CpuMake{__builtin_cpu_is("intel") != 0, __builtin_cpu_is("amd") != 0, family_from_cpuid(eax)};
  }();
#else
  static const CpuMake make{};
#endif
  return make;
}

/// The makes whose gathers in lanes were measured faster: Intel's, and AMD's from family 26
/// (Zen 5) on. Family 25 model 17 (Zen 4) has AVX-512 too, but was not measured with them.
inline bool gathers_were_measured(const CpuMake& m) noexcept { return m.intel || (m.amd && m.family >= 26); }

/// This machine's answer, found once.
inline bool gathers_with_avx512() noexcept {
#if DMLREF_HAS_AVX512_GATHER
  static const bool avx512 = [] {
    __builtin_cpu_init();  // in case this runs before the runtime's own constructors
    const bool supported = __builtin_cpu_supports("avx512f") != 0 && __builtin_cpu_supports("avx512vl") != 0;
    return avx512_gathers_from(std::getenv("DMLREF_AVX512_GATHERS"), supported, gathers_were_measured(cpu_make()));
  }();
  return avx512;
#else
  return false;
#endif
}

/// Whether a gather also reads in place its contiguous lines of 1 KiB and more that have as many
/// rows as elements, which it otherwise stages (docs/performance.md, "Lines read in place"): on AMD
/// family 25, where that was measured faster (model 1, Zen 3; model 17, Zen 4, unmeasured, taken to
/// be alike). Staging them was measured faster on family 26 (Zen 5) and ran on Intel's.
inline bool full_lines_in_place_were_measured(const CpuMake& m) noexcept { return m.amd && m.family == 25; }

/// This machine's answer, found once; DMLREF_FULL_LINES_IN_PLACE "0" or "1" overrides it.
inline bool reads_full_lines_in_place() noexcept {
  static const bool in_place =
      choice_from(std::getenv("DMLREF_FULL_LINES_IN_PLACE"), full_lines_in_place_were_measured(cpu_make()));
  return in_place;
}

/// Whether a gather's rows from memory prefetch the lines of their next page, as rows from the
/// cache do (docs/performance.md, "Rows across a page"): not on AMD family 25, where leaving them
/// out was measured faster (model 1, Zen 3; model 17 taken to be alike); on family 26 (Zen 5) they
/// were measured faster, and Intel's rows ran with them.
inline bool next_page_from_memory_was_measured(const CpuMake& m) noexcept { return !(m.amd && m.family == 25); }

/// This machine's answer, found once; DMLREF_NEXT_PAGE_FROM_MEMORY "0" or "1" overrides it.
inline bool prefetches_next_page_from_memory() noexcept {
  static const bool next_page =
      choice_from(std::getenv("DMLREF_NEXT_PAGE_FROM_MEMORY"), next_page_from_memory_was_measured(cpu_make()));
  return next_page;
}

}  // namespace dmlref::detail

#endif  // DMLREF_DETAIL_MACHINE_HPP
