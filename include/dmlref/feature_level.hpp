#ifndef DMLREF_FEATURE_LEVEL_HPP
#define DMLREF_FEATURE_LEVEL_HPP

/// DirectML's feature levels for the six gather/scatter operators: the DML_FEATURE_LEVEL values,
/// and, per operator and level, the dimension counts and data types DirectML accepts, as the
/// operator pages' "Tensor support" tables print them (docs/directml.md, "Feature levels").
/// Options::feature_level applies them to a call; minimum_feature_level() (in each operator's
/// header) finds the lowest level that accepts one.

#include <cstdint>
#include <string_view>

#include "data_type.hpp"
#include "detail/tensor.hpp"
#include "status.hpp"

namespace dmlref {

/// DirectML's DML_OPERATOR_TYPE values of the six operators (SCATTER is SCATTER_ELEMENTS).
enum class OperatorType : std::uint32_t {
  GATHER = 67,
  SCATTER = 94,
  GATHER_ELEMENTS = 107,
  GATHER_ND = 108,
  SCATTER_ND = 109,
  GATHER_ND1 = 140,
};

namespace feature_level {

/// DML_FEATURE_LEVEL_1_0 ... DML_FEATURE_LEVEL_6_4, with DirectML's values.
inline constexpr std::uint32_t v1_0 = 0x1000;
inline constexpr std::uint32_t v2_0 = 0x2000;
inline constexpr std::uint32_t v2_1 = 0x2100;
inline constexpr std::uint32_t v3_0 = 0x3000;
inline constexpr std::uint32_t v3_1 = 0x3100;
inline constexpr std::uint32_t v4_0 = 0x4000;
inline constexpr std::uint32_t v4_1 = 0x4100;
inline constexpr std::uint32_t v5_0 = 0x5000;
inline constexpr std::uint32_t v5_1 = 0x5100;
inline constexpr std::uint32_t v5_2 = 0x5200;
inline constexpr std::uint32_t v6_0 = 0x6000;
inline constexpr std::uint32_t v6_1 = 0x6100;
inline constexpr std::uint32_t v6_2 = 0x6200;
inline constexpr std::uint32_t v6_3 = 0x6300;
inline constexpr std::uint32_t v6_4 = 0x6400;

/// Every level, lowest first.
inline constexpr std::uint32_t all[] = {v1_0, v2_0, v2_1, v3_0, v3_1, v4_0, v4_1, v5_0,
                                        v5_1, v5_2, v6_0, v6_1, v6_2, v6_3, v6_4};

/// True for the fifteen DML_FEATURE_LEVEL values (not for 0, which Options reads as "no level").
constexpr bool is_valid(std::uint32_t level) noexcept {
  for (std::uint32_t known : all)
    if (known == level) return true;
  return false;
}

/// DirectML's name of a level without its prefix: "3_0" for v3_0; "" for a value that is none.
constexpr const char* name(std::uint32_t level) noexcept {
  switch (level) {
    case v1_0: return "1_0";
    case v2_0: return "2_0";
    case v2_1: return "2_1";
    case v3_0: return "3_0";
    case v3_1: return "3_1";
    case v4_0: return "4_0";
    case v4_1: return "4_1";
    case v5_0: return "5_0";
    case v5_1: return "5_1";
    case v5_2: return "5_2";
    case v6_0: return "6_0";
    case v6_1: return "6_1";
    case v6_2: return "6_2";
    case v6_3: return "6_3";
    case v6_4: return "6_4";
    default: return "";
  }
}

/// The level a text names: "3_0", "3.0", "0x3000" or "DML_FEATURE_LEVEL_3_0"; 0 if it names none.
constexpr std::uint32_t parse(std::string_view text) noexcept {
  constexpr std::string_view prefix = "DML_FEATURE_LEVEL_";
  if (text.substr(0, prefix.size()) == prefix) text.remove_prefix(prefix.size());
  std::uint32_t level = 0;
  if (text.size() > 2 && text[0] == '0' && (text[1] == 'x' || text[1] == 'X')) {
    if (text.size() > 10) return 0;
    for (char c : text.substr(2)) {
      const int digit = c >= '0' && c <= '9'   ? c - '0'
                        : c >= 'a' && c <= 'f' ? c - 'a' + 10
                        : c >= 'A' && c <= 'F' ? c - 'A' + 10
                                               : -1;
      if (digit < 0) return 0;
      level = level * 16 + static_cast<std::uint32_t>(digit);
    }
  } else if (text.size() == 3 && text[0] >= '0' && text[0] <= '9' && (text[1] == '_' || text[1] == '.') &&
             text[2] >= '0' && text[2] <= '9') {
    level = static_cast<std::uint32_t>(text[0] - '0') << 12 | static_cast<std::uint32_t>(text[2] - '0') << 8;
  }
  return is_valid(level) ? level : 0;
}

}  // namespace feature_level

namespace detail {

/// A set of data types: bit t is DataType value t.
using TypeSet = std::uint32_t;

constexpr TypeSet type_bit(DataType t) noexcept { return TypeSet{1} << static_cast<std::uint32_t>(t); }

// The pages' type lists (docs/directml.md names them as the spec does).
inline constexpr TypeSet kT2 = type_bit(DataType::FLOAT32) | type_bit(DataType::FLOAT16);
inline constexpr TypeSet kT8 = kT2 | type_bit(DataType::INT32) | type_bit(DataType::INT16) |
                               type_bit(DataType::INT8) | type_bit(DataType::UINT32) |
                               type_bit(DataType::UINT16) | type_bit(DataType::UINT8);
inline constexpr TypeSet kT11 = kT8 | type_bit(DataType::FLOAT64) | type_bit(DataType::INT64) |
                                type_bit(DataType::UINT64);
inline constexpr TypeSet kU32 = type_bit(DataType::UINT32);
inline constexpr TypeSet kI4 = type_bit(DataType::INT64) | type_bit(DataType::INT32) |
                               type_bit(DataType::UINT64) | type_bit(DataType::UINT32);

/// One "DML_FEATURE_LEVEL_X_Y and above" table of an operator page. Every tensor has the same
/// dimension counts; InputTensor, UpdatesTensor and OutputTensor the same data types.
struct LevelTable {
  std::uint32_t from;
  int min_rank, max_rank;
  const char* ranks;  ///< the rank rule in words, for errors
  TypeSet data, indices;
};

/// An operator's tables, oldest first, and the level it appeared in.
struct OperatorLevels {
  OperatorType type;
  const char* enumerator;
  std::uint32_t introduced;
  int count;
  LevelTable tables[4];
};

inline constexpr const char* kExactlyFour = "every tensor has exactly 4 dimensions";
inline constexpr const char* kOneToEight = "every tensor has 1 to 8 dimensions";

/// The pages' tables. SCATTER's page prints a 1_0 table, but DirectML.h and the feature level
/// history add the operator in 2_0: it exists from 2_0, with the "1_0" table (docs/semantics.md).
inline constexpr OperatorLevels kOperatorLevels[] = {
    {OperatorType::GATHER, "DML_OPERATOR_GATHER", feature_level::v1_0, 4,
     {{feature_level::v1_0, 4, 4, kExactlyFour, kT2, kU32},
      {feature_level::v2_1, 4, 4, kExactlyFour, kT8, kU32},
      {feature_level::v3_0, 1, 8, kOneToEight, kT8, kI4},
      {feature_level::v4_1, 1, 8, kOneToEight, kT11, kI4}}},
    {OperatorType::GATHER_ELEMENTS, "DML_OPERATOR_GATHER_ELEMENTS", feature_level::v2_1, 3,
     {{feature_level::v2_1, 4, 4, kExactlyFour, kT8, kU32},
      {feature_level::v3_0, 1, 8, kOneToEight, kT8, kI4},
      {feature_level::v4_1, 1, 8, kOneToEight, kT11, kI4}}},
    {OperatorType::GATHER_ND, "DML_OPERATOR_GATHER_ND", feature_level::v2_1, 3,
     {{feature_level::v2_1, 4, 4, kExactlyFour, kT8, kU32},
      {feature_level::v3_0, 1, 8, kOneToEight, kT8, kI4},
      {feature_level::v4_1, 1, 8, kOneToEight, kT11, kI4}}},
    {OperatorType::GATHER_ND1, "DML_OPERATOR_GATHER_ND1", feature_level::v3_0, 2,
     {{feature_level::v3_0, 1, 8, kOneToEight, kT8, kI4},
      {feature_level::v4_1, 1, 8, kOneToEight, kT11, kI4}}},
    {OperatorType::SCATTER, "DML_OPERATOR_SCATTER", feature_level::v2_0, 4,
     {{feature_level::v1_0, 4, 4, kExactlyFour, kT2, kU32},
      {feature_level::v2_1, 4, 4, kExactlyFour, kT8, kU32},
      {feature_level::v3_0, 1, 8, kOneToEight, kT8, kI4},
      {feature_level::v4_1, 1, 8, kOneToEight, kT11, kI4}}},
    {OperatorType::SCATTER_ND, "DML_OPERATOR_SCATTER_ND", feature_level::v2_1, 3,
     {{feature_level::v2_1, 4, 4, kExactlyFour, kT8, kU32},
      {feature_level::v3_0, 1, 8, kOneToEight, kT8, kI4},
      {feature_level::v4_1, 1, 8, kOneToEight, kT11, kI4}}},
};

constexpr const OperatorLevels& levels_of(OperatorType type) noexcept {
  for (const OperatorLevels& op : kOperatorLevels)
    if (op.type == type) return op;
  return kOperatorLevels[0];  // unreachable: every OperatorType has its tables
}

// The lowest level of a rule is the first table that satisfies it only because every table is a
// superset of the one before (levels are supersets, "DML_FEATURE_LEVEL enumeration").
constexpr bool tables_grow() noexcept {
  for (const OperatorLevels& op : kOperatorLevels)
    for (int i = 1; i < op.count; ++i) {
      const LevelTable &a = op.tables[i - 1], &b = op.tables[i];
      if (b.from <= a.from || b.min_rank > a.min_rank || b.max_rank < a.max_rank || (a.data & ~b.data) != 0 ||
          (a.indices & ~b.indices) != 0)
        return false;
    }
  return true;
}
static_assert(tables_grow(), "each feature-level table must accept everything the one before accepts");

/// Per rule of a call, the lowest level at which it holds (0: at none).
struct LevelNeeds {
  std::uint32_t operator_type = 0, dimension_count = 0, data_type = 0, index_type = 0;

