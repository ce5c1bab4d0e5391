"""binding_rules=: dmlref::Options::binding_rules from Python, on the arrays as the caller gives them."""

import numpy as np
import pytest

import dmlref
from conftest import assert_same_bits

MATRIX = np.arange(24, dtype=np.float32).reshape(6, 4)
PICKS = np.array([5, 0, 2, 2], dtype=np.int64)


def at_offset(values, offset):
    """A copy of `values` whose data start `offset` bytes past a multiple of 64."""
    raw = np.zeros(values.nbytes + 128, dtype=np.uint8)
    start = (offset - raw.ctypes.data) % 64
    view = raw[start:start + values.nbytes].view(values.dtype).reshape(values.shape)
    view[...] = values
    assert view.ctypes.data % 64 == offset
    return view


def calls(binding_rules):
    """Every function on small valid arguments (16-byte-aligned numpy arrays): name, call."""
    data = np.zeros((2, 3), dtype=np.float32)
    elements = np.array([[2, 0, 1], [1, 1, 0]], dtype=np.int64)
    updates = np.arange(6, dtype=np.float32).reshape(2, 3)
    tuples = np.array([[1], [4]], dtype=np.int64)
    kw = {"binding_rules": binding_rules}
    return [
        ("gather", lambda: dmlref.gather(MATRIX, PICKS, 0, **kw)),
        ("gather_elements", lambda: dmlref.gather_elements(MATRIX[:2, :3], elements, 1, **kw)),
        ("gather_nd", lambda: dmlref.gather_nd(MATRIX, tuples, **kw)),
        ("gather_nd1", lambda: dmlref.gather_nd1(MATRIX, tuples, **kw)),
        ("scatter", lambda: dmlref.scatter(data, elements, updates, 1, **kw)),
        ("scatter_nd", lambda: dmlref.scatter_nd(np.zeros((5, 3), np.float32), tuples, updates, **kw)),
        ("onnx.gather", lambda: dmlref.onnx.gather(MATRIX, PICKS, 0, **kw)),
        ("onnx.gather_elements", lambda: dmlref.onnx.gather_elements(MATRIX[:2, :3], elements, 1, **kw)),
        ("onnx.scatter_elements", lambda: dmlref.onnx.scatter_elements(data, elements, updates, 1, **kw)),
        ("explain_gather", lambda: dmlref.explain_gather(MATRIX, PICKS, 0, at=(1, 2), **kw).value),
    ]


def test_directml_rules_change_no_result_of_a_call_they_accept():
    for (name, relaxed), (_, directml) in zip(calls("relaxed"), calls("directml")):
        assert_same_bits(directml(), relaxed())
    # The default is relaxed: a misaligned input passes without the option.
    shifted = at_offset(MATRIX, 4)
    assert_same_bits(dmlref.gather(shifted, PICKS, 0), np.take(MATRIX, PICKS, axis=0))


@pytest.mark.parametrize("offset", [4, 8, 12])
def test_data_off_16_bytes_is_rejected_naming_the_tensor_and_nothing_is_written(offset):
    out = np.full((4, 4), -1.0, dtype=np.float32)
    shifted_out = at_offset(out, offset)
    for tensor, call in [
        ("InputTensor", lambda: dmlref.gather(at_offset(MATRIX, offset), PICKS, 0, out=out, binding_rules="directml")),
        ("IndicesTensor", lambda: dmlref.gather(MATRIX, at_offset(PICKS, 8), 0, out=out, binding_rules="directml")),
        ("OutputTensor", lambda: dmlref.gather(MATRIX, PICKS, 0, out=shifted_out, binding_rules="directml")),
        ("data", lambda: dmlref.onnx.gather(at_offset(MATRIX, offset), PICKS, 0, out=out, binding_rules="directml")),
        ("UpdatesTensor", lambda: dmlref.scatter(out, np.zeros((2, 4), np.int64), at_offset(MATRIX[:2], offset), 0,
                                                 out=out, binding_rules="directml")),
    ]:
        before, shifted_before = out.copy(), shifted_out.copy()
        with pytest.raises(dmlref.Error) as info:
            call()
        e = info.value
        assert (e.code, e.tensor, e.field) == ("misaligned", tensor, "Data"), str(e)
        assert e.expected == "16" and int(e.actual) in (offset, 8), str(e)
        assert "binding_rules is directml" in str(e)
        assert_same_bits(out, before)
        assert_same_bits(shifted_out, shifted_before)
    # Relaxed rules take the same arrays.
    assert_same_bits(dmlref.gather(at_offset(MATRIX, offset), PICKS, 0), np.take(MATRIX, PICKS, axis=0))
    assert_same_bits(dmlref.gather(MATRIX, PICKS, 0, out=shifted_out), np.take(MATRIX, PICKS, axis=0))


