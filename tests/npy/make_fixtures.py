#!/usr/bin/python3
"""Regenerates the .npy fixtures of tests/npy/test_npy.cpp and of the CLI tests (tests/cli/).

Run with Debian's interpreter and numpy (python3-numpy, numpy 1.24), from anywhere:

    /usr/bin/python3 tests/npy/make_fixtures.py

It writes

  tests/npy/*.npy        the codec's fixtures: every dtype, 0-d, 1-d, 3-d and empty arrays,
                         Fortran order, format versions 2.0 and 3.0, big-endian files, a few valid
                         headers numpy does not write itself (Python 2's `3L`, double quotes, no
                         padding), and malformed files (bad_*.npy) crafted byte by byte;
  tests/cli/data/*.npy   inputs and expected outputs of the end-to-end tests of the `dmlref` tool;
  tests/cli/cases.txt    the list of those tests (read by tests/cli/cli_tests.cmake).

Expected outputs of the DirectML subcommands are the worked examples of the DirectML pages and the
derived vectors of the spec (/work/shared/spec/operators.md, sections 2.6 to 8), typed in below and
checked against a plain numpy computation; those of the onnx-* subcommands are computed here with
numpy (take, take_along_axis, and plain loops over numpy scalars for the ND operators and the
reductions, so that float16 rounds after every step and integers wrap, as numpy does). dmlref
itself is never run to produce an expected value.

The values of the codec fixtures are repeated in tests/npy/test_npy.cpp: change both together.
"""

import glob
import os
import struct
import warnings

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
CLI_DIR = os.path.normpath(os.path.join(HERE, "..", "cli"))
CLI_DATA = os.path.join(CLI_DIR, "data")

MAGIC = b"\x93NUMPY"


# ---------------------------------------------------------------------------------------------
# The codec's fixtures (tests/npy/).

def bits(values, uint, flt):
    """An array of float type `flt` with the given bit patterns."""
    return np.array(values, dtype=uint).view(flt)


F4_BITS = [0x00000000, 0x80000000, 0x3FC00000, 0x7F800000, 0x7FC01234, 0x00000001]
F8_BITS = [0, 0x8000000000000000, 0x3FF8000000000000, 0xFFF0000000000000, 0x7FF8000000001234, 1]
F2_BITS = [0x0000, 0x8000, 0x3C00, 0x7C00, 0x7E01, 0x0001]

# Six values per dtype, saved with shape (2, 3): extremes, signs, and a plain value.
DTYPE_VALUES = {
    "f8": bits(F8_BITS, np.uint64, np.float64),
    "f4": bits(F4_BITS, np.uint32, np.float32),
    "f2": bits(F2_BITS, np.uint16, np.float16),
    "i8": np.array([-(2**63), -1, 0, 1, 2**63 - 1, 1234567890123], dtype=np.int64),
    "i4": np.array([-(2**31), -1, 0, 1, 2**31 - 1, 123456], dtype=np.int32),
    "i2": np.array([-32768, -1, 0, 1, 32767, 1234], dtype=np.int16),
    "i1": np.array([-128, -1, 0, 1, 127, 42], dtype=np.int8),
    "u8": np.array([0, 1, 2**63 - 1, 2**63, 2**64 - 1, 1234567890123], dtype=np.uint64),
    "u4": np.array([0, 1, 2**31 - 1, 2**31, 2**32 - 1, 123456], dtype=np.uint32),
    "u2": np.array([0, 1, 32767, 32768, 65535, 1234], dtype=np.uint16),
    "u1": np.array([0, 1, 127, 128, 255, 42], dtype=np.uint8),
    "b1": np.array([True, False, True, True, False, False]),
}


def save(directory, name, array):
    path = os.path.join(directory, name)
    np.save(path, array, allow_pickle=True)
    return path


def write_version(name, array, version):
    with open(os.path.join(HERE, name), "wb") as f:
        np.lib.format.write_array(f, array, version=version, allow_pickle=False)


def craft(name, header, data=b"", version=(1, 0), length=None, magic=MAGIC, raw=None):
    """A file built byte by byte: magic, version, header length, header text, data."""
    path = os.path.join(HERE, name)
    with open(path, "wb") as f:
        if raw is not None:
            f.write(raw)
            return
        text = header.encode("latin1") if isinstance(header, str) else header
        fmt = "<H" if version[0] == 1 else "<I"
        f.write(magic + bytes(version) + struct.pack(fmt, len(text) if length is None else length) + text + data)


def numpy_bytes(array, **kwargs):
    import io
    buffer = io.BytesIO()
    np.save(buffer, array, **kwargs)
    return buffer.getvalue()


