#!/usr/bin/python3
"""How dmlref's cost grows with the size of a call: dmlref_scaling's JSON as a table and an SVG.

dmlref_scaling (bench/scaling.cpp) times W1-style row gathers, W3-style element gathers and
W6-style row scatters at output sizes from 16 KiB to 1 GiB in powers of 4, with 1 and 2 threads,
each next to a memcpy of the same bytes. For every workload and size this prints, and draws:

  - the ratio to the memcpy of the same bytes: 1 thread against the 1-thread memcpy, 2 threads
    against the faster of the 1- and 2-thread memcpy (dmlref splits no call of under 512 KiB,
    while the 2-thread memcpy always splits, and a split copy of a few KiB costs more than it saves);
  - the time per output element, in ns;
  - the 2-thread speedup (1-thread time / 2-thread time), and the memcpy's own;

and marks every size whose ratio is more than 1.3 times the ratio at a neighbouring size (a cliff,
docs/performance.md). Vertical lines show the caches Google Benchmark reports for the machine;
a workload's footprint (inputs + output) is 2.3 to 4 times its output size (bench/scaling.cpp).

Run (Release build: the bench preset; about 5 minutes and 4 GiB of memory):

    cmake --workflow --preset bench
    build/bench/bench/dmlref_scaling --benchmark_out=/tmp/scaling.json --benchmark_out_format=json
    /usr/bin/python3 bench/plot_scaling.py /tmp/scaling.json --svg /tmp/scaling.svg

A quick look at the small sizes only: --benchmark_filter='/(16|64|256)KiB/'. The table needs only
the standard library; the SVG needs matplotlib (Debian: python3-matplotlib), optional and never
used in CI.
"""

import argparse
import re
import statistics
import sys

import ratios  # bench/ratios.py, beside this script: read_json

NAME = re.compile(r"^(?P<workload>[^/]+)/(?P<size>\d+)(?P<unit>KiB|MiB|GiB)/(?P<layer>typed|memcpy)"
                  r"(?:/threads:(?P<threads>\d+))?$")
# What Google Benchmark appends to a name: per-benchmark settings and the timer.
SUFFIX = re.compile(r"^(min_time:.*|repeats:\d+|real_time)$")
UNITS = {"KiB": 1 << 10, "MiB": 1 << 20, "GiB": 1 << 30}
TO_NS = {"ns": 1.0, "us": 1e3, "ms": 1e6, "s": 1e9}
ELEMENT_BYTES = 4  # every workload moves float32
CLIFF = 1.3
LABELS = {"W1_rows": "W1 row gather", "W3_elements": "W3 element gather", "W6_scatter": "W6 row scatter"}


def load(document):
    """{(workload, output bytes, layer, threads): median ns} from Google Benchmark JSON."""
    samples = {}
    medians = {}
    for b in document.get("benchmarks", []):
        name = "/".join(p for p in (b.get("run_name") or b.get("name", "")).split("/") if not SUFFIX.match(p))
        m = NAME.match(name)
        if not m or b.get("error_occurred"):
            continue
        key = (m["workload"], int(m["size"]) * UNITS[m["unit"]], m["layer"], int(m["threads"] or 1))
        t = b["real_time"] * TO_NS[b.get("time_unit", "ns")]
        if b.get("run_type") == "aggregate":
            if b.get("aggregate_name") == "median":
                medians[key] = t
        else:
            samples.setdefault(key, []).append(t)
    for key, times in samples.items():
        medians.setdefault(key, statistics.median(times))
    return medians


