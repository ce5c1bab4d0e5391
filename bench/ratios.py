#!/usr/bin/python3
"""Ratio table for dmlref_bench: each workload's median time against its memcpy baseline.

Reads Google Benchmark JSON (from --benchmark_out=FILE --benchmark_out_format=json, or
--benchmark_format=json on stdout) and prints, per benchmark: workload, layer, median time, the
ratio to "<workload>/memcpy" (which moves the same bytes), the target and whether it is met.
Dispatch rows also show their overhead against the typed row of the same workload. Runs on an
executor adapter ("<workload>/typed/tbb/threads:2") show the layer as "typed/tbb" and divide by
the same "<workload>/memcpy/threads:2" as the default pool's row.

    python3 bench/ratios.py results.json
    dmlref_bench --benchmark_format=json | python3 bench/ratios.py
    python3 bench/ratios.py --check results.json   # exit status 1 if a target is missed

Standard library only (Debian's /usr/bin/python3).
"""

import argparse
import json
import re
import statistics
import sys

# Ratio targets (median time / memcpy median time, 1 thread), by workload number (W2 is judged
# against its read floor: FLOOR_TARGET).
RATIO_TARGETS = {
    "W1": 1.3, "W3": 2.0, "W4": 1.5, "W5": 1.6,
    "W6": 1.25, "W7": 1.8, "W9": 3.0,
}
ONE_PASS_TARGET = 1.35        # Options::all_or_nothing off: W3, W7 W3 and W9 W3_padded
ONE_PASS_TRANSPOSED = 0.9     # ... and W9 W3_transposed: its time against the default mode's
FLOOR_TARGET = 1.2            # a workload judged by its floor: at most this times the floor
W8_TARGET_NS = 100.0          # W8 is judged by time per call, not by ratio
DISPATCH_OVERHEAD = 0.10      # dispatch within 10% of typed ...
W8_DISPATCH_OVERHEAD_NS = 20.0  # ... and W8 within 20 ns

LAYERS = ("typed", "dispatch", "memcpy", "read_floor", "footprint_floor")
# An executor adapter after the layer: "W1_gather_rows/typed/tbb/threads:2" is layer "typed/tbb".
EXECUTORS = ("tbb", "openmp")
FLOORS = ("read_floor", "footprint_floor")
# Differences smaller than this between thread counts are noise on a shared 2-core machine.
THREAD_NOISE = 0.05
TO_NS = {"ns": 1.0, "us": 1e3, "ms": 1e6, "s": 1e9}


def parse_name(run_name):
    """'W2_gather_inner/int32/typed/threads:2/real_time' -> ('W2_gather_inner/int32', 'typed', 2);
    'W1_gather_rows/typed/tbb/threads:2' -> ('W1_gather_rows', 'typed/tbb', 2)."""
    parts = [p for p in run_name.split("/") if p not in ("real_time", "process_time")]
    threads = 1
    if parts and re.fullmatch(r"threads:\d+", parts[-1]):
        threads = int(parts.pop().split(":")[1])
    executor = None
    if len(parts) >= 3 and parts[-1] in EXECUTORS and parts[-2] in ("typed", "dispatch"):
        executor = parts.pop()
    if len(parts) < 2 or parts[-1] not in LAYERS:
        return None
    layer = parts[-1] if executor is None else parts[-1] + "/" + executor
    return "/".join(parts[:-1]), layer, threads


def base_layer(layer):
    """'typed/tbb' -> 'typed': the layer without its executor adapter."""
    return layer.split("/")[0]


def workload_id(workload):
    m = re.match(r"(W\d+)", workload)
    return m.group(1) if m else workload