def codec_fixtures():
    for old in glob.glob(os.path.join(HERE, "*.npy")):
        os.remove(old)

    for code, values in DTYPE_VALUES.items():
        save(HERE, "dtype_%s.npy" % code, values.reshape(2, 3))

    save(HERE, "rank0_f8.npy", np.array(3.25, dtype=np.float64))
    save(HERE, "rank0_i4.npy", np.array(-7, dtype=np.int32))
    save(HERE, "rank1_i4.npy", np.arange(5, dtype=np.int32))
    save(HERE, "rank3_i2.npy", (np.arange(24, dtype=np.int16) - 12).reshape(2, 3, 4))
    save(HERE, "empty_f4.npy", np.zeros((0,), dtype=np.float32))
    save(HERE, "empty_3d_i8.npy", np.zeros((2, 0, 3), dtype=np.int64))
    save(HERE, "rank8_u1.npy", np.arange(256, dtype=np.uint8).reshape((2,) * 8))

    fortran_2d = np.asfortranarray(np.arange(6, dtype=np.float32).reshape(2, 3))
    fortran_3d = np.asfortranarray(np.arange(24, dtype=np.uint16).reshape(2, 3, 4))
    assert fortran_2d.flags.f_contiguous and not fortran_2d.flags.c_contiguous
    save(HERE, "fortran_f4.npy", fortran_2d)
    save(HERE, "fortran_3d_u2.npy", fortran_3d)

    write_version("v2_i8.npy", np.arange(6, dtype=np.int64).reshape(3, 2), (2, 0))
    write_version("v3_f2.npy", DTYPE_VALUES["f2"].reshape(2, 3), (3, 0))
    write_version("v3_fortran_i4.npy", np.asfortranarray(np.arange(6, dtype=np.int32).reshape(2, 3)), (3, 0))

    save(HERE, "be_i4.npy", np.arange(-3, 3, dtype=">i4").reshape(2, 3))
    save(HERE, "be_f8.npy", DTYPE_VALUES["f8"].astype(">f8").reshape(2, 3))
    save(HERE, "be_f2.npy", DTYPE_VALUES["f2"].astype(">f2").reshape(2, 3))
    save(HERE, "be_fortran_u8.npy", np.asfortranarray(np.arange(6, dtype=">u8").reshape(2, 3)))

    # Valid headers numpy does not write (numpy itself reads them).
    craft("py2_long.npy", "{'descr': '<i2', 'fortran_order': False, 'shape': (2L, 3L), }        \n",
          np.arange(6, dtype="<i2").tobytes())
    craft("reordered.npy", '{"shape": (3,), "descr": "<u4", "fortran_order": False}\n',
          np.array([1, 2, 3], dtype="<u4").tobytes())
    craft("minimal.npy", "{'descr':'<i4','fortran_order':False,'shape':()}", np.array(5, "<i4").tobytes())
    for name in ("reordered.npy", "minimal.npy"):
        np.load(os.path.join(HERE, name))  # numpy agrees they are valid

    # Malformed files. test_npy.cpp expects an error code and a phrase for each.
    good = "{'descr': '<f4', 'fortran_order': False, 'shape': (2, 3), }\n"
    data6 = np.arange(6, dtype="<f4").tobytes()
    craft("bad_empty.npy", None, raw=b"")
    craft("bad_short_magic.npy", None, raw=b"\x93NUM")
    craft("bad_magic.npy", good, data6, magic=b"\x93NUMPX")
    craft("bad_text_file.npy", None, raw=b"1.0 2.0 3.0\n")
    craft("bad_version.npy", good, data6, version=(4, 0))
    craft("bad_version_minor.npy", good, data6, version=(1, 1))
    craft("bad_length_cut.npy", None, raw=MAGIC + b"\x01\x00\x46")
    craft("bad_header_past_end.npy", good, data6, length=1000)
    craft("bad_header_too_long.npy", good, data6, version=(2, 0), length=2**31)
    full = numpy_bytes(np.arange(6, dtype=np.float32).reshape(2, 3))
    craft("bad_truncated_data.npy", None, raw=full[:-3])
    craft("bad_trailing_data.npy", None, raw=full + b"\x00\x00")
    craft("bad_no_data.npy", good)
    craft("bad_not_dict.npy", "['descr', '<f4']\n", data6)
    craft("bad_empty_header.npy", "", data6)
    craft("bad_missing_key.npy", "{'descr': '<f4', 'shape': (2, 3), }\n", data6)
    craft("bad_extra_key.npy", "{'descr': '<f4', 'fortran_order': False, 'shape': (2, 3), 'foo': 1}\n", data6)
    craft("bad_duplicate_key.npy", "{'descr': '<f4', 'descr': '<f4', 'fortran_order': False, 'shape': (2, 3)}\n", data6)
    craft("bad_unterminated_string.npy", "{'descr: '<f4', 'fortran_order': False, 'shape': (2, 3)}\n", data6)
    craft("bad_unclosed_dict.npy", "{'descr': '<f4', 'fortran_order': False, 'shape': (2, 3), \n", data6)
    craft("bad_fortran_value.npy", "{'descr': '<f4', 'fortran_order': 0, 'shape': (2, 3)}\n", data6)
    craft("bad_text_after.npy", good.rstrip("\n") + " x\n", data6)
    craft("bad_nul_in_header.npy", "{'descr': '<f4',\x00 'fortran_order': False, 'shape': (2, 3)}\n", data6)
    craft("bad_shape_negative.npy", "{'descr': '<f4', 'fortran_order': False, 'shape': (-1, 2)}\n", data6)
    craft("bad_shape_not_tuple.npy", "{'descr': '<f4', 'fortran_order': False, 'shape': (6)}\n", data6)
    craft("bad_shape_list.npy", "{'descr': '<f4', 'fortran_order': False, 'shape': [2, 3]}\n", data6)
    craft("bad_shape_float.npy", "{'descr': '<f4', 'fortran_order': False, 'shape': (2.5,)}\n", data6)
    craft("bad_shape_int_overflow.npy",
          "{'descr': '<f4', 'fortran_order': False, 'shape': (99999999999999999999,)}\n", data6)
    craft("bad_shape_count_overflow.npy",
          "{'descr': '<f4', 'fortran_order': False, 'shape': (4294967296, 4294967296, 4)}\n", data6)
    craft("bad_shape_huge.npy", "{'descr': '<f4', 'fortran_order': False, 'shape': (1000000000000,)}\n", data6)
    craft("bad_shape_rank.npy",
          "{'descr': '<f4', 'fortran_order': False, 'shape': (%s)}\n" % ", ".join(["1"] * 65), data6[:4])
    craft("bad_descr_pipe_f4.npy", "{'descr': '|f4', 'fortran_order': False, 'shape': (2, 3)}\n", data6)
    craft("bad_descr_garbage.npy", "{'descr': 'x', 'fortran_order': False, 'shape': (2, 3)}\n", data6)
    craft("bad_descr_escape.npy", "{'descr': '<f\\x34', 'fortran_order': False, 'shape': (2, 3)}\n", data6)
    save(HERE, "bad_descr_complex.npy", np.zeros((2,), dtype=np.complex64))
    save(HERE, "bad_descr_structured.npy", np.zeros((2,), dtype=[("a", "<i4"), ("b", "<f4")]))
    save(HERE, "bad_descr_unicode.npy", np.array(["abc", "de"]))
    save(HERE, "bad_descr_object.npy", np.array([1, "x", None], dtype=object))
    save(HERE, "bad_descr_datetime.npy", np.array(["2024-01-01"], dtype="datetime64[s]"))


# ---------------------------------------------------------------------------------------------
# The CLI's fixtures (tests/cli/).

cases = []  # (name, status, expected output file or stderr regex, arguments)
written = {}


def data(name, array):
    """Writes tests/cli/data/<name>.npy (once) and returns the file name."""
    file = name + ".npy"
    array = np.asarray(array)
    if file in written:
        previous = written[file]
        assert previous.dtype == array.dtype and previous.shape == array.shape and \
            previous.tobytes() == array.tobytes(), "two different arrays named " + name
        return file
    written[file] = array
    np.save(os.path.join(CLI_DATA, file), array)
    return file


def ok(name, args, expected):
    """A run that must succeed and write exactly the file numpy writes for `expected`."""
    cases.append((name, "ok", data(name + ".expected", expected), args))


def fail(name, args, regex):
    """A run that must fail (exit 1 or 2), print a line matching `regex`, and write nothing."""
    assert "\t" not in regex and ";" not in regex and "[" not in regex and "]" not in regex
    cases.append((name, "fail", regex, args))


def f4(values):
    return np.array(values, dtype=np.float32)


