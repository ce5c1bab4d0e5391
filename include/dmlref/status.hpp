#ifndef DMLREF_STATUS_HPP
#define DMLREF_STATUS_HPP

#include <cstdint>
#include <new>
#include <string>
#include <utility>

#include "config.hpp"
#include "data_type.hpp"
#include "shape.hpp"

#if DMLREF_HAS_EXCEPTIONS
#  include <stdexcept>
#endif

namespace dmlref {

/// What went wrong. Every error also names the operator, tensor and field (see Error).
enum class ErrorCode : std::uint8_t {
  ok = 0,
  invalid_dimension_count,  ///< DimensionCount outside 1..8, or differing between tensors
  invalid_size,             ///< a size below 1 (DirectML has no empty tensors)
  invalid_stride,           ///< a negative stride, or an output whose elements alias each other
  shape_mismatch,           ///< Sizes differ from what the operator's shape rule requires
  invalid_attribute,        ///< Axis, IndexDimensions, ... outside their valid range
  data_type_mismatch,       ///< a data tensor's type differs from InputTensor's
  unsupported_data_type,    ///< not one of the eleven DirectML data types
  unsupported_index_type,   ///< IndicesTensor is not INT32, INT64, UINT32 or UINT64
  index_out_of_range,       ///< an index value outside [-n, n) (signed) or [0, n) (unsigned)
  scatter_collision,        ///< two updates write one output element (opt-in check)
  null_pointer,             ///< a tensor without data
  buffer_too_small,         ///< strides and sizes reach past the tensor's buffer
  overlapping_tensors,      ///< the output shares memory with an input (other than in place)
  overflow,                 ///< an element count, byte size or offset does not fit in 64 bits
  out_of_memory,            ///< the opt-in collision check could not allocate its bitmap
  coordinate_out_of_range,  ///< explain.hpp: the coordinate asked about is not one of the output's
  feature_level_too_low,    ///< Options::feature_level lacks the operator, a DimensionCount or a DataType
  unsupported,              ///< something DirectML has at no feature level, or dmlref does not implement
  misaligned,               ///< binding rules: data not aligned to max(16, GuaranteedBaseOffsetAlignment)
};

/// Short name of an error code ("index_out_of_range").
constexpr const char* name(ErrorCode code) noexcept {
  switch (code) {
    case ErrorCode::ok: return "ok";
    case ErrorCode::invalid_dimension_count: return "invalid_dimension_count";
    case ErrorCode::invalid_size: return "invalid_size";
    case ErrorCode::invalid_stride: return "invalid_stride";
    case ErrorCode::shape_mismatch: return "shape_mismatch";
    case ErrorCode::invalid_attribute: return "invalid_attribute";
    case ErrorCode::data_type_mismatch: return "data_type_mismatch";
    case ErrorCode::unsupported_data_type: return "unsupported_data_type";
    case ErrorCode::unsupported_index_type: return "unsupported_index_type";
    case ErrorCode::index_out_of_range: return "index_out_of_range";
    case ErrorCode::scatter_collision: return "scatter_collision";
    case ErrorCode::null_pointer: return "null_pointer";
    case ErrorCode::buffer_too_small: return "buffer_too_small";
    case ErrorCode::overlapping_tensors: return "overlapping_tensors";
    case ErrorCode::overflow: return "overflow";
    case ErrorCode::out_of_memory: return "out_of_memory";
    case ErrorCode::coordinate_out_of_range: return "coordinate_out_of_range";
    case ErrorCode::feature_level_too_low: return "feature_level_too_low";
    case ErrorCode::unsupported: return "unsupported";
    case ErrorCode::misaligned: return "misaligned";
  }
  return "unknown";
}

/// A value an error reports as expected or actual: a number, a range, sizes, a type, or a text.
struct ErrorValue {
  enum class Kind : std::uint8_t { none, integer, at_least, unsigned_integer, range, sizes, data_type, text,
                                   feature_level };
  Kind kind = Kind::none;
  std::int64_t integer = 0;      // integer, or the range's first value
  std::uint64_t unsigned_integer = 0;
  std::int64_t last = 0;         // the range's last value (inclusive)
  Shape sizes;
  DataType data_type = DataType::UNKNOWN;
  const char* text = "";

