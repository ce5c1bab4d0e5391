"""The worked examples of the DirectML pages and the spec's derived vectors (shared/spec/
operators.md), from the table the C++ tests use (tests/support/spec_examples.hpp, printed as JSON
by dmlref_spec_examples_json), through the Python functions."""

import json
import os
import subprocess

import numpy as np
import pytest

import dmlref
from conftest import sentinel_like

TYPES = {"FLOAT32": np.float32, "FLOAT16": np.float16, "FLOAT64": np.float64, "UINT32": np.uint32,
         "UINT16": np.uint16, "UINT8": np.uint8, "INT32": np.int32, "INT16": np.int16, "INT8": np.int8,
         "UINT64": np.uint64, "INT64": np.int64}


def load_examples():
    program = os.environ.get("DMLREF_SPEC_EXAMPLES")
    if not program:
        return []
    return json.loads(subprocess.run([program], check=True, capture_output=True, text=True).stdout)


EXAMPLES = load_examples()


def array(spec):
    """The example's tensor; values left out (shape-only examples) become zeros, and literal forms
    whose value count differs from their sizes keep the values that fit."""
    dtype = TYPES[spec["type"]]
    count = int(np.prod(spec["sizes"], dtype=np.int64))
    values = spec["values"] or [0] * count
    values = (values * count)[:count] if len(values) < count else values[:count]
    # uint32/uint64 values such as 4294967295 are exact in the JSON's doubles.
    return np.array([int(v) if dtype(0).dtype.kind in "iu" else v for v in values], dtype=dtype).reshape(
        spec["sizes"])


def run(example, out):
    a = example["attr"]
    x = array(example["input"])
    idx = array(example["indices"])
    op = example["op"]
    common = {"out": out, "check_collisions": example["check_collisions"]} if op.startswith("scatter") else {"out": out}
    if op == "gather":
        return dmlref.gather(x, idx, a[0], a[1], **common)
    if op == "gather_elements":
        return dmlref.gather_elements(x, idx, a[0], **common)
    if op == "gather_nd":
        return dmlref.gather_nd(x, idx, a[0], a[1], **common)
    if op == "gather_nd1":
        return dmlref.gather_nd1(x, idx, a[0], a[1], a[2], **common)
    upd = array(example["updates"])
    if op == "scatter":
        return dmlref.scatter(x, idx, upd, a[0], **common)
    return dmlref.scatter_nd(x, idx, upd, a[0], a[1], **common)


ERRORS = {
    "shape_error": (dmlref.Error, ("shape_mismatch", "invalid_attribute")),
    "index_error": (dmlref.IndexOutOfRangeError, ("index_out_of_range",)),
    "collision_error": (dmlref.Error, ("scatter_collision",)),
    "data_type_error": (dmlref.Error, ("data_type_mismatch",)),
    "index_type_error": (dmlref.Error, ("unsupported_index_type",)),
    # The module left-pads ranks as the CLI does, so the page's tensors of different ranks become
    # the padded form (the '-padded' variant), whose own error is then reported.
    "dimension_count_error": (dmlref.Error, ("unsupported_index_type",)),
}


def test_the_table_is_there():
    if not os.environ.get("DMLREF_SPEC_EXAMPLES"):
        pytest.skip("DMLREF_SPEC_EXAMPLES is not set (ctest sets it)")
    assert len(EXAMPLES) >= 30
    assert {e["id"] for e in EXAMPLES} >= {"G-1", "GE-1", "GN-1", "GN1-2", "S-1", "SN-1", "X-12", "X-13"}


@pytest.mark.parametrize("example", EXAMPLES, ids=[e["id"] for e in EXAMPLES])
def test_example(example):
    expected = example["output"]
    out = sentinel_like(expected["sizes"], TYPES[expected["type"]])
    before = out.copy()
    if example["expect"] == "ok":
        result = run(example, None)  # a new array
        assert list(result.shape) == expected["sizes"]
        if expected["values"]:
            assert result.dtype == TYPES[expected["type"]]
            assert result.reshape(-1).tolist() == expected["values"]
        assert run(example, out) is out  # and into out=
        assert np.array_equal(out, result)
        return
    cls, codes = ERRORS[example["expect"]]
    with pytest.raises(cls) as info:
        run(example, out)
    assert info.value.code in codes, str(info.value)
    assert np.array_equal(out.view(np.uint8), before.view(np.uint8))
