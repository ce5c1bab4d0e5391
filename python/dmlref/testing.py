"""Golden checks for tests: compare a candidate with dmlref's result, and explain the mismatches.

    from dmlref.testing import assert_golden

    assert_golden(my_backend.gather(table, ids), "gather", table, ids, axis=0)
    assert_golden(out, dmlref.onnx.scatter_nd, data, idx, upd, reduction="add", ulps=2)

On a mismatch, assert_golden raises GoldenMismatchError (an AssertionError) whose message explains
the first mismatching elements, one line each, in the form of the C++ gtest helper
(dmlref/gtest.hpp, DMLREF_EXPECT_GOLDEN):

    output[3,1]: expected 1.5 (0x3e00), got 0 (0x0000); expected = input[2,1], from indices[3] = -2 → 2 (Axis 0)

See docs/python.md ("Golden checks and explanations") and docs/explain.md.
"""

import operator
from dataclasses import dataclass, field
from typing import Any, List, Optional, Tuple

import numpy as np

from . import _dmlref
from ._provenance import Provenance

__all__ = ["GoldenMismatchError", "Mismatch", "assert_golden"]

_DIRECTML = ("gather", "gather_elements", "gather_nd", "gather_nd1", "scatter", "scatter_elements", "scatter_nd")
_ONNX = ("gather", "gather_elements", "gather_nd", "scatter", "scatter_elements", "scatter_nd")

# name -> (operator, its explain_* twin, the name reports use)
_OPERATORS = {name: (getattr(_dmlref, name), getattr(_dmlref, "explain_" + name), "dmlref." + name)
              for name in _DIRECTML}
_OPERATORS.update({"onnx." + name: (getattr(_dmlref.onnx, name), getattr(_dmlref.onnx, "explain_" + name),
                                    "dmlref.onnx." + name)
                   for name in _ONNX})


@dataclass(frozen=True)
class Mismatch:
    """One mismatching element of a golden comparison, explained."""

    coordinate: Tuple[int, ...]
    """Its coordinate in the output (the padded rank D for the DirectML functions)."""
    expected: Any = field(compare=False)
    """dmlref's element: a numpy scalar."""
    expected_bits: int
    actual: Any = field(compare=False)
    """The candidate's element: a numpy scalar."""
    actual_bits: int
    provenance: Provenance
    """Where dmlref's element comes from (explain_*)."""
    line: str
    """The report's line: 'output[3,1]: expected 1.5 (0x3e00), got 0 (0x0000); expected = ...'."""


class GoldenMismatchError(AssertionError):
    """A candidate differs from dmlref's result (assert_golden). str() is the report.

    Attributes:
        op: the operator compared with, 'dmlref.gather' or 'dmlref.onnx.scatter_nd'.
        kind: 'values', 'shape' or 'dtype' (the shape first when both differ).
        expected: dmlref's result, a numpy array.
        actual: the candidate as compared (a numpy array; as given when numpy cannot read it).
        mismatch_count, element_count: how many elements differ, of how many (values only).
        mismatches: the first mismatches (at most max_explained), as Mismatch records.
        explanations: their provenances (Mismatch.provenance), in the same order.
    """

    def __init__(self, message: str, op: Optional[str] = None, kind: Optional[str] = None, expected: Any = None,
                 actual: Any = None, mismatch_count: int = 0, element_count: int = 0,
                 mismatches: Optional[List[Mismatch]] = None):
        super().__init__(message)
        self.op = op
        self.kind = kind
        self.expected = expected
        self.actual = actual
        self.mismatch_count = mismatch_count
        self.element_count = element_count
        self.mismatches = list(mismatches or [])

    @property
    def explanations(self) -> List[Provenance]:
        return [m.provenance for m in self.mismatches]


def _resolve(op):
    if isinstance(op, str):
        key = op[len("dmlref."):] if op.startswith("dmlref.") else op
        if key in _OPERATORS:
            return _OPERATORS[key]
        raise ValueError("assert_golden(): unknown operator %r; the operators are %s"
                         % (op, ", ".join(repr(k) for k in _OPERATORS)))
    for entry in _OPERATORS.values():
        if op is entry[0]:
            return entry
    raise TypeError("assert_golden(): op must be a dmlref operator function (dmlref.gather, dmlref.onnx.scatter_nd, "
                    "...) or its name ('gather', 'onnx.scatter_nd'), not %r" % (op,))


