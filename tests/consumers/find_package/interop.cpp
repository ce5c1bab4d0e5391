// The optional headers from an installed dmlref: a DLPack tensor in, a Gather, fmt out.
#include <dmlref/dlpack.hpp>
#include <dmlref/dmlref.hpp>
#include <dmlref/fmt.hpp>

#include <cstdint>
#include <string>

int main() {
  // A 2x3 float32 table and INT32 indices, described as a DLPack producer would (no strides).
  float table[6] = {0, 1, 2, 10, 11, 12};
  std::int32_t rows[2] = {1, 0};
  float out[6] = {};
  std::int64_t table_shape[2] = {2, 3}, rows_shape[2] = {1, 2}, out_shape[2] = {2, 3};
  const DLDevice cpu{kDLCPU, 0};
  const DLTensor table_t{table, cpu, 2, DLDataType{kDLFloat, 32, 1}, table_shape, nullptr, 0};
  const DLTensor rows_t{rows, cpu, 2, DLDataType{kDLInt, 32, 1}, rows_shape, nullptr, 0};
  const DLTensor out_t{out, cpu, 2, DLDataType{kDLFloat, 32, 1}, out_shape, nullptr, 0};

  const auto input = dmlref::dlpack::try_desc(table_t);
  const auto indices = dmlref::dlpack::try_desc(rows_t);
  const auto output = dmlref::dlpack::try_mutable_desc(out_t);
  if (!input || !indices || !output) return 1;
  const dmlref::Status status = dmlref::try_gather(*input, *indices, *output, dmlref::GatherParams{0, 1});
  const std::string text = fmt::format("{}", dmlref::dlpack::view<const float>(out_t));
  fmt::print("{} -> {}\n{}\n", *input, dmlref::sizes_of(*output), text);
  return status.ok() && text == "[[10. 11. 12.]\n [ 0.  1.  2.]]" ? 0 : 1;
}
