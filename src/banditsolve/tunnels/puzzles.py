"""The bundled Bandido puzzles (``data/puzzles.json``) and a reader for game documents.

Each puzzle has an ``id``, a ``description``, a ``question`` (``can_close``, ``min_cards`` or
``solve``), a ``position`` in the JSON position document form, optional ``bounds`` (a play
area), for game puzzles ``hands``, ``pile``, ``player`` and ``options``, and the ``expected``
answer (``status``, and ``cards`` for a minimum).
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from importlib import resources
from typing import Any

from banditsolve.errors import DataError, NotationError
from banditsolve.tunnels.cards import parse_card
from banditsolve.tunnels.game import GameState, Options, state_from
from banditsolve.tunnels.notation import Position, from_json


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


def game_state(data: Mapping[str, Any]) -> GameState:
    """A game state from a game document: a position document (``game``, ``placements``) with
    ``hands`` (card names per player), ``pile`` (top first; the order is known), optionally
    ``unseen`` (cards on top of the pile in unknown order), ``player`` and ``options``."""
    position = from_json(
        {k: data[k] for k in ("game", "placements") if k in data} | {"remaining": []}
    )
    hands = data.get("hands")
    if not isinstance(hands, list) or not all(isinstance(h, list) for h in hands):
        raise NotationError("'hands' must be a list of lists of card names")
    for name in ("pile", "unseen"):
        if not isinstance(data.get(name, []), list):
            raise NotationError(f"{name!r} must be a list of card names")
    try:
        codes = [[parse_card(c) for c in h] for h in hands]
        pile = [parse_card(c) for c in data.get("pile", [])]
        unseen = [parse_card(c) for c in data.get("unseen", [])]
    except (TypeError, AttributeError) as exc:
        raise NotationError("cards must be given by name") from exc
    player = data.get("player", 0)
    if not isinstance(player, int):
        raise NotationError("'player' must be an integer")
    raw = data.get("options", {})
    if not isinstance(raw, dict):
        raise NotationError("'options' must be an object of rule option names and values")
    options = Options.from_mapping(raw)
    return state_from(position.table, codes, pile, unseen=unseen, player=player, options=options)


def _puzzle(entry: Mapping[str, Any]) -> Puzzle:
    where = f"puzzle {entry.get('id', '?')}"
    try:
        position = from_json(entry["position"])
        bounds = entry.get("bounds")
        area = None if bounds is None else (bounds[0], bounds[1], bounds[2], bounds[3])
        document = None
        if entry["question"] == "solve":
            document = dict(entry["position"]) | {
                k: entry[k] for k in ("hands", "pile", "player", "options", "unseen") if k in entry
            }
        return Puzzle(
            str(entry["id"]),
            str(entry["description"]),
            str(entry["question"]),
            position,
            dict(entry["expected"]),
            area,
            document,
        )
    except (KeyError, IndexError, TypeError, NotationError) as exc:
        raise DataError(f"{where}: {exc}") from exc


def load_puzzles() -> tuple[Puzzle, ...]:
    """The bundled puzzles, in file order."""
    text = (resources.files("banditsolve.tunnels") / "data" / "puzzles.json").read_text("utf-8")
    data = json.loads(text)
    return tuple(_puzzle(e) for e in data["puzzles"])
