#!/usr/bin/python3
"""What the Python module adds to dmlref's C++ call (issue 14's goals; docs/performance.md).

In one run:
  W8  [64, 64] float32 Gather of 8 rows (int64 indices), per call: dmlref.gather(..., out=) beside
      numpy.take(..., out=) and torch.index_select(..., out=). Goal: dmlref <= 1.5x numpy.take.
  W1  Gather Axis 0 of 16384 rows of [32768, 1024] float32, and
  W3  GatherElements Axis 1 of [2048, 4096] float32 (int64 indices), through the module with out=,
      beside the C++ typed layer's figure from dmlref_bench (same workloads, bench/dmlref_bench.cpp),
      each also as a ratio to a memcpy of the same bytes in its own process. The two sides run in
      alternating rounds (a dmlref_bench run, then the Python calls, then the other way round), so
      that the host's drift over minutes falls on both. Goal: within 5%, by the median of the
      rounds' Python/C++ time ratios.

    PYTHONPATH=build/bench/python /usr/bin/python3 bench/python_overhead.py build/bench/bench/dmlref_bench

The module should be built like dmlref_bench (the bench preset is Release):
    cmake --preset bench -DDMLREF_BUILD_PYTHON=ON && cmake --build build/bench --target dmlref_python dmlref_bench
Without the dmlref_bench path only the Python side is measured. One thread throughout.
A benchmark, not a test: run it on a quiet machine.
"""

import os

for _var in ("OMP_NUM_THREADS", "MKL_NUM_THREADS", "OPENBLAS_NUM_THREADS"):
    os.environ.setdefault(_var, "1")

import argparse  # noqa: E402
import gc  # noqa: E402
import json  # noqa: E402
import statistics  # noqa: E402
import subprocess  # noqa: E402
import sys  # noqa: E402
import time  # noqa: E402
import timeit  # noqa: E402

import numpy as np  # noqa: E402

import dmlref  # noqa: E402

try:
    import torch  # noqa: E402

    torch.set_num_threads(1)
except ImportError:
    torch = None

SEED = 20241124


def per_call(fn, repeat, number):
    """Median over `repeat` runs of the mean seconds per call of `number` calls."""
    fn()
    gc.disable()
    try:
        times = timeit.repeat(fn, repeat=repeat, number=number)
    finally:
        gc.enable()
    return statistics.median(times) / number


def w8(args):
    rng = np.random.default_rng(SEED)
    x = rng.random((64, 64), dtype=np.float32)
    idx = rng.integers(0, 64, size=(1, 8)).astype(np.int64)  # [1, 8], IndexDimensions 1, as in C++
    flat = idx.reshape(8)
    out = np.empty((8, 64), np.float32)
    forms = {
        "dmlref.gather(out=)": lambda: dmlref.gather(x, idx, 0, out=out),
        "numpy.take(out=)": lambda: np.take(x, flat, axis=0, out=out),
    }
    if torch is not None:
        tx, ti, to = torch.from_numpy(x), torch.from_numpy(flat), torch.from_numpy(out)
        forms["torch.index_select(out=)"] = lambda: torch.index_select(tx, 0, ti, out=to)
    expected = x[flat]
    results = {}
    for name, fn in forms.items():
        out.fill(0)
        fn()
        assert np.array_equal(out, expected), name
        results[name] = per_call(fn, args.repeat, args.number)
    return results


def big_case(name):
    rng = np.random.default_rng(SEED)
    if name == "W1":
        x = rng.random((32768, 1024), dtype=np.float32)
        idx = rng.permutation(32768)[:16384].astype(np.int64).reshape(1, 16384)
        out = np.empty((16384, 1024), np.float32)
        moved = 2 * out.nbytes + idx.nbytes  # bench/dmlref_bench.cpp's bytes(): read + written
        call = lambda: dmlref.gather(x, idx, 0, out=out)  # noqa: E731
        expected = lambda: x[idx[0]]  # noqa: E731
        return call, out, expected, moved
    x = rng.random((2048, 4096), dtype=np.float32)
    idx = rng.integers(0, 4096, size=(2048, 4096)).astype(np.int64)
    out = np.empty((2048, 4096), np.float32)
    moved = 2 * out.nbytes + idx.nbytes
    call = lambda: dmlref.gather_elements(x, idx, 1, out=out)  # noqa: E731
    return call, out, lambda: np.take_along_axis(x, idx, axis=1), moved


