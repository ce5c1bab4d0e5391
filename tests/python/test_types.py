"""Every function x the eleven data types x the four index types, against numpy's own operators
(take, take_along_axis, fancy indexing, put_along_axis), bit for bit, on strided inputs."""

import numpy as np
import pytest

import dmlref
from conftest import DATA_TYPES, INDEX_TYPES, assert_same_bits, random_values, sentinel_like

CASES = [(d, i) for d in DATA_TYPES for i in INDEX_TYPES]
IDS = ["%s-%s" % (np.dtype(d).name, np.dtype(i).name) for d, i in CASES]


def index_values(rng, shape, n, itype):
    """Indices into a dimension of size n; signed types get negative values too."""
    low = -n if np.dtype(itype).kind == "i" else 0
    return rng.integers(low, n, size=shape).astype(itype)


def positive(idx, n):
    return np.where(idx.astype(np.int64) < 0, idx.astype(np.int64) + n, idx.astype(np.int64))


def transposed(a):
    """a's values in a view with transposed strides (same shape, not contiguous)."""
    return np.ascontiguousarray(a.T).T


@pytest.mark.parametrize("dtype,itype", CASES, ids=IDS)
def test_gather(rng, dtype, itype):
    x = transposed(random_values(rng, (5, 7), dtype))
    idx = index_values(rng, (4,), 5, itype)
    assert_same_bits(dmlref.gather(x, idx, 0), np.take(x, positive(idx, 5), axis=0))
    idx1 = index_values(rng, (2, 3), 7, itype)
    # 2-D indices along the last axis need D = 3: x as {1, 5, 7}, Axis 2, IndexDimensions 2.
    expected = np.take(x, positive(idx1, 7), axis=1)
    out = sentinel_like((5, 2, 3), dtype)
    assert dmlref.gather(x[None], idx1, 2, out=out) is out
    assert_same_bits(out, expected.reshape(5, 2, 3))
    assert_same_bits(dmlref.onnx.gather(x, idx1, axis=-1), np.take(x, positive(idx1, 7), axis=1))


@pytest.mark.parametrize("dtype,itype", CASES, ids=IDS)
def test_gather_elements(rng, dtype, itype):
    x = random_values(rng, (4, 6), dtype)[:, ::2]  # sliced: {4, 3}, strides {6, 2} elements
    idx = index_values(rng, (4, 5), 3, itype)
    assert_same_bits(dmlref.gather_elements(x, idx, 1), np.take_along_axis(x, positive(idx, 3), axis=1))
    idx0 = index_values(rng, (2, 3), 4, itype)
    assert_same_bits(dmlref.onnx.gather_elements(x, idx0, 0), np.take_along_axis(x, positive(idx0, 4), axis=0))


@pytest.mark.parametrize("dtype,itype", CASES, ids=IDS)
def test_gather_nd(rng, dtype, itype):
    x = random_values(rng, (4, 3, 2), dtype)
    rows = index_values(rng, (5,), 4, itype)
    cols = index_values(rng, (5,), 3, itype)
    idx = np.stack([rows, cols], axis=-1)  # {5, 2}: tuples of 2
    expected = x[positive(rows, 4), positive(cols, 3)]  # {5, 2}
    # D = 3: the output {5, 2} is padded to {1, 5, 2}.
    assert_same_bits(dmlref.gather_nd(x, idx), expected[None])
    assert_same_bits(dmlref.onnx.gather_nd(x, idx), expected)


@pytest.mark.parametrize("dtype,itype", CASES, ids=IDS)
def test_gather_nd1(rng, dtype, itype):
    x = random_values(rng, (2, 4, 3), dtype)
    idx = index_values(rng, (2, 5, 1), 4, itype)  # one batch dimension, tuples of 1
    expected = x[np.arange(2)[:, None], positive(idx[..., 0], 4)]  # {2, 5, 3}
    assert_same_bits(dmlref.gather_nd1(x, idx, batch_dimension_count=1), expected)
    assert_same_bits(dmlref.onnx.gather_nd(x, idx, batch_dims=1), expected)


def permutation_indices(rng, rows, cols, itype):
    """Each row a permutation of 0..cols-1 (no two updates collide), negative where signed."""
    idx = np.stack([rng.permutation(cols) for _ in range(rows)])
    if np.dtype(itype).kind == "i":
        idx = np.where(rng.integers(0, 2, size=idx.shape) == 1, idx - cols, idx)
    return idx.astype(itype)


@pytest.mark.parametrize("dtype,itype", CASES, ids=IDS)
@pytest.mark.parametrize("function", ["scatter", "scatter_elements"])
def test_scatter(rng, function, dtype, itype):
    x = transposed(random_values(rng, (3, 6), dtype))
    idx = permutation_indices(rng, 3, 6, itype)[:, :4]
    upd = random_values(rng, (3, 4), dtype)
    expected = x.copy()
    np.put_along_axis(expected, positive(idx, 6), upd, axis=1)
    assert_same_bits(getattr(dmlref, function)(x, idx, upd, 1), expected)
    onnx_function = getattr(dmlref.onnx, function)
    assert_same_bits(onnx_function(x, idx, upd, axis=1), expected)
    # In place: out is the input itself.
    y = x.copy()
    assert getattr(dmlref, function)(y, idx, upd, 1, out=y) is y
    assert_same_bits(y, expected)


@pytest.mark.parametrize("dtype,itype", CASES, ids=IDS)
def test_scatter_nd(rng, dtype, itype):
    x = random_values(rng, (4, 3, 2), dtype)
    flat = rng.permutation(12)[:5]  # distinct (row, col) pairs
    rows, cols = flat // 3, flat % 3
    if np.dtype(itype).kind == "i":
        rows = np.where(rng.integers(0, 2, size=5) == 1, rows - 4, rows)
    idx = np.stack([rows, cols], axis=-1).astype(itype)
    upd = random_values(rng, (5, 2), dtype)
    expected = x.copy()
    expected[positive(rows, 4), cols] = upd
    assert_same_bits(dmlref.scatter_nd(x, idx, upd[None]), expected)
    assert_same_bits(dmlref.onnx.scatter_nd(x, idx, upd), expected)
    out = sentinel_like(x.shape, dtype)
    assert dmlref.onnx.scatter_nd(x, idx, upd, out=out) is out
    assert_same_bits(out, expected)


@pytest.mark.parametrize("dtype", DATA_TYPES, ids=[np.dtype(d).name for d in DATA_TYPES])
def test_onnx_scatter_reductions(rng, dtype):
    """reduction add/mul/max/min against numpy's ufunc.at (which also applies updates in order).
    Small integers only: float16 and the narrow integer types stay exact or wrap as numpy does."""
    x = rng.integers(0, 5, size=(3, 4)).astype(dtype)
    idx = rng.integers(0, 4, size=(3, 6)).astype(np.int64)
    upd = rng.integers(0, 5, size=(3, 6)).astype(dtype)
    rows = np.repeat(np.arange(3)[:, None], 6, axis=1)
    for reduction, ufunc in [("add", np.add), ("mul", np.multiply), ("max", np.maximum), ("min", np.minimum)]:
        expected = x.copy()
        ufunc.at(expected, (rows, idx), upd)
        assert_same_bits(dmlref.onnx.scatter_elements(x, idx, upd, 1, reduction), expected)
        assert_same_bits(dmlref.scatter(x, idx, upd, 1, reduction=reduction), expected)
