"""A naive numpy oracle of the six DirectML operators and the ONNX ones, for the Python tests.

Written from shared/spec/operators.md (and docs/onnx.md for the ONNX mapping), element by element
with Python loops; it shares no code with dmlref and never imports it. Every function takes the
arrays at DirectML's padded rank D (the tests pad them), returns the expected output, or raises
OracleIndexError / OracleCollision for the calls dmlref must reject.
"""

import numpy as np


class OracleIndexError(Exception):
    pass


class OracleCollision(Exception):
    pass


def normalize(value, n, signed, policy):
    """An index value of IndicesTensor as a position in a dimension of size n."""
    value = int(value)
    if n == 0:  # nothing to address, not even by clamping
        raise OracleIndexError(value)
    if policy == "clamp":
        if not signed:
            return min(value, n - 1)
        value = max(-n, min(value, n - 1))
        return value + n if value < 0 else value
    if signed and -n <= value < 0:
        return value + n
    if 0 <= value < n:
        return value
    raise OracleIndexError(value)


def is_signed(indices):
    return np.asarray(indices).dtype.kind == "i"


def gather(inp, idx, axis, P, policy="error"):
    D = inp.ndim
    assert idx.ndim == D and all(s == 1 for s in idx.shape[: D - P])
    meaningful = idx.shape[D - P:]
    L = list(inp.shape[:axis]) + list(meaningful) + list(inp.shape[axis + 1:])
    if P == 0:
        out_shape = [1] + L
    else:
        assert all(s == 1 for s in L[: P - 1])
        out_shape = L[P - 1:]
    n = inp.shape[axis]
    signed = is_signed(idx)
    flat_idx = idx.reshape(meaningful)
    out = np.empty(L, dtype=inp.dtype)
    for j in np.ndindex(*meaningful):
        i = normalize(flat_idx[j], n, signed, policy)
        for outer in np.ndindex(*inp.shape[:axis]):
            for inner in np.ndindex(*inp.shape[axis + 1:]):
                out[outer + j + inner] = inp[outer + (i,) + inner]
    return out.reshape(out_shape)


def gather_elements(inp, idx, axis, policy="error"):
    assert idx.ndim == inp.ndim
    n = inp.shape[axis]
    signed = is_signed(idx)
    out = np.empty(idx.shape, dtype=inp.dtype)
    for c in np.ndindex(*idx.shape):
        src = list(c)
        src[axis] = normalize(idx[c], n, signed, policy)
        out[c] = inp[tuple(src)]
    return out


def nd_output_shape(in_shape, idx_shape, r, q, B):
    D = len(in_shape)
    in_a = list(in_shape[D - r:])
    idx_a = list(idx_shape[D - q:])
    K = idx_a[-1]
    M = (q - 1) + (r - B - K)
    return [1] * (D - M) + idx_a[: q - 1] + in_a[B + K: r]


def gather_nd1(inp, idx, r, q, B, policy="error"):
    D = inp.ndim
    in_a = inp.reshape(inp.shape[D - r:])
    idx_a = idx.reshape(idx.shape[D - q:])
    K = idx_a.shape[-1]
    signed = is_signed(idx)
    groups = idx_a.shape[: q - 1]  # batch dims, then the other tuple positions
    block = in_a.shape[B + K:]
    out = np.empty(tuple(groups) + tuple(block), dtype=inp.dtype)
    for g in np.ndindex(*groups):
        batch = g[:B]
        tup = tuple(normalize(idx_a[g + (k,)], in_a.shape[B + k], signed, policy) for k in range(K))
        out[g] = in_a[batch + tup]
    return out.reshape(nd_output_shape(inp.shape, idx.shape, r, q, B))


