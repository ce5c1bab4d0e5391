#ifndef DMLREF_DETAIL_PRINT_NUMBERS_HPP
#define DMLREF_DETAIL_PRINT_NUMBERS_HPP

#include <fmt/format.h>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <locale>
#include <sstream>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "../float16.hpp"

// How fmt.hpp prints the elements of a tensor, as numpy 1.24 does: the shortest digits that
// identify a value in its own type (float16 in half precision), and numpy's float and integer
// formats (or the caller's spec), fitted to all the values shown so that they share one width.

namespace dmlref::detail::print {

// numpy's default print options (np.get_printoptions()).
inline constexpr int line_width = 75;
inline constexpr std::int64_t threshold = 1000;
inline constexpr std::int64_t edge_items = 3;
inline constexpr int float_precision = 8;

/// A decimal: |value| = d0.d1d2... x 10^exponent, digits without leading or trailing zeros
/// ("0" and exponent 0 for zero).
struct Decimal {
  bool negative = false;
  std::string digits = "0";
  int exponent = 0;
};

/// Reads what fmt writes for a finite number ("-1.5e-05", "123.25", "1e+16") into a Decimal.
inline Decimal parse_decimal(const std::string& text) {
  Decimal d;
  std::size_t i = 0;
  if (i < text.size() && text[i] == '-') {
    d.negative = true;
    ++i;
  }
  std::string digits;
  int point = -1;
  int exp10 = 0;
  for (; i < text.size(); ++i) {
    const char c = text[i];
    if (c == '.') {
      point = static_cast<int>(digits.size());
    } else if (c == 'e' || c == 'E') {
      exp10 = std::atoi(text.c_str() + i + 1);
      break;
    } else {
      digits += c;
    }
  }
  if (point < 0) point = static_cast<int>(digits.size());
  const std::size_t first = digits.find_first_not_of('0');
  if (first == std::string::npos) {
    d.digits = "0";
    d.exponent = 0;
    return d;
  }
  const std::size_t last = digits.find_last_not_of('0');
  d.digits = digits.substr(first, last - first + 1);
  d.exponent = point - 1 - static_cast<int>(first) + exp10;
  return d;
}

/// `value` correctly rounded (ties to even, as numpy's Dragon4 does) to `significant` digits.
inline Decimal rounded(double value, int significant) {
  return parse_decimal(fmt::format("{:.{}e}", value, std::max(significant, 1) - 1));
}

/// "1.5e3" as a double, whatever the C locale's decimal point.
inline double read_double(const std::string& text) {
#if defined(__cpp_lib_to_chars) && __cpp_lib_to_chars >= 201611L
  double value = 0;
  std::from_chars(text.data(), text.data() + text.size(), value);
  return value;
#else
  std::istringstream in(text);
  in.imbue(std::locale::classic());
  double value = 0;
  in >> value;
  return value;
#endif
}

/// The shortest decimal that reads back as `value` (fmt's shortest round trip, as numpy's).
inline Decimal shortest(double value) { return parse_decimal(fmt::format("{}", value)); }
inline Decimal shortest(float value) { return parse_decimal(fmt::format("{}", value)); }

/// The shortest decimal that reads back (rounding to nearest, ties to even) as the half `h`, the
/// closest to it when several are as short: numpy's unique digits for float16.
inline Decimal shortest(float16 h) {
  const std::uint16_t magnitude = static_cast<std::uint16_t>(h.bits & 0x7FFFu);
  const double v = static_cast<double>(float16::from_bits(magnitude).to_float());
  Decimal exact = parse_decimal(fmt::format("{:.30e}", v));  // every half has <= 17 digits
  exact.negative = (h.bits & 0x8000u) != 0;
  if (magnitude == 0) return exact;
  // The interval of reals that round to h: halfway to each neighbour (the largest finite half
  // rounds up to inf only from 65520 on, halfway to 2^16).
  const double below = magnitude == 1 ? 0.0 : static_cast<double>(float16::from_bits(static_cast<std::uint16_t>(magnitude - 1)).to_float());
  const double above = magnitude == 0x7BFF ? 65536.0 : static_cast<double>(float16::from_bits(static_cast<std::uint16_t>(magnitude + 1)).to_float());
  const double low = (below + v) / 2, high = (v + above) / 2;
  const bool inclusive = (magnitude & 1u) == 0;
  auto inside = [&](double x) { return inclusive ? (x >= low && x <= high) : (x > low && x < high); };
  auto value_of = [](const std::string& digits, int exponent) {
    return read_double(digits.substr(0, 1) + "." + digits.substr(1) + "e" + std::to_string(exponent));
  };
  for (std::size_t n = 1; n < exact.digits.size(); ++n) {
    // The two n-digit decimals around v: truncated, and one unit in the last place above.
    Decimal down = exact, up = exact;
    down.digits = exact.digits.substr(0, n);
    std::string digits = down.digits;
    int carry_at = static_cast<int>(n) - 1;
    while (carry_at >= 0 && digits[static_cast<std::size_t>(carry_at)] == '9') digits[static_cast<std::size_t>(carry_at--)] = '0';
    if (carry_at < 0) {
      digits.insert(digits.begin(), '1');
      up.exponent = exact.exponent + 1;
    } else {
      ++digits[static_cast<std::size_t>(carry_at)];
    }
    up.digits = digits;
    const double down_value = value_of(down.digits, down.exponent);
    const double up_value = value_of(up.digits, up.exponent);
    const bool down_ok = inside(down_value), up_ok = inside(up_value);
    if (!down_ok && !up_ok) continue;
    bool take_up = up_ok && !down_ok;
    if (down_ok && up_ok) {
      const double to_down = v - down_value, to_up = up_value - v;
      take_up = to_up < to_down || (to_up == to_down && (down.digits.back() - '0') % 2 != 0);
    }
    Decimal& chosen = take_up ? up : down;
    const std::size_t last = chosen.digits.find_last_not_of('0');
    chosen.digits.resize(last + 1);
    return chosen;
  }
  return exact;
}

/// "123", "0.05" digits of a Decimal in positional notation: integer and fraction parts.
inline void positional_parts(const Decimal& d, std::string& integer, std::string& fraction) {
  const int count = static_cast<int>(d.digits.size());
  integer = d.negative ? "-" : "";
  fraction.clear();
  if (d.exponent < 0) {
    integer += '0';
    fraction.assign(static_cast<std::size_t>(-d.exponent - 1), '0');
    fraction += d.digits;
  } else if (d.exponent + 1 >= count) {
    integer += d.digits;
    integer.append(static_cast<std::size_t>(d.exponent + 1 - count), '0');
  } else {
    integer += d.digits.substr(0, static_cast<std::size_t>(d.exponent + 1));
    fraction = d.digits.substr(static_cast<std::size_t>(d.exponent + 1));
  }
  if (d.digits == "0") fraction.clear();
}

template <class T>
double as_double(T v) noexcept {
  if constexpr (std::is_same_v<T, float16>) {
    return static_cast<double>(v.to_float());
  } else {
    return static_cast<double>(v);
  }
}

/// numpy's FloatingFormat (floatmode 'maxprec', precision 8, sign '-'), fitted to the shown values.
template <class T>
class FloatFormat {
 public:
  explicit FloatFormat(const std::vector<T>& values) {
    std::vector<T> finite;
    bool has_nonfinite = false, has_negative_inf = false;
    double max_abs = 0, min_abs = 0;
    T max_value{}, min_value{};
    bool any_nonzero = false;
    for (const T& x : values) {
      const double v = as_double(x);
      if (!std::isfinite(v)) {
        has_nonfinite = true;
        has_negative_inf = has_negative_inf || (std::isinf(v) && v < 0);
        continue;
      }
      finite.push_back(x);
      if (v == 0) continue;
      const double a = std::fabs(v);
      if (!any_nonzero || a > max_abs) { max_abs = a; max_value = x; }
      if (!any_nonzero || a < min_abs) { min_abs = a; min_value = x; }
      any_nonzero = true;
    }
    if (any_nonzero) {
      // numpy compares the extremes with Python floats (in double) and divides them in T.
      exp_format_ = max_abs >= 1e8 || min_abs < 1e-4 || ratio(max_value, min_value) > 1000.0;
    }
    if (finite.empty()) {
      pad_left_ = 0;
      pad_right_ = 0;
    } else if (exp_format_) {
      std::size_t int_width = 0;
      for (const T& x : finite) {
        const Decimal d = scientific_digits(x);
        int_width = std::max<std::size_t>(int_width, d.negative ? 2 : 1);
        precision_ = std::max(precision_, static_cast<int>(d.digits.size()) - 1);
        exp_digits_ = std::max(exp_digits_, static_cast<int>(std::to_string(std::abs(d.exponent)).size()));
      }
      pad_left_ = static_cast<int>(int_width);
      pad_right_ = exp_digits_ + 2 + precision_;
    } else {
      for (const T& x : finite) {
        std::string integer, fraction;
        positional_parts(positional_digits(x), integer, fraction);
        pad_left_ = std::max(pad_left_, static_cast<int>(integer.size()));
        pad_right_ = std::max(pad_right_, static_cast<int>(fraction.size()));
      }
    }
    if (has_nonfinite) {
      const int offset = pad_right_ + 1;
      pad_left_ = std::max({pad_left_, 3 - offset, 3 + (has_negative_inf ? 1 : 0) - offset});
    }
  }

