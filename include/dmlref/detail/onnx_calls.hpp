#ifndef DMLREF_DETAIL_ONNX_CALLS_HPP
#define DMLREF_DETAIL_ONNX_CALLS_HPP

// The ONNX operators of onnx.hpp, each read top to bottom: its tensors read and checked, its
// DirectML call mapped (prepare_<op>, which explain.hpp's explanations share), then the call made
// through the dispatch layer, or ONNX's no-op for empty tensors.

#include <cstdint>

#include "../options.hpp"
#include "../ops/gather.hpp"
#include "../ops/gather_elements.hpp"
#include "../ops/gather_nd.hpp"
#include "../ops/scatter.hpp"
#include "../ops/scatter_nd.hpp"
#include "../reduction.hpp"
#include "../runtime/tensor_desc.hpp"
#include "../status.hpp"
#include "onnx_mapping.hpp"
#include "onnx_tensors.hpp"
#include "operator.hpp"

namespace dmlref::onnx::detail {

template <class Mapping>
struct Call {
  Operand data, indices, updates, output;
  Mapping m;
  Naming naming;
};

/// Reads the call's tensors (UpdatesTensor only for a scatter) and checks their data types.
template <class Mapping>
Status read_operands(const char* op, const TensorDesc& data, const TensorDesc& indices, const TensorDesc* updates,
                     const MutableTensorDesc& output, Call<Mapping>& c) noexcept {
  if (Status s = read(op, kData, "InputTensor", data, c.data); !s) return s;
  if (Status s = read(op, kIndices, "IndicesTensor", indices, c.indices); !s) return s;
  if (updates != nullptr)
    if (Status s = read(op, kUpdates, "UpdatesTensor", *updates, c.updates); !s) return s;
  if (Status s = read(op, kOutput, "OutputTensor", output, c.output); !s) return s;
  return check_data_types(op, c.data, c.indices, updates != nullptr ? &c.updates : nullptr, c.output);
}

/// Keeps the call's mapping once output has the ONNX shape `expected(c)` (`rule` says which), and
/// names the call's tensors in their natural ranks.
template <class Mapping, class Expected>
Status take_mapping(const char* op, const Result<Mapping>& mapped, Call<Mapping>& c, Expected expected,
                    const char* rule) noexcept {
  if (!mapped) return mapped.status();
  c.m = *mapped;
  if (Status s = check_same(op, kOutput, expected(c), c.output.sizes, rule); !s) return s;
  c.naming = Naming{op, c.m.dimension_count, c.data.rank(), c.indices.rank(), c.updates.rank(), c.output.rank()};
  return Status();
}

/// ONNX's output shapes, as take_mapping's `expected`.
inline constexpr auto mapped_output = [](const auto& c) -> const Shape& { return c.m.onnx_output; };
inline constexpr auto data_shape = [](const auto& c) -> const Shape& { return c.data.sizes; };
inline constexpr auto indices_shape = [](const auto& c) -> const Shape& { return c.indices.sizes; };

/// The DirectML rules of Options that a helper applies itself, since an empty tensor makes no
/// DirectML call to apply them: valid option values, and under a level no `reduction`.
inline Status check_directml_options(const char* op, const Options& options,
                                     Reduction reduction = Reduction::none) noexcept {
  if (Status s = dmlref::detail::check_options(op, options); !s) return s;
  if (options.feature_level != 0 && reduction != Reduction::none)
    return dmlref::detail::reduction_unavailable(op, "reduction", reduction, options.feature_level);
  return Status();
}

inline Status prepare_gather(const TensorDesc& data_desc, const TensorDesc& indices_desc,
                             const MutableTensorDesc& output_desc, std::int64_t axis,
                             Call<GatherMapping>& c) noexcept {
  constexpr const char* op = "Gather";
  if (Status s = read_operands(op, data_desc, indices_desc, nullptr, output_desc, c); !s) return s;
  return take_mapping(op, map_gather(op, c.data.sizes, c.indices.sizes, axis), c, mapped_output,
                      "ONNX: data.shape[:axis] ++ indices.shape ++ data.shape[axis+1:]");
}

/// An empty tensor makes Gather a no-op whose index values are still checked.
inline bool is_noop(const Call<GatherMapping>& c) noexcept { return c.m.empty || c.output.empty(); }
inline Status check_noop(const Call<GatherMapping>& c, const Options& options) noexcept {
  const int D = c.m.dimension_count;
  const int a = static_cast<int>(c.m.params.Axis) - (D - c.data.rank());
  return check_values(c.naming.op, c.naming, c.indices, D, c.data, a, false, options.index_policy);
}

inline Status gather(const TensorDesc& data_desc, const TensorDesc& indices_desc, const MutableTensorDesc& output_desc,
                     std::int64_t axis, const Options& options) noexcept {
  Call<GatherMapping> c;
  if (Status s = prepare_gather(data_desc, indices_desc, output_desc, axis, c); !s) return s;
  if (Status s = check_directml_options(c.naming.op, options); !s) return s;
  if (is_noop(c)) return check_noop(c, options);
  const int D = c.m.dimension_count;
  const Padded in(c.data, D), idx(c.indices, D), out(c.output, D);
  return c.naming.translate(dmlref::try_gather(in.input(), idx.input(), out.output(), c.m.params, options));
}

inline Status prepare_gather_elements(const TensorDesc& data_desc, const TensorDesc& indices_desc,
                                      const MutableTensorDesc& output_desc, std::int64_t axis,
                                      Call<GatherElementsMapping>& c) noexcept {
  constexpr const char* op = "GatherElements";
  if (Status s = read_operands(op, data_desc, indices_desc, nullptr, output_desc, c); !s) return s;
  return take_mapping(op, map_gather_elements(op, c.data.sizes, c.indices.sizes, axis), c, indices_shape,
                      "ONNX: output has the shape of indices");
}

inline bool is_noop(const Call<GatherElementsMapping>& c) noexcept { return c.m.empty; }
inline Status check_noop(const Call<GatherElementsMapping>& c, const Options& options) noexcept {
  return check_values(c.naming.op, c.naming, c.indices, c.m.dimension_count, c.data, static_cast<int>(c.m.params.Axis),
                      false, options.index_policy);
}

inline Status gather_elements(const TensorDesc& data_desc, const TensorDesc& indices_desc,
                              const MutableTensorDesc& output_desc, std::int64_t axis,
                              const Options& options) noexcept {
  Call<GatherElementsMapping> c;
  if (Status s = prepare_gather_elements(data_desc, indices_desc, output_desc, axis, c); !s) return s;
  if (Status s = check_directml_options(c.naming.op, options); !s) return s;
  if (is_noop(c)) return check_noop(c, options);
  const int D = c.m.dimension_count;
  const Padded in(c.data, D, &c.m.input), idx(c.indices, D), out(c.output, D);
  return c.naming.translate(dmlref::try_gather_elements(in.input(), idx.input(), out.output(), c.m.params, options));
}

inline Status prepare_gather_nd(const TensorDesc& data_desc, const TensorDesc& indices_desc,
                                const MutableTensorDesc& output_desc, std::int64_t batch_dims,
                                Call<GatherNDMapping>& c) noexcept {
  constexpr const char* op = "GatherND";
  if (Status s = read_operands(op, data_desc, indices_desc, nullptr, output_desc, c); !s) return s;
  return take_mapping(op, map_gather_nd(op, c.data.sizes, c.indices.sizes, batch_dims), c, mapped_output,
                      "ONNX: indices.shape[:-1] ++ data.shape[batch_dims + indices.shape[-1]:]");
}

inline bool is_noop(const Call<GatherNDMapping>& c) noexcept { return c.m.empty || c.output.empty(); }
inline Status check_noop(const Call<GatherNDMapping>& c, const Options& options) noexcept {
  return check_values(c.naming.op, c.naming, c.indices, c.m.dimension_count, c.data,
                      static_cast<int>(c.m.params.BatchDimensionCount), true, options.index_policy);
}

inline Status gather_nd(const TensorDesc& data_desc, const TensorDesc& indices_desc, const MutableTensorDesc& output_desc,
                        std::int64_t batch_dims, const Options& options) noexcept {
  Call<GatherNDMapping> c;
  if (Status s = prepare_gather_nd(data_desc, indices_desc, output_desc, batch_dims, c); !s) return s;
  if (Status s = check_directml_options(c.naming.op, options); !s) return s;
  if (is_noop(c)) return check_noop(c, options);
  const int D = c.m.dimension_count;
  const Padded in(c.data, D), idx(c.indices, D), out(c.output, D);
  if (c.m.params.BatchDimensionCount == 0)
    return c.naming.translate(dmlref::try_gather_nd(
        in.input(), idx.input(), out.output(),
        GatherNDParams{c.m.params.InputDimensionCount, c.m.params.IndicesDimensionCount}, options));
  return c.naming.translate(dmlref::try_gather_nd1(in.input(), idx.input(), out.output(), c.m.params, options));
}

inline Status prepare_scatter_elements(const char* op, const TensorDesc& data_desc, const TensorDesc& indices_desc,
                                       const TensorDesc& updates_desc, const MutableTensorDesc& output_desc,
                                       std::int64_t axis, Reduction reduction, Call<ScatterMapping>& c) noexcept {
  if (Status s = read_operands(op, data_desc, indices_desc, &updates_desc, output_desc, c); !s) return s;
  return take_mapping(op, map_scatter(op, c.data.sizes, c.indices.sizes, c.updates.sizes, axis, reduction), c,
                      data_shape, "ONNX: output has the shape of data");
}

/// Indices empty: output = data. Data empty with indices that are not: the axis is empty, so
/// every index value is out of range.
inline bool is_noop(const Call<ScatterMapping>& c) noexcept { return c.m.empty; }
inline Status check_noop(const Call<ScatterMapping>& c, const Options& options) noexcept {
  const int D = c.m.dimension_count;
  if (Status s = check_values(c.naming.op, c.naming, c.indices, D, c.data, static_cast<int>(c.m.params.Axis), false,
                              options.index_policy);
      !s)
    return s;
  if (c.data.empty()) return Status();
  return check_copy(c.naming.op, c.naming, c.data, c.output, D, nullptr, nullptr);
}

/// A scatter that makes no DirectML call: its checks, then output = data.
template <class Mapping>
Status scatter_noop(const Call<Mapping>& c, const Options& options) noexcept {
  if (Status s = check_noop(c, options); !s) return s;
  if (!c.data.empty() && !same_layout(c.data, c.output)) copy_elements(c.data, c.output, nullptr);
  return Status();
}

inline Status scatter_elements(const char* op, const TensorDesc& data_desc, const TensorDesc& indices_desc,
                               const TensorDesc& updates_desc, const MutableTensorDesc& output_desc,
                               std::int64_t axis, Reduction reduction, const Options& options) noexcept {
  Call<ScatterMapping> c;
  if (Status s = prepare_scatter_elements(op, data_desc, indices_desc, updates_desc, output_desc, axis, reduction, c);
      !s)
    return s;
  if (Status s = check_directml_options(op, options, reduction); !s) return s;
  const ScatterMapping& m = c.m;
  const int D = m.dimension_count;
  if (is_noop(c)) return scatter_noop(c, options);
  const Padded idx(c.indices, D), upd(c.updates, D);
  if (!m.is_cropped) {
    const Padded in(c.data, D), out(c.output, D);
    return c.naming.translate(
        dmlref::try_scatter(in.input(), idx.input(), upd.input(), out.output(), m.params, options));
  }
  // Indices smaller than data off the axis: the DirectML call scatters into output cropped to the
  // indices (reading data cropped alike, or in place), then the rest of data is copied. Everything
  // the call does not check about the full tensors is checked first, so a failure writes nothing.
  const bool in_place = same_layout(c.data, c.output);
  if (Status s = check_copy(op, c.naming, c.data, c.output, D, &c.indices, &c.updates); !s) return s;
  const Padded in(in_place ? c.output : c.data, D, &m.cropped), out(c.output, D, &m.cropped);
  if (Status s = c.naming.translate(
          dmlref::try_scatter(in.input(), idx.input(), upd.input(), out.output(), m.params, options));
      !s)
    return s;
  if (!in_place) copy_elements(c.data, c.output, &m.cropped);
  return Status();
}

inline Status prepare_scatter_nd(const TensorDesc& data_desc, const TensorDesc& indices_desc,
                                 const TensorDesc& updates_desc, const MutableTensorDesc& output_desc,
                                 Reduction reduction, Call<ScatterNDMapping>& c) noexcept {
  constexpr const char* op = "ScatterND";
  if (Status s = read_operands(op, data_desc, indices_desc, &updates_desc, output_desc, c); !s) return s;
  return take_mapping(op, map_scatter_nd(op, c.data.sizes, c.indices.sizes, &c.updates.sizes, reduction), c,
                      data_shape, "ONNX: output has the shape of data");
}

/// No update element: output = data, after checking the tuples (if any) against data.
inline bool is_noop(const Call<ScatterNDMapping>& c) noexcept { return c.m.empty; }
inline Status check_noop(const Call<ScatterNDMapping>& c, const Options& options) noexcept {
  const int D = c.m.dimension_count;
  if (Status s = check_values(c.naming.op, c.naming, c.indices, D, c.data, 0, true, options.index_policy); !s)
    return s;
  if (c.data.empty()) return Status();
  return check_copy(c.naming.op, c.naming, c.data, c.output, D, nullptr, nullptr);
}

inline Status scatter_nd(const TensorDesc& data_desc, const TensorDesc& indices_desc, const TensorDesc& updates_desc,
                         const MutableTensorDesc& output_desc, Reduction reduction, const Options& options) noexcept {
  Call<ScatterNDMapping> c;
  if (Status s = prepare_scatter_nd(data_desc, indices_desc, updates_desc, output_desc, reduction, c); !s) return s;
  if (Status s = check_directml_options(c.naming.op, options, reduction); !s) return s;
  if (is_noop(c)) return scatter_noop(c, options);
  const int D = c.m.dimension_count;
  const Padded in(c.data, D), idx(c.indices, D), upd(c.updates, D), out(c.output, D);
  return c.naming.translate(
      dmlref::try_scatter_nd(in.input(), idx.input(), upd.input(), out.output(), c.m.params, options));
}


}  // namespace dmlref::onnx::detail

#endif  // DMLREF_DETAIL_ONNX_CALLS_HPP
