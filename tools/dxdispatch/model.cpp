// Reads and validates DxDispatch model files (see model.hpp and docs/dxdispatch.md).
#include "model.hpp"

#include <dmlref/npy.hpp>
#include <dmlref/ops/gather.hpp>
#include <dmlref/ops/gather_elements.hpp>
#include <dmlref/ops/gather_nd.hpp>
#include <dmlref/ops/scatter.hpp>
#include <dmlref/ops/scatter_nd.hpp>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <utility>

#include "json_text.hpp"

namespace dxdispatch {

using dmlref::DataType;
__extension__ typedef unsigned __int128 u128;  // products of two 64-bit values
using json = Json;

const char* dml_name(Operator op) noexcept {
  switch (op) {
    case Operator::gather:
      return "DML_OPERATOR_GATHER";
    case Operator::gather_elements:
      return "DML_OPERATOR_GATHER_ELEMENTS";
    case Operator::gather_nd:
      return "DML_OPERATOR_GATHER_ND";
    case Operator::gather_nd1:
      return "DML_OPERATOR_GATHER_ND1";
    case Operator::scatter:
      return "DML_OPERATOR_SCATTER";
    case Operator::scatter_nd:
      return "DML_OPERATOR_SCATTER_ND";
  }
  return "DML_OPERATOR_INVALID";
}

const char* role_name(Role role) noexcept {
  switch (role) {
    case kInput:
      return "InputTensor";
    case kIndices:
      return "IndicesTensor";
    case kUpdates:
      return "UpdatesTensor";
    case kOutput:
      return "OutputTensor";
    case kRoleCount:
      break;
  }
  return "";
}

bool has_role(Operator op, Role role) noexcept {
  return role != kUpdates || op == Operator::scatter || op == Operator::scatter_nd;
}

std::uint16_t float16_bits_toward_zero(float value) noexcept {
  std::uint32_t x = 0;
  std::memcpy(&x, &value, sizeof x);
  const std::uint32_t sign = (x >> 16) & 0x8000u;
  const std::uint32_t exponent = (x >> 23) & 0xFFu;
  const std::uint32_t mantissa = x & 0x7FFFFFu;
  // Truncation keeps the top 10 mantissa bits of a NaN too, as half.hpp's tables do.
  if (exponent == 0xFFu) return static_cast<std::uint16_t>(sign | 0x7C00u | (mantissa >> 13));
  const int e = static_cast<int>(exponent) - 127 + 15;  // biased half exponent
  if (e >= 31) return static_cast<std::uint16_t>(sign | 0x7C00u);
  if (e >= 1) return static_cast<std::uint16_t>(sign | (static_cast<std::uint32_t>(e) << 10) | (mantissa >> 13));
  // Half subnormal (or zero): the significand with its implicit bit, shifted down and truncated.
  const int shift = 14 - e;
  if (exponent == 0 || shift >= 32) return static_cast<std::uint16_t>(sign);
  return static_cast<std::uint16_t>(sign | ((mantissa | 0x800000u) >> shift));
}

namespace {

// ---- names ---------------------------------------------------------------------------------------------

constexpr std::string_view kDataTypePrefix = "DML_TENSOR_DATA_TYPE_";
constexpr std::string_view kOperatorPrefix = "DML_OPERATOR_";

std::string_view without_prefix(std::string_view s, std::string_view prefix) {
  return s.substr(0, prefix.size()) == prefix ? s.substr(prefix.size()) : s;
}

/// A DML_TENSOR_DATA_TYPE name, full or short. UNKNOWN is returned as UNKNOWN; nullopt: not a name.
std::optional<DataType> data_type_named(std::string_view name, bool& four_bit) {
  const std::string_view s = without_prefix(name, kDataTypePrefix);
  four_bit = s == "UINT4" || s == "INT4";
  if (s == "UNKNOWN") return DataType::UNKNOWN;
#define DXDISPATCH_TYPE_NAME(enumerator, value, storage, kind) \
  if (s == #enumerator) return DataType::enumerator;
  DMLREF_FOR_EACH_DATA_TYPE(DXDISPATCH_TYPE_NAME)
#undef DXDISPATCH_TYPE_NAME
  return std::nullopt;
}

constexpr const char* kDataTypeNames =
    "FLOAT16, FLOAT32, FLOAT64, INT8, INT16, INT32, INT64, UINT8, UINT16, UINT32, UINT64 "
    "(or with the DML_TENSOR_DATA_TYPE_ prefix)";

/// Every DML_OPERATOR_TYPE name of DirectML.h (up to DML_TARGET_VERSION 0x6400), without the prefix.
/// dmlref runs six of them; the others are reported as unsupported rather than unknown.
// clang-format off
constexpr const char* kDirectMLOperators[] = {
    "ELEMENT_WISE_IDENTITY", "ELEMENT_WISE_ABS", "ELEMENT_WISE_ACOS", "ELEMENT_WISE_ADD", "ELEMENT_WISE_ASIN",
    "ELEMENT_WISE_ATAN", "ELEMENT_WISE_CEIL", "ELEMENT_WISE_CLIP", "ELEMENT_WISE_COS", "ELEMENT_WISE_DIVIDE",
    "ELEMENT_WISE_EXP", "ELEMENT_WISE_FLOOR", "ELEMENT_WISE_LOG", "ELEMENT_WISE_LOGICAL_AND",
    "ELEMENT_WISE_LOGICAL_EQUALS", "ELEMENT_WISE_LOGICAL_GREATER_THAN", "ELEMENT_WISE_LOGICAL_LESS_THAN",
    "ELEMENT_WISE_LOGICAL_NOT", "ELEMENT_WISE_LOGICAL_OR", "ELEMENT_WISE_LOGICAL_XOR", "ELEMENT_WISE_MAX",
    "ELEMENT_WISE_MEAN", "ELEMENT_WISE_MIN", "ELEMENT_WISE_MULTIPLY", "ELEMENT_WISE_POW",
    "ELEMENT_WISE_CONSTANT_POW", "ELEMENT_WISE_RECIP", "ELEMENT_WISE_SIN", "ELEMENT_WISE_SQRT",
    "ELEMENT_WISE_SUBTRACT", "ELEMENT_WISE_TAN", "ELEMENT_WISE_THRESHOLD", "ELEMENT_WISE_QUANTIZE_LINEAR",
    "ELEMENT_WISE_DEQUANTIZE_LINEAR", "ACTIVATION_ELU", "ACTIVATION_HARDMAX", "ACTIVATION_HARD_SIGMOID",
    "ACTIVATION_IDENTITY", "ACTIVATION_LEAKY_RELU", "ACTIVATION_LINEAR", "ACTIVATION_LOG_SOFTMAX",
    "ACTIVATION_PARAMETERIZED_RELU", "ACTIVATION_PARAMETRIC_SOFTPLUS", "ACTIVATION_RELU", "ACTIVATION_SCALED_ELU",
    "ACTIVATION_SCALED_TANH", "ACTIVATION_SIGMOID", "ACTIVATION_SOFTMAX", "ACTIVATION_SOFTPLUS",
    "ACTIVATION_SOFTSIGN", "ACTIVATION_TANH", "ACTIVATION_THRESHOLDED_RELU", "CONVOLUTION", "GEMM", "REDUCE",
    "AVERAGE_POOLING", "LP_POOLING", "MAX_POOLING", "ROI_POOLING", "SLICE", "CAST", "SPLIT", "JOIN", "PADDING",
    "VALUE_SCALE_2D", "UPSAMPLE_2D", "GATHER", "SPACE_TO_DEPTH", "DEPTH_TO_SPACE", "TILE", "TOP_K",
    "BATCH_NORMALIZATION", "MEAN_VARIANCE_NORMALIZATION", "LOCAL_RESPONSE_NORMALIZATION", "LP_NORMALIZATION", "RNN",
    "LSTM", "GRU", "ELEMENT_WISE_SIGN", "ELEMENT_WISE_IS_NAN", "ELEMENT_WISE_ERF", "ELEMENT_WISE_SINH",
    "ELEMENT_WISE_COSH", "ELEMENT_WISE_TANH", "ELEMENT_WISE_ASINH", "ELEMENT_WISE_ACOSH", "ELEMENT_WISE_ATANH",
    "ELEMENT_WISE_IF", "ELEMENT_WISE_ADD1", "ACTIVATION_SHRINK", "MAX_POOLING1", "MAX_UNPOOLING", "DIAGONAL_MATRIX",
    "SCATTER_ELEMENTS", "SCATTER", "ONE_HOT", "RESAMPLE", "ELEMENT_WISE_BIT_SHIFT_LEFT",
    "ELEMENT_WISE_BIT_SHIFT_RIGHT", "ELEMENT_WISE_ROUND", "ELEMENT_WISE_IS_INFINITY",
    "ELEMENT_WISE_MODULUS_TRUNCATE", "ELEMENT_WISE_MODULUS_FLOOR", "FILL_VALUE_CONSTANT", "FILL_VALUE_SEQUENCE",
    "CUMULATIVE_SUMMATION", "REVERSE_SUBSEQUENCES", "GATHER_ELEMENTS", "GATHER_ND", "SCATTER_ND", "MAX_POOLING2",
    "SLICE1", "TOP_K1", "DEPTH_TO_SPACE1", "SPACE_TO_DEPTH1", "MEAN_VARIANCE_NORMALIZATION1", "RESAMPLE1",
    "MATRIX_MULTIPLY_INTEGER", "QUANTIZED_LINEAR_MATRIX_MULTIPLY", "CONVOLUTION_INTEGER",
    "QUANTIZED_LINEAR_CONVOLUTION", "ELEMENT_WISE_BIT_AND", "ELEMENT_WISE_BIT_OR", "ELEMENT_WISE_BIT_XOR",
    "ELEMENT_WISE_BIT_NOT", "ELEMENT_WISE_BIT_COUNT", "ELEMENT_WISE_LOGICAL_GREATER_THAN_OR_EQUAL",
    "ELEMENT_WISE_LOGICAL_LESS_THAN_OR_EQUAL", "ACTIVATION_CELU", "ACTIVATION_RELU_GRAD", "AVERAGE_POOLING_GRAD",
    "MAX_POOLING_GRAD", "RANDOM_GENERATOR", "NONZERO_COORDINATES", "RESAMPLE_GRAD", "SLICE_GRAD", "ADAM_OPTIMIZER",
    "ARGMIN", "ARGMAX", "ROI_ALIGN", "GATHER_ND1", "ELEMENT_WISE_ATAN_YX", "ELEMENT_WISE_CLIP_GRAD",
    "ELEMENT_WISE_DIFFERENCE_SQUARE", "LOCAL_RESPONSE_NORMALIZATION_GRAD", "CUMULATIVE_PRODUCT",
    "BATCH_NORMALIZATION_GRAD", "ELEMENT_WISE_QUANTIZED_LINEAR_ADD", "DYNAMIC_QUANTIZE_LINEAR", "ROI_ALIGN1",
    "ROI_ALIGN_GRAD", "BATCH_NORMALIZATION_TRAINING", "BATCH_NORMALIZATION_TRAINING_GRAD", "ELEMENT_WISE_CLIP1",
    "ELEMENT_WISE_CLIP_GRAD1", "PADDING1", "ELEMENT_WISE_NEGATE", "ACTIVATION_GELU", "ACTIVATION_SOFTMAX1",
    "ACTIVATION_LOG_SOFTMAX1", "ACTIVATION_HARDMAX1", "RESAMPLE2", "RESAMPLE_GRAD1", "DIAGONAL_MATRIX1",
    "MULTIHEAD_ATTENTION", "LP_POOLING1", "AVERAGE_POOLING1", "ACTIVATION_SWISH", "ACTIVATION_HARD_SWISH",
    "QUANTIZED_LINEAR_AVERAGE_POOLING", "MATRIX_MULTIPLY_INTEGER_TO_FLOAT", "MEAN_VARIANCE_NORMALIZATION2",
    "MULTIHEAD_ATTENTION1", "QUANTIZE", "DEQUANTIZE", "RESAMPLE3", "FOLD", "UNFOLD",
};
// clang-format on

bool iequals(std::string_view a, std::string_view b) {
  return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) {
           return std::tolower(static_cast<unsigned char>(x)) == std::tolower(static_cast<unsigned char>(y));
         });
}

std::string lowercase_extension(const std::string& path) {
  const std::size_t slash = path.find_last_of('/');
  const std::size_t dot = path.find_last_of('.');
  if (dot == std::string::npos || (slash != std::string::npos && dot < slash)) return "";
  std::string ext = path.substr(dot);
  for (char& c : ext) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return ext;
}

FileContents read_from_disk(const std::string& path) {
  FileContents f;
  std::error_code ec;
  if (!std::filesystem::exists(path, ec)) return f;
  f.found = true;
  if (!std::filesystem::is_regular_file(path, ec)) {
    f.error = std::filesystem::is_directory(path, ec) ? "it is a folder" : "it is not a regular file";
    return f;
  }
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    f.error = std::string("cannot open it: ") + std::strerror(errno);
    return f;
  }
  f.bytes.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
  if (in.bad()) f.error = "cannot read it";
  return f;
}