class _Tolerance:
    """The C++ helper's comparison modes (dmlref/gtest.hpp, Tolerance): bit-exact, ulps(n), absolute(x)."""

    def __init__(self, ulps, atol):
        if ulps is not None and atol is not None:
            raise ValueError("assert_golden(): give ulps or atol, not both")
        self.ulps = None
        self.atol = None
        if ulps is not None:
            if isinstance(ulps, bool):
                raise TypeError("assert_golden(): ulps must be an int, not bool")
            self.ulps = operator.index(ulps)
            if self.ulps < 0:
                raise ValueError("assert_golden(): ulps must be >= 0, not %d" % self.ulps)
        if atol is not None:
            self.atol = float(atol)
            if not self.atol >= 0:
                raise ValueError("assert_golden(): atol must be >= 0, not %r" % (atol,))

    def describe(self):
        if self.ulps is not None:
            return "within %d ULP" % self.ulps
        if self.atol is not None:
            return "within %g absolute" % self.atol
        return "bit-exact"

    def accepts(self, actual, expected, actual_bits, expected_bits):
        """Which of these element pairs, whose bits differ, pass."""
        if self.ulps is None and self.atol is None:
            return np.zeros(actual.shape, dtype=bool)
        if actual.dtype.kind == "f":
            a_nan, e_nan = np.isnan(actual), np.isnan(expected)
            numbers = ~a_nan & ~e_nan
            if self.ulps is not None:
                within = _ulp_distance(actual_bits, expected_bits, 8 * actual.dtype.itemsize) <= np.uint64(self.ulps)
            else:
                with np.errstate(all="ignore"):
                    difference = np.abs(actual.astype(np.float64) - expected.astype(np.float64))
                within = difference <= self.atol
            return (a_nan & e_nan) | (numbers & within)
        distance = _integer_distance(actual, expected)
        if self.ulps is not None:
            return distance <= np.uint64(self.ulps)
        return distance.astype(np.float64) <= self.atol


def _ulp_distance(a, b, width):
    """Units in the last place between non-NaN floats given by their bits; -0 and +0 are one point."""
    a = a.astype(np.uint64)
    b = b.astype(np.uint64)
    sign = np.uint64(1) << np.uint64(width - 1)
    magnitude = sign - np.uint64(1)
    ma, mb = a & magnitude, b & magnitude
    na = ((a & sign) != 0) & (ma != 0)
    nb = ((b & sign) != 0) & (mb != 0)
    same_side = np.where(ma > mb, ma - mb, mb - ma)
    return np.where(na == nb, same_side, ma + mb)  # each magnitude is below 2**63: no overflow


def _integer_distance(a, b):
    """|a - b| exactly, as uint64: the casts wrap negative values, and modular arithmetic then gives
    the true distance."""
    ua, ub = a.astype(np.uint64), b.astype(np.uint64)
    return np.where(a >= b, ua - ub, ub - ua)


class _Unreadable:
    """A candidate numpy cannot read (torch.bfloat16, bool): only its dtype and shape are compared."""

    def __init__(self, obj):
        self.dtype = str(getattr(obj, "dtype", type(obj).__name__))
        self.shape = tuple(getattr(obj, "shape", ()))


def _as_numpy(actual):
    if isinstance(actual, np.ndarray):
        return actual
    if hasattr(actual, "__dlpack__"):
        tensor = actual
        if callable(getattr(tensor, "detach", None)):  # torch: a tensor that requires grad
            tensor = tensor.detach()
        if callable(getattr(tensor, "cpu", None)):  # torch: a GPU tensor
            tensor = tensor.cpu()
        try:
            return np.from_dlpack(tensor)
        except (TypeError, ValueError, RuntimeError, BufferError):
            return _Unreadable(actual)
    return np.asarray(actual)


def _coordinate_text(coordinate):
    return "[" + ",".join(str(c) for c in coordinate) + "]"


def _coordinate(flat, shape):
    if not shape:
        return ()
    return tuple(int(c) for c in np.unravel_index(int(flat), shape))


def _layout_mismatch(name, got, expected):
    def text(shape):
        return str(tuple(shape))

    dtype_differs = not isinstance(got, np.ndarray) or got.dtype != expected.dtype
    shape_differs = tuple(got.shape) != tuple(expected.shape)
    if not dtype_differs and not shape_differs:
        return None, None
    if shape_differs and dtype_differs:
        message = "actual is %s of shape %s, but %s gives %s of shape %s: the dtype and the shape differ" % (
            got.dtype, text(got.shape), name, expected.dtype, text(expected.shape))
    elif shape_differs:
        message = "actual has shape %s, but %s gives shape %s (%s)" % (
            text(got.shape), name, text(expected.shape), expected.dtype)
        strip = lambda shape: tuple(shape)[next((i for i, s in enumerate(shape) if s != 1), len(shape)):]
        if strip(got.shape) == strip(expected.shape):
            message += "; they differ only in leading 1s (the DirectML functions give the padded rank)"
    else:
        message = "actual has dtype %s, but %s gives %s (shape %s)" % (got.dtype, name, expected.dtype,
                                                                       text(expected.shape))
    return ("shape" if shape_differs else "dtype"), message