def memcpy_form(nbytes):
    """np.copyto of nbytes/2 bytes: reads and writes `nbytes` in total, as the C++ baseline does."""
    half = max(nbytes // 2, 1)
    src = np.ones(half, np.uint8)
    dst = np.empty_like(src)
    return lambda: np.copyto(dst, src)


def checked_case(name):
    """The workload's call, checked once against numpy, and a copy of the bytes it moves."""
    call, out, expected, moved = big_case(name)
    call()
    assert np.array_equal(out, expected()), name
    return call, memcpy_form(moved)


def seconds(fn, rounds, calls):
    fn()
    samples = []
    for _ in range(rounds):
        start = time.perf_counter()
        for _ in range(calls):
            fn()
        samples.append((time.perf_counter() - start) / calls)
    return statistics.median(samples)


def cpp_figures(binary, pattern, repetitions=1, min_time=None):
    """{(workload, form): median seconds} of dmlref_bench's 1-thread rows matching `pattern`."""
    command = [binary, "--benchmark_filter=" + pattern, "--benchmark_format=json",
               "--benchmark_repetitions=%d" % repetitions]
    if min_time is not None:
        command.append("--benchmark_min_time=%g" % min_time)
    result = subprocess.run(command, check=True, capture_output=True, text=True)
    scale = {"ns": 1e-9, "us": 1e-6, "ms": 1e-3, "s": 1.0}
    times = {}
    for b in json.loads(result.stdout)["benchmarks"]:
        if repetitions > 1 and b.get("aggregate_name") != "median":
            continue
        if repetitions == 1 and b.get("run_type") != "iteration":
            continue
        workload, form, _ = b["run_name"].split("/")
        times[(workload, form)] = b["real_time"] * scale[b["time_unit"]]
    return times


CPP_NAME = {"W1": "W1_gather_rows", "W3": "W3_gather_elements"}


def interleaved(name, binary, rounds, calls, min_time):
    """Alternates, `rounds` times, a run of dmlref_bench's typed and memcpy rows of the workload with
    the same call and a copy of the same bytes from Python, so that the host's drift over minutes
    falls on both. Returns per round (python, python copy, C++ typed, C++ memcpy) in seconds."""
    call, copy = checked_case(name)
    pattern = "^%s/(typed|memcpy)/real_time$" % CPP_NAME[name]
    samples = []
    for r in range(rounds):
        def python_side():
            return seconds(call, 3, calls), seconds(copy, 3, calls)
        def cpp_side():
            t = cpp_figures(binary, pattern, 1, min_time)
            return t[(CPP_NAME[name], "typed")], t[(CPP_NAME[name], "memcpy")]
        if r % 2 == 0:
            py, py_copy = python_side()
            typed, typed_copy = cpp_side()
        else:
            typed, typed_copy = cpp_side()
            py, py_copy = python_side()
        samples.append((py, py_copy, typed, typed_copy))
    return samples


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("dmlref_bench", nargs="?", help="path to dmlref_bench (the C++ figures)")
    parser.add_argument("--repeat", type=int, default=7, help="W8: timing runs (median)")
    parser.add_argument("--number", type=int, default=20000, help="W8: calls per timing run")
    parser.add_argument("--rounds", type=int, default=7, help="W1/W3: alternating rounds (median)")
    parser.add_argument("--calls", type=int, default=5, help="W1/W3: calls per timing, three timings a round")
    parser.add_argument("--min-time", type=float, default=0.5, help="W1/W3: dmlref_bench's --benchmark_min_time")
    parser.add_argument("--quick", action="store_true", help="a rough run: fewer repetitions")
    args = parser.parse_args(argv)
    if args.quick:
        args.repeat, args.number, args.rounds, args.calls, args.min_time = 3, 5000, 3, 2, 0.2

    print("dmlref %s from %s; numpy %s%s" % (dmlref.__version__, os.path.dirname(dmlref.__file__), np.__version__,
                                            "" if torch is None else ", torch " + torch.__version__))
    cpp_w8 = None
    if args.dmlref_bench:
        cpp_w8 = cpp_figures(args.dmlref_bench, "^W8_small/typed/real_time$", 3 if args.quick else 5)
        cpp_w8 = cpp_w8[("W8_small", "typed")]

    print("\nW8 ([64, 64] float32, 8 rows), per call:")
    results = w8(args)
    numpy_take = results["numpy.take(out=)"]
    for name, t in results.items():
        print("  %-26s %8.0f ns   %.2fx numpy.take" % (name, t * 1e9, t / numpy_take))
    if cpp_w8:
        print("  %-26s %8.0f ns   (dmlref_bench W8_small/typed)" % ("C++ typed layer", cpp_w8 * 1e9))
    ratio = results["dmlref.gather(out=)"] / numpy_take
    print("  goal <= 1.5x numpy.take: %s (%.2fx)" % ("met" if ratio <= 1.5 else "MISSED", ratio))

    print("\nW1 and W3 through the module (out=), one thread:")
    if not args.dmlref_bench:
        for name in ("W1", "W3"):
            call, copy = checked_case(name)
            py = seconds(call, args.rounds, args.calls)
            copied = seconds(copy, args.rounds, args.calls)
            print("  %s  Python %7.2f ms  (%.2fx its memcpy)" % (name, py * 1e3, py / copied))
        return 0
    print("  %d rounds, each a dmlref_bench run of the typed and memcpy rows and the same from Python,"
          " in alternating order; medians over the rounds" % args.rounds)
    verdicts = []
    for name in ("W1", "W3"):
        samples = interleaved(name, args.dmlref_bench, args.rounds, args.calls, args.min_time)
        med = lambda k: statistics.median(s[k] for s in samples)  # noqa: E731
        py, py_copy, typed, typed_copy = med(0), med(1), med(2), med(3)
        by_time = statistics.median(s[0] / s[2] for s in samples)
        by_ratio = statistics.median((s[0] / s[1]) / (s[2] / s[3]) for s in samples)
        print("  %s  Python %7.2f ms (%.2fx its memcpy)   C++ typed %7.2f ms (%.2fx its memcpy)"
              "   Python/C++ %.3f by time, %.3f by ratio to memcpy (medians of the rounds' ratios)" % (
                  name, py * 1e3, py / py_copy, typed * 1e3, typed / typed_copy, by_time, by_ratio))
        verdicts.append(by_time <= 1.05)
    print("  goal: Python/C++ <= 1.05 by time: %s" % ("met" if all(verdicts) else "MISSED"))
    return 0


if __name__ == "__main__":
    sys.exit(main())