class Run:
    """One benchmark's repetitions, reduced to a median (in ns)."""

    def __init__(self, workload, layer, threads):
        self.workload, self.layer, self.threads = workload, layer, threads
        self.samples = []          # per-repetition times, ns
        self.median_aggregate = None  # Google Benchmark's own median, if reported
        self.error = None
        self.unit = "us"
        self.cpu = None            # the Run of cpu_time (when this one is of real_time)

    # The statistic `median` returns: "median" (the default, what the targets are about) or "min"
    # (the least disturbed repetition; a hint on a machine shared with other work).
    statistic = "median"

    @property
    def median(self):
        if Run.statistic == "min" and self.samples:
            return min(self.samples)
        if self.samples:
            return statistics.median(self.samples)
        return self.median_aggregate


def load_runs(document, time_field="real_time"):
    """{(workload, layer, threads): Run} from a Google Benchmark JSON document. `time_field` is
    real_time or cpu_time; Run.cpu holds the same reduction of cpu_time."""
    runs = {}
    if time_field == "real_time":
        cpu = load_runs(document, "cpu_time")
    for b in document.get("benchmarks", []):
        name = b.get("run_name") or b.get("name", "")
        parsed = parse_name(name)
        if parsed is None:
            continue
        run = runs.setdefault(parsed, Run(*parsed))
        run.unit = b.get("time_unit", "ns")
        if b.get("error_occurred"):
            run.error = b.get("error_message", "error")
            continue
        t = b.get(time_field)
        if t is None:
            continue
        t *= TO_NS[run.unit]
        if b.get("run_type") == "aggregate":
            if b.get("aggregate_name") == "median":
                run.median_aggregate = t
        else:
            run.samples.append(t)
    if time_field == "real_time":
        for key, run in runs.items():
            run.cpu = cpu.get(key)
    return runs


def one_pass(workload):
    return workload.endswith("/one_pass")


def target_text(wid, workload=""):
    if wid == "W8":
        return "<= %g ns" % W8_TARGET_NS
    if one_pass(workload):
        return ("<= %g x default" % ONE_PASS_TRANSPOSED) if "transposed" in workload else "<= %g" % ONE_PASS_TARGET
    if wid == "W2":
        return "<= %g x floor" % FLOOR_TARGET
    if wid in RATIO_TARGETS:
        return "<= %g" % RATIO_TARGETS[wid]
    return ""


def floor_of(runs, workload):
    for name in FLOORS:
        run = runs.get((workload, name, 1))
        if run and run.median and not run.error:
            return run
    return None


