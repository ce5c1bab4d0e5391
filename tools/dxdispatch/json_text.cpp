// The JSON side of the DxDispatch model loader (see json_text.hpp).
#include "json_text.hpp"

#include <set>
#include <utility>
#include <vector>

namespace dxdispatch {

void fail(const std::string& pointer, const std::string& subject, const std::string& message) {
  throw Failure{Diagnostic{pointer, subject.empty() ? message : subject + ": " + message}};
}

namespace {

// ---- the text before nlohmann sees it ---------------------------------------------------------------

/// DxDispatch's rapidjson accepts trailing commas and stops after the root value; nlohmann 3.11 has
/// neither option. Blanks a comma that follows a value and precedes '}' or ']' (outside strings and
/// comments) and cuts the text after the root object or array. Offsets stay those of the file.
std::string prepare(std::string_view text) {
  std::string out(text);
  std::size_t pending_comma = std::string::npos;  // a comma after a value, not yet followed by anything
  char previous = '\0';                           // the last significant character
  int depth = 0;
  for (std::size_t i = 0; i < out.size(); ++i) {
    const char c = out[i];
    if (c == '"') {
      pending_comma = std::string::npos;
      for (++i; i < out.size() && out[i] != '"'; ++i)
        if (out[i] == '\\') ++i;
      previous = '"';
      continue;
    }
    if (c == '/' && i + 1 < out.size() && out[i + 1] == '/') {
      while (i < out.size() && out[i] != '\n') ++i;
      continue;
    }
    if (c == '/' && i + 1 < out.size() && out[i + 1] == '*') {
      const std::size_t end = out.find("*/", i + 2);
      if (end == std::string::npos) break;  // unterminated: the parser reports it
      i = end + 1;
      continue;
    }
    if (c == ' ' || c == '\t' || c == '\n' || c == '\r') continue;
    if (c == ',') {
      pending_comma =
          (previous == '[' || previous == '{' || previous == ',' || previous == ':') ? std::string::npos : i;
      previous = ',';
      continue;
    }
    if ((c == '}' || c == ']') && pending_comma != std::string::npos) out[pending_comma] = ' ';
    pending_comma = std::string::npos;
    previous = c;
    if (c == '{' || c == '[') ++depth;
    if ((c == '}' || c == ']') && --depth == 0) {
      out.resize(i + 1);
      break;
    }
  }
  return out;
}

/// A JSON Pointer token (RFC 6901: '~' and '/' escaped); control characters shown as \xNN so that
/// a diagnostic stays on one line.
std::string escape_pointer_token(const std::string& key) {
  static const char hex[] = "0123456789abcdef";
  std::string s;
  for (char c : key) {
    const unsigned char u = static_cast<unsigned char>(c);
    if (c == '~') {
      s += "~0";
    } else if (c == '/') {
      s += "~1";
    } else if (u < 0x20 || u == 0x7F) {
      s += "\\x";
      s += hex[u >> 4];
      s += hex[u & 15];
    } else {
      s += c;
    }
  }
  return s;
}

}  // namespace

std::string at(const std::string& pointer, const std::string& key) { return pointer + "/" + escape_pointer_token(key); }
std::string at(const std::string& pointer, std::size_t index) { return pointer + "/" + std::to_string(index); }

std::string shown(const std::string& s) {
  static const char hex[] = "0123456789abcdef";
  std::string out;
  for (std::size_t i = 0; i < s.size(); ++i) {
    if (out.size() >= 200) {
      out += "...";
      break;
    }
    const unsigned char c = static_cast<unsigned char>(s[i]);
    if (c >= 0x20 && c < 0x7F && c != '\\') {
      out += static_cast<char>(c);
    } else {
      out += "\\x";
      out += hex[c >> 4];
      out += hex[c & 15];
    }
  }
  return out;
}

std::string in_quotes(const std::string& s) { return "'" + shown(s) + "'"; }

std::string quoted_name(const std::string& name) { return in_quotes(name); }

std::string describe(const Json& v) {
  switch (v.type()) {
    case Json::value_t::object:
      return "an object";
    case Json::value_t::array:
      return "an array";
    case Json::value_t::string:
      return "the string \"" + shown(v.get_ref<const std::string&>()) + "\"";
    case Json::value_t::null:
      return "null";
    case Json::value_t::boolean:
    case Json::value_t::number_integer:
    case Json::value_t::number_unsigned:
    case Json::value_t::number_float:
      return v.dump();
    case Json::value_t::binary:
    case Json::value_t::discarded:
      break;
  }
  return "an unexpected value";
}

namespace {

/// Duplicate keys are ambiguous (rapidjson keeps both, nlohmann the last): refuse them.
class DuplicateKeyCheck {
 public:
  bool operator()(int /*depth*/, Json::parse_event_t event, Json& parsed) {
    switch (event) {
      case Json::parse_event_t::object_start:
      case Json::parse_event_t::array_start:
        frames_.push_back(Frame{event == Json::parse_event_t::array_start, 0, {}, {}});
        break;
      case Json::parse_event_t::key: {
        Frame& f = frames_.back();
        f.key = parsed.get<std::string>();
        if (!f.keys.insert(f.key).second) {
          std::string pointer;
          for (std::size_t i = 0; i + 1 < frames_.size(); ++i)
            pointer = frames_[i].array ? at(pointer, frames_[i].count) : at(pointer, frames_[i].key);
          fail(at(pointer, f.key), "", "the key " + in_quotes(f.key) + " appears twice in one object");
        }
        break;
      }
      case Json::parse_event_t::object_end:
      case Json::parse_event_t::array_end:
        frames_.pop_back();
        element_done();
        break;
      case Json::parse_event_t::value:
        element_done();
        break;
    }
    return true;
  }

 private:
  struct Frame {
    bool array;
    std::size_t count;  // arrays: elements completed
    std::string key;    // objects: the current key
    std::set<std::string> keys;
  };
  void element_done() {
    if (!frames_.empty() && frames_.back().array) ++frames_.back().count;
  }
  std::vector<Frame> frames_;
};

/// "LINE:COLUMN" of a byte offset (1-based, as editors show it).
std::string line_column(std::string_view text, std::size_t offset) {
  std::size_t line = 1, column = 1;
  for (std::size_t i = 0; i < offset && i < text.size(); ++i) {
    if (text[i] == '\n') {
      ++line;
      column = 1;
    } else {
      ++column;
    }
  }
  return std::to_string(line) + ":" + std::to_string(column);
}

}  // namespace

Json parse_json(std::string_view text) {
  const std::string prepared = prepare(text);
  try {
    return Json::parse(prepared, DuplicateKeyCheck(), /*allow_exceptions=*/true, /*ignore_comments=*/true);
  } catch (const Json::parse_error& e) {
    // what(): "[json.exception.parse_error.101] parse error at line 1, column 5: syntax error ..."
    std::string what = e.what();
    const std::size_t colon = what.find(": ", what.find("parse error"));
    if (colon != std::string::npos) what = what.substr(colon + 2);
    const std::size_t offset = e.byte > 0 ? e.byte - 1 : 0;
    throw Failure{Diagnostic{line_column(text, offset), "malformed JSON: " + what}};
  }
}

}  // namespace dxdispatch
