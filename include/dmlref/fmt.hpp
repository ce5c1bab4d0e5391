#ifndef DMLREF_FMT_HPP
#define DMLREF_FMT_HPP

/// Optional {fmt} integration (fmt 9 or later; Debian: libfmt-dev). The core dmlref headers never
/// include fmt: only translation units that include this header need it.
///
///   fmt::format("{}", DataType::FLOAT16)       "FLOAT16"        (also ErrorCode, Reduction)
///   fmt::format("{}", Shape{2, 3})             "{2, 3}"
///   fmt::format("{}", status)                  the error message ("ok" for an ok Status); Error too
///   fmt::format("{}", float16)                 the shortest decimal that reads back as the same half
///   fmt::format("{}", view)                    the tensor as numpy's print() shows it
///   fmt::format("{}", desc)                    the same for a TensorDesc / MutableTensorDesc
///   fmt::format("{}", provenance)              explain.hpp's Provenance, as dmlref::to_string writes it
///
/// Tensors print exactly as numpy 1.24's str(array) with its default print options: nested
/// brackets, elements right-aligned to a common width, rows wrapped at 75 columns, and tensors of
/// more than 1000 elements summarised with "..." after the first and before the last 3 items of
/// every dimension longer than 6. Floats use numpy's rules: the shortest digits that identify the
/// value in its own type (float16 in half precision), at most 8 after the point, "1." for whole
/// numbers, scientific notation when the largest magnitude is >= 1e8, the smallest nonzero one is
/// < 1e-4, or their ratio is > 1000; nan, inf, -inf. Strides are honoured (a broadcast stride 0
/// repeats the element). With a format spec, `{:.3f}` say, every element is formatted with that
/// spec instead (float16 as float) and the layout stays numpy's.
///
/// A descriptor is checked as an operator would check it (data type, DimensionCount 1..8, sizes,
/// strides, TotalTensorSizeInBytes, Data) before any element is read; one that fails prints as
/// "<invalid tensor: MESSAGE>". A TensorView is trusted, as operators trust it, except that its
/// rank, sizes, strides and data pointer are checked.

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <string>

#include "data_type.hpp"
#include "detail/print_numbers.hpp"
#include "detail/print_tensor.hpp"
#include "detail/tensor.hpp"
#include "float16.hpp"
#include "runtime/tensor_desc.hpp"
#include "shape.hpp"
#include "status.hpp"
#include "tensor_view.hpp"
#if __has_include("reduction.hpp")
#  include "reduction.hpp"
#  define DMLREF_FMT_HAS_REDUCTION 1
#endif

