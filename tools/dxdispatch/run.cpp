// Runs DxDispatch models (see run.hpp): the only translation unit of `dmlref run` that calls operators.
#include "run.hpp"

#include <dmlref/dmlref.hpp>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <new>
#include <system_error>
#include <type_traits>
#include <vector>

#include "output.hpp"

namespace dxdispatch {

namespace {

std::string in_quotes(const std::string& s) { return quoted_name(s); }

/// Buffers start at a multiple of 64 KiB, as a D3D12 buffer resource does, so that under
/// --feature-level a binding's alignment is its offset's (DirectML's rule is on the offset).
template <class T>
struct ResourceAllocator {
  using value_type = T;
  static constexpr std::align_val_t kAlignment{65536};
  ResourceAllocator() = default;
  template <class U>
  ResourceAllocator(const ResourceAllocator<U>&) noexcept {}
  T* allocate(std::size_t n) { return static_cast<T*>(::operator new(n * sizeof(T), kAlignment)); }
  void deallocate(T* p, std::size_t) noexcept { ::operator delete(p, kAlignment); }
  template <class U>
  bool operator==(const ResourceAllocator<U>&) const noexcept {
    return true;
  }
  template <class U>
  bool operator!=(const ResourceAllocator<U>&) const noexcept {
    return false;
  }
};
using Bytes = std::vector<unsigned char, ResourceAllocator<unsigned char>>;

/// One dispatch's tensors as dmlref's descriptors over the run's buffers.
struct Bound {
  dmlref::TensorDesc inputs[kRoleCount];
  dmlref::MutableTensorDesc output;
};

/// try_<operator>(...) for the dispatchable's operator or, with Minimum, minimum_feature_level(...).
template <bool Minimum>
std::conditional_t<Minimum, dmlref::Result<std::uint32_t>, dmlref::Status> call_operator(const Dispatchable& d,
                                                                                          const Bound& b,
                                                                                          const dmlref::Options& o) {
  const dmlref::TensorDesc& in = b.inputs[kInput];
  const dmlref::TensorDesc& idx = b.inputs[kIndices];
  const dmlref::TensorDesc& upd = b.inputs[kUpdates];
  const dmlref::MutableTensorDesc& out = b.output;
  using dmlref::minimum_feature_level;
  switch (d.op) {
    case Operator::gather: {
      const dmlref::GatherParams p{d.axis, d.index_dimensions};
      if constexpr (Minimum) return minimum_feature_level(in, idx, out, p, o);
      else return dmlref::try_gather(in, idx, out, p, o);
    }
    case Operator::gather_elements: {
      const dmlref::GatherElementsParams p{d.axis};
      if constexpr (Minimum) return minimum_feature_level(in, idx, out, p, o);
      else return dmlref::try_gather_elements(in, idx, out, p, o);
    }
    case Operator::gather_nd: {
      const dmlref::GatherNDParams p{d.input_dimension_count, d.indices_dimension_count};
      if constexpr (Minimum) return minimum_feature_level(in, idx, out, p, o);
      else return dmlref::try_gather_nd(in, idx, out, p, o);
    }
    case Operator::gather_nd1: {
      const dmlref::GatherND1Params p{d.input_dimension_count, d.indices_dimension_count, d.batch_dimension_count};
      if constexpr (Minimum) return minimum_feature_level(in, idx, out, p, o);
      else return dmlref::try_gather_nd1(in, idx, out, p, o);
    }
    case Operator::scatter: {
      const dmlref::ScatterParams p{d.axis};
      if constexpr (Minimum) return minimum_feature_level(in, idx, upd, out, p, o);
      else return dmlref::try_scatter(in, idx, upd, out, p, o);
    }
    case Operator::scatter_nd: {
      const dmlref::ScatterNDParams p{d.input_dimension_count, d.indices_dimension_count};
      if constexpr (Minimum) return minimum_feature_level(in, idx, upd, out, p, o);
      else return dmlref::try_scatter_nd(in, idx, upd, out, p, o);
    }
  }
  return dmlref::Status();
}

std::string subject(const Model& model, const Command& c) {
  switch (c.kind) {
    case Command::Kind::dispatch:
      return "command " + std::to_string(c.index) + " (dispatch " +
             in_quotes(model.dispatchables[c.dispatchable].name) + ")";
    case Command::Kind::print:
      return "command " + std::to_string(c.index) + " (print)";
    case Command::Kind::write_file:
      return "command " + std::to_string(c.index) + " (writeFile)";
  }
  return "command " + std::to_string(c.index);
}

class Runner {
 public:
  Runner(const Model& model, const RunOptions& options, std::FILE* out) : model_(model), options_(options), out_(out) {}

