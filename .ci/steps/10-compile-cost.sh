#!/usr/bin/env bash
# ci-step: compile cost of one typed call (bench/compile_cost.py --check)
#
# Program B (the README's first example: one typed try_gather of float with uint32 indices) may
# add at most 64 KiB of .text to the baseline program, and may define no function of a scatter
# or a reduction and no kernel of another element width: a typed call compiles only its own
# kernels (docs/performance.md, "Compile cost"). Times are printed, not judged.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.."
/usr/bin/python3 bench/compile_cost.py --check
