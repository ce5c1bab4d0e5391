#ifndef DMLREF_PROVENANCE_HPP
#define DMLREF_PROVENANCE_HPP

/// Where one output element of a gather or scatter comes from: what explain.hpp's `explain_*`
/// functions return, and how it prints. Standard library only.
///
///   output[3,1] = 1.5 (0x3e00) = input[2,1], from indices[3] = -2 → 2 (Axis 0)
///
/// Text names every tensor in lowercase (input, indices, updates, output), whatever the call
/// named them, and writes coordinates as `[i,j,k]` in the rank of the call: DirectML's padded rank
/// for the DirectML operators, the natural rank for the ONNX helpers. Elements print as their value
/// and their bits (`-0 (0x8000)`, `nan (0x7e01)`), as gtest.hpp's reports print them.

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "data_type.hpp"
#include "detail/element_text.hpp"
#include "reduction.hpp"
#include "shape.hpp"

namespace dmlref {

/// One element's bits and the data type that says how to read them.
struct Element {
  DataType type = DataType::UNKNOWN;
  std::uint64_t bits = 0;  ///< the element's bytes as an unsigned integer of its width
};

/// An IndicesTensor element that took part: where it is, its value, and where it points.
struct IndexRead {
  Shape coordinate;             ///< in IndicesTensor
  Element value;                ///< the value as stored, of IndicesTensor's type
  int dimension = -1;           ///< the dimension it addresses (gathers: InputTensor's; scatters: OutputTensor's)
  std::int64_t size = 0;        ///< that dimension's size
  bool clamped = false;         ///< IndexPolicy::clamp changed the value ...
  std::int64_t clamped_to = 0;  ///< ... to this one (before a negative value counts from the end)
  std::int64_t position = 0;    ///< the coordinate it gives that dimension (the normalised value)
};

/// One update that writes the explained element, in the order the operator applies them.
struct Update {
  Shape coordinate;                ///< in UpdatesTensor
  std::vector<IndexRead> indices;  ///< what sends it there: one value (Scatter) or a tuple (ScatterND)
  Element value;                   ///< the update
  Element result;                  ///< the output element once it is applied (Reduction::none: the update)
};

/// Where the explained element's bits come from.
enum class Source : std::uint8_t {
  input,    ///< InputTensor: a gather's source element, or a scatter's element no update addresses
  updates,  ///< UpdatesTensor: the last update (Reduction::none) or the reduction of all of them
};

/// The provenance of one output element.
struct Provenance {
  const char* op = "";        ///< the operator: DirectML's name, or ONNX's for the ONNX helpers
  bool onnx = false;          ///< an ONNX helper's call: natural ranks, lowercase attribute names
  bool scatter = false;       ///< Scatter or ScatterND
  bool tuples = false;        ///< GatherND, GatherND1, ScatterND: indices hold tuples
  Shape output;               ///< the explained coordinate
  Element value;              ///< the bits the operator writes there
  Source source = Source::input;
  Shape input;                ///< gathers: the InputTensor element copied; scatters: the same coordinate as output
  Element input_value;        ///< InputTensor's element at `input`
  std::vector<IndexRead> indices;  ///< gathers: the IndicesTensor elements read (one, or a tuple)
  Reduction reduction = Reduction::none;  ///< scatters
  std::vector<Update> updates;  ///< scatters: every update that addresses the element, in order
};

namespace detail {

/// "[3,1]".
inline std::string coordinate_text(const Shape& c) {
  std::string s = "[";
  for (std::size_t d = 0; d < c.size(); ++d) s += (d == 0 ? "" : ",") + std::to_string(c[static_cast<int>(d)]);
  return s + "]";
}

/// "Axis 0", "axis 0" (ONNX) or "dimension 2" (a tuple's entry).
inline std::string dimension_text(const Provenance& p, int dimension) {
  return (p.tuples ? "dimension " : p.onnx ? "axis " : "Axis ") + std::to_string(dimension);
}

/// "indices[3] = -2 → 2 (Axis 0)", or with a clamp "indices[1] = 7 → 3 (Axis 0, clamped from 7 to 3)".
inline std::string index_text(const Provenance& p, const IndexRead& r) {
  const std::string value = value_text(r.value.type, r.value.bits);
  std::string s = "indices" + coordinate_text(r.coordinate) + " = " + value + " → " + std::to_string(r.position) +
                  " (" + dimension_text(p, r.dimension);
  if (r.clamped) s += ", clamped from " + value + " to " + std::to_string(r.clamped_to);
  return s + ")";
}

inline std::string indices_text(const Provenance& p, const std::vector<IndexRead>& reads) {
  std::string s;
  for (const IndexRead& r : reads) s += (s.empty() ? "" : ", ") + index_text(p, r);
  return s;
}

}  // namespace detail

/// "1.5 (0x3e00)": the value and its bits, zero-padded to the element's width.
inline std::string to_string(const Element& e) {
  return detail::value_text(e.type, e.bits) + " (" + detail::bits_text(e.bits, element_size(e.type)) + ")";
}

/// What the element is made of, in one line (gtest.hpp's reports put it after "expected = "):
///   input[2,1], from indices[3] = -2 → 2 (Axis 0)
///   input[0,4] (no update addresses it)
///   updates[2], from indices[2] = 3 → 3 (Axis 0), the last of 2 updates (updates[0], updates[2])
///   input[3] = 3 (0x40400000), add updates[0] = 5 (0x40a00000) → 8 (0x41000000), add ...
/// A reduction lists its first four steps and counts the rest; to_string() lists them all.
inline std::string source_text(const Provenance& p) {
  using detail::coordinate_text;
  if (!p.scatter) return "input" + coordinate_text(p.input) + ", from " + detail::indices_text(p, p.indices);
  if (p.updates.empty()) return "input" + coordinate_text(p.input) + " (no update addresses it)";
  if (p.reduction == Reduction::none) {
    const Update& last = p.updates.back();
    std::string s = "updates" + coordinate_text(last.coordinate) + ", from " + detail::indices_text(p, last.indices);
    if (p.updates.size() == 1) return s;
    s += ", the last of " + std::to_string(p.updates.size()) + " updates (";
    for (std::size_t i = 0; i < p.updates.size() && i < 4; ++i)
      s += (i == 0 ? "" : ", ") + std::string("updates") + coordinate_text(p.updates[i].coordinate);
    return s + (p.updates.size() > 4 ? ", ...)" : ")");
  }
  std::string s = "input" + coordinate_text(p.input) + " = " + to_string(p.input_value);
  for (std::size_t i = 0; i < p.updates.size() && i < 4; ++i) {
    const Update& u = p.updates[i];
    s += ", " + std::string(name(p.reduction)) + " updates" + coordinate_text(u.coordinate) + " = " +
         to_string(u.value) + " → " + to_string(u.result);
  }
  if (p.updates.size() > 4) s += ", and " + std::to_string(p.updates.size() - 4) + " more updates";
  return s;
}

/// The whole provenance: one line for a gather, or a scatter's element no update addresses;
/// a scatter's updated element gets one line per update, in the order they are applied:
///
///   output[3] = 7 (0x40e00000) = updates[2], the last of 2 updates to it (the last write wins):
///     input[3] = 3 (0x40400000)
///     updates[0] = 5 (0x40a00000), from indices[0] = 3 → 3 (Axis 0)
///     updates[2] = 7 (0x40e00000), from indices[2] = -2 → 3 (Axis 0)
///
///   output[3] = 15 (0x41700000) = input[3] add 2 updates, in this order:
///     input[3] = 3 (0x40400000)
///     add updates[0] = 5 (0x40a00000), from indices[0] = 3 → 3 (Axis 0); now 8 (0x41000000)
///     add updates[2] = 7 (0x40e00000), from indices[2] = -2 → 3 (Axis 0); now 15 (0x41700000)
inline std::string to_string(const Provenance& p) {
  using detail::coordinate_text;
  const std::string head = "output" + coordinate_text(p.output) + " = " + to_string(p.value) + " = ";
  if (!p.scatter || p.updates.empty()) return head + source_text(p);
  const std::string count = std::to_string(p.updates.size()) + (p.updates.size() == 1 ? " update" : " updates");
  std::string s = head;
  if (p.reduction == Reduction::none) {
    s += "updates" + coordinate_text(p.updates.back().coordinate) +
         (p.updates.size() == 1 ? ", the only update to it:"
                                : ", the last of " + count + " to it (the last write wins):");
  } else {
    s += "input" + coordinate_text(p.input) + " " + name(p.reduction) + " " + count + ", in this order:";
  }
  s += "\n  input" + coordinate_text(p.input) + " = " + to_string(p.input_value);
  for (const Update& u : p.updates) {
    s += "\n  ";
    if (p.reduction != Reduction::none) s += std::string(name(p.reduction)) + " ";
    s += "updates" + coordinate_text(u.coordinate) + " = " + to_string(u.value) + ", from " +
         detail::indices_text(p, u.indices);
    if (p.reduction != Reduction::none) s += "; now " + to_string(u.result);
  }
  return s;
}

}  // namespace dmlref

// fmt::format("{}", provenance), when fmt.hpp is included too (in either order).
#if defined(DMLREF_FMT_HPP)
#  include "detail/fmt_provenance.hpp"
#endif

#endif  // DMLREF_PROVENANCE_HPP
