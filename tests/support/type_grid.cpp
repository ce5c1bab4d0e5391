// support/type_grid.hpp: the type grid of every operator. Expected outputs are constructed
// directly from the operator's definition for a few shape families (a few lines each, below), on a
// copy of the pre-filled output buffer; the oracle must agree with the construction too. Nothing
// is computed by dmlref.
#include "support/type_grid.hpp"

#include <dmlref/dmlref.hpp>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <functional>
#include <limits>
#include <numeric>
#include <string>
#include <type_traits>
#include <vector>

#include "support/oracle.hpp"
#include "support/random_cases.hpp"

namespace type_grid {

namespace {

using dmlref::ErrorCode;
using rc::Layer;
using rc::Layout;
using rc::Op;
using rc::Sizes;
using rc::cat;
using rc::ones;

// ---- the families' building blocks ----

constexpr std::int64_t kN = 9;   // positions along the indexed dimension
constexpr std::int64_t kM = 11;  // index values per line: all 9 positions, both boundaries twice
constexpr std::int64_t kB = 2;   // an extra outer dimension (rows; batches)
constexpr std::int64_t kC = 3;   // an inner block dimension

/// How tensors are laid out (the same variant for every tensor of one call):
///   0 packed;
///   1 padded row pitch: innermost element pitch 2, every dimension 1 element wider, offset 3,
///     size-1 dimensions with a junk stride of 7;
///   2 transposed: dimensions nested in reverse order (column-major), offset 1;
///   3 broadcast and strided: Input/Updates repeat along their first dimension of size > 1
///     (stride 0) over a padded layout; IndicesTensor transposed with pitch 3; OutputTensor
///     transposed with pitch 2 and padding 2, offset 5;
///   4 in place (scatters only): OutputTensor is InputTensor, padded.
constexpr int kViews = 4;

enum class Role { data_input, indices, output };

Layout view(const Sizes& sizes, int variant, Role role) {
  std::vector<int> reversed(sizes.size());
  std::iota(reversed.rbegin(), reversed.rend(), 0);
  switch (variant) {
    case 0: return rc::packed_layout(sizes);
    case 1:
    case 4: return rc::strided_layout(sizes, {}, 2, 1, 3, 2, 7);
    case 2: return rc::strided_layout(sizes, reversed, 1, 0, 1, 0, 0);
    default: break;
  }
  switch (role) {
    case Role::data_input: {
      const Layout l = rc::strided_layout(sizes, {}, 1, 2, 2, 1);
      std::vector<int> big;
      for (std::size_t d = 0; d < sizes.size(); ++d)
        if (sizes[d] > 1) big.push_back(static_cast<int>(d));
      return big.size() >= 2 ? rc::broadcast(l, {big.front()}) : l;
    }
    case Role::indices: return rc::strided_layout(sizes, reversed, 3, 0, 2, 1);
    case Role::output: break;
  }
  return rc::strided_layout(sizes, reversed, 2, 2, 5, 3);
}

/// The k-th index value for a dimension of n: the boundaries first (signed: -n, n-1, -1, 0;
/// unsigned: 0, n-1), then the positions from both ends. Every position appears within n + 2.
std::int64_t pattern(std::int64_t k, std::int64_t n, bool is_signed) {
  std::int64_t v = 0;
  if (is_signed) {
    if (k < 4) {
      v = k == 0 ? -n : k == 1 ? n - 1 : k == 2 ? -1 : 0;
    } else {
      const std::int64_t q = k - 4;
      v = q % 2 == 0 ? 1 + q / 2 : -(2 + q / 2);
    }
    if (v < -n || v >= n) v = ((v % n) + n) % n;
  } else {
    v = k % 2 == 0 ? k / 2 : n - 1 - k / 2;
    v = ((v % n) + n) % n;
  }
  return v;
}

/// Index bits for line `line`, position `k`, in a dimension of n (override in IndexExtremes).
using ValueFn = std::function<std::uint64_t(std::int64_t line, std::int64_t k, std::int64_t n, rc::IType)>;
std::uint64_t default_value(std::int64_t line, std::int64_t k, std::int64_t n, rc::IType t) {
  return static_cast<std::uint64_t>(pattern(k + 3 * line, n, rc::is_signed(t)));
}

/// Where an index value lands (the spec's normalize, plus the clamp policy); false if invalid.
bool land(std::uint64_t bits, rc::IType t, std::int64_t n, bool clamp, std::int64_t& at) {
  if (rc::is_signed(t)) {
    std::int64_t v = t == rc::IType::INT32 ? static_cast<std::int32_t>(static_cast<std::uint32_t>(bits))
                                           : static_cast<std::int64_t>(bits);
    if (clamp) v = v < -n ? -n : (v > n - 1 ? n - 1 : v);
    if (v < 0) v += n;
    at = v;
    return v >= 0 && v < n;
  }
  std::uint64_t u = t == rc::IType::UINT32 ? static_cast<std::uint32_t>(bits) : bits;
  if (clamp && u > static_cast<std::uint64_t>(n - 1)) u = static_cast<std::uint64_t>(n - 1);
  at = static_cast<std::int64_t>(u);
  return u < static_cast<std::uint64_t>(n);
}

/// A buffer of random bits (guards, padding) whose addressed elements, in row-major order, are
/// the special patterns (even elements) and distinct patterns (odd elements).
std::vector<unsigned char> data_buffer(const Layout& l, rc::DType t, std::uint64_t salt) {
  rc::Rng rng(salt);
  const std::size_t es = rc::size_of(t);
  std::vector<unsigned char> b = rc::random_bytes(rng, rc::buffer_bytes(l, es));
  const std::vector<std::uint64_t> specials = rc::special_bits(t);
  Sizes j(l.sizes.size(), 0);
  std::uint64_t k = 0;
  do {
    const std::uint64_t v = k % 2 == 0 ? specials[(k / 2) % specials.size()] : rc::mix(salt + k);
    rc::store_bits(b.data() + rc::byte_at(l, es, j), es, v);
    ++k;
  } while (rc::next(j, l.sizes));
  return b;
}

/// A case built by hand, with the output the operator's definition gives for it.
struct Built {
  rc::Case c;
  std::vector<unsigned char> expected;
  bool valid = true;  ///< false: some index is out of range (Policy::error must fail)
};

/// Byte position of the element with row-major number `linear` (the families put every size > 1
/// in the same order in all their tensors, so numbers of the core shapes carry over).
std::size_t at(const Layout& l, std::size_t es, std::int64_t linear) {
  return rc::byte_at(l, es, rc::unravel(linear, l.sizes));
}

void copy_element(std::vector<unsigned char>& dst, std::size_t to, const std::vector<unsigned char>& src,
                  std::size_t from, std::size_t es) {
  std::memcpy(dst.data() + to, src.data() + from, es);
}

/// Lays out and fills the tensors of `c` (sizes already set) for view `variant`.
void lay_out(rc::Case& c, const Sizes& in, const Sizes& idx, const Sizes& upd, const Sizes& out, int variant) {
  const std::size_t es = c.esize();
  c.in_place = variant == 4;
  c.input = view(in, variant, c.in_place ? Role::output : Role::data_input);
  c.indices = view(idx, variant, Role::indices);
  c.output = c.in_place ? c.input : view(out, variant, Role::output);
  c.input_buf = data_buffer(c.input, c.dtype, 1);
  if (rc::is_scatter(c.op)) {
    c.updates = view(upd, variant, Role::data_input);
    c.updates_buf = data_buffer(c.updates, c.dtype, 2);
  }
  rc::Rng rng(3);
  if (!c.in_place) c.output_buf = rc::random_bytes(rng, rc::buffer_bytes(c.output, es));
  c.indices_buf = rc::random_bytes(rng, rc::buffer_bytes(c.indices, rc::size_of(c.itype)));
  c.aim = "view " + std::to_string(variant);
}

void set_index(rc::Case& c, std::int64_t linear, std::uint64_t bits) {
  const std::size_t es = rc::size_of(c.itype);
  rc::store_bits(c.indices_buf.data() + at(c.indices, es, linear), es, bits);
}

rc::Case new_case(Op op, rc::DType t, rc::IType it) {
  rc::Case c;
  c.op = op;
  c.dtype = t;
  c.itype = it;
  return c;
}

// ---- the families ----

/// Gather. Axis last: In = 1s ++ {b, n}, Idx = 1s ++ {m} (P >= 1; all 1s when P = 0), Out[y, i]
/// = In[y, idx[i]] with Out's shape from the rule (b = 1 when P = D, since L's dropped entries
/// must be 1). Axis not last (P = 1): In = 1s ++ {n, c}, Out[i, z] = In[idx[i], z].
Built gather_case(rc::DType t, rc::IType it, int D, int P, bool axis_last, int variant, const ValueFn& value,
                  bool clamp) {
  Built b{new_case(Op::gather, t, it), {}};
  rc::Case& c = b.c;
  const std::size_t Du = static_cast<std::size_t>(D);
  Sizes in, idx, out;
  std::int64_t rows = 1, per_row = P == 0 ? 1 : kM, block = 1;
  if (axis_last) {
    rows = D >= 2 && P <= D - 1 ? kB : 1;
    in = D == 1 ? Sizes{kN} : cat(ones(Du - 2), {rows, kN});
    idx = P == 0 ? ones(Du) : cat(ones(Du - 1), {kM});
    if (P == 0)
      out = D == 1 ? Sizes{1} : cat({1}, cat(ones(Du - 2), {rows}));
    else if (D == 1 || P == D)
      out = cat(ones(Du - 1), {kM});
    else
      out = cat(cat(ones(Du - 1 - static_cast<std::size_t>(P)), {rows}), cat(ones(static_cast<std::size_t>(P) - 1), {kM}));
    c.axis = static_cast<std::uint32_t>(D - 1);
  } else {
    block = kC;
    in = cat(ones(Du - 2), {kN, kC});
    idx = cat(ones(Du - 1), {kM});
    out = cat(ones(Du - 2), {kM, kC});
    c.axis = static_cast<std::uint32_t>(D - 2);
  }
  c.index_dimensions = static_cast<std::uint32_t>(P);
  lay_out(c, in, idx, {}, out, variant);
  const std::size_t es = c.esize();
  std::vector<std::uint64_t> bits(static_cast<std::size_t>(per_row));
  for (std::int64_t i = 0; i < per_row; ++i) {
    bits[static_cast<std::size_t>(i)] = value(0, i, kN, it);
    set_index(c, i, bits[static_cast<std::size_t>(i)]);
  }
  b.expected = c.output_buf;
  for (std::int64_t y = 0; y < rows; ++y)
    for (std::int64_t i = 0; i < per_row; ++i) {
      std::int64_t a = 0;
      if (!land(bits[static_cast<std::size_t>(i)], it, kN, clamp, a)) {
        b.valid = false;  // the call must fail: no expected output
        continue;
      }
      for (std::int64_t z = 0; z < block; ++z)
        copy_element(b.expected, at(c.output, es, (y * per_row + i) * block + z), c.input_buf,
                     at(c.input, es, (y * kN + a) * block + z), es);
    }
  return b;
}

/// GatherElements and Scatter. Axis last: In = 1s ++ {b, n}, Idx (= Updates) = 1s ++ {b, m}.
/// Axis not last: In = 1s ++ {n, b}, Idx = 1s ++ {m, b}. Line y uses its own rotation of the
/// values. GatherElements: Out[y, i] = In[y, idx[y, i]]; Scatter: Out = In, then in row-major
/// order Out[y, idx[y, i]] = Upd[y, i] (idx has repeats: the later update wins).
Built elements_case(Op op, rc::DType t, rc::IType it, int D, bool axis_last, int variant, const ValueFn& value,
                    bool clamp) {
  Built b{new_case(op, t, it), {}};
  rc::Case& c = b.c;
  const std::size_t Du = static_cast<std::size_t>(D);
  const std::int64_t lines = D >= 2 ? kB : 1;
  Sizes in, idx;
  if (D == 1) {
    in = {kN};
    idx = {kM};
    c.axis = 0;
  } else if (axis_last) {
    in = cat(ones(Du - 2), {kB, kN});
    idx = cat(ones(Du - 2), {kB, kM});
    c.axis = static_cast<std::uint32_t>(D - 1);
  } else {
    in = cat(ones(Du - 2), {kN, kB});
    idx = cat(ones(Du - 2), {kM, kB});
    c.axis = static_cast<std::uint32_t>(D - 2);
  }
  const bool scatter = op == Op::scatter;
  lay_out(c, in, idx, idx, scatter ? in : idx, variant);
  const std::size_t es = c.esize();
  // Element numbers of (line y, position p) in a tensor whose Axis has `size` positions.
  auto number = [&](std::int64_t y, std::int64_t p, std::int64_t size) {
    return D == 1 ? p : axis_last ? y * size + p : p * kB + y;
  };
  std::vector<std::vector<std::uint64_t>> bits(static_cast<std::size_t>(lines), std::vector<std::uint64_t>(kM));
  for (std::int64_t y = 0; y < lines; ++y)
    for (std::int64_t i = 0; i < kM; ++i) {
      bits[static_cast<std::size_t>(y)][static_cast<std::size_t>(i)] = value(y, i, kN, it);
      set_index(c, number(y, i, kM), bits[static_cast<std::size_t>(y)][static_cast<std::size_t>(i)]);
    }
  b.expected = c.initial_output();
  if (scatter && !c.in_place)
    for (std::int64_t e = 0; e < rc::count(in); ++e) copy_element(b.expected, at(c.output, es, e), c.input_buf, at(c.input, es, e), es);
  // Row-major order of IndicesTensor: for axis not last, position-major.
  for (std::int64_t outer = 0; outer < (axis_last ? lines : kM); ++outer)
    for (std::int64_t inner = 0; inner < (axis_last ? kM : lines); ++inner) {
      const std::int64_t y = axis_last ? outer : inner, i = axis_last ? inner : outer;
      std::int64_t a = 0;
      if (!land(bits[static_cast<std::size_t>(y)][static_cast<std::size_t>(i)], it, kN, clamp, a)) {
        b.valid = false;
        continue;
      }
      if (scatter)
        copy_element(b.expected, at(c.output, es, number(y, a, kN)), c.updates_buf, at(c.updates, es, number(y, i, kM)), es);
      else
        copy_element(b.expected, at(c.output, es, number(y, i, kM)), c.input_buf, at(c.input, es, number(y, a, kN)), es);
    }
  return b;
}

/// GatherND / GatherND1 / ScatterND.
///   K = 1: In = 1s ++ {n, c} (r = 2), Idx = 1s ++ (1s, q - 2 of them) ++ {m, 1}; the tuple picks a
///          row of c elements: Out/Upd = 1s ++ {m, c}.
///   K = 2: In = 1s ++ {n, b} (r = 2), Idx = 1s ++ {m, 2}: single elements, Out/Upd = 1s ++ {m}.
///   batch (GatherND1, D >= 3): In = 1s ++ {b, n, c} (r = 3), Idx = 1s ++ {b, m, 1} (q = 3),
///          B = 1: Out[y, i, z] = In[y, idx[y, i], z].
///   D = 1: In = {n}, Idx = {1}, Out/Upd = {1} (r = q = 1).
/// ScatterND: Out = In, then tuples in row-major order write their block (repeats: later wins).
Built nd_case(Op op, rc::DType t, rc::IType it, int D, int q, int K, bool batch, int variant, const ValueFn& value,
              bool clamp) {
  Built b{new_case(op, t, it), {}};
  rc::Case& c = b.c;
  const std::size_t Du = static_cast<std::size_t>(D);
  Sizes in, idx, dense;  // dense: Output (gathers) or Updates (ScatterND)
  std::int64_t batches = 1, tuples = kM, block = kC, n2 = 1;
  if (D == 1) {
    in = {kN};
    idx = {1};
    dense = {1};
    c.r = c.q = 1;
    tuples = 1;
    block = 1;
    K = 1;
  } else if (batch) {
    batches = kB;
    in = cat(ones(Du - 3), {kB, kN, kC});
    idx = cat(ones(Du - 3), {kB, kM, 1});
    dense = cat(ones(Du - 3), {kB, kM, kC});
    c.r = 3;
    c.q = 3;
    c.B = 1;
    K = 1;
  } else if (K == 1) {
    in = cat(ones(Du - 2), {kN, kC});
    idx = cat(ones(Du - 2), {kM, 1});
    dense = cat(ones(Du - 2), {kM, kC});
    c.r = 2;
    c.q = static_cast<std::uint32_t>(q);
  } else {
    n2 = kB;
    block = 1;
    in = cat(ones(Du - 2), {kN, kB});
    idx = cat(ones(Du - 2), {kM, 2});
    dense = cat(ones(Du - 1), {kM});
    c.r = 2;
    c.q = static_cast<std::uint32_t>(q);
  }
  const bool scatter = op == Op::scatter_nd;
  lay_out(c, in, idx, dense, scatter ? in : dense, variant);
  const std::size_t es = c.esize();
  b.expected = c.initial_output();
  if (scatter && !c.in_place)
    for (std::int64_t e = 0; e < rc::count(in); ++e) copy_element(b.expected, at(c.output, es, e), c.input_buf, at(c.input, es, e), es);
  for (std::int64_t y = 0; y < batches; ++y)
    for (std::int64_t i = 0; i < tuples; ++i) {
      std::int64_t target = y * kN;  // element number / block in In, before the block offset
      bool landed = true;
      for (int k = 0; k < K; ++k) {
        const std::int64_t size = k == 0 ? kN : n2;
        const std::uint64_t bits = value(y * K + k, i, size, it);
        set_index(c, (y * tuples + i) * K + k, bits);
        std::int64_t a = 0;
        if (!land(bits, it, size, clamp, a))
          landed = false;
        else
          target = k == 0 ? target + a : target * n2 + a;
      }
      if (!landed) {
        b.valid = false;
        continue;
      }
      for (std::int64_t z = 0; z < block; ++z) {
        const std::size_t dense_at = at(scatter ? c.updates : c.output, es, (y * tuples + i) * block + z);
        const std::size_t indexed_at = at(scatter ? c.output : c.input, es, target * block + z);
        if (scatter)
          copy_element(b.expected, indexed_at, c.updates_buf, dense_at, es);
        else
          copy_element(b.expected, dense_at, c.input_buf, indexed_at, es);
      }
    }
  return b;
}

// ---- running ----

/// Checks one built case: the oracle must agree with the construction, and dmlref's typed layer
/// (native type T) and dispatch layer with both. Invalid cases must fail with
/// index_out_of_range and write nothing. Returns what went wrong ("" = nothing).
std::string verify(const Built& b, bool clamp) {
  const rc::Case& c = b.c;
  const std::uint64_t inputs = c.hash_inputs();
  std::string why;
  auto problem = [&](const std::string& text) { why += "\n  " + text; };
  const rc::Run o = rc::run_oracle(c, clamp ? oracle::Policy::clamp : oracle::Policy::error, false);
  if (b.valid) {
    if (!o.ok) problem("the oracle failed: " + o.error);
    else if (const std::string diff = rc::first_difference(c, o.buffer, b.expected); !diff.empty())
      problem("the oracle disagrees with the construction: " + diff);
  } else if (o.ok) {
    problem("the oracle accepted an out-of-range index");
  }
  dmlref::Options options;
  if (clamp) options.index_policy = dmlref::IndexPolicy::clamp;
  for (const Layer layer : {Layer::typed_native, Layer::dispatch}) {
    const rc::LibRun r = rc::run_library(c, layer, options);
    const std::string where = std::string(rc::name(layer)) + ": ";
    if (b.valid) {
      if (!r.status.ok()) problem(where + "dmlref failed: " + r.status.message());
      else if (const std::string diff = rc::first_difference(c, r.buffer, b.expected); !diff.empty())
        problem(where + "output differs from the construction: " + diff);
    } else {
      if (r.status.code() != ErrorCode::index_out_of_range)
        problem(where + "expected index_out_of_range, got " + dmlref::name(r.status.code()) + " " + r.status.message());
      if (const std::string diff = rc::first_difference(c, r.buffer, c.initial_output()); !diff.empty())
        problem(where + "a failing call wrote to the output: " + diff);
    }
    if (c.hash_inputs() != inputs) problem(where + "dmlref modified an input buffer");
  }
  return why.empty() ? why : c.describe() + (clamp ? "\n  clamp policy" : "") + why;
}

/// Deterministic cases fail alike: the first few failures are reported in full, the rest counted
/// and listed by their first line.
class Budget {
 public:
  void check(const std::string& why) {
    ++cases_;
    if (why.empty()) return;
    if (failing_.size() < 4) ADD_FAILURE() << why;
    failing_.push_back(why.substr(0, why.find('\n')));
  }
  ~Budget() {
    if (failing_.empty()) return;
    std::string list;
    for (std::size_t k = 0; k < failing_.size() && k < 40; ++k) list += "\n  " + failing_[k];
    ADD_FAILURE() << failing_.size() << " of " << cases_ << " cases failed (the first 4 in full above):" << list
                  << (failing_.size() > 40 ? "\n  ..." : "");
  }