def evaluate(runs):
    """Rows of dicts, one per typed/dispatch run, in benchmark order, with ratios and verdicts."""
    rows = []
    for key, run in runs.items():
        workload, layer, threads = key
        if layer == "memcpy" or layer in FLOORS:
            continue
        wid = workload_id(workload)
        base = runs.get((workload, "memcpy", threads)) or runs.get((workload, "memcpy", 1))
        typed = runs.get((workload, "typed", threads))
        row = {"workload": workload, "id": wid, "layer": layer, "threads": threads,
               "unit": run.unit, "median_ns": run.median, "error": run.error,
               "memcpy_ns": base.median if base else None, "ratio": None, "cpu_ratio": None,
               "floor_ratio": None, "vs_typed": None, "misses": []}
        if run.error or run.median is None:
            row["misses"].append("no result: %s" % (run.error or "missing"))
            rows.append(row)
            continue
        if base and base.median:
            row["ratio"] = run.median / base.median
            # (Google Benchmark's CPU time is the calling thread's: meaningless with more threads.)
            if threads == 1 and run.cpu and base.cpu and run.cpu.median and base.cpu.median:
                row["cpu_ratio"] = run.cpu.median / base.cpu.median
        floor = floor_of(runs, workload)
        if floor:
            row["floor_ratio"] = run.median / floor.median
        if layer == "dispatch" and typed and typed.median and not typed.error:
            row["vs_typed"] = run.median - typed.median if wid == "W8" else run.median / typed.median - 1.0
        if threads == 1:  # the targets are for one thread
            if wid == "W8":
                if run.median > W8_TARGET_NS:
                    row["misses"].append("%.0f ns > %g ns" % (run.median, W8_TARGET_NS))
            elif one_pass(workload):
                if "transposed" in workload:
                    default = runs.get((workload[:-len("/one_pass")], layer, 1))
                    if default and default.median and run.median > ONE_PASS_TRANSPOSED * default.median:
                        row["misses"].append("%.2f x the default mode > %g" % (run.median / default.median,
                                                                              ONE_PASS_TRANSPOSED))
                elif row["ratio"] is not None and row["ratio"] > ONE_PASS_TARGET:
                    row["misses"].append("ratio %.2f > %g" % (row["ratio"], ONE_PASS_TARGET))
            elif wid == "W2":
                if row["floor_ratio"] is not None and row["floor_ratio"] > FLOOR_TARGET:
                    row["misses"].append("%.2f x its floor > %g" % (row["floor_ratio"], FLOOR_TARGET))
            elif wid in RATIO_TARGETS and row["ratio"] is not None and row["ratio"] > RATIO_TARGETS[wid]:
                # Where the workload's own floor lies above the memcpy target, the floor judges it.
                floor_above = floor and base and base.median and floor.median / base.median > RATIO_TARGETS[wid]
                if not (floor_above and row["floor_ratio"] <= FLOOR_TARGET):
                    row["misses"].append("ratio %.2f > %g (x%.2f)" % (row["ratio"], RATIO_TARGETS[wid],
                                                                     row["ratio"] / RATIO_TARGETS[wid]))
        if threads > 1:
            # More threads must never be slower, and must be faster wherever the memcpy baseline
            # itself gains from them (this machine kind adds little bandwidth per core).
            one = runs.get((workload, base_layer(layer), 1))
            base_one = runs.get((workload, "memcpy", 1))
            if one and one.median and not one.error:
                if run.median > one.median * (1 + THREAD_NOISE):
                    row["misses"].append("%d threads slower than 1 (%+.0f%%)" % (threads, 100 * (run.median / one.median - 1)))
                elif (base and base_one and base.median and base_one.median and
                      base.median < base_one.median * (1 - THREAD_NOISE) and run.median >= one.median):
                    row["misses"].append("memcpy gains from %d threads but this does not" % threads)
        if row["vs_typed"] is not None:
            if wid == "W8" and row["vs_typed"] > W8_DISPATCH_OVERHEAD_NS:
                row["misses"].append("dispatch +%.0f ns > %g ns" % (row["vs_typed"], W8_DISPATCH_OVERHEAD_NS))
            elif wid != "W8" and row["vs_typed"] > DISPATCH_OVERHEAD:
                row["misses"].append("dispatch %+.0f%% > %d%%" % (100 * row["vs_typed"], 100 * DISPATCH_OVERHEAD))
        rows.append(row)
    # Execution order is random with --benchmark_enable_random_interleaving: sort by name.
    rows.sort(key=lambda r: (int(r["id"][1:]) if r["id"][1:].isdigit() else 99, r["workload"],
                             r["threads"], LAYERS.index(base_layer(r["layer"])), r["layer"]))
    return rows


def format_time(ns, wid):
    if ns is None:
        return "-"
    if wid == "W8":
        return "%.0f ns" % ns
    return "%.0f us" % (ns / 1e3) if ns >= 1e5 else "%.1f us" % (ns / 1e3)


