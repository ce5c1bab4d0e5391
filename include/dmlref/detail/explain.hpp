#ifndef DMLREF_DETAIL_EXPLAIN_HPP
#define DMLREF_DETAIL_EXPLAIN_HPP

#include <cstdint>
#include <cstring>
#include <type_traits>
#include <utility>
#include <vector>

#include "../data_type.hpp"
#include "../options.hpp"
#include "../ops/gather.hpp"
#include "../ops/gather_elements.hpp"
#include "../ops/gather_nd.hpp"
#include "../ops/scatter.hpp"
#include "../ops/scatter_nd.hpp"
#include "../provenance.hpp"
#include "../reduction.hpp"
#include "../shape.hpp"
#include "../status.hpp"
#include "operator.hpp"
#include "reduce.hpp"
#include "tensor.hpp"

// Where one output element comes from, for explain.hpp. A call is validated exactly as the
// operator validates it (check_call, operator.hpp); then the element's source is found from the
// operator's semantics (docs/semantics.md), one element at a time, written once per operator
// family. That mapping shares nothing with the plan or the kernels, index normalisation included:
// tests check each explanation against the operator's actual result, and a wrong kernel must not
// find its twin here. A reduction's arithmetic is the one thing shared (reduce.hpp's combine
// functions), so that every step shown is the operator's own, float16 rounding included.

namespace dmlref::detail {

// ---- validation -------------------------------------------------------------------------------

/// What validating a call needs of the kernels: the index check, a scatter's collision check and
/// combine function. No copy kernel is named, so an explanation compiles none.
struct ExplainKernels {
  Status (*check_indices)(const Plan&, RowRange) noexcept;
  CombineFn (*combine)(DataType, Reduction) noexcept;
  Status (*find_collision)(const Plan&, const Shape&, const Shape&) noexcept;
};

template <Flow F, class T, class I>
ExplainKernels typed_explain_kernels() noexcept {
  if constexpr (F == Flow::gather) {
    return {&check_indices<I>, nullptr, nullptr};
  } else {
    return {&check_indices<I>, &combine_of<T>, &find_collision<I>};
  }
}

template <Flow F>
ExplainKernels runtime_explain_kernels(DataType index_type) noexcept {
  return visit_index_type(index_type, [](auto index) -> ExplainKernels {
    using I = decltype(index);
    if constexpr (F == Flow::gather) {
      return {&check_indices<I>, nullptr, nullptr};
    } else {
      return {&check_indices<I>, &select_combine<>, &find_collision<I>};
    }
  });
}

/// `at` must be a coordinate of a tensor of these sizes: coordinate_out_of_range otherwise.
inline Status check_coordinate(const char* op, const char* tensor, const Shape& sizes, const Shape& at) {
  Error e;
  e.code = ErrorCode::coordinate_out_of_range;
  e.op = op;
  e.tensor = tensor;
  e.position = at;
  if (at.rank() != sizes.rank()) {
    e.expected = ErrorValue::of(static_cast<std::int64_t>(sizes.rank()));
    e.actual = ErrorValue::of(static_cast<std::int64_t>(at.rank()));
    return Status(e);
  }
  for (int d = 0; d < sizes.rank(); ++d) {
    if (at[d] >= 0 && at[d] < sizes[d]) continue;
    e.field_index = d;
    e.expected = sizes[d] > 0 ? ErrorValue::range(0, sizes[d] - 1) : ErrorValue::of_text("nothing (the size is 0)");
    e.actual = ErrorValue::of(at[d]);
    return Status(e);
  }
  return Status();
}

// ---- reading elements -------------------------------------------------------------------------

inline std::int64_t offset_of(const RawTensor& t, const Shape& c) noexcept {
  std::int64_t offset = 0;
  for (int d = 0; d < t.sizes.rank(); ++d) offset += c[d] * t.strides[d];
  return offset;
}

/// The bits of the element at coordinate `c` of a checked tensor.
inline Element element_at(const RawTensor& t, const Shape& c) noexcept {
  const std::size_t width = element_size(t.type);
  const unsigned char* p = t.data + offset_of(t, c) * static_cast<std::int64_t>(width);
  Element e;
  e.type = t.type;
  switch (width) {
    case 1: { std::uint8_t v; std::memcpy(&v, p, 1); e.bits = v; break; }
    case 2: { std::uint16_t v; std::memcpy(&v, p, 2); e.bits = v; break; }
    case 4: { std::uint32_t v; std::memcpy(&v, p, 4); e.bits = v; break; }
    default: std::memcpy(&e.bits, p, 8); break;
  }
  return e;
}

/// An element's bytes in memory, for a combine function.
inline void store_element(const Element& e, unsigned char* bytes) noexcept {
  switch (element_size(e.type)) {
    case 1: { const auto v = static_cast<std::uint8_t>(e.bits); std::memcpy(bytes, &v, 1); break; }
    case 2: { const auto v = static_cast<std::uint16_t>(e.bits); std::memcpy(bytes, &v, 2); break; }
    case 4: { const auto v = static_cast<std::uint32_t>(e.bits); std::memcpy(bytes, &v, 4); break; }
    default: std::memcpy(bytes, &e.bits, 8); break;
  }
}

inline Element load_element(DataType type, const unsigned char* bytes) noexcept {
  RawTensor t;
  t.type = type;
  t.data = const_cast<unsigned char*>(bytes);
  return element_at(t, Shape());
}

/// The index value at `c` and the position it addresses in a dimension of `n`, read as
/// docs/semantics.md says: under IndexPolicy::clamp first clamped into [-n, n-1] (unsigned:
/// [0, n-1]), then a negative value counts from the end. Validation has checked the value when
/// the policy is error.
inline IndexRead read_index(const RawTensor& indices, const Shape& c, int dimension, std::int64_t n,
                            IndexPolicy policy) noexcept {
  IndexRead r;
  r.coordinate = c;
  r.value = element_at(indices, c);
  r.dimension = dimension;
  r.size = n;
  if (is_signed_integer(indices.type)) {
    const int shift = 64 - 8 * static_cast<int>(element_size(indices.type));
    const std::int64_t v = static_cast<std::int64_t>(r.value.bits << shift) >> shift;  // sign-extended
    std::int64_t w = v;
    if (policy == IndexPolicy::clamp) w = v < -n ? -n : (v > n - 1 ? n - 1 : v);
    r.clamped = w != v;
    r.clamped_to = w;
    r.position = w < 0 ? w + n : w;
  } else {
    const std::uint64_t v = r.value.bits;
    const std::uint64_t last = static_cast<std::uint64_t>(n - 1);
    const std::uint64_t w = policy == IndexPolicy::clamp && v > last ? last : v;
    r.clamped = w != v;
    r.clamped_to = static_cast<std::int64_t>(w);
    r.position = static_cast<std::int64_t>(w);
  }
  return r;
}

/// A scatter's output element, updated step by step as the operator updates it.
struct Accumulator {
  Element value;
  CombineFn combine;  ///< null for Reduction::none: the update replaces the value

