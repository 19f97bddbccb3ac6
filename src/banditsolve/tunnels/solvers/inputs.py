"""What a caller hands a tunnel solver, checked once: the table, the cards (against the deck),
the limits and the play area. Every refusal is a :class:`~banditsolve.errors.SolverError` or
a :class:`~banditsolve.errors.NotationError`, never a ``TypeError``.

A closure question asked of a game state without cards (BD-CLOSE-6) takes the cards the game
has not played yet (:func:`unplayed`): every hand and the pile, its unseen part included (a
closure lays any of the cards in any order, so who holds a card and where it lies in the pile
play no part), and in Bandida the cards an alarm set aside (they go back to the pile); never
the cards out of the game. They come as :class:`Unplayed`, which says where they lie
(:class:`CardSource`), so that the answer can say so too. A finished game has none left to
play: it is refused in one line.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from banditsolve.core.limits import (
    MAX_COORD,
    MAX_SEARCH_WORKERS,
    Limits,
    check_node_limit,
    check_time_limit,
)
from banditsolve.core.text import plural, shown
from banditsolve.errors import ArgumentTypeError, BanditsolveError, SolverError
from banditsolve.tunnels.cards import CardLike, Deck, as_code, hand_code, load_deck
from banditsolve.tunnels.geometry import Cell
from banditsolve.tunnels.state import GameState
from banditsolve.tunnels.table import Table

#: A play area ``(min_x, min_y, max_x, max_y)``, inclusive.
Bounds = tuple[int, int, int, int]

#: Default limit of one closure solve, in seconds.


def inside(cell: Cell, bounds: Bounds | None) -> bool:
    """True when ``cell`` lies in the play area (always, without one)."""
    if bounds is None:
        return True
    return bounds[0] <= cell[0] <= bounds[2] and bounds[1] <= cell[1] <= bounds[3]


def table_of(position: object) -> Table:
    """The table of a Table, a Position or a game state; refused without a card (every game
    starts with its start card down, BD-SETUP-1)."""
    table = position if isinstance(position, Table) else getattr(position, "table", None)
    if isinstance(table, Table):
        if not table.history:
            raise SolverError(
                "the table has no card: a closure question starts from a table with its start"
                " card (Table.start(), BD-SETUP-1)"
            )
        return table
    raise ArgumentTypeError(
        "a closure question needs a Table, a Position or a game state, not"
        f" {type(position).__name__}"
    )


#: Where a game state's cards not yet played lie, as the answer names each part.
PART_WORDS = {
    "hands": "in the hands",
    "pile": "in the pile",
    "unseen": "unseen in the pile",
    "aside": "set aside by an alarm",
}


@dataclass(frozen=True, slots=True)
class CardSource:
    """Where the cards of a closure question asked of a game state came from: its cards not
    yet played, counted by where they lie (``parts``: ``hands``; ``pile``, the pile's known
    part; ``unseen``, its part of unknown order; and a Bandida state's ``aside``, the cards an
    alarm set aside, which go back to the pile)."""

    parts: tuple[tuple[str, int], ...]

    @property
    def count(self) -> int:
        """How many cards, in all."""
        return sum(n for _part, n in self.parts)

    @property
    def note(self) -> str:
        """The answer's note: ``"the game's 59 cards not yet played: 6 in the hands, 53 in the
        pile"`` (parts without cards left out)."""
        where = ", ".join(f"{n} {PART_WORDS[part]}" for part, n in self.parts if n)
        return f"the game's {plural(self.count, 'card')} not yet played" + (
            f": {where}" if where else ""
        )

    def to_json(self) -> dict[str, object]:
        """``{"what": "unplayed", "count": N, "hands": ..., "pile": ..., "unseen": ...}`` (and
        ``"aside"`` for a Bandida state)."""
        return {"what": "unplayed", "count": self.count, **dict(self.parts)}


class Unplayed(tuple[int, ...]):
    """The sorted codes of a game state's cards not yet played (a tuple of them), with where
    they came from (:attr:`source`): what :func:`cards_of` hands the solver for a game state
    asked without cards, so that the answer's notes say so
    (:func:`~banditsolve.tunnels.solvers.goals.plan`)."""

    source: CardSource

    def __new__(cls, codes: Iterable[int], source: CardSource) -> Unplayed:
        made = super().__new__(cls, sorted(codes))
        made.source = source
        return made

    def __reduce__(self) -> tuple[type[Unplayed], tuple[tuple[int, ...], CardSource]]:
        return (Unplayed, (tuple(self), self.source))


