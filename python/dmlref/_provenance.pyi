"""Type stubs of dmlref's Provenance, IndexRead and Update (docs/explain.md)."""

from typing import Any, Optional, Tuple

class IndexRead:
    coordinate: Tuple[int, ...]
    value: Any  # a numpy scalar of the indices' dtype
    value_bits: int
    dimension: int
    size: int
    position: int
    clamped: bool
    clamped_to: Optional[int]
    def __init__(self, coordinate: Tuple[int, ...], value: Any, value_bits: int, dimension: int, size: int,
                 position: int, clamped: bool, clamped_to: Optional[int]) -> None: ...

class Update:
    coordinate: Tuple[int, ...]
    indices: Tuple[IndexRead, ...]
    value: Any  # a numpy scalar of the output's dtype
    value_bits: int
    result: Any
    result_bits: int
    def __init__(self, coordinate: Tuple[int, ...], indices: Tuple[IndexRead, ...], value: Any, value_bits: int,
                 result: Any, result_bits: int) -> None: ...

class Provenance:
    """Where one output element comes from; str() is the C++ dmlref::to_string text."""

    op: str
    onnx: bool
    scatter: bool
    tuples: bool
    output: Tuple[int, ...]
    value: Any  # a numpy scalar of the output's dtype
    value_bits: int
    source: str  # 'input' or 'updates'
    input: Tuple[int, ...]
    input_value: Any
    input_value_bits: int
    indices: Tuple[IndexRead, ...]
    reduction: str  # 'none', 'add', 'mul', 'max', 'min'
    updates: Tuple[Update, ...]
    def source_text(self) -> str:
        """The one-line form (C++ dmlref::source_text)."""
    @property
    def winner(self) -> Optional[Update]:
        """The update whose value the element holds (reduction 'none'), else None."""
