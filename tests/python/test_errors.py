"""Every kind of error: its class, the C++ record's attributes, and an out= left unchanged."""

import pickle

import numpy as np
import pytest

import dmlref
from conftest import assert_same_bits, sentinel_like

X = np.arange(12, dtype=np.float32).reshape(3, 4)


def raises(cls, call, out=None, **attributes):
    """Runs call(); checks the exception's class and attributes and that out kept its bytes."""
    before = None if out is None else np.array(out, copy=True)
    with pytest.raises(cls) as info:
        call()
    for name, value in attributes.items():
        assert getattr(info.value, name) == value, (name, getattr(info.value, name), str(info.value))
    if out is not None:
        assert_same_bits(out, before)
    return info.value


def test_classes():
    assert issubclass(dmlref.Error, ValueError)
    assert issubclass(dmlref.IndexOutOfRangeError, dmlref.Error)
    assert issubclass(dmlref.IndexOutOfRangeError, IndexError)
    assert dmlref.Error.__module__ == "dmlref"
    e = dmlref.Error("by hand")  # constructible; absent fields are None
    assert str(e) == "by hand" and e.code is None and e.position is None


def test_index_out_of_range():
    out = sentinel_like((2, 4), np.float32)
    e = raises(dmlref.IndexOutOfRangeError, lambda: dmlref.gather(X, np.array([0, 3]), 0, out=out), out,
               code="index_out_of_range", operator="Gather", tensor="IndicesTensor", field="value",
               expected="-3..2", actual="3", position=(0, 1), target_tensor="InputTensor",
               target_dimension=0, target_size=3)
    assert str(e) == ("Gather: IndicesTensor value 3 at [0, 1] is out of range for InputTensor.Sizes[0] = 3 "
                      "(valid -3..2)")
    assert isinstance(e, IndexError) and isinstance(e, ValueError)
    # Unsigned values are never negative.
    raises(dmlref.IndexOutOfRangeError, lambda: dmlref.gather(X, np.array([4294967295], np.uint32)),
           actual="4294967295", expected="0..2")
    # ONNX names and natural coordinates.
    raises(dmlref.IndexOutOfRangeError, lambda: dmlref.onnx.gather(X, np.array([[0], [-5]]), axis=1),
           operator="Gather", tensor="indices", position=(1, 0), target_tensor="data", target_dimension=1,
           target_size=4, expected="-4..3", actual="-5")
    # A scalar index of an empty axis is out of range even with clamp.
    raises(dmlref.IndexOutOfRangeError,
           lambda: dmlref.onnx.gather(np.zeros((0, 2), np.float32), 0, index_policy="clamp"))


def test_one_pass_may_leave_out_partly_written():
    """all_or_nothing=False (an engine's CPU fallback): the same error, the rows before the first
    bad index written, and output_partly_written saying so, only where out= shows it."""
    x = np.arange(40, dtype=np.float32).reshape(10, 4)
    good = np.array([1, 2, 3, 7, 4])
    bad = np.array([1, 2, 3, 99, 4])
    np.testing.assert_array_equal(dmlref.gather(x, good, 0, all_or_nothing=False), x[good])
    out = sentinel_like((5, 4), np.float32)
    e = raises(dmlref.IndexOutOfRangeError, lambda: dmlref.gather(x, bad, 0, out=out, all_or_nothing=False),
               position=(0, 3), actual="99", output_partly_written=True)
    assert "all_or_nothing is off" in str(e)
    assert_same_bits(out[:3], x[[1, 2, 3]])
    # By default, or with the bad index first, nothing is written and the record says so.
    fresh = sentinel_like((5, 4), np.float32)
    raises(dmlref.IndexOutOfRangeError, lambda: dmlref.gather(x, bad, 0, out=fresh), fresh,
           output_partly_written=False)
    raises(dmlref.IndexOutOfRangeError, lambda: dmlref.gather(x, np.array([99, 1, 2]), 0, out=fresh[:3],
                                                                all_or_nothing=False), fresh,
           position=(0, 0), output_partly_written=False)
    # Written rows the caller never sees: a new result, or the temporary standing in for an out= of
    # negative strides, which is copied into out= only on success.
    raises(dmlref.IndexOutOfRangeError, lambda: dmlref.gather(x, bad, 0, all_or_nothing=False),
           output_partly_written=False)
    backwards = sentinel_like((5, 4), np.float32)[::-1]
    raises(dmlref.IndexOutOfRangeError, lambda: dmlref.gather(x, bad, 0, out=backwards, all_or_nothing=False),
           backwards, output_partly_written=False)
    # A scatter's copy of its input is a write too; ONNX names, same keyword.
    target = sentinel_like((10, 4), np.float32)
    raises(dmlref.IndexOutOfRangeError,
           lambda: dmlref.onnx.scatter_nd(x, np.array([[0], [40]]), np.ones((2, 4), np.float32), out=target,
                                          all_or_nothing=False),
           tensor="indices", output_partly_written=True)
    with pytest.raises(TypeError, match="unexpected keyword argument 'all_or_none'"):
        dmlref.gather(x, good, all_or_none=False)


