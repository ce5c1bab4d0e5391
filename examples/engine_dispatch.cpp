// An engine-style integration through dmlref's dispatch layer.
//
// An inference engine knows the data type of a tensor only at run time. This example is a tiny
// engine: tensors are typed byte buffers, a graph node names a DirectML operator with its UINT
// attributes in DirectML's field order, and an operator registry maps the name to a kernel. Every
// kernel does what a CPU fallback kernel in a real engine does:
//   1. ask dmlref's shape helper for the output sizes (this also validates the attributes),
//   2. allocate the output (or reuse the input, for a scatter that runs in place),
//   3. describe the tensors with dmlref::TensorDesc and call the try_ form of the operator,
//   4. hand any dmlref::Status error back to the engine, which reports it and keeps going.
//
// The results are checked, so the program also runs as a test: it exits with 1 if any node does
// something other than what the comment beside it says.
#include <dmlref/dmlref.hpp>

#include <cstdint>
#include <cstdio>
#include <cstring>
#include <map>
#include <string>
#include <vector>

namespace {

using dmlref::DataType;

// ---- the engine's own types -------------------------------------------------------------------

/// An engine-owned tensor: a run-time data type, sizes, and packed row-major bytes.
struct Tensor {
  DataType type = DataType::UNKNOWN;
  std::vector<std::int64_t> sizes;
  std::vector<unsigned char> bytes;

  void allocate(DataType new_type, const dmlref::Shape& new_sizes) {
    type = new_type;
    sizes.assign(new_sizes.begin(), new_sizes.end());
    std::size_t count = 1;
    for (std::int64_t size : sizes) count *= static_cast<std::size_t>(size);
    bytes.assign(count * dmlref::element_size(type), 0);
  }
  dmlref::Shape shape() const { return dmlref::Shape::from(sizes.data(), sizes.size()); }

