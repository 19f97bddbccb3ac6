"""The bundled Rolling Bandits puzzles (``data/puzzles.json``), loaded with core.puzzles.

Each puzzle has an ``id``, a ``position`` (notation), a ``question``, a ``description`` and the
``answer``. Questions:

- ``"lay"``: the chance to lay ``k`` dice of ``symbol`` with the coming roll (a fraction);
- ``"safe"``: is wagon ``wagon`` provably ``player``'s at their next turn (``"safe"``/``"unsafe"``);
- ``"trunk"``: the roll known, the only wagon whose trunk some laying carries off (its number);
- ``"ambush"``: in the ambush step, the swap that carries off the most trunks (its text), ``k``
  being how many;
- ``"steal"``: the chance, with the best play of the rest of the turn, that ``wagon`` is the
  mover's to steal at their next turn (a fraction; a trunk still to open is chance).

The tests re-derive every answer by an independent computation.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from banditsolve.core.io import check_keys, expect_int, json_type
from banditsolve.core.puzzles import load_packaged_puzzles
from banditsolve.errors import DataError
from banditsolve.rolling.notation import parse_state
from banditsolve.rolling.state import State

QUESTIONS = ("lay", "safe", "trunk", "ambush", "steal")
_REQUIRED = ("id", "position", "question", "description", "answer")
_OPTIONAL = ("symbol", "k", "wagon", "player")


@dataclass(frozen=True, slots=True)
class Puzzle:
    id: str
    position: str
    question: str
    description: str
    answer: str
    symbol: str = ""
    k: int = 0
    wagon: int = 0
    player: int = 0

    def state(self) -> State:
        return parse_state(self.position)


def _text(entry: dict[str, Any], key: str, where: str, default: str | None = None) -> str:
    if key not in entry and default is None:
        raise DataError(f"{where}: missing field {key!r}")
    value = entry.get(key, default)
    if not isinstance(value, str):
        raise DataError(f"{where}: {key} must be text, not {json_type(value)}")
    return value


def _make(entry: dict[str, Any], where: str) -> Puzzle:
    check_keys(entry, where, required=_REQUIRED, optional=_OPTIONAL)
    puzzle = Puzzle(
        id=_text(entry, "id", where),
        position=_text(entry, "position", where),
        question=_text(entry, "question", where),
        description=_text(entry, "description", where),
        answer=_text(entry, "answer", where),
        symbol=_text(entry, "symbol", where, ""),
        k=expect_int(entry.get("k", 0), f"{where}: k", 0, 99),
        wagon=expect_int(entry.get("wagon", 0), f"{where}: wagon", 0, 99),
        player=expect_int(entry.get("player", 0), f"{where}: player", 0, 3),
    )
    if puzzle.question not in QUESTIONS:
        raise DataError(f"{where}: unknown question {puzzle.question!r}")
    puzzle.state()
    return puzzle


def load_puzzles() -> list[Puzzle]:
    return load_packaged_puzzles("banditsolve.rolling", _make)
