#ifndef DMLREF_DATA_TYPE_HPP
#define DMLREF_DATA_TYPE_HPP

#include <cstddef>
#include <cstdint>
#include <type_traits>

#include "float16.hpp"

namespace dmlref {

/// One list of the eleven DirectML data types: (enumerator, DML_TENSOR_DATA_TYPE value, storage
/// type, kind). Everything else about data types is generated from it.
#define DMLREF_FOR_EACH_DATA_TYPE(X)          \
  X(FLOAT32, 1, float, floating)              \
  X(FLOAT16, 2, ::dmlref::float16, floating)  \
  X(UINT32, 3, std::uint32_t, unsigned_integer) \
  X(UINT16, 4, std::uint16_t, unsigned_integer) \
  X(UINT8, 5, std::uint8_t, unsigned_integer)   \
  X(INT32, 6, std::int32_t, signed_integer)     \
  X(INT16, 7, std::int16_t, signed_integer)     \
  X(INT8, 8, std::int8_t, signed_integer)       \
  X(FLOAT64, 9, double, floating)               \
  X(UINT64, 10, std::uint64_t, unsigned_integer) \
  X(INT64, 11, std::int64_t, signed_integer)

/// The four types an IndicesTensor may have (feature level 3_0 and later).
#define DMLREF_FOR_EACH_INDEX_TYPE(X) \
  X(INT32, 6, std::int32_t)           \
  X(INT64, 11, std::int64_t)          \
  X(UINT32, 3, std::uint32_t)         \
  X(UINT64, 10, std::uint64_t)

/// DirectML's DML_TENSOR_DATA_TYPE, with the same numeric values (UNKNOWN is never valid).
enum class DataType : std::uint32_t {
  UNKNOWN = 0,
#define DMLREF_ENUMERATOR(name, value, type, kind) name = value,
  DMLREF_FOR_EACH_DATA_TYPE(DMLREF_ENUMERATOR)
#undef DMLREF_ENUMERATOR
};

static_assert(static_cast<std::uint32_t>(DataType::FLOAT32) == 1 &&
                  static_cast<std::uint32_t>(DataType::INT64) == 11,
              "DataType values must equal DirectML's DML_TENSOR_DATA_TYPE");

/// How a data type's bits are read.
enum class TypeKind : std::uint8_t { floating, signed_integer, unsigned_integer };

/// True for the eleven DirectML data types dmlref supports (not UNKNOWN, not out-of-range values).
constexpr bool is_valid(DataType type) noexcept {
  switch (type) {
#define DMLREF_CASE(name, value, storage, kind) case DataType::name:
    DMLREF_FOR_EACH_DATA_TYPE(DMLREF_CASE)
#undef DMLREF_CASE
    return true;
    case DataType::UNKNOWN:
      return false;
  }
  return false;
}

/// True for INT32, INT64, UINT32, UINT64: the types an IndicesTensor may have.
constexpr bool is_index_type(DataType type) noexcept {
  switch (type) {
    case DataType::INT32:
    case DataType::INT64:
    case DataType::UINT32:
    case DataType::UINT64:
      return true;
    case DataType::UNKNOWN:
    case DataType::FLOAT32:
    case DataType::FLOAT16:
    case DataType::FLOAT64:
    case DataType::INT16:
    case DataType::INT8:
    case DataType::UINT16:
    case DataType::UINT8:
      return false;
  }
  return false;
}

/// Size of one element in bytes; 0 for UNKNOWN or invalid values.
constexpr std::size_t element_size(DataType type) noexcept {
  switch (type) {
#define DMLREF_CASE(name, value, storage, kind) \
  case DataType::name:                          \
    return sizeof(storage);
    DMLREF_FOR_EACH_DATA_TYPE(DMLREF_CASE)
#undef DMLREF_CASE
    case DataType::UNKNOWN:
      return 0;
  }
  return 0;
}

/// How the type's bits are read (meaningful only for valid types).
constexpr TypeKind type_kind(DataType type) noexcept {
  switch (type) {
#define DMLREF_CASE(name, value, storage, kind) \
  case DataType::name:                          \
    return TypeKind::kind;
    DMLREF_FOR_EACH_DATA_TYPE(DMLREF_CASE)
#undef DMLREF_CASE
    case DataType::UNKNOWN:
      break;
  }
  return TypeKind::unsigned_integer;
}

/// True for the signed integer types (whose negative indices count from the end).
constexpr bool is_signed_integer(DataType type) noexcept {
  return is_valid(type) && type_kind(type) == TypeKind::signed_integer;
}

/// DirectML's spelling: "FLOAT32", ...; "UNKNOWN" for anything else.
constexpr const char* name(DataType type) noexcept {
  switch (type) {
#define DMLREF_CASE(name_, value, storage, kind) \
  case DataType::name_:                          \
    return #name_;
    DMLREF_FOR_EACH_DATA_TYPE(DMLREF_CASE)
#undef DMLREF_CASE
    case DataType::UNKNOWN:
      break;
  }
  return "UNKNOWN";
}

/// `data_type_of<T>` is the DataType whose storage type is T (const ignored); no value otherwise.
template <class T, class = void>
struct data_type_of {};
#define DMLREF_TRAIT(name_, value, storage, kind)                                  \
  template <>                                                                     \
  struct data_type_of<storage> : std::integral_constant<DataType, DataType::name_> {};
DMLREF_FOR_EACH_DATA_TYPE(DMLREF_TRAIT)
#undef DMLREF_TRAIT
template <class T>
struct data_type_of<const T> : data_type_of<T> {};

template <class T>
inline constexpr DataType data_type_v = data_type_of<T>::value;

/// True when T is one of the eleven storage types.
template <class T, class = void>
struct is_element_type : std::false_type {};
template <class T>
struct is_element_type<T, std::void_t<decltype(data_type_of<T>::value)>> : std::true_type {};
template <class T>
inline constexpr bool is_element_type_v = is_element_type<T>::value;

/// True when T can be the element type of an IndicesTensor.
template <class T>
inline constexpr bool is_index_element_type_v =
    is_element_type_v<T> && is_index_type(data_type_of<T>::value);

/// `storage_type_t<DataType::FLOAT32>` is float, and so on.
template <DataType type>
struct storage_type {};
#define DMLREF_TRAIT(name_, value, storage, kind) \
  template <>                                    \
  struct storage_type<DataType::name_> {         \
    using type = storage;                        \
  };
DMLREF_FOR_EACH_DATA_TYPE(DMLREF_TRAIT)
#undef DMLREF_TRAIT
template <DataType type>
using storage_type_t = typename storage_type<type>::type;

}  // namespace dmlref

#endif  // DMLREF_DATA_TYPE_HPP
