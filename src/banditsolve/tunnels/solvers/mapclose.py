"""Closure with Bandida's map cards (BA-CLOSE-2): the map's removals modelled, under each reading
of BA-OPT-1..4, and the holes a line may make while a map could still mend them (BA-OPT-14).

A map laid on a table it does not close takes cards off (BA-OBJ-5, BA-OBJ-6); one that closes
the table ends the game there (BA-END-2), before any removal. So a closure with maps is a
sequence of placements with a removal after each map that leaves exits, and its certificate is
that sequence, replayed here by the rules (:func:`replay`: every placement legal when laid,
every removal one the map allows on the table of that moment, the goal met at the end).

Two arguments, each run on the map-free questions they reduce to (the closure search of the
backend asked, so the compiled core by default):

- **A finder** (:class:`MapFinder`): lay a map on the table in every legal way, take off each
  set the reading allows, and ask whether what is left closes (with the other map, if any, the
  same way); then the same after one plain card laid first, then two (``pre``). Whatever it
  finds is a real sequence, replayed; when it finds nothing it proves nothing (a winning line
  may lay more cards before its map).
- **A relaxation** (:func:`relaxed_reason`), which proves ``impossible``. Take any winning line
  and its final table F. Every card of the starting table T is either still in F or was taken
  off by a map, and a map takes off at most three cards, so F holds T less a set R of at most
  three cards per map, all of kinds a map may take. Every other card of F was laid from the
  cards, F is closed, and each of its cards matched its neighbours when laid (they are all
  still there), so the part of F joined through the tunnels to T less R is a closure of T less
  R, found by the map-free search from that table, with the map cards counted as tunnel cards.
  So when no such set R (the empty one included) leaves a table the map-free search can close
  with the cards, maps included, no winning line exists. The ladder's requirement is dropped
  in this relaxed question (under ``map_split=edges`` a table may hold parts joined by walls
  alone), which keeps it a relaxation: it rules out more lines than it may, never fewer.

The relaxation tries every set R (at most :data:`MAX_RELAXED` of them; more, and it proves
nothing); the finder runs until the time or node limit. Both stop at the limits the question
was given.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from types import SimpleNamespace
from typing import NamedTuple

from banditsolve.core.limits import Limits
from banditsolve.core.text import plural, shown
from banditsolve.errors import ArgumentTypeError, IllegalActionError, SolverError
from banditsolve.tunnels.bandida import maps
from banditsolve.tunnels.bandida.maps import rebuilt, removal_indices
from banditsolve.tunnels.cards import PORT_MASK, SUPER5, SUPER6
from banditsolve.tunnels.geometry import Cell, Placement, normalise
from banditsolve.tunnels.solvers.goals import goal_problem, is_bandido_super, is_map
from banditsolve.tunnels.solvers.inputs import Bounds, inside, table_of
from banditsolve.tunnels.solvers.options import options_at
from banditsolve.tunnels.solvers.result import Closure, Removal
from banditsolve.tunnels.state import LOSES_AT_ONCE
from banditsolve.tunnels.table import Table, creates_hole, is_hole, legal_placements

__all__ = [
    "DEFAULT_READINGS",
    "MAX_RELAXED",
    "MapFinder",
    "Plain",
    "Readings",
    "map_last",
    "owed_removals",
    "readings_of",
    "relaxed_reason",
    "replay",
]

#: The most removal sets the relaxation looks at (those left with a cell no card can fill cost
#: no search; the others one map-free closure question each): beyond it, it proves nothing.
MAX_RELAXED = 5000
#: The most failed tables the finder remembers (then it forgets them all and goes on).
MEMO_LIMIT = 1 << 20
#: Bandido's super card's two sides, as port sets.
BANDIDO_SIDES = (SUPER6, SUPER5)
#: The share of the time left one map-free question of the finder may take, and its least.
TAIL_SHARE = 0.125
TAIL_SECONDS = 0.2
#: How long past its own limit one map-free question of the finder returns, kept from the time
#: left (on the Python reference: 4-5 ms at a 0.2 s limit, measured on a whole mode-3 pile).
OVERRUN_SECONDS = 0.005


class Readings(NamedTuple):
    """The readings a line with maps depends on: the map's (BA-OPT-1..4: ``map_removes``,
    ``map_split``, ``map_reopen`` and ``map_short``) and ``hole`` (BA-OPT-14)."""

    removes: str = "not_special"
    split: str = "edges"
    reopen: str = "allowed"
    short: str = "as_many"
    hole: str = "loses"

    @property
    def removal(self) -> tuple[str, str, str, str]:
        """The four readings that say what a map may take off."""
        return self.removes, self.split, self.reopen, self.short

    @property
    def asked(self) -> str:
        """The readings that are not their option's default, as ``--option`` writes them
        (empty for the defaults)."""
        return ", ".join(
            f"{name}={value}"
            for name, value, default in zip(MAP_OPTIONS, self, DEFAULT_READINGS, strict=True)
            if value != default
        )

    @property
    def hole_note(self) -> str:
        """What an exhaustive search of the lines left out under :attr:`no_holes` (else
        nothing), to follow its words."""
        if not self.no_holes:
            return ""
        return f", among the lines that wall no exit into a one-cell hole (hole={self.hole})"

    @property
    def no_holes(self) -> bool:
        """True when no winning line walls an exit into a one-cell hole, not even one a map
        mends later: under ``hole=illegal`` such a card is not offered, under
        ``loses_at_once`` it loses the game (BA-OPT-14, BA-END-2)."""
        return self.hole != "loses"


#: The default readings (each option's default).
DEFAULT_READINGS = Readings()


def readings_of(position: object) -> Readings:
    """The readings of a Bandida game state's options; the defaults for anything else."""
    options = getattr(position, "options", None)
    if options is None or not hasattr(options, "map_removes"):
        return DEFAULT_READINGS
    return Readings(
        options.map_removes, options.map_split, options.map_reopen, options.map_short,
        options.hole,
    )


