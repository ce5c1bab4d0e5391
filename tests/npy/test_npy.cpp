// The .npy codec (dmlref/npy.hpp) against files numpy wrote (tests/npy/, by make_fixtures.py):
// every dtype bit for bit, 0-d/1-d/3-d/8-d and empty arrays, Fortran order as strides and as a
// copy, format versions 2.0 and 3.0, big-endian files, headers numpy reads but does not write;
// the writer reproduces numpy's bytes exactly; every malformed fixture gives its error code and a
// message; truncations and byte flips of valid files never crash.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstdio>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "dmlref/npy.hpp"

namespace {

using dmlref::DataType;
namespace npy = dmlref::npy;
using npy::ErrorCode;

/// tests/npy/, the folder of this source file (CMake passes absolute source paths).
std::string fixture(const std::string& name) {
#ifdef DMLREF_NPY_FIXTURE_DIR
  return std::string(DMLREF_NPY_FIXTURE_DIR) + "/" + name;
#else
  std::string here = __FILE__;
  const std::size_t slash = here.find_last_of("/\\");
  return (slash == std::string::npos ? std::string(".") : here.substr(0, slash)) + "/" + name;
#endif
}

std::vector<unsigned char> file_bytes(const std::string& path) {
  std::vector<unsigned char> bytes;
  std::FILE* f = std::fopen(path.c_str(), "rb");
  if (f == nullptr) return bytes;
  unsigned char buffer[4096];
  std::size_t n = 0;
  while ((n = std::fread(buffer, 1, sizeof buffer, f)) > 0) bytes.insert(bytes.end(), buffer, buffer + n);
  std::fclose(f);
  return bytes;
}

npy::Array load(const std::string& name) {
  npy::Expected<npy::Array> read = npy::read_file(fixture(name));
  EXPECT_TRUE(read.ok()) << name << ": " << read.error().message;
  return read.ok() ? std::move(read).value() : npy::Array();
}

template <class T>
std::vector<unsigned char> bytes_of(const std::vector<T>& values) {
  std::vector<unsigned char> b(values.size() * sizeof(T));
  if (!b.empty()) std::memcpy(b.data(), values.data(), b.size());
  return b;
}

using Shape = std::vector<std::int64_t>;

// The values make_fixtures.py writes (DTYPE_VALUES), as bits for the float types.
const std::vector<std::uint64_t> kF8Bits = {0, 0x8000000000000000u, 0x3FF8000000000000u, 0xFFF0000000000000u,
                                            0x7FF8000000001234u, 1};
const std::vector<std::uint32_t> kF4Bits = {0x00000000u, 0x80000000u, 0x3FC00000u, 0x7F800000u, 0x7FC01234u, 1};
const std::vector<std::uint16_t> kF2Bits = {0x0000, 0x8000, 0x3C00, 0x7C00, 0x7E01, 0x0001};

struct DtypeCase {
  const char* file;
  DataType type;
  const char* descr;
  std::vector<unsigned char> bytes;
};

std::vector<DtypeCase> dtype_cases() {
  return {
      {"dtype_f8.npy", DataType::FLOAT64, "<f8", bytes_of(kF8Bits)},
      {"dtype_f4.npy", DataType::FLOAT32, "<f4", bytes_of(kF4Bits)},
      {"dtype_f2.npy", DataType::FLOAT16, "<f2", bytes_of(kF2Bits)},
      {"dtype_i8.npy", DataType::INT64, "<i8",
       bytes_of(std::vector<std::int64_t>{INT64_MIN, -1, 0, 1, INT64_MAX, 1234567890123})},
      {"dtype_i4.npy", DataType::INT32, "<i4", bytes_of(std::vector<std::int32_t>{INT32_MIN, -1, 0, 1, INT32_MAX, 123456})},
      {"dtype_i2.npy", DataType::INT16, "<i2", bytes_of(std::vector<std::int16_t>{-32768, -1, 0, 1, 32767, 1234})},
      {"dtype_i1.npy", DataType::INT8, "|i1", bytes_of(std::vector<std::int8_t>{-128, -1, 0, 1, 127, 42})},
      {"dtype_u8.npy", DataType::UINT64, "<u8",
       bytes_of(std::vector<std::uint64_t>{0, 1, 0x7FFFFFFFFFFFFFFFu, 0x8000000000000000u, UINT64_MAX, 1234567890123})},
      {"dtype_u4.npy", DataType::UINT32, "<u4",
       bytes_of(std::vector<std::uint32_t>{0, 1, 0x7FFFFFFFu, 0x80000000u, UINT32_MAX, 123456})},
      {"dtype_u2.npy", DataType::UINT16, "<u2", bytes_of(std::vector<std::uint16_t>{0, 1, 32767, 32768, 65535, 1234})},
      {"dtype_u1.npy", DataType::UINT8, "|u1", bytes_of(std::vector<std::uint8_t>{0, 1, 127, 128, 255, 42})},
      {"dtype_b1.npy", DataType::UINT8, "|b1", bytes_of(std::vector<std::uint8_t>{1, 0, 1, 1, 0, 0})},
  };
}

TEST(Npy, EveryDtypeIsReadBitExact) {
  for (const DtypeCase& c : dtype_cases()) {
    SCOPED_TRACE(c.file);
    const npy::Array a = load(c.file);
    EXPECT_EQ(a.type, c.type);
    EXPECT_EQ(a.descr, c.descr);
    EXPECT_EQ(a.shape, (Shape{2, 3}));
    EXPECT_FALSE(a.fortran_order);
    EXPECT_EQ(a.element_count(), 6);
    EXPECT_EQ(a.data, c.bytes);
  }
}

TEST(Npy, TypedValues) {
  const npy::Array a = load("dtype_i2.npy");
  EXPECT_EQ(a.values<std::int16_t>(), (std::vector<std::int16_t>{-32768, -1, 0, 1, 32767, 1234}));
  EXPECT_TRUE(a.values<std::uint16_t>().empty()) << "values<T> of another type is empty";
  const npy::Array h = load("dtype_f2.npy");
  const std::vector<dmlref::float16> halves = h.values<dmlref::float16>();
  ASSERT_EQ(halves.size(), 6u);
  for (std::size_t i = 0; i < 6; ++i) EXPECT_EQ(halves[i].bits, kF2Bits[i]);
}

TEST(Npy, ZeroDimensionalArrays) {
  const npy::Array d = load("rank0_f8.npy");
  EXPECT_EQ(d.type, DataType::FLOAT64);
  EXPECT_EQ(d.rank(), 0);
  EXPECT_EQ(d.element_count(), 1);
  EXPECT_TRUE(d.strides().empty());
  EXPECT_EQ(d.values<double>(), (std::vector<double>{3.25}));
  EXPECT_EQ(load("rank0_i4.npy").values<std::int32_t>(), (std::vector<std::int32_t>{-7}));
  EXPECT_EQ(load("minimal.npy").values<std::int32_t>(), (std::vector<std::int32_t>{5}));
}

TEST(Npy, OneThreeAndEightDimensionalArrays) {
  const npy::Array one = load("rank1_i4.npy");
  EXPECT_EQ(one.shape, (Shape{5}));
  EXPECT_EQ(one.values<std::int32_t>(), (std::vector<std::int32_t>{0, 1, 2, 3, 4}));

  const npy::Array three = load("rank3_i2.npy");
  EXPECT_EQ(three.shape, (Shape{2, 3, 4}));
  EXPECT_EQ(three.strides(), (Shape{12, 4, 1}));
  std::vector<std::int16_t> expected;
  for (int i = 0; i < 24; ++i) expected.push_back(static_cast<std::int16_t>(i - 12));
  EXPECT_EQ(three.values<std::int16_t>(), expected);

  const npy::Array eight = load("rank8_u1.npy");
  EXPECT_EQ(eight.shape, Shape(8, 2));
  ASSERT_EQ(eight.data.size(), 256u);
  for (int i = 0; i < 256; ++i) EXPECT_EQ(eight.data[static_cast<std::size_t>(i)], i);
}

TEST(Npy, EmptyArrays) {
  const npy::Array a = load("empty_f4.npy");
  EXPECT_EQ(a.type, DataType::FLOAT32);
  EXPECT_EQ(a.shape, (Shape{0}));
  EXPECT_EQ(a.element_count(), 0);
  EXPECT_TRUE(a.data.empty());
  const npy::Array b = load("empty_3d_i8.npy");
  EXPECT_EQ(b.shape, (Shape{2, 0, 3}));
  EXPECT_TRUE(b.data.empty());
}

TEST(Npy, FortranOrderIsAStridedViewOrACopy) {
  const npy::Array f = load("fortran_f4.npy");
  EXPECT_TRUE(f.fortran_order);
  EXPECT_EQ(f.shape, (Shape{2, 3}));
  EXPECT_EQ(f.strides(), (Shape{1, 2}));
  EXPECT_EQ(f.data, bytes_of(std::vector<float>{0, 3, 1, 4, 2, 5})) << "elements stay in the file's order";
  EXPECT_EQ(f.values<float>(), (std::vector<float>{0, 1, 2, 3, 4, 5}));
  const npy::Array c = f.to_c_order();
  EXPECT_FALSE(c.fortran_order);
  EXPECT_EQ(c.strides(), (Shape{3, 1}));
  EXPECT_EQ(c.data, bytes_of(std::vector<float>{0, 1, 2, 3, 4, 5}));

  const npy::Array f3 = load("fortran_3d_u2.npy");
  EXPECT_TRUE(f3.fortran_order);
  EXPECT_EQ(f3.strides(), (Shape{1, 2, 6}));
  std::vector<std::uint16_t> expected(24);
  for (int i = 0; i < 24; ++i) expected[static_cast<std::size_t>(i)] = static_cast<std::uint16_t>(i);
  EXPECT_EQ(f3.values<std::uint16_t>(), expected);
  // The strides address the same elements as the row-major copy.
  const std::vector<std::uint16_t> raw = [&] {
    std::vector<std::uint16_t> v(24);
    std::memcpy(v.data(), f3.data.data(), 48);
    return v;
  }();
  const Shape s = f3.strides();
  for (int i = 0; i < 2; ++i)
    for (int j = 0; j < 3; ++j)
      for (int k = 0; k < 4; ++k) EXPECT_EQ(raw[static_cast<std::size_t>(i * s[0] + j * s[1] + k * s[2])], i * 12 + j * 4 + k);
}

TEST(Npy, FormatVersions2And3) {
  const npy::Array v2 = load("v2_i8.npy");
  EXPECT_EQ(v2.shape, (Shape{3, 2}));
  EXPECT_EQ(v2.values<std::int64_t>(), (std::vector<std::int64_t>{0, 1, 2, 3, 4, 5}));
  const npy::Array v3 = load("v3_f2.npy");
  EXPECT_EQ(v3.type, DataType::FLOAT16);
  EXPECT_EQ(v3.data, bytes_of(kF2Bits));
  const npy::Array v3f = load("v3_fortran_i4.npy");
  EXPECT_TRUE(v3f.fortran_order);
  EXPECT_EQ(v3f.values<std::int32_t>(), (std::vector<std::int32_t>{0, 1, 2, 3, 4, 5}));
}

TEST(Npy, BigEndianFilesAreByteSwapped) {
  const npy::Array i = load("be_i4.npy");
  EXPECT_EQ(i.descr, ">i4");
  EXPECT_EQ(i.type, DataType::INT32);
  EXPECT_EQ(i.values<std::int32_t>(), (std::vector<std::int32_t>{-3, -2, -1, 0, 1, 2}));
  EXPECT_EQ(load("be_f8.npy").data, bytes_of(kF8Bits));
  EXPECT_EQ(load("be_f2.npy").data, bytes_of(kF2Bits));
  const npy::Array u = load("be_fortran_u8.npy");
  EXPECT_TRUE(u.fortran_order);
  EXPECT_EQ(u.values<std::uint64_t>(), (std::vector<std::uint64_t>{0, 1, 2, 3, 4, 5}));
}

TEST(Npy, HeadersNumpyReadsButDoesNotWrite) {
  const npy::Array py2 = load("py2_long.npy");  // (2L, 3L)
  EXPECT_EQ(py2.shape, (Shape{2, 3}));
  EXPECT_EQ(py2.values<std::int16_t>(), (std::vector<std::int16_t>{0, 1, 2, 3, 4, 5}));
  const npy::Array reordered = load("reordered.npy");  // double quotes, other key order, no trailing comma
  EXPECT_EQ(reordered.type, DataType::UINT32);
  EXPECT_EQ(reordered.values<std::uint32_t>(), (std::vector<std::uint32_t>{1, 2, 3}));
}

TEST(Npy, WriterReproducesNumpysBytes) {
  const char* files[] = {"dtype_f8.npy", "dtype_f4.npy", "dtype_f2.npy", "dtype_i8.npy", "dtype_i4.npy",
                         "dtype_i2.npy", "dtype_i1.npy", "dtype_u8.npy", "dtype_u4.npy", "dtype_u2.npy",
                         "dtype_u1.npy", "rank0_f8.npy", "rank0_i4.npy", "rank1_i4.npy", "rank3_i2.npy",
                         "rank8_u1.npy", "empty_f4.npy", "empty_3d_i8.npy", "fortran_f4.npy", "fortran_3d_u2.npy"};
  for (const char* file : files) {
    SCOPED_TRACE(file);
    const npy::Expected<std::vector<unsigned char>> bytes = npy::serialize(load(file));
    ASSERT_TRUE(bytes.ok()) << bytes.error().message;
    EXPECT_EQ(*bytes, file_bytes(fixture(file)));
  }
}

TEST(Npy, WriterOutputOfOtherFilesIsCanonical) {
  // Big-endian and v2/v3 files are written little-endian, format 1.0; bool as '|u1'.
  for (const char* file : {"be_i4.npy", "v3_f2.npy", "dtype_b1.npy", "py2_long.npy"}) {
    SCOPED_TRACE(file);
    const npy::Array a = load(file);
    const npy::Expected<std::vector<unsigned char>> bytes = npy::serialize(a);
    ASSERT_TRUE(bytes.ok());
    EXPECT_EQ((*bytes)[6], 1);
    EXPECT_EQ(((*bytes)[8] | ((*bytes)[9] << 8)) + 10, 128) << "header ends on a 64-byte boundary";
    const npy::Expected<npy::Array> back = npy::parse(bytes->data(), bytes->size());
    ASSERT_TRUE(back.ok()) << back.error().message;
    EXPECT_EQ(back->descr, npy::descr_of(a.type));
    EXPECT_EQ(back->shape, a.shape);
    EXPECT_EQ(back->data, a.data);
  }
}

TEST(Npy, WriteFileAndReadItBack) {
  const std::string path = ::testing::TempDir() + "dmlref_test_npy_roundtrip.npy";
  const std::vector<double> values = {1.5, -0.0, 3.0};
  const npy::Array a = npy::make_array(DataType::FLOAT64, {3, 1}, values.data(), sizeof(double) * values.size());
  const npy::Expected<std::uint64_t> written = npy::write_file(path, a);
  ASSERT_TRUE(written.ok()) << written.error().message;
  EXPECT_EQ(*written, 128u + 24u);
  const npy::Expected<npy::Array> back = npy::read_file(path);
  ASSERT_TRUE(back.ok()) << back.error().message;
  EXPECT_EQ(back->shape, (Shape{3, 1}));
  EXPECT_EQ(back->descr, "<f8");
  EXPECT_EQ(back->data, a.data);
  std::remove(path.c_str());
}

TEST(Npy, LongHeadersAreWrittenAsVersion2) {
  npy::Array a;
  a.type = DataType::UINT8;
  a.shape.assign(30000, 1);
  a.data = {7};
  const npy::Expected<std::vector<unsigned char>> bytes = npy::serialize(a);
  ASSERT_TRUE(bytes.ok());
  EXPECT_EQ((*bytes)[6], 2);
  const std::uint32_t length = (*bytes)[8] | ((*bytes)[9] << 8) | ((*bytes)[10] << 16) | (static_cast<std::uint32_t>((*bytes)[11]) << 24);
  EXPECT_EQ((12 + length) % 64, 0u);
  const npy::Expected<npy::Array> back = npy::parse(bytes->data(), bytes->size());
  ASSERT_FALSE(back.ok());
  EXPECT_EQ(back.error().code, ErrorCode::bad_shape);  // more than 64 dimensions
  EXPECT_NE(back.error().message.find("more than 64 dimensions"), std::string::npos) << back.error().message;
}

TEST(Npy, WriterRefusesInconsistentArrays) {
  npy::Array a = npy::make_array(DataType::INT32, {2, 2}, "abcdefgh", 8);
  npy::Expected<std::vector<unsigned char>> bytes = npy::serialize(a);
  ASSERT_FALSE(bytes.ok());
  EXPECT_EQ(bytes.error().code, ErrorCode::invalid_argument);
  EXPECT_NE(bytes.error().message.find("the array's data is 8 bytes, but its shape and type need 4 x 4"),
            std::string::npos)
      << bytes.error().message;
  a.type = DataType::UNKNOWN;
  EXPECT_EQ(npy::serialize(a).error().code, ErrorCode::invalid_argument);
  a = npy::make_array(DataType::INT8, {-1}, "", 0);
  EXPECT_EQ(npy::serialize(a).error().code, ErrorCode::invalid_argument);
  const npy::Expected<std::uint64_t> written = npy::write_file("/nonexistent-dir/x.npy", npy::make_array(DataType::INT8, {1}, "a", 1));
  ASSERT_FALSE(written.ok());
  EXPECT_EQ(written.error().code, ErrorCode::io_error);
  EXPECT_EQ(written.error().message.rfind("/nonexistent-dir/x.npy: cannot create: ", 0), 0u) << written.error().message;
}

struct BadCase {
  const char* file;
  ErrorCode code;
  const char* phrase;
};

TEST(Npy, MalformedFilesGiveClearErrors) {
  const BadCase cases[] = {
      {"bad_empty.npy", ErrorCode::bad_magic, "0 bytes, shorter than the 6-byte magic"},
      {"bad_short_magic.npy", ErrorCode::bad_magic, "4 bytes, shorter than the 6-byte magic"},
      {"bad_magic.npy", ErrorCode::bad_magic, "not a .npy file: it does not start with the magic \\x93NUMPY"},
      {"bad_text_file.npy", ErrorCode::bad_magic, "(it starts with \"1.0 2.\")"},
      {"bad_version.npy", ErrorCode::unsupported_version, "unsupported .npy format version 4.0 (supported: 1.0, 2.0, 3.0)"},
      {"bad_version_minor.npy", ErrorCode::unsupported_version, "version 1.1"},
      {"bad_length_cut.npy", ErrorCode::size_mismatch, "the header length is cut off"},
      {"bad_header_past_end.npy", ErrorCode::size_mismatch, "the header is 1000 bytes long, but only"},
      {"bad_header_too_long.npy", ErrorCode::too_large, "the .npy header is 2147483648 bytes long; dmlref reads headers up to 1 MiB"},
      {"bad_truncated_data.npy", ErrorCode::size_mismatch,
       "truncated .npy file: the header promises 24 bytes of data (6 elements of 4 bytes), but the file has 21"},
      {"bad_trailing_data.npy", ErrorCode::size_mismatch, "has 2 trailing bytes after its 24 bytes of data"},
      {"bad_no_data.npy", ErrorCode::size_mismatch, "but the file has 0"},
      {"bad_not_dict.npy", ErrorCode::bad_header, "the header must be a Python dict starting with '{'"},
      {"bad_empty_header.npy", ErrorCode::bad_header, "the header must be a Python dict"},
      {"bad_missing_key.npy", ErrorCode::bad_header, "the header lacks the key(s) 'fortran_order'"},
      {"bad_extra_key.npy", ErrorCode::bad_header, "unexpected key 'foo'"},
      {"bad_duplicate_key.npy", ErrorCode::bad_header, "the key 'descr' appears twice"},
      {"bad_unterminated_string.npy", ErrorCode::bad_header, "expected ':' after the key 'descr: '"},
      {"bad_unclosed_dict.npy", ErrorCode::bad_header, "expected a quoted key"},
      {"bad_fortran_value.npy", ErrorCode::bad_header, "'fortran_order' must be True or False"},
      {"bad_text_after.npy", ErrorCode::bad_header, "unexpected text after the closing '}'"},
      {"bad_nul_in_header.npy", ErrorCode::bad_header, "expected a quoted key (at header offset 16 of"},
      {"bad_shape_negative.npy", ErrorCode::bad_shape, "a size in 'shape' is negative"},
      {"bad_shape_not_tuple.npy", ErrorCode::bad_shape, "'shape' (n) is an integer, not a tuple; numpy writes (n,)"},
      {"bad_shape_list.npy", ErrorCode::bad_shape, "'shape' must be a tuple of integers"},
      {"bad_shape_float.npy", ErrorCode::bad_shape, "expected ',' or ')' in 'shape'"},
      {"bad_shape_int_overflow.npy", ErrorCode::too_large, "a size in 'shape' does not fit in 63 bits"},
      {"bad_shape_count_overflow.npy", ErrorCode::too_large, "element count does not fit in 63 bits"},
      {"bad_shape_huge.npy", ErrorCode::size_mismatch, "promises 4000000000000 bytes of data"},
      {"bad_shape_rank.npy", ErrorCode::bad_shape, "more than 64 dimensions"},
      {"bad_descr_pipe_f4.npy", ErrorCode::unsupported_dtype, "unsupported dtype '|f4'"},
      {"bad_descr_garbage.npy", ErrorCode::unsupported_dtype, "unsupported dtype 'x': dmlref reads '<f8' '<f4' '<f2'"},
      {"bad_descr_escape.npy", ErrorCode::bad_header, "escapes and non-ASCII are not read"},
      {"bad_descr_complex.npy", ErrorCode::unsupported_dtype, "unsupported dtype '<c8'"},
      {"bad_descr_structured.npy", ErrorCode::unsupported_dtype, "structured dtypes"},
      {"bad_descr_unicode.npy", ErrorCode::unsupported_dtype, "unsupported dtype '<U3'"},
      {"bad_descr_object.npy", ErrorCode::unsupported_dtype, "unsupported dtype '|O'"},
      {"bad_descr_datetime.npy", ErrorCode::unsupported_dtype, "unsupported dtype '<M8[s]'"},
  };
  for (const BadCase& c : cases) {
    SCOPED_TRACE(c.file);
    const std::string path = fixture(c.file);
    const npy::Expected<npy::Array> read = npy::read_file(path);
    ASSERT_FALSE(read.ok());
    EXPECT_EQ(read.error().code, c.code) << npy::name(read.error().code) << ": " << read.error().message;
    EXPECT_EQ(read.error().message.rfind(path + ": ", 0), 0u) << "the message starts with the path";
    EXPECT_NE(read.error().message.find(c.phrase), std::string::npos) << read.error().message;
    // The same from memory, without the path.
    const std::vector<unsigned char> bytes = file_bytes(path);
    const npy::Expected<npy::Array> parsed = npy::parse(bytes.data(), bytes.size());
    ASSERT_FALSE(parsed.ok());
    EXPECT_EQ(parsed.error().code, c.code);
    EXPECT_EQ(read.error().message, path + ": " + parsed.error().message);
  }
}

// Two header errors that no fixture file reaches, from memory: a file that ends inside the
// format version, and a shape whose element count fits in 63 bits but whose byte size does not.
TEST(Npy, VersionCutOffAndByteSizeOverflowAreClear) {
  const std::string cut("\x93NUMPY\x01", 7);
  const npy::Expected<npy::Array> short_read = npy::parse(cut.data(), cut.size());
  ASSERT_FALSE(short_read.ok());
  EXPECT_EQ(short_read.error().code, ErrorCode::size_mismatch);
  EXPECT_NE(short_read.error().message.find("no format version after the magic"), std::string::npos)
      << short_read.error().message;

  std::string header = "{'descr': '<f8', 'fortran_order': False, 'shape': (2305843009213693952,), }";
  header.append(64 - (10 + header.size() + 1) % 64, ' ');
  header += '\n';
  std::string file("\x93NUMPY\x01\x00", 8);
  file += static_cast<char>(header.size() & 0xff);
  file += static_cast<char>(header.size() >> 8);
  file += header;
  const npy::Expected<npy::Array> huge = npy::parse(file.data(), file.size());
  ASSERT_FALSE(huge.ok());
  EXPECT_EQ(huge.error().code, ErrorCode::too_large) << huge.error().message;
  EXPECT_NE(huge.error().message.find("the array's byte size does not fit in 63 bits"), std::string::npos)
      << huge.error().message;
}

TEST(Npy, MissingFilesAndDirectories) {
  const npy::Expected<npy::Array> missing = npy::read_file(fixture("no_such_file.npy"));
  ASSERT_FALSE(missing.ok());
  EXPECT_EQ(missing.error().code, ErrorCode::io_error);
  EXPECT_NE(missing.error().message.find("no_such_file.npy: cannot open: No such file or directory"), std::string::npos)
      << missing.error().message;
  const npy::Expected<npy::Array> directory = npy::read_file(fixture(""));
  ASSERT_FALSE(directory.ok());
  EXPECT_EQ(directory.error().code, ErrorCode::io_error) << directory.error().message;
  const npy::Expected<npy::Array> null_bytes = npy::parse(nullptr, 1);
  EXPECT_EQ(null_bytes.error().code, ErrorCode::invalid_argument);
  EXPECT_EQ(npy::parse(nullptr, 0).error().code, ErrorCode::bad_magic);
}

TEST(Npy, EveryTruncationOfAValidFileIsAnError) {
  for (const char* file : {"dtype_f4.npy", "v3_fortran_i4.npy", "rank0_f8.npy"}) {
    const std::vector<unsigned char> bytes = file_bytes(fixture(file));
    ASSERT_FALSE(bytes.empty());
    for (std::size_t n = 0; n < bytes.size(); ++n) {
      const npy::Expected<npy::Array> parsed = npy::parse(bytes.data(), n);
      ASSERT_FALSE(parsed.ok()) << file << " cut to " << n << " bytes";
      EXPECT_FALSE(parsed.error().message.empty());
    }
    EXPECT_TRUE(npy::parse(bytes.data(), bytes.size()).ok());
  }
}

TEST(Npy, ByteFlipsNeverCrash) {
  // Seeded: the same mutations on every run. Each result is either an array consistent with its
  // header or an error with a message.
  std::mt19937 random(20240611);
  for (const char* file : {"dtype_f4.npy", "fortran_3d_u2.npy", "be_f2.npy", "py2_long.npy", "empty_3d_i8.npy"}) {
    const std::vector<unsigned char> original = file_bytes(fixture(file));
    ASSERT_FALSE(original.empty());
    for (int round = 0; round < 3000; ++round) {
      std::vector<unsigned char> bytes = original;
      const int flips = 1 + static_cast<int>(random() % 4);
      for (int f = 0; f < flips; ++f) {
        // Mostly the header, where the parser is.
        const std::size_t limit = random() % 4 != 0 ? std::min<std::size_t>(bytes.size(), 128) : bytes.size();
        bytes[random() % limit] = static_cast<unsigned char>(random());
      }
      const npy::Expected<npy::Array> parsed = npy::parse(bytes.data(), bytes.size());
      if (parsed.ok()) {
        EXPECT_EQ(parsed->data.size(),
                  static_cast<std::size_t>(parsed->element_count()) * dmlref::element_size(parsed->type));
      } else {
        EXPECT_FALSE(parsed.error().message.empty());
      }
    }
  }
}

}  // namespace