// ---- the loader ----------------------------------------------------------------------------------------

class Loader {
 public:
  explicit Loader(const LoadOptions& options) : options_(options) {}

  Model load(const json& root) {
    if (!root.is_object())
      fail(
          "", "",
          "the model must be a JSON object with 'resources', 'dispatchables' and 'commands', but is " + describe(root));
    const json& resources = section(root, "resources", false);
    const json& dispatchables = section(root, "dispatchables", false);
    const json& commands = section(root, "commands", true);

    for (auto it = resources.begin(); it != resources.end(); ++it) resource(it.key(), it.value());
    for (auto it = dispatchables.begin(); it != dispatchables.end(); ++it) dispatchable(it.key(), it.value());
    for (std::size_t i = 0; i < commands.size(); ++i) command(i, commands[i]);

    if (!unsupported_.empty() && !options_.skip_unsupported) {
      std::string list;
      for (std::size_t i = 0; i < unsupported_.size(); ++i)
        list += (i == 0 ? "" : i + 1 == unsupported_.size() ? " and " : ", ") + unsupported_[i];
      fail(unsupported_pointer_, "",
           "dmlref runs DML_OPERATOR_GATHER, _GATHER_ELEMENTS, _GATHER_ND, _GATHER_ND1, _SCATTER and "
           "_SCATTER_ND on buffers; not supported here: " +
               list + " (--skip-unsupported runs the rest)");
    }
    return std::move(model_);
  }

 private:
  // ---- JSON access ----

  const json& section(const json& root, const char* key, bool array) {
    const auto it = root.find(key);
    if (it == root.end())
      fail("/" + std::string(key), "",
           std::string("the model has no '") + key + "' " + (array ? "array" : "object") +
               " (a DxDispatch model has 'resources', 'dispatchables' and 'commands')");
    if (array ? !it->is_array() : !it->is_object())
      fail("/" + std::string(key), "",
           std::string("'") + key + "' must be " + (array ? "an array" : "an object") + ", but is " + describe(*it));
    return *it;
  }

  static const json* member(const json& object, const char* key) {
    const auto it = object.find(key);
    return it == object.end() ? nullptr : &*it;
  }

  /// A required member of an object.
  const json& required(const json& object, const std::string& pointer, const std::string& subject, const char* key,
                       const std::string& what) {
    const json* v = member(object, key);
    if (v == nullptr) fail(pointer, subject, std::string("'") + key + "' is required (" + what + ")");
    return *v;
  }

  std::uint64_t unsigned_value(const json& v, const std::string& pointer, const std::string& subject,
                               const std::string& field, std::uint64_t max) {
    if (!v.is_number_unsigned())
      fail(pointer, subject, field + " must be a non-negative integer, but is " + describe(v));
    const std::uint64_t u = v.get<std::uint64_t>();
    if (u > max)
      fail(pointer, subject, field + " must be at most " + std::to_string(max) + ", but is " + std::to_string(u));
    return u;
  }

  std::uint32_t uint32_value(const json& v, const std::string& pointer, const std::string& subject,
                             const std::string& field) {
    return static_cast<std::uint32_t>(unsigned_value(v, pointer, subject, field, UINT32_MAX));
  }

