// `dmlref run MODEL.json`: the subcommand that runs DxDispatch model files (docs/dxdispatch.md).
#ifndef DMLREF_TOOLS_DXDISPATCH_CLI_HPP
#define DMLREF_TOOLS_DXDISPATCH_CLI_HPP

#include <CLI/CLI.hpp>

#include <cstdint>
#include <optional>
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

/// A --feature-level value as a DML_FEATURE_LEVEL (6_4, 6.4 or DML_FEATURE_LEVEL_6_4 -> 0x6400);
/// nullopt for anything that is not one of DirectML's levels.
std::optional<std::uint32_t> parse_feature_level(const std::string& text);

}  // namespace dxdispatch

#endif  // DMLREF_TOOLS_DXDISPATCH_CLI_HPP
