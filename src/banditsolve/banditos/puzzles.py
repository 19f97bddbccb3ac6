"""The bundled Los Banditos puzzles: positions with known, verified answers.

``load_puzzles()`` reads ``data/puzzles.json`` (a list, through :mod:`banditsolve.core.puzzles`).
Each puzzle has an ``id``, a ``position`` in the one-line notation, a ``question`` (``"claim"``:
is the claim on ``tile`` safe, under each proof option; ``"odds"``: the completion odds on
``tile``; ``"best"``: the best play this turn and the chance of winning), the proof option the
position is played under (it must agree with the position's own), a one-line ``description``
and the ``answer``. The tests re-derive every answer independently.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import Any, Literal

from banditsolve.banditos.notation import parse_position
from banditsolve.banditos.state import State
from banditsolve.core.io import check_keys, json_type
from banditsolve.core.puzzles import load_packaged_puzzles, parse_puzzle_list
from banditsolve.core.text import excerpt
from banditsolve.errors import DataError, NotationError

Question = Literal["claim", "odds", "best"]
QUESTIONS: tuple[Question, ...] = ("claim", "odds", "best")


@dataclass(frozen=True, slots=True)
class Puzzle:
    id: str
    position: str
    question: Question
    tile: int | None
    proof: str
    description: str
    answer: dict[str, Any]

    def state(self) -> State:
        return parse_position(self.position)

    def to_json(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "position": self.position,
            "question": self.question,
            "tile": self.tile,
            "proof": self.proof,
            "description": self.description,
            "answer": self.answer,
        }


def make_puzzle(entry: dict[str, Any], where: str) -> Puzzle:
    """One puzzle from its JSON object (``where`` names it in errors)."""
    try:
        check_keys(
            entry,
            where,
            required=("id", "position", "question", "description", "answer"),
            optional=("tile", "proof"),
        )
    except NotationError as exc:
        raise DataError(str(exc)) from None
    question, tile, position = entry["question"], entry.get("tile"), entry["position"]
    if question not in QUESTIONS:
        raise DataError(f"{where}: unknown question {excerpt(str(question))}")
    if question in ("claim", "odds") and (
        isinstance(tile, bool) or tile not in (1, 2, 3, 4)
    ):
        raise DataError(f"{where}: a {question} puzzle names a tile 1-4")
    if question == "best" and tile is not None:
        raise DataError(f"{where}: a best-turn puzzle names no tile")
    if not isinstance(entry["answer"], dict):
        raise DataError(f"{where}: the answer is an object, not {json_type(entry['answer'])}")
    if not isinstance(entry["description"], str) or not isinstance(position, str):
        raise DataError(f"{where}: the description and the position are text")
    try:
        state = parse_position(position)
    except NotationError as exc:
        raise DataError(f"{where}: {exc}") from None
    proof = entry.get("proof", state.options.proof)
    if proof != state.options.proof:
        raise DataError(
            f"{where}: proof {excerpt(str(proof))} contradicts the position's "
            f"proof={state.options.proof}"
        )
    return Puzzle(
        id=entry["id"],
        position=position,
        question=question,
        tile=tile,
        proof=state.options.proof,
        description=entry["description"],
        answer=entry["answer"],
    )


def parse_puzzles(doc: Any, source: str = "puzzles") -> list[Puzzle]:
    """Puzzles from a parsed puzzle file (a JSON list of puzzle objects)."""
    return parse_puzzle_list(doc, make_puzzle, source)


@lru_cache(maxsize=1)
def _bundled() -> tuple[Puzzle, ...]:
    return tuple(load_packaged_puzzles("banditsolve.banditos", make_puzzle))


def load_puzzles() -> list[Puzzle]:
    """The bundled collection."""
    return list(_bundled())


def puzzle_by_id(pid: str) -> Puzzle:
    for puzzle in _bundled():
        if puzzle.id == pid:
            return puzzle
    raise DataError(f"no bundled puzzle {excerpt(str(pid))}")
