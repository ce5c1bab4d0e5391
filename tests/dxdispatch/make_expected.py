#!/usr/bin/python3
"""Writes the data files and the expected outputs of the `dmlref run` tests (tests/dxdispatch/).

Run with Debian's interpreter and numpy (python3-numpy, numpy 1.24), from anywhere:

    /usr/bin/python3 tests/dxdispatch/make_expected.py

It writes

  models/data/*            the .npy and raw files the models read (sourcePath);
  expected/CASE.stdout     what `dmlref run` prints for each successful case of cases.txt (and
                           for failing cases that print before they fail);
  expected/CASE/...        the files its writeFile commands write, byte for byte.

The models themselves (models/*.json) and the expected error messages of the failing cases
(expected/CASE.stderr) are written by hand. Every expected value here is computed with numpy from
the values typed into the models, by operations of numpy's own (take, take_along_axis, fancy
indexing); print lines are formatted as DxDispatch formats them (C++'s default stream output, which
is C's %g) and .npy files are built byte by byte in DxDispatch's header layout. dmlref is never run
to produce an expected value. The spec's example models (spec_e*.json) are checked against the
print lines the spec gives for them.
"""

import math
import os
import shutil
import struct

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
MODELS = os.path.join(HERE, "models")
DATA = os.path.join(MODELS, "data")
EXPECTED = os.path.join(HERE, "expected")


# ---------------------------------------------------------------------------------------------
# DxDispatch's conventions, written from docs/dxdispatch.md.

def half_toward_zero(value):
    """float -> binary16 bits, truncating (half.hpp's default): overflow gives infinity."""
    f = np.float32(value)
    x = int(f.view(np.uint32))
    sign = (x >> 16) & 0x8000
    exponent = (x >> 23) & 0xFF
    mantissa = x & 0x7FFFFF
    if exponent == 0xFF:
        return sign | 0x7C00 | (mantissa >> 13)
    unbiased = exponent - 127
    if unbiased >= 16:
        return sign | 0x7C00
    if unbiased >= -14:
        return sign | ((unbiased + 15) << 10) | (mantissa >> 13)
    if exponent == 0:
        return sign
    # Subnormal half: value / 2^-24, truncated. The float's significand is (1.m) * 2^unbiased.
    significand = mantissa | 0x800000  # value = significand * 2^(unbiased - 23)
    shift = -(unbiased - 23) - 24       # to units of 2^-24
    return sign | (significand >> shift if shift < 64 else 0)


def halves(bits):
    return np.array(bits, dtype=np.uint16).view(np.float16)


def c_value(v):
    """One element as DxDispatch prints it; NaN and infinity spelled nan, -nan, inf, -inf."""
    if isinstance(v, (np.floating,)):
        x = float(v)
        if math.isnan(x):
            return "-nan" if np.signbit(v) else "nan"
        if math.isinf(x):
            return "-inf" if x < 0 else "inf"
        return "%g" % x
    return str(int(v))


def print_line(name, array):
    return "Resource '%s': %s\n" % (name, ", ".join(c_value(v) for v in np.asarray(array).ravel()))


def print_verbose(name, array):
    a = np.asarray(array).ravel()
    size = a.dtype.itemsize
    raw = a.view({1: np.uint8, 2: np.uint16, 4: np.uint32, 8: np.uint64}[size])
    width = len(str(len(a)))
    text = "Resource '%s':\n" % name
    for i, (v, bits) in enumerate(zip(a, raw)):
        text += "[%*d] %s (0x%*X)\n" % (width, i, c_value(v), 2 * size, int(bits))
    return text + "\n"


def written(name, path):
    return "Resource '%s' written to '@OUT@/%s'\n" % (name, path)


def dx_npy(buffer, descr, shape):
    """A .npy file as DxDispatch's writeFile makes it: its own header text, the whole buffer."""
    text = "{'descr':'%s', 'fortran_order':False, 'shape':(%s), }" % (descr, "".join("%d," % d for d in shape))
    total = (10 + len(text) + 1 + 63) // 64 * 64
    header = text + " " * (total - 10 - len(text) - 1) + "\n"
    return b"\x93NUMPY\x01\x00" + struct.pack("<H", total - 10) + header.encode("ascii") + bytes(buffer)


def buffer_of(array, size=None):
    """The bytes of a resource: the data, zero-padded to `size` (default: up to a multiple of 4)."""
    data = np.ascontiguousarray(array).tobytes()
    if size is None:
        size = (len(data) + 3) // 4 * 4
    return data + b"\0" * (size - len(data))


# ---------------------------------------------------------------------------------------------
# Data files the models read.

