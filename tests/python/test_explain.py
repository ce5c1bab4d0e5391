"""dmlref.explain_* and dmlref.onnx.explain_* (docs/explain.md).

Every output element of small random cases is explained, for every function, index type and
policy, and checked against the operator's own result (the element named holds the output's bits)
and against numpy: a gather's source coordinate comes from numpy (take, take_along_axis, fancy
indexing, or oracle.py for DirectML's padded forms) run on an array of addresses; a scatter's
updates are those whose index addresses the element, listed in row-major order by the test and
counted with numpy.add.at. Then the worked examples of docs/explain.md, written out by hand, and
the errors."""

import ast
import inspect
import os
import re

import numpy as np
import pytest

import dmlref
import oracle
from conftest import DATA_TYPES, INDEX_TYPES, random_values

POLICIES = ["error", "clamp"]


def bits(a):
    a = np.array(a, order="C")
    return a.view("u%d" % a.dtype.itemsize)


def random_dtype(rng):
    return DATA_TYPES[int(rng.integers(0, len(DATA_TYPES)))]


def random_indices(rng, shape, n_of, itype, policy):
    """In-range values (negative ones too, for signed types); under clamp, also out-of-range ones."""
    itype = np.dtype(itype)
    info = np.iinfo(itype)
    out = np.empty(shape, itype)
    for pos in np.ndindex(*shape):
        n = n_of(pos)
        if policy == "clamp" and rng.integers(0, 3) == 0:
            wild = [n, n + 5, int(info.max)] + ([-n - 1, int(info.min)] if itype.kind == "i" else [])
            out[pos] = wild[int(rng.integers(0, len(wild)))]
        else:
            out[pos] = int(rng.integers(-n if itype.kind == "i" else 0, n))
    return out


def normalized(idx, n, policy):
    """numpy's view of an index array: every value as a position in a dimension of size n."""
    signed = idx.dtype.kind == "i"
    return np.vectorize(lambda v: oracle.normalize(v, n, signed, policy), otypes=[np.int64])(idx)


def clamp_of(value, n, signed, policy):
    """(clamped, clamped_to) as the policy leaves an index value."""
    v = int(value)
    if policy != "clamp" or ((-n if signed else 0) <= v < n):
        return False, None
    return True, (max(-n, min(v, n - 1)) if signed else min(v, n - 1))


def check_read(r, idx, n, dimension, policy, coordinate=None):
    """An IndexRead names an element of idx, holds its value and bits, and normalises it as numpy does."""
    if coordinate is not None:
        assert r.coordinate == tuple(coordinate)
    raw = idx[r.coordinate]
    signed = idx.dtype.kind == "i"
    assert r.value.dtype == idx.dtype and int(r.value) == int(raw)
    assert r.value_bits == int(bits(idx)[r.coordinate])
    assert (r.dimension, r.size) == (dimension, n)
    assert r.position == oracle.normalize(raw, n, signed, policy)
    assert (r.clamped, r.clamped_to) == clamp_of(raw, n, signed, policy)


def check_gather(explain, result, x, source, reads):
    """Explains every element of result: it names x's element at numpy's source address and holds
    its bits; reads(at) lists the expected (size, dimension, indices coordinate or None) reads."""
    assert result.shape == source.shape
    for at in np.ndindex(*result.shape):
        p = explain(at=at)
        assert (p.output, p.scatter, p.source, p.updates, p.reduction) == (at, False, "input", (), "none")
        assert p.value.dtype == result.dtype
        assert p.value_bits == int(bits(result)[at])
        assert p.input == tuple(int(c) for c in np.unravel_index(int(source[at]), x.shape))
        assert p.input_value_bits == int(bits(x)[p.input]) == p.value_bits
        expected = reads(at)
        assert len(p.indices) == len(expected)
        for r, (n, dimension, coordinate, idx, policy) in zip(p.indices, expected):
            check_read(r, idx, n, dimension, policy, coordinate)
            assert p.input[dimension] == r.position
        assert str(p).startswith("output[%s] = " % ",".join(map(str, at)))


def addresses(shape):
    return np.arange(int(np.prod(shape, dtype=np.int64)), dtype=np.int64).reshape(shape)


# ---- gathers ------------------------------------------------------------------------------------

