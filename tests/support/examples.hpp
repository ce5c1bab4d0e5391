// The spec's worked examples (support/spec_examples.hpp) as tests: each example runs through the
// dispatch layer and, when a TensorView can express it, the typed layer (support/runner.hpp):
// - successful examples: the output equals the documented values bit for bit, no byte outside the
//   output's elements is written, the inputs are unchanged; shape-only examples (GN-S, ...) are
//   compared with the naive oracle;
// - failing examples: the documented ErrorCode, naming the documented tensor and field, and
//   nothing written. The typed layer cannot express a data-type or index-type error (they do not
//   compile), so those run on the dispatch layer only.
// Each operator's file (ops/test_<op>.cpp) instantiates its own examples.
#pragma once

#include <gtest/gtest.h>

#include <cstdint>
#include <memory>
#include <ostream>
#include <string>
#include <vector>

#include "dmlref/data_type.hpp"
#include "dmlref/options.hpp"
#include "dmlref/status.hpp"
#include "support/guarded.hpp"
#include "support/runner.hpp"
#include "support/spec_examples.hpp"

namespace examples {

using spec_examples::Example;
using spec_examples::Expect;
using Sizes = std::vector<std::int64_t>;

/// The examples of one operator, in spec order.
std::vector<Example> of(harness::Op op);
/// The example with this id (the test fails when there is none).
const Example* find(const char* id);
/// "G-3-literal" -> "G_3_literal" (gtest names).
std::string test_name(const ::testing::TestParamInfo<Example>& info);

/// One tensor of an example in a guarded buffer.
struct Tensor {
  dmlref::DataType type = dmlref::DataType::UNKNOWN;
  Sizes sizes;
  std::unique_ptr<guarded::Buffer> buffer;
  std::size_t element_size() const;
};

/// An example's tensors: its values (or, shape-only, distinct ones), the output at the sentinel.
struct Prepared {
  Tensor input, indices, updates, output;
  bool scatter = false;
  explicit Prepared(const Example& e);
  /// Guards of every buffer intact; input buffers unchanged.
  void expect_inputs_untouched() const;
};

/// The example over these buffers (the Prepared must outlive it).
harness::Call call(const Example& e, const Prepared& p, const dmlref::Options& options);
/// The example's Options: the collision check when it asks for one.
dmlref::Options options_for(const Example& e);

void check_success(const Example& e, Prepared& p, const dmlref::Status& status);
void check_failure(const Example& e, Prepared& p, const dmlref::Status& status);

/// The whole example on both layers.
void check_on_both_layers(const Example& e);
/// The shape helpers agree with the example's sizes (or reject a shape error's).
void check_shape_helper(const Example& e);

}  // namespace examples

namespace examples {

/// With IndexPolicy::clamp, every successful example of `op` with documented values gives them
/// still: in-range indices (negative ones too) are not clamped.
void check_clamp_leaves_in_range_examples(harness::Op op);

}  // namespace examples

/// The spec's examples of operator `op` as the value-parameterised tests
/// Spec/<Suite>.TypedAndDispatch/<id> and Spec/<Suite>.ShapeHelper/<id>.
#define DMLREF_SPEC_EXAMPLE_TESTS(Suite, op)                                                        \
  class Suite : public ::testing::TestWithParam<examples::Example> {};                              \
  TEST_P(Suite, TypedAndDispatch) { examples::check_on_both_layers(GetParam()); }                   \
  TEST_P(Suite, ShapeHelper) { examples::check_shape_helper(GetParam()); }                          \
  INSTANTIATE_TEST_SUITE_P(Spec, Suite, ::testing::ValuesIn(examples::of(op)), examples::test_name)

namespace spec_examples {
/// gtest prints a failing example by its id.
inline void PrintTo(const Example& e, std::ostream* os) { *os << e.id; }
}  // namespace spec_examples
