#ifndef DMLREF_DETAIL_MINIMUM_LEVEL_HPP
#define DMLREF_DETAIL_MINIMUM_LEVEL_HPP

#include <cstdint>
#include <utility>

#include "../feature_level.hpp"
#include "../options.hpp"
#include "../runtime/tensor_desc.hpp"
#include "../status.hpp"
#include "../tensor_view.hpp"
#include "operator.hpp"

// minimum_feature_level, for every operator at once: the checks of a call that read no index value
// (operator.hpp's check_shapes), then DirectML's level tables instead of one level. It runs no
// kernel, so it compiles none.

namespace dmlref::detail {

/// The lowest DML_FEATURE_LEVEL that accepts the call, or the error no level lifts. Every check of
/// a call but the index values and collisions (DirectML accepts an operator before any index value
/// exists: docs/directml.md), with Options' binding rules; Options::feature_level is ignored.
template <class Op>
Result<std::uint32_t> minimum_level(Operands& t, const typename Op::Params& params, const Options& options) noexcept {
  Options rules = options;
  rules.feature_level = 0;
  if (Status s = check_shapes<Op>(t, params, rules); !s) return s;
  if constexpr (Op::flow == Flow::scatter)
    if (params.Reduction != Reduction::none) return reduction_unavailable(Op::name, "Reduction", params.Reduction, 0);
  const std::uint32_t needed = level_needs(Op::type, t.rank(), t.input().type, t.indices().type).minimum();
  if (needed != 0) return needed;
  return feature_level_error(Op::name, Op::type, t.rank(), t.input().type, t.indices().type, 0);
}

/// minimum_feature_level over typed views (no kernel is compiled: nothing runs).
template <class Op, class In, class Idx, class... Rest>
Result<std::uint32_t> typed_minimum_level(const typename Op::Params& params, const Options& options,
                                          const TensorView<In>& input, const TensorView<Idx>& indices,
                                          const TensorView<Rest>&... views) noexcept {
  assert_types<Op, In, Idx, Rest...>();
  const auto tensors = raw_tensors(std::index_sequence_for<In, Idx, Rest...>{}, input, indices, views...);
  Operands t = operands_of(tensors);
  return minimum_level<Op>(t, params, options);
}

/// minimum_feature_level over descriptors.
template <class Op, class... Descs>
Result<std::uint32_t> described_minimum_level(const typename Op::Params& params, const Options& options,
                                              const Descs&... descs) noexcept {
  if (Status s = check_descs<Op>(std::index_sequence_for<Descs...>{}, descs...); !s) return s;
  const DescShapes shapes[] = {shapes_of(descs)...};
  const auto tensors = raw_tensors(std::index_sequence_for<Descs...>{}, shapes, descs...);
  Operands t = operands_of(tensors);
  return minimum_level<Op>(t, params, options);
}

}  // namespace dmlref::detail

namespace dmlref {

/// The lowest DML_FEATURE_LEVEL (feature_level::v1_0 ...) at which DirectML accepts this call of
/// the operator whose Params are given, or the error no level lifts. Runs every check of the
/// operator's try_ function but the index values (docs/directml.md). Gathers take three tensors,
/// scatters four, as their try_ functions do.
template <class In, class Idx, class Out, class Params, class Op = detail::OperatorOf<Params>>
Result<std::uint32_t> minimum_feature_level(const TensorView<In>& input, const TensorView<Idx>& indices,
                                            const TensorView<Out>& output, const Params& params,
                                            const Options& options = {}) noexcept {
  return detail::typed_minimum_level<Op>(params, options, input, indices, output);
}
template <class In, class Idx, class Upd, class Out, class Params, class Op = detail::OperatorOf<Params>>
Result<std::uint32_t> minimum_feature_level(const TensorView<In>& input, const TensorView<Idx>& indices,
                                            const TensorView<Upd>& updates, const TensorView<Out>& output,
                                            const Params& params, const Options& options = {}) noexcept {
  return detail::typed_minimum_level<Op>(params, options, input, indices, updates, output);
}
template <class Params, class Op = detail::OperatorOf<Params>>
Result<std::uint32_t> minimum_feature_level(const TensorDesc& input, const TensorDesc& indices,
                                            const MutableTensorDesc& output, const Params& params,
                                            const Options& options = {}) noexcept {
  static_assert(Op::flow == detail::Flow::gather, "a scatter takes InputTensor, IndicesTensor, UpdatesTensor and OutputTensor");
  return detail::described_minimum_level<Op>(params, options, input, indices, output);
}
template <class Params, class Op = detail::OperatorOf<Params>>
Result<std::uint32_t> minimum_feature_level(const TensorDesc& input, const TensorDesc& indices,
                                            const TensorDesc& updates, const MutableTensorDesc& output,
                                            const Params& params, const Options& options = {}) noexcept {
  static_assert(Op::flow == detail::Flow::scatter, "a gather takes InputTensor, IndicesTensor and OutputTensor");
  return detail::described_minimum_level<Op>(params, options, input, indices, updates, output);
}

}  // namespace dmlref

#endif  // DMLREF_DETAIL_MINIMUM_LEVEL_HPP
