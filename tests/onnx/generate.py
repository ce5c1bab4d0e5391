#!/usr/bin/python3
"""Regenerates the ONNX conformance data of tests/onnx/test_onnx.cpp.

Run with Debian's interpreter and python3-onnx (onnx 1.12, numpy 1.24):

    apt-get install -y python3-onnx
    /usr/bin/python3 tests/onnx/generate.py

It writes

  tests/onnx/node/<case>.txt   every case of the ONNX backend node tests for Gather, GatherElements,
                               GatherND, Scatter, ScatterElements and ScatterND, as onnx's own
                               generators (onnx/backend/test/case/node/*.py) export them;
  tests/onnx/extra/<case>.txt  cases the ONNX operator text describes but onnx 1.12's generators
                               lack (negative axis, negative GatherND indices, batch_dims > 1, the
                               opset-18 max/min reductions, reductions on float16 and integers,
                               ...), with expected outputs computed below by plain loops over numpy
                               scalars (numpy's own float16 and integer arithmetic), never by onnx's
                               helpers (scatter_nd_impl is wrong for tuples longer than 1, and
                               gather_elements wraps out-of-range indices);
  tests/onnx/cases.txt         the list of all case files, which the C++ test reads.

onnx's collect_testcases() imports every node module and fails on numpy 1.24, so this script imports
only the six modules it needs, with the package's `expect` replaced by a function that records the
case. Importing a module runs its exports (the Base metaclass seeds numpy's generator with 0 before
each), so the data are the same on every run.

The format is line based; `#` starts a comment. Per case:

    name <case>
    op <ONNX op type>
    opset <version>
    attribute <name> <integer or word>          (zero or more)
    input|output <name> <TYPE> rank <r> shape <d0 .. d(r-1)>
    values <v0 v1 ...>                           (product of the shape values, row-major)
    end

TYPE is a DirectML data type name (FLOAT32, FLOAT16, FLOAT64, INT8 ... UINT64). Integers are
decimal; floating-point values are their exact bit patterns in hex (0x3f800000), followed on each
line by a comment with the decimal values.
"""

import importlib
import os
import sys

import numpy as np
import onnx
import onnx.helper

HERE = os.path.dirname(os.path.abspath(__file__))

TYPE_NAMES = {
    np.dtype(np.float32): "FLOAT32",
    np.dtype(np.float16): "FLOAT16",
    np.dtype(np.float64): "FLOAT64",
    np.dtype(np.int8): "INT8",
    np.dtype(np.int16): "INT16",
    np.dtype(np.int32): "INT32",
    np.dtype(np.int64): "INT64",
    np.dtype(np.uint8): "UINT8",
    np.dtype(np.uint16): "UINT16",
    np.dtype(np.uint32): "UINT32",
    np.dtype(np.uint64): "UINT64",
}
BITS = {np.dtype(np.float16): np.uint16, np.dtype(np.float32): np.uint32, np.dtype(np.float64): np.uint64}
PER_LINE = 8


def tensor_lines(role, name, array):
    array = np.asarray(array)
    dtype = array.dtype
    if dtype not in TYPE_NAMES:
        raise SystemExit(f"unsupported dtype {dtype} for {name}")
    shape = " ".join(str(d) for d in array.shape)
    lines = [f"{role} {name} {TYPE_NAMES[dtype]} rank {array.ndim} shape {shape}".rstrip()]
    flat = array.reshape(-1)
    if dtype in BITS:
        digits = dtype.itemsize * 2
        bits = flat.view(BITS[dtype])
        text = [f"0x{int(b):0{digits}x}" for b in bits]
        notes = [repr(float(v)) for v in flat]
    else:
        text = [str(int(v)) for v in flat]
        notes = None
    if len(text) == 0:
        lines.append("values")
    for start in range(0, len(text), PER_LINE):
        head = "values " if start == 0 else "       "
        line = head + " ".join(text[start:start + PER_LINE])
        if notes is not None:
            line += "  # " + " ".join(notes[start:start + PER_LINE])
        lines.append(line)
    return lines


