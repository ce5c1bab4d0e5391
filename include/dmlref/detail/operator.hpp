#ifndef DMLREF_DETAIL_OPERATOR_HPP
#define DMLREF_DETAIL_OPERATOR_HPP

#include <array>
#include <cstdint>
#include <cstddef>
#include <type_traits>
#include <optional>
#include <utility>

#include "../binding.hpp"
#include "../feature_level.hpp"
#include "../options.hpp"
#include "../reduction.hpp"
#include "../runtime/tensor_desc.hpp"
#include "../status.hpp"
#include "../tensor_view.hpp"
#include "execute.hpp"
#include "kernels.hpp"
#include "plan.hpp"
#include "staged.hpp"
#include "tensor.hpp"
#include "typed.hpp"

// What every operator call does, written once: name the tensors, run the checks all operators
// share, then the operator's own rules (an Operator below), then its flow with the kernels its
// layer chose. Nothing is written until every check, every index value included, has passed.
//
// An Operator is a struct with
//   name, and from OperatorConstants: type (its DML_OPERATOR_TYPE), flow, Params;
//   static Status check(const Operands&, const Params&)  its attributes and shape rule;
//   static Plan plan(const Operands&, const Params&)     the plan of a checked call.
// A scatter's Params also have a Reduction, which the shared checks validate.

namespace dmlref::detail {

/// What an Operator states besides its name and its rules.
template <OperatorType Type, Flow F, class P>
struct OperatorConstants {
  static constexpr OperatorType type = Type;
  static constexpr Flow flow = F;
  using Params = P;
};

/// The tensors of one call in DirectML's field order (InputTensor, IndicesTensor, then
/// UpdatesTensor for a scatter, and OutputTensor), with what their layout checks derived.
struct Operands {
  int count;
  const RawTensor* tensor[4];
  Layout layout[4];  ///< filled by check_operands