def write_data():
    os.makedirs(DATA, exist_ok=True)
    np.save(os.path.join(DATA, "table.npy"), np.arange(12, dtype=np.float32).reshape(4, 3) * np.float32(1.5))
    with open(os.path.join(DATA, "ids_i32.bin"), "wb") as f:
        f.write(np.array([3, -4], dtype="<i4").tobytes())
    np.save(os.path.join(DATA, "print_f32.npy"), PRINT_F32)
    np.save(os.path.join(DATA, "be_u16.npy"), np.array([1, 258, 65535], dtype=">u2"))
    np.save(os.path.join(DATA, "fortran.npy"), np.asfortranarray(np.arange(6, dtype=np.float32).reshape(2, 3)))


PRINT_F32 = np.concatenate([
    np.array([0xFFC00000, 0x7FC00001, 0x80000000, 0x00000001, 0xFF800000, 0x7F7FFFFF], dtype=np.uint32).view(np.float32),
    np.array([1e-07, 1234567, 0.1, 100000, 1e6, 0.0001, 123.456, -2.5], dtype=np.float32),
])


# ---------------------------------------------------------------------------------------------
# The cases: each returns (stdout, {relative path: bytes}).

SPEC_INPUT = np.arange(1, 7, dtype=np.float32)


def spec_e1():
    out = np.take(SPEC_INPUT.reshape(2, 3), np.array([2, 0], dtype=np.uint32), axis=1)
    return check_spec(print_line("output", out), "Resource 'output': 3, 1, 6, 4\n"), {}


def spec_e2():
    idx = np.array([[2, 0], [-1, 1]], dtype=np.int32)
    out = np.take_along_axis(SPEC_INPUT.reshape(2, 3), idx % 3, axis=1)
    return check_spec(print_line("output", out), "Resource 'output': 3, 1, 6, 5\n"), {}


def spec_e3():
    x = SPEC_INPUT.reshape(2, 3)
    tuples = np.array([0, 2, 1, 0, 1, 2], dtype=np.uint32).reshape(3, 2)
    out = x[tuples[:, 0], tuples[:, 1]]
    return check_spec(print_line("output", out), "Resource 'output': 3, 4, 6\n"), {}


def spec_e4():
    x = SPEC_INPUT.reshape(2, 3)
    idx = np.array([-1, 0], dtype=np.int64)
    out = x[np.arange(2), idx % 3]
    return check_spec(print_line("output", out), "Resource 'output': 3, 4\n"), {}


def spec_e5():
    out = SPEC_INPUT.reshape(2, 3).copy()
    np.put_along_axis(out, np.array([[2, 0], [1, 2]]), np.array([[10, 20], [30, 40]], dtype=np.float32), axis=1)
    return check_spec(print_line("output", out), "Resource 'output': 20, 2, 10, 4, 30, 40\n"), {}


def spec_e6():
    out = SPEC_INPUT.reshape(3, 2).copy()
    updates = np.array([[10, 20], [30, 40]], dtype=np.float32)
    for tuple_index, row in enumerate([2, 0]):
        out[row] = updates[tuple_index]
    stdout = check_spec(print_line("output", out), "Resource 'output': 30, 40, 3, 4, 10, 20\n")
    return stdout + written("output", "e6.npy"), {"e6.npy": dx_npy(buffer_of(out), "<f4", (1, 3, 2))}


def check_spec(ours, spec):
    assert ours == spec, (ours, spec)
    return ours


def initializers():
    table = np.arange(12, dtype=np.float32).reshape(4, 3) * np.float32(1.5)
    raw_ids = np.array([3, -4], dtype=np.int32)
    list_id = np.frombuffer(struct.pack("<BBH", 2, 0, 0), dtype="<u4")  # the list's packed bytes
    seq_ids = np.array([3 - i for i in range(4)], dtype=np.int64)
    array_ids = np.array([2, 2, 0], dtype=np.uint64)
    out_rows = np.take(table, raw_ids % 4, axis=0)
    out_row = np.take(table, list_id, axis=0)
    out_all = np.take(table, seq_ids, axis=0)
    out_cols = np.take(table, array_ids.astype(np.intp), axis=1)
    stdout = (print_line("table", table) + print_line("raw_ids", raw_ids) + print_line("seq_ids", seq_ids) +
              print_line("array_ids", array_ids) + print_line("out_rows", out_rows) + print_line("out_row", out_row) +
              print_line("out_all", out_all) + print_line("out_cols", out_cols))
    return stdout, {}


def half_sequence(count, start, delta):
    """A FLOAT16 sequence as DxDispatch builds it: each sum in float, truncated to half."""
    value, step = half_toward_zero(start), half_toward_zero(delta)
    bits = []
    for _ in range(count):
        bits.append(value)
        total = np.float32(halves([value])[0]) + np.float32(halves([step])[0])
        value = half_toward_zero(total)
    return halves(bits)


