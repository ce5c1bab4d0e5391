#ifndef DMLREF_DETAIL_NPY_DICT_HPP
#define DMLREF_DETAIL_NPY_DICT_HPP

#include <cctype>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "../data_type.hpp"
#include "npy_error.hpp"

// The .npy header's text: the Python dict literal numpy writes, read by recursive descent without
// evaluating anything (npy.hpp lists what is accepted).

namespace dmlref::npy::detail {

inline constexpr std::size_t kMaxRank = 64;

/// A header excerpt for messages: printable ASCII as is, anything else escaped, at most 80 chars.
inline std::string excerpt(const char* p, std::size_t n) {
  static const char hex[] = "0123456789abcdef";
  std::string s;
  const std::size_t shown = n < 80 ? n : 80;
  for (std::size_t i = 0; i < shown; ++i) {
    const unsigned char c = static_cast<unsigned char>(p[i]);
    if (c == '\n') {
      s += "\\n";
    } else if (c >= 0x20 && c < 0x7f && c != '\\') {
      s += static_cast<char>(c);
    } else {
      s += "\\x";
      s += hex[c >> 4];
      s += hex[c & 15];
    }
  }
  if (shown < n) s += "...";
  return s;
}

/// What the header says, validated.
struct Header {
  DataType type = DataType::UNKNOWN;
  std::string descr;
  bool fortran_order = false;
  std::vector<std::int64_t> shape;
  bool swap = false;              ///< the data's byte order is not the host's
  std::size_t data_offset = 0;    ///< bytes before the data
  std::uint64_t data_bytes = 0;   ///< element count x itemsize
};

/// A recursive-descent reader of the header's Python literal (nothing is evaluated).
class HeaderParser {
 public:
  HeaderParser(const char* text, std::size_t size) : begin_(text), p_(text), end_(text + size) {}

  Expected<Header> parse() {
    Header h;
    bool have_descr = false, have_fortran = false, have_shape = false;
    skip_ws();
    if (!eat('{')) return fail("the header must be a Python dict starting with '{'");
    skip_ws();
    while (!at('}')) {
      std::string key;
      if (!parse_string(key)) return fail(message_.empty() ? "expected a quoted key" : message_);
      skip_ws();
      if (!eat(':')) return fail("expected ':' after the key '" + key + "'");
      skip_ws();
      if (key == "descr") {
        if (have_descr) return fail("the key 'descr' appears twice");
        have_descr = true;
        if (at('[') || at('{'))
          return Error{ErrorCode::unsupported_dtype,
                       "structured dtypes (a list or dict as 'descr') are not supported; dmlref reads "
                       "the eleven numeric dtypes only"};
        if (!parse_string(h.descr))
          return fail(message_.empty() ? "'descr' must be a quoted string such as '<f4'" : message_);
      } else if (key == "fortran_order") {
        if (have_fortran) return fail("the key 'fortran_order' appears twice");
        have_fortran = true;
        if (!parse_bool(h.fortran_order)) return fail("'fortran_order' must be True or False");
      } else if (key == "shape") {
        if (have_shape) return fail("the key 'shape' appears twice");
        have_shape = true;
        if (Error e = parse_shape(h.shape); e.code != ErrorCode::ok) return e;
      } else {
        return fail("unexpected key '" + key + "' (a .npy header has exactly 'descr', 'fortran_order' and 'shape')");
      }
      skip_ws();
      if (eat(',')) {
        skip_ws();
      } else if (!at('}')) {
        return fail("expected ',' or '}' after the value of '" + key + "'");
      }
    }
    ++p_;  // '}'
    skip_ws();
    if (p_ != end_) return fail("unexpected text after the closing '}'");
    if (!have_descr || !have_fortran || !have_shape) {
      std::string missing;
      if (!have_descr) missing += " 'descr'";
      if (!have_fortran) missing += " 'fortran_order'";
      if (!have_shape) missing += " 'shape'";
      return Error{ErrorCode::bad_header, "the header lacks the key(s)" + missing + ": " + whole_header()};
    }
    return h;
  }