def scatter(inp, idx, upd, axis, policy="error", check_collisions=False):
    assert idx.shape == upd.shape and idx.ndim == inp.ndim
    out = inp.copy()
    n = inp.shape[axis]
    signed = is_signed(idx)
    # Every index value is checked before any collision (docs/errors.md, "Order of checks").
    targets = []
    for c in np.ndindex(*idx.shape):
        dst = list(c)
        dst[axis] = normalize(idx[c], n, signed, policy)
        targets.append((c, tuple(dst)))
    written = set()
    for c, dst in targets:  # row-major: the last update wins
        if check_collisions and dst in written:
            raise OracleCollision(c, dst)
        written.add(dst)
        out[dst] = upd[c]
    return out


def scatter_nd(inp, idx, upd, r, q, policy="error", check_collisions=False):
    D = inp.ndim
    out = inp.copy()
    out_a = out.reshape(inp.shape[D - r:])  # a view: inp.copy() is contiguous
    idx_a = idx.reshape(idx.shape[D - q:])
    K = idx_a.shape[-1]
    signed = is_signed(idx)
    groups = idx_a.shape[: q - 1]
    block = out_a.shape[K:]
    upd_a = upd.reshape(tuple(groups) + tuple(block))
    # Every index value is checked before any collision (docs/errors.md, "Order of checks").
    tuples = [(g, tuple(normalize(idx_a[g + (k,)], out_a.shape[k], signed, policy) for k in range(K)))
              for g in np.ndindex(*groups)]
    written = set()
    for g, tup in tuples:
        for b in np.ndindex(*block):
            if check_collisions and tup + b in written:
                raise OracleCollision(g, tup + b)
            written.add(tup + b)
        out_a[tup] = upd_a[g]
    return out


# ---- ONNX (natural ranks) ----

def onnx_gather(data, idx, axis, policy="error"):
    r = data.ndim
    axis = axis + r if axis < 0 else axis
    n = data.shape[axis]
    signed = is_signed(idx)
    for v in np.asarray(idx).reshape(-1):  # every value is checked, even for an empty output
        normalize(v, n, signed, policy)
    out = np.empty(data.shape[:axis] + idx.shape + data.shape[axis + 1:], dtype=data.dtype)
    for j in np.ndindex(*idx.shape):
        i = normalize(idx[j], n, signed, policy)
        for outer in np.ndindex(*data.shape[:axis]):
            for inner in np.ndindex(*data.shape[axis + 1:]):
                out[outer + j + inner] = data[outer + (i,) + inner]
    return out


def onnx_gather_elements(data, idx, axis, policy="error"):
    # DirectML's GatherElements at the natural rank (indices have data's rank), axis made non-negative.
    return gather_elements(data, idx, axis + data.ndim if axis < 0 else axis, policy)


def onnx_gather_nd(data, idx, batch_dims, policy="error"):
    K = idx.shape[-1]
    B = batch_dims
    signed = is_signed(idx)
    groups = idx.shape[:-1]
    block = data.shape[B + K:]
    out = np.empty(tuple(groups) + tuple(block), dtype=data.dtype)
    for g in np.ndindex(*groups):
        tup = tuple(normalize(idx[g + (k,)], data.shape[B + k], signed, policy) for k in range(K))
        out[g] = data[g[:B] + tup]
    return out


def onnx_scatter_elements(data, idx, upd, axis, policy="error"):
    axis = axis + data.ndim if axis < 0 else axis
    out = data.copy()
    n = data.shape[axis]
    signed = is_signed(idx)
    for c in np.ndindex(*idx.shape):
        dst = list(c)
        dst[axis] = normalize(idx[c], n, signed, policy)
        out[tuple(dst)] = upd[c]
    return out


def onnx_scatter_nd(data, idx, upd, policy="error"):
    out = data.copy()
    K = idx.shape[-1]
    signed = is_signed(idx)
    for g in np.ndindex(*idx.shape[:-1]):
        tup = tuple(normalize(idx[g + (k,)], data.shape[k], signed, policy) for k in range(K))
        out[tup] = upd[g]
    return out


def pad(a, D):
    """a left-padded with sizes of 1 to rank D (a view)."""
    a = np.asarray(a)
    return a.reshape((1,) * (D - a.ndim) + a.shape)

