"""What every game's ``info`` module shares (issue 29): argument checks for a player and an
index, the observation text of a JSON document, fixed-length tensors, and the numbering of a
state's actions by their place in its legal actions.

Two numberings are in use (each game's ``info`` module says which it takes):

- *fixed*: an index means the same action in every state (Los Banditos, the toy);
- *by place*: an index is the action's place in ``legal_actions(state)``, whose order every
  game fixes and documents (Rolling Bandits, Bandido, Bandida: their actions name wagons,
  cells and sets of cards that no small fixed range holds). The range is then a proven bound
  on the number of legal actions (or chance outcomes) of any state.

**Tensors from parts.** A tensor is rebuilt at every step of an adapter, and most of it (the
table, the train, the trunks taken) does not change between two steps. A game's ``info`` module
may build it from *pieces* (:func:`piece`: the numbers of one part, as floats and as ``float32``
bytes), kept by a :class:`Memo` against the identity of the immutable values each was made from,
and write them at their places in a :class:`Frame`, which keeps the last tensor's numbers and
rewrites only the pieces that changed: the tuple the contract returns then costs one pass over
pointers, and the same numbers as ``float32`` bytes (:func:`packed`) let an adapter read the
tensor into NumPy without a pass over Python floats.
"""

from __future__ import annotations

import json
import operator
import threading
from array import array
from collections.abc import Callable, Iterable, Sequence
from functools import cache
from itertools import compress
from struct import Struct
from typing import Any, TypeVar

from banditsolve.core.args import expect_whole
from banditsolve.core.text import shown
from banditsolve.errors import IllegalActionError, InternalError, RuleOptionError

A = TypeVar("A")
V = TypeVar("V")


def expect_observer(player: object, players: int, title: str) -> int:
    """``player`` if it is a player number of a ``players``-player game of ``title``."""
    return expect_whole(player, f"the observing player of {title}", 0, players - 1, RuleOptionError)


def expect_index(index: object, size: int, what: str) -> int:
    """``index`` if it is a whole number ``0..size - 1``; an :class:`IllegalActionError`
    (a wrong type: also a TypeError) naming ``what`` otherwise."""
    return expect_whole(index, what, 0, size - 1, IllegalActionError)


def observation_text(document: Any) -> str:
    """A JSON document as one line of text, keys sorted (the same document, the same text)."""
    return json.dumps(document, sort_keys=True, separators=(",", ":"), allow_nan=False)


#: Zeros to pad a tensor with, made once.
_ZEROS = (0.0,) * 4096


def fixed(values: Iterable[int | float], length: int, what: str) -> tuple[float, ...]:
    """``values`` as floats, padded with zeros to ``length``; more than ``length`` values is a
    bug (the game's bound on its tensor was wrong)."""
    out = tuple(map(float, values))  # map with the builtin: twice as fast as a comprehension
    if len(out) > length:
        raise InternalError(f"{what}: {len(out)} numbers, more than its length {length}")
    return out + _ZEROS[: length - len(out)] if length <= len(_ZEROS) else (
        out + (0.0,) * (length - len(out)))


#: The entries a small cache by identity keeps before it is emptied (options, editions, decks:
#: a few in any run; a run that makes new option objects by the thousand refills it).
KEPT = 256

#: One part of a tensor: its numbers as floats, and the same as ``float32`` bytes.
Piece = tuple[tuple[float, ...], bytes]


#: One float object for each whole number -4096..4095: a tensor's numbers are mostly small
#: whole numbers, and a copy of the tensor then touches a few objects, not one for each number.
_FLOATS = {number: float(number) for number in range(-4096, 4096)}


def piece(values: Sequence[int]) -> Piece:
    """The whole numbers ``values`` as a :data:`Piece`."""
    try:
        floats = tuple(map(_FLOATS.__getitem__, values))
    except KeyError:  # a number outside -4096..4095
        floats = tuple(map(float, values))
    return floats, array("f", floats).tobytes()


