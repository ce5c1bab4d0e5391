// Uses dmlref through add_subdirectory: runs a Gather over runtime descriptors and checks it.
#include <dmlref/dmlref.hpp>

#include <cstdint>
#include <cstdio>

int main() {
  const double input[2 * 3] = {1, 2, 3, 4, 5, 6};
  const std::uint32_t indices[2] = {2, 0};
  double output[2 * 2] = {};
  const std::int64_t input_sizes[] = {2, 3}, indices_sizes[] = {1, 2}, output_sizes[] = {2, 2};
  const dmlref::TensorDesc in{dmlref::DataType::FLOAT64, 2, input_sizes, nullptr, sizeof input, input};
  const dmlref::TensorDesc idx{dmlref::DataType::UINT32, 2, indices_sizes, nullptr, sizeof indices, indices};
  const dmlref::MutableTensorDesc out{dmlref::DataType::FLOAT64, 2, output_sizes, nullptr, sizeof output, output};
  const dmlref::Status status = dmlref::try_gather(in, idx, out, dmlref::GatherParams{1, 1});
  const double expected[] = {3, 1, 6, 4};
  bool good = status.ok();
  for (int i = 0; i < 4; ++i) good = good && output[i] == expected[i];
  std::printf("dmlref %d.%d.%d via add_subdirectory: gather %s\n", DMLREF_VERSION_MAJOR,
              DMLREF_VERSION_MINOR, DMLREF_VERSION_PATCH, good ? "ok" : "WRONG");
  if (!status.ok()) std::printf("%s\n", status.message().c_str());
  return good ? 0 : 1;
}
