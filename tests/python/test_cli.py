"""The module against the C++ tool on the same cases: `dmlref` (tools/dmlref.cpp) runs each case
from .npy files, and its output file must equal the module's result byte for byte, with the same
shape; a rejected case must give the same message. The tool pads ranks and picks its defaults as
the module does, so every call below leaves out what the tool leaves out."""

import os
import subprocess

import numpy as np
import pytest

import dmlref
from conftest import DATA_TYPES, INDEX_TYPES, random_values

CLI = os.environ.get("DMLREF_CLI")
pytestmark = pytest.mark.skipif(not CLI, reason="DMLREF_CLI is not set (ctest sets it)")

SUBCOMMANDS = {
    "gather": (dmlref.gather, {"axis": "--axis", "index_dimensions": "--index-dimensions"}),
    "gather-elements": (dmlref.gather_elements, {"axis": "--axis"}),
    "gather-nd": (dmlref.gather_nd, {"input_dimension_count": "--input-dimension-count",
                                     "indices_dimension_count": "--indices-dimension-count"}),
    "gather-nd1": (dmlref.gather_nd1, {"input_dimension_count": "--input-dimension-count",
                                       "indices_dimension_count": "--indices-dimension-count",
                                       "batch_dimension_count": "--batch-dimension-count"}),
    "scatter": (dmlref.scatter, {"axis": "--axis", "reduction": "--reduction"}),
    "scatter-nd": (dmlref.scatter_nd, {"input_dimension_count": "--input-dimension-count",
                                       "indices_dimension_count": "--indices-dimension-count",
                                       "reduction": "--reduction"}),
    "onnx-gather": (dmlref.onnx.gather, {"axis": "--axis"}),
    "onnx-gather-elements": (dmlref.onnx.gather_elements, {"axis": "--axis"}),
    "onnx-gather-nd": (dmlref.onnx.gather_nd, {"batch_dims": "--batch-dims"}),
    "onnx-scatter": (dmlref.onnx.scatter, {"axis": "--axis"}),
    "onnx-scatter-elements": (dmlref.onnx.scatter_elements, {"axis": "--axis", "reduction": "--reduction"}),
    "onnx-scatter-nd": (dmlref.onnx.scatter_nd, {"reduction": "--reduction"}),
}
OPTIONS = {"index_policy": "--index-policy", "threads": "--threads", "check_collisions": "--check-collisions"}


