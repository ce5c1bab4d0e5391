// A deliberately naive test oracle for dmlref's six gather/scatter operators.
//
// It follows shared/spec/operators.md literally: one coordinate vector per tensor, one loop per
// output (or updates) element, the spec's pseudocode transcribed line by line. It shares no code
// with include/dmlref and uses only the standard library, so that a bug in the library cannot hide
// behind the same bug here. Speed is not a goal (tens of thousands of elements per call is fine).
//
// Every call validates everything first (shapes, attributes, strides, aliasing, every index value,
// optionally collisions) and only then writes; a failing call leaves the output untouched.
// The oracle does not know data types: it moves `element_size` bytes per element (bit-exact), and
// the caller checks that data types agree and that buffers are large enough.
//
// Error texts are "<Operator>: <category>: <detail>", category one of
//   "layout error"  bad element size, strides, null pointer, aliasing/overlapping output
//   "shape error"   DimensionCount, sizes or attributes violate the spec's validation list
//   "index error"   an index value is out of range (Policy::error only)
//   "collision"     two updates hit the same output element (report_collisions only)
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace oracle {

/// Element type of an IndicesTensor (INT32, INT64, UINT32, UINT64).
enum class IndexKind { i32, i64, u32, u64 };

/// A strided, read-only data tensor over raw bytes. Strides are in elements (>= 0).
struct Tensor {
    const unsigned char* data;
    std::size_t element_size;  ///< 1, 2, 4 or 8
    std::vector<std::int64_t> sizes;
    std::vector<std::int64_t> strides;  ///< same length as sizes
};

/// A strided IndicesTensor; the element size follows from `kind` (4 or 8 bytes).
struct Indices {
    const unsigned char* data;
    IndexKind kind;
    std::vector<std::int64_t> sizes, strides;
};

/// A strided, writable OutputTensor.
struct Output {
    unsigned char* data;
    std::size_t element_size;
    std::vector<std::int64_t> sizes, strides;
};

/// What to do with an out-of-range index: report it (the spec's policy), or clamp it to the
/// valid range (WebNN-style: signed to [-n, n-1] then normalised, unsigned to [0, n-1]).
enum class Policy { error, clamp };

/// ok, or a short reason "<Operator>: <category>: <detail>".
struct Result {
    bool ok;
    std::string error;
};

namespace detail {

using Sizes = std::vector<std::int64_t>;
using Coord = std::vector<std::int64_t>;

constexpr std::size_t max_dimension_count = 8;

inline std::string text(const Sizes& v, char open = '{', char close = '}') {
    std::string s(1, open);
    for (std::size_t d = 0; d < v.size(); ++d) {
        if (d != 0) s += ", ";
        s += std::to_string(v[d]);
    }
    return s + close;
}
inline std::string coord_text(const Coord& c) { return text(c, '[', ']'); }
inline std::string num(std::uint64_t v) { return std::to_string(v); }
inline std::string num(std::int64_t v) { return std::to_string(v); }

inline Result success() { return {true, std::string()}; }
inline Result failure(const char* op, const char* category, const std::string& detail) {
    return {false, std::string(op) + ": " + category + ": " + detail};
}

// ---- small array helpers (names follow the spec's notation) ----

/// A[a, b)
inline Sizes part(const Sizes& a, std::size_t from, std::size_t to) {
    return Sizes(a.begin() + static_cast<std::ptrdiff_t>(from), a.begin() + static_cast<std::ptrdiff_t>(to));
}
/// x ⧺ y
inline Sizes cat(Sizes x, const Sizes& y) {
    x.insert(x.end(), y.begin(), y.end());
    return x;
}
/// (v × n)
inline Sizes repeat(std::int64_t v, std::size_t n) { return Sizes(n, v); }

/// Advances c to the next coordinate in row-major order; false after the last one.
inline bool next(Coord& c, const Sizes& sizes) {
    for (std::size_t d = sizes.size(); d-- > 0;) {
        if (++c[d] < sizes[d]) return true;
        c[d] = 0;
    }
    return false;
}

/// Number of elements (sizes already validated: every size >= 1, no overflow).
inline std::int64_t count(const Sizes& sizes) {
    std::int64_t n = 1;
    for (std::int64_t s : sizes) n *= s;
    return n;
}

/// Position of coordinate c in row-major order (used to remember per-index results).
inline std::int64_t row_major(const Coord& c, const Sizes& sizes) {
    std::int64_t linear = 0;
    for (std::size_t d = 0; d < sizes.size(); ++d) linear = linear * sizes[d] + c[d];
    return linear;
}

/// Σ c[d]·strides[d], in elements.
inline std::int64_t offset(const Coord& c, const Sizes& strides) {
    std::int64_t o = 0;
    for (std::size_t d = 0; d < c.size(); ++d) o += c[d] * strides[d];
    return o;
}

// ---- index values ----

inline std::size_t index_size(IndexKind kind) {
    switch (kind) {
        case IndexKind::i32:
        case IndexKind::u32: return 4;
        case IndexKind::i64:
        case IndexKind::u64: return 8;
    }
    return 0;
}

/// One index element as stored: signed kinds in `s`, unsigned kinds in `u`.
struct RawIndex {
    bool is_signed;
    std::int64_t s;
    std::uint64_t u;
    std::string text() const { return is_signed ? num(s) : num(u); }
};

inline RawIndex read_index(const Indices& idx, const Coord& j) {
    const unsigned char* p = idx.data + static_cast<std::ptrdiff_t>(index_size(idx.kind)) * offset(j, idx.strides);
    switch (idx.kind) {
        case IndexKind::i32: {
            std::int32_t v;
            std::memcpy(&v, p, sizeof v);
            return {true, v, 0};
        }
        case IndexKind::i64: {
            std::int64_t v;
            std::memcpy(&v, p, sizeof v);
            return {true, v, 0};
        }
        case IndexKind::u32: {
            std::uint32_t v;
            std::memcpy(&v, p, sizeof v);
            return {false, 0, v};
        }
        case IndexKind::u64: {
            std::uint64_t v;
            std::memcpy(&v, p, sizeof v);
            return {false, 0, v};
        }
    }
    return {false, 0, 0};
}

/// normalize(v, n) of spec §1.4 (plus the clamp policy). n >= 1. False: out of range.
inline bool normalize(const RawIndex& v, std::int64_t n, Policy policy, std::int64_t& result) {
    if (v.is_signed) {
        std::int64_t x = v.s;
        if (policy == Policy::clamp) x = std::clamp(x, -n, n - 1);
        if (x < 0) x += n;  // cannot overflow: x < 0 < n
        if (x < 0 || x >= n) return false;
        result = x;
        return true;
    }
    // Unsigned: never negative; compare as uint64 so values above INT64_MAX stay huge.
    std::uint64_t x = v.u;
    const std::uint64_t un = static_cast<std::uint64_t>(n);
    if (policy == Policy::clamp && x > un - 1) x = un - 1;
    if (x >= un) return false;
    result = static_cast<std::int64_t>(x);
    return true;
}

/// The dimension an index element addresses: its size n and a name for messages.
struct Target {
    std::int64_t n;
    std::string name;  // e.g. "InputTensor.Sizes[1]"
};

/// Reads and normalises every element of IndicesTensor (row-major); `target(j)` says which
/// dimension the element at coordinate j addresses. Fills `normalized` (row-major order).
template <class TargetOf>
inline Result normalize_all(const char* op, const Indices& idx, Policy policy, TargetOf target,
                            std::vector<std::int64_t>& normalized) {
    normalized.assign(static_cast<std::size_t>(count(idx.sizes)), 0);
    Coord j(idx.sizes.size(), 0);
    std::size_t k = 0;
    do {
        const Target t = target(j);
        const RawIndex v = read_index(idx, j);
        if (!normalize(v, t.n, policy, normalized[k])) {
            const std::string range = v.is_signed ? num(-t.n) + ".." + num(t.n - 1) : "0.." + num(t.n - 1);
            return failure(op, "index error",
                           "IndicesTensor value " + v.text() + " at " + coord_text(j) + " is out of range for " +
                               t.name + " = " + num(t.n) + " (valid " + range + ")");
        }
        ++k;
    } while (next(j, idx.sizes));
    return success();
}

// ---- shape checks ----

struct Named {
    const char* name;
    const Sizes* sizes;
};

/// Spec §1.1: one DimensionCount D for all tensors, 1 <= D <= 8, every size >= 1.
inline bool common_dims(const std::vector<Named>& tensors, std::string& why) {
    const std::size_t D = tensors.front().sizes->size();
    for (const Named& t : tensors) {
        if (t.sizes->size() != D) {
            why = "tensors have different DimensionCounts (";
            for (std::size_t k = 0; k < tensors.size(); ++k)
                why += (k ? ", " : "") + std::string(tensors[k].name) + " " + std::to_string(tensors[k].sizes->size());
            why += ")";
            return false;
        }
    }
    if (D < 1 || D > max_dimension_count) {
        why = "DimensionCount " + std::to_string(D) + " is not in 1..8";
        return false;
    }
    for (const Named& t : tensors) {
        for (std::size_t d = 0; d < D; ++d) {
            if ((*t.sizes)[d] < 1) {
                why = std::string(t.name) + ".Sizes[" + std::to_string(d) + "] = " + num((*t.sizes)[d]) +
                      " (must be >= 1)";
                return false;
            }
        }
        // The element count must fit in int64 (loops count elements in int64).
        std::int64_t n = 1;
        for (std::int64_t s : *t.sizes) {
            if (n > INT64_MAX / s) {
                why = std::string(t.name) + " has too many elements";
                return false;
            }
            n *= s;
        }
    }
    return true;
}

/// `name`[0, n) must all be 1 ("irrelevant leading" dimensions, spec §1.3).
inline bool leading_ones(const char* name, const Sizes& s, std::size_t n, const char* field, std::string& why) {
    for (std::size_t d = 0; d < n; ++d) {
        if (s[d] != 1) {
            why = std::string(name) + ".Sizes[" + std::to_string(d) + "] = " + num(s[d]) +
                  " must be 1 (irrelevant leading dimension for " + field + ")";
            return false;
        }
    }
    return true;
}

/// Spec §2.3 / §2.5.
inline std::optional<Sizes> gather_shape(const Sizes& in, const Sizes& idx, std::uint32_t axis, std::uint32_t P,
                                         std::string& why) {
    if (!common_dims({{"InputTensor", &in}, {"IndicesTensor", &idx}}, why)) return std::nullopt;
    const std::size_t D = in.size();
    if (axis >= D) {
        why = "Axis " + std::to_string(axis) + " is not < DimensionCount " + std::to_string(D);
        return std::nullopt;
    }
    if (P > D) {
        why = "IndexDimensions " + std::to_string(P) + " is not <= DimensionCount " + std::to_string(D);
        return std::nullopt;
    }
    if (!leading_ones("IndicesTensor", idx, D - P, "IndexDimensions", why)) return std::nullopt;
    const Sizes L = cat(cat(part(in, 0, axis), part(idx, D - P, D)), part(in, axis + 1, D));
    if (P == 0) return cat({1}, L);
    if (P == 1) return L;
    for (std::size_t e = 0; e < P - 1; ++e) {
        if (L[e] != 1) {
            why = "IndexDimensions too large for DimensionCount: the concatenated shape " + text(L) +
                  " has more than " + std::to_string(D) + " dimensions and entry " + std::to_string(e) + " is not 1";
            return std::nullopt;
        }
    }
    return part(L, P - 1, L.size());
}

/// Spec §3.4 / §6.4 (GATHER_ELEMENTS and SCATTER): Axis < D, and IndicesTensor equals InputTensor
/// in every dimension but Axis.
inline bool axis_and_off_axis_sizes(const Sizes& in, const Sizes& idx, std::uint32_t axis, std::string& why) {
    const std::size_t D = in.size();
    if (axis >= D) {
        why = "Axis " + std::to_string(axis) + " is not < DimensionCount " + std::to_string(D);
        return false;
    }
    for (std::size_t d = 0; d < D; ++d) {
        if (d != axis && idx[d] != in[d]) {
            why = "IndicesTensor.Sizes[" + std::to_string(d) + "] = " + num(idx[d]) +
                  " differs from InputTensor.Sizes[" + std::to_string(d) + "] = " + num(in[d]) +
                  " (only Axis may differ)";
            return false;
        }
    }
    return true;
}

/// Spec §3.3 / §3.4.
inline std::optional<Sizes> gather_elements_shape(const Sizes& in, const Sizes& idx, std::uint32_t axis,
                                                  std::string& why) {
    if (!common_dims({{"InputTensor", &in}, {"IndicesTensor", &idx}}, why)) return std::nullopt;
    if (!axis_and_off_axis_sizes(in, idx, axis, why)) return std::nullopt;
    return idx;
}

/// Spec §5.3 / §5.5 (GATHER_ND is B = 0); also §7.3 / §7.5 items 3-6 for SCATTER_ND (B = 0).
inline std::optional<Sizes> gather_nd_shape(const Sizes& in, const Sizes& idx, std::uint32_t r, std::uint32_t q,
                                            std::uint32_t B, std::string& why) {
    if (!common_dims({{"InputTensor", &in}, {"IndicesTensor", &idx}}, why)) return std::nullopt;
    const std::size_t D = in.size();
    if (r < 1 || r > D) {
        why = "InputDimensionCount " + std::to_string(r) + " is not in 1.." + std::to_string(D);
        return std::nullopt;
    }
    if (q < 1 || q > D) {
        why = "IndicesDimensionCount " + std::to_string(q) + " is not in 1.." + std::to_string(D);
        return std::nullopt;
    }
    if (!leading_ones("InputTensor", in, D - r, "InputDimensionCount", why)) return std::nullopt;
    if (!leading_ones("IndicesTensor", idx, D - q, "IndicesDimensionCount", why)) return std::nullopt;
    if (B >= r || B >= q) {
        why = "BatchDimensionCount " + std::to_string(B) + " must be < InputDimensionCount " + std::to_string(r) +
              " and < IndicesDimensionCount " + std::to_string(q);
        return std::nullopt;
    }
    const Sizes InA = part(in, D - r, D);
    const Sizes IdxA = part(idx, D - q, D);
    const std::int64_t K = idx[D - 1];
    if (K < 1 || K > static_cast<std::int64_t>(r - B)) {
        why = "index tuple length IndicesTensor.Sizes[" + std::to_string(D - 1) + "] = " + num(K) + " is not in 1.." +
              std::to_string(r - B) + " (InputDimensionCount - BatchDimensionCount)";
        return std::nullopt;
    }
    for (std::size_t b = 0; b < B; ++b) {
        if (IdxA[b] != InA[b]) {
            why = "batch dimension " + std::to_string(b) + ": IndicesTensor size " + num(IdxA[b]) +
                  " differs from InputTensor size " + num(InA[b]);
            return std::nullopt;
        }
    }
    const std::size_t Ku = static_cast<std::size_t>(K);
    const std::size_t M = (q - 1) + (r - B - Ku);
    if (M > D) {
        why = "the output needs " + std::to_string(M) + " dimensions, more than DimensionCount " + std::to_string(D);
        return std::nullopt;
    }
    return cat(cat(repeat(1, D - M), part(IdxA, 0, q - 1)), part(InA, B + Ku, r));
}

/// Spec §6.3 / §6.4 items 1, 3-5 (the output sizes are the input's).
inline std::optional<Sizes> scatter_shape(const Sizes& in, const Sizes& idx, const Sizes& upd, std::uint32_t axis,
                                          std::string& why) {
    if (!common_dims({{"InputTensor", &in}, {"IndicesTensor", &idx}, {"UpdatesTensor", &upd}}, why))
        return std::nullopt;
    if (!axis_and_off_axis_sizes(in, idx, axis, why)) return std::nullopt;
    if (upd != idx) {
        why = "UpdatesTensor.Sizes " + text(upd) + " differ from IndicesTensor.Sizes " + text(idx);
        return std::nullopt;
    }
    return in;
}

// ---- layout checks (not in the spec's lists, but needed for a memory-safe oracle) ----

/// Strides: same length as sizes, >= 0; largest byte offset representable.
inline bool check_layout(const char* name, const void* data, std::size_t element_size, const Sizes& sizes,
                         const Sizes& strides, std::string& why) {
    if (data == nullptr) {
        why = std::string(name) + " has no data pointer";
        return false;
    }
    if (element_size != 1 && element_size != 2 && element_size != 4 && element_size != 8) {
        why = std::string(name) + " element size " + std::to_string(element_size) + " is not 1, 2, 4 or 8";
        return false;
    }
    if (strides.size() != sizes.size()) {
        why = std::string(name) + " has " + std::to_string(strides.size()) + " strides for " +
              std::to_string(sizes.size()) + " sizes";
        return false;
    }
    std::int64_t last = 0;  // Σ (size-1)·stride, must not overflow, nor its byte count
    const std::int64_t limit = INT64_MAX / static_cast<std::int64_t>(element_size);
    for (std::size_t d = 0; d < sizes.size(); ++d) {
        if (strides[d] < 0) {
            why = std::string(name) + ".Strides[" + std::to_string(d) + "] = " + num(strides[d]) + " is negative";
            return false;
        }
        const std::int64_t extent = sizes[d] - 1;
        if (strides[d] != 0 && (extent > (limit - last) / strides[d])) {
            why = std::string(name) + " strides address beyond 2^63 bytes";
            return false;
        }
        last += extent * strides[d];
    }
    return true;
}

/// Start addresses of every element, sorted.
inline std::vector<std::uintptr_t> sorted_addresses(const void* data, std::size_t element_size, const Sizes& sizes,
                                                    const Sizes& strides) {
    std::vector<std::uintptr_t> a;
    a.reserve(static_cast<std::size_t>(count(sizes)));
    const std::uintptr_t base = reinterpret_cast<std::uintptr_t>(data);
    Coord c(sizes.size(), 0);
    do {
        a.push_back(base + static_cast<std::uintptr_t>(offset(c, strides)) * element_size);
    } while (next(c, sizes));
    std::sort(a.begin(), a.end());
    return a;
}

/// The highest element offset a tensor reaches (its strides are >= 0, check_layout).
inline std::int64_t last_offset(const Sizes& sizes, const Sizes& strides) {
    std::int64_t last = 0;
    for (std::size_t d = 0; d < sizes.size(); ++d) last += (sizes[d] - 1) * strides[d];
    return last;
}

/// Tensors/policy §3.4: no two output coordinates may share an element. Strides count whole
/// elements, so two elements share a byte only where they coincide: each coordinate marks the
/// element it reaches, or, where the output spans far more elements than it has, the sorted start
/// addresses are compared.
inline bool output_aliases(const Output& o) {
    const std::int64_t span = last_offset(o.sizes, o.strides) + 1;
    if (span / 64 > count(o.sizes)) {
        const std::vector<std::uintptr_t> a = sorted_addresses(o.data, o.element_size, o.sizes, o.strides);
        return std::adjacent_find(a.begin(), a.end()) != a.end();
    }
    std::vector<bool> reached(static_cast<std::size_t>(span));
    Coord c(o.sizes.size(), 0);
    do {
        const auto element = static_cast<std::size_t>(offset(c, o.strides));
        if (reached[element]) return true;
        reached[element] = true;
    } while (next(c, o.sizes));
    return false;
}

/// Does any element of the tensor (data, element_size, sizes, strides) share a byte with any
/// output element? (Output elements are disjoint, sorted, all `out_size` bytes long.)
inline bool overlaps_output(const std::vector<std::uintptr_t>& out_sorted, std::size_t out_size, const void* data,
                            std::size_t element_size, const Sizes& sizes, const Sizes& strides) {
    for (std::uintptr_t a : sorted_addresses(data, element_size, sizes, strides)) {
        // The last output element starting before a + element_size is the only candidate.
        auto it = std::upper_bound(out_sorted.begin(), out_sorted.end(), a + element_size - 1);
        if (it != out_sorted.begin() && *(it - 1) + out_size > a) return true;
    }
    return false;
}

/// First checks of every call: spec §1.1 for all tensors (one DimensionCount, 1..8, sizes >= 1),
/// then element sizes, pointers and strides. `updates` is null for the gathers.
inline Result check_tensors(const char* op, const Tensor& input, const Indices& indices, const Tensor* updates,
                            const Output& output) {
    std::string why;
    std::vector<Named> all{{"InputTensor", &input.sizes}, {"IndicesTensor", &indices.sizes}};
    if (updates) all.push_back({"UpdatesTensor", &updates->sizes});
    all.push_back({"OutputTensor", &output.sizes});
    if (!common_dims(all, why)) return failure(op, "shape error", why);

    if (index_size(indices.kind) == 0) return failure(op, "layout error", "IndicesTensor has an unknown index kind");
    if (!check_layout("InputTensor", input.data, input.element_size, input.sizes, input.strides, why) ||
        !check_layout("IndicesTensor", indices.data, index_size(indices.kind), indices.sizes, indices.strides, why) ||
        (updates &&
         !check_layout("UpdatesTensor", updates->data, updates->element_size, updates->sizes, updates->strides, why)) ||
        !check_layout("OutputTensor", output.data, output.element_size, output.sizes, output.strides, why))
        return failure(op, "layout error", why);
    if (output.element_size != input.element_size || (updates && updates->element_size != input.element_size))
        return failure(op, "layout error", "data tensors have different element sizes");
    return success();
}

/// The output neither aliases itself nor overlaps an input; `in_place`: the output is exactly
/// the input (same pointer, sizes and strides), which only scatters allow. Only a tensor whose bytes
/// reach into the output's span can overlap an output element.
inline Result check_overlaps(const char* op, const Tensor& input, const Indices& indices, const Tensor* updates,
                             const Output& output, bool in_place) {
    if (output_aliases(output))
        return failure(
            op, "layout error",
            "OutputTensor strides " + text(output.strides) + " make two output coordinates share one element");
    auto bytes_end = [](const void* data, std::size_t element_size, const Sizes& sizes, const Sizes& strides) {
        return reinterpret_cast<std::uintptr_t>(data) +
               static_cast<std::uintptr_t>(last_offset(sizes, strides) + 1) * element_size;
    };
    const auto out_begin = reinterpret_cast<std::uintptr_t>(output.data);
    const std::uintptr_t out_end = bytes_end(output.data, output.element_size, output.sizes, output.strides);
    std::vector<std::uintptr_t> out;  // the output's sorted addresses, once a tensor reaches its span
    auto overlaps = [&](const void* data, std::size_t element_size, const Sizes& sizes, const Sizes& strides) {
        const auto begin = reinterpret_cast<std::uintptr_t>(data);
        if (begin >= out_end || bytes_end(data, element_size, sizes, strides) <= out_begin) return false;
        if (out.empty()) out = sorted_addresses(output.data, output.element_size, output.sizes, output.strides);
        return overlaps_output(out, output.element_size, data, element_size, sizes, strides);
    };
    if (!in_place && overlaps(input.data, input.element_size, input.sizes, input.strides))
        return failure(op, "layout error",
                       "OutputTensor overlaps InputTensor (only exact in-place scatter is allowed)");
    if (overlaps(indices.data, index_size(indices.kind), indices.sizes, indices.strides))
        return failure(op, "layout error", "OutputTensor overlaps IndicesTensor");
    if (updates && overlaps(updates->data, updates->element_size, updates->sizes, updates->strides))
        return failure(op, "layout error", "OutputTensor overlaps UpdatesTensor");
    return success();
}

inline const unsigned char* at(const Tensor& t, const Coord& c) {
    return t.data + static_cast<std::ptrdiff_t>(t.element_size) * offset(c, t.strides);
}
inline unsigned char* at(const Output& t, const Coord& c) {
    return t.data + static_cast<std::ptrdiff_t>(t.element_size) * offset(c, t.strides);
}

/// Output := Input, element by element (skipped in place).
inline void copy_input(const Tensor& input, const Output& output, bool in_place) {
    if (in_place) return;
    Coord c(output.sizes.size(), 0);
    do {
        std::memcpy(at(output, c), at(input, c), input.element_size);
    } while (next(c, output.sizes));
}

inline bool is_in_place(const Tensor& input, const Output& output) {
    return static_cast<const void*>(output.data) == static_cast<const void*>(input.data) &&
           output.sizes == input.sizes && output.strides == input.strides;
}

/// Visits every updates coordinate in row-major order with its output coordinate; reports the
/// first pair of updates that write the same output element.
template <class TargetOf>
inline Result find_collision(const char* op, const Sizes& updates_sizes, const Sizes& output_sizes,
                             TargetOf target_of) {
    std::map<std::int64_t, Coord> first_writer;  // output element (row-major) -> updates coordinate
    Coord u(updates_sizes.size(), 0);
    do {
        const Coord o = target_of(u);
        auto inserted = first_writer.emplace(row_major(o, output_sizes), u);
        if (!inserted.second)
            return failure(op, "collision",
                           "UpdatesTensor elements at " + coord_text(inserted.first->second) + " and " + coord_text(u) +
                               " both write OutputTensor" + coord_text(o));
    } while (next(u, updates_sizes));
    return success();
}

/// A GATHER_ND output (or SCATTER_ND updates) coordinate u, with p = u[D−M,D): its group
/// g = p[0,q−1), its tail t = p[q−1,M), and s, g's index tuple (K normalized values).
struct NdParts {
    Coord g, s, t;
};
inline NdParts nd_parts(const Coord& u, std::size_t D, std::size_t M, std::size_t q, std::size_t K,
                        const Sizes& indices_sizes, const std::vector<std::int64_t>& norm) {
    const Coord p = part(u, D - M, D);
    NdParts n{part(p, 0, q - 1), Coord(K, 0), part(p, q - 1, M)};
    for (std::size_t k = 0; k < K; ++k) {
        const Coord j = cat(cat(repeat(0, D - q), n.g), {static_cast<std::int64_t>(k)});
        n.s[k] = norm[static_cast<std::size_t>(row_major(j, indices_sizes))];
    }
    return n;
}

/// The scatters' last step: the collision check when asked for, then output = input and every
/// update, in row-major order, written at target_of(its coordinate) (later writes win).
template <class TargetOf>
Result write_updates(const char* op, const Tensor& input, const Tensor& updates, const Output& output, bool in_place,
                     bool report_collisions, const TargetOf& target_of) {
    if (report_collisions) {
        if (Result r = find_collision(op, updates.sizes, output.sizes, target_of); !r.ok) return r;
    }
    copy_input(input, output, in_place);
    Coord u(updates.sizes.size(), 0);
    do {
        std::memcpy(at(output, target_of(u)), at(updates, u), input.element_size);
    } while (next(u, updates.sizes));
    return success();
}

}  // namespace detail

// ============================================================================================
// Output sizes (std::nullopt when the sizes or attributes are invalid)
// ============================================================================================

/// GATHER (§2.3): L = In[0,Axis) ⧺ Idx[D−P,D) ⧺ In[Axis+1,D), right-aligned to D.
inline std::optional<std::vector<std::int64_t>> gather_output_sizes(const std::vector<std::int64_t>& input_sizes,
                                                                    const std::vector<std::int64_t>& indices_sizes,
                                                                    std::uint32_t axis,
                                                                    std::uint32_t index_dimensions) {
    std::string why;
    return detail::gather_shape(input_sizes, indices_sizes, axis, index_dimensions, why);
}

/// GATHER_ELEMENTS (§3.3): Out = Idx.
inline std::optional<std::vector<std::int64_t>> gather_elements_output_sizes(
    const std::vector<std::int64_t>& input_sizes, const std::vector<std::int64_t>& indices_sizes, std::uint32_t axis) {
    std::string why;
    return detail::gather_elements_shape(input_sizes, indices_sizes, axis, why);
}

/// GATHER_ND (§5.3, B = 0): Out = (1 × (D−M)) ⧺ IdxA[0,q−1) ⧺ InA[K,r).
inline std::optional<std::vector<std::int64_t>> gather_nd_output_sizes(const std::vector<std::int64_t>& input_sizes,
                                                                       const std::vector<std::int64_t>& indices_sizes,
                                                                       std::uint32_t input_dimension_count,
                                                                       std::uint32_t indices_dimension_count) {
    std::string why;
    return detail::gather_nd_shape(input_sizes, indices_sizes, input_dimension_count, indices_dimension_count, 0, why);
}

/// GATHER_ND1 (§5.3): Out = (1 × (D−M)) ⧺ IdxA[0,q−1) ⧺ InA[B+K,r).
inline std::optional<std::vector<std::int64_t>> gather_nd1_output_sizes(const std::vector<std::int64_t>& input_sizes,
                                                                        const std::vector<std::int64_t>& indices_sizes,
                                                                        std::uint32_t input_dimension_count,
                                                                        std::uint32_t indices_dimension_count,
                                                                        std::uint32_t batch_dimension_count) {
    std::string why;
    return detail::gather_nd_shape(input_sizes, indices_sizes, input_dimension_count, indices_dimension_count,
                                   batch_dimension_count, why);
}

/// SCATTER (§6.3): Out = In (and requires Upd = Idx, Idx[d] = In[d] for d ≠ Axis).
inline std::optional<std::vector<std::int64_t>> scatter_output_sizes(const std::vector<std::int64_t>& input_sizes,
                                                                     const std::vector<std::int64_t>& indices_sizes,
                                                                     const std::vector<std::int64_t>& updates_sizes,
                                                                     std::uint32_t axis) {
    std::string why;
    return detail::scatter_shape(input_sizes, indices_sizes, updates_sizes, axis, why);
}

/// SCATTER_ND (§7.3): the required UpdatesTensor sizes, (1 × (D−M)) ⧺ IdxA[0,q−1) ⧺ InA[K,r): what
/// GATHER_ND would output for the same input and indices.
inline std::optional<std::vector<std::int64_t>> scatter_nd_updates_sizes(const std::vector<std::int64_t>& input_sizes,
                                                                         const std::vector<std::int64_t>& indices_sizes,
                                                                         std::uint32_t input_dimension_count,
                                                                         std::uint32_t indices_dimension_count) {
    return gather_nd_output_sizes(input_sizes, indices_sizes, input_dimension_count, indices_dimension_count);
}

/// SCATTER_ND (§7.3): Out = In, provided the updates have the required sizes.
inline std::optional<std::vector<std::int64_t>> scatter_nd_output_sizes(const std::vector<std::int64_t>& input_sizes,
                                                                        const std::vector<std::int64_t>& indices_sizes,
                                                                        const std::vector<std::int64_t>& updates_sizes,
                                                                        std::uint32_t input_dimension_count,
                                                                        std::uint32_t indices_dimension_count) {
    const auto expected =
        scatter_nd_updates_sizes(input_sizes, indices_sizes, input_dimension_count, indices_dimension_count);
    if (!expected || *expected != updates_sizes) return std::nullopt;
    return input_sizes;
}

// ============================================================================================
// Operators
// ============================================================================================

/// DML_OPERATOR_GATHER (§2): output[...] = input[..., indices[...], ...].
inline Result gather(const Tensor& input, const Indices& indices, const Output& output, std::uint32_t axis,
                     std::uint32_t index_dimensions, Policy policy) {
    using namespace detail;
    const char* op = "Gather";
    if (Result r = check_tensors(op, input, indices, nullptr, output); !r.ok) return r;
    std::string why;
    const auto expected = gather_shape(input.sizes, indices.sizes, axis, index_dimensions, why);
    if (!expected) return failure(op, "shape error", why);
    if (output.sizes != *expected)
        return failure(op, "shape error", "OutputTensor.Sizes " + text(output.sizes) + " should be " + text(*expected));
    if (Result r = check_overlaps(op, input, indices, nullptr, output, false); !r.ok) return r;

    const std::size_t D = input.sizes.size();
    const std::size_t P = index_dimensions;
    const std::int64_t n = input.sizes[axis];
    const Target target{n, "InputTensor.Sizes[" + std::to_string(axis) + "]"};
    std::vector<std::int64_t> norm;
    const auto along_axis = [&](const Coord&) { return target; };  // every index addresses Axis
    if (Result r = normalize_all(op, indices, policy, along_axis, norm); !r.ok) return r;

    Coord o(D, 0);
    do {
        const Coord F = (P == 0) ? part(o, 1, D) : cat(repeat(0, P - 1), o);  // D+P−1 entries, laid out like L
        const Coord j = cat(repeat(0, D - P), part(F, axis, axis + P));
        const std::int64_t a = norm[static_cast<std::size_t>(row_major(j, indices.sizes))];
        const Coord i = cat(cat(part(F, 0, axis), {a}), part(F, axis + P, D + P - 1));
        std::memcpy(at(output, o), at(input, i), input.element_size);
    } while (next(o, output.sizes));
    return success();
}

/// DML_OPERATOR_GATHER_ELEMENTS (§3): output[o] = input[o with o[Axis] := indices[o]].
inline Result gather_elements(const Tensor& input, const Indices& indices, const Output& output, std::uint32_t axis,
                              Policy policy) {
    using namespace detail;
    const char* op = "GatherElements";
    if (Result r = check_tensors(op, input, indices, nullptr, output); !r.ok) return r;
    std::string why;
    const auto expected = gather_elements_shape(input.sizes, indices.sizes, axis, why);
    if (!expected) return failure(op, "shape error", why);
    if (output.sizes != *expected)
        return failure(op, "shape error", "OutputTensor.Sizes " + text(output.sizes) + " should be " + text(*expected));
    if (Result r = check_overlaps(op, input, indices, nullptr, output, false); !r.ok) return r;

    const Target target{input.sizes[axis], "InputTensor.Sizes[" + std::to_string(axis) + "]"};
    std::vector<std::int64_t> norm;
    const auto along_axis = [&](const Coord&) { return target; };  // every index addresses Axis
    if (Result r = normalize_all(op, indices, policy, along_axis, norm); !r.ok) return r;

    Coord o(output.sizes.size(), 0);
    do {
        Coord i = o;
        i[axis] = norm[static_cast<std::size_t>(row_major(o, indices.sizes))];
        std::memcpy(at(output, o), at(input, i), input.element_size);
    } while (next(o, output.sizes));
    return success();
}

/// DML_OPERATOR_GATHER_ND1 (§5): output[batch, ...] = input[batch, indices[batch, ...], ...].
inline Result gather_nd1(const Tensor& input, const Indices& indices, const Output& output,
                         std::uint32_t input_dimension_count, std::uint32_t indices_dimension_count,
                         std::uint32_t batch_dimension_count, Policy policy) {
    using namespace detail;
    const char* op = batch_dimension_count == 0 ? "GatherND" : "GatherND1";
    if (Result res = check_tensors(op, input, indices, nullptr, output); !res.ok) return res;
    const std::size_t r = input_dimension_count, q = indices_dimension_count, B = batch_dimension_count;
    std::string why;
    const auto expected = gather_nd_shape(input.sizes, indices.sizes, input_dimension_count, indices_dimension_count,
                                          batch_dimension_count, why);
    if (!expected) return failure(op, "shape error", why);
    if (output.sizes != *expected)
        return failure(op, "shape error", "OutputTensor.Sizes " + text(output.sizes) + " should be " + text(*expected));
    if (Result res = check_overlaps(op, input, indices, nullptr, output, false); !res.ok) return res;

    const std::size_t D = input.sizes.size();
    const Sizes InA = part(input.sizes, D - r, D);
    const std::size_t K = static_cast<std::size_t>(indices.sizes[D - 1]);
    const std::size_t M = (q - 1) + (r - B - K);
    // Tuple element k (the last indices coordinate) addresses InA[B+k] = InputTensor.Sizes[D−r+B+k].
    std::vector<std::int64_t> norm;
    const auto tuple_dimension = [&](const Coord& j) {
        const std::size_t k = static_cast<std::size_t>(j[D - 1]);
        return Target{InA[B + k], "InputTensor.Sizes[" + std::to_string(D - r + B + k) + "]"};
    };
    if (Result res = normalize_all(op, indices, policy, tuple_dimension, norm); !res.ok) return res;

    Coord o(D, 0);
    do {
        const NdParts n = nd_parts(o, D, M, q, K, indices.sizes, norm);
        const Coord i = cat(cat(cat(repeat(0, D - r), part(n.g, 0, B)), n.s), n.t);
        std::memcpy(at(output, o), at(input, i), input.element_size);
    } while (next(o, output.sizes));
    return success();
}

/// DML_OPERATOR_GATHER_ND (§4): GATHER_ND1 with BatchDimensionCount = 0.
inline Result gather_nd(const Tensor& input, const Indices& indices, const Output& output,
                        std::uint32_t input_dimension_count, std::uint32_t indices_dimension_count, Policy policy) {
    return gather_nd1(input, indices, output, input_dimension_count, indices_dimension_count, 0, policy);
}

/// DML_OPERATOR_SCATTER = SCATTER_ELEMENTS (§6): output = input; output[u with u[Axis] :=
/// indices[u]] = updates[u], updates visited in row-major order (later writes win).
inline Result scatter(const Tensor& input, const Indices& indices, const Tensor& updates, const Output& output,
                      std::uint32_t axis, Policy policy, bool report_collisions) {
    using namespace detail;
    const char* op = "ScatterElements";
    if (Result r = check_tensors(op, input, indices, &updates, output); !r.ok) return r;
    std::string why;
    const auto expected = scatter_shape(input.sizes, indices.sizes, updates.sizes, axis, why);
    if (!expected) return failure(op, "shape error", why);
    if (output.sizes != *expected)
        return failure(op, "shape error", "OutputTensor.Sizes " + text(output.sizes) + " should be " + text(*expected));
    const bool in_place = is_in_place(input, output);
    if (Result r = check_overlaps(op, input, indices, &updates, output, in_place); !r.ok) return r;

    const Target target{input.sizes[axis], "InputTensor.Sizes[" + std::to_string(axis) + "]"};  // = Out[Axis]
    std::vector<std::int64_t> norm;
    const auto along_axis = [&](const Coord&) { return target; };  // every index addresses Axis
    if (Result r = normalize_all(op, indices, policy, along_axis, norm); !r.ok) return r;

    const auto target_of = [&](const Coord& u) {
        Coord o = u;
        o[axis] = norm[static_cast<std::size_t>(row_major(u, indices.sizes))];
        return o;
    };
    return write_updates(op, input, updates, output, in_place, report_collisions, target_of);
}

/// DML_OPERATOR_SCATTER_ND (§7): output = input; output[indices[g], t] = updates[g, t], updates
/// visited in row-major order (later writes win).
inline Result scatter_nd(const Tensor& input, const Indices& indices, const Tensor& updates, const Output& output,
                         std::uint32_t input_dimension_count, std::uint32_t indices_dimension_count, Policy policy,
                         bool report_collisions) {
    using namespace detail;
    const char* op = "ScatterND";
    if (Result res = check_tensors(op, input, indices, &updates, output); !res.ok) return res;
    const std::size_t r = input_dimension_count, q = indices_dimension_count;
    std::string why;
    const auto expected =
        gather_nd_shape(input.sizes, indices.sizes, input_dimension_count, indices_dimension_count, 0, why);
    if (!expected) return failure(op, "shape error", why);
    if (updates.sizes != *expected)
        return failure(op, "shape error",
                       "UpdatesTensor.Sizes " + text(updates.sizes) + " should be " + text(*expected));
    if (output.sizes != input.sizes)
        return failure(
            op, "shape error",
            "OutputTensor.Sizes " + text(output.sizes) + " should be InputTensor.Sizes " + text(input.sizes));
    const bool in_place = is_in_place(input, output);
    if (Result res = check_overlaps(op, input, indices, &updates, output, in_place); !res.ok) return res;

    const std::size_t D = input.sizes.size();
    const Sizes InA = part(input.sizes, D - r, D);
    const std::size_t K = static_cast<std::size_t>(indices.sizes[D - 1]);
    const std::size_t M = (q - 1) + (r - K);
    std::vector<std::int64_t> norm;
    const auto tuple_dimension = [&](const Coord& j) {
        const std::size_t k = static_cast<std::size_t>(j[D - 1]);
        return Target{InA[k], "InputTensor.Sizes[" + std::to_string(D - r + k) + "]"};
    };
    if (Result res = normalize_all(op, indices, policy, tuple_dimension, norm); !res.ok) return res;

    const auto target_of = [&](const Coord& u) {
        const NdParts n = nd_parts(u, D, M, q, K, indices.sizes, norm);
        return cat(cat(repeat(0, D - r), n.s), n.t);
    };
    return write_updates(op, input, updates, output, in_place, report_collisions, target_of);
}

}  // namespace oracle
