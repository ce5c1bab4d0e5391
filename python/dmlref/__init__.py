"""dmlref: CPU reference implementations of DirectML's gather and scatter operators.

DirectML convention (attributes counted in the padded rank; arrays of different ranks are
left-padded with 1s to the largest rank among input, indices and updates):

    dmlref.gather, gather_elements, gather_nd, gather_nd1, scatter (= scatter_elements), scatter_nd

ONNX convention (natural ranks, negative axes, 0-d and empty arrays): dmlref.onnx.*

Each operator has an explain_* twin (explain_gather, ..., onnx.explain_scatter_nd) that says where
one output element comes from (a Provenance), and dmlref.testing.assert_golden compares a candidate
with dmlref's result and explains the first mismatches. See docs/explain.md.

Inputs are read in place: numpy arrays of any strides, torch tensors and other objects with
__dlpack__. Results are bit-exact copies of input elements. See docs/python.md.
"""

from ._dmlref import (
    Error,
    IndexOutOfRangeError,
    __version__,
    explain_gather,
    explain_gather_elements,
    explain_gather_nd,
    explain_gather_nd1,
    explain_scatter,
    explain_scatter_elements,
    explain_scatter_nd,
    gather,
    gather_elements,
    gather_nd,
    gather_nd1,
    scatter,
    scatter_elements,
    scatter_nd,
)
from ._provenance import IndexRead, Provenance, Update
from . import onnx
from . import testing

__all__ = [
    "Error",
    "IndexOutOfRangeError",
    "IndexRead",
    "Provenance",
    "Update",
    "__version__",
    "explain_gather",
    "explain_gather_elements",
    "explain_gather_nd",
    "explain_gather_nd1",
    "explain_scatter",
    "explain_scatter_elements",
    "explain_scatter_nd",
    "gather",
    "gather_elements",
    "gather_nd",
    "gather_nd1",
    "onnx",
    "scatter",
    "scatter_elements",
    "scatter_nd",
    "testing",
]