def u4(values):
    return np.array(values, dtype=np.uint32)


def i4(values):
    return np.array(values, dtype=np.int32)


def i8(values):
    return np.array(values, dtype=np.int64)


def same(a, b):
    return a.dtype == b.dtype and a.shape == b.shape and a.tobytes() == b.tobytes()


# Plain-numpy semantics, independent of dmlref.

def np_gather_nd(data_, indices, batch_dims=0):
    k = indices.shape[-1]
    out = np.empty(indices.shape[:-1] + data_.shape[batch_dims + k:], dtype=data_.dtype)
    for pos in np.ndindex(*indices.shape[:-1]):
        out[pos] = data_[pos[:batch_dims] + tuple(int(v) for v in indices[pos])]
    return out


def np_max(old, new):
    # reduction.hpp's rule, elementwise: NaN propagates (the output's first), and of equal values
    # (-0, +0) the output's is kept; numpy's maximum agrees except for float32/float64 ties.
    old, new = np.asarray(old), np.asarray(new)
    take_new = (np.isnan(new) & ~np.isnan(old)) | (new > old)
    return np.where(take_new, new, old).astype(old.dtype)


def np_min(old, new):
    old, new = np.asarray(old), np.asarray(new)
    take_new = (np.isnan(new) & ~np.isnan(old)) | (new < old)
    return np.where(take_new, new, old).astype(old.dtype)


REDUCE = {
    "none": lambda old, new: new,
    "add": lambda old, new: old + new,
    "mul": lambda old, new: old * new,
    "max": np_max,
    "min": np_min,
}


def np_scatter_elements(data_, indices, updates, axis, reduction="none"):
    out = data_.copy()
    axis = axis % data_.ndim
    with np.errstate(all="ignore"):
        for pos in np.ndindex(*indices.shape):
            target = list(pos)
            target[axis] = int(indices[pos])
            target = tuple(target)
            out[target] = REDUCE[reduction](out[target], updates[pos])
    return out


def np_scatter_nd(data_, indices, updates, reduction="none"):
    out = data_.copy()
    with np.errstate(all="ignore"):
        for pos in np.ndindex(*indices.shape[:-1]):
            target = tuple(int(v) for v in indices[pos])
            out[target] = REDUCE[reduction](out[target], updates[pos])
    return out


def np_gather_elements(data_, indices, axis):
    # ONNX Runtime's rule: indices may be smaller than data off the axis (data is cropped).
    axis = axis % data_.ndim
    crop = tuple(slice(0, n) if d != axis else slice(None) for d, n in enumerate(indices.shape))
    return np.take_along_axis(data_[crop], indices.astype(np.int64), axis)