#: The options a closure question takes: the map's readings (BA-OPT-1..4) and the hole's
#: (BA-OPT-14).
MAP_OPTIONS = ("map_removes", "map_split", "map_reopen", "map_short", "hole")


def map_readings(position: object, options: object) -> Readings:
    """The readings from ``options`` (BA-OPT-1..4: ``map_removes``, ``map_split``,
    ``map_reopen``, ``map_short``; BA-OPT-14: ``hole``; values as ``--option`` takes them); a
    game state's question keeps its own options (:class:`SolverError`)."""
    if not isinstance(options, Mapping):
        raise ArgumentTypeError(
            f"options must be a mapping of map readings, not {shown(options)}"
        )
    if hasattr(position, "options"):
        raise SolverError(
            "a game state's closure question reads the map by the state's own options: give"
            " options only with a position"
        )
    game = getattr(position, "game", None)
    if isinstance(game, str) and game != "bandida":
        raise SolverError(
            f"options are the readings of Bandida's map cards: a {game} position has none"
        )
    unknown = sorted(str(k) for k in options if k not in MAP_OPTIONS)
    if unknown:
        raise SolverError(
            f"closure options are the map's readings and the hole's ({', '.join(MAP_OPTIONS)}),"
            " not"
            f" {shown(unknown[0])}"
        )
    from banditsolve.tunnels.game import BANDIDA

    chosen = BANDIDA.options(dict(options))
    readings = readings_of(SimpleNamespace(options=chosen))
    holes = table_of(position).holes()
    if holes and readings.no_holes:
        why = "the game is lost at once" if readings.hole == LOSES_AT_ONCE else "no card makes one"
        raise SolverError(
            f"an exit runs into the one-cell hole {holes[0]}, but under hole={readings.hole}"
            f" {why} (BA-OPT-14)"
        )
    return readings


#: The map-free closure question: a table, its cards (no map among them), the cards that may
#: still be laid and the limits left; a certified answer for the goal asked.
Plain = Callable[[Table, tuple[int, ...], int, Limits], Closure]