  static ErrorValue of(std::int64_t v) noexcept { ErrorValue e; e.kind = Kind::integer; e.integer = v; return e; }
  static ErrorValue at_least(std::int64_t v) noexcept { ErrorValue e; e.kind = Kind::at_least; e.integer = v; return e; }
  static ErrorValue of_unsigned(std::uint64_t v) noexcept { ErrorValue e; e.kind = Kind::unsigned_integer; e.unsigned_integer = v; return e; }
  static ErrorValue range(std::int64_t first, std::int64_t last_inclusive) noexcept {
    ErrorValue e; e.kind = Kind::range; e.integer = first; e.last = last_inclusive; return e;
  }
  static ErrorValue of(const Shape& c) noexcept { ErrorValue e; e.kind = Kind::sizes; e.sizes = c; return e; }
  static ErrorValue of(DataType t) noexcept { ErrorValue e; e.kind = Kind::data_type; e.data_type = t; return e; }
  static ErrorValue of_text(const char* t) noexcept { ErrorValue e; e.kind = Kind::text; e.text = t; return e; }
  /// A DML_FEATURE_LEVEL value, shown as "DML_FEATURE_LEVEL_3_0".
  static ErrorValue of_feature_level(std::uint32_t v) noexcept {
    ErrorValue e; e.kind = Kind::feature_level; e.unsigned_integer = v; return e;
  }

  /// "5", "-3..2", "{2, 3}", "FLOAT32", or the text.
  std::string to_string() const {
    switch (kind) {
      case Kind::none: return "";
      case Kind::integer: return std::to_string(integer);
      case Kind::at_least: return "at least " + std::to_string(integer);
      case Kind::unsigned_integer: return std::to_string(unsigned_integer);
      case Kind::range: return std::to_string(integer) + ".." + std::to_string(last);
      case Kind::sizes: return braced(sizes);
      case Kind::data_type: return dmlref::name(data_type);
      case Kind::text: return text;
      case Kind::feature_level: return "DML_FEATURE_LEVEL_" + level_name(static_cast<std::uint32_t>(unsigned_integer));
    }
    return "";
  }

  /// "3_0" for 0x3000: the two hexadecimal digits DirectML's names spell.
  static std::string level_name(std::uint32_t level) {
    const char* digits = "0123456789ABCDEF";
    return std::string(1, digits[(level >> 12) & 0xF]) + "_" + digits[(level >> 8) & 0xF];
  }

  static std::string braced(const Shape& c, char open = '{', char close = '}') {
    std::string s(1, open);
    for (std::size_t d = 0; d < c.size(); ++d) {
      if (d != 0) s += ", ";
      s += std::to_string(c[static_cast<int>(d)]);
    }
    s += close;
    return s;
  }
};

/// Everything known about a failed call, as plain fields (no strings are built until message()).
struct Error {
  ErrorCode code = ErrorCode::ok;
  const char* op = "";      ///< DirectML operator name, e.g. "GatherND"
  const char* tensor = "";  ///< "InputTensor", "IndicesTensor", ... or "" for an attribute
  const char* field = "";   ///< "Sizes", "Strides", "DataType", "Axis", ...
  int field_index = -1;     ///< e.g. 3 for Sizes[3]; -1 when the whole field is meant
  ErrorValue expected;
  ErrorValue actual;
  const char* rule = "";    ///< why the expected value is expected (a short clause), if useful
  Shape position;     ///< index errors: where the value sits in IndicesTensor;
                            ///< collisions: the later update's coordinate in UpdatesTensor;
                            ///< coordinate_out_of_range: the coordinate asked about
  // Index and collision errors: the dimension the index addresses, or the output element written.
  const char* target_tensor = "";
  int target_dimension = -1;
  std::int64_t target_size = 0;
  Shape target_position;
  /// Options::all_or_nothing off only: OutputTensor holds results of the rows before the error.
  bool output_partly_written = false;
  /// feature_level_too_low and level-dependent unsupported errors: Options::feature_level.
  std::uint32_t feature_level = 0;

  /// A complete sentence naming operator, tensor, field, expected and actual value.
  std::string message() const {
    std::string text = sentence();
    if (output_partly_written) text += "; OutputTensor holds the results of the rows before it (all_or_nothing is off)";
    return text;
  }