def directml_cases():
    # Spec §2.6: Gather.
    g1_in, g1_idx = data("g1.input", f4([11, 12, 13, 14])), data("g1.indices", u4([3, 1, 3, 0, 2]))
    ok("gather.G-1", "gather --axis 0 --index-dimensions 1 %s %s" % (g1_in, g1_idx), f4([14, 12, 14, 11, 13]))
    ok("gather.G-1.defaults", "gather %s %s" % (g1_in, g1_idx), f4([14, 12, 14, 11, 13]))
    ok("gather.G-1.threads", "gather --threads 2 %s %s" % (g1_in, g1_idx), f4([14, 12, 14, 11, 13]))
    ok("gather.G-1.long-output-option", "gather %s %s --output" % (g1_in, g1_idx), f4([14, 12, 14, 11, 13]))
    t32 = data("t3x2", f4([[1, 2], [3, 4], [5, 6]]))
    ok("gather.G-2", "gather --axis 0 --index-dimensions 1 %s %s" % (t32, data("g2.indices", u4([[0, 1, 1, 2]]))),
       f4([[1, 2], [3, 4], [3, 4], [5, 6]]))
    g3_idx = data("g3.indices", u4([[1, 0]]))
    ok("gather.G-3a", "gather --axis 1 --index-dimensions 1 %s %s" % (t32, g3_idx), f4([[2, 1], [4, 3], [6, 5]]))
    fail("gather.G-3-literal", "gather --axis 1 --index-dimensions 2 %s %s" % (t32, g3_idx),
         "Gather: IndexDimensions must be small enough")
    ok("gather.G-3b", "gather --axis 2 --index-dimensions 2 %s %s" % (
        data("g3b.input", f4([[[1, 2], [3, 4], [5, 6]]])), data("g3b.indices", u4([[[1, 0]]]))),
       f4([[[2, 1]], [[4, 3]], [[6, 5]]]))
    ok("gather.G-4", "gather --axis 2 --index-dimensions 2 %s %s" % (
        data("g4.input", f4([[[1, 2, 3], [4, 5, 6], [7, 8, 9]]])), data("g4.indices", u4([[[0, 2]]]))),
       f4([[[1, 3]], [[4, 6]], [[7, 9]]]))
    ok("gather.G-5", "gather --axis 1 --index-dimensions 2 %s %s" % (
        data("g5.input", f4([[[1, 2], [3, 4], [5, 6]]])), data("g5.indices", u4([[[0, 1], [1, 2]]]))),
       f4([[[1, 2], [3, 4]], [[3, 4], [5, 6]]]))
    # Derived vectors (spec §8).
    ok("gather.X-1", "gather %s %s" % (g1_in, data("x1.indices", i4([-1, -4, 0, 3, -2]))), f4([14, 11, 11, 14, 13]))
    ok("gather.X-2", "gather --axis 0 --index-dimensions 0 %s %s" % (t32, data("x2.indices", u4([[2]]))),
       f4([[5, 6]]))
    ok("gather.X-2.scalar-index-file", "gather --axis 0 %s %s" % (t32, data("scalar2.u4", np.array(2, np.uint32))),
       f4([[5, 6]]))
    ok("gather.X-3", "gather --axis 1 --index-dimensions 0 %s %s" % (t32, data("x3.indices", u4([[1]]))),
       f4([[2, 4, 6]]))
    ok("gather.X-4", "gather --axis 3 --index-dimensions 1 %s %s" % (
        data("x4.input", f4([[[[11, 12, 13, 14]]]])), data("x4.indices", u4([[[[3, 1, 3, 0, 2]]]]))),
       f4([[[[14, 12, 14, 11, 13]]]]))
    ok("gather.X-4.padded", "gather --axis 3 --index-dimensions 1 %s %s" % (
        g1_in, data("x4.indices", u4([[[[3, 1, 3, 0, 2]]]]))), f4([[[[14, 12, 14, 11, 13]]]]))
    x12 = data("x12.indices", u4([0, 4294967295]))
    fail("gather.X-12", "gather %s %s" % (g1_in, x12),
         r"Gather: IndicesTensor value 4294967295 at .1. is out of range for InputTensor.Sizes.0. = 4 \(valid 0..3\)")
    ok("gather.X-12.clamp", "gather --index-policy clamp %s %s" % (g1_in, x12), f4([11, 14]))
    # A 1-d input with 2-d indices: padded to D = 2, Axis counts in the padded rank.
    ok("gather.padded-input", "gather --axis 1 %s %s" % (g1_in, data("idx2x3.u4", u4([[0, 1, 2], [3, 2, 1]]))),
       f4([[11, 12, 13], [14, 13, 12]]))
    # Every data type and index type (G-1 / X-1 shaped).
    for code, values in DTYPE_VALUES.items():
        table = values[:4]
        expected = np.take(table, [3, 1, 3, 0, 2])
        if code == "b1":
            expected = expected.astype(np.uint8)  # bool is read as UINT8
        ok("gather.dtype-%s" % code, "gather %s %s" % (data("table4.%s" % code, table), g1_idx), expected)
    for name, dtype in (("i4", np.int32), ("i8", np.int64), ("u4", np.uint32), ("u8", np.uint64)):
        values = [3, -3, 0, -1, 2] if name[0] == "i" else [3, 1, 3, 0, 2]
        ok("gather.indices-%s" % name, "gather %s %s" % (g1_in, data("idx5.%s" % name, np.array(values, dtype))),
           np.take(f4([11, 12, 13, 14]), values))
    # Fortran order and big-endian input files.
    grid = np.arange(12, dtype=np.float64).reshape(3, 4) * 1.5
    ok("gather.fortran-input", "gather --axis 1 --index-dimensions 1 %s %s" % (
        data("grid.fortran", np.asfortranarray(grid)), data("cols.i8", i8([[3, 0, -1]]))),
       np.take(grid, [[3, 0, -1]], axis=1).reshape(3, 3))
    ok("gather.big-endian-input", "gather --axis 0 --index-dimensions 1 %s %s" % (
        data("grid.big-endian", grid.astype(">f8")), data("rows.be-i4", np.array([[2, 0]], ">i4"))),
       grid[[2, 0]])

    # Spec §3.5: GatherElements.
    ge_in = data("ge1.input", f4([[1, 2, 3], [4, 5, 6], [7, 8, 9]]))
    ok("gather-elements.GE-1", "gather-elements --axis 0 %s %s" % (ge_in, data("ge1.indices", u4([[1, 2, 0], [2, 0, 0]]))),
       f4([[4, 8, 3], [7, 2, 3]]))
    ok("gather-elements.X-5", "gather-elements --axis 1 %s %s" % (
        data("x5.input", f4([[1, 2, 3], [4, 5, 6]])), data("x5.indices", i8([[-1, 0], [1, -3]]))),
       f4([[3, 1], [5, 4]]))
    fortran_f2 = np.asfortranarray(np.arange(12, dtype=np.float16).reshape(3, 4) / 3)
    idx = i4([[0, 3, 1, -1], [2, 2, 2, 2], [-4, 0, 0, 1]])
    ok("gather-elements.fortran-f2", "gather-elements --axis 1 %s %s" % (data("ge.fortran-f2", fortran_f2),
                                                                        data("ge.idx3x4", idx)),
       np.take_along_axis(np.ascontiguousarray(fortran_f2), idx.astype(np.int64), axis=1))
    fail("gather-elements.shape-mismatch", "gather-elements --axis 0 %s %s" % (ge_in, g3_idx),
         r"GatherElements: IndicesTensor.Sizes.1. must be 3, but is 2")

    # Spec §4.3 and §5.6: GatherND and GatherND1.
    gn_in = data("gn1.input", f4([[0, 1], [2, 3]]))
    gn_idx = data("gn1.indices", u4([[1], [0]]))
    ok("gather-nd.GN-1", "gather-nd --input-dimension-count 2 --indices-dimension-count 2 %s %s" % (gn_in, gn_idx),
       f4([[2, 3], [0, 1]]))
    ok("gather-nd.GN-1.defaults", "gather-nd %s %s" % (gn_in, gn_idx), f4([[2, 3], [0, 1]]))
    gn2_in = data("gn2.input", f4(np.arange(8).reshape(1, 2, 2, 2)))
    gn2_idx = data("gn2.indices", u4([[[[0, 1], [1, 0]]]]))
    ok("gather-nd.GN-2", "gather-nd --input-dimension-count 3 --indices-dimension-count 2 %s %s" % (gn2_in, gn2_idx),
       f4([[[[2, 3], [4, 5]]]]))
    ok("gather-nd.GN-2.natural-ranks", "gather-nd %s %s" % (
        data("gn2.input.natural", f4(np.arange(8).reshape(2, 2, 2))), data("gn2.indices.natural", u4([[0, 1], [1, 0]]))),
       f4([[[2, 3], [4, 5]]]))
    ok("gather-nd.X-6", "gather-nd --input-dimension-count 2 --indices-dimension-count 2 %s %s" % (
        gn_in, data("x6.indices", u4([[0, 0], [1, 1]]))), f4([[0, 3]]))
    ok("gather-nd.X-7", "gather-nd --input-dimension-count 2 --indices-dimension-count 2 %s %s" % (
        gn_in, data("x7.indices", i4([[-1, 0], [0, -1]]))), f4([[2, 1]]))
    ok("gather-nd1.GN1-1", "gather-nd1 --input-dimension-count 2 --indices-dimension-count 2 "
       "--batch-dimension-count 0 %s %s" % (gn_in, gn_idx), f4([[2, 3], [0, 1]]))
    gn12_in = data("gn1-2.input", f4(np.arange(12).reshape(1, 3, 2, 2)))
    ok("gather-nd1.GN1-2", "gather-nd1 --input-dimension-count 3 --indices-dimension-count 3 "
       "--batch-dimension-count 1 %s %s" % (gn12_in, data("gn1-2.indices", u4([[[[0, 0], [1, 1]], [[1, 1], [0, 0]],
                                                                                [[0, 1], [1, 0]]]]))),
       f4([[[[0, 3], [7, 4], [9, 10]]]]))
    ok("gather-nd1.X-8", "gather-nd1 --input-dimension-count 3 --indices-dimension-count 2 "
       "--batch-dimension-count 1 %s %s" % (data("x8.input", f4(np.arange(8).reshape(2, 2, 2))),
                                            data("x8.indices", u4([[[1], [0]]]))),
       f4([[[2, 3], [4, 5]]]))
    ok("gather-nd1.X-9", "gather-nd1 --input-dimension-count 3 --indices-dimension-count 3 "
       "--batch-dimension-count 1 %s %s" % (gn12_in, data("x9.indices", i4([[[[-1, -1], [0, -2]], [[1, 0], [-2, 1]],
                                                                            [[0, 0], [1, 1]]]]))),
       f4([[[[3, 0], [6, 5], [8, 11]]]]))
    fail("gather-nd1.batch-too-large", "gather-nd1 --batch-dimension-count 2 %s %s" % (gn_in, gn_idx),
         "GatherND1: BatchDimensionCount")

    # Spec §6.5: Scatter.
    s1 = (data("s1.input", f4([0, 1, 2, 3, 4])), data("s1.indices", u4([3, 1, 3, 0])), data("s1.updates", f4([5, 6, 7, 8])))
    ok("scatter.S-1", "scatter --axis 0 %s %s %s" % s1, f4([8, 6, 2, 7, 4]))
    fail("scatter.S-1.check-collisions", "scatter --check-collisions %s %s %s" % s1,
         r"Scatter: UpdatesTensor element .2. writes OutputTensor element .3., which an earlier update already wrote")
    for reduction in ("add", "mul", "max", "min"):
        ok("scatter.S-1.reduction-%s" % reduction, "scatter --reduction %s %s %s %s" % ((reduction,) + s1),
           np_scatter_elements(f4([0, 1, 2, 3, 4]), u4([3, 1, 3, 0]), f4([5, 6, 7, 8]), 0, reduction))
    s2_idx, s2_upd = data("s2.indices", u4([[1, 0, 2], [0, 2, 1]])), data("s2.updates", f4([[10, 11, 12], [20, 21, 22]]))
    ok("scatter.S-2", "scatter --axis 0 %s %s %s" % (data("zeros3x3", f4(np.zeros((3, 3)))), s2_idx, s2_upd),
       f4([[20, 11, 0], [10, 0, 22], [0, 21, 12]]))
    fail("scatter.S-2-literal", "scatter --axis 0 %s %s %s" % (data("zeros2x3", f4(np.zeros((2, 3)))), s2_idx, s2_upd),
         r"Scatter: IndicesTensor value 2 at .0, 2. is out of range for OutputTensor.Sizes.0. = 2 \(valid 0..1\)")
    ok("scatter.X-10", "scatter --axis 1 %s %s %s" % (
        data("zeros2x3", f4(np.zeros((2, 3)))), data("x10.indices", i4([[-1], [0]])), data("x10.updates", f4([[7], [8]]))),
       f4([[0, 0, 7], [8, 0, 0]]))
    x13 = (data("x13.input", f4([[0, 0, 0]])), data("x13.indices", i4([[2, -1]])), data("x13.updates", f4([[5, 6]])))
    ok("scatter.X-13", "scatter --axis 1 %s %s %s" % x13, f4([[0, 0, 6]]))
    fail("scatter.X-13.check-collisions", "scatter --axis 1 --check-collisions %s %s %s" % x13,
         r"writes OutputTensor element .0, 2., which an earlier update already wrote")
    # float16 add rounds after every step (2048 + 1 = 2048 in float16), integers wrap.
    h = np.array([1, 2048, 0.5], dtype=np.float16)
    h_idx, h_upd = u4([1, 1, 1, 0]), np.array([1, 1, 1, 0.25], dtype=np.float16)
    ok("scatter.f2-add-rounds-per-step", "scatter --reduction add %s %s %s" % (
        data("h.input", h), data("h.indices", h_idx), data("h.updates", h_upd)),
       np_scatter_elements(h, h_idx, h_upd, 0, "add"))
    b = np.array([250, 7], dtype=np.uint8)
    ok("scatter.u1-add-wraps", "scatter --reduction add %s %s %s" % (
        data("b.input", b), data("b.indices", u4([0, 0])), data("b.updates", np.array([5, 10], np.uint8))),
       np.array([9, 7], np.uint8))
    fail("scatter.updates-type-mismatch", "scatter %s %s %s" % (
        s1[0], s1[1], data("s1.updates.f8", np.array([5, 6, 7, 8], np.float64))), "Scatter: UpdatesTensor.DataType")

    # Spec §7.6: ScatterND, in the conformant form and as printed (lower ranks padded).
    sn_in_padded, sn_in = data("sn1.input", f4([[1, 2, 3, 4, 5, 6, 7, 8]])), data("sn.input", f4([1, 2, 3, 4, 5, 6, 7, 8]))
    sn_idx = data("sn1.indices", u4([[4], [3], [1], [7]]))
    sn_upd_padded, sn_upd = data("sn1.updates", f4([[9, 10, 11, 12]])), data("sn.updates", f4([9, 10, 11, 12]))
    expected = f4([[1, 11, 3, 10, 9, 6, 7, 12]])
    ok("scatter-nd.SN-1", "scatter-nd --input-dimension-count 1 --indices-dimension-count 2 %s %s %s" % (
        sn_in_padded, sn_idx, sn_upd_padded), expected)
    ok("scatter-nd.SN-literal-padded", "scatter-nd %s %s %s" % (sn_in, sn_idx, sn_upd), expected)
    fail("scatter-nd.SN-literal-float-indices", "scatter-nd %s %s %s" % (
        sn_in, data("sn.indices.f4", f4([[4], [3], [1], [7]])), sn_upd), r"ScatterND: IndicesTensor.DataType must be")
    ok("scatter-nd.X-11", "scatter-nd --input-dimension-count 2 --indices-dimension-count 2 %s %s %s" % (
        data("x11.input", f4([[1, 2, 3], [4, 5, 6], [7, 8, 9], [10, 11, 12]])), data("x11.indices", i8([[3], [-4]])),
        data("x11.updates", f4([[10, 20, 30], [40, 50, 60]]))),
       f4([[40, 50, 60], [4, 5, 6], [7, 8, 9], [10, 20, 30]]))
    m = np.arange(12, dtype=np.int32).reshape(4, 3)
    m_idx, m_upd = i8([[1], [1], [-1]]), np.array([[5, -5, 100], [7, 0, 1], [1, 2, 3]], np.int32)
    ok("scatter-nd.reduction-max", "scatter-nd --reduction max %s %s %s" % (
        data("m.input", m), data("m.indices", m_idx), data("m.updates", m_upd)), np_scatter_nd(m, m_idx, m_upd, "max"))

    # The spec vectors above, typed in, must agree with plain numpy.
    assert same(np.take(f4([11, 12, 13, 14]), [3, 1, 3, 0, 2]), f4([14, 12, 14, 11, 13]))
    assert same(np_gather_nd(f4(np.arange(12).reshape(3, 2, 2)), i4([[[-1, -1], [0, -2]], [[1, 0], [-2, 1]],
                                                                      [[0, 0], [1, 1]]]), 1),
                f4([[3, 0], [6, 5], [8, 11]]))
    assert same(np_scatter_elements(f4([0, 1, 2, 3, 4]), u4([3, 1, 3, 0]), f4([5, 6, 7, 8]), 0), f4([8, 6, 2, 7, 4]))
    assert same(np_scatter_nd(f4([1, 2, 3, 4, 5, 6, 7, 8]), u4([[4], [3], [1], [7]]), f4([9, 10, 11, 12])), expected[0])


