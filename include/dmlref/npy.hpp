#ifndef DMLREF_NPY_HPP
#define DMLREF_NPY_HPP

/// Optional numpy `.npy` codec: read and write single arrays in numpy's file format, so that golden
/// inputs and outputs can be exchanged with Python (or any language with a .npy library). Standard
/// library only; the core dmlref headers never include it.
///
///   npy::read_file(path)            Expected<Array>: the array, or an Error with a message
///   npy::parse(bytes, size)         the same from memory
///   npy::serialize(array)           Expected<std::vector<unsigned char>>: the file's bytes
///   npy::write_file(path, array)    Expected<std::uint64_t>: the bytes written
///
/// Reading:
///   - format versions 1.0, 2.0 and 3.0 (2-byte or 4-byte header length; the header is read as
///     ASCII, which covers every header numpy writes for the types below);
///   - the header is the Python dict literal numpy writes, parsed without evaluating anything:
///     exactly the keys 'descr', 'fortran_order' and 'shape', in any order; strings in single or
///     double quotes; True/False; a tuple of non-negative integers (Python 2's `3L` accepted);
///     at most 64 dimensions; headers above 1 MiB are refused;
///   - dtypes (descr): '<f8' '<f4' '<f2' '<i8' '<i4' '<i2' '|i1' '<u8' '<u4' '<u2' '|u1', i.e.
///     the eleven DirectML data types; '|b1' (numpy bool) is read as UINT8 (0 or 1 per byte);
///   - byte order: '<' little-endian, '>' big-endian, '|' not applicable (one-byte types; also
///     accepted as '<' or '>'), '=' native. Big-endian data is byte-swapped on reading: an Array
///     always holds native-order elements, and Array::descr keeps the descr as written;
///   - C order and Fortran order: the elements are kept in the file's order; Array::strides()
///     gives the element strides that describe them (column-major for Fortran order), so the
///     array can be handed to dmlref as a strided descriptor without a copy, and
///     Array::to_c_order() makes a row-major copy;
///   - the data must be exactly element_count x itemsize bytes: a shorter file is "truncated", a
///     longer one has "trailing bytes" (both errors; numpy ignores trailing bytes, a golden tool
///     should not);
///   - malformed input never crashes and never allocates more than the input's size: every error
///     is an Error{code, message} naming what is wrong and where.
///
/// Writing produces exactly the bytes numpy 1.24 writes (np.save) for a C-order array of the
/// same dtype and shape: format 1.0 (2.0 if the header does not fit in 65535 bytes), numpy's
/// header text and padding (the header ends on a 64-byte boundary), little-endian data.
///
/// Nothing here throws, except std::bad_alloc when memory runs out.

#include <cctype>
#include <cerrno>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <limits>
#include <string>
#include <utility>
#include <vector>

#include "data_type.hpp"

namespace dmlref::npy {

/// What went wrong.
enum class ErrorCode : std::uint8_t {
  ok = 0,
  io_error,             ///< the file cannot be opened, read or written
  bad_magic,            ///< the file does not start with "\x93NUMPY"
  unsupported_version,  ///< a format version other than 1.0, 2.0, 3.0
  bad_header,           ///< the header is not the dict numpy writes
  unsupported_dtype,    ///< a descr other than the eleven types (and '|b1')
  bad_shape,            ///< a shape that is not a tuple of non-negative integers, or too many dimensions
  size_mismatch,        ///< the data is shorter (truncated) or longer than the header says
  too_large,            ///< an element count or byte size beyond 64 bits, or a header above 1 MiB
  invalid_argument,     ///< serialize/write_file: an Array whose data does not match its shape
};

/// "bad_header", ...
constexpr const char* name(ErrorCode code) noexcept {
  switch (code) {
    case ErrorCode::ok: return "ok";
    case ErrorCode::io_error: return "io_error";
    case ErrorCode::bad_magic: return "bad_magic";
    case ErrorCode::unsupported_version: return "unsupported_version";
    case ErrorCode::bad_header: return "bad_header";
    case ErrorCode::unsupported_dtype: return "unsupported_dtype";
    case ErrorCode::bad_shape: return "bad_shape";
    case ErrorCode::size_mismatch: return "size_mismatch";
    case ErrorCode::too_large: return "too_large";
    case ErrorCode::invalid_argument: return "invalid_argument";
  }
  return "unknown";
}

/// An error: its code and a complete sentence (read_file prefixes the path).
struct Error {
  ErrorCode code = ErrorCode::ok;
  std::string message;
};

/// A value or the Error that prevented producing it.
template <class T>
class [[nodiscard]] Expected {
 public:
  Expected(T value) : value_(std::move(value)) {}  // NOLINT: implicit by design
  Expected(Error error) : error_(std::move(error)) {  // NOLINT
    if (error_.code == ErrorCode::ok) error_.code = ErrorCode::invalid_argument;
  }

