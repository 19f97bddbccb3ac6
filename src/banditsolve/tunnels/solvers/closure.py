"""Can the tunnel still close? Closure of a table with a given multiset of cards.

A *closure* is a choice of some of the given cards and an order of laying them, each placement
legal when laid (BD-PLACE-1..3), that leaves no exit (BD-CLOSE-1). Hands and turns play no part,
so "impossible" proves that no game can be won from the table with these cards.

Three answers, never a guess (:class:`~banditsolve.tunnels.solvers.result.Closure`):
``closable`` with the placements in a legal order (the certificate, replayed through the rules
engine), ``impossible`` with the reason, or ``unknown`` when a time or node limit ran out.

This module holds the public entry points and the backend dispatch; the Python reference's
iterative deepening is :mod:`~banditsolve.tunnels.solvers.deepening`. The CP-SAT and Z3
backends load only when asked for.

By default the cards must be cards of the real game: no more copies of a card (on the table
and among the cards) than the deck holds, and never the super card among the cards to close
with. ``hypothetical=True`` (or a Position read as hypothetical) lifts that check for made-up
questions.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, replace

from banditsolve.core.limits import CLOSURE_TIME_LIMIT, Limits, steady
from banditsolve.core.text import plural, shown
from banditsolve.errors import ArgumentTypeError, SolverError
from banditsolve.tunnels.bandida.components import GOALS
from banditsolve.tunnels.cards import CardLike
from banditsolve.tunnels.solvers import parallel
from banditsolve.tunnels.solvers.chains import chain_possible, chained_closure
from banditsolve.tunnels.solvers.compiled import solve_compiled
from banditsolve.tunnels.solvers.deepening import solve_exact
from banditsolve.tunnels.solvers.goals import (
    Plan,
    Required,
    Search,
    closable_reason,
    goal_problem,
    is_map,
    plan,
    question,
    restore,
)
from banditsolve.tunnels.solvers.inputs import (
    Bounds,
    cards_of,
    check_backend,
    check_cards,
    check_limits,
    check_reach,
    deck_of,
    play_area,
    table_of,
)
from banditsolve.tunnels.solvers.mapclose import (
    DEFAULT_READINGS,
    MapFinder,
    Plain,
    Readings,
    map_last,
    map_readings,
    owed_removals,
    readings_of,
    relaxed_reason,
    replay,
)
from banditsolve.tunnels.solvers.maplines import MAP_CORE_BACKENDS, map_free_note, with_core
from banditsolve.tunnels.solvers.owed import after_removal
from banditsolve.tunnels.solvers.plain import search_plain
from banditsolve.tunnels.solvers.result import (
    Closure,
    SearchStats,
    Status,
    certify,
)
from banditsolve.tunnels.table import Table

__all__ = ["BACKENDS", "GOALS", "Closure", "can_close", "min_cards_to_close", "plain_search"]

#: ``exact`` is the compiled core (:mod:`~banditsolve.tunnels.solvers.compiled`), ``python`` the
#: Python reference search it is checked against (:mod:`~banditsolve.tunnels.solvers.exact`),
#: ``sat`` the SAT finder (:mod:`~banditsolve.tunnels.solvers.sat`), ``auto`` the compiled core
#: and the SAT finder raced (:mod:`~banditsolve.tunnels.solvers.portfolio`).
BACKENDS = ("auto", "exact", "python", "sat", "cpsat", "z3", "plain")

#: With map cards among the cards, the share of the time limit the search without them may take
#: (the lines that lay a map get the rest: BA-CLOSE-2).
MAP_FREE_SHARE = 0.5
#: With map cards, the share of the time left after that search the compiled backends give
#: the finder's first level (maps laid now) before the relaxation and the core's line search.
QUICK_SHARE = 0.25


@steady
def can_close(
    position: object,
    cards: Iterable[CardLike] | None = None,
    *,
    max_cards: int | None = None,
    backend: str = "auto",
    bounds: Bounds | None = None,
    time_limit: float | None = CLOSURE_TIME_LIMIT,
    node_limit: int | None = None,
    workers: int | None = None,
    hypothetical: bool = False,
    goal: str | None = None,
    options: Mapping[str, object] | None = None,
) -> Closure:
    """Can ``position`` (a Position or a Table) be closed with some of ``cards``?

    ``cards`` defaults to the position's remaining cards. ``max_cards`` caps how many may be
    used; ``bounds`` = ``(min_x, min_y, max_x, max_y)`` limits the play area (inclusive).
    ``backend`` is ``"auto"`` (the compiled search raced with the SAT finder), ``"exact"``
    (the compiled search), ``"python"`` (the Python reference search), ``"sat"``,
    ``"cpsat"``, ``"z3"`` or ``"plain"``; a node limit counts the nodes of
    the search that runs (the compiled search's nodes are cheaper and more numerous).
    ``workers`` is how many processes a long exact search may share its work among (None:
    :func:`~banditsolve.tunnels.solvers.parallel.default_workers`; 1: never fork). The answer
    does not depend on it. ``hypothetical=True`` accepts cards the real game cannot hold (more
    copies than the deck has, the super card among the cards); otherwise they are refused
    with :class:`~banditsolve.errors.NotationError` (a Position read as hypothetical counts
    as hypothetical).

    ``goal`` is what the closure must reach: ``"close"`` (every exit closed; Bandido, Bandida
    mode 1), ``"ladder"`` (Bandida mode 2: the ladder laid and every other exit closed) or
    ``"join"`` (mode 3: also the second super card, on the side the solver chooses, joined to
    the first through the tunnels). None takes the goal of the game the position is of (a
    Bandida state's mode's), else ``"close"``. A Bandida state or position is a question of
    one mode (the state's, or the position's goal's: ``close`` is mode 1), and cards its game
    does not hold are refused (:class:`~banditsolve.errors.NotationError` naming the rule: the
    ladder outside modes 2 and 3, BA-SETUP-4; Bandido's super card outside mode 3, BA-DECK-5).
    With map cards among the cards (Bandida), a closure without them is looked for first;
    failing one, the lines that lay a map are searched with its removals under the readings
    of a game state's options (for a position, ``options``, a mapping of ``map_removes``,
    ``map_split``, ``map_reopen``, ``map_short`` and ``hole`` as ``--option`` takes them; the
    defaults without: BA-OPT-1..4 and BA-OPT-14), and a closable
    answer's certificate holds each removal (:attr:`Closure.removals`); see
    :mod:`~banditsolve.tunnels.solvers.mapclose`. Under a game state's ``chain=no`` a map may
    also be laid in a chain, taking nothing off (:mod:`~banditsolve.tunnels.solvers.chains`).
    """
    return _solve(
        position,
        cards,
        max_cards=max_cards,
        backend=backend,
        bounds=bounds,
        time_limit=time_limit,
        node_limit=node_limit,
        minimum=False,
        workers=workers,
        hypothetical=hypothetical,
        goal=goal,
        options=options,
    )


@steady
def min_cards_to_close(
    position: object,
    cards: Iterable[CardLike] | None = None,
    *,
    max_cards: int | None = None,
    backend: str = "auto",
    bounds: Bounds | None = None,
    time_limit: float | None = CLOSURE_TIME_LIMIT,
    node_limit: int | None = None,
    workers: int | None = None,
    hypothetical: bool = False,
    goal: str | None = None,
    options: Mapping[str, object] | None = None,
) -> Closure:
    """The fewest cards that close ``position``, with a certificate and ``minimum=True`` once
    it is proven that fewer cannot. ``impossible`` when no closure exists (within
    ``max_cards``). Arguments as for :func:`can_close`."""
    return _solve(
        position,
        cards,
        max_cards=max_cards,
        backend=backend,
        bounds=bounds,
        time_limit=time_limit,
        node_limit=node_limit,
        minimum=True,
        workers=workers,
        hypothetical=hypothetical,
        goal=goal,
        options=options,
    )


@steady
def plain_search(
    position: object,
    cards: Iterable[CardLike] | None = None,
    *,
    max_cards: int | None = None,
    time_limit: float | None = CLOSURE_TIME_LIMIT,
    node_limit: int | None = None,
    hypothetical: bool = False,
    goal: str | None = None,
) -> Closure:
    """The baseline: depth-first over every remaining card type and every legal placement, in
    any order, with no memo and no bound but the card budget. Complete, and slow. Arguments as
    for :func:`can_close`."""
    return _solve(
        position,
        cards,
        max_cards=max_cards,
        backend="plain",
        bounds=None,
        time_limit=time_limit,
        node_limit=node_limit,
        minimum=False,
        workers=None,
        hypothetical=hypothetical,
        goal=goal,
    )


def _solve(
    position: object,
    cards: Iterable[CardLike] | None,
    *,
    max_cards: int | None,
    backend: str,
    bounds: Bounds | None,
    time_limit: float | None,
    node_limit: int | None,
    minimum: bool,
    workers: int | None,
    hypothetical: bool,
    goal: str | None = None,
    options: Mapping[str, object] | None = None,
) -> Closure:
    if not isinstance(backend, str):
        raise ArgumentTypeError(f"the closure backend must be a name, not {shown(backend)}")
    if backend not in BACKENDS:
        raise SolverError(
            f"unknown closure backend {shown(backend)} (one of {', '.join(BACKENDS)})"
        )
    aim, mode = question(position, goal)
    table = table_of(position)
    codes = cards_of(position, cards)
    limits = check_limits(max_cards, time_limit, node_limit, workers)
    area = play_area(position, bounds, table)
    if mode is not None:
        # BA-SETUP-4, BA-DECK-5: the mode's game holds its components (the deck's data says
        # which) and no others.
        deck_of(position).refuse_outside(
            (*table.cards()[1:], *codes), mode.number, "the table and the cards"
        )
    check_cards(position, table, codes, hypothetical)
    check_backend(backend, minimum, area is not None, node_limit)
    check_reach(table, len(codes) if max_cards is None else min(max_cards, len(codes)), area)
    readings = readings_of(position)
    if options is not None:
        readings = map_readings(position, options)
    owed = owed_removals(position, readings)
    start = time.perf_counter()

    def asked(cards: tuple[int, ...], within: Limits, least: bool = minimum) -> Closure:
        def ask(after: Table, most: int | None, left: Limits, fewest: bool) -> Closure:
            return solve_goal(
                after, cards, aim, most, backend, area, left, fewest, workers, readings
            )

        if owed:
            return after_removal(
                table, owed, ask, limits=within, max_cards=max_cards, minimum=least, goal=aim,
                readings=readings, backend=answer_backend(backend), codes=cards,
            )
        return ask(table, max_cards, within, least)

    result = asked(codes, limits)
    if chain_possible(position, codes):
        # (Of the lines with a chained map only the verdict counts: no minimum.)
        result = chained_closure(
            result, codes, limits, start, lambda cards, within: asked(cards, within, False)
        )
    if minimum and result.status == "closable" and not result.minimum:
        result = replace(result, reason=unproven(result.reason))
    if result.status == "unknown" and result.at_least > 1:
        proven = f"; no closure of at most {plural(result.at_least - 1, 'card')}"
        result = replace(result, reason=result.reason + proven)
    if readings.asked and any(is_map(c) for c in codes):
        read = f"readings {readings.asked}, the others their defaults (BA-OPT-1..4, BA-OPT-14)"
        result = replace(result, notes=(*result.notes, read))
    return replace(
        result, limits=limits, max_cards=max_cards, table=table, pool=tuple(codes), area=area
    )


def unproven(reason: str) -> str:
    """A minimum question's closable reason (``reason``) when the closure is not proven the
    fewest: said so, unless it already says how far it holds."""
    if "fewe" in reason:  # (fewer cannot ... / fewest among ...)
        return reason
    if "with a map" in reason:
        return f"{reason}; not proven the fewest: lines that lay a map are searched for a closure"
    return f"{reason}; not proven the fewest cards"


def model_solver(backend: str) -> Callable[..., Closure]:
    """The solve function of ``cpsat`` or ``z3``, imported now (each library only here)."""
    if backend == "cpsat":
        from banditsolve.tunnels.solvers.cpsat import solve_cpsat

        return solve_cpsat
    from banditsolve.tunnels.solvers.z3 import solve_z3

    return solve_z3


def answer_backend(backend: str) -> str:
    """The backend an answer names for the one asked (``auto`` answers as ``exact``)."""
    return "exact" if backend == "auto" else backend


def solve_goal(
    table: Table,
    codes: tuple[int, ...],
    goal: str,
    max_cards: int | None,
    backend: str,
    area: Bounds | None,
    limits: Limits,
    minimum: bool,
    workers: int | None,
    readings: Readings = DEFAULT_READINGS,
) -> Closure:
    """The closure question for ``goal`` on checked inputs: the searches of its plan
    (:func:`~banditsolve.tunnels.solvers.goals.plan`), their answers combined, the
    certificate named by the real cards and replayed with the goal checked; with map cards
    among the cards and no closure without them, the map's removals under ``readings``
    (:mod:`~banditsolve.tunnels.solvers.mapclose`)."""
    start = time.perf_counter()
    p = plan(table, codes, goal)
    early = _settled_goal(table, goal, p, answer_backend(backend))
    if early is not None:
        return early
    ask = Asked(goal, max_cards, backend, area, limits, workers, readings, start)
    results = _plan_results(table, p, ask, minimum)
    closable = [(v, r) for v, r in results if r.status == "closable"]
    stats = SearchStats(sum(r.stats.nodes for _v, r in results), time.perf_counter() - start)
    if closable:
        return _closable_answer(table, p, results, closable, stats)
    return _unclosed_answer(table, codes, p, ask, results, stats)


def _settled_goal(table: Table, goal: str, p: Plan, name: str) -> Closure | None:
    """The answer before any search: the plan's verdict, or a table without exits; else None."""
    if p.verdict is not None:
        # Holds whatever a map removes: the card is missing from the cards and the table.
        return Closure("impossible", (), p.verdict, name, goal=goal, notes=p.notes)
    if not table.exit_count:
        problem = goal_problem(table, goal)
        if problem is None:
            return Closure("closable", (), "the table has no exit", name, minimum=True, goal=goal)
        # No card can be laid on a closed table (a map card neither): lost for good.
        why = f"{problem}: no card can be laid on a table without exits"
        return Closure("impossible", (), why, name, goal=goal, notes=p.notes)
    return None


def _plan_results(
    table: Table, p: Plan, ask: Asked, minimum: bool
) -> list[tuple[Search, Closure]]:
    """The searches of plan ``p`` (one per side of the second super card, or one) run in
    turn until one closes (all of them when the minimum is asked). Each gets an equal part of
    the time left (the last all of it), so that the first side's long search does not starve
    the other, and the node limit less the nodes the searches before it spent. (A side cut
    short is not asked again with what a later one left: a search starts over, and that is less
    than it had.)"""
    # With map cards, the search without them may take MAP_FREE_SHARE of the time; the lines
    # that lay a map get the rest.
    share = MAP_FREE_SHARE if p.maps else 1.0
    results: list[tuple[Search, Closure]] = []
    spent = 0
    for i, v in enumerate(p.searches):
        left = _part(ask, share, len(p.searches) - i, spent)
        if left is None:
            why = ask.limits.reason("nodes")
            r = Closure("unknown", (), why, answer_backend(ask.backend), goal=ask.goal)
        else:
            r = _plan_search(table, v, ask, left, minimum)
        spent += r.stats.nodes
        results.append((v, r))
        if r.status == "closable" and not minimum:
            break
    return results


def _part(ask: Asked, share: float, searches: int, spent: int) -> Limits | None:
    """The limits of the next of ``searches`` searches sharing ``share`` of the time left
    equally, at least 0.01 s, and the node limit less the ``spent`` nodes of the searches before
    it (None when they used it up)."""
    limits = ask.limits
    nodes = limits.node_limit
    if nodes is not None:
        nodes -= spent
        if nodes <= 0:
            return None
    if limits.time_limit is None:
        return Limits(None, nodes)
    part = (share * limits.time_limit - (time.perf_counter() - ask.start)) / searches
    return Limits(max(0.01, part), nodes)


def _plan_search(
    table: Table, v: Search, ask: Asked, left: Limits, minimum: bool
) -> Closure:
    """One search of a plan within ``left`` (a part of the limits asked)."""
    limits = ask.limits
    r = _dispatch(
        table, v.codes, ask.max_cards, ask.backend, ask.area, left, minimum, ask.workers,
        v.required,
    )
    if left != limits and "time limit" in r.reason:  # the limit asked, not its share
        asked = limits.reason("time")
        why = asked if r.status == "unknown" else r.reason.replace(left.reason("time"), asked)
        r = replace(r, reason=why)
    return r


def _closable_answer(
    table: Table,
    p: Plan,
    results: list[tuple[Search, Closure]],
    closable: list[tuple[Search, Closure]],
    stats: SearchStats,
) -> Closure:
    """The answer from the searches' fewest-card closure (``closable``), named by the real
    cards and replayed with the goal checked; a minimum when every search proved its own."""
    v, best = min(closable, key=lambda vr: vr[1].cards)
    sure = all(
        r.status == "impossible" or (r.status == "closable" and r.minimum)
        for _v, r in results
    )
    every = sure and len(results) == len(p.searches)
    proven = best.minimum and every and not p.maps
    placements = certify(table, restore(best.placements, v.cards), p.goal)
    why = closable_reason(best.reason, v, p, placements, best.minimum, every)
    stats = replace(best.stats, nodes=stats.nodes, seconds=stats.seconds)
    return replace(
        best, placements=placements, reason=why, minimum=proven, stats=stats,
        goal=p.goal, notes=p.notes,
    )


def _unclosed_answer(
    table: Table,
    codes: tuple[int, ...],
    p: Plan,
    ask: Asked,
    results: list[tuple[Search, Closure]],
    stats: SearchStats,
) -> Closure:
    """The answer when no search closed: unknown or impossible, or with map cards among the
    cards, the lines that lay a map (:func:`with_maps`)."""
    goal = ask.goal
    unknown = [r for _v, r in results if r.status == "unknown"]
    first = results[0][1]
    if unknown and p.maps and "node limit" not in unknown[0].reason:
        cut = replace(unknown[0], stats=stats, notes=p.notes)
        return with_maps(table, codes, ask, "the search was cut short", cut)
    if unknown:
        # A closure may come from any search left undecided: the fewest any of them allows.
        at_least = min(r.at_least for r in unknown)
        return replace(unknown[0], goal=goal, notes=p.notes, at_least=at_least)
    why = first.reason
    if len(results) > 1:
        why = "; ".join(f"{v.side} side: {r.reason}" for v, r in results)
    stats = replace(first.stats, nodes=stats.nodes, seconds=stats.seconds)
    if p.maps:
        return with_maps(table, codes, ask, why, replace(first, stats=stats, notes=p.notes))
    return Closure("impossible", (), why, first.backend, stats, goal=goal, notes=p.notes)


@dataclass(frozen=True, slots=True)
class Asked:
    """A closure question's settings, as :func:`with_maps` passes them on to the map-free
    questions it asks."""

    goal: str
    max_cards: int | None
    backend: str
    area: Bounds | None
    limits: Limits
    workers: int | None
    readings: Readings
    start: float

    def plain(self, goal: str) -> Plain:
        """The map-free question for ``goal`` (no minimum), on the backend asked."""

        def ask(table: Table, codes: tuple[int, ...], budget: int, left: Limits) -> Closure:
            return solve_goal(
                table, codes, goal, budget, self.backend, self.area, left, False, self.workers
            )

        return ask

    def finder(
        self, codes: tuple[int, ...], budget: int, deadline: float | None, spent: int
    ) -> MapFinder:
        """The finder of lines that lay maps among ``codes`` (at most ``budget`` cards, until
        ``deadline``), its map-free questions on the backend asked; ``spent``: the nodes
        already searched for this question."""
        return MapFinder(
            codes, self.goal, self.readings, self.area, budget, self.plain(self.goal), deadline,
            self.limits.node_limit, spent,
        )

    def needing(self, code: int) -> Plain:
        """The map-free question with a card of port set ``code`` required among those laid
        (the certificate names it by that port set)."""

        def ask(table: Table, codes: tuple[int, ...], budget: int, left: Limits) -> Closure:
            p = plan(table, codes, self.goal)
            nodes = 0
            status: Status = "impossible"
            began = time.perf_counter()  # (the searches share the time left, one by one)
            for v in p.searches:
                need = (*v.required, frozenset({code}))
                now = left
                if left.time_limit is not None:
                    rest = left.time_limit - (time.perf_counter() - began)
                    now = Limits(max(0.001, rest), left.node_limit)
                r = _dispatch(
                    table, v.codes, budget, self.backend, self.area, now, False,
                    self.workers, need,
                )
                nodes += r.stats.nodes
                if r.status == "closable":
                    return replace(r, placements=restore(r.placements, v.cards))
                if r.status == "unknown":
                    status = "unknown"
            return Closure(status, (), "", stats=SearchStats(nodes))

        return ask


def with_maps(
    table: Table, codes: tuple[int, ...], ask: Asked, plain_why: str, plain: Closure
) -> Closure:
    """BA-CLOSE-2: no closure found without the map cards (``plain``: impossible, or unknown
    when its search was cut short; why: ``plain_why``); the lines that lay maps, found or
    ruled out (:mod:`~banditsolve.tunnels.solvers.mapclose`): the finder with no plain card
    before a map, the relaxation, then the finder deepened until it searches every line."""
    goal = ask.goal
    budget = len(codes) if ask.max_cards is None else min(ask.max_cards, len(codes))
    deadline = None if ask.limits.time_limit is None else ask.start + ask.limits.time_limit
    if ask.backend in MAP_CORE_BACKENDS:

        def quick() -> Closure | None:
            return _maps_laid_now(table, codes, ask, plain, budget, deadline)

        answer = with_core(
            table, codes, goal=goal, readings=ask.readings, area=ask.area, limits=ask.limits,
            start=ask.start, budget=budget, relaxed=ask.plain, plain_why=plain_why,
            plain=plain, quick=quick,
        )
        if answer is not None:
            return answer
    finder = ask.finder(codes, budget, deadline, plain.stats.nodes)
    found, spent = map_last(table, codes, budget, ask.needing, finder.left)
    finder.nodes += spent
    if found is not None:
        return _map_answer(table, found, ask, finder, plain)
    keep = goal if ask.readings.split == "tunnels" else "close"
    why, spent = relaxed_reason(
        table, codes, ask.readings, ask.plain(keep), budget, finder.left, ask.area
    )
    finder.nodes += spent
    found = None
    if why is not None:
        why = f"{plain_why} without the map cards, and {why}"
    else:
        found = finder.find(table, range(finder.full + 1))
        if found is None and plain.status == "impossible" and finder.exhausted(finder.full):
            why = (
                f"{plain_why} without the map cards, and every line that lays a map (each"
                " placement, each removal its reading allows) was searched without a closure"
                f"{ask.readings.hole_note}"
            )
    if found is not None:
        return _map_answer(table, found, ask, finder, plain)
    return _no_map_answer(ask, finder, plain_why, plain, why)


def _maps_laid_now(
    table: Table, codes: tuple[int, ...], ask: Asked, plain: Closure, budget: int,
    deadline: float | None,
) -> Closure | None:
    """The compiled backends' try at a line with a map once the relaxation proved nothing,
    within :data:`QUICK_SHARE` of the time left (only under a time limit and no node limit:
    its many small questions are not counted as nodes): each map laid now in every way, with
    each removal, then the compiled core's map-free question (the finder's first level). It
    finds the lines whose map comes first at once, where the core's line search deepens
    every line's card count together and reaches them late; it proves nothing when it finds
    none."""
    if deadline is None or ask.limits.node_limit is not None:
        return None
    deadline = time.perf_counter() + QUICK_SHARE * (deadline - time.perf_counter())
    finder = ask.finder(codes, budget, deadline, plain.stats.nodes)
    found = finder.find(table, range(1))
    return None if found is None else _map_answer(table, found, ask, finder, plain)


def _no_map_answer(
    ask: Asked, finder: MapFinder, plain_why: str, plain: Closure, why: str | None
) -> Closure:
    """No closing line with a map found: impossible with ``why`` when it is known, else
    unknown with the limit or the undecided questions that stopped the search."""
    stats = SearchStats(finder.nodes, time.perf_counter() - ask.start)
    name = plain.backend
    if why is not None:
        return Closure("impossible", (), why, name, stats, goal=ask.goal, notes=plain.notes)
    if finder.stopped or plain.status == "unknown":
        how = ask.limits.reason("nodes" if finder.stopped == "nodes" else "time")
    else:
        how = (
            f"{plural(finder.undecided, 'map-free question')} after a map's removal undecided"
            " in its share of the time"
        )
    why = f"{plain_why} without the map cards; with them: {how}"
    return Closure("unknown", (), why, name, stats, goal=ask.goal, notes=plain.notes)


def _map_answer(
    table: Table, found: Closure, ask: Asked, finder: MapFinder, plain: Closure
) -> Closure:
    """A closing line with a map, replayed by the rules, as the answer."""
    replay(table, found.placements, found.removals, ask.readings, ask.goal)
    stats = SearchStats(finder.nodes, time.perf_counter() - ask.start)
    taken = sum(len(r.cards) for r in found.removals)
    how = f"{plural(taken, 'card')} taken off" if found.removals else "the map laid last"
    if not found.removals and not is_map(found.placements[-1].card):
        how = "the map taking nothing off"
    why = f"{found.cards} cards close it with a map ({how}); {map_free_note(plain.status)}"
    return Closure(
        "closable", found.placements, why, plain.backend, stats, False, goal=ask.goal,
        notes=plain.notes, removals=found.removals,
    )


def _dispatch(
    table: Table,
    codes: tuple[int, ...],
    max_cards: int | None,
    backend: str,
    area: Bounds | None,
    limits: Limits,
    minimum: bool,
    workers: int | None,
    required: Required = (),
) -> Closure:
    time_limit = limits.time_limit
    if backend == "plain":
        return search_plain(table, codes, max_cards, limits, required)
    if backend in ("cpsat", "z3"):
        began = time.perf_counter()  # (the solver's first import counts against the limit)
        solve = model_solver(backend)
        left = None if time_limit is None else time_limit - (time.perf_counter() - began)
        got = solve(table, codes, max_cards, area, left, minimum, required)
        # (Its time as spent: the import, which no limit can cut short, too.)
        return replace(got, stats=replace(got.stats, seconds=time.perf_counter() - began))
    # exact and auto: the compiled exact search is complete for every case and the fastest on
    # all the benchmark's sizes (a question too large for it runs on the Python reference);
    # "auto" falls back to CP-SAT for the time left when it gives up on a case that CP-SAT
    # models completely (a small card budget).
    start = time.perf_counter()
    if backend == "sat":
        from banditsolve.tunnels.solvers.sat import solve_sat

        return solve_sat(table, codes, max_cards, area, limits, minimum, required)
    found = None
    if backend == "auto":
        from banditsolve.tunnels.solvers.portfolio import race  # (it loads python-sat)

        found = race(table, codes, max_cards, area, limits, minimum, required)
    elif backend == "exact":
        found = solve_compiled(
            table, codes, max_cards=max_cards, bounds=area, limits=limits, required=required
        )
    result = found or solve_exact(
        table,
        codes,
        max_cards=max_cards,
        minimum=minimum,
        bounds=area,
        limits=limits,
        workers=parallel.default_workers() if workers is None else workers,
        required=required,
    )
    if backend in ("exact", "python") or result.status != "unknown":
        return result
    return _cpsat_after(table, codes, max_cards, area, limits, minimum, required, start, result)


def _cpsat_after(
    table: Table,
    codes: tuple[int, ...],
    max_cards: int | None,
    area: Bounds | None,
    limits: Limits,
    minimum: bool,
    required: Required,
    start: float,
    result: Closure,
) -> Closure:
    """``auto``'s fallback once the exact search gave up (``result``, unknown): CP-SAT for the
    time left since ``start``, when the card budget is small; its answer if it decides."""
    time_limit, node_limit = limits.time_limit, limits.node_limit
    budget = len(codes) if max_cards is None else min(max_cards, len(codes))
    left = None if time_limit is None else time_limit - (time.perf_counter() - start)
    # (Not when a node limit stopped it: the solver could not honour that limit.)
    if budget <= 8 and node_limit is None and (left is None or left > 0.5):
        from banditsolve.tunnels.solvers.cpsat import solve_cpsat

        second = solve_cpsat(table, codes, max_cards, area, left, minimum, required)
        if second.status != "unknown":
            return second
    return result
