"""The package: its layout, signatures, docstrings, version, stubs, and the zero-copy rules."""

import inspect
import os
import tracemalloc

import numpy as np
import pytest

import dmlref
import dmlref.onnx

FUNCTIONS = ["gather", "gather_elements", "gather_nd", "gather_nd1", "scatter", "scatter_elements", "scatter_nd"]
ONNX_FUNCTIONS = ["gather", "gather_elements", "gather_nd", "scatter", "scatter_elements", "scatter_nd"]


def test_version_matches_the_headers():
    header = os.path.join(os.path.dirname(__file__), "..", "..", "include", "dmlref", "version.hpp")
    parts = {}
    with open(header) as f:
        for line in f:
            if line.startswith("#define DMLREF_VERSION_") and len(line.split()) == 3:
                _, name, value = line.split()
                parts[name] = value
    expected = "%s.%s.%s" % (parts["DMLREF_VERSION_MAJOR"], parts["DMLREF_VERSION_MINOR"], parts["DMLREF_VERSION_PATCH"])
    assert dmlref.__version__ == expected


def test_layout_and_onnx_attribute():
    package = os.path.dirname(dmlref.__file__)
    names = os.listdir(package)
    for required in ["__init__.py", "onnx.py", "__init__.pyi", "onnx.pyi", "py.typed"]:
        assert required in names
    assert any(n.startswith("_dmlref") and n.endswith(".so") for n in names)
    assert dmlref.onnx.gather is dmlref.onnx.__dict__["gather"]


def test_signatures_and_docstrings():
    expected = {
        "gather": "(input, indices, axis=0, index_dimensions=None, *, out=None, index_policy='error', threads=1, "
                  "all_or_nothing=True, feature_level=None, allow_scratch=True, binding_rules='relaxed')",
        "scatter": "(input, indices, updates, axis=0, *, out=None, index_policy='error', check_collisions=False, "
                   "threads=1, reduction='none', all_or_nothing=True, feature_level=None, allow_scratch=True, "
                   "binding_rules='relaxed')",
    }
    for name in FUNCTIONS:
        f = getattr(dmlref, name)
        assert f.__doc__ and "DML_OPERATOR" in f.__doc__
        signature = str(inspect.signature(f))
        if name in expected:
            assert signature == expected[name]
    for name in ONNX_FUNCTIONS:
        f = getattr(dmlref.onnx, name)
        assert f.__doc__ and "ONNX" in f.__doc__
        assert str(inspect.signature(f)).startswith("(data, indices")
        assert str(inspect.signature(f)).endswith(
            "all_or_nothing=True, feature_level=None, allow_scratch=True, binding_rules='relaxed')")
    assert str(inspect.signature(dmlref.onnx.scatter_nd)).startswith("(data, indices, updates, reduction='none', *")


def test_stubs_name_every_function():
    package = os.path.dirname(dmlref.__file__)
    with open(os.path.join(package, "__init__.pyi")) as f:
        stub = f.read()
    for name in FUNCTIONS:
        assert "def %s(" % name in stub
    with open(os.path.join(package, "onnx.pyi")) as f:
        stub = f.read()
    for name in ONNX_FUNCTIONS:
        assert "def %s(" % name in stub


def test_keywords_from_a_dict():
    # Keyword names that are not interned by the caller (built at run time).
    kwargs = {"".join(["ax", "is"]): 0, "index_" + "policy": "clamp"}
    assert dmlref.gather(np.arange(3.0), np.array([7]), **kwargs).tolist() == [2.0]


def test_array_likes_are_converted():
    assert dmlref.gather([10, 20, 30], [2, -1]).tolist() == [30, 30]
    assert dmlref.onnx.gather(np.arange(4.0), 3).tolist() == 3.0


def test_broadcast_input_is_read_in_place():
    huge = np.broadcast_to(np.float64(2.5), (2**40,))  # a copy would need 8 TiB
    assert dmlref.gather(huge, np.array([2**40 - 1])).tolist() == [2.5]
    idx = np.broadcast_to(np.int64(-1), (2**20, 2**20))
    with pytest.raises(dmlref.Error):  # shapes differ: the error comes before any copy could
        dmlref.gather_elements(np.zeros((2**20, 3), np.float32), idx, 1, out=np.zeros((1, 1), np.float32))


