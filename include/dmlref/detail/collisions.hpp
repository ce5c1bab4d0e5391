#ifndef DMLREF_DETAIL_COLLISIONS_HPP
#define DMLREF_DETAIL_COLLISIONS_HPP

#include <cstdint>

#include "../shape.hpp"
#include "../status.hpp"
#include "plan.hpp"
#include "scratch.hpp"
#include "strided.hpp"
#include "tensor.hpp"
#include "walk.hpp"

// The opt-in check for two scatter updates that write one output element (Options::check_collisions).

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

DMLREF_COLD inline Status collision_error(const char* op, const Shape& update, const Shape& element) noexcept {
  Error e;
  e.code = ErrorCode::scatter_collision;
  e.op = op;
  e.tensor = "UpdatesTensor";
  e.position = update;
  e.target_tensor = "OutputTensor";
  e.target_position = element;
  return Status(e);
}

/// Marks every output element the updates write, in order; the first one written twice is the
/// error. `marking` is the scatter's plan over packed strides, so that its offsets are row-major
/// element numbers of UpdatesTensor (dense) and OutputTensor (indexed).
template <class I>
Status find_collision(const Plan& marking, const Shape& updates_sizes, const Shape& output_sizes) noexcept {
  std::int64_t count = 1;
  for (std::int64_t size : output_sizes) count *= size;
  const auto words = static_cast<std::size_t>((count + 63) / 64);
  const Scratch<std::uint64_t> written(words, true);
  if (!written)
    return error_status(ErrorCode::out_of_memory, marking.op, "OutputTensor", "", -1,
                             ErrorValue::of_text("one bit per output element for the collision check"),
                             ErrorValue::of(count));
  bool found = false;
  std::int64_t update = 0, element = 0;
  auto take = [&](const RowBatch& batch) {
    for (int k = 0; k < batch.count && !found; ++k) {
      for_each_offset(marking.block, marking.block_rank, [&](const std::int64_t* offset) {
        const std::int64_t o = batch.indexed[k] + offset[kTo];
        std::uint64_t& word = written[static_cast<std::size_t>(o / 64)];
        const std::uint64_t bit = std::uint64_t{1} << (o % 64);
        if (found || !(word & bit)) {
          word |= bit;
          return;
        }
        found = true;
        update = batch.dense[k] + offset[kFrom];
        element = o;
      });
    }
  };
  walk_rows<I>(marking, 0, marking.row_count(), TargetRange{}, sink_of(take));
  if (!found) return Status();
  return collision_error(marking.op, unravel(update, updates_sizes), unravel(element, output_sizes));
}

}  // namespace dmlref::detail

#endif  // DMLREF_DETAIL_COLLISIONS_HPP
