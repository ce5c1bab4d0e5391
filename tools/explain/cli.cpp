// `dmlref explain` and `dmlref compare` (see cli.hpp).
#include "cli.hpp"

#include <dmlref/detail/element_text.hpp>
#include <dmlref/npy.hpp>

#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <new>
#include <string>
#include <utility>
#include <vector>

namespace explain_cli {

namespace {

using dmlref::Element;
using dmlref::IndexRead;
using dmlref::Provenance;
using dmlref::Shape;

/// An error that ends the command with exit code 2.
struct Failure {
  std::string message;
};

/// "3,1" as a coordinate; "" is the one element of a 0-d output (an onnx-* scalar). (CLI11 reads
/// "[3,1]" as a list of three values, so brackets never reach this function.)
Shape parse_coordinate(const std::string& text) {
  Shape at;
  if (text.empty()) return at;
  std::size_t begin = 0;
  for (;;) {
    const std::size_t end = text.find(',', begin);
    const std::string entry = text.substr(begin, end == std::string::npos ? std::string::npos : end - begin);
    char* stop = nullptr;
    errno = 0;
    const long long v = std::strtoll(entry.c_str(), &stop, 10);
    if (entry.empty() || *stop != '\0' || errno == ERANGE)
      throw Failure{"--at " + text + ": a coordinate is integers separated by commas, such as 3,1"};
    at.push_back(v);
    if (end == std::string::npos) return at;
    begin = end + 1;
  }
}

// ---- JSON: one object per element, values as strings (nan, -0) next to their bits ----

std::string json_coordinate(const Shape& c) {
  std::string s = "[";
  for (std::size_t d = 0; d < c.size(); ++d) s += (d == 0 ? "" : ",") + std::to_string(c[static_cast<int>(d)]);
  return s + "]";
}

/// "\"value\":\"1.5\",\"value_bits\":\"0x3e00\"".
std::string json_element(const std::string& key, const Element& e) {
  return "\"" + key + "\":\"" + dmlref::detail::value_text(e.type, e.bits) + "\",\"" + key + "_bits\":\"" +
         dmlref::detail::bits_text(e.bits, dmlref::element_size(e.type)) + "\"";
}

std::string json_index(const IndexRead& r) {
  std::string s = "{\"at\":" + json_coordinate(r.coordinate) + ",\"value\":" +
                  dmlref::detail::value_text(r.value.type, r.value.bits) + ",\"dimension\":" +
                  std::to_string(r.dimension) + ",\"position\":" + std::to_string(r.position);
  if (r.clamped) s += ",\"clamped_to\":" + std::to_string(r.clamped_to);
  return s + "}";
}

std::string json_indices(const std::vector<IndexRead>& reads) {
  std::string s = "[";
  for (std::size_t i = 0; i < reads.size(); ++i) s += (i == 0 ? "" : ",") + json_index(reads[i]);
  return s + "]";
}

std::string json_provenance(const Provenance& p) {
  std::string s = "{\"op\":\"" + std::string(p.op) + "\",\"output\":" + json_coordinate(p.output) + "," +
                  json_element("value", p.value) + ",\"source\":\"" +
                  (p.source == dmlref::Source::input ? "input" : "updates") + "\",\"input\":" +
                  json_coordinate(p.input) + "," + json_element("input_value", p.input_value);
  if (!p.scatter) return s + ",\"indices\":" + json_indices(p.indices) + "}";
  s += ",\"reduction\":\"" + std::string(dmlref::name(p.reduction)) + "\",\"updates\":[";
  for (std::size_t i = 0; i < p.updates.size(); ++i) {
    const dmlref::Update& u = p.updates[i];
    s += std::string(i == 0 ? "" : ",") + "{\"at\":" + json_coordinate(u.coordinate) + "," +
         json_element("value", u.value) + ",\"indices\":" + json_indices(u.indices) + "," +
         json_element("result", u.result) + "}";
  }
  return s + "]}";
}

std::string shape_text(const Shape& s) { return dmlref::ErrorValue::braced(s); }

// ---- the golden output ----

/// A packed buffer of the output's sizes, 8-byte aligned, as a descriptor.
struct Output {
  Shape sizes;
  std::vector<std::int64_t> dims;
  std::uint64_t bytes = 0;
  std::unique_ptr<std::uint64_t[]> data;  // default-initialised: explain never reads it

