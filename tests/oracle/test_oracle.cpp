// Self-test of the test oracle (tests/support/oracle.hpp): every worked example and derived
// vector of the spec (tests/support/spec_examples.hpp), plus oracle-specific properties (strides,
// broadcast, clamp policy, index normalisation edge cases, nothing written on error).
// Uses nothing from include/dmlref.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <limits>
#include <optional>
#include <set>
#include <string>
#include <type_traits>
#include <vector>

#include "support/oracle.hpp"
#include "support/spec_examples.hpp"

namespace {

using Sizes = std::vector<std::int64_t>;
using spec_examples::Example;
using spec_examples::Expect;
using spec_examples::Op;

constexpr unsigned char sentinel = 0xA5;
constexpr std::size_t guard_bytes = 16;

bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

std::int64_t product(const Sizes& sizes) {
    std::int64_t n = 1;
    for (std::int64_t s : sizes) n *= s;
    return n;
}

Sizes packed_strides(const Sizes& sizes) {
    Sizes strides(sizes.size(), 1);
    for (std::size_t d = sizes.size(); d-- > 1;) strides[d - 1] = strides[d] * sizes[d];
    return strides;
}

/// Row-major coordinate stepping (the test's own, not the oracle's).
bool step(Sizes& c, const Sizes& sizes) {
    for (std::size_t d = sizes.size(); d-- > 0;) {
        if (++c[d] < sizes[d]) return true;
        c[d] = 0;
    }
    return false;
}

std::int64_t dot(const Sizes& c, const Sizes& strides) {
    std::int64_t o = 0;
    for (std::size_t d = 0; d < c.size(); ++d) o += c[d] * strides[d];
    return o;
}

// ---- the table's doubles as bytes of a DML data type ----

std::size_t type_size(const std::string& type) {
    if (type == "INT8" || type == "UINT8") return 1;
    if (type == "INT16" || type == "UINT16" || type == "FLOAT16") return 2;
    if (type == "INT32" || type == "UINT32" || type == "FLOAT32") return 4;
    if (type == "INT64" || type == "UINT64" || type == "FLOAT64") return 8;
    return 0;
}

template <class T>
void put(T v, unsigned char* p) {
    std::memcpy(p, &v, sizeof v);
}
template <class T>
double get(const unsigned char* p) {
    T v;
    std::memcpy(&v, p, sizeof v);
    return static_cast<double>(v);
}

void encode(const std::string& type, double v, unsigned char* p) {
    if (type == "FLOAT32") return put(static_cast<float>(v), p);
    if (type == "FLOAT64") return put(v, p);
    if (type == "INT8") return put(static_cast<std::int8_t>(v), p);
    if (type == "INT16") return put(static_cast<std::int16_t>(v), p);
    if (type == "INT32") return put(static_cast<std::int32_t>(v), p);
    if (type == "INT64") return put(static_cast<std::int64_t>(v), p);
    if (type == "UINT8") return put(static_cast<std::uint8_t>(v), p);
    if (type == "UINT16") return put(static_cast<std::uint16_t>(v), p);
    if (type == "UINT32") return put(static_cast<std::uint32_t>(v), p);
    if (type == "UINT64") return put(static_cast<std::uint64_t>(v), p);
    ADD_FAILURE() << "the test cannot encode type " << type;  // e.g. FLOAT16: not used by the table
}

double decode(const std::string& type, const unsigned char* p) {
    if (type == "FLOAT32") return get<float>(p);
    if (type == "FLOAT64") return get<double>(p);
    if (type == "INT8") return get<std::int8_t>(p);
    if (type == "INT16") return get<std::int16_t>(p);
    if (type == "INT32") return get<std::int32_t>(p);
    if (type == "INT64") return get<std::int64_t>(p);
    if (type == "UINT8") return get<std::uint8_t>(p);
    if (type == "UINT16") return get<std::uint16_t>(p);
    if (type == "UINT32") return get<std::uint32_t>(p);
    if (type == "UINT64") return get<std::uint64_t>(p);
    ADD_FAILURE() << "the test cannot decode type " << type;
    return 0;
}

bool is_index_type(const std::string& t) { return t == "INT32" || t == "INT64" || t == "UINT32" || t == "UINT64"; }

oracle::IndexKind index_kind(const std::string& t) {
    if (t == "INT32") return oracle::IndexKind::i32;
    if (t == "INT64") return oracle::IndexKind::i64;
    if (t == "UINT64") return oracle::IndexKind::u64;
    return oracle::IndexKind::u32;
}

using harness::is_scatter;

/// The data-type rule the oracle leaves to its caller (operators.md §1.2): one data type for
/// Input, Updates and Output.
bool data_types_agree(const Example& e) {
    const std::string in = e.input.type;
    return type_size(in) != 0 && std::string(e.output.type) == in &&
           (!is_scatter(e.op) || std::string(e.updates.type) == in);
}

/// A tensor stored in a chosen layout: the buffer holds the elements at `strides`, the rest of
/// the buffer (padding) and `guard_bytes` after it hold the sentinel.
struct Stored {
    std::vector<unsigned char> bytes;
    std::size_t element_size = 0;
    Sizes sizes, strides;
};

/// Padded column-major strides: dimension 0 fastest, one element of padding after every
/// dimension's run — as different from packed row-major as possible.
Sizes padded_column_major(const Sizes& sizes) {
    Sizes strides(sizes.size(), 1);
    std::int64_t next = 1;
    for (std::size_t d = 0; d < sizes.size(); ++d) {
        strides[d] = next;
        next = next * sizes[d] + 1;
    }
    return strides;
}

/// Stores row-major `values` of `type` with the given sizes in the given layout.
Stored store(const std::vector<double>& values, const std::string& type, const Sizes& sizes, const Sizes& strides) {
    Stored s;
    s.element_size = type_size(type);
    s.sizes = sizes;
    s.strides = strides;
    std::int64_t last = 0;
    for (std::size_t d = 0; d < sizes.size(); ++d) last += (sizes[d] - 1) * strides[d];
    s.bytes.assign(static_cast<std::size_t>(last + 1) * s.element_size + guard_bytes, sentinel);
    if (values.empty()) return s;  // an output, or a tensor whose values do not matter
    Sizes c(sizes.size(), 0);
    std::size_t k = 0;
    do {
        if (k < values.size())
            encode(type, values[k], s.bytes.data() + static_cast<std::size_t>(dot(c, strides)) * s.element_size);
        ++k;
    } while (step(c, sizes));
    return s;
}

/// Reads the logical (row-major) values back from a stored tensor.
std::vector<double> load(const Stored& s, const std::string& type) {
    std::vector<double> values;
    Sizes c(s.sizes.size(), 0);
    do {
        values.push_back(decode(type, s.bytes.data() + static_cast<std::size_t>(dot(c, s.strides)) * s.element_size));
    } while (step(c, s.sizes));
    return values;
}

/// Bytes of a stored tensor that no coordinate addresses (padding and guard) — must keep the sentinel.
bool unaddressed_bytes_untouched(const Stored& s) {
    std::vector<bool> addressed(s.bytes.size(), false);
    Sizes c(s.sizes.size(), 0);
    do {
        const std::size_t at = static_cast<std::size_t>(dot(c, s.strides)) * s.element_size;
        for (std::size_t b = 0; b < s.element_size; ++b) addressed[at + b] = true;
    } while (step(c, s.sizes));
    for (std::size_t b = 0; b < s.bytes.size(); ++b)
        if (!addressed[b] && s.bytes[b] != sentinel) return false;
    return true;
}

/// Types actually handed to the oracle (see the comments where they differ from the table).
struct Types {
    std::string input, indices, updates, output;
};

struct Outcome {
    oracle::Result result;
    Stored output;
    std::vector<unsigned char> output_before;
};

enum class Layout { packed, padded_column_major };

Outcome run_example(const Example& e, const Types& t, const std::vector<double>& input_values,
                    const std::vector<double>& indices_values, const std::vector<double>& updates_values, Layout layout,
                    oracle::Policy policy) {
    const auto strides = [&](const Sizes& s) {
        return layout == Layout::packed ? packed_strides(s) : padded_column_major(s);
    };
    const Stored in = store(input_values, t.input, e.input.sizes, strides(e.input.sizes));
    const Stored idx = store(indices_values, t.indices, e.indices.sizes, strides(e.indices.sizes));
    const Stored upd = is_scatter(e.op) ? store(updates_values, t.updates, e.updates.sizes, strides(e.updates.sizes))
                                        : Stored{std::vector<unsigned char>(guard_bytes, 0), 4, {}, {}};
    Outcome r;
    r.output = store({}, t.output, e.output.sizes, strides(e.output.sizes));
    r.output_before = r.output.bytes;

    const oracle::Tensor input{in.bytes.data(), in.element_size, in.sizes, in.strides};
    const oracle::Indices indices{idx.bytes.data(), index_kind(t.indices), idx.sizes, idx.strides};
    const oracle::Tensor updates{upd.bytes.data(), upd.element_size, upd.sizes, upd.strides};
    const oracle::Output output{r.output.bytes.data(), r.output.element_size, r.output.sizes, r.output.strides};
    switch (e.op) {
        case Op::gather: r.result = oracle::gather(input, indices, output, e.attr[0], e.attr[1], policy); break;
        case Op::gather_elements: r.result = oracle::gather_elements(input, indices, output, e.attr[0], policy); break;
        case Op::gather_nd: r.result = oracle::gather_nd(input, indices, output, e.attr[0], e.attr[1], policy); break;
        case Op::gather_nd1:
            r.result = oracle::gather_nd1(input, indices, output, e.attr[0], e.attr[1], e.attr[2], policy);
            break;
        case Op::scatter:
            r.result = oracle::scatter(input, indices, updates, output, e.attr[0], policy, e.check_collisions);
            break;
        case Op::scatter_nd:
            r.result =
                oracle::scatter_nd(input, indices, updates, output, e.attr[0], e.attr[1], policy, e.check_collisions);
            break;
    }
    return r;
}

/// The oracle's size function for the example: output sizes, or updates sizes for SCATTER_ND.
std::optional<Sizes> computed_sizes(const Example& e) {
    switch (e.op) {
        case Op::gather: return oracle::gather_output_sizes(e.input.sizes, e.indices.sizes, e.attr[0], e.attr[1]);
        case Op::gather_elements:
            return oracle::gather_elements_output_sizes(e.input.sizes, e.indices.sizes, e.attr[0]);
        case Op::gather_nd: return oracle::gather_nd_output_sizes(e.input.sizes, e.indices.sizes, e.attr[0], e.attr[1]);
        case Op::gather_nd1:
            return oracle::gather_nd1_output_sizes(e.input.sizes, e.indices.sizes, e.attr[0], e.attr[1], e.attr[2]);
        case Op::scatter:
            return oracle::scatter_output_sizes(e.input.sizes, e.indices.sizes, e.updates.sizes, e.attr[0]);
        case Op::scatter_nd:
            return oracle::scatter_nd_updates_sizes(e.input.sizes, e.indices.sizes, e.attr[0], e.attr[1]);
    }
    return std::nullopt;
}
const Sizes& sizes_to_compare(const Example& e) { return e.op == Op::scatter_nd ? e.updates.sizes : e.output.sizes; }

/// Do the oracle's size functions accept the example's sizes as given?
bool sizes_accepted(const Example& e) {
    const std::optional<Sizes> sizes = computed_sizes(e);
    return sizes && *sizes == sizes_to_compare(e) && (e.op != Op::scatter_nd || e.output.sizes == e.input.sizes);
}

bool shape_only(const Example& e) { return e.input.values.empty() && e.expect == Expect::ok; }

std::vector<double> iota(std::int64_t n, double first) {
    std::vector<double> v(static_cast<std::size_t>(n));
    for (std::size_t k = 0; k < v.size(); ++k) v[k] = first + static_cast<double>(k);
    return v;
}

// ============================================================================================
// The spec's examples
// ============================================================================================

TEST(SpecExamples, TableIsWellFormed) {
    std::set<std::string> ids;
    for (const Example& e : spec_examples::all()) {
        SCOPED_TRACE(e.id);
        EXPECT_TRUE(ids.insert(e.id).second) << "duplicate id";
        const bool literal = contains(e.id, "literal");
        if (!literal) {  // every tensor: one DimensionCount, values match sizes (or are absent)
            for (const spec_examples::Array* a : {&e.input, &e.indices, &e.updates, &e.output}) {
                if (a == &e.updates && !is_scatter(e.op)) continue;
                EXPECT_EQ(a->sizes.size(), e.input.sizes.size());
                if (!a->values.empty()) {
                    EXPECT_EQ(static_cast<std::int64_t>(a->values.size()), product(a->sizes));
                }
            }
        }
        EXPECT_TRUE(is_scatter(e.op) || (e.updates.sizes.empty() && e.updates.values.empty()));
        EXPECT_TRUE(!e.check_collisions || is_scatter(e.op));
        // The table's types obey §1.2 exactly where no type error is expected.
        const bool type_error = e.expect == Expect::data_type_error || e.expect == Expect::index_type_error ||
                                std::string(e.id) == "SN-literal";
        EXPECT_EQ(data_types_agree(e) && is_index_type(e.indices.type), !type_error);
    }
}

TEST(SpecExamples, EveryExampleOfTheSpecIsPresent) {
    std::set<std::string> ids;
    for (const Example& e : spec_examples::all()) ids.insert(e.id);
    for (const char* id :
         {"G-1",  "G-2",        "G-3-literal", "G-3a",  "G-3b",  "G-4",  "G-5",           "GE-1", "GE-1-literal",
          "GN-1", "GN-2",       "GN-S",        "GN1-1", "GN1-2", "S-1",  "S-1-collision", "S-2",  "S-2-literal",
          "SN-1", "SN-literal", "X-1",         "X-2",   "X-3",   "X-4",  "X-5",           "X-6",  "X-7",
          "X-8",  "X-9",        "X-10",        "X-11",  "X-12",  "X-13", "X-13-collision"})
        EXPECT_EQ(ids.count(id), 1u) << id;
}

class SpecExample : public ::testing::TestWithParam<std::size_t> {};

TEST_P(SpecExample, OracleAgrees) {
    const Example& e = spec_examples::all()[GetParam()];
    SCOPED_TRACE(std::string(e.id) + " (" + e.source + "): " + e.note);

    // 1. The size function.
    const std::optional<Sizes> sizes = computed_sizes(e);
    switch (e.expect) {
        case Expect::ok:
        case Expect::data_type_error:
        case Expect::index_type_error:
        case Expect::index_error:
        case Expect::collision_error:
            ASSERT_TRUE(sizes.has_value());
            EXPECT_EQ(*sizes, sizes_to_compare(e));
            EXPECT_TRUE(sizes_accepted(e));
            if (e.op == Op::scatter_nd) {
                EXPECT_EQ(oracle::scatter_nd_output_sizes(e.input.sizes, e.indices.sizes, e.updates.sizes, e.attr[0],
                                                          e.attr[1]),
                          std::optional<Sizes>(e.output.sizes));
            }
            break;
        case Expect::shape_error:
        case Expect::dimension_count_error: EXPECT_FALSE(sizes_accepted(e)); break;
    }

    // 2. The operator. The oracle is type-agnostic; the type part of a type error is checked here
    //    and then skipped by handing the oracle consistent types (everything else must still hold).
    Types t{e.input.type, e.indices.type, e.updates.type, e.output.type};
    if (e.expect == Expect::data_type_error) {
        EXPECT_FALSE(data_types_agree(e));
        t.output = t.input;  // skip the type part: same values, declared with the input's type
    }
    if (!is_index_type(t.indices)) {
        EXPECT_TRUE(e.expect == Expect::index_type_error || e.expect == Expect::dimension_count_error);
        t.indices = "UINT32";  // skip the type part: the FLOAT32 index values are small integers
    }

    std::vector<double> in = e.input.values, idx = e.indices.values, upd = e.updates.values;
    if (shape_only(e)) {  // synthetic data: any valid indices will do (0 is valid everywhere)
        in = iota(product(e.input.sizes), 0);
        idx.assign(static_cast<std::size_t>(product(e.indices.sizes)), 0.0);
        if (is_scatter(e.op)) upd = iota(product(e.updates.sizes), 10000);
    }

    for (Layout layout : {Layout::packed, Layout::padded_column_major}) {
        SCOPED_TRACE(layout == Layout::packed ? "packed row-major" : "padded column-major");
        const Outcome r = run_example(e, t, in, idx, upd, layout, oracle::Policy::error);
        switch (e.expect) {
            case Expect::ok:
            case Expect::data_type_error:
            case Expect::index_type_error: {
                ASSERT_TRUE(r.result.ok) << r.result.error;
                EXPECT_TRUE(r.result.error.empty());
                if (!e.output.values.empty()) {
                    EXPECT_EQ(load(r.output, t.output), e.output.values);
                }
                EXPECT_TRUE(unaddressed_bytes_untouched(r.output));
                // All indices are valid, so clamping changes nothing.
                const Outcome c = run_example(e, t, in, idx, upd, layout, oracle::Policy::clamp);
                ASSERT_TRUE(c.result.ok) << c.result.error;
                EXPECT_EQ(c.output.bytes, r.output.bytes);
                break;
            }
            case Expect::shape_error:
            case Expect::dimension_count_error:
                EXPECT_FALSE(r.result.ok);
                EXPECT_TRUE(contains(r.result.error, "shape error")) << r.result.error;
                if (e.expect == Expect::dimension_count_error) {
                    EXPECT_TRUE(contains(r.result.error, "DimensionCount")) << r.result.error;
                }
                EXPECT_EQ(r.output.bytes, r.output_before);
                break;
            case Expect::index_error:
                EXPECT_FALSE(r.result.ok);
                EXPECT_TRUE(contains(r.result.error, "index error")) << r.result.error;
                EXPECT_EQ(r.output.bytes, r.output_before);
                break;
            case Expect::collision_error: {
                EXPECT_FALSE(r.result.ok);
                EXPECT_TRUE(contains(r.result.error, "collision")) << r.result.error;
                EXPECT_EQ(r.output.bytes, r.output_before);
                // Without the opt-in check the same call succeeds (later update wins).
                Example relaxed = e;
                relaxed.check_collisions = false;
                EXPECT_TRUE(run_example(relaxed, t, in, idx, upd, layout, oracle::Policy::error).result.ok);
                break;
            }
        }
    }
}

INSTANTIATE_TEST_SUITE_P(All, SpecExample, ::testing::Range<std::size_t>(0, spec_examples::all().size()),
                         [](const ::testing::TestParamInfo<std::size_t>& param_info) {
                             std::string name = spec_examples::all()[param_info.param].id;
                             for (char& ch : name)
                                 if (ch == '-') ch = '_';
                             return name;
                         });

// Messages name the value, its IndicesTensor coordinate and the valid range (spec §1.5).
TEST(SpecExamples, X12MessageNamesValueCoordinateAndRange) {
    const std::vector<float> in{11, 12, 13, 14};
    const std::vector<std::uint32_t> idx{0, 4294967295u};
    std::vector<float> out(2, -1.0f);
    const oracle::Result r =
        oracle::gather({reinterpret_cast<const unsigned char*>(in.data()), 4, {4}, {1}},
                       {reinterpret_cast<const unsigned char*>(idx.data()), oracle::IndexKind::u32, {2}, {1}},
                       {reinterpret_cast<unsigned char*>(out.data()), 4, {2}, {1}}, 0, 1, oracle::Policy::error);
    ASSERT_FALSE(r.ok);
    EXPECT_TRUE(contains(r.error, "4294967295")) << r.error;
    EXPECT_TRUE(contains(r.error, "[1]")) << r.error;
    EXPECT_TRUE(contains(r.error, "valid 0..3")) << r.error;
    EXPECT_EQ(out, std::vector<float>(2, -1.0f));
}

// ============================================================================================
// Typed helpers for the oracle-specific tests
// ============================================================================================

template <class T>
oracle::Tensor tensor(const std::vector<T>& v, Sizes sizes, Sizes strides = {}) {
    if (strides.empty()) strides = packed_strides(sizes);
    return {reinterpret_cast<const unsigned char*>(v.data()), sizeof(T), std::move(sizes), std::move(strides)};
}

template <class T>
oracle::Indices indices(const std::vector<T>& v, Sizes sizes, Sizes strides = {}) {
    static_assert(std::is_same_v<T, std::int32_t> || std::is_same_v<T, std::int64_t> ||
                  std::is_same_v<T, std::uint32_t> || std::is_same_v<T, std::uint64_t>);
    if (strides.empty()) strides = packed_strides(sizes);
    const oracle::IndexKind kind = std::is_same_v<T, std::int32_t>    ? oracle::IndexKind::i32
                                   : std::is_same_v<T, std::int64_t>  ? oracle::IndexKind::i64
                                   : std::is_same_v<T, std::uint32_t> ? oracle::IndexKind::u32
                                                                      : oracle::IndexKind::u64;
    return {reinterpret_cast<const unsigned char*>(v.data()), kind, std::move(sizes), std::move(strides)};
}

template <class T>
oracle::Output output(std::vector<T>& v, Sizes sizes, Sizes strides = {}) {
    if (strides.empty()) strides = packed_strides(sizes);
    return {reinterpret_cast<unsigned char*>(v.data()), sizeof(T), std::move(sizes), std::move(strides)};
}

constexpr float S = -777.0f;  // sentinel value for float outputs

// ============================================================================================
// Strides, broadcast, aliasing, in place
// ============================================================================================

TEST(OracleLayout, BroadcastInputStridedIndicesPaddedOutput) {
    // Input {3,4} with strides {0,1}: three copies of one physical row.
    const std::vector<float> in{10, 20, 30, 40};
    // Indices {1,2} stored 2 apart: physical [3, junk, -4].
    const std::vector<std::int64_t> idx{3, 99, -4};
    // Output {3,2} with rows 5 apart and columns 2 apart: 13 floats, the rest is padding.
    std::vector<float> out(13, S);
    ASSERT_TRUE(oracle::gather(tensor(in, {3, 4}, {0, 1}), indices(idx, {1, 2}, {0, 2}), output(out, {3, 2}, {5, 2}), 1,
                               1, oracle::Policy::error)
                    .ok);
    const std::vector<float> expected{40, S, 10, S, S,  //
                                      40, S, 10, S, S,  //
                                      40, S, 10};
    EXPECT_EQ(out, expected);
}

TEST(OracleLayout, GatherElementsColumnMajorInput) {
    // Logical input [[1,2,3],[4,5,6]] stored column-major: physical [1,4,2,5,3,6], strides {1,2}.
    const std::vector<double> in{1, 4, 2, 5, 3, 6};
    const std::vector<std::uint32_t> idx{2, 0, 1, 1};  // {2,2}, Axis 1
    std::vector<double> out(4, S);
    ASSERT_TRUE(oracle::gather_elements(tensor(in, {2, 3}, {1, 2}), indices(idx, {2, 2}), output(out, {2, 2}), 1,
                                        oracle::Policy::error)
                    .ok);
    EXPECT_EQ(out, (std::vector<double>{3, 1, 5, 5}));
}

TEST(OracleLayout, ScatterWithBroadcastUpdatesAndStridedOutput) {
    const std::vector<std::int16_t> in{1, 2, 3, 4, 5, 6};  // {2,3}
    const std::vector<std::int32_t> idx{0, 2};             // {2,1}, Axis 1
    const std::vector<std::int16_t> upd{9};                // {2,1} broadcast from one element
    std::vector<std::int16_t> out(8, -1);                  // {2,3} with strides {4,1}
    ASSERT_TRUE(oracle::scatter(tensor(in, {2, 3}), indices(idx, {2, 1}), tensor(upd, {2, 1}, {0, 0}),
                                output(out, {2, 3}, {4, 1}), 1, oracle::Policy::error, true)
                    .ok);
    EXPECT_EQ(out, (std::vector<std::int16_t>{9, 2, 3, -1, 4, 5, 9, -1}));
}

TEST(OracleLayout, InPlaceScatterAndScatterND) {
    std::vector<float> data{0, 1, 2, 3, 4};
    const std::vector<std::uint32_t> idx{3, 1};
    const std::vector<float> upd{7, 8};
    ASSERT_TRUE(oracle::scatter(tensor(data, {5}), indices(idx, {2}), tensor(upd, {2}), output(data, {5}), 0,
                                oracle::Policy::error, true)
                    .ok);
    EXPECT_EQ(data, (std::vector<float>{0, 8, 2, 7, 4}));

    std::vector<float> rows{1, 2, 3, 4, 5, 6};   // {3,2}
    const std::vector<std::int64_t> tuples{-1};  // {1,1}: the last row
    const std::vector<float> block{8, 9};        // {1,2}
    ASSERT_TRUE(oracle::scatter_nd(tensor(rows, {3, 2}), indices(tuples, {1, 1}), tensor(block, {1, 2}),
                                   output(rows, {3, 2}), 2, 2, oracle::Policy::error, false)
                    .ok);
    EXPECT_EQ(rows, (std::vector<float>{1, 2, 3, 4, 8, 9}));
}

TEST(OracleLayout, RejectsOutputThatAliasesItselfOrAnInput) {
    const std::vector<float> in{1, 2, 3, 4, 5, 6};
    const std::vector<std::uint32_t> idx{1, 0};
    std::vector<float> out(16, S);
    const std::vector<float> untouched = out;

    // Two output coordinates on one element (stride 0).
    oracle::Result r = oracle::gather_elements(tensor(in, {2, 3}), indices(idx, {2, 1}), output(out, {2, 1}, {0, 1}), 1,
                                               oracle::Policy::error);
    EXPECT_FALSE(r.ok);
    EXPECT_TRUE(contains(r.error, "layout error")) << r.error;
    // Strides {1,1} on {2,2}: (0,1) and (1,0) share an element.
    const std::vector<std::uint32_t> idx4{0, 1, 1, 0};
    r = oracle::gather_elements(tensor(in, {2, 3}), indices(idx4, {2, 2}), output(out, {2, 2}, {1, 1}), 1,
                                oracle::Policy::error);
    EXPECT_FALSE(r.ok);
    EXPECT_EQ(out, untouched);

    // Gather output on top of its input.
    std::vector<float> buffer{1, 2, 3, 4};
    r = oracle::gather(tensor(buffer, {4}), indices(idx, {2}), output(buffer, {2}), 0, 1, oracle::Policy::error);
    EXPECT_FALSE(r.ok);
    EXPECT_TRUE(contains(r.error, "overlaps InputTensor")) << r.error;
    EXPECT_EQ(buffer, (std::vector<float>{1, 2, 3, 4}));

    // Scatter with output == input buffer but different strides is not "in place".
    std::vector<float> data(10, 0.0f);
    const std::vector<float> upd{5, 6};
    r = oracle::scatter(tensor(data, {5}, {1}), indices(idx, {2}), tensor(upd, {2}), output(data, {5}, {2}), 0,
                        oracle::Policy::error, false);
    EXPECT_FALSE(r.ok);
    EXPECT_EQ(data, std::vector<float>(10, 0.0f));

    // Output overlapping the updates.
    std::vector<float> shared{0, 0, 0, 0, 0, 9, 9};
    const std::vector<float> base{1, 2, 3, 4, 5};
    r = oracle::scatter(tensor(base, {5}), indices(idx, {2}),
                        oracle::Tensor{reinterpret_cast<const unsigned char*>(shared.data() + 4), 4, {2}, {1}},
                        output(shared, {5}), 0, oracle::Policy::error, false);
    EXPECT_FALSE(r.ok);
    EXPECT_TRUE(contains(r.error, "overlaps UpdatesTensor")) << r.error;
}

// Spans that meet are only a first filter: whether elements coincide decides, for an output that
// spans far more elements than it has (its sorted addresses) and for tensors interleaved with it.
TEST(OracleLayout, OverlapIsDecidedElementByElement) {
    const std::vector<float> in{1, 2, 3, 4, 5, 6};
    const std::vector<std::uint32_t> idx4{0, 1, 1, 0};
    std::vector<float> far(2001, S);
    const std::vector<float> untouched = far;
    // {2,2} with strides {1000,1000}: (0,1) and (1,0) share element 1000.
    oracle::Result r = oracle::gather_elements(tensor(in, {2, 3}), indices(idx4, {2, 2}),
                                               output(far, {2, 2}, {1000, 1000}), 1, oracle::Policy::error);
    EXPECT_FALSE(r.ok);
    EXPECT_TRUE(contains(r.error, "share one element")) << r.error;
    EXPECT_EQ(far, untouched);
    // {2,2} with strides {1000,1}: elements 0, 1, 1000 and 1001.
    ASSERT_TRUE(oracle::gather_elements(tensor(in, {2, 3}), indices(idx4, {2, 2}), output(far, {2, 2}, {1000, 1}),
                                        1, oracle::Policy::error)
                    .ok);
    EXPECT_EQ((std::vector<float>{far[0], far[1], far[1000], far[1001]}), (std::vector<float>{1, 2, 5, 4}));

    // Input on the odd elements of a buffer, the output on its even ones: the spans meet, no element does.
    std::vector<float> interleaved{0, 10, 0, 11, 0, 12, 0, 13};
    const std::vector<std::uint32_t> idx{1, 3};
    const oracle::Tensor odd{reinterpret_cast<const unsigned char*>(interleaved.data() + 1), 4, {4}, {2}};
    ASSERT_TRUE(
        oracle::gather(odd, indices(idx, {2}), output(interleaved, {2}, {2}), 0, 1, oracle::Policy::error).ok);
    EXPECT_EQ(interleaved, (std::vector<float>{11, 10, 13, 11, 0, 12, 0, 13}));
    // An odd element in the output's span as well: element 3.
    r = oracle::gather(odd, indices(idx, {2}), output(interleaved, {2}, {3}), 0, 1, oracle::Policy::error);
    EXPECT_FALSE(r.ok);
    EXPECT_TRUE(contains(r.error, "overlaps InputTensor")) << r.error;

    // IndicesTensor inside the output's buffer.
    std::vector<std::uint32_t> shared{0, 0, 0, 1, 0};
    const oracle::Indices tail{reinterpret_cast<const unsigned char*>(shared.data() + 3), oracle::IndexKind::u32, {2},
                               {1}};
    r = oracle::gather(tensor(in, {6}), tail,
                       oracle::Output{reinterpret_cast<unsigned char*>(shared.data() + 2), 4, {2}, {1}}, 0, 1,
                       oracle::Policy::error);
    EXPECT_FALSE(r.ok);
    EXPECT_TRUE(contains(r.error, "overlaps IndicesTensor")) << r.error;
    EXPECT_EQ(shared, (std::vector<std::uint32_t>{0, 0, 0, 1, 0}));
}

TEST(OracleLayout, AcceptsUnusualButNonAliasingOutputStrides) {
    // {2,3} with strides {3,2}: offsets 0,2,4,3,5,7 — all distinct, though not a "sorted" layout.
    const std::vector<float> in{1, 2, 3, 4, 5, 6};
    const std::vector<std::uint32_t> idx{0, 1, 0, 1, 0, 1};
    std::vector<float> out(8, S);
    ASSERT_TRUE(oracle::gather_elements(tensor(in, {2, 3}), indices(idx, {2, 3}), output(out, {2, 3}, {3, 2}), 0,
                                        oracle::Policy::error)
                    .ok);
    EXPECT_EQ(out, (std::vector<float>{1, S, 5, 4, 3, 2, S, 6}));
}

TEST(OracleLayout, RejectsMalformedDescriptions) {
    const std::vector<float> in{1, 2, 3, 4};
    const std::vector<std::uint32_t> idx{0};
    std::vector<float> out(4, S);
    const auto gather = [&](oracle::Tensor t, oracle::Output o) {
        return oracle::gather(t, indices(idx, {1}), o, 0, 1, oracle::Policy::error);
    };
    EXPECT_FALSE(gather(tensor(in, {4}, {-1}), output(out, {1})).ok);    // negative stride
    EXPECT_FALSE(gather(tensor(in, {4}, {1, 1}), output(out, {1})).ok);  // strides/sizes length
    EXPECT_FALSE(
        gather({reinterpret_cast<const unsigned char*>(in.data()), 3, {4}, {1}}, output(out, {1})).ok);  // size 3
    EXPECT_FALSE(gather({nullptr, 4, {4}, {1}}, output(out, {1})).ok);                                   // no data
    std::vector<double> wide(1, 0.0);
    EXPECT_FALSE(gather(tensor(in, {4}), output(wide, {1})).ok);  // element sizes differ
    EXPECT_FALSE(gather(tensor(in, {4}, {std::numeric_limits<std::int64_t>::max() / 2}), output(out, {1})).ok);
    EXPECT_EQ(out, std::vector<float>(4, S));
    EXPECT_EQ(wide, std::vector<double>(1, 0.0));
}

// ============================================================================================
// Index values: normalisation edge cases and the clamp policy
// ============================================================================================

struct GatherRows {  // Input {2,3} [[1,2,3],[4,5,6]], Axis 0, IndexDimensions 1, indices {1,k}
    std::vector<float> in{1, 2, 3, 4, 5, 6};
    template <class T>
    oracle::Result run(const std::vector<T>& idx, std::vector<float>& out, oracle::Policy p) const {
        const std::int64_t k = static_cast<std::int64_t>(idx.size());
        return oracle::gather(tensor(in, {2, 3}), indices(idx, {1, k}), output(out, {k, 3}), 0, 1, p);
    }
};

TEST(OracleIndices, NegativeSignedIndicesCountFromTheEnd) {
    std::vector<float> out(6, S);
    ASSERT_TRUE(GatherRows().run(std::vector<std::int32_t>{-1, -2}, out, oracle::Policy::error).ok);
    EXPECT_EQ(out, (std::vector<float>{4, 5, 6, 1, 2, 3}));
    std::vector<float> one(3, S);
    EXPECT_FALSE(GatherRows().run(std::vector<std::int32_t>{-3}, one, oracle::Policy::error).ok);
    EXPECT_FALSE(GatherRows().run(std::vector<std::int64_t>{2}, one, oracle::Policy::error).ok);
    EXPECT_EQ(one, std::vector<float>(3, S));
}

TEST(OracleIndices, Int64MinIsOutOfRangeWithoutOverflow) {
    std::vector<float> out(3, S);
    const oracle::Result r = GatherRows().run(std::vector<std::int64_t>{std::numeric_limits<std::int64_t>::min()}, out,
                                              oracle::Policy::error);
    ASSERT_FALSE(r.ok);
    EXPECT_TRUE(contains(r.error, "-9223372036854775808")) << r.error;
    EXPECT_TRUE(contains(r.error, "valid -2..1")) << r.error;
    EXPECT_EQ(out, std::vector<float>(3, S));
}

TEST(OracleIndices, UnsignedValuesAreNeverNegative) {
    std::vector<float> out(3, S);
    // As signed these would be -1 (valid, row 1); unsigned they are huge and out of range.
    for (std::uint64_t v : {std::uint64_t{0xFFFFFFFFFFFFFFFFull}, std::uint64_t{0x8000000000000000ull}}) {
        const oracle::Result r = GatherRows().run(std::vector<std::uint64_t>{v}, out, oracle::Policy::error);
        ASSERT_FALSE(r.ok);
        EXPECT_TRUE(contains(r.error, std::to_string(v))) << r.error;
        EXPECT_TRUE(contains(r.error, "valid 0..1")) << r.error;
    }
    EXPECT_FALSE(GatherRows().run(std::vector<std::uint32_t>{0xFFFFFFFFu}, out, oracle::Policy::error).ok);
    EXPECT_EQ(out, std::vector<float>(3, S));
}

TEST(OracleClamp, WebNNExpectations) {
    // Index 10 on an axis of size 2 -> row 1; -10 -> row 0.
    std::vector<float> out(6, S);
    ASSERT_TRUE(GatherRows().run(std::vector<std::int32_t>{10, -10}, out, oracle::Policy::clamp).ok);
    EXPECT_EQ(out, (std::vector<float>{4, 5, 6, 1, 2, 3}));
    // The same call under the error policy fails on 10, at indices coordinate [0, 0].
    std::vector<float> untouched(6, S);
    const oracle::Result r = GatherRows().run(std::vector<std::int32_t>{10, -10}, untouched, oracle::Policy::error);
    ASSERT_FALSE(r.ok);
    EXPECT_TRUE(contains(r.error, "value 10 at [0, 0]")) << r.error;
    EXPECT_EQ(untouched, std::vector<float>(6, S));

    // uint32 0xFFFFFFFF clamps to n-1 (it is not -1 either way).
    std::vector<float> row(3, S);
    ASSERT_TRUE(GatherRows().run(std::vector<std::uint32_t>{0xFFFFFFFFu}, row, oracle::Policy::clamp).ok);
    EXPECT_EQ(row, (std::vector<float>{4, 5, 6}));
    // Extremes of the 64-bit kinds.
    ASSERT_TRUE(GatherRows().run(std::vector<std::uint64_t>{0xFFFFFFFFFFFFFFFFull}, row, oracle::Policy::clamp).ok);
    EXPECT_EQ(row, (std::vector<float>{4, 5, 6}));
    ASSERT_TRUE(
        GatherRows()
            .run(std::vector<std::int64_t>{std::numeric_limits<std::int64_t>::min()}, row, oracle::Policy::clamp)
            .ok);
    EXPECT_EQ(row, (std::vector<float>{1, 2, 3}));
    ASSERT_TRUE(
        GatherRows()
            .run(std::vector<std::int64_t>{std::numeric_limits<std::int64_t>::max()}, row, oracle::Policy::clamp)
            .ok);
    EXPECT_EQ(row, (std::vector<float>{4, 5, 6}));

    // ScatterND: INT32_MAX clamps to the last row.
    const std::vector<float> in{1, 2, 3, 4, 5, 6};  // {3,2}
    const std::vector<std::int32_t> tuple{std::numeric_limits<std::int32_t>::max()};
    const std::vector<float> upd{7, 8};
    std::vector<float> out2(6, S);
    ASSERT_TRUE(oracle::scatter_nd(tensor(in, {3, 2}), indices(tuple, {1, 1}), tensor(upd, {1, 2}),
                                   output(out2, {3, 2}), 2, 2, oracle::Policy::clamp, false)
                    .ok);
    EXPECT_EQ(out2, (std::vector<float>{1, 2, 3, 4, 7, 8}));
}

TEST(OracleClamp, EveryOperatorClamps) {
    const std::vector<float> in{1, 2, 3, 4, 5, 6};  // {2,3}
    std::vector<float> out(6, S);

    const std::vector<std::int32_t> ge{7, -7};  // {2,1} on Axis 1 (size 3): 7 -> 2, -7 -> -3 -> 0
    ASSERT_TRUE(
        oracle::gather_elements(tensor(in, {2, 3}), indices(ge, {2, 1}), output(out, {2, 1}), 1, oracle::Policy::clamp)
            .ok);
    EXPECT_EQ(std::vector<float>(out.begin(), out.begin() + 2), (std::vector<float>{3, 4}));

    const std::vector<std::uint32_t> nd{5, 9};  // one 2-tuple on {2,3}: (1, 2)
    ASSERT_TRUE(
        oracle::gather_nd(tensor(in, {2, 3}), indices(nd, {1, 2}), output(out, {1, 1}), 2, 2, oracle::Policy::clamp)
            .ok);
    EXPECT_EQ(out[0], 6.0f);

    const std::vector<std::int64_t> nd1{-100, 100};  // batch {2}, one 1-tuple each on size 3: 0 and 2
    ASSERT_TRUE(oracle::gather_nd1(tensor(in, {2, 3}), indices(nd1, {2, 1}), output(out, {1, 2}), 2, 2, 1,
                                   oracle::Policy::clamp)
                    .ok);
    EXPECT_EQ(std::vector<float>(out.begin(), out.begin() + 2), (std::vector<float>{1, 6}));

    const std::vector<std::int32_t> sc3{-9, 9, 0};  // {1,3} on Axis 0 (size 2): 0, 1, 0
    const std::vector<float> upd{7, 8, 9};
    std::vector<float> out3(6, S);
    ASSERT_TRUE(oracle::scatter(tensor(in, {2, 3}), indices(sc3, {1, 3}), tensor(upd, {1, 3}), output(out3, {2, 3}), 0,
                                oracle::Policy::clamp, true)
                    .ok);
    EXPECT_EQ(out3, (std::vector<float>{7, 2, 9, 4, 8, 6}));
}

// ============================================================================================
// Validation: nothing written on error, leading ones, shapes
// ============================================================================================

TEST(OracleErrors, NothingWrittenOnAnyError) {
    const std::vector<float> in{1, 2, 3, 4, 5, 6};  // {2,3}
    std::vector<float> out(12, S);
    const std::vector<float> untouched = out;
    const std::vector<std::int32_t> bad{0, 1, 5};  // 5 is out of range for both axes of {2,3}
    const std::vector<std::int32_t> bad_batch{0, 5};
    const std::vector<float> upd3{7, 8, 9};
    const std::vector<float> upd6{1, 2, 3, 4, 5, 6};
    const std::vector<float> upd9{1, 2, 3, 4, 5, 6, 7, 8, 9};
    const auto index_error = [](const oracle::Result& r) { return !r.ok && contains(r.error, "index error"); };

    EXPECT_TRUE(index_error(
        oracle::gather(tensor(in, {2, 3}), indices(bad, {1, 3}), output(out, {2, 3}), 1, 1, oracle::Policy::error)));
    EXPECT_TRUE(index_error(oracle::gather_elements(tensor(in, {2, 3}), indices(bad, {1, 3}), output(out, {1, 3}), 0,
                                                    oracle::Policy::error)));
    EXPECT_TRUE(index_error(
        oracle::gather_nd(tensor(in, {2, 3}), indices(bad, {3, 1}), output(out, {3, 3}), 2, 2, oracle::Policy::error)));
    EXPECT_TRUE(index_error(oracle::gather_nd1(tensor(in, {2, 3}), indices(bad_batch, {2, 1}), output(out, {1, 2}), 2,
                                               2, 1, oracle::Policy::error)));
    EXPECT_TRUE(index_error(oracle::scatter(tensor(in, {2, 3}), indices(bad, {1, 3}), tensor(upd3, {1, 3}),
                                            output(out, {2, 3}), 0, oracle::Policy::error, false)));
    EXPECT_TRUE(index_error(oracle::scatter_nd(tensor(in, {2, 3}), indices(bad, {3, 1}), tensor(upd9, {3, 3}),
                                               output(out, {2, 3}), 2, 2, oracle::Policy::error, false)));
    // Shape errors: wrong output sizes, wrong attribute.
    EXPECT_FALSE(
        oracle::gather(tensor(in, {2, 3}), indices(bad, {1, 3}), output(out, {3, 2}), 1, 1, oracle::Policy::clamp).ok);
    EXPECT_FALSE(
        oracle::gather_elements(tensor(in, {2, 3}), indices(bad, {1, 3}), output(out, {1, 3}), 2, oracle::Policy::clamp)
            .ok);
    // A collision: 1 and -1 are the same row of a size-2 axis.
    const std::vector<std::int32_t> twice{1, -1};
    const oracle::Result c = oracle::scatter_nd(tensor(in, {2, 3}), indices(twice, {2, 1}), tensor(upd6, {2, 3}),
                                                output(out, {2, 3}), 2, 2, oracle::Policy::error, true);
    EXPECT_FALSE(c.ok);
    EXPECT_TRUE(contains(c.error, "collision")) << c.error;
    EXPECT_EQ(out, untouched);

    // In place: a failing call leaves the shared buffer as it was.
    std::vector<float> data = in;
    EXPECT_TRUE(index_error(oracle::scatter(tensor(data, {2, 3}), indices(bad, {1, 3}), tensor(upd3, {1, 3}),
                                            output(data, {2, 3}), 0, oracle::Policy::error, false)));
    EXPECT_EQ(data, in);
}

TEST(OracleErrors, IrrelevantLeadingDimensionsMustBeOne) {
    const std::vector<float> in{1, 2, 3, 4, 5, 6};
    const std::vector<std::uint32_t> idx{0, 1, 1, 0};
    std::vector<float> out(12, S);
    // GATHER, IndexDimensions 1: Idx[0] = 2 is an irrelevant leading dimension.
    oracle::Result r =
        oracle::gather(tensor(in, {3, 2}), indices(idx, {2, 2}), output(out, {2, 2}), 0, 1, oracle::Policy::error);
    EXPECT_FALSE(r.ok);
    EXPECT_TRUE(contains(r.error, "must be 1")) << r.error;
    // ... with IndexDimensions 2 it is meaningful, but L = {2,2,2} drops a 2: too large for D = 2.
    EXPECT_FALSE(oracle::gather_output_sizes({3, 2}, {2, 2}, 0, 2).has_value());
    EXPECT_EQ(oracle::gather_output_sizes({1, 3, 2}, {1, 2, 2}, 1, 2), (std::optional<Sizes>{{2, 2, 2}}));
    // GATHER_ND, InputDimensionCount 1 on a {3,2} input: In[0] = 3 must be 1.
    r = oracle::gather_nd(tensor(in, {3, 2}), indices(idx, {4, 1}), output(out, {1, 4}), 1, 2, oracle::Policy::error);
    EXPECT_FALSE(r.ok);
    EXPECT_TRUE(contains(r.error, "InputTensor.Sizes[0]")) << r.error;
    // ... IndicesDimensionCount 1 on {4,1} indices: Idx[0] = 4 must be 1.
    EXPECT_FALSE(oracle::gather_nd_output_sizes({3, 2}, {4, 1}, 2, 1).has_value());
    EXPECT_FALSE(oracle::scatter_nd_updates_sizes({3, 2}, {4, 1}, 1, 2).has_value());
    EXPECT_EQ(out, std::vector<float>(12, S));
}

TEST(OracleShapes, SizeFunctions) {
    using O = std::optional<Sizes>;
    // GN-S on all three ND operators.
    EXPECT_EQ(oracle::gather_nd_output_sizes({3, 4, 5, 6, 7}, {1, 1, 1, 2, 3}, 5, 3), (O{{1, 1, 2, 6, 7}}));
    EXPECT_EQ(oracle::gather_nd1_output_sizes({3, 4, 5, 6, 7}, {1, 1, 1, 2, 3}, 5, 3, 0), (O{{1, 1, 2, 6, 7}}));
    EXPECT_EQ(oracle::scatter_nd_updates_sizes({3, 4, 5, 6, 7}, {1, 1, 1, 2, 3}, 5, 3), (O{{1, 1, 2, 6, 7}}));
    // M = 0: a full tuple on a 1-D input gives one element.
    EXPECT_EQ(oracle::gather_nd_output_sizes({4}, {1}, 1, 1), (O{{1}}));
    // Scalar gather index on D = 1.
    EXPECT_EQ(oracle::gather_output_sizes({4}, {1}, 0, 0), (O{{1}}));

    // Common rules.
    EXPECT_FALSE(oracle::gather_output_sizes({4, 1}, {1}, 0, 1));                               // D differs
    EXPECT_FALSE(oracle::gather_output_sizes({1, 1, 1, 1, 1, 1, 1, 1, 4}, Sizes(9, 1), 8, 1));  // D = 9
    EXPECT_TRUE(oracle::gather_output_sizes({1, 1, 1, 1, 1, 1, 1, 4}, Sizes(8, 1), 7, 1));      // D = 8
    EXPECT_FALSE(oracle::gather_output_sizes({}, {}, 0, 0));                                    // D = 0
    EXPECT_FALSE(oracle::gather_elements_output_sizes({2, 0}, {2, 1}, 1));                      // size 0
    // Attribute ranges.
    EXPECT_FALSE(oracle::gather_output_sizes({2, 3}, {1, 1}, 2, 1));         // Axis = D
    EXPECT_FALSE(oracle::gather_output_sizes({2, 3}, {1, 1}, 0, 3));         // IndexDimensions > D
    EXPECT_FALSE(oracle::gather_elements_output_sizes({2, 3}, {2, 3}, 2));   // Axis = D
    EXPECT_FALSE(oracle::gather_elements_output_sizes({2, 3}, {3, 2}, 1));   // non-axis sizes differ
    EXPECT_FALSE(oracle::gather_nd_output_sizes({2, 3}, {1, 2}, 0, 2));      // r = 0
    EXPECT_FALSE(oracle::gather_nd_output_sizes({2, 3}, {1, 2}, 2, 3));      // q > D
    EXPECT_FALSE(oracle::gather_nd_output_sizes({2, 3}, {1, 3}, 2, 2));      // K > r
    EXPECT_FALSE(oracle::gather_nd1_output_sizes({2, 3}, {2, 1}, 2, 2, 2));  // B = r
    EXPECT_FALSE(oracle::gather_nd1_output_sizes({2, 3}, {2, 2}, 2, 2, 1));  // K > r - B
    EXPECT_FALSE(oracle::gather_nd1_output_sizes({2, 3}, {3, 1}, 2, 2, 1));  // batch sizes differ
    EXPECT_EQ(oracle::gather_nd1_output_sizes({2, 3}, {2, 1}, 2, 2, 1), (O{{1, 2}}));
    // M <= D: indices {5,1} (q 2, K 1) on input {2,3} (r 2): M = 1 + 1 = 2.
    // M > D: indices {2,5,1} (q 3, K 1) on input {1,2,3} (r 3): M = 2 + 2 = 4 > 3.
    EXPECT_EQ(oracle::gather_nd_output_sizes({2, 3}, {5, 1}, 2, 2), (O{{5, 3}}));
    EXPECT_FALSE(oracle::gather_nd_output_sizes({1, 2, 3}, {2, 5, 1}, 3, 3));
    // Scatter: updates must equal indices; Out = In.
    EXPECT_EQ(oracle::scatter_output_sizes({3, 3}, {2, 3}, {2, 3}, 0), (O{{3, 3}}));
    EXPECT_FALSE(oracle::scatter_output_sizes({3, 3}, {2, 3}, {3, 2}, 0));
    EXPECT_FALSE(oracle::scatter_output_sizes({3, 3}, {2, 2}, {2, 2}, 0));
    EXPECT_FALSE(oracle::scatter_nd_output_sizes({1, 8}, {4, 1}, {4, 1}, 1, 2));
    EXPECT_EQ(oracle::scatter_nd_output_sizes({1, 8}, {4, 1}, {1, 4}, 1, 2), (O{{1, 8}}));
}

// ============================================================================================
// Scatter order, bit exactness, size
// ============================================================================================

TEST(OracleScatter, LaterTupleWinsAndCollisionsAreReported) {
    const std::vector<float> in{1, 2, 3, 4, 5, 6};  // {3,2}
    const std::vector<std::int32_t> tuples{1, -2};  // {2,1}: both the middle row
    const std::vector<float> upd{10, 20, 30, 40};   // {2,2}
    std::vector<float> out(6, S);
    ASSERT_TRUE(oracle::scatter_nd(tensor(in, {3, 2}), indices(tuples, {2, 1}), tensor(upd, {2, 2}),
                                   output(out, {3, 2}), 2, 2, oracle::Policy::error, false)
                    .ok);
    EXPECT_EQ(out, (std::vector<float>{1, 2, 30, 40, 5, 6}));

    std::vector<float> out2(6, S);
    const oracle::Result r = oracle::scatter_nd(tensor(in, {3, 2}), indices(tuples, {2, 1}), tensor(upd, {2, 2}),
                                                output(out2, {3, 2}), 2, 2, oracle::Policy::error, true);
    ASSERT_FALSE(r.ok);
    EXPECT_TRUE(contains(r.error, "collision")) << r.error;
    EXPECT_TRUE(contains(r.error, "OutputTensor[1, 0]")) << r.error;
    EXPECT_EQ(out2, std::vector<float>(6, S));

    // X-13 names the output element (0,2).
    const std::vector<float> zeros{0, 0, 0};
    const std::vector<std::int32_t> idx{2, -1};
    const std::vector<float> upd2{5, 6};
    std::vector<float> out3(3, S);
    const oracle::Result x13 = oracle::scatter(tensor(zeros, {1, 3}), indices(idx, {1, 2}), tensor(upd2, {1, 2}),
                                               output(out3, {1, 3}), 1, oracle::Policy::error, true);
    ASSERT_FALSE(x13.ok);
    EXPECT_TRUE(contains(x13.error, "OutputTensor[0, 2]")) << x13.error;
}

TEST(OracleBits, CopiesAreBitExactForEveryElementSize) {
    // 8 bytes: NaN payloads, -0.0 and integer extremes as raw bit patterns.
    const std::vector<std::uint64_t> in8{0x7FF0000000000001ull, 0x8000000000000000ull, 0xFFF8DEADBEEF0001ull,
                                         0x0000000000000001ull};
    const std::vector<std::uint32_t> idx{2, 0, 1, 3, 2};
    std::vector<std::uint64_t> out8(5, 0);
    ASSERT_TRUE(oracle::gather(tensor(in8, {4}), indices(idx, {5}), output(out8, {5}), 0, 1, oracle::Policy::error).ok);
    EXPECT_EQ(out8, (std::vector<std::uint64_t>{in8[2], in8[0], in8[1], in8[3], in8[2]}));
    // 2 bytes: float16 patterns (signalling NaN 0x7C01, -0 0x8000, subnormal 0x0001).
    const std::vector<std::uint16_t> in2{0x7C01, 0x8000, 0x0001, 0xFBFF};
    std::vector<std::uint16_t> out2(5, 0);
    ASSERT_TRUE(oracle::gather(tensor(in2, {4}), indices(idx, {5}), output(out2, {5}), 0, 1, oracle::Policy::error).ok);
    EXPECT_EQ(out2, (std::vector<std::uint16_t>{in2[2], in2[0], in2[1], in2[3], in2[2]}));
    // 1 byte.
    const std::vector<std::uint8_t> in1{0x80, 0xFF, 0x00, 0x7F};
    std::vector<std::uint8_t> out1(5, 0);
    ASSERT_TRUE(oracle::gather(tensor(in1, {4}), indices(idx, {5}), output(out1, {5}), 0, 1, oracle::Policy::error).ok);
    EXPECT_EQ(out1, (std::vector<std::uint8_t>{0x00, 0x80, 0xFF, 0x7F, 0x00}));
}

TEST(OracleSize, TensOfThousandsOfElements) {
    // GatherND1 with a batch: input {8,64,64}, 8×256 2-tuples -> output {8,256,1}... r 3, q 3, B 1, K 2.
    const std::int64_t batches = 8, rows = 64, cols = 64, tuples = 256;
    std::vector<std::int32_t> in(static_cast<std::size_t>(batches * rows * cols));
    for (std::size_t k = 0; k < in.size(); ++k) in[k] = static_cast<std::int32_t>(k);
    std::vector<std::int64_t> idx(static_cast<std::size_t>(batches * tuples * 2));
    for (std::size_t k = 0; k < idx.size(); k += 2) {
        idx[k] = static_cast<std::int64_t>(k % rows) - rows;  // negative: counts from the end
        idx[k + 1] = static_cast<std::int64_t>((k / 2) % cols);
    }
    std::vector<std::int32_t> out(static_cast<std::size_t>(batches * tuples), -1);
    ASSERT_TRUE(oracle::gather_nd1(tensor(in, {batches, rows, cols}), indices(idx, {batches, tuples, 2}),
                                   output(out, {1, batches, tuples}), 3, 3, 1, oracle::Policy::error)
                    .ok);
    for (std::int64_t b = 0; b < batches; ++b)
        for (std::int64_t t = 0; t < tuples; ++t) {
            const std::size_t k = static_cast<std::size_t>((b * tuples + t) * 2);
            const std::int64_t row = idx[k] + rows, col = idx[k + 1];
            ASSERT_EQ(out[static_cast<std::size_t>(b * tuples + t)],
                      in[static_cast<std::size_t>((b * rows + row) * cols + col)]);
        }

    // Scatter over a {256,256} tensor (65536 updates): Axis 0 reversal.
    const std::int64_t n = 256;
    std::vector<float> base(static_cast<std::size_t>(n * n), 0.0f), upd(base.size());
    std::vector<std::uint32_t> rev(base.size());
    for (std::size_t k = 0; k < base.size(); ++k) {
        upd[k] = static_cast<float>(k);
        rev[k] = static_cast<std::uint32_t>(n - 1 - static_cast<std::int64_t>(k) / n);
    }
    std::vector<float> result(base.size(), S);
    ASSERT_TRUE(oracle::scatter(tensor(base, {n, n}), indices(rev, {n, n}), tensor(upd, {n, n}), output(result, {n, n}),
                                0, oracle::Policy::error, true)
                    .ok);
    EXPECT_EQ(result[0], static_cast<float>((n - 1) * n));
    EXPECT_EQ(result[static_cast<std::size_t>(n * n - 1)], static_cast<float>(n - 1));
}

}  // namespace
