// dmlref without exceptions: this file is compiled three ways (tests/noexcept/CMakeLists.txt):
//   - with -fno-exceptions -fno-rtti, as engines such as Chromium build;
//   - with exceptions on but DMLREF_NO_EXCEPTIONS defined;
//   - with exceptions on (the control: it proves the probe below can see the throwing forms).
// In the first two the throwing forms (dmlref::gather, ..., dmlref::Exception) must be absent and
// every operator must still work through its try_ form, in the typed layer (TensorView) and in the
// dispatch layer (TensorDesc). Plain main, no test framework; exits non-zero on any failure.
#include <dmlref/dmlref.hpp>

#include <cstdint>
#include <cstdio>
#include <cstring>
#include <type_traits>
#include <utility>
#include <vector>

#ifndef DMLREF_EXPECT_HAS_EXCEPTIONS
#  error "the build defines DMLREF_EXPECT_HAS_EXCEPTIONS to 0 or 1"
#endif
static_assert(DMLREF_HAS_EXCEPTIONS == DMLREF_EXPECT_HAS_EXCEPTIONS,
              "DMLREF_HAS_EXCEPTIONS does not follow the compiler's exception mode / DMLREF_NO_EXCEPTIONS");
#if defined(DMLREF_EXPECT_FNO_EXCEPTIONS) && (defined(__cpp_exceptions) || defined(__EXCEPTIONS))
#  error "this variant must be compiled with -fno-exceptions"
#endif

// The throwing forms are found by argument-dependent lookup (the arguments are dmlref types), so an
// unqualified call in a SFINAE context tells whether they exist without naming them directly.
namespace probe {
template <class... A>
auto throwing_gather(int) -> decltype(gather(std::declval<A>()...), std::true_type{});
template <class...>
std::false_type throwing_gather(...);
template <class... A>
auto throwing_scatter_nd(int) -> decltype(scatter_nd(std::declval<A>()...), std::true_type{});
template <class...>
std::false_type throwing_scatter_nd(...);
}  // namespace probe

using GatherArgs = decltype(probe::throwing_gather<dmlref::TensorView<const float>, dmlref::TensorView<const std::int32_t>,
                                                   dmlref::TensorView<float>, dmlref::GatherParams>(0));
using ScatterNDArgs =
    decltype(probe::throwing_scatter_nd<dmlref::TensorDesc, dmlref::TensorDesc, dmlref::TensorDesc,
                                        dmlref::MutableTensorDesc, dmlref::ScatterNDParams>(0));
static_assert(GatherArgs::value == (DMLREF_EXPECT_HAS_EXCEPTIONS != 0),
              "dmlref::gather (throwing) must exist exactly when exceptions are enabled");
static_assert(ScatterNDArgs::value == (DMLREF_EXPECT_HAS_EXCEPTIONS != 0),
              "dmlref::scatter_nd (throwing) must exist exactly when exceptions are enabled");

namespace {

using dmlref::DataType;
using dmlref::ErrorCode;
using dmlref::Shape;

int passed = 0;
int failed = 0;

void check(bool ok, const char* what, int line) {
  if (ok) {
    ++passed;
  } else {
    ++failed;
    std::printf("FAILED (line %d): %s\n", line, what);
  }
}
#define CHECK(condition) check((condition), #condition, __LINE__)

/// A packed tensor owning its values; `sizes` also kept as a vector for TensorDesc.
template <class T>
struct Buffer {
  std::vector<std::int64_t> sizes;
  std::vector<T> values;