  /// The lowest level that accepts the call: the highest of the rules' (0 if one holds at none).
  constexpr std::uint32_t minimum() const noexcept {
    if (operator_type == 0 || dimension_count == 0 || data_type == 0 || index_type == 0) return 0;
    std::uint32_t m = operator_type > dimension_count ? operator_type : dimension_count;
    m = m > data_type ? m : data_type;
    return m > index_type ? m : index_type;
  }
};

constexpr LevelNeeds level_needs(OperatorType type, int rank, DataType data, DataType indices) noexcept {
  const OperatorLevels& op = levels_of(type);
  LevelNeeds needs;
  needs.operator_type = op.introduced;
  for (int i = 0; i < op.count; ++i) {
    const LevelTable& table = op.tables[i];
    const std::uint32_t level = table.from > op.introduced ? table.from : op.introduced;
    if (needs.dimension_count == 0 && rank >= table.min_rank && rank <= table.max_rank) needs.dimension_count = level;
    if (needs.data_type == 0 && (table.data & type_bit(data)) != 0) needs.data_type = level;
    if (needs.index_type == 0 && (table.indices & type_bit(indices)) != 0) needs.index_type = level;
  }
  return needs;
}

/// The table DirectML applies at `level` (the operator exists there).
constexpr const LevelTable& table_at(const OperatorLevels& op, std::uint32_t level) noexcept {
  int i = 0;
  while (i + 1 < op.count && op.tables[i + 1].from <= level) ++i;
  return op.tables[i];
}

/// Why a call (rank, data and index types valid, as the default checks leave them) is not one
/// DirectML accepts at `level`: the rule whose lowest level is highest, so that the level the error
/// names accepts the whole call (ties: the operator, DimensionCount, InputTensor, IndicesTensor).
DMLREF_COLD inline Status feature_level_error(const char* op, OperatorType type, int rank, DataType data,
                                                  DataType indices, std::uint32_t level) noexcept {
  const OperatorLevels& levels = levels_of(type);
  const LevelNeeds needs = level_needs(type, rank, data, indices);
  const std::uint32_t needed = needs.minimum();
  Error e;
  e.code = ErrorCode::feature_level_too_low;
  e.op = op;
  e.feature_level = level;
  e.expected = ErrorValue::of_feature_level(needed);
  if (needs.operator_type == needed) {
    e.actual = ErrorValue::of_text(levels.enumerator);
  } else if (needs.dimension_count == needed) {
    e.field = "DimensionCount";
    e.actual = ErrorValue::of(static_cast<std::int64_t>(rank));
    if (level >= levels.introduced) e.rule = table_at(levels, level).ranks;  // the rule in force at `level`
  } else if (needs.data_type == needed) {
    e.tensor = "InputTensor";
    e.field = "DataType";
    e.actual = ErrorValue::of(data);
  } else {
    e.tensor = "IndicesTensor";
    e.field = "DataType";
    e.actual = ErrorValue::of(indices);
  }
  return Status(e);
}

/// Options::feature_level must be 0 or a DML_FEATURE_LEVEL, binding_rules one of its enumerators.
DMLREF_COLD inline Status options_error(const char* op, std::uint32_t level, std::uint32_t binding_rules) noexcept {
  if (level != 0 && !feature_level::is_valid(level))
    return error_status(ErrorCode::invalid_attribute, op, "", "feature_level", -1,
                        ErrorValue::of_text("0 or a DML_FEATURE_LEVEL (0x1000, 0x2000, 0x2100, 0x3000, 0x3100, "
                                            "0x4000, 0x4100, 0x5000, 0x5100, 0x5200, 0x6000, 0x6100, 0x6200, "
                                            "0x6300 or 0x6400)"),
                        ErrorValue::of_unsigned(level), "Options::feature_level");
  return error_status(ErrorCode::invalid_attribute, op, "", "binding_rules", -1,
                      ErrorValue::of_text("relaxed or directml"), ErrorValue::of_unsigned(binding_rules),
                      "Options::binding_rules");
}

}  // namespace detail

namespace feature_level {

/// The level that introduced the operator (SCATTER: 2_0; docs/semantics.md says why not 1_0).
constexpr std::uint32_t introduced(OperatorType type) noexcept { return detail::levels_of(type).introduced; }

}  // namespace feature_level

}  // namespace dmlref

#endif  // DMLREF_FEATURE_LEVEL_HPP