  const std::string& string_value(const json& v, const std::string& pointer, const std::string& subject,
                                  const std::string& field) {
    if (!v.is_string()) fail(pointer, subject, field + " must be a string, but is " + describe(v));
    return v.get_ref<const std::string&>();
  }

  DataType data_type_value(const json& v, const std::string& pointer, const std::string& subject,
                           const std::string& field) {
    const std::string& name = string_value(v, pointer, subject, field);
    bool four_bit = false;
    const std::optional<DataType> type = data_type_named(name, four_bit);
    if (four_bit)
      fail(pointer, subject,
           field + " " + name +
               ": 4-bit types are not supported (DirectML's gather and scatter operators do not take them)");
    if (!type)
      fail(pointer, subject, field + " " + in_quotes(name) + " is not a data type; the types are " + kDataTypeNames);
    return *type;
  }

  // ---- element values ----

  /// Appends one value of `type`, converted as DxDispatch converts it.
  void append_value(std::vector<unsigned char>& out, DataType type, const json& v, const std::string& pointer,
                    const std::string& subject) {
    switch (type) {
      case DataType::FLOAT32:
        append(out, static_cast<float>(floating(v, pointer, subject, type)));
        return;
      case DataType::FLOAT64:
        append(out, floating(v, pointer, subject, type));
        return;
      case DataType::FLOAT16:
        append(out, float16_bits_toward_zero(static_cast<float>(floating(v, pointer, subject, type))));
        return;
      case DataType::INT8:
        append(out, static_cast<std::int8_t>(signed_integer(v, pointer, subject, type, INT8_MIN, INT8_MAX)));
        return;
      case DataType::INT16:
        append(out, static_cast<std::int16_t>(signed_integer(v, pointer, subject, type, INT16_MIN, INT16_MAX)));
        return;
      case DataType::INT32:
        append(out, static_cast<std::int32_t>(signed_integer(v, pointer, subject, type, INT32_MIN, INT32_MAX)));
        return;
      case DataType::INT64:
        append(out, signed_integer(v, pointer, subject, type, INT64_MIN, INT64_MAX));
        return;
      case DataType::UINT8:
        append(out, static_cast<std::uint8_t>(unsigned_integer(v, pointer, subject, type, UINT8_MAX)));
        return;
      case DataType::UINT16:
        append(out, static_cast<std::uint16_t>(unsigned_integer(v, pointer, subject, type, UINT16_MAX)));
        return;
      case DataType::UINT32:
        append(out, static_cast<std::uint32_t>(unsigned_integer(v, pointer, subject, type, UINT32_MAX)));
        return;
      case DataType::UINT64:
        append(out, unsigned_integer(v, pointer, subject, type, UINT64_MAX));
        return;
      case DataType::UNKNOWN:
        break;
    }
    fail(pointer, subject, "values need a data type");
  }

  template <class T>
  static void append(std::vector<unsigned char>& out, T value) {
    unsigned char bytes[sizeof(T)];
    std::memcpy(bytes, &value, sizeof(T));
    out.insert(out.end(), bytes, bytes + sizeof(T));
  }

  double floating(const json& v, const std::string& pointer, const std::string& subject, DataType type) {
    if (v.is_number()) return v.get<double>();
    if (v.is_string()) {
      const std::string& s = v.get_ref<const std::string&>();
      if (iequals(s, "nan")) return std::numeric_limits<double>::quiet_NaN();
      if (iequals(s, "inf")) return std::numeric_limits<double>::infinity();
      if (iequals(s, "-inf")) return -std::numeric_limits<double>::infinity();
    }
    fail(pointer, subject,
         std::string(dmlref::name(type)) +
             " values are numbers or the strings \"nan\", \"inf\" and \"-inf\", but this is " + describe(v));
  }

  std::int64_t signed_integer(const json& v, const std::string& pointer, const std::string& subject, DataType type,
                              std::int64_t min, std::int64_t max) {
    const std::string range = std::string(" is out of range for ") + dmlref::name(type) + " (" + std::to_string(min) +
                              ".." + std::to_string(max) + ")";
    if (v.is_number_unsigned()) {
      if (v.get<std::uint64_t>() > static_cast<std::uint64_t>(max)) fail(pointer, subject, v.dump() + range);
      return static_cast<std::int64_t>(v.get<std::uint64_t>());
    }
    if (!v.is_number_integer())
      fail(pointer, subject,
           std::string(dmlref::name(type)) + " values are integer literals, but this is " + describe(v));
    const std::int64_t value = v.get<std::int64_t>();
    if (value < min || value > max) fail(pointer, subject, std::to_string(value) + range);
    return value;
  }

  std::uint64_t unsigned_integer(const json& v, const std::string& pointer, const std::string& subject, DataType type,
                                 std::uint64_t max) {
    if (v.is_number_integer() && !v.is_number_unsigned())
      fail(pointer, subject,
           v.dump() + " is out of range for " + dmlref::name(type) + " (0.." + std::to_string(max) + ")");
    if (!v.is_number_unsigned())
      fail(pointer, subject,
           std::string(dmlref::name(type)) + " values are non-negative integer literals, but this is " + describe(v));
    const std::uint64_t value = v.get<std::uint64_t>();
    if (value > max)
      fail(pointer, subject,
           std::to_string(value) + " is out of range for " + dmlref::name(type) + " (0.." + std::to_string(max) + ")");
    return value;
  }

  void check_size(std::uint64_t bytes, const std::string& pointer, const std::string& subject) {
    if (bytes > options_.max_resource_bytes)
      fail(pointer, subject,
           std::to_string(bytes) + " bytes is more than this run allows for one resource (" +
               std::to_string(options_.max_resource_bytes) + ")");
  }

  // ---- resources ----

  void resource(const std::string& name, const json& v) {
    Resource r;
    r.name = name;
    r.pointer = at("/resources", name);
    const std::string subject = "resource " + in_quotes(name);
    if (!v.is_object()) fail(r.pointer, subject, "must be an object, but is " + describe(v));

    if (const json* t = member(v, "initialValuesDataType"))
      r.type = data_type_value(*t, at(r.pointer, "initialValuesDataType"), subject, "initialValuesDataType");
    const json& initial = required(v, r.pointer, subject, "initialValues", "an array, an object or \"deferred\"");
    const std::string ip = at(r.pointer, "initialValues");

    if (initial.is_string()) {
      if (initial.get_ref<const std::string&>() != "deferred")
        fail(ip, subject, "initialValues is a string only as \"deferred\", but is " + describe(initial));
      r.unsupported = "\"deferred\" (for ONNX dispatchables)";
      unsupported(ip, subject + " (" + r.unsupported + ")");
      add_resource(std::move(r));
      return;
    }
    if (initial.is_array()) {
      if (initial.empty()) fail(ip, subject, "initialValues must not be empty");
      check_size(initial.size(), ip, subject);
      if (r.type == DataType::UNKNOWN) {
        list_values(r, initial, ip, subject);
      } else {
        for (std::size_t i = 0; i < initial.size(); ++i)
          append_value(r.initial, r.type, initial[i], at(ip, i), subject);
      }
    } else if (initial.is_object()) {
      const bool has_value = initial.contains("value"), has_start = initial.contains("valueStart"),
                 has_path = initial.contains("sourcePath");
      if (has_value && (has_start || has_path))
        fail(ip, subject,
             "initialValues has 'value' and " + std::string(has_start ? "'valueStart'" : "'sourcePath'") +
                 "; a constant ('value'), a sequence ('valueStart') and a file ('sourcePath') exclude each other");
      if (has_value || has_start) {
        if (r.type == DataType::UNKNOWN)
          fail(r.pointer, subject,
               std::string("'initialValuesDataType' is required for a ") + (has_value ? "constant" : "sequence"));
        generated_values(r, initial, ip, subject, has_start);
      } else if (has_path) {
        file_values(r, initial, ip, subject);
        if (!r.unsupported.empty()) {
          add_resource(std::move(r));
          return;
        }
      } else {
        fail(ip, subject,
             "initialValues must have 'value' (a constant), 'valueStart' (a sequence) or 'sourcePath' (a file)");
      }
    } else {
      fail(ip, subject, "initialValues must be an array, an object or \"deferred\", but is " + describe(initial));
    }
    if (r.initial.empty()) fail(ip, subject, "initialValues must not be empty");

    std::uint64_t offset = 0;
    if (const json* o = member(v, "initialValuesOffsetInBytes"))
      offset = unsigned_value(*o, at(r.pointer, "initialValuesOffsetInBytes"), subject, "initialValuesOffsetInBytes",
                              UINT64_MAX);
    if (const json* s = member(v, "sizeInBytes")) {
      r.size = unsigned_value(*s, at(r.pointer, "sizeInBytes"), subject, "sizeInBytes", UINT64_MAX);
      if (offset > r.size || r.initial.size() > r.size - offset)
        fail(at(r.pointer, "sizeInBytes"), subject,
             "sizeInBytes " + std::to_string(r.size) + " is too small for the " + std::to_string(r.initial.size()) +
                 " bytes of initialValues" + (offset != 0 ? " at offset " + std::to_string(offset) : std::string()));
    } else {
      r.size = (static_cast<std::uint64_t>(r.initial.size()) + 3) / 4 * 4;
      if (offset > r.size || r.initial.size() > r.size - offset)
        fail(at(r.pointer, "initialValuesOffsetInBytes"), subject,
             "the buffer (" + std::to_string(r.size) + " bytes) is too small for the " +
                 std::to_string(r.initial.size()) + " bytes of initialValues at offset " + std::to_string(offset));
    }
    check_size(r.size, at(r.pointer, "sizeInBytes"), subject);
    if (offset != 0)
      model_.warnings.push_back(at(r.pointer, "initialValuesOffsetInBytes") + ": " + subject +
                                ": the initial data is written at byte 0; DxDispatch checks initialValuesOffsetInBytes "
                                "but does not apply it, and neither does dmlref");
    add_resource(std::move(r));
  }

