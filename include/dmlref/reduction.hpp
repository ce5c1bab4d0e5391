#ifndef DMLREF_REDUCTION_HPP
#define DMLREF_REDUCTION_HPP

#include <cstdint>

namespace dmlref {

/// How a scatter combines an update with the element already in the output: an extension for
/// ONNX's ScatterElements/ScatterND `reduction` attribute (opsets 16 and 18); DirectML itself only
/// replaces. Updates combine in row-major order of UpdatesTensor, so results are deterministic,
/// and duplicate indices are legal (the collision check does not apply).
///
/// Arithmetic is the data type's own: float16 goes through float and rounds back to float16 after
/// every step (as numpy's float16 does); float32/float64 are IEEE; integers wrap (two's complement).
/// max/min: NaN propagates (the output's NaN if it has one, else the update's), as in numpy's
/// maximum/minimum; between equal values (such as -0 and +0) the output's is kept, for every type
/// (numpy itself keeps the first operand for float16 but not always for float32/float64).
enum class Reduction : std::uint8_t { none, add, mul, max, min };

/// "none", "add", "mul", "max", "min" (ONNX's spelling).
constexpr const char* name(Reduction r) noexcept {
  switch (r) {
    case Reduction::none: return "none";
    case Reduction::add: return "add";
    case Reduction::mul: return "mul";
    case Reduction::max: return "max";
    case Reduction::min: return "min";
  }
  return "unknown";
}

}  // namespace dmlref

#endif  // DMLREF_REDUCTION_HPP