@pytest.mark.parametrize("policy", POLICIES)
@pytest.mark.parametrize("itype", INDEX_TYPES)
def test_gather(rng, itype, policy):
    # (input, indices, axis): D = 2 with 1-D indices; D = 3 with IndexDimensions 2 (docs/python.md).
    for in_shape, idx_shape, axis in [((5, 3), (4,), 0), ((1, 3, 4), (2, 3), 2)]:
        D = len(in_shape)
        x = random_values(rng, in_shape, random_dtype(rng))
        n = in_shape[axis]
        idx = random_indices(rng, idx_shape, lambda pos: n, itype, policy)
        result = dmlref.gather(x, idx, axis, index_policy=policy)
        idx_p = oracle.pad(idx, D)
        source = oracle.gather(addresses(in_shape), idx_p, axis, idx.ndim, policy)
        check_gather(lambda at: dmlref.explain_gather(x, idx, axis, index_policy=policy, at=at), result, x, source,
                     lambda at: [(n, axis, None, idx_p, policy)])


@pytest.mark.parametrize("policy", POLICIES)
@pytest.mark.parametrize("itype", INDEX_TYPES)
def test_gather_elements(rng, itype, policy):
    axis = int(rng.integers(0, 2))
    x = random_values(rng, (3, 4), random_dtype(rng))
    idx_shape = [3, 4]
    idx_shape[axis] = int(rng.integers(2, 6))
    idx = random_indices(rng, idx_shape, lambda pos: x.shape[axis], itype, policy)
    result = dmlref.gather_elements(x, idx, axis, index_policy=policy)
    source = np.take_along_axis(addresses(x.shape), normalized(idx, x.shape[axis], policy), axis)
    check_gather(lambda at: dmlref.explain_gather_elements(x, idx, axis, index_policy=policy, at=at), result, x,
                 source, lambda at: [(x.shape[axis], axis, at, idx, policy)])


@pytest.mark.parametrize("policy", POLICIES)
@pytest.mark.parametrize("itype", INDEX_TYPES)
def test_gather_nd_and_nd1(rng, itype, policy):
    # (input, indices, BatchDimensionCount): natural ranks; the second pads input {2, 3} to D = 3.
    for in_shape, idx_shape, B in [((3, 4, 2), (2, 3, 2), 0), ((2, 3), (2, 2, 1), 0), ((2, 3, 4), (2, 3, 1), 1)]:
        r, q = len(in_shape), len(idx_shape)
        D = max(r, q)
        K = idx_shape[-1]
        x = random_values(rng, in_shape, random_dtype(rng))
        idx = random_indices(rng, idx_shape, lambda pos: in_shape[B + pos[-1]], itype, policy)
        x_p, idx_p = oracle.pad(x, D), oracle.pad(idx, D)
        source = oracle.gather_nd1(addresses(x_p.shape), idx_p, r, q, B, policy)
        if B == 0:
            result = dmlref.gather_nd(x, idx, index_policy=policy)
            explain = lambda at: dmlref.explain_gather_nd(x, idx, index_policy=policy, at=at)  # noqa: E731
        else:
            result = dmlref.gather_nd1(x, idx, batch_dimension_count=B, index_policy=policy)
            explain = lambda at: dmlref.explain_gather_nd1(x, idx, None, None, B, index_policy=policy, at=at)  # noqa
        check_gather(explain, result, x_p, source,
                     lambda at: [(in_shape[B + k], D - r + B + k, None, idx_p, policy) for k in range(K)])


