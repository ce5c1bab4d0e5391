#ifndef DMLREF_DETAIL_PRINT_TENSOR_HPP
#define DMLREF_DETAIL_PRINT_TENSOR_HPP

#include <fmt/format.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <string>
#include <type_traits>
#include <vector>

#include "../config.hpp"
#include "../data_type.hpp"
#include "../float16.hpp"
#include "../shape.hpp"
#include "../status.hpp"
#include "print_numbers.hpp"
#include "tensor.hpp"

// How fmt.hpp prints a whole tensor, as numpy's str() does: the elements shown (all, or the edges
// of a summarised tensor), nested brackets and rows wrapped at the line width, after the checks an
// operator makes; and the format spec the tensor formatters keep.

namespace dmlref::detail::print {

/// A validated strided tensor whose elements are read with memcpy (descriptors may be unaligned).
struct Layout {
  const unsigned char* data = nullptr;
  Shape sizes;
  Shape strides;
};

template <class T>
T load(const Layout& t, const Shape& coordinate) noexcept {
  std::int64_t offset = 0;
  for (int d = 0; d < t.sizes.rank(); ++d) offset += coordinate[d] * t.strides[d];
  T v;
  std::memcpy(&v, t.data + offset * static_cast<std::int64_t>(sizeof(T)), sizeof(T));
  return v;
}

/// The index along a dimension of the i-th shown item (negative i counts from the end).
inline std::int64_t item(std::int64_t i, std::int64_t size) noexcept { return i < 0 ? size + i : i; }

/// numpy's _leading_trailing: the elements that are shown (all of them unless summarising).
template <class T>
void collect_shown(const Layout& t, bool summary, int axis, Shape& coordinate, std::vector<T>& out) {
  if (axis == t.sizes.rank()) {
    out.push_back(load<T>(t, coordinate));
    return;
  }
  const std::int64_t size = t.sizes[axis];
  const bool cut = summary && size > 2 * edge_items;
  for (std::int64_t i = 0; i < size; ++i) {
    if (cut && i == edge_items) i = size - edge_items;
    coordinate[axis] = i;
    collect_shown(t, summary, axis + 1, coordinate, out);
  }
}

/// numpy's _extendLine (legacy > 1.13).
inline void extend_line(std::string& s, std::string& line, const std::string& word, std::size_t width,
                        const std::string& next_line_prefix) {
  const bool needs_wrap = line.size() + word.size() > width && line.size() > next_line_prefix.size();
  if (needs_wrap) {
    const std::size_t end = line.find_last_not_of(' ');
    s += line.substr(0, end == std::string::npos ? 0 : end + 1);
    s += '\n';
    line = next_line_prefix;
  }
  line += word;
}

/// numpy's _formatArray (separator ' ', legacy > 1.13).
template <class T, class Format>
std::string format_array(const Layout& t, const Format& format, bool summary, Shape& index, int axis,
                         const std::string& hanging_indent, int width) {
  const int rank = t.sizes.rank();
  const int axes_left = rank - axis;
  const std::string next_hanging_indent = hanging_indent + ' ';
  const int next_width = width - 1;
  const std::int64_t size = t.sizes[axis];
  const bool show_summary = summary && 2 * edge_items < size;
  const std::int64_t leading = show_summary ? edge_items : 0;
  const std::int64_t trailing = show_summary ? edge_items : size;
  auto nested = [&](std::int64_t i) {
    index[axis] = item(i, size);
    if (axes_left == 1) return format(load<T>(t, index));
    return format_array<T>(t, format, summary, index, axis + 1, next_hanging_indent, next_width);
  };

  std::string s;
  if (axes_left == 1) {
    const auto elem_width = static_cast<std::size_t>(std::max(width - 1, 0));
    std::string line = hanging_indent;
    for (std::int64_t i = 0; i < leading; ++i) {
      extend_line(s, line, nested(i), elem_width, hanging_indent);
      line += ' ';
    }
    if (show_summary) {
      extend_line(s, line, "...", elem_width, hanging_indent);
      line += ' ';
    }
    for (std::int64_t i = trailing; i > 1; --i) {
      extend_line(s, line, nested(-i), elem_width, hanging_indent);
      line += ' ';
    }
    extend_line(s, line, nested(-1), elem_width, hanging_indent);
    s += line;
  } else {
    const std::string line_sep(static_cast<std::size_t>(axes_left - 1), '\n');
    for (std::int64_t i = 0; i < leading; ++i) s += hanging_indent + nested(i) + line_sep;
    if (show_summary) s += hanging_indent + "..." + line_sep;
    for (std::int64_t i = trailing; i > 1; --i) s += hanging_indent + nested(-i) + line_sep;
    s += hanging_indent + nested(-1);
  }
  return "[" + s.substr(hanging_indent.size()) + "]";
}

/// The whole tensor as numpy's str() shows it (or with every element in `spec`, when given).
template <class T>
std::string format_tensor(const Layout& t, const std::string& spec) {
  std::int64_t count = 1;
  for (int d = 0; d < t.sizes.rank(); ++d) count *= t.sizes[d];
  const bool summary = count > threshold;
  std::vector<T> shown;
  Shape coordinate = Shape::filled(t.sizes.rank(), 0);
  collect_shown(t, summary, 0, coordinate, shown);
  Shape index = Shape::filled(t.sizes.rank(), 0);
  if (!spec.empty()) {
    return format_array<T>(t, SpecFormat<T>(shown, spec), summary, index, 0, " ", line_width);
  }
  if constexpr (std::is_floating_point_v<T> || std::is_same_v<T, float16>) {
    return format_array<T>(t, FloatFormat<T>(shown), summary, index, 0, " ", line_width);
  } else {
    return format_array<T>(t, IntegerFormat<T>(shown), summary, index, 0, " ", line_width);
  }
}

/// Checks a tensor as an operator would (with `buffer_bytes` < 0 for a trusted view) and prints
/// it, or "<invalid tensor: MESSAGE>".
inline std::string format_raw(const RawTensor& raw, const std::string& spec) {
  const char* op = "format";
  if (!is_valid(raw.type))
    return "<invalid tensor: " + check_data_type(op, raw, raw).message() + ">";
  dmlref::detail::Layout checked{};
  if (const Status s = check_layout(op, raw, raw.sizes.rank(), false, checked); !s)
    return "<invalid tensor: " + s.message() + ">";
  const Layout t{raw.data, raw.sizes, raw.strides};
  switch (raw.type) {
#define DMLREF_FMT_CASE(name_, value, storage, kind) \
  case DataType::name_:                              \
    return format_tensor<storage>(t, spec);
    DMLREF_FOR_EACH_DATA_TYPE(DMLREF_FMT_CASE)
#undef DMLREF_FMT_CASE
    case DataType::UNKNOWN:
      break;
  }
  return "<invalid tensor>";
}

/// Keeps a format spec (everything between ':' and '}') for the formatters of tensors.
class SpecParser {
 public:
  template <class ParseContext>
  constexpr auto parse(ParseContext& ctx) -> decltype(ctx.begin()) {
    auto it = ctx.begin();
    length_ = 0;
    while (it != ctx.end() && *it != '}') {
      if (length_ == sizeof(spec_)) {
#if DMLREF_HAS_EXCEPTIONS
        throw ::fmt::format_error("dmlref: a tensor's format spec has at most 32 characters");
#else
        break;
#endif
      }
      spec_[length_++] = *it++;
    }
    return it;
  }
  std::string spec() const { return std::string(spec_, length_); }

 private:
  char spec_[32] = {};
  std::size_t length_ = 0;
};

}  // namespace dmlref::detail::print

#endif  // DMLREF_DETAIL_PRINT_TENSOR_HPP