  /// The tensor as DirectML would bind it: sizes, no strides (packed), the buffer's byte size.
  dmlref::TensorDesc desc() const {
    return {type, static_cast<std::uint32_t>(sizes.size()), sizes.data(), nullptr, bytes.size(), bytes.data()};
  }
  dmlref::MutableTensorDesc mutable_desc() {
    return {type, static_cast<std::uint32_t>(sizes.size()), sizes.data(), nullptr, bytes.size(), bytes.data()};
  }
};

/// Builds a tensor from typed values (T is one of the eleven storage types; the type is recorded).
template <class T>
Tensor make_tensor(const std::vector<std::int64_t>& sizes, const std::vector<T>& values) {
  Tensor t;
  t.type = dmlref::data_type_v<T>;
  t.sizes = sizes;
  t.bytes.resize(values.size() * sizeof(T));
  std::memcpy(t.bytes.data(), values.data(), t.bytes.size());
  return t;
}

std::vector<dmlref::float16> halves(const std::vector<float>& values) {
  std::vector<dmlref::float16> out;
  for (float v : values) out.push_back(dmlref::float16::from_float(v));
  return out;
}

template <class T>
double element(const Tensor& t, std::size_t i) {
  T v;
  std::memcpy(&v, t.bytes.data() + i * sizeof(T), sizeof(T));
  return static_cast<double>(v);
}

/// Element i as a double, whatever the tensor's type: the kind of switch an engine has somewhere.
double value_at(const Tensor& t, std::size_t i) {
  switch (t.type) {
    case DataType::FLOAT32: return element<float>(t, i);
    case DataType::FLOAT16: {
      std::uint16_t bits;
      std::memcpy(&bits, t.bytes.data() + i * 2, 2);
      return static_cast<double>(dmlref::float16::from_bits(bits).to_float());
    }
    case DataType::FLOAT64: return element<double>(t, i);
    case DataType::UINT8: return element<std::uint8_t>(t, i);
    case DataType::UINT16: return element<std::uint16_t>(t, i);
    case DataType::UINT32: return element<std::uint32_t>(t, i);
    case DataType::UINT64: return element<std::uint64_t>(t, i);
    case DataType::INT8: return element<std::int8_t>(t, i);
    case DataType::INT16: return element<std::int16_t>(t, i);
    case DataType::INT32: return element<std::int32_t>(t, i);
    case DataType::INT64: return element<std::int64_t>(t, i);
    case DataType::UNKNOWN: break;
  }
  return 0.0;
}

std::vector<double> values_of(const Tensor& t) {
  std::vector<double> values;
  const std::size_t size = dmlref::element_size(t.type);
  for (std::size_t i = 0; size != 0 && i < t.bytes.size() / size; ++i) values.push_back(value_at(t, i));
  return values;
}

std::string describe(const Tensor& t) {
  std::string text = std::string(dmlref::name(t.type)) + " {";
  for (std::size_t d = 0; d < t.sizes.size(); ++d) text += (d ? "," : "") + std::to_string(t.sizes[d]);
  text += "} [";
  const std::vector<double> values = values_of(t);
  for (std::size_t i = 0; i < values.size(); ++i) {
    char buffer[32];
    std::snprintf(buffer, sizeof buffer, "%g", values[i]);
    text += (i ? ", " : "") + std::string(buffer);
  }
  return text + "]";
}

/// A graph node: a DirectML operator name, its UINT attributes in DirectML's field order, the
/// names of its input tensors (InputTensor, IndicesTensor[, UpdatesTensor]) and of its output.
/// A scatter whose output names its InputTensor runs in place.
struct Node {
  std::string name;
  std::string op;
  std::vector<std::uint32_t> attributes;
  std::vector<std::string> inputs;
  std::string output;
};

// ---- the kernels: shape helper, allocate, run -------------------------------------------------

using Inputs = std::vector<const Tensor*>;
using Kernel = dmlref::Status (*)(const Node&, const Inputs&, Tensor& output, const dmlref::Options&);

dmlref::Status gather_kernel(const Node& node, const Inputs& in, Tensor& out, const dmlref::Options& options) {
  const dmlref::GatherParams params{node.attributes[0], node.attributes[1]};
  const dmlref::Result<dmlref::Shape> sizes = dmlref::gather_output_sizes(in[0]->shape(), in[1]->shape(), params);
  if (!sizes) return sizes.status();
  out.allocate(in[0]->type, *sizes);
  return dmlref::try_gather(in[0]->desc(), in[1]->desc(), out.mutable_desc(), params, options);
}

dmlref::Status gather_elements_kernel(const Node& node, const Inputs& in, Tensor& out,
                                      const dmlref::Options& options) {
  const dmlref::GatherElementsParams params{node.attributes[0]};
  const dmlref::Result<dmlref::Shape> sizes =
      dmlref::gather_elements_output_sizes(in[0]->shape(), in[1]->shape(), params);
  if (!sizes) return sizes.status();
  out.allocate(in[0]->type, *sizes);
  return dmlref::try_gather_elements(in[0]->desc(), in[1]->desc(), out.mutable_desc(), params, options);
}

dmlref::Status gather_nd_kernel(const Node& node, const Inputs& in, Tensor& out, const dmlref::Options& options) {
  const dmlref::GatherNDParams params{node.attributes[0], node.attributes[1]};
  const dmlref::Result<dmlref::Shape> sizes =
      dmlref::gather_nd_output_sizes(in[0]->shape(), in[1]->shape(), params);
  if (!sizes) return sizes.status();
  out.allocate(in[0]->type, *sizes);
  return dmlref::try_gather_nd(in[0]->desc(), in[1]->desc(), out.mutable_desc(), params, options);
}

dmlref::Status gather_nd1_kernel(const Node& node, const Inputs& in, Tensor& out, const dmlref::Options& options) {
  const dmlref::GatherND1Params params{node.attributes[0], node.attributes[1], node.attributes[2]};
  const dmlref::Result<dmlref::Shape> sizes =
      dmlref::gather_nd1_output_sizes(in[0]->shape(), in[1]->shape(), params);
  if (!sizes) return sizes.status();
  out.allocate(in[0]->type, *sizes);
  return dmlref::try_gather_nd1(in[0]->desc(), in[1]->desc(), out.mutable_desc(), params, options);
}

dmlref::Status scatter_kernel(const Node& node, const Inputs& in, Tensor& out, const dmlref::Options& options) {
  const dmlref::ScatterParams params{node.attributes[0]};
  const dmlref::Result<dmlref::Shape> sizes =
      dmlref::scatter_output_sizes(in[0]->shape(), in[1]->shape(), in[2]->shape(), params);
  if (!sizes) return sizes.status();
  if (&out != in[0]) out.allocate(in[0]->type, *sizes);  // in place: OutputTensor is InputTensor
  return dmlref::try_scatter(in[0]->desc(), in[1]->desc(), in[2]->desc(), out.mutable_desc(), params, options);
}

dmlref::Status scatter_nd_kernel(const Node& node, const Inputs& in, Tensor& out, const dmlref::Options& options) {
  const dmlref::ScatterNDParams params{node.attributes[0], node.attributes[1]};
  const dmlref::Result<dmlref::Shape> sizes =
      dmlref::scatter_nd_output_sizes(in[0]->shape(), in[1]->shape(), in[2]->shape(), params);
  if (!sizes) return sizes.status();
  if (&out != in[0]) out.allocate(in[0]->type, *sizes);  // in place: OutputTensor is InputTensor
  return dmlref::try_scatter_nd(in[0]->desc(), in[1]->desc(), in[2]->desc(), out.mutable_desc(), params,
                                options);
}

/// The registry: operator name -> number of inputs, attribute names (DirectML's, in field order), kernel.
struct KernelInfo {
  std::size_t input_count;
  std::vector<const char*> attributes;
  Kernel run;
};

const std::map<std::string, KernelInfo>& registry() {
  static const std::map<std::string, KernelInfo> kernels = {
      {"Gather", {2, {"Axis", "IndexDimensions"}, gather_kernel}},
      {"GatherElements", {2, {"Axis"}, gather_elements_kernel}},
      {"GatherND", {2, {"InputDimensionCount", "IndicesDimensionCount"}, gather_nd_kernel}},
      {"GatherND1", {2, {"InputDimensionCount", "IndicesDimensionCount", "BatchDimensionCount"}, gather_nd1_kernel}},
      {"Scatter", {3, {"Axis"}, scatter_kernel}},
      {"ScatterElements", {3, {"Axis"}, scatter_kernel}},
      {"ScatterND", {3, {"InputDimensionCount", "IndicesDimensionCount"}, scatter_nd_kernel}},
  };
  return kernels;
}

// ---- the engine ------------------------------------------------------------------------------

class Engine {
 public:
  dmlref::Options options;  ///< e.g. IndexPolicy::clamp for WebNN-compatible results

