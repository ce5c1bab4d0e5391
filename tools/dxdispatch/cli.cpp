// `dmlref run` (see cli.hpp).
#include "cli.hpp"

#include <cctype>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <new>

#include "model.hpp"
#include "run.hpp"

namespace dxdispatch {

namespace {

constexpr std::uint32_t kFeatureLevels[] = {0x1000, 0x2000, 0x2100, 0x3000, 0x3100, 0x4000, 0x4100, 0x5000,
                                            0x5100, 0x5200, 0x6000, 0x6100, 0x6200, 0x6300, 0x6400};

/// Applies --feature-level: DirectML's rules of that level, and its binding rules (16-byte offset
/// alignment, ...), which the default run leaves relaxed. dmlref::Options gains feature_level and
/// binding_rules with the feature-level support; wiring it is
///   options.feature_level = level;  options.binding_rules = <strict>;  return std::nullopt;
std::optional<std::string> apply_feature_level(std::uint32_t level, dmlref::Options& options) {
  (void)level;
  (void)options;
  return std::string("--feature-level needs the feature-level support, not built yet");
}

}  // namespace

std::optional<std::uint32_t> parse_feature_level(const std::string& text) {
  std::string s = text.rfind("DML_FEATURE_LEVEL_", 0) == 0 ? text.substr(18) : text;
  if (s.size() != 3 || !std::isdigit(static_cast<unsigned char>(s[0])) || (s[1] != '_' && s[1] != '.') ||
      !std::isdigit(static_cast<unsigned char>(s[2])))
    return std::nullopt;
  const std::uint32_t level = static_cast<std::uint32_t>((s[0] - '0') << 12 | (s[2] - '0') << 8);
  for (std::uint32_t known : kFeatureLevels)
    if (known == level) return level;
  return std::nullopt;
}

RunCommand::RunCommand(CLI::App& app) {
  app_ = app.add_subcommand("run",
                            "Runs a DxDispatch model file (JSON) on the CPU: its gather/scatter dispatches, "
                            "print and writeFile commands");
  app_->add_option("model", model_, "the model file (DxDispatch's JSON format)")->required();
  app_->add_option("--output-dir", output_dir_, "where writeFile writes (default: the current folder)");
  app_->add_flag("--skip-unsupported", skip_unsupported_,
                 "skip the commands that need other dispatchables (hlsl, onnx, other operators) or images, "
                 "with a warning each, and run the rest");
  app_->add_option("--feature-level", feature_level_,
                   "apply DirectML's rules of this feature level (e.g. 6_4) and its binding rules; needs the "
                   "feature-level support, not built yet");
  app_->add_option("--index-policy", index_policy_,
                   "out-of-range indices: error (default) or clamp (WebNN's arithmetic)")
      ->check(CLI::IsMember({"error", "clamp"}));
  app_->add_flag("--check-collisions", check_collisions_,
                 "report two scatter updates that write one output element (default: the last one wins)");
  app_->add_option("--threads", threads_, "most threads an operator may use (default 1; results do not depend on it)")
      ->check(CLI::Range(1, 1024));
  app_->footer(
      "Validates the whole model first (names, operator descs, tensor descs, bindings), then runs the\n"
      "commands in order on shared buffers. Exit code 0 on success, 1 for a model or operator error,\n"
      "2 for a usage error. See docs/dxdispatch.md.");
}

int RunCommand::execute() const {
  const std::string prefix = "dmlref run: ";
  dmlref::Options operators;
  operators.index_policy = index_policy_ == "clamp" ? dmlref::IndexPolicy::clamp : dmlref::IndexPolicy::error;
  operators.check_collisions = check_collisions_;
  operators.threads = threads_;
  if (!feature_level_.empty()) {
    const std::optional<std::uint32_t> level = parse_feature_level(feature_level_);
    if (!level) {
      std::fprintf(stderr,
                   "%s--feature-level '%s' is not a DirectML feature level (1_0, 2_0, 2_1, 3_0, 3_1, 4_0, "
                   "4_1, 5_0, 5_1, 5_2, 6_0 ... 6_4; also written 6.4 or DML_FEATURE_LEVEL_6_4)\n",
                   prefix.c_str(), feature_level_.c_str());
      return 2;
    }
    if (std::optional<std::string> error = apply_feature_level(*level, operators)) {
      std::fprintf(stderr, "%s%s\n", prefix.c_str(), error->c_str());
      return 2;
    }
  }

  // The model's text.
  std::error_code ec;
  if (std::filesystem::is_directory(model_, ec)) {
    std::fprintf(stderr, "%s%s: is a folder, not a model file\n", prefix.c_str(), model_.c_str());
    return 1;
  }
  std::ifstream in(model_, std::ios::binary);
  if (!in) {
    std::fprintf(stderr, "%s%s: cannot open: %s\n", prefix.c_str(), model_.c_str(), std::strerror(errno));
    return 1;
  }
  const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  if (in.bad()) {
    std::fprintf(stderr, "%s%s: cannot read\n", prefix.c_str(), model_.c_str());
    return 1;
  }

  LoadOptions load;
  load.skip_unsupported = skip_unsupported_;
  load.model_directory = std::filesystem::path(model_).parent_path().string();
  const LoadResult loaded = load_model(text, load);
  if (!loaded.model) {
    std::fprintf(stderr, "%s%s: %s\n", prefix.c_str(), model_.c_str(), loaded.error.text().c_str());
    return 1;
  }
  for (const std::string& warning : loaded.model->warnings)
    std::fprintf(stderr, "%swarning: %s: %s\n", prefix.c_str(), model_.c_str(), warning.c_str());

  RunOptions run;
  run.operators = operators;
  run.output_dir = output_dir_;
  const std::optional<Diagnostic> error = run_model(*loaded.model, run, stdout);
  std::fflush(stdout);
  if (error) {
    std::fprintf(stderr, "%s%s: %s\n", prefix.c_str(), model_.c_str(), error->text().c_str());
    return 1;
  }
  return 0;
}

}  // namespace dxdispatch
