#ifndef DMLREF_DETAIL_EXPLAIN_ONNX_HPP
#define DMLREF_DETAIL_EXPLAIN_ONNX_HPP

// explain.hpp's explanations of the ONNX helpers (onnx.hpp): the helper's own checks up to its
// DirectML call (prepare_<op>), then the DirectML explanation of that call, with its coordinates
// taken back to the natural ranks. Included by explain.hpp only.

#include <cstdint>

#include "../onnx.hpp"
#include "../provenance.hpp"
#include "explain.hpp"

namespace dmlref::onnx {
namespace detail {

/// explain_* never writes the output, so a read-only descriptor of it is as good as any.
template <class Pointer>
MutableTensorDesc as_output(const BasicTensorDesc<Pointer>& d) noexcept {
  return MutableTensorDesc{d.DataType, d.DimensionCount, d.Sizes, d.Strides, d.TotalTensorSizeInBytes,
                           const_cast<void*>(static_cast<const void*>(d.Data))};
}

/// The natural coordinate `at` of an output of rank `natural` in the DirectML call's rank D (leading
/// zeros). A coordinate of another rank becomes one the call rejects too, so that the call's own
/// errors come first and its coordinate error is then reported in natural terms.
inline Shape padded_coordinate(const Shape& at, int natural, int D) noexcept {
  if (at.rank() != natural) return Shape::filled(D + 1, 0);
  Shape out = Shape::filled(D - natural, 0);
  for (std::int64_t v : at) out.push_back(v);
  return out;
}

/// A DirectML explanation in the helper's terms: natural ranks, ONNX's operator name.
inline Provenance natural(Provenance p, const Naming& n) {
  p.op = n.op;
  p.onnx = true;
  p.output = Naming::drop(p.output, n.D - n.output);
  p.input = Naming::drop(p.input, n.D - n.input);
  const int target = n.D - (p.scatter ? n.output : n.input);
  auto rename = [&](std::vector<IndexRead>& reads) {
    for (IndexRead& r : reads) {
      r.coordinate = Naming::drop(r.coordinate, n.D - n.indices);
      r.dimension -= target;
    }
  };
  rename(p.indices);
  for (Update& u : p.updates) {
    u.coordinate = Naming::drop(u.coordinate, n.D - n.updates);
    rename(u.indices);
  }
  return p;
}

/// The DirectML explanation `explained` (of the coordinate padded_coordinate made), in natural terms.
inline Result<Provenance> finish(const Result<Provenance>& explained, const Naming& n, const Shape& natural_sizes,
                                 const Shape& at) {
  if (explained) return natural(*explained, n);
  if (explained.status().code() == ErrorCode::coordinate_out_of_range)
    if (Status s = dmlref::detail::check_coordinate(n.op, kOutput, natural_sizes, at); !s) return s;
  return n.translate(explained.status());
}

/// A gather whose output is empty (ONNX's no-op) has no element to explain.
template <class Mapping>
Result<Provenance> no_element(const Call<Mapping>& c, const Shape& at) {
  if (Status s = dmlref::detail::check_coordinate(c.naming.op, kOutput, c.output.sizes, at); !s) return s;
  return dmlref::detail::error_status(ErrorCode::coordinate_out_of_range, c.naming.op, kOutput, "", -1,
                                      ErrorValue::of_text("an element"), ErrorValue::of_text("an empty output"));
}

/// A scatter's element that no update can reach (ONNX's copy of data): its provenance is data's.
template <class Mapping>
Result<Provenance> copied(const Call<Mapping>& c, const Shape& at) {
  if (Status s = dmlref::detail::check_coordinate(c.naming.op, kOutput, c.output.sizes, at); !s) return s;
  const RawTensor data{kData, c.data.type, c.data.data, c.data.sizes, c.data.strides};
  Provenance p;
  p.op = c.naming.op;
  p.onnx = true;
  p.scatter = true;
  p.tuples = std::is_same_v<Mapping, ScatterNDMapping>;
  p.reduction = c.m.params.Reduction;
  p.output = p.input = at;
  p.value = p.input_value = dmlref::detail::element_at(data, at);
  return p;
}

}  // namespace detail

/// ONNX Gather: why output[at] (natural rank) is what it is.
template <class Pointer>
Result<Provenance> explain_gather(const TensorDesc& data, const TensorDesc& indices,
                                  const BasicTensorDesc<Pointer>& output, std::int64_t axis, const Shape& at,
                                  const Options& options = {}) {
  detail::Call<GatherMapping> c;
  if (Status s = detail::prepare_gather(data, indices, detail::as_output(output), axis, c); !s) return s;
  if (detail::is_noop(c)) {
    if (Status s = detail::check_noop(c, options); !s) return s;
    return detail::no_element(c, at);
  }
  const int D = c.m.dimension_count;
  const detail::Padded in(c.data, D), idx(c.indices, D), out(c.output, D);
  return detail::finish(dmlref::explain_gather(in.input(), idx.input(), out.output(), c.m.params,
                                               detail::padded_coordinate(at, c.output.rank(), D), options),
                        c.naming, c.output.sizes, at);
}

/// ONNX GatherElements.
template <class Pointer>
Result<Provenance> explain_gather_elements(const TensorDesc& data, const TensorDesc& indices,
                                           const BasicTensorDesc<Pointer>& output, std::int64_t axis,
                                           const Shape& at, const Options& options = {}) {
  detail::Call<GatherElementsMapping> c;
  if (Status s = detail::prepare_gather_elements(data, indices, detail::as_output(output), axis, c); !s) return s;
  if (detail::is_noop(c)) {
    if (Status s = detail::check_noop(c, options); !s) return s;
    return detail::no_element(c, at);
  }
  const int D = c.m.dimension_count;
  const detail::Padded in(c.data, D, &c.m.input), idx(c.indices, D), out(c.output, D);
  return detail::finish(dmlref::explain_gather_elements(in.input(), idx.input(), out.output(), c.m.params,
                                                        detail::padded_coordinate(at, c.output.rank(), D), options),
                        c.naming, c.output.sizes, at);
}

/// ONNX GatherND with batch_dims.
template <class Pointer>
Result<Provenance> explain_gather_nd(const TensorDesc& data, const TensorDesc& indices,
                                     const BasicTensorDesc<Pointer>& output, std::int64_t batch_dims,
                                     const Shape& at, const Options& options = {}) {
  detail::Call<GatherNDMapping> c;
  if (Status s = detail::prepare_gather_nd(data, indices, detail::as_output(output), batch_dims, c); !s) return s;
  if (detail::is_noop(c)) {
    if (Status s = detail::check_noop(c, options); !s) return s;
    return detail::no_element(c, at);
  }
  const int D = c.m.dimension_count;
  const detail::Padded in(c.data, D), idx(c.indices, D), out(c.output, D);
  const Shape padded = detail::padded_coordinate(at, c.output.rank(), D);
  const Result<Provenance> explained =
      c.m.params.BatchDimensionCount == 0
          ? dmlref::explain_gather_nd(in.input(), idx.input(), out.output(),
                                      GatherNDParams{c.m.params.InputDimensionCount, c.m.params.IndicesDimensionCount},
                                      padded, options)
          : dmlref::explain_gather_nd1(in.input(), idx.input(), out.output(), c.m.params, padded, options);
  return detail::finish(explained, c.naming, c.output.sizes, at);
}

namespace detail {

inline Result<Provenance> explain_scatter_elements(const char* op, const TensorDesc& data, const TensorDesc& indices,
                                                   const TensorDesc& updates, const MutableTensorDesc& output,
                                                   std::int64_t axis, Reduction reduction, const Shape& at,
                                                   const Options& options) {
  Call<ScatterMapping> c;
  if (Status s = prepare_scatter_elements(op, data, indices, updates, output, axis, reduction, c); !s) return s;
  if (is_noop(c)) {
    if (Status s = check_noop(c, options); !s) return s;
    return copied(c, at);
  }
  const ScatterMapping& m = c.m;
  const int D = m.dimension_count;
  const Padded idx(c.indices, D), upd(c.updates, D);
  if (!m.is_cropped) {
    const Padded in(c.data, D), out(c.output, D);
    return finish(dmlref::explain_scatter(in.input(), idx.input(), upd.input(), out.output(), m.params,
                                          padded_coordinate(at, c.output.rank(), D), options),
                  c.naming, c.output.sizes, at);
  }
  // The call covers output cropped to the indices (onnx.hpp, scatter_elements); the rest is data's.
  const bool in_place = same_layout(c.data, c.output);
  if (Status s = check_copy(op, c.naming, c.data, c.output, D, &c.indices, &c.updates); !s) return s;
  const Padded in(in_place ? c.output : c.data, D, &m.cropped), out(c.output, D, &m.cropped);
  bool inside = at.rank() == c.output.rank();
  for (int d = 0; inside && d < at.rank(); ++d) inside = at[d] >= 0 && at[d] < m.cropped[d];
  const Result<Provenance> explained =
      dmlref::explain_scatter(in.input(), idx.input(), upd.input(), out.output(), m.params,
                              inside ? at : Shape::filled(D, 0), options);
  if (!explained) return finish(explained, c.naming, c.output.sizes, at);
  return inside ? natural(*explained, c.naming) : copied(c, at);
}

}  // namespace detail

/// ONNX ScatterElements (opsets 11 to 18, with a reduction).
template <class Pointer>
Result<Provenance> explain_scatter_elements(const TensorDesc& data, const TensorDesc& indices,
                                            const TensorDesc& updates, const BasicTensorDesc<Pointer>& output,
                                            std::int64_t axis, Reduction reduction, const Shape& at,
                                            const Options& options = {}) {
  return detail::explain_scatter_elements("ScatterElements", data, indices, updates, detail::as_output(output), axis,
                                          reduction, at, options);
}

/// The deprecated ONNX Scatter: ScatterElements without a reduction.
template <class Pointer>
Result<Provenance> explain_scatter(const TensorDesc& data, const TensorDesc& indices, const TensorDesc& updates,
                                   const BasicTensorDesc<Pointer>& output, std::int64_t axis, const Shape& at,
                                   const Options& options = {}) {
  return detail::explain_scatter_elements("Scatter", data, indices, updates, detail::as_output(output), axis,
                                          Reduction::none, at, options);
}

/// ONNX ScatterND (opsets 11 to 18, with a reduction).
template <class Pointer>
Result<Provenance> explain_scatter_nd(const TensorDesc& data, const TensorDesc& indices, const TensorDesc& updates,
                                      const BasicTensorDesc<Pointer>& output, Reduction reduction, const Shape& at,
                                      const Options& options = {}) {
  detail::Call<ScatterNDMapping> c;
  if (Status s = detail::prepare_scatter_nd(data, indices, updates, detail::as_output(output), reduction, c); !s)
    return s;
  if (detail::is_noop(c)) {
    if (Status s = detail::check_noop(c, options); !s) return s;
    return detail::copied(c, at);
  }
  const int D = c.m.dimension_count;
  const detail::Padded in(c.data, D), idx(c.indices, D), upd(c.updates, D), out(c.output, D);
  return detail::finish(dmlref::explain_scatter_nd(in.input(), idx.input(), upd.input(), out.output(), c.m.params,
                                                   detail::padded_coordinate(at, c.output.rank(), D), options),
                        c.naming, c.output.sizes, at);
}

}  // namespace dmlref::onnx

#endif  // DMLREF_DETAIL_EXPLAIN_ONNX_HPP