def size_text(n):
    for unit in ("GiB", "MiB", "KiB"):
        if n >= UNITS[unit]:
            return "%d %s" % (n // UNITS[unit], unit)
    return "%d B" % n


def rows_of(medians):
    """One row per workload and size: times, ratios, ns per element, speedups, and cliffs."""
    rows = []
    for workload in sorted({k[0] for k in medians}):
        sizes = sorted({k[1] for k in medians if k[0] == workload})
        for size in sizes:
            get = lambda layer, threads: medians.get((workload, size, layer, threads))  # noqa: E731
            t1, t2, m1, m2 = get("typed", 1), get("typed", 2), get("memcpy", 1), get("memcpy", 2)
            elements = size // ELEMENT_BYTES
            rows.append({
                "workload": workload, "size": size,
                "t1": t1, "t2": t2,
                "ratio1": t1 / m1 if t1 and m1 else None,
                "ratio2": t2 / min(m1, m2) if t2 and m1 and m2 else None,
                "ns1": t1 / elements if t1 else None,
                "ns2": t2 / elements if t2 else None,
                "speedup": t1 / t2 if t1 and t2 else None,
                "memcpy_speedup": m1 / m2 if m1 and m2 else None,
                "cliff": [],
            })
    # A cliff: a ratio more than CLIFF times the ratio at a neighbouring size.
    for i, r in enumerate(rows):
        for key in ("ratio1", "ratio2"):
            for j in (i - 1, i + 1):
                if 0 <= j < len(rows) and rows[j]["workload"] == r["workload"]:
                    other = rows[j][key]
                    if r[key] and other and r[key] > CLIFF * other:
                        r["cliff"].append("%s %.2f > %.1f x %.2f at %s" % (
                            "1 thread" if key == "ratio1" else "2 threads", r[key], CLIFF, other,
                            size_text(rows[j]["size"])))
    return rows


def fmt(value, pattern):
    return "-" if value is None else pattern % value


def print_table(rows, out=sys.stdout):
    header = ["workload", "output", "1 thread", "ratio", "ns/elem", "2 threads", "ratio", "ns/elem",
              "speedup", "memcpy speedup", "cliff"]
    table = [[r["workload"], size_text(r["size"]), fmt(r["t1"] and r["t1"] / 1e3, "%.1f us"), fmt(r["ratio1"], "%.2f"),
              fmt(r["ns1"], "%.3f"), fmt(r["t2"] and r["t2"] / 1e3, "%.1f us"), fmt(r["ratio2"], "%.2f"),
              fmt(r["ns2"], "%.3f"), fmt(r["speedup"], "%.2f"), fmt(r["memcpy_speedup"], "%.2f"),
              "; ".join(r["cliff"]) or "-"] for r in rows]
    widths = [max(len(h), *(len(line[i]) for line in table)) if table else len(h) for i, h in enumerate(header)]
    out.write("  ".join(h.ljust(w) for h, w in zip(header, widths)).rstrip() + "\n")
    for line in table:
        out.write("  ".join(c.ljust(w) for c, w in zip(line, widths)).rstrip() + "\n")


def caches_of(document):
    """[(label, bytes)] of the machine's data caches, smallest first: as dmlref_scaling read them
    from the C library (cache_L1d_bytes, ...), else from Google Benchmark's own list."""
    context = document.get("context", {})
    found = {}
    for label in ("L1d", "L2", "L3"):
        value = context.get("cache_%s_bytes" % label)
        if value and str(value).isdigit() and int(value) > 0:
            found[label] = int(value)
    if not found:
        for c in context.get("caches", []):
            if c.get("type") in ("Data", "Unified") and c.get("size"):
                found["L%d" % c["level"] + ("d" if c["level"] == 1 else "")] = c["size"]
    return sorted(found.items(), key=lambda item: item[1])


def draw(rows, document, path, title):
    import matplotlib
    matplotlib.use("Agg")
    matplotlib.rcParams["svg.fonttype"] = "none"  # text stays text: a smaller, searchable SVG
    import matplotlib.pyplot as plt
    from matplotlib.ticker import FixedLocator, FuncFormatter, NullLocator

    workloads = sorted({r["workload"] for r in rows})
    colours = dict(zip(workloads, ("tab:blue", "tab:orange", "tab:green", "tab:red", "tab:purple")))
    fig, axes = plt.subplots(3, 1, figsize=(8.5, 10.5), sharex=True)
    panels = [
        (axes[0], "time / memcpy of the same bytes", [("ratio1", "-", "1 thread"), ("ratio2", "--", "2 threads")]),
        (axes[1], "ns per output element", [("ns1", "-", "1 thread"), ("ns2", "--", "2 threads")]),
        (axes[2], "2-thread speedup", [("speedup", "-", "dmlref"), ("memcpy_speedup", ":", "memcpy")]),
    ]
    for ax, ylabel, series in panels:
        for w in workloads:
            mine = [r for r in rows if r["workload"] == w]
            for key, style, what in series:
                points = [(r["size"], r[key]) for r in mine if r[key] is not None]
                if points:
                    ax.plot(*zip(*points), style, marker="o", markersize=3, color=colours[w],
                            label="%s, %s" % (LABELS.get(w, w), what))
        for r in rows:
            if r["cliff"] and ax is axes[0]:
                ax.plot([r["size"]], [r["ratio1"] or r["ratio2"]], "x", color="red", markersize=10)
        ax.set_ylabel(ylabel)
        ax.grid(True, which="major", alpha=0.3)
        for label, size in caches_of(document):
            ax.axvline(size, color="grey", linewidth=0.8, alpha=0.6)
            if ax is axes[0]:
                ax.annotate("%s %s" % (label, size_text(size)), (size, 0), xycoords=("data", "axes fraction"),
                            xytext=(2, 4), textcoords="offset points", fontsize=8, color="grey")
    axes[0].axhline(1.0, color="black", linewidth=0.6)
    axes[0].set_yscale("log")
    axes[0].yaxis.set_major_formatter(FuncFormatter(lambda y, _: "%g" % y))
    axes[0].yaxis.set_minor_formatter(FuncFormatter(lambda y, _: "%g" % y if y in (1.5, 2, 3, 5, 7) else ""))
    axes[1].set_yscale("log")
    axes[2].axhline(1.0, color="black", linewidth=0.6)
    axes[0].legend(fontsize=7, ncol=2, loc="best")
    axes[2].legend(fontsize=7, ncol=2, loc="best")
    sizes = sorted({r["size"] for r in rows})
    axes[2].set_xscale("log", base=2)
    axes[2].xaxis.set_major_locator(FixedLocator(sizes))
    axes[2].xaxis.set_minor_locator(NullLocator())
    axes[2].xaxis.set_major_formatter(FuncFormatter(lambda x, _: size_text(int(round(x)))))
    axes[2].set_xlabel("output size (footprint: 2.3-4x; grey lines: the machine's caches)")
    context = document.get("context", {})
    fig.suptitle(title or "dmlref: cost by output size (%s, %s CPUs, median times)"
                 % (context.get("host_name", "?"), context.get("num_cpus", "?")), fontsize=11)
    fig.tight_layout()
    fig.savefig(path, format="svg", metadata={"Date": None})


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("json", help="dmlref_scaling's Google Benchmark JSON ('-': stdin)")
    parser.add_argument("--svg", help="write the picture here (needs matplotlib)")
    parser.add_argument("--title", help="the picture's title (default: host, CPUs)")
    args = parser.parse_args(argv)
    document = ratios.read_json(args.json)
    rows = rows_of(load(document))
    if not rows:
        sys.exit("plot_scaling.py: no dmlref_scaling results in the input")
    print_table(rows)
    cliffs = sum(1 for r in rows if r["cliff"])
    print("\n%d size%s more than %.1fx the ratio of a neighbouring size." % (cliffs, "" if cliffs == 1 else "s", CLIFF))
    if args.svg:
        try:
            draw(rows, document, args.svg, args.title)
        except ImportError:
            sys.exit("plot_scaling.py: the SVG needs matplotlib (Debian: apt-get install python3-matplotlib)")
        print("wrote %s" % args.svg)
    return 0


if __name__ == "__main__":
    sys.exit(main())