def unplayed(state: GameState) -> Unplayed:
    """The cards ``state`` has not played yet (BD-CLOSE-6, BA-CLOSE-4): every hand, the pile
    (its known part and its unseen part) and the cards an alarm set aside (Bandida), never the
    cards out of the game. A finished game has none left to play: :class:`SolverError`, one
    line naming its end."""
    if state.outcome is not None:
        why = f"{state.outcome}: {state.reason}" if state.reason else state.outcome
        raise SolverError(
            f"the game is over ({why}): no card is left to play; ask the question of its table"
            " and cards as a position"
        )
    aside: tuple[int, ...] | None = getattr(state, "aside", None)  # a Bandida state's
    parts: list[tuple[str, tuple[int, ...]]] = [
        ("hands", tuple(c for hand in state.hands for c in hand)),
        ("pile", state.pile),
        ("unseen", state.unseen),
    ]
    if aside is not None:
        parts.append(("aside", aside))
    codes = [c for _part, cards in parts for c in cards]
    return Unplayed(codes, CardSource(tuple((part, len(cards)) for part, cards in parts)))


def cards_of(position: object, cards: Iterable[CardLike] | None) -> tuple[int, ...]:
    """The sorted card codes to close with: ``cards``; or a game state's cards not yet played
    (:func:`unplayed`, saying where they came from); or the position's remaining cards."""
    if cards is None and isinstance(position, GameState):
        return unplayed(position)
    if cards is None:
        remaining = getattr(position, "remaining", None)
        if remaining is None:
            raise SolverError("give the cards to close with (a table alone has no remaining cards)")
        cards = remaining() if callable(remaining) else remaining
    if isinstance(cards, str | bytes):
        raise ArgumentTypeError(
            f"cards must be a list of card names, not the string {shown(cards)}"
        )
    try:
        items = list(cards)
    except TypeError:
        raise ArgumentTypeError(
            f"cards must be a list of card names, not {type(cards).__name__}"
        ) from None
    codes = []
    for n, card in enumerate(items):
        try:
            codes.append(as_code(card))
        except BanditsolveError as exc:
            raise type(exc)(f"cards[{n}]: {exc}") from None
    return tuple(sorted(codes))


def deck_of(position: object) -> Deck:
    """The deck a position's cards come from: a game state's variant's (Bandida's rules hold
    their deck), a position's game's, or Bandido's."""
    deck = getattr(getattr(position, "variant", None), "deck", None)
    if isinstance(deck, Deck):
        return deck
    game = getattr(position, "game", None)
    try:
        return load_deck(game if isinstance(game, str) else "bandido")
    except BanditsolveError:
        return load_deck("bandido")


def check_cards(position: object, table: Table, codes: Iterable[int], hypothetical: object) -> None:
    """Refuse, unless ``hypothetical`` (or the position says it is hypothetical), cards the
    real game cannot hold: the table's cards after its start card and ``codes`` together must
    be cards of the deck, with no more copies of a card than it has, and no super card among
    them (:meth:`Deck.check_counts`)."""
    if not isinstance(hypothetical, bool):
        raise ArgumentTypeError(f"hypothetical must be True or False, not {shown(hypothetical)}")
    if hypothetical or getattr(position, "hypothetical", False) is True:
        return
    laid = table.cards()[1:]
    deck_of(position).check_counts(
        (hand_code(c) for c in (*laid, *codes)),
        "the table and the cards (pass hypothetical=True for made-up ones)",
    )


def check_limits(
    max_cards: object = None,
    time_limit: object = None,
    node_limit: object = None,
    workers: object = None,
) -> Limits:
    """The time and node limits, checked (with ``max_cards`` and ``workers``: at most
    :data:`MAX_SEARCH_WORKERS`, each a process forked)."""
    checks = (("max_cards", max_cards, 0, None), ("workers", workers, 1, MAX_SEARCH_WORKERS))
    for name, value, low, high in checks:
        if value is None or _count(value, low, high):
            continue
        typed = not isinstance(value, bool) and isinstance(value, int)
        if high is not None:
            what = f"an integer from {low} to {high}"
        else:
            what = "a non-negative integer" if low == 0 else "a positive integer"
        error = SolverError if typed else ArgumentTypeError
        raise error(f"{name} must be {what}, not {shown(value)}")
    return Limits(
        check_time_limit(time_limit, "time_limit"), check_node_limit(node_limit, "node_limit")
    )


