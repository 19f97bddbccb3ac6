"""The bundled Bandido puzzles (``data/puzzles.json``) and a reader for game documents.

The file is a JSON list (read by :func:`banditsolve.core.puzzles.load_packaged_puzzles`). Each
puzzle has an ``id``, a ``description``, a ``question`` (``can_close``, ``min_cards`` or
``solve``), a ``position`` in the JSON position document form, optional ``bounds`` (a play
area ``[min_x, min_y, max_x, max_y]``), for game puzzles ``hands``, ``pile``, ``player``,
``unseen`` and ``options``, and the ``expected`` answer (``status``, and ``cards`` for a
minimum, ``turns`` for a game).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from banditsolve.core.io import check_keys, expect_int, expect_object, json_type
from banditsolve.core.puzzles import load_packaged_puzzles
from banditsolve.errors import DataError
from banditsolve.tunnels.notation import (
    GAME_DOCUMENT_KEYS,
    Position,
    from_json,
    game_state,
    is_game_document,
)
from banditsolve.tunnels.notation.states import GAME_FIELDS
from banditsolve.tunnels.state import GameState

_QUESTIONS = ("can_close", "min_cards", "solve")
#: A ``solve`` puzzle's question in words (Bandido's and Bandida's alike).
SOLVE_ASKS = "can this game be won, every card's place in the pile known?"
#: A puzzle's game document is read by :func:`~banditsolve.tunnels.notation.game_state`.
__all__ = ["GAME_DOCUMENT_KEYS", "Puzzle", "game_state", "is_game_document", "load_puzzles"]


@dataclass(frozen=True, slots=True)
class Puzzle:
    """One bundled puzzle."""

    id: str
    description: str
    question: str
    position: Position
    expected: Mapping[str, Any]
    bounds: tuple[int, int, int, int] | None = None
    document: Mapping[str, Any] | None = None

    @property
    def asks(self) -> str:
        """The puzzle's question in words."""
        if self.question == "solve":
            return SOLVE_ASKS
        if self.question == "can_close":
            return "can the tunnel still be closed with the cards to come?"
        return "the fewest of the cards to come that close the tunnel"

    def state(self) -> GameState:
        """The game state of a ``solve`` puzzle."""
        if self.document is None:
            raise DataError(f"puzzle {self.id} is not a game puzzle")
        return game_state(self.document)


def _puzzle(entry: dict[str, Any], where: str) -> Puzzle:
    check_keys(
        entry,
        where,
        required=("id", "description", "question", "position", "expected"),
        optional=("bounds", *GAME_FIELDS),
    )
    question = entry["question"]
    if question not in _QUESTIONS:
        raise DataError(f"{where}: question must be one of {', '.join(_QUESTIONS)}")
    description = entry["description"]
    if not isinstance(description, str):
        raise DataError(f"{where}: description must be text, not {json_type(description)}")
    raw = expect_object(entry["position"], f"{where}: position")  # an object, not its text
    position = from_json(raw)
    bounds = entry.get("bounds")
    area = None
    if bounds is not None:
        if not isinstance(bounds, list) or len(bounds) != 4:
            raise DataError(f"{where}: bounds must be [min_x, min_y, max_x, max_y]")
        a, b, c, d = (expect_int(v, f"{where}: bounds", -10_000, 10_000) for v in bounds)
        area = (a, b, c, d)
    document = None
    if question == "solve":
        document = dict(raw) | {k: entry[k] for k in GAME_FIELDS if k in entry}
        game_state(document)
    elif any(k in entry for k in GAME_FIELDS):
        raise DataError(f"{where}: only a solve puzzle gives hands, pile, player or options")
    expected = expect_object(entry["expected"], f"{where}: expected")
    return Puzzle(entry["id"], description, question, position, dict(expected), area, document)


def load_puzzles() -> tuple[Puzzle, ...]:
    """The bundled puzzles, in file order."""
    return tuple(load_packaged_puzzles("banditsolve.tunnels", _puzzle))
