// support/runner.hpp: the dispatch layer, the oracle and the shape helpers (the typed layer is
// runner_typed.cpp, which the fuzzer does not need).
#include "support/runner.hpp"
#include "support/type_switch.hpp"

#include <dmlref/dmlref.hpp>

namespace harness {

namespace {

dmlref::Shape shape(const std::vector<std::int64_t>& s) { return dmlref::Shape::from(s.data(), s.size()); }

oracle::IndexKind kind_of(dmlref::DataType t) {
  if (t == dmlref::DataType::INT32) return oracle::IndexKind::i32;
  if (t == dmlref::DataType::INT64) return oracle::IndexKind::i64;
  if (t == dmlref::DataType::UINT64) return oracle::IndexKind::u64;
  return oracle::IndexKind::u32;
}

}  // namespace

std::vector<std::int64_t> sizes_of(const Operand& t) {
  if (t.sizes == nullptr) return {};
  return std::vector<std::int64_t>(t.sizes, t.sizes + t.dimension_count);
}

std::vector<std::int64_t> strides_of(const Operand& t) {
  if (t.strides != nullptr) return std::vector<std::int64_t>(t.strides, t.strides + t.dimension_count);
  return packed_strides(sizes_of(t));
}

std::vector<std::int64_t> packed_strides(const std::vector<std::int64_t>& sizes) {
  std::vector<std::int64_t> s(sizes.size(), 1);
  std::uint64_t stride = 1;
  for (std::size_t d = s.size(); d-- > 0;) {
    s[d] = static_cast<std::int64_t>(stride);
    stride *= static_cast<std::uint64_t>(sizes[d]);
  }
  return s;
}

dmlref::Status run_dispatch(const Call& c) {
  const auto in = desc(c.t[kInput], c.t[kInput].data);
  const auto idx = desc(c.t[kIndices], c.t[kIndices].data);
  const auto upd = desc(c.t[kUpdates], c.t[kUpdates].data);
  const auto out = desc(c.t[kOutput], const_cast<void*>(c.t[kOutput].data));  // writable by contract
  return call_operator(c, in, idx, upd, out);
}

bool typed_expressible(const Call& c) {
  const dmlref::DataType data = c.t[kInput].type;
  if (!dmlref::is_valid(data) || !dmlref::is_index_type(c.t[kIndices].type)) return false;
  for (int r = 0; r < kRoles; ++r) {
    if (!c.uses(r)) continue;
    if (c.t[r].sizes == nullptr) return false;
    if (r != kIndices && c.t[r].type != data) return false;
  }
  return true;
}

oracle::Result run_oracle(const Call& c) {
  auto data = [&](int r) { return static_cast<const unsigned char*>(c.t[r].data); };
  auto tensor = [&](int r) {
    return oracle::Tensor{data(r), dmlref::element_size(c.t[r].type), sizes_of(c.t[r]), strides_of(c.t[r])};
  };
  const oracle::Indices idx{data(kIndices), kind_of(c.t[kIndices].type), sizes_of(c.t[kIndices]),
                            strides_of(c.t[kIndices])};
  const oracle::Output out{const_cast<unsigned char*>(data(kOutput)), dmlref::element_size(c.t[kOutput].type),
                           sizes_of(c.t[kOutput]), strides_of(c.t[kOutput])};
  const oracle::Policy policy =
      c.options.index_policy == dmlref::IndexPolicy::clamp ? oracle::Policy::clamp : oracle::Policy::error;
  const bool collisions = c.options.check_collisions && c.reduction == dmlref::Reduction::none;
  const std::uint32_t* a = c.attr;
  switch (c.op) {
    case Op::gather: return oracle::gather(tensor(kInput), idx, out, a[0], a[1], policy);
    case Op::gather_elements: return oracle::gather_elements(tensor(kInput), idx, out, a[0], policy);
    case Op::gather_nd: return oracle::gather_nd(tensor(kInput), idx, out, a[0], a[1], policy);
    case Op::gather_nd1: return oracle::gather_nd1(tensor(kInput), idx, out, a[0], a[1], a[2], policy);
    case Op::scatter: return oracle::scatter(tensor(kInput), idx, tensor(kUpdates), out, a[0], policy, collisions);
    case Op::scatter_nd:
      return oracle::scatter_nd(tensor(kInput), idx, tensor(kUpdates), out, a[0], a[1], policy, collisions);
  }
  return {false, "unknown operator"};
}

bool is_index_error(const oracle::Result& r) { return !r.ok && r.error.find(": index error:") != std::string::npos; }
bool is_collision(const oracle::Result& r) { return !r.ok && r.error.find(": collision:") != std::string::npos; }

const char* name(Layer layer) {
  switch (layer) {
    case Layer::dispatch: return "dispatch layer";
    case Layer::typed_native: return "typed layer (native types)";
    case Layer::typed_storage: return "typed layer (storage types)";
  }
  return "?";
}

dmlref::Result<dmlref::Shape> output_sizes(const Call& c) {
  const dmlref::Shape in = shape(sizes_of(c.t[kInput])), idx = shape(sizes_of(c.t[kIndices])),
                      upd = shape(sizes_of(c.t[kUpdates]));
  const std::uint32_t* a = c.attr;
  switch (c.op) {
    case Op::gather: return dmlref::gather_output_sizes(in, idx, {a[0], a[1]});
    case Op::gather_elements: return dmlref::gather_elements_output_sizes(in, idx, {a[0]});
    case Op::gather_nd: return dmlref::gather_nd_output_sizes(in, idx, {a[0], a[1]});
    case Op::gather_nd1: return dmlref::gather_nd1_output_sizes(in, idx, {a[0], a[1], a[2]});
    case Op::scatter: return dmlref::scatter_output_sizes(in, idx, upd, {a[0], c.reduction});
    case Op::scatter_nd: return dmlref::scatter_nd_output_sizes(in, idx, upd, {a[0], a[1], c.reduction});
  }
  return dmlref::Shape();
}

std::optional<std::vector<std::int64_t>> oracle_output_sizes(const Call& c) {
  const auto in = sizes_of(c.t[kInput]), idx = sizes_of(c.t[kIndices]), upd = sizes_of(c.t[kUpdates]);
  const std::uint32_t* a = c.attr;
  switch (c.op) {
    case Op::gather: return oracle::gather_output_sizes(in, idx, a[0], a[1]);
    case Op::gather_elements: return oracle::gather_elements_output_sizes(in, idx, a[0]);
    case Op::gather_nd: return oracle::gather_nd_output_sizes(in, idx, a[0], a[1]);
    case Op::gather_nd1: return oracle::gather_nd1_output_sizes(in, idx, a[0], a[1], a[2]);
    case Op::scatter: return oracle::scatter_output_sizes(in, idx, upd, a[0]);
    case Op::scatter_nd: return oracle::scatter_nd_output_sizes(in, idx, upd, a[0], a[1]);
  }
  return std::nullopt;
}

std::string text(const std::vector<std::int64_t>& v) {
  std::string s = "{";
  for (std::size_t d = 0; d < v.size(); ++d) s += (d ? ", " : "") + std::to_string(v[d]);
  return s + "}";
}

}  // namespace harness
