// Runs a validated DxDispatch model (model.hpp) on the CPU: creates the buffers, snapshots the
// OWNED_BY_DML inputs, then runs the commands in order on the shared buffers. Every operator call
// of `dmlref run` is in run.cpp, so the kernels compile in that one translation unit.
#ifndef DMLREF_TOOLS_DXDISPATCH_RUN_HPP
#define DMLREF_TOOLS_DXDISPATCH_RUN_HPP

#include <dmlref/options.hpp>

#include <cstdio>
#include <optional>
#include <string>

#include "model.hpp"

namespace dxdispatch {

struct RunOptions {
  dmlref::Options operators;  ///< index policy, collision check, threads
  std::string output_dir;     ///< writeFile's targetPath is relative to it ("" is the current folder)
};

/// Runs every command that is not skipped. print and writeFile lines go to `out`. The first
/// failure (an operator error, a file that cannot be written, memory) stops the run: buffers and
/// files written before it stay, nothing after it runs, and its diagnostic is returned.
std::optional<Diagnostic> run_model(const Model& model, const RunOptions& options, std::FILE* out);

}  // namespace dxdispatch

#endif  // DMLREF_TOOLS_DXDISPATCH_RUN_HPP
