"""ONNX's Gather, GatherElements, GatherND, Scatter, ScatterElements and ScatterND (dmlref/onnx.hpp).

Arrays keep their natural ranks (0-d and empty arrays included), axis may be negative, and errors
name ONNX's tensors (data, indices, updates, output). explain_* say where one output element comes
from, in natural ranks. See docs/python.md, docs/onnx.md and docs/explain.md.
"""

from ._dmlref import onnx as _native

gather = _native.gather
gather_elements = _native.gather_elements
gather_nd = _native.gather_nd
scatter = _native.scatter
scatter_elements = _native.scatter_elements
scatter_nd = _native.scatter_nd
explain_gather = _native.explain_gather
explain_gather_elements = _native.explain_gather_elements
explain_gather_nd = _native.explain_gather_nd
explain_scatter = _native.explain_scatter
explain_scatter_elements = _native.explain_scatter_elements
explain_scatter_nd = _native.explain_scatter_nd

__all__ = ["gather", "gather_elements", "gather_nd", "scatter", "scatter_elements", "scatter_nd",
           "explain_gather", "explain_gather_elements", "explain_gather_nd", "explain_scatter",
           "explain_scatter_elements", "explain_scatter_nd"]