def replay(
    table: Table,
    placements: Sequence[Placement],
    removals: Sequence[Removal],
    readings: Readings,
    goal: str,
) -> Table:
    """The final table of a closure with maps, every step checked by the rules: each placement
    legal when laid (never on a closed table, never walling an exit into a one-cell hole under
    ``readings.no_holes``), after each map that leaves exits the removal the
    certificate names, which must be one the map allows then (none when it allows none), no
    removal anywhere else, and the goal met at the end. :class:`IllegalActionError` (a solver
    bug) otherwise."""
    after = {r.after: r.cards for r in removals}
    if len(after) != len(removals):
        raise IllegalActionError("internal error: two removals after one placement")
    t = table
    if 0 in after:
        owed = bool(t.history) and is_map(t.history[-1].card) and t.exit_count
        if not owed:
            raise IllegalActionError("internal error: a removal first, with no map laid last")
        t = _take_off(t, after.pop(0), readings, 0)
    for n, p in enumerate(placements, 1):
        if not t.exit_count:
            raise IllegalActionError(f"internal error: placement {n} is laid on a closed table")
        t = _laid(t, p, n, readings)
        gone = after.pop(n, None)
        if is_map(p.card) and t.exit_count:
            t = _take_off(t, gone, readings, n)
        elif gone is not None:
            raise IllegalActionError(f"internal error: a removal after placement {n}, no map")
    if after:
        raise IllegalActionError("internal error: a removal after the last placement")
    problem = goal_problem(t, goal)
    if problem is not None:
        raise IllegalActionError(f"internal error: a {goal} certificate with maps fails: {problem}")
    return t


def _laid(t: Table, p: Placement, n: int, readings: Readings) -> Table:
    if readings.no_holes and creates_hole(t, p):
        raise IllegalActionError(f"internal error: placement {n} walls an exit into a hole")
    return t.place(p)


def _take_off(t: Table, gone: tuple[Placement, ...] | None, readings: Readings, n: int) -> Table:
    choices = removal_indices(t, *readings.removal)
    if not choices.size:
        if gone:
            raise IllegalActionError(f"internal error: the map {n} may take nothing off")
        return t
    order = {p: i for i, p in enumerate(t.history)}
    if not gone or any(p not in order for p in gone):
        raise IllegalActionError(f"internal error: the map {n} is missing its removal")
    if not choices.holds(tuple(sorted(order[p] for p in gone))):
        raise IllegalActionError(f"internal error: the map {n} may not take those cards off")
    return rebuilt(t, gone)


# -- the finder ------------------------------------------------------------------------------------