def assert_golden(actual, op, *operands, max_explained: int = 3, ulps: Optional[int] = None,
                  atol: Optional[float] = None, **attrs) -> None:
    """Asserts that `actual` equals dmlref's result of `op` on `operands`, bit for bit.

    op: an operator function (dmlref.gather, dmlref.onnx.scatter_nd, ...) or its name ('gather',
        'scatter_elements', 'onnx.scatter_nd'; a leading 'dmlref.' is allowed).
    operands, attrs: the operator's own arguments (positional and keyword), out= excepted; the
        explanations are made with the same arguments, so coordinates are in the call's rank.
    actual: a numpy array, or a torch tensor (any device; detached and copied to the CPU) or other
        __dlpack__ object; anything else goes through numpy.asarray.
    max_explained: how many mismatching elements are explained in the message (default 3); the
        next ten are listed by coordinate.
    ulps, atol: relax the bit-exact comparison, as the C++ helper's .within(ulps(n)) and
        .within(absolute(x)): floats within n units in the last place (in their own precision) or
        |actual - expected| <= atol; then -0.0 equals 0.0, a NaN equals any NaN and never a number,
        and integers compare by their exact difference. At most one of them. A gather copies bits,
        so only a scatter's reduction (another order of additions) should need them.

    Raises GoldenMismatchError (an AssertionError) when the dtype, the shape or any element
    differs; its attributes hold dmlref's result, the counts and the explained mismatches. A
    call dmlref rejects raises the operator's own error (dmlref.Error), as the operator does.
    """
    __tracebackhide__ = True  # pytest: report the caller's line
    function, explain, name = _resolve(op)
    for keyword in ("out", "at"):
        if keyword in attrs:
            raise TypeError("assert_golden() computes dmlref's result itself: it takes no %s=" % keyword)
    if isinstance(max_explained, bool):
        raise TypeError("assert_golden(): max_explained must be an int, not bool")
    max_explained = operator.index(max_explained)
    if max_explained < 0:
        raise ValueError("assert_golden(): max_explained must be >= 0, not %d" % max_explained)
    tolerance = _Tolerance(ulps, atol)

    expected = function(*operands, **attrs)
    got = _as_numpy(actual)
    kind, message = _layout_mismatch(name, got, expected)
    if kind is not None:
        raise GoldenMismatchError(message, op=name, kind=kind, expected=expected, actual=got)

    unsigned = np.dtype("u%d" % expected.dtype.itemsize)
    actual_flat = np.ascontiguousarray(got).reshape(-1)
    expected_flat = np.ascontiguousarray(expected).reshape(-1)
    actual_bits = actual_flat.view(unsigned)
    expected_bits = expected_flat.view(unsigned)
    differing = np.flatnonzero(actual_bits != expected_bits)
    if differing.size:
        accepted = tolerance.accepts(actual_flat[differing], expected_flat[differing], actual_bits[differing],
                                     expected_bits[differing])
        differing = differing[~accepted]
    if differing.size == 0:
        return

    mismatches = []
    for flat in differing[:max_explained]:
        coordinate = _coordinate(flat, expected.shape)
        provenance = explain(*operands, at=coordinate, **attrs)
        e_bits, a_bits = int(expected_bits[flat]), int(actual_bits[flat])
        line = "output%s: expected %s, got %s; expected = %s" % (
            _coordinate_text(coordinate), _dmlref._element_text(expected_flat[flat:flat + 1]),
            _dmlref._element_text(actual_flat[flat:flat + 1]), provenance.source_text())
        if provenance.value_bits != e_bits:
            line += " [the explanation gives %s: a dmlref bug]" % _dmlref._element_text(provenance.value)
        mismatches.append(Mismatch(coordinate, expected_flat[flat], e_bits, actual_flat[flat], a_bits,
                                   provenance, line))

    count, total = int(differing.size), int(expected_flat.size)
    shape = str(tuple(expected.shape))
    lines = ["actual differs from %s (%s) in %d of %d elements (%.3g%%), %s %s:" % (
        name, tolerance.describe(), count, total, 100.0 * count / total, expected.dtype, shape)]
    lines += ["  " + m.line for m in mismatches]
    rest = differing[len(mismatches):]
    if rest.size:
        listed = ", ".join("output" + _coordinate_text(_coordinate(flat, expected.shape)) for flat in rest[:10])
        lines.append("  %s%s%s" % ("and %d more: " % rest.size if mismatches else "at ", listed,
                                   ", ..." if rest.size > 10 else ""))
    raise GoldenMismatchError("\n".join(lines), op=name, kind="values", expected=expected, actual=got,
                              mismatch_count=count, element_count=total, mismatches=mismatches)
