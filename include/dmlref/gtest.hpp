#ifndef DMLREF_GTEST_HPP
#define DMLREF_GTEST_HPP

/// Optional GoogleTest helpers for golden tests: compare a tensor with a dmlref result. This is the
/// only dmlref header that includes <gtest/gtest.h>; the core headers never do.
///
///   EXPECT_TRUE(dmlref::testing::tensors_equal(actual, expected));          // bit-exact
///   EXPECT_TRUE(dmlref::testing::tensors_near(actual, expected, dmlref::testing::ulps(2)));
///   DMLREF_EXPECT_TENSOR_EQ(actual, expected);                               // names the expressions
///   DMLREF_EXPECT_TENSOR_NEAR(actual, expected, dmlref::testing::absolute(1e-3));
///   DMLREF_ASSERT_TENSOR_EQ(...), DMLREF_ASSERT_TENSOR_NEAR(...)             // fatal forms
///
/// Either side is a TensorView<T> (any of the eleven element types, const or not, any strides) or
/// a TensorDesc / MutableTensorDesc (any data type, known at run time); the two sides may mix.
///
/// Comparison modes:
/// - bit_exact() (the default): every element's bits must be equal, so -0.0 differs from 0.0 and
///   NaNs with different payloads differ. This is what a gather or scatter must reproduce.
/// - ulps(n): floats within n units in the last place of their own type (float16 in half
///   precision); -0.0 equals 0.0, any NaN equals any NaN, a NaN never equals a number.
/// - absolute(x): |actual − expected| ≤ x, computed in double; NaN as for ulps.
///   In both tolerance modes integers compare by their exact difference (one ULP of an integer is 1).
///
/// On success the result says how many elements were compared. On failure the message gives the
/// number and percentage of mismatching elements, the first 10 mismatches with their coordinates,
/// both values and both raw bit patterns in hex (`-0 (0x8000)`, `nan (0x7e01)`), the data type and
/// shape (and the strides of any side that is not packed), and in the tolerance modes the largest
/// absolute and ULP differences with their coordinates. Its length is bounded, however large the
/// tensors. A data type or shape that differs is reported as such, without comparing elements.
///
/// Every tensor is checked as an operator would check it before any element is read: DimensionCount
/// 1..8, sizes ≥ 1, strides ≥ 0, no overflow, Data not null, and for a descriptor, that its sizes and
/// strides stay within TotalTensorSizeInBytes. A TensorView is trusted to address valid memory.
///
/// Golden comparisons run the operator themselves and explain where the mismatching elements should
/// have come from (explain.hpp), one line each under the report above:
///
///   DMLREF_EXPECT_GOLDEN(actual, dmlref::testing::gather(input, indices, params));
///   DMLREF_EXPECT_GOLDEN(actual, dmlref::testing::scatter(input, indices, updates, params).explaining(5));
///   EXPECT_TRUE(dmlref::testing::matches_golden(actual, dmlref::testing::gather_nd(input, indices, params)));
///
///     output[3,1]: expected 1.5 (0x3e00), got 0 (0x0000); expected = input[2,1], from indices[3] = -2 → 2 (Axis 0)
///
/// gather, gather_elements, gather_nd, gather_nd1, scatter and scatter_nd take the operator's
/// arguments but the output (views or descriptors, and Options last); the first 3 mismatches are
/// explained unless `.explaining(n)` (0 to 10) says otherwise, and `.within(tolerance)` relaxes the
/// bit-exact comparison. A call the operator rejects fails the comparison with the operator's error.

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "data_type.hpp"
#include "detail/element_text.hpp"
#include "detail/tensor.hpp"
#include "dmlref.hpp"
#include "explain.hpp"
#include "float16.hpp"
#include "runtime/tensor_desc.hpp"
#include "shape.hpp"
#include "status.hpp"
#include "tensor_view.hpp"

namespace dmlref {
namespace testing {

/// How two elements are compared; make one with bit_exact(), ulps(n) or absolute(x).
struct Tolerance {
  enum class Mode : std::uint8_t { bit_exact, ulp, absolute };
  Mode mode = Mode::bit_exact;
  std::uint64_t max_ulps = 0;  ///< Mode::ulp
  double max_absolute = 0;     ///< Mode::absolute

