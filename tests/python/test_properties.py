"""Property tests: random shapes (ranks 1-8 for the DirectML functions, 0-4 with empty sizes for
the ONNX ones), random layouts of every operand (transposed, sliced, broadcast, reversed,
Fortran), index types, index policies and out= views, against the naive oracle of oracle.py."""

import numpy as np
from hypothesis import assume, given
from hypothesis import strategies as st

import dmlref
import oracle
from conftest import DATA_TYPES, INDEX_TYPES, assert_same_bits, random_values, sentinel_like

LAYOUTS = ["c", "transposed", "sliced", "broadcast", "reversed", "fortran"]


def laid_out(values, layout, rng):
    """An array equal to `values` in the given memory layout (a view of a larger buffer)."""
    shape = values.shape
    if values.ndim == 0:
        return values.copy()
    if layout == "transposed" and values.ndim >= 2:
        perm = rng.permutation(values.ndim)
        return np.ascontiguousarray(values.transpose(perm)).transpose(np.argsort(perm))
    if layout == "sliced":
        big = np.zeros(tuple(2 * s + 1 for s in shape), dtype=values.dtype)
        view = big[tuple(slice(1, 1 + 2 * s, 2) for s in shape)]
        view[...] = values
        return view
    if layout == "broadcast" and values.size > 0:
        # Repeat one slice along a random dimension: stride 0 there (the values change to match).
        d = int(rng.integers(0, values.ndim))
        base = np.take(values, [0], axis=d)
        return np.broadcast_to(base, shape)
    if layout == "reversed" and values.ndim >= 1:
        d = int(rng.integers(0, values.ndim))
        flipped = np.flip(np.ascontiguousarray(np.flip(values, d)), d)
        return flipped
    if layout == "fortran":
        return np.asfortranarray(values)
    return np.ascontiguousarray(values)


@st.composite
def common(draw):
    seed = draw(st.integers(0, 2**32 - 1))
    return {
        "rng": np.random.default_rng(seed),
        "dtype": draw(st.sampled_from(DATA_TYPES)),
        "itype": draw(st.sampled_from(INDEX_TYPES)),
        "policy": draw(st.sampled_from(["error", "clamp"])),
        "layouts": draw(st.lists(st.sampled_from(LAYOUTS), min_size=4, max_size=4)),
        "threads": draw(st.sampled_from([1, 1, 2])),
        "all_or_nothing": draw(st.sampled_from([True, True, False])),
        "bad": draw(st.integers(0, 5)) == 0,  # some calls get out-of-range values
    }


def options(c):
    """The keywords every call takes, as drawn."""
    return dict(index_policy=c["policy"], threads=c["threads"], all_or_nothing=c["all_or_nothing"])


def sizes(draw, rank, high=3):
    return [draw(st.integers(1, high)) for _ in range(rank)]


def random_indices(c, shape, n_of, signed_ok=True):
    """Index values for each position; n_of(coordinate) is the size of the addressed dimension.
    Out of range values appear when c['bad'] (all policies) and always under clamp."""
    rng, itype = c["rng"], np.dtype(c["itype"])
    idx = np.empty(shape, dtype=itype)
    wild = c["bad"] or c["policy"] == "clamp"
    for pos in np.ndindex(*shape):
        n = n_of(pos)
        low = -n if itype.kind == "i" and signed_ok else 0
        if n == 0:  # an empty dimension: every value is out of range
            value = int(rng.integers(0 if itype.kind == "u" else -2, 3))
        elif wild and rng.integers(0, 4) == 0:
            info = np.iinfo(itype)
            value = int(rng.choice([info.max, info.min, n, -n - 1 if itype.kind == "i" else n + 7, 3 * n]))
            value = max(info.min, min(info.max, value))
        else:
            value = int(rng.integers(low, n))
        idx[pos] = value
    return idx


def strip_ones(a, keep):
    """a without some of its leading 1s (at least `keep` dimensions stay): padding restores them."""
    while a.ndim > keep and a.shape[0] == 1:
        a = a.reshape(a.shape[1:])
    return a