  Output(dmlref::DataType type, const Shape& s) : sizes(s), dims(s.begin(), s.end()) {
    std::uint64_t count = 1;
    for (std::int64_t v : dims) {
      if (v != 0 && count > UINT64_MAX / 64 / static_cast<std::uint64_t>(v))
        throw Failure{"the output's " + shape_text(s) + " elements are more than this tool can hold"};
      count *= static_cast<std::uint64_t>(v);
    }
    bytes = count * dmlref::element_size(type);
    data.reset(new (std::nothrow) std::uint64_t[bytes / 8 + 1]);
    if (data == nullptr) throw Failure{"the output (" + std::to_string(bytes) + " bytes) does not fit in memory"};
    desc_ = dmlref::MutableTensorDesc{type, static_cast<std::uint32_t>(dims.size()), dims.data(), nullptr, bytes,
                                      data.get()};
  }
  const dmlref::MutableTensorDesc& desc() const { return desc_; }
  const unsigned char* bytes_at(std::uint64_t element) const {
    return reinterpret_cast<const unsigned char*>(data.get()) + element * dmlref::element_size(desc_.DataType);
  }

 private:
  dmlref::MutableTensorDesc desc_;
};

Shape golden_sizes(const Golden& golden) {
  if (!golden.sizes) throw Failure{golden.sizes.status().message()};
  return *golden.sizes;
}

Provenance explained(const Golden& golden, const Output& out, const Shape& at) {
  const dmlref::Result<Provenance> p = golden.explain(out.desc(), at);
  if (!p) throw Failure{p.status().message()};
  return *p;
}

int explain(const Request& request, const Golden& golden) {
  if (request.at.empty()) throw Failure{"--at I,J,K: which output element to explain (may repeat)"};
  const Output out(golden.type, golden_sizes(golden));
  std::string lines;  // all or nothing: every coordinate is explained before anything is printed
  for (const std::string& text : request.at) {
    const Provenance p = explained(golden, out, parse_coordinate(text));
    lines += (request.format == "json" ? json_provenance(p) : dmlref::to_string(p)) + "\n";
  }
  std::fputs(lines.c_str(), stdout);
  return 0;
}

std::uint64_t element_bits(const unsigned char* p, std::size_t width) {
  switch (width) {
    case 1: { std::uint8_t v; std::memcpy(&v, p, 1); return v; }
    case 2: { std::uint16_t v; std::memcpy(&v, p, 2); return v; }
    case 4: { std::uint32_t v; std::memcpy(&v, p, 4); return v; }
    default: { std::uint64_t v; std::memcpy(&v, p, 8); return v; }
  }
}

int compare(const Request& request, const Golden& golden) {
  if (request.candidate.empty()) throw Failure{"--candidate CAND.npy: the result to compare with the golden one"};
  dmlref::npy::Expected<dmlref::npy::Array> read = dmlref::npy::read_file(request.candidate);
  if (!read) throw Failure{read.error().message};
  const dmlref::npy::Array candidate = read.value().fortran_order ? read.value().to_c_order() : read.value();
  const Output out(golden.type, golden_sizes(golden));
  if (dmlref::Status s = golden.run(out.desc()); !s) throw Failure{s.message()};

  const bool json = request.format == "json";
  const Shape candidate_shape = Shape::from(candidate.shape.data(), candidate.shape.size());
  if (candidate.type != golden.type) {
    if (json)
      std::printf("{\"mismatch\":\"dtype\",\"expected\":\"%s\",\"actual\":\"%s\"}\n", dmlref::name(golden.type),
                  dmlref::name(candidate.type));
    else
      std::printf("%s: the candidate's data type %s differs from the golden result's %s; no elements were compared\n",
                  request.command, dmlref::name(candidate.type), dmlref::name(golden.type));
    return 1;
  }
  if (candidate.shape.size() > static_cast<std::size_t>(dmlref::max_dimension_count) || candidate_shape != out.sizes) {
    if (json)
      std::printf("{\"mismatch\":\"shape\",\"expected\":%s,\"actual\":%s}\n", json_coordinate(out.sizes).c_str(),
                  json_coordinate(candidate_shape).c_str());
    else
      std::printf("%s: the candidate's shape %s differs from the golden result's %s; no elements were compared\n",
                  request.command, shape_text(candidate_shape).c_str(), shape_text(out.sizes).c_str());
    return 1;
  }

  const std::size_t width = dmlref::element_size(golden.type);
  const std::uint64_t count = out.bytes / (width == 0 ? 1 : width);
  std::vector<std::uint64_t> differing;
  std::uint64_t mismatches = 0;
  for (std::uint64_t k = 0; k < count; ++k) {
    if (std::memcmp(out.bytes_at(k), candidate.data.data() + k * width, width) == 0) continue;
    if (differing.size() < static_cast<std::size_t>(request.max)) differing.push_back(k);
    ++mismatches;
  }
  if (mismatches == 0) {
    if (!json)
      std::printf("%s: the candidate equals the golden result, bit for bit (%llu elements)\n", request.command,
                  static_cast<unsigned long long>(count));
    return 0;
  }
  if (!json) {
    const std::string first = differing.size() < mismatches ? "; the first " + std::to_string(differing.size()) : "";
    std::printf("%s: %llu of %llu elements differ from the golden result (bit for bit)%s%s\n", request.command,
                static_cast<unsigned long long>(mismatches), static_cast<unsigned long long>(count), first.c_str(),
                differing.empty() ? "" : ":");
  }
  for (std::uint64_t k : differing) {
    Shape at = Shape::filled(out.sizes.rank(), 0);
    std::uint64_t rest = k;
    for (int d = out.sizes.rank() - 1; d >= 0; --d) {
      at[d] = static_cast<std::int64_t>(rest % static_cast<std::uint64_t>(out.sizes[d]));
      rest /= static_cast<std::uint64_t>(out.sizes[d]);
    }
    const Provenance p = explained(golden, out, at);
    const Element expected{golden.type, element_bits(out.bytes_at(k), width)};
    const Element actual{golden.type, element_bits(candidate.data.data() + k * width, width)};
    std::string line;
    if (json) {
      line = "{\"output\":" + json_coordinate(at) + "," + json_element("expected", expected) + "," +
             json_element("actual", actual) + ",\"provenance\":" + json_provenance(p) + "}";
    } else {
      line = "output" + dmlref::detail::coordinate_text(at) + ": expected " + dmlref::to_string(expected) + ", got " +
             dmlref::to_string(actual) + "; expected = " + dmlref::source_text(p);
    }
    std::printf("%s\n", line.c_str());
  }
  return 1;
}

}  // namespace

void add_options(CLI::App& sub, Mode mode, Request& request) {
  if (mode == Mode::explain) {
    sub.add_option("--at", request.at,
                   "the output element to explain, as I,J,K in the subcommand's rank (repeatable; \"\" for a 0-d "
                   "output)")
        ->expected(1)
        ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll)
        ->required();
  } else {
    sub.add_option("--candidate", request.candidate, "the .npy file to compare with the golden result")->required();
    sub.add_option("--max", request.max, "the most mismatches to print, each with its provenance (default 10)")
        ->check(CLI::Range(0, 1000000));
  }
  sub.add_option("--format", request.format, "text (default) or json: one JSON object per element")
      ->check(CLI::IsMember({"text", "json"}));
}

int execute(const Request& request, const Golden& golden) {
  try {
    return request.mode == Mode::compare ? compare(request, golden) : explain(request, golden);
  } catch (const Failure& f) {
    std::fprintf(stderr, "%s: %s\n", request.command, f.message.c_str());
    return 2;
  }
}

}  // namespace explain_cli
