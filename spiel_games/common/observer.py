"""Observer pieces shared by information-state/observation strings and tensors.

A game describes its observation once, as an ordered list of named pieces with
fixed shapes (the tensor layout), and one ``write(state, player, view, out)``
function that emits each piece under its visibility guard. The same function
feeds both the tensor (each piece written into its slice) and the string (each
piece rendered as ``name:values`` or a readable text), so strings and tensors
can never disagree about what a player sees.

``view`` answers the visibility predicates derived from OpenSpiel's
``IIGObservationType``:

- ``view.public``: public information is included;
- ``view.sees(owner, player)``: private information of ``owner`` is shown to ``player``;
- ``view.perfect_recall``: the information state (with the player's own memory)
  is requested rather than the current observation.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np
import pyspiel

from spiel_games.common.engine import cached, memo

_SINGLE = pyspiel.PrivateInfoType.SINGLE_PLAYER
_ALL = pyspiel.PrivateInfoType.ALL_PLAYERS


@dataclass(frozen=True)
class Piece:
    name: str
    shape: tuple[int, ...]

    @property
    def size(self) -> int:
        n = 1
        for d in self.shape:
            n *= d
        return n


class Layout:
    """An ordered tensor layout: piece name -> (offset, size, shape)."""

    def __init__(self, pieces: Sequence[Piece]):
        self.pieces = tuple(p for p in pieces if p.size > 0)
        self.offsets: dict[str, tuple[int, int]] = {}
        off = 0
        for p in self.pieces:
            if p.name in self.offsets:
                raise ValueError(f"duplicate observation piece {p.name!r}")
            self.offsets[p.name] = (off, p.size)
            off += p.size
        self.size = off

    def table(self) -> str:
        """Markdown table documenting the layout (for docs and `meeple games show`)."""
        rows = ["| piece | shape | offset |", "|---|---|---|"]
        for p in self.pieces:
            rows.append(f"| {p.name} | {p.shape} | {self.offsets[p.name][0]} |")
        return "\n".join(rows)


class View:
    """Visibility predicates for one IIGObservationType."""

    __slots__ = ("public", "perfect_recall", "_private")

    def __init__(self, iig_obs_type):
        if iig_obs_type is None:
            iig_obs_type = pyspiel.IIGObservationType(perfect_recall=False)
        self.public = bool(iig_obs_type.public_info)
        self.perfect_recall = bool(iig_obs_type.perfect_recall)
        self._private = iig_obs_type.private_info

    def sees(self, owner: int, player: int) -> bool:
        if self._private == _ALL:
            return True
        if self._private == _SINGLE:
            return owner == player
        return False


Writer = Callable[[object, int, View, Callable], None]


class _TensorSink:
    __slots__ = ("tensor", "offsets")

    def __init__(self, tensor: np.ndarray, offsets: dict[str, tuple[int, int]]):
        self.tensor = tensor
        self.offsets = offsets

    def __call__(self, name: str, values, text: str | None = None) -> None:
        off, size = self.offsets[name]
        if isinstance(values, (int, float)):
            self.tensor[off] = values
            return
        n = len(values)
        if n > size:
            raise ValueError(f"piece {name!r} has {n} values, layout allows {size}")
        self.tensor[off : off + n] = values


class _StringSink:
    __slots__ = ("parts",)

    def __init__(self):
        self.parts: list[str] = []

    def __call__(self, name: str, values, text: str | None = None) -> None:
        if text is None:
            text = str(values) if isinstance(values, (int, float)) else ",".join(map(str, values))
        self.parts.append(f"{name}:{text}")


class PieceObserver:
    """An OpenSpiel Python observer built from a Layout and a write function."""

    def __init__(self, iig_obs_type, layout: Layout, write: Writer):
        self.view = View(iig_obs_type)
        self.layout = layout
        self._write = write
        self.tensor = np.zeros(layout.size, np.float32)
        self.dict = {}
        for p in layout.pieces:
            off, size = layout.offsets[p.name]
            self.dict[p.name] = self.tensor[off : off + size].reshape(p.shape)
        self._sink = _TensorSink(self.tensor, layout.offsets)

    def set_from(self, state, player: int) -> None:
        self.tensor.fill(0.0)
        self._write(state, player, self.view, self._sink)

    def string_from(self, state, player: int) -> str:
        sink = _StringSink()
        self._write(state, player, self.view, sink)
        return " ".join(sink.parts)


class LayoutError(ValueError):
    """A piece that does not fit the layout (a bug, never a value out of byte range)."""


class ByteSink:
    """Writes pieces into a flat buffer laid out like the tensor (zeros to start with), for
    games whose tensor values are small counts (converted to the float tensor at once):
    a value vector into its slice, a one-hot by setting its one element (``hot``: -1 =
    all zeros; ``hot_rows``: one row of the piece per index), a count by adding 1
    (``add``). The buffer is a bytearray on the fast path (every value of a Rococo
    tensor is a small count) or the float32 tensor itself."""

    __slots__ = ("tensor", "offsets", "widths")

    def __init__(self, buffer, offsets: dict, widths: dict):
        self.tensor = buffer
        self.offsets = offsets
        self.widths = widths

    def __call__(self, name: str, values, text=None) -> None:
        off, size = self.offsets[name]
        if len(values) > size:
            raise LayoutError(f"piece {name!r} has {len(values)} values, layout allows {size}")
        self.tensor[off : off + len(values)] = values

    def hot(self, name: str, i: int) -> None:
        if i >= 0:
            off, size = self.offsets[name]
            if i >= size:
                raise LayoutError(f"piece {name!r}: index {i} outside its {size} values")
            self.tensor[off + i] = 1

    def hot_rows(self, name: str, indices) -> None:
        off, size = self.offsets.get(name, (0, 0))
        if not size:
            return
        w = self.widths[name]
        t = self.tensor
        for r, i in enumerate(indices):
            if i >= 0:
                if i >= w:
                    raise LayoutError(f"piece {name!r}: index {i} outside a row of {w}")
                t[off + r * w + i] = 1

    def add(self, name: str, i: int) -> None:
        self.tensor[self.offsets[name][0] + i] += 1


class ByteObserver(PieceObserver):
    """PieceObserver with a faster tensor writer, for games whose tensor values are small
    counts: pieces go into a bytearray (one-hot and count pieces element by element,
    ``write`` using ``out.hot``/``hot_rows``/``add``), converted to the float tensor at
    once. A value outside 0-255 makes that one write fall back to the float tensor.

    Outputs are memoised on the position (the engine core's ``cache``, dropped by every
    move): OpenSpiel's tests and bots ask for the same player's tensor and string several
    times per state. ``write`` must not depend on ``perfect_recall`` (the observation and
    the information state are then the same text)."""

    def __init__(self, iig_obs_type, layout: Layout, write: Writer):
        super().__init__(iig_obs_type, layout, write)
        self._widths = {p.name: p.shape[-1] for p in layout.pieces}
        self._float_sink = ByteSink(self.tensor, layout.offsets, self._widths)
        # what this observer shows: public facts, own secrets, everyone's secrets
        self._key = (self.view.public, self.view.sees(0, 0), self.view.sees(0, 1), layout.size)

    def set_from(self, state, player: int) -> None:
        c = state._s
        key = (True, player, self._key)
        done = cached(c, key)
        if done is not None:
            self.tensor[:] = np.frombuffer(done, np.uint8)
            return
        buf = bytearray(self.layout.size)
        try:
            self._write(state, player, self.view, ByteSink(buf, self.layout.offsets, self._widths))
        except LayoutError:
            raise
        except ValueError:  # a value that is not a byte: write the float tensor itself
            self.tensor.fill(0.0)
            self._write(state, player, self.view, self._float_sink)
            return
        self.tensor[:] = np.frombuffer(buf, np.uint8)
        memo(c)[key] = bytes(buf)

    def string_from(self, state, player: int) -> str:
        c = state._s
        key = (False, player, self._key)
        done = cached(c, key)
        if done is not None:
            return done
        text = super().string_from(state, player)
        memo(c)[key] = text
        return text
