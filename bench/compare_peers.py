#!/usr/bin/python3
"""Compare dmlref with PyTorch and numpy on the dmlref_bench workloads (optional; never in CI).

Every workload W1..W9 is run here in PyTorch and numpy, in several forms each (preallocated
`out=` where the API has it, allocating forms, fancy indexing), one thread, and timed against a
memcpy (numpy.copyto of the same byte count as the workload's memcpy baseline) in this same
process. dmlref's ratios come from running the dmlref_bench binary with JSON output. Ratios are
medians over repetitions divided by the memcpy median, so each side is normalised by a memcpy of
its own process; "speed-up" is peer ratio / dmlref ratio. W8 (per-call overhead) compares
nanoseconds per call instead, which for the peers includes the Python call.

A memcpy of the same bytes may take another time in another process (on a host whose caches hold
64 MiB only just, by 40%). `--module DIR` (a build's `python` directory, e.g. build/bench/python
configured with -DDMLREF_BUILD_PYTHON=ON) also times dmlref's Python module in this process, in
the same interleaved rounds as the peers, `out=` preallocated: the speed-ups then compare calls
timed side by side, against one memcpy.

    /usr/bin/python3 bench/compare_peers.py /tmp/benchbuild/bench/dmlref_bench
    /usr/bin/python3 bench/compare_peers.py build/bench/bench/dmlref_bench --module build/bench/python
    /usr/bin/python3 bench/compare_peers.py --dmlref-json results.json --only W1,W3 --markdown

Needs Debian's python3-numpy and python3-torch (apt-get install -y python3-numpy python3-torch);
without torch only numpy is compared.
"""

import os

for _var in ("OMP_NUM_THREADS", "MKL_NUM_THREADS", "OPENBLAS_NUM_THREADS"):
    os.environ.setdefault(_var, "1")

import argparse
import gc
import json
import random
import statistics
import subprocess
import sys
import tempfile
import time

import numpy as np

try:
    import torch
except ImportError:  # numpy-only comparison
    torch = None

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import ratios  # noqa: E402  (bench/ratios.py: the same JSON parsing and targets)

SEED = 20240611


# ---------------------------------------------------------------------------------------------
# Timing

def measure_interleaved(fns, rounds, run_time, baseline=None):
    """{name: median over `rounds` of the mean seconds per call}. In every round each callable runs
    for about `run_time` seconds, in a shuffled order (as dmlref_bench interleaves its repetitions),
    so that load from other processes and the state of the shared cache fall on all forms and on
    the memcpy alike. The `baseline` callable (the memcpy) also runs before every other one, so
    that its median, which every ratio divides by, rests on many more samples."""
    chunk = {}
    for name, fn in fns.items():  # warm-up (and first touch of what it allocates); calls per clock read
        fn()
        t0 = time.perf_counter()
        fn()
        once = time.perf_counter() - t0
        chunk[name] = 1 if once >= 1e-4 else max(1, int(1e-4 / max(once, 1e-9)))
    per_round = {name: [] for name in fns}
    def one_run(name):
        fn, n, calls = fns[name], chunk[name], 0
        t0 = time.perf_counter()
        while True:
            for _ in range(n):
                fn()
            calls += n
            elapsed = time.perf_counter() - t0
            if elapsed >= run_time:
                break
        per_round[name].append(elapsed / calls)

    order = [name for name in fns if name != baseline]
    for r in range(rounds):
        random.Random(SEED + r).shuffle(order)
        for name in order:
            if baseline is not None:
                one_run(baseline)
            one_run(name)
    return {name: statistics.median(v) for name, v in per_round.items()}


def memcpy_form(nbytes):
    """numpy.copyto between two separately allocated, page-faulted byte buffers."""
    src = np.random.default_rng(SEED).integers(0, 256, size=nbytes, dtype=np.uint8)
    dst = np.full(nbytes, 0xA5, dtype=np.uint8)
    return lambda: np.copyto(dst, src)


# ---------------------------------------------------------------------------------------------
# Data

NP_DTYPES = {"float32": np.float32, "float16": np.float16, "int8": np.int8}


