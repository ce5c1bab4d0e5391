// libFuzzer harness for the DxDispatch model loader of `dmlref run` (tools/dxdispatch/model.cpp):
// the input is a model file's text. Every input is loaded twice, without and with
// --skip-unsupported, and
//   - must not crash, hang or raise a sanitizer report (ASan, UBSan: see fuzz/CMakeLists.txt);
//   - when refused, gives one line of text with a JSON Pointer ("/..."), a "line:column" or no
//     location;
//   - when accepted, gives a model the runner can run without a model error: every binding and
//     tensor desc in range, every name resolved, every bound tensor present (the invariants below);
//   - when accepted without --skip-unsupported, is accepted the same with it, and skips nothing.
// sourcePath files are served from memory (a valid .npy, a raw file, a broken .npy, an unreadable
// file), and resources are capped at 1 MiB, so the fuzzer neither touches the disk nor runs out of
// memory. Seeds: fuzz/corpus_dxdispatch/; dictionary: fuzz/dxdispatch.dict.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>

#include "dxdispatch/model.hpp"

namespace {

using namespace dxdispatch;

constexpr std::uint64_t kMaxResourceBytes = std::uint64_t{1} << 20;

std::string_view g_input;

[[noreturn]] void finding(const std::string& what) {
  std::fprintf(stderr, "finding: %s\ninput (%zu bytes):\n%.*s\n", what.c_str(), g_input.size(),
               static_cast<int>(g_input.size()), g_input.data());
  std::abort();
}

void expect(bool condition, const std::string& what) {
  if (!condition) finding(what);
}

FileContents serve(const std::string& path) {
  FileContents f;
  f.found = true;
  if (path == "a.npy") {  // float32 {2, 2}: 1, 2, 3, 4
    const std::string header = "{'descr': '<f4', 'fortran_order': False, 'shape': (2, 2), }";
    std::string file = std::string("\x93NUMPY\x01\x00", 8);
    const std::size_t total = (10 + header.size() + 1 + 63) / 64 * 64;
    file += static_cast<char>((total - 10) & 0xFF);
    file += static_cast<char>((total - 10) >> 8);
    file += header + std::string(total - 10 - header.size() - 1, ' ') + "\n";
    const float values[] = {1, 2, 3, 4};
    file.append(reinterpret_cast<const char*>(values), sizeof values);
    f.bytes.assign(file.begin(), file.end());
  } else if (path == "b.bin") {
    for (int i = 0; i < 8; ++i) f.bytes.push_back(static_cast<unsigned char>(i));
  } else if (path == "bad.npy") {
    const char text[] = "\x93NUMPY\x01\x00\x05\x00{'de";
    f.bytes.assign(text, text + sizeof text - 1);
  } else if (path == "locked.bin") {
    f.error = "cannot open it: Permission denied";
  } else {
    f.found = false;
  }
  return f;
}

bool location_ok(const std::string& location) {
  if (location.empty() || location[0] == '/') return true;
  const std::size_t colon = location.find(':');
  if (colon == std::string::npos || colon == 0 || colon + 1 == location.size()) return false;
  for (std::size_t i = 0; i < location.size(); ++i)
    if (i != colon && (location[i] < '0' || location[i] > '9')) return false;
  return true;
}

/// A relative path of non-empty parts, none of them "." or "..".
bool path_inside(const std::string& p) {
  if (p.empty() || p.front() == '/') return false;
  std::size_t start = 0;
  while (true) {
    const std::size_t end = p.find('/', start);
    const std::string part = p.substr(start, end == std::string::npos ? std::string::npos : end - start);
    if (part.empty() || part == "." || part == "..") return false;
    if (end == std::string::npos) return true;
    start = end + 1;
  }
}

void check_tensor(const TensorDesc& t, const std::string& where) {
  expect(!t.sizes.empty() && t.sizes.size() <= 8, where + ": DimensionCount outside 1..8");
  expect(t.strides.empty() || t.strides.size() == t.sizes.size(), where + ": Strides of another length");
  expect(dmlref::is_valid(t.data_type), where + ": no data type");
  std::uint64_t last = 0, count = 1;
  for (std::size_t d = 0; d < t.sizes.size(); ++d) {
    expect(t.sizes[d] >= 1 && t.sizes[d] <= 0xFFFFFFFFll, where + ": a size outside 1..UINT32_MAX");
    if (!t.strides.empty()) {
      expect(t.strides[d] >= 0 && t.strides[d] <= 0xFFFFFFFFll, where + ": a stride outside 0..UINT32_MAX");
      last += static_cast<std::uint64_t>(t.sizes[d] - 1) * static_cast<std::uint64_t>(t.strides[d]);
    }
    count *= static_cast<std::uint64_t>(t.sizes[d]);
  }
  if (t.strides.empty()) last = count - 1;
  expect((last + 1) * dmlref::element_size(t.data_type) <= t.total_bytes,
         where + ": TotalTensorSizeInBytes below the extent");
  expect(t.total_bytes <= static_cast<std::uint64_t>(INT64_MAX), where + ": TotalTensorSizeInBytes above 2^63");
}

void check_binding(const Model& m, const Binding& b, const TensorDesc& t, const std::string& where) {
  expect(b.resource < m.resources.size(), where + ": binding to no resource");
  const Resource& r = m.resources[b.resource];
  expect(r.unsupported.empty(), where + ": a run binds an unsupported resource");
  expect(b.offset < r.size, where + ": binding offset past the resource");
  expect(r.size - b.offset >= t.total_bytes, where + ": bound range smaller than TotalTensorSizeInBytes");
}

void check_model(const Model& m) {
  for (const Resource& r : m.resources) {
    if (!r.unsupported.empty()) continue;
    expect(r.size >= r.initial.size() && !r.initial.empty(),
           "resource " + r.name + ": size below its data, or no data");
    expect(r.size <= kMaxResourceBytes, "resource " + r.name + ": larger than the cap");
  }
  for (const Dispatchable& d : m.dispatchables) {
    if (!d.supported) continue;
    for (int i = 0; i < kRoleCount; ++i) {
      const Role role = static_cast<Role>(i);
      const std::string where = d.name + "." + role_name(role);
      expect(d.tensors[i].has_value() == has_role(d.op, role), where + ": tensor present or missing wrongly");
      if (!d.tensors[i]) continue;
      check_tensor(*d.tensors[i], where);
      expect(d.tensors[i]->owned_by_dml == d.init_bindings[i].has_value(),
             where + ": OWNED_BY_DML without its binding");
      if (d.init_bindings[i]) check_binding(m, *d.init_bindings[i], *d.tensors[i], where);
    }
    expect(!d.tensors[kOutput]->owned_by_dml, d.name + ": OWNED_BY_DML output");
  }
  for (const Command& c : m.commands) {
    const std::string where = "command " + std::to_string(c.index);
    if (!c.skipped.empty()) continue;
    switch (c.kind) {
      case Command::Kind::dispatch: {
        expect(c.dispatchable < m.dispatchables.size(), where + ": no dispatchable");
        const Dispatchable& d = m.dispatchables[c.dispatchable];
        expect(d.supported, where + ": runs an unsupported dispatchable");
        for (int i = 0; i < kRoleCount; ++i) {
          if (!d.tensors[i]) {
            expect(!c.bindings[i], where + ": binds a tensor the operator does not have");
            continue;
          }
          expect(c.bindings[i].has_value() != d.tensors[i]->owned_by_dml,
                 where + ": a tensor bound twice or not at all");
          if (c.bindings[i]) check_binding(m, *c.bindings[i], *d.tensors[i], where);
        }
        break;
      }
      case Command::Kind::print:
        expect(c.resource < m.resources.size() && dmlref::is_valid(m.resources[c.resource].type),
               where + ": prints no type");
        break;
      case Command::Kind::write_file: {
        expect(c.resource < m.resources.size(), where + ": writes no resource");
        expect(path_inside(c.target_path), where + ": targetPath " + c.target_path + " may leave the output folder");
        if (c.npy) expect(dmlref::is_valid(m.resources[c.resource].type), where + ": .npy of no type");
        break;
      }
    }
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  g_input = std::string_view(reinterpret_cast<const char*>(data), size);
  LoadOptions options;
  options.read_file = serve;
  options.max_resource_bytes = kMaxResourceBytes;

  LoadResult strict = load_model(g_input, options);
  options.skip_unsupported = true;
  LoadResult skipping = load_model(g_input, options);

  for (const LoadResult* r : {&strict, &skipping}) {
    if (r->model) {
      check_model(*r->model);
      for (const std::string& w : r->model->warnings)
        expect(w.find('\n') == std::string::npos, "a warning of two lines");
      continue;
    }
    const std::string text = r->error.text();
    expect(!r->error.message.empty(), "an error without a message");
    expect(text.find('\n') == std::string::npos, "an error of two lines: " + text);
    expect(location_ok(r->error.location), "an error located neither by a JSON Pointer nor by line:column: " + text);
  }
  if (strict.model) {
    expect(skipping.model.has_value(), "accepted without --skip-unsupported, refused with it");
    expect(skipping.model->commands.size() == strict.model->commands.size(),
           "a different model with --skip-unsupported");
    for (const Command& c : skipping.model->commands) expect(c.skipped.empty(), "a valid model with a skipped command");
  }
  return 0;
}
