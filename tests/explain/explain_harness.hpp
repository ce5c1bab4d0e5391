// explain.hpp on the random cases of support/random_cases.hpp: explain_* through the same API layer
// as run_library, and what the oracle says about where each output element comes from.
#pragma once

#include <cstdint>
#include <cstring>
#include <vector>

#include <dmlref/explain.hpp>

#include "support/oracle.hpp"
#include "support/random_cases.hpp"
#include "support/type_switch.hpp"

namespace explain_harness {

using random_cases::Case;
using random_cases::Layer;
using random_cases::Op;
using random_cases::Sizes;

/// The case's tensors as a call sees them before it runs (a fresh copy of the initial output, which
/// is the input of an in-place scatter).
struct Tensors {
  std::vector<unsigned char> output_buffer;
  unsigned char* out = nullptr;
  const unsigned char* in = nullptr;
  const unsigned char* idx = nullptr;
  const unsigned char* upd = nullptr;

  explicit Tensors(const Case& c) : output_buffer(c.initial_output()) {
    using random_cases::first_byte;
    const std::size_t es = c.esize();
    out = output_buffer.data() + first_byte(c.output, es);
    in = c.in_place ? out : c.input_buf.data() + first_byte(c.input, es);
    idx = c.indices_buf.data() + first_byte(c.indices, random_cases::size_of(c.itype));
    upd = random_cases::is_scatter(c.op) ? c.updates_buf.data() + first_byte(c.updates, es) : nullptr;
  }
};

inline dmlref::Shape shape(const Sizes& s) { return dmlref::Shape::from(s.data(), s.size()); }

/// explain_<op>(input, indices, [updates,] output, params, at, options) for the call's operator,
/// over descriptors or views alike (runner.hpp's call_operator with `at`).
template <class In, class Idx, class Out>
dmlref::Result<dmlref::Provenance> explain_operator(const harness::Call& c, const In& in, const Idx& idx,
                                                    const In& upd, const Out& out, const dmlref::Shape& at) {
  const std::uint32_t* a = c.attr;
  switch (c.op) {
    case Op::gather: return dmlref::explain_gather(in, idx, out, {a[0], a[1]}, at, c.options);
    case Op::gather_elements: return dmlref::explain_gather_elements(in, idx, out, {a[0]}, at, c.options);
    case Op::gather_nd: return dmlref::explain_gather_nd(in, idx, out, {a[0], a[1]}, at, c.options);
    case Op::gather_nd1: return dmlref::explain_gather_nd1(in, idx, out, {a[0], a[1], a[2]}, at, c.options);
    case Op::scatter: return dmlref::explain_scatter(in, idx, upd, out, {a[0], c.reduction}, at, c.options);
    case Op::scatter_nd:
      return dmlref::explain_scatter_nd(in, idx, upd, out, {a[0], a[1], c.reduction}, at, c.options);
  }
  return dmlref::Status();
}

/// explain_* of the case's output element `at`, through `layer` (storage types: an unsigned integer
/// of the element's width; the provenance's elements then have that type). OutputTensor is passed
/// const: explain never writes it.
inline dmlref::Result<dmlref::Provenance> explain_case(const Case& c, Layer layer, const Tensors& t,
                                                       const dmlref::Shape& at, const dmlref::Options& o,
                                                       dmlref::Reduction reduction = dmlref::Reduction::none) {
  using namespace harness;
  Call call = random_cases::to_call(c, t.in, t.out, o);
  call.reduction = reduction;
  const Operand* op = call.t;
  if (layer == Layer::dispatch) {
    return explain_operator(call, desc(op[kInput], op[kInput].data), desc(op[kIndices], op[kIndices].data),
                            desc(op[kUpdates], op[kUpdates].data), desc(op[kOutput], op[kOutput].data), at);
  }
  auto typed = [&](auto data) {
    return with_index_type(op[kIndices].type, [&](auto index) {
      using T = typename decltype(data)::type;
      using I = typename decltype(index)::type;
      const auto upd = call.uses(kUpdates) ? view<const T>(op[kUpdates]) : dmlref::TensorView<const T>();
      return explain_operator(call, view<const T>(op[kInput]), view<const I>(op[kIndices]), upd,
                              view<const T>(op[kOutput]), at);
    });
  };
  if (layer == Layer::typed_storage) return with_storage_type(c.esize(), typed);
  return with_native_type(op[kInput].type, typed);
}

/// The bits of element `c` of a tensor laid out as `l` in `buffer` (guards included).
inline std::uint64_t bits_at(const std::vector<unsigned char>& buffer, const random_cases::Layout& l, std::size_t es,
                             const Sizes& c) {
  return random_cases::load_bits(buffer.data() + random_cases::byte_at(l, es, c), es);
}

inline Sizes sizes(const dmlref::Shape& s) { return Sizes(s.begin(), s.end()); }

/// Where the oracle copies each element from: the case run with 8-byte data whose elements are
/// their own row-major positions + 1 (gathers: InputTensor's, with OutputTensor's packed; scatters:
/// UpdatesTensor's, over a zero InputTensor, so that 0 means "no update"). Indexed by the output
/// element's row-major position.
inline std::vector<std::uint64_t> oracle_sources(const Case& c, oracle::Policy policy) {
  const bool scatter = random_cases::is_scatter(c.op);
  const Sizes& source_sizes = scatter ? c.updates.sizes : c.input.sizes;
  std::vector<std::uint64_t> ids(static_cast<std::size_t>(random_cases::count(source_sizes)));
  for (std::size_t k = 0; k < ids.size(); ++k) ids[k] = k + 1;
  std::vector<std::uint64_t> zeros(static_cast<std::size_t>(random_cases::count(c.input.sizes)), 0);
  std::vector<std::uint64_t> out(static_cast<std::size_t>(random_cases::count(c.output.sizes)), 0);
  const auto* id_bytes = reinterpret_cast<const unsigned char*>(ids.data());
  const oracle::Tensor input{scatter ? reinterpret_cast<const unsigned char*>(zeros.data()) : id_bytes, 8,
                             c.input.sizes, random_cases::packed_strides(c.input.sizes)};
  const oracle::Indices indices{c.indices_buf.data() + random_cases::first_byte(c.indices, random_cases::size_of(c.itype)),
                                random_cases::kind_of(c.itype), c.indices.sizes, c.indices.strides};
  const oracle::Output output{reinterpret_cast<unsigned char*>(out.data()), 8, c.output.sizes,
                              random_cases::packed_strides(c.output.sizes)};
  oracle::Result r{false, ""};
  switch (c.op) {
    case Op::gather: r = oracle::gather(input, indices, output, c.axis, c.index_dimensions, policy); break;
    case Op::gather_elements: r = oracle::gather_elements(input, indices, output, c.axis, policy); break;
    case Op::gather_nd: r = oracle::gather_nd(input, indices, output, c.r, c.q, policy); break;
    case Op::gather_nd1: r = oracle::gather_nd1(input, indices, output, c.r, c.q, c.B, policy); break;
    case Op::scatter:
    case Op::scatter_nd: {
      const oracle::Tensor updates{id_bytes, 8, c.updates.sizes, random_cases::packed_strides(c.updates.sizes)};
      r = c.op == Op::scatter ? oracle::scatter(input, indices, updates, output, c.axis, policy, false)
                              : oracle::scatter_nd(input, indices, updates, output, c.r, c.q, policy, false);
      break;
    }
  }
  if (!r.ok) out.clear();
  return out;
}

}  // namespace explain_harness
