#!/usr/bin/python3
"""What including and calling dmlref costs a program: compile time, .text bytes, functions.

Compiles six small programs with g++ -O2 (three times each, in turn), and prints for each the
median compile-and-link time (wall clock, and the CPU time of the compiler, which is steadier on a
busy machine), the .text bytes (`size -A`) and the number of defined functions
(`nm --defined-only`), each also as a ratio to (or, for bytes, a difference from) a baseline
program compiled in the same run. The goals are those of docs/performance.md, "Compile cost".

    /usr/bin/python3 bench/compile_cost.py                  # this checkout's include/
    /usr/bin/python3 bench/compile_cost.py --include /other/checkout/include --json out.json
    /usr/bin/python3 bench/compile_cost.py --check          # only B's byte and symbol goals (CI)

--check compiles program B once and fails (exit 1) if B's .text exceeds the baseline's by more
than 64 KiB, or if B defines a function of a scatter or a reduction, or a kernel of an element
width other than float's. Times are not judged: they vary from run to run, bytes do not.
Standard library only.
"""

import argparse
import json
import os
import re
import resource
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
DEFAULT_INCLUDE = os.path.join(os.path.dirname(HERE), "include")

BASELINE = r"""
#include <algorithm>
#include <string>
#include <thread>
#include <vector>
int main(int argc, char**) {
  std::vector<std::string> words = {"gather", "scatter", "elements", std::to_string(argc)};
  std::sort(words.begin(), words.end());
  std::thread worker([&] { words.push_back("done"); });
  worker.join();
  return static_cast<int>(words.size()) - 5;
}
"""

# A: the umbrella header alone.
INCLUDE_ONLY = r"""
#include <dmlref/dmlref.hpp>
int main() { return 0; }
"""

# B: the README's first example, as written there.
TYPED_GATHER = r"""
#include <dmlref/dmlref.hpp>
#include <cstdint>
int main() {
  const float input[] = {11, 12, 13, 14};
  const std::uint32_t indices[] = {3, 1, 3, 0, 2};
  float output[5];
  dmlref::Status status = dmlref::try_gather(
      dmlref::TensorView<const float>(input, {4}),
      dmlref::TensorView<const std::uint32_t>(indices, {5}),
      dmlref::TensorView<float>(output, {5}),
      dmlref::GatherParams{/*Axis=*/0, /*IndexDimensions=*/1});
  return status.ok() && output[0] == 14 ? 0 : 1;
}
"""

# C: one typed call of each operator, float data and int64 indices.
TYPED_ALL = r"""
#include <dmlref/dmlref.hpp>
#include <cstdint>
using dmlref::TensorView;
int main() {
  float data[6] = {1, 2, 3, 4, 5, 6}, out[6] = {}, updates[2] = {7, 8};
  const std::int64_t rows[2] = {1, 0}, elements[6] = {1, 0, 1, 0, 1, 0}, tuples[2] = {1, 0};
  const TensorView<const float> input(data, {2, 3});
  int bad = 0;
  bad += !dmlref::try_gather(input, TensorView<const std::int64_t>(rows, {1, 2}),
                             TensorView<float>(out, {2, 3}), dmlref::GatherParams{0, 1}).ok();
  bad += !dmlref::try_gather_elements(input, TensorView<const std::int64_t>(elements, {2, 3}),
                                      TensorView<float>(out, {2, 3}), dmlref::GatherElementsParams{0}).ok();
  bad += !dmlref::try_gather_nd(input, TensorView<const std::int64_t>(tuples, {2, 1}),
                                TensorView<float>(out, {2, 3}), dmlref::GatherNDParams{2, 2}).ok();
  bad += !dmlref::try_gather_nd1(input, TensorView<const std::int64_t>(tuples, {2, 1}),
                                 TensorView<float>(out, {2, 3}), dmlref::GatherND1Params{2, 2, 0}).ok();
  bad += !dmlref::try_scatter(input, TensorView<const std::int64_t>(rows, {2, 1}),
                              TensorView<const float>(updates, {2, 1}), TensorView<float>(out, {2, 3}),
                              dmlref::ScatterParams{1}).ok();
  bad += !dmlref::try_scatter_nd(input, TensorView<const std::int64_t>(tuples, {2, 1}),
                                 TensorView<const float>(data, {2, 3}), TensorView<float>(out, {2, 3}),
                                 dmlref::ScatterNDParams{2, 2}).ok();
  return bad;
}
"""

