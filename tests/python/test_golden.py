"""dmlref.testing.assert_golden (docs/python.md): deliberately wrong candidates and the reports they
get, written out by hand; the error's attributes; shapes and dtypes; torch candidates; tolerances
(the C++ helper's ulps and absolute modes, dmlref/gtest.hpp); and the errors of a bad call."""

import pickle

import numpy as np
import pytest

import dmlref
from dmlref.testing import GoldenMismatchError, Mismatch, assert_golden

F32 = np.float32
X1 = (np.array([11, 12, 13, 14], F32), np.array([-1, -4, 0, 3, -2], np.int32))  # the gather X-1: [14, 11, 11, 14, 13]


def wrong_x1():
    return np.array([0x7FC00000, 0, 0x41300000, 0x41600000, 0x80000000], np.uint32).view(F32)  # nan, 0, 11, 14, -0


def report(run):
    with pytest.raises(GoldenMismatchError) as info:
        run()
    assert isinstance(info.value, AssertionError)
    return info.value


def test_a_correct_candidate_passes():
    assert_golden(np.array([14, 11, 11, 14, 13], F32), "gather", *X1)
    assert_golden(np.array([14, 0, 11, 0, 11, 0, 14, 0, 13], F32)[::2], dmlref.gather, *X1, axis=0, threads=2)
    assert_golden(np.zeros((0, 3), F32), "onnx.gather", np.zeros((4, 3), F32), np.zeros(0, np.int64))


def test_the_report_explains_the_first_mismatches():
    e = report(lambda: assert_golden(wrong_x1(), "gather", *X1))
    assert str(e) == (
        "actual differs from dmlref.gather (bit-exact) in 3 of 5 elements (60%), float32 (5,):\n"
        "  output[0]: expected 14 (0x41600000), got nan (0x7fc00000); expected = input[3], from indices[0] = -1 → 3 (Axis 0)\n"
        "  output[1]: expected 11 (0x41300000), got 0 (0x00000000); expected = input[0], from indices[1] = -4 → 0 (Axis 0)\n"
        "  output[4]: expected 13 (0x41500000), got -0 (0x80000000); expected = input[2], from indices[4] = -2 → 2 (Axis 0)")
    assert (e.op, e.kind, e.mismatch_count, e.element_count) == ("dmlref.gather", "values", 3, 5)
    assert e.expected.view(np.uint32).tolist() == [0x41600000, 0x41300000, 0x41300000, 0x41600000, 0x41500000]
    assert e.actual.view(np.uint32).tolist() == wrong_x1().view(np.uint32).tolist()
    assert [m.coordinate for m in e.mismatches] == [(0,), (1,), (4,)]
    assert [(m.expected_bits, m.actual_bits) for m in e.mismatches] == \
        [(0x41600000, 0x7FC00000), (0x41300000, 0), (0x41500000, 0x80000000)]
    assert e.mismatches[0].expected == F32(14) and e.mismatches[0].expected.dtype == F32
    assert ["  " + m.line for m in e.mismatches] == str(e).split("\n")[1:]
    assert e.explanations == [dmlref.explain_gather(*X1, at=(k,)) for k in (0, 1, 4)]
    assert all(isinstance(m, Mismatch) for m in e.mismatches)


def test_max_explained():
    e = report(lambda: assert_golden(wrong_x1(), "gather", *X1, max_explained=1))
    assert str(e).split("\n")[2:] == ["  and 2 more: output[1], output[4]"]
    assert len(e.mismatches) == len(e.explanations) == 1 and e.mismatch_count == 3
    e = report(lambda: assert_golden(wrong_x1(), "gather", *X1, max_explained=0))
    assert str(e) == ("actual differs from dmlref.gather (bit-exact) in 3 of 5 elements (60%), float32 (5,):\n"
                      "  at output[0], output[1], output[4]")
    assert e.mismatches == [] and e.explanations == []
    # The unexplained ones are listed by coordinate, ten at most.
    table = np.arange(1, 25, dtype=np.int16).reshape(2, 12)
    e = report(lambda: assert_golden(np.zeros((2, 12), np.int16), "onnx.gather", table, np.array([1, 0])))
    assert str(e).split("\n")[4] == ("  and 21 more: output[0,3], output[0,4], output[0,5], output[0,6], output[0,7], "
                                     "output[0,8], output[0,9], output[0,10], output[0,11], output[1,0], ...")


