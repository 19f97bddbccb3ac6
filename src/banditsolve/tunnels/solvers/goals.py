"""What a closure must reach: the goal of each Bandida mode (BA modes 1-3) and Bandido's.

- ``"close"`` (Bandido; Bandida mode 1): no exit left.
- ``"ladder"`` (Bandida mode 2): the ladder card on the table, laid like any card (its opening
  joins an exit, which it thereby closes), and every other exit closed. A table closed before
  the ladder is down can take no more cards: that line is lost (closing too soon loses).
- ``"join"`` (Bandida mode 3): also the second super card (Bandido's) on the table, on the side
  the solver chooses, joined to Bandida's super card through the tunnels, every other exit
  closed. Every card laid joins the network, so without removals the two super cards are
  always joined; :func:`goal_problem` checks it on the final table all the same.

How the special cards enter the question (``can_close`` with cards of the Bandida deck):

- The map's removals change the table: the searches planned here leave the map cards out. A
  closure found without them is a real certificate (it simply does not use the map); when
  they find none, the lines that lay a map are searched with its removals
  (:mod:`~banditsolve.tunnels.solvers.mapclose`). A reason that holds whatever is removed
  (no ladder, or no second super card, among the cards and on the table) answers at once.
- The backpack, the dynamite, the broken tool and the water bottle (and the alarms' effects)
  change hands, draws and the pile, never the table: they do not change which placement
  sequences exist in the closure question (any subset of the cards, in any order), so there
  they are tunnel cards with their openings.

Cards whose kind plays no part in the goal are searched by their openings alone (one code per
port set, so a plain ``L+R`` and an ``L+R:broken_tool`` are not tried twice at one spot), and
the certificate names the real cards again (:func:`restore`).
"""

from __future__ import annotations

from collections import Counter, deque
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from banditsolve.core.text import plural, shown
from banditsolve.errors import SolverError
from banditsolve.tunnels.bandida.components import GOAL_MODES, GOALS, MODES, Mode
from banditsolve.tunnels.bandida.rules import BandidaRules
from banditsolve.tunnels.cards import (
    KIND_INDEX,
    PORT_MASK,
    SUPER5,
    SUPER6,
    kind_index,
)
from banditsolve.tunnels.geometry import STEP, Cell, Placement
from banditsolve.tunnels.solvers.inputs import Unplayed, deck_of
from banditsolve.tunnels.state import GameState
from banditsolve.tunnels.table import Table

LADDER = KIND_INDEX["ladder"]
MAP = KIND_INDEX["map"]
#: The object kinds whose effects touch only hands, draws and the pile.
HAND_OBJECTS = frozenset(
    KIND_INDEX[k] for k in ("backpack", "water_bottle", "broken_tool", "dynamite")
)
SUPER_MASKS = frozenset((SUPER6, SUPER5))
BANDIDO_SUPER = KIND_INDEX["bandido_super"]

#: A requirement: at least one card whose code is in the set must be laid.
Required = tuple[frozenset[int], ...]


def is_ladder(code: int) -> bool:
    """True for the ladder card."""
    return kind_index(code) == LADDER


def is_map(code: int) -> bool:
    """True for a map card."""
    return kind_index(code) == MAP


def is_bandido_super(code: int) -> bool:
    """True for Bandido's super card among Bandida's cards (mode 3), either side."""
    return kind_index(code) == BANDIDO_SUPER


def is_super(code: int) -> bool:
    """True for a super card side (the second super card of mode 3, among the cards)."""
    return code & PORT_MASK in SUPER_MASKS


def checked_goal(goal: object) -> str:
    """``goal`` if it is a closure goal (``close``, ``ladder``, ``join``), else
    :class:`SolverError`."""
    if not isinstance(goal, str) or goal not in GOALS:
        raise SolverError(f"unknown closure goal {shown(goal)} (one of {', '.join(GOALS)})")
    return goal