  bool ok() const noexcept { return error_.code == ErrorCode::ok; }
  explicit operator bool() const noexcept { return ok(); }
  const Error& error() const noexcept { return error_; }
  /// The value; meaningful only when ok().
  const T& value() const& noexcept { return value_; }
  T& value() & noexcept { return value_; }
  T&& value() && noexcept { return std::move(value_); }
  const T& operator*() const& noexcept { return value_; }
  T& operator*() & noexcept { return value_; }
  const T* operator->() const noexcept { return &value_; }
  T* operator->() noexcept { return &value_; }

 private:
  Error error_;
  T value_{};
};

/// One array: its data type, shape (numpy's: any rank from 0, sizes may be 0) and elements.
struct Array {
  DataType type = DataType::UNKNOWN;
  std::vector<std::int64_t> shape;
  /// The elements are stored column-major (numpy's fortran_order); see strides().
  bool fortran_order = false;
  /// element_count() x element_size(type) bytes, elements in native byte order.
  std::vector<unsigned char> data;
  /// The descr as read ("<f4", ">i8", "|b1"); empty for an Array built in memory.
  std::string descr;

  int rank() const noexcept { return static_cast<int>(shape.size()); }

  /// The product of the sizes (1 for rank 0, 0 if a size is 0). Valid for arrays read by this
  /// header; an Array built by hand with an overflowing shape gives an unspecified value.
  std::int64_t element_count() const noexcept {
    std::uint64_t count = 1;
    for (std::int64_t s : shape) count *= static_cast<std::uint64_t>(s);
    return static_cast<std::int64_t>(count);
  }

  /// Element strides of the stored order: row-major, or column-major when fortran_order.
  std::vector<std::int64_t> strides() const {
    std::vector<std::int64_t> strides(shape.size(), 1);
    std::uint64_t stride = 1;
    for (std::size_t i = 0; i < shape.size(); ++i) {
      const std::size_t d = fortran_order ? i : shape.size() - 1 - i;
      strides[d] = static_cast<std::int64_t>(stride);
      stride *= static_cast<std::uint64_t>(shape[d]);
    }
    return strides;
  }

  /// A row-major copy of the array (fortran_order false, same descr).
  Array to_c_order() const {
    Array out;
    out.type = type;
    out.shape = shape;
    out.descr = descr;
    if (!fortran_order) {
      out.data = data;
      return out;
    }
    const std::size_t size = element_size(type);
    out.data.resize(data.size());
    const std::vector<std::int64_t> from = strides();
    const std::int64_t count = element_count();
    std::vector<std::int64_t> coordinate(shape.size(), 0);
    for (std::int64_t i = 0; i < count; ++i) {  // i: row-major position; coordinate: its index
      std::int64_t offset = 0;
      for (std::size_t d = 0; d < shape.size(); ++d) offset += coordinate[d] * from[d];
      std::memcpy(out.data.data() + static_cast<std::size_t>(i) * size,
                  data.data() + static_cast<std::size_t>(offset) * size, size);
      for (std::size_t d = shape.size(); d-- > 0;) {
        if (++coordinate[d] < shape[d]) break;
        coordinate[d] = 0;
      }
    }
    return out;
  }