  void set(const std::string& name, Tensor tensor) { tensors_[name] = std::move(tensor); }
  const Tensor* find(const std::string& name) const {
    const auto it = tensors_.find(name);
    return it == tensors_.end() ? nullptr : &it->second;
  }

  /// Runs one node. On failure prints why, leaves every tensor as it was, and returns the code.
  dmlref::ErrorCode run(const Node& node) {
    std::printf("%s: %s", node.name.c_str(), node.op.c_str());
    const auto entry = registry().find(node.op);
    if (entry == registry().end() || node.inputs.size() != entry->second.input_count ||
        node.attributes.size() != entry->second.attributes.size()) {
      std::printf("\n    engine error: no kernel for this operator with these inputs and attributes\n\n");
      return dmlref::ErrorCode::invalid_attribute;
    }
    for (std::size_t a = 0; a < node.attributes.size(); ++a)
      std::printf("%s %s %u", a ? "," : "", entry->second.attributes[a], node.attributes[a]);
    std::printf("\n");

    Inputs inputs;
    for (const std::string& name : node.inputs) {
      const Tensor* t = find(name);
      if (t == nullptr) {
        std::printf("    engine error: no tensor named %s\n\n", name.c_str());
        return dmlref::ErrorCode::null_pointer;
      }
      std::printf("    %-14s %s\n", name.c_str(), describe(*t).c_str());
      inputs.push_back(t);
    }
    const bool in_place = node.output == node.inputs[0];
    Tensor& output = in_place ? tensors_[node.output] : scratch_;
    const dmlref::Status status = entry->second.run(node, inputs, output, options);
    if (!status) {
      // dmlref wrote nothing, so an in-place tensor still holds its old values.
      const dmlref::Error& e = status.error();
      std::printf("    -> %s (tensor \"%s\", field \"%s\")\n       %s\n\n", dmlref::name(e.code), e.tensor,
                  e.field, status.message().c_str());
      return status.code();
    }
    if (!in_place) tensors_[node.output] = std::move(scratch_);
    std::printf("    -> %s %s%s\n\n", node.output.c_str(), describe(*find(node.output)).c_str(),
                in_place ? " (in place)" : "");
    return dmlref::ErrorCode::ok;
  }

 private:
  std::map<std::string, Tensor> tensors_;
  Tensor scratch_;
};

int failures = 0;

void expect(Engine& engine, const Node& node, dmlref::ErrorCode code, const std::string& tensor = "",
            const std::vector<double>& values = {}) {
  const dmlref::ErrorCode actual = engine.run(node);
  bool ok = actual == code;
  if (ok && !tensor.empty()) ok = engine.find(tensor) != nullptr && values_of(*engine.find(tensor)) == values;
  if (!ok) {
    std::printf("    UNEXPECTED: wanted %s%s\n\n", dmlref::name(code), tensor.empty() ? "" : " and other values");
    ++failures;
  }
}

}  // namespace

