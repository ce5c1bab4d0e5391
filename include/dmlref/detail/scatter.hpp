#ifndef DMLREF_DETAIL_SCATTER_HPP
#define DMLREF_DETAIL_SCATTER_HPP

#include <cstdint>
#include <memory>
#include <new>

#include "../options.hpp"
#include "../reduction.hpp"
#include "../status.hpp"
#include "plan.hpp"
#include "tensor.hpp"

// What Scatter and ScatterND share once their shapes are valid: the overlap rules, the opt-in
// collision check, the copy of InputTensor and the application of the updates.

namespace dmlref::detail {

/// The row-major coordinate of element `linear` of a tensor with these sizes.
inline Shape unravel(std::int64_t linear, const Shape& sizes) noexcept {
  Shape coord = Shape::filled(sizes.rank(), 0);
  for (int d = sizes.rank() - 1; d >= 0; --d) {
    coord[d] = linear % sizes[d];
    linear /= sizes[d];
  }
  return coord;
}

/// `marking` is the scatter's plan rebuilt over packed strides, so that its offsets are row-major
/// element numbers of UpdatesTensor (dense) and OutputTensor (indexed).
template <class I, bool Clamp>
Status find_collision(const Plan& marking, const Shape& updates_sizes, const Shape& output_sizes) noexcept {
  std::int64_t count = 1;
  for (std::int64_t size : output_sizes) count *= size;
  const auto words = static_cast<std::size_t>((count + 63) / 64);
  std::unique_ptr<std::uint64_t[]> written(new (std::nothrow) std::uint64_t[words]());
  if (!written)
    return Status(make_error(ErrorCode::out_of_memory, marking.op, "OutputTensor", "", -1,
                             ErrorValue::of_text("one bit per output element for the collision check"),
                             ErrorValue::of(count)));
  bool found = false;
  std::int64_t update = 0, element = 0;
  walk_rows<I, Clamp>(marking, 0, marking.row_count(), TargetRange{},
                      [&](const std::int64_t* dense, const std::int64_t* indexed, int n) {
    for (int k = 0; k < n && !found; ++k) {
      for_each_block_element(marking.block, marking.block_rank, [&](std::int64_t s, std::int64_t t) {
        const std::int64_t o = indexed[k] + t;
        std::uint64_t& word = written[static_cast<std::size_t>(o / 64)];
        const std::uint64_t bit = std::uint64_t{1} << (o % 64);
        if (found || !(word & bit)) {
          word |= bit;
          return;
        }
        found = true;
        update = dense[k] + s;
        element = o;
      });
    }
  });
  if (!found) return Status();
  Error e;
  e.code = ErrorCode::scatter_collision;
  e.op = marking.op;
  e.tensor = "UpdatesTensor";
  e.position = unravel(update, updates_sizes);
  e.target_tensor = "OutputTensor";
  e.target_position = unravel(element, output_sizes);
  return Status(e);
}

/// The tail of both scatters. `build(updates, output)` makes the operator's plan for tensors with
/// the given strides; it is called a second time over packed strides for the collision check.
template <class BuildPlan>
Status run_scatter(const char* op, const RawTensor& input, const RawTensor& indices,
                   const RawTensor& updates, const RawTensor& output, Reduction reduction,
                   const Options& options, BuildPlan&& build) noexcept {
  if (static_cast<unsigned>(reduction) > static_cast<unsigned>(Reduction::min))
    return Status(make_error(ErrorCode::invalid_attribute, op, "", "Reduction", -1,
                             ErrorValue::of_text("none, add, mul, max or min"),
                             ErrorValue::of(static_cast<std::int64_t>(reduction))));
  const bool in_place = output.data == input.data && output.strides == input.strides;
  if (!in_place)
    if (Status s = check_no_overlap(op, output, input); !s) return s;
  if (Status s = check_no_overlap(op, output, indices); !s) return s;
  if (Status s = check_no_overlap(op, output, updates); !s) return s;

  Plan plan = build(updates, output);
  if (reduction != Reduction::none) plan.combine = select_combine(input.type, reduction);
  if (Status s = check_indices(plan, options.index_policy); !s) return s;
  // With a reduction, duplicate targets are legal and combine: nothing to check.
  if (options.check_collisions && reduction == Reduction::none) {
    RawTensor packed_updates = updates, packed_output = output;
    packed_updates.strides = packed_strides(updates.sizes);
    packed_output.strides = packed_strides(output.sizes);
    const Plan marking = build(packed_updates, packed_output);
    const Status s = visit_index_type(plan.index_type, [&](auto index) {
      using I = decltype(index);
      return options.index_policy == IndexPolicy::clamp
                 ? find_collision<I, true>(marking, updates.sizes, output.sizes)
                 : find_collision<I, false>(marking, updates.sizes, output.sizes);
    });
    if (!s) return s;
  }
  if (!in_place && !fuses_input_copy(plan)) copy_tensor(output, input, options);
  execute(plan, options);
  return Status();
}

}  // namespace dmlref::detail

#endif  // DMLREF_DETAIL_SCATTER_HPP