def gather_elements_strided():
    data = half_sequence(14, -1, 0.5)
    view = np.lib.stride_tricks.as_strided(data[2:], shape=(3, 4), strides=(2, 6))  # Strides [1, 3] elements
    idx = np.array([3, 0, -1, 1, 2, -4], dtype=np.int32).reshape(3, 2)
    gathered = np.take_along_axis(view, idx % 4, axis=1)
    out = halves([0x8000] * 10)  # -0.0
    for i in range(3):
        for c in range(2):
            out[1 + 3 * i + c] = gathered[i, c]
    return print_line("data", data) + print_verbose("out", out), {}


def gather_nd_int64():
    table = np.array([-9223372036854775808, 9223372036854775807, -1, 0, 1234567890123, 42], dtype=np.int64).reshape(2, 3)
    tuples = np.array([99, 1, 2, 0, 0], dtype=np.uint64)[1:].reshape(2, 2)
    out_elements = table[tuples[:, 0].astype(np.intp), tuples[:, 1].astype(np.intp)]
    out_row = table[1]
    return print_line("out_elements", out_elements) + print_line("out_row", out_row), {}


def gather_nd1_float64():
    x = np.array([0.1, 1e-300, -2.5, np.inf, np.nan, 123456789, -0.0, 1e300], dtype=np.float64)
    idx = np.array([1, -2], dtype=np.int32)
    table = x.reshape(2, 2, 2)
    out = np.stack([table[b][idx[b] % 2] for b in range(2)])
    return print_line("input", x) + print_line("out", out), {}


def scatter_int8_inplace():
    data = np.array([-128, 127, 0, 1, -1, 2, 3, 4, 5], dtype=np.int8).reshape(3, 3)
    idx = np.array([-1, 0, 2], dtype=np.int32)
    upd = np.array([-7, 100, -100], dtype=np.int8)
    for c in range(3):
        data[idx[c] % 3, c] = upd[c]
    return print_line("data", data) + print_verbose("data", data), {}


def scatter_nd_files():
    x = (np.uint16(65530) + np.arange(8, dtype=np.uint32)).astype(np.uint16)  # wraps past 65535
    out = x.reshape(2, 4).copy()
    for (r, c), u in zip([(1, 3), (0, 0)], [7, 8]):
        out[r, c] = u
    halves_buffer = buffer_of(np.array([1, 2, 3, 4, 5], dtype=np.float16))  # 10 bytes -> 12
    bytes_buffer = buffer_of(np.array([1, 2, 3], dtype=np.uint8))            # 3 bytes -> 4
    files = {
        "sub/dir/result.npy": dx_npy(buffer_of(out), "<u2", (2, 4)),
        "raw/result.bin": buffer_of(out),
        "input.NPY": dx_npy(buffer_of(x), "<u2", (8,)),
        "halves.npy": dx_npy(halves_buffer, "<f2", (6,)),
        "bytes.npy": dx_npy(bytes_buffer, "<u1", (3,)),
    }
    stdout = (print_line("output", out) + written("output", "sub/dir/result.npy") + written("output", "raw/result.bin") +
              written("input", "input.NPY") + written("halves", "halves.npy") + written("bytes", "bytes.npy"))
    return stdout, files


def shared_buffer(threads=None):
    table = np.arange(12, dtype=np.float32).reshape(4, 3)
    updates = np.array([100, 101, 102, 200, 201, 202], dtype=np.float32).reshape(2, 3)
    for t, row in enumerate([3, 0]):
        table[row] = updates[t]
    out = np.take(table, [0, 1, 3], axis=0)
    return print_line("table", table) + print_line("out", out), {}


def owned_by_dml():
    weights = np.arange(1, 7, dtype=np.float32).reshape(3, 2)
    snapshot = weights.copy()
    weights[2] = [-1, -2]
    ids = np.array([2, 0])
    return (print_line("weights", weights) + print_line("out_owned", snapshot[ids]) + print_line("out_live", weights[ids])), {}


def syntax_variants():
    t = np.array([1, 2, 3, 4], dtype=np.float32)
    idx_bytes = np.array([9, 9, 3, 0, 1, 0], dtype=np.uint16).tobytes()
    g_ids = np.frombuffer(idx_bytes[4:12], dtype="<u4")
    inline_ids = np.frombuffer(idx_bytes[8:12], dtype="<u4")
    values = [0.3, 65519, 1e6, -1e6, float("nan"), float("-inf"), 1e-8, 6e-8, -0.0]
    halves_values = halves([half_toward_zero(v) for v in values])
    assert halves_values.view(np.uint16)[0] == 0x34CC  # docs/dxdispatch.md's example
    stdout = (print_line("out", np.take(t, g_ids)) + print_line("out2", np.take(t, inline_ids)) + print_line("t", t) +
              print_verbose("halves", halves_values) + print_line("steps", half_sequence(5, 0, 0.1)))
    return stdout, {}


