// ONNX conformance through the mapping helpers of <dmlref/onnx.hpp>.
//
// 1. Every case file listed in tests/onnx/cases.txt: the ONNX backend node test cases of onnx 1.12
//    for Gather, GatherElements, GatherND, Scatter, ScatterElements and ScatterND (tests/onnx/node/),
//    and the extra cases the ONNX operator text describes but those generators lack
//    (tests/onnx/extra/), both written by tests/onnx/generate.py. Each runs in several variants
//    (as exported; indices converted between INT64 and INT32; strided layouts; in place for the
//    scatters) and must reproduce the expected output bit for bit, with the shape the output-shape
//    helper predicts, and write nothing outside the output's elements.
// 2. The mapping to DirectML's convention (spec §9): D, padded sizes, Axis, IndexDimensions,
//    InputDimensionCount, IndicesDimensionCount, BatchDimensionCount, crops.
// 3. Empty tensors (a size of 0): the no-op ONNX defines, nothing read or written that should not be.
// 4. Errors in ONNX's terms, the throwing forms, Options passed through.
//
// The test needs neither Python nor ONNX: the case files are plain text (format in generate.py).
#include <gtest/gtest.h>

#include <dmlref/dmlref.hpp>
#include <dmlref/onnx.hpp>

#include <cctype>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <map>
#include <memory>
#include <sstream>
#include <stdexcept>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "support/guarded.hpp"

namespace {

using dmlref::DataType;
using dmlref::ErrorCode;
using dmlref::Reduction;
using dmlref::Shape;
using dmlref::Status;

// ---------------------------------------------------------------------------------------------
// Case files

std::string data_dir() {
  if (const char* env = std::getenv("DMLREF_ONNX_DATA_DIR")) return env;
  std::string here = __FILE__;  // .../tests/onnx/test_onnx.cpp
  const auto slash = here.find_last_of("/\\");
  return (slash == std::string::npos ? std::string(".") : here.substr(0, slash));
}

struct CaseTensor {
  std::string name;
  DataType type = DataType::UNKNOWN;
  std::vector<std::int64_t> shape;
  std::vector<unsigned char> bytes;  // row-major elements

  std::int64_t count() const {
    std::int64_t n = 1;
    for (std::int64_t d : shape) n *= d;
    return n;
  }
};

struct Case {
  std::string file, name, op;
  int opset = 0;
  std::map<std::string, std::string> attributes;
  std::vector<CaseTensor> inputs, outputs;

  std::int64_t int_attribute(const std::string& key, std::int64_t fallback) const {
    const auto it = attributes.find(key);
    return it == attributes.end() ? fallback : std::stoll(it->second);
  }
  Reduction reduction() const {
    const auto it = attributes.find("reduction");
    if (it == attributes.end() || it->second == "none") return Reduction::none;
    if (it->second == "add") return Reduction::add;
    if (it->second == "mul") return Reduction::mul;
    if (it->second == "max") return Reduction::max;
    if (it->second == "min") return Reduction::min;
    throw std::runtime_error("unknown reduction " + it->second);
  }
  const CaseTensor& input(std::size_t i) const { return inputs.at(i); }
};

DataType parse_type(const std::string& s) {
  static const std::map<std::string, DataType> types = {
      {"FLOAT32", DataType::FLOAT32}, {"FLOAT16", DataType::FLOAT16}, {"FLOAT64", DataType::FLOAT64},
      {"INT8", DataType::INT8},       {"INT16", DataType::INT16},     {"INT32", DataType::INT32},
      {"INT64", DataType::INT64},     {"UINT8", DataType::UINT8},     {"UINT16", DataType::UINT16},
      {"UINT32", DataType::UINT32},   {"UINT64", DataType::UINT64}};
  const auto it = types.find(s);
  if (it == types.end()) throw std::runtime_error("unknown type " + s);
  return it->second;
}

void append_value(CaseTensor& t, const std::string& token) {
  const std::size_t w = dmlref::element_size(t.type);
  unsigned char buffer[8] = {};
  if (dmlref::type_kind(t.type) == dmlref::TypeKind::floating) {
    if (token.rfind("0x", 0) != 0) throw std::runtime_error("float value not in hex bits: " + token);
    const std::uint64_t bits = std::stoull(token, nullptr, 16);
    if (w == 2) { const auto v = static_cast<std::uint16_t>(bits); std::memcpy(buffer, &v, 2); }
    if (w == 4) { const auto v = static_cast<std::uint32_t>(bits); std::memcpy(buffer, &v, 4); }
    if (w == 8) std::memcpy(buffer, &bits, 8);
  } else if (dmlref::type_kind(t.type) == dmlref::TypeKind::signed_integer) {
    const std::int64_t v = std::stoll(token);
    if (w == 1) { const auto x = static_cast<std::int8_t>(v); std::memcpy(buffer, &x, 1); }
    if (w == 2) { const auto x = static_cast<std::int16_t>(v); std::memcpy(buffer, &x, 2); }
    if (w == 4) { const auto x = static_cast<std::int32_t>(v); std::memcpy(buffer, &x, 4); }
    if (w == 8) std::memcpy(buffer, &v, 8);
  } else {
    const std::uint64_t v = std::stoull(token);
    if (w == 1) { const auto x = static_cast<std::uint8_t>(v); std::memcpy(buffer, &x, 1); }
    if (w == 2) { const auto x = static_cast<std::uint16_t>(v); std::memcpy(buffer, &x, 2); }
    if (w == 4) { const auto x = static_cast<std::uint32_t>(v); std::memcpy(buffer, &x, 4); }
    if (w == 8) std::memcpy(buffer, &v, 8);
  }
  t.bytes.insert(t.bytes.end(), buffer, buffer + w);
}

/// Reads one case file (format: tests/onnx/generate.py).
Case parse_case(const std::string& relative) {
  const std::string path = data_dir() + "/" + relative;
  std::ifstream in(path);
  if (!in) throw std::runtime_error("cannot open " + path);
  std::vector<std::string> tokens;
  std::string line;
  while (std::getline(in, line)) {
    const auto hash = line.find('#');
    if (hash != std::string::npos) line.resize(hash);
    std::istringstream words(line);
    std::string w;
    while (words >> w) tokens.push_back(w);
  }
  Case c;
  c.file = relative;
  std::size_t i = 0;
  auto next = [&]() -> const std::string& {
    if (i >= tokens.size()) throw std::runtime_error(path + ": unexpected end");
    return tokens[i++];
  };
  bool ended = false;
  while (i < tokens.size() && !ended) {
    const std::string key = next();
    if (key == "name") {
      c.name = next();
    } else if (key == "op") {
      c.op = next();
    } else if (key == "opset") {
      c.opset = std::stoi(next());
    } else if (key == "attribute") {
      const std::string name = next();
      c.attributes[name] = next();
    } else if (key == "input" || key == "output") {
      CaseTensor t;
      t.name = next();
      t.type = parse_type(next());
      if (next() != "rank") throw std::runtime_error(path + ": expected rank");
      const int rank = std::stoi(next());
      if (next() != "shape") throw std::runtime_error(path + ": expected shape");
      for (int d = 0; d < rank; ++d) t.shape.push_back(std::stoll(next()));
      if (next() != "values") throw std::runtime_error(path + ": expected values");
      for (std::int64_t k = 0; k < t.count(); ++k) append_value(t, next());
      (key == "input" ? c.inputs : c.outputs).push_back(std::move(t));
    } else if (key == "end") {
      ended = true;
    } else {
      throw std::runtime_error(path + ": unknown key " + key);
    }
  }
  if (!ended || c.outputs.size() != 1) throw std::runtime_error(path + ": incomplete case");
  return c;
}

struct Manifest {
  int exported = -1, extra = -1;
  std::vector<std::string> files;
  std::string error;
};

const Manifest& manifest() {
  static const Manifest m = [] {
    Manifest r;
    std::ifstream in(data_dir() + "/cases.txt");
    if (!in) {
      r.error = "cannot open " + data_dir() + "/cases.txt";
      return r;
    }
    std::string line;
    while (std::getline(in, line)) {
      std::istringstream words(line);
      std::string key, value;
      if (!(words >> key) || key[0] == '#') continue;
      words >> value;
      if (key == "exported") r.exported = std::stoi(value);
      if (key == "extra") r.extra = std::stoi(value);
      if (key == "case") r.files.push_back(value);
    }
    return r;
  }();
  return m;
}

// ---------------------------------------------------------------------------------------------
// Tensors of a run: a guarded buffer with a layout.

enum class Variant { as_exported, other_index_type, strided, reversed, in_place };

const char* variant_name(Variant v) {
  switch (v) {
    case Variant::as_exported: return "AsExported";
    case Variant::other_index_type: return "OtherIndexType";
    case Variant::strided: return "Strided";
    case Variant::reversed: return "Reversed";
    case Variant::in_place: return "InPlace";
  }
  return "?";
}

/// A tensor placed in a guarded buffer: packed, with an element pitch of 2 (gaps filled with the
/// sentinel), or with its dimensions nested in reverse (column-major).
struct Placed {
  DataType type = DataType::UNKNOWN;
  std::vector<std::int64_t> sizes, strides;
  bool explicit_strides = false;
  std::unique_ptr<guarded::Buffer> buffer;

