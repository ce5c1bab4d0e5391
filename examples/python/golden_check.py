#!/usr/bin/python3
"""Checks a candidate implementation of the gather/scatter operators against dmlref.

The candidate here is a hand-written numpy backend (the `candidate_*` functions), the kind of code
a kernel author wants to validate; replace them with calls into your own backend. Every operator
runs on random cases (random shapes, data types, index types with negative indices, bit patterns
including NaN payloads and -0.0), and each result is compared bit for bit with dmlref's. The first
mismatches are printed with their coordinates:

    PYTHONPATH=build/dev/python /usr/bin/python3 examples/python/golden_check.py
    PYTHONPATH=build/dev/python /usr/bin/python3 examples/python/golden_check.py --flawed   # a seeded bug

Exit status 0 when every case matches, 1 otherwise.
"""

import argparse
import sys

import numpy as np

import dmlref

DATA_TYPES = [np.float16, np.float32, np.float64, np.int8, np.int16, np.int32, np.int64,
              np.uint8, np.uint16, np.uint32, np.uint64]
INDEX_TYPES = [np.int32, np.int64, np.uint32, np.uint64]
FLAWED = False  # --flawed: the candidate mishandles one negative index

# ---- the candidate: ONNX semantics written with numpy ----------------------------------------


def positive(idx, n):
    idx = idx.astype(np.int64)
    if FLAWED:
        return np.where(idx == -1, 0, np.where(idx < 0, idx + n, idx))
    return np.where(idx < 0, idx + n, idx)


def candidate_gather(data, idx, axis):
    return np.take(data, positive(idx, data.shape[axis]), axis=axis)


def candidate_gather_elements(data, idx, axis):
    return np.take_along_axis(data, positive(idx, data.shape[axis]), axis=axis)


def candidate_gather_nd(data, idx, batch_dims):
    k = idx.shape[-1]
    out = np.empty(idx.shape[:-1] + data.shape[batch_dims + k:], dtype=data.dtype)
    for g in np.ndindex(*idx.shape[:-1]):
        t = tuple(int(positive(idx[g + (j,)], data.shape[batch_dims + j])) for j in range(k))
        out[g] = data[g[:batch_dims] + t]
    return out


def candidate_scatter_elements(data, idx, upd, axis):
    out = data.copy()
    np.put_along_axis(out, positive(idx, data.shape[axis]), upd, axis=axis)
    return out


def candidate_scatter_nd(data, idx, upd):
    out = data.copy()
    k = idx.shape[-1]
    for g in np.ndindex(*idx.shape[:-1]):
        out[tuple(int(positive(idx[g + (j,)], data.shape[j])) for j in range(k))] = upd[g]
    return out


# ---- random cases ------------------------------------------------------------------------------


def bits(rng, shape, dtype):
    dtype = np.dtype(dtype)
    count = int(np.prod(shape, dtype=np.int64))
    return rng.integers(0, 256, count * dtype.itemsize, dtype=np.uint8).view(dtype).reshape(shape)


def indices(rng, shape, n, itype):
    low = -n if np.dtype(itype).kind == "i" else 0
    return rng.integers(low, n, size=shape).astype(itype)


def distinct_rows(rng, rows, cols, take, itype):
    """Per row, `take` distinct positions of 0..cols-1 (scatters without collisions)."""
    idx = np.stack([rng.permutation(cols)[:take] for _ in range(rows)])
    if np.dtype(itype).kind == "i":
        idx = np.where(rng.integers(0, 2, idx.shape) == 1, idx - cols, idx)
    return idx.astype(itype)