def write_case(directory, case):
    os.makedirs(directory, exist_ok=True)
    lines = [f"# {line}" for line in case["comment"]]
    lines.append(f"name {case['name']}")
    lines.append(f"op {case['op']}")
    lines.append(f"opset {case['opset']}")
    for key, value in case["attributes"]:
        lines.append(f"attribute {key} {value}")
    for name, array in case["inputs"]:
        lines += tensor_lines("input", name, array)
    for name, array in case["outputs"]:
        lines += tensor_lines("output", name, array)
    lines.append("end")
    path = os.path.join(directory, case["name"] + ".txt")
    with open(path, "w") as f:
        f.write("\n".join(lines) + "\n")
    return os.path.relpath(path, HERE)


# ---------------------------------------------------------------------------------------------
# The ONNX backend node cases, as onnx exports them.

MODULES = ["gather", "gatherelements", "gathernd", "scatter", "scatterelements", "scatternd"]
OPS = {"Gather", "GatherElements", "GatherND", "Scatter", "ScatterElements", "ScatterND"}


def exported_cases():
    import onnx.backend.test.case.node as node_package

    captured = []
    current = {"module": None}

    def capture(node, inputs, outputs, name, **kwargs):
        if node.op_type not in OPS:
            raise SystemExit(f"{name}: unexpected op {node.op_type}")
        if "opset_imports" in kwargs:
            opsets = [o.version for o in kwargs["opset_imports"] if o.domain in ("", "ai.onnx")]
            opset = opsets[0]
        else:  # what onnx's expect() uses: the op's latest since_version
            opset = onnx.defs.get_schema(node.op_type, node.domain).since_version
        attributes = []
        for attribute in node.attribute:
            value = onnx.helper.get_attribute_value(attribute)
            if isinstance(value, bytes):
                value = value.decode()
            attributes.append((attribute.name, value))
        present_inputs = [x for x in node.input if x != ""]
        present_outputs = [x for x in node.output if x != ""]
        captured.append({
            "name": name,
            "op": node.op_type,
            "opset": opset,
            "attributes": attributes,
            "inputs": list(zip(present_inputs, inputs)),
            "outputs": list(zip(present_outputs, outputs)),
            "comment": [
                f"ONNX backend node test case, exported by tests/onnx/generate.py from onnx {onnx.__version__}",
                f"(onnx/backend/test/case/node/{current['module']}.py). Do not edit; rerun the script.",
            ],
        })

    node_package.expect = capture  # the modules do `from . import expect` when imported
    for module in MODULES:
        current["module"] = module
        full_name = f"onnx.backend.test.case.node.{module}"
        if full_name in sys.modules:
            raise SystemExit(f"{full_name} was imported before expect was replaced")
        importlib.import_module(full_name)
    return captured


# ---------------------------------------------------------------------------------------------
# Extra cases: expected outputs by straightforward loops over numpy scalars.


def normalize(v, n):
    v = int(v)
    if v < 0:
        v += n
    assert 0 <= v < n, "extra cases use in-range indices only"
    return v


def is_nan(x):
    return np.issubdtype(type(x), np.floating) and bool(np.isnan(x))


def combine(reduction, old, new):
    """One step of a reduction in the data type's own numpy arithmetic (float16 rounds after every
    step, integers wrap). max/min as dmlref documents them (reduction.hpp): a NaN propagates, the
    output's if it has one, else the update's, with its bits unchanged; between equal values
    (-0 and +0) the output's is kept. This is spelled out here instead of calling np.maximum,
    whose float32/float64 loops return the second operand on a -0/+0 tie (float16 the first)."""
    with np.errstate(over="ignore", invalid="ignore"):
        if reduction == "none":
            return new
        if reduction == "add":
            return old + new
        if reduction == "mul":
            return old * new
        if reduction in ("max", "min"):
            if is_nan(old):
                return old
            if is_nan(new):
                return new
            better = new > old if reduction == "max" else new < old
            return new if better else old
    raise ValueError(reduction)


def ref_gather(data, indices, axis):
    r = data.ndim
    axis = axis + r if axis < 0 else axis
    indices = np.asarray(indices)
    out = np.empty(data.shape[:axis] + indices.shape + data.shape[axis + 1:], dtype=data.dtype)
    for o in np.ndindex(out.shape):
        j = o[axis:axis + indices.ndim]
        a = normalize(indices[j], data.shape[axis])
        out[o] = data[o[:axis] + (a,) + o[axis + indices.ndim:]]
    return out