  void apply(Update& update) noexcept {
    if (combine == nullptr) {
      value = update.value;
    } else {
      unsigned char dst[8], src[8];
      store_element(value, dst);
      store_element(update.value, src);
      combine(dst, src);
      value = load_element(value.type, dst);
    }
    update.result = value;
  }
};

/// Steps `c` to the next coordinate of `sizes` in row-major order, over dimensions [first, last)
/// only; false after the last one.
inline bool next_coordinate(Shape& c, const Shape& sizes, int first, int last) noexcept {
  for (int d = last - 1; d >= first; --d) {
    if (++c[d] < sizes[d]) return true;
    c[d] = 0;
  }
  return false;
}

// ---- Gather -----------------------------------------------------------------------------------

/// Output[outer, j, inner] = Input[outer, normalize(Indices[j], In[Axis]), inner]: the output
/// coordinate laid out like L = In[0, Axis) ⧺ Idx[D-P, D) ⧺ In[Axis+1, D), whose entry k is output
/// dimension k + shift (entries dropped by right-alignment have size 1: coordinate 0).
inline void explain_at(const Operands& t, const GatherParams& params, const Shape& o, const Options& options,
                       CombineFn, Provenance& p) {
  const int D = t.rank();
  const int axis = static_cast<int>(params.Axis);
  const int P = static_cast<int>(params.IndexDimensions);
  const int shift = P == 0 ? 1 : 1 - P;
  auto L = [&](int k) { return k + shift >= 0 ? o[k + shift] : std::int64_t{0}; };
  Shape j = Shape::filled(D, 0);
  for (int m = 0; m < P; ++m) j[D - P + m] = L(axis + m);
  const IndexRead r = read_index(t.indices(), j, axis, t.input().sizes[axis], options.index_policy);
  Shape in;
  for (int d = 0; d < axis; ++d) in.push_back(L(d));
  in.push_back(r.position);
  for (int d = axis + 1; d < D; ++d) in.push_back(L(d + P - 1));
  p.indices.push_back(r);
  p.input = in;
  p.value = p.input_value = element_at(t.input(), in);
}

// ---- GatherElements and Scatter: element u addresses u with u[Axis] := normalize(Indices[u]) ----

inline void explain_at(const Operands& t, const GatherElementsParams& params, const Shape& o,
                       const Options& options, CombineFn, Provenance& p) {
  const int axis = static_cast<int>(params.Axis);
  const IndexRead r = read_index(t.indices(), o, axis, t.input().sizes[axis], options.index_policy);
  p.input = o;
  p.input[axis] = r.position;
  p.indices.push_back(r);
  p.value = p.input_value = element_at(t.input(), p.input);
}

/// The updates that can address output element o differ from it along Axis only: one line of
/// IndicesTensor, in row-major order.
inline void explain_at(const Operands& t, const ScatterParams& params, const Shape& o, const Options& options,
                       CombineFn combine, Provenance& p) {
  const int axis = static_cast<int>(params.Axis);
  p.input = o;
  p.input_value = element_at(t.input(), o);
  Accumulator out{p.input_value, combine};
  Shape u = o;
  for (u[axis] = 0; u[axis] < t.indices().sizes[axis]; ++u[axis]) {
    const IndexRead r = read_index(t.indices(), u, axis, t.output().sizes[axis], options.index_policy);
    if (r.position != o[axis]) continue;
    Update update;
    update.coordinate = u;
    update.indices.push_back(r);
    update.value = element_at(t.updates(), u);
    out.apply(update);
    p.updates.push_back(update);
  }
  p.value = out.value;
}

// ---- GatherND, GatherND1 and ScatterND: tuple g addresses (batch, normalize(tuple(g)), t) --------

/// The ND attributes (B = 0 for GatherND and ScatterND) and the sizes they imply.
struct NDShape {
  int D, r, q, B, K, M;
  NDShape(const Operands& t, std::uint32_t r_, std::uint32_t q_, std::uint32_t B_) noexcept
      : D(t.rank()), r(static_cast<int>(r_)), q(static_cast<int>(q_)), B(static_cast<int>(B_)),
        K(static_cast<int>(t.indices().sizes[D - 1])), M((q - 1) + (r - B - K)) {}
};

/// Tuple g (q - 1 entries, the batch first): IndicesTensor[(0 × (D−q)) ⧺ g ⧺ (k)] for k < K, each
/// normalised into the indexed tensor's dimension D - r + B + k.
inline std::vector<IndexRead> read_tuple(const Operands& t, const NDShape& s, const Shape& g,
                                         const Shape& indexed_sizes, IndexPolicy policy) {
  std::vector<IndexRead> tuple;
  Shape j = Shape::filled(s.D, 0);
  for (int m = 0; m < s.q - 1; ++m) j[s.D - s.q + m] = g[m];
  for (int k = 0; k < s.K; ++k) {
    j[s.D - 1] = k;
    const int d = s.D - s.r + s.B + k;
    tuple.push_back(read_index(t.indices(), j, d, indexed_sizes[d], policy));
  }
  return tuple;
}

/// Output[g, t] = Input[g[0, B), normalize(tuple(g)), t], with g = o[D-M, D-M+q-1) and
/// t = o[D-M+q-1, D).
inline void explain_nd_at(const Operands& t, const NDShape& s, const Shape& o, const Options& options,
                          Provenance& p) {
  Shape g;
  for (int m = 0; m < s.q - 1; ++m) g.push_back(o[s.D - s.M + m]);
  p.indices = read_tuple(t, s, g, t.input().sizes, options.index_policy);
  Shape in = Shape::filled(s.D - s.r, 0);
  for (int b = 0; b < s.B; ++b) in.push_back(g[b]);
  for (const IndexRead& r : p.indices) in.push_back(r.position);
  for (int m = s.D - s.M + s.q - 1; m < s.D; ++m) in.push_back(o[m]);
  p.input = in;
  p.value = p.input_value = element_at(t.input(), in);
}

inline void explain_at(const Operands& t, const GatherNDParams& params, const Shape& o, const Options& options,
                       CombineFn, Provenance& p) {
  explain_nd_at(t, NDShape(t, params.InputDimensionCount, params.IndicesDimensionCount, 0), o, options, p);
}

inline void explain_at(const Operands& t, const GatherND1Params& params, const Shape& o, const Options& options,
                       CombineFn, Provenance& p) {
  explain_nd_at(t, NDShape(t, params.InputDimensionCount, params.IndicesDimensionCount, params.BatchDimensionCount),
                o, options, p);
}

/// Every tuple g, in row-major order, whose positions equal o's coordinates in the K addressed
/// dimensions writes Updates[(0 × (D−M)) ⧺ g ⧺ t] there, t being o's block coordinates.
inline void explain_at(const Operands& t, const ScatterNDParams& params, const Shape& o, const Options& options,
                       CombineFn combine, Provenance& p) {
  const NDShape s(t, params.InputDimensionCount, params.IndicesDimensionCount, 0);
  p.input = o;
  p.input_value = element_at(t.input(), o);
  Accumulator out{p.input_value, combine};
  Shape g = Shape::filled(s.q - 1, 0);
  Shape tuple_sizes;
  for (int m = 0; m < s.q - 1; ++m) tuple_sizes.push_back(t.indices().sizes[s.D - s.q + m]);
  do {
    std::vector<IndexRead> tuple = read_tuple(t, s, g, t.output().sizes, options.index_policy);
    bool hits = true;
    for (const IndexRead& r : tuple) hits = hits && r.position == o[r.dimension];
    if (!hits) continue;
    Update update;
    update.coordinate = Shape::filled(s.D - s.M, 0);
    for (std::int64_t v : g) update.coordinate.push_back(v);
    for (int d = s.D - s.r + s.K; d < s.D; ++d) update.coordinate.push_back(o[d]);
    update.indices = std::move(tuple);
    update.value = element_at(t.updates(), update.coordinate);
    out.apply(update);
    p.updates.push_back(std::move(update));
  } while (next_coordinate(g, tuple_sizes, 0, s.q - 1));
  p.value = out.value;
}

// ---- the call ---------------------------------------------------------------------------------

/// Validates the call as the operator would (every check, nothing written), then explains
/// OutputTensor's element `at`.
template <class Op>
Result<Provenance> explain_call(Operands& t, const typename Op::Params& params, const Shape& at,
                                const Options& options, const ExplainKernels& kernels) {
  if (Status s = check_call<Op>(t, params, options, kernels); !s) return s;
  if (Status s = check_coordinate(Op::name, t.output().name, t.output().sizes, at); !s) return s;
  Provenance p;
  p.op = Op::name;
  p.output = at;
  p.tuples = std::is_same_v<typename Op::Params, GatherNDParams> ||
             std::is_same_v<typename Op::Params, GatherND1Params> || std::is_same_v<typename Op::Params, ScatterNDParams>;
  CombineFn combine = nullptr;
  if constexpr (Op::flow == Flow::scatter) {
    p.scatter = true;
    p.reduction = params.Reduction;
    if (params.Reduction != Reduction::none) combine = kernels.combine(t.input().type, params.Reduction);
  }
  explain_at(t, params, at, options, combine, p);
  p.source = p.updates.empty() ? Source::input : Source::updates;
  return p;
}

/// The typed layer: views in field order (the output's may be const: it is never written).
template <class Op, class T, class I, class... Views, std::size_t... K>
Result<Provenance> explain_typed(std::index_sequence<K...>, const typename Op::Params& params, const Shape& at,
                                 const Options& options, const Views&... views) {
  constexpr int count = sizeof...(Views);
  const RawTensor tensors[] = {raw(field_name(static_cast<int>(K), count), views)...};
  Operands t = operands_of(tensors);
  return explain_call<Op>(t, params, at, options, typed_explain_kernels<Op::flow, T, I>());
}

template <class Op, class In, class Idx, class... Views>
Result<Provenance> explain_typed(const typename Op::Params& params, const Shape& at, const Options& options,
                                 const TensorView<In>& input, const TensorView<Idx>& indices, const Views&... views) {
  return explain_typed<Op, std::remove_const_t<In>, std::remove_const_t<Idx>>(
      std::index_sequence_for<In, Idx, Views...>{}, params, at, options, input, indices, views...);
}

/// The dispatch layer: descriptors in field order.
template <class Op, class... Descs, std::size_t... K>
Result<Provenance> explain_described(std::index_sequence<K...>, const typename Op::Params& params, const Shape& at,
                                     const Options& options, const Descs&... descs) {
  constexpr int count = sizeof...(Descs);
  Status checks[] = {check_desc(Op::name, field_name(static_cast<int>(K), count), descs)...};
  for (Status& s : checks)
    if (!s) return s;
  const DescShapes shapes[] = {shapes_of(descs)...};
  const RawTensor tensors[] = {raw(field_name(static_cast<int>(K), count), descs, shapes[K])...};
  Operands t = operands_of(tensors);
  return explain_call<Op>(t, params, at, options, runtime_explain_kernels<Op::flow>(tensors[1].type));
}

template <class Op, class... Descs>
Result<Provenance> explain_described(const typename Op::Params& params, const Shape& at, const Options& options,
                                     const Descs&... descs) {
  return explain_described<Op>(std::index_sequence_for<Descs...>{}, params, at, options, descs...);
}

template <class In, class Idx, class Out>
constexpr void assert_explained_types() noexcept {
  static_assert(std::is_same_v<std::remove_const_t<In>, std::remove_const_t<Out>>,
                "InputTensor, UpdatesTensor and OutputTensor must share one element type");
  assert_index_type<Idx>();
}

}  // namespace dmlref::detail

#endif  // DMLREF_DETAIL_EXPLAIN_HPP
