"""The bundled Bandida puzzles (``tunnels/data/bandida_puzzles.json``), read by
:func:`banditsolve.core.puzzles.load_packaged_puzzles`.

Each entry: ``id``, ``description``, ``covers`` (the special cards and modes it is about),
``question`` (``"solve"``: the endgame solver on the position; ``"close"``: the closure
question with the position's mode's goal, or ``goal``, and ``cards``), ``position`` (Bandida
notation), and ``expected`` (``status``; for ``close`` also ``cards``, the minimum, when
closable; for ``solve`` a ``win_chance`` when a reshuffle decides). The tests check every
answer against an independent brute force (``tests/bandida/test_solve_puzzles.py``).
A ``solve`` puzzle may add ``contrast``: ``{"swap": CARD, "status": ...}``, the answer when that
special card is replaced by a plain card of the same openings (what makes the card decide).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from banditsolve.core.io import check_keys
from banditsolve.core.puzzles import load_packaged_puzzles
from banditsolve.errors import DataError
from banditsolve.tunnels.game import BANDIDA
from banditsolve.tunnels.puzzles import SOLVE_ASKS
from banditsolve.tunnels.state import GameState

QUESTIONS = ("solve", "close")


@dataclass(frozen=True, slots=True)
class BandidaPuzzle:
    """One bundled Bandida puzzle (see the module notes)."""

    id: str
    description: str
    covers: tuple[str, ...]
    question: str
    position: str
    expected: dict[str, Any]
    goal: str | None = None
    cards: tuple[str, ...] | None = None
    hypothetical: bool = False
    contrast: dict[str, Any] | None = None

    @property
    def asks(self) -> str:
        """The puzzle's question in words."""
        if self.question == "solve":
            return SOLVE_ASKS
        goal = f" (goal: {self.goal})" if self.goal else ""
        cards = ", ".join(self.cards or ())
        return f"the fewest of the cards {cards} that reach the mode's goal{goal}"

    def state(self) -> GameState:
        """The puzzle's position, read by Bandida's notation."""
        return BANDIDA.from_notation(self.position)


def _make(entry: dict[str, Any], where: str) -> BandidaPuzzle:
    check_keys(
        entry,
        where,
        required=("id", "description", "covers", "question", "position", "expected"),
        optional=("goal", "cards", "hypothetical", "contrast"),
    )
    question = entry["question"]
    if question not in QUESTIONS:
        raise DataError(f"{where}: question must be one of {', '.join(QUESTIONS)}")
    covers = entry["covers"]
    if not isinstance(covers, list) or not all(isinstance(c, str) for c in covers):
        raise DataError(f"{where}: covers must be a list of names")
    expected = entry["expected"]
    if not isinstance(expected, dict) or "status" not in expected:
        raise DataError(f"{where}: expected must be an object with a status")
    cards = entry.get("cards")
    if cards is not None and (
        not isinstance(cards, list) or not all(isinstance(c, str) for c in cards)
    ):
        raise DataError(f"{where}: cards must be a list of card names")
    position = entry["position"]
    if not isinstance(position, str):
        raise DataError(f"{where}: position must be Bandida notation")
    return BandidaPuzzle(
        str(entry["id"]),
        str(entry["description"]),
        tuple(covers),
        str(question),
        position,
        dict(expected),
        entry.get("goal"),
        None if cards is None else tuple(cards),
        bool(entry.get("hypothetical", False)),
        _contrast(entry.get("contrast"), where),
    )


def _contrast(value: object, where: str) -> dict[str, Any] | None:
    if value is None:
        return None
    if not isinstance(value, dict) or set(value) != {"swap", "status"}:
        raise DataError(f"{where}: contrast must be {{\"swap\": CARD, \"status\": STATUS}}")
    return dict(value)


def load_bandida_puzzles() -> tuple[BandidaPuzzle, ...]:
    """Every bundled Bandida puzzle, in file order."""
    return tuple(load_packaged_puzzles("banditsolve.tunnels", _make, "bandida_puzzles.json"))