@pytest.mark.parametrize("policy", POLICIES)
@pytest.mark.parametrize("itype", INDEX_TYPES)
def test_onnx_gathers(rng, itype, policy):
    # gather: a negative axis, and a 0-d index (a 0-d output).
    for shape, idx_shape, axis in [((3, 4), (2, 2), -1), ((4,), (), 0)]:
        a = axis % len(shape)
        data = random_values(rng, shape, random_dtype(rng))
        idx = random_indices(rng, idx_shape, lambda pos: shape[a], itype, policy)
        result = dmlref.onnx.gather(data, idx, axis, index_policy=policy)
        source = np.take(addresses(shape), normalized(idx, shape[a], policy), a)
        check_gather(lambda at: dmlref.onnx.explain_gather(data, idx, axis, index_policy=policy, at=at), result,
                     data, source, lambda at: [(shape[a], a, at[a:a + idx.ndim], idx, policy)])
    # gather_elements with indices smaller than data off the axis.
    data = random_values(rng, (3, 4), random_dtype(rng))
    idx = random_indices(rng, (2, 3), lambda pos: 3, itype, policy)
    result = dmlref.onnx.gather_elements(data, idx, -2, index_policy=policy)
    source = np.take_along_axis(addresses(data.shape)[:, :3], normalized(idx, 3, policy), 0)
    check_gather(lambda at: dmlref.onnx.explain_gather_elements(data, idx, -2, index_policy=policy, at=at), result,
                 data, source, lambda at: [(3, 0, at, idx, policy)])
    # gather_nd, batch_dims 0 and 1.
    data = random_values(rng, (2, 3, 4), random_dtype(rng))
    for B, idx_shape in [(0, (2, 2)), (1, (2, 1))]:
        idx = random_indices(rng, idx_shape, lambda pos: data.shape[B + pos[-1]], itype, policy)
        result = dmlref.onnx.gather_nd(data, idx, B, index_policy=policy)
        tuples = [normalized(idx[..., k], data.shape[B + k], policy) for k in range(idx.shape[-1])]
        source = addresses(data.shape)[tuple(tuples)] if B == 0 else addresses(data.shape)[np.arange(2), tuples[0]]
        check_gather(lambda at: dmlref.onnx.explain_gather_nd(data, idx, B, index_policy=policy, at=at), result,
                     data, source,
                     lambda at: [(data.shape[B + k], B + k, at[:idx.ndim - 1] + (k,), idx, policy)
                                 for k in range(idx.shape[-1])])


# ---- scatters -----------------------------------------------------------------------------------

def elements_writes(idx, axis, n, policy):
    """Scatter(Elements): (updates coordinate, target, [(indices coordinate, dimension)]) in row-major order."""
    writes = []
    for c in np.ndindex(*idx.shape):
        target = list(c)
        target[axis] = oracle.normalize(idx[c], n, idx.dtype.kind == "i", policy)
        writes.append((c, tuple(target), [(c, axis)]))
    return writes


def nd_writes(idx, out_shape, upd_shape, r, policy):
    """ScatterND at rank D (idx and out_shape padded): each tuple writes a block of updates."""
    D = len(out_shape)
    q = idx.ndim
    K = idx.shape[-1]
    block = out_shape[D - r + K:]
    lead = len(upd_shape) - (q - 1) - len(block)
    writes = []
    for g in np.ndindex(*idx.shape[:-1]):
        tup = tuple(oracle.normalize(idx[g + (k,)], out_shape[D - r + k], idx.dtype.kind == "i", policy)
                    for k in range(K))
        for b in np.ndindex(*block):
            writes.append(((0,) * lead + g + b, (0,) * (D - r) + tup + b,
                           [(g + (k,), D - r + k) for k in range(K)]))
    return writes


def check_scatter(explain, result, x, idx, upd, writes, policy):
    """Explains every element: the updates listed are exactly those whose index addresses it, in
    order (numpy.add.at counts them), and the element holds the operator's bits."""
    count = np.zeros(result.shape, np.int64)
    if writes:
        np.add.at(count, tuple(np.array([t for _, t, _ in writes]).T), 1)
    for at in np.ndindex(*result.shape):
        p = explain(at=at)
        assert (p.output, p.input, p.scatter, p.indices, p.reduction) == (at, at, True, (), "none")
        assert p.value.dtype == result.dtype
        assert p.value_bits == int(bits(result)[at])
        assert p.input_value_bits == int(bits(x)[at])
        expected = [w for w in writes if w[1] == at]
        assert len(p.updates) == count[at] == len(expected)
        assert [u.coordinate for u in p.updates] == [w[0] for w in expected]
        for u, (_, _, reads) in zip(p.updates, expected):
            assert u.value_bits == int(bits(upd)[u.coordinate]) == u.result_bits
            assert len(u.indices) == len(reads)
            for r, (coordinate, dimension) in zip(u.indices, reads):
                check_read(r, idx, result.shape[dimension], dimension, policy, coordinate)
        if expected:
            assert p.source == "updates" and p.winner is p.updates[-1]
            assert p.value_bits == p.updates[-1].value_bits
        else:
            assert p.source == "input" and p.winner is None and p.value_bits == p.input_value_bits


