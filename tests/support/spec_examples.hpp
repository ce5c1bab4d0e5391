// Every worked example and derived test vector of shared/spec/operators.md, as data.
//
// Used by the oracle's self-test (tests/oracle/test_oracle.cpp) and by the operators' tests
// (tests/ops/, through support/examples.hpp). Values are transcribed from the spec text, in
// row-major order, as doubles (every value in the spec is an integer that a double holds exactly,
// including 4294967295). Standard library only.
//
// Conventions:
// - `attr` holds the operator's UINT fields in DirectML's field order; unused entries are 0:
//     gather           {Axis, IndexDimensions, 0}
//     gather_elements  {Axis, 0, 0}
//     gather_nd        {InputDimensionCount, IndicesDimensionCount, 0}
//     gather_nd1       {InputDimensionCount, IndicesDimensionCount, BatchDimensionCount}
//     scatter          {Axis, 0, 0}
//     scatter_nd       {InputDimensionCount, IndicesDimensionCount, 0}
// - `updates` is used by the scatters only; for the gathers it is {{}, {}, ""}.
// - `values` empty = not given: shape-only examples (GN-S and its variants), and the outputs of
//   examples that must fail before producing anything (e.g. X-12).
// - Literal (as printed on the DirectML page) forms keep the page's sizes and values even when they
//   are inconsistent: their tensors may have different DimensionCounts, and `values.size()` need
//   not equal the product of `sizes` (S-2-literal prints 9 values for Sizes {2,3}).
// - `expect` is the first failure a fully validating implementation must report; `note` says
//   what else is wrong, if anything.
// - The derived vectors X-1 … X-13 give no data type for the data tensors; FLOAT32 is used.
#pragma once

#include <cstdint>
#include <vector>

#include "support/op.hpp"