def onnx_cases():
    data_ = np.arange(12, dtype=np.float32).reshape(3, 4) - 5.5
    d = data("onnx.data3x4", data_)
    idx = i8([[0, -1], [3, 1]])
    ok("onnx-gather.axis1", "onnx-gather --axis 1 %s %s" % (d, data("onnx.idx2x2", idx)), np.take(data_, idx, axis=1))
    ok("onnx-gather.axis-negative", "onnx-gather --axis=-1 %s %s" % (d, data("onnx.idx2x2", idx)),
       np.take(data_, idx, axis=-1))
    ok("onnx-gather.axis-negative-separate", "onnx-gather --axis -2 %s %s" % (d, data("onnx.idx1.i4", i4([2, 0, -1]))),
       np.take(data_, [2, 0, -1], axis=0))
    ok("onnx-gather.scalar-index", "onnx-gather --axis 0 %s %s" % (d, data("onnx.scalar1.i8", np.array(1, np.int64))),
       data_[1])
    ok("onnx-gather.scalar-output", "onnx-gather %s %s" % (
        data("onnx.vec5.f2", np.arange(5, dtype=np.float16) / 4), data("onnx.scalar-2.i4", np.array(-2, np.int32))),
       np.array(np.float16(3 / 4)))
    ok("onnx-gather.empty-indices", "onnx-gather --axis 0 %s %s" % (d, data("onnx.empty.i8", np.zeros((0,), np.int64))),
       np.zeros((0, 4), np.float32))
    u8 = np.arange(24, dtype=np.uint8).reshape(2, 3, 4)
    i3 = i4([[[1], [0]]])
    ok("onnx-gather.rank3-u1", "onnx-gather --axis 1 %s %s" % (data("onnx.u8.2x3x4", u8), data("onnx.i3", i3)),
       np.take(u8, i3, axis=1))
    fail("onnx-gather.axis-out-of-range", "onnx-gather --axis 2 %s %s" % (d, data("onnx.idx2x2", idx)), "Gather: axis")
    big = i8([[0, 4]])
    fail("onnx-gather.index-out-of-range", "onnx-gather --axis 1 %s %s" % (d, data("onnx.big", big)),
         "out of range")
    ok("onnx-gather.index-out-of-range.clamp", "onnx-gather --axis 1 --index-policy clamp %s %s" % (
        d, data("onnx.big", big)), np.take(data_, [[0, 3]], axis=1))
    fail("onnx-gather.float-indices", "onnx-gather %s %s" % (d, data("onnx.f-indices", f4([0, 1]))), "indices")

    ge_idx = i8([[1, 0, -1, 2], [0, 0, 2, 1]])
    ok("onnx-gather-elements.axis0", "onnx-gather-elements %s %s" % (d, data("onnx.ge-idx", ge_idx)),
       np_gather_elements(data_, ge_idx, 0))
    fortran = np.asfortranarray(np.arange(24, dtype=np.float64).reshape(2, 3, 4) - 0.25)
    ge_idx3 = np.array([[[2], [0], [1]], [[1], [2], [0]]], dtype=">i8")  # big-endian indices
    ok("onnx-gather-elements.fortran-data", "onnx-gather-elements --axis 1 %s %s" % (
        data("onnx.fortran", fortran), data("onnx.ge-idx-be", ge_idx3)),
       np_gather_elements(np.ascontiguousarray(fortran), ge_idx3.astype(np.int64), 1))
    ge_idx2 = i4([[3, -4], [1, 1]])
    ok("onnx-gather-elements.axis-negative-smaller", "onnx-gather-elements --axis=-1 %s %s" % (
        d, data("onnx.ge-idx-small", ge_idx2)), np_gather_elements(data_, ge_idx2, -1))

    nd_data = np.arange(24, dtype=np.int16).reshape(2, 3, 4)
    nd = data("onnx.nd-data", nd_data)
    nd_idx = i8([[[0, 1], [1, -1]], [[1, 2], [0, 0]]])
    ok("onnx-gather-nd.batch0", "onnx-gather-nd %s %s" % (nd, data("onnx.nd-idx", nd_idx)), np_gather_nd(nd_data, nd_idx))
    nd_idx1 = i8([[[2, 3], [0, -1]], [[1, 1], [-3, 0]]])
    ok("onnx-gather-nd.batch1", "onnx-gather-nd --batch-dims 1 %s %s" % (nd, data("onnx.nd-idx1", nd_idx1)),
       np_gather_nd(nd_data, nd_idx1, 1))
    nd_full = i4([[1, 2, 3], [0, 0, -1]])
    ok("onnx-gather-nd.scalars", "onnx-gather-nd %s %s" % (nd, data("onnx.nd-full", nd_full)),
       np_gather_nd(nd_data, nd_full))
    fail("onnx-gather-nd.batch-too-large", "onnx-gather-nd --batch-dims 3 %s %s" % (nd, data("onnx.nd-idx", nd_idx)),
         "GatherND: batch_dims")

    sc_idx = i8([[1, 0, 2, 0], [2, 2, 0, 1]])
    sc_upd = f4([[10, 11, 12, 13], [20, 21, 22, 23]])
    scd = (d, data("onnx.sc-idx", sc_idx), data("onnx.sc-upd", sc_upd))
    ok("onnx-scatter.axis0", "onnx-scatter %s %s %s" % scd, np_scatter_elements(data_, sc_idx, sc_upd, 0))
    ok("onnx-scatter-elements.none", "onnx-scatter-elements %s %s %s" % scd, np_scatter_elements(data_, sc_idx, sc_upd, 0))
    dup_idx = i4([[0, 3, 0, -1], [1, 1, 1, 1], [2, 2, -2, 2]])
    dup_upd = np.array([[1, 2, 3, 4], [5, 6, 7, 8], [-9, 10, 11, 12]], np.int32)
    i_data = np.array([[2**31 - 1, 5, 0, -7], [3, -3, 8, 1], [0, 0, 0, 0]], np.int32)
    dupd = (data("onnx.i-data", i_data), data("onnx.dup-idx", dup_idx), data("onnx.dup-upd", dup_upd))
    for reduction in ("none", "add", "mul", "max", "min"):
        if reduction == "none":
            continue  # duplicates: no defined winner in ONNX
        ok("onnx-scatter-elements.%s-axis-negative" % reduction,
           "onnx-scatter-elements --axis=-1 --reduction %s %s %s %s" % ((reduction,) + dupd),
           np_scatter_elements(i_data, dup_idx, dup_upd, -1, reduction))
    fail("onnx-scatter-elements.check-collisions", "onnx-scatter-elements --axis=-1 --check-collisions %s %s %s" % dupd,
         r"ScatterElements: (updates|UpdatesTensor) element .0, 2. writes output element .0, 0., which an earlier update already wrote")
    nan_data = f4([[1, np.nan, 3], [-0.0, 5, 6]])
    nan_upd = f4([[np.nan, 2, 4], [0.0, -1, np.inf]])
    nan_idx = i8([[0, 1, 1], [0, 0, 0]])
    for reduction in ("max", "min"):
        ok("onnx-scatter-elements.%s-nan" % reduction, "onnx-scatter-elements --axis 1 --reduction %s %s %s %s" % (
            reduction, data("onnx.nan-data", nan_data), data("onnx.nan-idx", nan_idx), data("onnx.nan-upd", nan_upd)),
           np_scatter_elements(nan_data, nan_idx, nan_upd, 1, reduction))
    small_idx, small_upd = i8([[3], [0]]), f4([[100], [200]])
    expected = data_.copy()
    expected[0, 3], expected[1, 0] = 100, 200
    ok("onnx-scatter-elements.smaller-indices", "onnx-scatter-elements --axis 1 %s %s %s" % (
        d, data("onnx.small-idx", small_idx), data("onnx.small-upd", small_upd)), expected)
    fail("onnx-scatter-elements.bad-reduction", "onnx-scatter-elements --reduction sum %s %s %s" % scd,
         "--reduction: sum not in")
    fail("onnx-scatter.no-reduction-option", "onnx-scatter --reduction add %s %s %s" % scd,
         "reduction")

    snd_idx = i8([[2], [0], [-1]])
    snd_upd = (np.arange(12, dtype=np.float16).reshape(3, 4) / 8).astype(np.float16)
    snd = (data("onnx.snd-idx", snd_idx), data("onnx.snd-upd", snd_upd))
    h_data = (np.arange(12, dtype=np.float16).reshape(3, 4) * np.float16(1.3)).astype(np.float16)
    hd = data("onnx.h-data", h_data)
    ok("onnx-scatter-nd.none-f2", "onnx-scatter-nd %s %s %s" % (hd, data("onnx.snd-idx0", i8([[2], [0]])),
                                                               data("onnx.snd-upd0", snd_upd[:2])),
       np_scatter_nd(h_data, i8([[2], [0]]), snd_upd[:2]))
    for reduction in ("add", "mul"):
        ok("onnx-scatter-nd.%s-f2" % reduction, "onnx-scatter-nd --reduction %s %s %s %s" % (
            reduction, hd, snd[0], snd[1]), np_scatter_nd(h_data, snd_idx, snd_upd, reduction))
    el_idx = i4([[0, 1, 2], [1, 0, 3]])
    ok("onnx-scatter-nd.elements", "onnx-scatter-nd --reduction add %s %s %s" % (
        nd, data("onnx.el-idx", el_idx), data("onnx.el-upd", np.array([100, -100], np.int16))),
       np_scatter_nd(nd_data, el_idx, np.array([100, -100], np.int16), "add"))
    ok("onnx-scatter-nd.empty-indices", "onnx-scatter-nd %s %s %s" % (
        d, data("onnx.empty-idx", np.zeros((0, 1), np.int64)), data("onnx.empty-upd", np.zeros((0, 4), np.float32))),
       data_)
    fail("onnx-scatter-nd.updates-shape", "onnx-scatter-nd %s %s %s" % (
        d, data("onnx.snd-idx0", i8([[2], [0]])), data("onnx.upd2x3", f4(np.zeros((2, 3))))), "ScatterND: updates")
    rank9 = np.zeros((1,) * 9, np.float32)
    fail("onnx-gather.rank9", "onnx-gather %s %s" % (data("rank9", rank9), data("onnx.scalar1.i8", np.array(1, np.int64))),
         "Gather: .*8")