def cases():
    """(subcommand, arrays builder, attributes): every subcommand, with shapes that exercise
    padding, negative indices, 0-d and empty arrays, policies and errors."""
    def idx(rng, shape, n, itype, negative=True):
        low = -n if negative and np.dtype(itype).kind == "i" else 0
        return rng.integers(low, n, size=shape).astype(itype)

    out = []
    for dtype in DATA_TYPES:
        for itype in INDEX_TYPES:
            if dtype not in (np.float16, np.float32) and itype is not np.int64:
                continue  # every data type with int64; every index type with two data types
            out += [
                ("gather", lambda r, d=dtype, i=itype: [random_values(r, (5, 4), d), idx(r, (3,), 5, i)], {}),
                ("gather", lambda r, d=dtype, i=itype: [random_values(r, (1, 5, 4), d), idx(r, (2, 3), 4, i)],
                 {"axis": 2, "index_dimensions": 2}),
                ("gather-elements", lambda r, d=dtype, i=itype: [random_values(r, (3, 4), d), idx(r, (3, 6), 4, i)],
                 {"axis": 1}),
                ("gather-nd", lambda r, d=dtype, i=itype: [random_values(r, (4, 3, 2), d), idx(r, (5, 2), 3, i)], {}),
                ("gather-nd1", lambda r, d=dtype, i=itype: [random_values(r, (2, 4, 3), d), idx(r, (2, 5, 1), 4, i)],
                 {"batch_dimension_count": 1}),
                ("scatter", lambda r, d=dtype, i=itype: [random_values(r, (3, 5), d), idx(r, (3, 4), 5, i),
                                                         random_values(r, (3, 4), d)], {"axis": 1}),
                ("scatter-nd", lambda r, d=dtype, i=itype: [random_values(r, (4, 3), d), idx(r, (2, 1), 4, i),
                                                            random_values(r, (2, 3), d)], {}),
                ("onnx-gather", lambda r, d=dtype, i=itype: [random_values(r, (4, 3), d), idx(r, (), 3, i)],
                 {"axis": -1}),
                ("onnx-gather-elements", lambda r, d=dtype, i=itype: [random_values(r, (4, 5), d),
                                                                      idx(r, (2, 3), 4, i)], {"axis": 0}),
                ("onnx-gather-nd", lambda r, d=dtype, i=itype: [random_values(r, (2, 3, 4), d),
                                                                idx(r, (2, 2, 1), 3, i)], {"batch_dims": 1}),
                ("onnx-scatter", lambda r, d=dtype, i=itype: [random_values(r, (3, 4), d), idx(r, (2, 2), 3, i),
                                                              random_values(r, (2, 2), d)], {"axis": 0}),
                ("onnx-scatter-elements", lambda r, d=dtype, i=itype: [random_values(r, (3, 4), d),
                                                                       idx(r, (3, 2), 4, i),
                                                                       random_values(r, (3, 2), d)], {"axis": -1}),
                ("onnx-scatter-nd", lambda r, d=dtype, i=itype: [random_values(r, (4, 3), d), idx(r, (2, 2), 3, i),
                                                                 random_values(r, (2,), d)], {}),
            ]
    small = lambda r, shape: r.integers(0, 4, size=shape).astype(np.int32)  # noqa: E731
    out += [
        ("onnx-gather", lambda r: [random_values(r, (0, 3), np.float32), np.zeros((0,), np.int64)], {}),
        ("onnx-scatter-nd", lambda r: [random_values(r, (3,), np.int8), np.zeros((0, 1), np.int64),
                                       np.zeros((0,), np.int8)], {}),
        ("gather", lambda r: [random_values(r, (4, 3), np.float32), np.array([7, -9, 2], np.int64)],
         {"index_policy": "clamp"}),
        ("gather", lambda r: [random_values(r, (4, 3), np.float32), np.array([1, 4], np.int64)], {}),
        ("gather", lambda r: [random_values(r, (4, 3), np.float32), np.array([1], np.int64)], {"axis": 2}),
        ("gather-elements", lambda r: [random_values(r, (4, 3), np.float32), np.zeros((2, 2), np.int64)], {}),
        ("scatter", lambda r: [np.zeros(5, np.float32), np.array([3, 1, 3], np.int64),
                               np.ones(3, np.float32)], {"check_collisions": True}),
        ("scatter", lambda r: [small(r, (3, 4)), small(r, (3, 6)), small(r, (3, 6))],
         {"axis": 1, "reduction": "add"}),
        ("onnx-scatter-elements", lambda r: [small(r, (3, 4)), small(r, (3, 6)), small(r, (3, 6))],
         {"axis": 1, "reduction": "max"}),
        ("scatter-nd", lambda r: [small(r, (4, 3)), np.array([[1], [1]], np.int64), small(r, (2, 3))],
         {"reduction": "mul"}),
        ("onnx-gather-nd", lambda r: [random_values(r, (2, 3), np.float32), np.array([[0, 5]], np.int64)], {}),
        ("gather", lambda r: [random_values(r, (2, 3), np.float32), np.zeros((2,), np.float32)], {}),
        ("gather-nd", lambda r: [random_values(r, (2, 2, 2, 2, 2, 2, 2, 2), np.uint16),
                                 np.ones((1, 1, 3, 2), np.int32)], {"threads": 2}),
    ]
    return out


CASES = cases()


@pytest.mark.parametrize("case", range(len(CASES)))
def test_same_as_cli(tmp_path, case):
    subcommand, build, attributes = CASES[case]
    rng = np.random.default_rng(case)
    arrays = build(rng)
    files = []
    for k, a in enumerate(arrays):
        files.append(str(tmp_path / ("a%d.npy" % k)))
        np.save(files[-1], a)
    output = str(tmp_path / "out.npy")
    function, names = SUBCOMMANDS[subcommand]
    command = [CLI, subcommand]
    for key, value in attributes.items():
        flag = names.get(key) or OPTIONS[key]
        command += [flag] if value is True else [flag, str(value)]
    command += files + ["-o", output]
    cli = subprocess.run(command, capture_output=True, text=True)
    # The module gets the same arrays as strided views (the tool reads packed files).
    views = [np.ascontiguousarray(a.T).T if a.ndim > 1 else a for a in arrays]
    try:
        result = function(*views, **attributes)
    except (dmlref.Error, TypeError) as e:
        assert cli.returncode == 1, (command, cli.stderr)
        assert not os.path.exists(output)
        assert cli.stderr.strip() == "dmlref %s: %s" % (subcommand, e), cli.stderr
        return
    assert cli.returncode == 0, (command, cli.stderr)
    expected = np.load(output)
    assert result.shape == expected.shape and result.dtype == expected.dtype
    assert result.tobytes() == expected.tobytes()