def make_case(rng):
    """(name, description, candidate's result, dmlref's result)."""
    op = rng.choice(["gather", "gather_elements", "gather_nd", "scatter_elements", "scatter_nd"])
    dtype = DATA_TYPES[rng.integers(len(DATA_TYPES))]
    itype = INDEX_TYPES[rng.integers(len(INDEX_TYPES))]
    rank = int(rng.integers(1, 4))
    shape = tuple(int(s) for s in rng.integers(1, 5, size=rank))
    data = bits(rng, shape, dtype)
    axis = int(rng.integers(0, rank))
    what = "%s, data %s %s, %s indices" % (op, np.dtype(dtype).name, shape, np.dtype(itype).name)
    if op == "gather":
        idx = indices(rng, tuple(rng.integers(1, 4, size=int(rng.integers(0, 3)))), shape[axis], itype)
        return what, candidate_gather(data, idx, axis), dmlref.onnx.gather(data, idx, axis)
    if op == "gather_elements":
        idx_shape = list(shape)
        idx_shape[axis] = int(rng.integers(1, 5))
        idx = indices(rng, tuple(idx_shape), shape[axis], itype)
        return what, candidate_gather_elements(data, idx, axis), dmlref.onnx.gather_elements(data, idx, axis)
    if op == "gather_nd":
        batch = int(rng.integers(0, rank))
        k = int(rng.integers(1, rank - batch + 1))
        idx = np.stack([indices(rng, shape[:batch] + (2,), shape[batch + j], itype) for j in range(k)], axis=-1)
        return what, candidate_gather_nd(data, idx, batch), dmlref.onnx.gather_nd(data, idx, batch)
    if op == "scatter_elements":
        moved = np.moveaxis(data, axis, -1)
        rows = int(np.prod(moved.shape[:-1], dtype=np.int64))
        take = int(rng.integers(1, shape[axis] + 1))
        idx = np.moveaxis(distinct_rows(rng, rows, shape[axis], take, itype).reshape(moved.shape[:-1] + (take,)),
                          -1, axis)
        upd = bits(rng, idx.shape, dtype)
        return (what, candidate_scatter_elements(data, idx, upd, axis),
                dmlref.onnx.scatter_elements(data, idx, upd, axis))
    k = int(rng.integers(1, rank + 1))
    count = int(rng.integers(1, 4))
    flat = rng.permutation(int(np.prod(shape[:k])))[:count]
    coords = np.stack(np.unravel_index(flat, shape[:k]), axis=-1)
    if np.dtype(itype).kind == "i":
        coords = np.where(rng.integers(0, 2, coords.shape) == 1, coords - np.array(shape[:k]), coords)
    idx = coords.astype(itype)
    upd = bits(rng, (len(flat),) + shape[k:], dtype)
    return what, candidate_scatter_nd(data, idx, upd), dmlref.onnx.scatter_nd(data, idx, upd)


def mismatches(actual, golden, limit):
    """Coordinates where the bits differ (at most `limit`), and their count."""
    if actual.shape != golden.shape or actual.dtype != golden.dtype:
        return None, 0
    unsigned = np.dtype("u%d" % golden.dtype.itemsize)
    differ = np.ascontiguousarray(actual).view(unsigned) != np.ascontiguousarray(golden).view(unsigned)
    where = np.argwhere(differ)
    return [tuple(int(c) for c in w) for w in where[:limit]], len(where)


def main(argv=None):
    global FLAWED
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--cases", type=int, default=300)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--show", type=int, default=5, help="mismatching elements printed per case")
    parser.add_argument("--flawed", action="store_true", help="seed a bug into the candidate")
    args = parser.parse_args(argv)
    FLAWED = args.flawed
    rng = np.random.default_rng(args.seed)
    failed = 0
    for case in range(args.cases):
        what, actual, golden = make_case(rng)
        where, count = mismatches(actual, golden, args.show)
        if where is None:
            print("case %d (%s): shape/dtype %s %s, dmlref %s %s" % (case, what, actual.shape, actual.dtype,
                                                                      golden.shape, golden.dtype))
            failed += 1
        elif count:
            failed += 1
            if failed <= 10:
                print("case %d (%s): %d of %d elements differ" % (case, what, count, golden.size))
                for c in where:
                    a, g = actual[c], golden[c]
                    print("    at %s: candidate %r (0x%s), dmlref %r (0x%s)" % (
                        list(c), a, a.tobytes()[::-1].hex(), g, g.tobytes()[::-1].hex()))
    print("%d of %d cases match dmlref bit for bit" % (args.cases - failed, args.cases))
    return 0 if failed == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