@dataclass
class MapFinder:
    """Closing lines that lay maps, searched by the number ``pre`` of plain cards laid while a
    map is still to come: at each table, a map laid now in every legal way with each removal
    its reading allows, or (while ``pre`` allows) one plain card laid first in every legal
    way; once no map is left, the rest is :data:`Plain`'s question, and after a map's removal
    also the map-free question. ``codes``: the cards, maps included; ``budget``: how many may
    be laid in all; ``deadline``: a ``time.perf_counter()`` value.

    With ``pre`` at least the budget less one, every line is searched: a search that ends
    then without a closure, with every map-free question decided (:attr:`undecided` 0) and no
    limit reached (:attr:`stopped` empty), proves that none exists (:meth:`exhausted`)."""

    codes: tuple[int, ...]
    goal: str
    readings: Readings
    area: Bounds | None
    budget: int
    plain: Plain
    deadline: float | None
    node_limit: int | None
    nodes: int = 0
    stopped: str = ""
    undecided: int = 0
    _failed: set[tuple[object, ...]] = field(default_factory=set)

    def find(self, table: Table, pres: range) -> Closure | None:
        """A closing line with a map, deepening ``pre`` over ``pres``; None when none was
        found (before a limit: :attr:`stopped` says which)."""
        for pre in pres:
            self.undecided = 0
            found = self._search(table, self.codes, self.budget, pre)
            if found is not None or self.stopped:
                return found
        return None

    @property
    def full(self) -> int:
        """The ``pre`` from which the search is exhaustive."""
        return max(0, self.budget - 1)

    def exhausted(self, pre: int) -> bool:
        """True when a search with ``pre`` that found nothing proves that no line exists."""
        return pre >= self.full and not self.undecided and not self.stopped

    def left(self) -> Limits | None:
        """The limits left for one map-free question, or None (and :attr:`stopped`) when one
        ran out."""
        seconds = None
        if self.deadline is not None:
            seconds = self.deadline - time.perf_counter() - OVERRUN_SECONDS
            if seconds <= 0:
                self.stopped = "time"
                return None
            # One question may not take all the time left: TAIL_SHARE of it, at least
            # TAIL_SECONDS (an undecided one is counted, and the finder goes on).
            seconds = min(seconds, max(TAIL_SECONDS, seconds * TAIL_SHARE))
        nodes = None
        if self.node_limit is not None:
            nodes = self.node_limit - self.nodes
            if nodes <= 0:
                self.stopped = "nodes"
                return None
        return Limits(seconds, nodes)

    def _search(
        self, table: Table, codes: tuple[int, ...], budget: int, pre: int
    ) -> Closure | None:
        """A line from ``table`` that lays a map (one is among ``codes``)."""
        if budget < 1:
            return None
        key = (frozenset(table.history), codes, budget, pre)
        if key in self._failed or self._stuck(table, codes):
            return None
        undecided = self.undecided
        found = self._maps_now(table, codes, budget, pre)
        if found is None and pre and not self.stopped:
            found = self._plain_first(table, codes, budget, pre)
        if found is None and not self.stopped and self.undecided == undecided:
            if len(self._failed) >= MEMO_LIMIT:
                self._failed.clear()
            self._failed.add(key)
        return found

    def _stuck(self, table: Table, codes: tuple[int, ...]) -> bool:
        """True when the maps among ``codes`` cannot mend what blocks ``table``: more local
        conflicts (:func:`conflicts`) with no card in common than they take cards off, or
        one no map may touch."""
        maps = sum(1 for c in codes if is_map(c))
        types = sorted({c & PORT_MASK for c in codes})
        pool = set(removable(table, self.readings))
        apart = 0
        used: set[int] = set()
        for t in conflicts(table, types, self.area):
            near = cards_near(table, t) & pool
            if not near:
                return True
            if not near & used:
                apart += 1
                used |= near
        return apart > 3 * maps

    def _rest(
        self, table: Table, codes: tuple[int, ...], budget: int, pre: int
    ) -> Closure | None:
        """The rest of a line once a map's removal is done: closed already, closed without
        maps, or with the next map."""
        if not table.exit_count:
            return _done(goal_problem(table, self.goal))
        limits = self.left()
        if limits is None:
            return None
        answer = self.plain(table, tuple(c for c in codes if not is_map(c)), budget, limits)
        self.nodes += answer.stats.nodes
        if answer.status == "closable":
            return answer
        if answer.status == "unknown":
            self.undecided += 1
        if any(is_map(c) for c in codes):
            return self._search(table, codes, budget, pre)
        return None

    def _maps_now(
        self, table: Table, codes: tuple[int, ...], budget: int, pre: int
    ) -> Closure | None:
        """Each map laid now in every legal way, each removal, then the rest."""
        for m in sorted({c for c in codes if is_map(c)}):
            left = _without(codes, m)
            for p in self._placements(table, m):
                if self.left() is None:
                    return None
                laid = table.place(p, check=False)
                self.nodes += 1
                if not laid.exit_count:
                    if goal_problem(laid, self.goal) is None:
                        return _line((p,), ())
                    continue
                for gone in self._removals(laid):
                    after = rebuilt(laid, gone) if gone else laid
                    tail = self._rest(after, left, budget - 1, pre)
                    if tail is not None:
                        return _line((p,), (Removal(1, gone),) if gone else (), tail)
                    if self.stopped:
                        return None
        return None

    def _plain_first(
        self, table: Table, codes: tuple[int, ...], budget: int, pre: int
    ) -> Closure | None:
        """One plain card laid first in every legal way (Bandido's super card on either
        side), then :meth:`_search` with ``pre - 1``."""
        if budget < 2:
            return None
        for c in sorted({c for c in codes if not is_map(c)}):
            left = _without(codes, c)
            for p in self._plain_placements(table, c):
                laid = table.place(p, check=False)
                self.nodes += 1
                if not laid.exit_count:
                    continue  # a closed table takes no map: a line without maps
                sub = self._search(laid, left, budget - 1, pre - 1)
                if sub is not None:
                    return _line((p,), (), sub)
                if self.stopped:
                    return None
        return None

    def _plain_placements(self, table: Table, code: int) -> Iterator[Placement]:
        if is_bandido_super(code):
            kind = code & ~PORT_MASK
            for side in (BANDIDO_SIDES[0] | kind, BANDIDO_SIDES[1] | kind):
                yield from self._placements(table, side)
        else:
            yield from self._placements(table, code)

    def _placements(self, table: Table, code: int) -> Iterator[Placement]:
        no_holes = self.readings.no_holes
        for p in legal_placements(table, code):
            inside_area = all(inside(cell, self.area) for cell in p.cells)
            if inside_area and not (no_holes and creates_hole(table, p)):
                yield p

    def _removals(self, laid: Table) -> Iterator[tuple[Placement, ...]]:
        choices = removal_indices(laid, *self.readings.removal)
        if not choices.size:
            yield ()
            return
        history = laid.history
        for combo in choices.each():
            yield tuple(history[i] for i in combo)


