// dmlref._dmlref: the Python module over dmlref's dispatch layer and ONNX helpers (docs/python.md).
//
// The operators are plain CPython "fastcall" functions registered on a pybind11 module: a call
// parses its arguments by hand and reads numpy arrays through numpy's C API (no py::array, no
// conversion, no allocation unless the result is new), so that a small call costs little more
// than the C++ call it makes (bench/python_overhead.py).
//
// Operands are read in place: numpy arrays of any non-negative element strides, and anything with
// __dlpack__ (torch) through dmlref/dlpack.hpp. What a dmlref view cannot express (a negative
// stride, or a byte stride that is not a whole number of elements) is copied: an input to a
// C-contiguous array; an `out=` is computed into a C-contiguous temporary, copied into `out` only
// after the call succeeded.
//
// Each operator has an explain_* twin (dmlref/explain.hpp): the same parsing and checks, `at` in
// the slot of `out`, and a dmlref._provenance.Provenance instead of an array.
#define PY_SSIZE_T_CLEAN  // "s#" formats take Py_ssize_t
#include <pybind11/pybind11.h>

#define NPY_NO_DEPRECATED_API NPY_1_7_API_VERSION
#include <numpy/arrayobject.h>

#include <dlpack/dlpack.h>

#include <dmlref/dlpack.hpp>
#include <dmlref/dmlref.hpp>
#include <dmlref/explain.hpp>
#include <dmlref/onnx.hpp>

#include <array>
#include <cstdint>
#include <cstring>
#include <limits>
#include <new>
#include <optional>
#include <string>

namespace {

using dmlref::DataType;
using dmlref::Error;
using dmlref::ErrorCode;
using dmlref::ErrorValue;
using dmlref::Shape;
using dmlref::Status;

constexpr int kMaxRank = dmlref::max_dimension_count;

PyObject* g_error = nullptr;           // dmlref.Error (ValueError)
PyObject* g_index_error = nullptr;     // dmlref.IndexOutOfRangeError (dmlref.Error, IndexError)
PyObject* g_dlpack_name = nullptr;     // "__dlpack__"
PyObject* g_dtype_name = nullptr;      // "dtype"

// ---- errors ------------------------------------------------------------------------------------

PyObject* text_or_none(const char* s) {
  if (s == nullptr || *s == '\0') Py_RETURN_NONE;
  return PyUnicode_FromString(s);
}

PyObject* value_or_none(const ErrorValue& v) {
  if (v.kind == ErrorValue::Kind::none) Py_RETURN_NONE;
  const std::string s = v.to_string();
  return PyUnicode_FromStringAndSize(s.data(), static_cast<Py_ssize_t>(s.size()));
}

PyObject* coordinate_or_none(const Shape& s, bool present) {
  if (!present) Py_RETURN_NONE;
  PyObject* t = PyTuple_New(static_cast<Py_ssize_t>(s.size()));
  if (t == nullptr) return nullptr;
  for (std::size_t i = 0; i < s.size(); ++i)
    PyTuple_SET_ITEM(t, static_cast<Py_ssize_t>(i), PyLong_FromLongLong(s[static_cast<int>(i)]));
  return t;
}

PyObject* int_or_none(long long v, bool present) {
  if (!present) Py_RETURN_NONE;
  return PyLong_FromLongLong(v);
}

/// Raises dmlref.Error (or IndexOutOfRangeError) carrying the record; returns nullptr.
PyObject* raise(const Error& e) {
  const bool index = e.code == ErrorCode::index_out_of_range;
  const bool located =
      index || e.code == ErrorCode::scatter_collision || e.code == ErrorCode::coordinate_out_of_range;
  const std::string message = e.message();
  PyObject* cls = index ? g_index_error : g_error;
  PyObject* exc = PyObject_CallFunction(cls, "s#", message.data(), static_cast<Py_ssize_t>(message.size()));
  if (exc == nullptr) return nullptr;
  struct Attribute {
    const char* name;
    PyObject* value;
  } attributes[] = {
      {"code", PyUnicode_FromString(dmlref::name(e.code))},
      {"operator", text_or_none(e.op)},
      {"tensor", text_or_none(e.tensor)},
      {"field", text_or_none(e.field)},
      {"field_index", int_or_none(e.field_index, e.field_index >= 0)},
      {"expected", value_or_none(e.expected)},
      {"actual", value_or_none(e.actual)},
      {"rule", text_or_none(e.rule)},
      {"position", coordinate_or_none(e.position, located)},
      {"target_tensor", text_or_none(e.target_tensor)},
      {"target_dimension", int_or_none(e.target_dimension, located && e.target_dimension >= 0)},
      {"target_size", int_or_none(e.target_size, index)},
      {"target_position", coordinate_or_none(e.target_position, e.code == ErrorCode::scatter_collision)},
      {"output_partly_written", PyBool_FromLong(e.output_partly_written ? 1 : 0)},
      {"feature_level", int_or_none(e.feature_level, e.feature_level != 0)},
  };
  bool ok = true;
  for (const Attribute& a : attributes) {
    ok = ok && a.value != nullptr && PyObject_SetAttrString(exc, a.name, a.value) == 0;
    Py_XDECREF(a.value);
  }
  if (ok) PyErr_SetObject(cls, exc);
  Py_DECREF(exc);
  return nullptr;
}

PyObject* raise(const Status& s) { return raise(s.error()); }

Error make_error(ErrorCode code, const char* op, const char* tensor, const char* field, ErrorValue expected,
                 ErrorValue actual, const char* rule) {
  Error e;
  e.code = code;
  e.op = op;
  e.tensor = tensor;
  e.field = field;
  e.expected = expected;
  e.actual = actual;
  e.rule = rule;
  return e;
}

// ---- argument parsing ----------------------------------------------------------------------------

constexpr int kMaxParams = 16;

/// The keyword-only options that end every operator function's parameters, in this order.
struct CommonOptions {
  PyObject* all_or_nothing = nullptr;
  PyObject* feature_level = nullptr;
  PyObject* allow_scratch = nullptr;
  PyObject* binding_rules = nullptr;
};

/// A function's parameters: `positional` positional-or-keyword ones (the first `required` of them
/// required), then keyword-only ones.
struct Signature {
  const char* name;  // "dmlref.gather"
  int positional;
  int required;
  const char* params[kMaxParams];
  PyObject* interned[kMaxParams] = {};
  int count = 0;

  bool init() {
    for (count = 0; count < kMaxParams && params[count] != nullptr; ++count) {
      interned[count] = PyUnicode_InternFromString(params[count]);
      if (interned[count] == nullptr) return false;
    }
    return true;
  }

  /// The values parse() filled in for the options every operator function takes last, after
  /// parameters whose number differs between them (nullptr: not given).
  CommonOptions common_options(PyObject* const* values) const {
    if (count < 4 || std::strcmp(params[count - 4], "all_or_nothing") != 0) return CommonOptions{};
    return CommonOptions{values[count - 4], values[count - 3], values[count - 2], values[count - 1]};
  }