def padded(values: Sequence[int], width: int, what: str) -> Piece:
    """The whole numbers ``values`` and zeros after them, ``width`` in all, as a :data:`Piece`;
    more than ``width`` numbers is a bug (the game's bound on its tensor was wrong)."""
    if len(values) > width:
        raise InternalError(f"{what}: {len(values)} numbers, more than its room {width}")
    return piece([*values, *[0] * (width - len(values))])


@cache
def _format(count: int) -> Struct:
    """``count`` float32 numbers (native order, as ``array("f")`` and NumPy write them)."""
    return Struct(f"={count}f")


@cache
def zeros(count: int) -> Piece:
    """``count`` zeros as a :data:`Piece` (made once per count)."""
    return piece((0,) * count)


def concatenated(pieces: Iterable[Piece]) -> Piece:
    """``pieces`` one after another, as one :data:`Piece`."""
    floats: list[float] = []
    raw: list[bytes] = []
    for numbers, data in pieces:
        floats += numbers
        raw.append(data)
    return tuple(floats), b"".join(raw)


class Memo:
    """Pieces by the identity of the immutable value each was made from, and a tag (the
    observer, a length): ``get(value, tag)`` is the piece ``put(value, tag, piece)`` stored, or
    None. The value is kept beside its piece, so that its ``id`` is not reused for another
    value while the entry lives; the memo is emptied when it holds ``size`` entries."""

    __slots__ = ("_entries", "_size")

    def __init__(self, size: int = 4096) -> None:
        self._entries: dict[tuple[int, int], tuple[object, Piece]] = {}
        self._size = size

    def get(self, value: object, tag: int) -> Piece | None:
        entry = self._entries.get((id(value), tag))
        return entry[1] if entry is not None and entry[0] is value else None

    def put(self, value: object, tag: int, made: Piece) -> Piece:
        if len(self._entries) >= self._size:
            self._entries.clear()
        self._entries[(id(value), tag)] = (value, made)
        return made