 private:
  int cases_ = 0;
  std::vector<std::string> failing_;
};

/// Out-of-range values just past each boundary and at the index type's extremes: the default
/// policy must fail (index_out_of_range, nothing written); the clamp policy must land them on
/// 0 or n-1. UINT32 0xFFFFFFFF and UINT64 values >= 2^63 are huge, never -1.
std::vector<std::uint64_t> extremes(rc::IType t, std::int64_t n) {
  switch (t) {
    case rc::IType::INT32:
      return {static_cast<std::uint64_t>(n), static_cast<std::uint64_t>(-n - 1),
              static_cast<std::uint64_t>(std::int64_t{std::numeric_limits<std::int32_t>::min()}),
              static_cast<std::uint64_t>(std::int64_t{std::numeric_limits<std::int32_t>::max()})};
    case rc::IType::INT64:
      return {static_cast<std::uint64_t>(n), static_cast<std::uint64_t>(-n - 1),
              static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::min()),
              static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max())};
    case rc::IType::UINT32: return {static_cast<std::uint64_t>(n), 0xFFFFFFFFull, 0x80000000ull};
    case rc::IType::UINT64: return {static_cast<std::uint64_t>(n), 0xFFFFFFFFFFFFFFFFull, 0x8000000000000000ull, 0xFFFFFFFFull};
  }
  return {};
}

}  // namespace

