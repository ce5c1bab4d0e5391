// What `print` and `writeFile` produce, byte for byte as DxDispatch does (docs/dxdispatch.md lists
// the deliberate differences: INT8/UINT8 print as numbers, NaN and infinity as nan, -nan, inf, -inf).
#ifndef DMLREF_TOOLS_DXDISPATCH_OUTPUT_HPP
#define DMLREF_TOOLS_DXDISPATCH_OUTPUT_HPP

#include <dmlref/data_type.hpp>

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace dxdispatch {

/// One element as C++'s stream prints it by default (%g: 6 significant digits, no trailing zeros;
/// FLOAT16 through float), integers in decimal.
std::string format_value(dmlref::DataType type, const unsigned char* element);

/// The text of a `print` command for `count` elements at `data`, newlines included:
///   Resource 'NAME': v0, v1, ...                           (one line)
///   Resource 'NAME':\n[i] value (0xBITS)\n ... \n          (verbose; DxDispatch ends it with an empty line)
/// The index and BITS (upper-case hex) are right-aligned with spaces, to the digits of `count` and
/// twice the element size.
std::string format_print(const std::string& name, dmlref::DataType type, const unsigned char* data, std::size_t count,
                         bool verbose);

/// A .npy file as DxDispatch writes it: NPY 1.0, the header
/// {'descr':'<f4', 'fortran_order':False, 'shape':(1,3,2,), } padded with spaces to a multiple of
/// 64 bytes and ended with '\n' ('<' even for one-byte types), then `size` bytes of `data`, the
/// whole buffer, whatever `shape` says.
std::vector<unsigned char> npy_file(dmlref::DataType type, const std::vector<std::int64_t>& shape,
                                    const unsigned char* data, std::size_t size);

}  // namespace dxdispatch

#endif  // DMLREF_TOOLS_DXDISPATCH_OUTPUT_HPP