def expect(run, compute, out_shape, dtype, c, out_layout):
    """Runs dmlref (run(out)) with an out= view pre-filled with a sentinel, or without out=, and
    checks it against compute() (the oracle), including that a failed call wrote nothing."""
    try:
        expected = compute()
        failure = None
    except oracle.OracleIndexError:
        expected, failure = None, dmlref.IndexOutOfRangeError
    except oracle.OracleCollision:
        expected, failure = None, dmlref.Error
    use_out = out_layout != "broadcast"  # an out= is never broadcast; then no out= at all
    out = laid_out(sentinel_like(out_shape, dtype), out_layout if out_layout != "broadcast" else "c",
                   c["rng"]) if use_out else None
    before = None if out is None else out.copy()
    if failure is not None:
        try:
            run(out)
        except failure as e:
            if failure is dmlref.Error:
                assert e.code == "scatter_collision", e
            partly = e.output_partly_written  # only in one pass (all_or_nothing=False), only into out=
            assert not partly or (not c["all_or_nothing"] and out is not None), e
        else:
            raise AssertionError("dmlref accepted a call the oracle rejects")
        if out is not None and not partly:
            assert_same_bits(out, before)
        return
    result = run(out)
    if out is not None:
        assert result is out
    assert_same_bits(result, expected)


@given(common(), st.data())
def test_gather(c, data):
    D = data.draw(st.integers(1, 8))
    axis = data.draw(st.integers(0, D - 1))
    P = data.draw(st.integers(0, D))
    in_shape = sizes(data.draw, D)
    meaningful = sizes(data.draw, P)
    L = in_shape[:axis] + meaningful + in_shape[axis + 1:]
    for k in range(max(P - 1, 0)):  # the output must fit in D dimensions
        L[k] = 1
    in_shape = L[:axis] + [in_shape[axis]] + L[axis + P:]
    meaningful = L[axis: axis + P]
    rng = c["rng"]
    x = laid_out(random_values(rng, in_shape, c["dtype"]), c["layouts"][0], rng)
    n = in_shape[axis]
    idx_full = random_indices(c, [1] * (D - P) + meaningful, lambda pos: n)
    idx = laid_out(strip_ones(idx_full, 0), c["layouts"][1], rng)
    out_shape = ([1] + L) if P == 0 else L[P - 1:]
    expect(lambda out: dmlref.gather(x, idx, axis, P, out=out, **options(c)),
           lambda: oracle.gather(np.asarray(x), oracle.pad(idx, D), axis, P, c["policy"]),
           out_shape, c["dtype"], c, c["layouts"][3])


@given(common(), st.data())
def test_gather_elements(c, data):
    D = data.draw(st.integers(1, 8))
    axis = data.draw(st.integers(0, D - 1))
    in_shape = sizes(data.draw, D)
    idx_shape = list(in_shape)
    idx_shape[axis] = data.draw(st.integers(1, 4))
    rng = c["rng"]
    x = laid_out(random_values(rng, in_shape, c["dtype"]), c["layouts"][0], rng)
    idx = laid_out(random_indices(c, idx_shape, lambda pos: in_shape[axis]), c["layouts"][1], rng)
    expect(lambda out: dmlref.gather_elements(x, idx, axis, out=out, **options(c)),
           lambda: oracle.gather_elements(np.asarray(x), np.asarray(idx), axis, c["policy"]),
           idx_shape, c["dtype"], c, c["layouts"][3])


@st.composite
def nd_case(draw, batch):
    D = draw(st.integers(1, 8))
    r = draw(st.integers(1, D))
    q = draw(st.integers(1, D))
    B = draw(st.integers(0, min(r, q) - 1)) if batch else 0
    K = draw(st.integers(1, r - B))
    assume((q - 1) + (r - B - K) <= D)  # the output fits in D dimensions
    in_a = sizes(draw, r)
    idx_a = in_a[:B] + sizes(draw, q - 1 - B) + [K]
    return D, r, q, B, [1] * (D - r) + in_a, [1] * (D - q) + idx_a


def tuple_indices(c, idx_shape, in_shape, D, r, B):
    in_a = in_shape[D - r:]
    return random_indices(c, idx_shape, lambda pos: in_a[B + pos[-1]])


