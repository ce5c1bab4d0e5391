// explain.hpp on the DirectML pages' worked examples (support/spec_examples.hpp), with each
// provenance written out by hand from the pages' formulas; the errors it reports (a coordinate
// outside the output, and every error of the operator passed through unchanged); the clamp policy;
// float16 rounded at every step of a reduction; the fmt formatter.
#include <dmlref/explain.hpp>
#include <dmlref/fmt.hpp>
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "support/spec_examples.hpp"

namespace {

using dmlref::DataType;
using dmlref::Reduction;
using dmlref::Shape;
using spec_examples::Example;
using spec_examples::Op;

DataType type_named(const std::string& name) {
  const DataType types[] = {DataType::FLOAT32, DataType::FLOAT16, DataType::UINT32, DataType::UINT16,
                            DataType::UINT8,   DataType::INT32,   DataType::INT16,  DataType::INT8,
                            DataType::FLOAT64, DataType::UINT64,  DataType::INT64};
  for (DataType t : types)
    if (name == dmlref::name(t)) return t;
  return DataType::UNKNOWN;
}

/// One tensor of an example as bytes, with a descriptor over them (an empty tensor: none).
struct Tensor {
  DataType type = DataType::UNKNOWN;
  std::vector<std::int64_t> sizes;
  std::vector<unsigned char> bytes;

  explicit Tensor(const spec_examples::Array& a, bool zeros = false) : type(type_named(a.type)), sizes(a.sizes) {
    const std::size_t width = dmlref::element_size(type) == 0 ? 4 : dmlref::element_size(type);
    std::size_t count = 1;
    for (std::int64_t s : sizes) count *= static_cast<std::size_t>(s);
    bytes.assign(width * (count == 0 ? 1 : count), 0);
    for (std::size_t k = 0; k < a.values.size() && k < count && !zeros; ++k) {
      const double v = a.values[k];
      unsigned char* p = bytes.data() + k * width;
      // The examples' types: FLOAT32 data, UINT32, INT32 and INT64 indices (FLOAT32 in SN-literal).
      if (type == DataType::FLOAT32) {
        const float f = static_cast<float>(v);
        std::memcpy(p, &f, 4);
      } else if (type == DataType::UINT32) {
        const auto u = static_cast<std::uint32_t>(v);
        std::memcpy(p, &u, 4);
      } else if (type == DataType::INT32) {
        const auto i = static_cast<std::int32_t>(v);
        std::memcpy(p, &i, 4);
      } else if (type == DataType::INT64) {
        const auto i = static_cast<std::int64_t>(v);
        std::memcpy(p, &i, 8);
      }
    }
  }
  dmlref::TensorDesc desc() const {
    return {type, static_cast<std::uint32_t>(sizes.size()), sizes.data(), nullptr, bytes.size(), bytes.data()};
  }
  dmlref::MutableTensorDesc output() {
    return {type, static_cast<std::uint32_t>(sizes.size()), sizes.data(), nullptr, bytes.size(), bytes.data()};
  }
};

const Example& example(const std::string& id) {
  for (const Example& e : spec_examples::all())
    if (id == e.id) return e;
  ADD_FAILURE() << "no example " << id;
  return spec_examples::all().front();
}

/// An example's call: the operator (into `output`) and its explanation of `at`.
struct Call {
  const Example& e;
  Tensor input, indices, updates, output;
  dmlref::Options options;
  Reduction reduction = Reduction::none;

  explicit Call(const Example& ex) : e(ex), input(ex.input), indices(ex.indices), updates(ex.updates), output(ex.output, true) {
    options.check_collisions = ex.check_collisions;
  }

  dmlref::Status run() {
    const std::uint32_t* a = e.attr;
    switch (e.op) {
      case Op::gather: return dmlref::try_gather(input.desc(), indices.desc(), output.output(), {a[0], a[1]}, options);
      case Op::gather_elements:
        return dmlref::try_gather_elements(input.desc(), indices.desc(), output.output(), {a[0]}, options);
      case Op::gather_nd:
        return dmlref::try_gather_nd(input.desc(), indices.desc(), output.output(), {a[0], a[1]}, options);
      case Op::gather_nd1:
        return dmlref::try_gather_nd1(input.desc(), indices.desc(), output.output(), {a[0], a[1], a[2]}, options);
      case Op::scatter:
        return dmlref::try_scatter(input.desc(), indices.desc(), updates.desc(), output.output(), {a[0], reduction},
                                   options);
      case Op::scatter_nd:
        return dmlref::try_scatter_nd(input.desc(), indices.desc(), updates.desc(), output.output(),
                                      {a[0], a[1], reduction}, options);
    }
    return dmlref::Status();
  }

