// Feature levels (docs/directml.md, "Feature levels"). Every operator x level x DimensionCount x data
// type x index type runs through both layers, with Options::feature_level and through
// minimum_feature_level; what must happen comes from a literal copy, below, of the "Tensor support"
// tables of the six DirectML operator pages (as docs/directml.md reproduces them), never from
// dmlref's own tables. A rejected call must name the rule whose level is highest and write nothing;
// an accepted one must compute the one-element result.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstdio>
#include <cstring>
#include <iterator>
#include <string>
#include <vector>

#include "dmlref/dmlref.hpp"
#include "dmlref/onnx.hpp"
#include "support/op.hpp"
#include "support/runner.hpp"
#include "support/type_switch.hpp"

namespace {

using dmlref::DataType;
using dmlref::ErrorCode;
using dmlref::Options;
using dmlref::Result;
using dmlref::Shape;
using dmlref::Status;
using Types = std::vector<DataType>;

// ================================================================================================
// The pages' tables, copied literally: type lists in the pages' order, then one row per
// "DML_FEATURE_LEVEL_X_Y and above" table, newest first, with each tensor's "dimensions; types".

const Types T2 = {DataType::FLOAT32, DataType::FLOAT16};
const Types T8 = {DataType::FLOAT32, DataType::FLOAT16, DataType::INT32,  DataType::INT16,
                  DataType::INT8,    DataType::UINT32,  DataType::UINT16, DataType::UINT8};
const Types T11 = {DataType::FLOAT64, DataType::FLOAT32, DataType::FLOAT16, DataType::INT64,
                   DataType::INT32,   DataType::INT16,   DataType::INT8,    DataType::UINT64,
                   DataType::UINT32,  DataType::UINT16,  DataType::UINT8};
const Types U32 = {DataType::UINT32};
const Types I4 = {DataType::INT64, DataType::INT32, DataType::UINT64, DataType::UINT32};

struct Cell {
  int min_rank, max_rank;  // "4" is 4 to 4
  const Types* types;
};
struct Table {
  std::uint32_t from;
  std::vector<Cell> tensors;  // InputTensor, IndicesTensor[, UpdatesTensor], OutputTensor
};

using harness::is_scatter;
using harness::Op;
constexpr const auto& kOps = harness::all_ops;

struct Page {
  const char* name;        // dmlref's operator name, as errors give it
  const char* enumerator;  // DML_OPERATOR_...
  std::uint32_t introduced;
  std::vector<Table> tables;
};

const Cell c1to8_T11{1, 8, &T11}, c1to8_T8{1, 8, &T8}, c1to8_I4{1, 8, &I4}, c4_T8{4, 4, &T8}, c4_U32{4, 4, &U32},
    c4_T2{4, 4, &T2};

const Page& page(Op op) {
  // GATHER: "introduced in DML_FEATURE_LEVEL_1_0". GATHER_ELEMENTS, GATHER_ND, SCATTER_ND: 2_1.
  // GATHER_ND1: 3_0. SCATTER: its page says 1_0, DirectML.h and the feature level history 2_0; the
  // resolution docs/semantics.md documents is 2_0, with the page's "1_0 and above" table.
  static const Page pages[] = {
      {"Gather", "DML_OPERATOR_GATHER", 0x1000,
       {{0x4100, {c1to8_T11, c1to8_I4, c1to8_T11}},
        {0x3000, {c1to8_T8, c1to8_I4, c1to8_T8}},
        {0x2100, {c4_T8, c4_U32, c4_T8}},
        {0x1000, {c4_T2, c4_U32, c4_T2}}}},
      {"GatherElements", "DML_OPERATOR_GATHER_ELEMENTS", 0x2100,
       {{0x4100, {c1to8_T11, c1to8_I4, c1to8_T11}},
        {0x3000, {c1to8_T8, c1to8_I4, c1to8_T8}},
        {0x2100, {c4_T8, c4_U32, c4_T8}}}},
      {"GatherND", "DML_OPERATOR_GATHER_ND", 0x2100,
       {{0x4100, {c1to8_T11, c1to8_I4, c1to8_T11}},
        {0x3000, {c1to8_T8, c1to8_I4, c1to8_T8}},
        {0x2100, {c4_T8, c4_U32, c4_T8}}}},
      {"GatherND1", "DML_OPERATOR_GATHER_ND1", 0x3000,
       {{0x4100, {c1to8_T11, c1to8_I4, c1to8_T11}}, {0x3000, {c1to8_T8, c1to8_I4, c1to8_T8}}}},
      {"Scatter", "DML_OPERATOR_SCATTER", 0x2000,
       {{0x4100, {c1to8_T11, c1to8_I4, c1to8_T11, c1to8_T11}},
        {0x3000, {c1to8_T8, c1to8_I4, c1to8_T8, c1to8_T8}},
        {0x2100, {c4_T8, c4_U32, c4_T8, c4_T8}},
        {0x1000, {c4_T2, c4_U32, c4_T2, c4_T2}}}},
      {"ScatterND", "DML_OPERATOR_SCATTER_ND", 0x2100,
       {{0x4100, {c1to8_T11, c1to8_I4, c1to8_T11, c1to8_T11}},
        {0x3000, {c1to8_T8, c1to8_I4, c1to8_T8, c1to8_T8}},
        {0x2100, {c4_T8, c4_U32, c4_T8, c4_T8}}}},
  };
  return pages[static_cast<int>(op)];
}

// DML_FEATURE_LEVEL's values (DirectML.h).
const std::uint32_t kLevels[] = {0x1000, 0x2000, 0x2100, 0x3000, 0x3100, 0x4000, 0x4100, 0x5000,
                                 0x5100, 0x5200, 0x6000, 0x6100, 0x6200, 0x6300, 0x6400};

bool contains(const Types& types, DataType t) {
  for (DataType u : types)
    if (u == t) return true;
  return false;
}

/// The table that holds at `level`: the newest one whose level is not above it.
const Table* table_at(const Page& p, std::uint32_t level) {
  for (const Table& t : p.tables)
    if (t.from <= level) return &t;
  return nullptr;
}

/// The types of a call's tensors in field order: data tensors share one type.
std::vector<DataType> field_types(Op op, DataType data, DataType index) {
  if (is_scatter(op)) return {data, index, data, data};
  return {data, index, data};
}

/// Which rules (operator, DimensionCount, the data tensors' type, IndicesTensor's type) hold.
struct Verdict {
  bool exists = false, rank = false, data = false, index = false;
  bool accepted() const { return exists && rank && data && index; }
};

Verdict verdict(Op op, std::uint32_t level, int rank, DataType data, DataType index) {
  Verdict v;
  const Page& p = page(op);
  const Table* table = table_at(p, level);
  v.exists = level >= p.introduced && table != nullptr;
  if (!v.exists) return v;
  const std::vector<DataType> types = field_types(op, data, index);
  v.rank = v.data = v.index = true;
  for (std::size_t i = 0; i < types.size(); ++i) {
    const Cell& cell = table->tensors[i];
    v.rank = v.rank && rank >= cell.min_rank && rank <= cell.max_rank;
    bool& type_rule = i == 1 ? v.index : v.data;
    type_rule = type_rule && contains(*cell.types, types[i]);
  }
  return v;
}

/// The lowest level at which a rule holds (0: none), for each rule.
struct Needs {
  std::uint32_t exists = 0, rank = 0, data = 0, index = 0, all = 0;
};

Needs needs(Op op, int rank, DataType data, DataType index) {
  Needs n;
  for (std::uint32_t level : kLevels) {
    const Verdict v = verdict(op, level, rank, data, index);
    if (n.exists == 0 && v.exists) n.exists = level;
    if (n.rank == 0 && v.rank) n.rank = level;
    if (n.data == 0 && v.data) n.data = level;
    if (n.index == 0 && v.index) n.index = level;
    if (n.all == 0 && v.accepted()) n.all = level;
  }
  return n;
}

std::string level_text(std::uint32_t level) {
  char text[8];
  std::snprintf(text, sizeof text, "%X_%X", level >> 12, (level >> 8) & 0xF);
  return text;
}

// ================================================================================================
// One call of each operator with one element per tensor: every tensor has DimensionCount `rank`
// and sizes of 1, which every shape rule accepts (Gather: Axis 0, IndexDimensions 1; the ND
// operators: InputDimensionCount = IndicesDimensionCount = 1), and the index value 0.

constexpr unsigned char kInputByte = 0x11, kUpdatesByte = 0x22, kOutputByte = 0xA5;

struct OneElement {
  Op op;
  int rank;
  DataType data, index;
  std::vector<std::int64_t> sizes;
  alignas(16) unsigned char input[16], indices[16], updates[16], output[16];