def question(position: object, goal: object) -> tuple[str, Mode | None]:
    """The goal of a closure question on ``position`` and the Bandida mode whose components its
    cards must be (BA-CLOSE-1, BA-SETUP-4, BA-DECK-5), both from the mode the position is a
    question of:

    - a Bandida game state: its mode (:meth:`~banditsolve.tunnels.bandida.rules.BandidaRules.
      mode`), and the goal asked or the mode's;
    - a position of a game with modes (:attr:`~banditsolve.tunnels.notation.Position.mode`;
      one built without a mode is a question of the game's first mode, Bandida's mode 1): that
      mode, and its goal; a ``goal`` that is another mode's is refused with
      :class:`SolverError` (ask the position of that mode instead);
    - a position or state of a game without modes (Bandido's): goal ``close``, any other
      refused with :class:`SolverError`;
    - a bare table: no mode, and the goal asked or ``close``.
    """
    aim = None if goal is None else checked_goal(goal)
    variant = getattr(position, "variant", None)
    if isinstance(variant, BandidaRules):
        mode = variant.mode(position)
        return aim or mode.goal, mode
    number = getattr(position, "mode", None)
    if number is None and not isinstance(position, Table):
        deck = deck_of(position)
        modes = deck.game_modes
        number = modes[0] if modes else None
        if number is None and aim not in (None, "close"):
            # A game without modes (Bandido) has one goal: a bare table may be asked any.
            raise SolverError(
                f"goal {aim} is Bandida's; a {deck.edition} {_what(position)} closes every exit"
                " (goal close; BD-CLOSE-1)"
            )
    if number is None:
        return aim or "close", None
    asked = MODES.get(number) if isinstance(number, int) else None
    if asked is None:
        raise SolverError(f"the position's mode {shown(number)} is not one of Bandida's modes")
    if aim is not None and aim != asked.goal:
        other = GOAL_MODES[aim]
        raise SolverError(
            f"goal {aim} is mode {other}'s, but the position is a question of mode"
            f" {asked.number} (goal {asked.goal}): read it in mode {other} (mode={other}), or"
            f" ask goal {asked.goal} (BA-CLOSE-1)"
        )
    return asked.goal, asked


@dataclass(frozen=True, slots=True)
class Search:
    """One search to run: the card codes searched and what must be among those laid (one per
    side of the second super card, when its side is the solver's choice)."""

    codes: tuple[int, ...]
    required: Required
    cards: tuple[int, ...]
    side: str = ""


@dataclass(frozen=True, slots=True)
class Plan:
    """The searches a goal needs (one per side of the second super card), the map cards left
    out, and the notes for the answer; or ``verdict``: an impossibility that holds whatever
    a map removes."""

    goal: str
    searches: tuple[Search, ...]
    maps: int
    notes: tuple[str, ...]
    verdict: str | None = None


def second_super_laid(table: Table) -> bool:
    """True when a super card lies on the table besides the first card."""
    return any(p.card & PORT_MASK in SUPER_MASKS for p in table.history[1:])


def ladder_laid(table: Table) -> bool:
    """True when the ladder lies on the table."""
    return any(is_ladder(p.card) for p in table.history)


def plan(table: Table, codes: Sequence[int], goal: str) -> Plan:
    """The searches answering ``goal`` for ``table`` and ``codes``. Codes that are a game
    state's cards not yet played (:class:`~banditsolve.tunnels.solvers.inputs.Unplayed`)
    make the first note say so, with their count (BD-CLOSE-6)."""
    maps = sum(1 for c in codes if is_map(c))
    rest = [c for c in codes if not is_map(c)]
    notes = _plan_notes(codes, maps)
    required: list[frozenset[int]] = []
    if goal in ("ladder", "join") and not ladder_laid(table):
        ladders = frozenset(c for c in rest if is_ladder(c))
        if not ladders:
            why = "no ladder card among the cards or on the table"
            return Plan(goal, (), maps, tuple(notes), why)
        required.append(ladders)
    need_super = goal == "join" and not second_super_laid(table)
    supers = _second_supers(rest, need_super)
    if need_super and not supers:
        why = "no second super card among the cards or on the table"
        return Plan(goal, (), maps, tuple(notes), why)
    if supers:
        searches = _side_searches(rest, supers[0], tuple(required), need_super)
        return Plan(goal, searches, maps, tuple(notes))
    req = tuple(required)
    cards = tuple(sorted(rest))
    only = Search(tuple(sorted(collapse(cards))), req, cards)
    return Plan(goal, (only,), maps, tuple(notes))


def _plan_notes(codes: Sequence[int], maps: int) -> list[str]:
    """A plan's notes: the game state's cards not yet played, the ``maps`` map cards, the
    objects that are tunnel cards here."""
    notes: list[str] = [codes.source.note] if isinstance(codes, Unplayed) else []
    if maps:
        notes.append(
            f"{plural(maps, 'map card')}: a closure without the map cards is looked for first,"
            " then the lines that lay a map, with each removal its reading allows (BA-CLOSE-2)"
        )
    if any(kind_index(c) in HAND_OBJECTS for c in codes):
        notes.append(
            "the backpack, dynamite, broken tool and water bottle change only hands and"
            " draws, not which placement sequences exist: here they are tunnel cards"
        )
    return notes


def _second_supers(rest: Sequence[int], need_super: bool) -> list[int]:
    """The cards of ``rest`` that may be the second super card: Bandido's super cards, else
    (when the goal needs a second super card) any super card."""
    return [c for c in rest if kind_index(c) == BANDIDO_SUPER] or (
        [c for c in rest if is_super(c)] if need_super else []
    )