def test_pickle_keeps_the_record():
    with pytest.raises(dmlref.IndexOutOfRangeError) as info:
        dmlref.gather(X, np.array([9]))
    copy = pickle.loads(pickle.dumps(info.value))
    assert type(copy) is dmlref.IndexOutOfRangeError
    assert str(copy) == str(info.value) and copy.position == info.value.position and copy.code == "index_out_of_range"


def test_collision():
    x = np.zeros(5, np.float32)
    out = sentinel_like((5,), np.float32)
    e = raises(dmlref.Error, lambda: dmlref.scatter(x, np.array([3, 1, 3, 0]), np.array([5, 6, 7, 8], np.float32),
                                                    out=out, check_collisions=True), out,
               code="scatter_collision", operator="Scatter", position=(2,), target_tensor="OutputTensor",
               target_position=(3,))
    assert "already wrote" in str(e)
    # In place: the input is unchanged too.
    y = np.arange(5, dtype=np.float32)
    raises(dmlref.Error, lambda: dmlref.scatter(y, np.array([3, 3]), np.array([1, 2], np.float32), out=y,
                                                check_collisions=True), y, code="scatter_collision")
    raises(dmlref.Error, lambda: dmlref.onnx.scatter_nd(y, np.array([[1], [1]]), np.array([1, 2], np.float32),
                                                        out=y, check_collisions=True), y, code="scatter_collision",
           operator="ScatterND")


def test_attributes():
    out = sentinel_like((3, 4), np.float32)
    raises(dmlref.Error, lambda: dmlref.gather(X, np.array([0]), 2, out=out), out, code="invalid_attribute",
           operator="Gather", tensor=None, field="Axis", expected="0..1", actual="2")
    # DirectML attributes are unsigned.
    raises(dmlref.Error, lambda: dmlref.gather_elements(X, np.zeros((3, 4), np.int64), -1),
           code="invalid_attribute", field="Axis", actual="-1")
    raises(dmlref.Error, lambda: dmlref.gather_nd1(X, np.zeros((3, 1), np.int64), batch_dimension_count=2),
           code="invalid_attribute", operator="GatherND1", field="BatchDimensionCount")
    raises(dmlref.Error, lambda: dmlref.onnx.gather(X, np.array([0]), axis=2), code="invalid_attribute",
           operator="Gather", field="axis", expected="-2..1", actual="2")
    raises(dmlref.Error, lambda: dmlref.onnx.gather_nd(X, np.zeros((3, 1), np.int64), batch_dims=5),
           code="invalid_attribute", field="batch_dims")