class Frame:
    """One thread's tensors of one length: the numbers of the last one made (as floats and as
    ``float32`` bytes) and what was written at each place, so that writing it again costs
    nothing: :meth:`put` a piece, :meth:`put_rows` rows of values (only the rows whose value
    changed are made again); :meth:`made` copies the numbers out, one pass over pointers. Each
    place takes pieces of one width, or rows, always the same (a place written otherwise, or
    overlapping another, is a bug)."""

    __slots__ = ("_floats", "_parts", "_raw", "_rows", "_written")

    def __init__(self, length: int) -> None:
        self._floats = list(zeros(length)[0])
        self._raw = bytearray(zeros(length)[1])
        self._written: dict[int, Piece] = {}
        self._rows: dict[int, tuple[object, ...]] = {}
        self._parts: dict[int, tuple[tuple[object, ...], int, int]] = {}

    @staticmethod
    def of(layout: tuple[object, ...], length: int) -> Frame:
        """This thread's frame of ``length`` numbers for the tensors of ``layout`` (what
        decides where each part lies: the game and its sizes)."""
        frames: dict[tuple[object, ...], Frame] | None = getattr(_local, "frames", None)
        if frames is None:
            frames = _local.frames = {}
        frame = frames.get(layout)
        if frame is None:
            frame = frames[layout] = Frame(length)
        return frame

    def _write(self, place: int, part: Piece, width: int) -> None:
        end = place + width
        if len(part[0]) != width or end > len(self._floats):
            raise InternalError(f"a piece of {len(part[0])} numbers at {place} of a tensor")
        self._floats[place:end] = part[0]
        self._raw[4 * place : 4 * end] = part[1]

    def put(self, place: int, part: Piece) -> None:
        """``part`` at ``place`` (its numbers from there on)."""
        before = self._written.get(place)
        if before is not part:
            self._write(place, part, len(part[0]) if before is None else len(before[0]))
            self._written[place] = part

    def put_parts(
        self, place: int, values: tuple[object, ...], tag: int, build: Callable[[], Piece]
    ) -> None:
        """``build()`` at ``place``, a piece made from the immutable ``values`` and the number
        ``tag`` alone (the observer): made and written again only when one of them is not the
        one written before."""
        before = self._parts.get(place)
        if before is not None and before[1] == tag and all(map(operator.is_, before[0], values)):
            return
        part = build()
        self._write(place, part, len(part[0]) if before is None else before[2])
        self._parts[place] = (values, tag, len(part[0]))

    def put_numbers(self, place: int, values: Sequence[int]) -> None:
        """The whole numbers ``values`` at ``place`` (written every time: the numbers that
        change at every step)."""
        end = place + len(values)
        if end > len(self._floats):
            raise InternalError(f"{len(values)} numbers at {place} of a tensor")
        try:
            floats = tuple(map(_FLOATS.__getitem__, values))
        except KeyError:  # a number outside -4096..4095
            floats = tuple(map(float, values))
        self._floats[place:end] = floats
        _format(len(values)).pack_into(self._raw, 4 * place, *floats)

    def put_rows(
        self,
        place: int,
        values: Sequence[V | None],
        count: int,
        width: int,
        row: Callable[[V], Piece],
    ) -> None:
        """``count`` rows of ``width`` numbers from ``place`` on: ``row(value)`` for each of
        ``values`` (immutable: a row is made again only where the value there is not the one
        written before; zeros for None), zeros after them."""
        if len(values) > count:
            raise InternalError(f"{len(values)} rows at {place} of a tensor, room for {count}")
        new = (*values, *(None,) * (count - len(values)))
        before = self._rows.get(place)
        changed = range(count) if before is None else compress(
            range(count), map(operator.is_not, before, new)
        )
        for i in changed:
            value = new[i]
            self._write(place + i * width, zeros(width) if value is None else row(value), width)
        self._rows[place] = new

    def raw(self) -> bytes:
        """The tensor's numbers as ``float32`` bytes, without the tuple of :meth:`made`."""
        return bytes(self._raw)

    def made(self) -> tuple[float, ...]:
        """The tensor: the numbers written (its ``float32`` bytes kept for :func:`packed`)."""
        tensor = tuple(self._floats)
        _local.pack = (tensor, bytes(self._raw))
        return tensor


#: This thread's frames, and the last tensor a frame of this thread made (with its bytes).
_local = threading.local()


def packed(tensor: tuple[float, ...]) -> bytes | None:
    """The ``float32`` bytes of ``tensor`` if it is the last tensor a :class:`Frame` of this
    thread made (the same numbers, in order), else None: an adapter that has just asked a game
    for a tensor reads it into NumPy from them (``numpy.frombuffer``), or converts the tuple
    when None."""
    last: Piece | None = getattr(_local, "pack", None)
    return last[1] if last is not None and last[0] is tensor else None


#: The places 0..4095, made once: :func:`places` slices them.
_PLACES = tuple(range(4096))


def places(count: int) -> tuple[int, ...]:
    """``(0, 1, ..., count - 1)``: the indices of ``count`` actions numbered by place."""
    return _PLACES[:count] if count <= len(_PLACES) else tuple(range(count))


def place_of(legal: Sequence[A], action: object, title: str) -> int:
    """The place of ``action`` in ``legal`` (numbering by place)."""
    for i, candidate in enumerate(legal):
        if candidate == action:
            return i
    raise IllegalActionError(f"{shown(action)} is not a legal action of this {title} state")


def at_place(legal: Sequence[A], index: object, size: int, title: str) -> A:
    """The action at place ``index`` of ``legal`` (numbering by place); ``size`` is the range."""
    i = expect_index(index, size, f"an action index of {title}")
    if i >= len(legal):
        raise IllegalActionError(
            f"action index {i} names no legal action of this {title} state "
            f"(it has {len(legal)})"
        )
    return legal[i]