  dmlref::Result<dmlref::Provenance> explain(const Shape& at) {
    const std::uint32_t* a = e.attr;
    const dmlref::TensorDesc out = output.desc();  // a read-only descriptor: explain never writes
    switch (e.op) {
      case Op::gather: return dmlref::explain_gather(input.desc(), indices.desc(), out, {a[0], a[1]}, at, options);
      case Op::gather_elements:
        return dmlref::explain_gather_elements(input.desc(), indices.desc(), out, {a[0]}, at, options);
      case Op::gather_nd: return dmlref::explain_gather_nd(input.desc(), indices.desc(), out, {a[0], a[1]}, at, options);
      case Op::gather_nd1:
        return dmlref::explain_gather_nd1(input.desc(), indices.desc(), out, {a[0], a[1], a[2]}, at, options);
      case Op::scatter:
        return dmlref::explain_scatter(input.desc(), indices.desc(), updates.desc(), out, {a[0], reduction}, at,
                                       options);
      case Op::scatter_nd:
        return dmlref::explain_scatter_nd(input.desc(), indices.desc(), updates.desc(), out, {a[0], a[1], reduction},
                                          at, options);
    }
    return dmlref::Status();
  }

  std::string text(const Shape& at) {
    const dmlref::Result<dmlref::Provenance> p = explain(at);
    return p ? dmlref::to_string(*p) : "error: " + p.status().message();
  }
};

// ------------------------------------------------------------------------------------------------
// The worked examples, explained by hand

TEST(ExplainExamples, Gather) {
  Call g1(example("G-1"));  // input {11, 12, 13, 14}, indices {3, 1, 3, 0, 2}
  EXPECT_EQ(g1.text({0}), "output[0] = 14 (0x41600000) = input[3], from indices[0] = 3 → 3 (Axis 0)");
  EXPECT_EQ(g1.text({4}), "output[4] = 13 (0x41500000) = input[2], from indices[4] = 2 → 2 (Axis 0)");
  // Output[j, c] = Input[Indices[0, j], c]: the index's own coordinate comes from the output's.
  Call g2(example("G-2"));
  EXPECT_EQ(g2.text({2, 1}), "output[2,1] = 4 (0x40800000) = input[1,1], from indices[0,2] = 1 → 1 (Axis 0)");
  // IndexDimensions 2: L = {1, 3, 1, 2} loses its leading 1, which has coordinate 0.
  Call g3b(example("G-3b"));
  EXPECT_EQ(g3b.text({2, 0, 1}), "output[2,0,1] = 5 (0x40a00000) = input[0,2,0], from indices[0,0,1] = 0 → 0 (Axis 2)");
  Call g5(example("G-5"));
  EXPECT_EQ(g5.text({1, 0, 1}), "output[1,0,1] = 4 (0x40800000) = input[0,1,1], from indices[0,1,0] = 1 → 1 (Axis 1)");
  // Negative indices count from the end; IndexDimensions 0 reads the one index for every element.
  Call x1(example("X-1"));
  EXPECT_EQ(x1.text({1}), "output[1] = 11 (0x41300000) = input[0], from indices[1] = -4 → 0 (Axis 0)");
  Call x2(example("X-2"));
  EXPECT_EQ(x2.text({0, 1}), "output[0,1] = 6 (0x40c00000) = input[2,1], from indices[0,0] = 2 → 2 (Axis 0)");
}

TEST(ExplainExamples, GatherElements) {
  Call ge1(example("GE-1"));  // Output[i, j] = Input[Indices[i, j], j]
  EXPECT_EQ(ge1.text({0, 1}), "output[0,1] = 8 (0x41000000) = input[2,1], from indices[0,1] = 2 → 2 (Axis 0)");
  EXPECT_EQ(ge1.text({1, 0}), "output[1,0] = 7 (0x40e00000) = input[2,0], from indices[1,0] = 2 → 2 (Axis 0)");
  Call x5(example("X-5"));  // Axis 1, INT64 indices {-1, 0, 1, -3}
  EXPECT_EQ(x5.text({1, 1}), "output[1,1] = 4 (0x40800000) = input[1,0], from indices[1,1] = -3 → 0 (Axis 1)");
}

TEST(ExplainExamples, GatherNDAndGatherND1) {
  // GN-1: 1-tuples select rows: output[0, t] = input[tuple[0], t].
  Call gn1(example("GN-1"));
  EXPECT_EQ(gn1.text({0, 1}), "output[0,1] = 3 (0x40400000) = input[1,1], from indices[0,0] = 1 → 1 (dimension 0)");
  // GN-2: 2-tuples into dimensions 1 and 2 of the 4-D input; the block is dimension 3.
  Call gn2(example("GN-2"));
  EXPECT_EQ(gn2.text({0, 0, 1, 0}),
            "output[0,0,1,0] = 4 (0x40800000) = input[0,1,0,0], from indices[0,0,1,0] = 1 → 1 (dimension 1), "
            "indices[0,0,1,1] = 0 → 0 (dimension 2)");
  // GN1-2: one batch dimension: the batch coordinate 2 comes from the output, the tuple from
  // indices[0, 2, 1, :].
  Call gn12(example("GN1-2"));
  EXPECT_EQ(gn12.text({0, 0, 2, 1}),
            "output[0,0,2,1] = 10 (0x41200000) = input[0,2,1,0], from indices[0,2,1,0] = 1 → 1 (dimension 2), "
            "indices[0,2,1,1] = 0 → 0 (dimension 3)");
}

TEST(ExplainExamples, ScatterWithCollidingUpdates) {
  // S-1: indices {3, 1, 3, 0}, updates {5, 6, 7, 8}: index 3 is written twice, the later update wins.
  Call s1(example("S-1"));
  EXPECT_EQ(s1.text({3}),
            "output[3] = 7 (0x40e00000) = updates[2], the last of 2 updates to it (the last write wins):\n"
            "  input[3] = 3 (0x40400000)\n"
            "  updates[0] = 5 (0x40a00000), from indices[0] = 3 → 3 (Axis 0)\n"
            "  updates[2] = 7 (0x40e00000), from indices[2] = 3 → 3 (Axis 0)");
  EXPECT_EQ(s1.text({1}),
            "output[1] = 6 (0x40c00000) = updates[1], the only update to it:\n"
            "  input[1] = 1 (0x3f800000)\n"
            "  updates[1] = 6 (0x40c00000), from indices[1] = 1 → 1 (Axis 0)");
  EXPECT_EQ(s1.text({2}), "output[2] = 2 (0x40000000) = input[2] (no update addresses it)");
  // The same call with Reduction::add: 3 + 5 + 7.
  s1.reduction = Reduction::add;
  EXPECT_EQ(s1.text({3}),
            "output[3] = 15 (0x41700000) = input[3] add 2 updates, in this order:\n"
            "  input[3] = 3 (0x40400000)\n"
            "  add updates[0] = 5 (0x40a00000), from indices[0] = 3 → 3 (Axis 0); now 8 (0x41000000)\n"
            "  add updates[2] = 7 (0x40e00000), from indices[2] = 3 → 3 (Axis 0); now 15 (0x41700000)");
  // S-2: Output[Indices[i, j], j] = Updates[i, j].
  Call s2(example("S-2"));
  EXPECT_EQ(s2.text({2, 1}),
            "output[2,1] = 21 (0x41a80000) = updates[1,1], the only update to it:\n"
            "  input[2,1] = 0 (0x00000000)\n"
            "  updates[1,1] = 21 (0x41a80000), from indices[1,1] = 2 → 2 (Axis 0)");
  // 2 and -1 address the same element of a dimension of 3.
  Call x13(example("X-13"));
  EXPECT_EQ(x13.text({0, 2}),
            "output[0,2] = 6 (0x40c00000) = updates[0,1], the last of 2 updates to it (the last write wins):\n"
            "  input[0,2] = 0 (0x00000000)\n"
            "  updates[0,0] = 5 (0x40a00000), from indices[0,0] = 2 → 2 (Axis 1)\n"
            "  updates[0,1] = 6 (0x40c00000), from indices[0,1] = -1 → 2 (Axis 1)");
}

TEST(ExplainExamples, ScatterND) {
  // SN-1: 1-tuples {4, 3, 1, 7} into the 8 elements of the second dimension.
  Call sn1(example("SN-1"));
  EXPECT_EQ(sn1.text({0, 3}),
            "output[0,3] = 10 (0x41200000) = updates[0,1], the only update to it:\n"
            "  input[0,3] = 4 (0x40800000)\n"
            "  updates[0,1] = 10 (0x41200000), from indices[1,0] = 3 → 3 (dimension 1)");
  EXPECT_EQ(sn1.text({0, 0}), "output[0,0] = 1 (0x3f800000) = input[0,0] (no update addresses it)");
  // row blocks; the tuple -4 addresses row 0, the update's column is the output's.
  Call x11(example("X-11"));
  EXPECT_EQ(x11.text({0, 1}),
            "output[0,1] = 50 (0x42480000) = updates[1,1], the only update to it:\n"
            "  input[0,1] = 2 (0x40000000)\n"
            "  updates[1,1] = 50 (0x42480000), from indices[1,0] = -4 → 0 (dimension 0)");
}

TEST(ExplainExamples, EveryElementOfEveryValidExampleMatchesTheOperator) {
  // The same examples, every element: what the explanation says is what the operator wrote.
  int explained = 0;
  for (const Example& e : spec_examples::all()) {
    if (e.expect != spec_examples::Expect::ok || e.input.values.empty()) continue;
    SCOPED_TRACE(e.id);
    Call call(e);
    ASSERT_TRUE(call.run().ok());
    std::vector<std::int64_t> at(e.output.sizes.size(), 0);
    for (std::size_t k = 0; k < e.output.values.size(); ++k) {
      for (std::size_t d = at.size(), rest = k; d-- > 0; rest /= static_cast<std::size_t>(e.output.sizes[d]))
        at[d] = static_cast<std::int64_t>(rest % static_cast<std::size_t>(e.output.sizes[d]));
      const auto p = call.explain(Shape::from(at.data(), at.size()));
      ASSERT_TRUE(p.ok()) << p.status().message();
      const float expected = static_cast<float>(e.output.values[k]);
      std::uint32_t bits = 0;
      std::memcpy(&bits, &expected, 4);
      EXPECT_EQ(p->value.bits, bits) << dmlref::to_string(*p);
      ++explained;
    }
  }
  EXPECT_GT(explained, 80);
}

// ------------------------------------------------------------------------------------------------
// Policies and arithmetic

TEST(ExplainPolicies, ClampedIndicesSayFromWhatToWhat) {
  Call x12(example("X-12"));  // UINT32 {0, 4294967295} into a dimension of 4
  x12.options.index_policy = dmlref::IndexPolicy::clamp;
  EXPECT_EQ(x12.text({1}),
            "output[1] = 14 (0x41600000) = input[3], from indices[1] = 4294967295 → 3 (Axis 0, clamped from "
            "4294967295 to 3)");
  const auto p = x12.explain({1});
  ASSERT_TRUE(p.ok());
  EXPECT_TRUE(p->indices[0].clamped);
  EXPECT_EQ(p->indices[0].clamped_to, 3);
  EXPECT_EQ(p->indices[0].value.bits, 4294967295u);
  EXPECT_EQ(p->indices[0].value.type, DataType::UINT32);
  EXPECT_FALSE(x12.explain({0})->indices[0].clamped);

  // A signed value clamps to -n first, then counts from the end.
  const std::vector<float> input{11, 12, 13, 14};
  const std::vector<std::int32_t> indices{-9, 7};
  const std::vector<float> output(2);
  dmlref::Options clamp;
  clamp.index_policy = dmlref::IndexPolicy::clamp;
  const auto q = dmlref::explain_gather(dmlref::TensorView<const float>(input.data(), {4}),
                                        dmlref::TensorView<const std::int32_t>(indices.data(), {2}),
                                        dmlref::TensorView<const float>(output.data(), {2}), {0, 1}, {0}, clamp);
  ASSERT_TRUE(q.ok());
  EXPECT_EQ(dmlref::to_string(*q),
            "output[0] = 11 (0x41300000) = input[0], from indices[0] = -9 → 0 (Axis 0, clamped from -9 to -4)");
}

TEST(ExplainArithmetic, Float16AddRoundsAfterEveryStep) {
  // 2048 + 1 is halfway between the halves 2048 and 2050 and rounds to even, 2048, at every step:
  // the sum of three ones is lost, where rounding once would give 2052.
  const std::vector<std::uint16_t> input{0x6800}, updates{0x3c00, 0x3c00, 0x3c00};
  const std::vector<std::uint32_t> indices{0, 0, 0};
  std::vector<std::uint16_t> output(1);
  const std::int64_t one[] = {1}, three[] = {3};
  const dmlref::TensorDesc in{DataType::FLOAT16, 1, one, nullptr, 2, input.data()};
  const dmlref::TensorDesc idx{DataType::UINT32, 1, three, nullptr, 12, indices.data()};
  const dmlref::TensorDesc upd{DataType::FLOAT16, 1, three, nullptr, 6, updates.data()};
  const dmlref::MutableTensorDesc out{DataType::FLOAT16, 1, one, nullptr, 2, output.data()};
  ASSERT_TRUE(dmlref::try_scatter(in, idx, upd, out, {0, Reduction::add}).ok());
  EXPECT_EQ(output[0], 0x6800);
  const auto p = dmlref::explain_scatter(in, idx, upd, out, {0, Reduction::add}, {0});
  ASSERT_TRUE(p.ok()) << p.status().message();
  EXPECT_EQ(dmlref::to_string(*p),
            "output[0] = 2048 (0x6800) = input[0] add 3 updates, in this order:\n"
            "  input[0] = 2048 (0x6800)\n"
            "  add updates[0] = 1 (0x3c00), from indices[0] = 0 → 0 (Axis 0); now 2048 (0x6800)\n"
            "  add updates[1] = 1 (0x3c00), from indices[1] = 0 → 0 (Axis 0); now 2048 (0x6800)\n"
            "  add updates[2] = 1 (0x3c00), from indices[2] = 0 → 0 (Axis 0); now 2048 (0x6800)");
  EXPECT_EQ(dmlref::source_text(*p),
            "input[0] = 2048 (0x6800), add updates[0] = 1 (0x3c00) → 2048 (0x6800), add updates[1] = 1 (0x3c00) → "
            "2048 (0x6800), add updates[2] = 1 (0x3c00) → 2048 (0x6800)");
}

TEST(ExplainText, NanPayloadsAndNegativeZeroAreVisible) {
  const std::vector<std::uint32_t> input{0x7fa00001u, 0x80000000u};  // a signalling NaN, -0
  const std::vector<std::uint32_t> indices{1, 0};
  const std::vector<std::uint32_t> output(2);
  const std::int64_t two[] = {2};
  const dmlref::TensorDesc in{DataType::FLOAT32, 1, two, nullptr, 8, input.data()};
  const dmlref::TensorDesc idx{DataType::UINT32, 1, two, nullptr, 8, indices.data()};
  const dmlref::TensorDesc out{DataType::FLOAT32, 1, two, nullptr, 8, output.data()};
  EXPECT_EQ(dmlref::to_string(*dmlref::explain_gather(in, idx, out, {0, 1}, {0})),
            "output[0] = -0 (0x80000000) = input[1], from indices[0] = 1 → 1 (Axis 0)");
  EXPECT_EQ(dmlref::to_string(*dmlref::explain_gather(in, idx, out, {0, 1}, {1})),
            "output[1] = nan (0x7fa00001) = input[0], from indices[1] = 0 → 0 (Axis 0)");
}

TEST(ExplainText, FmtFormatsProvenanceAndElements) {
  Call g1(example("G-1"));
  const auto p = g1.explain({3});
  ASSERT_TRUE(p.ok());
  EXPECT_EQ(fmt::format("{}", *p), "output[3] = 11 (0x41300000) = input[0], from indices[3] = 0 → 0 (Axis 0)");
  EXPECT_EQ(fmt::format("{}", p->value), "11 (0x41300000)");
}

// ------------------------------------------------------------------------------------------------
// Errors

TEST(ExplainErrors, CoordinateOutsideTheOutput) {
  Call g2(example("G-2"));  // output {4, 2}
  const auto entry = g2.explain({4, 0});
  ASSERT_EQ(entry.status().code(), dmlref::ErrorCode::coordinate_out_of_range);
  EXPECT_EQ(entry.status().message(), "Gather: coordinate [4, 0] is not an element of OutputTensor: its entry 0 must be 0..3, but is 4");
  EXPECT_EQ(entry.error().field_index, 0);
  EXPECT_EQ(entry.error().position, (Shape{4, 0}));
  EXPECT_EQ(g2.explain({0, -1}).status().message(),
            "Gather: coordinate [0, -1] is not an element of OutputTensor: its entry 1 must be 0..1, but is -1");
  EXPECT_EQ(g2.explain({1}).status().message(),
            "Gather: coordinate [1] is not an element of OutputTensor: its length must be 2, but is 1");
  EXPECT_EQ(g2.explain({0, 0, 0}).status().code(), dmlref::ErrorCode::coordinate_out_of_range);
  EXPECT_STREQ(dmlref::name(dmlref::ErrorCode::coordinate_out_of_range), "coordinate_out_of_range");
}

TEST(ExplainErrors, TheOperatorsErrorsComeFirstAndUnchanged) {
  // Every example the operator rejects: the explanation, even of a coordinate outside the output,
  // returns the operator's own error.
  int checked = 0;
  for (const Example& e : spec_examples::all()) {
    if (e.expect == spec_examples::Expect::ok) continue;
    SCOPED_TRACE(e.id);
    Call call(e);
    const dmlref::Status failed = call.run();
    ASSERT_FALSE(failed.ok());
    for (const Shape& at : {Shape::filled(static_cast<int>(e.input.sizes.size()), 0), Shape{99}}) {
      const auto p = call.explain(at);
      ASSERT_FALSE(p.ok());
      EXPECT_EQ(p.status().code(), failed.code());
      EXPECT_EQ(p.status().message(), failed.message());
    }
    ++checked;
  }
  EXPECT_GE(checked, 8);

  // A descriptor's own rule, and the collision check.
  Call s1(example("S-1"));
  s1.options.check_collisions = true;
  EXPECT_EQ(s1.explain({0}).status().code(), dmlref::ErrorCode::scatter_collision);
  s1.options.check_collisions = false;
  s1.reduction = Reduction::add;  // duplicates are legal with a reduction
  EXPECT_TRUE(s1.explain({0}).ok());
  Call g1(example("G-1"));
  const auto null_sizes = dmlref::explain_gather(
      dmlref::TensorDesc{DataType::FLOAT32, 1, nullptr, nullptr, 16, g1.input.bytes.data()}, g1.indices.desc(),
      g1.output.desc(), {0, 1}, {0});
  EXPECT_EQ(null_sizes.status().code(), dmlref::ErrorCode::null_pointer);
}

TEST(ExplainErrors, TheOutputIsCheckedButNeverWritten) {
  Call g1(example("G-1"));
  std::fill(g1.output.bytes.begin(), g1.output.bytes.end(), 0xAB);
  const std::vector<unsigned char> before = g1.output.bytes;
  EXPECT_TRUE(g1.explain({2}).ok());
  EXPECT_EQ(g1.output.bytes, before);
  // Its layout is checked as the operator checks it: here, overlapping the input.
  const auto overlapping = dmlref::explain_gather(g1.input.desc(), g1.indices.desc(),
                                                  dmlref::TensorDesc{DataType::FLOAT32, 1, g1.indices.sizes.data(),
                                                                     nullptr, 20, g1.input.bytes.data()},
                                                  {0, 1}, {0});
  EXPECT_EQ(overlapping.status().code(), dmlref::ErrorCode::overlapping_tensors);
}

}  // namespace
