// explain.hpp, scatters: for every output element of random Scatter and ScatterND cases, every
// reduction and every data type (many colliding updates), the updates an explanation lists are
// exactly those that address the element, checked against counts made without it: the operator
// itself scattering ones (add: how many), the updates' positions (min: the first, max: the last,
// add: their sum) and the oracle's last writer. Replaying its steps with this file's own
// arithmetic (float16 through fp16.h, rounded after every step) gives each step's value and the
// output's bits (where an add or mul of two NaNs may keep either payload).
#include <fp16.h>
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <string>
#include <vector>

#include "explain/explain_harness.hpp"

namespace {

using namespace random_cases;
using dmlref::Reduction;
using explain_harness::bits_at;
using explain_harness::Tensors;

// ---- the arithmetic of reduction.hpp's documentation, written apart from detail/reduce.hpp ----

template <class T>
T as(std::uint64_t bits) {
  T v;
  std::memcpy(&v, &bits, sizeof v);  // little-endian: the low bytes
  return v;
}
template <class T>
std::uint64_t bits(T v) {
  std::uint64_t b = 0;
  std::memcpy(&b, &v, sizeof v);
  return b;
}

/// F16C's NaN rules (quiet, keep the payload); fp16.h's for numbers.
float half_to_float(std::uint16_t h) {
  if ((h & 0x7C00u) == 0x7C00u && (h & 0x3FFu) != 0)
    return as<float>((static_cast<std::uint32_t>(h & 0x8000u) << 16) | 0x7FC00000u |
                     (static_cast<std::uint32_t>(h & 0x3FFu) << 13));
  return fp16_ieee_to_fp32_value(h);
}
std::uint16_t float_to_half(float f) {
  const std::uint32_t x = static_cast<std::uint32_t>(bits(f));
  if ((x & 0x7F800000u) == 0x7F800000u && (x & 0x7FFFFFu) != 0)
    return static_cast<std::uint16_t>(((x >> 16) & 0x8000u) | 0x7E00u | ((x & 0x7FFFFFu) >> 13));
  return fp16_ieee_from_fp32_value(f);
}

/// max and min keep the output's value on ties and propagate a NaN, the output's first.
template <class V>
bool keep_output(Reduction r, V out, V update) {
  if (out != out) return true;
  if (update != update) return false;
  return r == Reduction::max ? !(update > out) : !(update < out);
}

template <class F>
std::uint64_t float_step(Reduction r, std::uint64_t out, std::uint64_t update) {
  const F a = as<F>(out), b = as<F>(update);
  if (r == Reduction::add) return bits(static_cast<F>(a + b));
  if (r == Reduction::mul) return bits(static_cast<F>(a * b));
  return keep_output(r, a, b) ? out : update;
}

template <class I>
std::uint64_t integer_step(Reduction r, std::uint64_t out, std::uint64_t update) {
  constexpr std::uint64_t mask = sizeof(I) == 8 ? ~std::uint64_t{0} : (std::uint64_t{1} << (8 * sizeof(I))) - 1;
  if (r == Reduction::add) return (out + update) & mask;
  if (r == Reduction::mul) return (out * update) & mask;
  return keep_output(r, as<I>(out), as<I>(update)) ? out : update;
}

/// An add or mul of two NaNs may keep either one's payload (IEEE 754 leaves it open, and a compiler
/// may swap the operands): the other candidate, quieted, when both are NaN.
std::uint64_t other_nan(DType t, Reduction r, std::uint64_t out, std::uint64_t update, std::uint64_t result) {
  if (r != Reduction::add && r != Reduction::mul) return result;
  switch (t) {
    case DType::FLOAT32: {
      const bool both = std::isnan(as<float>(out)) && std::isnan(as<float>(update));
      return both ? (result == (out | 0x00400000u) ? update : out) | 0x00400000u : result;
    }
    case DType::FLOAT64: {
      const std::uint64_t quiet = std::uint64_t{1} << 51;
      const bool both = std::isnan(as<double>(out)) && std::isnan(as<double>(update));
      return both ? (result == (out | quiet) ? update : out) | quiet : result;
    }
    case DType::FLOAT16: {
      const auto nan = [](std::uint64_t h) { return (h & 0x7C00u) == 0x7C00u && (h & 0x3FFu) != 0; };
      return nan(out) && nan(update) ? (result == (out | 0x200u) ? update : out) | 0x200u : result;
    }
    case DType::UINT8: case DType::UINT16: case DType::UINT32: case DType::UINT64:
    case DType::INT8: case DType::INT16: case DType::INT32: case DType::INT64:
      break;
  }
  return result;
}

std::uint64_t step(DType t, Reduction r, std::uint64_t out, std::uint64_t update) {
  if (r == Reduction::none) return update;
  switch (t) {
    case DType::FLOAT32: return float_step<float>(r, out, update);
    case DType::FLOAT64: return float_step<double>(r, out, update);
    case DType::FLOAT16: {
      const float a = half_to_float(static_cast<std::uint16_t>(out)), b = half_to_float(static_cast<std::uint16_t>(update));
      if (r == Reduction::add) return float_to_half(a + b);
      if (r == Reduction::mul) return float_to_half(a * b);
      return keep_output(r, a, b) ? out : update;
    }
    case DType::UINT8: return integer_step<std::uint8_t>(r, out, update);
    case DType::UINT16: return integer_step<std::uint16_t>(r, out, update);
    case DType::UINT32: return integer_step<std::uint32_t>(r, out, update);
    case DType::UINT64: return integer_step<std::uint64_t>(r, out, update);
    case DType::INT8: return integer_step<std::int8_t>(r, out, update);
    case DType::INT16: return integer_step<std::int16_t>(r, out, update);
    case DType::INT32: return integer_step<std::int32_t>(r, out, update);
    case DType::INT64: return integer_step<std::int64_t>(r, out, update);
  }
  return 0;
}

// ---- running the case ----

/// The case with a reduction through the dispatch layer or the typed one (native types: a
/// reduction's arithmetic is the data type's); `t`'s output buffer holds the result.
dmlref::Status run(const Case& c, Layer layer, Tensors& t, Reduction r) {
  harness::Call call = random_cases::to_call(c, t.in, t.out, dmlref::Options());
  call.reduction = r;
  return harness::run(call, layer);
}

/// The operator on UINT64 data, packed: InputTensor filled with `fill`, UpdatesTensor[u] =
/// update(row-major position of u), with the case's own indices. Indexed by the output's
/// row-major position.
template <class Update>
std::vector<std::uint64_t> scatter_numbers(const Case& c, Reduction r, std::uint64_t fill, Update update) {
  std::vector<std::uint64_t> out(static_cast<std::size_t>(count(c.output.sizes)), fill);
  std::vector<std::uint64_t> updates(static_cast<std::size_t>(count(c.updates.sizes)));
  for (std::size_t k = 0; k < updates.size(); ++k) updates[k] = update(k);
  const auto D = static_cast<std::uint32_t>(c.output.sizes.size());
  const auto u64 = dmlref::DataType::UINT64;
  const dmlref::TensorDesc in{u64, D, c.output.sizes.data(), nullptr, out.size() * 8, out.data()};  // in place
  const dmlref::MutableTensorDesc o{u64, D, c.output.sizes.data(), nullptr, out.size() * 8, out.data()};
  const dmlref::TensorDesc upd{u64, D, c.updates.sizes.data(), nullptr, updates.size() * 8, updates.data()};
  unsigned char* no_output = nullptr;  // only the indices operand is used
  const harness::Operand& indices = random_cases::to_call(c, nullptr, no_output, {}).t[harness::kIndices];
  const dmlref::TensorDesc idx = harness::desc(indices, indices.data);
  const dmlref::Status s = c.op == Op::scatter
                               ? dmlref::try_scatter(in, idx, upd, o, dmlref::ScatterParams{c.axis, r})
                               : dmlref::try_scatter_nd(in, idx, upd, o, dmlref::ScatterNDParams{c.r, c.q, r});
  EXPECT_TRUE(s.ok()) << s.message();
  return out;
}

/// Checks the explanation of every output element of `c` run with reduction `r`.
void check_every_element(const Case& c, Layer layer, Reduction r) {
  SCOPED_TRACE(c.describe() + "\n  " + name(layer) + ", reduction " + dmlref::name(r));
  Tensors before(c), after(c);
  const dmlref::Status status = run(c, layer, after, r);
  ASSERT_TRUE(status.ok()) << status.message();
  const auto position = [](std::size_t k) { return static_cast<std::uint64_t>(k) + 1; };
  const std::vector<std::uint64_t> counts = scatter_numbers(c, Reduction::add, 0, [](std::size_t) { return 1; });
  const std::vector<std::uint64_t> sums = scatter_numbers(c, Reduction::add, 0, position);
  const std::vector<std::uint64_t> firsts = scatter_numbers(c, Reduction::min, ~std::uint64_t{0}, position);
  const std::vector<std::uint64_t> lasts = scatter_numbers(c, Reduction::max, 0, position);
  const std::vector<std::uint64_t> oracle_lasts = explain_harness::oracle_sources(c, oracle::Policy::error);
  ASSERT_FALSE(oracle_lasts.empty());

  const std::size_t es = c.esize();
  const std::vector<unsigned char>& input_buffer = c.in_place ? before.output_buffer : c.input_buf;
  int failures = 0, updated = 0;
  Sizes o(c.output.sizes.size(), 0);
  std::size_t k = 0;
  do {
    const dmlref::Result<dmlref::Provenance> p =
        explain_harness::explain_case(c, layer, before, explain_harness::shape(o), dmlref::Options(), r);
    ASSERT_TRUE(p.ok()) << "output" << text(o) << ": " << p.status().message();
    const std::uint64_t input = bits_at(input_buffer, c.input, es, o);
    bool good = p->scatter && p->reduction == r && p->input == explain_harness::shape(o) && p->input_value.bits == input;
    good = good && p->updates.size() == counts[k];
    good = good && (p->source == dmlref::Source::input) == p->updates.empty();
    std::uint64_t value = input, sum = 0, previous = 0;
    for (const dmlref::Update& u : p->updates) {
      const Sizes at = explain_harness::sizes(u.coordinate);
      const std::uint64_t id = static_cast<std::uint64_t>(oracle::detail::row_major(at, c.updates.sizes)) + 1;
      good = good && id > previous && u.value.bits == bits_at(c.updates_buf, c.updates, es, at);
      previous = id;
      sum += id;
      for (const dmlref::IndexRead& read : u.indices) {
        const oracle::Indices idx{c.indices_buf.data() + first_byte(c.indices, size_of(c.itype)), kind_of(c.itype),
                                  c.indices.sizes, c.indices.strides};
        std::int64_t normalized = -1;
        good = good && oracle::detail::normalize(oracle::detail::read_index(idx, explain_harness::sizes(read.coordinate)),
                                                 read.size, oracle::Policy::error, normalized) &&
               normalized == read.position && read.position == o[static_cast<std::size_t>(read.dimension)];
      }
      const std::uint64_t next = step(c.dtype, r, value, u.value.bits);
      const std::uint64_t alternative = other_nan(c.dtype, r, value, u.value.bits, next);
      good = good && (u.result.bits == next || u.result.bits == alternative);
      value = u.result.bits == alternative ? alternative : next;
    }
    if (!p->updates.empty()) {
      ++updated;
      const auto id = [&](const dmlref::Update& u) {
        return static_cast<std::uint64_t>(oracle::detail::row_major(explain_harness::sizes(u.coordinate), c.updates.sizes)) + 1;
      };
      good = good && id(p->updates.front()) == firsts[k] && id(p->updates.back()) == lasts[k] &&
             id(p->updates.back()) == oracle_lasts[k] && sum == sums[k];
    } else {
      good = good && oracle_lasts[k] == 0;
    }
    const std::uint64_t actual = bits_at(after.output_buffer, c.output, es, o);
    good = good && value == actual && p->value.bits == actual;
    if (!good && ++failures <= 3)
      ADD_FAILURE() << "output" << text(o) << ": actual " << hex(actual) << ", replayed " << hex(value) << ", "
                    << counts[k] << " updates address it (first " << firsts[k] << ", last " << lasts[k]
                    << ");\n" << dmlref::to_string(*p);
    ++k;
  } while (next(o, c.output.sizes));
  EXPECT_EQ(failures, 0);
  EXPECT_GT(updated, 0);
}

class ExplainScatters : public ::testing::TestWithParam<Op> {};

TEST_P(ExplainScatters, UpdatesAndStepsOfEveryElementForEveryReductionAndDataType) {
  const Op op = GetParam();
  int cases = 0;
  for (Reduction r : {Reduction::none, Reduction::add, Reduction::mul, Reduction::max, Reduction::min}) {
    for (DType dtype : all_dtypes) {
      Config cfg;
      cfg.max_elements = 600;
      cfg.dtype = dtype;
      cfg.duplicates = cases % 2 == 0 ? Duplicates::many : Duplicates::random;
      const std::string stream = std::string("ExplainScatters.") + name(op) + dmlref::name(r) + name(dtype);
      for (std::uint64_t seed : case_seeds(fnv(stream), 1)) {
        const Case c = generate(op, seed, cfg);
        check_every_element(c, cases++ % 2 == 0 ? Layer::dispatch : Layer::typed_native, r);
        if (HasFatalFailure()) return;
      }
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Operators, ExplainScatters, ::testing::Values(Op::scatter, Op::scatter_nd),
                         [](const ::testing::TestParamInfo<Op>& p) { return std::string(name(p.param)); });

TEST(ExplainScatters, ReductionNoneThroughStorageTypes) {
  // Copies are bit-exact whatever the element type says: the typed layer over unsigned integers.
  for (Op op : {Op::scatter, Op::scatter_nd}) {
    Config cfg;
    cfg.max_elements = 600;
    cfg.duplicates = Duplicates::many;
    for (std::uint64_t seed : case_seeds(fnv(std::string("ExplainScatters.storage.") + name(op)), 3)) {
      const Case c = generate(op, seed, cfg);
      SCOPED_TRACE(c.describe());
      Tensors before(c);
      const LibRun run = run_library(c, Layer::typed_storage, dmlref::Options());
      ASSERT_TRUE(run.status.ok()) << run.status.message();
      Sizes o(c.output.sizes.size(), 0);
      do {
        const auto p = explain_harness::explain_case(c, Layer::typed_storage, before, explain_harness::shape(o),
                                                     dmlref::Options());
        ASSERT_TRUE(p.ok()) << p.status().message();
        ASSERT_EQ(p->value.bits, bits_at(run.buffer, c.output, c.esize(), o)) << dmlref::to_string(*p);
      } while (next(o, c.output.sizes));
    }
  }
}

}  // namespace