@given(common(), st.data(), st.booleans())
def test_gather_nd(c, data, nd1):
    D, r, q, B, in_shape, idx_shape = data.draw(nd_case(nd1))
    rng = c["rng"]
    x = laid_out(random_values(rng, in_shape, c["dtype"]), c["layouts"][0], rng)
    idx = laid_out(tuple_indices(c, idx_shape, in_shape, D, r, B), c["layouts"][1], rng)
    out_shape = oracle.nd_output_shape(in_shape, idx_shape, r, q, B)
    opts = options(c)
    if nd1:
        run = lambda out: dmlref.gather_nd1(x, idx, r, q, B, out=out, **opts)  # noqa: E731
    else:
        run = lambda out: dmlref.gather_nd(x, idx, r, q, out=out, **opts)  # noqa: E731
    expect(run, lambda: oracle.gather_nd1(np.asarray(x), np.asarray(idx), r, q, B, c["policy"]),
           out_shape, c["dtype"], c, c["layouts"][3])


@given(common(), st.data(), st.booleans(), st.booleans())
def test_scatter(c, data, collisions, in_place):
    D = data.draw(st.integers(1, 8))
    axis = data.draw(st.integers(0, D - 1))
    in_shape = sizes(data.draw, D)
    idx_shape = list(in_shape)
    idx_shape[axis] = data.draw(st.integers(1, in_shape[axis] + 1))
    rng = c["rng"]
    x = laid_out(random_values(rng, in_shape, c["dtype"]), c["layouts"][0], rng)
    idx = laid_out(random_indices(c, idx_shape, lambda pos: in_shape[axis]), c["layouts"][1], rng)
    upd = laid_out(random_values(rng, idx_shape, c["dtype"]), c["layouts"][2], rng)
    opts = dict(**options(c), check_collisions=collisions)
    compute = lambda: oracle.scatter(np.asarray(x), np.asarray(idx), np.asarray(upd), axis,  # noqa: E731
                                     c["policy"], collisions)
    if in_place and x.flags.writeable:
        y = x.copy(order="K") if c["layouts"][0] != "reversed" else np.flip(np.flip(x, 0).copy(), 0)
        before = y.copy()
        try:
            expected = compute()
        except (oracle.OracleIndexError, oracle.OracleCollision):
            try:
                dmlref.scatter(y, idx, upd, axis, out=y, **opts)
            except dmlref.Error as e:
                partly = e.output_partly_written
                assert not partly or not c["all_or_nothing"], e
            else:
                raise AssertionError("dmlref accepted a call the oracle rejects")
            if not partly:
                assert_same_bits(y, before)
            return
        assert dmlref.scatter(y, idx, upd, axis, out=y, **opts) is y
        assert_same_bits(y, expected)
        return
    expect(lambda out: dmlref.scatter(x, idx, upd, axis, out=out, **opts), compute,
           in_shape, c["dtype"], c, c["layouts"][3])


@given(common(), st.data(), st.booleans())
def test_scatter_nd(c, data, collisions):
    D, r, q, _, in_shape, idx_shape = data.draw(nd_case(False))
    rng = c["rng"]
    upd_shape = oracle.nd_output_shape(in_shape, idx_shape, r, q, 0)
    x = laid_out(random_values(rng, in_shape, c["dtype"]), c["layouts"][0], rng)
    idx = laid_out(tuple_indices(c, idx_shape, in_shape, D, r, 0), c["layouts"][1], rng)
    upd = laid_out(random_values(rng, upd_shape, c["dtype"]), c["layouts"][2], rng)
    expect(lambda out: dmlref.scatter_nd(x, idx, upd, r, q, out=out, check_collisions=collisions, **options(c)),
           lambda: oracle.scatter_nd(np.asarray(x), np.asarray(idx), np.asarray(upd), r, q, c["policy"], collisions),
           in_shape, c["dtype"], c, c["layouts"][3])


# ---- ONNX: natural ranks 0-4, empty sizes ----

def onnx_sizes(draw, rank):
    return [draw(st.integers(0, 3)) for _ in range(rank)]


@given(common(), st.data())
def test_onnx_gather(c, data):
    r = data.draw(st.integers(1, 4))
    q = data.draw(st.integers(0, 8 - r + 1 if r > 1 else 4).filter(lambda v: v <= 4))
    axis = data.draw(st.integers(-r, r - 1))
    shape = onnx_sizes(data.draw, r)
    idx_shape = onnx_sizes(data.draw, q)
    rng = c["rng"]
    x = laid_out(random_values(rng, shape, c["dtype"]), c["layouts"][0], rng)
    a = axis + r if axis < 0 else axis
    idx = laid_out(random_indices(c, idx_shape, lambda pos: shape[a]), c["layouts"][1], rng)
    out_shape = shape[:a] + idx_shape + shape[a + 1:]
    expect(lambda out: dmlref.onnx.gather(x, idx, axis, out=out, **options(c)),
           lambda: oracle.onnx_gather(np.asarray(x), np.asarray(idx), axis, c["policy"]),
           out_shape, c["dtype"], c, c["layouts"][3])