def conflicts(table: Table, types: Sequence[int], area: Bounds | None) -> Iterator[Cell]:
    """The front cells of ``table`` that no card of ``types`` can fill (an exit into a
    one-cell hole, out of the play area, or no option): each stays so while the cards around it
    stay, since laying more cards only adds walls and openings to match."""
    for t, fv in sorted(table.front_rim.items()):
        if is_hole(fv) or not inside(t, area) or not options_at(table, t, types, area):
            yield t


def cards_near(table: Table, t: Cell) -> set[int]:
    """The cards of ``table`` (indices into its history) with a cell within two steps of ``t``:
    every card whose removal could let a card fill ``t`` (a card over ``t`` covers ``t`` and a
    neighbour, and matches the cards beside both)."""
    return {
        i
        for i, p in enumerate(table.history)
        if any(abs(x - t[0]) + abs(y - t[1]) <= 2 for x, y in p.cells)
    }


def _without(codes: tuple[int, ...], code: int) -> tuple[int, ...]:
    out = list(codes)
    out.remove(code)
    return tuple(out)


def _done(problem: str | None) -> Closure | None:
    return Closure("closable", (), "closed", "maps") if problem is None else None


def _line(
    first: tuple[Placement, ...], removals: tuple[Removal, ...], tail: Closure | None = None
) -> Closure:
    """The line ``first`` (with ``removals`` counted from its start), then ``tail``."""
    if tail is None:
        return Closure("closable", first, "", "maps", removals=removals)
    shift = len(first)
    moved = tuple(Removal(r.after + shift, r.cards) for r in tail.removals)
    return Closure(
        "closable", (*first, *tail.placements), "", "maps", removals=(*removals, *moved)
    )


def map_last(
    table: Table,
    codes: tuple[int, ...],
    budget: int,
    needing: Callable[[int], Plain],
    limits: Callable[[], Limits | None],
) -> tuple[Closure | None, int]:
    """A line whose last card is a map that closes the table (the game ends there, before any
    removal: BA-END-2): a map-free closure that lays a card of a map's port set, with the other
    cards laid first in an order the rules allow and that card laid last as the map. None when
    none was found this way; and the nodes spent."""
    nodes = 0
    for m in sorted({c for c in codes if is_map(c)}):
        left = limits()
        if left is None:
            return None, nodes
        ports = m & PORT_MASK
        rest = (*(c for c in codes if not is_map(c)), ports)
        answer = needing(ports)(table, rest, budget, left)
        nodes += answer.stats.nodes
        if answer.status != "closable":
            continue
        laid = answer.placements
        for j, p in enumerate(laid):
            if p.card != ports:
                continue
            order = _in_order(table, (*laid[:j], *laid[j + 1 :]))
            if order is None:
                continue
            first = table
            for q in order:
                first = first.place(q, check=False)
            last = normalise(m, p.x, p.y, p.rotation)
            if first.exit_count and first.placement_error(last) is None:
                return Closure("closable", (*order, last), "", "maps"), nodes
    return None, nodes


def _in_order(table: Table, placements: Sequence[Placement]) -> tuple[Placement, ...] | None:
    """``placements`` in an order in which each is legal when laid, or None: each round lays
    every one legal by then (a table that closes before all are down takes no more)."""
    todo = list(placements)
    out: list[Placement] = []
    t = table
    while todo:
        ready = [p for p in todo if t.exit_count and t.placement_error(p) is None]
        if not ready:
            return None
        p = ready[0]
        t = t.place(p, check=False)
        out.append(p)
        todo.remove(p)
    return tuple(out)


def owed_removals(position: object, readings: Readings) -> tuple[tuple[Placement, ...], ...]:
    """The removals a game state still owes for the map it laid last (its pending effect is
    the map's: BA-OBJ-5), each as the cards taken off; none for anything else."""
    if getattr(position, "pending", "") != "map":
        return ()
    table = getattr(position, "table", None)
    if not isinstance(table, Table):
        return ()
    history = table.history
    combos = removal_indices(table, *readings.removal).each()
    return tuple(tuple(history[i] for i in combo) for combo in combos)