def ref_gather_elements(data, indices, axis):
    axis = axis + data.ndim if axis < 0 else axis
    out = np.empty(indices.shape, dtype=data.dtype)
    for o in np.ndindex(indices.shape):
        i = list(o)
        i[axis] = normalize(indices[o], data.shape[axis])
        out[o] = data[tuple(i)]
    return out


def ref_gather_nd(data, indices, batch_dims):
    b = batch_dims
    k = indices.shape[-1]
    out = np.empty(indices.shape[:-1] + data.shape[b + k:], dtype=data.dtype)
    for o in np.ndindex(out.shape):
        g = o[:indices.ndim - 1]
        t = o[indices.ndim - 1:]
        tup = tuple(normalize(indices[g + (m,)], data.shape[b + m]) for m in range(k))
        out[o] = data[g[:b] + tup + t]
    return out


def ref_scatter_elements(data, indices, updates, axis, reduction="none"):
    axis = axis + data.ndim if axis < 0 else axis
    out = data.copy()
    for u in np.ndindex(indices.shape):  # row-major order of the updates
        o = list(u)
        o[axis] = normalize(indices[u], data.shape[axis])
        o = tuple(o)
        out[o] = combine(reduction, out[o], updates[u])
    return out


def ref_scatter_nd(data, indices, updates, reduction="none"):
    k = indices.shape[-1]
    out = data.copy()
    for u in np.ndindex(updates.shape):  # row-major order of the updates
        g = u[:indices.ndim - 1]
        t = u[indices.ndim - 1:]
        o = tuple(normalize(indices[g + (m,)], data.shape[m]) for m in range(k)) + t
        out[o] = combine(reduction, out[o], updates[u])
    return out


def f16(*values):
    return np.array(values, dtype=np.float16)


def bits16(*patterns):
    return np.array(patterns, dtype=np.uint16).view(np.float16)


def bits32(*patterns):
    return np.array(patterns, dtype=np.uint32).view(np.float32)


