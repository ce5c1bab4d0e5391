// DxDispatch model files (JSON: resources, dispatchables, commands), read and validated for
// `dmlref run` (docs/dxdispatch.md). This part only reads: it parses the text, builds every
// resource's initial bytes and checks every name, field, tensor desc, binding and the operators'
// shape and type rules, so that a model that loads can be run without a model error. Running it
// (buffers, operator calls, print, writeFile) is run.hpp's job. Built into the `dmlref` tool and
// into the libFuzzer target fuzz/fuzz_dxdispatch_model.cpp; it needs nlohmann/json, but its
// header does not.
#ifndef DMLREF_TOOLS_DXDISPATCH_MODEL_HPP
#define DMLREF_TOOLS_DXDISPATCH_MODEL_HPP

#include <dmlref/data_type.hpp>
#include <dmlref/shape.hpp>
#include <dmlref/status.hpp>

#include <array>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <limits>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace dxdispatch {

/// The six DirectML operators dmlref runs.
enum class Operator : std::uint8_t { gather, gather_elements, gather_nd, gather_nd1, scatter, scatter_nd };

/// "DML_OPERATOR_GATHER", ...
const char* dml_name(Operator op) noexcept;

/// The tensors of an operator desc, in DirectML's field order.
enum Role : std::uint8_t { kInput, kIndices, kUpdates, kOutput, kRoleCount };

/// "InputTensor", "IndicesTensor", "UpdatesTensor", "OutputTensor".
const char* role_name(Role role) noexcept;

/// True when `op` has the tensor `role` (UpdatesTensor: the scatters only).
bool has_role(Operator op, Role role) noexcept;

/// A DML_BUFFER_TENSOR_DESC with its defaults applied.
struct TensorDesc {
  dmlref::DataType data_type = dmlref::DataType::UNKNOWN;
  bool owned_by_dml = false;          ///< Flags holds DML_TENSOR_FLAG_OWNED_BY_DML
  std::vector<std::int64_t> sizes;    ///< DimensionCount values, each 1..UINT32_MAX
  std::vector<std::int64_t> strides;  ///< empty: packed row-major
  std::uint64_t total_bytes = 0;      ///< TotalTensorSizeInBytes (DMLCalcBufferTensorSize when absent or 0)
  std::uint32_t guaranteed_base_offset_alignment = 0;
  std::string pointer;  ///< JSON Pointer of the object holding the buffer fields
};

/// A tensor bound to a resource: the bytes from `offset` to the resource's end.
struct Binding {
  std::size_t resource = 0;  ///< index into Model::resources
  std::uint64_t offset = 0;  ///< elementOffset x element size, in bytes
  std::string pointer;       ///< JSON Pointer of the binding
};

/// One named buffer.
struct Resource {
  std::string name;
  std::string pointer;
  /// initialValuesDataType (from a .npy file when not given); UNKNOWN for the list form, whose
  /// bytes can be bound but not printed or written as .npy.
  dmlref::DataType type = dmlref::DataType::UNKNOWN;
  std::vector<unsigned char> initial;  ///< the initial data, written at byte 0
  std::uint64_t size = 0;              ///< sizeInBytes (default: the initial data rounded up to 4)
  /// Why dmlref cannot hold it ("\"deferred\" (for ONNX dispatchables)", "an image file"); empty
  /// for every buffer it can. Commands that use such a resource are skipped or the model refused.
  std::string unsupported;
};

/// One dispatchable: a supported operator with its desc, or something dmlref does not run.
struct Dispatchable {
  std::string name;
  std::string pointer;
  std::string type;  ///< as written ("DML_OPERATOR_GATHER", "GATHER", "hlsl", ...)
  bool supported = false;
  std::string unsupported;  ///< why not, when !supported ("DML_OPERATOR_CONVOLUTION", "an HLSL shader")
  Operator op = Operator::gather;
  std::string desc_pointer;  ///< where the operator's fields are
  std::array<std::optional<TensorDesc>, kRoleCount> tensors;
  std::uint32_t axis = 0, index_dimensions = 0, input_dimension_count = 0, indices_dimension_count = 0,
                batch_dimension_count = 0;
  /// OWNED_BY_DML inputs, bound once in the dispatchable's own `bindings` member.
  std::array<std::optional<Binding>, kRoleCount> init_bindings;
};

struct Command {
  enum class Kind : std::uint8_t { dispatch, print, write_file };
  Kind kind = Kind::dispatch;
  std::size_t index = 0;  ///< position in `commands`
  std::string pointer;    ///< /commands/INDEX
  std::string skipped;    ///< with --skip-unsupported: why the command is not run

  // dispatch
  std::size_t dispatchable = 0;
  std::array<std::optional<Binding>, kRoleCount> bindings;  ///< every tensor not OWNED_BY_DML

  // print and writeFile
  std::size_t resource = 0;
  bool verbose = false;
  std::string target_path;               ///< relative, '/'-separated, without '.' or '..'
  bool npy = false;                      ///< the extension is .npy (any case); raw bytes otherwise
  std::vector<std::int64_t> dimensions;  ///< .npy shape; empty: 1-D over the whole buffer
};

struct Model {
  std::vector<Resource> resources;
  std::vector<Dispatchable> dispatchables;
  std::vector<Command> commands;
  /// One line each: what was accepted but does not act as the file may intend, and (with
  /// --skip-unsupported) every skipped command.
  std::vector<std::string> warnings;
};

/// A file read for an initializer's sourcePath.
struct FileContents {
  bool found = false;  ///< false: the path does not exist (the next candidate is tried)
  std::string error;   ///< found but unreadable: why
  std::vector<unsigned char> bytes;
};

struct LoadOptions {
  /// Run what is supported; every command that needs an unsupported dispatchable, resource or
  /// file kind is skipped with a warning. Without it such content is one error.
  bool skip_unsupported = false;
  /// sourcePath resolves against this folder first (the model's), then as given.
  std::string model_directory;
  /// Reads a file; the default reads the filesystem. The fuzzer serves files from memory.
  std::function<FileContents(const std::string& path)> read_file;
  /// Largest resource (sizeInBytes, or initial data) accepted, against runaway allocations.
  std::uint64_t max_resource_bytes = std::numeric_limits<std::uint64_t>::max();
};

/// Where and what: a JSON Pointer (or line:column for malformed JSON) and one line of text.
struct Diagnostic {
  std::string location;  ///< "/dispatchables/op/desc/InputTensor/Sizes", "3:14", or "" for the whole file
  std::string message;   ///< "dispatchable 'op': InputTensor.Sizes has 2 values, but DimensionCount is 3"
  /// "LOCATION: MESSAGE", one line.
  std::string text() const { return location.empty() ? message : location + ": " + message; }
};

struct LoadResult {
  std::optional<Model> model;  ///< set when the model is valid
  Diagnostic error;            ///< otherwise the first problem found
};

/// Parses and validates a model. Accepts comments and trailing commas, and ignores text after
/// the root object, as DxDispatch's parser does. Never throws (std::bad_alloc aside).
LoadResult load_model(std::string_view text, const LoadOptions& options);

/// A name or path for a diagnostic: 'name', control and non-ASCII bytes as \xNN, at most 200 characters.
std::string quoted_name(const std::string& name);

/// float -> binary16 bits as DxDispatch converts initial values (half.hpp's default rounding:
/// toward zero; overflow gives infinity; NaN gives 0x7E00 with the sign).
std::uint16_t float16_bits_toward_zero(float value) noexcept;

}  // namespace dxdispatch

#endif  // DMLREF_TOOLS_DXDISPATCH_MODEL_HPP
