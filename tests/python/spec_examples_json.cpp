// Prints the spec's worked examples (tests/support/spec_examples.hpp) as JSON on stdout, for the
// Python tests (tests/python/test_spec_examples.py): the same table the C++ tests use, so that
// both read the values transcribed from shared/spec/operators.md once. Standard library only.
#include <cstdio>
#include <string>

#include "support/spec_examples.hpp"

namespace {

const char* op_name(spec_examples::Op op) {
  switch (op) {
    case spec_examples::Op::gather: return "gather";
    case spec_examples::Op::gather_elements: return "gather_elements";
    case spec_examples::Op::gather_nd: return "gather_nd";
    case spec_examples::Op::gather_nd1: return "gather_nd1";
    case spec_examples::Op::scatter: return "scatter";
    case spec_examples::Op::scatter_nd: return "scatter_nd";
  }
  return "";
}

const char* expect_name(spec_examples::Expect e) {
  switch (e) {
    case spec_examples::Expect::ok: return "ok";
    case spec_examples::Expect::shape_error: return "shape_error";
    case spec_examples::Expect::index_error: return "index_error";
    case spec_examples::Expect::collision_error: return "collision_error";
    case spec_examples::Expect::data_type_error: return "data_type_error";
    case spec_examples::Expect::dimension_count_error: return "dimension_count_error";
    case spec_examples::Expect::index_type_error: return "index_type_error";
  }
  return "";
}

std::string quoted(const char* s) {
  std::string out = "\"";
  for (; *s != '\0'; ++s) {
    if (*s == '"' || *s == '\\') out += '\\';
    out += *s;
  }
  return out + "\"";
}

std::string array(const spec_examples::Array& a) {
  std::string out = "{\"sizes\": [";
  for (std::size_t i = 0; i < a.sizes.size(); ++i) out += (i ? ", " : "") + std::to_string(a.sizes[i]);
  out += "], \"values\": [";
  for (std::size_t i = 0; i < a.values.size(); ++i) {
    char number[64];
    std::snprintf(number, sizeof number, "%.17g", a.values[i]);
    out += (i ? ", " : "") + std::string(number);
  }
  return out + "], \"type\": " + quoted(a.type) + "}";
}

}  // namespace

int main() {
  std::string out = "[\n";
  bool first = true;
  for (const spec_examples::Example& e : spec_examples::all()) {
    out += first ? "" : ",\n";
    first = false;
    out += "{\"id\": " + quoted(e.id) + ", \"op\": " + quoted(op_name(e.op)) + ", \"attr\": [" +
           std::to_string(e.attr[0]) + ", " + std::to_string(e.attr[1]) + ", " + std::to_string(e.attr[2]) +
           "], \"input\": " + array(e.input) + ", \"indices\": " + array(e.indices) + ", \"updates\": " +
           array(e.updates) + ", \"output\": " + array(e.output) +
           ", \"check_collisions\": " + (e.check_collisions ? "true" : "false") + ", \"expect\": " +
           quoted(expect_name(e.expect)) + ", \"note\": " + quoted(e.note) + "}";
  }
  out += "\n]\n";
  std::fputs(out.c_str(), stdout);
  return 0;
}