  OneElement(Op op_, int rank_, DataType data_, DataType index_)
      : op(op_), rank(rank_), data(data_), index(index_), sizes(static_cast<std::size_t>(rank_), 1) {
    std::memset(input, kInputByte, sizeof input);
    std::memset(indices, 0, sizeof indices);
    std::memset(updates, kUpdatesByte, sizeof updates);
    std::memset(output, kOutputByte, sizeof output);
  }

  std::size_t width() const { return dmlref::element_size(data); }
  bool output_untouched() const {
    for (unsigned char b : output)
      if (b != kOutputByte) return false;
    return true;
  }
  /// The one element is the input's (gathers) or the update's (scatters); nothing else written.
  bool output_is_result() const {
    const unsigned char want = is_scatter(op) ? kUpdatesByte : kInputByte;
    for (std::size_t i = 0; i < sizeof output; ++i)
      if (output[i] != (i < width() ? want : kOutputByte)) return false;
    return true;
  }

  dmlref::TensorDesc in_desc(DataType type, const unsigned char* p) const {
    return {type, static_cast<std::uint32_t>(rank), sizes.data(), nullptr, 16, p};
  }
  dmlref::MutableTensorDesc out_desc() {
    return {data, static_cast<std::uint32_t>(rank), sizes.data(), nullptr, 16, output};
  }

