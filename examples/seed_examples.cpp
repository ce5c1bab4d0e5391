// Runs every worked example of the DirectML operator pages (as corrected in the spec,
// shared/spec/operators.md) through dmlref and prints the results, then shows what dmlref reports
// for the examples that cannot run as printed and for other invalid calls.
//
// Each result is checked against the value the spec prints, so this program also runs as a test:
// it exits with 1 if any output or error differs from the expected one.
//
// The examples use the typed layer (TensorView<T>); the error section also uses the dispatch layer
// (TensorDesc), which is the only one that can express a wrong data type at all.
#include <dmlref/dmlref.hpp>

#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

namespace {

using dmlref::Shape;

int failures = 0;

/// A packed row-major tensor that owns its elements.
template <class T>
struct Tensor {
  Shape sizes;
  std::vector<T> values;

  dmlref::TensorView<const T> in() const { return {values.data(), sizes}; }
  dmlref::TensorView<T> out() { return {values.data(), sizes}; }
};

std::int64_t element_count(const Shape& sizes) {
  std::int64_t n = 1;
  for (std::int64_t size : sizes) n *= size;
  return n;
}

template <class T>
Tensor<T> zeros(const Shape& sizes) {
  return {sizes, std::vector<T>(static_cast<std::size_t>(element_count(sizes)), T{})};
}

std::string sizes_text(const Shape& sizes) {
  std::string text = "{";
  for (std::size_t d = 0; d < sizes.size(); ++d) text += (d ? "," : "") + std::to_string(sizes[static_cast<int>(d)]);
  return text + "}";
}

std::string number(float v) {
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%g", static_cast<double>(v));
  return buffer;
}
std::string number(std::uint32_t v) { return std::to_string(v); }

/// Values as nested lists in row-major order, the way the DirectML pages print them.
template <class T>
std::string nested(const std::vector<T>& values, const Shape& sizes, int dim = 0, std::size_t* next = nullptr) {
  std::size_t start = 0;
  if (next == nullptr) next = &start;
  std::string text = "[";
  for (std::int64_t i = 0; i < sizes[dim]; ++i) {
    if (i) text += ", ";
    text += dim + 1 == sizes.rank() ? number(values[(*next)++]) : nested(values, sizes, dim + 1, next);
  }
  return text + "]";
}

template <class T>
void print_tensor(const char* name, const Tensor<T>& t) {
  std::printf("    %-13s %-10s %s\n", name, sizes_text(t.sizes).c_str(), nested(t.values, t.sizes).c_str());
}

void check_output(const Tensor<float>& output, const Shape& expected_sizes,
                  const std::vector<float>& expected) {
  const bool ok = output.sizes == expected_sizes && output.values == expected;
  std::printf("    %s\n\n", ok ? "matches the spec" : "MISMATCH with the spec");
  if (!ok) {
    std::printf("    expected      %-10s %s\n\n", sizes_text(expected_sizes).c_str(),
                nested(expected, expected_sizes).c_str());
    ++failures;
  }
}

bool succeeded(const char* id, const dmlref::Status& status) {
  if (status) return true;
  std::printf("    %s failed unexpectedly: %s\n\n", id, status.message().c_str());
  ++failures;
  return false;
}

// ---- one runner per operator: shape helper, allocate, run, print, compare ----

void gather(const char* id, const char* what, const Tensor<float>& input, const Tensor<std::uint32_t>& indices,
            dmlref::GatherParams params, const Shape& expected_sizes, const std::vector<float>& expected) {
  std::printf("%-6s Gather, Axis %u, IndexDimensions %u: %s\n", id, params.Axis, params.IndexDimensions, what);
  const dmlref::Result<Shape> sizes = dmlref::gather_output_sizes(input.sizes, indices.sizes, params);
  if (!succeeded(id, sizes.status())) return;
  Tensor<float> output = zeros<float>(*sizes);
  if (!succeeded(id, dmlref::try_gather(input.in(), indices.in(), output.out(), params))) return;
  print_tensor("InputTensor", input);
  print_tensor("IndicesTensor", indices);
  print_tensor("OutputTensor", output);
  check_output(output, expected_sizes, expected);
}

void gather_elements(const char* id, const char* what, const Tensor<float>& input,
                     const Tensor<std::uint32_t>& indices, dmlref::GatherElementsParams params,
                     const Shape& expected_sizes, const std::vector<float>& expected) {
  std::printf("%-6s GatherElements, Axis %u: %s\n", id, params.Axis, what);
  const dmlref::Result<Shape> sizes = dmlref::gather_elements_output_sizes(input.sizes, indices.sizes, params);
  if (!succeeded(id, sizes.status())) return;
  Tensor<float> output = zeros<float>(*sizes);
  if (!succeeded(id, dmlref::try_gather_elements(input.in(), indices.in(), output.out(), params))) return;
  print_tensor("InputTensor", input);
  print_tensor("IndicesTensor", indices);
  print_tensor("OutputTensor", output);
  check_output(output, expected_sizes, expected);
}

void gather_nd(const char* id, const char* what, const Tensor<float>& input, const Tensor<std::uint32_t>& indices,
               dmlref::GatherNDParams params, const Shape& expected_sizes, const std::vector<float>& expected) {
  std::printf("%-6s GatherND, InputDimensionCount %u, IndicesDimensionCount %u: %s\n", id,
              params.InputDimensionCount, params.IndicesDimensionCount, what);
  const dmlref::Result<Shape> sizes = dmlref::gather_nd_output_sizes(input.sizes, indices.sizes, params);
  if (!succeeded(id, sizes.status())) return;
  Tensor<float> output = zeros<float>(*sizes);
  if (!succeeded(id, dmlref::try_gather_nd(input.in(), indices.in(), output.out(), params))) return;
  print_tensor("InputTensor", input);
  print_tensor("IndicesTensor", indices);
  print_tensor("OutputTensor", output);
  check_output(output, expected_sizes, expected);
}

void gather_nd1(const char* id, const char* what, const Tensor<float>& input, const Tensor<std::uint32_t>& indices,
                dmlref::GatherND1Params params, const Shape& expected_sizes, const std::vector<float>& expected) {
  std::printf("%-6s GatherND1, InputDimensionCount %u, IndicesDimensionCount %u, BatchDimensionCount %u: %s\n",
              id, params.InputDimensionCount, params.IndicesDimensionCount, params.BatchDimensionCount, what);
  const dmlref::Result<Shape> sizes = dmlref::gather_nd1_output_sizes(input.sizes, indices.sizes, params);
  if (!succeeded(id, sizes.status())) return;
  Tensor<float> output = zeros<float>(*sizes);
  if (!succeeded(id, dmlref::try_gather_nd1(input.in(), indices.in(), output.out(), params))) return;
  print_tensor("InputTensor", input);
  print_tensor("IndicesTensor", indices);
  print_tensor("OutputTensor", output);
  check_output(output, expected_sizes, expected);
}

void scatter(const char* id, const char* what, const Tensor<float>& input, const Tensor<std::uint32_t>& indices,
             const Tensor<float>& updates, dmlref::ScatterParams params, const Shape& expected_sizes,
             const std::vector<float>& expected) {
  std::printf("%-6s Scatter, Axis %u: %s\n", id, params.Axis, what);
  const dmlref::Result<Shape> sizes =
      dmlref::scatter_output_sizes(input.sizes, indices.sizes, updates.sizes, params);
  if (!succeeded(id, sizes.status())) return;
  Tensor<float> output = zeros<float>(*sizes);
  if (!succeeded(id, dmlref::try_scatter(input.in(), indices.in(), updates.in(), output.out(), params))) return;
  print_tensor("InputTensor", input);
  print_tensor("IndicesTensor", indices);
  print_tensor("UpdatesTensor", updates);
  print_tensor("OutputTensor", output);
  check_output(output, expected_sizes, expected);
}

void scatter_nd(const char* id, const char* what, const Tensor<float>& input, const Tensor<std::uint32_t>& indices,
                const Tensor<float>& updates, dmlref::ScatterNDParams params, const Shape& expected_sizes,
                const std::vector<float>& expected) {
  std::printf("%-6s ScatterND, InputDimensionCount %u, IndicesDimensionCount %u: %s\n", id,
              params.InputDimensionCount, params.IndicesDimensionCount, what);
  const dmlref::Result<Shape> sizes =
      dmlref::scatter_nd_output_sizes(input.sizes, indices.sizes, updates.sizes, params);
  if (!succeeded(id, sizes.status())) return;
  Tensor<float> output = zeros<float>(*sizes);
  if (!succeeded(id, dmlref::try_scatter_nd(input.in(), indices.in(), updates.in(), output.out(), params))) return;
  print_tensor("InputTensor", input);
  print_tensor("IndicesTensor", indices);
  print_tensor("UpdatesTensor", updates);
  print_tensor("OutputTensor", output);
  check_output(output, expected_sizes, expected);
}

/// Prints the error a call reported; a success or a different error code counts as a failure.
void expect_error(const char* id, const char* what, const dmlref::Status& status, dmlref::ErrorCode expected) {
  std::printf("%-6s %s\n", id, what);
  if (status.ok()) {
    std::printf("    succeeded, but %s was expected\n\n", dmlref::name(expected));
    ++failures;
    return;
  }
  std::printf("    error %s: %s\n", dmlref::name(status.code()), status.message().c_str());
  const bool ok = status.code() == expected;
  std::printf("    %s\n\n", ok ? "rejected as the spec requires" : "WRONG error code");
  if (!ok) ++failures;
}

template <class T>
dmlref::TensorDesc desc(dmlref::DataType type, const std::vector<std::int64_t>& sizes, const std::vector<T>& values) {
  return {type, static_cast<std::uint32_t>(sizes.size()), sizes.data(), nullptr, values.size() * sizeof(T),
          values.data()};
}
template <class T>
dmlref::MutableTensorDesc mutable_desc(dmlref::DataType type, const std::vector<std::int64_t>& sizes,
                                       std::vector<T>& values) {
  return {type, static_cast<std::uint32_t>(sizes.size()), sizes.data(), nullptr, values.size() * sizeof(T),
          values.data()};
}

void worked_examples() {
  std::printf("== Worked examples of the DirectML pages (FLOAT32 data, UINT32 indices) ==\n\n");

  gather("G-1", "1-D remapping", {{4}, {11, 12, 13, 14}}, {{5}, {3, 1, 3, 0, 2}}, {0, 1},
         {5}, {14, 12, 14, 11, 13});
  gather("G-2", "2-D output, 1-D indices, concatenates rows", {{3, 2}, {1, 2, 3, 4, 5, 6}},
         {{1, 4}, {0, 1, 1, 2}}, {0, 1}, {4, 2}, {1, 2, 3, 4, 3, 4, 5, 6});
  gather("G-3a", "swap columns (the page's Example 3 with IndexDimensions 1)", {{3, 2}, {1, 2, 3, 4, 5, 6}},
         {{1, 2}, {1, 0}}, {1, 1}, {3, 2}, {2, 1, 4, 3, 6, 5});
  gather("G-4", "nested indices (the page's title says Axis 1 of the unpadded data)",
         {{1, 3, 3}, {1, 2, 3, 4, 5, 6, 7, 8, 9}}, {{1, 1, 2}, {0, 2}}, {2, 2}, {3, 1, 2}, {1, 3, 4, 6, 7, 9});
  gather("G-5", "nested indices (the page's title says Axis 0 of the unpadded data)",
         {{1, 3, 2}, {1, 2, 3, 4, 5, 6}}, {{1, 2, 2}, {0, 1, 1, 2}}, {1, 2}, {2, 2, 2}, {1, 2, 3, 4, 3, 4, 5, 6});

  gather_elements("GE-1", "output[y,x] = input[indices[y,x], x] (output FLOAT32, not the page's UINT32)",
                  {{3, 3}, {1, 2, 3, 4, 5, 6, 7, 8, 9}}, {{2, 3}, {1, 2, 0, 2, 0, 0}}, {0}, {2, 3},
                  {4, 8, 3, 7, 2, 3});

  gather_nd("GN-1", "1-D remapping", {{2, 2}, {0, 1, 2, 3}}, {{2, 1}, {1, 0}}, {2, 2}, {2, 2}, {2, 3, 0, 1});
  gather_nd("GN-2", "2-D remapping", {{1, 2, 2, 2}, {0, 1, 2, 3, 4, 5, 6, 7}}, {{1, 1, 2, 2}, {0, 1, 1, 0}},
            {3, 2}, {1, 1, 2, 2}, {2, 3, 4, 5});

  gather_nd1("GN1-1", "1-D remapping", {{2, 2}, {0, 1, 2, 3}}, {{2, 1}, {1, 0}}, {2, 2, 0}, {2, 2}, {2, 3, 0, 1});
  gather_nd1("GN1-2", "2-D remapping with one batch dimension",
             {{1, 3, 2, 2}, {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11}},
             {{1, 3, 2, 2}, {0, 0, 1, 1, 1, 1, 0, 0, 0, 1, 1, 0}}, {3, 3, 1}, {1, 1, 3, 2}, {0, 3, 7, 4, 9, 10});

  scatter("S-1", "1-D; index 3 is written twice and the later update (7) wins, as the page prints",
          {{5}, {0, 1, 2, 3, 4}}, {{4}, {3, 1, 3, 0}}, {{4}, {5, 6, 7, 8}}, {0}, {5}, {8, 6, 2, 7, 4});
  scatter("S-2", "2-D (InputTensor {3,3}; the page prints {2,3})", {{3, 3}, {0, 0, 0, 0, 0, 0, 0, 0, 0}},
          {{2, 3}, {1, 0, 2, 0, 2, 1}}, {{2, 3}, {10, 11, 12, 20, 21, 22}}, {0}, {3, 3},
          {20, 11, 0, 10, 0, 22, 0, 21, 12});

  scatter_nd("SN-1", "the page's example in DirectML-conformant form", {{1, 8}, {1, 2, 3, 4, 5, 6, 7, 8}},
             {{4, 1}, {4, 3, 1, 7}}, {{1, 4}, {9, 10, 11, 12}}, {1, 2}, {1, 8}, {1, 11, 3, 10, 9, 6, 7, 12});
}

void errors() {
  std::printf("== What dmlref reports instead of data ==\n\n");
  using dmlref::DataType;
  using dmlref::ErrorCode;
  {
    // G-3 as printed: IndexDimensions 2 with 2-D tensors. The concatenated shape {3,1,2} would have
    // to drop its first entry, which is 3, so the call cannot be valid.
    const std::vector<float> input = {1, 2, 3, 4, 5, 6};
    const std::vector<std::uint32_t> indices = {1, 0};
    std::vector<float> output(6, 0.0f);
    const dmlref::Status status = dmlref::try_gather(dmlref::TensorView<const float>(input.data(), {3, 2}),
                                                     dmlref::TensorView<const std::uint32_t>(indices.data(), {1, 2}),
                                                     dmlref::TensorView<float>(output.data(), {3, 2}),
                                                     dmlref::GatherParams{1, 2});
    expect_error("G-3", "Gather Example 3 as printed (Axis 1, IndexDimensions 2, all tensors 2-D)", status,
                 ErrorCode::shape_mismatch);
  }
  {
    // An unsigned index is never negative: 4294967295 is not -1.
    const std::vector<float> input = {11, 12, 13, 14};
    const std::vector<std::uint32_t> indices = {0, 4294967295u};
    std::vector<float> output(2, 0.0f);
    const dmlref::Status status = dmlref::try_gather(dmlref::TensorView<const float>(input.data(), {4}),
                                                     dmlref::TensorView<const std::uint32_t>(indices.data(), {2}),
                                                     dmlref::TensorView<float>(output.data(), {2}),
                                                     dmlref::GatherParams{0, 1});
    expect_error("X-12", "Gather with the UINT32 index 4294967295 (out of range; DirectML's output is undefined)",
                 status, ErrorCode::index_out_of_range);

    // The same call with the opt-in clamp policy (WebNN's arithmetic) succeeds.
    dmlref::Options clamp;
    clamp.index_policy = dmlref::IndexPolicy::clamp;
    const dmlref::Status clamped = dmlref::try_gather(dmlref::TensorView<const float>(input.data(), {4}),
                                                      dmlref::TensorView<const std::uint32_t>(indices.data(), {2}),
                                                      dmlref::TensorView<float>(output.data(), {2}),
                                                      dmlref::GatherParams{0, 1}, clamp);
    std::printf("       with Options::index_policy = IndexPolicy::clamp: %s, output [%s, %s]\n\n",
                clamped.ok() ? "ok" : clamped.message().c_str(), number(output[0]).c_str(),
                number(output[1]).c_str());
    if (!clamped.ok() || output[0] != 11 || output[1] != 14) ++failures;
  }
  {
    // GE-1 as printed: the page gives the output the type UINT32 for FLOAT32 input. Only the
    // dispatch layer can express that; the typed layer rejects it at compile time.
    const std::vector<std::int64_t> input_sizes = {3, 3}, indices_sizes = {2, 3};
    const std::vector<float> input = {1, 2, 3, 4, 5, 6, 7, 8, 9};
    const std::vector<std::uint32_t> indices = {1, 2, 0, 2, 0, 0};
    std::vector<std::uint32_t> output(6, 0);
    const dmlref::Status status = dmlref::try_gather_elements(
        desc(DataType::FLOAT32, input_sizes, input), desc(DataType::UINT32, indices_sizes, indices),
        mutable_desc(DataType::UINT32, indices_sizes, output), dmlref::GatherElementsParams{0});
    expect_error("GE-1", "GatherElements example as printed (OutputTensor UINT32)", status,
                 ErrorCode::data_type_mismatch);
  }
  {
    // S-1 with the opt-in collision check: index 3 is written twice.
    const std::vector<float> input = {0, 1, 2, 3, 4}, updates = {5, 6, 7, 8};
    const std::vector<std::uint32_t> indices = {3, 1, 3, 0};
    std::vector<float> output(5, 0.0f);
    dmlref::Options check;
    check.check_collisions = true;
    const dmlref::Status status = dmlref::try_scatter(dmlref::TensorView<const float>(input.data(), {5}),
                                                      dmlref::TensorView<const std::uint32_t>(indices.data(), {4}),
                                                      dmlref::TensorView<const float>(updates.data(), {4}),
                                                      dmlref::TensorView<float>(output.data(), {5}),
                                                      dmlref::ScatterParams{0}, check);
    expect_error("S-1", "Scatter example 1 with Options::check_collisions", status, ErrorCode::scatter_collision);
  }
  {
    // The ScatterND page's example as printed: FLOAT32 indices and DimensionCounts 1, 2, 1, 1.
    const std::vector<std::int64_t> input_sizes = {8}, indices_sizes = {4, 1}, updates_sizes = {4};
    const std::vector<float> input = {1, 2, 3, 4, 5, 6, 7, 8}, indices = {4, 3, 1, 7}, updates = {9, 10, 11, 12};
    std::vector<float> output(8, 0.0f);
    const dmlref::Status status = dmlref::try_scatter_nd(
        desc(DataType::FLOAT32, input_sizes, input), desc(DataType::FLOAT32, indices_sizes, indices),
        desc(DataType::FLOAT32, updates_sizes, updates), mutable_desc(DataType::FLOAT32, input_sizes, output),
        dmlref::ScatterNDParams{1, 2});
    expect_error("SN", "ScatterND example as printed (FLOAT32 indices, DimensionCounts 1, 2, 1, 1)", status,
                 ErrorCode::invalid_dimension_count);
  }
#if DMLREF_HAS_EXCEPTIONS
  {
    // The forms without try_ throw dmlref::Exception, which carries the same Error.
    const std::vector<float> input = {1, 2, 3, 4, 5, 6};
    const std::vector<std::uint32_t> indices = {0, 3};
    std::vector<float> output(4, 0.0f);
    std::printf("%-6s %s\n", "throw", "dmlref::gather (throwing form) with the index 3 on an axis of size 3");
    try {
      dmlref::gather(dmlref::TensorView<const float>(input.data(), {3, 2}),
                     dmlref::TensorView<const std::uint32_t>(indices.data(), {1, 2}),
                     dmlref::TensorView<float>(output.data(), {2, 2}), dmlref::GatherParams{0, 1});
      std::printf("    did not throw\n\n");
      ++failures;
    } catch (const dmlref::Exception& e) {
      std::printf("    caught dmlref::Exception: %s\n", e.what());
      std::printf("    error().position [%lld, %lld], target_dimension %d\n\n",
                  static_cast<long long>(e.error().position[0]), static_cast<long long>(e.error().position[1]),
                  e.error().target_dimension);
      if (e.code() != dmlref::ErrorCode::index_out_of_range) ++failures;
    }
  }
#endif
}

}  // namespace

int main() {
  worked_examples();
  errors();
  if (failures != 0) {
    std::printf("%d example(s) did not match the spec\n", failures);
    return 1;
  }
  std::printf("Every example matches the spec.\n");
  return 0;
}