  std::optional<Diagnostic> run() {
    // Resources first (zero-filled, the initial data at byte 0), then the dispatchables'
    // OWNED_BY_DML inputs, which DirectML copies at initialisation: later writes to the resource
    // do not reach them.
    buffers_.resize(model_.resources.size());
    for (std::size_t i = 0; i < model_.resources.size(); ++i) {
      const Resource& r = model_.resources[i];
      if (!r.unsupported.empty()) continue;
      if (!allocate(buffers_[i], r.size))
        return Diagnostic{
            r.pointer, "resource " + in_quotes(r.name) + ": cannot allocate its " + std::to_string(r.size) + " bytes"};
      std::memcpy(buffers_[i].data(), r.initial.data(), r.initial.size());
    }
    snapshots_.resize(model_.dispatchables.size());
    for (std::size_t d = 0; d < model_.dispatchables.size(); ++d) {
      const Dispatchable& disp = model_.dispatchables[d];
      for (int role = 0; role < kRoleCount; ++role) {
        if (!disp.init_bindings[role]) continue;
        const Binding& b = *disp.init_bindings[role];
        const std::uint64_t bytes = disp.tensors[role]->total_bytes;
        Bytes& copy = snapshots_[d][role];
        if (!allocate(copy, bytes))
          return Diagnostic{b.pointer, "dispatchable " + in_quotes(disp.name) + ": cannot allocate " +
                                           std::to_string(bytes) + " bytes for its OWNED_BY_DML " +
                                           role_name(static_cast<Role>(role))};
        std::memcpy(copy.data(), buffers_[b.resource].data() + b.offset, static_cast<std::size_t>(bytes));
      }
    }
    if (std::optional<Diagnostic> error = check_feature_level()) return error;
    for (const Command& c : model_.commands) {
      if (!c.skipped.empty()) continue;
      std::optional<Diagnostic> error;
      switch (c.kind) {
        case Command::Kind::dispatch:
          error = dispatch(c);
          break;
        case Command::Kind::print:
          error = print(c);
          break;
        case Command::Kind::write_file:
          error = write_file(c);
          break;
      }
      if (error) return error;
    }
    return std::nullopt;
  }

 private:
  /// With --feature-level, before any command runs: the first dispatch whose operator DirectML at
  /// that level rejects (DirectML rejects it when the operator is created, before anything runs),
  /// with the library's error. minimum_feature_level runs every check but the index values and
  /// writes nothing; when it names a level above ours, the call at our level fails on that level
  /// before it writes anything, and gives the library's message. Other errors (a binding rule, an
  /// index) are left to the command, as DirectML reports them when it binds or runs.
  std::optional<Diagnostic> check_feature_level() {
    dmlref::Options o = options_.operators;
    if (o.feature_level == 0) return std::nullopt;
    o.binding_rules = dmlref::BindingRules::relaxed;  // checked when the command binds and runs
    for (const Command& c : model_.commands) {
      if (!c.skipped.empty() || c.kind != Command::Kind::dispatch) continue;
      const Dispatchable& d = model_.dispatchables[c.dispatchable];
      const Bound b = bind(c);
      const dmlref::Result<std::uint32_t> minimum = call_operator<true>(d, b, o);
      if (!minimum || *minimum <= o.feature_level) continue;
      const dmlref::Status status = call_operator<false>(d, b, o);
      if (!status) return Diagnostic{c.pointer, subject(model_, c) + ": " + status.message()};
    }
    return std::nullopt;
  }

  static bool allocate(Bytes& buffer, std::uint64_t bytes) {
    try {
      buffer.assign(static_cast<std::size_t>(bytes), 0);
      return true;
    } catch (const std::bad_alloc&) {
      return false;
    } catch (const std::length_error&) {
      return false;
    }
  }

