#ifndef DMLREF_DETAIL_NPY_ERROR_HPP
#define DMLREF_DETAIL_NPY_ERROR_HPP

#include <cstdint>
#include <string>
#include <utility>

// What npy.hpp's reader and writer return (documented there): a value or an Error with its
// ErrorCode. Public types, in a header of their own so that the header reader (npy_header.hpp)
// can return them too.

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

}  // namespace dmlref::npy

#endif  // DMLREF_DETAIL_NPY_ERROR_HPP
