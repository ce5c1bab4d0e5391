// `dmlref explain SUBCOMMAND ... --at I,J,K` and `dmlref compare SUBCOMMAND ... --candidate CAND.npy`:
// where golden elements come from, and a candidate compared bit for bit with the golden result,
// its mismatches explained (docs/explain.md). tools/dmlref.cpp reads the operands and attributes
// of SUBCOMMAND as it does for a run, and hands the call over as a Golden.
#ifndef DMLREF_TOOLS_EXPLAIN_CLI_HPP
#define DMLREF_TOOLS_EXPLAIN_CLI_HPP

#include <CLI/CLI.hpp>

#include <dmlref/dmlref.hpp>
#include <dmlref/provenance.hpp>

#include <functional>
#include <string>
#include <vector>

namespace explain_cli {

/// What the tool does with a subcommand's call: run it (-o), explain it, or compare a candidate.
enum class Mode { run, explain, compare };

/// The options explain and compare add to a subcommand.
struct Request {
  Mode mode = Mode::run;
  const char* command = "";         ///< "explain gather", ..., for messages
  std::vector<std::string> at;      ///< explain: --at, one coordinate each ("3,1")
  std::string candidate;            ///< compare: --candidate
  int max = 10;                     ///< compare: --max
  std::string format = "text";      ///< --format text|json
};

/// The golden call of a subcommand, in its own rank (DirectML: padded; onnx-*: natural).
struct Golden {
  dmlref::DataType type;
  dmlref::Result<dmlref::Shape> sizes;  ///< the output's sizes, or why there are none
  std::function<dmlref::Status(const dmlref::MutableTensorDesc&)> run;
  std::function<dmlref::Result<dmlref::Provenance>(const dmlref::MutableTensorDesc&, const dmlref::Shape&)> explain;
};

/// Registers `explain` or `compare`'s own options on one of its subcommands.
void add_options(CLI::App& sub, Mode mode, Request& request);

/// Explains or compares; prints to stdout (errors to stderr) and returns the exit code: 0 done
/// (compare: equal), 1 compare: a mismatch, 2 a usage or input error or a golden call that fails.
int execute(const Request& request, const Golden& golden);

}  // namespace explain_cli

#endif  // DMLREF_TOOLS_EXPLAIN_CLI_HPP
