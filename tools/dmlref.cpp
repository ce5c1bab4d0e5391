// dmlref: the command-line golden tool. Runs one gather/scatter operator on numpy .npy files and
// writes the result as a .npy file, so that test suites in any language can produce
// DirectML-exact (or ONNX-exact) goldens.
//
//   dmlref gather-nd --input-dimension-count 3 --indices-dimension-count 2 input.npy indices.npy -o out.npy
//   dmlref onnx-scatter-elements --axis=-1 --reduction add data.npy indices.npy updates.npy -o out.npy
//
// DirectML subcommands (gather, gather-elements, gather-nd, gather-nd1, scatter, scatter-nd) take
// DirectML's attributes (unsigned, counted in the padded rank) and left-pad every array with 1s to
// the largest rank among the operands, D; the output file has rank D. ONNX subcommands (onnx-*)
// take ONNX's attributes (axis may be negative) and read every array at its natural rank (0-d and
// empty arrays included); their output has ONNX's rank. Errors print one line to stderr and exit
// with 1 (2 for a command line CLI11 rejects); nothing is written on error. --feature-level 3_0 (or
// 3.0, 0x3000) accepts only what DirectML accepts at that level (docs/directml.md).
//
// `dmlref explain SUBCOMMAND ... --at I,J,K` and `dmlref compare SUBCOMMAND ... --candidate C.npy`
// take the same subcommands without -o (tools/explain/, docs/explain.md).
#include <CLI/CLI.hpp>

#include <dmlref/dmlref.hpp>
#include <dmlref/explain.hpp>
#include <dmlref/npy.hpp>
#include <dmlref/onnx.hpp>

#include "explain/cli.hpp"

#if DMLREF_HAVE_DXDISPATCH
#  include "dxdispatch/cli.hpp"
#endif

#include <cstdint>
#include <cstdio>
#include <exception>
#include <functional>
#include <limits>
#include <new>
#include <string>
#include <utility>
#include <vector>

namespace {

namespace npy = dmlref::npy;

/// A failure that ends the run with a message (the tool's only error path after parsing).
struct Failure {
  std::string message;
};

/// Everything a subcommand may be given.
struct Arguments {
  std::string input, indices, updates;  // the positional files (updates: scatters only)
  std::string output;
  // DirectML attributes (int64 so that a negative value gets our own message).
  std::int64_t axis = 0;
  std::int64_t index_dimensions = 0;
  std::int64_t input_dimension_count = 0;
  std::int64_t indices_dimension_count = 0;
  std::int64_t batch_dimension_count = 0;
  // ONNX attribute.
  std::int64_t batch_dims = 0;
  std::string reduction = "none";
  std::string index_policy = "error";
  bool check_collisions = false;
  int threads = 1;
  std::uint32_t feature_level = 0;  // --feature-level, parsed; 0: none
  explain_cli::Request request;  // `dmlref explain` and `dmlref compare`
};

/// One operand, read from its file.
struct Operand {
  std::string path;
  npy::Array array;
  std::vector<std::int64_t> sizes;    // as passed to dmlref (padded for DirectML)
  std::vector<std::int64_t> strides;  // elements, same length as sizes