def test_strides_no_buffer_tensor_can_express_are_rejected_where_relaxed_rules_copy():
    reversed_rows = MATRIX[::-1]
    raw = np.zeros(128, dtype=np.uint8)
    expected = np.take(reversed_rows, PICKS, axis=0)
    assert_same_bits(dmlref.gather(reversed_rows, PICKS, 0), expected)
    cases = [
        ("InputTensor", "{-16, 4}", lambda: dmlref.gather(reversed_rows, PICKS, 0, binding_rules="directml")),
        ("OutputTensor", "{-16, 4}",
         lambda: dmlref.gather(MATRIX, PICKS, 0, out=np.zeros((4, 4), np.float32)[::-1], binding_rules="directml")),
        ("IndicesTensor", "{-8}", lambda: dmlref.gather(MATRIX, PICKS[::-1], 0, binding_rules="directml")),
        ("data", "{-16, 4}", lambda: dmlref.onnx.gather(reversed_rows, PICKS, 0, binding_rules="directml")),
    ]
    # A scatter's updates, by their DirectML and ONNX names.
    data, where = np.zeros((4, 4), np.float32), np.array([[1], [3]], dtype=np.int64)
    cases.append(("UpdatesTensor", "{-16, 4}",
                  lambda: dmlref.scatter_nd(data, where, MATRIX[:2][::-1], binding_rules="directml")))
    cases.append(("updates", "{-16, 4}",
                  lambda: dmlref.onnx.scatter_nd(data, where, MATRIX[:2][::-1], binding_rules="directml")))
    # Rows 18 bytes apart: not whole float32 elements.
    float_view = np.lib.stride_tricks.as_strided(raw[:112].view(np.float32), shape=(6, 4), strides=(18, 4))
    cases.append(("InputTensor", "{18, 4}", lambda: dmlref.gather(float_view, PICKS, 0, binding_rules="directml")))
    for tensor, strides, call in cases:
        with pytest.raises(dmlref.Error) as info:
            call()
        e = info.value
        assert (e.code, e.tensor, e.field, e.actual) == ("invalid_stride", tensor, "Strides", strides), str(e)
        assert "whole elements" in e.expected and "binding_rules is directml" in str(e)
    assert_same_bits(dmlref.gather(float_view, PICKS, 0), np.take(float_view, PICKS, axis=0))


def test_more_than_2_to_the_32_minus_1_elements_is_directml_s_limit():
    broadcast = np.broadcast_to(np.float32(7), (1 << 32,))  # stride 0: no memory behind it
    assert_same_bits(dmlref.gather(broadcast, PICKS, 0), np.full(4, 7, np.float32))
    with pytest.raises(dmlref.Error) as info:
        dmlref.gather(broadcast, PICKS, 0, binding_rules="directml")
    e = info.value
    assert (e.code, e.tensor, e.field, e.actual) == ("invalid_size", "InputTensor", "Sizes", str(1 << 32)), str(e)
    just_below = np.broadcast_to(np.float32(7), ((1 << 32) - 1,))
    assert_same_bits(dmlref.gather(just_below, PICKS, 0, binding_rules="directml"), np.full(4, 7, np.float32))


@pytest.mark.parametrize("dtype", [np.int8, np.uint8, np.float16, np.int16])
def test_extents_that_are_not_a_multiple_of_4_bytes_bind(dtype):
    # A numpy array declares TotalTensorSizeInBytes = DMLCalcBufferTensorSize: its extent rounded up to 4.
    values = np.arange(3, dtype=dtype)
    picks = np.array([2], dtype=np.int64)
    assert_same_bits(dmlref.gather(values, picks, 0, binding_rules="directml"), values[[2]])
    out = np.zeros(1, dtype=dtype)
    assert_same_bits(dmlref.gather(values, picks, 0, out=out, binding_rules="directml"), values[[2]])


def test_the_operator_s_own_errors_come_first():
    shifted = at_offset(MATRIX, 4)
    with pytest.raises(dmlref.Error) as relaxed:
        dmlref.gather(shifted, PICKS, 5)
    with pytest.raises(dmlref.Error) as directml:
        dmlref.gather(shifted, PICKS, 5, binding_rules="directml")
    assert (directml.value.code, directml.value.field) == (relaxed.value.code, relaxed.value.field) == \
        ("invalid_attribute", "Axis")
    bad_index = np.array([9], dtype=np.int64)
    with pytest.raises(dmlref.IndexOutOfRangeError):
        dmlref.gather(MATRIX, bad_index, 0, binding_rules="directml")
    with pytest.raises(dmlref.Error) as info:  # the index is never read: binding comes before the values
        dmlref.gather(shifted, bad_index, 0, binding_rules="directml")
    assert info.value.code == "misaligned"


def test_binding_rules_takes_only_its_two_names():
    with pytest.raises(ValueError, match="binding_rules must be 'relaxed' or 'directml'"):
        dmlref.gather(MATRIX, PICKS, 0, binding_rules="strict")
    with pytest.raises(TypeError, match="binding_rules must be a str"):
        dmlref.gather(MATRIX, PICKS, 0, binding_rules=1)
    with pytest.raises(ValueError, match="binding_rules"):
        dmlref.onnx.scatter_nd(np.zeros(3, np.float32), np.array([[1]]), np.ones(1, np.float32), binding_rules="")
