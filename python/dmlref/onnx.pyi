"""Type stubs of dmlref.onnx (docs/python.md)."""

from typing import Any, Literal

IndexPolicy = Literal["error", "clamp"]
Reduction = Literal["none", "add", "mul", "max", "min"]
ArrayLike = Any

def gather(
    data: ArrayLike, indices: ArrayLike, axis: int = 0, *, out: Any = None, index_policy: IndexPolicy = "error",
    threads: int = 1,
) -> Any:
    """ONNX Gather: numpy.take(data, indices, axis)."""

def gather_elements(
    data: ArrayLike, indices: ArrayLike, axis: int = 0, *, out: Any = None, index_policy: IndexPolicy = "error",
    threads: int = 1,
) -> Any:
    """ONNX GatherElements: numpy.take_along_axis(data, indices, axis)."""

def gather_nd(
    data: ArrayLike, indices: ArrayLike, batch_dims: int = 0, *, out: Any = None,
    index_policy: IndexPolicy = "error", threads: int = 1,
) -> Any:
    """ONNX GatherND."""

def scatter(
    data: ArrayLike, indices: ArrayLike, updates: ArrayLike, axis: int = 0, *, out: Any = None,
    index_policy: IndexPolicy = "error", check_collisions: bool = False, threads: int = 1,
) -> Any:
    """The deprecated ONNX Scatter (ScatterElements without a reduction)."""

def scatter_elements(
    data: ArrayLike, indices: ArrayLike, updates: ArrayLike, axis: int = 0, reduction: Reduction = "none", *,
    out: Any = None, index_policy: IndexPolicy = "error", check_collisions: bool = False, threads: int = 1,
) -> Any:
    """ONNX ScatterElements."""

def scatter_nd(
    data: ArrayLike, indices: ArrayLike, updates: ArrayLike, reduction: Reduction = "none", *, out: Any = None,
    index_policy: IndexPolicy = "error", check_collisions: bool = False, threads: int = 1,
) -> Any:
    """ONNX ScatterND."""