  dmlref::TensorDesc desc() const {
    dmlref::TensorDesc d;
    d.DataType = array.type;
    d.DimensionCount = static_cast<std::uint32_t>(sizes.size());
    d.Sizes = sizes.empty() ? nullptr : sizes.data();
    d.Strides = strides.empty() ? nullptr : strides.data();
    d.TotalTensorSizeInBytes = array.data.size();
    d.Data = array.data.empty() ? nullptr : array.data.data();
    return d;
  }
};

Operand read_operand(const std::string& path) {
  npy::Expected<npy::Array> read = npy::read_file(path);
  if (!read) throw Failure{read.error().message};
  Operand op;
  op.path = path;
  op.array = std::move(read).value();
  op.sizes = op.array.shape;
  op.strides = op.array.strides();  // column-major for Fortran-order files: no copy
  return op;
}

std::vector<Operand> read_operands(const Arguments& args, bool with_updates = false) {
  std::vector<Operand> ops;
  ops.push_back(read_operand(args.input));
  ops.push_back(read_operand(args.indices));
  if (with_updates) ops.push_back(read_operand(args.updates));
  return ops;
}

/// DirectML: left-pads every operand with 1s to the largest rank (at least 1); returns D.
int pad_operands(std::vector<Operand>& ops) {
  std::size_t D = 1;
  for (const Operand& op : ops) D = std::max(D, op.sizes.size());
  if (D > static_cast<std::size_t>(dmlref::max_dimension_count)) {
    for (const Operand& op : ops)
      if (op.sizes.size() == D)
        throw Failure{op.path + " has " + std::to_string(D) + " dimensions; DirectML tensors have at most " +
                      std::to_string(dmlref::max_dimension_count)};
  }
  for (Operand& op : ops) {
    const std::size_t missing = D - op.sizes.size();
    // A padded dimension has size 1, so its stride is never used; any value is valid.
    op.sizes.insert(op.sizes.begin(), missing, 1);
    op.strides.insert(op.strides.begin(), missing, 1);
  }
  return static_cast<int>(D);
}

/// The value of a DirectML UINT attribute given on the command line, or `fallback`.
std::uint32_t uint_attribute(const CLI::App& app, const char* option, std::int64_t value, std::int64_t fallback) {
  const std::int64_t v = app.get_option(option)->count() > 0 ? value : fallback;
  if (v < 0 || v > static_cast<std::int64_t>(std::numeric_limits<std::uint32_t>::max()))
    throw Failure{std::string(option) + " " + std::to_string(v) + " is not a DirectML UINT (0..4294967295)" +
                  (v < 0 && std::string(option) == "--axis" ? "; the onnx-* subcommands take negative axes" : "")};
  return static_cast<std::uint32_t>(v);
}

dmlref::Options options_of(const Arguments& args) {
  dmlref::Options options;
  options.index_policy = args.index_policy == "clamp" ? dmlref::IndexPolicy::clamp : dmlref::IndexPolicy::error;
  options.check_collisions = args.check_collisions;
  options.threads = args.threads;
  options.feature_level = args.feature_level;
  return options;
}

dmlref::Reduction reduction_of(const Arguments& args) {
  if (args.reduction == "add") return dmlref::Reduction::add;
  if (args.reduction == "mul") return dmlref::Reduction::mul;
  if (args.reduction == "max") return dmlref::Reduction::max;
  if (args.reduction == "min") return dmlref::Reduction::min;
  return dmlref::Reduction::none;
}

void check(const dmlref::Status& status) {
  if (!status) throw Failure{status.message()};
}

/// The output array for `sizes`, typed like the input; its buffer holds element_count elements.
npy::Array make_output(dmlref::DataType type, const dmlref::Shape& sizes) {
  npy::Array out;
  out.type = type;
  out.shape.assign(sizes.begin(), sizes.end());
  std::uint64_t count = 1;
  for (std::int64_t s : out.shape) {
    if (s != 0 && count > std::numeric_limits<std::uint64_t>::max() / static_cast<std::uint64_t>(s))
      throw Failure{"the output's element count does not fit in 64 bits"};
    count *= static_cast<std::uint64_t>(s);
  }
  const std::uint64_t size = dmlref::element_size(type);
  if (size == 0 || count > std::numeric_limits<std::size_t>::max() / size)
    throw Failure{"the output does not fit in memory"};
  out.data.resize(static_cast<std::size_t>(count * size));
  return out;
}

dmlref::MutableTensorDesc output_desc(npy::Array& out, const std::vector<std::int64_t>& sizes) {
  dmlref::MutableTensorDesc d;
  d.DataType = out.type;
  d.DimensionCount = static_cast<std::uint32_t>(sizes.size());
  d.Sizes = sizes.empty() ? nullptr : sizes.data();
  d.Strides = nullptr;
  d.TotalTensorSizeInBytes = out.data.size();
  d.Data = out.data.empty() ? nullptr : out.data.data();
  return d;
}

void write_output(const Arguments& args, const npy::Array& out) {
  npy::Expected<std::uint64_t> written = npy::write_file(args.output, out);
  if (!written) throw Failure{written.error().message};
}

dmlref::Shape shape_of(const Operand& op) { return dmlref::Shape::from(op.sizes.data(), op.sizes.size()); }

/// Runs `call` (which fills `out`) after computing the output sizes; writes the file. Under
/// `dmlref explain` or `compare`, hands the call and its explanation over instead.
template <class Sizes, class Call, class Explain>
int run(const Arguments& args, dmlref::DataType type, Sizes&& output_sizes, Call&& call, Explain&& explain) {
  if (args.request.mode != explain_cli::Mode::run)
    return explain_cli::execute(args.request, explain_cli::Golden{type, output_sizes(), call, explain});
  const dmlref::Result<dmlref::Shape> sizes = output_sizes();
  if (!sizes) throw Failure{sizes.status().message()};
  npy::Array out = make_output(type, *sizes);
  const std::vector<std::int64_t> out_sizes = out.shape;
  check(call(output_desc(out, out_sizes)));
  write_output(args, out);
  return 0;
}

// ---- DirectML subcommands -------------------------------------------------------------------------

int gather(const CLI::App& app, const Arguments& args) {
  std::vector<Operand> ops = read_operands(args);
  const int index_rank = static_cast<int>(ops[1].sizes.size());
  pad_operands(ops);
  const dmlref::GatherParams params{uint_attribute(app, "--axis", args.axis, 0),
                                    uint_attribute(app, "--index-dimensions", args.index_dimensions, index_rank)};
  return run(args, ops[0].array.type,
      [&] { return dmlref::gather_output_sizes(shape_of(ops[0]), shape_of(ops[1]), params); },
      [&](const dmlref::MutableTensorDesc& out) {
        return dmlref::try_gather(ops[0].desc(), ops[1].desc(), out, params, options_of(args));
      },
      [&](const dmlref::MutableTensorDesc& out, const dmlref::Shape& at) {
        return dmlref::explain_gather(ops[0].desc(), ops[1].desc(), out, params, at, options_of(args));
      });
}

int gather_elements(const CLI::App& app, const Arguments& args) {
  std::vector<Operand> ops = read_operands(args);
  pad_operands(ops);
  const dmlref::GatherElementsParams params{uint_attribute(app, "--axis", args.axis, 0)};
  return run(args, ops[0].array.type,
      [&] { return dmlref::gather_elements_output_sizes(shape_of(ops[0]), shape_of(ops[1]), params); },
      [&](const dmlref::MutableTensorDesc& out) {
        return dmlref::try_gather_elements(ops[0].desc(), ops[1].desc(), out, params, options_of(args));
      },
      [&](const dmlref::MutableTensorDesc& out, const dmlref::Shape& at) {
        return dmlref::explain_gather_elements(ops[0].desc(), ops[1].desc(), out, params, at, options_of(args));
      });
}

int gather_nd(const CLI::App& app, const Arguments& args, bool nd1) {
  std::vector<Operand> ops = read_operands(args);
  const int r = static_cast<int>(ops[0].sizes.size()), q = static_cast<int>(ops[1].sizes.size());
  pad_operands(ops);
  const dmlref::GatherND1Params params{
      uint_attribute(app, "--input-dimension-count", args.input_dimension_count, r),
      uint_attribute(app, "--indices-dimension-count", args.indices_dimension_count, q),
      nd1 ? uint_attribute(app, "--batch-dimension-count", args.batch_dimension_count, 0) : 0u};
  const dmlref::GatherNDParams nd_params{params.InputDimensionCount, params.IndicesDimensionCount};
  return run(args, ops[0].array.type,
      [&] {
        return nd1 ? dmlref::gather_nd1_output_sizes(shape_of(ops[0]), shape_of(ops[1]), params)
                   : dmlref::gather_nd_output_sizes(shape_of(ops[0]), shape_of(ops[1]), nd_params);
      },
      [&](const dmlref::MutableTensorDesc& out) {
        return nd1 ? dmlref::try_gather_nd1(ops[0].desc(), ops[1].desc(), out, params, options_of(args))
                   : dmlref::try_gather_nd(ops[0].desc(), ops[1].desc(), out, nd_params, options_of(args));
      },
      [&](const dmlref::MutableTensorDesc& out, const dmlref::Shape& at) {
        return nd1 ? dmlref::explain_gather_nd1(ops[0].desc(), ops[1].desc(), out, params, at, options_of(args))
                   : dmlref::explain_gather_nd(ops[0].desc(), ops[1].desc(), out, nd_params, at, options_of(args));
      });
}

int scatter(const CLI::App& app, const Arguments& args) {
  std::vector<Operand> ops = read_operands(args, true);
  pad_operands(ops);
  const dmlref::ScatterParams params{uint_attribute(app, "--axis", args.axis, 0), reduction_of(args)};
  return run(args, ops[0].array.type,
      [&] { return dmlref::scatter_output_sizes(shape_of(ops[0]), shape_of(ops[1]), shape_of(ops[2]), params); },
      [&](const dmlref::MutableTensorDesc& out) {
        return dmlref::try_scatter(ops[0].desc(), ops[1].desc(), ops[2].desc(), out, params, options_of(args));
      },
      [&](const dmlref::MutableTensorDesc& out, const dmlref::Shape& at) {
        return dmlref::explain_scatter(ops[0].desc(), ops[1].desc(), ops[2].desc(), out, params, at, options_of(args));
      });
}

int scatter_nd(const CLI::App& app, const Arguments& args) {
  std::vector<Operand> ops = read_operands(args, true);
  const int r = static_cast<int>(ops[0].sizes.size()), q = static_cast<int>(ops[1].sizes.size());
  pad_operands(ops);
  const dmlref::ScatterNDParams params{
      uint_attribute(app, "--input-dimension-count", args.input_dimension_count, r),
      uint_attribute(app, "--indices-dimension-count", args.indices_dimension_count, q), reduction_of(args)};
  return run(args, ops[0].array.type,
      [&] { return dmlref::scatter_nd_output_sizes(shape_of(ops[0]), shape_of(ops[1]), shape_of(ops[2]), params); },
      [&](const dmlref::MutableTensorDesc& out) {
        return dmlref::try_scatter_nd(ops[0].desc(), ops[1].desc(), ops[2].desc(), out, params, options_of(args));
      },
      [&](const dmlref::MutableTensorDesc& out, const dmlref::Shape& at) {
        return dmlref::explain_scatter_nd(ops[0].desc(), ops[1].desc(), ops[2].desc(), out, params, at,
                                          options_of(args));
      });
}

// ---- ONNX subcommands (natural ranks) ---------------------------------------------------------------

int onnx_gather(const Arguments& args) {
  const std::vector<Operand> ops = read_operands(args);
  return run(args, ops[0].array.type,
      [&] { return dmlref::onnx::gather_output_sizes(shape_of(ops[0]), shape_of(ops[1]), args.axis); },
      [&](const dmlref::MutableTensorDesc& out) {
        return dmlref::onnx::try_gather(ops[0].desc(), ops[1].desc(), out, args.axis, options_of(args));
      },
      [&](const dmlref::MutableTensorDesc& out, const dmlref::Shape& at) {
        return dmlref::onnx::explain_gather(ops[0].desc(), ops[1].desc(), out, args.axis, at, options_of(args));
      });
}

int onnx_gather_elements(const Arguments& args) {
  const std::vector<Operand> ops = read_operands(args);
  return run(args, ops[0].array.type,
      [&] { return dmlref::onnx::gather_elements_output_sizes(shape_of(ops[0]), shape_of(ops[1]), args.axis); },
      [&](const dmlref::MutableTensorDesc& out) {
        return dmlref::onnx::try_gather_elements(ops[0].desc(), ops[1].desc(), out, args.axis, options_of(args));
      },
      [&](const dmlref::MutableTensorDesc& out, const dmlref::Shape& at) {
        return dmlref::onnx::explain_gather_elements(ops[0].desc(), ops[1].desc(), out, args.axis, at,
                                                     options_of(args));
      });
}

int onnx_gather_nd(const Arguments& args) {
  const std::vector<Operand> ops = read_operands(args);
  return run(args, ops[0].array.type,
      [&] { return dmlref::onnx::gather_nd_output_sizes(shape_of(ops[0]), shape_of(ops[1]), args.batch_dims); },
      [&](const dmlref::MutableTensorDesc& out) {
        return dmlref::onnx::try_gather_nd(ops[0].desc(), ops[1].desc(), out, args.batch_dims, options_of(args));
      },
      [&](const dmlref::MutableTensorDesc& out, const dmlref::Shape& at) {
        return dmlref::onnx::explain_gather_nd(ops[0].desc(), ops[1].desc(), out, args.batch_dims, at,
                                               options_of(args));
      });
}

int onnx_scatter(const Arguments& args, bool elements) {
  const std::vector<Operand> ops = read_operands(args, true);
  const dmlref::Reduction reduction = reduction_of(args);
  return run(args, ops[0].array.type,
      [&] {
        return elements ? dmlref::onnx::scatter_elements_output_sizes(shape_of(ops[0]), shape_of(ops[1]),
                                                                      shape_of(ops[2]), args.axis)
                        : dmlref::onnx::scatter_output_sizes(shape_of(ops[0]), shape_of(ops[1]), shape_of(ops[2]),
                                                             args.axis);
      },
      [&](const dmlref::MutableTensorDesc& out) {
        return elements ? dmlref::onnx::try_scatter_elements(ops[0].desc(), ops[1].desc(), ops[2].desc(), out,
                                                             args.axis, reduction, options_of(args))
                        : dmlref::onnx::try_scatter(ops[0].desc(), ops[1].desc(), ops[2].desc(), out, args.axis,
                                                    options_of(args));
      },
      [&](const dmlref::MutableTensorDesc& out, const dmlref::Shape& at) {
        return elements ? dmlref::onnx::explain_scatter_elements(ops[0].desc(), ops[1].desc(), ops[2].desc(), out,
                                                                 args.axis, reduction, at, options_of(args))
                        : dmlref::onnx::explain_scatter(ops[0].desc(), ops[1].desc(), ops[2].desc(), out, args.axis,
                                                        at, options_of(args));
      });
}

int onnx_scatter_nd(const Arguments& args) {
  const std::vector<Operand> ops = read_operands(args, true);
  return run(args, ops[0].array.type,
      [&] { return dmlref::onnx::scatter_nd_output_sizes(shape_of(ops[0]), shape_of(ops[1]), shape_of(ops[2])); },
      [&](const dmlref::MutableTensorDesc& out) {
        return dmlref::onnx::try_scatter_nd(ops[0].desc(), ops[1].desc(), ops[2].desc(), out, reduction_of(args),
                                            options_of(args));
      },
      [&](const dmlref::MutableTensorDesc& out, const dmlref::Shape& at) {
        return dmlref::onnx::explain_scatter_nd(ops[0].desc(), ops[1].desc(), ops[2].desc(), out, reduction_of(args),
                                                at, options_of(args));
      });
}

// ---- the command line -------------------------------------------------------------------------------

/// Which options a subcommand has.
enum Attribute : unsigned {
  kAxis = 1u << 0,
  kIndexDimensions = 1u << 1,
  kInputDimensionCount = 1u << 2,
  kIndicesDimensionCount = 1u << 3,
  kBatchDimensionCount = 1u << 4,
  kBatchDims = 1u << 5,
  kReduction = 1u << 6,
  kCollisions = 1u << 7,
  kOnnxAxis = 1u << 8,
};

struct Subcommand {
  const char* name;
  const char* description;
  bool has_updates;
  unsigned attributes;
  std::function<int(const CLI::App&, const Arguments&)> run;
};

/// Adds subcommand `s` to `parent`: the tool itself (a run, -o), or `explain` or `compare`.
CLI::App* add_subcommand(CLI::App& parent, const Subcommand& s, Arguments& args, explain_cli::Mode mode) {
  CLI::App* sub = parent.add_subcommand(s.name, s.description);
  const bool onnx = std::string(s.name).rfind("onnx-", 0) == 0;
  sub->add_option(onnx ? "data" : "input", args.input, onnx ? "data: a .npy file" : "InputTensor: a .npy file")
      ->required();
  sub->add_option("indices", args.indices, onnx ? "indices: a .npy file of int32/int64 (or uint32/uint64)"
                                              : "IndicesTensor: a .npy file of int32, int64, uint32 or uint64")
      ->required();
  if (s.has_updates)
    sub->add_option("updates", args.updates, onnx ? "updates: a .npy file" : "UpdatesTensor: a .npy file")->required();
  if (mode == explain_cli::Mode::run)
    sub->add_option("-o,--output", args.output,
                    onnx ? "the .npy file to write (output)" : "the .npy file to write (OutputTensor)")
        ->required();
  else
    explain_cli::add_options(*sub, mode, args.request);
  sub->footer(onnx ? "Every array keeps its natural rank (0-d and empty arrays too); a negative axis counts from\n"
                     "the end."
                   : "Arrays of lower rank are left-padded with 1s to the largest rank D among the files; Axis\n"
                     "counts in that padded rank, and the output file has rank D.");

  if (s.attributes & kAxis)
    sub->add_option("--axis", args.axis, "Axis, counted in the padded rank D (default 0)");
  if (s.attributes & kOnnxAxis)
    sub->add_option("--axis", args.axis, "axis, -r..r-1 where r is the rank of the data file (default 0)");
  if (s.attributes & kIndexDimensions)
    sub->add_option("--index-dimensions", args.index_dimensions,
                    "IndexDimensions (default: the rank of the indices file)");
  if (s.attributes & kInputDimensionCount)
    sub->add_option("--input-dimension-count", args.input_dimension_count,
                    "InputDimensionCount (default: the rank of the input file)");
  if (s.attributes & kIndicesDimensionCount)
    sub->add_option("--indices-dimension-count", args.indices_dimension_count,
                    "IndicesDimensionCount (default: the rank of the indices file)");
  if (s.attributes & kBatchDimensionCount)
    sub->add_option("--batch-dimension-count", args.batch_dimension_count, "BatchDimensionCount (default 0)");
  if (s.attributes & kBatchDims) sub->add_option("--batch-dims", args.batch_dims, "batch_dims (default 0)");
  if (s.attributes & kReduction)
    sub->add_option("--reduction", args.reduction,
                    onnx ? "reduction (default none)"
                         : "Reduction, dmlref's ONNX extension; DirectML itself only replaces (default none)")
        ->check(CLI::IsMember({"none", "add", "mul", "max", "min"}));
  sub->add_option("--index-policy", args.index_policy,
                  "out-of-range indices: error (default) or clamp (WebNN's arithmetic)")
      ->check(CLI::IsMember({"error", "clamp"}));
  if (s.attributes & kCollisions)
    sub->add_flag("--check-collisions", args.check_collisions,
                  "report two updates that write one output element (default: the last one wins)");
  sub->add_option("--threads", args.threads, "most threads to use (default 1; results do not depend on it)")
      ->check(CLI::Range(1, 1024));
  // Arrays are never padded further to suit a level: a 3-D call at 2_1 is an error.
  sub->add_option_function<std::string>(
         "--feature-level",
         [&args](const std::string& text) { args.feature_level = dmlref::feature_level::parse(text); },
         std::string("accept only what DirectML accepts at this DML_FEATURE_LEVEL: 3.0, 3_0, 0x3000 or "
                     "DML_FEATURE_LEVEL_3_0 (default: no level)") +
             (onnx ? ", for the DirectML call the ONNX operator maps to" : ""))
      ->check([](const std::string& text) {
        return dmlref::feature_level::parse(text) != 0
                   ? std::string()
                   : "'" + text + "' is not a DirectML feature level (1_0, 2_0, 2_1, 3_0, 3_1, 4_0, 4_1, 5_0, 5_1, "
                                  "5_2, 6_0 ... 6_4; also written 3.0, 0x3000 or DML_FEATURE_LEVEL_3_0)";
      });
  return sub;
}

int run_main(int argc, char** argv) {
  CLI::App app{
      "dmlref " + std::to_string(DMLREF_VERSION_MAJOR) + "." + std::to_string(DMLREF_VERSION_MINOR) + "." +
      std::to_string(DMLREF_VERSION_PATCH) +
      ": runs one gather/scatter operator on .npy files and writes the result as a .npy file.\n"
      "DirectML subcommands left-pad every array with 1s to the largest rank D among the operands; the\n"
      "output has rank D. onnx-* subcommands use natural ranks and ONNX's attributes.\n"
      "Example: dmlref gather-nd --input-dimension-count 3 --indices-dimension-count 2 input.npy indices.npy "
      "-o out.npy",
      "dmlref"};
  app.require_subcommand(1, 1);
  app.set_version_flag("--version", std::to_string(DMLREF_VERSION_MAJOR) + "." + std::to_string(DMLREF_VERSION_MINOR) +
                                        "." + std::to_string(DMLREF_VERSION_PATCH));

  Arguments args;
  const Subcommand subcommands[] = {
      {"gather", "DML_OPERATOR_GATHER: input indices", false, kAxis | kIndexDimensions,
       [](const CLI::App& a, const Arguments& x) { return gather(a, x); }},
      {"gather-elements", "DML_OPERATOR_GATHER_ELEMENTS: input indices", false, kAxis,
       [](const CLI::App& a, const Arguments& x) { return gather_elements(a, x); }},
      {"gather-nd", "DML_OPERATOR_GATHER_ND: input indices", false, kInputDimensionCount | kIndicesDimensionCount,
       [](const CLI::App& a, const Arguments& x) { return gather_nd(a, x, false); }},
      {"gather-nd1", "DML_OPERATOR_GATHER_ND1: input indices", false,
       kInputDimensionCount | kIndicesDimensionCount | kBatchDimensionCount,
       [](const CLI::App& a, const Arguments& x) { return gather_nd(a, x, true); }},
      {"scatter", "DML_OPERATOR_SCATTER (= SCATTER_ELEMENTS): input indices updates", true,
       kAxis | kReduction | kCollisions, [](const CLI::App& a, const Arguments& x) { return scatter(a, x); }},
      {"scatter-nd", "DML_OPERATOR_SCATTER_ND: input indices updates", true,
       kInputDimensionCount | kIndicesDimensionCount | kReduction | kCollisions,
       [](const CLI::App& a, const Arguments& x) { return scatter_nd(a, x); }},
      {"onnx-gather", "ONNX Gather: data indices", false, kOnnxAxis,
       [](const CLI::App&, const Arguments& x) { return onnx_gather(x); }},
      {"onnx-gather-elements", "ONNX GatherElements: data indices", false, kOnnxAxis,
       [](const CLI::App&, const Arguments& x) { return onnx_gather_elements(x); }},
      {"onnx-gather-nd", "ONNX GatherND: data indices", false, kBatchDims,
       [](const CLI::App&, const Arguments& x) { return onnx_gather_nd(x); }},
      {"onnx-scatter", "ONNX Scatter (deprecated; ScatterElements without reduction): data indices updates", true,
       kOnnxAxis | kCollisions, [](const CLI::App&, const Arguments& x) { return onnx_scatter(x, false); }},
      {"onnx-scatter-elements", "ONNX ScatterElements: data indices updates", true,
       kOnnxAxis | kReduction | kCollisions,
       [](const CLI::App&, const Arguments& x) { return onnx_scatter(x, true); }},
      {"onnx-scatter-nd", "ONNX ScatterND: data indices updates", true, kReduction | kCollisions,
       [](const CLI::App&, const Arguments& x) { return onnx_scatter_nd(x); }},
  };
  struct Registered {
    CLI::App* app;
    const Subcommand* subcommand;
    explain_cli::Mode mode;
  };
  std::vector<Registered> apps;
  for (const Subcommand& s : subcommands) apps.push_back({add_subcommand(app, s, args, explain_cli::Mode::run), &s,
                                                          explain_cli::Mode::run});
  // `dmlref explain SUBCOMMAND ... --at I,J,K` and `dmlref compare SUBCOMMAND ... --candidate C.npy`.
  const struct {
    const char* name;
    const char* description;
    explain_cli::Mode mode;
  } explainers[] = {
      {"explain", "Where output elements come from: SUBCOMMAND's operands and attributes, then --at I,J,K",
       explain_cli::Mode::explain},
      {"compare", "Compares a candidate .npy bit for bit with SUBCOMMAND's golden result, mismatches explained",
       explain_cli::Mode::compare},
  };
  for (const auto& e : explainers) {
    CLI::App* parent = app.add_subcommand(e.name, e.description);
    parent->require_subcommand(1, 1);
    parent->footer("Exit code 0, or for compare 1 when the candidate differs (values, shape or dtype); 2 for a\n"
                   "usage or input error, or a golden call that fails. See docs/explain.md.");
    for (const Subcommand& s : subcommands) apps.push_back({add_subcommand(*parent, s, args, e.mode), &s, e.mode});
  }
#if DMLREF_HAVE_DXDISPATCH
  const dxdispatch::RunCommand run_command(app);  // `dmlref run MODEL.json` (docs/dxdispatch.md)
#endif

  // CLI11 would report an unknown first word only as "A subcommand is required".
  if (argc > 1 && argv[1][0] != '-') {
    bool known = false;
    std::string names;
    for (const CLI::App* s : app.get_subcommands([](const CLI::App*) { return true; })) {
      known = known || std::string(argv[1]) == s->get_name();
      names += std::string(names.empty() ? "" : ", ") + s->get_name();
    }
    if (!known) {
      std::fprintf(stderr, "dmlref: unknown subcommand '%s' (one of: %s)\nRun with --help for more information.\n",
                   argv[1], names.c_str());
      return 2;
    }
  }
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    const int code = app.exit(e);  // prints the message (or the help) and returns CLI11's code
    return code == 0 ? 0 : 2;
  }

#if DMLREF_HAVE_DXDISPATCH
  if (run_command.parsed()) return run_command.execute();
#endif
  for (const Registered& r : apps) {
    if (!r.app->parsed()) continue;
    const bool explaining = r.mode != explain_cli::Mode::run;
    const std::string command = std::string("dmlref ") + (explaining ? r.app->get_parent()->get_name() + " " : "") +
                                r.subcommand->name;
    args.request.mode = r.mode;
    args.request.command = command.c_str();
    try {
      return r.subcommand->run(*r.app, args);
    } catch (const Failure& f) {
      std::fprintf(stderr, "%s: %s\n", command.c_str(), f.message.c_str());
      return explaining ? 2 : 1;
    }
  }
  return 1;  // unreachable: CLI11 requires one subcommand
}

}  // namespace

int main(int argc, char** argv) {
  try {
    return run_main(argc, argv);
  } catch (const std::bad_alloc&) {
    std::fprintf(stderr, "dmlref: out of memory\n");
  } catch (const std::exception& e) {
    std::fprintf(stderr, "dmlref: %s\n", e.what());
  }
  return 1;
}