def random_data(rng, shape, dtype):
    if dtype == "int8":
        return rng.integers(-128, 128, size=shape, dtype=np.int8)
    return rng.standard_normal(size=shape, dtype=np.float32).astype(NP_DTYPES[dtype])


def placed(shape, dtype, at):
    """An uninitialised packed array whose data start `at` bytes past a 4 KiB boundary."""
    nbytes = int(np.prod(shape)) * np.dtype(dtype).itemsize
    raw = np.empty(nbytes + 4096, dtype=np.uint8)
    start = (at - raw.ctypes.data) % 4096
    return raw[start:start + nbytes].view(dtype).reshape(shape)


# Layout "shifted": the input starts 16 bytes before a 4 KiB boundary and the output on one, as in
# dmlref_bench's Layout::shifted.
SHIFTED_INPUT_AT = 4096 - 16


def matrix(rng, rows, cols, dtype, layout):
    """A [rows, cols] array as dmlref's W9 lays it out: packed, transposed storage, padded pitch,
    or packed and shifted."""
    if layout == "shifted":
        a = placed((rows, cols), NP_DTYPES[dtype], SHIFTED_INPUT_AT)
        a[...] = random_data(rng, (rows, cols), dtype)
        return a
    if layout == "transposed":
        return random_data(rng, (cols, rows), dtype).T
    if layout == "padded":
        return random_data(rng, (rows, cols + 16), dtype)[:, :cols]
    return random_data(rng, (rows, cols), dtype)


def t(a):
    return torch.from_numpy(a)


dmlref = None  # the Python module, when --module names a build of it


def with_dmlref(forms, call, one_pass=None):
    """Adds dmlref's module, if loaded, as one more library to `forms` (call: its form with `out=`),
    and its one-pass form (all_or_nothing=False) as another, for the workloads with a one-pass row."""
    if dmlref is not None:
        forms["dmlref"] = {"module (out=)": call}
        if one_pass is not None:
            forms["dmlref one pass"] = {"module (out=, all_or_nothing=False)": one_pass}


def as_numpy(x):
    return x.numpy() if torch is not None and isinstance(x, torch.Tensor) else x


# ---------------------------------------------------------------------------------------------
# Workloads: each returns (expected result, {library: {form name: callable returning the result}})
# and the byte count it must move (as dmlref_bench counts it).

def gather_rows(rows, cols, count, dtype="float32", layout="packed", index_dtype=np.int64, axis=0):
    rng = np.random.default_rng(SEED)
    inp = matrix(rng, rows, cols, dtype, layout)
    n = rows if axis == 0 else cols
    idx = rng.integers(0, n, size=count).astype(index_dtype)
    out_shape = (count, cols) if axis == 0 else (rows, count)
    out = placed(out_shape, inp.dtype, 0) if layout == "shifted" else np.empty(out_shape, dtype=inp.dtype)
    expected = np.take(inp, idx, axis=axis)
    sel = (idx,) if axis == 0 else (slice(None), idx)
    forms = {"numpy": {
        # take buffers `out` unless mode is not 'raise' (numpy's docs); the indices are valid.
        "take(out=)": lambda: np.take(inp, idx, axis=axis, out=out),
        "take(out=, mode='clip')": lambda: np.take(inp, idx, axis=axis, out=out, mode="clip"),
        "take": lambda: np.take(inp, idx, axis=axis),
        "fancy indexing": lambda: inp[sel],
    }}
    if torch is not None:
        ti, tx, to = t(inp), t(idx), t(out)
        tsel = (tx,) if axis == 0 else (slice(None), tx)
        forms["torch"] = {
            "index_select(out=)": lambda: torch.index_select(ti, axis, tx, out=to),
            "index_select": lambda: torch.index_select(ti, axis, tx),
            "indexing": lambda: ti[tsel],
        }
    with_dmlref(forms, lambda: dmlref.gather(inp, idx, axis, out=out))
    nbytes = 2 * out.nbytes + idx.nbytes
    return expected, forms, nbytes


