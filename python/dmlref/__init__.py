"""dmlref: CPU reference implementations of DirectML's gather and scatter operators.

DirectML convention (attributes counted in the padded rank; arrays of different ranks are
left-padded with 1s to the largest rank among input, indices and updates):

    dmlref.gather, gather_elements, gather_nd, gather_nd1, scatter (= scatter_elements), scatter_nd

ONNX convention (natural ranks, negative axes, 0-d and empty arrays): dmlref.onnx.*

Inputs are read in place: numpy arrays of any strides, torch tensors and other objects with
__dlpack__. Results are bit-exact copies of input elements. See docs/python.md.
"""

from ._dmlref import (
    Error,
    IndexOutOfRangeError,
    __version__,
    gather,
    gather_elements,
    gather_nd,
    gather_nd1,
    scatter,
    scatter_elements,
    scatter_nd,
)
from . import onnx

__all__ = [
    "Error",
    "IndexOutOfRangeError",
    "__version__",
    "gather",
    "gather_elements",
    "gather_nd",
    "gather_nd1",
    "onnx",
    "scatter",
    "scatter_elements",
    "scatter_nd",
]
