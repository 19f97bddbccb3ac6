"""A Bandida game state that still owes its map's removal (BA-OBJ-5): the closure question asked
after each removal the map allows.

The verdict is closable as soon as one removal's question closes (the removal first in the
certificate), impossible when none does. The fewest cards are the fewest over every removal:
each one is asked for fewer cards than the fewest found so far, and the count is proven only
when every removal was decided that way (BA-CLOSE-2)."""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, replace

from banditsolve.core.limits import Limits
from banditsolve.core.text import plural
from banditsolve.tunnels.bandida.maps import rebuilt
from banditsolve.tunnels.geometry import Placement
from banditsolve.tunnels.solvers.goals import plan
from banditsolve.tunnels.solvers.mapclose import Readings, replay
from banditsolve.tunnels.solvers.result import Closure, Removal, SearchStats
from banditsolve.tunnels.table import Table

#: One question after a removal: ``(table, max_cards, limits, minimum)`` to its answer.
AskAfter = Callable[[Table, "int | None", Limits, bool], Closure]
Gone = tuple[Placement, ...]


@dataclass(slots=True)
class _Fewest:
    """The closure with the fewest cards found so far, and the removal before it."""

    answer: Closure | None = None
    gone: Gone = ()

    def cap(self, max_cards: int | None) -> int | None:
        """The most cards a closure after another removal may lay to be fewer."""
        if self.answer is None:
            return max_cards
        fewer = self.answer.cards - 1
        return fewer if max_cards is None else min(max_cards, fewer)


def after_removal(
    table: Table,
    owed: tuple[Gone, ...],
    ask: AskAfter,
    *,
    limits: Limits,
    max_cards: int | None,
    minimum: bool,
    goal: str,
    readings: Readings,
    backend: str,
    codes: tuple[int, ...],
) -> Closure:
    """The question after each removal ``owed`` allows (see the module notes), within one set of
    ``limits``: in rounds, every removal with an even share of half the time, then those still
    undecided with an even share of the rest, again while a round decides one or finds fewer
    cards (each finding fewer, so the rounds end); every question spends from the one node
    limit."""
    run = _Rounds(ask, limits, max_cards, minimum)
    todo = list(owed)
    last = False
    while todo:
        fewest = run.best.cap(None)
        left = run.round(table, todo, last)
        if run.best.answer is not None and not minimum:
            break
        if last and len(left) == len(todo) and run.best.cap(None) == fewest:
            todo = left
            break  # (a round that decided nothing: the limits ran out)
        todo, last = left, True
    stats = SearchStats(run.nodes, time.perf_counter() - run.start)
    if run.best.answer is not None:
        return _closed(table, run.best, len(owed), len(todo), minimum, stats, readings, goal)
    notes = plan(table, codes, goal).notes
    if not todo:
        within = "" if max_cards is None else f" of at most {plural(max_cards, 'card')}"
        why = (
            "the map laid last still takes cards off, and after each of the"
            f" {plural(len(owed), 'removal')} it allows no closure{within} exists"
        )
        return Closure("impossible", (), why, backend, stats, goal=goal, notes=notes)
    ran_out = limits.after(run.start, run.nodes)
    kind = ran_out if isinstance(ran_out, str) else "time"
    why = (
        f"the map laid last still takes cards off, and {len(owed) - len(todo)} of the"
        f" {plural(len(owed), 'removal')} it allows were ruled out; then {limits.reason(kind)}"
    )
    return Closure("unknown", (), why, backend, stats, goal=goal, notes=notes)


class _Rounds:
    """The questions after the removals, round by round: the limits and nodes spent, and the
    fewest cards found."""

    def __init__(
        self, ask: AskAfter, limits: Limits, max_cards: int | None, minimum: bool
    ) -> None:
        self.ask, self.limits, self.max_cards, self.minimum = ask, limits, max_cards, minimum
        self.start = time.perf_counter()
        self.nodes = 0
        self.best = _Fewest()

    def round(self, table: Table, todo: list[Gone], last: bool) -> list[Gone]:
        """Ask after each removal of ``todo``: those left undecided (a closure not proven the
        fewest when the fewest are asked counts as undecided)."""
        undecided: list[Gone] = []
        for n, gone in enumerate(todo):
            left = self._share(last, len(todo) - n)
            if left is None:
                return undecided + todo[n:]
            cap = self.best.cap(self.max_cards)
            if cap is not None and cap < 0:
                continue  # (nothing is fewer than a closure of no card)
            r = self.ask(rebuilt(table, gone), cap, left, self.minimum)
            self.nodes += r.stats.nodes
            if r.status == "closable":
                self.best = _Fewest(r, gone)
                if not self.minimum:
                    return []
            if r.status == "unknown" or (r.status == "closable" and not r.minimum):
                undecided.append(gone)
        return undecided

    def _share(self, last: bool, waiting: int) -> Limits | None:
        """The limits of the next question: an even share of what is left of half the time
        (the first round) or of all of it (the last), with ``waiting`` questions still to ask,
        and the nodes left; None when a limit has run out."""
        left = self.limits.after(self.start, self.nodes)
        if isinstance(left, str):
            return None
        seconds = left.time_limit
        if seconds is not None and not last:
            seconds -= self.limits.time_limit / 2 if self.limits.time_limit else 0
            if seconds <= 0:
                return None
        return Limits(None if seconds is None else seconds / waiting, left.node_limit)


def _closed(
    table: Table,
    best: _Fewest,
    removals: int,
    undecided: int,
    minimum: bool,
    stats: SearchStats,
    readings: Readings,
    goal: str,
) -> Closure:
    """The closable answer: the removal first in the certificate, replayed by the rules; for
    the fewest cards, proven only when no removal is left undecided."""
    r = best.answer
    assert r is not None
    moved = (Removal(0, best.gone), *r.removals)
    replay(table, r.placements, moved, readings, goal)
    count = plural(r.cards, "card")
    if not minimum:
        why = f"the map's removal owed first, then: {r.reason}"
        return replace(r, removals=moved, reason=why, stats=stats, minimum=False)
    among = f"the {plural(removals, 'removal')} the map laid last allows"
    if undecided:
        why = (
            f"the map's removal owed first, then {count} close it; not proven the fewest:"
            f" {undecided} of {among} not searched for fewer within the limits"
        )
        return replace(r, removals=moved, reason=why, stats=stats, minimum=False)
    why = (
        f"the map's removal owed first, then {count} close it: the fewest after any of {among}"
        " (each searched exhaustively for fewer)"
    )
    return replace(r, removals=moved, reason=why, stats=stats, minimum=True)