def error_cases():
    g1_in, g1_idx = "g1.input.npy", "g1.indices.npy"
    fail("error.missing-file", "gather %s nope.npy" % g1_in, r"dmlref gather: nope.npy: cannot open: No such file")
    fail("error.malformed-file", "gather %s ../../npy/bad_magic.npy" % g1_in,
         r"bad_magic.npy: not a .npy file: it does not start with the magic")
    fail("error.truncated-file", "gather ../../npy/bad_truncated_data.npy %s" % g1_idx, r"truncated .npy file")
    fail("error.unsupported-dtype", "gather ../../npy/bad_descr_complex.npy %s" % g1_idx, r"unsupported dtype '<c8'")
    fail("error.directory", "gather . %s" % g1_idx, r"dmlref gather: \.: cannot")
    fail("error.unknown-subcommand", "frobnicate %s %s" % (g1_in, g1_idx), r"unknown subcommand 'frobnicate'")
    fail("error.no-subcommand", "", r"A subcommand is required")
    fail("error.missing-output", "gather %s %s NO_OUTPUT" % (g1_in, g1_idx), r"--output is required")
    fail("error.missing-positional", "gather %s" % g1_in, r"indices is required")
    fail("error.extra-positional", "gather %s %s %s" % (g1_in, g1_idx, g1_idx), r"not expected")
    fail("error.bad-index-policy", "gather --index-policy wrap %s %s" % (g1_in, g1_idx),
         r"--index-policy: wrap not in \{error,clamp\}")
    fail("error.negative-directml-axis", "gather --axis -1 %s %s" % (g1_in, g1_idx),
         r"--axis -1 is not a DirectML UINT")
    fail("error.huge-directml-attribute", "gather --index-dimensions 4294967296 %s %s" % (g1_in, g1_idx),
         r"--index-dimensions 4294967296 is not a DirectML UINT")
    fail("error.non-numeric-axis", "gather --axis one %s %s" % (g1_in, g1_idx), r"--axis")
    fail("error.axis-out-of-range", "gather --axis 1 %s %s" % (g1_in, g1_idx), r"Gather: Axis must be 0..0, but is 1")
    fail("error.zero-threads", "gather --threads 0 %s %s" % (g1_in, g1_idx), r"--threads")
    fail("error.rank9", "gather rank9.npy %s" % g1_idx, r"rank9.npy has 9 dimensions. DirectML tensors have at most 8")
    fail("error.empty-array", "gather ../../npy/empty_f4.npy %s" % g1_idx, r"Gather: InputTensor.Sizes.0. must be")
    fail("error.unwritable-output", "gather %s %s -o no/such/dir/out.npy" % (g1_in, g1_idx),
         r"no/such/dir/out.npy: cannot create")
    fail("error.option-of-another-subcommand", "gather --batch-dims 1 %s %s" % (g1_in, g1_idx),
         r"--batch-dims")