def test_the_gtest_helpers_line_in_both_conventions():
    data = np.array([[0, 0.25], [1, 1.25], [2, 1.5], [3, 3.5]], np.float16)
    idx = np.array([0, 1, 3, -2])
    candidate = dmlref.onnx.gather(data, idx)
    candidate[3, 1] = 0
    e = report(lambda: assert_golden(candidate, dmlref.onnx.gather, data, idx))
    assert str(e) == ("actual differs from dmlref.onnx.gather (bit-exact) in 1 of 8 elements (12.5%), float16 (4, 2):\n"
                      "  output[3,1]: expected 1.5 (0x3e00), got 0 (0x0000); expected = input[2,1], "
                      "from indices[3] = -2 → 2 (axis 0)")
    # The DirectML function pads indices to D = 2: the explanation counts in that rank.
    e = report(lambda: assert_golden(candidate, "dmlref.gather", data, idx, 0))
    assert str(e).split("\n")[1] == ("  output[3,1]: expected 1.5 (0x3e00), got 0 (0x0000); expected = input[2,1], "
                                     "from indices[0,3] = -2 → 2 (Axis 0)")
    # A 0-d output is explained at ().
    e = report(lambda: assert_golden(np.array(12, F32), "onnx.gather", X1[0], np.array(2)))
    assert str(e) == ("actual differs from dmlref.onnx.gather (bit-exact) in 1 of 1 elements (100%), float32 ():\n"
                      "  output[]: expected 13 (0x41500000), got 12 (0x41400000); expected = input[2], "
                      "from indices[] = 2 → 2 (axis 0)")


def test_a_scatter_whose_candidate_lets_the_first_write_win():
    s1 = (np.arange(5, dtype=F32), np.array([3, 1, 3, 0], np.uint32), np.array([5, 6, 7, 8], F32))
    e = report(lambda: assert_golden(np.array([8, 6, 2, 5, 4], F32), "scatter", *s1))
    assert str(e) == (
        "actual differs from dmlref.scatter (bit-exact) in 1 of 5 elements (20%), float32 (5,):\n"
        "  output[3]: expected 7 (0x40e00000), got 5 (0x40a00000); expected = updates[2], from indices[2] = 3 → 3 "
        "(Axis 0), the last of 2 updates (updates[0], updates[2])")
    assert [u.coordinate for u in e.explanations[0].updates] == [(0,), (2,)]
    # A reduction: the same call adds.
    e = report(lambda: assert_golden(np.array([8, 7, 2, 10, 4], F32), "scatter_elements", *s1, reduction="add"))
    assert str(e).split("\n")[1] == (
        "  output[3]: expected 15 (0x41700000), got 10 (0x41200000); expected = input[3] = 3 (0x40400000), "
        "add updates[0] = 5 (0x40a00000) → 8 (0x41000000), add updates[2] = 7 (0x40e00000) → 15 (0x41700000)")


def test_shape_and_dtype_mismatches():
    golden = np.array([14, 11, 11, 14, 13], F32)
    cases = [
        (golden[None], "shape", "actual has shape (1, 5), but dmlref.gather gives shape (5,) (float32); they differ "
                                "only in leading 1s (the DirectML functions give the padded rank)"),
        (golden[:4], "shape", "actual has shape (4,), but dmlref.gather gives shape (5,) (float32)"),
        (golden.astype(np.float64), "dtype", "actual has dtype float64, but dmlref.gather gives float32 (shape (5,))"),
        (golden.view(np.int32), "dtype", "actual has dtype int32, but dmlref.gather gives float32 (shape (5,))"),
        (golden[:4].astype(np.float16), "shape", "actual is float16 of shape (4,), but dmlref.gather gives float32 "
                                                 "of shape (5,): the dtype and the shape differ"),
        ([14.0, 11, 11, 14, 13], "dtype", "actual has dtype float64, but dmlref.gather gives float32 (shape (5,))"),
    ]
    for candidate, kind, message in cases:
        e = report(lambda: assert_golden(candidate, "gather", *X1))
        assert (str(e), e.kind, e.mismatches, e.mismatch_count) == (message, kind, [], 0)
        assert e.expected.view(np.uint32).tolist() == golden.view(np.uint32).tolist()


def test_torch_candidates():
    torch = pytest.importorskip("torch")
    golden = torch.tensor([14, 11, 11, 14, 13], dtype=torch.float32)
    assert_golden(golden, "gather", *X1)
    assert_golden(golden.clone().requires_grad_(), "gather", *X1)
    assert_golden(golden, "gather", torch.from_numpy(X1[0]), torch.from_numpy(X1[1]))  # torch operands too
    e = report(lambda: assert_golden(torch.from_numpy(wrong_x1()), "gather", *X1))
    assert str(e) == str(report(lambda: assert_golden(wrong_x1(), "gather", *X1)))
    e = report(lambda: assert_golden(golden.to(torch.bfloat16), "gather", *X1))
    assert (e.kind, str(e)) == ("dtype", "actual has dtype torch.bfloat16, but dmlref.gather gives float32 (shape (5,))")
    # A strided view: its first column, [[1], [3]], where the golden is [[2], [3]].
    half = torch.tensor([[1, 2], [3, 4]], dtype=torch.float16)
    e = report(lambda: assert_golden(half[:, :1], "onnx.gather_elements", half, np.array([[1], [0]]), 1))
    assert str(e).split("\n")[1:] == [
        "  output[0,0]: expected 2 (0x4000), got 1 (0x3c00); expected = input[0,1], from indices[0,0] = 1 → 1 (axis 1)"]


def u16(*values):
    return np.array(values, np.uint16).view(np.float16)


