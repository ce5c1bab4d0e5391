"""Type stubs of dmlref.onnx (docs/python.md)."""

from typing import Any, Literal, Sequence, SupportsIndex, Union

from ._provenance import Provenance

IndexPolicy = Literal["error", "clamp"]
Reduction = Literal["none", "add", "mul", "max", "min"]
# None, a DML_FEATURE_LEVEL value (0x3000) or its name ("3_0", "3.0", "0x3000", "DML_FEATURE_LEVEL_3_0"),
# applied to the DirectML call the ONNX operator maps to.
FeatureLevel = Union[None, int, str]
BindingRules = Literal["relaxed", "directml"]
ArrayLike = Any
# An output coordinate for explain_*: ints in the output's natural rank (() for a 0-d output).
Coordinate = Union[Sequence[SupportsIndex], SupportsIndex]

def gather(
    data: ArrayLike, indices: ArrayLike, axis: int = 0, *, out: Any = None, index_policy: IndexPolicy = "error",
    threads: int = 1, all_or_nothing: bool = True,
    feature_level: FeatureLevel = None, allow_scratch: bool = True,
    binding_rules: BindingRules = "relaxed",
) -> Any:
    """ONNX Gather: numpy.take(data, indices, axis)."""

def gather_elements(
    data: ArrayLike, indices: ArrayLike, axis: int = 0, *, out: Any = None, index_policy: IndexPolicy = "error",
    threads: int = 1, all_or_nothing: bool = True,
    feature_level: FeatureLevel = None, allow_scratch: bool = True,
    binding_rules: BindingRules = "relaxed",
) -> Any:
    """ONNX GatherElements: numpy.take_along_axis(data, indices, axis)."""

def gather_nd(
    data: ArrayLike, indices: ArrayLike, batch_dims: int = 0, *, out: Any = None,
    index_policy: IndexPolicy = "error", threads: int = 1, all_or_nothing: bool = True,
    feature_level: FeatureLevel = None, allow_scratch: bool = True,
    binding_rules: BindingRules = "relaxed",
) -> Any:
    """ONNX GatherND."""

def scatter(
    data: ArrayLike, indices: ArrayLike, updates: ArrayLike, axis: int = 0, *, out: Any = None,
    index_policy: IndexPolicy = "error", check_collisions: bool = False, threads: int = 1, all_or_nothing: bool = True,
    feature_level: FeatureLevel = None, allow_scratch: bool = True,
    binding_rules: BindingRules = "relaxed",
) -> Any:
    """The deprecated ONNX Scatter (ScatterElements without a reduction)."""

def scatter_elements(
    data: ArrayLike, indices: ArrayLike, updates: ArrayLike, axis: int = 0, reduction: Reduction = "none", *,
    out: Any = None, index_policy: IndexPolicy = "error", check_collisions: bool = False, threads: int = 1, all_or_nothing: bool = True,
    feature_level: FeatureLevel = None, allow_scratch: bool = True,
    binding_rules: BindingRules = "relaxed",
) -> Any:
    """ONNX ScatterElements."""

def scatter_nd(
    data: ArrayLike, indices: ArrayLike, updates: ArrayLike, reduction: Reduction = "none", *, out: Any = None,
    index_policy: IndexPolicy = "error", check_collisions: bool = False, threads: int = 1, all_or_nothing: bool = True,
    feature_level: FeatureLevel = None, allow_scratch: bool = True,
    binding_rules: BindingRules = "relaxed",
) -> Any:
    """ONNX ScatterND."""

# ---- explanations (docs/explain.md): the function's arguments, `at` instead of `out` ----

def explain_gather(
    data: ArrayLike, indices: ArrayLike, axis: int = 0, *, at: Coordinate, index_policy: IndexPolicy = "error",
    threads: int = 1, all_or_nothing: bool = True,
    feature_level: FeatureLevel = None, allow_scratch: bool = True,
    binding_rules: BindingRules = "relaxed",
) -> Provenance:
    """Where element `at` of gather(...) comes from."""

def explain_gather_elements(
    data: ArrayLike, indices: ArrayLike, axis: int = 0, *, at: Coordinate, index_policy: IndexPolicy = "error",
    threads: int = 1, all_or_nothing: bool = True,
    feature_level: FeatureLevel = None, allow_scratch: bool = True,
    binding_rules: BindingRules = "relaxed",
) -> Provenance:
    """Where element `at` of gather_elements(...) comes from."""

def explain_gather_nd(
    data: ArrayLike, indices: ArrayLike, batch_dims: int = 0, *, at: Coordinate,
    index_policy: IndexPolicy = "error", threads: int = 1, all_or_nothing: bool = True,
    feature_level: FeatureLevel = None, allow_scratch: bool = True,
    binding_rules: BindingRules = "relaxed",
) -> Provenance:
    """Where element `at` of gather_nd(...) comes from."""

def explain_scatter(
    data: ArrayLike, indices: ArrayLike, updates: ArrayLike, axis: int = 0, *, at: Coordinate,
    index_policy: IndexPolicy = "error", check_collisions: bool = False, threads: int = 1, all_or_nothing: bool = True,
    feature_level: FeatureLevel = None, allow_scratch: bool = True,
    binding_rules: BindingRules = "relaxed",
) -> Provenance:
    """Where element `at` of scatter(...) comes from."""

def explain_scatter_elements(
    data: ArrayLike, indices: ArrayLike, updates: ArrayLike, axis: int = 0, reduction: Reduction = "none", *,
    at: Coordinate, index_policy: IndexPolicy = "error", check_collisions: bool = False, threads: int = 1, all_or_nothing: bool = True,
    feature_level: FeatureLevel = None, allow_scratch: bool = True,
    binding_rules: BindingRules = "relaxed",
) -> Provenance:
    """Where element `at` of scatter_elements(...) comes from."""

def explain_scatter_nd(
    data: ArrayLike, indices: ArrayLike, updates: ArrayLike, reduction: Reduction = "none", *, at: Coordinate,
    index_policy: IndexPolicy = "error", check_collisions: bool = False, threads: int = 1, all_or_nothing: bool = True,
    feature_level: FeatureLevel = None, allow_scratch: bool = True,
    binding_rules: BindingRules = "relaxed",
) -> Provenance:
    """Where element `at` of scatter_nd(...) comes from."""