  /// Fills values[0..count) (nullptr: not given). False with a TypeError set.
  bool parse(PyObject* const* args, Py_ssize_t nargs, PyObject* kwnames, PyObject** values) const {
    if (nargs > positional) {
      PyErr_Format(PyExc_TypeError, "%s() takes at most %d positional arguments (%zd given)", name, positional,
                   nargs);
      return false;
    }
    for (int i = 0; i < count; ++i) values[i] = i < nargs ? args[i] : nullptr;
    if (kwnames != nullptr) {
      const Py_ssize_t n = PyTuple_GET_SIZE(kwnames);
      for (Py_ssize_t k = 0; k < n; ++k) {
        PyObject* key = PyTuple_GET_ITEM(kwnames, k);
        int j = 0;
        while (j < count && interned[j] != key) ++j;
        if (j == count)  // not interned by the caller (e.g. **kwargs built at run time)
          for (j = 0; j < count && PyUnicode_Compare(interned[j], key) != 0; ++j) {
          }
        if (j == count) {
          PyErr_Format(PyExc_TypeError, "%s() got an unexpected keyword argument '%U'", name, key);
          return false;
        }
        if (values[j] != nullptr) {
          PyErr_Format(PyExc_TypeError, "%s() got multiple values for argument '%s'", name, params[j]);
          return false;
        }
        values[j] = args[nargs + k];
      }
    }
    for (int i = 0; i < required; ++i)
      if (values[i] == nullptr) {
        PyErr_Format(PyExc_TypeError, "%s() missing required argument '%s' (pos %d)", name, params[i], i + 1);
        return false;
      }
    return true;
  }
};

/// The value of an int-like argument (int, numpy integer, anything with __index__), saturated to
/// the int64 range. False with TypeError set (naming `what`) for anything else.
bool index_value(PyObject* value, const char* fn, const char* what, const char* expected, long long& out) {
  if (!PyLong_Check(value) && !PyIndex_Check(value)) {
    PyErr_Format(PyExc_TypeError, "%s(): %s must be %s, not %s", fn, what, expected, Py_TYPE(value)->tp_name);
    return false;
  }
  PyObject* number = PyNumber_Index(value);
  if (number == nullptr) return false;
  int overflow = 0;
  out = PyLong_AsLongLongAndOverflow(number, &overflow);
  Py_DECREF(number);
  if (out == -1 && PyErr_Occurred()) return false;
  if (overflow != 0) out = overflow < 0 ? std::numeric_limits<long long>::min() : std::numeric_limits<long long>::max();
  return true;
}

/// A DirectML UINT attribute: `fallback` when None or not given. False with dmlref.Error set.
bool uint_attribute(PyObject* value, long long fallback, const char* fn, const char* op, const char* field,
                    std::uint32_t& out) {
  long long v = fallback;
  if (value != nullptr && value != Py_None && !index_value(value, fn, field, "an int or None", v)) return false;
  if (v < 0 || v > static_cast<long long>(std::numeric_limits<std::uint32_t>::max())) {
    Error e = make_error(ErrorCode::invalid_attribute, op, "", field, ErrorValue::range(0, 4294967295LL),
                         ErrorValue::of(static_cast<std::int64_t>(v)),
                         "DirectML attributes are UINT; the dmlref.onnx functions take negative axes");
    raise(e);
    return false;
  }
  out = static_cast<std::uint32_t>(v);
  return true;
}

/// A signed ONNX attribute (axis, batch_dims).
bool int_attribute(PyObject* value, const char* fn, const char* field, std::int64_t& out) {
  out = 0;
  if (value == nullptr) return true;
  long long v = 0;
  if (!index_value(value, fn, field, "an int", v)) return false;
  out = static_cast<std::int64_t>(v);
  return true;
}

/// Matches a str argument against choices; returns the index, or -1 with an error set.
int choice(PyObject* value, const char* fn, const char* arg, const char* const* choices, int count, int fallback) {
  if (value == nullptr) return fallback;
  if (!PyUnicode_Check(value)) {
    PyErr_Format(PyExc_TypeError, "%s(): %s must be a str, not %s", fn, arg, Py_TYPE(value)->tp_name);
    return -1;
  }
  for (int i = 0; i < count; ++i)
    if (PyUnicode_CompareWithASCIIString(value, choices[i]) == 0) return i;
  std::string list;
  for (int i = 0; i < count; ++i) list += std::string(i == 0 ? "'" : i + 1 == count ? " or '" : ", '") + choices[i] + "'";
  PyErr_Format(PyExc_ValueError, "%s(): %s must be %s, not %R", fn, arg, list.c_str(), value);
  return -1;
}

/// A feature_level argument: None, a DML_FEATURE_LEVEL value (an int, which the operator checks)
/// or its name as the CLI takes it ("3_0", "3.0", "0x3000", "DML_FEATURE_LEVEL_3_0"). False with
/// TypeError or ValueError set.
bool read_feature_level(const char* fn, PyObject* value, std::uint32_t& out) {
  out = 0;
  if (value == nullptr || value == Py_None) return true;
  if (PyUnicode_Check(value)) {
    Py_ssize_t size = 0;
    const char* text = PyUnicode_AsUTF8AndSize(value, &size);
    if (text == nullptr) return false;
    out = dmlref::feature_level::parse(std::string_view(text, static_cast<std::size_t>(size)));
    if (out != 0) return true;
    PyErr_Format(PyExc_ValueError,
                 "%s(): feature_level must name a DirectML feature level (1_0, 2_0, 2_1, 3_0, 3_1, 4_0, 4_1, "
                 "5_0, 5_1, 5_2, 6_0 ... 6_4; also written 3.0, 0x3000 or DML_FEATURE_LEVEL_3_0), not %R",
                 fn, value);
    return false;
  }
  long long v = 0;
  if (!index_value(value, fn, "feature_level", "None, an int or a str", v)) return false;
  if (v < 0 || v > static_cast<long long>(std::numeric_limits<std::uint32_t>::max())) {
    PyErr_Format(PyExc_ValueError, "%s(): feature_level must be a DML_FEATURE_LEVEL value (0x1000 ... 0x6400), not %R",
                 fn, value);
    return false;
  }
  out = static_cast<std::uint32_t>(v);
  return true;
}

/// A bool option: its truth value, when given.
bool read_flag(PyObject* value, bool& out) {
  if (value == nullptr) return true;
  const int truth = PyObject_IsTrue(value);
  if (truth < 0) return false;
  out = truth != 0;
  return true;
}

/// index_policy, check_collisions (when the function has it), threads, and the common options.
bool read_options(const char* fn, PyObject* policy, PyObject* collisions, PyObject* threads,
                  const CommonOptions& common, dmlref::Options& o) {
  static const char* const policies[] = {"error", "clamp"};
  const int p = choice(policy, fn, "index_policy", policies, 2, 0);
  if (p < 0) return false;
  o.index_policy = p == 0 ? dmlref::IndexPolicy::error : dmlref::IndexPolicy::clamp;
  if (!read_flag(collisions, o.check_collisions)) return false;
  if (threads != nullptr) {
    long long v = 0;
    if (!index_value(threads, fn, "threads", "an int", v)) return false;
    if (v < 1 || v > 1024) {
      PyErr_Format(PyExc_ValueError, "%s(): threads must be 1..1024, not %R", fn, threads);
      return false;
    }
    o.threads = static_cast<int>(v);
  }
  static const char* const binding_rules[] = {"relaxed", "directml"};
  const int b = choice(common.binding_rules, fn, "binding_rules", binding_rules, 2, 0);
  if (b < 0) return false;
  o.binding_rules = b == 0 ? dmlref::BindingRules::relaxed : dmlref::BindingRules::directml;
  return read_flag(common.all_or_nothing, o.all_or_nothing) &&
         read_feature_level(fn, common.feature_level, o.feature_level) &&
         read_flag(common.allow_scratch, o.allow_scratch);
}

bool read_reduction(const char* fn, PyObject* value, dmlref::Reduction& out) {
  static const char* const names[] = {"none", "add", "mul", "max", "min"};
  static const dmlref::Reduction values[] = {dmlref::Reduction::none, dmlref::Reduction::add, dmlref::Reduction::mul,
                                             dmlref::Reduction::max, dmlref::Reduction::min};
  const int r = choice(value, fn, "reduction", names, 5, 0);
  if (r < 0) return false;
  out = values[r];
  return true;
}

// ---- operands ----------------------------------------------------------------------------------------

/// numpy's type number for a DataType (the result of a call without out=).
int numpy_type(DataType t) {
  switch (t) {
    case DataType::FLOAT32: return NPY_FLOAT32;
    case DataType::FLOAT16: return NPY_FLOAT16;
    case DataType::FLOAT64: return NPY_FLOAT64;
    case DataType::UINT8: return NPY_UINT8;
    case DataType::UINT16: return NPY_UINT16;
    case DataType::UINT32: return NPY_UINT32;
    case DataType::UINT64: return NPY_UINT64;
    case DataType::INT8: return NPY_INT8;
    case DataType::INT16: return NPY_INT16;
    case DataType::INT32: return NPY_INT32;
    case DataType::INT64: return NPY_INT64;
    case DataType::UNKNOWN: break;
  }
  return NPY_NOTYPE;
}

/// The DataType of a numpy array's dtype; UNKNOWN for the ones dmlref does not take.
DataType numpy_data_type(PyArrayObject* a) {
  const int size = static_cast<int>(PyArray_ITEMSIZE(a));
  switch (PyArray_TYPE(a)) {
    case NPY_HALF: return DataType::FLOAT16;
    case NPY_FLOAT: return DataType::FLOAT32;
    case NPY_DOUBLE: return DataType::FLOAT64;
    case NPY_BYTE: case NPY_SHORT: case NPY_INT: case NPY_LONG: case NPY_LONGLONG:
      return size == 1 ? DataType::INT8 : size == 2 ? DataType::INT16 : size == 4 ? DataType::INT32
             : size == 8 ? DataType::INT64 : DataType::UNKNOWN;
    case NPY_UBYTE: case NPY_USHORT: case NPY_UINT: case NPY_ULONG: case NPY_ULONGLONG:
      return size == 1 ? DataType::UINT8 : size == 2 ? DataType::UINT16 : size == 4 ? DataType::UINT32
             : size == 8 ? DataType::UINT64 : DataType::UNKNOWN;
    default: return DataType::UNKNOWN;
  }
}

/// One array argument, read in place: its natural rank, sizes and element strides, and the same
/// left-padded to the call's DimensionCount.
struct Operand {
  const char* arg = "";           // the Python argument's name
  DataType type = DataType::UNKNOWN;
  int rank = 0;                   // natural rank; may exceed 8 (then only reported)
  std::int64_t sizes[kMaxRank] = {};
  std::int64_t strides[kMaxRank] = {};
  std::int64_t padded_sizes[kMaxRank] = {};
  std::int64_t padded_strides[kMaxRank] = {};
  std::uint32_t padded_rank = 0;
  unsigned char* data = nullptr;
  std::uint64_t bytes = 0;
  bool writable = true;
  bool unviewable = false;        // a numpy stride a view cannot express: needs a copy
  bool copied_for_strides = false;  // it was: given_byte_strides are the strides given
  std::int64_t given_byte_strides[kMaxRank] = {};
  PyArrayObject* array = nullptr; // the numpy array read (borrowed from the argument or owner)
  PyArrayObject* original = nullptr;  // the numpy array given, before any copy
  PyObject* owner = nullptr;      // a reference we hold: a converted or copied array, a DLPack capsule

  Operand() = default;
  Operand(const Operand&) = delete;
  Operand& operator=(const Operand&) = delete;
  ~Operand() { Py_XDECREF(owner); }

  void hold(PyObject* o) {
    Py_XDECREF(owner);
    owner = o;
  }
  bool empty() const {
    for (int d = 0; d < rank && d < kMaxRank; ++d)
      if (sizes[d] == 0) return true;
    return false;
  }
  Shape natural_shape() const { return Shape::from(sizes, static_cast<std::size_t>(rank)); }
  Shape padded_shape() const { return Shape::from(padded_sizes, padded_rank); }

