#ifndef DMLREF_DETAIL_MACHINE_HPP
#define DMLREF_DETAIL_MACHINE_HPP

#include <cstdint>
#include <cstdio>
#include <cstdlib>

#if defined(__unix__) || defined(__APPLE__)
#  include <unistd.h>
#endif

#include "../config.hpp"

// The caches the kernels size their blocks by, read once per program, when a call first needs
// them. docs/performance.md, "Both kinds of host", says which choices depend on them and why the
// others do not.

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

}  // namespace dmlref::detail

#endif  // DMLREF_DETAIL_MACHINE_HPP