  template <bool Minimum>
  auto dispatch(const Options& o) {
    const auto in = in_desc(data, input), idx = in_desc(index, indices), upd = in_desc(data, updates);
    const auto out = out_desc();
    return call<Minimum>(in, idx, upd, out, o);
  }

  template <bool Minimum>
  auto typed(const Options& o) {
    return harness::with_native_type(data, [&](auto t) {
      return harness::with_index_type(index, [&](auto i) {
        using T = typename decltype(t)::type;
        using I = typename decltype(i)::type;
        const Shape s = Shape::filled(rank, 1);
        const dmlref::TensorView<const T> in(reinterpret_cast<const T*>(input), s);
        const dmlref::TensorView<const I> idx(reinterpret_cast<const I*>(indices), s);
        const dmlref::TensorView<const T> upd(reinterpret_cast<const T*>(updates), s);
        const dmlref::TensorView<T> out(reinterpret_cast<T*>(output), s);
        return call<Minimum>(in, idx, upd, out, o);
      });
    });
  }

  /// The runner's one switch over the operators: Gather Axis 0, IndexDimensions 1; the ND
  /// operators InputDimensionCount = IndicesDimensionCount = 1 (GatherND1: BatchDimensionCount 0).
  template <bool Minimum, class In, class Idx, class Out>
  std::conditional_t<Minimum, Result<std::uint32_t>, Status> call(const In& in, const Idx& idx, const In& upd,
                                                                  const Out& out, const Options& o) const {
    harness::Call c;
    c.op = op;
    if (op == Op::gather || harness::is_nd(op)) c.attr[1] = 1;
    if (harness::is_nd(op)) c.attr[0] = 1;
    c.reduction = reduction;
    c.options = o;
    if constexpr (Minimum) return harness::call_minimum_level(c, in, idx, upd, out);
    else return harness::call_operator(c, in, idx, upd, out);
  }