# D: the dispatch layer (descriptors), all six operators.
DISPATCH_ALL = r"""
#include <dmlref/dmlref.hpp>
#include <cstdint>
using dmlref::DataType;
int main(int argc, char**) {
  // The types come from argc, as an engine's would come from its graph.
  const DataType type = argc > 5 ? DataType::FLOAT16 : DataType::FLOAT32;
  const DataType index_type = argc > 5 ? DataType::INT32 : DataType::INT64;
  float data[6] = {1, 2, 3, 4, 5, 6}, out[6] = {}, updates[6] = {7, 8, 9, 10, 11, 12};
  const std::int64_t rows[2] = {1, 0}, elements[6] = {1, 0, 1, 0, 1, 0}, tuples[2] = {1, 0};
  const std::int64_t s23[] = {2, 3}, s12[] = {1, 2}, s21[] = {2, 1};
  const dmlref::TensorDesc input{type, 2, s23, nullptr, sizeof data, data};
  const dmlref::TensorDesc row_ids{index_type, 2, s12, nullptr, sizeof rows, rows};
  const dmlref::TensorDesc element_ids{index_type, 2, s23, nullptr, sizeof elements, elements};
  const dmlref::TensorDesc tuple_ids{index_type, 2, s21, nullptr, sizeof tuples, tuples};
  const dmlref::TensorDesc column_ids{index_type, 2, s21, nullptr, sizeof rows, rows};
  const dmlref::TensorDesc column_updates{type, 2, s21, nullptr, sizeof updates, updates};
  const dmlref::TensorDesc all_updates{type, 2, s23, nullptr, sizeof updates, updates};
  const dmlref::MutableTensorDesc output{type, 2, s23, nullptr, sizeof out, out};
  int bad = 0;
  bad += !dmlref::try_gather(input, row_ids, output, dmlref::GatherParams{0, 1}).ok();
  bad += !dmlref::try_gather_elements(input, element_ids, output, dmlref::GatherElementsParams{0}).ok();
  bad += !dmlref::try_gather_nd(input, tuple_ids, output, dmlref::GatherNDParams{2, 2}).ok();
  bad += !dmlref::try_gather_nd1(input, tuple_ids, output, dmlref::GatherND1Params{2, 2, 0}).ok();
  bad += !dmlref::try_scatter(input, column_ids, column_updates, output, dmlref::ScatterParams{1}).ok();
  bad += !dmlref::try_scatter_nd(input, tuple_ids, all_updates, output, dmlref::ScatterNDParams{2, 2}).ok();
  return bad;
}
"""

# E: the ONNX helpers, all six functions.
ONNX_ALL = r"""
#include <dmlref/onnx.hpp>
#include <cstdint>
using dmlref::DataType;
int main(int argc, char**) {
  const DataType type = argc > 5 ? DataType::FLOAT16 : DataType::FLOAT32;
  const DataType index_type = argc > 5 ? DataType::INT32 : DataType::INT64;
  float data[6] = {1, 2, 3, 4, 5, 6}, out[6] = {}, updates[6] = {7, 8, 9, 10, 11, 12};
  const std::int64_t rows[2] = {1, 0}, elements[6] = {1, 0, 1, 0, 1, 0}, tuples[2] = {1, 0};
  const std::int64_t s23[] = {2, 3}, s12[] = {1, 2}, s2[] = {2}, s21[] = {2, 1};
  const dmlref::TensorDesc input{type, 2, s23, nullptr, sizeof data, data};
  const dmlref::TensorDesc row_ids{index_type, 1, s2, nullptr, sizeof rows, rows};
  const dmlref::TensorDesc pair_ids{index_type, 2, s12, nullptr, sizeof rows, rows};
  const dmlref::TensorDesc element_ids{index_type, 2, s23, nullptr, sizeof elements, elements};
  const dmlref::TensorDesc tuple_ids{index_type, 2, s21, nullptr, sizeof tuples, tuples};
  const dmlref::TensorDesc pair_updates{type, 2, s12, nullptr, sizeof updates, updates};
  const dmlref::TensorDesc all_updates{type, 2, s23, nullptr, sizeof updates, updates};
  const dmlref::MutableTensorDesc output{type, 2, s23, nullptr, sizeof out, out};
  namespace onnx = dmlref::onnx;
  int bad = 0;
  bad += !onnx::try_gather(input, row_ids, output, 0).ok();
  bad += !onnx::try_gather_elements(input, element_ids, output, 0).ok();
  bad += !onnx::try_gather_nd(input, tuple_ids, output, 0).ok();
  bad += !onnx::try_scatter(input, pair_ids, pair_updates, output, 1).ok();
  bad += !onnx::try_scatter_elements(input, pair_ids, pair_updates, output, 1, dmlref::Reduction::add).ok();
  bad += !onnx::try_scatter_nd(input, tuple_ids, all_updates, output, dmlref::Reduction::none).ok();
  return bad;
}
"""

PROGRAMS = [
    ("baseline", "baseline: <vector> <algorithm> <thread> <string>, a sort and a thread", BASELINE),
    ("A", "A: #include <dmlref/dmlref.hpp>, no call", INCLUDE_ONLY),
    ("B", "B: one typed try_gather (float, uint32), the README's first example", TYPED_GATHER),
    ("C", "C: one typed call of each of the six operators (float, int64)", TYPED_ALL),
    ("D", "D: the dispatch layer, all six operators", DISPATCH_ALL),
    ("E", "E: dmlref/onnx.hpp, all six ONNX functions", ONNX_ALL),
]

KIB = 1024


