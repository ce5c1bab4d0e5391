#ifndef DMLREF_DETAIL_NPY_HEADER_HPP
#define DMLREF_DETAIL_NPY_HEADER_HPP

#include <cctype>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>
#include <utility>

#include "../data_type.hpp"
#include "npy_dict.hpp"
#include "npy_error.hpp"

// Reading a .npy file's header: the magic, the format version and the header length, then the
// dict (npy_dict.hpp), then what its descr and shape mean for the data that follows. Also the
// byte order helpers the writer shares.

namespace dmlref::npy::detail {

inline constexpr std::size_t kMaxHeaderBytes = std::size_t{1} << 20;
inline constexpr std::size_t kMagicBytes = 6;

inline bool host_is_little_endian() noexcept {
  const std::uint16_t one = 1;
  unsigned char first = 0;
  std::memcpy(&first, &one, 1);
  return first == 1;
}

inline Error error(ErrorCode code, std::string message) { return Error{code, std::move(message)}; }

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

/// The magic, the format version and the header length: where the header text starts and how long
/// it is, or what is wrong with them.
inline Error read_preamble(const unsigned char* bytes, std::size_t size, std::size_t& header_start,
                           std::uint64_t& header_length) {
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
  header_length = 0;
  for (std::size_t i = length_bytes; i-- > 0;) header_length = (header_length << 8) | bytes[8 + i];
  header_start = kMagicBytes + 2 + length_bytes;
  if (header_length > kMaxHeaderBytes)
    return error(ErrorCode::too_large, "the .npy header is " + std::to_string(header_length) +
                                           " bytes long; dmlref reads headers up to 1 MiB");
  if (header_length > size - header_start)
    return error(ErrorCode::size_mismatch, "truncated .npy file: the header is " + std::to_string(header_length) +
                                               " bytes long, but only " + std::to_string(size - header_start) +
                                               " bytes follow the header length");
  return Error{};
}

/// The descr's byte order, kind and size: sets h.type, h.swap and `itemsize`.
inline Error read_descr(Header& h, int& itemsize) {
  const std::string& d = h.descr;
  itemsize = 0;
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
  return Error{};
}

/// The element count and byte size, without overflow, and that exactly that much data follows the
/// header, which ends at `data_offset` of the `size` bytes: sets h.data_bytes and h.data_offset.
inline Error read_data_size(Header& h, int itemsize, std::size_t data_offset, std::size_t size) {
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
  h.data_offset = data_offset;
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
  return Error{};
}

/// Parses and validates everything before the data; `size` is the whole input's size.
inline Expected<Header> parse_header(const unsigned char* bytes, std::size_t size) {
  std::size_t header_start = 0;
  std::uint64_t header_length = 0;
  if (Error e = read_preamble(bytes, size, header_start, header_length); e.code != ErrorCode::ok) return e;
  Expected<Header> parsed = HeaderParser(reinterpret_cast<const char*>(bytes + header_start),
                                         static_cast<std::size_t>(header_length))
                                .parse();
  if (!parsed) return parsed;
  Header& h = parsed.value();
  int itemsize = 0;
  if (Error e = read_descr(h, itemsize); e.code != ErrorCode::ok) return e;
  const std::size_t data_offset = header_start + static_cast<std::size_t>(header_length);
  if (Error e = read_data_size(h, itemsize, data_offset, size); e.code != ErrorCode::ok) return e;
  return parsed;
}

inline void swap_bytes(unsigned char* data, std::size_t bytes, std::size_t itemsize) noexcept {
  for (std::size_t i = 0; i + itemsize <= bytes; i += itemsize)
    for (std::size_t a = 0, b = itemsize - 1; a < b; ++a, --b) std::swap(data[i + a], data[i + b]);
}

}  // namespace dmlref::npy::detail

#endif  // DMLREF_DETAIL_NPY_HEADER_HPP
