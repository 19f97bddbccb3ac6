"""The bundled Los Banditos puzzles: positions with known, verified answers.

``load_puzzles()`` reads ``data/puzzles.json``. Each puzzle has an ``id``, a ``position`` in the
one-line notation, a ``question`` (``"claim"``: is the claim on ``tile`` safe, under each proof
option; ``"odds"``: the completion odds on ``tile``; ``"best"``: the best play this turn and the
chance of winning), the proof option the position is played under, a one-line
``description`` and the ``answer``. The tests re-derive every answer independently.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from importlib import resources
from typing import Any, Literal

from banditsolve.banditos.notation import parse_position
from banditsolve.banditos.state import State
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


def _puzzle(entry: Any, where: str) -> Puzzle:
    if not isinstance(entry, dict):
        raise DataError(f"{where}: a puzzle is an object")
    try:
        pid, position, question = entry["id"], entry["position"], entry["question"]
        description, answer = entry["description"], entry["answer"]
    except KeyError as exc:
        raise DataError(f"{where}: missing field {exc}") from None
    tile = entry.get("tile")
    if question not in QUESTIONS:
        raise DataError(f"{where}: unknown question {question!r}")
    if question in ("claim", "odds") and tile not in (1, 2, 3, 4):
        raise DataError(f"{where}: a {question} puzzle names a tile 1-4")
    if not isinstance(answer, dict) or not isinstance(description, str):
        raise DataError(f"{where}: bad description or answer")
    try:
        state = parse_position(position)
    except NotationError as exc:
        raise DataError(f"{where} ({pid}): {exc}") from None
    return Puzzle(
        id=str(pid),
        position=position,
        question=question,
        tile=tile,
        proof=state.options.proof,
        description=description,
        answer=answer,
    )


def parse_puzzles(doc: Any, source: str = "puzzles") -> list[Puzzle]:
    if not isinstance(doc, dict) or not isinstance(doc.get("puzzles"), list):
        raise DataError(f"{source}: expected an object with a 'puzzles' list")
    puzzles = [_puzzle(e, f"{source}, puzzle {i + 1}") for i, e in enumerate(doc["puzzles"])]
    ids = [p.id for p in puzzles]
    if len(set(ids)) != len(ids):
        raise DataError(f"{source}: duplicate puzzle ids")
    return puzzles


def load_puzzles() -> list[Puzzle]:
    """The bundled collection."""
    text = resources.files("banditsolve.banditos").joinpath("data/puzzles.json").read_text(
        encoding="utf-8"
    )
    try:
        doc = json.loads(text)
    except json.JSONDecodeError as exc:
        raise DataError(f"puzzles.json: {exc}") from None
    return parse_puzzles(doc, "puzzles.json")


def puzzle_by_id(pid: str) -> Puzzle:
    for puzzle in load_puzzles():
        if puzzle.id == pid:
            return puzzle
    raise DataError(f"no bundled puzzle {pid!r}")