def feature_level_cases():
    # --feature-level: every spelling, the level's tables, and arrays never padded further (a 1-d or
    # 3-d call at 2_1 is an error, a 4-d one is not). Files of the cases above are reused.
    g1_in, g1_idx = "g1.input.npy", "g1.indices.npy"
    g1_out = f4([14, 12, 14, 11, 13])
    for spelling in ("3.0", "3_0", "0x3000", "DML_FEATURE_LEVEL_3_0", "6_4"):
        ok("feature-level.gather-%s" % spelling, "gather --feature-level %s %s %s" % (spelling, g1_in, g1_idx), g1_out)
    fail("feature-level.gather-1d-at-2_1", "gather --feature-level 2.1 %s %s" % (g1_in, g1_idx),
         r"dmlref gather: Gather: DimensionCount 1 needs DML_FEATURE_LEVEL_3_0 "
         r"\(at 2_1 every tensor has exactly 4 dimensions\)")
    fail("feature-level.gather-3d-at-2_1", "gather --axis 2 --index-dimensions 2 --feature-level 2_1 %s %s" % (
        "g3b.input.npy", "g3b.indices.npy"), r"Gather: DimensionCount 3 needs DML_FEATURE_LEVEL_3_0")
    ok("feature-level.gather-4d-at-1_0", "gather --axis 3 --index-dimensions 1 --feature-level 1_0 %s %s" % (
        "x4.input.npy", "x4.indices.npy"), f4([[[[14, 12, 14, 11, 13]]]]))
    x4_idx_i8 = data("x4.indices.i8", i8([[[[3, 1, 3, 0, 2]]]]))
    fail("feature-level.int64-indices-at-2_1", "gather --axis 3 --feature-level 2_1 %s %s" % ("x4.input.npy", x4_idx_i8),
         r"Gather: IndicesTensor.DataType INT64 needs DML_FEATURE_LEVEL_3_0 \(feature_level is 2_1\)")
    ok("feature-level.int64-indices-at-3_0", "gather --axis 3 --feature-level 3_0 %s %s" % ("x4.input.npy", x4_idx_i8),
       f4([[[[14, 12, 14, 11, 13]]]]))
    fail("feature-level.float64-at-3_0", "gather --feature-level 3_0 %s %s" % ("table4.f8.npy", g1_idx),
         r"Gather: InputTensor.DataType FLOAT64 needs DML_FEATURE_LEVEL_4_1")
    fail("feature-level.gather-nd1-at-2_1", "gather-nd1 --feature-level 2_1 %s %s" % ("gn1.input.npy", "gn1.indices.npy"),
         r"GatherND1: DML_OPERATOR_GATHER_ND1 needs DML_FEATURE_LEVEL_3_0")
    s1_4d = (data("s1.input.4d", f4([[[[0, 1, 2, 3, 4]]]])), data("s1.indices.4d", u4([[[[3, 1, 3, 0]]]])),
             data("s1.updates.4d", f4([[[[5, 6, 7, 8]]]])))
    fail("feature-level.scatter-at-1_0", "scatter --axis 3 --feature-level 1_0 %s %s %s" % s1_4d,
         r"Scatter: DML_OPERATOR_SCATTER needs DML_FEATURE_LEVEL_2_0 \(feature_level is 1_0\)")
    ok("feature-level.scatter-at-2_0", "scatter --axis 3 --feature-level 2_0 %s %s %s" % s1_4d,
       f4([[[[8, 6, 2, 7, 4]]]]))
    fail("feature-level.reduction", "scatter --reduction add --feature-level 6_4 s1.input.npy s1.indices.npy "
         "s1.updates.npy", r"Scatter: Reduction must be none, but is add")
    ok("feature-level.scatter-nd", "scatter-nd --input-dimension-count 1 --indices-dimension-count 2 "
       "--feature-level 3_0 sn1.input.npy sn1.indices.npy sn1.updates.npy", f4([[1, 11, 3, 10, 9, 6, 7, 12]]))
    ok("feature-level.gather-elements", "gather-elements --axis 0 --feature-level 3_1 ge1.input.npy ge1.indices.npy",
       f4([[4, 8, 3], [7, 2, 3]]))
    ok("feature-level.gather-nd", "gather-nd --feature-level 4_0 gn1.input.npy gn1.indices.npy", f4([[2, 3], [0, 1]]))
    fail("feature-level.onnx-2d-at-2_1", "onnx-gather --axis 1 --feature-level 2_1 onnx.data3x4.npy onnx.idx2x2.npy",
         r"Gather: DimensionCount 3 needs DML_FEATURE_LEVEL_3_0")
    for bad in ("3_5", "0x3500", "7.0", "3", "three"):
        fail("feature-level.invalid-%s" % bad, "gather --feature-level %s %s %s" % (bad, g1_in, g1_idx),
             r"--feature-level: '%s' is not a DirectML feature level" % bad)