  std::string operator()(T x) const {
    const double v = as_double(x);
    if (!std::isfinite(v)) {
      const std::string text = std::isnan(v) ? "nan" : (v < 0 ? "-inf" : "inf");
      return pad(text, static_cast<std::size_t>(pad_left_ + pad_right_ + 1));
    }
    if (exp_format_) {
      // numpy's min_digits: every value shows `precision_` digits after the point, the ones past
      // its unique digits being the value's own (rounded), not zeros.
      Decimal d = scientific_digits(x);
      if (static_cast<int>(d.digits.size()) - 1 != precision_ && d.digits != "0") {
        const bool negative = d.negative;
        d = rounded(as_double(x), precision_ + 1);
        d.negative = negative;
      }
      std::string mantissa = std::string(d.negative ? "-" : "") + d.digits.substr(0, 1) + ".";
      std::string fraction = d.digits.size() > 1 ? d.digits.substr(1) : "";
      if (d.digits == "0") fraction.clear();
      fraction.resize(static_cast<std::size_t>(precision_), '0');
      std::string exponent = std::to_string(std::abs(d.exponent));
      exponent.insert(0, static_cast<std::size_t>(std::max(0, exp_digits_ - static_cast<int>(exponent.size()))), '0');
      return pad(mantissa, static_cast<std::size_t>(pad_left_ + 1)) + fraction + "e" +
             (d.exponent < 0 ? "-" : "+") + exponent;
    }
    std::string integer, fraction;
    positional_parts(positional_digits(x), integer, fraction);
    fraction.resize(static_cast<std::size_t>(pad_right_), ' ');
    return pad(integer, static_cast<std::size_t>(pad_left_)) + "." + fraction;
  }