  std::size_t width() const { return dmlref::element_size(type); }
  std::int64_t count() const {
    std::int64_t n = 1;
    for (std::int64_t d : sizes) n *= d;
    return n;
  }
  /// Offsets (elements) of the row-major elements.
  std::vector<std::int64_t> offsets() const {
    std::vector<std::int64_t> out;
    const int rank = static_cast<int>(sizes.size());
    std::vector<std::int64_t> coord(sizes.size(), 0);
    for (std::int64_t k = 0; k < count(); ++k) {
      std::int64_t offset = 0;
      for (int d = 0; d < rank; ++d) offset += coord[d] * strides[d];
      out.push_back(offset);
      for (int d = rank - 1; d >= 0; --d) {
        if (++coord[d] < sizes[d]) break;
        coord[d] = 0;
      }
    }
    return out;
  }
  dmlref::TensorDesc desc() const {
    return explicit_strides ? buffer->desc(type, sizes, strides) : buffer->desc(type, sizes);
  }
  dmlref::MutableTensorDesc mutable_desc() {
    return explicit_strides ? buffer->mutable_desc(type, sizes, strides) : buffer->mutable_desc(type, sizes);
  }
  std::vector<unsigned char> read() const {
    std::vector<unsigned char> out;
    for (std::int64_t o : offsets()) {
      const unsigned char* p = buffer->bytes() + o * static_cast<std::int64_t>(width());
      out.insert(out.end(), p, p + width());
    }
    return out;
  }
};

enum class Layout { packed, pitch2, reversed };

Placed place(DataType type, const std::vector<std::int64_t>& shape, const std::vector<unsigned char>& bytes,
             Layout layout) {
  Placed t;
  t.type = type;
  t.sizes = shape;
  const int rank = static_cast<int>(shape.size());
  t.strides.assign(shape.size(), 1);
  std::int64_t span = 1;
  if (layout == Layout::reversed) {
    for (int d = 0; d < rank; ++d) {
      t.strides[d] = span;
      span *= shape[d];
    }
  } else {
    const std::int64_t pitch = layout == Layout::pitch2 ? 2 : 1;
    span = pitch;
    for (int d = rank - 1; d >= 0; --d) {
      t.strides[d] = span;
      span *= shape[d];
    }
  }
  t.explicit_strides = layout != Layout::packed;
  t.buffer = std::make_unique<guarded::Buffer>(static_cast<std::size_t>(span) * t.width());
  const auto offsets = t.offsets();
  for (std::size_t k = 0; k < offsets.size(); ++k)
    std::memcpy(t.buffer->bytes() + offsets[k] * static_cast<std::int64_t>(t.width()), bytes.data() + k * t.width(),
                t.width());
  t.buffer->snapshot();
  return t;
}

/// INT64 indices as INT32 and INT32 as INT64 (values unchanged).
CaseTensor other_index_type(const CaseTensor& t) {
  CaseTensor out = t;
  out.bytes.clear();
  if (t.type == DataType::INT64) {
    out.type = DataType::INT32;
    for (std::int64_t k = 0; k < t.count(); ++k) {
      std::int64_t v;
      std::memcpy(&v, t.bytes.data() + k * 8, 8);
      const auto x = static_cast<std::int32_t>(v);
      const auto* p = reinterpret_cast<const unsigned char*>(&x);
      out.bytes.insert(out.bytes.end(), p, p + 4);
    }
  } else if (t.type == DataType::INT32) {
    out.type = DataType::INT64;
    for (std::int64_t k = 0; k < t.count(); ++k) {
      std::int32_t v;
      std::memcpy(&v, t.bytes.data() + k * 4, 4);
      const std::int64_t x = v;
      const auto* p = reinterpret_cast<const unsigned char*>(&x);
      out.bytes.insert(out.bytes.end(), p, p + 8);
    }
  }
  return out;
}

bool is_scatter(const std::string& op) { return op == "Scatter" || op == "ScatterElements" || op == "ScatterND"; }

/// The ONNX output shape the helpers predict for the case's inputs.
dmlref::Result<Shape> predicted_shape(const Case& c) {
  auto shape = [](const CaseTensor& t) { return Shape::from(t.shape.data(), t.shape.size()); };
  const Shape data = shape(c.input(0)), indices = shape(c.input(1));
  if (c.op == "Gather") return dmlref::onnx::gather_output_sizes(data, indices, c.int_attribute("axis", 0));
  if (c.op == "GatherElements")
    return dmlref::onnx::gather_elements_output_sizes(data, indices, c.int_attribute("axis", 0));
  if (c.op == "GatherND") return dmlref::onnx::gather_nd_output_sizes(data, indices, c.int_attribute("batch_dims", 0));
  const Shape updates = shape(c.input(2));
  if (c.op == "Scatter") return dmlref::onnx::scatter_output_sizes(data, indices, updates, c.int_attribute("axis", 0));
  if (c.op == "ScatterElements")
    return dmlref::onnx::scatter_elements_output_sizes(data, indices, updates, c.int_attribute("axis", 0));
  if (c.op == "ScatterND") return dmlref::onnx::scatter_nd_output_sizes(data, indices, updates);
  return Status(dmlref::detail::make_error(ErrorCode::invalid_attribute, "test", "", "op", -1,
                                           dmlref::ErrorValue::of_text("a known op"),
                                           dmlref::ErrorValue::of_text("unknown")));
}

Status run_helper(const Case& c, const std::vector<dmlref::TensorDesc>& in, const dmlref::MutableTensorDesc& out) {
  namespace ox = dmlref::onnx;
  if (c.op == "Gather") return ox::try_gather(in[0], in[1], out, c.int_attribute("axis", 0));
  if (c.op == "GatherElements") return ox::try_gather_elements(in[0], in[1], out, c.int_attribute("axis", 0));
  if (c.op == "GatherND") return ox::try_gather_nd(in[0], in[1], out, c.int_attribute("batch_dims", 0));
  if (c.op == "Scatter") return ox::try_scatter(in[0], in[1], in[2], out, c.int_attribute("axis", 0));
  if (c.op == "ScatterElements")
    return ox::try_scatter_elements(in[0], in[1], in[2], out, c.int_attribute("axis", 0), c.reduction());
  if (c.op == "ScatterND") return ox::try_scatter_nd(in[0], in[1], in[2], out, c.reduction());
  ADD_FAILURE() << "unknown op " << c.op;
  return Status();
}

std::string hex(const std::vector<unsigned char>& bytes, std::size_t width) {
  std::ostringstream s;
  for (std::size_t k = 0; k < bytes.size(); k += width) {
    s << (k == 0 ? "" : " ") << "0x";
    for (std::size_t b = width; b-- > 0;) {
      static const char digits[] = "0123456789abcdef";
      s << digits[bytes[k + b] >> 4] << digits[bytes[k + b] & 15];
    }
  }
  return s.str();
}

// ---------------------------------------------------------------------------------------------
// 1. The case files

TEST(OnnxCases, ManifestListsEveryExportedCase) {
  const Manifest& m = manifest();
  ASSERT_TRUE(m.error.empty()) << m.error;
  // onnx 1.12 exports 4 Gather, 3 GatherElements, 3 GatherND, 2 Scatter, 4 ScatterElements and
  // 3 ScatterND cases.
  EXPECT_EQ(m.exported, 19);
  EXPECT_GT(m.extra, 0);
  EXPECT_EQ(static_cast<int>(m.files.size()), m.exported + m.extra);
  std::map<std::string, int> per_op;
  int node_files = 0;
  for (const std::string& f : m.files) {
    const Case c = parse_case(f);
    ++per_op[c.op];
    if (f.rfind("node/", 0) == 0) ++node_files;
  }
  EXPECT_EQ(node_files, m.exported);
  for (const char* op : {"Gather", "GatherElements", "GatherND", "Scatter", "ScatterElements", "ScatterND"})
    EXPECT_GT(per_op[op], 0) << op;
}

class OnnxCase : public ::testing::TestWithParam<std::tuple<std::string, Variant>> {};

TEST_P(OnnxCase, BitExact) {
  const std::string file = std::get<0>(GetParam());
  const Variant variant = std::get<1>(GetParam());
  ASSERT_TRUE(manifest().error.empty()) << manifest().error;
  const Case c = parse_case(file);
  const bool scatter = is_scatter(c.op);
  ASSERT_TRUE(variant != Variant::in_place || scatter);

  const CaseTensor& expected = c.outputs[0];
  const dmlref::Result<Shape> predicted = predicted_shape(c);
  ASSERT_TRUE(predicted.ok()) << predicted.status().message();
  EXPECT_EQ(*predicted, Shape::from(expected.shape.data(), expected.shape.size()));

  const Layout layout = variant == Variant::strided ? Layout::pitch2
                        : variant == Variant::reversed ? Layout::reversed
                                                        : Layout::packed;
  std::vector<Placed> inputs;
  for (std::size_t k = 0; k < c.inputs.size(); ++k) {
    CaseTensor t = c.inputs[k];
    if (k == 1 && variant == Variant::other_index_type) t = other_index_type(t);
    inputs.push_back(place(t.type, t.shape, t.bytes, layout));
  }
  Placed output;
  if (variant == Variant::in_place) {
    output = place(c.inputs[0].type, c.inputs[0].shape, c.inputs[0].bytes, Layout::pitch2);
    inputs[0] = Placed{};
  } else {
    std::vector<unsigned char> junk(expected.bytes.size(), 0x5A);
    output = place(expected.type, expected.shape, junk, layout);
  }
  std::vector<dmlref::TensorDesc> descs;
  for (const Placed& t : inputs) descs.push_back(t.buffer ? t.desc() : output.desc());
  const std::vector<unsigned char> before(output.buffer->bytes(), output.buffer->bytes() + output.buffer->size());
  const Status status = run_helper(c, descs, output.mutable_desc());
  ASSERT_TRUE(status.ok()) << c.name << ": " << status.message();

  const std::size_t width = dmlref::element_size(expected.type);
  EXPECT_EQ(hex(output.read(), width), hex(expected.bytes, width)) << c.name << " (" << file << ")";
  // Nothing but the output's elements changed: guards and the gaps of a strided layout keep their bytes.
  EXPECT_TRUE(output.buffer->guards_intact());
  std::vector<bool> element(before.size(), false);
  for (std::int64_t o : output.offsets())
    for (std::size_t b = 0; b < width; ++b) element[static_cast<std::size_t>(o) * width + b] = true;
  for (std::size_t b = 0; b < before.size(); ++b)
    if (!element[b]) {
      ASSERT_EQ(output.buffer->bytes()[b], before[b]) << "byte " << b << " outside the output changed";
    }
  for (const Placed& t : inputs)
    if (t.buffer) {
      EXPECT_TRUE(t.buffer->untouched()) << "an input changed";
    }
}

using CaseParam = std::tuple<std::string, Variant>;

/// Every case file in every variant that applies (in place: scatters only).
std::vector<CaseParam> case_params() {
  const Manifest& m = manifest();
  if (!m.error.empty() || m.files.empty()) return {CaseParam{"<missing manifest>", Variant::as_exported}};
  std::vector<CaseParam> out;
  for (const std::string& f : m.files) {
    bool scatter = true;  // an unreadable file still gets its tests, which then fail
    try {
      scatter = is_scatter(parse_case(f).op);
    } catch (const std::exception&) {
    }
    for (Variant v : {Variant::as_exported, Variant::other_index_type, Variant::strided, Variant::reversed,
                      Variant::in_place})
      if (v != Variant::in_place || scatter) out.emplace_back(f, v);
  }
  return out;
}

std::string test_name(const ::testing::TestParamInfo<CaseParam>& info) {
  std::string file = std::get<0>(info.param);
  const auto slash = file.find_last_of('/');
  if (slash != std::string::npos) file = file.substr(slash + 1);
  const auto dot = file.find_last_of('.');
  if (dot != std::string::npos) file.resize(dot);
  std::string name;
  for (char ch : file) name += (std::isalnum(static_cast<unsigned char>(ch)) ? ch : '_');
  return name + "_" + variant_name(std::get<1>(info.param));
}

INSTANTIATE_TEST_SUITE_P(Files, OnnxCase, ::testing::ValuesIn(case_params()), test_name);

// ---------------------------------------------------------------------------------------------
// Small typed tensors for the hand-written tests.

template <class E>
struct T {
  std::vector<std::int64_t> sizes;
  guarded::Buffer buffer;