  void add_resource(Resource r) {
    resource_names_.emplace(r.name, model_.resources.size());
    model_.resources.push_back(std::move(r));
  }

  void add_dispatchable(Dispatchable d) {
    dispatchable_names_.emplace(d.name, model_.dispatchables.size());
    model_.dispatchables.push_back(std::move(d));
  }

  /// [{"type": T, "value": v, "name": s}, ...]: each value in its own type, packed.
  void list_values(Resource& r, const json& list, const std::string& pointer, const std::string& subject) {
    for (std::size_t i = 0; i < list.size(); ++i) {
      const json& e = list[i];
      const std::string ep = at(pointer, i);
      if (!e.is_object())
        fail(ep, subject,
             "without initialValuesDataType, initialValues is a list of {\"type\": ..., \"value\": ...} objects, but "
             "element " +
                 std::to_string(i) + " is " + describe(e));
      const json& t = required(e, ep, subject, "type", "the value's data type");
      const DataType type = data_type_value(t, at(ep, "type"), subject, "type");
      if (type == DataType::UNKNOWN || type == DataType::FLOAT16)
        fail(at(ep, "type"), subject,
             std::string(
                 "a list value's type must be one of FLOAT32, FLOAT64 and the integer types (DxDispatch reads no ") +
                 dmlref::name(type) + " values in lists)");
      append_value(r.initial, type, required(e, ep, subject, "value", "the value"), at(ep, "value"), subject);
    }
  }

  /// {"valueCount": n, "value": v} or {"valueCount": n, "valueStart": a, "valueDelta": d}.
  void generated_values(Resource& r, const json& g, const std::string& pointer, const std::string& subject,
                        bool sequence) {
    const std::uint32_t count = uint32_value(required(g, pointer, subject, "valueCount", "how many values"),
                                             at(pointer, "valueCount"), subject, "valueCount");
    if (count == 0) fail(at(pointer, "valueCount"), subject, "valueCount must be at least 1");
    const std::uint64_t bytes = static_cast<std::uint64_t>(count) * dmlref::element_size(r.type);
    check_size(bytes, at(pointer, "valueCount"), subject);
    std::vector<unsigned char> first;
    const char* first_key = sequence ? "valueStart" : "value";
    append_value(first, r.type, required(g, pointer, subject, first_key, sequence ? "the first value" : "the value"),
                 at(pointer, first_key), subject);
    r.initial.reserve(static_cast<std::size_t>(bytes));
    if (!sequence) {
      for (std::uint32_t i = 0; i < count; ++i) r.initial.insert(r.initial.end(), first.begin(), first.end());
      return;
    }
    std::vector<unsigned char> delta;
    append_value(delta, r.type, required(g, pointer, subject, "valueDelta", "the step"), at(pointer, "valueDelta"),
                 subject);
    switch (r.type) {
      case DataType::FLOAT32:
        sequence_of<float>(r, first, delta, count, [](float a, float d) { return a + d; });
        return;
      case DataType::FLOAT64:
        sequence_of<double>(r, first, delta, count, [](double a, double d) { return a + d; });
        return;
      case DataType::FLOAT16:
        // half.hpp adds in float, then converts back with its rounding (toward zero).
        sequence_of<std::uint16_t>(r, first, delta, count, [](std::uint16_t a, std::uint16_t d) {
          return float16_bits_toward_zero(dmlref::float16::from_bits(a).to_float() +
                                          dmlref::float16::from_bits(d).to_float());
        });
        return;
      // Integers wrap, as C++'s `value += delta` does in the type's width (signed ones too, in
      // two's complement), so each width needs one unsigned addition.
      case DataType::INT8:
      case DataType::UINT8:
        sequence_of<std::uint8_t>(r, first, delta, count, wrap<std::uint8_t>);
        return;
      case DataType::INT16:
      case DataType::UINT16:
        sequence_of<std::uint16_t>(r, first, delta, count, wrap<std::uint16_t>);
        return;
      case DataType::INT32:
      case DataType::UINT32:
        sequence_of<std::uint32_t>(r, first, delta, count, wrap<std::uint32_t>);
        return;
      case DataType::INT64:
      case DataType::UINT64:
        sequence_of<std::uint64_t>(r, first, delta, count, wrap<std::uint64_t>);
        return;
      case DataType::UNKNOWN:
        break;
    }
  }

  template <class T>
  static T wrap(T a, T d) {
    return static_cast<T>(a + d);
  }

  template <class T, class Add>
  static void sequence_of(Resource& r, const std::vector<unsigned char>& first, const std::vector<unsigned char>& delta,
                          std::uint32_t count, Add add) {
    T value, step;
    std::memcpy(&value, first.data(), sizeof(T));
    std::memcpy(&step, delta.data(), sizeof(T));
    for (std::uint32_t i = 0; i < count; ++i) {
      append(r.initial, value);
      value = add(value, step);
    }
  }

  /// {"sourcePath": "x.npy" | "x.dat" | ...}
  void file_values(Resource& r, const json& g, const std::string& pointer, const std::string& subject) {
    const std::string pp = at(pointer, "sourcePath");
    std::string path = string_value(g.at("sourcePath"), pp, subject, "sourcePath");
    std::replace(path.begin(), path.end(), '\\', '/');  // models written on Windows
    if (path.empty()) fail(pp, subject, "sourcePath must not be empty");
    const std::string ext = lowercase_extension(path);
    if (ext == ".png" || ext == ".jpg") {
      r.unsupported = "an image file";
      unsupported(pp, subject + " (" + r.unsupported + ")");
      return;
    }
    FileContents file;
    std::string tried;
    for (const std::string& candidate : candidates(path)) {
      file = options_.read_file ? options_.read_file(candidate) : read_from_disk(candidate);
      tried += (tried.empty() ? "" : " or ") + in_quotes(candidate);
      if (file.found) {
        if (!file.error.empty()) fail(pp, subject, "cannot read " + in_quotes(candidate) + ": " + file.error);
        break;
      }
    }
    if (!file.found) fail(pp, subject, "sourcePath " + in_quotes(path) + " does not exist (looked for " + tried + ")");
    check_size(file.bytes.size(), pp, subject);

    if (ext != ".npy") {
      if (r.type == DataType::UNKNOWN)
        fail(r.pointer, subject, "'initialValuesDataType' is required for a raw file (" + in_quotes(path) + ")");
      r.initial = std::move(file.bytes);
      return;
    }
    dmlref::npy::Expected<dmlref::npy::Array> array = dmlref::npy::parse(file.bytes.data(), file.bytes.size());
    if (!array) fail(pp, subject, in_quotes(path) + ": " + array.error().message);
    if (array->fortran_order)
      fail(pp, subject,
           in_quotes(path) +
               " is in Fortran order; DxDispatch refuses such files, so dmlref does too (save it with numpy's default "
               "C order)");
    if (r.type != DataType::UNKNOWN && r.type != array->type)
      fail(pp, subject,
           in_quotes(path) + " holds " + dmlref::name(array->type) + " values, but initialValuesDataType is " +
               dmlref::name(r.type));
    r.type = array->type;
    r.initial = std::move(array->data);
  }