def _side_searches(
    rest: Sequence[int], first: int, required: Required, need_super: bool
) -> tuple[Search, ...]:
    """The searches with the super card ``first`` of ``rest`` on each side (``need_super``:
    the goal requires it laid)."""
    # Bandido's super card is laid on the side the players choose: one search per side.
    others = list(rest)
    others.remove(first)
    kind = first & ~PORT_MASK
    searches = []
    for side, mask in (("super6", SUPER6), ("super5", SUPER5)):
        code = mask | kind
        need = (*required, frozenset({code})) if need_super else required
        cards = tuple(sorted([*others, code]))
        searches.append(Search(tuple(sorted(collapse(cards))), need, cards, side))
    return tuple(searches)


def collapse(codes: Iterable[int]) -> list[int]:
    """``codes`` with every card whose kind plays no part in a goal (all but the ladder and
    Bandido's super card) replaced by its plain port set."""
    return [c if is_ladder(c) or kind_index(c) == BANDIDO_SUPER else c & PORT_MASK for c in codes]


def restore(placements: Sequence[Placement], codes: Sequence[int]) -> tuple[Placement, ...]:
    """The placements of a search on :func:`collapse`-d codes, named by the real cards of
    ``codes`` (for each port set, plain tunnel cards first)."""
    pool: dict[int, list[int]] = {}
    for c, key in zip(
        sorted(codes, reverse=True), collapse(sorted(codes, reverse=True)), strict=True
    ):
        pool.setdefault(key, []).append(c)
    out = []
    for p in placements:
        cards = pool.get(p.card)
        if not cards:
            raise SolverError("internal error: a certificate uses a card not given")
        out.append(p._replace(card=cards.pop()))
    return tuple(out)


def missing(required: Required, used: Counter[int]) -> int:
    """How many requirements the cards ``used`` leave unmet."""
    return sum(1 for group in required if not any(used[c] for c in group))


def joined(table: Table, a: Cell, b: Cell) -> bool:
    """True when cells ``a`` and ``b`` are joined through the tunnels: openings meeting
    across edges, and the two squares of one card when both have openings."""
    cells = table.cells
    seen = {a}
    queue: deque[Cell] = deque([a])
    while queue:
        c = queue.popleft()
        if c == b:
            return True
        nexts: list[Cell] = []
        open4 = cells[c]
        for side in range(4):
            if open4 >> side & 1:
                dx, dy = STEP[side]
                nexts.append((c[0] + dx, c[1] + dy))
        partner = table.partner_side(c)
        if partner is not None and open4:
            dx, dy = STEP[partner]
            nexts.append((c[0] + dx, c[1] + dy))
        for n in nexts:
            if cells.get(n) and n not in seen:
                seen.add(n)
                queue.append(n)
    return False


def goal_problem(table: Table, goal: str) -> str | None:
    """Why the final ``table`` misses ``goal``, or None when it reaches it."""
    if table.exit_count:
        return f"{plural(table.exit_count, 'exit')} left"
    if goal in ("ladder", "join") and not ladder_laid(table):
        return "the table is closed without the ladder"
    if goal == "join":
        seconds = [p for p in table.history[1:] if p.card & PORT_MASK in SUPER_MASKS]
        if not seconds:
            return "the table is closed without the second super card"
        start = table.history[0].cells[0]
        for p in seconds:
            if any(joined(table, start, c) for c in p.cells):
                return None
        return "the two super cards are not joined through the tunnels"
    return None



def closable_reason(
    reason: str,
    search: Search,
    plan: Plan,
    placements: Sequence[Placement],
    minimal: bool,
    every: bool,
) -> str:
    """Why a closure found by ``search`` (one of ``plan``'s) answers: its ``reason``, the second
    super card's side when the closure lays it, and no more of the search's claim to the fewest
    cards (``minimal``) than holds for the whole question: the map cards were left out of the
    searches, or (``every`` false) another search, the super card on its other side, was not
    finished."""
    side = f" (the second super card on its {search.side} side)"
    laid = any(p.card & PORT_MASK in SUPER_MASKS for p in placements)
    why = reason + side if search.side and laid else reason
    if not minimal:
        return why
    maps = ", among closures without the map cards" if plan.maps else ""
    if not every and len(plan.searches) > 1:
        head = reason.split("; ", 1)[0]
        return (
            f"{head}; fewer cannot with the second super card on its {search.side} side or"
            f" without it{maps}, but its other side was not searched to the end"
        )
    return why + "; fewest among closures without the map cards" if maps else why


def _what(position: object) -> str:
    """How a refusal names the question's subject."""
    return "game" if isinstance(position, GameState) else "position"