def gather_elements(rows, cols, dtype="float32", layout="packed"):
    rng = np.random.default_rng(SEED)
    inp = matrix(rng, rows, cols, dtype, layout)
    idx = rng.integers(0, cols, size=(rows, cols), dtype=np.int64)
    out = np.empty((rows, cols), dtype=inp.dtype)
    row_ids = np.arange(rows)[:, None]
    expected = np.take_along_axis(inp, idx, 1)
    forms = {"numpy": {
        "take_along_axis": lambda: np.take_along_axis(inp, idx, 1),
        "fancy indexing": lambda: inp[row_ids, idx],
    }}
    if torch is not None:
        ti, tx, to = t(inp), t(idx), t(out)
        forms["torch"] = {
            "gather(out=)": lambda: torch.gather(ti, 1, tx, out=to),
            "gather": lambda: torch.gather(ti, 1, tx),
            "take_along_dim(out=)": lambda: torch.take_along_dim(ti, tx, 1, out=to),
        }
    with_dmlref(forms, lambda: dmlref.gather_elements(inp, idx, 1, out=out),
                lambda: dmlref.gather_elements(inp, idx, 1, out=out, all_or_nothing=False))
    nbytes = 2 * out.nbytes + idx.nbytes
    return expected, forms, nbytes


def scatter_elements(rows, cols):
    rng = np.random.default_rng(SEED)
    inp = random_data(rng, (rows, cols), "float32")
    upd = random_data(rng, (rows, cols), "float32")
    idx = np.argsort(rng.random((rows, cols)), axis=1).astype(np.int64)  # a permutation per row
    out = np.empty_like(inp)
    row_ids = np.arange(rows)[:, None]
    expected = inp.copy()
    np.put_along_axis(expected, idx, upd, 1)

    def np_prealloc():
        np.copyto(out, inp)
        np.put_along_axis(out, idx, upd, 1)
        return out

    def np_alloc():
        o = inp.copy()
        np.put_along_axis(o, idx, upd, 1)
        return o

    def np_fancy():
        np.copyto(out, inp)
        out[row_ids, idx] = upd
        return out

    forms = {"numpy": {"copyto + put_along_axis": np_prealloc, "copy + put_along_axis": np_alloc,
                       "copyto + fancy assignment": np_fancy}}
    if torch is not None:
        ti, tx, tu, to = t(inp), t(idx), t(upd), t(out)
        forms["torch"] = {
            "scatter(out=)": lambda: torch.scatter(ti, 1, tx, tu, out=to),
            "scatter": lambda: torch.scatter(ti, 1, tx, tu),
            "copy_ + scatter_": lambda: to.copy_(ti).scatter_(1, tx, tu),
        }
    with_dmlref(forms, lambda: dmlref.scatter(inp, idx, upd, 1, out=out))
    nbytes = inp.nbytes + idx.nbytes + upd.nbytes + out.nbytes
    return expected, forms, nbytes


def gather_nd(a, b, c, tuples):
    rng = np.random.default_rng(SEED)
    inp = random_data(rng, (a, b, c), "float32")
    idx = np.stack([rng.integers(0, a, size=tuples), rng.integers(0, b, size=tuples)], axis=1).astype(np.int64)
    out = np.empty((tuples, c), dtype=np.float32)
    flat = inp.reshape(a * b, c)
    expected = inp[idx[:, 0], idx[:, 1]]
    forms = {"numpy": {
        "fancy indexing": lambda: inp[idx[:, 0], idx[:, 1]],
        "take(out=, mode='clip') of flattened rows":
            lambda: np.take(flat, idx[:, 0] * b + idx[:, 1], axis=0, out=out, mode="clip"),
    }}
    if torch is not None:
        ti, tx, to, tflat = t(inp), t(idx), t(out), t(flat)
        forms["torch"] = {
            "indexing": lambda: ti[tx[:, 0], tx[:, 1]],
            "index_select(out=) of flattened rows": lambda: torch.index_select(tflat, 0, tx[:, 0] * b + tx[:, 1], out=to),
        }
    with_dmlref(forms, lambda: dmlref.gather_nd(inp, idx, out=out))
    nbytes = 2 * out.nbytes + idx.nbytes
    return expected, forms, nbytes