def print_values():
    be = np.array([1, 258, 65535], dtype=np.uint16)
    u8 = np.array([0, 255, 10], dtype=np.uint8)
    i8 = np.array([-128, -1, 127], dtype=np.int8)
    u64 = np.array([18446744073709551615, 0], dtype=np.uint64)
    i16 = np.arange(-5, 6, dtype=np.int16)
    stdout = (print_line("f32", PRINT_F32) + print_verbose("f32", PRINT_F32) + print_line("be", be) +
              print_line("u8", u8) + print_verbose("u8", u8) + print_verbose("i8", i8) + print_verbose("u64", u64) +
              print_verbose("i16", i16))
    return stdout, {}


def skip_unsupported():
    out = np.take(np.array([1, 2, 3, 4], dtype=np.float32), [3, 1])
    return print_line("out", out) + written("out", "out.npy"), {"out.npy": dx_npy(buffer_of(out), "<f4", (2,))}


def feature_level_int64():
    table = np.array([10, -20, 30, -9223372036854775808, 50, 9223372036854775807], dtype=np.int64).reshape(2, 3)
    idx = np.array([2, -3, -1, 0], dtype=np.int32).reshape(2, 2)
    out = np.take_along_axis(table, idx % 3, axis=1)
    return print_line("input", table.reshape(-1)) + print_line("output", out), {}


def clamp_input():
    return print_line("input", np.arange(1, 7, dtype=np.float32))


def clamp():
    x = np.arange(1, 7, dtype=np.float32).reshape(3, 2)
    # WebNN's arithmetic: clamp to [-n, n-1], then add n if negative.
    rows = [v + 3 if v < 0 else v for v in np.clip(np.array([5, -7]), -3, 2)]
    out = x[rows]
    stdout = clamp_input() + print_line("out", out) + written("out", "out.npy")
    return stdout, {"out.npy": dx_npy(buffer_of(out), "<f4", (2, 2))}


def collision():
    out = np.array([10, 20, 30, 40], dtype=np.uint32)
    for i, u in zip([1, 3, 1], [7, 8, 9]):
        out[i] = u  # later updates win
    return print_line("out", out), {}


CASES = {
    "spec_e1": spec_e1, "spec_e2": spec_e2, "spec_e3": spec_e3, "spec_e4": spec_e4, "spec_e5": spec_e5,
    "spec_e6": spec_e6,
    "initializers": initializers,
    "gather_elements_strided": gather_elements_strided,
    "gather_nd_int64": gather_nd_int64,
    "gather_nd1_float64": gather_nd1_float64,
    "scatter_int8_inplace": scatter_int8_inplace,
    "scatter_nd_files": scatter_nd_files,
    "shared_buffer": shared_buffer,
    "shared_buffer.threads": shared_buffer,
    "owned_by_dml": owned_by_dml,
    "syntax_variants": syntax_variants,
    "print_values": print_values,
    "skip_unsupported": skip_unsupported,
    "clamp": clamp,
    "collision": collision,
    "feature_level": spec_e1,
    "feature_level.3_0": spec_e1,
    "feature_level.int64": feature_level_int64,
    "feature_level.int64.none": feature_level_int64,
    # Failing cases that print before they fail.
    "clamp.error": lambda: (clamp_input(), {}),
    "write_file_folder": lambda: (spec_e6()[0].splitlines(keepends=True)[0], {}),
}


def case_names():
    """The names in cases.txt: every case that exits 0 must have an expected output here."""
    names = {}
    with open(os.path.join(HERE, "cases.txt")) as f:
        for line in f:
            if line.startswith("#") or not line.strip():
                continue
            name, status = line.rstrip("\n").split("\t")[:2]
            names[name] = status
    return names


def main():
    write_data()
    listed = case_names()
    missing = [n for n, s in listed.items() if s == "0" and n not in CASES]
    unknown = [n for n in CASES if n not in listed]
    assert not missing and not unknown, (missing, unknown)
    if os.path.isdir(EXPECTED):
        for entry in os.listdir(EXPECTED):
            path = os.path.join(EXPECTED, entry)
            if os.path.isdir(path):
                shutil.rmtree(path)
            elif entry.endswith(".stdout"):
                os.remove(path)
    os.makedirs(EXPECTED, exist_ok=True)
    for name, make in CASES.items():
        stdout, files = make()
        with open(os.path.join(EXPECTED, name + ".stdout"), "w") as f:
            f.write(stdout)
        for relative, content in files.items():
            path = os.path.join(EXPECTED, name, relative)
            os.makedirs(os.path.dirname(path), exist_ok=True)
            with open(path, "wb") as f:
                f.write(content)


if __name__ == "__main__":
    main()
