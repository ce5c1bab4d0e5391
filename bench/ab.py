#!/usr/bin/python3
"""A/B of two dmlref_bench binaries on the same host: runs them alternately, one repetition of the
whole (filtered) suite per run, and compares each benchmark's median over the runs.

    /usr/bin/python3 bench/ab.py OLD/dmlref_bench NEW/dmlref_bench [--runs 5] [--filter REGEX]
                                 [--min-time 0.5] [--json out.json] [--markdown]

For every typed and dispatch row it prints the old and the new median, new / old, and whether the
row holds (new <= 1.05 x old); memcpy rows are shown for the host's drift between runs. Rows that
miss can be rerun alone with --filter. Alternating the binaries puts a slow minute of the host on
both alike. Standard library only.
"""

import argparse
import json
import statistics
import subprocess
import sys
import tempfile

TO_NS = {"ns": 1.0, "us": 1e3, "ms": 1e6, "s": 1e9}
HOLDS = 1.05


def run_once(binary, filter_regex, min_time):
    with tempfile.NamedTemporaryFile(suffix=".json") as out:
        command = [binary, f"--benchmark_out={out.name}", "--benchmark_out_format=json",
                   "--benchmark_repetitions=1", f"--benchmark_min_time={min_time}",
                   "--benchmark_enable_random_interleaving=false"]
        if filter_regex:
            command.append(f"--benchmark_filter={filter_regex}")
        subprocess.run(command, check=True, stdout=subprocess.DEVNULL)
        document = json.load(open(out.name))
    times = {}
    for b in document.get("benchmarks", []):
        if b.get("run_type") != "iteration" or b.get("error_occurred"):
            continue
        name = b["name"].replace("/real_time", "")
        times[name] = b["real_time"] * TO_NS[b.get("time_unit", "ns")]
    return times


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("old")
    parser.add_argument("new")
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--filter", default="")
    parser.add_argument("--min-time", default="0.5")
    parser.add_argument("--json", help="write every run's times here")
    parser.add_argument("--markdown", action="store_true")
    args = parser.parse_args()

    samples = {"old": {}, "new": {}}
    for i in range(args.runs):
        for label, binary in (("old", args.old), ("new", args.new)):
            print(f"run {i + 1}/{args.runs}: {label}", file=sys.stderr, flush=True)
            for name, ns in run_once(binary, args.filter, args.min_time).items():
                samples[label].setdefault(name, []).append(ns)
    if args.json:
        with open(args.json, "w") as f:
            json.dump(samples, f, indent=1)

    names = [n for n in samples["new"] if n in samples["old"]]
    rows, misses = [], 0
    for name in names:
        old = statistics.median(samples["old"][name])
        new = statistics.median(samples["new"][name])
        ratio = new / old
        memcpy = "/memcpy" in name
        verdict = "" if memcpy else ("holds" if ratio <= HOLDS else "MISS")
        misses += verdict == "MISS"
        rows.append((name, old, new, ratio, verdict))

    def time_text(ns):
        return f"{ns:.0f} ns" if ns < 1e4 else f"{ns / 1e6:.2f} ms"

    if args.markdown:
        print("| benchmark | old | new | new / old | |")
        print("|---|---|---|---|---|")
        for name, old, new, ratio, verdict in rows:
            print(f"| `{name}` | {time_text(old)} | {time_text(new)} | {ratio:.3f} | {verdict} |")
    else:
        width = max(len(r[0]) for r in rows) if rows else 10
        for name, old, new, ratio, verdict in rows:
            print(f"{name:<{width}}  {time_text(old):>10}  {time_text(new):>10}  {ratio:6.3f}  {verdict}")
    print(f"{misses} of {sum(1 for r in rows if r[4])} rows miss (new > {HOLDS} x old)", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