 private:
  static std::string pad(const std::string& s, std::size_t width) {
    return s.size() >= width ? s : std::string(width - s.size(), ' ') + s;
  }
  static double ratio(T max_value, T min_value) {
    if constexpr (std::is_same_v<T, float16>) {
      const float q = std::fabs(max_value.to_float()) / std::fabs(min_value.to_float());
      return static_cast<double>(float16::from_float(q).to_float());
    } else {
      return static_cast<double>(std::fabs(max_value) / std::fabs(min_value));
    }
  }
  /// Scientific: the unique digits, or the value rounded to 1 + 8 significant digits.
  static Decimal scientific_digits(T x) {
    Decimal d = shortest(x);
    if (static_cast<int>(d.digits.size()) - 1 > float_precision) {
      const bool negative = d.negative;
      d = rounded(as_double(x), float_precision + 1);
      d.negative = negative;
    }
    return d;
  }
  /// Positional: the unique digits, but every digit before the point (as numpy prints 4112 in
  /// float16, not 4110), and at most 8 after it, rounded.
  static Decimal positional_digits(T x) {
    Decimal d = shortest(x);
    const int count = static_cast<int>(d.digits.size());
    const bool negative = d.negative;
    if (d.digits != "0" && d.exponent + 1 > count) {
      d = parse_decimal(fmt::format("{:.0f}", as_double(x)));
    } else if (count - 1 - d.exponent > float_precision) {
      d = rounded(as_double(x), d.exponent + 1 + float_precision);
    }
    d.negative = negative;
    return d;
  }

  bool exp_format_ = false;
  int pad_left_ = 0;
  int pad_right_ = 0;
  int precision_ = 0;
  int exp_digits_ = 2;
};

/// numpy's IntegerFormat: right-aligned to the longest of the largest and smallest value.
template <class T>
class IntegerFormat {
 public:
  explicit IntegerFormat(const std::vector<T>& values) {
    if (values.empty()) return;
    const auto [lo, hi] = std::minmax_element(values.begin(), values.end());
    width_ = std::max(fmt::formatted_size("{}", *lo), fmt::formatted_size("{}", *hi));
  }
  std::string operator()(T x) const { return fmt::format("{:>{}}", x, width_); }

 private:
  std::size_t width_ = 0;
};

/// Every element formatted with the caller's spec, right-aligned to the widest.
template <class T>
class SpecFormat {
 public:
  SpecFormat(const std::vector<T>& values, std::string spec) : spec_("{:" + std::move(spec) + "}") {
    for (const T& x : values) width_ = std::max(width_, raw(x).size());
  }
  std::string operator()(T x) const {
    const std::string s = raw(x);
    return s.size() >= width_ ? s : std::string(width_ - s.size(), ' ') + s;
  }

 private:
  std::string raw(T x) const {
    if constexpr (std::is_same_v<T, float16>) {
      return fmt::format(fmt::runtime(spec_), x.to_float());
    } else if constexpr (sizeof(T) == 1) {
      return fmt::format(fmt::runtime(spec_), static_cast<int>(x));  // numbers, not characters
    } else {
      return fmt::format(fmt::runtime(spec_), x);
    }
  }
  std::string spec_;
  std::size_t width_ = 0;
};

}  // namespace dmlref::detail::print

#endif  // DMLREF_DETAIL_PRINT_NUMBERS_HPP