  /// The elements in row-major order as T (T's DataType must be `type`; otherwise empty).
  template <class T>
  std::vector<T> values() const {
    static_assert(is_element_type_v<T>, "T must be one of dmlref's eleven storage types");
    if (data_type_of<T>::value != type) return {};
    const Array c = fortran_order ? to_c_order() : Array();
    const std::vector<unsigned char>& bytes = fortran_order ? c.data : data;
    std::vector<T> out(bytes.size() / sizeof(T));
    if (!out.empty()) std::memcpy(out.data(), bytes.data(), out.size() * sizeof(T));
    return out;
  }
};

/// An Array of `type` and `shape` holding a copy of `bytes` (row-major, native order).
inline Array make_array(DataType type, std::vector<std::int64_t> shape, const void* bytes, std::size_t size) {
  Array a;
  a.type = type;
  a.shape = std::move(shape);
  const unsigned char* first = static_cast<const unsigned char*>(bytes);
  if (size != 0) a.data.assign(first, first + size);
  return a;
}

namespace detail {

inline constexpr std::size_t kMaxHeaderBytes = std::size_t{1} << 20;
inline constexpr std::size_t kMaxRank = 64;
inline constexpr std::size_t kMagicBytes = 6;

inline bool host_is_little_endian() noexcept {
  const std::uint16_t one = 1;
  unsigned char first = 0;
  std::memcpy(&first, &one, 1);
  return first == 1;
}

inline Error error(ErrorCode code, std::string message) { return Error{code, std::move(message)}; }

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

/// The eleven types (plus '|b1') by kind letter and size.
inline DataType dtype_of(char kind, int size) noexcept {
  switch (kind) {
    case 'f':
      return size == 2 ? DataType::FLOAT16 : size == 4 ? DataType::FLOAT32 : size == 8 ? DataType::FLOAT64
             : DataType::UNKNOWN;
    case 'i':
      return size == 1 ? DataType::INT8 : size == 2 ? DataType::INT16 : size == 4 ? DataType::INT32
             : size == 8 ? DataType::INT64 : DataType::UNKNOWN;
    case 'u':
      return size == 1 ? DataType::UINT8 : size == 2 ? DataType::UINT16 : size == 4 ? DataType::UINT32
             : size == 8 ? DataType::UINT64 : DataType::UNKNOWN;
    case 'b':
      return size == 1 ? DataType::UINT8 : DataType::UNKNOWN;
    default:
      return DataType::UNKNOWN;
  }
}

/// numpy's kind letter for a type: 'f', 'i' or 'u'.
inline char kind_of(DataType type) noexcept {
  switch (type_kind(type)) {
    case TypeKind::floating: return 'f';
    case TypeKind::signed_integer: return 'i';
    case TypeKind::unsigned_integer: return 'u';
  }
  return 'u';
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

/// Parses and validates everything before the data; `size` is the whole input's size.
inline Expected<Header> parse_header(const unsigned char* bytes, std::size_t size) {
  static const unsigned char magic[kMagicBytes] = {0x93, 'N', 'U', 'M', 'P', 'Y'};
  if (size < kMagicBytes || std::memcmp(bytes, magic, kMagicBytes) != 0) {
    if (size < kMagicBytes && (size == 0 || std::memcmp(bytes, magic, size) == 0))
      return error(ErrorCode::bad_magic, "not a .npy file: " + std::to_string(size) +
                                             " bytes, shorter than the 6-byte magic \\x93NUMPY");
    return error(ErrorCode::bad_magic,
                 "not a .npy file: it does not start with the magic \\x93NUMPY (it starts with \"" +
                     excerpt(reinterpret_cast<const char*>(bytes), size < kMagicBytes ? size : kMagicBytes) + "\")");
  }
  if (size < kMagicBytes + 2)
    return error(ErrorCode::size_mismatch, "truncated .npy file: no format version after the magic");
  const int major = bytes[6], minor = bytes[7];
  if (!((major == 1 || major == 2 || major == 3) && minor == 0))
    return error(ErrorCode::unsupported_version, "unsupported .npy format version " + std::to_string(major) + "." +
                                                     std::to_string(minor) + " (supported: 1.0, 2.0, 3.0)");
  const std::size_t length_bytes = major == 1 ? 2 : 4;
  if (size < kMagicBytes + 2 + length_bytes)
    return error(ErrorCode::size_mismatch, "truncated .npy file: the header length is cut off");
  std::uint64_t header_length = 0;
  for (std::size_t i = length_bytes; i-- > 0;) header_length = (header_length << 8) | bytes[8 + i];
  const std::size_t header_start = kMagicBytes + 2 + length_bytes;
  if (header_length > kMaxHeaderBytes)
    return error(ErrorCode::too_large, "the .npy header is " + std::to_string(header_length) +
                                           " bytes long; dmlref reads headers up to 1 MiB");
  if (header_length > size - header_start)
    return error(ErrorCode::size_mismatch, "truncated .npy file: the header is " + std::to_string(header_length) +
                                               " bytes long, but only " + std::to_string(size - header_start) +
                                               " bytes follow the header length");
  Expected<Header> parsed = HeaderParser(reinterpret_cast<const char*>(bytes + header_start),
                                         static_cast<std::size_t>(header_length))
                                .parse();
  if (!parsed) return parsed;
  Header& h = parsed.value();

  // descr: byte order, kind, size.
  const std::string& d = h.descr;
  int itemsize = 0;
  bool digits_ok = d.size() >= 3 && d.size() <= 4;
  for (std::size_t i = 2; digits_ok && i < d.size(); ++i) {
    if (!std::isdigit(static_cast<unsigned char>(d[i]))) digits_ok = false;
    else itemsize = itemsize * 10 + (d[i] - '0');
  }
  const char order = d.empty() ? '\0' : d[0];
  const bool order_ok = order == '<' || order == '>' || order == '|' || order == '=';
  const DataType type = digits_ok && order_ok ? dtype_of(d[1], itemsize) : DataType::UNKNOWN;
  if (type == DataType::UNKNOWN || (order == '|' && itemsize != 1))
    return error(ErrorCode::unsupported_dtype,
                 "unsupported dtype '" + excerpt(d.data(), d.size()) +
                     "': dmlref reads '<f8' '<f4' '<f2' '<i8' '<i4' '<i2' '|i1' '<u8' '<u4' '<u2' '|u1' "
                     "(also big-endian '>', and '|b1' as UINT8)");
  h.type = type;
  const bool little = order == '<' || (order == '=' && host_is_little_endian());
  h.swap = itemsize > 1 && order != '|' && little != host_is_little_endian();

  // Sizes: element count and bytes, without overflow.
  std::uint64_t count = 1;
  bool empty = false;
  for (std::int64_t s : h.shape) empty = empty || s == 0;
  if (!empty) {
    for (std::int64_t s : h.shape) {
      const std::uint64_t u = static_cast<std::uint64_t>(s);
      if (count > static_cast<std::uint64_t>(INT64_MAX) / u)
        return error(ErrorCode::too_large, "the shape's element count does not fit in 63 bits");
      count *= u;
    }
  } else {
    count = 0;
  }
  if (count > static_cast<std::uint64_t>(INT64_MAX) / static_cast<std::uint64_t>(itemsize))
    return error(ErrorCode::too_large, "the array's byte size does not fit in 63 bits");
  h.data_bytes = count * static_cast<std::uint64_t>(itemsize);
  h.data_offset = header_start + static_cast<std::size_t>(header_length);
  const std::uint64_t available = size - h.data_offset;
  if (available < h.data_bytes)
    return error(ErrorCode::size_mismatch, "truncated .npy file: the header promises " + std::to_string(h.data_bytes) +
                                               " bytes of data (" + std::to_string(count) + " elements of " +
                                               std::to_string(itemsize) + " bytes), but the file has " +
                                               std::to_string(available));
  if (available > h.data_bytes)
    return error(ErrorCode::size_mismatch, "the .npy file has " + std::to_string(available - h.data_bytes) +
                                               " trailing bytes after its " + std::to_string(h.data_bytes) +
                                               " bytes of data");
  return parsed;
}

inline void swap_bytes(unsigned char* data, std::size_t bytes, std::size_t itemsize) noexcept {
  for (std::size_t i = 0; i + itemsize <= bytes; i += itemsize)
    for (std::size_t a = 0, b = itemsize - 1; a < b; ++a, --b) std::swap(data[i + a], data[i + b]);
}

inline Array to_array(Header&& h, std::vector<unsigned char>&& data) {
  Array a;
  a.type = h.type;
  a.shape = std::move(h.shape);
  a.fortran_order = h.fortran_order;
  a.descr = std::move(h.descr);
  a.data = std::move(data);
  if (h.swap) swap_bytes(a.data.data(), a.data.size(), element_size(a.type));
  return a;
}

}  // namespace detail

/// Reads a whole .npy file held in memory.
inline Expected<Array> parse(const void* bytes, std::size_t size) {
  const unsigned char* p = static_cast<const unsigned char*>(bytes);
  if (p == nullptr && size != 0) return detail::error(ErrorCode::invalid_argument, "null bytes");
  static const unsigned char none = 0;
  Expected<detail::Header> header = detail::parse_header(p != nullptr ? p : &none, size);
  if (!header) return header.error();
  detail::Header& h = header.value();
  std::vector<unsigned char> data(p + h.data_offset, p + h.data_offset + h.data_bytes);
  return detail::to_array(std::move(h), std::move(data));
}

/// Reads a .npy file; error messages start with the path.
inline Expected<Array> read_file(const std::string& path) {
  std::FILE* file = std::fopen(path.c_str(), "rb");
  if (file == nullptr) {
    const int e = errno;
    return detail::error(ErrorCode::io_error, path + ": cannot open: " + std::strerror(e));
  }
  std::vector<unsigned char> bytes;
  std::size_t used = 0;
  bool failed = false;
  int read_errno = 0;
  for (;;) {
    if (bytes.size() - used < 65536) bytes.resize(bytes.empty() ? 65536 : bytes.size() * 2);
    const std::size_t n = std::fread(bytes.data() + used, 1, bytes.size() - used, file);
    used += n;
    if (n == 0) {
      if (std::ferror(file)) {
        failed = true;
        read_errno = errno;
      }
      break;
    }
  }
  std::fclose(file);
  if (failed) return detail::error(ErrorCode::io_error, path + ": cannot read: " + std::strerror(read_errno));
  bytes.resize(used);
  Expected<detail::Header> header = detail::parse_header(bytes.data(), bytes.size());
  if (!header) return Error{header.error().code, path + ": " + header.error().message};
  detail::Header& h = header.value();
  bytes.erase(bytes.begin(), bytes.begin() + static_cast<std::ptrdiff_t>(h.data_offset));
  bytes.shrink_to_fit();
  return detail::to_array(std::move(h), std::move(bytes));
}

/// The descr numpy writes for a type on a little-endian machine: "<f4", "|u1", ...
inline std::string descr_of(DataType type) {
  if (!is_valid(type)) return "";
  const std::size_t size = element_size(type);
  std::string d(1, size == 1 ? '|' : '<');
  d += detail::kind_of(type);
  d += std::to_string(size);
  return d;
}

/// The bytes of a .npy file holding `array`, exactly as numpy 1.24's np.save writes them.
/// The data is written in the array's order (fortran_order is kept), little-endian.
inline Expected<std::vector<unsigned char>> serialize(const Array& array) {
  if (!is_valid(array.type))
    return detail::error(ErrorCode::invalid_argument, "cannot write an array of data type UNKNOWN");
  bool empty = false;
  for (std::int64_t s : array.shape) {
    if (s < 0) return detail::error(ErrorCode::invalid_argument, "cannot write a shape with a negative size");
    empty = empty || s == 0;
  }
  std::uint64_t count = empty ? 0 : 1;
  for (std::int64_t s : array.shape) {
    if (empty) break;
    if (count > static_cast<std::uint64_t>(INT64_MAX) / static_cast<std::uint64_t>(s))
      return detail::error(ErrorCode::too_large, "the shape's element count does not fit in 63 bits");
    count *= static_cast<std::uint64_t>(s);
  }
  const std::size_t itemsize = element_size(array.type);
  if (count > array.data.size() / itemsize || count * itemsize != array.data.size())
    return detail::error(ErrorCode::invalid_argument,
                         "the array's data is " + std::to_string(array.data.size()) +
                             " bytes, but its shape and type need " +
                             std::to_string(count) + " x " + std::to_string(itemsize));

  // numpy: "{'descr': '<f4', 'fortran_order': False, 'shape': (2, 3), }", spare spaces for the
  // growth axis, then spaces and '\n' up to a multiple of 64 bytes including magic and length.
  std::string header = "{'descr': '" + descr_of(array.type) + "', 'fortran_order': " +
                       (array.fortran_order ? "True" : "False") + ", 'shape': (";
  for (std::size_t d = 0; d < array.shape.size(); ++d) {
    if (d != 0) header += ", ";
    header += std::to_string(array.shape[d]);
  }
  if (array.shape.size() == 1) header += ",";
  header += "), }";
  if (!array.shape.empty()) {
    const std::size_t growth = std::to_string(array.fortran_order ? array.shape.back() : array.shape.front()).size();
    if (growth < 21) header.append(21 - growth, ' ');
  }
  int major = 1;
  std::size_t prefix = detail::kMagicBytes + 2 + 2;
  std::size_t total = prefix + header.size() + 1;
  std::size_t padded = (total / 64 + 1) * 64;  // numpy always pads, by 1 to 64 bytes
  if (padded - prefix > 65535) {
    major = 2;
    prefix = detail::kMagicBytes + 2 + 4;
    total = prefix + header.size() + 1;
    padded = (total / 64 + 1) * 64;
  }
  header.append(padded - total, ' ');
  header += '\n';
  const std::uint64_t header_length = header.size();

  // Sized once and filled with memcpy: g++ 12 at -O2 -std=c++20 misreads vector::insert of a
  // possibly empty range as an overflow (-Wstringop-overflow).
  const std::size_t data_start = prefix + header.size();
  std::vector<unsigned char> out(data_start + array.data.size());
  const unsigned char magic[] = {0x93, 'N', 'U', 'M', 'P', 'Y'};
  std::memcpy(out.data(), magic, sizeof magic);
  out[6] = static_cast<unsigned char>(major);
  out[7] = 0;
  for (std::size_t i = 0; i < prefix - 8; ++i)
    out[8 + i] = static_cast<unsigned char>((header_length >> (8 * i)) & 0xFF);
  std::memcpy(out.data() + prefix, header.data(), header.size());
  if (!array.data.empty()) std::memcpy(out.data() + data_start, array.data.data(), array.data.size());
  if (!detail::host_is_little_endian() && itemsize > 1)
    detail::swap_bytes(out.data() + data_start, array.data.size(), itemsize);
  return out;
}

/// Writes `array` to `path` (replacing the file) as serialize() does; returns the bytes written.
inline Expected<std::uint64_t> write_file(const std::string& path, const Array& array) {
  Expected<std::vector<unsigned char>> bytes = serialize(array);
  if (!bytes) return Error{bytes.error().code, path + ": " + bytes.error().message};
  std::FILE* file = std::fopen(path.c_str(), "wb");
  if (file == nullptr) {
    const int e = errno;
    return detail::error(ErrorCode::io_error, path + ": cannot create: " + std::strerror(e));
  }
  const std::size_t n = bytes->empty() ? 0 : std::fwrite(bytes->data(), 1, bytes->size(), file);
  const int write_errno = errno;
  const bool closed = std::fclose(file) == 0;
  if (n != bytes->size() || !closed)
    return detail::error(ErrorCode::io_error,
                         path + ": cannot write: " + std::strerror(n != bytes->size() ? write_errno : errno));
  return static_cast<std::uint64_t>(n);
}

}  // namespace dmlref::npy

#endif  // DMLREF_NPY_HPP