  /// The dispatch's tensors over the buffers (OWNED_BY_DML inputs: their snapshots).
  Bound bind(const Command& c) {
    const std::size_t index = c.dispatchable;
    const Dispatchable& d = model_.dispatchables[index];
    Bound b;
    for (int role = 0; role < kRoleCount; ++role) {
      if (!d.tensors[role]) continue;
      const TensorDesc& t = *d.tensors[role];
      unsigned char* data = nullptr;
      if (c.bindings[role]) {
        data = buffers_[c.bindings[role]->resource].data() + c.bindings[role]->offset;
      } else {
        data = snapshots_[index][role].data();  // OWNED_BY_DML
      }
      dmlref::MutableTensorDesc desc;
      desc.DataType = t.data_type;
      desc.DimensionCount = static_cast<std::uint32_t>(t.sizes.size());
      desc.Sizes = t.sizes.data();
      desc.Strides = t.strides.empty() ? nullptr : t.strides.data();
      desc.TotalTensorSizeInBytes = t.total_bytes;
      desc.Data = data;
      desc.GuaranteedBaseOffsetAlignment = t.guaranteed_base_offset_alignment;  // read under binding rules only
      if (role == kOutput)
        b.output = desc;
      else
        b.inputs[role] = dmlref::TensorDesc{desc.DataType,
                                            desc.DimensionCount,
                                            desc.Sizes,
                                            desc.Strides,
                                            desc.TotalTensorSizeInBytes,
                                            desc.Data,
                                            desc.GuaranteedBaseOffsetAlignment};
    }
    return b;
  }

  std::optional<Diagnostic> dispatch(const Command& c) {
    const dmlref::Status status =
        call_operator<false>(model_.dispatchables[c.dispatchable], bind(c), options_.operators);
    if (status) return std::nullopt;
    return Diagnostic{c.pointer, subject(model_, c) + ": " + status.message()};
  }

  std::optional<Diagnostic> print(const Command& c) {
    const Resource& r = model_.resources[c.resource];
    // DxDispatch shows as many elements as the initial data holds, not the padding after it.
    const std::size_t count = r.initial.size() / dmlref::element_size(r.type);
    const std::string text = format_print(r.name, r.type, buffers_[c.resource].data(), count, c.verbose);
    if (std::fwrite(text.data(), 1, text.size(), out_) != text.size())
      return Diagnostic{c.pointer, subject(model_, c) + ": cannot write to the standard output"};
    return std::nullopt;
  }

  std::optional<Diagnostic> write_file(const Command& c) {
    namespace fs = std::filesystem;
    const Resource& r = model_.resources[c.resource];
    const Bytes& buffer = buffers_[c.resource];
    const fs::path path = fs::path(options_.output_dir.empty() ? "." : options_.output_dir) / c.target_path;
    const std::string shown = path.lexically_normal().string();
    std::error_code ec;
    const fs::path folder = path.parent_path();
    fs::create_directories(folder, ec);
    if (ec || !fs::is_directory(folder))
      return Diagnostic{c.pointer, subject(model_, c) + ": cannot create the folder " +
                                       in_quotes(folder.lexically_normal().string()) + " for " +
                                       in_quotes(c.target_path) + ": " +
                                       (ec ? ec.message() : std::string("it is not a folder"))};
    std::vector<unsigned char> npy;
    const unsigned char* bytes = buffer.data();
    std::size_t size = buffer.size();
    if (c.npy) {
      std::vector<std::int64_t> shape = c.dimensions;
      if (shape.empty()) shape.push_back(static_cast<std::int64_t>(r.size / dmlref::element_size(r.type)));
      npy = npy_file(r.type, shape, buffer.data(), buffer.size());
      bytes = npy.data();
      size = npy.size();
    }
    std::FILE* file = std::fopen(path.c_str(), "wb");
    if (file == nullptr)
      return Diagnostic{c.pointer,
                        subject(model_, c) + ": cannot create " + in_quotes(shown) + ": " + std::strerror(errno)};
    const std::size_t written = size == 0 ? 0 : std::fwrite(bytes, 1, size, file);
    const int write_errno = errno;
    const bool closed = std::fclose(file) == 0;
    if (written != size || !closed)
      return Diagnostic{c.pointer, subject(model_, c) + ": cannot write " + in_quotes(shown) + ": " +
                                       std::strerror(written != size ? write_errno : errno)};
    // DxDispatch's line: the names as they are.
    const std::string line =
        "Resource '" + r.name + "' written to '" + fs::absolute(path, ec).lexically_normal().string() + "'\n";
    std::fwrite(line.data(), 1, line.size(), out_);
    return std::nullopt;
  }

  const Model& model_;
  const RunOptions& options_;
  std::FILE* out_;
  std::vector<Bytes> buffers_;
  std::vector<std::array<Bytes, kRoleCount>> snapshots_;
};

}  // namespace

std::optional<Diagnostic> run_model(const Model& model, const RunOptions& options, std::FILE* out) {
  return Runner(model, options, out).run();
}

}  // namespace dxdispatch