def cli_fixtures():
    os.makedirs(CLI_DATA, exist_ok=True)
    for old in glob.glob(os.path.join(CLI_DATA, "*.npy")):
        os.remove(old)
    directml_cases()
    onnx_cases()
    error_cases()
    feature_level_cases()
    names = [c[0] for c in cases]
    assert len(names) == len(set(names)), "duplicate case names"
    with open(os.path.join(CLI_DIR, "cases.txt"), "w") as f:
        f.write("# Written by tests/npy/make_fixtures.py (numpy %s): do not edit.\n" % np.__version__)
        f.write("# name <TAB> ok|fail <TAB> expected output file | stderr regex <TAB> arguments\n")
        f.write("# Arguments are relative to tests/cli/data. The test appends -o OUT; or only OUT when they end\n")
        f.write("# with -o or --output; or nothing when they contain -o elsewhere, or NO_OUTPUT (removed).\n")
        for case in cases:
            f.write("\t".join(case) + "\n")


if __name__ == "__main__":
    warnings.simplefilter("ignore")
    codec_fixtures()
    cli_fixtures()
    print("wrote %d codec fixtures in %s, %d CLI cases (%d files) in %s" % (
        len(glob.glob(os.path.join(HERE, "*.npy"))), HERE, len(cases), len(written), CLI_DIR))