@pytest.mark.parametrize("policy", POLICIES)
@pytest.mark.parametrize("itype", INDEX_TYPES)
def test_scatter(rng, itype, policy):
    axis = int(rng.integers(0, 2))
    dtype = random_dtype(rng)
    x = random_values(rng, (3, 4), dtype)
    idx_shape = [3, 4]
    idx_shape[axis] = 6  # more updates than the axis has elements: collisions
    idx = random_indices(rng, idx_shape, lambda pos: x.shape[axis], itype, policy)
    upd = random_values(rng, idx_shape, dtype)
    result = dmlref.scatter(x, idx, upd, axis, index_policy=policy)
    explain = lambda at: dmlref.explain_scatter(x, idx, upd, axis, index_policy=policy, at=at)  # noqa: E731
    check_scatter(explain, result, x, idx, upd, elements_writes(idx, axis, x.shape[axis], policy), policy)
    assert dmlref.explain_scatter_elements(x, idx, upd, axis, index_policy=policy, at=(1, 2)) == explain((1, 2))


@pytest.mark.parametrize("policy", POLICIES)
@pytest.mark.parametrize("itype", INDEX_TYPES)
def test_scatter_nd(rng, itype, policy):
    # (input, indices): rows by 1-tuples, elements by 2-tuples, and indices of rank 3 padding input to D = 3.
    for in_shape, idx_shape in [((4, 3), (5, 1)), ((3, 2), (6, 2)), ((4, 3), (1, 5, 1))]:
        r = len(in_shape)
        D = max(r, len(idx_shape))
        dtype = random_dtype(rng)
        x = random_values(rng, in_shape, dtype)
        idx = random_indices(rng, idx_shape, lambda pos: in_shape[pos[-1]], itype, policy)
        upd_shape = oracle.nd_output_shape(oracle.pad(x, D).shape, idx_shape, r, len(idx_shape), 0)
        upd = random_values(rng, upd_shape, dtype)
        result = dmlref.scatter_nd(x, idx, upd, index_policy=policy)
        x_p, idx_p, upd_p = oracle.pad(x, D), oracle.pad(idx, D), oracle.pad(upd, D)
        writes = nd_writes(idx_p[(0,) * (D - len(idx_shape))], x_p.shape, upd_p.shape, r, policy)
        writes = [(u, t, [((0,) * (D - len(idx_shape)) + c, d) for c, d in reads]) for u, t, reads in writes]
        explain = lambda at: dmlref.explain_scatter_nd(x, idx, upd, index_policy=policy, at=at)  # noqa: E731
        check_scatter(explain, result, x_p, idx_p, upd_p, writes, policy)


@pytest.mark.parametrize("policy", POLICIES)
@pytest.mark.parametrize("itype", INDEX_TYPES)
def test_onnx_scatters(rng, itype, policy):
    dtype = random_dtype(rng)
    data = random_values(rng, (4, 3), dtype)
    idx = random_indices(rng, (5, 3), lambda pos: 4, itype, policy)
    upd = random_values(rng, (5, 3), dtype)
    check_scatter(lambda at: dmlref.onnx.explain_scatter(data, idx, upd, 0, index_policy=policy, at=at),
                  dmlref.onnx.scatter(data, idx, upd, 0, index_policy=policy), data, idx, upd,
                  elements_writes(idx, 0, 4, policy), policy)
    # Indices smaller than data off the axis: the elements outside them are data's.
    data = random_values(rng, (3, 4), dtype)
    idx = random_indices(rng, (2, 6), lambda pos: 4, itype, policy)
    upd = random_values(rng, (2, 6), dtype)
    check_scatter(lambda at: dmlref.onnx.explain_scatter_elements(data, idx, upd, -1, index_policy=policy, at=at),
                  dmlref.onnx.scatter_elements(data, idx, upd, -1, index_policy=policy), data, idx, upd,
                  elements_writes(idx, 1, 4, policy), policy)
    data = random_values(rng, (4, 3), dtype)
    idx = random_indices(rng, (5, 1), lambda pos: 4, itype, policy)
    upd = random_values(rng, (5, 3), dtype)
    check_scatter(lambda at: dmlref.onnx.explain_scatter_nd(data, idx, upd, index_policy=policy, at=at),
                  dmlref.onnx.scatter_nd(data, idx, upd, index_policy=policy), data, idx, upd,
                  nd_writes(idx, data.shape, upd.shape, 2, policy), policy)


REDUCE = {"add": np.add, "mul": np.multiply, "max": np.maximum, "min": np.minimum}


