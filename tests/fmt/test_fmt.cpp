// {fmt} integration (dmlref/fmt.hpp): names, shapes, messages, float16, and tensors printed as
// numpy prints them. Every expected tensor string below is what numpy 1.24's str(array) printed
// for the array named in the comment above it (Debian's python3-numpy, default print options).
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <string>
#include <vector>

#include "dmlref/dmlref.hpp"
#include "dmlref/fmt.hpp"

namespace {

using dmlref::DataType;
using dmlref::float16;
using dmlref::Shape;
using dmlref::TensorView;

template <class T>
std::string str(const T* data, const Shape& sizes) {
  return fmt::format("{}", TensorView<const T>(data, sizes));
}

std::vector<std::int64_t> iota(std::int64_t n) {
  std::vector<std::int64_t> v(static_cast<std::size_t>(n));
  for (std::int64_t i = 0; i < n; ++i) v[static_cast<std::size_t>(i)] = i;
  return v;
}

std::vector<float16> halves(std::initializer_list<float> values) {
  std::vector<float16> out;
  for (float v : values) out.push_back(float16::from_float(v));
  return out;
}

// ---- names, shapes, messages --------------------------------------------------------------------

TEST(Fmt, DataTypeErrorCodeAndReduction) {
  EXPECT_EQ(fmt::format("{}", DataType::FLOAT16), "FLOAT16");
  EXPECT_EQ(fmt::format("{}", DataType::UNKNOWN), "UNKNOWN");
  EXPECT_EQ(fmt::format("[{:>8}]", DataType::INT8), "[    INT8]");  // string specs apply
  EXPECT_EQ(fmt::format("{}", dmlref::ErrorCode::index_out_of_range), "index_out_of_range");
#if defined(DMLREF_FMT_HAS_REDUCTION)
  EXPECT_EQ(fmt::format("{}", dmlref::Reduction::max), "max");
#endif
}

TEST(Fmt, Shape) {
  EXPECT_EQ(fmt::format("{}", Shape{2, 3}), "{2, 3}");
  EXPECT_EQ(fmt::format("{}", Shape{7}), "{7}");
  EXPECT_EQ(fmt::format("{}", Shape{}), "{}");
}

TEST(Fmt, StatusAndErrorPrintTheirMessage) {
  const float input[4] = {1, 2, 3, 4};
  const std::int32_t indices[2] = {0, 4};
  float output[2];
  const dmlref::Status status =
      dmlref::try_gather(TensorView<const float>(input, {4}), TensorView<const std::int32_t>(indices, {2}),
                         TensorView<float>(output, {2}), dmlref::GatherParams{0, 1});
  ASSERT_FALSE(status.ok());
  EXPECT_EQ(fmt::format("{}", status), status.message());
  EXPECT_EQ(fmt::format("{}", status.error()), status.message());
  EXPECT_EQ(fmt::format("{}", status),
            "Gather: IndicesTensor value 4 at [1] is out of range for InputTensor.Sizes[0] = 4 (valid -4..3)");
  EXPECT_EQ(fmt::format("{}", dmlref::Status()), "ok");
}

TEST(Fmt, Float16IsItsShortestDecimal) {
  EXPECT_EQ(fmt::format("{}", float16::from_float(0.1f)), "0.1");
  EXPECT_EQ(fmt::format("{}", float16::from_float(1.0f / 3)), "0.3333");
  EXPECT_EQ(fmt::format("{}", float16::from_bits(0x7BFF)), "65500");  // 65504: 65500 reads back
  EXPECT_EQ(fmt::format("{}", float16::from_bits(0x0001)), "6e-08");
  EXPECT_EQ(fmt::format("{}", float16::from_bits(0x8000)), "-0");
  EXPECT_EQ(fmt::format("{}", float16::from_bits(0xFC00)), "-inf");
  EXPECT_EQ(fmt::format("{}", float16::from_bits(0x7E00)), "nan");
  EXPECT_EQ(fmt::format("{:.3f}", float16::from_float(0.1f)), "0.100");  // a spec: as a float
}

// ---- tensors as numpy prints them ---------------------------------------------------------------

TEST(FmtTensor, Integers) {
  // np.arange(6, dtype=np.int32).reshape(2, 3)
  const std::int32_t a[] = {0, 1, 2, 3, 4, 5};
  EXPECT_EQ(str(a, {2, 3}),
            "[[0 1 2]\n"
            " [3 4 5]]");
  // np.arange(24, dtype=np.int16).reshape(2, 3, 4)
  std::int16_t b[24];
  for (int i = 0; i < 24; ++i) b[i] = static_cast<std::int16_t>(i);
  EXPECT_EQ(str(b, {2, 3, 4}),
            "[[[ 0  1  2  3]\n"
            "  [ 4  5  6  7]\n"
            "  [ 8  9 10 11]]\n"
            "\n"
            " [[12 13 14 15]\n"
            "  [16 17 18 19]\n"
            "  [20 21 22 23]]]");
  // np.array([-128, 5, 127], dtype=np.int8)
  const std::int8_t c[] = {-128, 5, 127};
  EXPECT_EQ(str(c, {3}), "[-128    5  127]");
  // np.array([2**64 - 1, 0], dtype=np.uint64)
  const std::uint64_t d[] = {std::numeric_limits<std::uint64_t>::max(), 0};
  EXPECT_EQ(str(d, {2}), "[18446744073709551615                    0]");
}

TEST(FmtTensor, LongRowsWrapAt75Columns) {
  // np.arange(30)
  const auto a = iota(30);
  EXPECT_EQ(str(a.data(), {30}),
            "[ 0  1  2  3  4  5  6  7  8  9 10 11 12 13 14 15 16 17 18 19 20 21 22 23\n"
            " 24 25 26 27 28 29]");
}

TEST(FmtTensor, Floats) {
  // np.array([1.5, 2.25, -0.0, np.nan, -np.inf], dtype=np.float32)
  const float a[] = {1.5f, 2.25f, -0.0f, std::numeric_limits<float>::quiet_NaN(),
                     -std::numeric_limits<float>::infinity()};
  EXPECT_EQ(str(a, {5}), "[ 1.5   2.25 -0.     nan  -inf]");
  // np.array([1/3], dtype=np.float32) and np.array([1/3]): each type's own shortest digits
  const float third32[] = {1.0f / 3};
  const double third64[] = {1.0 / 3};
  EXPECT_EQ(str(third32, {1}), "[0.33333334]");
  EXPECT_EQ(str(third64, {1}), "[0.33333333]");
  // np.array([0.001953125, 1.0]): 8 digits after the point, ties to even
  const double b[] = {0.001953125, 1.0};
  EXPECT_EQ(str(b, {2}), "[0.00195312 1.        ]");
  // np.array([np.nan, np.inf], dtype=np.float32)
  const float c[] = {std::numeric_limits<float>::quiet_NaN(), std::numeric_limits<float>::infinity()};
  EXPECT_EQ(str(c, {2}), "[nan inf]");
}

TEST(FmtTensor, ScientificNotation) {
  // np.array([1e-5, 1.5e10])
  const double a[] = {1e-5, 1.5e10};
  EXPECT_EQ(str(a, {2}), "[1.0e-05 1.5e+10]");
  // np.arange(12).reshape(3, 4) * 1e8
  double b[12];
  for (int i = 0; i < 12; ++i) b[i] = i * 1e8;
  EXPECT_EQ(str(b, {3, 4}),
            "[[0.0e+00 1.0e+08 2.0e+08 3.0e+08]\n"
            " [4.0e+08 5.0e+08 6.0e+08 7.0e+08]\n"
            " [8.0e+08 9.0e+08 1.0e+09 1.1e+09]]");
}

TEST(FmtTensor, Float16UsesHalfPrecisionDigits) {
  // np.array([0.1, 0.2, 1/3, 2.5], dtype=np.float16)
  const auto a = halves({0.1f, 0.2f, 1.0f / 3, 2.5f});
  EXPECT_EQ(str(a.data(), {4}), "[0.1    0.2    0.3333 2.5   ]");
  // np.array([0.1, 0.2, 65504, 1/3], dtype=np.float16): the extra digits are the values' own
  const auto b = halves({0.1f, 0.2f, 65504.0f, 1.0f / 3});
  EXPECT_EQ(str(b.data(), {4}), "[9.998e-02 2.000e-01 6.550e+04 3.333e-01]");
  // np.array([22.953125, 1e-5], dtype=np.float16)
  const auto c = halves({22.953125f, 1e-5f});
  EXPECT_EQ(str(c.data(), {2}), "[2.295e+01 1.001e-05]");
  // np.array([1e-4, 1, 10, 100], dtype=np.float16)
  const auto d = halves({1e-4f, 1, 10, 100});
  EXPECT_EQ(str(d.data(), {4}), "[1.e-04 1.e+00 1.e+01 1.e+02]");
}

TEST(FmtTensor, BigTensorsAreSummarised) {
  // np.arange(2000).reshape(2, 1000)
  const auto a = iota(2000);
  EXPECT_EQ(str(a.data(), {2, 1000}),
            "[[   0    1    2 ...  997  998  999]\n"
            " [1000 1001 1002 ... 1997 1998 1999]]");
  // np.arange(1001) / 8: only the shown values set the width
  std::vector<double> b(1001);
  for (std::size_t i = 0; i < b.size(); ++i) b[i] = static_cast<double>(i) / 8;
  EXPECT_EQ(str(b.data(), {1001}), "[  0.      0.125   0.25  ... 124.75  124.875 125.   ]");
  // np.arange(1100).reshape(10, 10, 11): blank lines between blocks, "..." for rows and blocks
  const auto c = iota(1100);
  EXPECT_EQ(str(c.data(), {10, 10, 11}),
            "[[[   0    1    2 ...    8    9   10]\n"
            "  [  11   12   13 ...   19   20   21]\n"
            "  [  22   23   24 ...   30   31   32]\n"
            "  ...\n"
            "  [  77   78   79 ...   85   86   87]\n"
            "  [  88   89   90 ...   96   97   98]\n"
            "  [  99  100  101 ...  107  108  109]]\n"
            "\n"
            " [[ 110  111  112 ...  118  119  120]\n"
            "  [ 121  122  123 ...  129  130  131]\n"
            "  [ 132  133  134 ...  140  141  142]\n"
            "  ...\n"
            "  [ 187  188  189 ...  195  196  197]\n"
            "  [ 198  199  200 ...  206  207  208]\n"
            "  [ 209  210  211 ...  217  218  219]]\n"
            "\n"
            " [[ 220  221  222 ...  228  229  230]\n"
            "  [ 231  232  233 ...  239  240  241]\n"
            "  [ 242  243  244 ...  250  251  252]\n"
            "  ...\n"
            "  [ 297  298  299 ...  305  306  307]\n"
            "  [ 308  309  310 ...  316  317  318]\n"
            "  [ 319  320  321 ...  327  328  329]]\n"
            "\n"
            " ...\n"
            "\n"
            " [[ 770  771  772 ...  778  779  780]\n"
            "  [ 781  782  783 ...  789  790  791]\n"
            "  [ 792  793  794 ...  800  801  802]\n"
            "  ...\n"
            "  [ 847  848  849 ...  855  856  857]\n"
            "  [ 858  859  860 ...  866  867  868]\n"
            "  [ 869  870  871 ...  877  878  879]]\n"
            "\n"
            " [[ 880  881  882 ...  888  889  890]\n"
            "  [ 891  892  893 ...  899  900  901]\n"
            "  [ 902  903  904 ...  910  911  912]\n"
            "  ...\n"
            "  [ 957  958  959 ...  965  966  967]\n"
            "  [ 968  969  970 ...  976  977  978]\n"
            "  [ 979  980  981 ...  987  988  989]]\n"
            "\n"
            " [[ 990  991  992 ...  998  999 1000]\n"
            "  [1001 1002 1003 ... 1009 1010 1011]\n"
            "  [1012 1013 1014 ... 1020 1021 1022]\n"
            "  ...\n"
            "  [1067 1068 1069 ... 1075 1076 1077]\n"
            "  [1078 1079 1080 ... 1086 1087 1088]\n"
            "  [1089 1090 1091 ... 1097 1098 1099]]]");
}

TEST(FmtTensor, StridesAreHonoured) {
  // (np.arange(6, dtype=np.float32).reshape(2, 3) / 4).T: a transposed view
  const float a[] = {0, 0.25f, 0.5f, 0.75f, 1, 1.25f};
  EXPECT_EQ(fmt::format("{}", TensorView<const float>(a, {3, 2}, {1, 3})),
            "[[0.   0.75]\n"
            " [0.25 1.  ]\n"
            " [0.5  1.25]]");
  // np.broadcast_to(np.array([7, 8, 9], dtype=np.uint8), (2, 3)): stride 0
  const std::uint8_t b[] = {7, 8, 9};
  EXPECT_EQ(fmt::format("{}", TensorView<const std::uint8_t>(b, {2, 3}, {0, 1})),
            "[[7 8 9]\n"
            " [7 8 9]]");
}

TEST(FmtTensor, ElementSpec) {
  const float a[] = {1, 2.5f, -3.25f, 10};
  EXPECT_EQ(fmt::format("{:.2f}", TensorView<const float>(a, {2, 2})),
            "[[ 1.00  2.50]\n"
            " [-3.25 10.00]]");
  const std::uint8_t b[] = {1, 255};
  EXPECT_EQ(fmt::format("{:#x}", TensorView<const std::uint8_t>(b, {2})), "[ 0x1 0xff]");
  const auto c = halves({0.5f, -1});
  EXPECT_EQ(fmt::format("{:+.1f}", TensorView<const float16>(c.data(), {2})), "[+0.5 -1.0]");
}

TEST(FmtTensor, MutableViewsPrintToo) {
  std::int64_t a[] = {5, 6};
  EXPECT_EQ(fmt::format("{}", TensorView<std::int64_t>(a, {1, 2})), "[[5 6]]");
}

TEST(FmtTensor, InvalidViewsSayWhy) {
  EXPECT_EQ(fmt::format("{}", TensorView<const float>()),
            "<invalid tensor: format: TensorView.DimensionCount must be 1..8, but is 0>");
  const float a[] = {1};
  EXPECT_EQ(fmt::format("{}", TensorView<const float>(a, {1, 0})),
            "<invalid tensor: format: TensorView.Sizes[1] must be at least 1, but is 0 (DirectML has no empty tensors)>");
}

// ---- descriptors --------------------------------------------------------------------------------

TEST(FmtDesc, PrintsLikeTheTypedView) {
  // np.array([[0.5, -2], [65504, 1e-3]], dtype=np.float16)
  const auto data = halves({0.5f, -2, 65504, 1e-3f});
  const std::int64_t sizes[] = {2, 2};
  const dmlref::TensorDesc desc{DataType::FLOAT16, 2, sizes, nullptr, 8, data.data()};
  EXPECT_EQ(fmt::format("{}", desc), fmt::format("{}", TensorView<const float16>(data.data(), {2, 2})));
  EXPECT_EQ(fmt::format("{}", desc),
            "[[ 5.00e-01 -2.00e+00]\n"
            " [ 6.55e+04  1.00e-03]]");
  std::uint32_t out[3] = {1, 2, 3};
  const std::int64_t out_sizes[] = {3};
  const std::int64_t out_strides[] = {1};
  const dmlref::MutableTensorDesc mutable_desc{DataType::UINT32, 1, out_sizes, out_strides, sizeof out, out};
  EXPECT_EQ(fmt::format("{}", mutable_desc), "[1 2 3]");
}

TEST(FmtDesc, ReadsUnalignedElements) {
  alignas(8) unsigned char bytes[1 + 2 * 8] = {};
  const double values[2] = {0.5, -1.25};
  std::memcpy(bytes + 1, values, sizeof values);
  const std::int64_t sizes[] = {2};
  const dmlref::TensorDesc desc{DataType::FLOAT64, 1, sizes, nullptr, 16, bytes + 1};
  EXPECT_EQ(fmt::format("{}", desc), "[ 0.5  -1.25]");
}

TEST(FmtDesc, InvalidDescriptorsAreNotRead) {
  const float data[4] = {};
  const std::int64_t sizes[] = {2, 3};
  // The strides address 6 floats, the buffer holds 4: nothing is read.
  const dmlref::TensorDesc small{DataType::FLOAT32, 2, sizes, nullptr, sizeof data, data};
  EXPECT_EQ(fmt::format("{}", small),
            "<invalid tensor: format: TensorDesc.TotalTensorSizeInBytes must be at least 24, but is 16 "
            "((last element offset + 1) x element size)>");
  const dmlref::TensorDesc untyped{DataType::UNKNOWN, 2, sizes, nullptr, 64, data};
  EXPECT_EQ(fmt::format("{}", untyped).rfind("<invalid tensor: format: TensorDesc.DataType", 0), 0u);
  const dmlref::TensorDesc no_sizes{DataType::FLOAT32, 2, nullptr, nullptr, 64, data};
  EXPECT_EQ(fmt::format("{}", no_sizes).rfind("<invalid tensor: format: TensorDesc.Sizes", 0), 0u);
  const dmlref::TensorDesc nine{DataType::FLOAT32, 9, sizes, nullptr, 64, data};
  EXPECT_EQ(fmt::format("{}", nine).rfind("<invalid tensor: format: TensorDesc.DimensionCount", 0), 0u);
}

}  // namespace