  /// sourcePath against the model's folder, then as given (DxDispatch's order).
  std::vector<std::string> candidates(const std::string& path) const {
    std::vector<std::string> c;
    if (!options_.model_directory.empty() && path.front() != '/') c.push_back(options_.model_directory + "/" + path);
    c.push_back(path);
    return c;
  }

  void unsupported(const std::string& pointer, const std::string& what) {
    if (unsupported_.empty()) unsupported_pointer_ = pointer;
    unsupported_.push_back(what);
  }

  // ---- dispatchables ----

  void dispatchable(const std::string& name, const json& v) {
    Dispatchable d;
    d.name = name;
    d.pointer = at("/dispatchables", name);
    const std::string subject = "dispatchable " + in_quotes(name);
    if (!v.is_object()) fail(d.pointer, subject, "must be an object, but is " + describe(v));
    d.type =
        string_value(required(v, d.pointer, subject, "type", "DML_OPERATOR_... , hlsl, onnx or dmlSerializedGraph"),
                     at(d.pointer, "type"), subject, "type");
    const std::string tp = at(d.pointer, "type");
    const std::string_view op = without_prefix(d.type, kOperatorPrefix);
    if (iequals(d.type, "hlsl") || iequals(d.type, "onnx") || iequals(d.type, "dmlSerializedGraph")) {
      d.unsupported = iequals(d.type, "hlsl")   ? "an HLSL shader"
                      : iequals(d.type, "onnx") ? "an ONNX model"
                                                : "a serialized DirectML graph";
    } else if (op == "GATHER") {
      d.op = Operator::gather;
    } else if (op == "GATHER_ELEMENTS") {
      d.op = Operator::gather_elements;
    } else if (op == "GATHER_ND") {
      d.op = Operator::gather_nd;
    } else if (op == "GATHER_ND1") {
      d.op = Operator::gather_nd1;
    } else if (op == "SCATTER" || op == "SCATTER_ELEMENTS") {
      d.op = Operator::scatter;
    } else if (op == "SCATTER_ND") {
      d.op = Operator::scatter_nd;
    } else if (std::find_if(std::begin(kDirectMLOperators), std::end(kDirectMLOperators),
                            [&](const char* n) { return op == n; }) != std::end(kDirectMLOperators)) {
      d.unsupported = "DML_OPERATOR_" + std::string(op);
    } else {
      fail(
          tp, subject,
          "type " + in_quotes(d.type) +
              " is not a DirectML operator (DML_OPERATOR_GATHER, GATHER_ND, ...) nor hlsl, onnx or dmlSerializedGraph");
    }
    d.supported = d.unsupported.empty();
    if (!d.supported) {
      unsupported(tp, subject + " (" + d.unsupported + ")");
      add_dispatchable(std::move(d));
      return;
    }

    // The fields are in "Desc" or "desc", or inline in the dispatchable.
    const json* desc = member(v, "Desc");
    d.desc_pointer = at(d.pointer, "Desc");
    if (desc == nullptr) {
      desc = member(v, "desc");
      d.desc_pointer = at(d.pointer, "desc");
    }
    if (desc == nullptr) {
      desc = &v;
      d.desc_pointer = d.pointer;
    }
    if (!desc->is_object())
      fail(d.desc_pointer, subject, "the operator desc must be an object, but is " + describe(*desc));

    const std::string op_name = dml_name(d.op);
    auto field = [&](const char* key) -> const json& {
      const json* f = member(*desc, key);
      if (f == nullptr) fail(d.desc_pointer, subject, op_name + " needs the field '" + key + "'");
      return *f;
    };
    for (int i = 0; i < kRoleCount; ++i) {
      const Role role = static_cast<Role>(i);
      if (!has_role(d.op, role)) continue;
      d.tensors[i] = tensor_desc(field(role_name(role)), at(d.desc_pointer, role_name(role)), subject, role);
    }
    auto attribute = [&](const char* key) { return uint32_value(field(key), at(d.desc_pointer, key), subject, key); };
    switch (d.op) {
      case Operator::gather:
        d.axis = attribute("Axis");
        d.index_dimensions = attribute("IndexDimensions");
        break;
      case Operator::gather_elements:
      case Operator::scatter:
        d.axis = attribute("Axis");
        break;
      case Operator::gather_nd1:
      case Operator::gather_nd:
      case Operator::scatter_nd:
        d.input_dimension_count = attribute("InputDimensionCount");
        d.indices_dimension_count = attribute("IndicesDimensionCount");
        if (d.op == Operator::gather_nd1) d.batch_dimension_count = attribute("BatchDimensionCount");
        break;
    }
    check_operator(d);
    if (d.tensors[kOutput]->owned_by_dml)
      fail(at(d.tensors[kOutput]->pointer, "Flags"), subject,
           "OutputTensor cannot be OWNED_BY_DML (the flag is for inputs only)");

    // OWNED_BY_DML inputs are bound once, through the dispatchable's own bindings.
    if (const json* b = member(v, "bindings")) {
      const std::string bp = at(d.pointer, "bindings");
      if (!b->is_object()) fail(bp, subject, "bindings must be an object, but is " + describe(*b));
      for (auto it = b->begin(); it != b->end(); ++it) {
        const Role role = bind_point(d, it.key(), bp, subject);
        const TensorDesc& t = *d.tensors[role];
        if (!t.owned_by_dml)
          fail(at(bp, it.key()), subject,
               it.key() +
                   " is not OWNED_BY_DML: bind it in each dispatch command (a "
                   "dispatchable's own bindings are for OWNED_BY_DML inputs)");
        d.init_bindings[role] = binding(it.value(), at(bp, it.key()), subject, t, it.key());
      }
    }
    for (int i = 0; i < kRoleCount; ++i)
      if (d.tensors[i] && d.tensors[i]->owned_by_dml && !d.init_bindings[i])
        fail(at(d.tensors[i]->pointer, "Flags"), subject,
             std::string(role_name(static_cast<Role>(i))) +
                 " is OWNED_BY_DML, so it must be bound in the dispatchable's own 'bindings'");
    add_dispatchable(std::move(d));
  }

  Role bind_point(const Dispatchable& d, const std::string& key, const std::string& pointer,
                  const std::string& subject) {
    for (int i = 0; i < kRoleCount; ++i)
      if (has_role(d.op, static_cast<Role>(i)) && key == role_name(static_cast<Role>(i))) return static_cast<Role>(i);
    std::string names;
    for (int i = 0; i < kRoleCount; ++i)
      if (has_role(d.op, static_cast<Role>(i)))
        names += std::string(names.empty() ? "" : ", ") + role_name(static_cast<Role>(i));
    fail(at(pointer, key), subject, in_quotes(key) + " is not a tensor of " + dml_name(d.op) + " (" + names + ")");
  }