  /// "bit-exact", "within 4 ULP", "within 0.001 absolute".
  std::string describe() const {
    switch (mode) {
      case Mode::bit_exact: return "bit-exact";
      case Mode::ulp: return "within " + std::to_string(max_ulps) + " ULP";
      case Mode::absolute: {
        char text[48];
        std::snprintf(text, sizeof text, "within %g absolute", max_absolute);
        return text;
      }
    }
    return "?";
  }
};

/// Every element's bits equal (-0.0 ≠ 0.0, NaN payloads count).
inline Tolerance bit_exact() noexcept { return Tolerance{}; }
/// Floats at most `n` units in the last place apart (in their own precision).
inline Tolerance ulps(std::uint64_t n) noexcept {
  Tolerance t;
  t.mode = Tolerance::Mode::ulp;
  t.max_ulps = n;
  return t;
}
/// |actual − expected| ≤ `max_difference` (must be ≥ 0).
inline Tolerance absolute(double max_difference) noexcept {
  Tolerance t;
  t.mode = Tolerance::Mode::absolute;
  t.max_absolute = max_difference;
  return t;
}

/// The most mismatching elements one message lists.
inline constexpr int max_listed_mismatches = 10;

/// Either side of a comparison: a TensorView<T> or a runtime descriptor, converted implicitly.
class TensorRef {
 public:
  template <class T>
  TensorRef(const TensorView<T>& view) noexcept  // NOLINT: implicit by design
      : raw_(::dmlref::detail::raw("", view)) {}
  template <class Pointer>
  TensorRef(const BasicTensorDesc<Pointer>& desc) noexcept  // NOLINT: implicit by design
      : desc_status_(::dmlref::detail::from_desc("", "", desc, raw_)), from_desc_(true) {}

  /// The tensor with its type erased (valid only if problem() is empty).
  const ::dmlref::detail::RawTensor& raw() const noexcept { return raw_; }
  bool from_desc() const noexcept { return from_desc_; }

  /// Why the tensor cannot be read ("" when it can), in dmlref's error vocabulary.
  std::string problem(const char* name) const {
    ::dmlref::detail::RawTensor t = raw_;
    t.name = name;
    if (!desc_status_.ok()) return reworded(desc_status_.error(), name);
    if (!is_valid(t.type))
      return std::string(name) + ".DataType must be one of the eleven DirectML data types, but is " +
             std::to_string(static_cast<std::uint32_t>(t.type));
    ::dmlref::detail::Layout checked{};
    const Status layout = ::dmlref::detail::check_layout("", t, t.sizes.rank(), false, checked);
    return layout.ok() ? std::string() : reworded(layout.error(), name);
  }

 private:
  /// The operator-style message without the leading ": " of an empty operator name, and with
  /// the tensor's name put in.
  static std::string reworded(Error error, const char* name) {
    error.tensor = name;
    std::string text = error.message();
    if (text.compare(0, 2, ": ") == 0) text.erase(0, 2);
    return text;
  }

