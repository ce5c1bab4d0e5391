"""ONNX's Gather, GatherElements, GatherND, Scatter, ScatterElements and ScatterND (dmlref/onnx.hpp).

Arrays keep their natural ranks (0-d and empty arrays included), axis may be negative, and errors
name ONNX's tensors (data, indices, updates, output). explain_* say where one output element comes
from, in natural ranks. See docs/python.md, docs/onnx.md and docs/explain.md.
"""

from ._dmlref import onnx as _native

__all__ = ["gather", "gather_elements", "gather_nd", "scatter", "scatter_elements", "scatter_nd",
           "explain_gather", "explain_gather_elements", "explain_gather_nd", "explain_scatter",
           "explain_scatter_elements", "explain_scatter_nd"]

# The extension's onnx submodule is not in sys.modules (no `from ._dmlref.onnx import`): bind its
# functions here.
globals().update({name: getattr(_native, name) for name in __all__})