 private:
  bool at(char c) const noexcept { return p_ != end_ && *p_ == c; }
  bool eat(char c) noexcept {
    if (!at(c)) return false;
    ++p_;
    return true;
  }
  void skip_ws() noexcept {
    while (p_ != end_ && (*p_ == ' ' || *p_ == '\t' || *p_ == '\n' || *p_ == '\r' || *p_ == '\f' || *p_ == '\v')) ++p_;
  }
  Error fail(const std::string& what) const {
    const std::size_t offset = static_cast<std::size_t>(p_ - begin_);
    return Error{ErrorCode::bad_header,
                 "bad header: " + what + " (at header offset " + std::to_string(offset) + " of \"" + whole_header() +
                     "\")"};
  }
  std::string whole_header() const { return excerpt(begin_, static_cast<std::size_t>(end_ - begin_));
  }

  /// 'text' or "text" of printable ASCII without backslashes (numpy never writes escapes here).
  bool parse_string(std::string& out) {
    message_.clear();
    if (p_ == end_ || (*p_ != '\'' && *p_ != '"')) return false;
    const char quote = *p_++;
    out.clear();
    while (p_ != end_ && *p_ != quote) {
      const unsigned char c = static_cast<unsigned char>(*p_);
      if (c == '\\' || c < 0x20 || c >= 0x7f) {
        message_ = "unsupported character in a string (escapes and non-ASCII are not read)";
        return false;
      }
      if (out.size() >= 256) {
        message_ = "a string longer than 256 characters";
        return false;
      }
      out += static_cast<char>(c);
      ++p_;
    }
    if (p_ == end_) {
      message_ = "unterminated string";
      return false;
    }
    ++p_;
    return true;
  }

  bool parse_word(const char* word) noexcept {
    const std::size_t n = std::strlen(word);
    if (static_cast<std::size_t>(end_ - p_) < n || std::memcmp(p_, word, n) != 0) return false;
    const char* after = p_ + n;
    if (after != end_ && (std::isalnum(static_cast<unsigned char>(*after)) || *after == '_')) return false;
    p_ = after;
    return true;
  }

  bool parse_bool(bool& out) noexcept {
    if (parse_word("True")) {
      out = true;
      return true;
    }
    if (parse_word("False")) {
      out = false;
      return true;
    }
    return false;
  }

  /// (), (n,), (n, m), ... of non-negative decimal integers below 2^63.
  Error parse_shape(std::vector<std::int64_t>& shape) {
    if (!eat('('))
      return Error{ErrorCode::bad_shape,
                   fail("'shape' must be a tuple of integers such as (2, 3) or (5,) or ()").message};
    skip_ws();
    bool comma_after_last = false;
    while (!at(')')) {
      if (p_ == end_) return Error{ErrorCode::bad_shape, fail("unterminated shape tuple").message};
      if (at('-'))
        return Error{ErrorCode::bad_shape, fail("a size in 'shape' is negative").message};
      if (p_ == end_ || !std::isdigit(static_cast<unsigned char>(*p_)))
        return Error{ErrorCode::bad_shape, fail("'shape' must hold non-negative integers").message};
      std::uint64_t value = 0;
      while (p_ != end_ && std::isdigit(static_cast<unsigned char>(*p_))) {
        const std::uint64_t digit = static_cast<std::uint64_t>(*p_ - '0');
        if (value > (static_cast<std::uint64_t>(INT64_MAX) - digit) / 10)
          return Error{ErrorCode::too_large, fail("a size in 'shape' does not fit in 63 bits").message};
        value = value * 10 + digit;
        ++p_;
      }
      if (at('L') || at('l')) ++p_;  // Python 2's long integers
      if (shape.size() >= kMaxRank)
        return Error{ErrorCode::bad_shape, fail("more than " + std::to_string(kMaxRank) + " dimensions").message};
      shape.push_back(static_cast<std::int64_t>(value));
      skip_ws();
      comma_after_last = eat(',');
      skip_ws();
      if (!comma_after_last && !at(')'))
        return Error{ErrorCode::bad_shape, fail("expected ',' or ')' in 'shape'").message};
    }
    ++p_;  // ')'
    if (shape.size() == 1 && !comma_after_last)
      return Error{ErrorCode::bad_shape, fail("'shape' (n) is an integer, not a tuple; numpy writes (n,)").message};
    return Error{};
  }

  const char* begin_;
  const char* p_;
  const char* end_;
  std::string message_;
};

}  // namespace dmlref::npy::detail

#endif  // DMLREF_DETAIL_NPY_DICT_HPP
