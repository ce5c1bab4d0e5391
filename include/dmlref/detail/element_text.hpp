#ifndef DMLREF_DETAIL_ELEMENT_TEXT_HPP
#define DMLREF_DETAIL_ELEMENT_TEXT_HPP

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <type_traits>

#include "../data_type.hpp"
#include "../float16.hpp"

// How one element prints in reports: its value and its raw bits, "-0 (0x8000)", "nan (0x7e01)".
// Standard library only: gtest.hpp's mismatch reports and explain.hpp's provenance share it.

namespace dmlref::detail {

/// The element type's bits as an unsigned integer of the same width.
template <class T>
std::uint64_t bits_of(const T& v) noexcept {
  if constexpr (std::is_same_v<T, float16>) {
    return v.bits;
  } else if constexpr (std::is_same_v<T, float>) {
    std::uint32_t b = 0;
    std::memcpy(&b, &v, sizeof b);
    return b;
  } else if constexpr (std::is_same_v<T, double>) {
    std::uint64_t b = 0;
    std::memcpy(&b, &v, sizeof b);
    return b;
  } else {
    return static_cast<std::uint64_t>(static_cast<std::make_unsigned_t<T>>(v));
  }
}

template <class T>
T from_bits(std::uint64_t b) noexcept {
  if constexpr (std::is_same_v<T, float16>) {
    return float16::from_bits(static_cast<std::uint16_t>(b));
  } else if constexpr (std::is_same_v<T, float> || std::is_same_v<T, double>) {
    using U = std::conditional_t<sizeof(T) == 4, std::uint32_t, std::uint64_t>;
    const U u = static_cast<U>(b);
    T v;
    std::memcpy(&v, &u, sizeof v);
    return v;
  } else {
    return static_cast<T>(static_cast<std::make_unsigned_t<T>>(b));
  }
}

template <class T>
inline constexpr bool is_float_v = std::is_floating_point_v<T> || std::is_same_v<T, float16>;

/// A float's value as a double (float16 exactly, through float).
template <class T>
double to_double(const T& v) noexcept {
  if constexpr (std::is_same_v<T, float16>)
    return static_cast<double>(v.to_float());
  else
    return static_cast<double>(v);
}

/// The shortest decimal that reads back as the same value of type T; nan, inf, -inf spelled out.
template <class T>
std::string value_text(const T& v) {
  char text[40];
  if constexpr (is_float_v<T>) {
    const double d = to_double(v);
    if (std::isnan(d)) return std::signbit(d) ? "-nan" : "nan";
    if (std::isinf(d)) return d < 0 ? "-inf" : "inf";
    const int most = std::is_same_v<T, double> ? 17 : 9;
    int precision = 1;
    for (; precision <= most; ++precision) {
      std::snprintf(text, sizeof text, "%.*g", precision, d);
      bool same = false;
      if constexpr (std::is_same_v<T, double>)
        same = std::strtod(text, nullptr) == d;
      else if constexpr (std::is_same_v<T, float>)
        same = std::strtof(text, nullptr) == v;
      else
        same = float16::from_float(std::strtof(text, nullptr)).bits == v.bits;
      if (same) break;
    }
    // Those digits in Python's notation: positional for exponents -4 to 15 ("10", not "1e+01").
    const char* e = std::strchr(text, 'e');
    const int exponent = e != nullptr ? std::atoi(e + 1) : 0;
    if (e == nullptr || exponent < -4 || exponent >= 16) return text;
    std::snprintf(text, sizeof text, "%.*e", precision - 1, d);
    std::string digits;
    for (const char* c = text; *c != 'e'; ++c)
      if (*c >= '0' && *c <= '9') digits += *c;
    std::string s = d < 0 ? "-" : "";
    if (exponent < 0) return s + "0." + std::string(static_cast<std::size_t>(-exponent - 1), '0') + digits;
    const auto whole = static_cast<std::size_t>(exponent) + 1;
    if (digits.size() <= whole) return s + digits + std::string(whole - digits.size(), '0');
    return s + digits.substr(0, whole) + "." + digits.substr(whole);
  } else if constexpr (std::is_signed_v<T>) {
    return std::to_string(static_cast<long long>(v));
  } else {
    return std::to_string(static_cast<unsigned long long>(v));
  }
}

/// "0x3e00": the bits, zero-padded to an element of `bytes` bytes.
inline std::string bits_text(std::uint64_t bits, std::size_t bytes) {
  char hex[24];
  std::snprintf(hex, sizeof hex, "0x%0*llx", static_cast<int>(2 * bytes), static_cast<unsigned long long>(bits));
  return hex;
}

/// "-0 (0x8000)": the value and its bits, zero-padded to the element's width.
template <class T>
std::string value_and_bits(std::uint64_t bits) {
  return value_text(from_bits<T>(bits)) + " (" + bits_text(bits, sizeof(T)) + ")";
}

/// value_text for a data type known at run time (a valid one; anything else prints its bits).
inline std::string value_text(DataType type, std::uint64_t bits) {
  switch (type) {
#define DMLREF_TEXT_CASE(name_, value, storage, kind) \
  case DataType::name_:                               \
    return value_text(from_bits<storage>(bits));
    DMLREF_FOR_EACH_DATA_TYPE(DMLREF_TEXT_CASE)
#undef DMLREF_TEXT_CASE
    case DataType::UNKNOWN:
      break;
  }
  return bits_text(bits, 8);
}

}  // namespace dmlref::detail

#endif  // DMLREF_DETAIL_ELEMENT_TEXT_HPP