def print_table(rows, out=sys.stdout, markdown=False):
    show_cpu = any(r["cpu_ratio"] is not None for r in rows)
    show_floor = any(r["floor_ratio"] is not None for r in rows)
    header = ["workload", "layer", Run.statistic, "memcpy", "ratio"] + (["cpu ratio"] if show_cpu else []) + \
             (["vs floor"] if show_floor else []) + ["target", "dispatch vs typed", "status"]
    table = []
    for r in rows:
        name = r["workload"] + ("" if r["threads"] == 1 else " (%d threads)" % r["threads"])
        if r["vs_typed"] is None:
            vs = ""
        elif r["id"] == "W8":
            vs = "%+.0f ns" % r["vs_typed"]
        else:
            vs = "%+.1f%%" % (100 * r["vs_typed"])
        table.append([name, r["layer"], format_time(r["median_ns"], r["id"]),
                      format_time(r["memcpy_ns"], r["id"]),
                      "-" if r["ratio"] is None else "%.2f" % r["ratio"]] +
                     ([("-" if r["cpu_ratio"] is None else "%.2f" % r["cpu_ratio"])] if show_cpu else []) +
                     ([("-" if r["floor_ratio"] is None else "%.2f" % r["floor_ratio"])] if show_floor else []) +
                     [target_text(r["id"], r["workload"]), vs,
                      "ok" if not r["misses"] else "MISS: " + "; ".join(r["misses"])])
    if markdown:
        out.write("| " + " | ".join(header) + " |\n")
        out.write("|" + "|".join("---" for _ in header) + "|\n")
        for line in table:
            out.write("| " + " | ".join(line) + " |\n")
        return
    widths = [max(len(h), *(len(line[i]) for line in table)) if table else len(h) for i, h in enumerate(header)]
    out.write("  ".join(h.ljust(w) for h, w in zip(header, widths)).rstrip() + "\n")
    out.write("  ".join("-" * w for w in widths) + "\n")
    for line in table:
        out.write("  ".join(c.ljust(w) for c, w in zip(line, widths)).rstrip() + "\n")


def read_json(path):
    """The JSON document in file `path` ('-': stdin)."""
    if path == "-":
        return json.load(sys.stdin)
    with open(path, encoding="utf-8") as f:
        return json.load(f)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("json", nargs="?", default="-", help="Google Benchmark JSON file ('-' or none: stdin)")
    parser.add_argument("--cpu-time", action="store_true",
                        help="use cpu_time instead of real_time (a hint on a loaded machine; targets are for real time)")
    parser.add_argument("--min", action="store_true",
                        help="use each benchmark's fastest repetition instead of the median (needs the per-repetition"
                             " results, i.e. --benchmark_out; a hint on a busy machine, targets are for medians)")
    parser.add_argument("--markdown", action="store_true", help="print a Markdown table")
    parser.add_argument("--check", action="store_true", help="exit with status 1 if any target is missed")
    args = parser.parse_args(argv)

    document = read_json(args.json)
    Run.statistic = "min" if args.min else "median"
    runs = load_runs(document, "cpu_time" if args.cpu_time else "real_time")
    if not runs:
        sys.exit("ratios.py: no dmlref_bench results in the input")
    rows = evaluate(runs)
    context = document.get("context", {})
    stat = Run.statistic
    print("%s, %s CPUs, load average %s, %s repetitions, %s time; ratio = %s / %s of '<workload>/memcpy'"
          % (context.get("host_name", "?"), context.get("num_cpus", "?"),
             ", ".join("%.1f" % x for x in context.get("load_avg", [])) or "?",
             max((len(r.samples) for r in runs.values()), default=0) or "aggregated",
             "cpu" if args.cpu_time else "real", stat, stat))
    print_table(rows, markdown=args.markdown)
    missed = [r for r in rows if r["misses"]]
    print("\n%d of %d benchmarks meet their targets." % (len(rows) - len(missed), len(rows)))
    if not args.cpu_time:
        print("'cpu ratio' is the same ratio of CPU times: when it differs much from 'ratio', the machine"
              " was busy and the real-time numbers are noisy (targets are judged on real time).")
    return 1 if (args.check and missed) else 0


if __name__ == "__main__":
    try:
        sys.exit(main())
    except BrokenPipeError:  # e.g. piped into head
        sys.stderr.close()
        sys.exit(0)
