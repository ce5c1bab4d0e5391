// explain.hpp's onnx::explain_*: ONNX's arguments and natural ranks (0-d and empty tensors
// included), checked element by element against the ONNX helper's own result, with the helper's
// errors passed through and coordinates outside the output reported in natural terms.
#include <dmlref/explain.hpp>
#include <dmlref/onnx.hpp>
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <functional>
#include <string>
#include <vector>

namespace {

using dmlref::DataType;
using dmlref::Reduction;
using dmlref::Shape;

/// A natural-rank tensor over its own bytes: FLOAT32 values 0.5, 1.5, ... or the INT64 values given.
struct Tensor {
  DataType type;
  std::vector<std::int64_t> sizes;
  std::vector<unsigned char> bytes;

  static std::size_t count(const std::vector<std::int64_t>& s) {
    std::size_t n = 1;
    for (std::int64_t v : s) n *= static_cast<std::size_t>(v);
    return n;
  }
  static Tensor floats(std::vector<std::int64_t> sizes, float first = 0.5f) {
    Tensor t{DataType::FLOAT32, std::move(sizes), {}};
    t.bytes.resize(4 * count(t.sizes) + 4);
    for (std::size_t k = 0; k < count(t.sizes); ++k) {
      const float v = first + static_cast<float>(k);
      std::memcpy(t.bytes.data() + 4 * k, &v, 4);
    }
    return t;
  }
  static Tensor int64s(std::vector<std::int64_t> sizes, const std::vector<std::int64_t>& values) {
    Tensor t{DataType::INT64, std::move(sizes), {}};
    t.bytes.resize(8 * values.size() + 8);
    if (!values.empty()) std::memcpy(t.bytes.data(), values.data(), 8 * values.size());
    return t;
  }
  dmlref::TensorDesc desc() const {
    return {type, static_cast<std::uint32_t>(sizes.size()), sizes.data(), nullptr, bytes.size(), bytes.data()};
  }
  dmlref::MutableTensorDesc output() {
    return {type, static_cast<std::uint32_t>(sizes.size()), sizes.data(), nullptr, bytes.size(), bytes.data()};
  }
  std::uint64_t bits(const std::vector<std::int64_t>& at) const {
    std::size_t k = 0;
    for (std::size_t d = 0; d < at.size(); ++d) k = k * static_cast<std::size_t>(sizes[d]) + static_cast<std::size_t>(at[d]);
    std::uint32_t b = 0;
    std::memcpy(&b, bytes.data() + 4 * k, 4);
    return b;
  }
};

using Explain = std::function<dmlref::Result<dmlref::Provenance>(const Shape&)>;

/// Explains every element of `out` (natural rank) and checks it against the helper's result.
void expect_every_element_explained(const Tensor& out, const Explain& explain, int input_rank, int indices_rank,
                                    int updates_rank = -1) {
  std::vector<std::int64_t> at(out.sizes.size(), 0);
  const std::size_t n = Tensor::count(out.sizes);
  for (std::size_t k = 0; k < n; ++k) {
    for (std::size_t d = at.size(), rest = k; d-- > 0; rest /= static_cast<std::size_t>(out.sizes[d]))
      at[d] = static_cast<std::int64_t>(rest % static_cast<std::size_t>(out.sizes[d]));
    const Shape s = Shape::from(at.data(), at.size());
    const dmlref::Result<dmlref::Provenance> p = explain(s);
    ASSERT_TRUE(p.ok()) << p.status().message();
    EXPECT_TRUE(p->onnx);
    EXPECT_EQ(p->output, s);
    EXPECT_EQ(p->value.bits, out.bits(at)) << dmlref::to_string(*p);
    EXPECT_EQ(p->input.rank(), input_rank) << dmlref::to_string(*p);
    for (const dmlref::IndexRead& r : p->indices) EXPECT_EQ(r.coordinate.rank(), indices_rank);
    for (const dmlref::Update& u : p->updates) {
      EXPECT_EQ(u.coordinate.rank(), updates_rank);
      for (const dmlref::IndexRead& r : u.indices) EXPECT_EQ(r.coordinate.rank(), indices_rank);
    }
  }
}

TEST(ExplainOnnx, GatherWithAScalarIndexAndANegativeAxis) {
  // data [2, 3], indices 0-d = -1, axis -1: output [2] = data[:, 2]. DirectML pads to D = 2.
  Tensor data = Tensor::floats({2, 3}), indices = Tensor::int64s({}, {-1}), out = Tensor::floats({2}, 0);
  ASSERT_TRUE(dmlref::onnx::try_gather(data.desc(), indices.desc(), out.output(), -1).ok());
  const auto p = dmlref::onnx::explain_gather(data.desc(), indices.desc(), out.desc(), -1, {1});
  ASSERT_TRUE(p.ok()) << p.status().message();
  EXPECT_EQ(dmlref::to_string(*p), "output[1] = 5.5 (0x40b00000) = input[1,2], from indices[] = -1 → 2 (axis 1)");
  EXPECT_STREQ(p->op, "Gather");
  expect_every_element_explained(
      out, [&](const Shape& at) { return dmlref::onnx::explain_gather(data.desc(), indices.desc(), out.desc(), -1, at); },
      2, 0);
}

TEST(ExplainOnnx, AZeroDimensionalOutputHasOneElement) {
  // data [5], indices 0-d = -2: output is 0-d; its coordinate is {} (DirectML's is {0}).
  Tensor data = Tensor::floats({5}), indices = Tensor::int64s({}, {-2}), out = Tensor::floats({}, 0);
  ASSERT_TRUE(dmlref::onnx::try_gather(data.desc(), indices.desc(), out.output(), 0).ok());
  const auto p = dmlref::onnx::explain_gather(data.desc(), indices.desc(), out.desc(), 0, Shape{});
  ASSERT_TRUE(p.ok()) << p.status().message();
  EXPECT_EQ(dmlref::to_string(*p), "output[] = 3.5 (0x40600000) = input[3], from indices[] = -2 → 3 (axis 0)");
  EXPECT_EQ(p->value.bits, out.bits({}));
  EXPECT_EQ(dmlref::onnx::explain_gather(data.desc(), indices.desc(), out.desc(), 0, {0}).status().message(),
            "Gather: coordinate [0] is not an element of output: its length must be 0, but is 1");
}

TEST(ExplainOnnx, GatherElementsWithSmallerIndices) {
  // indices [2, 2] into data [3, 3] along axis 1: the DirectML call reads data cropped to [2, 3].
  Tensor data = Tensor::floats({3, 3}), indices = Tensor::int64s({2, 2}, {2, 0, -1, 1}), out = Tensor::floats({2, 2}, 0);
  ASSERT_TRUE(dmlref::onnx::try_gather_elements(data.desc(), indices.desc(), out.output(), 1).ok());
  const auto p = dmlref::onnx::explain_gather_elements(data.desc(), indices.desc(), out.desc(), 1, {1, 0});
  ASSERT_TRUE(p.ok()) << p.status().message();
  EXPECT_EQ(dmlref::to_string(*p), "output[1,0] = 5.5 (0x40b00000) = input[1,2], from indices[1,0] = -1 → 2 (axis 1)");
  expect_every_element_explained(
      out, [&](const Shape& at) { return dmlref::onnx::explain_gather_elements(data.desc(), indices.desc(), out.desc(), 1, at); },
      2, 2);
}

TEST(ExplainOnnx, GatherNDWithBatchDims) {
  // data [2, 2, 3], indices [2, 1, 1], batch_dims 1: output [2, 1, 3] = data[b, indices[b, g, 0], :].
  Tensor data = Tensor::floats({2, 2, 3}), indices = Tensor::int64s({2, 1, 1}, {1, -2}), out = Tensor::floats({2, 1, 3}, 0);
  ASSERT_TRUE(dmlref::onnx::try_gather_nd(data.desc(), indices.desc(), out.output(), 1).ok());
  const auto p = dmlref::onnx::explain_gather_nd(data.desc(), indices.desc(), out.desc(), 1, {0, 0, 2});
  ASSERT_TRUE(p.ok()) << p.status().message();
  EXPECT_EQ(dmlref::to_string(*p), "output[0,0,2] = 5.5 (0x40b00000) = input[0,1,2], from indices[0,0,0] = 1 → 1 (dimension 1)");
  for (std::int64_t batch_dims : {0, 1}) {
    Tensor o = Tensor::floats(batch_dims == 0 ? std::vector<std::int64_t>{2, 1, 2, 3} : std::vector<std::int64_t>{2, 1, 3}, 0);
    ASSERT_TRUE(dmlref::onnx::try_gather_nd(data.desc(), indices.desc(), o.output(), batch_dims).ok());
    expect_every_element_explained(
        o, [&](const Shape& at) { return dmlref::onnx::explain_gather_nd(data.desc(), indices.desc(), o.desc(), batch_dims, at); },
        3, 3);
  }
}

TEST(ExplainOnnx, ScatterElementsCroppedInPlaceAndReduced) {
  // indices [1, 2] into data [3, 3] along axis 0: the call covers data[:, 0:2]; column 2 is data's.
  Tensor indices = Tensor::int64s({1, 2}, {2, -3}), updates = Tensor::floats({1, 2}, 10);
  for (Reduction r : {Reduction::none, Reduction::add}) {
    Tensor data = Tensor::floats({3, 3}), out = Tensor::floats({3, 3}, 0);
    ASSERT_TRUE(dmlref::onnx::try_scatter_elements(data.desc(), indices.desc(), updates.desc(), out.output(), 0, r).ok());
    auto explain = [&](const Shape& at) {
      return dmlref::onnx::explain_scatter_elements(data.desc(), indices.desc(), updates.desc(), out.desc(), 0, r, at);
    };
    expect_every_element_explained(out, explain, 2, 2, 2);
    EXPECT_EQ(dmlref::to_string(*explain({1, 2})), "output[1,2] = 5.5 (0x40b00000) = input[1,2] (no update addresses it)");
    EXPECT_EQ(explain({0, 1})->updates.size(), 1u);
    // In place: output is data itself; explained before the call, as the call sees it.
    Tensor same = Tensor::floats({3, 3});
    const auto before = dmlref::onnx::explain_scatter_elements(same.desc(), indices.desc(), updates.desc(), same.desc(), 0, r, {2, 0});
    ASSERT_TRUE(before.ok()) << before.status().message();
    ASSERT_TRUE(dmlref::onnx::try_scatter_elements(same.desc(), indices.desc(), updates.desc(), same.output(), 0, r).ok());
    EXPECT_EQ(before->value.bits, same.bits({2, 0}));
  }
  // The deprecated Scatter has its own name.
  Tensor data = Tensor::floats({3, 3}), out = Tensor::floats({3, 3}, 0);
  const auto p = dmlref::onnx::explain_scatter(data.desc(), indices.desc(), updates.desc(), out.desc(), 0, {2, 0});
  ASSERT_TRUE(p.ok());
  EXPECT_STREQ(p->op, "Scatter");
  EXPECT_EQ(dmlref::to_string(*p),
            "output[2,0] = 10 (0x41200000) = updates[0,0], the only update to it:\n"
            "  input[2,0] = 6.5 (0x40d00000)\n"
            "  updates[0,0] = 10 (0x41200000), from indices[0,0] = 2 → 2 (axis 0)");
}

TEST(ExplainOnnx, ScatterNDWithDuplicatesAndAReduction) {
  // data [4, 2], 1-tuples {1, -3, 0}: rows 1 (twice) and 0, multiplied in.
  Tensor data = Tensor::floats({4, 2}), indices = Tensor::int64s({3, 1}, {1, -3, 0}), updates = Tensor::floats({3, 2}, 2);
  Tensor out = Tensor::floats({4, 2}, 0);
  ASSERT_TRUE(dmlref::onnx::try_scatter_nd(data.desc(), indices.desc(), updates.desc(), out.output(), Reduction::mul).ok());
  auto explain = [&](const Shape& at) {
    return dmlref::onnx::explain_scatter_nd(data.desc(), indices.desc(), updates.desc(), out.desc(), Reduction::mul, at);
  };
  expect_every_element_explained(out, explain, 2, 2, 2);
  EXPECT_EQ(dmlref::to_string(*explain({1, 1})),
            "output[1,1] = 52.5 (0x42520000) = input[1,1] mul 2 updates, in this order:\n"
            "  input[1,1] = 3.5 (0x40600000)\n"
            "  mul updates[0,1] = 3 (0x40400000), from indices[0,0] = 1 → 1 (dimension 0); now 10.5 (0x41280000)\n"
            "  mul updates[1,1] = 5 (0x40a00000), from indices[1,0] = -3 → 1 (dimension 0); now 52.5 (0x42520000)");
}

TEST(ExplainOnnx, EmptyTensors) {
  // Gather with empty indices: an empty output, nothing to explain.
  Tensor data = Tensor::floats({3}), none = Tensor::int64s({0}, {}), out = Tensor::floats({0});
  const auto p = dmlref::onnx::explain_gather(data.desc(), none.desc(), out.desc(), 0, {0});
  EXPECT_EQ(p.status().code(), dmlref::ErrorCode::coordinate_out_of_range);
  EXPECT_EQ(p.status().message(),
            "Gather: coordinate [0] is not an element of output: its entry 0 must be nothing (the size is 0), but is 0");
  // ScatterND with no tuple: output = data.
  Tensor indices = Tensor::int64s({0, 1}, {}), updates = Tensor::floats({0}), full = Tensor::floats({3}, 0);
  const auto q = dmlref::onnx::explain_scatter_nd(data.desc(), indices.desc(), updates.desc(), full.desc(), Reduction::none, {2});
  ASSERT_TRUE(q.ok()) << q.status().message();
  EXPECT_EQ(dmlref::to_string(*q), "output[2] = 2.5 (0x40200000) = input[2] (no update addresses it)");
}

TEST(ExplainOnnx, ErrorsInOnnxTerms) {
  Tensor data = Tensor::floats({2, 3}), indices = Tensor::int64s({2, 2}, {0, 5, 1, 0}), out = Tensor::floats({2, 2}, 0);
  // The helper's own error, first, whatever the coordinate.
  const dmlref::Status failed = dmlref::onnx::try_gather_elements(data.desc(), indices.desc(), out.output(), 1);
  ASSERT_EQ(failed.code(), dmlref::ErrorCode::index_out_of_range);
  for (const Shape& at : {Shape{0, 0}, Shape{7}}) {
    const auto p = dmlref::onnx::explain_gather_elements(data.desc(), indices.desc(), out.desc(), 1, at);
    EXPECT_EQ(p.status().message(), failed.message());
  }
  EXPECT_EQ(dmlref::onnx::explain_gather_elements(data.desc(), indices.desc(), out.desc(), 2, {0, 0}).status().message(),
            dmlref::onnx::try_gather_elements(data.desc(), indices.desc(), out.output(), 2).message());
  // A coordinate outside the output, in natural terms.
  Tensor good = Tensor::int64s({2, 2}, {0, 2, 1, 0});
  EXPECT_EQ(dmlref::onnx::explain_gather_elements(data.desc(), good.desc(), out.desc(), 1, {2, 0}).status().message(),
            "GatherElements: coordinate [2, 0] is not an element of output: its entry 0 must be 0..1, but is 2");
  EXPECT_EQ(dmlref::onnx::explain_gather_elements(data.desc(), good.desc(), out.desc(), 1, {1}).status().message(),
            "GatherElements: coordinate [1] is not an element of output: its length must be 2, but is 1");
  // Outside the cropped part of a scatter's output but inside data: data's element; outside data: an error.
  Tensor idx = Tensor::int64s({1, 1}, {1}), upd = Tensor::floats({1, 1}), full = Tensor::floats({2, 3}, 0);
  EXPECT_TRUE(dmlref::onnx::explain_scatter_elements(data.desc(), idx.desc(), upd.desc(), full.desc(), 0, Reduction::none, {1, 2}).ok());
  EXPECT_EQ(dmlref::onnx::explain_scatter_elements(data.desc(), idx.desc(), upd.desc(), full.desc(), 0, Reduction::none, {2, 2})
                .status()
                .code(),
            dmlref::ErrorCode::coordinate_out_of_range);
}

}  // namespace