def scatter_nd(rows, cols, count, in_place):
    rng = np.random.default_rng(SEED)
    inp = random_data(rng, (rows, cols), "float32")
    upd = random_data(rng, (count, cols), "float32")
    idx = rng.permutation(rows)[:count].astype(np.int64).reshape(count, 1)
    i = idx[:, 0]
    expected = inp.copy()
    expected[i] = upd
    forms = {"numpy": {}}
    if in_place:
        forms["numpy"]["fancy assignment"] = lambda: inp.__setitem__(i, upd) or inp
        nbytes = idx.nbytes + 2 * upd.nbytes
    else:
        out = np.empty_like(inp)

        def np_prealloc():
            np.copyto(out, inp)
            out[i] = upd
            return out

        def np_alloc():
            o = inp.copy()
            o[i] = upd
            return o

        forms["numpy"] = {"copyto + fancy assignment": np_prealloc, "copy + fancy assignment": np_alloc}
        nbytes = 2 * inp.nbytes + idx.nbytes + upd.nbytes
    if torch is not None:
        ti, tx, tu = t(inp), t(i), t(upd)
        if in_place:
            forms["torch"] = {
                "index_copy_": lambda: ti.index_copy_(0, tx, tu),
                "index_put_": lambda: ti.index_put_((tx,), tu),
                "setitem": lambda: ti.__setitem__(tx, tu) or ti,
            }
        else:
            to = t(out)
            forms["torch"] = {
                "copy_ + index_copy_": lambda: to.copy_(ti).index_copy_(0, tx, tu),
                "copy_ + index_put_": lambda: to.copy_(ti).index_put_((tx,), tu),
                "index_copy": lambda: ti.index_copy(0, tx, tu),
                "index_put": lambda: ti.index_put((tx,), tu),
            }
    with_dmlref(forms, (lambda: dmlref.scatter_nd(inp, idx, upd, out=inp)) if in_place
                else (lambda: dmlref.scatter_nd(inp, idx, upd, out=out)))
    return expected, forms, nbytes


# name as in dmlref_bench -> builder (the shapes of bench/dmlref_bench.cpp)
WORKLOADS = [
    ("W1_gather_rows", lambda: gather_rows(32768, 1024, 16384)),
    ("W2_gather_inner/int32", lambda: gather_rows(4096, 4096, 1024, index_dtype=np.int32, axis=1)),
    ("W2_gather_inner/int64", lambda: gather_rows(4096, 4096, 1024, axis=1)),
    ("W3_gather_elements", lambda: gather_elements(2048, 4096)),
    ("W4_scatter_elements", lambda: scatter_elements(2048, 4096)),
    ("W5_gather_nd", lambda: gather_nd(512, 512, 64, 65536)),
    ("W6_scatter_nd", lambda: scatter_nd(65536, 256, 16384, False)),
    ("W6_scatter_nd/inplace", lambda: scatter_nd(65536, 256, 16384, True)),
    ("W7_dtypes/W1_float16", lambda: gather_rows(32768, 1024, 16384, dtype="float16")),
    ("W7_dtypes/W1_int8", lambda: gather_rows(32768, 1024, 16384, dtype="int8")),
    ("W7_dtypes/W3_float16", lambda: gather_elements(2048, 4096, dtype="float16")),
    ("W7_dtypes/W3_int8", lambda: gather_elements(2048, 4096, dtype="int8")),
    ("W8_small", lambda: gather_rows(64, 64, 8)),
    ("W9_strided/W1_transposed", lambda: gather_rows(32768, 1024, 16384, layout="transposed")),
    ("W9_strided/W1_padded", lambda: gather_rows(32768, 1024, 16384, layout="padded")),
    ("W9_strided/W1_shifted", lambda: gather_rows(32768, 1024, 16384, layout="shifted")),
    ("W9_strided/W3_transposed", lambda: gather_elements(2048, 4096, layout="transposed")),
    ("W9_strided/W3_padded", lambda: gather_elements(2048, 4096, layout="padded")),
]


# ---------------------------------------------------------------------------------------------

