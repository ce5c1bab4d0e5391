// explain.hpp, gathers: for every output element of random cases (every operator, every index
// type, both policies, all three API layers), the explanation is checked against
//   - the operator's own result: the input element it names holds the output's bits;
//   - the oracle (support/oracle.hpp), run on an input whose elements are their own positions: it
//     names the same input element;
//   - IndicesTensor: each index element it lists holds the raw value it reports, and that value
//     normalises (oracle::detail::normalize) to the position it reports.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>

#include "explain/explain_harness.hpp"

namespace {

using namespace random_cases;
using explain_harness::bits_at;
using explain_harness::explain_case;
using explain_harness::Tensors;

oracle::detail::RawIndex raw_index(const Case& c, const dmlref::IndexRead& r) {
  const oracle::Indices idx{c.indices_buf.data() + first_byte(c.indices, size_of(c.itype)), kind_of(c.itype),
                            c.indices.sizes, c.indices.strides};
  return oracle::detail::read_index(idx, explain_harness::sizes(r.coordinate));
}

/// Checks the explanation of every output element of `c`; returns the number of clamped reads.
int check_every_element(const Case& c, Layer layer, dmlref::IndexPolicy policy) {
  SCOPED_TRACE(c.describe() + "\n  " + name(layer));
  dmlref::Options options;
  options.index_policy = policy;
  const oracle::Policy oracle_policy = policy == dmlref::IndexPolicy::clamp ? oracle::Policy::clamp : oracle::Policy::error;
  const LibRun run = run_library(c, layer, options);
  EXPECT_TRUE(run.status.ok()) << run.status.message();
  const std::vector<std::uint64_t> sources = explain_harness::oracle_sources(c, oracle_policy);
  EXPECT_FALSE(sources.empty());
  if (!run.status.ok() || sources.empty()) return 0;
  const Tensors tensors(c);
  const std::size_t es = c.esize();
  int clamped = 0, failures = 0;
  Sizes o(c.output.sizes.size(), 0);
  std::int64_t k = 0;
  do {
    const dmlref::Result<dmlref::Provenance> p = explain_case(c, layer, tensors, explain_harness::shape(o), options);
    if (!p.ok()) {
      ADD_FAILURE() << "output" << text(o) << ": " << p.status().message();
      return clamped;
    }
    const std::uint64_t actual = bits_at(run.buffer, c.output, es, o);
    const Sizes in = explain_harness::sizes(p->input);
    bool good = p->value.bits == actual && p->output == explain_harness::shape(o) && !p->scatter &&
                p->source == dmlref::Source::input && in.size() == c.input.sizes.size();
    for (std::size_t d = 0; good && d < in.size(); ++d) good = in[d] >= 0 && in[d] < c.input.sizes[d];
    good = good && bits_at(c.input_buf, c.input, es, in) == actual;
    good = good && sources[static_cast<std::size_t>(k)] == static_cast<std::uint64_t>(oracle::detail::row_major(in, c.input.sizes)) + 1;
    const std::size_t expected_reads = is_nd(c.op) ? static_cast<std::size_t>(c.indices.sizes.back()) : 1;
    good = good && p->indices.size() == expected_reads;
    for (const dmlref::IndexRead& r : p->indices) {
      const oracle::detail::RawIndex raw = raw_index(c, r);
      std::int64_t position = -1;
      good = good && r.dimension >= 0 && r.dimension < static_cast<int>(in.size()) &&
             r.size == c.input.sizes[static_cast<std::size_t>(r.dimension)] &&
             oracle::detail::normalize(raw, r.size, oracle_policy, position) && position == r.position &&
             in[static_cast<std::size_t>(r.dimension)] == r.position &&
             r.value.bits == (raw.is_signed ? static_cast<std::uint64_t>(raw.s) & (~std::uint64_t{0} >> (64 - 8 * size_of(c.itype))) : raw.u);
      // Clamped exactly when the value is out of range for its dimension.
      std::int64_t unclamped = 0;
      const bool in_range = oracle::detail::normalize(raw, r.size, oracle::Policy::error, unclamped);
      good = good && r.clamped == !in_range;
      clamped += r.clamped ? 1 : 0;
    }
    if (!good && ++failures <= 3)
      ADD_FAILURE() << "output" << text(o) << " (actual bits " << hex(actual) << ", oracle source "
                    << sources[static_cast<std::size_t>(k)] << "): " << dmlref::to_string(*p);
    ++k;
  } while (next(o, c.output.sizes));
  EXPECT_EQ(failures, 0);
  return clamped;
}

class ExplainGathers : public ::testing::TestWithParam<Op> {};

TEST_P(ExplainGathers, EveryElementOfRandomCasesEveryIndexTypeBothPolicies) {
  const Op op = GetParam();
  const Layer layers[] = {Layer::dispatch, Layer::typed_storage, Layer::typed_native};
  int clamped = 0, cases = 0;
  for (IType itype : all_itypes) {
    for (dmlref::IndexPolicy policy : {dmlref::IndexPolicy::error, dmlref::IndexPolicy::clamp}) {
      Config cfg;
      cfg.max_elements = 1500;
      cfg.itype = itype;
      cfg.values = policy == dmlref::IndexPolicy::clamp ? Values::wild : Values::valid;
      const std::string stream = std::string("ExplainGathers.") + name(op) + name(itype) + (cfg.values == Values::wild ? "clamp" : "");
      for (std::uint64_t seed : case_seeds(fnv(stream), 2)) {
        const Case c = generate(op, seed, cfg);
        clamped += check_every_element(c, layers[cases++ % 3], policy);
        if (HasFatalFailure()) return;
      }
    }
  }
  EXPECT_GT(clamped, 0) << "the clamp cases must clamp some index";
}

INSTANTIATE_TEST_SUITE_P(Operators, ExplainGathers,
                         ::testing::Values(Op::gather, Op::gather_elements, Op::gather_nd, Op::gather_nd1),
                         [](const ::testing::TestParamInfo<Op>& p) { return std::string(name(p.param)); });

}  // namespace
