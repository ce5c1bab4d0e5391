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

#include <cerrno>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <string>
#include <utility>
#include <vector>

#include "data_type.hpp"
#include "detail/npy_error.hpp"
#include "detail/npy_header.hpp"

namespace dmlref::npy {

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

/// The validated header and its data as an Array. Here rather than in npy_header.hpp, which
/// comes before Array.
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
