#ifndef DMLREF_DETAIL_FMT_PROVENANCE_HPP
#define DMLREF_DETAIL_FMT_PROVENANCE_HPP

// The {fmt} formatters of provenance.hpp's types. Included by provenance.hpp or by fmt.hpp,
// whichever a translation unit includes second, so that neither header needs the other.

#include <fmt/format.h>

#include <string>

#include "../provenance.hpp"

namespace fmt {

/// "1.5 (0x3e00)".
template <>
struct formatter<dmlref::Element> : formatter<string_view> {
  template <class FormatContext>
  auto format(const dmlref::Element& element, FormatContext& ctx) const -> decltype(ctx.out()) {
    const std::string text = dmlref::to_string(element);
    return formatter<string_view>::format(string_view(text), ctx);
  }
};

/// The provenance as dmlref::to_string writes it ("output[3,1] = 1.5 (0x3e00) = input[2,1], ...").
template <>
struct formatter<dmlref::Provenance> : formatter<string_view> {
  template <class FormatContext>
  auto format(const dmlref::Provenance& provenance, FormatContext& ctx) const -> decltype(ctx.out()) {
    const std::string text = dmlref::to_string(provenance);
    return formatter<string_view>::format(string_view(text), ctx);
  }
};

}  // namespace fmt

#endif  // DMLREF_DETAIL_FMT_PROVENANCE_HPP
