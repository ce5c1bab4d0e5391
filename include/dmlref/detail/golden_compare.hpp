#ifndef DMLREF_DETAIL_GOLDEN_COMPARE_HPP
#define DMLREF_DETAIL_GOLDEN_COMPARE_HPP

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <string>
#include <type_traits>

#include "../data_type.hpp"
#include "../shape.hpp"
#include "../status.hpp"
#include "element_text.hpp"
#include "golden_operands.hpp"
#include "tensor.hpp"

// The comparison behind every form of gtest.hpp: both tensors checked as an operator checks them,
// then every element pair compared under the tolerance, and the report of the mismatches, bounded
// however large the tensors (gtest.hpp says what it holds).

namespace dmlref {
namespace testing {
namespace internal {

using ::dmlref::detail::RawTensor;

/// A compared element pair, as unsigned bits plus the numbers derived from them.
struct Mismatch {
  Shape coordinate;
  std::uint64_t actual = 0, expected = 0;
  double absolute = 0;     ///< NaN when undefined (a NaN on one side)
  std::uint64_t ulp = 0;
  bool has_difference = false;
};

struct Largest {
  bool any = false;
  double absolute = 0;
  Shape absolute_at;
  std::uint64_t ulp = 0;
  Shape ulp_at;
};

using ::dmlref::detail::bits_of;
using ::dmlref::detail::from_bits;
using ::dmlref::detail::is_float_v;
using ::dmlref::detail::to_double;
using ::dmlref::detail::value_and_bits;

template <class T>
bool is_nan(const T& v) noexcept {
  return std::isnan(to_double(v));
}

/// Units in the last place between two non-NaN floats of one type, counting -0 and +0 as one
/// point: the distance between their positions on the line of representable values.
inline std::uint64_t ulp_distance(std::uint64_t a, std::uint64_t b, int width_bits) noexcept {
  const std::uint64_t sign = std::uint64_t{1} << (width_bits - 1);
  const std::uint64_t magnitude_a = a & (sign - 1), magnitude_b = b & (sign - 1);
  const bool negative_a = (a & sign) != 0 && magnitude_a != 0;
  const bool negative_b = (b & sign) != 0 && magnitude_b != 0;
  if (negative_a == negative_b)
    return magnitude_a > magnitude_b ? magnitude_a - magnitude_b : magnitude_b - magnitude_a;
  return magnitude_a + magnitude_b;  // each below 2^63: no overflow
}

/// The exact distance |a − b| between two integers.
template <class T>
std::uint64_t integer_distance(T a, T b) noexcept {
  if constexpr (std::is_signed_v<T>) {
    const auto ua = static_cast<std::uint64_t>(static_cast<std::int64_t>(a));
    const auto ub = static_cast<std::uint64_t>(static_cast<std::int64_t>(b));
    return a >= b ? ua - ub : ub - ua;  // modular arithmetic gives the true distance
  } else {
    return a >= b ? static_cast<std::uint64_t>(a - b) : static_cast<std::uint64_t>(b - a);
  }
}

inline std::string coordinate_text(const Shape& c) { return ErrorValue::braced(c, '[', ']'); }

/// "1.5e-07" style, for differences.
inline std::string number_text(double v) {
  char text[32];
  std::snprintf(text, sizeof text, "%.3g", v);
  return text;
}

/// Whether the bits of one element pair pass, and the numbers that describe the difference.
template <class T>
bool compare_element(std::uint64_t a_bits, std::uint64_t e_bits, const Tolerance& tolerance,
                     Mismatch& m) noexcept {
  m.has_difference = false;
  if (a_bits == e_bits) {
    m.absolute = 0;
    m.ulp = 0;
    m.has_difference = true;
    return true;
  }
  const T a = from_bits<T>(a_bits), e = from_bits<T>(e_bits);
  if constexpr (is_float_v<T>) {
    const bool a_nan = is_nan(a), e_nan = is_nan(e);
    if (a_nan || e_nan) return tolerance.mode != Tolerance::Mode::bit_exact && a_nan && e_nan;
    const double da = to_double(a), de = to_double(e);
    m.absolute = std::isinf(da) || std::isinf(de) ? (da == de ? 0.0 : HUGE_VAL) : std::fabs(da - de);
    m.ulp = ulp_distance(a_bits, e_bits, static_cast<int>(8 * sizeof(T)));
  } else {
    m.ulp = integer_distance(a, e);
    m.absolute = static_cast<double>(m.ulp);
  }
  m.has_difference = true;
  switch (tolerance.mode) {
    case Tolerance::Mode::bit_exact: return false;
    case Tolerance::Mode::ulp: return m.ulp <= tolerance.max_ulps;
    case Tolerance::Mode::absolute: return m.absolute <= tolerance.max_absolute;
  }
  return false;
}

/// What one pass over the elements found.
struct Tally {
  std::int64_t elements = 0;
  std::int64_t mismatches = 0;
  int listed = 0;
  Mismatch list[max_listed_mismatches];
  Largest largest;
};

/// Visits every coordinate in row-major order, comparing the elements of both tensors.
template <class T>
void compare_all(const RawTensor& actual, const RawTensor& expected, const Tolerance& tolerance,
                 Tally& tally) noexcept {
  const int rank = actual.sizes.rank();
  Shape coordinate = Shape::filled(rank, 0);
  std::int64_t offset_a = 0, offset_e = 0;
  const unsigned char* base_a = actual.data;
  const unsigned char* base_e = expected.data;
  for (;;) {
    T a, e;
    std::memcpy(&a, base_a + offset_a * static_cast<std::int64_t>(sizeof(T)), sizeof(T));
    std::memcpy(&e, base_e + offset_e * static_cast<std::int64_t>(sizeof(T)), sizeof(T));
    Mismatch m;
    const std::uint64_t a_bits = bits_of(a), e_bits = bits_of(e);
    const bool pass = compare_element<T>(a_bits, e_bits, tolerance, m);
    ++tally.elements;
    if (m.has_difference) {
      if (!tally.largest.any || m.absolute > tally.largest.absolute) {
        tally.largest.absolute = m.absolute;
        tally.largest.absolute_at = coordinate;
      }
      if (!tally.largest.any || m.ulp > tally.largest.ulp) {
        tally.largest.ulp = m.ulp;
        tally.largest.ulp_at = coordinate;
      }
      tally.largest.any = true;
    }
    if (!pass) {
      if (tally.listed < max_listed_mismatches) {
        m.coordinate = coordinate;
        m.actual = a_bits;
        m.expected = e_bits;
        tally.list[tally.listed++] = m;
      }
      ++tally.mismatches;
    }
    int d = rank - 1;
    for (; d >= 0; --d) {
      if (++coordinate[d] < actual.sizes[d]) {
        offset_a += actual.strides[d];
        offset_e += expected.strides[d];
        break;
      }
      coordinate[d] = 0;
      offset_a -= (actual.sizes[d] - 1) * actual.strides[d];
      offset_e -= (expected.sizes[d] - 1) * expected.strides[d];
    }
    if (d < 0) return;
  }
}

/// "FLOAT16 {2, 3}", plus the strides when they are not the packed ones.
inline std::string layout_text(const RawTensor& t) {
  std::string text = std::string(name(t.type)) + " " + ErrorValue::braced(t.sizes);
  if (t.strides != packed_strides(t.sizes)) text += ", strides " + ErrorValue::braced(t.strides);
  return text;
}

inline std::string percent_text(std::int64_t part, std::int64_t whole) {
  char text[32];
  std::snprintf(text, sizeof text, "%.3g%%", 100.0 * static_cast<double>(part) / static_cast<double>(whole));
  return text;
}

template <class T>
void describe_mismatches(const Tally& tally, const Tolerance& tolerance, std::string& text) {
  const bool tolerant = tolerance.mode != Tolerance::Mode::bit_exact;
  if (tolerant && tally.largest.any) {
    if constexpr (is_float_v<T>) {
      text += "\n  largest absolute difference: " + number_text(tally.largest.absolute) + " at " +
              coordinate_text(tally.largest.absolute_at);
      if (tolerance.mode == Tolerance::Mode::absolute)
        text += " (" + number_text(tolerance.max_absolute) + " allowed)";
      text += "\n  largest ULP difference: " + std::to_string(tally.largest.ulp) + " at " +
              coordinate_text(tally.largest.ulp_at);
      if (tolerance.mode == Tolerance::Mode::ulp) text += " (" + std::to_string(tolerance.max_ulps) + " allowed)";
    } else {
      text += "\n  largest difference: " + std::to_string(tally.largest.ulp) + " at " +
              coordinate_text(tally.largest.ulp_at);
    }
  }
  text += tally.mismatches > tally.listed ? "\n  first " + std::to_string(tally.listed) + " mismatches:"
                                          : std::string("\n  mismatches:");
  for (int i = 0; i < tally.listed; ++i) {
    const Mismatch& m = tally.list[i];
    text += "\n    at " + coordinate_text(m.coordinate) + ": actual " + value_and_bits<T>(m.actual) +
            ", expected " + value_and_bits<T>(m.expected);
    if (tolerant) {
      if (!m.has_difference)
        text += " (NaN on one side)";
      else if constexpr (is_float_v<T>)
        text += " (difference " + number_text(m.absolute) + ", " + std::to_string(m.ulp) + " ULP)";
      else
        text += " (difference " + std::to_string(m.ulp) + ")";
    }
  }
  if (tally.mismatches > tally.listed)
    text += "\n    ... and " + std::to_string(tally.mismatches - tally.listed) + " more";
}

/// The failure to report when the elements cannot be compared: an invalid tolerance, a tensor that
/// cannot be read, or data types or shapes that differ. Success when they can.
inline ::testing::AssertionResult check_comparable(const char* actual_name, const char* expected_name,
                                                   const TensorRef& actual, const TensorRef& expected,
                                                   const Tolerance& tolerance) {
  const std::string a_name = actual_name, e_name = expected_name;
  if (tolerance.mode == Tolerance::Mode::absolute && !(tolerance.max_absolute >= 0))
    return ::testing::AssertionFailure() << "invalid tolerance: absolute(" << tolerance.max_absolute
                                         << ") must be at least 0";
  const std::string a_problem = actual.problem(actual_name), e_problem = expected.problem(expected_name);
  if (!a_problem.empty() || !e_problem.empty()) {
    ::testing::AssertionResult failure = ::testing::AssertionFailure();
    failure << "cannot compare " << a_name << " with " << e_name << "; no elements were compared";
    if (!a_problem.empty()) failure << "\n  " << a_problem;
    if (!e_problem.empty()) failure << "\n  " << e_problem;
    return failure;
  }
  const RawTensor& a = actual.raw();
  const RawTensor& e = expected.raw();
  const bool same_type = a.type == e.type, same_sizes = a.sizes == e.sizes;
  if (!same_type || !same_sizes) {
    ::testing::AssertionResult failure = ::testing::AssertionFailure();
    failure << (same_type ? "shapes" : same_sizes ? "data types" : "data types and shapes") << " differ: "
            << a_name << " is " << layout_text(a) << ", " << e_name << " is " << layout_text(e)
            << "; no elements were compared";
    if (!same_sizes && a.sizes.rank() != e.sizes.rank()) {
      // {3} and {1, 3} hold the same elements; dmlref pads every tensor of a call to one rank.
      auto drop_leading_ones = [](const Shape& s) {
        Shape out;
        const int stored = static_cast<int>(s.size());  // a rank past 8 counts values not held
        int d = 0;
        while (d < stored && s[d] == 1) ++d;
        for (; d < stored; ++d) out.push_back(s[d]);
        return out;
      };
      if (drop_leading_ones(a.sizes) == drop_leading_ones(e.sizes))
        failure << " (the sizes agree up to leading 1s: give both sides the same DimensionCount)";
    }
    return failure;
  }
  return ::testing::AssertionSuccess();
}

/// The failure message for the mismatches in `tally`: how many, both layouts, and the first ones.
inline std::string mismatch_report(const std::string& a_name, const std::string& e_name, const RawTensor& a,
                                   const RawTensor& e, const Tolerance& tolerance, const Tally& tally) {
  std::string text = a_name + " differs from " + e_name + " (" + tolerance.describe() + ") in " +
                     std::to_string(tally.mismatches) + " of " + std::to_string(tally.elements) + " elements (" +
                     percent_text(tally.mismatches, tally.elements) + ")";
  if (a.strides == e.strides) {
    text += "\n  both: " + layout_text(a);
  } else {
    text += "\n  " + a_name + ": " + layout_text(a);
    text += "\n  " + e_name + ": " + layout_text(e);
  }
  switch (a.type) {
#define DMLREF_GTEST_CASE(name_, value, storage, kind)     \
  case DataType::name_:                                     \
    describe_mismatches<storage>(tally, tolerance, text);   \
    break;
    DMLREF_FOR_EACH_DATA_TYPE(DMLREF_GTEST_CASE)
#undef DMLREF_GTEST_CASE
    case DataType::UNKNOWN:
      break;
  }
  return text;
}

/// The comparison behind every public form. `actual_name` / `expected_name` name the two sides in
/// the message (the macros pass the expressions). `tally`, when given, receives what the element
/// comparison found (nothing when it did not run).
inline ::testing::AssertionResult compare(const char* actual_name, const char* expected_name,
                                          const TensorRef& actual, const TensorRef& expected,
                                          const Tolerance& tolerance, Tally* tally_out = nullptr) {
  ::testing::AssertionResult comparable = check_comparable(actual_name, expected_name, actual, expected, tolerance);
  if (!comparable) return comparable;
  const std::string a_name = actual_name, e_name = expected_name;
  const RawTensor& a = actual.raw();
  const RawTensor& e = expected.raw();

  Tally tally;
  switch (a.type) {
#define DMLREF_GTEST_CASE(name_, value, storage, kind) \
  case DataType::name_:                                 \
    compare_all<storage>(a, e, tolerance, tally);       \
    break;
    DMLREF_FOR_EACH_DATA_TYPE(DMLREF_GTEST_CASE)
#undef DMLREF_GTEST_CASE
    case DataType::UNKNOWN:
      break;
  }
  if (tally_out != nullptr) *tally_out = tally;

  if (tally.mismatches == 0)
    return ::testing::AssertionSuccess() << "all " << tally.elements << " elements of " << a_name << " equal "
                                         << e_name << " (" << tolerance.describe() << ")";
  return ::testing::AssertionFailure() << mismatch_report(a_name, e_name, a, e, tolerance, tally);
}

}  // namespace internal

}  // namespace testing
}  // namespace dmlref

#endif  // DMLREF_DETAIL_GOLDEN_COMPARE_HPP