  ::dmlref::detail::RawTensor raw_;
  Status desc_status_;
  bool from_desc_ = false;
};

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

/// The comparison behind every public form. `actual_name` / `expected_name` name the two sides in
/// the message (the macros pass the expressions). `tally`, when given, receives what the element
/// comparison found (nothing when it did not run).
inline ::testing::AssertionResult compare(const char* actual_name, const char* expected_name,
                                          const TensorRef& actual, const TensorRef& expected,
                                          const Tolerance& tolerance, Tally* tally_out = nullptr) {
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
  return ::testing::AssertionFailure() << text;
}

}  // namespace internal

/// Bit-exact comparison: usable as EXPECT_TRUE(tensors_equal(actual, expected)).
inline ::testing::AssertionResult tensors_equal(const TensorRef& actual, const TensorRef& expected) {
  return internal::compare("actual", "expected", actual, expected, bit_exact());
}

/// Comparison under a tolerance: bit_exact(), ulps(n) or absolute(x).
inline ::testing::AssertionResult tensors_near(const TensorRef& actual, const TensorRef& expected,
                                               const Tolerance& tolerance) {
  return internal::compare("actual", "expected", actual, expected, tolerance);
}

/// Predicate-formatters for EXPECT_PRED_FORMAT2/3: the message names the expressions.
inline ::testing::AssertionResult tensors_equal_format(const char* actual_expression,
                                                       const char* expected_expression,
                                                       const TensorRef& actual, const TensorRef& expected) {
  return internal::compare(actual_expression, expected_expression, actual, expected, bit_exact());
}
inline ::testing::AssertionResult tensors_near_format(const char* actual_expression,
                                                      const char* expected_expression,
                                                      const char* /*tolerance_expression*/,
                                                      const TensorRef& actual, const TensorRef& expected,
                                                      const Tolerance& tolerance) {
  return internal::compare(actual_expression, expected_expression, actual, expected, tolerance);
}


// ------------------------------------------------------------------------------------------------
// Golden comparisons: the operator computes the expected tensor, and mismatches are explained.

namespace internal {

template <class T>
DataType data_type_of(const TensorView<T>&) noexcept {
  return data_type_v<std::remove_const_t<T>>;
}
inline DataType data_type_of(const TensorDesc& desc) noexcept { return desc.DataType; }
template <class T>
Shape sizes_of(const TensorView<T>& view) noexcept {
  return view.sizes();
}
inline Shape sizes_of(const TensorDesc& desc) noexcept { return ::dmlref::sizes_of(desc); }

/// The golden's output in the inputs' layer: a view of the input's element type, or a descriptor.
template <class T>
TensorView<std::remove_const_t<T>> output_like(const TensorView<T>&, unsigned char* data, const Shape& sizes) {
  return TensorView<std::remove_const_t<T>>(reinterpret_cast<std::remove_const_t<T>*>(data), sizes);
}
inline MutableTensorDesc output_like(const TensorDesc& input, unsigned char* data, const Shape& sizes) {
  std::uint64_t count = 1;
  for (std::int64_t v : sizes) count *= static_cast<std::uint64_t>(v);
  return MutableTensorDesc{input.DataType, static_cast<std::uint32_t>(sizes.rank()), sizes.data(), nullptr,
                           count * element_size(input.DataType), data};
}

}  // namespace internal

/// One dmlref operator call whose result is the golden tensor, made by gather(...),
/// gather_elements(...), gather_nd(...), gather_nd1(...), scatter(...) or scatter_nd(...) below
/// with the operator's own arguments but the output. explaining(n) and within(t) adjust it.
class GoldenCall {
 public:
  template <class Input, class Run, class Explain>
  GoldenCall(const char* op, const Input& input, const Result<Shape>& sizes, Run run, Explain explain)
      : op_(op), type_(internal::data_type_of(input)), rank_(internal::sizes_of(input).rank()),
        sizes_status_(sizes.status()), sizes_(sizes.value()), run_(std::move(run)), explain_(std::move(explain)) {}

  /// Explain the first n mismatching elements (0 to 10; default 3), one line each.
  GoldenCall explaining(int n) const {
    GoldenCall c = *this;
    c.explained_ = n < 0 ? 0 : (n > max_listed_mismatches ? max_listed_mismatches : n);
    return c;
  }
  /// Compare under a tolerance instead of bit for bit (a reduction's arithmetic on other hardware).
  GoldenCall within(const Tolerance& tolerance) const {
    GoldenCall c = *this;
    c.tolerance_ = tolerance;
    return c;
  }

  const char* op() const noexcept { return op_; }
  int explained() const noexcept { return explained_; }
  const Tolerance& tolerance() const noexcept { return tolerance_; }

  /// Runs the call into a packed buffer of the output's sizes (8-byte aligned), or says why not:
  /// when the shape helper fails, the operator's own error for these inputs.
  Status compute(std::vector<std::uint64_t>& storage, Shape& sizes) const {
    if (!sizes_status_) {
      storage.assign(1, 0);
      const Status s = run_(reinterpret_cast<unsigned char*>(storage.data()), Shape::filled(rank_ < 1 ? 1 : rank_, 1));
      return s ? sizes_status_ : s;
    }
    std::int64_t count = 1;
    for (std::int64_t v : sizes_)
      if (!::dmlref::detail::mul_ok(count, v, count) || count > (std::int64_t{1} << 34))
        return ::dmlref::detail::error_status(ErrorCode::overflow, op_, "OutputTensor", "Sizes", -1,
                                              ErrorValue::of_text("at most 2^34 elements for a golden test"),
                                              ErrorValue::of(sizes_));
    storage.assign(static_cast<std::size_t>((count * static_cast<std::int64_t>(element_size(type_)) + 7) / 8), 0);
    sizes = sizes_;
    return run_(reinterpret_cast<unsigned char*>(storage.data()), sizes);
  }
  /// The provenance of element `at` of the output computed into `data`.
  Result<Provenance> explain(unsigned char* data, const Shape& sizes, const Shape& at) const {
    return explain_(data, sizes, at);
  }
  DataType type() const noexcept { return type_; }