int main() {
  using dmlref::ErrorCode;
  Engine engine;

  std::printf("== Kernels over run-time data types ==\n\n");

  // An embedding lookup: FLOAT16 table, INT64 token ids; -1 counts from the end of Axis 0.
  engine.set("table", make_tensor<dmlref::float16>({4, 3}, halves({0, 0.5f, 1, 1.5f, 2, 2.5f, 3, 3.5f, 4, 4.5f, 5, 5.5f})));
  engine.set("ids", make_tensor<std::int64_t>({1, 3}, {2, -1, 0}));
  expect(engine, {"embed", "Gather", {0, 1}, {"table", "ids"}, "rows"}, ErrorCode::ok, "rows",
         {3, 3.5, 4, 4.5, 5, 5.5, 0, 0.5, 1});

  // Per-row picks (take_along_axis): UINT8 data, UINT32 indices.
  engine.set("scores", make_tensor<std::uint8_t>({2, 3}, {10, 20, 30, 40, 50, 60}));
  engine.set("best", make_tensor<std::uint32_t>({2, 1}, {2, 0}));
  expect(engine, {"pick", "GatherElements", {1}, {"scores", "best"}, "picked"}, ErrorCode::ok, "picked", {30, 40});

  // Batched tuple lookup: FLOAT64 data {2,2,2}, INT32 one-element tuples per batch (spec X-8).
  engine.set("cube", make_tensor<double>({2, 2, 2}, {0, 1, 2, 3, 4, 5, 6, 7}));
  engine.set("rows_per_batch", make_tensor<std::int32_t>({1, 2, 1}, {1, 0}));
  expect(engine, {"batched", "GatherND1", {3, 2, 1}, {"cube", "rows_per_batch"}, "slices"}, ErrorCode::ok, "slices",
         {2, 3, 4, 5});

  // A cache update in place: FLOAT32 {4,3}, INT64 row indices, -4 is row 0 (spec X-11).
  engine.set("cache", make_tensor<float>({4, 3}, {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12}));
  engine.set("slots", make_tensor<std::int64_t>({2, 1}, {3, -4}));
  engine.set("fresh", make_tensor<float>({2, 3}, {10, 20, 30, 40, 50, 60}));
  expect(engine, {"update", "ScatterND", {2, 2}, {"cache", "slots", "fresh"}, "cache"}, ErrorCode::ok, "cache",
         {40, 50, 60, 4, 5, 6, 7, 8, 9, 10, 20, 30});

  // Element scatter into a new tensor: INT16 data, UINT64 indices along Axis 1.
  engine.set("zeros", make_tensor<std::int16_t>({2, 3}, {0, 0, 0, 0, 0, 0}));
  engine.set("where", make_tensor<std::uint64_t>({2, 1}, {2, 0}));
  engine.set("what", make_tensor<std::int16_t>({2, 1}, {-7, 8}));
  expect(engine, {"mark", "ScatterElements", {1}, {"zeros", "where", "what"}, "marked"}, ErrorCode::ok, "marked",
         {0, 0, -7, 8, 0, 0});

  std::printf("== Errors come back as a Status; the engine reports them and keeps going ==\n\n");

  // Indices of a type DirectML never accepts for IndicesTensor.
  engine.set("float_ids", make_tensor<float>({1, 2}, {1, 0}));
  expect(engine, {"bad_type", "Gather", {0, 1}, {"table", "float_ids"}, "out1"}, ErrorCode::unsupported_index_type);

  // A tuple longer than the input's meaningful rank: the shape helper fails before any allocation.
  engine.set("long_tuples", make_tensor<std::int32_t>({1, 1, 4}, {0, 0, 0, 0}));
  expect(engine, {"bad_shape", "GatherND", {3, 2}, {"cube", "long_tuples"}, "out2"}, ErrorCode::shape_mismatch);

  // Out of range in place: the error leaves the cache exactly as it was.
  engine.set("far_slots", make_tensor<std::int64_t>({2, 1}, {1, 4}));
  expect(engine, {"bad_index", "ScatterND", {2, 2}, {"cache", "far_slots", "fresh"}, "cache"},
         ErrorCode::index_out_of_range, "cache", {40, 50, 60, 4, 5, 6, 7, 8, 9, 10, 20, 30});

  // An engine that wants WebNN's results for out-of-range indices opts into clamping.
  engine.set("far_ids", make_tensor<std::int64_t>({1, 2}, {7, -9}));
  expect(engine, {"unclamped", "Gather", {0, 1}, {"table", "far_ids"}, "clamped"}, ErrorCode::index_out_of_range);
  engine.options.index_policy = dmlref::IndexPolicy::clamp;
  std::printf("(engine.options.index_policy = IndexPolicy::clamp)\n\n");
  expect(engine, {"clamped", "Gather", {0, 1}, {"table", "far_ids"}, "clamped"}, ErrorCode::ok, "clamped",
         {4.5, 5, 5.5, 0, 0.5, 1});

  if (failures != 0) {
    std::printf("%d node(s) did not behave as expected\n", failures);
    return 1;
  }
  std::printf("Every node behaved as expected.\n");
  return 0;
}
