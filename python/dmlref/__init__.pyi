"""Type stubs of dmlref (docs/python.md)."""

from typing import Any, Literal, Optional, Tuple

from . import onnx as onnx

__version__: str

IndexPolicy = Literal["error", "clamp"]
Reduction = Literal["none", "add", "mul", "max", "min"]
# numpy arrays, torch tensors (any __dlpack__ object), or anything numpy.asarray takes (inputs).
ArrayLike = Any

class Error(ValueError):
    """An operator rejected its arguments; nothing was written. Absent fields are None."""

    code: Optional[str]
    operator: Optional[str]
    tensor: Optional[str]
    field: Optional[str]
    field_index: Optional[int]
    expected: Optional[str]
    actual: Optional[str]
    rule: Optional[str]
    position: Optional[Tuple[int, ...]]
    target_tensor: Optional[str]
    target_dimension: Optional[int]
    target_size: Optional[int]
    target_position: Optional[Tuple[int, ...]]

class IndexOutOfRangeError(Error, IndexError):
    """An index value outside its dimension (code 'index_out_of_range')."""

def gather(
    input: ArrayLike,
    indices: ArrayLike,
    axis: int = 0,
    index_dimensions: Optional[int] = None,
    *,
    out: Any = None,
    index_policy: IndexPolicy = "error",
    threads: int = 1,
) -> Any:
    """DML_OPERATOR_GATHER (numpy.take); returns out, or a new numpy array."""

def gather_elements(
    input: ArrayLike,
    indices: ArrayLike,
    axis: int = 0,
    *,
    out: Any = None,
    index_policy: IndexPolicy = "error",
    threads: int = 1,
) -> Any:
    """DML_OPERATOR_GATHER_ELEMENTS (numpy.take_along_axis)."""

def gather_nd(
    input: ArrayLike,
    indices: ArrayLike,
    input_dimension_count: Optional[int] = None,
    indices_dimension_count: Optional[int] = None,
    *,
    out: Any = None,
    index_policy: IndexPolicy = "error",
    threads: int = 1,
) -> Any:
    """DML_OPERATOR_GATHER_ND."""

def gather_nd1(
    input: ArrayLike,
    indices: ArrayLike,
    input_dimension_count: Optional[int] = None,
    indices_dimension_count: Optional[int] = None,
    batch_dimension_count: int = 0,
    *,
    out: Any = None,
    index_policy: IndexPolicy = "error",
    threads: int = 1,
) -> Any:
    """DML_OPERATOR_GATHER_ND1."""

def scatter(
    input: ArrayLike,
    indices: ArrayLike,
    updates: ArrayLike,
    axis: int = 0,
    *,
    out: Any = None,
    index_policy: IndexPolicy = "error",
    check_collisions: bool = False,
    threads: int = 1,
    reduction: Reduction = "none",
) -> Any:
    """DML_OPERATOR_SCATTER (= SCATTER_ELEMENTS; numpy.put_along_axis); out=input is in place."""

def scatter_elements(
    input: ArrayLike,
    indices: ArrayLike,
    updates: ArrayLike,
    axis: int = 0,
    *,
    out: Any = None,
    index_policy: IndexPolicy = "error",
    check_collisions: bool = False,
    threads: int = 1,
    reduction: Reduction = "none",
) -> Any:
    """DML_OPERATOR_SCATTER_ELEMENTS: the same operator as scatter."""

def scatter_nd(
    input: ArrayLike,
    indices: ArrayLike,
    updates: ArrayLike,
    input_dimension_count: Optional[int] = None,
    indices_dimension_count: Optional[int] = None,
    *,
    out: Any = None,
    index_policy: IndexPolicy = "error",
    check_collisions: bool = False,
    threads: int = 1,
    reduction: Reduction = "none",
) -> Any:
    """DML_OPERATOR_SCATTER_ND; out=input is in place."""