 private:
  const char* op_;
  DataType type_;
  int rank_;
  Status sizes_status_;
  Shape sizes_;
  std::function<Status(unsigned char*, const Shape&)> run_;
  std::function<Result<Provenance>(unsigned char*, const Shape&, const Shape&)> explain_;
  Tolerance tolerance_ = bit_exact();
  int explained_ = 3;
};

namespace internal {

/// "output[3,1]: expected 1.5 (0x3e00), got 0 (0x0000); expected = input[2,1], from ...".
inline std::string explained_line(const GoldenCall& golden, unsigned char* data, const Shape& sizes,
                                  const Mismatch& m) {
  const Element expected{golden.type(), m.expected}, actual{golden.type(), m.actual};
  std::string line = "output" + ::dmlref::detail::coordinate_text(m.coordinate) + ": expected " +
                     to_string(expected) + ", got " + to_string(actual) + "; expected = ";
  const Result<Provenance> p = golden.explain(data, sizes, m.coordinate);
  if (!p) return line + "? (" + p.status().message() + ")";
  line += source_text(*p);
  if (p->value.bits != m.expected) line += " [the explanation gives " + to_string(p->value) + ": a dmlref bug]";
  return line;
}

}  // namespace internal

/// The golden comparison: runs the call, compares `actual` with its result as tensors_near does,
/// and explains the first mismatches (GoldenCall::explaining) under today's report. A call that
/// fails is a failure that prints the call's error.
inline ::testing::AssertionResult golden_format(const char* actual_expression, const char* /*golden_expression*/,
                                                const TensorRef& actual, const GoldenCall& golden) {
  std::vector<std::uint64_t> storage;
  Shape sizes;
  const Status computed = golden.compute(storage, sizes);
  if (!computed)
    return ::testing::AssertionFailure() << "dmlref's " << golden.op() << " fails, so " << actual_expression
                                         << " was not compared: " << computed.message();
  auto* data = reinterpret_cast<unsigned char*>(storage.data());
  const MutableTensorDesc out = internal::output_like(TensorDesc{golden.type(), 0, nullptr, nullptr, 0, nullptr},
                                                      data, sizes);
  const std::string expected_name = std::string("dmlref's ") + golden.op();
  internal::Tally tally;
  ::testing::AssertionResult result =
      internal::compare(actual_expression, expected_name.c_str(), actual, out, golden.tolerance(), &tally);
  if (result || tally.listed == 0 || golden.explained() == 0) return result;
  const int n = golden.explained() < tally.listed ? golden.explained() : tally.listed;
  std::string text = "\n  explained" + (tally.mismatches > n ? " (the first " + std::to_string(n) + ")" : std::string()) +
                     ":";
  for (int i = 0; i < n; ++i) text += "\n    " + internal::explained_line(golden, data, sizes, tally.list[i]);
  return result << text;
}

/// EXPECT_TRUE(matches_golden(actual, gather(input, indices, params))).
inline ::testing::AssertionResult matches_golden(const TensorRef& actual, const GoldenCall& golden) {
  return golden_format("actual", "golden", actual, golden);
}

/// Gather on these inputs (views or descriptors), as the golden.
template <class Input, class Indices>
GoldenCall gather(const Input& input, const Indices& indices, const GatherParams& params, const Options& options = {}) {
  return GoldenCall(
      "Gather", input, gather_output_sizes(internal::sizes_of(input), internal::sizes_of(indices), params),
      [=](unsigned char* d, const Shape& s) {
        return try_gather(input, indices, internal::output_like(input, d, s), params, options);
      },
      [=](unsigned char* d, const Shape& s, const Shape& at) {
        return explain_gather(input, indices, internal::output_like(input, d, s), params, at, options);
      });
}

/// GatherElements, as the golden.
template <class Input, class Indices>
GoldenCall gather_elements(const Input& input, const Indices& indices, const GatherElementsParams& params,
                           const Options& options = {}) {
  return GoldenCall(
      "GatherElements", input,
      gather_elements_output_sizes(internal::sizes_of(input), internal::sizes_of(indices), params),
      [=](unsigned char* d, const Shape& s) {
        return try_gather_elements(input, indices, internal::output_like(input, d, s), params, options);
      },
      [=](unsigned char* d, const Shape& s, const Shape& at) {
        return explain_gather_elements(input, indices, internal::output_like(input, d, s), params, at, options);
      });
}

/// GatherND, as the golden.
template <class Input, class Indices>
GoldenCall gather_nd(const Input& input, const Indices& indices, const GatherNDParams& params,
                     const Options& options = {}) {
  return GoldenCall(
      "GatherND", input, gather_nd_output_sizes(internal::sizes_of(input), internal::sizes_of(indices), params),
      [=](unsigned char* d, const Shape& s) {
        return try_gather_nd(input, indices, internal::output_like(input, d, s), params, options);
      },
      [=](unsigned char* d, const Shape& s, const Shape& at) {
        return explain_gather_nd(input, indices, internal::output_like(input, d, s), params, at, options);
      });
}

/// GatherND1, as the golden.
template <class Input, class Indices>
GoldenCall gather_nd1(const Input& input, const Indices& indices, const GatherND1Params& params,
                      const Options& options = {}) {
  return GoldenCall(
      "GatherND1", input, gather_nd1_output_sizes(internal::sizes_of(input), internal::sizes_of(indices), params),
      [=](unsigned char* d, const Shape& s) {
        return try_gather_nd1(input, indices, internal::output_like(input, d, s), params, options);
      },
      [=](unsigned char* d, const Shape& s, const Shape& at) {
        return explain_gather_nd1(input, indices, internal::output_like(input, d, s), params, at, options);
      });
}

/// Scatter (ScatterElements), as the golden.
template <class Input, class Indices, class Updates>
GoldenCall scatter(const Input& input, const Indices& indices, const Updates& updates, const ScatterParams& params,
                   const Options& options = {}) {
  return GoldenCall(
      "Scatter", input,
      scatter_output_sizes(internal::sizes_of(input), internal::sizes_of(indices), internal::sizes_of(updates),
                           params),
      [=](unsigned char* d, const Shape& s) {
        return try_scatter(input, indices, updates, internal::output_like(input, d, s), params, options);
      },
      [=](unsigned char* d, const Shape& s, const Shape& at) {
        return explain_scatter(input, indices, updates, internal::output_like(input, d, s), params, at, options);
      });
}

/// ScatterND, as the golden.
template <class Input, class Indices, class Updates>
GoldenCall scatter_nd(const Input& input, const Indices& indices, const Updates& updates,
                      const ScatterNDParams& params, const Options& options = {}) {
  return GoldenCall(
      "ScatterND", input,
      scatter_nd_output_sizes(internal::sizes_of(input), internal::sizes_of(indices), internal::sizes_of(updates),
                              params),
      [=](unsigned char* d, const Shape& s) {
        return try_scatter_nd(input, indices, updates, internal::output_like(input, d, s), params, options);
      },
      [=](unsigned char* d, const Shape& s, const Shape& at) {
        return explain_scatter_nd(input, indices, updates, internal::output_like(input, d, s), params, at, options);
      });
}

}  // namespace testing
}  // namespace dmlref