@pytest.mark.parametrize("reduction", ["add", "mul", "max", "min"])
def test_reductions_replay(rng, reduction):
    # Nonzero small values (no -0/+0 or NaN ties, whose choice numpy does not promise): replaying
    # the steps with numpy's arithmetic of the dtype (float16 rounding each step, integers
    # wrapping) gives every intermediate result and the output.
    for dtype in [np.float16, np.float32, np.float64, np.int8, np.uint8, np.int32, np.uint64]:
        values = np.array([v for v in range(-3, 4) if v != 0] if np.dtype(dtype).kind != "u" else [1, 2, 3, 200])
        data = rng.choice(values, size=(3, 4)).astype(dtype)
        idx = rng.integers(-3, 3, size=(5, 4)).astype(np.int64)
        upd = rng.choice(values, size=(5, 4)).astype(dtype)
        cases = [
            (dmlref.scatter(data, idx, upd, 0, reduction=reduction),
             lambda at: dmlref.explain_scatter(data, idx, upd, 0, reduction=reduction, at=at)),
            (dmlref.onnx.scatter_elements(data, idx, upd, 0, reduction),
             lambda at: dmlref.onnx.explain_scatter_elements(data, idx, upd, 0, reduction, at=at)),
            (dmlref.onnx.scatter_nd(data, idx[:, :1], upd, reduction),
             lambda at: dmlref.onnx.explain_scatter_nd(data, idx[:, :1], upd, reduction, at=at)),
        ]
        for result, explain in cases:
            for at in np.ndindex(*result.shape):
                p = explain(at)
                assert p.reduction == reduction
                value = np.array([data[at]], dtype)
                for u in p.updates:
                    with np.errstate(over="ignore"):
                        value = REDUCE[reduction](value, np.array([u.value], dtype))
                    assert u.result_bits == int(bits(value)[0])
                assert p.value_bits == int(bits(value)[0]) == int(bits(result)[at])
                assert p.source == ("updates" if p.updates else "input")


# ---- worked examples (docs/explain.md), written out by hand ----------------------------------------

F32 = np.float32