def test_strided_inputs_are_not_copied():
    x = np.ones((2048, 1024), np.float32).T  # 8 MiB, transposed
    idx = np.array([5])
    tracemalloc.start()
    try:
        dmlref.gather(x, idx, 0)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert peak < 1 << 20, peak


def test_negative_strides_are_copied_and_correct():
    x = np.arange(24, dtype=np.int16).reshape(4, 6)
    rev = x[::-1, ::-2]
    assert dmlref.gather(rev, np.array([0, 3]), 0).tolist() == rev[[0, 3]].tolist()
    out_base = np.zeros((2, 3), np.int16)
    out = out_base[::-1]
    assert dmlref.gather(rev, np.array([0, 3]), 0, out=out) is out
    assert out.tolist() == rev[[0, 3]].tolist()
    # In place on a reversed view: out is input.
    y = np.arange(5, dtype=np.float32)
    view = y[::-1]
    dmlref.scatter(view, np.array([0]), np.array([-1], np.float32), out=view)
    assert y.tolist() == [0, 1, 2, 3, -1]
    # A failed call leaves a reversed out alone.
    before = out_base.copy()
    with pytest.raises(dmlref.IndexOutOfRangeError):
        dmlref.gather(rev, np.array([0, 9]), 0, out=out)
    assert np.array_equal(out_base, before)


def test_unaligned_and_odd_strides():
    raw = np.zeros(8 * 10 + 1, np.uint8)
    x = raw[1:].view(np.float64)  # misaligned float64
    x[:] = np.arange(10)
    assert dmlref.gather(x, np.array([9, 1])).tolist() == [9.0, 1.0]
    record = np.zeros(4, dtype=[("a", np.int8), ("b", np.int32)])
    record["b"] = [5, 6, 7, 8]
    b = record["b"]  # stride 5 bytes: not whole int32 elements, so a copy
    assert dmlref.gather(b, np.array([3, 0])).tolist() == [8, 5]


def test_zero_d_arrays():
    # DirectML convention: a 0-d index is IndexDimensions 0 (the CLI's default too).
    x = np.arange(6, dtype=np.float32).reshape(3, 2)
    assert dmlref.gather(x, np.array(2)).tolist() == [[4.0, 5.0]]
    out = np.zeros(2, np.float32)  # the result {1, 2} into an out= of lower rank: padded like the inputs
    assert dmlref.gather(x, np.array(2), out=out) is out and out.tolist() == [4.0, 5.0]
    # ONNX: 0-d data is not valid for Gather (rank >= 1); a scalar index drops the axis.
    assert dmlref.onnx.gather(x, np.array(-1, np.int32)).tolist() == [4.0, 5.0]
    with pytest.raises(dmlref.Error):
        dmlref.onnx.gather(np.array(1.0, np.float32), np.array(0))


def test_empty_onnx_calls_check_every_index():
    data = np.zeros((2, 0), np.float32)
    assert dmlref.onnx.gather(data, np.array([1, 0]), axis=0).shape == (2, 0)
    with pytest.raises(dmlref.IndexOutOfRangeError):
        dmlref.onnx.gather(data, np.array([1, 2]), axis=0)
    x = np.arange(3, dtype=np.float32)
    out = np.zeros(3, np.float32)
    empty = np.zeros((0, 1), np.int64)
    assert dmlref.onnx.scatter_nd(x, empty, np.zeros(0, np.float32), out=out) is out
    assert out.tolist() == [0.0, 1.0, 2.0]


def test_numpy_integers_as_attributes():
    x = np.arange(12, dtype=np.float32).reshape(3, 4)
    assert dmlref.gather(x, np.array([1]), np.int64(1), np.uint8(1), threads=np.int32(2)).tolist() == [[1], [5], [9]]
    assert dmlref.onnx.gather(x, np.int64(-1), axis=np.int16(-1)).tolist() == [3.0, 7.0, 11.0]
    with pytest.raises(dmlref.Error) as info:
        dmlref.gather(x, np.array([1]), 2**70)  # beyond int64: reported as out of range, not wrapped
    assert info.value.code == "invalid_attribute"
