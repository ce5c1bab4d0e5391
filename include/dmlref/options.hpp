#ifndef DMLREF_OPTIONS_HPP
#define DMLREF_OPTIONS_HPP

#include <cstdint>

#include "executor.hpp"

namespace dmlref {

/// What an index outside its dimension does. DirectML leaves the result undefined.
enum class IndexPolicy : std::uint8_t {
  /// Report index_out_of_range and write nothing (the default: a golden reference never invents data).
  error,
  /// WebNN's arithmetic, as DirectML's GPU path has been observed to do (onnxruntime#25251):
  /// clamp to [-n, n-1], then add n if negative. Unsigned values are never negative: they clamp to n-1.
  clamp,
};

/// Which of DirectML's buffer-binding rules a call enforces (docs/directml.md, "Binding rules").
enum class BindingRules : std::uint8_t {
  /// Any element-aligned tensor whose elements lie inside its buffer (the default: a reference).
  relaxed,
  /// Also DirectML's: TotalTensorSizeInBytes >= DMLCalcBufferTensorSize, data aligned to
  /// max(16, GuaranteedBaseOffsetAlignment), at most 2^32 - 1 elements, sizes and strides in UINT.
  directml,
};

/// Choices for behaviour that DirectML leaves undefined. The defaults suit a golden reference.
struct Options {
  IndexPolicy index_policy = IndexPolicy::error;
  /// Scatter only: report two updates that write one output element as scatter_collision
  /// (costs one bit per output element of heap). Off: the last update in row-major order wins.
  bool check_collisions = false;
  /// Most threads one call may use; 1 runs on the caller only (and never touches a pool).
  /// Every thread gets at least 256 KiB of work, so smaller calls are never split.
  /// Results are identical for any number of threads.
  int threads = 1;
  /// Where the threads come from; nullptr means dmlref's default_thread_pool().
  Executor* executor = nullptr;
  /// Lets a call take heap scratch, freed before it returns, for two far-strided layouts that run
  /// several times faster with it (docs/performance.md): Gather of rows from a transposed input (16 bytes per output row, to
  /// visit the rows in input order) and GatherElements/Gather along a transposed input's lines
  /// (up to 1 MiB, to stage a cache line's worth of lines at once); and an all-or-nothing gather
  /// whose index values outweigh its output 4 times (a copy of the bytes OutputTensor spans, under
  /// 32 MiB, gathered into while the values are checked, so that they are read once). A failed allocation
  /// takes the slower path, never an error. false: a successful call allocates no heap memory.
  bool allow_scratch = true;
  /// true (the default): a call that fails writes nothing, so every index value is checked
  /// before the first write. false: the check and the copy run together, a block of rows at a
  /// time, while the block's index values are still in cache (one pass over IndicesTensor instead
  /// of two, as PyTorch and ONNX Runtime do). A failing call then returns the same error, naming
  /// the same first bad value, but OutputTensor may hold the results of the rows before it
  /// (Error::output_partly_written says so); nothing is ever written outside OutputTensor, and no
  /// element is ever half written. docs/semantics.md, "One pass".
  bool all_or_nothing = true;
  /// A DML_FEATURE_LEVEL value (feature_level::v3_0, ...): the call must also be one DirectML at
  /// that level accepts (operator, dimension counts, data types; no scatter reduction). 0: no
  /// level: what DirectML's newest level accepts, and dmlref's extensions (docs/directml.md).
  std::uint32_t feature_level = 0;
  /// DirectML's binding rules (BindingRules::directml) or only the reference's (relaxed).
  BindingRules binding_rules = BindingRules::relaxed;
};

}  // namespace dmlref

#endif  // DMLREF_OPTIONS_HPP
