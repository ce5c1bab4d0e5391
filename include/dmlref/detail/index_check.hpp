#ifndef DMLREF_DETAIL_INDEX_CHECK_HPP
#define DMLREF_DETAIL_INDEX_CHECK_HPP

#include <cstdint>
#include <cstring>
#include <type_traits>

#include "../config.hpp"
#include "../status.hpp"
#include "indices.hpp"
#include "machine.hpp"
#include "plan.hpp"
#include "strided.hpp"
#include "walk.hpp"

// The check of every IndicesTensor value against the dimension it addresses, before anything is
// written (IndexPolicy::error). A branch-free scan says whether all values are in range; only
// when one is not does an exact walk find the first bad value in row-major order.

namespace dmlref::detail {

/// v shifted so that "in range of n" is one unsigned comparison with range_limit(n): a signed
/// v is in [-n, n) exactly when v + n, taken modulo 2^64, is below 2n (n < 2^63).
template <class I>
inline std::uint64_t shifted_index(I v, std::uint64_t n) noexcept {
  if constexpr (std::is_signed_v<I>) return static_cast<std::uint64_t>(static_cast<std::int64_t>(v)) + n;
  return static_cast<std::uint64_t>(v);
}
template <class I>
constexpr std::uint64_t range_limit(std::uint64_t n) noexcept {
  return std::is_signed_v<I> ? 2 * n : n;
}

/// Prefetches the cache line `bytes` past `at`. That address may lie past the end of the buffer
/// (a prefetch never faults), so it is formed as an integer, not by pointer arithmetic.
inline void prefetch_ahead(const unsigned char* at, std::uintptr_t bytes) noexcept {
  DMLREF_PREFETCH(reinterpret_cast<const void*>(reinterpret_cast<std::uintptr_t>(at) + bytes));
}
/// The same into L2 only.
inline void prefetch_ahead_into_l2(const unsigned char* at, std::uintptr_t bytes) noexcept {
  DMLREF_PREFETCH_L2(reinterpret_cast<const void*>(reinterpret_cast<std::uintptr_t>(at) + bytes));
}

/// For u = shifted_index(v, n) and last = range_limit(n) - 1 < 2^63: the top bit of the result
/// is set exactly when v is out of range. Plain adds, subtracts and ors: a scan over many values
/// has no branch and no compare, and runs in vector lanes (lines_in_range_lanes).
template <class I>
inline std::uint64_t range_bits(const unsigned char* at, std::uint64_t n, std::uint64_t last) noexcept {
  I v;
  std::memcpy(&v, at, sizeof(I));
  const std::uint64_t u = shifted_index(v, n);
  return u | (last - u);
}

/// A step of sizeof(I) bytes known at compile time: the packed case, scanned a cache line at a time.
template <class I>
using PackedStep = std::integral_constant<std::int64_t, sizeof(I)>;

#if DMLREF_HAS_VECTOR_LANES
/// Whether the packed scan can run range_bits() in vector lanes of the index's own width: always
/// for 8-byte indices; for 4-byte ones when range_limit(n) is at most 2^31, so that the same test
/// taken modulo 2^32 leaves the top bit of a lane set exactly when its value is out of range.
template <class I>
constexpr bool scans_in_lanes(std::uint64_t limit) noexcept {
  return sizeof(I) == 8 || limit <= std::uint64_t{1} << 31;
}

/// bits |= range_bits() of the lanes at `at`. Vectors pass by reference: a function taking or
/// returning a 32-byte vector by value would have a different ABI with and without AVX.
template <class Vec, class Lane>
DMLREF_ALWAYS_INLINE void or_range_bits(Vec& bits, const unsigned char* at, Lane shift, Lane last) noexcept {
  Vec v;
  std::memcpy(&v, at, sizeof(Vec));
  const Vec u = v + shift;
  bits |= u | (last - u);
}

/// range_bits() of the `lines` whole cache lines of packed values at `at`, in Bytes-byte vectors
/// (16 or 32) of the index's own width, a cache line per iteration into independent accumulators;
/// true when no lane's top bit is set. Compilers leave the scalar form of 64-bit values scalar,
/// and one-pass mode pays the scan in full while the copy waits: 32-byte lanes take half the time
/// of 16-byte ones, and 64-byte lanes no less than 32 (docs/performance.md, "The index scan's lanes").
template <class I, int Bytes>
DMLREF_ALWAYS_INLINE bool lines_in_range_lanes(const unsigned char* at, std::int64_t lines, std::uint64_t n,
                                               std::uint64_t last) noexcept {
  using Lane = std::conditional_t<sizeof(I) == 8, std::uint64_t, std::uint32_t>;
  typedef Lane Vec __attribute__((vector_size(Bytes)));
  const Lane shift = std::is_signed_v<I> ? static_cast<Lane>(n) : 0;
  const Lane top = static_cast<Lane>(last);
  Vec a0{}, a1{}, a2{}, a3{};
  // No prefetch: a sequential pass this fast is left to the hardware prefetcher (docs/performance.md,
  // "Prefetches g++ deletes").
  for (std::int64_t l = 0; l < lines; ++l, at += 64) {
    or_range_bits(a0, at, shift, top);
    or_range_bits(a1, at + Bytes, shift, top);
    if constexpr (Bytes == 16) {
      or_range_bits(a2, at + 32, shift, top);
      or_range_bits(a3, at + 48, shift, top);
    }
  }
  const Vec all = (a0 | a1) | (a2 | a3);
  Lane bits = 0;
  for (int k = 0; k < Bytes / static_cast<int>(sizeof(Lane)); ++k) bits |= all[k];
  return (bits >> (8 * sizeof(Lane) - 1)) == 0;
}

#if DMLREF_HAS_AVX2_SCAN
/// The same in AVX2's 32-byte lanes, for CPUs that have them (scans_with_avx2()).
template <class I>
__attribute__((target("avx2"))) bool lines_in_range_avx2(const unsigned char* at, std::int64_t lines, std::uint64_t n,
                                                         std::uint64_t last) noexcept {
  return lines_in_range_lanes<I, 32>(at, lines, n, last);
}
#endif

/// The scan of whole cache lines in the widest lanes this CPU has.
template <class I>
bool lines_in_range(const unsigned char* at, std::int64_t lines, std::uint64_t n, std::uint64_t last) noexcept {
#if DMLREF_HAS_AVX2_SCAN
  if (scans_with_avx2()) return lines_in_range_avx2<I>(at, lines, n, last);
#endif
  return lines_in_range_lanes<I, 16>(at, lines, n, last);
}
#endif

/// True when the `count` values `step` bytes apart from `at` are all in range of n; false also
/// when n is too large for range_bits() (then the exact check decides).
template <class I, class Step>
bool line_in_range(const unsigned char* at, std::int64_t count, Step step, std::uint64_t n) noexcept {
  const std::uint64_t limit = range_limit<I>(n);
  if (limit > std::uint64_t{1} << 63) return false;
  const std::uint64_t last = limit - 1;
  std::uint64_t a0 = 0, a1 = 0, a2 = 0, a3 = 0;  // four chains: no add waits on the one before
  auto four = [&](const unsigned char* q) {
    a0 |= range_bits<I>(q, n, last);
    a1 |= range_bits<I>(q + step, n, last);
    a2 |= range_bits<I>(q + 2 * step, n, last);
    a3 |= range_bits<I>(q + 3 * step, n, last);
  };
  std::int64_t i = 0;
  if constexpr (std::is_same_v<Step, PackedStep<I>>) {
    constexpr std::int64_t per_line = 64 / sizeof(I);  // a multiple of 4
#if DMLREF_HAS_VECTOR_LANES
    if (scans_in_lanes<I>(limit)) {
      const std::int64_t lines = count / per_line;
      if (!lines_in_range<I>(at, lines, n, last)) return false;
      at += lines * 64;
      i = lines * per_line;
    }
#endif
    for (; i + per_line <= count; i += per_line) {
      prefetch_ahead(at, kIndexPrefetchBytes);
      for (std::int64_t k = 0; k < per_line; k += 4, at += 4 * step) four(at);
    }
  }
  for (; i + 4 <= count; i += 4, at += 4 * step) four(at);
  for (; i < count; ++i, at += step) a0 |= range_bits<I>(at, n, last);
  return ((a0 | a1 | a2 | a3) >> 63) == 0;
}

/// The same, exact for every n: where range_bits() cannot decide (n of 2^62 or more, which only
/// a broadcast tensor can have), each value is compared on its own.
template <class I, class Step>
bool line_in_range_exact(const unsigned char* at, std::int64_t count, Step step, std::uint64_t n) noexcept {
  if (DMLREF_LIKELY(line_in_range<I>(at, count, step, n))) return true;
  if (range_limit<I>(n) <= std::uint64_t{1} << 63) return false;
  for (std::int64_t i = 0; i < count; ++i, at += step) {
    I v;
    std::memcpy(&v, at, sizeof(I));
    if (!index_in_range(v, static_cast<std::int64_t>(n))) return false;
  }
  return true;
}

/// True when the `count` packed values at `at`, a cache line's worth or fewer (a small call's),
/// are in range of n, for range_limit(n) <= 2^63 (where range_bits() decides): inline and in
/// one chain, without the line scan's calls and vector setup.
template <class I>
DMLREF_ALWAYS_INLINE bool few_values_in_range(const unsigned char* at, std::int64_t count, std::uint64_t n) noexcept {
  const std::uint64_t last = range_limit<I>(n) - 1;
  std::uint64_t bits = 0;
  for (std::int64_t i = 0; i < count; ++i) bits |= range_bits<I>(at + i * std::int64_t{sizeof(I)}, n, last);
  return (bits >> 63) == 0;
}

/// The line scan for `count` values `stride` elements apart (a stride of 1 is scanned a cache line
/// at a time).
template <class I>
bool values_in_range(const unsigned char* first, std::int64_t count, std::int64_t stride, std::uint64_t n) noexcept {
  return stride == 1 ? line_in_range_exact<I>(first, count, PackedStep<I>{}, n)
                     : line_in_range_exact<I>(first, count, stride * std::int64_t{sizeof(I)}, n);
}

/// all_indices_in_range of strided or tuple-holding IndicesTensors: line by line. A tuple
/// dimension (ND operators) is walked inside each line, with the bound of each coordinate.
template <class I>
DMLREF_NOINLINE bool lines_of_indices_in_range(const Plan& p) noexcept {
  const IndicesLayout& layout = p.index_tensor;
  const RawTensor& t = *layout.tensor;
  const int last = t.sizes.rank() - 1;
  const int K = layout.last_dimension_is_tuple ? static_cast<int>(t.sizes[last]) : 1;
  const std::int64_t tuple_stride = K > 1 ? t.strides[last] : 0;
  Dim<1> dims[max_dimension_count];
  int rank = 0;
  for (int d = 0; d < (layout.last_dimension_is_tuple ? last : last + 1); ++d)
    if (t.sizes[d] != 1) dims[rank++] = {t.sizes[d], {t.strides[d]}};
  rank = coalesce(dims, rank);
  // The innermost dimension is scanned as a line; the odometer walks the others.
  const std::int64_t count = rank > 0 ? dims[rank - 1].size : 1;
  const std::int64_t stride = rank > 0 ? dims[rank - 1].stride[0] : 0;
  Odometer<1> line(dims, rank > 0 ? rank - 1 : 0);
  do {
    for (int k = 0; k < K; ++k) {
      const unsigned char* const first = p.indices + (line.offset[0] + k * tuple_stride) * std::int64_t{sizeof(I)};
      if (!values_in_range<I>(first, count, stride, static_cast<std::uint64_t>(p.tuple[k].size))) return false;
    }
  } while (line.next());
  return true;
}

/// True when every value of IndicesTensor is in range: whole lines at once, without locating the
/// first bad value.
template <class I>
bool all_indices_in_range(const Plan& p) noexcept {
  const IndicesLayout& layout = p.index_tensor;
  if (!layout.packed || layout.last_dimension_is_tuple) return lines_of_indices_in_range<I>(p);
  const auto n = static_cast<std::uint64_t>(p.tuple[0].size);
  if (layout.elements <= 64 / std::int64_t{sizeof(I)} && range_limit<I>(n) <= std::uint64_t{1} << 63)
    return few_values_in_range<I>(p.indices, layout.elements, n);
  return values_in_range<I>(p.indices, layout.elements, 1, n);
}

/// The error for value v at `position` of IndicesTensor, addressing tuple entry `entry`.
template <class I>
DMLREF_COLD Status index_error(const Plan& p, I v, const Shape& position, const TupleEntry& entry) noexcept {
  Error e;
  e.code = ErrorCode::index_out_of_range;
  e.op = p.op;
  e.tensor = p.index_tensor.tensor->name;
  e.field = "value";
  e.actual = std::is_signed_v<I> ? ErrorValue::of(static_cast<std::int64_t>(v))
                                 : ErrorValue::of_unsigned(static_cast<std::uint64_t>(v));
  const std::int64_t n = entry.size;
  e.expected = std::is_signed_v<I> ? ErrorValue::range(-n, n - 1) : ErrorValue::range(0, n - 1);
  e.position = position;
  e.target_tensor = p.indexed_name;
  e.target_dimension = entry.target_dimension;
  e.target_size = n;
  return Status(e);
}

/// True when every value the rows [begin, end) of the plan read is in range, scanned line by line
/// of the row walk (one-pass mode: the values are then in cache for the copy of those rows).
template <class I>
bool rows_in_range(const Plan& p, std::int64_t begin, std::int64_t end) noexcept {
  const LoopDim inner = inner_loop(p);
  LineCursor c(p, begin);
  std::int64_t i = c.first;
  for (std::int64_t remaining = end - begin; remaining > 0; c.lines.next(), i = 0) {
    const std::int64_t count = inner.size - i < remaining ? inner.size - i : remaining;
    const std::int64_t x = c.lines.offset[kIndex] + i * inner.stride[kIndex];
    for (int k = 0; k < p.tuple_length; ++k) {
      const unsigned char* const first = p.indices + (x + k * p.tuple_stride) * std::int64_t{sizeof(I)};
      if (!values_in_range<I>(first, count, inner.stride[kIndex], static_cast<std::uint64_t>(p.tuple[k].size)))
        return false;
    }
    remaining -= count;
  }
  return true;
}

/// Which rows an index check covers: all (the whole of IndicesTensor is scanned), or rows
/// [begin, end) of the plan.
struct RowRange {
  std::int64_t begin = 0, end = -1;
  bool all() const noexcept { return end < 0; }
};

/// The first value of IndicesTensor out of range, in row-major order, as an error (none: ok).
template <class I>
DMLREF_COLD Status first_bad_index(const Plan& p) noexcept {
  const RawTensor& t = *p.index_tensor.tensor;
  const bool tuple = p.index_tensor.last_dimension_is_tuple;
  const int last = t.sizes.rank() - 1;
  Dim<1> dims[max_dimension_count];
  for (int d = 0; d < last; ++d) dims[d] = {t.sizes[d], {t.strides[d]}};
  // A size-1 dimension's stride is unconstrained: stepping past it could overflow.
  const std::int64_t count = t.sizes[last], stride = count > 1 ? t.strides[last] : 0;
  Odometer<1> line(dims, last);
  do {
    std::int64_t x = line.offset[0];
    for (std::int64_t j = 0; j < count; ++j, x += stride) {
      const TupleEntry& entry = p.tuple[tuple ? j : 0];
      const I v = load_index<I>(p.indices, x);
      if (DMLREF_LIKELY(index_in_range(v, entry.size))) continue;
      Shape position = Shape::from(line.coord, static_cast<std::size_t>(last));
      position.push_back(j);
      return index_error(p, v, position, entry);
    }
  } while (line.next());
  return Status();
}

/// Checks the index values of `rows`; the error names the first bad value of IndicesTensor in
/// row-major order (for a range, callers have checked the rows before it).
template <class I>
Status check_indices(const Plan& p, RowRange rows) noexcept {
  const bool in_range = rows.all() ? all_indices_in_range<I>(p) : rows_in_range<I>(p, rows.begin, rows.end);
  if (DMLREF_LIKELY(in_range)) return Status();
  return first_bad_index<I>(p);
}

}  // namespace dmlref::detail

#endif  // DMLREF_DETAIL_INDEX_CHECK_HPP