void check_layouts(Op op, rc::DType t) {
  Budget budget;
  for (const rc::IType it : rc::all_itypes)
    for (int D = 1; D <= 8; ++D)
      switch (op) {
        case Op::gather:
          for (int variant = 0; variant < kViews; ++variant) {
            for (int P = 0; P <= D; ++P)
              budget.check(verify(gather_case(t, it, D, P, true, variant, default_value, false), false));
            if (D >= 2) budget.check(verify(gather_case(t, it, D, 1, false, variant, default_value, false), false));
          }
          break;
        case Op::gather_elements:
        case Op::scatter:
          // Scatter: variant kViews is in place.
          for (int variant = 0; variant < (op == Op::scatter ? kViews + 1 : kViews); ++variant)
            for (const bool axis_last : {true, false}) {
              if (D == 1 && !axis_last) continue;
              budget.check(verify(elements_case(op, t, it, D, axis_last, variant, default_value, false), false));
            }
          break;
        case Op::gather_nd:
        case Op::scatter_nd:
          // ScatterND: variant kViews is in place.
          for (int variant = 0; variant < (op == Op::scatter_nd ? kViews + 1 : kViews); ++variant)
            for (int q = 2; q <= std::max(D, 2); ++q)  // IndicesDimensionCount counting leading 1s
              for (const int K : {1, 2}) {
                if (D == 1 && (q > 2 || K > 1)) continue;
                budget.check(verify(nd_case(op, t, it, D, q, K, false, variant, default_value, false), false));
              }
          break;
        case Op::gather_nd1:
          for (int variant = 0; variant < kViews; ++variant) {
            // BatchDimensionCount 1 from D = 3; below that GatherND1 with B = 0.
            budget.check(verify(nd_case(op, t, it, D, 2, 1, D >= 3, variant, default_value, false), false));
            if (D >= 2) budget.check(verify(nd_case(op, t, it, D, D, 2, false, variant, default_value, false), false));
          }
          break;
      }
}