def test_worked_examples():
    x1 = dmlref.explain_gather(np.array([11, 12, 13, 14], F32), np.array([-1, -4, 0, 3, -2], np.int32), at=(4,))
    assert str(x1) == "output[4] = 13 (0x41500000) = input[2], from indices[4] = -2 → 2 (Axis 0)"
    assert x1.source_text() == "input[2], from indices[4] = -2 → 2 (Axis 0)"
    assert (x1.op, x1.output, x1.input, x1.value_bits, x1.value) == ("Gather", (4,), (2,), 0x41500000, F32(13))
    (r,) = x1.indices
    assert (r.coordinate, int(r.value), r.value.dtype, r.value_bits, r.position, r.dimension, r.size) == \
        ((4,), -2, np.int32, 0xFFFFFFFE, 2, 0, 4)

    g5 = dmlref.explain_gather(np.arange(1, 7, dtype=F32).reshape(1, 3, 2),
                               np.array([0, 1, 1, 2], np.uint32).reshape(1, 2, 2), 1, 2, at=(1, 0, 1))
    assert str(g5) == "output[1,0,1] = 4 (0x40800000) = input[0,1,1], from indices[0,1,0] = 1 → 1 (Axis 1)"

    x12 = dmlref.explain_gather(np.array([11, 12, 13, 14], F32), np.array([0, 4294967295], np.uint32), at=(1,),
                                index_policy="clamp")
    assert str(x12) == ("output[1] = 14 (0x41600000) = input[3], from indices[1] = 4294967295 → 3 "
                        "(Axis 0, clamped from 4294967295 to 3)")
    assert (x12.indices[0].clamped, x12.indices[0].clamped_to) == (True, 3)

    ge1 = dmlref.explain_gather_elements(np.arange(1, 10, dtype=F32).reshape(3, 3),
                                         np.array([[1, 2, 0], [2, 0, 0]], np.uint32), at=(0, 1))
    assert str(ge1) == "output[0,1] = 8 (0x41000000) = input[2,1], from indices[0,1] = 2 → 2 (Axis 0)"

    gn2 = dmlref.explain_gather_nd(np.arange(8, dtype=F32).reshape(1, 2, 2, 2),
                                   np.array([0, 1, 1, 0], np.uint32).reshape(1, 1, 2, 2), 3, 2, at=(0, 0, 1, 0))
    assert str(gn2) == ("output[0,0,1,0] = 4 (0x40800000) = input[0,1,0,0], from indices[0,0,1,0] = 1 → 1 "
                        "(dimension 1), indices[0,0,1,1] = 0 → 0 (dimension 2)")
    assert gn2.tuples

    gn12 = dmlref.explain_gather_nd1(np.arange(12, dtype=F32).reshape(1, 3, 2, 2),
                                     np.array([0, 0, 1, 1, 1, 1, 0, 0, 0, 1, 1, 0], np.uint32).reshape(1, 3, 2, 2),
                                     3, 3, 1, at=(0, 0, 2, 1))
    assert str(gn12) == ("output[0,0,2,1] = 10 (0x41200000) = input[0,2,1,0], from indices[0,2,1,0] = 1 → 1 "
                         "(dimension 2), indices[0,2,1,1] = 0 → 0 (dimension 3)")

    s1 = (np.arange(5, dtype=F32), np.array([3, 1, 3, 0], np.uint32), np.array([5, 6, 7, 8], F32))
    assert str(dmlref.explain_scatter(*s1, at=(3,))) == (
        "output[3] = 7 (0x40e00000) = updates[2], the last of 2 updates to it (the last write wins):\n"
        "  input[3] = 3 (0x40400000)\n"
        "  updates[0] = 5 (0x40a00000), from indices[0] = 3 → 3 (Axis 0)\n"
        "  updates[2] = 7 (0x40e00000), from indices[2] = 3 → 3 (Axis 0)")
    assert str(dmlref.explain_scatter(*s1, at=(2,))) == "output[2] = 2 (0x40000000) = input[2] (no update addresses it)"
    added = dmlref.explain_scatter(*s1, at=(3,), reduction="add")
    assert str(added) == (
        "output[3] = 15 (0x41700000) = input[3] add 2 updates, in this order:\n"
        "  input[3] = 3 (0x40400000)\n"
        "  add updates[0] = 5 (0x40a00000), from indices[0] = 3 → 3 (Axis 0); now 8 (0x41000000)\n"
        "  add updates[2] = 7 (0x40e00000), from indices[2] = 3 → 3 (Axis 0); now 15 (0x41700000)")
    assert [u.result_bits for u in added.updates] == [0x41000000, 0x41700000] and added.winner is None

    # float16 rounds after every step: 2048 + 1 + 1 + 1 stays 2048.
    f16 = dmlref.explain_scatter(np.array([2048], np.float16), np.zeros(3, np.int32), np.ones(3, np.float16),
                                 at=(0,), reduction="add")
    assert str(f16) == (
        "output[0] = 2048 (0x6800) = input[0] add 3 updates, in this order:\n"
        "  input[0] = 2048 (0x6800)\n"
        "  add updates[0] = 1 (0x3c00), from indices[0] = 0 → 0 (Axis 0); now 2048 (0x6800)\n"
        "  add updates[1] = 1 (0x3c00), from indices[1] = 0 → 0 (Axis 0); now 2048 (0x6800)\n"
        "  add updates[2] = 1 (0x3c00), from indices[2] = 0 → 0 (Axis 0); now 2048 (0x6800)")

    x11 = dmlref.explain_scatter_nd(np.arange(1, 13, dtype=F32).reshape(4, 3), np.array([[3], [-4]], np.int64),
                                    np.arange(10, 70, 10, dtype=F32).reshape(2, 3), at=(0, 1))
    assert str(x11) == ("output[0,1] = 50 (0x42480000) = updates[1,1], the only update to it:\n"
                        "  input[0,1] = 2 (0x40000000)\n"
                        "  updates[1,1] = 50 (0x42480000), from indices[1,0] = -4 → 0 (dimension 0)")

    # ONNX: natural ranks, lowercase axis; a 0-d index gives a 0-d output, explained at ().
    o = dmlref.onnx.explain_gather(np.array([11, 12, 13, 14], F32), np.array(2, np.int64), at=())
    assert str(o) == "output[] = 13 (0x41500000) = input[2], from indices[] = 2 → 2 (axis 0)"
    assert (o.op, o.onnx, o.output, o.indices[0].coordinate) == ("Gather", True, (), ())


def test_nan_payloads_and_negative_zero_survive():
    x = np.array([0x7FA00001, 0x80000000, 0xFFC00123], np.uint32).view(F32)  # a signalling NaN, -0, a -NaN
    for k, text in enumerate(["nan (0x7fa00001)", "-0 (0x80000000)", "-nan (0xffc00123)"]):
        p = dmlref.explain_gather(x, np.array([k]), at=(0,))
        assert p.value_bits == p.input_value_bits == int(x.view(np.uint32)[k])
        assert int(np.array(p.value).view(np.uint32)) == p.value_bits  # the numpy scalar has the bits
        assert str(p).startswith("output[0] = %s = input[%d]" % (text, k))


