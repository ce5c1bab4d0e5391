// One call of one operator, described down to its descriptor fields, and the one place that runs
// such a call through dmlref's dispatch layer (TensorDesc), its typed layer (TensorView) and the
// independent oracle (support/oracle.hpp). Every harness of the tests and the fuzzer turns its own
// cases into a `Call` over buffers it owns and runs it here, so no test switches over the
// operators to call the library.
//
//   harness::Call c;                      // op, attributes, Options, four Operands
//   c.op = harness::Op::gather; c.attr[0] = 1; ...
//   c.t[harness::kInput] = {dmlref::DataType::FLOAT32, 2, sizes, nullptr, bytes, data};
//   const dmlref::Status d = harness::run_dispatch(c);
//   if (harness::typed_expressible(c)) harness::run_typed(c, harness::Typed::native);
//   const oracle::Result o = harness::run_oracle(c);   // on other buffers: each call writes
//
// The definitions are compiled once (runner.cpp; the typed layer's 264 instantiations in
// runner_typed.cpp), not in every test file.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "dmlref/dmlref.hpp"
#include "support/op.hpp"
#include "support/oracle.hpp"

namespace harness {

/// One tensor as a descriptor holds it. The arrays and the data belong to the caller and must
/// outlive the run; `strides` null means packed (Strides = nullptr, or the packed TensorView).
struct Operand {
  dmlref::DataType type = dmlref::DataType::UNKNOWN;
  std::uint32_t dimension_count = 0;
  const std::int64_t* sizes = nullptr;
  const std::int64_t* strides = nullptr;
  std::uint64_t total_bytes = 0;  ///< TotalTensorSizeInBytes (dispatch layer only)
  const void* data = nullptr;     ///< OutputTensor: writable memory
};

struct Call {
  Op op = Op::gather;
  /// The operator's UINT fields in DirectML's field order, unused ones 0:
  ///   Gather {Axis, IndexDimensions}; GatherElements, Scatter {Axis};
  ///   GatherND, ScatterND {InputDimensionCount, IndicesDimensionCount};
  ///   GatherND1 {InputDimensionCount, IndicesDimensionCount, BatchDimensionCount}.
  std::uint32_t attr[3] = {0, 0, 0};
  dmlref::Reduction reduction = dmlref::Reduction::none;  ///< scatters (ONNX extension)
  dmlref::Options options;
  Operand t[kRoles];  ///< by Role; t[kUpdates] unused by the gathers

  bool uses(int role) const { return role != kUpdates || is_scatter(op); }
};

/// Sizes, or Strides (packed when the operand has none), as a vector of DimensionCount entries.
std::vector<std::int64_t> sizes_of(const Operand& t);
std::vector<std::int64_t> strides_of(const Operand& t);
/// Row-major strides, wrapping like the library's on absurd sizes (such layouts are never used).
std::vector<std::int64_t> packed_strides(const std::vector<std::int64_t>& sizes);

/// try_<op>(input, indices, [updates,] output, params, options) for the call's operator: the one
/// switch over the operators, for descriptors and views alike.
template <class In, class Idx, class Out>
dmlref::Status call_operator(const Call& c, const In& in, const Idx& idx, const In& upd, const Out& out) {
  const std::uint32_t* a = c.attr;
  switch (c.op) {
    case Op::gather: return dmlref::try_gather(in, idx, out, {a[0], a[1]}, c.options);
    case Op::gather_elements: return dmlref::try_gather_elements(in, idx, out, {a[0]}, c.options);
    case Op::gather_nd: return dmlref::try_gather_nd(in, idx, out, {a[0], a[1]}, c.options);
    case Op::gather_nd1: return dmlref::try_gather_nd1(in, idx, out, {a[0], a[1], a[2]}, c.options);
    case Op::scatter: return dmlref::try_scatter(in, idx, upd, out, {a[0], c.reduction}, c.options);
    case Op::scatter_nd: return dmlref::try_scatter_nd(in, idx, upd, out, {a[0], a[1], c.reduction}, c.options);
  }
  return dmlref::Status();
}

/// minimum_feature_level(input, indices, [updates,] output, params, options) for the call's
/// operator (docs/directml.md): the same arguments as call_operator.
template <class In, class Idx, class Out>
dmlref::Result<std::uint32_t> call_minimum_level(const Call& c, const In& in, const Idx& idx, const In& upd,
                                                 const Out& out) {
  const std::uint32_t* a = c.attr;
  using dmlref::minimum_feature_level;
  switch (c.op) {
    case Op::gather: return minimum_feature_level(in, idx, out, dmlref::GatherParams{a[0], a[1]}, c.options);
    case Op::gather_elements: return minimum_feature_level(in, idx, out, dmlref::GatherElementsParams{a[0]}, c.options);
    case Op::gather_nd: return minimum_feature_level(in, idx, out, dmlref::GatherNDParams{a[0], a[1]}, c.options);
    case Op::gather_nd1:
      return minimum_feature_level(in, idx, out, dmlref::GatherND1Params{a[0], a[1], a[2]}, c.options);
    case Op::scatter:
      return minimum_feature_level(in, idx, upd, out, dmlref::ScatterParams{a[0], c.reduction}, c.options);
    case Op::scatter_nd:
      return minimum_feature_level(in, idx, upd, out, dmlref::ScatterNDParams{a[0], a[1], c.reduction}, c.options);
  }
  return dmlref::Result<std::uint32_t>(dmlref::Status());
}

/// The dispatch layer: try_<op>(TensorDesc..., params, options).
dmlref::Status run_dispatch(const Call& c);

/// How the typed layer sees the elements: their own C++ type (float, dmlref::float16, int8_t,
/// ...), or the unsigned integer of their size (copies are bit-exact either way).
enum class Typed { native, storage };
/// The typed layer: try_<op>(TensorView..., params, options). Only for calls it can express.
dmlref::Status run_typed(const Call& c, Typed how = Typed::native);
/// A TensorView carries no DimensionCount apart from its Sizes, no null Sizes, no buffer size,
/// and compile-time types: one valid data type for every data tensor, an index type for indices.
bool typed_expressible(const Call& c);

/// The oracle on the call's buffers, with the call's index policy and collision check (the oracle
/// knows no reductions: with one it validates and replaces). The caller checks what the oracle
/// leaves to it: data types, null Sizes, TotalTensorSizeInBytes.
oracle::Result run_oracle(const Call& c);
/// What the oracle's message says went wrong.
bool is_index_error(const oracle::Result& r);
bool is_collision(const oracle::Result& r);

/// The layers a case runs through.
enum class Layer { dispatch, typed_native, typed_storage };
inline constexpr Layer all_layers[] = {Layer::dispatch, Layer::typed_native, Layer::typed_storage};
const char* name(Layer layer);
/// run_dispatch or run_typed, by layer.
dmlref::Status run(const Call& c, Layer layer);

/// The shape helper's answer (<op>_output_sizes) for the call's input, indices and updates sizes.
dmlref::Result<dmlref::Shape> output_sizes(const Call& c);
/// The oracle's output sizes for the same sizes; nullopt when it finds them invalid.
std::optional<std::vector<std::int64_t>> oracle_output_sizes(const Call& c);

/// "{2, 3}".
std::string text(const std::vector<std::int64_t>& v);

}  // namespace harness