def test_tolerances_are_the_cpp_helpers():
    # ulps: distance on the line of float16 values; -0 and +0 are one point; across zero the
    # smallest subnormals are 2 apart.
    pick = np.array([0, 1, 2, 3])
    cases = [  # (golden bits, candidate bits, the least ulps that pass; None: none do)
        (0x3C00, 0x3C02, 2),
        (0x0000, 0x8000, 0),
        (0x0001, 0x8001, 2),
        (0x7E00, 0x7E01, 0),        # NaN and NaN
        (0x7C00, 0x7BFF, 1),        # inf and the largest finite number
        (0x3C00, 0x7E00, None),     # a number and a NaN
    ]
    for golden_bits, candidate_bits, least in cases:
        data = u16(golden_bits, 0, 0, 0)
        candidate = u16(candidate_bits, 0, 0, 0)
        with pytest.raises(GoldenMismatchError):
            assert_golden(candidate, "gather", data, pick)
        if least is None:
            with pytest.raises(GoldenMismatchError):
                assert_golden(candidate, "gather", data, pick, ulps=2**40)
            continue
        assert_golden(candidate, "gather", data, pick, ulps=least)
        if least > 0:
            e = report(lambda: assert_golden(candidate, "gather", data, pick, ulps=least - 1))
            assert str(e).startswith("actual differs from dmlref.gather (within %d ULP) in 1 of 4" % (least - 1))
    # atol: |actual - expected| in double; NaN as for ulps; inf only equals itself.
    data, candidate = u16(0x3C00, 0x0000, 0x7E00, 0x7C00), u16(0x3C01, 0x8000, 0x7E05, 0x7C00)
    assert_golden(candidate, "gather", data, pick, atol=2.0 ** -10)
    e = report(lambda: assert_golden(candidate, "gather", data, pick, atol=2.0 ** -11))
    assert str(e).startswith("actual differs from dmlref.gather (within 0.000488281 absolute) in 1 of 4 elements (25%)")
    assert e.mismatches[0].coordinate == (0,)
    with pytest.raises(GoldenMismatchError):
        assert_golden(u16(0x7BFF), "gather", u16(0x7C00), np.array([0]), atol=1e300)
    # Integers: their exact difference, both ways (one ULP of an integer is 1).
    ints = np.array([127, -128], np.int8)
    e = report(lambda: assert_golden(ints[::-1].copy(), "gather", ints, np.array([0, 1]), ulps=254))
    assert e.mismatch_count == 2
    assert_golden(ints[::-1].copy(), "gather", ints, np.array([0, 1]), ulps=255)
    assert_golden(ints[::-1].copy(), "gather", ints, np.array([0, 1]), atol=255)
    big = np.array([2**64 - 1], np.uint64)
    assert_golden(np.zeros(1, np.uint64), "gather", big, np.array([0]), ulps=2**64 - 1)
    with pytest.raises(GoldenMismatchError):
        assert_golden(np.zeros(1, np.uint64), "gather", big, np.array([0]), ulps=2**64 - 2)


def test_bad_calls():
    golden = np.array([14, 11, 11, 14, 13], F32)
    # The operator's own errors pass through: no comparison was made.
    with pytest.raises(dmlref.IndexOutOfRangeError) as info:
        assert_golden(golden, "gather", X1[0], np.array([9]))
    assert not isinstance(info.value, AssertionError)
    with pytest.raises(dmlref.Error) as info:
        assert_golden(golden, "gather", *X1, axis=3)
    with pytest.raises(dmlref.Error) as direct:
        dmlref.gather(*X1, axis=3)
    assert (type(info.value), str(info.value), info.value.code) == (type(direct.value), str(direct.value),
                                                                    direct.value.code)
    for op, error, match in [("take", ValueError, "unknown operator 'take'"), (np.take, TypeError, "op must be"),
                             ("onnx.gather_nd1", ValueError, "unknown operator"),
                             (dmlref.explain_gather, TypeError, "op must be")]:
        with pytest.raises(error, match=match):
            assert_golden(golden, op, *X1)
    with pytest.raises(TypeError, match="takes no out="):
        assert_golden(golden, "gather", *X1, out=golden)
    with pytest.raises(TypeError, match="takes no at="):
        assert_golden(golden, "gather", *X1, at=(0,))
    for kwargs, error in [({"max_explained": -1}, ValueError), ({"max_explained": True}, TypeError),
                          ({"ulps": 1, "atol": 1.0}, ValueError), ({"ulps": -1}, ValueError),
                          ({"atol": float("nan")}, ValueError), ({"atol": -1.0}, ValueError)]:
        with pytest.raises(error):
            assert_golden(golden, "gather", *X1, **kwargs)


def test_the_error_pickles():
    e = report(lambda: assert_golden(wrong_x1(), "gather", *X1))
    copy = pickle.loads(pickle.dumps(e))
    assert (str(copy), copy.kind, copy.mismatch_count) == (str(e), "values", 3)
    assert copy.explanations == e.explanations and str(copy.explanations[0]) == str(e.explanations[0])