  TensorDesc tensor_desc(const json& v, const std::string& pointer, const std::string& subject, Role role) {
    const std::string tensor = role_name(role);
    if (!v.is_object()) fail(pointer, subject, tensor + " must be a tensor desc object, but is " + describe(v));
    if (const json* type = member(v, "Type")) {
      const std::string& t = string_value(*type, at(pointer, "Type"), subject, tensor + ".Type");
      const std::string_view s = without_prefix(t, "DML_TENSOR_TYPE_");
      if (s != "BUFFER")
        fail(at(pointer, "Type"), subject, tensor + ".Type must be DML_TENSOR_TYPE_BUFFER, but is " + in_quotes(t));
    }
    TensorDesc t;
    t.pointer = pointer;
    const json* fields = &v;
    if (const json* desc = member(v, "Desc")) {
      t.pointer = at(pointer, "Desc");
      if (!desc->is_object()) fail(t.pointer, subject, tensor + ".Desc must be an object, but is " + describe(*desc));
      fields = desc;
    }
    const json& f = *fields;
    const std::string& p = t.pointer;

    t.data_type = data_type_value(required(f, p, subject, "DataType", tensor + "'s data type"), at(p, "DataType"),
                                  subject, tensor + ".DataType");
    if (t.data_type == DataType::UNKNOWN) fail(at(p, "DataType"), subject, tensor + ".DataType must not be UNKNOWN");
    if (const json* flags = member(f, "Flags")) t.owned_by_dml = tensor_flags(*flags, at(p, "Flags"), subject, tensor);

    auto uint_array = [&](const json& a, const std::string& ap, const std::string& name) {
      if (!a.is_array()) fail(ap, subject, name + " must be an array of non-negative integers, but is " + describe(a));
      if (a.size() > 64)
        fail(ap, subject,
             name + " has " + std::to_string(a.size()) + " values; DirectML tensors have at most 8 dimensions");
      std::vector<std::int64_t> values;
      for (std::size_t i = 0; i < a.size(); ++i)
        values.push_back(uint32_value(a[i], at(ap, i), subject, name + "[" + std::to_string(i) + "]"));
      return values;
    };
    t.sizes = uint_array(required(f, p, subject, "Sizes", tensor + "'s sizes"), at(p, "Sizes"), tensor + ".Sizes");
    if (const json* s = member(f, "Strides")) t.strides = uint_array(*s, at(p, "Strides"), tensor + ".Strides");
    std::uint32_t dimension_count = static_cast<std::uint32_t>(t.sizes.size());
    if (const json* dc = member(f, "DimensionCount"))
      dimension_count = uint32_value(*dc, at(p, "DimensionCount"), subject, tensor + ".DimensionCount");
    if (dimension_count < 1 || dimension_count > static_cast<std::uint32_t>(dmlref::max_dimension_count))
      fail(at(p, member(f, "DimensionCount") ? "DimensionCount" : "Sizes"), subject,
           tensor + ".DimensionCount must be 1..8, but is " + std::to_string(dimension_count));
    if (t.sizes.size() != dimension_count)
      fail(at(p, "Sizes"), subject,
           tensor + ".Sizes has " + std::to_string(t.sizes.size()) + " values, but DimensionCount is " +
               std::to_string(dimension_count));
    if (!t.strides.empty() && t.strides.size() != dimension_count)
      fail(at(p, "Strides"), subject,
           tensor + ".Strides has " + std::to_string(t.strides.size()) + " values, but DimensionCount is " +
               std::to_string(dimension_count));
    u128 elements = 1;
    for (std::size_t i = 0; i < t.sizes.size(); ++i) {
      if (t.sizes[i] == 0)
        fail(at(at(p, "Sizes"), i), subject,
             tensor + ".Sizes[" + std::to_string(i) + "] is 0; DirectML tensors have sizes of at least 1");
      elements *= static_cast<std::uint64_t>(t.sizes[i]);
    }
    if (elements > UINT32_MAX)
      fail(at(p, "Sizes"), subject, tensor + ".Sizes describe more than 4294967295 elements, DirectML's limit");

    const dmlref::Shape sizes = dmlref::Shape::from(t.sizes.data(), t.sizes.size());
    const dmlref::Shape strides = dmlref::Shape::from(t.strides.data(), t.strides.size());
    const dmlref::Result<std::uint64_t> minimum = dmlref::calc_buffer_tensor_size(t.data_type, sizes, strides);
    if (!minimum)
      fail(at(p, "Sizes"), subject, tensor + "'s byte size (DMLCalcBufferTensorSize) is 2^63 bytes or more");
    // The bytes the elements reach, without DirectML's rounding up to 4 (a binding rule).
    const std::uint64_t element = dmlref::element_size(t.data_type);
    std::uint64_t last = 0;
    if (t.strides.empty()) {
      std::uint64_t count = 1;
      for (std::int64_t s : t.sizes) count *= static_cast<std::uint64_t>(s);
      last = count - 1;
    } else {
      for (std::size_t i = 0; i < t.sizes.size(); ++i)
        last += static_cast<std::uint64_t>(t.sizes[i] - 1) * static_cast<std::uint64_t>(t.strides[i]);
    }
    const std::uint64_t extent = (last + 1) * element;  // <= *minimum, which did not overflow

    t.total_bytes = *minimum;
    if (const json* total = member(f, "TotalTensorSizeInBytes")) {
      const std::uint64_t given = unsigned_value(*total, at(p, "TotalTensorSizeInBytes"), subject,
                                                 tensor + ".TotalTensorSizeInBytes", UINT64_MAX);
      if (given != 0) {
        if (given < extent)
          fail(at(p, "TotalTensorSizeInBytes"), subject,
               tensor + ".TotalTensorSizeInBytes is " + std::to_string(given) + ", but its Sizes" +
                   (t.strides.empty() ? "" : " and Strides") + " reach " + std::to_string(extent) + " bytes");
        t.total_bytes = given;
      }
    }
    if (t.total_bytes > static_cast<std::uint64_t>(INT64_MAX))
      fail(at(p, "TotalTensorSizeInBytes"), subject, tensor + ".TotalTensorSizeInBytes must be below 2^63");
    if (const json* a = member(f, "GuaranteedBaseOffsetAlignment")) {
      t.guaranteed_base_offset_alignment =
          uint32_value(*a, at(p, "GuaranteedBaseOffsetAlignment"), subject, tensor + ".GuaranteedBaseOffsetAlignment");
      const std::uint32_t g = t.guaranteed_base_offset_alignment;
      if (g != 0 && ((g & (g - 1)) != 0 || g < element))
        fail(at(p, "GuaranteedBaseOffsetAlignment"), subject,
             tensor + ".GuaranteedBaseOffsetAlignment must be 0 or a power of two of at least the element size (" +
                 std::to_string(element) + "), but is " + std::to_string(g));
    }
    return t;
  }

  bool tensor_flags(const json& v, const std::string& pointer, const std::string& subject, const std::string& tensor) {
    bool owned = false;
    auto one = [&](const json& flag, const std::string& fp) {
      const std::string& s = string_value(flag, fp, subject, tensor + ".Flags");
      const std::string_view name = without_prefix(s, "DML_TENSOR_FLAG_");
      if (name == "OWNED_BY_DML")
        owned = true;
      else if (name != "NONE")
        fail(fp, subject,
             tensor + ".Flags " + in_quotes(s) + " is not DML_TENSOR_FLAG_NONE or DML_TENSOR_FLAG_OWNED_BY_DML");
    };
    if (v.is_array()) {
      for (std::size_t i = 0; i < v.size(); ++i) one(v[i], at(pointer, i));
    } else if (v.is_string()) {
      one(v, pointer);
    } else {
      fail(pointer, subject, tensor + ".Flags must be a string or an array of strings, but is " + describe(v));
    }
    return owned;
  }