def onnx_elements_operands(c, data):
    """data and indices for GatherElements and ScatterElements (indices may be smaller than data off
    the axis), the axis (maybe negative) and their shapes."""
    r = data.draw(st.integers(1, 4))
    axis = data.draw(st.integers(-r, r - 1))
    a = axis + r if axis < 0 else axis
    shape = onnx_sizes(data.draw, r)
    idx_shape = [data.draw(st.integers(0, 3)) if d == a else data.draw(st.integers(0, s)) for d, s in enumerate(shape)]
    rng = c["rng"]
    x = laid_out(random_values(rng, shape, c["dtype"]), c["layouts"][0], rng)
    idx = laid_out(random_indices(c, idx_shape, lambda pos: shape[a]), c["layouts"][1], rng)
    return x, idx, axis, shape, idx_shape


@given(common(), st.data())
def test_onnx_gather_elements_smaller_indices(c, data):
    x, idx, axis, _, idx_shape = onnx_elements_operands(c, data)
    expect(lambda out: dmlref.onnx.gather_elements(x, idx, axis, out=out, **options(c)),
           lambda: oracle.onnx_gather_elements(np.asarray(x), np.asarray(idx), axis, c["policy"]),
           idx_shape, c["dtype"], c, c["layouts"][3])


@given(common(), st.data())
def test_onnx_gather_nd(c, data):
    r = data.draw(st.integers(1, 4))
    q = data.draw(st.integers(1, 4))
    B = data.draw(st.integers(0, min(r, q) - 1))
    K = data.draw(st.integers(1, r - B))
    shape = onnx_sizes(data.draw, r)
    idx_shape = shape[:B] + onnx_sizes(data.draw, q - 1 - B) + [K]
    out_shape = idx_shape[:-1] + shape[B + K:]
    assume(max(r, q, len(out_shape)) <= 8)
    rng = c["rng"]
    x = laid_out(random_values(rng, shape, c["dtype"]), c["layouts"][0], rng)
    idx = laid_out(random_indices(c, idx_shape, lambda pos: shape[B + pos[-1]]), c["layouts"][1], rng)
    expect(lambda out: dmlref.onnx.gather_nd(x, idx, B, out=out, **options(c)),
           lambda: oracle.onnx_gather_nd(np.asarray(x), np.asarray(idx), B, c["policy"]),
           out_shape, c["dtype"], c, c["layouts"][3])


@given(common(), st.data())
def test_onnx_scatter_elements(c, data):
    x, idx, axis, shape, idx_shape = onnx_elements_operands(c, data)
    rng = c["rng"]
    upd = laid_out(random_values(rng, idx_shape, c["dtype"]), c["layouts"][2], rng)
    expect(lambda out: dmlref.onnx.scatter_elements(x, idx, upd, axis, out=out, **options(c)),
           lambda: oracle.onnx_scatter_elements(np.asarray(x), np.asarray(idx), np.asarray(upd), axis, c["policy"]),
           shape, c["dtype"], c, c["layouts"][3])


@given(common(), st.data())
def test_onnx_scatter_nd(c, data):
    r = data.draw(st.integers(1, 4))
    q = data.draw(st.integers(1, 4))
    K = data.draw(st.integers(1, r))
    shape = onnx_sizes(data.draw, r)
    idx_shape = onnx_sizes(data.draw, q - 1) + [K]
    upd_shape = idx_shape[:-1] + shape[K:]
    assume(max(r, q, len(upd_shape)) <= 8)
    rng = c["rng"]
    x = laid_out(random_values(rng, shape, c["dtype"]), c["layouts"][0], rng)
    idx = laid_out(random_indices(c, idx_shape, lambda pos: shape[pos[-1]]), c["layouts"][1], rng)
    upd = laid_out(random_values(rng, upd_shape, c["dtype"]), c["layouts"][2], rng)
    expect(lambda out: dmlref.onnx.scatter_nd(x, idx, upd, out=out, **options(c)),
           lambda: oracle.onnx_scatter_nd(np.asarray(x), np.asarray(idx), np.asarray(upd), c["policy"]),
           shape, c["dtype"], c, c["layouts"][3])
