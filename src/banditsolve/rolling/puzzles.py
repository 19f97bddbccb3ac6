"""The bundled Rolling Bandits puzzles (``data/puzzles.json``), loaded with core.puzzles.

Each puzzle has an ``id``, a ``position`` (notation), a ``question``, a ``description`` and the
``answer``. Questions:

- ``"lay"``: the chance to lay ``k`` dice of ``symbol`` with the coming roll (a fraction);
- ``"safe"``: is ``car`` provably ``player``'s at their next turn (``"safe"``/``"unsafe"``);
- ``"trunk"``: the roll known, the only car whose trunk some laying carries off (its number);
- ``"ambush"``: in the ambush step, the swap that carries off the most trunks (its text), ``k``
  being how many;
- ``"steal"``: the chance, with the best play of the rest of the turn, that ``car`` is the
  mover's to steal at their next turn (a fraction; a trunk still to open is chance).

The tests re-derive every answer by an independent computation.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from banditsolve.core.puzzles import load_packaged_puzzles
from banditsolve.errors import DataError
from banditsolve.rolling.notation import parse_state
from banditsolve.rolling.state import State

QUESTIONS = ("lay", "safe", "trunk", "ambush", "steal")


@dataclass(frozen=True, slots=True)
class Puzzle:
    id: str
    position: str
    question: str
    description: str
    answer: str
    symbol: str = ""
    k: int = 0
    car: int = 0
    player: int = 0

    def state(self) -> State:
        return parse_state(self.position)


def _make(entry: dict[str, Any], where: str) -> Puzzle:
    try:
        puzzle = Puzzle(
            id=str(entry["id"]),
            position=str(entry["position"]),
            question=str(entry["question"]),
            description=str(entry["description"]),
            answer=str(entry["answer"]),
            symbol=str(entry.get("symbol", "")),
            k=int(entry.get("k", 0)),
            car=int(entry.get("car", 0)),
            player=int(entry.get("player", 0)),
        )
    except KeyError as exc:
        raise DataError(f"{where}: missing field {exc}") from None
    if puzzle.question not in QUESTIONS:
        raise DataError(f"{where}: unknown question {puzzle.question!r}")
    puzzle.state()
    return puzzle


def load_puzzles() -> list[Puzzle]:
    return load_packaged_puzzles("banditsolve.rolling", _make)