  /// Left-pads to D dimensions (sizes 1); a rank above D stays (the operator then reports it).
  void pad(int D) {
    const int shift = rank < D ? D - rank : 0;
    padded_rank = static_cast<std::uint32_t>(rank + shift);
    for (int d = 0; d < shift; ++d) {
      padded_sizes[d] = 1;
      padded_strides[d] = 0;
    }
    for (int d = 0; d < rank; ++d) {
      padded_sizes[d + shift] = sizes[d];
      padded_strides[d + shift] = strides[d];
    }
  }
  dmlref::TensorDesc padded_desc() const {
    return {type, padded_rank, padded_sizes, padded_strides, bytes, data};
  }
  dmlref::MutableTensorDesc padded_output() const {
    return {type, padded_rank, padded_sizes, padded_strides, bytes, data};
  }
  dmlref::TensorDesc natural_desc() const {
    return {type, static_cast<std::uint32_t>(rank), sizes, strides, bytes, data};
  }
  dmlref::MutableTensorDesc natural_output() const {
    return {type, static_cast<std::uint32_t>(rank), sizes, strides, bytes, data};
  }
};

/// TypeError for a dtype dmlref does not take.
bool dtype_error(const char* fn, const char* arg, PyObject* obj, const char* why, bool list = true) {
  PyObject* dtype = PyObject_GetAttr(obj, g_dtype_name);
  if (dtype == nullptr) PyErr_Clear();
  PyErr_Format(PyExc_TypeError,
               "%s(): %s has dtype %S, which dmlref does not take (%s)%s", fn, arg, dtype != nullptr ? dtype : Py_None,
               why, list ? "; the data types are float16, float32, float64, int8, int16, int32, int64, uint8, "
                           "uint16, uint32 and uint64" : "");
  Py_XDECREF(dtype);
  return false;
}

/// The byte extent of sizes/strides (elements) times `size`: the bytes the tensor addresses.
std::uint64_t extent_bytes(const Operand& o, std::int64_t size) {
  if (o.empty()) return 0;
  std::int64_t last = 0;
  for (int d = 0; d < o.rank; ++d) last += (o.sizes[d] - 1) * o.strides[d];
  return static_cast<std::uint64_t>((last + 1) * size);
}

bool read_numpy(const char* fn, PyArrayObject* a, Operand& o) {
  o.array = a;
  o.type = numpy_data_type(a);
  if (o.type == DataType::UNKNOWN)
    return dtype_error(fn, o.arg, reinterpret_cast<PyObject*>(a), "DirectML has no such data type");
  if (PyArray_ISBYTESWAPPED(a))
    return dtype_error(fn, o.arg, reinterpret_cast<PyObject*>(a),
                       "not this machine's byte order: convert it with .astype(a.dtype.newbyteorder('='))", false);
  o.rank = PyArray_NDIM(a);
  o.data = static_cast<unsigned char*>(PyArray_DATA(a));
  o.writable = PyArray_ISWRITEABLE(a);
  if (o.rank > kMaxRank) return true;  // reported by the call, in its terms
  const npy_intp* dims = PyArray_DIMS(a);
  const npy_intp* byte_strides = PyArray_STRIDES(a);
  const auto size = static_cast<std::int64_t>(PyArray_ITEMSIZE(a));
  bool empty = false;
  for (int d = 0; d < o.rank; ++d) {
    o.sizes[d] = dims[d];
    empty = empty || dims[d] == 0;
  }
  for (int d = 0; d < o.rank; ++d) {
    const std::int64_t s = byte_strides[d];
    // A dimension of size 1 is never stepped along: its stride may be anything, 0 is canonical.
    if (dims[d] <= 1 || empty) {
      o.strides[d] = 0;
    } else if (s >= 0 && s % size == 0) {
      o.strides[d] = s / size;
    } else {
      o.strides[d] = 0;
      o.unviewable = true;
    }
  }
  if (o.unviewable && !o.copied_for_strides) {
    o.copied_for_strides = true;
    for (int d = 0; d < o.rank; ++d) o.given_byte_strides[d] = byte_strides[d];
  }
  o.bytes = extent_bytes(o, size);
  return true;
}

/// Replaces an operand whose strides a view cannot express by a C-contiguous copy.
bool copy_numpy(const char* fn, Operand& o) {
  PyObject* copy = PyArray_NewCopy(o.array, NPY_CORDER);
  if (copy == nullptr) return false;
  o.unviewable = false;
  o.hold(copy);
  return read_numpy(fn, reinterpret_cast<PyArrayObject*>(copy), o);
}

bool read_dlpack(const char* fn, PyObject* obj, Operand& o, bool is_output) {
  // A bool tensor is a TypeError here, before its producer refuses (torch 1.x) or exports it as
  // 8-bit integers (some others).
  PyObject* dtype = PyObject_GetAttr(obj, g_dtype_name);
  if (dtype == nullptr) {
    PyErr_Clear();
  } else {
    PyObject* text = PyObject_Str(dtype);
    Py_DECREF(dtype);
    if (text == nullptr) return false;
    const char* s = PyUnicode_AsUTF8(text);
    const bool is_bool = s != nullptr && (std::strcmp(s, "torch.bool") == 0 || std::strcmp(s, "bool") == 0);
    Py_DECREF(text);
    if (is_bool) return dtype_error(fn, o.arg, obj, "DirectML has no bool type");
  }
  PyObject* capsule = PyObject_CallMethodNoArgs(obj, g_dlpack_name);
  if (capsule == nullptr) return false;
  o.hold(capsule);  // not renamed "used_dltensor": releasing it calls the producer's deleter
  if (!PyCapsule_IsValid(capsule, "dltensor")) {
    PyErr_Format(PyExc_TypeError, "%s(): %s.__dlpack__() did not return a 'dltensor' capsule", fn, o.arg);
    return false;
  }
  auto* managed = static_cast<DLManagedTensor*>(PyCapsule_GetPointer(capsule, "dltensor"));
  const DLTensor& t = managed->dl_tensor;
  const dmlref::Result<DataType> type = dmlref::dlpack::try_data_type(t.dtype);
  if (!type) {
    const std::string why = type.status().message();
    return dtype_error(fn, o.arg, obj, why.c_str());
  }
  o.type = *type;
  o.rank = t.ndim;
  o.writable = true;
  if (t.ndim > kMaxRank) return true;  // reported by the call, in its terms
  auto fail = [&](Error e) {
    e.tensor = o.arg;
    raise(e);
    return false;
  };
  if (!dmlref::dlpack::is_cpu_accessible(t.device) || (t.ndim > 0 && t.shape == nullptr) || t.ndim < 0)
    return fail(dmlref::dlpack::try_desc(t).error());
  bool negative = false, empty = false;
  for (int d = 0; d < t.ndim; ++d) {
    negative = negative || (t.strides != nullptr && t.strides[d] < 0 && t.shape[d] > 1);
    empty = empty || t.shape[d] == 0;
  }
  if (negative && !is_output) {
    // Not from torch (which has no negative strides): numpy reads it, and it is copied.
    PyObject* numpy = PyImport_ImportModule("numpy");
    if (numpy == nullptr) return false;
    PyObject* array = PyObject_CallMethod(numpy, "from_dlpack", "O", obj);
    Py_DECREF(numpy);
    if (array == nullptr) return false;
    o.hold(array);
    if (!read_numpy(fn, reinterpret_cast<PyArrayObject*>(array), o)) return false;
    return copy_numpy(fn, o);
  }
  if (t.ndim >= 1 && !empty) {
    // The DirectML case: dmlref's own reading (device, dtype, strides, extent, overflow).
    const dmlref::Result<dmlref::TensorDesc> desc = dmlref::dlpack::try_desc(t);
    if (!desc) return fail(desc.error());
    const Shape packed = dmlref::packed_strides(Shape::from(desc->Sizes, desc->DimensionCount));
    for (int d = 0; d < o.rank; ++d) {
      o.sizes[d] = desc->Sizes[d];
      o.strides[d] = o.sizes[d] <= 1 ? 0 : desc->Strides != nullptr ? desc->Strides[d] : packed[d];
    }
    o.bytes = desc->TotalTensorSizeInBytes;
    o.data = static_cast<unsigned char*>(const_cast<void*>(desc->Data));
    return true;
  }
  // 0-d and empty tensors, which only the ONNX functions accept.
  for (int d = 0; d < t.ndim; ++d) o.sizes[d] = t.shape[d];
  const Shape packed = dmlref::packed_strides(o.natural_shape());
  for (int d = 0; d < t.ndim; ++d)
    o.strides[d] = (o.sizes[d] <= 1 || empty) ? 0 : (t.strides != nullptr ? t.strides[d] : packed[d]);
  o.data = static_cast<unsigned char*>(t.data) + t.byte_offset;
  o.bytes = extent_bytes(o, static_cast<std::int64_t>(dmlref::element_size(o.type)));
  return true;
}

/// Reads an input argument: a numpy array in place, a __dlpack__ object in place, anything else
/// through numpy.asarray.
bool read_input(const char* fn, PyObject* obj, Operand& o) {
  if (PyArray_Check(obj)) {
    o.original = reinterpret_cast<PyArrayObject*>(obj);
    if (!read_numpy(fn, o.original, o)) return false;
  } else if (PyObject_HasAttr(obj, g_dlpack_name)) {
    return read_dlpack(fn, obj, o, false);
  } else {
    PyObject* array = PyArray_FromAny(obj, nullptr, 0, 0, 0, nullptr);
    if (array == nullptr) return false;
    o.hold(array);
    if (!read_numpy(fn, reinterpret_cast<PyArrayObject*>(array), o)) return false;
  }
  if (o.unviewable) return copy_numpy(fn, o);
  return true;
}

/// Reads `out=`: a numpy array or a __dlpack__ object; never converted.
bool read_output(const char* fn, PyObject* obj, Operand& o) {
  if (PyArray_Check(obj)) {
    if (!read_numpy(fn, reinterpret_cast<PyArrayObject*>(obj), o)) return false;
    if (!o.writable) {
      PyErr_Format(PyExc_ValueError, "%s(): out is read-only", fn);
      return false;
    }
    return true;
  }
  if (PyObject_HasAttr(obj, g_dlpack_name)) return read_dlpack(fn, obj, o, true);
  PyErr_Format(PyExc_TypeError, "%s(): out must be a numpy array or a tensor with __dlpack__ (torch), not %s", fn,
               Py_TYPE(obj)->tp_name);
  return false;
}

// ---- the calls ---------------------------------------------------------------------------------------

/// The names a convention gives the operands (for its errors about ranks).
struct Names {
  const char* input;
  const char* indices;
  const char* updates;
  const char* output;
};
constexpr Names kDirectML{"InputTensor", "IndicesTensor", "UpdatesTensor", "OutputTensor"};
constexpr Names kOnnx{"data", "indices", "updates", "output"};

bool rank_error(const char* op, const char* tensor, int rank, int min_rank, const char* rule) {
  raise(make_error(ErrorCode::invalid_dimension_count, op, tensor, "DimensionCount", ErrorValue::range(min_rank, kMaxRank),
                   ErrorValue::of(static_cast<std::int64_t>(rank)), rule));
  return false;
}

/// What every operator call shares: the operands, the output and the options.
struct Call {
  const char* fn;                  // "dmlref.gather"
  const char* op;                  // the operator's name in errors ("Gather")
  bool onnx;                       // natural ranks (dmlref.onnx) instead of padded ones
  Operand input, indices, updates, out;
  bool has_updates = false;
  PyObject* out_object = nullptr;  // out= as given (borrowed), or nullptr
  PyObject* result = nullptr;      // what the call returns (new reference)
  PyObject* temporary = nullptr;   // an out= computed elsewhere first (new reference)
  int D = 0;                       // DirectML: the padded rank
  dmlref::Options options;

  Call(const char* function, const char* op_name, bool is_onnx) : fn(function), op(op_name), onnx(is_onnx) {}
  Call(const Call&) = delete;
  Call& operator=(const Call&) = delete;
  ~Call() {
    Py_XDECREF(result);
    Py_XDECREF(temporary);
  }

  /// An operand and its tensor's name in errors.
  struct Named {
    Operand* operand;
    const char* name;
  };
  /// The operands in field order (updates unused by a gather, out= unused until given).
  std::array<Named, 4> named_operands() {
    const Names& names = onnx ? kOnnx : kDirectML;
    return {{{&input, names.input}, {&indices, names.indices}, {&updates, names.updates}, {&out, names.output}}};
  }

  bool read(PyObject* in, PyObject* idx, PyObject* upd, PyObject* out_arg) {
    input.arg = onnx ? "data" : "input";
    indices.arg = "indices";
    updates.arg = "updates";
    out.arg = "out";
    if (!read_input(fn, in, input) || !read_input(fn, idx, indices)) return false;
    has_updates = upd != nullptr;
    if (has_updates && !read_input(fn, upd, updates)) return false;
    if (out_arg != nullptr && out_arg != Py_None) {
      out_object = out_arg;
      if (!read_output(fn, out_arg, out)) return false;
    }
    const char* rule = onnx ? "DirectML allows at most 8 dimensions" : "DirectML tensors have at most 8 dimensions";
    for (const Named& o : named_operands())
      if (o.operand->rank > kMaxRank) return rank_error(op, o.name, o.operand->rank, onnx ? 0 : 1, rule);
    if (!onnx) {
      D = std::max({1, input.rank, indices.rank, has_updates ? updates.rank : 0});
      input.pad(D);
      indices.pad(D);
      if (has_updates) updates.pad(D);
      if (out_object != nullptr) out.pad(D);
    }
    return true;
  }

  /// index_policy, check_collisions (nullptr where the function has none), threads and the
  /// common options into `options`, then binds the operands as binding_rules says.
  bool read_options(PyObject* policy, PyObject* collisions, PyObject* threads, const CommonOptions& common) {
    return ::read_options(fn, policy, collisions, threads, common, options) && bind_as_directml();
  }

  /// binding_rules='directml': every operand is bound as DirectML would bind it, as given. An
  /// array whose strides are negative or not whole elements has no DML_BUFFER_TENSOR_DESC (relaxed
  /// rules copy it first), and each buffer declares TotalTensorSizeInBytes = DMLCalcBufferTensorSize
  /// (its extent rounded up to 4 bytes): a numpy array carries no buffer size of its own.
  bool bind_as_directml() {
    if (options.binding_rules != dmlref::BindingRules::directml) return true;
    for (const Named& o : named_operands()) {
      if (!o.operand->copied_for_strides) continue;
      const Operand& given = *o.operand;
      raise(make_error(ErrorCode::invalid_stride, op, o.name, "Strides",
                       ErrorValue::of_text("byte strides of whole elements, at least 0"),
                       ErrorValue::of(Shape::from(given.given_byte_strides, static_cast<std::size_t>(given.rank))),
                       "binding_rules is directml: DML_BUFFER_TENSOR_DESC's Strides are UINT elements; "
                       "relaxed rules bind a copy"));
      return false;
    }
    for (const Named& o : named_operands()) declare_directml_size(*o.operand);
    return true;
  }
  /// (A temporary standing in for out= never needs it: such an out= is refused above.)
  void declare_directml_size(Operand& o) const {
    if (options.binding_rules == dmlref::BindingRules::directml) o.bytes = (o.bytes + 3) & ~std::uint64_t{3};
  }

  /// Prepares the output: `out=` itself, a temporary standing in for it, or a new array of
  /// `sizes`. `in_place_ok`: a scatter, whose out= may be its input.
  bool prepare_output(const Shape& sizes, bool in_place_ok) {
    if (out_object != nullptr) {
      if (!out.unviewable) {
        Py_INCREF(out_object);
        result = out_object;
        return true;
      }
      // A view cannot express out's strides: compute into a C-contiguous temporary, copied into
      // out on success. An in-place scatter starts from a copy of the input.
      PyArrayObject* const given = input.original;
      const bool in_place =
          in_place_ok && given != nullptr &&
          (given == out.array ||
           (PyArray_DATA(given) == PyArray_DATA(out.array) && PyArray_NDIM(given) == PyArray_NDIM(out.array) &&
            PyArray_CompareLists(PyArray_STRIDES(given), PyArray_STRIDES(out.array), PyArray_NDIM(out.array)) &&
            PyArray_CompareLists(PyArray_DIMS(given), PyArray_DIMS(out.array), PyArray_NDIM(out.array))));
      temporary = in_place ? PyArray_NewCopy(out.array, NPY_CORDER)
                           : PyArray_NewLikeArray(out.array, NPY_CORDER, nullptr, 0);
      if (temporary == nullptr) return false;
      Py_INCREF(out_object);
      result = out_object;
      Operand& target = out;
      target.unviewable = false;
      if (!read_numpy(fn, reinterpret_cast<PyArrayObject*>(temporary), target)) return false;
      if (in_place && !read_numpy(fn, reinterpret_cast<PyArrayObject*>(temporary), input)) return false;
      if (!onnx) {
        target.pad(D);
        if (in_place) input.pad(D);
      }
      return true;
    }
    npy_intp dims[kMaxRank];
    for (std::size_t d = 0; d < sizes.size(); ++d) dims[d] = static_cast<npy_intp>(sizes[static_cast<int>(d)]);
    result = PyArray_SimpleNew(static_cast<int>(sizes.size()), dims, numpy_type(input.type));
    if (result == nullptr) return false;
    out.hold(nullptr);
    if (!read_numpy(fn, reinterpret_cast<PyArrayObject*>(result), out)) return false;
    declare_directml_size(out);
    if (!onnx) out.pad(D);
    return true;
  }