namespace fmt {

/// "FLOAT32", "INT64", ... ("UNKNOWN" for values that are not a DirectML data type).
template <>
struct formatter<dmlref::DataType> : formatter<string_view> {
  template <class FormatContext>
  auto format(dmlref::DataType type, FormatContext& ctx) const -> decltype(ctx.out()) {
    return formatter<string_view>::format(dmlref::name(type), ctx);
  }
};

/// "index_out_of_range", ...
template <>
struct formatter<dmlref::ErrorCode> : formatter<string_view> {
  template <class FormatContext>
  auto format(dmlref::ErrorCode code, FormatContext& ctx) const -> decltype(ctx.out()) {
    return formatter<string_view>::format(dmlref::name(code), ctx);
  }
};

#if defined(DMLREF_FMT_HAS_REDUCTION)
/// "none", "add", "mul", "max", "min".
template <>
struct formatter<dmlref::Reduction> : formatter<string_view> {
  template <class FormatContext>
  auto format(dmlref::Reduction reduction, FormatContext& ctx) const -> decltype(ctx.out()) {
    return formatter<string_view>::format(dmlref::name(reduction), ctx);
  }
};
#endif

/// "{2, 3}", as in error messages.
template <>
struct formatter<dmlref::Shape> : formatter<string_view> {
  template <class FormatContext>
  auto format(const dmlref::Shape& shape, FormatContext& ctx) const -> decltype(ctx.out()) {
    const std::string text = dmlref::ErrorValue::braced(shape);
    return formatter<string_view>::format(string_view(text), ctx);
  }
};

/// The error's message, e.g. "Gather: IndicesTensor value 7 at [1] is out of range for ...".
template <>
struct formatter<dmlref::Error> : formatter<string_view> {
  template <class FormatContext>
  auto format(const dmlref::Error& error, FormatContext& ctx) const -> decltype(ctx.out()) {
    const std::string text = error.message();
    return formatter<string_view>::format(string_view(text), ctx);
  }
};

/// The error's message, or "ok".
template <>
struct formatter<dmlref::Status> : formatter<string_view> {
  template <class FormatContext>
  auto format(const dmlref::Status& status, FormatContext& ctx) const -> decltype(ctx.out()) {
    const std::string text = status.message();
    return formatter<string_view>::format(string_view(text), ctx);
  }
};

/// Without a spec, the shortest decimal that reads back as the same half ("0.1", "65500", "inf",
/// "nan"); with one, the value as a float in that spec (`{:.3f}`).
template <>
struct formatter<dmlref::float16> : formatter<float> {
  template <class ParseContext>
  constexpr auto parse(ParseContext& ctx) -> decltype(ctx.begin()) {
    has_spec_ = ctx.begin() != ctx.end() && *ctx.begin() != '}';
    return formatter<float>::parse(ctx);
  }
  template <class FormatContext>
  auto format(dmlref::float16 h, FormatContext& ctx) const -> decltype(ctx.out()) {
    const float f = h.to_float();
    if (has_spec_ || !std::isfinite(f)) return formatter<float>::format(f, ctx);
    // The shortest half digits, written as fmt writes a double with exactly those digits.
    const dmlref::detail::print::Decimal d = dmlref::detail::print::shortest(h);
    const std::string text = (d.negative ? "-" : "") + d.digits.substr(0, 1) + "." + d.digits.substr(1) +
                             "e" + std::to_string(d.exponent);
    return format_to(ctx.out(), "{}", dmlref::detail::print::read_double(text));
  }

 private:
  bool has_spec_ = false;
};

/// The tensor as numpy's print() shows it; `{:SPEC}` formats every element with SPEC.
template <class T>
struct formatter<dmlref::TensorView<T>> : dmlref::detail::print::SpecParser {
  template <class FormatContext>
  auto format(const dmlref::TensorView<T>& view, FormatContext& ctx) const -> decltype(ctx.out()) {
    dmlref::detail::RawTensor raw = dmlref::detail::raw("TensorView", view);
    const std::string text = dmlref::detail::print::format_raw(raw, spec());
    return std::copy(text.begin(), text.end(), ctx.out());
  }
};

/// The described tensor as numpy's print() shows it, after the checks an operator makes.
template <class Pointer>
struct formatter<dmlref::BasicTensorDesc<Pointer>> : dmlref::detail::print::SpecParser {
  template <class FormatContext>
  auto format(const dmlref::BasicTensorDesc<Pointer>& desc, FormatContext& ctx) const -> decltype(ctx.out()) {
    dmlref::detail::RawTensor raw;
    dmlref::detail::DescShapes shapes;
    const dmlref::Status s = dmlref::detail::from_desc("format", "TensorDesc", desc, raw, shapes);
    const std::string text =
        s.ok() ? dmlref::detail::print::format_raw(raw, spec()) : "<invalid tensor: " + s.message() + ">";
    return std::copy(text.begin(), text.end(), ctx.out());
  }
};

}  // namespace fmt

// Provenance (explain.hpp), when provenance.hpp is included too (in either order).
#if defined(DMLREF_PROVENANCE_HPP)
#  include "detail/fmt_provenance.hpp"
#endif

#endif  // DMLREF_FMT_HPP