def test_coordinates_accepted():
    x = np.arange(6.0).reshape(2, 3)
    p = dmlref.explain_gather(x, np.array([1]), at=(0, 2))
    for at in [[0, 2], np.array([0, 2]), (np.int64(0), np.uint8(2))]:
        assert dmlref.explain_gather(x, np.array([1]), at=at) == p
    assert dmlref.explain_gather(np.arange(4.0), np.array([3, 1]), at=1).input == (1,)  # an int: 1-D
    # The padded rank D: a 1-D index into a 2-D input counts in D = 2, as the result does.
    assert dmlref.gather(x, np.array([1])).shape == (1, 3) and p.indices[0].coordinate == (0, 0)


# ---- errors -------------------------------------------------------------------------------------

def test_coordinate_out_of_range():
    x, idx = np.arange(15, dtype=F32).reshape(5, 3), np.array([4, 0, -1, 2])
    for at, field_index, expected, actual in [((4, 0), 0, "0..3", "4"), ((0, 3), 1, "0..2", "3"),
                                              ((-1, 0), 0, "0..3", "-1"), ((1,), None, "2", "1"),
                                              ((0, 0, 0), None, "2", "3")]:
        with pytest.raises(dmlref.Error) as info:
            dmlref.explain_gather(x, idx, at=at)
        e = info.value
        assert not isinstance(e, dmlref.IndexOutOfRangeError)
        assert (e.code, e.operator, e.tensor, e.position) == ("coordinate_out_of_range", "Gather", "OutputTensor", at)
        assert (e.field_index, e.expected, e.actual) == (field_index, expected, actual)
    assert str(info.value).startswith("Gather: coordinate [0, 0, 0] is not an element of OutputTensor")
    # ONNX counts in natural ranks and names ONNX's tensors; an empty output has no element.
    with pytest.raises(dmlref.Error) as info:
        dmlref.onnx.explain_gather(x, idx, 0, at=(0, 0, 0))
    assert (info.value.code, info.value.tensor, info.value.expected) == ("coordinate_out_of_range", "output", "2")
    with pytest.raises(dmlref.Error) as info:
        dmlref.onnx.explain_gather(x, np.zeros(0, np.int64), 0, at=(0, 0))
    assert info.value.code == "coordinate_out_of_range"
    with pytest.raises(dmlref.Error) as info:
        dmlref.onnx.explain_scatter_nd(np.zeros((2, 0)), np.zeros((1, 1), np.int64), np.zeros((1, 0)), at=(2, 0))
    assert info.value.code == "coordinate_out_of_range"


def operator_error(run):
    with pytest.raises(dmlref.Error) as info:
        run()
    e = info.value
    return type(e), str(e), {k: getattr(e, k) for k in ("code", "operator", "tensor", "field", "expected", "actual",
                                                       "position", "target_dimension", "target_size")}


def test_operator_errors_pass_through_first():
    x = np.arange(15, dtype=F32).reshape(5, 3)
    bad = np.array([0, 5])
    # An index out of range comes before the coordinate, which is out of range too.
    assert operator_error(lambda: dmlref.explain_gather(x, bad, at=(9, 9))) == \
        operator_error(lambda: dmlref.gather(x, bad))
    assert operator_error(lambda: dmlref.explain_gather(x, bad, at=(9, 9)))[0] is dmlref.IndexOutOfRangeError
    # An attribute error (Axis 2 in D = 2), and the onnx functions' errors.
    assert operator_error(lambda: dmlref.explain_gather(x, np.array([0]), 2, at=(0, 0))) == \
        operator_error(lambda: dmlref.gather(x, np.array([0]), 2))
    assert operator_error(lambda: dmlref.onnx.explain_scatter_elements(x, bad[:, None], x[:2, :1], at=(0, 0))) == \
        operator_error(lambda: dmlref.onnx.scatter_elements(x, bad[:, None], x[:2, :1]))
    # A collision, when check_collisions asks for it.
    collide = (np.arange(4, dtype=F32), np.array([1, 1]), np.array([5, 6], F32))
    t, _, attrs = operator_error(lambda: dmlref.explain_scatter(*collide, check_collisions=True, at=(0,)))
    assert (t, attrs["code"]) == (dmlref.Error, "scatter_collision")
    assert operator_error(lambda: dmlref.explain_scatter(*collide, check_collisions=True, at=(0,))) == \
        operator_error(lambda: dmlref.scatter(*collide, check_collisions=True))


