// Uses an installed dmlref through pkg-config only (see build.sh): runs a GatherND and checks it.
#include <dmlref/dmlref.hpp>

#include <cstdint>
#include <cstdio>

int main() {
  const std::int32_t input[2 * 2] = {0, 1, 2, 3};
  const std::int64_t indices[2 * 2] = {1, 1, 0, 1};  // two 2-tuples: (1, 1) and (0, 1)
  std::int32_t output[2] = {};
  const dmlref::Status status = dmlref::try_gather_nd(
      dmlref::TensorView<const std::int32_t>(input, {2, 2}),
      dmlref::TensorView<const std::int64_t>(indices, {2, 2}),
      dmlref::TensorView<std::int32_t>(output, {1, 2}), dmlref::GatherNDParams{2, 2});
  const bool good = status.ok() && output[0] == 3 && output[1] == 1;
  std::printf("dmlref %d.%d.%d via pkg-config: gather_nd %s\n", DMLREF_VERSION_MAJOR,
              DMLREF_VERSION_MINOR, DMLREF_VERSION_PATCH, good ? "ok" : "WRONG");
  if (!status.ok()) std::printf("%s\n", status.message().c_str());
  return good ? 0 : 1;
}
