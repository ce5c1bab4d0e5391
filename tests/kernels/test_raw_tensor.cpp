// How a call sees its tensors (detail/tensor.hpp, runtime/tensor_desc.hpp): a RawTensor refers to
// the sizes and strides of its view, or of the Shapes made once from its descriptor, instead of
// copying them, so that a call copies no Shape. What must hold for that to be safe: a ShapeRef
// binds to lvalues only, reads what it refers to, compares as the Shape does; the keepers of a
// RawTensor (golden's TensorRef) keep their own Shapes and cannot be copied away from them.
#include <gtest/gtest.h>

#include <cstdint>
#include <type_traits>
#include <vector>

#include "dmlref/dmlref.hpp"
#include "dmlref/gtest.hpp"

namespace {

using dmlref::Shape;
using dmlref::TensorView;
using dmlref::detail::ShapeRef;

// A temporary Shape would be gone before the call reads it: binding one does not compile.
static_assert(std::is_constructible_v<ShapeRef, const Shape&>);
static_assert(std::is_constructible_v<ShapeRef, Shape&>);
static_assert(!std::is_constructible_v<ShapeRef, Shape>);
static_assert(!std::is_constructible_v<ShapeRef, Shape&&>);
static_assert(!std::is_assignable_v<ShapeRef&, Shape>);
// TensorRef's RawTensor refers to its own Shapes: a copy would refer to the original's.
static_assert(!std::is_copy_constructible_v<dmlref::testing::TensorRef>);
static_assert(!std::is_copy_assignable_v<dmlref::testing::TensorRef>);

TEST(RawTensor, OfAViewRefersToTheViewsSizesAndStrides) {
  std::vector<float> data(4 * 6);
  const TensorView<float> view(data.data(), {4, 3}, {6, 2});
  const dmlref::detail::RawTensor raw = dmlref::detail::raw("InputTensor", view);
  EXPECT_EQ(&raw.sizes.get(), &view.sizes());
  EXPECT_EQ(&raw.strides.get(), &view.strides());
  EXPECT_EQ(raw.data, reinterpret_cast<unsigned char*>(data.data()));
  EXPECT_EQ(raw.type, dmlref::DataType::FLOAT32);
  EXPECT_EQ(raw.buffer_bytes, -1);
}

TEST(RawTensor, OfADescriptorRefersToItsShapesWithPackedStridesWhenItHasNone) {
  std::vector<std::int32_t> data(2 * 3 * 5);
  const std::int64_t sizes[] = {2, 3, 5};
  const std::int64_t strides[] = {15, 5, 1};
  dmlref::TensorDesc desc{dmlref::DataType::INT32, 3, sizes, nullptr, sizeof(std::int32_t) * data.size(),
                          data.data()};
  const dmlref::detail::DescShapes packed = dmlref::detail::shapes_of(desc);
  EXPECT_EQ(packed.sizes, Shape({2, 3, 5}));
  EXPECT_EQ(packed.strides, Shape({15, 5, 1}));
  const dmlref::detail::RawTensor raw = dmlref::detail::raw("IndicesTensor", desc, packed);
  EXPECT_EQ(&raw.sizes.get(), &packed.sizes);
  EXPECT_EQ(&raw.strides.get(), &packed.strides);
  EXPECT_EQ(raw.buffer_bytes, static_cast<std::int64_t>(desc.TotalTensorSizeInBytes));

  desc.Strides = strides;
  desc.DimensionCount = 2;  // the first DimensionCount entries only
  const dmlref::detail::DescShapes given = dmlref::detail::shapes_of(desc);
  EXPECT_EQ(given.sizes, Shape({2, 3}));
  EXPECT_EQ(given.strides, Shape({15, 5}));
}

TEST(RawTensor, ShapeRefReadsAndComparesAsTheShapeItRefersTo) {
  Shape a{3, 1, 4};
  const Shape b{3, 1, 4}, c{3, 1, 5}, shorter{3, 1};
  const ShapeRef ra = a, rb = b, rc = c;
  EXPECT_EQ(ra.rank(), 3);
  EXPECT_EQ(ra[2], 4);
  EXPECT_EQ(ra[0], 3);
  EXPECT_EQ(&ra.get(), &a);
  EXPECT_TRUE(ra == rb && ra == b && b == ra);
  EXPECT_TRUE(ra != rc && ra != c && c != ra);
  EXPECT_FALSE(ra == shorter || shorter == ra);
  a[2] = 5;  // read in place, never copied
  EXPECT_TRUE(ra == rc);
  EXPECT_EQ(ShapeRef().rank(), 0);  // a default RawTensor has no dimensions
  EXPECT_EQ(dmlref::detail::RawTensor().sizes.rank(), 0);
}

// A view made inside the call's expression lives until the call returns: the engines' pattern.
TEST(RawTensor, ViewsMadeInTheCallExpressionAreReadWhileTheyLive) {
  std::vector<float> input(5 * 3), output(2 * 3, -1.0f), expected(2 * 3);
  for (std::size_t i = 0; i < input.size(); ++i) input[i] = static_cast<float>(i) * 0.5f;
  const std::vector<std::int64_t> indices = {4, 1};
  for (int r = 0; r < 2; ++r)
    for (int col = 0; col < 3; ++col) expected[r * 3 + col] = input[static_cast<std::size_t>(indices[r]) * 3 + col];
  const std::int64_t rows = 5, cols = 3, count = 2;
  const dmlref::Status s = dmlref::try_gather(TensorView<const float>(input.data(), {rows, cols}),
                                              TensorView<const std::int64_t>(indices.data(), {1, count}),
                                              TensorView<float>(output.data(), {count, cols}), {0, 1});
  ASSERT_TRUE(s.ok()) << s.message();
  EXPECT_EQ(output, expected);
}

}  // namespace