  Shape shape() const { return Shape::from(sizes.data(), sizes.size()); }
  dmlref::TensorView<const T> in() const { return {values.data(), shape()}; }
  dmlref::TensorView<T> out() { return {values.data(), shape()}; }
  dmlref::TensorDesc desc(DataType type = dmlref::data_type_v<T>) const {
    return {type, static_cast<std::uint32_t>(sizes.size()), sizes.data(), nullptr, values.size() * sizeof(T),
            values.data()};
  }
  dmlref::MutableTensorDesc mutable_desc(DataType type = dmlref::data_type_v<T>) {
    return {type, static_cast<std::uint32_t>(sizes.size()), sizes.data(), nullptr, values.size() * sizeof(T),
            values.data()};
  }
};

/// An output of `count` elements filled with a sentinel, to see that failing calls write nothing.
template <class T>
Buffer<T> sentinel(std::vector<std::int64_t> sizes, T fill) {
  std::size_t count = 1;
  for (std::int64_t s : sizes) count *= static_cast<std::size_t>(s);
  return {std::move(sizes), std::vector<T>(count, fill)};
}

template <class T>
bool untouched(const Buffer<T>& b, T fill) {
  for (const T& v : b.values)
    if (std::memcmp(&v, &fill, sizeof(T)) != 0) return false;
  return true;
}

std::vector<std::uint16_t> bits(const std::vector<dmlref::float16>& values) {
  std::vector<std::uint16_t> out;
  for (dmlref::float16 v : values) out.push_back(v.bits);
  return out;
}
std::vector<dmlref::float16> halves(const std::vector<float>& values) {
  std::vector<dmlref::float16> out;
  for (float v : values) out.push_back(dmlref::float16::from_float(v));
  return out;
}

void gather() {
  // Typed: G-1.
  const Buffer<float> input{{4}, {11, 12, 13, 14}};
  const Buffer<std::uint32_t> indices{{5}, {3, 1, 3, 0, 2}};
  const dmlref::GatherParams params{0, 1};
  const dmlref::Result<Shape> sizes = dmlref::gather_output_sizes(input.shape(), indices.shape(), params);
  CHECK(sizes.ok() && *sizes == Shape({5}));
  Buffer<float> output = sentinel<float>({5}, -1.0f);
  CHECK(dmlref::try_gather(input.in(), indices.in(), output.out(), params).ok());
  CHECK((output.values == std::vector<float>{14, 12, 14, 11, 13}));

  // Dispatch: G-2 on FLOAT16 data with INT64 indices, compared bit for bit.
  const Buffer<dmlref::float16> rows{{3, 2}, halves({1, 2, 3, 4, 5, 6})};
  const Buffer<std::int64_t> picks{{1, 4}, {0, 1, -2, 2}};
  Buffer<dmlref::float16> picked = sentinel<dmlref::float16>({4, 2}, dmlref::float16::from_bits(0x7E00));
  CHECK(dmlref::try_gather(rows.desc(), picks.desc(), picked.mutable_desc(), params).ok());
  CHECK(bits(picked.values) == bits(halves({1, 2, 3, 4, 3, 4, 5, 6})));

  // Error: X-12, an unsigned index is never negative; nothing is written.
  const Buffer<std::uint32_t> bad{{2}, {0, 4294967295u}};
  Buffer<float> unchanged = sentinel<float>({2}, -1.0f);
  const dmlref::Status status = dmlref::try_gather(input.in(), bad.in(), unchanged.out(), params);
  CHECK(status.code() == ErrorCode::index_out_of_range);
  CHECK(status.error().actual.unsigned_integer == 4294967295u && status.error().position == Shape({1}));
  CHECK(status.message() ==
        "Gather: IndicesTensor value 4294967295 at [1] is out of range for InputTensor.Sizes[0] = 4 (valid 0..3)");
  CHECK(untouched(unchanged, -1.0f));
}

void gather_elements() {
  // Typed: GE-1.
  const Buffer<float> input{{3, 3}, {1, 2, 3, 4, 5, 6, 7, 8, 9}};
  const Buffer<std::uint32_t> indices{{2, 3}, {1, 2, 0, 2, 0, 0}};
  Buffer<float> output = sentinel<float>({2, 3}, -1.0f);
  CHECK(dmlref::try_gather_elements(input.in(), indices.in(), output.out(), {0}).ok());
  CHECK((output.values == std::vector<float>{4, 8, 3, 7, 2, 3}));

  // Dispatch: X-5 on INT32 data with negative INT64 indices.
  const Buffer<std::int32_t> data{{2, 3}, {1, 2, 3, 4, 5, 6}};
  const Buffer<std::int64_t> along{{2, 2}, {-1, 0, 1, -3}};
  Buffer<std::int32_t> taken = sentinel<std::int32_t>({2, 2}, -99);
  CHECK(dmlref::try_gather_elements(data.desc(), along.desc(), taken.mutable_desc(), {1}).ok());
  CHECK((taken.values == std::vector<std::int32_t>{3, 1, 5, 4}));

  // Error: GE-1 as printed, with a UINT32 OutputTensor.
  Buffer<std::uint32_t> wrong = sentinel<std::uint32_t>({2, 3}, 77u);
  const dmlref::Status status =
      dmlref::try_gather_elements(input.desc(), indices.desc(), wrong.mutable_desc(), {0});
  CHECK(status.code() == ErrorCode::data_type_mismatch);
  CHECK(std::strcmp(status.error().tensor, "OutputTensor") == 0 && std::strcmp(status.error().field, "DataType") == 0);
  CHECK(untouched(wrong, 77u));
}

void gather_nd() {
  // Typed: GN-2.
  const Buffer<float> input{{1, 2, 2, 2}, {0, 1, 2, 3, 4, 5, 6, 7}};
  const Buffer<std::uint32_t> indices{{1, 1, 2, 2}, {0, 1, 1, 0}};
  Buffer<float> output = sentinel<float>({1, 1, 2, 2}, -1.0f);
  CHECK(dmlref::try_gather_nd(input.in(), indices.in(), output.out(), {3, 2}).ok());
  CHECK((output.values == std::vector<float>{2, 3, 4, 5}));

  // Dispatch: X-7 on FLOAT64 data with negative INT32 tuples.
  const Buffer<double> square{{2, 2}, {0, 1, 2, 3}};
  const Buffer<std::int32_t> tuples{{2, 2}, {-1, 0, 0, -1}};
  Buffer<double> picked = sentinel<double>({1, 2}, -1.0);
  CHECK(dmlref::try_gather_nd(square.desc(), tuples.desc(), picked.mutable_desc(), {2, 2}).ok());
  CHECK((picked.values == std::vector<double>{2, 1}));

  // Error: tuples of 3 coordinates for an InputDimensionCount of 2.
  const Buffer<std::int32_t> long_tuples{{1, 3}, {0, 0, 0}};
  Buffer<double> unchanged = sentinel<double>({1, 1}, -1.0);
  const dmlref::Status status =
      dmlref::try_gather_nd(square.desc(), long_tuples.desc(), unchanged.mutable_desc(), {2, 2});
  CHECK(status.code() == ErrorCode::shape_mismatch);
  CHECK(std::strcmp(status.error().tensor, "IndicesTensor") == 0 && status.error().field_index == 1);
  CHECK(untouched(unchanged, -1.0));
}

void gather_nd1() {
  // Typed: GN1-2.
  const Buffer<float> input{{1, 3, 2, 2}, {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11}};
  const Buffer<std::uint32_t> indices{{1, 3, 2, 2}, {0, 0, 1, 1, 1, 1, 0, 0, 0, 1, 1, 0}};
  const dmlref::GatherND1Params params{3, 3, 1};
  const dmlref::Result<Shape> sizes = dmlref::gather_nd1_output_sizes(input.shape(), indices.shape(), params);
  CHECK(sizes.ok() && *sizes == Shape({1, 1, 3, 2}));
  Buffer<float> output = sentinel<float>({1, 1, 3, 2}, -1.0f);
  CHECK(dmlref::try_gather_nd1(input.in(), indices.in(), output.out(), params).ok());
  CHECK((output.values == std::vector<float>{0, 3, 7, 4, 9, 10}));

  // Dispatch: X-8 on INT8 data with UINT32 tuples.
  const Buffer<std::int8_t> cube{{2, 2, 2}, {0, 1, 2, 3, 4, 5, 6, 7}};
  const Buffer<std::uint32_t> rows{{1, 2, 1}, {1, 0}};
  Buffer<std::int8_t> slices = sentinel<std::int8_t>({1, 2, 2}, -1);
  CHECK(dmlref::try_gather_nd1(cube.desc(), rows.desc(), slices.mutable_desc(), {3, 2, 1}).ok());
  CHECK((slices.values == std::vector<std::int8_t>{2, 3, 4, 5}));

  // Error: batch sizes of IndicesTensor (3) and InputTensor (2) disagree.
  const Buffer<std::uint32_t> three_batches{{1, 3, 1}, {0, 0, 0}};
  Buffer<std::int8_t> unchanged = sentinel<std::int8_t>({1, 3, 2}, -1);
  const dmlref::Status status =
      dmlref::try_gather_nd1(cube.desc(), three_batches.desc(), unchanged.mutable_desc(), {3, 2, 1});
  CHECK(status.code() == ErrorCode::shape_mismatch);
  CHECK(untouched(unchanged, static_cast<std::int8_t>(-1)));
}

void scatter() {
  // Typed: S-2 (corrected input sizes).
  const Buffer<float> input{{3, 3}, {0, 0, 0, 0, 0, 0, 0, 0, 0}};
  const Buffer<std::uint32_t> indices{{2, 3}, {1, 0, 2, 0, 2, 1}};
  const Buffer<float> updates{{2, 3}, {10, 11, 12, 20, 21, 22}};
  Buffer<float> output = sentinel<float>({3, 3}, -1.0f);
  CHECK(dmlref::try_scatter(input.in(), indices.in(), updates.in(), output.out(), {0}).ok());
  CHECK((output.values == std::vector<float>{20, 11, 0, 10, 0, 22, 0, 21, 12}));

  // Dispatch: X-10 on UINT16 data with INT32 indices, through the SCATTER_ELEMENTS name.
  const Buffer<std::uint16_t> zeros{{2, 3}, {0, 0, 0, 0, 0, 0}};
  const Buffer<std::int32_t> where{{2, 1}, {-1, 0}};
  const Buffer<std::uint16_t> what{{2, 1}, {7, 8}};
  Buffer<std::uint16_t> marked = sentinel<std::uint16_t>({2, 3}, 99);
  CHECK(dmlref::try_scatter_elements(zeros.desc(), where.desc(), what.desc(), marked.mutable_desc(), {1}).ok());
  CHECK((marked.values == std::vector<std::uint16_t>{0, 0, 7, 8, 0, 0}));

  // Error: S-1 with the opt-in collision check (index 3 twice); the default lets the later win.
  const Buffer<float> line{{5}, {0, 1, 2, 3, 4}};
  const Buffer<std::uint32_t> twice{{4}, {3, 1, 3, 0}};
  const Buffer<float> values{{4}, {5, 6, 7, 8}};
  Buffer<float> result = sentinel<float>({5}, -1.0f);
  dmlref::Options check_collisions;
  check_collisions.check_collisions = true;
  const dmlref::Status status =
      dmlref::try_scatter(line.in(), twice.in(), values.in(), result.out(), {0}, check_collisions);
  CHECK(status.code() == ErrorCode::scatter_collision);
  CHECK(status.error().position == Shape({2}) && status.error().target_position == Shape({3}));
  CHECK(untouched(result, -1.0f));
  CHECK(dmlref::try_scatter(line.in(), twice.in(), values.in(), result.out(), {0}).ok());
  CHECK((result.values == std::vector<float>{8, 6, 2, 7, 4}));
}

void scatter_nd() {
  // Typed: SN-1.
  const Buffer<float> input{{1, 8}, {1, 2, 3, 4, 5, 6, 7, 8}};
  const Buffer<std::uint32_t> indices{{4, 1}, {4, 3, 1, 7}};
  const Buffer<float> updates{{1, 4}, {9, 10, 11, 12}};
  Buffer<float> output = sentinel<float>({1, 8}, -1.0f);
  CHECK(dmlref::try_scatter_nd(input.in(), indices.in(), updates.in(), output.out(), {1, 2}).ok());
  CHECK((output.values == std::vector<float>{1, 11, 3, 10, 9, 6, 7, 12}));

  // Dispatch, in place: X-11 on FLOAT32 with INT64 indices; OutputTensor is InputTensor itself.
  Buffer<float> cache{{4, 3}, {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12}};
  const Buffer<std::int64_t> slots{{2, 1}, {3, -4}};
  const Buffer<float> fresh{{2, 3}, {10, 20, 30, 40, 50, 60}};
  CHECK(dmlref::try_scatter_nd(cache.desc(), slots.desc(), fresh.desc(), cache.mutable_desc(), {2, 2}).ok());
  CHECK((cache.values == std::vector<float>{40, 50, 60, 4, 5, 6, 7, 8, 9, 10, 20, 30}));

  // Error: FLOAT32 indices, as the ScatterND page prints them.
  const Buffer<float> float_indices{{4, 1}, {4, 3, 1, 7}};
  Buffer<float> unchanged = sentinel<float>({1, 8}, -1.0f);
  const dmlref::Status status = dmlref::try_scatter_nd(input.desc(), float_indices.desc(), updates.desc(),
                                                       unchanged.mutable_desc(), {1, 2});
  CHECK(status.code() == ErrorCode::unsupported_index_type);
  CHECK(untouched(unchanged, -1.0f));
}

}  // namespace

int main() {
  gather();
  gather_elements();
  gather_nd();
  gather_nd1();
  scatter();
  scatter_nd();
  std::printf("%s: %d passed, %d failed\n", DMLREF_NOEXCEPT_VARIANT, passed, failed);
  return failed == 0 ? 0 : 1;
}