def extra_cases():
    cases = []
    rng = np.random.default_rng(20240501)

    def add(name, op, opset, attributes, inputs, output_name, output, note):
        cases.append({
            "name": "extra_" + name,
            "op": op,
            "opset": opset,
            "attributes": attributes,
            "inputs": inputs,
            "outputs": [(output_name, output)],
            "comment": [
                "Extra ONNX case (not among onnx 1.12's exported node tests), written by tests/onnx/generate.py;",
                "expected output from the script's own loops over numpy scalars. " + note,
            ],
        })

    # --- Gather: negative axis, int32 indices, 0-d indices, rank-0 output ---
    data = rng.standard_normal((2, 3, 4)).astype(np.float32)
    idx = np.array([3, -1, 0, -4, 2], dtype=np.int64)
    add("gather_negative_axis", "Gather", 13, [("axis", -1)],
        [("data", data), ("indices", idx)], "y", ref_gather(data, idx, -1), "axis -1 == 2.")
    idx = np.array([[2, -3], [1, 0]], dtype=np.int32)
    add("gather_negative_axis_int32_2d", "Gather", 13, [("axis", -2)],
        [("data", data), ("indices", idx)], "y", ref_gather(data, idx, -2), "axis -2 == 1, int32 indices.")
    idx = np.array(-2, dtype=np.int64)
    add("gather_scalar_index", "Gather", 13, [("axis", 1)],
        [("data", data), ("indices", idx)], "y", ref_gather(data, idx, 1), "0-d indices drop the axis.")
    vec = np.arange(10, 17).astype(np.float64)
    idx = np.array(4, dtype=np.int32)
    add("gather_scalar_output", "Gather", 13, [("axis", 0)],
        [("data", vec), ("indices", idx)], "y", ref_gather(vec, idx, 0), "rank-1 data, 0-d indices: a 0-d output.")
    big = np.arange(2 * 2 * 2 * 2 * 2, dtype=np.int16).reshape(2, 2, 2, 2, 2)
    idx = np.array([[[1, 0], [0, 1]]], dtype=np.int64)  # rank 3: output rank 5 + 3 - 1 = 7
    add("gather_rank7_output", "Gather", 13, [("axis", -3)],
        [("data", big), ("indices", idx)], "y", ref_gather(big, idx, -3), "padded rank 7.")

    # --- GatherElements: negative axis, int32, smaller indices on non-axis dims (ORT, PyTorch) ---
    data = np.arange(1, 13, dtype=np.float32).reshape(3, 4)
    idx = np.array([[3, -1, 0], [-4, 1, 2]], dtype=np.int64)
    add("gather_elements_negative_axis", "GatherElements", 13, [("axis", -1)],
        [("data", data), ("indices", idx)], "y", ref_gather_elements(data, idx, -1),
        "axis -1; indices smaller than data on dimension 0 as ONNX Runtime and PyTorch allow.")
    data3 = rng.integers(-100, 100, size=(3, 4, 5)).astype(np.int8)
    idx = np.array([[[0, 2], [-1, 1]], [[2, 2], [0, -3]]], dtype=np.int32)  # (2, 2, 2) with axis 0
    add("gather_elements_smaller_indices", "GatherElements", 13, [("axis", 0)],
        [("data", data3), ("indices", idx)], "y", ref_gather_elements(data3, idx, 0),
        "indices (2,2,2) into data (3,4,5) along axis 0 (dimensions 1 and 2 cropped).")

    # --- GatherND: negative indices, batch_dims 1 and 2, K == r - b, int32, 0-d output ---
    data = np.arange(24, dtype=np.float32).reshape(2, 3, 4)
    idx = np.array([[-1, -3], [0, -1], [1, 2]], dtype=np.int64)
    add("gathernd_negative_indices", "GatherND", 13, [],
        [("data", data), ("indices", idx)], "output", ref_gather_nd(data, idx, 0), "K = 2 < r.")
    idx = np.array([[[-1], [0]], [[2], [-3]]], dtype=np.int32)
    data_b = np.arange(2 * 3 * 4, dtype=np.int64).reshape(2, 3, 4)
    add("gathernd_batch_dims_1_negative", "GatherND", 13, [("batch_dims", 1)],
        [("data", data_b), ("indices", idx)], "output", ref_gather_nd(data_b, idx, 1), "int32 indices.")
    data = rng.standard_normal((2, 3, 4, 5)).astype(np.float16)
    idx = np.array([[[[1, -1], [0, 4]], [[3, 0], [-4, -5]], [[2, 2], [0, 0]]],
                    [[[0, 1], [-1, 3]], [[1, 1], [2, 2]], [[3, 4], [-2, -2]]]], dtype=np.int64)
    add("gathernd_batch_dims_2", "GatherND", 13, [("batch_dims", 2)],
        [("data", data), ("indices", idx)], "output", ref_gather_nd(data, idx, 2),
        "batch_dims 2, K = r - b (scalars).")
    idx = np.array([[[2], [-1]], [[0], [1]], [[-2], [3]]]).reshape(1, 3, 2, 1)
    idx = np.broadcast_to(idx, (2, 3, 2, 1)).copy().astype(np.int64)
    add("gathernd_batch_dims_2_slices", "GatherND", 13, [("batch_dims", 2)],
        [("data", data), ("indices", idx)], "output", ref_gather_nd(data, idx, 2),
        "batch_dims 2, K = 1: slices of 5.")
    mat = np.array([[7, 8, 9], [10, 11, 12]], dtype=np.uint32)
    idx = np.array([1, -2], dtype=np.int64)
    add("gathernd_scalar_output", "GatherND", 13, [],
        [("data", mat), ("indices", idx)], "output", ref_gather_nd(mat, idx, 0), "q = 1, K = r: a 0-d output.")

    # --- Scatter (deprecated) and ScatterElements: negative axis, reductions, smaller indices ---
    data = np.zeros((2, 4), dtype=np.float32)
    idx = np.array([[-1, 0], [1, -2]], dtype=np.int64)
    upd = np.array([[1.5, 2.5], [3.5, 4.5]], dtype=np.float32)
    add("scatter_negative_axis", "Scatter", 11, [("axis", -1)],
        [("data", data), ("indices", idx), ("updates", upd)], "y", ref_scatter_elements(data, idx, upd, -1),
        "deprecated Scatter (opset 11), axis -1.")
    data = np.arange(1, 13, dtype=np.float32).reshape(3, 4)
    idx = np.array([[2, -1], [0, 0]], dtype=np.int32)
    upd = np.array([[10, 20], [30, 40]], dtype=np.float32)
    add("scatter_elements_negative_axis_smaller", "ScatterElements", 16, [("axis", -2)],
        [("data", data), ("indices", idx), ("updates", upd)], "y", ref_scatter_elements(data, idx, upd, -2),
        "axis -2; indices (2,2) into data (3,4): dimension 1 cropped as ONNX Runtime allows.")

    # Reductions: duplicates in row-major order, float16 per-step rounding, integer wrap, NaN.
    data = f16(2048, 1, -0.0, 0.5, 65504)
    idx = np.array([0, 0, 0, 0, 1, 2, 4, 4, -1], dtype=np.int64)
    upd = f16(1, 1, 1, 1, 0.0009765625, 0.0, 32, 16, -0.25)
    for reduction in ("add", "mul", "max", "min"):
        add(f"scatter_elements_{reduction}_float16", "ScatterElements", 18,
            [("axis", 0), ("reduction", reduction)],
            [("data", data), ("indices", idx), ("updates", upd)], "y",
            ref_scatter_elements(data, idx, upd, 0, reduction), "float16 rounds after every step.")
    nan_a, nan_b = 0x7FC12345, 0xFFC00001
    data = bits32(0x3F800000, nan_a, 0x80000000, 0x00000000, 0x40000000)
    idx = np.array([[0, 1, 2, 3, 4, 0, 2, -1]], dtype=np.int64)
    upd = bits32(nan_b, 0x40400000, 0x00000000, 0x80000000, 0x3F800000, 0x40A00000, 0x3F000000, nan_b).reshape(1, 8)
    for reduction in ("max", "min"):
        add(f"scatter_elements_{reduction}_nan", "ScatterElements", 18,
            [("axis", 1), ("reduction", reduction)],
            [("data", data.reshape(1, 5)), ("indices", idx), ("updates", upd)], "y",
            ref_scatter_elements(data.reshape(1, 5), idx, upd, 1, reduction),
            "NaN propagates, the output's first; -0/+0 ties keep the output's value.")
    data = np.concatenate([f16(1, 2, 3), bits16(0x7C01)])  # 0x7C01: a signalling NaN
    idx = np.array([0, 3, 1, 1, 2], dtype=np.int32)
    upd = np.concatenate([bits16(0x7E05), f16(5), bits16(0xFE00), f16(-7, -0.0)])
    for reduction in ("max", "min"):
        add(f"scatter_elements_{reduction}_float16_nan", "ScatterElements", 18,
            [("axis", 0), ("reduction", reduction)],
            [("data", data), ("indices", idx), ("updates", upd)], "y",
            ref_scatter_elements(data, idx, upd, 0, reduction), "float16 NaN propagation; a NaN keeps its bits (even a signalling one).")
    for dtype, values, updates in (
        (np.int8, [100, -100, 7, -128], [100, -100, 2, 127, -1, 3]),
        (np.uint8, [200, 5, 0, 255], [100, 250, 3, 2, 255, 16]),
        (np.int32, [2**31 - 1, -2**31, 65536, -5], [1, -1, 65536, 3, 2**30, -7]),
        (np.uint64, [2**64 - 1, 3, 2**63, 0], [1, 2**64 - 2, 2, 2**63, 5, 9]),
    ):
        data = np.array(values, dtype=dtype)
        idx = np.array([0, 1, 2, 2, 3, -1], dtype=np.int64)
        upd = np.array(updates, dtype=dtype)
        for reduction in ("add", "mul", "max", "min"):
            add(f"scatter_elements_{reduction}_{np.dtype(dtype).name}", "ScatterElements", 18,
                [("axis", 0), ("reduction", reduction)],
                [("data", data), ("indices", idx), ("updates", upd)], "y",
                ref_scatter_elements(data, idx, upd, 0, reduction), "integers wrap.")
    data = np.arange(1, 13, dtype=np.float64).reshape(3, 4)
    idx = np.array([[1, 1], [-3, 1]], dtype=np.int64)
    upd = np.array([[0.5, 2.0], [-1.0, 3.0]], dtype=np.float64)
    for reduction in ("add", "mul", "max", "min"):
        add(f"scatter_elements_{reduction}_smaller_indices", "ScatterElements", 18,
            [("axis", 0), ("reduction", reduction)],
            [("data", data), ("indices", idx), ("updates", upd)], "y",
            ref_scatter_elements(data, idx, upd, 0, reduction), "indices (2,2) into data (3,4) along axis 0.")

    # --- ScatterND: tuples longer than 1, negative indices, reductions, duplicates ---
    data = np.arange(1, 25, dtype=np.float32).reshape(2, 3, 4)
    idx = np.array([[0, -1], [1, 0], [-2, 2]], dtype=np.int64)
    upd = np.arange(100, 112, dtype=np.float32).reshape(3, 4)
    add("scatternd_tuples_negative", "ScatterND", 16, [],
        [("data", data), ("indices", idx), ("updates", upd)], "y", ref_scatter_nd(data, idx, upd),
        "K = 2 < r, rows of 4.")
    idx = np.array([[[1, 2, -1], [0, 0, 0]], [[-1, -3, 1], [0, 1, -4]]], dtype=np.int32)
    upd = np.array([[-1, -2], [-3, -4]], dtype=np.float32)
    add("scatternd_elements_int32", "ScatterND", 16, [],
        [("data", data), ("indices", idx), ("updates", upd)], "y", ref_scatter_nd(data, idx, upd),
        "K = r: single elements, q = 3.")
    data = f16(*np.linspace(-2, 2, 12)).reshape(3, 4)
    idx = np.array([[0], [2], [0], [-3], [1]], dtype=np.int64)
    upd = f16(*np.linspace(-3, 4, 20)).reshape(5, 4)
    for reduction in ("add", "mul", "max", "min"):
        add(f"scatternd_{reduction}_float16_duplicates", "ScatterND", 18, [("reduction", reduction)],
            [("data", data), ("indices", idx), ("updates", upd)], "y",
            ref_scatter_nd(data, idx, upd, reduction), "row 0 updated 3 times, in order.")
    data = np.array([[120, -7], [3, 127]], dtype=np.int8)
    idx = np.array([[0, 0], [0, 0], [1, 1], [-1, -1], [0, 1]], dtype=np.int64)
    upd = np.array([10, 5, 2, 100, -128], dtype=np.int8)
    for reduction in ("add", "mul", "max", "min"):
        add(f"scatternd_{reduction}_int8_wrap", "ScatterND", 18, [("reduction", reduction)],
            [("data", data), ("indices", idx), ("updates", upd)], "y",
            ref_scatter_nd(data, idx, upd, reduction), "int8 wraps.")
    data = np.array([[5, 6, 7], [1, 2, 3]], dtype=np.uint16)
    idx = np.array([[1], [1]], dtype=np.int32)
    upd = np.array([[65535, 2, 65535], [2, 32768, 1]], dtype=np.uint16)
    for reduction in ("add", "mul", "max", "min"):
        add(f"scatternd_{reduction}_uint16_rows", "ScatterND", 18, [("reduction", reduction)],
            [("data", data), ("indices", idx), ("updates", upd)], "y",
            ref_scatter_nd(data, idx, upd, reduction), "uint16 wraps; int32 indices.")
    return cases


def main():
    exported = exported_cases()
    extra = extra_cases()
    names = [c["name"] for c in exported + extra]
    if len(set(names)) != len(names):
        raise SystemExit("duplicate case names")
    for directory in ("node", "extra"):
        path = os.path.join(HERE, directory)
        if os.path.isdir(path):
            for old in os.listdir(path):
                if old.endswith(".txt"):
                    os.remove(os.path.join(path, old))
    files = [write_case(os.path.join(HERE, "node"), c) for c in exported]
    files += [write_case(os.path.join(HERE, "extra"), c) for c in extra]
    with open(os.path.join(HERE, "cases.txt"), "w") as f:
        f.write(f"# Written by tests/onnx/generate.py (onnx {onnx.__version__}, numpy {np.__version__}).\n")
        f.write(f"# {len(exported)} exported ONNX node cases, {len(extra)} extra cases.\n")
        f.write(f"exported {len(exported)}\n")
        f.write(f"extra {len(extra)}\n")
        for path in files:
            f.write(f"case {path}\n")
    print(f"{len(exported)} exported cases, {len(extra)} extra cases")


if __name__ == "__main__":
    main()
