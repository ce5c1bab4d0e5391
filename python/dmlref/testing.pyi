"""Type stubs of dmlref.testing (docs/python.md)."""

from typing import Any, Callable, List, Optional, Tuple, Union

from ._provenance import Provenance

class Mismatch:
    coordinate: Tuple[int, ...]
    expected: Any  # numpy scalar
    expected_bits: int
    actual: Any  # numpy scalar
    actual_bits: int
    provenance: Provenance
    line: str

class GoldenMismatchError(AssertionError):
    """A candidate differs from dmlref's result; the message explains the first mismatches."""

    op: Optional[str]
    kind: Optional[str]  # 'values', 'shape' or 'dtype'
    expected: Any  # dmlref's result, a numpy array
    actual: Any
    mismatch_count: int
    element_count: int
    mismatches: List[Mismatch]
    @property
    def explanations(self) -> List[Provenance]: ...

def assert_golden(
    actual: Any,
    op: Union[str, Callable[..., Any]],
    *operands: Any,
    max_explained: int = 3,
    ulps: Optional[int] = None,
    atol: Optional[float] = None,
    **attrs: Any,
) -> None:
    """Asserts that actual equals dmlref's op(*operands, **attrs) bit for bit (or within ulps/atol);
    raises GoldenMismatchError explaining the first max_explained mismatches."""
