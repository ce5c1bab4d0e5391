// `dmlref run MODEL.json`: the subcommand that runs DxDispatch model files (docs/dxdispatch.md).
#ifndef DMLREF_TOOLS_DXDISPATCH_CLI_HPP
#define DMLREF_TOOLS_DXDISPATCH_CLI_HPP

#include <CLI/CLI.hpp>

#include <string>

namespace dxdispatch {

/// Registers `run` with the tool's CLI11 app; after app.parse(), execute() runs it if given.
class RunCommand {
 public:
  explicit RunCommand(CLI::App& app);
  bool parsed() const { return app_->parsed(); }
  /// Loads, validates and runs the model; returns the exit code (0 ok, 1 model or operator error,
  /// 2 usage error). Errors and warnings go to stderr, one line each.
  int execute() const;

 private:
  CLI::App* app_;
  std::string model_;
  std::string output_dir_;
  bool skip_unsupported_ = false;
  std::string feature_level_;
  std::string index_policy_ = "error";
  bool check_collisions_ = false;
  int threads_ = 1;
};

}  // namespace dxdispatch

#endif  // DMLREF_TOOLS_DXDISPATCH_CLI_HPP