  /// Runs `run` (which returns a Status) without the GIL; returns the result or raises.
  template <class Run>
  PyObject* finish(Run&& run) {
    Status status;
    Py_BEGIN_ALLOW_THREADS status = run();
    Py_END_ALLOW_THREADS
    if (!status) {
      // One pass (all_or_nothing=False) may have written some rows: to out= itself, or else to an
      // array the caller never sees (a new result, or the temporary that stands in for out=).
      Error e = status.error();
      if (out_object == nullptr || temporary != nullptr) e.output_partly_written = false;
      return raise(e);
    }
    if (temporary != nullptr &&
        PyArray_CopyInto(reinterpret_cast<PyArrayObject*>(out_object), reinterpret_cast<PyArrayObject*>(temporary)) < 0)
      return nullptr;
    PyObject* r = result;
    result = nullptr;
    return r;
  }
};

/// The error a call reports when its output sizes cannot be computed: the operator's own, in its
/// order of checks, from a call whose output is a stand-in of one element (which nothing can
/// overlap): out= itself when a view can express it, else out's data type and rank.
template <class Run>
PyObject* shape_failure(Call& c, const Status& sizes_status, Run&& run) {
  alignas(16) unsigned char scratch[8] = {};  // DirectML's alignment, for binding_rules='directml'
  const std::int64_t ones[kMaxRank] = {1, 1, 1, 1, 1, 1, 1, 1};
  Status s;
  if (c.out_object != nullptr && !c.out.unviewable) {
    s = run(c.onnx ? c.out.natural_output() : c.out.padded_output());
  } else {
    const bool given = c.out_object != nullptr;
    const auto rank = static_cast<std::uint32_t>(given ? (c.onnx ? c.out.rank : c.out.padded_rank)
                                                       : (c.onnx ? 0 : c.D));
    s = run(dmlref::MutableTensorDesc{given ? c.out.type : c.input.type, rank, ones, nullptr, sizeof scratch, scratch});
  }
  return raise(s ? sizes_status : s);
}

// ---- explanations (dmlref/explain.hpp, docs/explain.md) -------------------------------------------

namespace py = pybind11;

// dmlref._provenance's Provenance, IndexRead and Update, imported on the first explanation and
// kept for the process's life, as g_error is.
PyObject* g_provenance_type = nullptr;
PyObject* g_index_read_type = nullptr;
PyObject* g_update_type = nullptr;

bool load_provenance_types() {
  if (g_provenance_type != nullptr) return true;
  PyObject* m = PyImport_ImportModule("dmlref._provenance");
  if (m == nullptr) return false;
  PyObject* p = PyObject_GetAttrString(m, "Provenance");
  PyObject* r = PyObject_GetAttrString(m, "IndexRead");
  PyObject* u = PyObject_GetAttrString(m, "Update");
  Py_DECREF(m);
  if (p == nullptr || r == nullptr || u == nullptr) {
    Py_XDECREF(p);
    Py_XDECREF(r);
    Py_XDECREF(u);
    return false;
  }
  g_provenance_type = p;
  g_index_read_type = r;
  g_update_type = u;
  return true;
}

/// An explain_* call's `at`: a sequence of ints (an int alone: a 1-D output). Its rank and range
/// are the explanation's to check (coordinate_out_of_range). False with TypeError set.
bool read_coordinate(const char* fn, PyObject* value, Shape& at) {
  at = Shape();
  if (value == nullptr) {
    PyErr_Format(PyExc_TypeError, "%s() missing required keyword-only argument 'at' (the output coordinate)", fn);
    return false;
  }
  const bool scalar_array = PyArray_Check(value) && PyArray_NDIM(reinterpret_cast<PyArrayObject*>(value)) == 0;
  if (!PyBool_Check(value) && (PyLong_Check(value) || scalar_array || (PyIndex_Check(value) && !PySequence_Check(value)))) {
    long long v = 0;
    if (!index_value(value, fn, "at", "a tuple of ints", v)) return false;
    at.push_back(v);
    return true;
  }
  if (PyBool_Check(value) || PyUnicode_Check(value) || PyBytes_Check(value) || PyByteArray_Check(value) ||
      !PySequence_Check(value)) {
    PyErr_Format(PyExc_TypeError, "%s(): at must be a tuple of ints (an output coordinate), not %s", fn,
                 Py_TYPE(value)->tp_name);
    return false;
  }
  PyObject* items = PySequence_Fast(value, "at must be a sequence of ints");
  if (items == nullptr) return false;
  const Py_ssize_t n = PySequence_Fast_GET_SIZE(items);
  bool ok = true;
  for (Py_ssize_t i = 0; ok && i < n; ++i) {
    PyObject* item = PySequence_Fast_GET_ITEM(items, i);
    const std::string what = "at[" + std::to_string(i) + "]";
    long long v = 0;
    if (PyBool_Check(item)) {
      PyErr_Format(PyExc_TypeError, "%s(): %s must be an int, not bool", fn, what.c_str());
      ok = false;
    } else {
      ok = index_value(item, fn, what.c_str(), "an int", v);
      if (ok) at.push_back(v);
    }
  }
  Py_DECREF(items);
  return ok;
}

/// An element as a numpy scalar of its type, made from its bits (NaN payloads kept).
py::object element_scalar(const dmlref::Element& e) {
  unsigned char bytes[8] = {};
  switch (dmlref::element_size(e.type)) {
    case 1: { const auto v = static_cast<std::uint8_t>(e.bits); std::memcpy(bytes, &v, 1); break; }
    case 2: { const auto v = static_cast<std::uint16_t>(e.bits); std::memcpy(bytes, &v, 2); break; }
    case 4: { const auto v = static_cast<std::uint32_t>(e.bits); std::memcpy(bytes, &v, 4); break; }
    default: std::memcpy(bytes, &e.bits, 8); break;
  }
  PyArray_Descr* descr = PyArray_DescrFromType(numpy_type(e.type));
  if (descr == nullptr) throw py::error_already_set();
  PyObject* scalar = PyArray_Scalar(bytes, descr, nullptr);
  Py_DECREF(descr);
  if (scalar == nullptr) throw py::error_already_set();
  return py::reinterpret_steal<py::object>(scalar);
}

py::tuple coordinate_tuple(const Shape& s) {
  py::tuple t(s.size());
  for (std::size_t i = 0; i < s.size(); ++i) t[i] = py::int_(static_cast<long long>(s[static_cast<int>(i)]));
  return t;
}

py::tuple index_reads(const std::vector<dmlref::IndexRead>& reads) {
  py::tuple t(reads.size());
  for (std::size_t i = 0; i < reads.size(); ++i) {
    const dmlref::IndexRead& r = reads[i];
    py::dict kw;
    kw["coordinate"] = coordinate_tuple(r.coordinate);
    kw["value"] = element_scalar(r.value);
    kw["value_bits"] = py::int_(static_cast<unsigned long long>(r.value.bits));
    kw["dimension"] = r.dimension;
    kw["size"] = py::int_(static_cast<long long>(r.size));
    kw["position"] = py::int_(static_cast<long long>(r.position));
    kw["clamped"] = py::bool_(r.clamped);
    kw["clamped_to"] = r.clamped ? py::object(py::int_(static_cast<long long>(r.clamped_to))) : py::object(py::none());
    t[i] = py::handle(g_index_read_type)(**kw);
  }
  return t;
}

py::object provenance_object(const dmlref::Provenance& p) {
  py::tuple updates(p.updates.size());
  for (std::size_t i = 0; i < p.updates.size(); ++i) {
    const dmlref::Update& u = p.updates[i];
    py::dict kw;
    kw["coordinate"] = coordinate_tuple(u.coordinate);
    kw["indices"] = index_reads(u.indices);
    kw["value"] = element_scalar(u.value);
    kw["value_bits"] = py::int_(static_cast<unsigned long long>(u.value.bits));
    kw["result"] = element_scalar(u.result);
    kw["result_bits"] = py::int_(static_cast<unsigned long long>(u.result.bits));
    updates[i] = py::handle(g_update_type)(**kw);
  }
  py::dict kw;
  kw["op"] = py::str(p.op);
  kw["onnx"] = py::bool_(p.onnx);
  kw["scatter"] = py::bool_(p.scatter);
  kw["tuples"] = py::bool_(p.tuples);
  kw["output"] = coordinate_tuple(p.output);
  kw["value"] = element_scalar(p.value);
  kw["value_bits"] = py::int_(static_cast<unsigned long long>(p.value.bits));
  kw["source"] = py::str(p.source == dmlref::Source::input ? "input" : "updates");
  kw["input"] = coordinate_tuple(p.input);
  kw["input_value"] = element_scalar(p.input_value);
  kw["input_value_bits"] = py::int_(static_cast<unsigned long long>(p.input_value.bits));
  kw["indices"] = index_reads(p.indices);
  kw["reduction"] = py::str(dmlref::name(p.reduction));
  kw["updates"] = updates;
  kw["_text"] = py::str(dmlref::to_string(p));
  kw["_source_text"] = py::str(dmlref::source_text(p));
  return py::handle(g_provenance_type)(**kw);
}

/// Runs an explanation without the GIL; returns its Provenance object, or raises its error.
template <class Explain>
PyObject* explained(Explain&& explain) {
  if (!load_provenance_types()) return nullptr;
  std::optional<dmlref::Result<dmlref::Provenance>> result;
  bool no_memory = false;
  Py_BEGIN_ALLOW_THREADS
  try {
    result.emplace(explain());
  } catch (const std::bad_alloc&) {
    no_memory = true;
  }
  Py_END_ALLOW_THREADS
  if (no_memory) return PyErr_NoMemory();
  if (!*result) return raise(result->status());
  try {
    return provenance_object(**result).release().ptr();
  } catch (py::error_already_set& e) {
    e.restore();
    return nullptr;
  } catch (const std::bad_alloc&) {
    return PyErr_NoMemory();
  }
}

/// dmlref._dmlref._element_text(a): "1.5 (0x3e00)" for the one element of array or scalar `a`, as
/// explanations and the C++ reports print elements (testing.py's mismatch lines).
PyObject* py_element_text(PyObject*, PyObject* arg) {
  PyObject* array = PyArray_FromAny(arg, nullptr, 0, 0, 0, nullptr);
  if (array == nullptr) return nullptr;
  Operand o;
  o.arg = "a";
  o.hold(array);
  if (!read_numpy("dmlref._element_text", reinterpret_cast<PyArrayObject*>(array), o)) return nullptr;
  if (PyArray_SIZE(reinterpret_cast<PyArrayObject*>(array)) != 1) {
    PyErr_SetString(PyExc_ValueError, "dmlref._element_text(): a must hold one element");
    return nullptr;
  }
  const unsigned char* p = static_cast<const unsigned char*>(PyArray_DATA(reinterpret_cast<PyArrayObject*>(array)));
  dmlref::Element e;
  e.type = o.type;
  switch (dmlref::element_size(o.type)) {
    case 1: { std::uint8_t v; std::memcpy(&v, p, 1); e.bits = v; break; }
    case 2: { std::uint16_t v; std::memcpy(&v, p, 2); e.bits = v; break; }
    case 4: { std::uint32_t v; std::memcpy(&v, p, 4); e.bits = v; break; }
    default: std::memcpy(&e.bits, p, 8); break;
  }
  const std::string text = dmlref::to_string(e);
  return PyUnicode_FromStringAndSize(text.data(), static_cast<Py_ssize_t>(text.size()));
}

// ---- what every operator function shares ----------------------------------------------------------

/// A function's Signature under another name.
Signature renamed(const char* name, Signature s) {
  s.name = name;
  return s;
}

/// An explain_* function's Signature: its operator's, `at` in the place of `out`.
Signature explain_signature(const char* name, const Signature& op) {
  Signature s = renamed(name, op);
  for (const char*& p : s.params)
    if (p != nullptr && std::strcmp(p, "out") == 0) p = "at";
  return s;
}

/// Ends a call whose arguments are read: prepares the output (of the sizes `sizes_of` computes,
/// unless out= is given and a view can express it), then runs the operator or, with `explain`,
/// explains it. `run` and `explain_at` take the output's desc; `scatter`: out= may be the input.
template <class Sizes, class Run, class Explain>
PyObject* complete(Call& c, bool scatter, Sizes&& sizes_of, Run&& run, bool explain, Explain&& explain_at) {
  if (c.out_object == nullptr || c.out.unviewable) {
    const dmlref::Result<Shape> sizes = sizes_of();
    if (!sizes) return shape_failure(c, sizes.status(), run);
    if (!c.prepare_output(*sizes, scatter)) return nullptr;
  } else if (!c.prepare_output(Shape(), scatter)) {
    return nullptr;
  }
  const dmlref::MutableTensorDesc o = c.onnx ? c.out.natural_output() : c.out.padded_output();
  if (explain) return explained([&] { return explain_at(o); });
  return c.finish([&] { return run(o); });
}

// ---- DirectML convention -------------------------------------------------------------------------
//
// Each function serves its operator and, with `explain`, its explain_* twin, whose Signature names
// `at` where the operator's names `out` (a required keyword-only argument). An explanation never
// has an out=: it runs on a new, untouched output buffer of the result's sizes.

enum GatherArgs { kGIn, kGIdx, kGAxis, kGIndexDims, kGOut, kGPolicy, kGThreads };
Signature g_gather{"dmlref.gather", 4, 2,
                   {"input", "indices", "axis", "index_dimensions", "out", "index_policy", "threads",
                    "all_or_nothing", "feature_level", "allow_scratch", "binding_rules", nullptr}};
Signature g_explain_gather = explain_signature("dmlref.explain_gather", g_gather);

PyObject* gather_common(const Signature& sig, bool explain, PyObject* const* args, Py_ssize_t nargs,
                        PyObject* kwnames) {
  PyObject* v[kMaxParams];
  if (!sig.parse(args, nargs, kwnames, v)) return nullptr;
  Call c(sig.name, "Gather", false);
  if (!c.read(v[kGIn], v[kGIdx], nullptr, explain ? nullptr : v[kGOut])) return nullptr;
  dmlref::GatherParams params;
  Shape at;
  if (!uint_attribute(v[kGAxis], 0, c.fn, c.op, "Axis", params.Axis) ||
      !uint_attribute(v[kGIndexDims], c.indices.rank, c.fn, c.op, "IndexDimensions", params.IndexDimensions) ||
      !c.read_options(v[kGPolicy], nullptr, v[kGThreads], sig.common_options(v)) ||
      (explain && !read_coordinate(c.fn, v[kGOut], at)))
    return nullptr;
  const dmlref::TensorDesc in = c.input.padded_desc(), idx = c.indices.padded_desc();
  return complete(
      c, false, [&] { return dmlref::gather_output_sizes(c.input.padded_shape(), c.indices.padded_shape(), params); },
      [&](const dmlref::MutableTensorDesc& o) { return dmlref::try_gather(in, idx, o, params, c.options); }, explain,
      [&](const dmlref::MutableTensorDesc& o) { return dmlref::explain_gather(in, idx, o, params, at, c.options); });
}

enum ElementsArgs { kEIn, kEIdx, kEAxis, kEOut, kEPolicy, kEThreads };
Signature g_gather_elements{"dmlref.gather_elements", 3, 2,
                            {"input", "indices", "axis", "out", "index_policy", "threads",
                             "all_or_nothing", "feature_level", "allow_scratch", "binding_rules", nullptr}};
Signature g_explain_gather_elements = explain_signature("dmlref.explain_gather_elements", g_gather_elements);

PyObject* gather_elements_common(const Signature& sig, bool explain, PyObject* const* args, Py_ssize_t nargs,
                                 PyObject* kwnames) {
  PyObject* v[kMaxParams];
  if (!sig.parse(args, nargs, kwnames, v)) return nullptr;
  Call c(sig.name, "GatherElements", false);
  if (!c.read(v[kEIn], v[kEIdx], nullptr, explain ? nullptr : v[kEOut])) return nullptr;
  dmlref::GatherElementsParams params;
  Shape at;
  if (!uint_attribute(v[kEAxis], 0, c.fn, c.op, "Axis", params.Axis) ||
      !c.read_options(v[kEPolicy], nullptr, v[kEThreads], sig.common_options(v)) ||
      (explain && !read_coordinate(c.fn, v[kEOut], at)))
    return nullptr;
  const dmlref::TensorDesc in = c.input.padded_desc(), idx = c.indices.padded_desc();
  return complete(
      c, false,
      [&] { return dmlref::gather_elements_output_sizes(c.input.padded_shape(), c.indices.padded_shape(), params); },
      [&](const dmlref::MutableTensorDesc& o) { return dmlref::try_gather_elements(in, idx, o, params, c.options); },
      explain, [&](const dmlref::MutableTensorDesc& o) {
        return dmlref::explain_gather_elements(in, idx, o, params, at, c.options);
      });
}

enum NDArgs { kNIn, kNIdx, kNInputCount, kNIndicesCount, kNBatch, kNOut, kNPolicy, kNThreads };
Signature g_gather_nd{"dmlref.gather_nd", 4, 2,
                      {"input", "indices", "input_dimension_count", "indices_dimension_count", "out", "index_policy",
                       "threads", "all_or_nothing", "feature_level", "allow_scratch", "binding_rules", nullptr}};
Signature g_gather_nd1{"dmlref.gather_nd1", 5, 2,
                       {"input", "indices", "input_dimension_count", "indices_dimension_count", "batch_dimension_count",
                        "out", "index_policy", "threads", "all_or_nothing", "feature_level", "allow_scratch",
                        "binding_rules", nullptr}};
Signature g_explain_gather_nd = explain_signature("dmlref.explain_gather_nd", g_gather_nd);
Signature g_explain_gather_nd1 = explain_signature("dmlref.explain_gather_nd1", g_gather_nd1);

enum class GatherND { nd, nd1 };

PyObject* gather_nd_common(const Signature& sig, GatherND which, bool explain, PyObject* const* args,
                           Py_ssize_t nargs, PyObject* kwnames) {
  PyObject* v[kMaxParams];
  if (!sig.parse(args, nargs, kwnames, v)) return nullptr;
  const bool nd1 = which == GatherND::nd1;
  // GatherND has no batch_dimension_count: its later slots shift down by one.
  PyObject* out = v[nd1 ? kNOut : kNOut - 1];
  PyObject* policy = v[nd1 ? kNPolicy : kNPolicy - 1];
  PyObject* threads = v[nd1 ? kNThreads : kNThreads - 1];
  Call c(sig.name, nd1 ? "GatherND1" : "GatherND", false);
  if (!c.read(v[kNIn], v[kNIdx], nullptr, explain ? nullptr : out)) return nullptr;
  dmlref::GatherND1Params params;
  Shape at;
  if (!uint_attribute(v[kNInputCount], c.input.rank, c.fn, c.op, "InputDimensionCount", params.InputDimensionCount) ||
      !uint_attribute(v[kNIndicesCount], c.indices.rank, c.fn, c.op, "IndicesDimensionCount",
                      params.IndicesDimensionCount) ||
      (nd1 && !uint_attribute(v[kNBatch], 0, c.fn, c.op, "BatchDimensionCount", params.BatchDimensionCount)) ||
      !c.read_options(policy, nullptr, threads, sig.common_options(v)) || (explain && !read_coordinate(c.fn, out, at)))
    return nullptr;
  const dmlref::GatherNDParams nd_params{params.InputDimensionCount, params.IndicesDimensionCount};
  const dmlref::TensorDesc in = c.input.padded_desc(), idx = c.indices.padded_desc();
  return complete(
      c, false,
      [&] {
        return nd1 ? dmlref::gather_nd1_output_sizes(c.input.padded_shape(), c.indices.padded_shape(), params)
                   : dmlref::gather_nd_output_sizes(c.input.padded_shape(), c.indices.padded_shape(), nd_params);
      },
      [&](const dmlref::MutableTensorDesc& o) {
        return nd1 ? dmlref::try_gather_nd1(in, idx, o, params, c.options)
                   : dmlref::try_gather_nd(in, idx, o, nd_params, c.options);
      },
      explain,
      [&](const dmlref::MutableTensorDesc& o) {
        return nd1 ? dmlref::explain_gather_nd1(in, idx, o, params, at, c.options)
                   : dmlref::explain_gather_nd(in, idx, o, nd_params, at, c.options);
      });
}

// The scatters read their input when they use it: prepare_output replaces it by a temporary for an
// in-place call on an out= a view cannot express.

enum ScatterArgs { kSIn, kSIdx, kSUpd, kSAxis, kSOut, kSPolicy, kSCollisions, kSThreads, kSReduction };
Signature g_scatter{"dmlref.scatter", 4, 3,
                    {"input", "indices", "updates", "axis", "out", "index_policy", "check_collisions", "threads",
                     "reduction", "all_or_nothing", "feature_level", "allow_scratch", "binding_rules", nullptr}};
Signature g_scatter_elements = renamed("dmlref.scatter_elements", g_scatter);
Signature g_explain_scatter = explain_signature("dmlref.explain_scatter", g_scatter);
Signature g_explain_scatter_elements = explain_signature("dmlref.explain_scatter_elements", g_scatter);

PyObject* scatter_common(const Signature& sig, bool explain, PyObject* const* args, Py_ssize_t nargs,
                         PyObject* kwnames) {
  PyObject* v[kMaxParams];
  if (!sig.parse(args, nargs, kwnames, v)) return nullptr;
  Call c(sig.name, "Scatter", false);
  if (!c.read(v[kSIn], v[kSIdx], v[kSUpd], explain ? nullptr : v[kSOut])) return nullptr;
  dmlref::ScatterParams params;
  Shape at;
  if (!uint_attribute(v[kSAxis], 0, c.fn, c.op, "Axis", params.Axis) ||
      !c.read_options(v[kSPolicy], v[kSCollisions], v[kSThreads], sig.common_options(v)) ||
      !read_reduction(c.fn, v[kSReduction], params.Reduction) || (explain && !read_coordinate(c.fn, v[kSOut], at)))
    return nullptr;
  const dmlref::TensorDesc idx = c.indices.padded_desc(), upd = c.updates.padded_desc();
  return complete(
      c, true,
      [&] {
        return dmlref::scatter_output_sizes(c.input.padded_shape(), c.indices.padded_shape(), c.updates.padded_shape(),
                                            params);
      },
      [&](const dmlref::MutableTensorDesc& o) {
        return dmlref::try_scatter(c.input.padded_desc(), idx, upd, o, params, c.options);
      },
      explain,
      [&](const dmlref::MutableTensorDesc& o) {
        return dmlref::explain_scatter(c.input.padded_desc(), idx, upd, o, params, at, c.options);
      });
}

enum ScatterNDArgs { kSNIn, kSNIdx, kSNUpd, kSNInputCount, kSNIndicesCount, kSNOut, kSNPolicy, kSNCollisions,
                     kSNThreads, kSNReduction };
Signature g_scatter_nd{"dmlref.scatter_nd", 5, 3,
                       {"input", "indices", "updates", "input_dimension_count", "indices_dimension_count", "out",
                        "index_policy", "check_collisions", "threads", "reduction",
                        "all_or_nothing", "feature_level", "allow_scratch", "binding_rules", nullptr}};
Signature g_explain_scatter_nd = explain_signature("dmlref.explain_scatter_nd", g_scatter_nd);

PyObject* scatter_nd_common(const Signature& sig, bool explain, PyObject* const* args, Py_ssize_t nargs,
                            PyObject* kwnames) {
  PyObject* v[kMaxParams];
  if (!sig.parse(args, nargs, kwnames, v)) return nullptr;
  Call c(sig.name, "ScatterND", false);
  if (!c.read(v[kSNIn], v[kSNIdx], v[kSNUpd], explain ? nullptr : v[kSNOut])) return nullptr;
  dmlref::ScatterNDParams params;
  Shape at;
  if (!uint_attribute(v[kSNInputCount], c.input.rank, c.fn, c.op, "InputDimensionCount", params.InputDimensionCount) ||
      !uint_attribute(v[kSNIndicesCount], c.indices.rank, c.fn, c.op, "IndicesDimensionCount",
                      params.IndicesDimensionCount) ||
      !c.read_options(v[kSNPolicy], v[kSNCollisions], v[kSNThreads], sig.common_options(v)) ||
      !read_reduction(c.fn, v[kSNReduction], params.Reduction) || (explain && !read_coordinate(c.fn, v[kSNOut], at)))
    return nullptr;
  const dmlref::TensorDesc idx = c.indices.padded_desc(), upd = c.updates.padded_desc();
  return complete(
      c, true,
      [&] {
        return dmlref::scatter_nd_output_sizes(c.input.padded_shape(), c.indices.padded_shape(),
                                               c.updates.padded_shape(), params);
      },
      [&](const dmlref::MutableTensorDesc& o) {
        return dmlref::try_scatter_nd(c.input.padded_desc(), idx, upd, o, params, c.options);
      },
      explain,
      [&](const dmlref::MutableTensorDesc& o) {
        return dmlref::explain_scatter_nd(c.input.padded_desc(), idx, upd, o, params, at, c.options);
      });
}

// ---- ONNX convention ------------------------------------------------------------------------------

enum OnnxGatherArgs { kOGData, kOGIdx, kOGAttr, kOGOut, kOGPolicy, kOGThreads };
Signature g_onnx_gather{"dmlref.onnx.gather", 3, 2, {"data", "indices", "axis", "out", "index_policy", "threads",
                                                     "all_or_nothing", "feature_level", "allow_scratch",
                                                     "binding_rules", nullptr}};
Signature g_onnx_gather_elements{"dmlref.onnx.gather_elements", 3, 2,
                                 {"data", "indices", "axis", "out", "index_policy", "threads",
                                  "all_or_nothing", "feature_level", "allow_scratch", "binding_rules", nullptr}};
Signature g_onnx_gather_nd{"dmlref.onnx.gather_nd", 3, 2,
                           {"data", "indices", "batch_dims", "out", "index_policy", "threads",
                            "all_or_nothing", "feature_level", "allow_scratch", "binding_rules", nullptr}};
Signature g_onnx_explain_gather = explain_signature("dmlref.onnx.explain_gather", g_onnx_gather);
Signature g_onnx_explain_gather_elements =
    explain_signature("dmlref.onnx.explain_gather_elements", g_onnx_gather_elements);
Signature g_onnx_explain_gather_nd = explain_signature("dmlref.onnx.explain_gather_nd", g_onnx_gather_nd);

enum class OnnxGather { gather, elements, nd };

PyObject* onnx_gather_common(const Signature& sig, OnnxGather which, bool explain, PyObject* const* args,
                             Py_ssize_t nargs, PyObject* kwnames) {
  PyObject* v[kMaxParams];
  if (!sig.parse(args, nargs, kwnames, v)) return nullptr;
  const char* op = which == OnnxGather::gather ? "Gather" : which == OnnxGather::elements ? "GatherElements" : "GatherND";
  Call c(sig.name, op, true);
  if (!c.read(v[kOGData], v[kOGIdx], nullptr, explain ? nullptr : v[kOGOut])) return nullptr;
  std::int64_t attr = 0;
  Shape at;
  if (!int_attribute(v[kOGAttr], c.fn, which == OnnxGather::nd ? "batch_dims" : "axis", attr) ||
      !c.read_options(v[kOGPolicy], nullptr, v[kOGThreads], sig.common_options(v)) ||
      (explain && !read_coordinate(c.fn, v[kOGOut], at)))
    return nullptr;
  const dmlref::TensorDesc data = c.input.natural_desc(), idx = c.indices.natural_desc();
  const Shape ds = c.input.natural_shape(), is = c.indices.natural_shape();
  return complete(
      c, false,
      [&] {
        switch (which) {
          case OnnxGather::gather: return dmlref::onnx::gather_output_sizes(ds, is, attr);
          case OnnxGather::elements: return dmlref::onnx::gather_elements_output_sizes(ds, is, attr);
          case OnnxGather::nd: break;
        }
        return dmlref::onnx::gather_nd_output_sizes(ds, is, attr);
      },
      [&](const dmlref::MutableTensorDesc& o) {
        switch (which) {
          case OnnxGather::gather: return dmlref::onnx::try_gather(data, idx, o, attr, c.options);
          case OnnxGather::elements: return dmlref::onnx::try_gather_elements(data, idx, o, attr, c.options);
          case OnnxGather::nd: break;
        }
        return dmlref::onnx::try_gather_nd(data, idx, o, attr, c.options);
      },
      explain,
      [&](const dmlref::MutableTensorDesc& o) {
        switch (which) {
          case OnnxGather::gather: return dmlref::onnx::explain_gather(data, idx, o, attr, at, c.options);
          case OnnxGather::elements: return dmlref::onnx::explain_gather_elements(data, idx, o, attr, at, c.options);
          case OnnxGather::nd: break;
        }
        return dmlref::onnx::explain_gather_nd(data, idx, o, attr, at, c.options);
      });
}

// onnx.scatter(data, indices, updates, axis=0, *, out, index_policy, check_collisions, threads)
// onnx.scatter_elements(data, indices, updates, axis=0, reduction="none", *, ...)
// onnx.scatter_nd(data, indices, updates, reduction="none", *, ...)
Signature g_onnx_scatter{"dmlref.onnx.scatter", 4, 3,
                         {"data", "indices", "updates", "axis", "out", "index_policy", "check_collisions", "threads",
                          "all_or_nothing", "feature_level", "allow_scratch", "binding_rules", nullptr}};
Signature g_onnx_scatter_elements{"dmlref.onnx.scatter_elements", 5, 3,
                                  {"data", "indices", "updates", "axis", "reduction", "out", "index_policy",
                                   "check_collisions", "threads",
                                   "all_or_nothing", "feature_level", "allow_scratch", "binding_rules", nullptr}};
Signature g_onnx_scatter_nd{"dmlref.onnx.scatter_nd", 4, 3,
                            {"data", "indices", "updates", "reduction", "out", "index_policy", "check_collisions",
                             "threads", "all_or_nothing", "feature_level", "allow_scratch", "binding_rules", nullptr}};
Signature g_onnx_explain_scatter = explain_signature("dmlref.onnx.explain_scatter", g_onnx_scatter);
Signature g_onnx_explain_scatter_elements =
    explain_signature("dmlref.onnx.explain_scatter_elements", g_onnx_scatter_elements);
Signature g_onnx_explain_scatter_nd = explain_signature("dmlref.onnx.explain_scatter_nd", g_onnx_scatter_nd);

enum class OnnxScatter { scatter, elements, nd };

PyObject* onnx_scatter_common(const Signature& sig, OnnxScatter which, bool explain, PyObject* const* args,
                              Py_ssize_t nargs, PyObject* kwnames) {
  PyObject* v[kMaxParams];
  if (!sig.parse(args, nargs, kwnames, v)) return nullptr;
  PyObject* axis = which == OnnxScatter::nd ? nullptr : v[3];
  PyObject* reduction = which == OnnxScatter::elements ? v[4] : which == OnnxScatter::nd ? v[3] : nullptr;
  const int first_kw = which == OnnxScatter::elements ? 5 : 4;
  const char* op = which == OnnxScatter::scatter ? "Scatter" : which == OnnxScatter::elements ? "ScatterElements"
                                                                                               : "ScatterND";
  Call c(sig.name, op, true);
  if (!c.read(v[0], v[1], v[2], explain ? nullptr : v[first_kw])) return nullptr;
  std::int64_t a = 0;
  dmlref::Reduction r = dmlref::Reduction::none;
  Shape at;
  if (!int_attribute(axis, c.fn, "axis", a) || !read_reduction(c.fn, reduction, r) ||
      !c.read_options(v[first_kw + 1], v[first_kw + 2], v[first_kw + 3], sig.common_options(v)) ||
      (explain && !read_coordinate(c.fn, v[first_kw], at)))
    return nullptr;
  const dmlref::TensorDesc idx = c.indices.natural_desc(), upd = c.updates.natural_desc();
  const Shape ds = c.input.natural_shape(), is = c.indices.natural_shape(), us = c.updates.natural_shape();
  return complete(
      c, true,
      [&]() -> dmlref::Result<Shape> {
        switch (which) {
          case OnnxScatter::scatter: return dmlref::onnx::scatter_output_sizes(ds, is, us, a);
          case OnnxScatter::elements: return dmlref::onnx::scatter_elements_output_sizes(ds, is, us, a);
          case OnnxScatter::nd: break;
        }
        return dmlref::onnx::scatter_nd_output_sizes(ds, is, us);
      },
      [&](const dmlref::MutableTensorDesc& o) {
        const dmlref::TensorDesc data = c.input.natural_desc();
        switch (which) {
          case OnnxScatter::scatter: return dmlref::onnx::try_scatter(data, idx, upd, o, a, c.options);
          case OnnxScatter::elements: return dmlref::onnx::try_scatter_elements(data, idx, upd, o, a, r, c.options);
          case OnnxScatter::nd: break;
        }
        return dmlref::onnx::try_scatter_nd(data, idx, upd, o, r, c.options);
      },
      explain,
      [&](const dmlref::MutableTensorDesc& o) -> dmlref::Result<dmlref::Provenance> {
        const dmlref::TensorDesc data = c.input.natural_desc();
        switch (which) {
          case OnnxScatter::scatter: return dmlref::onnx::explain_scatter(data, idx, upd, o, a, at, c.options);
          case OnnxScatter::elements:
            return dmlref::onnx::explain_scatter_elements(data, idx, upd, o, a, r, at, c.options);
          case OnnxScatter::nd: break;
        }
        return dmlref::onnx::explain_scatter_nd(data, idx, upd, o, r, at, c.options);
      });
}

/// A function of the module: `common` with its Signature and flags.
template <auto common, const Signature& sig, auto... flags>
PyObject* fastcall(PyObject*, PyObject* const* args, Py_ssize_t nargs, PyObject* kwnames) {
  return common(sig, flags..., args, nargs, kwnames);
}

// ---- docstrings (the first lines are the signatures inspect.signature reads) ------------------------

#define DMLREF_COMMON_DOC                                                                                    \
  "out: an array of the result's shape and dtype (numpy, or torch via DLPack; any strides) to write;\n"      \
  "    it is returned. Without it, the result is a new C-contiguous numpy array.\n"                          \
  "index_policy: 'error' (an out-of-range index raises IndexOutOfRangeError) or 'clamp' (WebNN's\n"          \
  "    arithmetic: clamp to [-n, n-1], then add n if negative).\n"                                           \
  "threads: most threads the call may use; the result does not depend on it. The GIL is released.\n"         \
  "all_or_nothing: False checks each block of indices just before it is copied (one pass); a failed\n"       \
  "    call may then leave out= holding the rows before the first bad index.\n"                              \
  "feature_level: None, or a DML_FEATURE_LEVEL ('3_0', '3.0', 0x3000): accept only what DirectML\n"          \
  "    accepts at that level (dmlref.Error, code 'feature_level_too_low', otherwise).\n"                     \
  "allow_scratch: False: the call allocates no heap scratch (slower for some strided layouts).\n"            \
  "binding_rules: 'relaxed', or 'directml': also DirectML's buffer-binding rules, on the arrays as\n"        \
  "    given (data 16-byte aligned, strides whole elements and not negative, at most 2^32 - 1\n"             \
  "    elements); each declares TotalTensorSizeInBytes = DMLCalcBufferTensorSize.\n\n"                       \
  "Raises dmlref.Error (a ValueError) or dmlref.IndexOutOfRangeError for what the operator rejects\n"        \
  "(nothing is written then), TypeError for dtypes dmlref does not take (bool, complex, object,\n"           \
  "non-native byte order).\n"

#define DMLREF_DML_DOC                                                                                       \
  "Arrays of different ranks are left-padded with 1s to the largest rank D of input, indices and\n"          \
  "updates; attributes count in that padded rank and the result has rank D.\n"

const char* const kGatherDoc =
    "gather($module, /, input, indices, axis=0, index_dimensions=None, *, out=None, index_policy='error', "
    "threads=1, all_or_nothing=True, feature_level=None, allow_scratch=True, binding_rules='relaxed')\n--\n\n"
    "DML_OPERATOR_GATHER: slices of input along Axis, picked by indices (numpy.take).\n\n"
    "axis: Axis, 0..D-1.\n"
    "index_dimensions: IndexDimensions, how many trailing dimensions of indices are meaningful;\n"
    "    None: the rank of indices as given (0 for a 0-d index).\n" DMLREF_DML_DOC DMLREF_COMMON_DOC;
const char* const kGatherElementsDoc =
    "gather_elements($module, /, input, indices, axis=0, *, out=None, index_policy='error', "
    "threads=1, all_or_nothing=True, feature_level=None, allow_scratch=True, binding_rules='relaxed')\n--\n\n"
    "DML_OPERATOR_GATHER_ELEMENTS: output[i][j] = input[indices[i][j]][j] for axis 0\n"
    "(numpy.take_along_axis).\n\n"
    "axis: Axis, 0..D-1.\n" DMLREF_DML_DOC DMLREF_COMMON_DOC;
const char* const kGatherNDDoc =
    "gather_nd($module, /, input, indices, input_dimension_count=None, indices_dimension_count=None, *, "
    "out=None, index_policy='error', threads=1, all_or_nothing=True, feature_level=None, allow_scratch=True, "
    "binding_rules='relaxed')\n--\n\n"
    "DML_OPERATOR_GATHER_ND: the last dimension of indices holds index tuples into input; each selects\n"
    "a block of input (ONNX GatherND, batch_dims 0).\n\n"
    "input_dimension_count, indices_dimension_count: InputDimensionCount and IndicesDimensionCount;\n"
    "    None: the ranks of input and indices as given.\n" DMLREF_DML_DOC DMLREF_COMMON_DOC;
const char* const kGatherND1Doc =
    "gather_nd1($module, /, input, indices, input_dimension_count=None, indices_dimension_count=None, "
    "batch_dimension_count=0, *, out=None, index_policy='error', threads=1, all_or_nothing=True, "
    "feature_level=None, allow_scratch=True, binding_rules='relaxed')\n--\n\n"
    "DML_OPERATOR_GATHER_ND1: gather_nd with BatchDimensionCount leading batch dimensions shared by\n"
    "input and indices (ONNX GatherND with batch_dims).\n\n"
    "input_dimension_count, indices_dimension_count: None: the ranks of input and indices as given.\n"
    "batch_dimension_count: BatchDimensionCount.\n" DMLREF_DML_DOC DMLREF_COMMON_DOC;
#define DMLREF_SCATTER_DOC                                                                                   \
  "check_collisions: raise dmlref.Error (code 'scatter_collision') when two updates write one\n"             \
  "    element; without it the last update in row-major order wins.\n"                                       \
  "reduction: dmlref's ONNX extension: 'none' (DirectML's operator), 'add', 'mul', 'max' or 'min'.\n"       \
  "out=input scatters in place.\n"
const char* const kScatterDoc =
    "scatter($module, /, input, indices, updates, axis=0, *, out=None, index_policy='error', "
    "check_collisions=False, threads=1, reduction='none', all_or_nothing=True, "
    "feature_level=None, allow_scratch=True, binding_rules='relaxed')\n--\n\n"
    "DML_OPERATOR_SCATTER (= SCATTER_ELEMENTS): a copy of input with every update written at its own\n"
    "coordinate, the Axis coordinate taken from indices (numpy.put_along_axis).\n\n"
    "axis: Axis, 0..D-1.\n" DMLREF_SCATTER_DOC DMLREF_DML_DOC DMLREF_COMMON_DOC;
const char* const kScatterElementsDoc =
    "scatter_elements($module, /, input, indices, updates, axis=0, *, out=None, index_policy='error', "
    "check_collisions=False, threads=1, reduction='none', all_or_nothing=True, "
    "feature_level=None, allow_scratch=True, binding_rules='relaxed')\n--\n\n"
    "DML_OPERATOR_SCATTER_ELEMENTS: the same operator as scatter.\n\n"
    "axis: Axis, 0..D-1.\n" DMLREF_SCATTER_DOC DMLREF_DML_DOC DMLREF_COMMON_DOC;
const char* const kScatterNDDoc =
    "scatter_nd($module, /, input, indices, updates, input_dimension_count=None, "
    "indices_dimension_count=None, *, out=None, index_policy='error', check_collisions=False, threads=1, "
    "reduction='none', all_or_nothing=True, feature_level=None, allow_scratch=True, binding_rules='relaxed')\n--\n\n"
    "DML_OPERATOR_SCATTER_ND: a copy of input with each block of updates written where its index tuple\n"
    "points (ONNX ScatterND).\n\n"
    "input_dimension_count, indices_dimension_count: None: the ranks of input and indices as given.\n"
    DMLREF_SCATTER_DOC DMLREF_DML_DOC DMLREF_COMMON_DOC;

#define DMLREF_ONNX_DOC                                                                                      \
  "Arrays keep their natural ranks (0-d and empty arrays included); errors name ONNX's tensors\n"            \
  "(data, indices, updates, output).\n"
const char* const kOnnxGatherDoc =
    "gather($module, /, data, indices, axis=0, *, out=None, index_policy='error', "
    "threads=1, all_or_nothing=True, feature_level=None, allow_scratch=True, binding_rules='relaxed')\n--\n\n"
    "ONNX Gather: numpy.take(data, indices, axis). axis may be negative; indices may be 0-d.\n"
    DMLREF_ONNX_DOC DMLREF_COMMON_DOC;
const char* const kOnnxGatherElementsDoc =
    "gather_elements($module, /, data, indices, axis=0, *, out=None, index_policy='error', "
    "threads=1, all_or_nothing=True, feature_level=None, allow_scratch=True, binding_rules='relaxed')\n--\n\n"
    "ONNX GatherElements: numpy.take_along_axis(data, indices, axis); indices may be smaller than\n"
    "data off the axis.\n" DMLREF_ONNX_DOC DMLREF_COMMON_DOC;
const char* const kOnnxGatherNDDoc =
    "gather_nd($module, /, data, indices, batch_dims=0, *, out=None, index_policy='error', "
    "threads=1, all_or_nothing=True, feature_level=None, allow_scratch=True, binding_rules='relaxed')\n--\n\n"
    "ONNX GatherND with batch_dims.\n" DMLREF_ONNX_DOC DMLREF_COMMON_DOC;
#define DMLREF_ONNX_SCATTER_DOC                                                                              \
  "check_collisions: raise dmlref.Error when two updates write one element (reduction 'none' only).\n"      \
  "out=data scatters in place.\n"
const char* const kOnnxScatterDoc =
    "scatter($module, /, data, indices, updates, axis=0, *, out=None, index_policy='error', "
    "check_collisions=False, threads=1, all_or_nothing=True, feature_level=None, allow_scratch=True, "
    "binding_rules='relaxed')\n--\n\n"
    "The deprecated ONNX Scatter: scatter_elements without a reduction.\n" DMLREF_ONNX_SCATTER_DOC
    DMLREF_ONNX_DOC DMLREF_COMMON_DOC;
const char* const kOnnxScatterElementsDoc =
    "scatter_elements($module, /, data, indices, updates, axis=0, reduction='none', *, out=None, "
    "index_policy='error', check_collisions=False, threads=1, all_or_nothing=True, "
    "feature_level=None, allow_scratch=True, binding_rules='relaxed')\n--\n\n"
    "ONNX ScatterElements (opsets 11-18): reduction 'none', 'add', 'mul', 'max' or 'min'.\n"
    DMLREF_ONNX_SCATTER_DOC DMLREF_ONNX_DOC DMLREF_COMMON_DOC;
const char* const kOnnxScatterNDDoc =
    "scatter_nd($module, /, data, indices, updates, reduction='none', *, out=None, index_policy='error', "
    "check_collisions=False, threads=1, all_or_nothing=True, feature_level=None, allow_scratch=True, "
    "binding_rules='relaxed')\n--\n\n"
    "ONNX ScatterND (opsets 11-18): reduction 'none', 'add', 'mul', 'max' or 'min'.\n" DMLREF_ONNX_SCATTER_DOC
    DMLREF_ONNX_DOC DMLREF_COMMON_DOC;

// The explain_* functions: the operator's parameters, `at` instead of `out`.
#define DMLREF_EXPLAIN_DOC                                                                                   \
  "Takes the operator's arguments (out= excepted) and is checked exactly as the operator is, every\n"        \
  "index value included; nothing is written. Returns a dmlref.Provenance: the index elements read and\n"     \
  "the input element copied (gathers), or every update that addresses the element, in the order they\n"     \
  "are applied (scatters). str() of it is the C++ dmlref::to_string text (docs/explain.md).\n\n"             \
  "index_policy, check_collisions, threads, reduction, feature_level, binding_rules: as for the\n"           \
  "    operator; all_or_nothing and allow_scratch change nothing here (every value is checked first).\n\n"   \
  "Raises the operator's own error (dmlref.Error, dmlref.IndexOutOfRangeError) for a call it would\n"        \
  "reject, then dmlref.Error with code 'coordinate_out_of_range' for an `at` that is not an element\n"       \
  "of the output; TypeError as the operator does, and for an `at` that is not a sequence of ints.\n"
#define DMLREF_EXPLAIN_DML_AT                                                                                \
  "at: the output coordinate, a tuple of ints in the padded rank D (the result's rank).\n"
#define DMLREF_EXPLAIN_ONNX_AT                                                                               \
  "at: the output coordinate, a tuple of ints in the output's natural rank (() for a 0-d output).\n"

const char* const kExplainGatherDoc =
    "explain_gather($module, /, input, indices, axis=0, index_dimensions=None, *, at, index_policy='error', "
    "threads=1, all_or_nothing=True, feature_level=None, allow_scratch=True, binding_rules='relaxed')\n--\n\n"
    "Where element `at` of dmlref.gather(input, indices, axis, index_dimensions) comes from.\n\n"
    DMLREF_EXPLAIN_DML_AT DMLREF_EXPLAIN_DOC;
const char* const kExplainGatherElementsDoc =
    "explain_gather_elements($module, /, input, indices, axis=0, *, at, index_policy='error', "
    "threads=1, all_or_nothing=True, feature_level=None, allow_scratch=True, binding_rules='relaxed')\n--\n\n"
    "Where element `at` of dmlref.gather_elements(input, indices, axis) comes from.\n\n"
    DMLREF_EXPLAIN_DML_AT DMLREF_EXPLAIN_DOC;
const char* const kExplainGatherNDDoc =
    "explain_gather_nd($module, /, input, indices, input_dimension_count=None, indices_dimension_count=None, *, "
    "at, index_policy='error', threads=1, all_or_nothing=True, feature_level=None, allow_scratch=True, "
    "binding_rules='relaxed')\n--\n\n"
    "Where element `at` of dmlref.gather_nd(...) comes from.\n\n" DMLREF_EXPLAIN_DML_AT DMLREF_EXPLAIN_DOC;
const char* const kExplainGatherND1Doc =
    "explain_gather_nd1($module, /, input, indices, input_dimension_count=None, indices_dimension_count=None, "
    "batch_dimension_count=0, *, at, index_policy='error', threads=1, all_or_nothing=True, "
    "feature_level=None, allow_scratch=True, binding_rules='relaxed')\n--\n\n"
    "Where element `at` of dmlref.gather_nd1(...) comes from.\n\n" DMLREF_EXPLAIN_DML_AT DMLREF_EXPLAIN_DOC;
const char* const kExplainScatterDoc =
    "explain_scatter($module, /, input, indices, updates, axis=0, *, at, index_policy='error', "
    "check_collisions=False, threads=1, reduction='none', all_or_nothing=True, "
    "feature_level=None, allow_scratch=True, binding_rules='relaxed')\n--\n\n"
    "Where element `at` of dmlref.scatter(input, indices, updates, axis) comes from. Explain an\n"
    "in-place scatter before running it: input is read as it is now.\n\n" DMLREF_EXPLAIN_DML_AT DMLREF_EXPLAIN_DOC;
const char* const kExplainScatterElementsDoc =
    "explain_scatter_elements($module, /, input, indices, updates, axis=0, *, at, index_policy='error', "
    "check_collisions=False, threads=1, reduction='none', all_or_nothing=True, "
    "feature_level=None, allow_scratch=True, binding_rules='relaxed')\n--\n\n"
    "The same as explain_scatter (DirectML's newer name for the operator).\n\n" DMLREF_EXPLAIN_DML_AT
    DMLREF_EXPLAIN_DOC;
const char* const kExplainScatterNDDoc =
    "explain_scatter_nd($module, /, input, indices, updates, input_dimension_count=None, "
    "indices_dimension_count=None, *, at, index_policy='error', check_collisions=False, threads=1, "
    "reduction='none', all_or_nothing=True, feature_level=None, allow_scratch=True, binding_rules='relaxed')\n--\n\n"
    "Where element `at` of dmlref.scatter_nd(...) comes from. Explain an in-place scatter before\n"
    "running it: input is read as it is now.\n\n" DMLREF_EXPLAIN_DML_AT DMLREF_EXPLAIN_DOC;
const char* const kOnnxExplainGatherDoc =
    "explain_gather($module, /, data, indices, axis=0, *, at, index_policy='error', "
    "threads=1, all_or_nothing=True, feature_level=None, allow_scratch=True, binding_rules='relaxed')\n--\n\n"
    "Where element `at` of dmlref.onnx.gather(data, indices, axis) comes from.\n\n" DMLREF_EXPLAIN_ONNX_AT
    DMLREF_EXPLAIN_DOC;
const char* const kOnnxExplainGatherElementsDoc =
    "explain_gather_elements($module, /, data, indices, axis=0, *, at, index_policy='error', "
    "threads=1, all_or_nothing=True, feature_level=None, allow_scratch=True, binding_rules='relaxed')\n--\n\n"
    "Where element `at` of dmlref.onnx.gather_elements(data, indices, axis) comes from.\n\n"
    DMLREF_EXPLAIN_ONNX_AT DMLREF_EXPLAIN_DOC;
const char* const kOnnxExplainGatherNDDoc =
    "explain_gather_nd($module, /, data, indices, batch_dims=0, *, at, index_policy='error', "
    "threads=1, all_or_nothing=True, feature_level=None, allow_scratch=True, binding_rules='relaxed')\n--\n\n"
    "Where element `at` of dmlref.onnx.gather_nd(data, indices, batch_dims) comes from.\n\n"
    DMLREF_EXPLAIN_ONNX_AT DMLREF_EXPLAIN_DOC;
const char* const kOnnxExplainScatterDoc =
    "explain_scatter($module, /, data, indices, updates, axis=0, *, at, index_policy='error', "
    "check_collisions=False, threads=1, all_or_nothing=True, feature_level=None, allow_scratch=True, "
    "binding_rules='relaxed')\n--\n\n"
    "Where element `at` of dmlref.onnx.scatter(data, indices, updates, axis) comes from.\n\n"
    DMLREF_EXPLAIN_ONNX_AT DMLREF_EXPLAIN_DOC;
const char* const kOnnxExplainScatterElementsDoc =
    "explain_scatter_elements($module, /, data, indices, updates, axis=0, reduction='none', *, at, "
    "index_policy='error', check_collisions=False, threads=1, all_or_nothing=True, "
    "feature_level=None, allow_scratch=True, binding_rules='relaxed')\n--\n\n"
    "Where element `at` of dmlref.onnx.scatter_elements(data, indices, updates, axis, reduction) comes\n"
    "from; a reduction's steps are the operator's own arithmetic (float16 rounds after each).\n\n"
    DMLREF_EXPLAIN_ONNX_AT DMLREF_EXPLAIN_DOC;
const char* const kOnnxExplainScatterNDDoc =
    "explain_scatter_nd($module, /, data, indices, updates, reduction='none', *, at, index_policy='error', "
    "check_collisions=False, threads=1, all_or_nothing=True, feature_level=None, allow_scratch=True, "
    "binding_rules='relaxed')\n--\n\n"
    "Where element `at` of dmlref.onnx.scatter_nd(data, indices, updates, reduction) comes from.\n\n"
    DMLREF_EXPLAIN_ONNX_AT DMLREF_EXPLAIN_DOC;

// The functions: name, docstring, then `common` and what fastcall passes it.
#define DMLREF_METHOD(name, doc, ...)                                                              \
  { name, reinterpret_cast<PyCFunction>(reinterpret_cast<void (*)()>(fastcall<__VA_ARGS__>)),      \
    METH_FASTCALL | METH_KEYWORDS, doc }

PyMethodDef g_methods[] = {
    DMLREF_METHOD("gather", kGatherDoc, gather_common, g_gather, false),
    DMLREF_METHOD("gather_elements", kGatherElementsDoc, gather_elements_common, g_gather_elements, false),
    DMLREF_METHOD("gather_nd", kGatherNDDoc, gather_nd_common, g_gather_nd, GatherND::nd, false),
    DMLREF_METHOD("gather_nd1", kGatherND1Doc, gather_nd_common, g_gather_nd1, GatherND::nd1, false),
    DMLREF_METHOD("scatter", kScatterDoc, scatter_common, g_scatter, false),
    DMLREF_METHOD("scatter_elements", kScatterElementsDoc, scatter_common, g_scatter_elements, false),
    DMLREF_METHOD("scatter_nd", kScatterNDDoc, scatter_nd_common, g_scatter_nd, false),
    DMLREF_METHOD("explain_gather", kExplainGatherDoc, gather_common, g_explain_gather, true),
    DMLREF_METHOD("explain_gather_elements", kExplainGatherElementsDoc, gather_elements_common,
                  g_explain_gather_elements, true),
    DMLREF_METHOD("explain_gather_nd", kExplainGatherNDDoc, gather_nd_common, g_explain_gather_nd, GatherND::nd,
                  true),
    DMLREF_METHOD("explain_gather_nd1", kExplainGatherND1Doc, gather_nd_common, g_explain_gather_nd1, GatherND::nd1,
                  true),
    DMLREF_METHOD("explain_scatter", kExplainScatterDoc, scatter_common, g_explain_scatter, true),
    DMLREF_METHOD("explain_scatter_elements", kExplainScatterElementsDoc, scatter_common, g_explain_scatter_elements,
                  true),
    DMLREF_METHOD("explain_scatter_nd", kExplainScatterNDDoc, scatter_nd_common, g_explain_scatter_nd, true),
    {"_element_text", py_element_text, METH_O,
     "_element_text(a, /)\n--\n\nThe one element of a as explanations print it: '1.5 (0x3e00)'."},
    {nullptr, nullptr, 0, nullptr},
};

PyMethodDef g_onnx_methods[] = {
    DMLREF_METHOD("gather", kOnnxGatherDoc, onnx_gather_common, g_onnx_gather, OnnxGather::gather, false),
    DMLREF_METHOD("gather_elements", kOnnxGatherElementsDoc, onnx_gather_common, g_onnx_gather_elements,
                  OnnxGather::elements, false),
    DMLREF_METHOD("gather_nd", kOnnxGatherNDDoc, onnx_gather_common, g_onnx_gather_nd, OnnxGather::nd, false),
    DMLREF_METHOD("scatter", kOnnxScatterDoc, onnx_scatter_common, g_onnx_scatter, OnnxScatter::scatter, false),
    DMLREF_METHOD("scatter_elements", kOnnxScatterElementsDoc, onnx_scatter_common, g_onnx_scatter_elements,
                  OnnxScatter::elements, false),
    DMLREF_METHOD("scatter_nd", kOnnxScatterNDDoc, onnx_scatter_common, g_onnx_scatter_nd, OnnxScatter::nd, false),
    DMLREF_METHOD("explain_gather", kOnnxExplainGatherDoc, onnx_gather_common, g_onnx_explain_gather,
                  OnnxGather::gather, true),
    DMLREF_METHOD("explain_gather_elements", kOnnxExplainGatherElementsDoc, onnx_gather_common,
                  g_onnx_explain_gather_elements, OnnxGather::elements, true),
    DMLREF_METHOD("explain_gather_nd", kOnnxExplainGatherNDDoc, onnx_gather_common, g_onnx_explain_gather_nd,
                  OnnxGather::nd, true),
    DMLREF_METHOD("explain_scatter", kOnnxExplainScatterDoc, onnx_scatter_common, g_onnx_explain_scatter,
                  OnnxScatter::scatter, true),
    DMLREF_METHOD("explain_scatter_elements", kOnnxExplainScatterElementsDoc, onnx_scatter_common,
                  g_onnx_explain_scatter_elements, OnnxScatter::elements, true),
    DMLREF_METHOD("explain_scatter_nd", kOnnxExplainScatterNDDoc, onnx_scatter_common, g_onnx_explain_scatter_nd,
                  OnnxScatter::nd, true),
    {nullptr, nullptr, 0, nullptr},
};

Signature* const g_signatures[] = {&g_gather,        &g_gather_elements,        &g_gather_nd,      &g_gather_nd1,
                                   &g_scatter,       &g_scatter_elements,       &g_scatter_nd,     &g_onnx_gather,
                                   &g_onnx_gather_elements, &g_onnx_gather_nd, &g_onnx_scatter,
                                   &g_onnx_scatter_elements, &g_onnx_scatter_nd,
                                   &g_explain_gather, &g_explain_gather_elements, &g_explain_gather_nd,
                                   &g_explain_gather_nd1, &g_explain_scatter, &g_explain_scatter_elements,
                                   &g_explain_scatter_nd, &g_onnx_explain_gather, &g_onnx_explain_gather_elements,
                                   &g_onnx_explain_gather_nd, &g_onnx_explain_scatter,
                                   &g_onnx_explain_scatter_elements, &g_onnx_explain_scatter_nd};

/// An exception class with the error record's attributes defaulting to None.
PyObject* make_exception(const char* name, const char* doc, PyObject* bases) {
  PyObject* dict = PyDict_New();
  if (dict == nullptr) return nullptr;
  const char* attributes[] = {"code",     "operator",      "tensor",           "field",       "field_index",
                              "expected", "actual",        "rule",             "position",    "target_tensor",
                              "target_dimension", "target_size", "target_position", "feature_level"};
  for (const char* a : attributes)
    if (PyDict_SetItemString(dict, a, Py_None) != 0) {
      Py_DECREF(dict);
      return nullptr;
    }
  if (PyDict_SetItemString(dict, "output_partly_written", Py_False) != 0) {
    Py_DECREF(dict);
    return nullptr;
  }
  PyObject* cls = PyErr_NewExceptionWithDoc(name, doc, bases, dict);
  Py_DECREF(dict);
  return cls;
}

}  // namespace

