"""What every game's ``info`` module shares (issue 29): argument checks for a player and an
index, the observation text of a JSON document, fixed-length tensors, and the numbering of a
state's actions by their place in its legal actions.

Two numberings are in use (each game's ``info`` module says which it takes):

- *fixed*: an index means the same action in every state (Los Banditos, the toy);
- *by place*: an index is the action's place in ``legal_actions(state)``, whose order every
  game fixes and documents (Rolling Bandits, Bandido, Bandida: their actions name wagons,
  cells and sets of cards that no small fixed range holds). The range is then a proven bound
  on the number of legal actions (or chance outcomes) of any state.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from typing import Any, TypeVar

from banditsolve.core.args import expect_whole
from banditsolve.core.text import shown
from banditsolve.errors import IllegalActionError, InternalError, RuleOptionError

A = TypeVar("A")


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
