"""feature_level= and allow_scratch=: dmlref::Options::feature_level and allow_scratch from Python."""

import numpy as np
import pytest

import dmlref
from conftest import assert_same_bits

ROWS = np.arange(24, dtype=np.float64).reshape(6, 4)  # FLOAT64: every operator from 4_1 only
PICKS = np.array([5, 0, 2, 2], dtype=np.int64)
LEVEL_4_1 = ["4_1", "4.1", "0x4100", "DML_FEATURE_LEVEL_4_1", 0x4100, np.uint32(0x4100)]


@pytest.mark.parametrize("level", LEVEL_4_1)
def test_a_level_that_accepts_the_call_changes_nothing(level):
    expected = np.take(ROWS, PICKS, axis=0)
    np.testing.assert_array_equal(dmlref.gather(ROWS, PICKS, 0, feature_level=level), expected)
    np.testing.assert_array_equal(dmlref.onnx.gather(ROWS, PICKS, 0, feature_level=level), expected)


def test_a_level_below_the_data_type_rejects_the_call_and_writes_nothing():
    out = np.full((4, 4), -1.0)
    before = out.copy()
    for call in [lambda: dmlref.gather(ROWS, PICKS, 0, out=out, feature_level="4_0"),
                 lambda: dmlref.onnx.gather(ROWS, PICKS, 0, out=out, feature_level=0x4000),
                 lambda: dmlref.explain_gather(ROWS, PICKS, 0, at=(0, 0), feature_level="4.0")]:
        with pytest.raises(dmlref.Error) as info:
            call()
        e = info.value
        assert e.code == "feature_level_too_low", str(e)
        assert e.feature_level == 0x4000, str(e)
        assert e.tensor in ("InputTensor", "data") and e.field == "DataType", str(e)  # ONNX names
        assert "FLOAT64" in str(e)
        assert_same_bits(out, before)


def test_a_level_before_the_operator_rejects_it():
    x = np.arange(12, dtype=np.float32).reshape(3, 4)
    tuples = np.array([[1], [2]], dtype=np.int64)
    np.testing.assert_array_equal(dmlref.gather_nd1(x, tuples, feature_level="3_0"), x[[1, 2]])
    with pytest.raises(dmlref.Error) as info:
        dmlref.gather_nd1(x, tuples, feature_level="2_1")
    assert info.value.code == "feature_level_too_low" and info.value.feature_level == 0x2100, str(info.value)
    assert "GatherND1" in str(info.value)


def test_scatters_and_the_onnx_functions_take_a_level():
    data = np.zeros((2, 3), dtype=np.float32)
    idx = np.array([[2, 0, 1], [1, 1, 0]], dtype=np.int64)
    upd = np.arange(6, dtype=np.float32).reshape(2, 3)
    expected = dmlref.scatter(data, idx, upd, 1)
    np.testing.assert_array_equal(dmlref.scatter(data, idx, upd, 1, feature_level="3_0"), expected)
    np.testing.assert_array_equal(dmlref.onnx.scatter_elements(data, idx, upd, 1, feature_level="3_0"), expected)
    # A scatter reduction is dmlref's ONNX extension: DirectML has none at any level.
    with pytest.raises(dmlref.Error) as info:
        dmlref.onnx.scatter_elements(data, idx, upd, 1, reduction="add", feature_level="6_4")
    assert info.value.code == "unsupported" and info.value.feature_level == 0x6400, str(info.value)
    # Below 3_0 DirectML takes exactly four dimensions and UINT32 indices only.
    with pytest.raises(dmlref.Error) as info:
        dmlref.scatter_nd(data, np.array([[1]], dtype=np.int64), upd[:1], feature_level="2_1")
    assert info.value.code == "feature_level_too_low", str(info.value)


def test_no_level_is_the_default_and_none():
    assert dmlref.gather(ROWS, PICKS, 0, feature_level=None).dtype == np.float64
    with pytest.raises(dmlref.Error) as info:
        dmlref.gather(ROWS, np.array([9]), 0, feature_level=None)
    assert info.value.feature_level is None


def test_values_that_name_no_level():
    # A name that is no level: ValueError before the call, listing the names.
    for text in ["3.7", "7_0", "", "DML_FEATURE_LEVEL_", "0x3001"]:
        with pytest.raises(ValueError, match="feature level") as info:
            dmlref.gather(ROWS, PICKS, 0, feature_level=text)
        assert not isinstance(info.value, dmlref.Error)
    # An int that is no DML_FEATURE_LEVEL: the operator's own error, naming the field.
    with pytest.raises(dmlref.Error) as info:
        dmlref.gather(ROWS, PICKS, 0, feature_level=0x1234)
    assert info.value.code == "invalid_attribute" and info.value.field == "feature_level", str(info.value)
    for number in [-1, 1 << 32]:
        with pytest.raises(ValueError, match="DML_FEATURE_LEVEL"):
            dmlref.gather(ROWS, PICKS, 0, feature_level=number)
    for wrong in [4.1, b"4_1", [0x4100]]:
        with pytest.raises(TypeError, match="feature_level"):
            dmlref.gather(ROWS, PICKS, 0, feature_level=wrong)


def test_allow_scratch_false_gives_the_same_bytes():
    # The layouts that use scratch: rows gathered from a transposed input, elements along a
    # transposed input's lines, and an all-or-nothing gather whose indices outweigh its output.
    rng = np.random.default_rng(7)
    stored = rng.standard_normal((64, 300)).astype(np.float32)
    transposed = stored.T  # (300, 64), strides (4, 1200)
    rows = rng.integers(0, 300, size=40)
    expected_rows = transposed[rows]
    elements = rng.integers(0, 300, size=(300, 64))
    expected_elements = np.take_along_axis(transposed, elements, axis=0)
    narrow = rng.integers(-128, 128, size=(8, 512), dtype=np.int8)
    wide = rng.integers(0, 512, size=(8, 512), dtype=np.int64)
    expected_narrow = np.take_along_axis(narrow, wide, axis=1)
    for allow in [True, False]:
        assert_same_bits(dmlref.gather(transposed, rows, 0, allow_scratch=allow), expected_rows)
        assert_same_bits(dmlref.gather_elements(transposed, elements, 0, allow_scratch=allow), expected_elements)
        assert_same_bits(dmlref.onnx.gather_elements(narrow, wide, 1, allow_scratch=allow), expected_narrow)
    # Its failed calls write nothing either way.
    bad = wide.copy()
    bad[5, 100] = 512
    out = np.zeros_like(narrow)
    for allow in [True, False]:
        with pytest.raises(dmlref.IndexOutOfRangeError) as info:
            dmlref.gather_elements(narrow, bad, 1, out=out, allow_scratch=allow)
        assert info.value.position == (5, 100)
        assert not out.any()