void check_index_extremes(Op op, rc::DType t) {
  Budget budget;
  for (const rc::IType it : rc::all_itypes)
    for (const int D : {1, 3, 8})
      for (std::size_t e = 0; e < extremes(it, kN).size(); ++e) {
        // Replace the value at (line, k): the fourth value of the first line; for the ND
        // operators at D = 1 (a single tuple) the only one; for ScatterND with K = 2 the second
        // coordinate of the fourth tuple.
        auto replacing = [e](std::int64_t at_line, std::int64_t at_k) -> ValueFn {
          return [=](std::int64_t line, std::int64_t k, std::int64_t n, rc::IType type) {
            return line == at_line && k == at_k ? extremes(type, n)[e] : default_value(line, k, n, type);
          };
        };
        const ValueFn value = replacing(0, 3), nd = D == 1 ? replacing(0, 0) : value,
                      second = D == 1 ? replacing(0, 0) : replacing(1, 3);
        const int variant = static_cast<int>(e % kViews);
        for (const bool clamp : {false, true}) {
          Built b;
          switch (op) {
            case Op::gather: b = gather_case(t, it, D, 1, true, variant, value, clamp); break;
            case Op::gather_elements: b = elements_case(op, t, it, D, true, variant, value, clamp); break;
            case Op::scatter: b = elements_case(op, t, it, D, D == 1, variant, value, clamp); break;
            case Op::gather_nd: b = nd_case(op, t, it, D, 2, 1, false, variant, nd, clamp); break;
            case Op::gather_nd1: b = nd_case(op, t, it, D, 2, 1, D >= 3, variant, nd, clamp); break;
            case Op::scatter_nd:
              b = nd_case(op, t, it, D, 2, D >= 2 ? 2 : 1, false, D >= 2 ? 4 : variant, second, clamp);
              break;
          }
          EXPECT_EQ(b.valid, clamp) << "the construction should be invalid exactly without clamping";
          budget.check(verify(b, clamp));
        }
      }
}

}  // namespace type_grid