  /// A binding source: "name", {"name": ..., "elementOffset": ..., ...} or a one-element array.
  Binding binding(const json& v, const std::string& pointer, const std::string& subject, const TensorDesc& tensor,
                  const std::string& tensor_name) {
    if (v.is_array()) {
      if (v.size() != 1)
        fail(pointer, subject,
             tensor_name + " takes exactly one resource, but " + std::to_string(v.size()) + " are bound");
      return binding(v[0], at(pointer, 0), subject, tensor, tensor_name);
    }
    Binding b;
    b.pointer = pointer;
    std::string name;
    std::uint64_t element_offset = 0, element_size = 0;
    std::string name_pointer = pointer, offset_pointer = pointer;
    if (v.is_string()) {
      name = v.get<std::string>();
    } else if (v.is_object()) {
      name_pointer = at(pointer, "name");
      name = string_value(required(v, pointer, subject, "name", "the resource"), name_pointer, subject,
                          tensor_name + " name");
      if (const json* o = member(v, "elementOffset")) {
        offset_pointer = at(pointer, "elementOffset");
        element_offset = unsigned_value(*o, offset_pointer, subject, "elementOffset", UINT64_MAX);
      }
      if (const json* s = member(v, "elementSizeInBytes"))
        element_size = unsigned_value(*s, at(pointer, "elementSizeInBytes"), subject, "elementSizeInBytes", UINT64_MAX);
    } else {
      fail(pointer, subject,
           tensor_name + " must be bound to a resource name or a binding object, but is " + describe(v));
    }
    b.resource = resource_index(name, name_pointer, subject, tensor_name + " is bound to");
    const Resource& r = model_.resources[b.resource];
    if (!r.unsupported.empty()) return b;  // the command is skipped or the model refused
    if (element_size == 0) element_size = dmlref::element_size(r.type);
    if (element_size == 0 && element_offset != 0)
      fail(offset_pointer, subject,
           "elementOffset needs elementSizeInBytes: resource " + in_quotes(r.name) + " has no initialValuesDataType");
    const u128 offset = static_cast<u128>(element_offset) * element_size;
    if (offset >= r.size)
      fail(offset_pointer, subject,
           tensor_name + " starts at byte " +
               (offset > UINT64_MAX ? std::string("beyond 2^64") : std::to_string(static_cast<std::uint64_t>(offset))) +
               " (elementOffset " + std::to_string(element_offset) + " x " + std::to_string(element_size) +
               " bytes), past the end of resource " + in_quotes(r.name) + " (" + std::to_string(r.size) + " bytes)");
    b.offset = static_cast<std::uint64_t>(offset);
    if (r.size - b.offset < tensor.total_bytes)
      fail(pointer, subject,
           tensor_name + " needs " + std::to_string(tensor.total_bytes) +
               " bytes (TotalTensorSizeInBytes), but resource " + in_quotes(r.name) + " has " +
               std::to_string(r.size - b.offset) + " from byte " + std::to_string(b.offset) + " on (sizeInBytes " +
               std::to_string(r.size) + ")");
    return b;
  }

  std::size_t resource_index(const std::string& name, const std::string& pointer, const std::string& subject,
                             const std::string& what) {
    const auto it = resource_names_.find(name);
    if (it != resource_names_.end()) return it->second;
    std::string names;
    for (std::size_t i = 0; i < model_.resources.size() && i < 8; ++i)
      names += (i == 0 ? "" : ", ") + in_quotes(model_.resources[i].name);
    if (model_.resources.size() > 8) names += ", ...";
    fail(pointer, subject,
         what + " " + in_quotes(name) + ", which is not a resource" +
             (names.empty() ? std::string(" (the model has none)") : " (resources: " + names + ")"));
  }

  // ---- commands ----

  void command(std::size_t index, const json& v) {
    Command c;
    c.index = index;
    c.pointer = at("/commands", index);
    std::string subject = "command " + std::to_string(index);
    if (!v.is_object()) fail(c.pointer, subject, "must be an object, but is " + describe(v));
    const std::string& type = string_value(required(v, c.pointer, subject, "type", "dispatch, print or writeFile"),
                                           at(c.pointer, "type"), subject, "type");
    if (iequals(type, "dispatch")) {
      c.kind = Command::Kind::dispatch;
      dispatch_command(c, v, subject);
    } else if (iequals(type, "print")) {
      c.kind = Command::Kind::print;
      subject += " (print)";
      c.resource = resource_index(string_value(required(v, c.pointer, subject, "resource", "what to print"),
                                               at(c.pointer, "resource"), subject, "resource"),
                                  at(c.pointer, "resource"), subject, "it prints");
      if (const json* verbose = member(v, "verbose")) {
        if (!verbose->is_boolean())
          fail(at(c.pointer, "verbose"), subject, "verbose must be true or false, but is " + describe(*verbose));
        c.verbose = verbose->get<bool>();
      }
      const Resource& r = model_.resources[c.resource];
      if (!r.unsupported.empty()) {
        skip(c, subject, "resource " + in_quotes(r.name) + " is " + r.unsupported + ", which dmlref does not hold");
      } else if (r.type == DataType::UNKNOWN) {
        fail(at(c.pointer, "resource"), subject,
             "resource " + in_quotes(r.name) +
                 " has no initialValuesDataType (a list of typed values), so it cannot be printed");
      }
    } else if (iequals(type, "writeFile")) {
      c.kind = Command::Kind::write_file;
      subject += " (writeFile)";
      write_file_command(c, v, subject);
    } else {
      fail(at(c.pointer, "type"), subject,
           "type " + in_quotes(type) + " is not a command (dispatch, print or writeFile)");
    }
    model_.commands.push_back(std::move(c));
  }

  void skip(Command& c, const std::string& subject, const std::string& why) {
    c.skipped = why;
    model_.warnings.push_back(c.pointer + ": " + subject + ": skipped: " + why);
  }

  void dispatch_command(Command& c, const json& v, std::string& subject) {
    const std::string& name = string_value(required(v, c.pointer, subject, "dispatchable", "what to dispatch"),
                                           at(c.pointer, "dispatchable"), subject, "dispatchable");
    subject += " (dispatch " + in_quotes(name) + ")";
    const auto found = dispatchable_names_.find(name);
    if (found == dispatchable_names_.end())
      fail(at(c.pointer, "dispatchable"), subject, in_quotes(name) + " is not a dispatchable");
    c.dispatchable = found->second;
    const json& bindings = required(v, c.pointer, subject, "bindings", "the resources bound to the tensors");
    const std::string bp = at(c.pointer, "bindings");
    if (!bindings.is_object()) fail(bp, subject, "bindings must be an object, but is " + describe(bindings));
    const Dispatchable& d = model_.dispatchables[c.dispatchable];

    if (!d.supported) {
      // Still every name must resolve; the bind points are the unsupported operator's.
      for (auto it = bindings.begin(); it != bindings.end(); ++it) {
        std::vector<std::pair<const json*, std::string>> sources;
        if (it->is_array()) {
          for (std::size_t i = 0; i < it->size(); ++i) sources.emplace_back(&(*it)[i], at(at(bp, it.key()), i));
        } else {
          sources.emplace_back(&*it, at(bp, it.key()));
        }
        for (const auto& [s, sp] : sources) {
          const json* n = s->is_object() ? member(*s, "name") : s;
          const std::string np = s->is_object() ? at(sp, "name") : sp;
          if (n == nullptr) fail(sp, subject, it.key() + ": a binding object needs 'name'");
          resource_index(string_value(*n, np, subject, it.key() + " name"), np, subject, it.key() + " is bound to");
        }
      }
      skip(c, subject, "dispatchable " + in_quotes(d.name) + " is " + d.unsupported + ", which dmlref does not run");
      return;
    }
    for (auto it = bindings.begin(); it != bindings.end(); ++it) {
      const Role role = bind_point(d, it.key(), bp, subject);
      const TensorDesc& t = *d.tensors[role];
      if (t.owned_by_dml)
        fail(at(bp, it.key()), subject,
             it.key() +
                 " is OWNED_BY_DML: DirectML takes it once, from the dispatchable's own "
                 "bindings, and binding it at execution is an error");
      c.bindings[role] = binding(it.value(), at(bp, it.key()), subject, t, it.key());
      const Resource& r = model_.resources[c.bindings[role]->resource];
      if (!r.unsupported.empty() && c.skipped.empty())
        skip(c, subject,
             it.key() + " is bound to resource " + in_quotes(r.name) + ", " + r.unsupported +
                 ", which dmlref does not hold");
    }
    for (int i = 0; i < kRoleCount; ++i) {
      const Role role = static_cast<Role>(i);
      if (d.tensors[i] && !d.tensors[i]->owned_by_dml && !c.bindings[i])
        fail(bp, subject,
             std::string("nothing is bound to ") + role_name(role) + " (every tensor of " + dml_name(d.op) +
                 " is required)");
    }
  }