# -- the relaxation --------------------------------------------------------------------------------


def removable(table: Table, readings: Readings) -> list[int]:
    """BA-OPT-1: the cards of ``table`` (indices into its history) a map laid later may take
    off."""
    return maps.removable(table, readings.removes, map_last=False)


def relaxed_reason(
    table: Table,
    codes: Sequence[int],
    readings: Readings,
    relaxed: Plain,
    budget: int,
    limits: Callable[[], Limits | None],
    area: Bounds | None = None,
) -> tuple[str | None, int]:
    """Why no line with maps closes ``table`` (the relaxation: see the module's notes), or
    None when it proves nothing (a set leaves a table the relaxed question closes, a limit ran
    out, or more than :data:`MAX_RELAXED` sets would need searching); and the nodes it spent.
    ``relaxed`` asks the map-free question without the ladder's requirement; ``limits`` gives
    what is left, None when a limit ran out (its node limit: the relaxation's own nodes are
    taken off it here, question by question).

    The sets are searched from the empty one up, a card at a time: a table left with a cell no
    card can fill (:func:`conflicts`) stays so until a card near it goes (:func:`cards_near`),
    so only those cards are tried next; after a search that proved the table impossible, any
    card may go next."""
    maps, tunnel = _maps_as_tunnels(codes)
    types = sorted(set(tunnel))
    pool = removable(table, readings)
    most = min(len(pool), 3 * maps)
    nodes = 0
    seen: set[tuple[int, ...]] = set()
    todo: list[tuple[int, ...]] = [()]
    searched = 0
    while todo:
        combo = todo.pop()
        if combo in seen:
            continue
        seen.add(combo)
        left = _less(limits(), nodes)
        if len(seen) > MAX_RELAXED or left is None:
            return None, nodes
        gone = [table.history[i] for i in combo]
        rest = rebuilt(table, gone) if gone else table
        where = next(conflicts(rest, types, area), None)
        if where is not None:
            nexts = _near_next(table, rest, where, pool, combo)
        else:
            answer = relaxed(rest, tunnel, budget, left)
            nodes += answer.stats.nodes
            searched += 1
            if answer.status != "impossible":
                return None, nodes
            nexts = [i for i in pool if i not in combo]
        if len(combo) < most:
            todo.extend(tuple(sorted((*combo, i))) for i in nexts)
    return _relaxed_why(maps, most, len(pool), len(seen), searched), nodes


def _less(left: Limits | None, nodes: int) -> Limits | None:
    """``left`` with ``nodes`` more spent from its node limit; None when nothing is left."""
    rest = left if left is None else left.after(time.perf_counter(), nodes)
    return None if isinstance(rest, str) else rest


def _maps_as_tunnels(codes: Sequence[int]) -> tuple[int, tuple[int, ...]]:
    """How many of ``codes`` are map cards, and the codes (sorted) with each map card as the
    tunnel card of its openings."""
    maps = sum(1 for c in codes if is_map(c))
    tunnel = tuple(sorted(c & PORT_MASK if is_map(c) else c for c in codes))
    return maps, tunnel


def _near_next(
    table: Table, rest: Table, where: Cell, pool: list[int], combo: tuple[int, ...]
) -> list[int]:
    """The cards of ``pool`` (indices into ``table``'s history) not yet in ``combo`` that lie
    near the cell ``where`` no card can fill on ``rest`` (the table with ``combo`` gone)."""
    near = {table.history.index(rest.history[i]) for i in cards_near(rest, where)}
    return [i for i in pool if i in near and i not in combo]


def _relaxed_why(maps: int, most: int, pool: int, seen: int, searched: int) -> str:
    """The relaxation's reason: ``seen`` sets of up to ``most`` of the ``pool`` removable
    cards ruled out, ``searched`` of them by a search, with ``maps`` map cards."""
    kinds = "cards" if maps > 1 else "card"
    if not most:
        return (
            f"no closure even with the map {kinds} laid as tunnel {kinds}, and a map can take"
            " no table card off"
        )
    return (
        f"no closure even with the map {kinds} laid as tunnel {kinds} and any set of up to"
        f" {most} of the {pool} table cards a map may take off taken off ({plural(seen, 'set')}"
        f" ruled out, {searched} of them by a search; a map takes off at most three cards)"
    )
