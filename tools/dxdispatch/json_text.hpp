// The JSON side of the DxDispatch model loader (model.cpp): the file's text to an nlohmann value,
// and the pieces of its diagnostics (JSON Pointers, names, values). Internal to tools/dxdispatch/.
#ifndef DMLREF_TOOLS_DXDISPATCH_JSON_TEXT_HPP
#define DMLREF_TOOLS_DXDISPATCH_JSON_TEXT_HPP

#include <nlohmann/json.hpp>

#include <cstddef>
#include <string>
#include <string_view>

#include "model.hpp"

namespace dxdispatch {

/// ordered_json keeps the file's order, so the first error reported is the first in the file.
using Json = nlohmann::ordered_json;

/// Ends a load with a diagnostic (load_model catches it).
struct Failure {
  Diagnostic diagnostic;
};

/// Throws Failure{pointer, "SUBJECT: MESSAGE"} (or just MESSAGE when the subject is empty).
[[noreturn]] void fail(const std::string& pointer, const std::string& subject, const std::string& message);

/// Parses a model's text as DxDispatch's rapidjson does: comments and trailing commas accepted,
/// text after the root value ignored. Malformed JSON and a key twice in one object are Failures
/// (located by line:column, and by JSON Pointer, respectively).
Json parse_json(std::string_view text);

/// JSON Pointers (RFC 6901): POINTER/KEY ('~' and '/' escaped; control characters shown as \xNN,
/// so a diagnostic stays one line) and POINTER/INDEX.
std::string at(const std::string& pointer, const std::string& key);
std::string at(const std::string& pointer, std::size_t index);

/// Text for messages: printable ASCII kept, other bytes as \xNN, at most 200 characters.
std::string shown(const std::string& s);
/// 'shown(s)'
std::string in_quotes(const std::string& s);
/// A JSON value for messages: scalars as written (strings shortened), containers by kind.
std::string describe(const Json& v);

}  // namespace dxdispatch

#endif  // DMLREF_TOOLS_DXDISPATCH_JSON_TEXT_HPP
