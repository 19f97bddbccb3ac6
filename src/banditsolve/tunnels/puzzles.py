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
from banditsolve.errors import DataError, NotationError
from banditsolve.tunnels.cards import Deck
from banditsolve.tunnels.game import GameState, Options
from banditsolve.tunnels.notation import Position, from_json, state_from_json

_QUESTIONS = ("can_close", "min_cards", "solve")
_GAME_FIELDS = ("hands", "pile", "player", "options", "unseen")


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

    def state(self) -> GameState:
        """The game state of a ``solve`` puzzle."""
        if self.document is None:
            raise DataError(f"puzzle {self.id} is not a game puzzle")
        return game_state(self.document)


#: Every key a game document may hold: a position document's and :data:`_GAME_FIELDS`.
GAME_DOCUMENT_KEYS = frozenset(("game", "placements", "remaining", "hypothetical", *_GAME_FIELDS))


def is_game_document(doc: Mapping[str, Any]) -> bool:
    """Whether ``doc`` is a puzzle's game document (:func:`game_state`) rather than a saved game
    state: it has ``hands`` and nothing but the keys such a document may hold (a state's own
    fields, ``turn``, ``draw``, ``end``..., make it a game state, read as one)."""
    return "hands" in doc and set(doc) <= GAME_DOCUMENT_KEYS


def game_state(data: object, base: Options | None = None, deck: Deck | None = None) -> GameState:
    """A game state from a game document: a position document (``game``, ``placements``, an
    empty ``remaining``) with ``hands`` (card names per player), ``pile`` (top first; the
    order is known), optionally ``unseen`` (cards on top of the pile in unknown order),
    ``player`` (0 when left out) and ``options`` (over ``base``, the game's defaults). The
    state is settled as after any move (a player whose hand does not fit still has to change;
    the game may already be over). Every card of the deck must be somewhere, once."""
    doc = expect_object(data, "a game document")
    rest = doc.get("remaining", [])
    if rest != []:
        raise NotationError(
            "a game document's cards are in 'hands' and 'pile'; 'remaining' must be empty"
        )
    fields = {k: v for k, v in doc.items() if k != "remaining"}
    fields.setdefault("player", 0)
    return state_from_json(fields, base, deck, settled=True)


def _puzzle(entry: dict[str, Any], where: str) -> Puzzle:
    check_keys(
        entry,
        where,
        required=("id", "description", "question", "position", "expected"),
        optional=("bounds", *_GAME_FIELDS),
    )
    question = entry["question"]
    if question not in _QUESTIONS:
        raise DataError(f"{where}: question must be one of {', '.join(_QUESTIONS)}")
    description = entry["description"]
    if not isinstance(description, str):
        raise DataError(f"{where}: description must be text, not {json_type(description)}")
    position = from_json(entry["position"])
    bounds = entry.get("bounds")
    area = None
    if bounds is not None:
        if not isinstance(bounds, list) or len(bounds) != 4:
            raise DataError(f"{where}: bounds must be [min_x, min_y, max_x, max_y]")
        a, b, c, d = (expect_int(v, f"{where}: bounds", -10_000, 10_000) for v in bounds)
        area = (a, b, c, d)
    document = None
    if question == "solve":
        document = dict(entry["position"]) | {k: entry[k] for k in _GAME_FIELDS if k in entry}
        game_state(document)
    elif any(k in entry for k in _GAME_FIELDS):
        raise DataError(f"{where}: only a solve puzzle gives hands, pile, player or options")
    expected = expect_object(entry["expected"], f"{where}: expected")
    return Puzzle(entry["id"], description, question, position, dict(expected), area, document)


def load_puzzles() -> tuple[Puzzle, ...]:
    """The bundled puzzles, in file order."""
    return tuple(load_packaged_puzzles("banditsolve.tunnels", _puzzle))