def check_bounds(bounds: object, table: Table) -> Bounds | None:
    """The play area, checked: four integers, not empty, holding every card of the table."""
    if bounds is None:
        return None
    if (
        not isinstance(bounds, tuple | list)
        or len(bounds) != 4
        or not all(_count(v, None) for v in bounds)
    ):
        raise SolverError("bounds must be (min_x, min_y, max_x, max_y), four integers")
    x0, y0, x1, y1 = bounds
    if x0 > x1 or y0 > y1:
        raise SolverError(f"empty play area {shown(tuple(bounds))}")
    area = (x0, y0, x1, y1)
    for cell in table.cells:
        if not inside(cell, area):
            raise SolverError(
                f"cell {cell} of the table lies outside the play area {shown(area)}"
            )
    return area


def check_backend(backend: str, minimum: bool, bounded: bool, node_limit: object) -> None:
    """Refuse what a closure backend cannot answer (:class:`SolverError`): the plain baseline
    answers only ``can_close`` on an unbounded table, and ``cpsat`` and ``z3`` count no nodes
    for a node limit."""
    if backend == "plain" and (minimum or bounded):
        raise SolverError("the plain baseline answers only can_close on an unbounded table")
    if backend in ("cpsat", "z3") and node_limit is not None:
        raise SolverError(f"a node limit counts the nodes of a search: {backend} has none")


def play_area(position: object, bounds: object, table: Table) -> Bounds | None:
    """The play area of the question: ``bounds`` (checked: :func:`check_bounds`), and a game
    state's own when its option ``table_size`` sets one (BD-OPT-6: no card of the game leaves
    it); with both, their overlap."""
    area = check_bounds(bounds, table)
    own = getattr(getattr(position, "options", None), "area", None)
    if own is None:
        return area
    if area is None:
        return (own[0], own[1], own[2], own[3])
    x0, y0 = max(area[0], own[0]), max(area[1], own[1])
    x1, y1 = min(area[2], own[2]), min(area[3], own[3])
    if x0 > x1 or y0 > y1:
        raise SolverError(
            f"the bounds {shown(area)} share no cell with the game's play area {shown(own)}"
        )
    return (x0, y0, x1, y1)


def check_reach(table: Table, budget: int, area: Bounds | None) -> None:
    """:class:`SolverError` when a closure of ``budget`` cards could leave the coordinates a
    placement may have (±``MAX_COORD``, BD-NOTE-1): its certificate would name placements the
    rules and the readers refuse. Every such closure lies within ``2 budget + 1`` steps of the
    table (BD-CLOSE-8); a play area inside the coordinates keeps it there."""
    if not table.packed or (area is not None and max(map(abs, area)) <= MAX_COORD):
        return
    reach = 2 * budget + 1
    xs = [x for x, _ in table.packed]
    ys = [y for _, y in table.packed]
    if min(min(xs), min(ys)) - reach >= -MAX_COORD and max(max(xs), max(ys)) + reach <= MAX_COORD:
        return
    # (moving the table helps only where the table with the closure's reach on both sides
    # fits inside the coordinates)
    movable = 2 * reach + max(max(xs) - min(xs), max(ys) - min(ys)) <= 2 * MAX_COORD
    fix = "move the table nearer to (0, 0), or " if movable else ""
    fix += "give a card cap (max_cards) or bounds inside them"
    raise SolverError(
        f"a closure of up to {plural(budget, 'card')} reaches {reach} cells from the table,"
        f" which could cross the edge of the coordinates (±{MAX_COORD}): {fix}"
    )


def _count(value: object, least: int | None, most: int | None = None) -> bool:
    """True for an int (not a bool) from ``least`` to ``most`` (None: no bound)."""
    if isinstance(value, bool) or not isinstance(value, int):
        return False
    return (least is None or value >= least) and (most is None or value <= most)
