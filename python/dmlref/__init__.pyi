"""Type stubs of dmlref (docs/python.md)."""

from typing import Any, Literal, Optional, Sequence, SupportsIndex, Tuple, Union

from . import onnx as onnx
from . import testing as testing
from ._provenance import IndexRead as IndexRead, Provenance as Provenance, Update as Update

__version__: str

IndexPolicy = Literal["error", "clamp"]
Reduction = Literal["none", "add", "mul", "max", "min"]
# None, a DML_FEATURE_LEVEL value (0x3000) or its name ("3_0", "3.0", "0x3000", "DML_FEATURE_LEVEL_3_0").
FeatureLevel = Union[None, int, str]
# "directml": also DirectML's buffer-binding rules, on the arrays as given (docs/python.md).
BindingRules = Literal["relaxed", "directml"]
# numpy arrays, torch tensors (any __dlpack__ object), or anything numpy.asarray takes (inputs).
ArrayLike = Any
# An output coordinate for explain_*: ints in the call's rank (an int alone for a 1-D output).
Coordinate = Union[Sequence[SupportsIndex], SupportsIndex]

class Error(ValueError):
    """An operator rejected its arguments; nothing was written, unless output_partly_written
    (all_or_nothing=False). Absent fields are None."""

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
    output_partly_written: bool
    feature_level: Optional[int]

class IndexOutOfRangeError(Error, IndexError):
    """An index value outside its dimension (code 'index_out_of_range')."""

# An explain_* coordinate outside the output raises Error with code 'coordinate_out_of_range'.

def gather(
    input: ArrayLike,
    indices: ArrayLike,
    axis: int = 0,
    index_dimensions: Optional[int] = None,
    *,
    out: Any = None,
    index_policy: IndexPolicy = "error",
    threads: int = 1,
    all_or_nothing: bool = True,
    feature_level: FeatureLevel = None,
    allow_scratch: bool = True,
    binding_rules: BindingRules = "relaxed",
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
    all_or_nothing: bool = True,
    feature_level: FeatureLevel = None,
    allow_scratch: bool = True,
    binding_rules: BindingRules = "relaxed",
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
    all_or_nothing: bool = True,
    feature_level: FeatureLevel = None,
    allow_scratch: bool = True,
    binding_rules: BindingRules = "relaxed",
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
    all_or_nothing: bool = True,
    feature_level: FeatureLevel = None,
    allow_scratch: bool = True,
    binding_rules: BindingRules = "relaxed",
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
    all_or_nothing: bool = True,
    feature_level: FeatureLevel = None,
    allow_scratch: bool = True,
    binding_rules: BindingRules = "relaxed",
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
    all_or_nothing: bool = True,
    feature_level: FeatureLevel = None,
    allow_scratch: bool = True,
    binding_rules: BindingRules = "relaxed",
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
    all_or_nothing: bool = True,
    feature_level: FeatureLevel = None,
    allow_scratch: bool = True,
    binding_rules: BindingRules = "relaxed",
) -> Any:
    """DML_OPERATOR_SCATTER_ND; out=input is in place."""

# ---- explanations (docs/explain.md): the operator's arguments, `at` instead of `out` ----

def explain_gather(
    input: ArrayLike,
    indices: ArrayLike,
    axis: int = 0,
    index_dimensions: Optional[int] = None,
    *,
    at: Coordinate,
    index_policy: IndexPolicy = "error",
    threads: int = 1,
    all_or_nothing: bool = True,
    feature_level: FeatureLevel = None,
    allow_scratch: bool = True,
    binding_rules: BindingRules = "relaxed",
) -> Provenance:
    """Where element `at` (padded rank D) of gather(...) comes from."""

def explain_gather_elements(
    input: ArrayLike,
    indices: ArrayLike,
    axis: int = 0,
    *,
    at: Coordinate,
    index_policy: IndexPolicy = "error",
    threads: int = 1,
    all_or_nothing: bool = True,
    feature_level: FeatureLevel = None,
    allow_scratch: bool = True,
    binding_rules: BindingRules = "relaxed",
) -> Provenance:
    """Where element `at` of gather_elements(...) comes from."""

def explain_gather_nd(
    input: ArrayLike,
    indices: ArrayLike,
    input_dimension_count: Optional[int] = None,
    indices_dimension_count: Optional[int] = None,
    *,
    at: Coordinate,
    index_policy: IndexPolicy = "error",
    threads: int = 1,
    all_or_nothing: bool = True,
    feature_level: FeatureLevel = None,
    allow_scratch: bool = True,
    binding_rules: BindingRules = "relaxed",
) -> Provenance:
    """Where element `at` of gather_nd(...) comes from."""

def explain_gather_nd1(
    input: ArrayLike,
    indices: ArrayLike,
    input_dimension_count: Optional[int] = None,
    indices_dimension_count: Optional[int] = None,
    batch_dimension_count: int = 0,
    *,
    at: Coordinate,
    index_policy: IndexPolicy = "error",
    threads: int = 1,
    all_or_nothing: bool = True,
    feature_level: FeatureLevel = None,
    allow_scratch: bool = True,
    binding_rules: BindingRules = "relaxed",
) -> Provenance:
    """Where element `at` of gather_nd1(...) comes from."""

def explain_scatter(
    input: ArrayLike,
    indices: ArrayLike,
    updates: ArrayLike,
    axis: int = 0,
    *,
    at: Coordinate,
    index_policy: IndexPolicy = "error",
    check_collisions: bool = False,
    threads: int = 1,
    reduction: Reduction = "none",
    all_or_nothing: bool = True,
    feature_level: FeatureLevel = None,
    allow_scratch: bool = True,
    binding_rules: BindingRules = "relaxed",
) -> Provenance:
    """Where element `at` of scatter(...) comes from: every update that addresses it, in order."""

def explain_scatter_elements(
    input: ArrayLike,
    indices: ArrayLike,
    updates: ArrayLike,
    axis: int = 0,
    *,
    at: Coordinate,
    index_policy: IndexPolicy = "error",
    check_collisions: bool = False,
    threads: int = 1,
    reduction: Reduction = "none",
    all_or_nothing: bool = True,
    feature_level: FeatureLevel = None,
    allow_scratch: bool = True,
    binding_rules: BindingRules = "relaxed",
) -> Provenance:
    """The same as explain_scatter."""

def explain_scatter_nd(
    input: ArrayLike,
    indices: ArrayLike,
    updates: ArrayLike,
    input_dimension_count: Optional[int] = None,
    indices_dimension_count: Optional[int] = None,
    *,
    at: Coordinate,
    index_policy: IndexPolicy = "error",
    check_collisions: bool = False,
    threads: int = 1,
    reduction: Reduction = "none",
    all_or_nothing: bool = True,
    feature_level: FeatureLevel = None,
    allow_scratch: bool = True,
    binding_rules: BindingRules = "relaxed",
) -> Provenance:
    """Where element `at` of scatter_nd(...) comes from."""