PYBIND11_MODULE(_dmlref, m) {
  if (_import_array() < 0) throw pybind11::error_already_set();
  m.doc() = "dmlref's native module; import dmlref instead (docs/python.md).";
  m.attr("__version__") = std::to_string(DMLREF_VERSION_MAJOR) + "." + std::to_string(DMLREF_VERSION_MINOR) + "." +
                          std::to_string(DMLREF_VERSION_PATCH);

  g_dlpack_name = PyUnicode_InternFromString("__dlpack__");
  g_dtype_name = PyUnicode_InternFromString("dtype");
  if (g_dlpack_name == nullptr || g_dtype_name == nullptr) throw pybind11::error_already_set();
  for (Signature* s : g_signatures)
    if (!s->init()) throw pybind11::error_already_set();

  g_error = make_exception(
      "dmlref.Error",
      "An operator rejected its arguments; nothing was written, unless output_partly_written\n"
      "(all_or_nothing=False: out= then holds the results of the rows before the first bad index).\n\n"
      "str() is dmlref's message. The attributes are the C++ dmlref::Error record: code (e.g.\n"
      "'shape_mismatch'), operator, tensor, field, field_index, expected, actual, rule, and for index\n"
      "and collision errors position, target_tensor, target_dimension, target_size, target_position.\n"
      "An explain_* coordinate outside the output is code 'coordinate_out_of_range', with the\n"
      "coordinate in position and its first bad entry in field_index (None: its length).\n"
      "Absent fields are None.",
      PyExc_ValueError);
  if (g_error == nullptr) throw pybind11::error_already_set();
  PyObject* bases = PyTuple_Pack(2, g_error, PyExc_IndexError);
  if (bases == nullptr) throw pybind11::error_already_set();
  g_index_error = make_exception("dmlref.IndexOutOfRangeError",
                                 "An index value is outside its dimension (code 'index_out_of_range');\n"
                                 "position is its coordinate in indices, target_dimension and target_size the\n"
                                 "dimension it addresses.",
                                 bases);
  Py_DECREF(bases);
  if (g_index_error == nullptr) throw pybind11::error_already_set();
  m.add_object("Error", pybind11::handle(g_error));
  m.add_object("IndexOutOfRangeError", pybind11::handle(g_index_error));

  if (PyModule_AddFunctions(m.ptr(), g_methods) != 0) throw pybind11::error_already_set();
  pybind11::module_ onnx = m.def_submodule("onnx", "ONNX's gather and scatter operators (dmlref/onnx.hpp).");
  if (PyModule_AddFunctions(onnx.ptr(), g_onnx_methods) != 0) throw pybind11::error_already_set();
}
