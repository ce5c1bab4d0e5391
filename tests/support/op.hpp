// The six operators under test, and their four tensors: the one list every test, the spec
// examples, the random cases and the fuzzer name them by. Standard library only (the spec examples
// and the random case generator include it without dmlref).
#pragma once

namespace harness {

enum class Op { gather, gather_elements, gather_nd, gather_nd1, scatter, scatter_nd };
inline constexpr Op all_ops[] = {Op::gather, Op::gather_elements, Op::gather_nd,
                                 Op::gather_nd1, Op::scatter, Op::scatter_nd};

/// DirectML's name of the operator ("Gather", "GatherND1", ...): what dmlref's errors say.
constexpr const char* name(Op op) {
  switch (op) {
    case Op::gather: return "Gather";
    case Op::gather_elements: return "GatherElements";
    case Op::gather_nd: return "GatherND";
    case Op::gather_nd1: return "GatherND1";
    case Op::scatter: return "Scatter";
    case Op::scatter_nd: return "ScatterND";
  }
  return "?";
}
constexpr bool is_scatter(Op op) { return op == Op::scatter || op == Op::scatter_nd; }
constexpr bool is_nd(Op op) { return op == Op::gather_nd || op == Op::gather_nd1 || op == Op::scatter_nd; }

/// A call's tensors, in DirectML's field order; UpdatesTensor only for the scatters.
enum Role { kInput = 0, kIndices = 1, kUpdates = 2, kOutput = 3 };
inline constexpr int kRoles = 4;
constexpr const char* role_name(int role) {
  switch (role) {
    case kInput: return "InputTensor";
    case kIndices: return "IndicesTensor";
    case kUpdates: return "UpdatesTensor";
    case kOutput: return "OutputTensor";
    default: return "?";
  }
}

}  // namespace harness
