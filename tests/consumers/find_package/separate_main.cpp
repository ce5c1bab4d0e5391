// Uses an installed dmlref in DMLREF_SEPARATE_KERNELS mode (defined for this whole target in
// CMakeLists.txt): this file declares the kernels `extern template`, separate_kernels.cpp defines
// them. Runs a typed Gather and a descriptor ScatterND and checks both results; it links only if
// separate_kernels.cpp defines the kernels both calls need.
#include <dmlref/dmlref.hpp>

#include <cstdint>
#include <cstdio>

#include "gather_check.hpp"

int main() {
  dmlref::Status gathered;
  bool good = gather_works(gathered);

  // ScatterND through descriptors: rows 2 and 0 of a [3, 2] int32 tensor replaced.
  const std::int32_t data[] = {1, 2, 3, 4, 5, 6};
  const std::uint32_t rows[] = {2, 0};
  const std::int32_t updates[] = {70, 80, 90, 100};
  std::int32_t result[6] = {};
  const std::int64_t data_sizes[] = {3, 2}, rows_sizes[] = {2, 1}, updates_sizes[] = {2, 2};
  const dmlref::TensorDesc data_desc{dmlref::DataType::INT32, 2, data_sizes, nullptr, sizeof data, data};
  const dmlref::TensorDesc rows_desc{dmlref::DataType::UINT32, 2, rows_sizes, nullptr, sizeof rows, rows};
  const dmlref::TensorDesc updates_desc{dmlref::DataType::INT32, 2, updates_sizes, nullptr, sizeof updates, updates};
  const dmlref::MutableTensorDesc result_desc{dmlref::DataType::INT32, 2, data_sizes, nullptr, sizeof result, result};
  const dmlref::Status scattered =
      dmlref::try_scatter_nd(data_desc, rows_desc, updates_desc, result_desc, dmlref::ScatterNDParams{2, 2});
  const std::int32_t expected_scatter[] = {90, 100, 3, 4, 70, 80};
  good = good && scattered.ok();
  for (int i = 0; i < 6; ++i) good = good && result[i] == expected_scatter[i];

  std::printf("dmlref with DMLREF_SEPARATE_KERNELS: gather and scatter_nd %s\n", good ? "ok" : "WRONG");
  if (!gathered.ok()) std::printf("%s\n", gathered.message().c_str());
  if (!scattered.ok()) std::printf("%s\n", scattered.message().c_str());
  return good ? 0 : 1;
}