def test_shapes():
    out = sentinel_like((2, 4), np.float32)
    raises(dmlref.Error, lambda: dmlref.gather(X, np.array([0, 1, 2]), out=out), out, code="shape_mismatch",
           operator="Gather", tensor="OutputTensor", field="Sizes", expected="{3, 4}", actual="{2, 4}")
    raises(dmlref.Error, lambda: dmlref.gather_elements(X, np.zeros((3, 2), np.int64), 0), code="shape_mismatch",
           tensor="IndicesTensor", field="Sizes", field_index=1)
    raises(dmlref.Error, lambda: dmlref.scatter(X, np.zeros((3, 4), np.int64), np.zeros((3, 3), np.float32)),
           code="shape_mismatch", tensor="UpdatesTensor")
    raises(dmlref.Error, lambda: dmlref.onnx.scatter_elements(X, np.zeros((3, 4), np.int64),
                                                              np.zeros((3, 3), np.float32)),
           code="shape_mismatch", tensor="updates")
    # out= of another rank: named in DirectML's terms.
    raises(dmlref.Error, lambda: dmlref.gather(X, np.array([0]), out=np.zeros((1, 1, 4), np.float32)),
           code="invalid_dimension_count", tensor="OutputTensor", field="DimensionCount")


def test_data_types():
    out = sentinel_like((1, 4), np.float64)
    raises(dmlref.Error, lambda: dmlref.gather(X, np.array([0]), out=out), out, code="data_type_mismatch",
           tensor="OutputTensor", field="DataType", expected="FLOAT32", actual="FLOAT64")
    raises(dmlref.Error, lambda: dmlref.scatter(X, np.zeros((3, 4), np.int64), np.zeros((3, 4), np.int32)),
           code="data_type_mismatch", tensor="UpdatesTensor")
    raises(dmlref.Error, lambda: dmlref.gather(X, np.array([0.0])), code="unsupported_index_type",
           tensor="IndicesTensor", actual="FLOAT64")
    raises(dmlref.Error, lambda: dmlref.onnx.gather(X, np.array([0], np.int16)), code="unsupported_index_type",
           tensor="indices", actual="INT16")


def test_ranks_and_sizes():
    nine = np.zeros((1,) * 9, np.float32)
    raises(dmlref.Error, lambda: dmlref.gather(nine, np.array([0])), code="invalid_dimension_count",
           tensor="InputTensor", field="DimensionCount", expected="1..8", actual="9")
    raises(dmlref.Error, lambda: dmlref.gather(X, np.zeros((1,) * 9, np.int64)), code="invalid_dimension_count",
           tensor="IndicesTensor", actual="9")
    raises(dmlref.Error, lambda: dmlref.onnx.gather(nine, np.array([0])), code="invalid_dimension_count",
           tensor="data", expected="0..8", actual="9")
    # The ONNX call needs D = r + q - 1 <= 8.
    raises(dmlref.Error, lambda: dmlref.onnx.gather(np.zeros((1,) * 5, np.float32), np.zeros((1,) * 5, np.int64)),
           code="invalid_dimension_count", actual="9")
    # DirectML has no empty tensors.
    raises(dmlref.Error, lambda: dmlref.gather(np.zeros((0, 4), np.float32), np.array([0])), code="invalid_size",
           tensor="InputTensor", field="Sizes", field_index=0)


def test_strides_and_overlap():
    buffer = np.zeros(16, np.float32)
    aliased = np.lib.stride_tricks.as_strided(buffer, shape=(2, 4), strides=(0, 4), writeable=True)
    raises(dmlref.Error, lambda: dmlref.gather(X, np.array([0, 1]), out=aliased), buffer, code="invalid_stride",
           tensor="OutputTensor", field="Strides")
    y = np.arange(16, dtype=np.float32)
    raises(dmlref.Error, lambda: dmlref.gather(y, np.array([0, 1, 2]), out=y[4:7]), y, code="overlapping_tensors",
           tensor="OutputTensor")
    # A scatter's out= that is part of its input (not the input itself) is an overlap too.
    z = np.arange(8, dtype=np.float32)
    raises(dmlref.Error, lambda: dmlref.scatter(z[:4], np.array([0]), np.array([1], np.float32), out=z[1:5]), z,
           code="overlapping_tensors")


@pytest.mark.parametrize("dtype", ["bool", "complex64", "complex128", "object", ">f4", ">i8", "<M8[s]", "U3",
                                   "float128"])