  const RawTensor& input() const noexcept { return *tensor[0]; }
  const RawTensor& indices() const noexcept { return *tensor[1]; }
  const RawTensor& updates() const noexcept { return *tensor[2]; }
  const RawTensor& output() const noexcept { return *tensor[count - 1]; }
  int rank() const noexcept { return input().sizes.rank(); }
};

/// DirectML's name of tensor i of a call with `count` tensors.
constexpr const char* field_name(int i, int count) noexcept {
  return i == 0 ? "InputTensor" : i == 1 ? "IndicesTensor" : i == count - 1 ? "OutputTensor" : "UpdatesTensor";
}

/// The checks every call needs, in order: each tensor's layout (all share InputTensor's
/// DimensionCount), then its type (IndicesTensor an index type, the others InputTensor's).
/// `Count` is t.count, known to each operator at compile time, so that the loops unroll.
template <int Count>
DMLREF_ALWAYS_INLINE Status check_operands(const char* op, Operands& t) noexcept {
  const int D = t.rank();
  for (int i = 0; i < Count; ++i) {
    if (Status s = check_layout(op, *t.tensor[i], D, i == Count - 1, t.layout[i]); !s) return s;
  }
  for (int i = 0; i < Count; ++i) {
    if (i == 1) {
      if (Status s = check_index_type(op, t.indices()); !s) return s;
    } else if (Status s = check_data_type(op, *t.tensor[i], t.input()); !s) {
      return s;
    }
  }
  return Status();
}

/// A scatter may run in place: OutputTensor is InputTensor itself (same data, same strides).
inline bool in_place(const Operands& t) noexcept {
  return t.count == 4 && t.output().data == t.input().data && t.output().strides == t.input().strides;
}

/// OutputTensor must share no memory with an input, but for an in-place scatter's InputTensor.
template <int Count>
DMLREF_ALWAYS_INLINE Status check_overlaps(const char* op, const Operands& t) noexcept {
  constexpr int out = Count - 1;
  for (int i = Count == 4 && in_place(t) ? 1 : 0; i < out; ++i)
    if (Status s = check_no_overlap(op, t.output(), t.layout[out], *t.tensor[i], t.layout[i]); !s) return s;
  return Status();
}

/// The part of a plan every operator fills alike: the tensors it copies between, and IndicesTensor
/// with its layout. The operator adds the loops, the tuple and the block.
inline Plan start_plan(const char* op, Flow flow, const Operands& t, const RawTensor& dense,
                       const RawTensor& indexed, bool last_dimension_is_tuple = false) noexcept {
  Plan plan;
  plan.op = op;
  plan.flow = flow;
  plan.element_size = element_size(t.input().type);
  plan.dense = dense.data;
  plan.indexed = indexed.data;
  plan.indices = t.indices().data;
  plan.index_tensor = {&t.indices(), t.layout[1].elements, t.layout[1].packed, last_dimension_is_tuple};
  plan.indexed_name = indexed.name;
  return plan;
}

/// The error of a one-pass call that wrote before it failed, saying so.
DMLREF_COLD inline Status partly_written(const Status& status) noexcept {
  Error e = status.error();
  e.output_partly_written = true;
  return Status(e);
}

/// A scatter's Reduction must be one of the enumerators (an extension; DirectML's is none).
inline Status check_reduction(const char* op, Reduction reduction) noexcept {
  if (static_cast<unsigned>(reduction) <= static_cast<unsigned>(Reduction::min)) return Status();
  return error_status(ErrorCode::invalid_attribute, op, "", "Reduction", -1,
                           ErrorValue::of_text("none, add, mul, max or min"),
                           ErrorValue::of(static_cast<std::int64_t>(reduction)));
}

/// OutputTensor.Sizes against the sizes the operator's shape rule gives.
inline Status check_output_sizes(const char* op, const Operands& t, const Shape& expected, const char* rule) noexcept {
  if (t.output().sizes == expected) return Status();
  return shape_error(op, t.output().name, expected, t.output().sizes, rule);
}
/// The same for a shape rule that may fail, whose error it then is.
inline Status check_output_sizes(const char* op, const Operands& t, const Result<Shape>& expected,
                                 const char* rule) noexcept {
  if (!expected) return expected.status();
  return check_output_sizes(op, t, *expected, rule);
}

/// The Operator of a Params type: each operator header names its own, so that the functions all
/// operators share (minimum_feature_level, detail/minimum_level.hpp) are written once.
template <class Params>
struct OperatorFor {};
template <class Params>
using OperatorOf = typename OperatorFor<Params>::type;

/// The checks of a call that read no index value, in order: each tensor's layout and type, the
/// operator's attributes and shape rule, then overlaps.
template <class Op>
DMLREF_ALWAYS_INLINE Status check_shapes(Operands& t, const typename Op::Params& params) noexcept {
  constexpr int count = Op::flow == Flow::gather ? 3 : 4;
  if (Status s = check_operands<count>(Op::name, t); !s) return s;
  if (Status s = Op::check(t, params); !s) return s;
  if constexpr (Op::flow == Flow::scatter)
    if (Status s = check_reduction(Op::name, params.Reduction); !s) return s;
  return check_overlaps<count>(Op::name, t);
}

/// True when Options asks for DirectML's own rules (a feature level or its binding rules): the one
/// test the default path pays for them.
inline bool wants_directml_rules(const Options& options) noexcept {
  return (options.feature_level | static_cast<std::uint32_t>(options.binding_rules)) != 0;
}

/// Options::feature_level is 0 or a DML_FEATURE_LEVEL, Options::binding_rules an enumerator.
inline Status check_options(const char* op, const Options& options) noexcept {
  if (DMLREF_LIKELY((options.feature_level == 0 || feature_level::is_valid(options.feature_level)) &&
                    options.binding_rules <= BindingRules::directml))
    return Status();
  return options_error(op, options.feature_level, static_cast<std::uint32_t>(options.binding_rules));
}

/// A scatter reduction is dmlref's extension: DirectML's scatters replace, at every feature level.
DMLREF_COLD inline Status reduction_unavailable(const char* op, const char* field, Reduction reduction,
                                                    std::uint32_t level) noexcept {
  Error e = make_error(ErrorCode::unsupported, op, "", field, -1, ErrorValue::of_text("none"),
                       ErrorValue::of_text(name(reduction)),
                       "DirectML's scatters only replace; reductions are dmlref's extension, at no DML_FEATURE_LEVEL");
  e.feature_level = level;
  return Status(e);
}

/// DirectML's own rules, as Options asks for them, after every default check (so that an error
/// here is one only DirectML's rules make): the options' values, the binding rules on each tensor
/// in field order, then under a feature level no scatter reduction and that level's tables.
template <class Op>
DMLREF_COLD Status check_directml(const Operands& t, const typename Op::Params& params,
                                      const Options& options) noexcept {
  (void)params;
  if (Status s = check_options(Op::name, options); !s) return s;
  if (options.binding_rules == BindingRules::directml)
    for (int i = 0; i < t.count; ++i)
      if (Status s = check_binding_rules(Op::name, *t.tensor[i], t.layout[i]); !s) return s;
  const std::uint32_t level = options.feature_level;
  if (level == 0) return Status();
  if constexpr (Op::flow == Flow::scatter)
    if (params.Reduction != Reduction::none)
      return reduction_unavailable(Op::name, "Reduction", params.Reduction, level);
  const std::uint32_t needed = level_needs(Op::type, t.rank(), t.input().type, t.indices().type).minimum();
  if (needed != 0 && level >= needed) return Status();
  return feature_level_error(Op::name, Op::type, t.rank(), t.input().type, t.indices().type, level);
}

/// check_shapes, then the DirectML rules Options asks for.
template <class Op>
DMLREF_ALWAYS_INLINE Status check_shapes(Operands& t, const typename Op::Params& params,
                                         const Options& options) noexcept {
  if (Status s = check_shapes<Op>(t, params); !s) return s;
  if (DMLREF_LIKELY(!wants_directml_rules(options))) return Status();
  return check_directml<Op>(t, params, options);
}

/// The plan of a call that passed check_shapes, with its index policy and a scatter's reduction.
/// Clamping changes no value that is in range, so a clamping call whose values all are runs the
/// kernels of checked values; only a call with a value to clamp walks its rows clamping each.
template <class Op, class Kernels>
Plan make_plan(const Operands& t, const typename Op::Params& params, const Options& options,
               const Kernels& kernels) noexcept {
  Plan plan = Op::plan(t, params);
  plan.clamp = options.index_policy == IndexPolicy::clamp && !kernels.check_indices(plan, RowRange{}).ok();
  if constexpr (Op::flow == Flow::scatter)
    if (params.Reduction != Reduction::none) plan.combine = kernels.combine(t.input().type, params.Reduction);
  return plan;
}

/// The checks on the plan: every index value (unless the policy clamps) and, for a scatter that
/// asks for it, collisions, found on the plan rebuilt over packed strides, whose offsets number the
/// elements. With a reduction, duplicate targets are legal: they combine.
template <class Op, class Kernels>
Status check_plan(const Operands& t, const typename Op::Params& params, const Options& options,
                  const Kernels& kernels, const Plan& plan) noexcept {
  if (options.index_policy == IndexPolicy::error)
    if (Status s = kernels.check_indices(plan, RowRange{}); !s) return s;
  if constexpr (Op::flow == Flow::scatter) {
    if (options.check_collisions && params.Reduction == Reduction::none) {
      const Shape updates_strides = packed_strides(t.updates().sizes);
      const Shape output_strides = packed_strides(t.output().sizes);
      RawTensor packed_updates = t.updates(), packed_output = t.output();
      packed_updates.strides = updates_strides;
      packed_output.strides = output_strides;
      Operands packed = t;
      packed.tensor[2] = &packed_updates;
      packed.tensor[3] = &packed_output;
      Plan marking = Op::plan(packed, params);
      marking.clamp = plan.clamp;
      return kernels.find_collision(marking, t.updates().sizes, t.output().sizes);
    }
  }
  return Status();
}

/// Every check of a call, without writing anything (what an operator call does before it writes).
template <class Op, class Kernels>
Status check_call(Operands& t, const typename Op::Params& params, const Options& options,
                  const Kernels& kernels) noexcept {
  if (Status s = check_shapes<Op>(t, params, options); !s) return s;
  return check_plan<Op>(t, params, options, kernels, make_plan<Op>(t, params, options, kernels));
}

/// A call of operator Op on these tensors (in field order) with these kernels: every check, then
/// for a scatter the copy of InputTensor (unless in place, or fused into the staged kernel), then
/// the plan. A gather whose index values outweigh its output may instead check and copy in one
/// pass into scratch, copied to OutputTensor once all have passed (gather_through_scratch).
/// The kernels come by value: a gather's two pointers in registers, not a struct just stored.
template <class Op, class Kernels>
Status run_operator(Operands& t, const typename Op::Params& params, const Options& options,
                    const Kernels kernels) noexcept {
  if (Status s = check_shapes<Op>(t, params, options); !s) return s;
  Plan plan = make_plan<Op>(t, params, options, kernels);
  const Layout& output_layout = t.layout[t.count - 1];
  if constexpr (Op::flow == Flow::gather) {
    if (may_gather_through_scratch(plan, output_layout.extent))
      if (std::optional<Status> s =
              gather_through_scratch(plan, t.output(), output_layout, options, kernels.run, kernels.check_indices))
        return *std::move(s);
  }
  const bool one_pass = runs_in_one_pass(plan, options);
  if (!one_pass)
    if (Status s = check_plan<Op>(t, params, options, kernels, plan); !s) return s;
  Runner runner = kernels.run;
  bool written = false;
  if constexpr (Op::flow == Flow::scatter) {
    if (!in_place(t) && !fuses_input_copy(plan)) {
      copy_tensor(t.output(), t.input(), options);
      written = true;
      plan.output_cached = copied_output_stays_cached(output_layout.extent);
    }
    if (params.Reduction != Reduction::none) runner = kernels.reduce;
  }
  if (!one_pass) {
    execute(plan, options, runner);
    return Status();
  }
  Status s = execute_in_one_pass(plan, options, runner, kernels.check_indices, written);
  if (s.ok() || !written) return s;
  return partly_written(s);
}

/// Operands over `tensors`, named by field as they were made.
template <std::size_t Count>
Operands operands_of(const RawTensor (&tensors)[Count]) noexcept {
  Operands t;
  t.count = static_cast<int>(Count);
  for (std::size_t k = 0; k < Count; ++k) t.tensor[k] = &tensors[k];
  return t;
}
template <std::size_t Count>
Operands operands_of(const std::array<RawTensor, Count>& tensors) noexcept {
  Operands t;
  t.count = static_cast<int>(Count);
  for (std::size_t k = 0; k < Count; ++k) t.tensor[k] = &tensors[k];
  return t;
}

/// The RawTensors of a call's views (in field order), named by field, over the views' Shapes.
template <class... Views, std::size_t... K>
std::array<RawTensor, sizeof...(Views)> raw_tensors(std::index_sequence<K...>, const Views&... views) noexcept {
  constexpr int count = sizeof...(Views);
  return {{raw(field_name(static_cast<int>(K), count), views)...}};
}

/// The RawTensors of a call's descriptors (in field order), named by field, over `shapes`.
template <class... Descs, std::size_t... K>
std::array<RawTensor, sizeof...(Descs)> raw_tensors(std::index_sequence<K...>,
                                                    const DescShapes (&shapes)[sizeof...(Descs)],
                                                    const Descs&... descs) noexcept {
  constexpr int count = sizeof...(Descs);
  return {{raw(field_name(static_cast<int>(K), count), descs, shapes[K])...}};
}

/// Each descriptor's own rules (check_desc), which come before all others: the first broken one,
/// in field order, is the error.
template <class Op, class... Descs, std::size_t... K>
Status check_descs(std::index_sequence<K...>, const Descs&... descs) noexcept {
  constexpr int count = sizeof...(Descs);
  Status checks[] = {check_desc(Op::name, field_name(static_cast<int>(K), count), descs)...};
  for (Status& s : checks)
    if (!s) return std::move(s);
  return Status();
}

/// The element types a typed call of Op may take (a compile-time error names the rule broken).
template <class Op, class In, class Idx, class... Rest>
constexpr void assert_types() noexcept {
  if constexpr (Op::flow == Flow::gather) {
    static_assert(sizeof...(Rest) == 1, "a gather takes InputTensor, IndicesTensor and OutputTensor");
    if constexpr (sizeof...(Rest) == 1) assert_gather_types<In, Idx, Rest...>();
  } else {
    static_assert(sizeof...(Rest) == 2, "a scatter takes InputTensor, IndicesTensor, UpdatesTensor and OutputTensor");
    if constexpr (sizeof...(Rest) == 2) assert_scatter_types<In, Idx, Rest...>();
  }
}

/// The typed layer's entry: views of the call's tensors in field order. The input's and the
/// indices' element types choose the kernels at compile time.
template <class Op, class In, class Idx, class... Rest>
Status run_typed(const typename Op::Params& params, const Options& options, const TensorView<In>& input,
                 const TensorView<Idx>& indices, const TensorView<Rest>&... views) noexcept {
  assert_types<Op, In, Idx, Rest...>();
  const auto tensors = raw_tensors(std::index_sequence_for<In, Idx, Rest...>{}, input, indices, views...);
  Operands t = operands_of(tensors);
  return run_operator<Op>(t, params, options, typed_kernels<Op::flow, std::remove_const_t<In>, std::remove_const_t<Idx>>());
}

/// The dispatch layer's entry: descriptors of the call's tensors in field order. Their data and
/// index types choose the kernels at run time.
template <class Op, class... Descs>
Status run_described(const typename Op::Params& params, const Options& options, const Descs&... descs) noexcept {
  if (Status s = check_descs<Op>(std::index_sequence_for<Descs...>{}, descs...); !s) return s;
  const DescShapes shapes[] = {shapes_of(descs)...};
  const auto tensors = raw_tensors(std::index_sequence_for<Descs...>{}, shapes, descs...);
  Operands t = operands_of(tensors);
  return run_operator<Op>(t, params, options, runtime_kernels<Op::flow>(tensors[0].type, tensors[1].type));
}

}  // namespace dmlref::detail

#endif  // DMLREF_DETAIL_OPERATOR_HPP