def compile_once(source_path, binary_path, include, compiler, flags):
    """Wall-clock and CPU seconds (user + system, of the compiler and linker) of one build."""
    command = [compiler, "-std=c++17", "-O2", *flags, "-I", include, source_path, "-o", binary_path, "-pthread"]
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    subprocess.run(command, check=True)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu


def text_bytes(binary_path):
    out = subprocess.run(["size", "-A", binary_path], check=True, capture_output=True, text=True).stdout
    for line in out.splitlines():
        fields = line.split()
        if fields and fields[0] == ".text":
            return int(fields[1])
    raise RuntimeError("no .text section in " + binary_path)


def defined_functions(binary_path):
    """Demangled names of the functions the binary defines (text symbols)."""
    out = subprocess.run(["nm", "--defined-only", "-C", binary_path], check=True, capture_output=True,
                         text=True).stdout
    names = []
    for line in out.splitlines():
        parts = line.split(" ", 2)
        if len(parts) == 3 and parts[1] in ("T", "t", "W", "w"):
            names.append(parts[2])
    return names


# A kernel of another element width: a dmlref::detail template instantiated for 1, 2 or 8 bytes
# (the kernels take the element width as a std::size_t template argument).
OTHER_WIDTH = re.compile(r"dmlref::detail::[\w:]+<[^()]*?\b(1|2|8)ul\b")
SCATTER_OR_REDUCTION = re.compile(r"scatter|reduc", re.IGNORECASE)


def forbidden_in_b(names):
    """The functions B must not define: scatters, reductions, kernels of other element widths."""
    return [n for n in names if SCATTER_OR_REDUCTION.search(n) or OTHER_WIDTH.search(n)]


def measure(programs, include, repetitions, compiler, flags):
    results = {}
    with tempfile.TemporaryDirectory() as scratch:
        paths = {}
        for key, _, source in programs:
            paths[key] = os.path.join(scratch, key + ".cpp")
            with open(paths[key], "w") as f:
                f.write(source)
        times = {key: [] for key, _, _ in programs}
        cpu_times = {key: [] for key, _, _ in programs}
        for _ in range(repetitions):  # in turn, so that a slow minute affects every program alike
            for key, _, _ in programs:
                wall, cpu = compile_once(paths[key], paths[key] + ".bin", include, compiler, flags)
                times[key].append(wall)
                cpu_times[key].append(cpu)
        for key, title, _ in programs:
            binary = paths[key] + ".bin"
            names = defined_functions(binary)
            results[key] = {
                "title": title,
                "seconds": statistics.median(times[key]),
                "all_seconds": times[key],
                "cpu_seconds": statistics.median(cpu_times[key]),
                "text_bytes": text_bytes(binary),
                "functions": len(names),
                "forbidden": forbidden_in_b(names) if key == "B" else [],
            }
    return results


def print_table(results):
    base = results["baseline"]
    print(f"{'program':<72} {'time s':>7} {'x base':>7} {'cpu s':>6} {'x base':>7} {'.text':>10} {'+ KiB':>8} "
          f"{'funcs':>6} {'x base':>7}")
    for key, r in results.items():
        print(f"{r['title']:<72} {r['seconds']:7.2f} {r['seconds'] / base['seconds']:7.2f} "
              f"{r['cpu_seconds']:6.2f} {r['cpu_seconds'] / base['cpu_seconds']:7.2f} "
              f"{r['text_bytes']:10d} {(r['text_bytes'] - base['text_bytes']) / KIB:8.1f} "
              f"{r['functions']:6d} {r['functions'] / base['functions']:7.2f}")
    if "B" in results:
        bad = results["B"]["forbidden"]
        print(f"B defines {len(bad)} scatter, reduction or other-width functions" + (":" if bad else ""))
        for name in bad[:5]:
            print("  " + name[:160])


def check_b(results):
    base, b = results["baseline"], results["B"]
    failures = []
    extra = b["text_bytes"] - base["text_bytes"]
    if extra > 64 * KIB:
        failures.append(f"B's .text is {extra / KIB:.1f} KiB above the baseline's (goal: at most 64 KiB)")
    if b["forbidden"]:
        failures.append(f"B defines {len(b['forbidden'])} scatter, reduction or other-width functions, "
                        f"e.g. {b['forbidden'][0]}")
    return failures


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--include", default=DEFAULT_INCLUDE, help="the include/ folder to measure")
    parser.add_argument("--repetitions", type=int, default=3)
    parser.add_argument("--compiler", default="g++")
    parser.add_argument("--json", help="also write the figures to this file")
    parser.add_argument("--check", action="store_true",
                        help="compile only the baseline and B, once, and fail if B misses its byte or symbol goal")
    args = parser.parse_args()

    programs = [p for p in PROGRAMS if p[0] in ("baseline", "B")] if args.check else PROGRAMS
    repetitions = 1 if args.check else args.repetitions
    results = measure(programs, os.path.abspath(args.include), repetitions, args.compiler, [])
    print_table(results)
    if args.json:
        with open(args.json, "w") as f:
            json.dump(results, f, indent=2)
    failures = check_b(results)
    for failure in failures:
        print("FAIL: " + failure, file=sys.stderr)
    if args.check and failures:
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