  T(std::vector<std::int64_t> s, const std::vector<E>& values)
      // At least one byte: guarded::Buffer's checks call memcmp on its payload.
      : sizes(std::move(s)), buffer(values.empty() ? 1 : values.size() * sizeof(E)) {
    buffer.fill(values);
  }
  static T filled(std::vector<std::int64_t> s, E value) {
    std::int64_t n = 1;
    for (std::int64_t d : s) n *= d;
    return T(std::move(s), std::vector<E>(static_cast<std::size_t>(n), value));
  }
  static constexpr DataType type = dmlref::data_type_v<E>;
  dmlref::TensorDesc desc() const { return buffer.desc(type, sizes); }
  dmlref::MutableTensorDesc out() { return buffer.mutable_desc(type, sizes); }
  std::vector<E> values() const {
    std::vector<E> v(buffer.size() / sizeof(E));
    for (std::size_t i = 0; i < v.size(); ++i) v[i] = buffer.load<E>(i);
    return v;
  }
};

template <class D>
D without_data(D d) {
  d.Data = nullptr;
  d.TotalTensorSizeInBytes = 0;
  return d;
}

// ---------------------------------------------------------------------------------------------
// 2. The mapping to DirectML's convention (spec §9)

TEST(OnnxMapping, GatherPadsToTheLargestRankAndMovesTheAxis) {
  {  // 0-d indices: D = r, IndexDimensions 0, the axis disappears
    const auto m = dmlref::onnx::map_gather({3, 2}, {}, -1);
    ASSERT_TRUE(m.ok()) << m.status().message();
    EXPECT_EQ(m.value().dimension_count, 2);
    EXPECT_EQ(m.value().input, (Shape{3, 2}));
    EXPECT_EQ(m.value().indices, (Shape{1, 1}));
    EXPECT_EQ(m.value().onnx_output, (Shape{3}));
    EXPECT_EQ(m.value().output, (Shape{1, 3}));
    EXPECT_EQ(m.value().params.Axis, 1u);
    EXPECT_EQ(m.value().params.IndexDimensions, 0u);
    EXPECT_FALSE(m.value().empty);
  }
  {  // r + q - 1 > r: the data is padded, the axis moves by the padding
    const auto m = dmlref::onnx::map_gather({4}, {2, 3}, 0);
    ASSERT_TRUE(m.ok());
    EXPECT_EQ(m.value().dimension_count, 2);
    EXPECT_EQ(m.value().input, (Shape{1, 4}));
    EXPECT_EQ(m.value().indices, (Shape{2, 3}));
    EXPECT_EQ(m.value().output, (Shape{2, 3}));
    EXPECT_EQ(m.value().params.Axis, 1u);
    EXPECT_EQ(m.value().params.IndexDimensions, 2u);
  }
  {
    const auto m = dmlref::onnx::map_gather({2, 3, 4}, {5, 6}, -2);
    ASSERT_TRUE(m.ok());
    EXPECT_EQ(m.value().dimension_count, 4);
    EXPECT_EQ(m.value().input, (Shape{1, 2, 3, 4}));
    EXPECT_EQ(m.value().indices, (Shape{1, 1, 5, 6}));
    EXPECT_EQ(m.value().output, (Shape{2, 5, 6, 4}));
    EXPECT_EQ(m.value().params.Axis, 2u);
    EXPECT_EQ(m.value().params.IndexDimensions, 2u);
    // The DirectML shape rule agrees with the mapping.
    const auto dml = dmlref::gather_output_sizes(m.value().input, m.value().indices, m.value().params);
    ASSERT_TRUE(dml.ok()) << dml.status().message();
    EXPECT_EQ(*dml, m.value().output);
  }
  // r + q - 1 = 9 > 8: no DirectML call exists.
  const auto big = dmlref::onnx::map_gather({1, 1, 1, 1, 2}, {1, 1, 1, 1, 2}, 0);
  ASSERT_FALSE(big.ok());
  EXPECT_EQ(big.status().code(), ErrorCode::invalid_dimension_count);
  EXPECT_STREQ(big.error().op, "Gather");
}

TEST(OnnxMapping, GatherElementsCropsTheDataToSmallerIndices) {
  const auto m = dmlref::onnx::map_gather_elements({3, 4}, {2, 2}, -1);
  ASSERT_TRUE(m.ok()) << m.status().message();
  EXPECT_EQ(m.value().dimension_count, 2);
  EXPECT_EQ(m.value().input, (Shape{2, 4}));  // dimension 0 cropped to the indices' 2; the axis keeps 4
  EXPECT_EQ(m.value().output, (Shape{2, 2}));
  EXPECT_EQ(m.value().params.Axis, 1u);
  EXPECT_TRUE(m.value().cropped);
  const auto same = dmlref::onnx::map_gather_elements({3, 4}, {3, 7}, 1);
  ASSERT_TRUE(same.ok());
  EXPECT_FALSE(same.value().cropped);
  const auto bigger = dmlref::onnx::map_gather_elements({3, 4}, {4, 1}, 1);
  ASSERT_FALSE(bigger.ok());
  EXPECT_EQ(bigger.status().code(), ErrorCode::shape_mismatch);
  EXPECT_STREQ(bigger.error().tensor, "indices");
  EXPECT_EQ(bigger.error().field_index, 0);
}

TEST(OnnxMapping, GatherNDPassesTheNaturalRanksAndBatchDims) {
  {
    const auto m = dmlref::onnx::map_gather_nd({2, 3, 4, 5}, {2, 3, 2}, 2);
    ASSERT_TRUE(m.ok()) << m.status().message();
    EXPECT_EQ(m.value().dimension_count, 4);
    EXPECT_EQ(m.value().indices, (Shape{1, 2, 3, 2}));
    EXPECT_EQ(m.value().onnx_output, (Shape{2, 3}));
    EXPECT_EQ(m.value().output, (Shape{1, 1, 2, 3}));
    EXPECT_EQ(m.value().params.InputDimensionCount, 4u);
    EXPECT_EQ(m.value().params.IndicesDimensionCount, 3u);
    EXPECT_EQ(m.value().params.BatchDimensionCount, 2u);
    const auto dml = dmlref::gather_nd1_output_sizes(m.value().input, m.value().indices, m.value().params);
    ASSERT_TRUE(dml.ok()) << dml.status().message();
    EXPECT_EQ(*dml, m.value().output);
  }
  {  // q - 1 + r - K = 0: a 0-d output
    const auto m = dmlref::onnx::map_gather_nd({2, 3}, {2}, 0);
    ASSERT_TRUE(m.ok());
    EXPECT_EQ(m.value().dimension_count, 2);
    EXPECT_EQ(m.value().onnx_output, Shape{});
    EXPECT_EQ(m.value().output, (Shape{1, 1}));
    EXPECT_EQ(m.value().indices, (Shape{1, 2}));
  }
  {  // the output's rank is the largest: D = q - 1 + r - K
    const auto m = dmlref::onnx::map_gather_nd({2, 3, 4}, {5, 6, 1}, 0);
    ASSERT_TRUE(m.ok());
    EXPECT_EQ(m.value().dimension_count, 4);
    EXPECT_EQ(m.value().output, (Shape{5, 6, 3, 4}));
    EXPECT_EQ(m.value().input, (Shape{1, 2, 3, 4}));
  }
  const auto bad_b = dmlref::onnx::map_gather_nd({2, 3}, {2, 1}, 2);
  ASSERT_FALSE(bad_b.ok());
  EXPECT_EQ(bad_b.status().code(), ErrorCode::invalid_attribute);
  EXPECT_STREQ(bad_b.error().field, "batch_dims");
  const auto bad_k = dmlref::onnx::map_gather_nd({2, 3}, {2, 2}, 1);
  ASSERT_FALSE(bad_k.ok());
  EXPECT_EQ(bad_k.status().code(), ErrorCode::shape_mismatch);
  const auto batch_mismatch = dmlref::onnx::map_gather_nd({2, 3}, {3, 1}, 1);
  ASSERT_FALSE(batch_mismatch.ok());
  EXPECT_EQ(batch_mismatch.status().code(), ErrorCode::shape_mismatch);
}

TEST(OnnxMapping, ScattersKeepTheDataShapeAndCarryTheReduction) {
  const auto m = dmlref::onnx::map_scatter_elements({3, 4}, {2, 2}, {2, 2}, -2, Reduction::max);
  ASSERT_TRUE(m.ok()) << m.status().message();
  EXPECT_EQ(m.value().dimension_count, 2);
  EXPECT_EQ(m.value().output, (Shape{3, 4}));
  EXPECT_EQ(m.value().cropped, (Shape{3, 2}));
  EXPECT_TRUE(m.value().is_cropped);
  EXPECT_EQ(m.value().params.Axis, 0u);
  EXPECT_EQ(m.value().params.Reduction, Reduction::max);
  const auto updates_differ = dmlref::onnx::map_scatter({3, 4}, {2, 4}, {2, 3}, 0);
  ASSERT_FALSE(updates_differ.ok());
  EXPECT_STREQ(updates_differ.error().tensor, "updates");
  EXPECT_STREQ(updates_differ.error().op, "Scatter");

  const auto nd = dmlref::onnx::map_scatter_nd({4, 4, 4}, {2, 1}, {2, 4, 4}, Reduction::add);
  ASSERT_TRUE(nd.ok()) << nd.status().message();
  EXPECT_EQ(nd.value().dimension_count, 3);
  EXPECT_EQ(nd.value().indices, (Shape{1, 2, 1}));
  EXPECT_EQ(nd.value().updates, (Shape{2, 4, 4}));
  EXPECT_EQ(nd.value().params.InputDimensionCount, 3u);
  EXPECT_EQ(nd.value().params.IndicesDimensionCount, 2u);
  EXPECT_EQ(nd.value().params.Reduction, Reduction::add);
  const auto dml = dmlref::scatter_nd_updates_sizes(nd.value().input, nd.value().indices, nd.value().params);
  ASSERT_TRUE(dml.ok()) << dml.status().message();
  EXPECT_EQ(*dml, nd.value().updates);
  const auto upd = dmlref::onnx::scatter_nd_updates_sizes({2, 3, 4}, {5, 2});
  ASSERT_TRUE(upd.ok());
  EXPECT_EQ(*upd, (Shape{5, 4}));
  const auto too_long = dmlref::onnx::scatter_nd_updates_sizes({2, 3}, {5, 3});
  ASSERT_FALSE(too_long.ok());
  EXPECT_EQ(too_long.status().code(), ErrorCode::shape_mismatch);
}

TEST(OnnxMapping, OutputShapeHelpersUseNaturalRanks) {
  EXPECT_EQ(*dmlref::onnx::gather_output_sizes({5}, {}, 0), Shape{});
  EXPECT_EQ(*dmlref::onnx::gather_output_sizes({5, 4, 3}, {2, 1}, -1), (Shape{5, 4, 2, 1}));
  EXPECT_EQ(*dmlref::onnx::gather_elements_output_sizes({5, 4}, {7, 4}, 0), (Shape{7, 4}));
  EXPECT_EQ(*dmlref::onnx::gather_nd_output_sizes({2, 2}, {2, 1}, 0), (Shape{2, 2}));
  EXPECT_EQ(*dmlref::onnx::scatter_output_sizes({2, 5}, {2, 1}, {2, 1}, 1), (Shape{2, 5}));
  EXPECT_EQ(*dmlref::onnx::scatter_elements_output_sizes({2, 5}, {1, 9}, {1, 9}, -1), (Shape{2, 5}));
  EXPECT_EQ(*dmlref::onnx::scatter_nd_output_sizes({8}, {4, 1}, {4}), (Shape{8}));
  // Empty tensors have shapes too.
  EXPECT_EQ(*dmlref::onnx::gather_output_sizes({0, 3}, {2}, 1), (Shape{0, 2}));
  EXPECT_EQ(*dmlref::onnx::gather_nd_output_sizes({3, 4}, {0, 1}, 0), (Shape{0, 4}));
  EXPECT_EQ(*dmlref::onnx::scatter_nd_updates_sizes({3, 0}, {2, 1}), (Shape{2, 0}));
  // Ranks: data needs rank >= 1; at most 8 anywhere.
  EXPECT_EQ(dmlref::onnx::gather_output_sizes({}, {1}, 0).status().code(), ErrorCode::invalid_dimension_count);
  EXPECT_EQ(dmlref::onnx::gather_nd_output_sizes({2}, {}, 0).status().code(), ErrorCode::invalid_dimension_count);
  const std::int64_t nine[9] = {1, 1, 1, 1, 1, 1, 1, 1, 1};
  EXPECT_EQ(dmlref::onnx::gather_elements_output_sizes(Shape::from(nine, 9), Shape::from(nine, 9), 0).status().code(),
            ErrorCode::invalid_dimension_count);
  EXPECT_EQ(dmlref::onnx::gather_output_sizes({3, -1}, {1}, 0).status().code(), ErrorCode::invalid_size);
  const auto axis = dmlref::onnx::gather_output_sizes({3, 4}, {1}, -3);
  EXPECT_EQ(axis.status().code(), ErrorCode::invalid_attribute);
  EXPECT_STREQ(axis.error().field, "axis");
  EXPECT_EQ(axis.error().expected.integer, -2);
  EXPECT_EQ(axis.error().expected.last, 1);
}

// ---------------------------------------------------------------------------------------------
// 3. Empty tensors

TEST(OnnxEmpty, GatherWithAnEmptyOutputReadsNoDataAndWritesNothing) {
  // data {0, 3}, axis 1: output {0, 2}. The data pointer is null: nothing may be read.
  T<float> data({0, 3}, {});
  T<std::int64_t> indices({2}, {2, -3});
  T<float> output({0, 2}, {});
  EXPECT_TRUE(dmlref::onnx::try_gather(without_data(data.desc()), indices.desc(), without_data(output.out()), 1).ok());
  // data {3, 0}, axis 0: output {1, 0}.
  T<float> data2({3, 0}, {});
  T<std::int32_t> one({1}, {-1});
  T<float> out2({1, 0}, {});
  EXPECT_TRUE(dmlref::onnx::try_gather(data2.desc(), one.desc(), out2.out(), 0).ok());
  // Empty indices: output {2, 0, 4}.
  T<double> data3({2, 5, 4}, std::vector<double>(40, 1.0));
  T<std::int64_t> none({0}, {});
  T<double> out3({2, 0, 4}, {});
  EXPECT_TRUE(dmlref::onnx::try_gather(data3.desc(), without_data(none.desc()), out3.out(), 1).ok());
  EXPECT_TRUE(out3.buffer.untouched());
  EXPECT_TRUE(data3.buffer.untouched());
}

TEST(OnnxEmpty, GatherStillChecksTheIndexValuesItHas) {
  // numpy does not look at the index when the output is empty; ONNX Runtime and dmlref do.
  T<float> data({0, 3}, {});
  T<std::int64_t> indices({2}, {0, 5});
  T<float> output({0, 2}, {});
  const Status s = dmlref::onnx::try_gather(data.desc(), indices.desc(), output.out(), 1);
  ASSERT_EQ(s.code(), ErrorCode::index_out_of_range) << s.message();
  EXPECT_STREQ(s.error().tensor, "indices");
  EXPECT_EQ(s.error().position, (Shape{1}));
  EXPECT_EQ(s.error().target_dimension, 1);
  // An empty axis has no valid index at all, not even under the clamp policy.
  T<float> empty_axis({0}, {});
  T<std::int32_t> zero({}, {0});
  T<float> scalar({}, {7.0f});
  dmlref::Options clamp;
  clamp.index_policy = dmlref::IndexPolicy::clamp;
  const Status e = dmlref::onnx::try_gather(empty_axis.desc(), zero.desc(), scalar.out(), 0, clamp);
  ASSERT_EQ(e.code(), ErrorCode::index_out_of_range) << e.message();
  EXPECT_EQ(e.error().target_size, 0);
  EXPECT_NE(e.message().find("empty"), std::string::npos) << e.message();
  EXPECT_TRUE(scalar.buffer.untouched());
}

TEST(OnnxEmpty, GatherElementsAndGatherND) {
  T<std::int16_t> data({2, 3}, {1, 2, 3, 4, 5, 6});
  T<std::int64_t> no_indices({0, 3}, {});
  T<std::int16_t> out({0, 3}, {});
  EXPECT_TRUE(dmlref::onnx::try_gather_elements(data.desc(), no_indices.desc(), out.out(), 0).ok());
  T<std::int16_t> empty_axis({0, 3}, {});
  T<std::int64_t> one_row({1, 3}, {0, 0, 0});
  T<std::int16_t> out_row({1, 3}, {9, 9, 9});
  EXPECT_EQ(dmlref::onnx::try_gather_elements(empty_axis.desc(), one_row.desc(), out_row.out(), 0).code(),
            ErrorCode::index_out_of_range);
  EXPECT_TRUE(out_row.buffer.untouched());

  // GatherND: no tuples -> output {0, 3}; empty batches; empty slices (indices still checked).
  T<std::int32_t> no_tuples({0, 1}, {});
  T<std::int16_t> out_nd({0, 3}, {});
  EXPECT_TRUE(dmlref::onnx::try_gather_nd(data.desc(), no_tuples.desc(), out_nd.out(), 0).ok());
  T<std::uint8_t> no_batches({0, 4}, {});
  T<std::int64_t> batch_tuples({0, 1}, {});
  T<std::uint8_t> out_b({0}, {});
  EXPECT_TRUE(dmlref::onnx::try_gather_nd(no_batches.desc(), batch_tuples.desc(), out_b.out(), 1).ok());
  T<float> no_columns({3, 0}, {});
  T<std::int64_t> rows({2, 1}, {2, -3});
  T<float> out_slices({2, 0}, {});
  EXPECT_TRUE(dmlref::onnx::try_gather_nd(no_columns.desc(), rows.desc(), out_slices.out(), 0).ok());
  T<std::int64_t> bad_rows({2, 1}, {2, 3});
  const Status s = dmlref::onnx::try_gather_nd(no_columns.desc(), bad_rows.desc(), out_slices.out(), 0);
  ASSERT_EQ(s.code(), ErrorCode::index_out_of_range);
  EXPECT_EQ(s.error().position, (Shape{1, 0}));
  EXPECT_EQ(s.error().target_dimension, 0);
}

TEST(OnnxEmpty, ScatterWithNothingToScatterCopiesTheData) {
  const std::vector<std::uint32_t> bits = {0x7FC12345u, 0x80000000u, 0x7F800001u, 0x3F800000u, 0x00000001u, 0xFF800000u};
  std::vector<float> values(bits.size());
  std::memcpy(values.data(), bits.data(), bits.size() * 4);
  T<float> data({2, 3}, values);
  T<std::int64_t> indices({0, 3}, {});
  T<float> updates({0, 3}, {});
  for (Reduction r : {Reduction::none, Reduction::add, Reduction::mul, Reduction::max, Reduction::min}) {
    T<float> output = T<float>::filled({2, 3}, 0.0f);
    ASSERT_TRUE(dmlref::onnx::try_scatter_elements(data.desc(), without_data(indices.desc()),
                                                   without_data(updates.desc()), output.out(), 0, r)
                    .ok());
    EXPECT_EQ(std::memcmp(output.buffer.bytes(), data.buffer.bytes(), 24), 0) << name(r);
    EXPECT_TRUE(output.buffer.guards_intact());
  }
  // The deprecated Scatter and ScatterND alike; in place writes nothing.
  T<float> output = T<float>::filled({2, 3}, 0.0f);
  ASSERT_TRUE(dmlref::onnx::try_scatter(data.desc(), indices.desc(), updates.desc(), output.out(), -1).ok());
  EXPECT_EQ(std::memcmp(output.buffer.bytes(), data.buffer.bytes(), 24), 0);
  T<std::int64_t> no_tuples({0, 1}, {});
  T<float> no_rows({0, 3}, {});
  T<float> nd_out = T<float>::filled({2, 3}, 0.0f);
  ASSERT_TRUE(dmlref::onnx::try_scatter_nd(data.desc(), no_tuples.desc(), no_rows.desc(), nd_out.out()).ok());
  EXPECT_EQ(std::memcmp(nd_out.buffer.bytes(), data.buffer.bytes(), 24), 0);
  T<float> in_place({2, 3}, values);
  ASSERT_TRUE(dmlref::onnx::try_scatter_nd(in_place.desc(), no_tuples.desc(), no_rows.desc(), in_place.out(),
                                           Reduction::add)
                  .ok());
  EXPECT_TRUE(in_place.buffer.untouched());
}

TEST(OnnxEmpty, ScatterNDWithEmptySlicesChecksTheTuplesThenCopies) {
  // data {3, 0}: every update slice is empty, but the tuples still address rows.
  T<std::int8_t> data({3, 0}, {});
  T<std::int32_t> tuples({2, 1}, {-1, 2});
  T<std::int8_t> updates({2, 0}, {});
  T<std::int8_t> output({3, 0}, {});
  EXPECT_TRUE(dmlref::onnx::try_scatter_nd(data.desc(), tuples.desc(), updates.desc(), output.out()).ok());
  T<std::int32_t> bad({2, 1}, {-1, -4});
  const Status s = dmlref::onnx::try_scatter_nd(data.desc(), bad.desc(), updates.desc(), output.out());
  ASSERT_EQ(s.code(), ErrorCode::index_out_of_range) << s.message();
  EXPECT_STREQ(s.error().op, "ScatterND");
  EXPECT_EQ(s.error().position, (Shape{1, 0}));
  // data {2, 3} with slices of columns {0}: copy.
  T<std::uint16_t> data2({2, 3, 0}, {});
  T<std::int64_t> elems({1, 2}, {1, 2});
  T<std::uint16_t> upd2({1, 0}, {});
  T<std::uint16_t> out2({2, 3, 0}, {});
  EXPECT_TRUE(dmlref::onnx::try_scatter_nd(data2.desc(), elems.desc(), upd2.desc(), out2.out()).ok());
  // Empty data with updates that are not: the tuples address an empty dimension.
  T<float> empty_rows({0, 2}, {});
  T<std::int64_t> first({1, 1}, {0});
  T<float> row({1, 2}, {1.0f, 2.0f});
  T<float> out3({0, 2}, {});
  EXPECT_EQ(dmlref::onnx::try_scatter_nd(empty_rows.desc(), first.desc(), row.desc(), out3.out()).code(),
            ErrorCode::index_out_of_range);
  // Empty data, empty indices: nothing at all.
  T<float> out4({0, 2}, {});
  T<std::int64_t> no_tuples({0, 1}, {});
  T<float> no_rows({0, 2}, {});
  EXPECT_TRUE(dmlref::onnx::try_scatter_nd(without_data(empty_rows.desc()), no_tuples.desc(), no_rows.desc(),
                                           without_data(out4.out()))
                  .ok());
}

TEST(OnnxEmpty, ScatterElementsOnEmptyData) {
  T<double> data({0, 4}, {});
  T<std::int64_t> indices({0, 4}, {});
  T<double> output({0, 4}, {});
  EXPECT_TRUE(dmlref::onnx::try_scatter_elements(without_data(data.desc()), indices.desc(), indices.desc(),
                                                 without_data(output.out()), 1)
                  .code() == ErrorCode::data_type_mismatch);  // updates must have data's type
  T<double> updates({0, 4}, {});
  EXPECT_TRUE(dmlref::onnx::try_scatter_elements(without_data(data.desc()), indices.desc(), updates.desc(),
                                                 without_data(output.out()), 1)
                  .ok());
  // The axis is empty but there are indices: out of range.
  T<double> no_axis({2, 0}, {});
  T<std::int64_t> idx({2, 1}, {0, 0});
  T<double> upd({2, 1}, {1.0, 2.0});
  T<double> out({2, 0}, {});
  EXPECT_EQ(dmlref::onnx::try_scatter_elements(no_axis.desc(), idx.desc(), upd.desc(), out.out(), 1).code(),
            ErrorCode::index_out_of_range);
  // An empty copy still validates the non-empty tensors it copies.
  T<double> full({2, 2}, {1, 2, 3, 4});
  T<std::int64_t> none({2, 0}, {});
  T<double> no_upd({2, 0}, {});
  T<double> short_out({2, 1}, {0, 0});
  dmlref::MutableTensorDesc too_small = short_out.out();
  const std::vector<std::int64_t> sizes{2, 2};
  too_small.Sizes = sizes.data();
  const Status s = dmlref::onnx::try_scatter_elements(full.desc(), none.desc(), no_upd.desc(), too_small, 1);
  ASSERT_EQ(s.code(), ErrorCode::buffer_too_small) << s.message();
  EXPECT_STREQ(s.error().tensor, "output");
  EXPECT_TRUE(short_out.buffer.untouched());
}

// ---------------------------------------------------------------------------------------------
// 4. Errors in ONNX's terms; options; throwing forms

TEST(OnnxErrors, IndexErrorsUseNaturalCoordinates) {
  // data {3} (padded to D = 3 since the indices have rank 3), indices {1, 2, 2}.
  T<float> data({3}, {1, 2, 3});
  T<std::int64_t> indices({1, 2, 2}, {0, 1, 2, 7});
  T<float> output = T<float>::filled({1, 2, 2}, 0);
  const Status s = dmlref::onnx::try_gather(data.desc(), indices.desc(), output.out(), 0);
  ASSERT_EQ(s.code(), ErrorCode::index_out_of_range) << s.message();
  EXPECT_STREQ(s.error().op, "Gather");
  EXPECT_STREQ(s.error().tensor, "indices");
  EXPECT_EQ(s.error().position, (Shape{0, 1, 1}));
  EXPECT_STREQ(s.error().target_tensor, "data");
  EXPECT_EQ(s.error().target_dimension, 0);
  EXPECT_EQ(s.message(), "Gather: indices value 7 at [0, 1, 1] is out of range for data.Sizes[0] = 3 (valid -3..2)");
  EXPECT_TRUE(output.buffer.untouched());

  // GatherND with batch_dims 1: the tuple's second coordinate addresses data dimension 2.
  T<std::int32_t> nd_data({2, 3, 4}, std::vector<std::int32_t>(24, 5));
  T<std::int32_t> tuples({2, 1, 2}, {0, 3, 2, -5});
  T<std::int32_t> nd_out = T<std::int32_t>::filled({2, 1}, 0);
  const Status n = dmlref::onnx::try_gather_nd(nd_data.desc(), tuples.desc(), nd_out.out(), 1);
  ASSERT_EQ(n.code(), ErrorCode::index_out_of_range) << n.message();
  EXPECT_STREQ(n.error().op, "GatherND");
  EXPECT_EQ(n.error().position, (Shape{1, 0, 1}));
  EXPECT_EQ(n.error().target_dimension, 2);
  EXPECT_EQ(n.error().target_size, 4);
}

TEST(OnnxErrors, ShapesTypesAndAttributesNameOnnxTensors) {
  T<float> data({2, 3}, {1, 2, 3, 4, 5, 6});
  T<std::int64_t> indices({2}, {0, 1});
  T<float> wrong_out = T<float>::filled({2, 3}, 0);
  const Status shape = dmlref::onnx::try_gather(data.desc(), indices.desc(), wrong_out.out(), 1);
  ASSERT_EQ(shape.code(), ErrorCode::shape_mismatch);
  EXPECT_STREQ(shape.error().tensor, "output");
  EXPECT_EQ(shape.error().expected.sizes, (Shape{2, 2}));

  T<double> double_out = T<double>::filled({2, 2}, 0);
  const Status type = dmlref::onnx::try_gather(data.desc(), indices.desc(), double_out.out(), 1);
  ASSERT_EQ(type.code(), ErrorCode::data_type_mismatch);
  EXPECT_STREQ(type.error().tensor, "output");

  T<float> float_indices({2}, {0, 1});
  T<float> out = T<float>::filled({2, 2}, 0);
  const Status index_type = dmlref::onnx::try_gather(data.desc(), float_indices.desc(), out.out(), 1);
  ASSERT_EQ(index_type.code(), ErrorCode::unsupported_index_type);
  EXPECT_STREQ(index_type.error().tensor, "indices");

  const Status axis = dmlref::onnx::try_gather(data.desc(), indices.desc(), out.out(), 2);
  ASSERT_EQ(axis.code(), ErrorCode::invalid_attribute);
  EXPECT_STREQ(axis.error().field, "axis");

  // Layout errors of the DirectML call come back with ONNX names and natural dimensions.
  dmlref::TensorDesc short_data = data.desc();
  short_data.TotalTensorSizeInBytes = 20;
  const Status bytes = dmlref::onnx::try_gather(short_data, indices.desc(), out.out(), 1);
  ASSERT_EQ(bytes.code(), ErrorCode::buffer_too_small) << bytes.message();
  EXPECT_STREQ(bytes.error().op, "Gather");
  EXPECT_STREQ(bytes.error().tensor, "data");
  const std::vector<std::int64_t> zero_strides{0, 0};
  dmlref::MutableTensorDesc broadcast_out = out.buffer.mutable_desc(DataType::FLOAT32, out.sizes, zero_strides);
  const Status stride = dmlref::onnx::try_gather(data.desc(), indices.desc(), broadcast_out, 1);
  ASSERT_EQ(stride.code(), ErrorCode::invalid_stride) << stride.message();
  EXPECT_STREQ(stride.error().tensor, "output");
  EXPECT_TRUE(out.buffer.untouched());

  dmlref::TensorDesc nine = data.desc();
  const std::int64_t sizes9[9] = {1, 1, 1, 1, 1, 1, 1, 2, 3};
  nine.DimensionCount = 9;
  nine.Sizes = sizes9;
  EXPECT_EQ(dmlref::onnx::try_gather(nine, indices.desc(), out.out(), 0).code(), ErrorCode::invalid_dimension_count);

  T<std::int64_t> rank0({}, {1});
  T<float> out_rank0 = T<float>::filled({2}, 0);
  const Status ge = dmlref::onnx::try_gather_elements(data.desc(), rank0.desc(), out_rank0.out(), 0);
  ASSERT_EQ(ge.code(), ErrorCode::invalid_dimension_count);
  EXPECT_STREQ(ge.error().op, "GatherElements");

  T<float> upd({2}, {1, 2});
  const Status reduction = dmlref::onnx::try_scatter_elements(data.desc(), indices.desc(), upd.desc(),
                                                              wrong_out.out(), 0, static_cast<Reduction>(9));
  ASSERT_EQ(reduction.code(), ErrorCode::invalid_dimension_count);  // indices rank 1 vs data rank 2 comes first
  T<std::int64_t> idx2({1, 3}, {0, 1, 1});
  T<float> upd2({1, 3}, {1, 2, 3});
  const Status bad_reduction = dmlref::onnx::try_scatter_elements(data.desc(), idx2.desc(), upd2.desc(),
                                                                  wrong_out.out(), 0, static_cast<Reduction>(9));
  ASSERT_EQ(bad_reduction.code(), ErrorCode::invalid_attribute);
  EXPECT_STREQ(bad_reduction.error().field, "reduction");
}

TEST(OnnxErrors, ACroppedScatterThatFailsWritesNothing) {
  // indices {1, 2} into data {3, 4} along axis 0: the call scatters into a {3, 2} crop of output
  // and copies the rest; an error in either part must come before any write.
  T<float> data({3, 4}, {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12});
  T<float> updates({1, 2}, {-1, -2});
  T<std::int64_t> bad({1, 2}, {0, 3});
  T<float> output = T<float>::filled({3, 4}, 0);
  const Status s = dmlref::onnx::try_scatter_elements(data.desc(), bad.desc(), updates.desc(), output.out(), 0);
  ASSERT_EQ(s.code(), ErrorCode::index_out_of_range) << s.message();
  EXPECT_STREQ(s.error().op, "ScatterElements");
  EXPECT_EQ(s.error().position, (Shape{0, 1}));
  EXPECT_STREQ(s.error().target_tensor, "output");
  EXPECT_TRUE(output.buffer.untouched());
  // Output too small for the full data (the crop alone would fit).
  T<std::int64_t> good({1, 2}, {2, -3});
  dmlref::MutableTensorDesc short_out = output.out();
  short_out.TotalTensorSizeInBytes = 40;
  const Status b = dmlref::onnx::try_scatter_elements(data.desc(), good.desc(), updates.desc(), short_out, 0);
  ASSERT_EQ(b.code(), ErrorCode::buffer_too_small) << b.message();
  EXPECT_STREQ(b.error().tensor, "output");
  EXPECT_TRUE(output.buffer.untouched());
  // The output overlapping the updates outside the crop.
  T<float> shared = T<float>::filled({3, 4}, 0);
  dmlref::TensorDesc updates_in_output = updates.desc();
  updates_in_output.Data = shared.buffer.bytes() + 10 * sizeof(float);
  const Status o = dmlref::onnx::try_scatter_elements(data.desc(), good.desc(), updates_in_output, shared.out(), 0);
  ASSERT_EQ(o.code(), ErrorCode::overlapping_tensors) << o.message();
  EXPECT_TRUE(shared.buffer.untouched());
  // And the successful call.
  ASSERT_TRUE(dmlref::onnx::try_scatter_elements(data.desc(), good.desc(), updates.desc(), output.out(), 0).ok());
  EXPECT_EQ(output.values(), (std::vector<float>{1, -2, 3, 4, 5, 6, 7, 8, -1, 10, 11, 12}));
}

TEST(OnnxErrors, OptionsPassThrough) {
  T<float> data({4}, {11, 12, 13, 14});
  T<std::int64_t> indices({3}, {9, -9, 1});
  T<float> output = T<float>::filled({3}, 0);
  EXPECT_EQ(dmlref::onnx::try_gather(data.desc(), indices.desc(), output.out()).code(), ErrorCode::index_out_of_range);
  dmlref::Options clamp;
  clamp.index_policy = dmlref::IndexPolicy::clamp;
  ASSERT_TRUE(dmlref::onnx::try_gather(data.desc(), indices.desc(), output.out(), 0, clamp).ok());
  EXPECT_EQ(output.values(), (std::vector<float>{14, 11, 12}));

  // Collisions: last wins by default, reported on request (natural coordinates), legal with a reduction.
  T<float> zeros = T<float>::filled({2, 3}, 0);
  T<std::int32_t> idx({2, 2}, {2, -1, 0, 1});
  T<float> upd({2, 2}, {5, 6, 7, 8});
  T<float> out = T<float>::filled({2, 3}, 0);
  ASSERT_TRUE(dmlref::onnx::try_scatter_elements(zeros.desc(), idx.desc(), upd.desc(), out.out(), 1).ok());
  EXPECT_EQ(out.values(), (std::vector<float>{0, 0, 6, 7, 8, 0}));
  dmlref::Options check;
  check.check_collisions = true;
  T<float> out2 = T<float>::filled({2, 3}, 0);
  const Status c = dmlref::onnx::try_scatter_elements(zeros.desc(), idx.desc(), upd.desc(), out2.out(), 1,
                                                      Reduction::none, check);
  ASSERT_EQ(c.code(), ErrorCode::scatter_collision) << c.message();
  EXPECT_EQ(c.error().position, (Shape{0, 1}));
  EXPECT_EQ(c.error().target_position, (Shape{0, 2}));
  EXPECT_STREQ(c.error().target_tensor, "output");
  EXPECT_TRUE(out2.buffer.untouched());
  ASSERT_TRUE(dmlref::onnx::try_scatter_elements(zeros.desc(), idx.desc(), upd.desc(), out2.out(), 1,
                                                 Reduction::add, check)
                  .ok());
  EXPECT_EQ(out2.values(), (std::vector<float>{0, 0, 11, 7, 8, 0}));
}

#if DMLREF_HAS_EXCEPTIONS
TEST(OnnxErrors, ThrowingFormsThrowTheSameError) {
  T<float> data({4}, {11, 12, 13, 14});
  T<std::int64_t> indices({2}, {3, 4});
  T<float> output = T<float>::filled({2}, 0);
  try {
    dmlref::onnx::gather(data.desc(), indices.desc(), output.out(), 0);
    FAIL() << "no exception";
  } catch (const dmlref::Exception& e) {
    EXPECT_EQ(e.code(), ErrorCode::index_out_of_range);
    EXPECT_STREQ(e.error().tensor, "indices");
  }
  T<std::int64_t> good({2}, {3, -4});
  EXPECT_NO_THROW(dmlref::onnx::gather(data.desc(), good.desc(), output.out(), -1));
  EXPECT_EQ(output.values(), (std::vector<float>{14, 11}));
  T<std::int64_t> ge({2}, {1, 0});
  EXPECT_NO_THROW(dmlref::onnx::gather_elements(data.desc(), ge.desc(), output.out(), 0));
  EXPECT_EQ(output.values(), (std::vector<float>{12, 11}));
  T<std::int64_t> tuples({2, 1}, {2, 0});
  EXPECT_NO_THROW(dmlref::onnx::gather_nd(data.desc(), tuples.desc(), output.out()));
  EXPECT_EQ(output.values(), (std::vector<float>{13, 11}));
  T<float> upd({2}, {1, 2});
  T<float> out4 = T<float>::filled({4}, 0);
  EXPECT_NO_THROW(dmlref::onnx::scatter(data.desc(), ge.desc(), upd.desc(), out4.out()));
  EXPECT_EQ(out4.values(), (std::vector<float>{2, 1, 13, 14}));
  EXPECT_NO_THROW(dmlref::onnx::scatter_elements(data.desc(), ge.desc(), upd.desc(), out4.out(), 0, Reduction::mul));
  EXPECT_EQ(out4.values(), (std::vector<float>{22, 12, 13, 14}));
  EXPECT_NO_THROW(dmlref::onnx::scatter_nd(data.desc(), tuples.desc(), upd.desc(), out4.out(), Reduction::add));
  EXPECT_EQ(out4.values(), (std::vector<float>{13, 12, 14, 14}));
  EXPECT_THROW(dmlref::onnx::scatter_nd(data.desc(), tuples.desc(), upd.desc(), output.out()), dmlref::Exception);
}
#endif

}  // namespace