def run_peers(name, builder, args, log):
    """{library: (best form, ratio, seconds per call)}, plus memcpy seconds and notes."""
    expected, forms, nbytes = builder()
    notes, valid = [], {}
    for library, library_forms in forms.items():
        for form, fn in library_forms.items():
            try:
                result = as_numpy(fn())
            except Exception as e:  # an API that does not support this dtype or index type
                notes.append("%s %s: unsupported (%s)" % (library, form, str(e).splitlines()[0][:80]))
                continue
            if result.shape != expected.shape or not np.array_equal(result, expected):
                notes.append("%s %s: WRONG RESULT, not counted" % (library, form))
                continue
            valid[(library, form)] = fn
    del expected
    memcpy_key = ("memcpy", "np.copyto of %d bytes" % (nbytes // 2))
    valid[memcpy_key] = memcpy_form(nbytes // 2)
    times = measure_interleaved(valid, args.rounds, args.run_time, baseline=memcpy_key)
    memcpy = times.pop(memcpy_key)
    best = {}
    for (library, form), secs in times.items():
        ratio = secs / memcpy
        log("  %-28s %-6s %-44s %10.1f us  ratio %6.2f" % (name, library, form, secs * 1e6, ratio))
        if library not in best or ratio < best[library][1]:
            best[library] = (form, ratio, secs)
    log("  %-28s memcpy %-44s %10.1f us" % (name, "np.copyto of %d bytes" % (nbytes // 2), memcpy * 1e6))
    return best, memcpy, notes


def dmlref_results(args, names, log):
    if args.dmlref_json:
        with open(args.dmlref_json, encoding="utf-8") as f:
            return ratios.load_runs(json.load(f))
    if not args.binary:
        sys.exit("compare_peers.py: give the dmlref_bench binary or --dmlref-json")
    pattern = "^(%s)(/one_pass)?/(typed|dispatch|memcpy)" % "|".join(names)
    with tempfile.TemporaryDirectory() as tmp:
        out = args.keep_json or os.path.join(tmp, "dmlref.json")
        cmd = [args.binary, "--benchmark_filter=" + pattern, "--benchmark_out=" + out,
               "--benchmark_out_format=json", "--benchmark_repetitions=%d" % args.repetitions] + args.bench_arg
        log("running: " + " ".join(cmd))
        subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL if not args.verbose else None)
        with open(out, encoding="utf-8") as f:
            return ratios.load_runs(json.load(f))


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("binary", nargs="?", help="path of dmlref_bench (e.g. /tmp/benchbuild/bench/dmlref_bench)")
    parser.add_argument("--dmlref-json", help="use these dmlref_bench JSON results instead of running the binary")
    parser.add_argument("--keep-json", help="write the dmlref_bench JSON results here (for bench/ratios.py)")
    parser.add_argument("--only", help="comma-separated workload prefixes, e.g. W1,W3,W7_dtypes/W1_int8")
    parser.add_argument("--repetitions", type=int, default=5, help="dmlref_bench repetitions (default 5)")
    parser.add_argument("--bench-arg", action="append", default=[], help="extra dmlref_bench flag (repeatable)")
    parser.add_argument("--rounds", type=int, default=5, help="interleaved rounds per peer form (default 5)")
    parser.add_argument("--run-time", type=float, default=0.1,
                        help="seconds each form runs per round (default 0.1)")
    parser.add_argument("--markdown", action="store_true", help="print the table as Markdown")
    parser.add_argument("--verbose", action="store_true", help="show dmlref_bench's console output")
    parser.add_argument("--module", metavar="DIR",
                        help="also time dmlref's Python module from DIR (a build's python directory) in this process")
    args = parser.parse_args(argv)
    if args.module:
        global dmlref
        sys.path.insert(0, args.module)
        import dmlref as module  # noqa: E402 (the directory is known only now)
        dmlref = module

    def log(text):
        print(text, file=sys.stderr, flush=True)

    if torch is not None:
        torch.set_num_threads(1)
        try:
            torch.set_num_interop_threads(1)
        except RuntimeError:
            pass
    selected = [(n, b) for n, b in WORKLOADS
                if not args.only or any(n.startswith(p) for p in args.only.split(","))]
    runs = dmlref_results(args, [n for n, _ in selected], log)

    log("numpy %s, torch %s (threads %s)" % (np.__version__, torch.__version__ if torch else "absent",
                                              torch.get_num_threads() if torch else "-"))
    rows, all_notes = [], []
    for name, builder in selected:
        best, memcpy, notes = run_peers(name, builder, args, log)
        all_notes += ["%s: %s" % (name, n) for n in notes]
        # The one-pass variant (Options::all_or_nothing = false), where the suite has one, against
        # the same peers: they, too, may leave a partly written output on error.
        for row_name in (name, name + "/one_pass"):
            typed = runs.get((row_name, "typed", 1))
            base = runs.get((row_name, "memcpy", 1))
            if row_name != name and typed is None:
                continue
            rows.append(peer_row(row_name, typed, base, best))
        gc.collect()

    print_table(rows, args.markdown)
    if all_notes:
        print("\nNotes:")
        for n in all_notes:
            print("- " + n)
    return 0


def peer_row(name, typed, base, best):
    """One line of the table: dmlref's typed row against the best form of each peer."""
    w8 = name.startswith("W8")
    if typed is None or typed.error or typed.median is None:
        mine = None
    elif w8:
        mine = typed.median  # ns per call
    else:
        mine = typed.median / base.median if base and base.median else None
    row = {"workload": name, "dmlref": mine, "w8": w8,
           "dmlref_ms": typed.median / 1e6 if mine is not None else None, "module": None}
    # The module's call was timed beside the peers' (a one-pass row's with all_or_nothing=False):
    # the speed-ups then compare those, but for W8's, which stay the C++ call's.
    module = "dmlref one pass" if name.endswith("/one_pass") else "dmlref"
    if module in best:
        _, ratio, secs = best[module]
        row["module"] = (secs * 1e9 if w8 else ratio, secs * 1e3)
    against = row["module"][0] if row["module"] and not w8 else mine
    for library in ("torch", "numpy"):
        if library in best:
            form, ratio, secs = best[library]
            value = secs * 1e9 if w8 else ratio
            row[library] = (form, value, (value / against) if against else None, secs * 1e3)
        else:
            row[library] = None
    return row


def print_table(rows, markdown):
    with_module = any(r["module"] for r in rows)
    header = ["workload", "dmlref ratio (time)"] + (["dmlref module ratio (time)"] if with_module else []) + [
        "best PyTorch ratio (form, time)", "best numpy ratio (form, time)", "dmlref speed-up vs PyTorch", "vs numpy"]
    lines = []
    for r in rows:
        fmt = (lambda v: "%.0f ns" % v) if r["w8"] else (lambda v: "%.2f" % v)
        ms = (lambda v: "") if r["w8"] else (lambda v: ", %.1f ms" % v)
        cells = [r["workload"], "-" if r["dmlref"] is None else
                 fmt(r["dmlref"]) + ("" if r["w8"] else " (%.1f ms)" % r["dmlref_ms"])]
        if with_module:
            m = r["module"]
            cells.append("-" if m is None else fmt(m[0]) + ("" if r["w8"] else " (%.1f ms)" % m[1]))
        for library in ("torch", "numpy"):
            p = r[library]
            cells.append("-" if p is None else "%s (%s%s)" % (fmt(p[1]), p[0], ms(p[3])))
        for library in ("torch", "numpy"):
            p = r[library]
            cells.append("-" if p is None or p[2] is None else "%.2fx" % p[2])
        lines.append(cells)
    if markdown:
        print("| " + " | ".join(header) + " |")
        print("|" + "|".join("---" for _ in header) + "|")
        for cells in lines:
            print("| " + " | ".join(cells) + " |")
    else:
        widths = [max(len(h), *(len(c[i]) for c in lines)) for i, h in enumerate(header)]
        print("  ".join(h.ljust(w) for h, w in zip(header, widths)))
        print("  ".join("-" * w for w in widths))
        for cells in lines:
            print("  ".join(c.ljust(w) for c, w in zip(cells, widths)).rstrip())
    print("\nRatio: median time / median memcpy of the same byte count in the same process (1 thread);"
          " time: the median time per call. Speed-up: peer ratio / dmlref ratio (> 1: dmlref faster),"
          + (" dmlref's by its module's call in the peers' process (not W8's)."
             if with_module else "")
          + " W8: ns per call (peers include the Python call overhead).")


if __name__ == "__main__":
    sys.exit(main())
