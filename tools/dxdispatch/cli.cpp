// `dmlref run` (see cli.hpp).
#include "cli.hpp"

#include <dmlref/feature_level.hpp>
#include <dmlref/options.hpp>

#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <new>
#include <optional>

#include "model.hpp"
#include "run.hpp"

namespace dxdispatch {

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
                   "accept only what DirectML accepts at this DML_FEATURE_LEVEL (6_4, 6.4, 0x6400 or "
                   "DML_FEATURE_LEVEL_6_4), with DirectML's binding rules (default: no level)");
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
    // DirectML's rules at that level (docs/directml.md), and its binding rules: 16-byte aligned
    // offsets (or GuaranteedBaseOffsetAlignment), TotalTensorSizeInBytes >= DMLCalcBufferTensorSize.
    const std::uint32_t level = dmlref::feature_level::parse(feature_level_);
    if (level == 0) {
      std::fprintf(stderr,
                   "%s--feature-level '%s' is not a DirectML feature level (1_0, 2_0, 2_1, 3_0, 3_1, 4_0, "
                   "4_1, 5_0, 5_1, 5_2, 6_0 ... 6_4; also written 6.4, 0x6400 or DML_FEATURE_LEVEL_6_4)\n",
                   prefix.c_str(), feature_level_.c_str());
      return 2;
    }
    operators.feature_level = level;
    operators.binding_rules = dmlref::BindingRules::directml;
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