def test_options_that_change_no_explanation():
    x = np.arange(15, dtype=F32).reshape(5, 3)
    good, bad = np.array([4, 0]), np.array([0, 5])
    expected = str(dmlref.explain_gather(x, good, at=(1, 2)))
    for options in [{"all_or_nothing": False}, {"allow_scratch": False}, {"binding_rules": "directml"},
                    {"feature_level": "6_4"}]:
        assert str(dmlref.explain_gather(x, good, at=(1, 2), **options)) == expected, options
        # Every value is checked before anything is explained: the same error, nothing partly written.
        assert operator_error(lambda: dmlref.explain_gather(x, bad, at=(0, 0), **options)) == \
            operator_error(lambda: dmlref.explain_gather(x, bad, at=(0, 0))), options
        with pytest.raises(dmlref.IndexOutOfRangeError) as info:
            dmlref.explain_gather(x, bad, at=(0, 0), **options)
        assert info.value.output_partly_written is False


def test_argument_errors():
    x, idx = np.arange(4.0), np.array([1])
    with pytest.raises(TypeError, match="missing required keyword-only argument 'at'"):
        dmlref.explain_gather(x, idx)
    with pytest.raises(TypeError, match="unexpected keyword argument 'out'"):
        dmlref.explain_gather(x, idx, at=(0,), out=np.empty(1))
    for at, match in [("0", "at must be a tuple of ints"), (0.0, "at must be a tuple of ints"),
                      ((0.5,), r"at\[0\] must be an int"), ((True,), r"at\[0\] must be an int, not bool"),
                      (None, "at must be a tuple of ints")]:
        with pytest.raises(TypeError, match=match):
            dmlref.explain_gather(x, idx, at=at)
    with pytest.raises(TypeError, match="dmlref.onnx.explain_scatter_nd"):
        dmlref.onnx.explain_scatter_nd(x, idx[:, None], x[:1], at={0})
    with pytest.raises(TypeError, match="dtype"):
        dmlref.explain_gather(np.zeros(2, bool), idx, at=(0,))


# ---- the package: signatures, stubs, docstrings ------------------------------------------------------

EXPLAINED = ["gather", "gather_elements", "gather_nd", "gather_nd1", "scatter", "scatter_elements", "scatter_nd"]
ONNX_EXPLAINED = ["gather", "gather_elements", "gather_nd", "scatter", "scatter_elements", "scatter_nd"]


def stub_parameters(path, name):
    for node in ast.parse(open(path).read()).body:
        if isinstance(node, ast.FunctionDef) and node.name == name:
            a = node.args
            return [x.arg for x in a.args], [x.arg for x in a.kwonlyargs]
    raise AssertionError("%s has no %s" % (path, name))


@pytest.mark.parametrize("module,names", [(dmlref, EXPLAINED), (dmlref.onnx, ONNX_EXPLAINED)])
def test_signatures_stubs_and_docstrings(module, names):
    package = os.path.dirname(dmlref.__file__)
    stub = os.path.join(package, "__init__.pyi" if module is dmlref else "onnx.pyi")
    for name in names:
        operator_parameters = inspect.signature(getattr(module, name)).parameters
        explain = getattr(module, "explain_" + name)
        parameters = inspect.signature(explain).parameters
        # The operator's parameters and defaults, `at` (required, keyword-only) in place of `out`.
        assert [p for p in parameters] == ["at" if p == "out" else p for p in operator_parameters]
        assert parameters["at"].kind is inspect.Parameter.KEYWORD_ONLY
        assert parameters["at"].default is inspect.Parameter.empty
        for p in parameters.values():
            if p.name != "at":
                assert p.default == operator_parameters[p.name].default and p.kind == operator_parameters[p.name].kind
        positional = [p.name for p in parameters.values() if p.kind is not inspect.Parameter.KEYWORD_ONLY]
        keyword = [p.name for p in parameters.values() if p.kind is inspect.Parameter.KEYWORD_ONLY]
        assert stub_parameters(stub, "explain_" + name) == (positional, keyword)
        assert "at:" in explain.__doc__ and "coordinate_out_of_range" in explain.__doc__
        # Every option is described, in the operator's docstring and the explanation's.
        for p in parameters.values():
            if p.kind is inspect.Parameter.KEYWORD_ONLY and p.name != "at":
                assert re.search(r"\b%s\b" % p.name, explain.__doc__), (name, p.name)
                assert re.search(r"\b%s:" % p.name, getattr(module, name).__doc__), (name, p.name)
    assert "explain_" + names[0] in module.__all__