  void write_file_command(Command& c, const json& v, const std::string& subject) {
    c.resource = resource_index(string_value(required(v, c.pointer, subject, "resource", "what to write"),
                                             at(c.pointer, "resource"), subject, "resource"),
                                at(c.pointer, "resource"), subject, "it writes");
    const std::string tp = at(c.pointer, "targetPath");
    std::string path =
        string_value(required(v, c.pointer, subject, "targetPath", "the file to write, under --output-dir"), tp,
                     subject, "targetPath");
    std::replace(path.begin(), path.end(), '\\', '/');  // models written on Windows
    c.target_path = safe_relative_path(path, tp, subject);
    const std::string ext = lowercase_extension(c.target_path);
    c.npy = ext == ".npy";
    if (const json* dims = member(v, "dimensions")) {
      const std::string dp = at(c.pointer, "dimensions");
      if (!dims->is_array())
        fail(dp, subject, "dimensions must be an array of non-negative integers, but is " + describe(*dims));
      for (std::size_t i = 0; i < dims->size(); ++i)
        c.dimensions.push_back(uint32_value((*dims)[i], at(dp, i), subject, "dimensions[" + std::to_string(i) + "]"));
      if (c.npy && c.dimensions.size() > 32)
        fail(dp, subject, "dimensions has " + std::to_string(c.dimensions.size()) + " values; numpy reads at most 32");
    }
    const Resource& r = model_.resources[c.resource];
    if (ext == ".png" || ext == ".jpg") {
      unsupported(tp, "command " + std::to_string(c.index) + " (writeFile to an image file)");
      skip(c, subject, "dmlref does not write image files");
      return;
    }
    if (!r.unsupported.empty()) {
      skip(c, subject, "resource " + in_quotes(r.name) + " is " + r.unsupported + ", which dmlref does not hold");
      return;
    }
    if (!c.npy) return;
    if (r.type == DataType::UNKNOWN)
      fail(at(c.pointer, "resource"), subject,
           "resource " + in_quotes(r.name) +
               " has no initialValuesDataType (a list of typed values), so it has no .npy type; write it as raw bytes");
    u128 bytes = dmlref::element_size(r.type);
    for (std::int64_t d : c.dimensions) {
      bytes *= static_cast<std::uint64_t>(d);
      if (bytes > r.size) break;
    }
    if (!c.dimensions.empty() && bytes > r.size)
      fail(at(c.pointer, "dimensions"), subject,
           "dimensions describe more " + std::string(dmlref::name(r.type)) + " elements than resource " +
               in_quotes(r.name) + " holds (" + std::to_string(r.size) + " bytes)");
  }

  /// targetPath stays under --output-dir: relative, without '..', '.' or empty parts.
  std::string safe_relative_path(const std::string& path, const std::string& pointer, const std::string& subject) {
    if (path.empty() || path.front() == '/' || (path.size() >= 2 && path[1] == ':'))
      fail(pointer, subject,
           "targetPath " + in_quotes(path) + " must be a relative path (files are written under --output-dir)");
    std::string out;
    std::size_t start = 0;
    while (start <= path.size()) {
      std::size_t end = path.find('/', start);
      if (end == std::string::npos) end = path.size();
      const std::string part = path.substr(start, end - start);
      if (part == "..")
        fail(pointer, subject, "targetPath " + in_quotes(path) + " must stay under --output-dir (no '..')");
      if (!part.empty() && part != ".") out += (out.empty() ? "" : "/") + part;
      start = end + 1;
    }
    if (out.empty() || path.back() == '/') fail(pointer, subject, "targetPath " + in_quotes(path) + " names no file");
    return out;
  }

  // ---- the operators' own rules, before anything runs ----

  void check_operator(const Dispatchable& d) {
    const std::string subject = "dispatchable " + in_quotes(d.name);
    const char* op = d.op == Operator::gather            ? "Gather"
                     : d.op == Operator::gather_elements ? "GatherElements"
                     : d.op == Operator::gather_nd       ? "GatherND"
                     : d.op == Operator::gather_nd1      ? "GatherND1"
                     : d.op == Operator::scatter         ? "Scatter"
                                                         : "ScatterND";
    const TensorDesc& input = *d.tensors[kInput];
    // Worded as the operators word them (docs/errors.md).
    auto type_error = [&](Role role, const std::string& expected, const char* rule) {
      const TensorDesc& t = *d.tensors[role];
      fail(at(t.pointer, "DataType"), subject,
           std::string(op) + ": " + role_name(role) + ".DataType must be " + expected + ", but is " +
               dmlref::name(t.data_type) + rule);
    };
    if (!dmlref::is_index_type(d.tensors[kIndices]->data_type))
      type_error(kIndices, "INT32, INT64, UINT32 or UINT64", "");
    for (Role role : {kUpdates, kOutput})
      if (d.tensors[role] && d.tensors[role]->data_type != input.data_type)
        type_error(role, dmlref::name(input.data_type), " (data tensors share InputTensor's DataType)");

    auto shape = [&](Role role) {
      const TensorDesc& t = *d.tensors[role];
      return dmlref::Shape::from(t.sizes.data(), t.sizes.size());
    };
    dmlref::Result<dmlref::Shape> expected = dmlref::Shape();
    switch (d.op) {
      case Operator::gather:
        expected = dmlref::gather_output_sizes(shape(kInput), shape(kIndices),
                                               dmlref::GatherParams{d.axis, d.index_dimensions});
        break;
      case Operator::gather_elements:
        expected =
            dmlref::gather_elements_output_sizes(shape(kInput), shape(kIndices), dmlref::GatherElementsParams{d.axis});
        break;
      case Operator::gather_nd:
        expected = dmlref::gather_nd_output_sizes(
            shape(kInput), shape(kIndices), dmlref::GatherNDParams{d.input_dimension_count, d.indices_dimension_count});
        break;
      case Operator::gather_nd1:
        expected = dmlref::gather_nd1_output_sizes(
            shape(kInput), shape(kIndices),
            dmlref::GatherND1Params{d.input_dimension_count, d.indices_dimension_count, d.batch_dimension_count});
        break;
      case Operator::scatter:
        expected = dmlref::scatter_output_sizes(shape(kInput), shape(kIndices), shape(kUpdates),
                                                dmlref::ScatterParams{d.axis});
        break;
      case Operator::scatter_nd:
        expected = dmlref::scatter_nd_output_sizes(
            shape(kInput), shape(kIndices), shape(kUpdates),
            dmlref::ScatterNDParams{d.input_dimension_count, d.indices_dimension_count});
        break;
    }
    if (!expected) fail(error_pointer(d, expected.error()), subject, expected.status().message());
    if (shape(kOutput) != *expected) {
      dmlref::Error e;
      e.code = dmlref::ErrorCode::shape_mismatch;
      e.op = op;
      e.tensor = "OutputTensor";
      e.field = "Sizes";
      e.expected = dmlref::ErrorValue::of(*expected);
      e.actual = dmlref::ErrorValue::of(shape(kOutput));
      const std::string rule = std::string("the ") + op + " shape rule";
      e.rule = d.op == Operator::scatter || d.op == Operator::scatter_nd ? "OutputTensor has InputTensor's sizes"
                                                                         : rule.c_str();
      fail(at(d.tensors[kOutput]->pointer, "Sizes"), subject, e.message());
    }
  }

  /// The JSON Pointer of what a shape error names: a tensor's field, an attribute, or the desc.
  static std::string error_pointer(const Dispatchable& d, const dmlref::Error& e) {
    for (int i = 0; i < kRoleCount; ++i)
      if (d.tensors[i] && std::strcmp(e.tensor, role_name(static_cast<Role>(i))) == 0)
        return *e.field != '\0' ? at(d.tensors[i]->pointer, e.field) : d.tensors[i]->pointer;
    return *e.field != '\0' ? at(d.desc_pointer, e.field) : d.desc_pointer;
  }

  const LoadOptions& options_;
  Model model_;
  std::map<std::string, std::size_t> resource_names_, dispatchable_names_;
  std::vector<std::string> unsupported_;
  std::string unsupported_pointer_;
};

}  // namespace

LoadResult load_model(std::string_view text, const LoadOptions& options) {
  LoadResult result;
  try {
    const json root = parse_json(text);
    result.model = Loader(options).load(root);
  } catch (const Failure& f) {
    result.error = f.diagnostic;
  } catch (const json::exception& e) {
    // Type errors are checked before every access; this is a safety net, not a path.
    result.error = Diagnostic{"", std::string("internal error reading the model: ") + e.what()};
  }
  return result;
}

}  // namespace dxdispatch
