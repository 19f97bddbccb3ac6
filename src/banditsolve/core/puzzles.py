"""One loader for the puzzle files every game ships (``<game>/data/puzzles.json``), and what
the command line shows of them (``banditsolve GAME puzzles``, ``banditsolve GAME puzzle ID``).

A puzzle file is a JSON list of objects, each with a unique string ``"id"``; what else an entry
holds is the game's business: it passes a function that turns one entry into its puzzle type.
A game shows its collection through :class:`~banditsolve.core.hooks.PuzzleHooks`, in the
shapes below: :class:`PuzzleCard` (a line of the list), :class:`PuzzleView` (a position) and
:class:`SolvedPuzzle` (the solver's answer checked against the stored one, drawn).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from importlib import resources
from typing import Any, TypeVar

from banditsolve.core.io import expect_object, load_json
from banditsolve.core.text import excerpt
from banditsolve.errors import BanditsolveError, DataError

P = TypeVar("P")


def parse_puzzle_list(doc: Any, make: Callable[[dict[str, Any], str], P], source: str) -> list[P]:
    """Every entry of ``doc`` through ``make(entry, where)``; ids must be unique strings."""
    if not isinstance(doc, list):
        raise DataError(f"{source}: a puzzle file is a JSON list of puzzles")
    out: list[P] = []
    seen: set[str] = set()
    for index, raw in enumerate(doc):
        where = f"{source}: puzzle {index + 1}"
        try:
            entry = expect_object(raw, where)
        except BanditsolveError as exc:
            raise DataError(str(exc)) from None
        pid = entry.get("id")
        if not isinstance(pid, str) or not pid:
            raise DataError(f"{where} has no string id")
        if pid in seen:
            raise DataError(f"{where}: id {pid!r} appears twice")
        seen.add(pid)
        named = f"{source}: puzzle {pid}"
        try:
            out.append(make(entry, named))
        except DataError:
            raise
        except BanditsolveError as exc:  # one line, naming the puzzle once
            text = str(exc)
            raise DataError(text if text.startswith(named) else f"{named}: {text}") from None
    return out


def load_packaged_puzzles(
    package: str, make: Callable[[dict[str, Any], str], P], name: str = "puzzles.json"
) -> list[P]:
    """The puzzles shipped in ``package``'s ``data/`` folder."""
    source = f"{package}/data/{name}"
    text = resources.files(package).joinpath("data", name).read_text(encoding="utf-8")
    return parse_puzzle_list(load_json(text, source), make, source)


# -- the collection on the command line ---------------------------------------------------------


@dataclass(frozen=True, slots=True)
class PuzzleCard:
    """One shipped puzzle as a list shows it: its ``id``, its ``title`` (the one-line
    description) and its ``question`` in words."""

    id: str
    title: str
    question: str

    def to_json(self) -> dict[str, str]:
        return {"id": self.id, "title": self.title, "question": self.question}


@dataclass(frozen=True, slots=True)
class PuzzleView:
    """A puzzle's position: its ``card``, the position's one-line ``notation``, its ASCII
    picture and its SVG."""

    card: PuzzleCard
    notation: str
    ascii: str
    svg: str

    def to_json(self) -> dict[str, str]:
        return {**self.card.to_json(), "position": self.notation}


@dataclass(frozen=True, slots=True)
class SolvedPuzzle:
    """A puzzle solved: the solver's ``answer`` in words and as JSON (``found``), the stored
    answer (``expected``, as JSON), whether they agree (``verified``), and the answer drawn
    (``ascii``, ``svg``). ``unknown``: a limit stopped the solver before an answer."""

    view: PuzzleView
    answer: str
    found: Any
    expected: Any
    verified: bool
    ascii: str
    svg: str
    unknown: bool = False

    def to_json(self) -> dict[str, Any]:
        return {**self.view.to_json(), "answer": self.found, "expected": self.expected,
                "verified": self.verified, "unknown": self.unknown}


def find_card(cards: Sequence[PuzzleCard], puzzle_id: str, game: str) -> PuzzleCard:
    """The card of ``puzzle_id`` among ``cards``; an unknown id is refused naming a few."""
    for card in cards:
        if card.id == puzzle_id:
            return card
    some = ", ".join(c.id for c in cards[:6]) + (", ..." if len(cards) > 6 else "")
    raise DataError(
        f"{game} has no puzzle {excerpt(puzzle_id)} (`banditsolve {game} puzzles` lists "
        f"them: {some or 'none'})"
    )


def _drawn(result: object, method: str, fallback: str) -> str:
    draw = getattr(result, method, None)
    if callable(draw):
        picture = draw()
        if isinstance(picture, str) and picture:
            return picture
    return fallback


def answer_picture(result: object, fallback: str) -> str:
    """The picture of a solver's answer: ``result._repr_svg_()`` when the result draws
    itself, else ``fallback`` (the position's picture)."""
    return _drawn(result, "_repr_svg_", fallback)


def answer_text(result: object, fallback: str) -> str:
    """The answer drawn in text: ``result.ascii()`` when the result draws itself, else
    ``fallback`` (the position's text picture)."""
    return _drawn(result, "ascii", fallback)


def pick(puzzles: Sequence[P], card: Callable[[P], PuzzleCard], puzzle_id: str, game: str) -> P:
    """The puzzle ``puzzle_id`` of a collection whose cards ``card`` makes; an unknown id is
    refused (:func:`find_card`)."""
    found = find_card([card(p) for p in puzzles], puzzle_id, game)
    return next(p for p in puzzles if card(p).id == found.id)


def state_view(card: PuzzleCard, notation: str, rules: Any, state: Any) -> PuzzleView:
    """A puzzle's view: its card, its position's notation and ``state`` drawn by ``rules`` (a
    game contract)."""
    return PuzzleView(card, notation, rules.ascii(state), rules.svg(state))


def solved(
    view: PuzzleView, answer: str, found: Any, expected: Any, result: object, *,
    unknown: bool = False,
) -> SolvedPuzzle:
    """A puzzle's answer checked: verified when no limit stopped the solver and ``found``
    equals ``expected``; drawn by the result when it draws itself (:func:`answer_text`,
    :func:`answer_picture`), else as the position."""
    return SolvedPuzzle(view, answer, found, expected, not unknown and found == expected,
                        answer_text(result, view.ascii), answer_picture(result, view.svg),
                        unknown)


def step_texts(rules: Any, state: Any, actions: Sequence[Any]) -> list[str]:
    """Actions as text, each read in the state it is played in (``rules``: a game contract)."""
    out = []
    for action in actions:
        out.append(rules.action_text(state, action))
        state = rules.apply(state, action)
    return out