/// Non-fatal: the test goes on after a mismatch.
#define DMLREF_EXPECT_TENSOR_EQ(actual, expected) \
  EXPECT_PRED_FORMAT2(::dmlref::testing::tensors_equal_format, actual, expected)
#define DMLREF_EXPECT_TENSOR_NEAR(actual, expected, tolerance) \
  EXPECT_PRED_FORMAT3(::dmlref::testing::tensors_near_format, actual, expected, tolerance)
/// Fatal: the test function returns after a mismatch.
#define DMLREF_ASSERT_TENSOR_EQ(actual, expected) \
  ASSERT_PRED_FORMAT2(::dmlref::testing::tensors_equal_format, actual, expected)
#define DMLREF_ASSERT_TENSOR_NEAR(actual, expected, tolerance) \
  ASSERT_PRED_FORMAT3(::dmlref::testing::tensors_near_format, actual, expected, tolerance)
/// Golden comparisons: `actual` against the result of a GoldenCall, mismatches explained.
///   DMLREF_EXPECT_GOLDEN(out, dmlref::testing::gather(input, indices, params));
#define DMLREF_EXPECT_GOLDEN(actual, golden_call) \
  EXPECT_PRED_FORMAT2(::dmlref::testing::golden_format, actual, golden_call)
#define DMLREF_ASSERT_GOLDEN(actual, golden_call) \
  ASSERT_PRED_FORMAT2(::dmlref::testing::golden_format, actual, golden_call)

#endif  // DMLREF_GTEST_HPP