def test_type_errors(dtype):
    bad = np.zeros(3, dtype=dtype)
    with pytest.raises(TypeError, match=r"dmlref.gather\(\): input has dtype"):
        dmlref.gather(bad, np.array([0]))
    with pytest.raises(TypeError, match=r"dmlref.onnx.scatter_nd\(\): updates has dtype"):
        dmlref.onnx.scatter_nd(np.zeros(3, np.float32), np.array([[0]]), bad[:1])
    out = np.zeros((1,), dtype=dtype)
    with pytest.raises(TypeError, match=r"out has dtype"):
        dmlref.gather(np.zeros(3, np.float32), np.array([0]), out=out)
    with pytest.raises(TypeError, match=r"dmlref.gather_nd\(\): indices has dtype"):
        dmlref.gather_nd(np.zeros(3, np.float32), np.zeros((1, 1), dtype=dtype))


def test_byte_order_message():
    with pytest.raises(TypeError, match=r"input has dtype >f4.*byte order"):
        dmlref.gather(np.zeros(3, ">f4"), np.array([0]))


def test_arguments():
    idx = np.array([0])
    with pytest.raises(TypeError, match="missing required argument 'indices'"):
        dmlref.gather(X)
    with pytest.raises(TypeError, match="unexpected keyword argument 'axes'"):
        dmlref.gather(X, idx, axes=0)
    with pytest.raises(TypeError, match="multiple values for argument 'axis'"):
        dmlref.gather(X, idx, 0, axis=0)
    with pytest.raises(TypeError, match="at most 4 positional"):
        dmlref.gather(X, idx, 0, 1, None)
    with pytest.raises(TypeError, match="axis must be an int"):
        dmlref.onnx.gather(X, idx, axis=0.0)
    with pytest.raises(TypeError, match="Axis must be an int or None"):
        dmlref.gather(X, idx, "0")
    with pytest.raises(ValueError, match="index_policy must be 'error' or 'clamp'"):
        dmlref.gather(X, idx, index_policy="wrap")
    with pytest.raises(ValueError, match="reduction must be"):
        dmlref.onnx.scatter_elements(X, np.zeros((3, 4), np.int64), X, reduction="sum")
    with pytest.raises(ValueError, match="threads must be 1..1024"):
        dmlref.gather(X, idx, threads=0)
    with pytest.raises(TypeError, match="threads must be an int"):
        dmlref.gather(X, idx, threads=1.5)
    with pytest.raises(TypeError, match="out must be a numpy array"):
        dmlref.gather(X, idx, out=[0.0] * 4)
    with pytest.raises(ValueError, match="out is read-only"):
        dmlref.gather(X, idx, out=np.broadcast_to(np.zeros(4, np.float32), (1, 4)))
    # Options the DirectML gathers do not have.
    with pytest.raises(TypeError, match="check_collisions"):
        dmlref.gather(X, idx, check_collisions=True)


def test_shape_error_precedes_nothing_else():
    """When the output's sizes cannot be computed, the error is still the operator's first broken
    rule in its order of checks (docs/errors.md): here the updates' data type before the shapes."""
    raises(dmlref.Error, lambda: dmlref.scatter(X, np.zeros((3, 5), np.int64), np.zeros((3, 4), np.int32)),
           code="data_type_mismatch", tensor="UpdatesTensor")


def test_odd_objects_do_not_crash():
    class NotACapsule:
        def __dlpack__(self):
            return 5

    class Raises:
        def __dlpack__(self):
            raise RuntimeError("no export")

    with pytest.raises(TypeError, match="did not return a 'dltensor' capsule"):
        dmlref.gather(NotACapsule(), np.array([0]))
    with pytest.raises(RuntimeError, match="no export"):
        dmlref.gather(X, Raises())
    with pytest.raises(TypeError, match="out must be a numpy array"):
        dmlref.gather(X, np.array([0]), out=object())
    deep = np.zeros((1,) * 32, np.float32)
    raises(dmlref.Error, lambda: dmlref.onnx.gather_elements(deep, deep.astype(np.int64)),
           code="invalid_dimension_count", actual="32")
    raises(dmlref.Error, lambda: dmlref.gather(X, np.array([0]), out=deep), code="invalid_dimension_count",
           tensor="OutputTensor", actual="32")
    with pytest.raises(ValueError):  # numpy cannot make an array of a ragged list
        dmlref.gather([[1, 2], [3]], [0])
