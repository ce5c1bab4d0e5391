"""What the explain_* functions return: where one output element comes from (docs/explain.md).

Python mirrors of the C++ dmlref::Provenance, IndexRead and Update (dmlref/provenance.hpp). Every
element is given twice: as a numpy scalar of its dtype (`value`), made from its bits so that NaN
payloads and -0.0 survive, and as those bits (`value_bits`, an unsigned int). Coordinates are
tuples of ints in the rank of the call: the padded rank D for the DirectML functions, the natural
rank for dmlref.onnx. Equality compares bits, never the numpy scalars (a NaN equals itself there).
"""

from dataclasses import dataclass, field
from typing import Any, Optional, Tuple


@dataclass(frozen=True)
class IndexRead:
    """An element of indices that took part: where it is, its value, and where it points."""

    coordinate: Tuple[int, ...]
    """Its coordinate in indices."""
    value: Any = field(compare=False)
    """Its value as stored: a numpy scalar of the indices' dtype."""
    value_bits: int
    """The same value's bits, as an unsigned int."""
    dimension: int
    """The dimension it addresses: the input's (gathers) or the output's (scatters)."""
    size: int
    """That dimension's size."""
    position: int
    """The coordinate it gives that dimension: the value normalised (negative counts from the end)."""
    clamped: bool
    """index_policy='clamp' changed the value ..."""
    clamped_to: Optional[int]
    """... to this one, before a negative value counts from the end (None when not clamped)."""


@dataclass(frozen=True)
class Update:
    """One update that writes the explained element, in the order the operator applies them."""

    coordinate: Tuple[int, ...]
    """Its coordinate in updates."""
    indices: Tuple[IndexRead, ...]
    """What sends it there: one value (scatter) or a tuple's entries (scatter_nd)."""
    value: Any = field(compare=False)
    """The update: a numpy scalar of the output's dtype."""
    value_bits: int
    result: Any = field(compare=False)
    """The output element once the update is applied (reduction 'none': the update itself)."""
    result_bits: int


@dataclass(frozen=True)
class Provenance:
    """Where one output element comes from. str() is the C++ dmlref::to_string text:

        output[4] = 13 (0x41500000) = input[2], from indices[4] = -2 → 2 (Axis 0)
    """

    op: str
    """The operator: DirectML's name ('Gather', 'ScatterND'), or ONNX's for dmlref.onnx."""
    onnx: bool
    """An ONNX function's explanation: natural ranks, lowercase 'axis' in the text."""
    scatter: bool
    """A scatter (Scatter, ScatterElements, ScatterND)."""
    tuples: bool
    """indices hold tuples (GatherND, GatherND1, ScatterND)."""
    output: Tuple[int, ...]
    """The explained coordinate."""
    value: Any = field(compare=False)
    """The element the operator writes there: a numpy scalar of the output's dtype."""
    value_bits: int
    source: str
    """'input' (a gather's source, or a scatter's element no update addresses) or 'updates'."""
    input: Tuple[int, ...]
    """Gathers: the input element copied; scatters: the output's own coordinate."""
    input_value: Any = field(compare=False)
    """The input's element at `input`: a numpy scalar."""
    input_value_bits: int
    indices: Tuple[IndexRead, ...]
    """Gathers: the indices elements read (one, or a tuple's entries); scatters: ()."""
    reduction: str
    """Scatters: 'none' (the last update wins), 'add', 'mul', 'max' or 'min'."""
    updates: Tuple[Update, ...]
    """Scatters: every update that addresses the element, in the order they are applied."""
    _text: str = field(repr=False, compare=False)
    _source_text: str = field(repr=False, compare=False)

    def __str__(self) -> str:
        return self._text

    def source_text(self) -> str:
        """What the element is made of, in one line (C++ dmlref::source_text), as assert_golden's
        report puts it after 'expected = ': 'input[2], from indices[4] = -2 → 2 (Axis 0)'."""
        return self._source_text

    @property
    def winner(self) -> Optional[Update]:
        """The update whose value the element holds (scatters without a reduction), else None."""
        if self.scatter and self.reduction == "none" and self.updates:
            return self.updates[-1]
        return None
