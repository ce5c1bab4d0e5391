// print and writeFile output (see output.hpp).
#include "output.hpp"

#include <dmlref/float16.hpp>
#include <dmlref/npy.hpp>

#include <cmath>
#include <cstdio>
#include <cstring>

namespace dxdispatch {

namespace {

template <class T>
T load(const unsigned char* p) {
  T value;
  std::memcpy(&value, p, sizeof(T));
  return value;
}

std::string floating(double value) {
  // DxDispatch prints whatever its C++ library makes of these (MSVC: "-nan(ind)"); one spelling
  // for all platforms is easier to compare.
  if (std::isnan(value)) return std::signbit(value) ? "-nan" : "nan";
  if (std::isinf(value)) return value < 0 ? "-inf" : "inf";
  char text[32];
  std::snprintf(text, sizeof text, "%g", value);
  return text;
}

std::string padded(const std::string& s, std::size_t width) {
  return s.size() >= width ? s : std::string(width - s.size(), ' ') + s;
}

}  // namespace

std::string format_value(dmlref::DataType type, const unsigned char* element) {
  using dmlref::DataType;
  switch (type) {
    case DataType::FLOAT32:
      return floating(load<float>(element));
    case DataType::FLOAT16:
      return floating(dmlref::float16::from_bits(load<std::uint16_t>(element)).to_float());
    case DataType::FLOAT64:
      return floating(load<double>(element));
    case DataType::INT8:
      return std::to_string(load<std::int8_t>(element));
    case DataType::INT16:
      return std::to_string(load<std::int16_t>(element));
    case DataType::INT32:
      return std::to_string(load<std::int32_t>(element));
    case DataType::INT64:
      return std::to_string(load<std::int64_t>(element));
    case DataType::UINT8:
      return std::to_string(load<std::uint8_t>(element));
    case DataType::UINT16:
      return std::to_string(load<std::uint16_t>(element));
    case DataType::UINT32:
      return std::to_string(load<std::uint32_t>(element));
    case DataType::UINT64:
      return std::to_string(load<std::uint64_t>(element));
    case DataType::UNKNOWN:
      break;
  }
  return "?";
}

std::string format_print(const std::string& name, dmlref::DataType type, const unsigned char* data, std::size_t count,
                         bool verbose) {
  const std::size_t size = dmlref::element_size(type);
  std::string text = "Resource '" + name + "':";
  if (!verbose) {
    text += ' ';
    for (std::size_t i = 0; i < count; ++i) {
      if (i != 0) text += ", ";
      text += format_value(type, data + i * size);
    }
    return text + "\n";
  }
  text += '\n';
  // DxDispatch: floor(log10(count)) + 1, the digits of the count (not of the largest index).
  const std::size_t index_width = std::to_string(count).size();
  static const char hex[] = "0123456789ABCDEF";
  for (std::size_t i = 0; i < count; ++i) {
    const unsigned char* element = data + i * size;
    std::uint64_t bits = 0;
    for (std::size_t b = size; b-- > 0;) bits = (bits << 8) | element[b];  // little-endian storage
    std::string digits;
    do {
      digits.insert(digits.begin(), hex[bits & 15]);
      bits >>= 4;
    } while (bits != 0);
    text += "[" + padded(std::to_string(i), index_width) + "] " + format_value(type, element) + " (0x" +
            padded(digits, 2 * size) + ")\n";
  }
  return text + "\n";
}

std::vector<unsigned char> npy_file(dmlref::DataType type, const std::vector<std::int64_t>& shape,
                                    const unsigned char* data, std::size_t size) {
  std::string descr = dmlref::npy::descr_of(type);
  descr[0] = '<';  // DxDispatch writes '<i1' and '<u1' where numpy writes '|'
  std::string dict = "{'descr':'" + descr + "', 'fortran_order':False, 'shape':(";
  for (std::int64_t d : shape) dict += std::to_string(d) + ",";
  dict += "), }";
  const std::size_t prefix = 10;  // magic, version, header length
  const std::size_t header_end = (prefix + dict.size() + 1 + 63) / 64 * 64;
  std::vector<unsigned char> file(header_end + size, ' ');
  const unsigned char magic[] = {0x93, 'N', 'U', 'M', 'P', 'Y', 1, 0};
  std::memcpy(file.data(), magic, sizeof magic);
  const std::size_t header_length = header_end - prefix;
  file[8] = static_cast<unsigned char>(header_length & 0xFF);
  file[9] = static_cast<unsigned char>((header_length >> 8) & 0xFF);
  std::memcpy(file.data() + prefix, dict.data(), dict.size());
  file[header_end - 1] = '\n';
  if (size != 0) std::memcpy(file.data() + header_end, data, size);
  return file;
}

}  // namespace dxdispatch