 private:
  std::string sentence() const {
    std::string where = std::string(op) + ": ";
    std::string subject = tensor;
    if (*field != '\0') subject += (subject.empty() ? "" : ".") + std::string(field);
    if (field_index >= 0) subject += "[" + std::to_string(field_index) + "]";
    if (code == ErrorCode::ok) return "ok";
    if (code == ErrorCode::index_out_of_range) {
      return where + tensor + " value " + actual.to_string() + " at " +
             ErrorValue::braced(position, '[', ']') + " is out of range for " + target_tensor +
             ".Sizes[" + std::to_string(target_dimension) + "] = " + std::to_string(target_size) +
             " (valid " + expected.to_string() + ")";
    }
    if (code == ErrorCode::out_of_memory) {
      return where + "the collision check could not allocate one bit for each of the " +
             actual.to_string() + " elements of " + tensor;
    }
    if (code == ErrorCode::scatter_collision) {
      return where + "UpdatesTensor element " + ErrorValue::braced(position, '[', ']') +
             " writes " + target_tensor + " element " +
             ErrorValue::braced(target_position, '[', ']') +
             ", which an earlier update already wrote (collision check is on)";
    }
    if (code == ErrorCode::coordinate_out_of_range) {
      const std::string entry = field_index >= 0 ? "entry " + std::to_string(field_index) : std::string("length");
      return where + "coordinate " + ErrorValue::braced(position, '[', ']') + " is not an element of " + tensor +
             ": its " + entry + " must be " + expected.to_string() + ", but is " + actual.to_string();
    }
    if (code == ErrorCode::feature_level_too_low) {
      // "IndicesTensor.DataType INT64 needs DML_FEATURE_LEVEL_3_0 (feature_level is 2_1)"
      std::string text = where + subject;
      if (actual.kind != ErrorValue::Kind::none) text += (subject.empty() ? "" : " ") + actual.to_string();
      text += " needs " + expected.to_string() + " (";
      if (*rule != '\0') return text + "at " + ErrorValue::level_name(feature_level) + " " + rule + ")";
      return text + "feature_level is " + ErrorValue::level_name(feature_level) + ")";
    }
    if (code == ErrorCode::misaligned) {
      return where + subject + " must be aligned to " + expected.to_string() + " bytes, but is " +
             actual.to_string() + " bytes past a multiple of " + expected.to_string() +
             (*rule != '\0' ? std::string(" (") + rule + ")" : std::string());
    }
    std::string text = where + subject;
    if (expected.kind != ErrorValue::Kind::none) {
      text += " must be " + expected.to_string();
      if (actual.kind != ErrorValue::Kind::none) text += ", but is " + actual.to_string();
    } else if (actual.kind != ErrorValue::Kind::none) {
      text += " is invalid: " + actual.to_string();
    }
    if (*rule != '\0') text += std::string(" (") + rule + ")";
    return text;
  }
};

/// The result of a `try_` call: ok, or an Error. An ok Status is a code and a null pointer, so
/// the checks on a call's success path cost almost nothing; the Error record is allocated only
/// when there is one (if that allocation fails, code() still says what went wrong).
class [[nodiscard]] Status {
 public:
  Status() noexcept = default;
  explicit Status(const Error& error) noexcept
      : code_(error.code), error_(new (std::nothrow) Error(error)) {}
  Status(const Status& other) noexcept
      : code_(other.code_), error_(other.error_ ? new (std::nothrow) Error(*other.error_) : nullptr) {}
  Status(Status&& other) noexcept : code_(other.code_), error_(other.error_) { other.error_ = nullptr; }
  Status& operator=(const Status& other) noexcept {
    if (this != &other) *this = Status(other);
    return *this;
  }
  Status& operator=(Status&& other) noexcept {
    std::swap(code_, other.code_);
    std::swap(error_, other.error_);
    return *this;
  }
  ~Status() { delete error_; }

  bool ok() const noexcept { return code_ == ErrorCode::ok; }
  explicit operator bool() const noexcept { return ok(); }
  ErrorCode code() const noexcept { return code_; }
  /// The full record; for an ok Status (or a failed allocation) one holding only the code.
  const Error& error() const noexcept {
    if (error_) return *error_;
    static thread_local Error bare;
    bare = Error();
    bare.code = code_;
    bare.op = "dmlref";
    return bare;
  }
  std::string message() const { return error().message(); }

 private:
  ErrorCode code_ = ErrorCode::ok;
  Error* error_ = nullptr;  ///< owned; null when ok (or when its allocation failed)
};

/// A value or the Error that prevented computing it.
template <class T>
class [[nodiscard]] Result {
 public:
  Result(T value) noexcept : value_(std::move(value)) {}  // NOLINT: implicit by design
  Result(Status status) noexcept : status_(std::move(status)) {}  // NOLINT

  bool ok() const noexcept { return status_.ok(); }
  explicit operator bool() const noexcept { return ok(); }
  const Status& status() const noexcept { return status_; }
  const Error& error() const noexcept { return status_.error(); }
  /// The value; meaningful only when ok().
  const T& value() const noexcept { return value_; }
  const T& operator*() const noexcept { return value_; }
  const T* operator->() const noexcept { return &value_; }

 private:
  Status status_;
  T value_{};
};

#if DMLREF_HAS_EXCEPTIONS
/// Thrown by the convenience forms (those without `try_`); carries the same Error.
class Exception : public std::runtime_error {
 public:
  explicit Exception(const Error& error) : std::runtime_error(error.message()), error_(error) {}
  const Error& error() const noexcept { return error_; }
  ErrorCode code() const noexcept { return error_.code; }

 private:
  Error error_;
};

namespace detail {
inline void throw_if_error(const Status& status) {
  if (!status.ok()) throw Exception(status.error());
}
template <class T>
T value_or_throw(const Result<T>& result) {
  throw_if_error(result.status());
  return result.value();
}
}  // namespace detail
#endif

}  // namespace dmlref

#endif  // DMLREF_STATUS_HPP