  dmlref::Reduction reduction = dmlref::Reduction::none;
};

Options at_level(std::uint32_t level) {
  Options o;
  o.feature_level = level;
  return o;
}

std::string describe(Op op, std::uint32_t level, int rank, DataType data, DataType index) {
  return std::string(page(op).name) + " at " + level_text(level) + ", DimensionCount " + std::to_string(rank) +
         ", data " + dmlref::name(data) + ", indices " + dmlref::name(index);
}

/// How often each rule was the one an error named (the grid test's own check that it meets all).
struct Named {
  int operator_type = 0, dimension_count = 0, data_type = 0, index_type = 0;
};
Named named;

/// What a call at `level` must give: the one-element result, or feature_level_too_low naming the
/// rule whose lowest level is the highest (the operator, then DimensionCount, InputTensor's type,
/// IndicesTensor's type on a tie) and that level, with nothing written.
void expect_level_outcome(const Status& s, const OneElement& call, std::uint32_t level, const std::string& where) {
  const Verdict v = verdict(call.op, level, call.rank, call.data, call.index);
  if (v.accepted()) {
    EXPECT_TRUE(s.ok()) << where << ": " << s.message();
    EXPECT_TRUE(call.output_is_result()) << where;
    return;
  }
  ASSERT_EQ(s.code(), ErrorCode::feature_level_too_low) << where << ": " << s.message();
  EXPECT_TRUE(call.output_untouched()) << where;
  const Needs n = needs(call.op, call.rank, call.data, call.index);
  const dmlref::Error& e = s.error();
  EXPECT_STREQ(e.op, page(call.op).name) << where;
  EXPECT_EQ(e.feature_level, level) << where;
  EXPECT_EQ(e.expected.kind, dmlref::ErrorValue::Kind::feature_level) << where;
  EXPECT_EQ(e.expected.unsigned_integer, n.all) << where;
  const std::string needs_text = " needs DML_FEATURE_LEVEL_" + level_text(n.all) + " (";
  if (n.exists == n.all) {
    ++named.operator_type;
    EXPECT_STREQ(e.tensor, "") << where;
    EXPECT_STREQ(e.field, "") << where;
    EXPECT_EQ(s.message(), std::string(page(call.op).name) + ": " + page(call.op).enumerator + needs_text +
                               "feature_level is " + level_text(level) + ")")
        << where;
  } else if (n.rank == n.all) {
    ++named.dimension_count;
    EXPECT_STREQ(e.tensor, "") << where;
    EXPECT_STREQ(e.field, "DimensionCount") << where;
    EXPECT_EQ(e.actual.integer, call.rank) << where;
    // The rank rule in force, if the operator exists at `level`.
    std::string why = "feature_level is " + level_text(level);
    if (v.exists) {
      const Cell& cell = table_at(page(call.op), level)->tensors[0];
      why = "at " + level_text(level) + " " +
            (cell.min_rank == cell.max_rank
                 ? "every tensor has exactly " + std::to_string(cell.min_rank) + " dimensions"
                 : "every tensor has 1 to 8 dimensions");
    }
    EXPECT_EQ(s.message(), std::string(page(call.op).name) + ": DimensionCount " + std::to_string(call.rank) +
                               needs_text + why + ")")
        << where;
  } else {
    const bool data_rule = n.data == n.all;
    ++(data_rule ? named.data_type : named.index_type);
    EXPECT_STREQ(e.tensor, data_rule ? "InputTensor" : "IndicesTensor") << where;
    EXPECT_STREQ(e.field, "DataType") << where;
    EXPECT_EQ(e.actual.data_type, data_rule ? call.data : call.index) << where;
    EXPECT_EQ(s.message(), std::string(page(call.op).name) + ": " + (data_rule ? "InputTensor" : "IndicesTensor") +
                               ".DataType " + dmlref::name(data_rule ? call.data : call.index) + needs_text +
                               "feature_level is " + level_text(level) + ")")
        << where;
  }
}

// ================================================================================================

TEST(FeatureLevels, ConstantsNamesAndParsing) {
  namespace fl = dmlref::feature_level;
  const std::uint32_t constants[] = {fl::v1_0, fl::v2_0, fl::v2_1, fl::v3_0, fl::v3_1, fl::v4_0, fl::v4_1, fl::v5_0,
                                     fl::v5_1, fl::v5_2, fl::v6_0, fl::v6_1, fl::v6_2, fl::v6_3, fl::v6_4};
  const char* names[] = {"1_0", "2_0", "2_1", "3_0", "3_1", "4_0", "4_1", "5_0",
                         "5_1", "5_2", "6_0", "6_1", "6_2", "6_3", "6_4"};
  ASSERT_EQ(std::size(fl::all), std::size(kLevels));
  for (std::size_t i = 0; i < std::size(kLevels); ++i) {
    EXPECT_EQ(constants[i], kLevels[i]);
    EXPECT_EQ(fl::all[i], kLevels[i]);
    EXPECT_TRUE(fl::is_valid(kLevels[i]));
    EXPECT_STREQ(fl::name(kLevels[i]), names[i]);
    const std::string n = names[i];
    const std::string dotted = n.substr(0, 1) + "." + n.substr(2, 1);
    char hex[16];
    std::snprintf(hex, sizeof hex, "0x%X", kLevels[i]);
    EXPECT_EQ(fl::parse(n), kLevels[i]) << n;
    EXPECT_EQ(fl::parse(dotted), kLevels[i]) << dotted;
    EXPECT_EQ(fl::parse(hex), kLevels[i]) << hex;
    EXPECT_EQ(fl::parse("DML_FEATURE_LEVEL_" + n), kLevels[i]) << n;
  }
  for (std::uint32_t bad : {0u, 1u, 0x1001u, 0x1100u, 0x3500u, 0x6500u, 0x7000u, 0xFFFFFFFFu}) {
    EXPECT_FALSE(fl::is_valid(bad)) << bad;
    EXPECT_STREQ(fl::name(bad), "") << bad;
  }
  for (const char* bad : {"", "3", "3_5", "3-0", "30", "0x3500", "0x", "0x3000 ", " 3_0", "3_00", "7.0", "a_b",
                          "0x00000000003000", "DML_FEATURE_LEVEL_", "dml_feature_level_3_0", "0x3g00"})
    EXPECT_EQ(fl::parse(bad), 0u) << "'" << bad << "'";
  EXPECT_EQ(fl::parse("0x03000"), 0x3000u);  // leading zeros are still the value
  EXPECT_EQ(fl::parse("0X6400"), 0x6400u);

  EXPECT_EQ(fl::introduced(dmlref::OperatorType::GATHER), 0x1000u);
  EXPECT_EQ(fl::introduced(dmlref::OperatorType::SCATTER), 0x2000u);
  EXPECT_EQ(fl::introduced(dmlref::OperatorType::GATHER_ELEMENTS), 0x2100u);
  EXPECT_EQ(fl::introduced(dmlref::OperatorType::GATHER_ND), 0x2100u);
  EXPECT_EQ(fl::introduced(dmlref::OperatorType::SCATTER_ND), 0x2100u);
  EXPECT_EQ(fl::introduced(dmlref::OperatorType::GATHER_ND1), 0x3000u);
}

// The whole grid: every operator, level, DimensionCount 1..8, data type and index type, in both
// layers; minimum_feature_level on the same calls.
TEST(FeatureLevels, EveryOperatorLevelRankAndTypeAgainstThePagesTables) {
  int accepted = 0, rejected = 0;
  for (Op op : kOps)
    for (int rank = 1; rank <= 8; ++rank)
      for (DataType data : T11)
        for (DataType index : I4) {
          const Needs n = needs(op, rank, data, index);
          ASSERT_NE(n.all, 0u) << describe(op, 0x6400, rank, data, index);
          for (bool typed : {false, true}) {
            OneElement call(op, rank, data, index);
            const Result<std::uint32_t> minimum = typed ? call.typed<true>(Options()) : call.dispatch<true>(Options());
            const std::string where = describe(op, 0, rank, data, index) + (typed ? " (typed)" : " (dispatch)");
            ASSERT_TRUE(minimum.ok()) << where << ": " << minimum.status().message();
            EXPECT_EQ(*minimum, n.all) << where;
            EXPECT_TRUE(call.output_untouched()) << where;  // minimum_feature_level runs nothing
          }
          for (std::uint32_t level : kLevels) {
            for (bool typed : {false, true}) {
              OneElement call(op, rank, data, index);
              const Status s = typed ? call.typed<false>(at_level(level)) : call.dispatch<false>(at_level(level));
              expect_level_outcome(s, call, level,
                                   describe(op, level, rank, data, index) + (typed ? " (typed)" : " (dispatch)"));
            }
            (verdict(op, level, rank, data, index).accepted() ? accepted : rejected) += 1;
          }
        }
  // 6 operators x 8 ranks x 11 data types x 4 index types x 15 levels, and every rule was named.
  EXPECT_EQ(accepted + rejected, 31680);
  EXPECT_GT(accepted, 0);
  EXPECT_GT(named.operator_type, 0);
  EXPECT_GT(named.dimension_count, 0);
  EXPECT_GT(named.data_type, 0);
  EXPECT_GT(named.index_type, 0);
}

TEST(FeatureLevels, TheIssuesExampleMessages) {
  struct Example {
    Op op;
    int rank;
    DataType data, index;
    std::uint32_t level;
    const char* message;
  };
  const Example examples[] = {
      {Op::gather_nd, 4, DataType::FLOAT32, DataType::INT64, 0x2100,
       "GatherND: IndicesTensor.DataType INT64 needs DML_FEATURE_LEVEL_3_0 (feature_level is 2_1)"},
      {Op::gather, 3, DataType::FLOAT32, DataType::UINT32, 0x2100,
       "Gather: DimensionCount 3 needs DML_FEATURE_LEVEL_3_0 (at 2_1 every tensor has exactly 4 dimensions)"},
      {Op::scatter, 4, DataType::FLOAT32, DataType::UINT32, 0x1000,
       "Scatter: DML_OPERATOR_SCATTER needs DML_FEATURE_LEVEL_2_0 (feature_level is 1_0)"},
      // The level named lifts every rule: 3-D INT64 data at 2_1 needs 4_1, not 3_0.
      {Op::gather_elements, 3, DataType::INT64, DataType::UINT32, 0x2100,
       "GatherElements: InputTensor.DataType INT64 needs DML_FEATURE_LEVEL_4_1 (feature_level is 2_1)"},
  };
  for (const Example& e : examples) {
    OneElement call(e.op, e.rank, e.data, e.index);
    EXPECT_EQ(call.dispatch<false>(at_level(e.level)).message(), e.message);
  }
}

TEST(FeatureLevels, NoLevelIsTodaysBehaviour) {
  for (Op op : kOps)
    for (int rank : {1, 4, 8})
      for (DataType data : T11)
        for (DataType index : I4) {
          OneElement call(op, rank, data, index);
          const Status s = call.dispatch<false>(Options());
          EXPECT_TRUE(s.ok()) << describe(op, 0, rank, data, index) << ": " << s.message();
          EXPECT_TRUE(call.output_is_result()) << describe(op, 0, rank, data, index);
        }
  // A reduction is dmlref's extension, and stays one without a level.
  OneElement add(Op::scatter_nd, 2, DataType::INT32, DataType::INT32);
  add.reduction = dmlref::Reduction::add;
  EXPECT_TRUE(add.dispatch<false>(Options()).ok());
}

TEST(FeatureLevels, ValuesThatAreNoLevelAreInvalidAttributes) {
  for (std::uint32_t bad : {1u, 0x1001u, 0x1100u, 0x3500u, 0x6500u, 0x7000u, 0xFFFFFFFFu})
    for (Op op : kOps)
      for (bool typed : {false, true}) {
        OneElement call(op, 4, DataType::FLOAT32, DataType::UINT32);
        const Status s = typed ? call.typed<false>(at_level(bad)) : call.dispatch<false>(at_level(bad));
        ASSERT_EQ(s.code(), ErrorCode::invalid_attribute) << bad << ": " << s.message();
        EXPECT_STREQ(s.error().field, "feature_level");
        EXPECT_STREQ(s.error().tensor, "");
        EXPECT_EQ(s.error().actual.unsigned_integer, bad);
        EXPECT_TRUE(call.output_untouched());
      }
  OneElement call(Op::gather, 4, DataType::FLOAT32, DataType::UINT32);
  Options o;
  o.binding_rules = static_cast<dmlref::BindingRules>(2);
  const Status s = call.dispatch<false>(o);
  ASSERT_EQ(s.code(), ErrorCode::invalid_attribute) << s.message();
  EXPECT_STREQ(s.error().field, "binding_rules");
  EXPECT_TRUE(call.output_untouched());
}

TEST(FeatureLevels, AScatterReductionIsUnsupportedAtEveryLevel) {
  for (Op op : {Op::scatter, Op::scatter_nd})
    for (dmlref::Reduction r :
         {dmlref::Reduction::add, dmlref::Reduction::mul, dmlref::Reduction::max, dmlref::Reduction::min})
      for (bool typed : {false, true}) {
        for (std::uint32_t level : kLevels) {
          OneElement call(op, 4, DataType::FLOAT32, DataType::UINT32);
          call.reduction = r;
          const Status s = typed ? call.typed<false>(at_level(level)) : call.dispatch<false>(at_level(level));
          ASSERT_EQ(s.code(), ErrorCode::unsupported) << level_text(level) << ": " << s.message();
          EXPECT_STREQ(s.error().field, "Reduction");
          EXPECT_STREQ(s.error().actual.text, dmlref::name(r));
          EXPECT_EQ(s.error().feature_level, level);
          EXPECT_TRUE(call.output_untouched());
        }
        OneElement call(op, 4, DataType::FLOAT32, DataType::UINT32);
        call.reduction = r;
        const Result<std::uint32_t> minimum = typed ? call.typed<true>(Options()) : call.dispatch<true>(Options());
        ASSERT_EQ(minimum.status().code(), ErrorCode::unsupported) << minimum.status().message();
        EXPECT_STREQ(minimum.error().field, "Reduction");
        EXPECT_EQ(minimum.status().message(), std::string(page(op).name) + ": Reduction must be none, but is " +
                                                  dmlref::name(r) +
                                                  " (DirectML's scatters only replace; reductions are dmlref's "
                                                  "extension, at no DML_FEATURE_LEVEL)");
      }
}

// The default checks come first: an error no level lifts is reported at every level, the same as
// minimum_feature_level reports it. Index values come after the level (they are data DirectML
// never sees when it accepts an operator), and minimum_feature_level does not read them.
TEST(FeatureLevels, OrderOfChecks) {
  const float input[4] = {1, 2, 3, 4};
  const std::uint32_t bad_index[1] = {7};
  float output[3] = {};
  const dmlref::TensorView<const float> in(input, {4});
  const dmlref::TensorView<const std::uint32_t> idx(bad_index, {1});
  // Output sizes {3} break the shape rule at every level, and the index value 7 is out of range.
  for (std::uint32_t level : kLevels) {
    const Status s = dmlref::try_gather(in, idx, dmlref::TensorView<float>(output, {3}), {0, 1}, at_level(level));
    EXPECT_EQ(s.code(), ErrorCode::shape_mismatch) << level_text(level) << ": " << s.message();
  }
  const Result<std::uint32_t> broken =
      dmlref::minimum_feature_level(in, idx, dmlref::TensorView<float>(output, {3}), dmlref::GatherParams{0, 1});
  EXPECT_EQ(broken.status().code(), ErrorCode::shape_mismatch);

  const dmlref::TensorView<float> out(output, {1});
  EXPECT_EQ(dmlref::try_gather(in, idx, out, {0, 1}, at_level(0x2100)).code(), ErrorCode::feature_level_too_low);
  // Also in one pass (all_or_nothing off): the level comes before the first write.
  Options one_pass = at_level(0x2100);
  one_pass.all_or_nothing = false;
  const std::uint32_t good_index[1] = {2};
  output[0] = -1;
  const Status s = dmlref::try_gather(in, dmlref::TensorView<const std::uint32_t>(good_index, {1}), out, {0, 1}, one_pass);
  EXPECT_EQ(s.code(), ErrorCode::feature_level_too_low);
  EXPECT_FALSE(s.error().output_partly_written);
  EXPECT_EQ(output[0], -1.0f);
  EXPECT_EQ(dmlref::try_gather(in, idx, out, {0, 1}, at_level(0x3000)).code(), ErrorCode::index_out_of_range);
  const Result<std::uint32_t> minimum = dmlref::minimum_feature_level(in, idx, out, dmlref::GatherParams{0, 1});
  ASSERT_TRUE(minimum.ok()) << minimum.status().message();
  EXPECT_EQ(*minimum, 0x3000u);
  // Options::feature_level does not matter to minimum_feature_level, even a value that is no level.
  const Result<std::uint32_t> ignored =
      dmlref::minimum_feature_level(in, idx, out, dmlref::GatherParams{0, 1}, at_level(0x3500));
  ASSERT_TRUE(ignored.ok());
  EXPECT_EQ(*ignored, 0x3000u);
}

// The ONNX helpers apply the level to the DirectML call they make (its padded rank), and name
// ONNX's tensors and attributes.
TEST(FeatureLevels, OnnxHelpersApplyTheLevelToTheirDirectMLCall) {
  const float data[8] = {1, 2, 3, 4, 5, 6, 7, 8};
  const std::int64_t index64[2] = {1, 0};
  const std::uint32_t index32[2] = {1, 0};
  float out[8] = {};
  const std::int64_t data_sizes[4] = {1, 1, 2, 4}, index_sizes[4] = {1, 1, 1, 2}, out_sizes[4] = {1, 1, 2, 4};
  // 4-D data (a 4-D DirectML call) with INT64 indices at 2_1: the indices' type needs 3_0.
  const dmlref::TensorDesc d4{DataType::FLOAT32, 4, data_sizes, nullptr, sizeof data, data};
  const dmlref::TensorDesc i64{DataType::INT64, 1, index_sizes + 3, nullptr, sizeof index64, index64};
  const dmlref::TensorDesc i32{DataType::UINT32, 1, index_sizes + 3, nullptr, sizeof index32, index32};
  const std::int64_t gathered_sizes[4] = {1, 1, 2, 4};
  const dmlref::MutableTensorDesc o4{DataType::FLOAT32, 4, gathered_sizes, nullptr, sizeof out, out};
  // ONNX Gather along axis 2 of {1,1,2,4} with 1-D indices {2}: output {1,1,2,4}.
  Status s = dmlref::onnx::try_gather(d4, i64, o4, 2, at_level(0x2100));
  ASSERT_EQ(s.code(), ErrorCode::feature_level_too_low) << s.message();
  EXPECT_EQ(s.message(), "Gather: indices.DataType INT64 needs DML_FEATURE_LEVEL_3_0 (feature_level is 2_1)");
  s = dmlref::onnx::try_gather(d4, i32, o4, 2, at_level(0x2100));
  ASSERT_TRUE(s.ok()) << s.message();
  EXPECT_EQ(out[0], 5.0f);
  EXPECT_EQ(out[4], 1.0f);
  // 2-D data: the DirectML call is 2-D, which 2_1 does not have; the helper pads no further.
  const dmlref::TensorDesc d2{DataType::FLOAT32, 2, data_sizes + 2, nullptr, sizeof data, data};
  const dmlref::MutableTensorDesc o2{DataType::FLOAT32, 2, out_sizes + 2, nullptr, sizeof out, out};
  s = dmlref::onnx::try_gather(d2, i32, o2, 0, at_level(0x2100));
  ASSERT_EQ(s.code(), ErrorCode::feature_level_too_low) << s.message();
  EXPECT_EQ(s.message(), "Gather: DimensionCount 2 needs DML_FEATURE_LEVEL_3_0 (at 2_1 every tensor has exactly 4 "
                         "dimensions)");
  // A reduction under a level names ONNX's attribute.
  const std::int64_t upd_sizes[2] = {1, 2};
  const float updates[2] = {10, 20};
  float scattered[8] = {};
  const dmlref::TensorDesc idx2{DataType::INT64, 2, upd_sizes, nullptr, sizeof index64, index64};
  const dmlref::TensorDesc upd2{DataType::FLOAT32, 2, upd_sizes, nullptr, sizeof updates, updates};
  const dmlref::MutableTensorDesc s2{DataType::FLOAT32, 2, data_sizes + 2, nullptr, sizeof scattered, scattered};
  s = dmlref::onnx::try_scatter_elements(d2, idx2, upd2, s2, 1, dmlref::Reduction::add, at_level(0x6400));
  ASSERT_EQ(s.code(), ErrorCode::unsupported) << s.message();
  EXPECT_STREQ(s.error().field, "reduction");
  EXPECT_STREQ(s.error().op, "ScatterElements");
  EXPECT_EQ(scattered[0], 0.0f);
  s = dmlref::onnx::try_scatter_elements(d2, idx2, upd2, s2, 1, dmlref::Reduction::none, at_level(0x6400));
  ASSERT_TRUE(s.ok()) << s.message();
  EXPECT_EQ(scattered[0], 20.0f);
  EXPECT_EQ(scattered[1], 10.0f);
  // An empty tensor makes no DirectML call: no level applies, but the option's value is checked.
  const std::int64_t empty_sizes[1] = {0};
  const dmlref::TensorDesc no_indices{DataType::INT64, 1, empty_sizes, nullptr, 0, nullptr};
  const std::int64_t empty_out_sizes[2] = {0, 4};
  const dmlref::MutableTensorDesc no_out{DataType::FLOAT32, 2, empty_out_sizes, nullptr, 0, nullptr};
  EXPECT_TRUE(dmlref::onnx::try_gather(d2, no_indices, no_out, 0, at_level(0x1000)).ok());
  EXPECT_EQ(dmlref::onnx::try_gather(d2, no_indices, no_out, 0, at_level(0x3500)).code(),
            ErrorCode::invalid_attribute);
}

}  // namespace