namespace spec_examples {

using harness::Op;

enum class Expect {
    ok,                     ///< succeeds; `output` (values) is the expected result
    shape_error,            ///< sizes or attributes invalid
    index_error,            ///< an index value out of range
    collision_error,        ///< two updates hit one output element (only with check_collisions)
    data_type_error,        ///< data tensors' DataTypes differ (type-agnostic code would succeed)
    dimension_count_error,  ///< tensors have different DimensionCounts
    index_type_error,       ///< IndicesTensor type is not INT32/INT64/UINT32/UINT64
};

/// One tensor: sizes, values in row-major order, and its DML_TENSOR_DATA_TYPE name without
/// the prefix ("FLOAT32", "UINT32", "INT32", "INT64", …); type "" = tensor not used.
struct Array {
    std::vector<std::int64_t> sizes;
    std::vector<double> values;
    const char* type;
};

struct Example {
    const char* id;      ///< "G-1", "X-12", … as in the spec; "-literal" = the page's printed form
    const char* source;  ///< section of operators.md
    Op op;
    std::uint32_t attr[3];
    Array input, indices, updates, output;
    bool check_collisions;  ///< run with the opt-in collision check
    Expect expect;
    const char* note;
};

namespace detail {
inline const Array none{{}, {}, ""};
}  // namespace detail

/// The whole table, in spec order.
inline const std::vector<Example>& all() {
    using detail::none;
    static const std::vector<Example> table = {
        // ---------------------------------------------------------------- GATHER (§2.6)
        {"G-1", "operators.md §2.6", Op::gather, {0, 1, 0},
         {{4}, {11, 12, 13, 14}, "FLOAT32"},
         {{5}, {3, 1, 3, 0, 2}, "UINT32"},
         none,
         {{5}, {14, 12, 14, 11, 13}, "FLOAT32"},
         false, Expect::ok, "1-D remapping"},
        {"G-2", "operators.md §2.6", Op::gather, {0, 1, 0},
         {{3, 2}, {1, 2, 3, 4, 5, 6}, "FLOAT32"},
         {{1, 4}, {0, 1, 1, 2}, "UINT32"},
         none,
         {{4, 2}, {1, 2, 3, 4, 3, 4, 5, 6}, "FLOAT32"},
         false, Expect::ok, "2-D output, 1-D indices, Axis 0"},
        {"G-3-literal", "operators.md §2.6", Op::gather, {1, 2, 0},
         {{3, 2}, {1, 2, 3, 4, 5, 6}, "FLOAT32"},
         {{1, 2}, {1, 0}, "UINT32"},
         none,
         {{3, 2}, {2, 1, 4, 3, 6, 5}, "FLOAT32"},
         false, Expect::shape_error,
         "as printed: IndexDimensions 2 with 2-D tensors; L = {3,1,2} would drop the entry 3"},
        {"G-3a", "operators.md §2.6", Op::gather, {1, 1, 0},
         {{3, 2}, {1, 2, 3, 4, 5, 6}, "FLOAT32"},
         {{1, 2}, {1, 0}, "UINT32"},
         none,
         {{3, 2}, {2, 1, 4, 3, 6, 5}, "FLOAT32"},
         false, Expect::ok, "G-3 corrected, 2-D form (IndexDimensions 1)"},
        {"G-3b", "operators.md §2.6", Op::gather, {2, 2, 0},
         {{1, 3, 2}, {1, 2, 3, 4, 5, 6}, "FLOAT32"},
         {{1, 1, 2}, {1, 0}, "UINT32"},
         none,
         {{3, 1, 2}, {2, 1, 4, 3, 6, 5}, "FLOAT32"},
         false, Expect::ok, "G-3 corrected, 3-D form (Axis 2, IndexDimensions 2)"},
        {"G-4", "operators.md §2.6", Op::gather, {2, 2, 0},
         {{1, 3, 3}, {1, 2, 3, 4, 5, 6, 7, 8, 9}, "FLOAT32"},
         {{1, 1, 2}, {0, 2}, "UINT32"},
         none,
         {{3, 1, 2}, {1, 3, 4, 6, 7, 9}, "FLOAT32"},
         false, Expect::ok, "nested indices; L = {1,3,1,2}, leading 1 dropped"},
        {"G-5", "operators.md §2.6", Op::gather, {1, 2, 0},
         {{1, 3, 2}, {1, 2, 3, 4, 5, 6}, "FLOAT32"},
         {{1, 2, 2}, {0, 1, 1, 2}, "UINT32"},
         none,
         {{2, 2, 2}, {1, 2, 3, 4, 3, 4, 5, 6}, "FLOAT32"},
         false, Expect::ok, "nested indices; L = {1,2,2,2}, leading 1 dropped"},

        // ---------------------------------------------------------------- GATHER_ELEMENTS (§3.5)
        {"GE-1", "operators.md §3.5", Op::gather_elements, {0, 0, 0},
         {{3, 3}, {1, 2, 3, 4, 5, 6, 7, 8, 9}, "FLOAT32"},
         {{2, 3}, {1, 2, 0, 2, 0, 0}, "UINT32"},
         none,
         {{2, 3}, {4, 8, 3, 7, 2, 3}, "FLOAT32"},
         false, Expect::ok, "output type corrected to FLOAT32"},
        {"GE-1-literal", "operators.md §3.5", Op::gather_elements, {0, 0, 0},
         {{3, 3}, {1, 2, 3, 4, 5, 6, 7, 8, 9}, "FLOAT32"},
         {{2, 3}, {1, 2, 0, 2, 0, 0}, "UINT32"},
         none,
         {{2, 3}, {4, 8, 3, 7, 2, 3}, "UINT32"},
         false, Expect::data_type_error,
         "as printed: OutputTensor UINT32 for a FLOAT32 input; shapes and indices are valid"},

        // ---------------------------------------------------------------- GATHER_ND (§4.3)
        {"GN-1", "operators.md §4.3", Op::gather_nd, {2, 2, 0},
         {{2, 2}, {0, 1, 2, 3}, "FLOAT32"},
         {{2, 1}, {1, 0}, "UINT32"},
         none,
         {{2, 2}, {2, 3, 0, 1}, "FLOAT32"},
         false, Expect::ok, "1-D remapping"},
        {"GN-2", "operators.md §4.3", Op::gather_nd, {3, 2, 0},
         {{1, 2, 2, 2}, {0, 1, 2, 3, 4, 5, 6, 7}, "FLOAT32"},
         {{1, 1, 2, 2}, {0, 1, 1, 0}, "UINT32"},
         none,
         {{1, 1, 2, 2}, {2, 3, 4, 5}, "FLOAT32"},
         false, Expect::ok, "2-D remapping"},
        {"GN-S", "operators.md §4.3", Op::gather_nd, {5, 3, 0},
         {{3, 4, 5, 6, 7}, {}, "FLOAT32"},
         {{1, 1, 1, 2, 3}, {}, "UINT32"},
         none,
         {{1, 1, 2, 6, 7}, {}, "FLOAT32"},
         false, Expect::ok, "shape only (values not given)"},
        {"GN1-S", "operators.md §4.3 (GATHER_ND1 page)", Op::gather_nd1, {5, 3, 0},
         {{3, 4, 5, 6, 7}, {}, "FLOAT32"},
         {{1, 1, 1, 2, 3}, {}, "UINT32"},
         none,
         {{1, 1, 2, 6, 7}, {}, "FLOAT32"},
         false, Expect::ok, "shape only: GN-S with BatchDimensionCount 0"},

        // ---------------------------------------------------------------- GATHER_ND1 (§5.6)
        {"GN1-1", "operators.md §5.6", Op::gather_nd1, {2, 2, 0},
         {{2, 2}, {0, 1, 2, 3}, "FLOAT32"},
         {{2, 1}, {1, 0}, "UINT32"},
         none,
         {{2, 2}, {2, 3, 0, 1}, "FLOAT32"},
         false, Expect::ok, "1-D remapping"},
        {"GN1-2", "operators.md §5.6", Op::gather_nd1, {3, 3, 1},
         {{1, 3, 2, 2}, {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11}, "FLOAT32"},
         {{1, 3, 2, 2}, {0, 0, 1, 1, 1, 1, 0, 0, 0, 1, 1, 0}, "UINT32"},
         none,
         {{1, 1, 3, 2}, {0, 3, 7, 4, 9, 10}, "FLOAT32"},
         false, Expect::ok, "2-D remapping with one batch dimension"},

        // ---------------------------------------------------------------- SCATTER (§6.5)
        {"S-1", "operators.md §6.5", Op::scatter, {0, 0, 0},
         {{5}, {0, 1, 2, 3, 4}, "FLOAT32"},
         {{4}, {3, 1, 3, 0}, "UINT32"},
         {{4}, {5, 6, 7, 8}, "FLOAT32"},
         {{5}, {8, 6, 2, 7, 4}, "FLOAT32"},
         false, Expect::ok, "index 3 written twice; the later update (7) wins (§1.6 policy)"},
        {"S-1-collision", "operators.md §6.5", Op::scatter, {0, 0, 0},
         {{5}, {0, 1, 2, 3, 4}, "FLOAT32"},
         {{4}, {3, 1, 3, 0}, "UINT32"},
         {{4}, {5, 6, 7, 8}, "FLOAT32"},
         {{5}, {}, "FLOAT32"},
         true, Expect::collision_error, "S-1 with the collision check: output element [3]"},
        {"S-2", "operators.md §6.5", Op::scatter, {0, 0, 0},
         {{3, 3}, {0, 0, 0, 0, 0, 0, 0, 0, 0}, "FLOAT32"},
         {{2, 3}, {1, 0, 2, 0, 2, 1}, "UINT32"},
         {{2, 3}, {10, 11, 12, 20, 21, 22}, "FLOAT32"},
         {{3, 3}, {20, 11, 0, 10, 0, 22, 0, 21, 12}, "FLOAT32"},
         false, Expect::ok, "conformant form (InputTensor {3,3})"},
        {"S-2-literal", "operators.md §6.5", Op::scatter, {0, 0, 0},
         {{2, 3}, {0, 0, 0, 0, 0, 0, 0, 0, 0}, "FLOAT32"},
         {{2, 3}, {1, 0, 2, 0, 2, 1}, "UINT32"},
         {{2, 3}, {10, 11, 12, 20, 21, 22}, "FLOAT32"},
         {{3, 3}, {20, 11, 0, 10, 0, 22, 0, 21, 12}, "FLOAT32"},
         false, Expect::shape_error,
         "as printed: InputTensor {2,3} with 9 values, OutputTensor {3,3} (Out != In); index 2 would also be "
         "out of range for the size-2 axis"},

        // ---------------------------------------------------------------- SCATTER_ND (§7.6)
        {"SN-1", "operators.md §7.6", Op::scatter_nd, {1, 2, 0},
         {{1, 8}, {1, 2, 3, 4, 5, 6, 7, 8}, "FLOAT32"},
         {{4, 1}, {4, 3, 1, 7}, "UINT32"},
         {{1, 4}, {9, 10, 11, 12}, "FLOAT32"},
         {{1, 8}, {1, 11, 3, 10, 9, 6, 7, 12}, "FLOAT32"},
         false, Expect::ok, "DirectML-conformant form of the page's example"},
        {"SN-literal", "operators.md §7.6", Op::scatter_nd, {1, 2, 0},
         {{8}, {1, 2, 3, 4, 5, 6, 7, 8}, "FLOAT32"},
         {{4, 1}, {4, 3, 1, 7}, "FLOAT32"},
         {{4}, {9, 10, 11, 12}, "FLOAT32"},
         {{8}, {1, 11, 3, 10, 9, 6, 7, 12}, "FLOAT32"},
         false, Expect::dimension_count_error,
         "as printed: DimensionCounts 1/2/1/1 and FLOAT32 indices (also an index_type_error); the page gives "
         "no InputDimensionCount/IndicesDimensionCount, SN-1's are used"},
        {"SN-literal-padded", "operators.md §7.6", Op::scatter_nd, {1, 2, 0},
         {{1, 8}, {1, 2, 3, 4, 5, 6, 7, 8}, "FLOAT32"},
         {{4, 1}, {4, 3, 1, 7}, "FLOAT32"},
         {{1, 4}, {9, 10, 11, 12}, "FLOAT32"},
         {{1, 8}, {1, 11, 3, 10, 9, 6, 7, 12}, "FLOAT32"},
         false, Expect::index_type_error,
         "the literal form left-padded to D = 2 (§7.6): only the FLOAT32 index type is still wrong; with UINT32 "
         "indices it is SN-1"},
        {"SN-S", "operators.md §7.6", Op::scatter_nd, {5, 3, 0},
         {{3, 4, 5, 6, 7}, {}, "FLOAT32"},
         {{1, 1, 1, 2, 3}, {}, "UINT32"},
         {{1, 1, 2, 6, 7}, {}, "FLOAT32"},
         {{3, 4, 5, 6, 7}, {}, "FLOAT32"},
         false, Expect::ok, "shape only: GN-S applied to UpdatesTensor"},

        // ---------------------------------------------------------------- derived vectors (§8)
        {"X-1", "operators.md §8", Op::gather, {0, 1, 0},
         {{4}, {11, 12, 13, 14}, "FLOAT32"},
         {{5}, {-1, -4, 0, 3, -2}, "INT32"},
         none,
         {{5}, {14, 11, 11, 14, 13}, "FLOAT32"},
         false, Expect::ok, "negative indices"},
        {"X-2", "operators.md §8", Op::gather, {0, 0, 0},
         {{3, 2}, {1, 2, 3, 4, 5, 6}, "FLOAT32"},
         {{1, 1}, {2}, "UINT32"},
         none,
         {{1, 2}, {5, 6}, "FLOAT32"},
         false, Expect::ok, "IndexDimensions 0 (scalar index)"},
        {"X-3", "operators.md §8", Op::gather, {1, 0, 0},
         {{3, 2}, {1, 2, 3, 4, 5, 6}, "FLOAT32"},
         {{1, 1}, {1}, "UINT32"},
         none,
         {{1, 3}, {2, 4, 6}, "FLOAT32"},
         false, Expect::ok, "IndexDimensions 0, Axis 1"},
        {"X-4", "operators.md §8", Op::gather, {3, 1, 0},
         {{1, 1, 1, 4}, {11, 12, 13, 14}, "FLOAT32"},
         {{1, 1, 1, 5}, {3, 1, 3, 0, 2}, "UINT32"},
         none,
         {{1, 1, 1, 5}, {14, 12, 14, 11, 13}, "FLOAT32"},
         false, Expect::ok, "G-1 padded to D = 4"},
        {"X-5", "operators.md §8", Op::gather_elements, {1, 0, 0},
         {{2, 3}, {1, 2, 3, 4, 5, 6}, "FLOAT32"},
         {{2, 2}, {-1, 0, 1, -3}, "INT64"},
         none,
         {{2, 2}, {3, 1, 5, 4}, "FLOAT32"},
         false, Expect::ok, "negative indices, Idx[Axis] < In[Axis]"},
        {"X-6", "operators.md §8", Op::gather_nd, {2, 2, 0},
         {{2, 2}, {0, 1, 2, 3}, "FLOAT32"},
         {{2, 2}, {0, 0, 1, 1}, "UINT32"},
         none,
         {{1, 2}, {0, 3}, "FLOAT32"},
         false, Expect::ok, "K = 2: single elements"},
        {"X-7", "operators.md §8", Op::gather_nd, {2, 2, 0},
         {{2, 2}, {0, 1, 2, 3}, "FLOAT32"},
         {{2, 2}, {-1, 0, 0, -1}, "INT32"},
         none,
         {{1, 2}, {2, 1}, "FLOAT32"},
         false, Expect::ok, "negative tuple coordinates"},
        {"X-8", "operators.md §8", Op::gather_nd1, {3, 2, 1},
         {{2, 2, 2}, {0, 1, 2, 3, 4, 5, 6, 7}, "FLOAT32"},
         {{1, 2, 1}, {1, 0}, "UINT32"},
         none,
         {{1, 2, 2}, {2, 3, 4, 5}, "FLOAT32"},
         false, Expect::ok, "one batch dimension, K = 1"},
        {"X-9", "operators.md §8", Op::gather_nd1, {3, 3, 1},
         {{1, 3, 2, 2}, {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11}, "FLOAT32"},
         {{1, 3, 2, 2}, {-1, -1, 0, -2, 1, 0, -2, 1, 0, 0, 1, 1}, "INT32"},
         none,
         {{1, 1, 3, 2}, {3, 0, 6, 5, 8, 11}, "FLOAT32"},
         false, Expect::ok, "GN1-2 input, negative tuples"},
        {"X-10", "operators.md §8", Op::scatter, {1, 0, 0},
         {{2, 3}, {0, 0, 0, 0, 0, 0}, "FLOAT32"},
         {{2, 1}, {-1, 0}, "INT32"},
         {{2, 1}, {7, 8}, "FLOAT32"},
         {{2, 3}, {0, 0, 7, 8, 0, 0}, "FLOAT32"},
         false, Expect::ok, "negative index, Idx[Axis] < In[Axis]"},
        {"X-11", "operators.md §8", Op::scatter_nd, {2, 2, 0},
         {{4, 3}, {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12}, "FLOAT32"},
         {{2, 1}, {3, -4}, "INT64"},
         {{2, 3}, {10, 20, 30, 40, 50, 60}, "FLOAT32"},
         {{4, 3}, {40, 50, 60, 4, 5, 6, 7, 8, 9, 10, 20, 30}, "FLOAT32"},
         false, Expect::ok, "row blocks, negative tuple coordinate"},
        {"X-12", "operators.md §8", Op::gather, {0, 1, 0},
         {{4}, {11, 12, 13, 14}, "FLOAT32"},
         {{2}, {0, 4294967295.0}, "UINT32"},
         none,
         {{2}, {}, "FLOAT32"},
         false, Expect::index_error, "unsigned is never negative: 4294967295 at indices coordinate (1) is out of range"},
        {"X-13", "operators.md §8", Op::scatter, {1, 0, 0},
         {{1, 3}, {0, 0, 0}, "FLOAT32"},
         {{1, 2}, {2, -1}, "INT32"},
         {{1, 2}, {5, 6}, "FLOAT32"},
         {{1, 3}, {0, 0, 6}, "FLOAT32"},
         false, Expect::ok, "2 and -1 hit the same element; the later update wins"},
        {"X-13-collision", "operators.md §8", Op::scatter, {1, 0, 0},
         {{1, 3}, {0, 0, 0}, "FLOAT32"},
         {{1, 2}, {2, -1}, "INT32"},
         {{1, 2}, {5, 6}, "FLOAT32"},
         {{1, 3}, {}, "FLOAT32"},
         true, Expect::collision_error, "collision after normalisation on output element (0,2)"},
    };
    return table;
}

}  // namespace spec_examples
