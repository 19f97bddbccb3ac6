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
        fewest = run.best.answer
        left = run.round(table, todo, last)
        if run.best.answer is not None and not minimum:
            break
        if last and len(left) == len(todo) and run.best.answer is fewest:
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
    why = (
        f"the map laid last still takes cards off, and {len(owed) - len(todo)} of the"
        f" {plural(len(owed), 'removal')} it allows were ruled out; then {run.stopped()}"
    )
    return Closure("unknown", (), why, backend, stats, goal=goal, notes=notes)


#: The least time left for one more question after a removal: one takes 20-40 ms past a
#: share of under a millisecond (its searches' least parts), 15-45 ms past a share of 20 ms.
QUESTION_SECONDS = 0.05
#: The least share of the time a question after a removal is given.
SHARE_SECONDS = 0.02


class _Rounds:
    """The questions after the removals, round by round: the limits and nodes spent, the
    fewest cards found, and the last reason a question gave for ``unknown``."""

    def __init__(
        self, ask: AskAfter, limits: Limits, max_cards: int | None, minimum: bool
    ) -> None:
        self.ask, self.limits, self.max_cards, self.minimum = ask, limits, max_cards, minimum
        self.start = time.perf_counter()
        self.nodes = 0
        self.best = _Fewest()
        self.why = ""
        #: Each removal's last question that ended unknown, by the cap it was asked with:
        #: without a time limit, asked again alike, it ends alike.
        self.unknown: dict[Gone, int | None] = {}

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
            if self.limits.time_limit is None and self.unknown.get(gone, -1) == cap:
                undecided.append(gone)
                continue
            r = self.ask(rebuilt(table, gone), cap, left, self.minimum)
            self.nodes += r.stats.nodes
            if r.status == "closable":
                self.best = _Fewest(r, gone)
                if not self.minimum:
                    return []
            if r.status == "unknown":
                self.unknown[gone], self.why = cap, r.reason
            if r.status == "unknown" or (r.status == "closable" and not r.minimum):
                undecided.append(gone)
        return undecided

    def _share(self, last: bool, waiting: int) -> Limits | None:
        """The limits of the next question: an even share (at least :data:`SHARE_SECONDS`) of
        what is left of half the time (the first round) or of all of it (the last), with
        ``waiting`` questions still to ask, and the nodes left; None when a limit has run out
        or too little time is left for one more question (:data:`QUESTION_SECONDS`)."""
        left = self.limits.after(self.start, self.nodes)
        if isinstance(left, str):
            return None
        seconds = left.time_limit
        if seconds is None or self.limits.time_limit is None:
            return left
        pool = seconds if last else seconds - self.limits.time_limit / 2
        # (What a question may take past its share is kept from the time left.)
        share = min(max(pool / waiting, SHARE_SECONDS), seconds - QUESTION_SECONDS + SHARE_SECONDS)
        if pool <= 0 or share < SHARE_SECONDS:
            return None
        return Limits(share, left.node_limit)

    def stopped(self) -> str:
        """Why the questions stopped undecided: the limit that ran out, else the last reason a
        question gave."""
        left = self.limits.after(self.start, self.nodes)
        if isinstance(left, str):
            return self.limits.reason(left)
        if left.time_limit is not None and left.time_limit < QUESTION_SECONDS:
            return self.limits.reason("time")
        return self.why or "a question after a removal was left undecided"


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
            f"the map's removal owed first, then {count} close it; not proven the fewest: after"
            f" {undecided} of {among}, no fewer cards were proven impossible"
        )
        return replace(r, removals=moved, reason=why, stats=stats, minimum=False)
    why = (
        f"the map's removal owed first, then {count} close it: the fewest after any of {among}"
        " (each searched exhaustively for fewer)"
    )
    return replace(r, removals=moved, reason=why, stats=stats, minimum=True)
