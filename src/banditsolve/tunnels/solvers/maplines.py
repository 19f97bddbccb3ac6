"""Closure with Bandida's map cards on the compiled core's map move (BA-CLOSE-2,
``csrc/closure/maps.cpp``): the question asked of the ``exact`` and ``auto`` backends once the
search without the map cards found no closure.

Two arguments, in this order, within the time left:

- **the relaxation** (:func:`~banditsolve.tunnels.solvers.mapclose.relaxed_reason`), for up
  to :data:`RELAXATION_SHARE` of the time: it proves ``impossible`` when no table the maps could
  leave is closable even with the maps as tunnel cards;
- **the compiled line search** (:func:`core_lines`): the core's depth-first search with the map
  move, which lays each map in every legal way with each removal its reading allows, deepening
  the plain cards a line may lay before its next map. Whatever it finds is a real line (named by
  the real cards, then replayed by the rules); when its last level finishes without one, no
  line exists (the argument is at the top of ``maps.cpp``).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import replace

from banditsolve.core.limits import Limits
from banditsolve.core.text import plural
from banditsolve.tunnels.geometry import Placement
from banditsolve.tunnels.solvers.compiled import solve_compiled_maps
from banditsolve.tunnels.solvers.goals import is_map, plan, restore
from banditsolve.tunnels.solvers.inputs import Bounds
from banditsolve.tunnels.solvers.mapclose import Plain, Readings, relaxed_reason, replay
from banditsolve.tunnels.solvers.result import Closure, Removal, SearchStats, certify
from banditsolve.tunnels.table import Table

__all__ = [
    "LINES_FIRST_SHARE", "MAP_CORE_BACKENDS", "RELAXATION_SHARE", "core_lines", "named_line",
    "with_core",
]

#: The backends whose map questions run here (the others on the Python line search of
#: :mod:`~banditsolve.tunnels.solvers.mapclose`).
MAP_CORE_BACKENDS = ("exact", "auto")
#: The share of the time left (after the search without the map cards) the relaxation may take
#: before the compiled line search.
RELAXATION_SHARE = 0.3
#: The share of the time left after the relaxation the compiled line search has first, before
#: the finder's try (``with_core``'s ``quick``).
LINES_FIRST_SHARE = 0.2


def core_lines(
    table: Table,
    codes: tuple[int, ...],
    *,
    goal: str,
    readings: Readings,
    area: Bounds | None,
    budget: int,
    deadline: float | None,
    node_limit: int | None,
) -> Closure | None:
    """The compiled line search: every line, maps laid with each removal, searched once per
    search of the goal's plan (each side of the second super card), the time left shared among
    them. Closable: the certificate named by the real cards (not yet replayed); impossible:
    every search exhausted; unknown: a limit ran out; None when a question is too large for the
    core (the Python line search answers then)."""
    start = time.perf_counter()
    maps = tuple(c for c in codes if is_map(c))
    searches = plan(table, codes, goal).searches
    nodes = 0
    unknown: Closure | None = None
    for n, v in enumerate(searches):
        seconds = None
        if deadline is not None:
            seconds = max(0.01, (deadline - time.perf_counter()) / (len(searches) - n))
        left = Limits(seconds, None if node_limit is None else max(1, node_limit - nodes))
        r = solve_compiled_maps(
            table, (*v.codes, *maps), goal=goal, readings=readings, max_cards=budget,
            bounds=area, limits=left, required=v.required,
        )
        if r is None:
            return None
        nodes += r.stats.nodes
        if r.status == "closable":
            return replace(named_line(r, v.cards), stats=replace(r.stats, nodes=nodes))
        if r.status == "unknown":
            unknown = r
            if node_limit is not None and nodes >= node_limit:
                break
    stats = SearchStats(nodes, time.perf_counter() - start)
    if unknown is not None:
        return replace(unknown, stats=stats)
    return Closure("impossible", (), "", "exact", stats)


def named_line(found: Closure, cards: tuple[int, ...]) -> Closure:
    """A line of the core (its placements by the searched codes: the maps as they are, the
    other cards collapsed) named by the real ``cards``, its removals with it."""
    plain = [p for p in found.placements if not is_map(p.card)]
    named = iter(restore(plain, cards))
    placements = tuple(p if is_map(p.card) else next(named) for p in found.placements)
    laid = found.placements

    def renamed(c: Placement, after: int) -> Placement:
        # The card laid last at its spot before the map (an earlier one there was taken off
        # before it was laid), else a card of the table.
        for j in range(after - 1, -1, -1):
            if laid[j] == c:
                return placements[j]
        return c

    removals = tuple(
        Removal(r.after, tuple(renamed(c, r.after) for c in r.cards)) for r in found.removals
    )
    return replace(found, placements=placements, removals=removals)


def with_core(
    table: Table,
    codes: tuple[int, ...],
    *,
    goal: str,
    readings: Readings,
    area: Bounds | None,
    limits: Limits,
    start: float,
    budget: int,
    relaxed: Callable[[str], Plain],
    plain_why: str,
    plain: Closure,
    quick: Callable[[], Closure | None] = lambda: None,
) -> Closure | None:
    """The question with the map cards, once the search without them (``plain``, why:
    ``plain_why``) found no closure: the relaxation, then the compiled line search (under a
    time limit: for :data:`LINES_FIRST_SHARE` of the time, then ``quick``, a finder of some
    lines, its answer if it finds one, then the line search again for the rest); the answer,
    or None when the question is too large for the core. ``relaxed(goal)``: the map-free
    question for ``goal``; ``start``: when the question was asked."""
    deadline = None if limits.time_limit is None else start + limits.time_limit
    node_limit = _nodes_after(limits.node_limit, plain.stats.nodes)
    keep = goal if readings.split == "tunnels" else "close"
    proof, relaxing = relaxation(
        table, codes, readings, relaxed(keep), budget, deadline, node_limit, area
    )
    if proof is not None:
        stats = SearchStats(plain.stats.nodes + relaxing, time.perf_counter() - start)
        why = f"{plain_why} without the map cards, and {proof}"
        return Closure("impossible", (), why, plain.backend, stats, goal=goal, notes=plain.notes)
    lines, spent = None, relaxing

    if deadline is not None:
        # A first share for the line search, then the finder (``quick``), then the rest: the
        # line search answers most questions at once, the finder the lines whose map comes
        # first, which the line search reaches late (a second run starts afresh).
        first = time.perf_counter() + LINES_FIRST_SHARE * (deadline - time.perf_counter())
        lines = core_lines(
            table, codes, goal=goal, readings=readings, area=area, budget=budget,
            deadline=first, node_limit=_nodes_after(node_limit, spent),
        )
        if lines is not None and lines.status == "unknown":
            found = quick()
            if found is not None:
                return found
            spent, lines = spent + lines.stats.nodes, None
    lines = lines or _spent(node_limit, spent, limits, plain.backend) or core_lines(
        table, codes, goal=goal, readings=readings, area=area, budget=budget,
        deadline=deadline, node_limit=_nodes_after(node_limit, spent),
    )
    if lines is None:
        return None
    lines = replace(lines, stats=replace(lines.stats, nodes=lines.stats.nodes + spent))
    stats = SearchStats(plain.stats.nodes + lines.stats.nodes, time.perf_counter() - start)
    if lines.status == "closable":
        placements, why = _lines_closed(table, lines, readings, goal, plain.status)
        return Closure(
            "closable", placements, why, plain.backend, stats, False, goal=goal,
            notes=plain.notes, removals=lines.removals,
        )
    if lines.status == "impossible":
        why = (
            f"{plain_why} without the map cards, and an exhaustive search of every line (each"
            " map laid in every way, with each removal its reading allows) found no closure"
            f"{readings.hole_note}"
        )
        return Closure("impossible", (), why, plain.backend, stats, goal=goal, notes=plain.notes)
    how = lines.reason
    if "time limit" in how:
        how = limits.reason("time")  # the limit asked, not the time left
    why = f"{plain_why} without the map cards; with them: {how}"
    return Closure("unknown", (), why, plain.backend, stats, goal=goal, notes=plain.notes)


def _nodes_after(node_limit: int | None, spent: int) -> int | None:
    """What ``node_limit`` leaves after ``spent`` nodes (at least 1; None: no limit)."""
    return None if node_limit is None else max(1, node_limit - spent)


def _spent(node_limit: int | None, spent: int, limits: Limits, backend: str) -> Closure | None:
    """The line search's unknown answer when ``spent`` nodes used up ``node_limit``; else
    None."""
    if node_limit is None or spent < node_limit:
        return None
    return Closure("unknown", (), limits.reason("nodes"), backend)


def _lines_closed(
    table: Table, lines: Closure, readings: Readings, goal: str, plain: str
) -> tuple[tuple[Placement, ...], str]:
    """The placements of the line search's closure (``lines``), replayed by the rules, and
    why they answer (``plain``: the status of the search without the map cards)."""
    placements = lines.placements
    if lines.removals or any(is_map(p.card) for p in placements):
        replay(table, placements, lines.removals, readings, goal)
        taken = sum(len(r.cards) for r in lines.removals)
        how = f"{plural(taken, 'card')} taken off" if lines.removals else "the map laid last"
        if not lines.removals and not is_map(placements[-1].card):
            how = "the map taking nothing off"
        why = f"{len(placements)} cards close it with a map ({how}); {map_free_note(plain)}"
    else:
        # A closure without the maps that the search without them missed in its time.
        placements = certify(table, placements, goal)
        why = f"{len(placements)} cards close it without the map cards"
    return placements, why


def map_free_note(plain: str) -> str:
    """What the search without the map cards showed (its status ``plain``), for an answer that
    closes with a map: that none closes without them, or that it was cut short."""
    if plain == "impossible":
        return "no closure without the map cards"
    return "a closure without the map cards was not ruled out (that search was cut short)"


def relaxation(
    table: Table,
    codes: tuple[int, ...],
    readings: Readings,
    relaxed: Plain,
    budget: int,
    deadline: float | None,
    node_limit: int | None,
    area: Bounds | None,
) -> tuple[str | None, int]:
    """The relaxation within :data:`RELAXATION_SHARE` of the time left: its reason when it
    proves ``impossible`` (else None), and the nodes it spent."""
    until = None
    if deadline is not None:
        until = time.perf_counter() + RELAXATION_SHARE * (deadline - time.perf_counter())

    def left() -> Limits | None:
        seconds = None
        if until is not None:
            seconds = until - time.perf_counter()
            if seconds <= 0:
                return None
        return Limits(seconds, node_limit)

    return relaxed_reason(table, codes, readings, relaxed, budget, left, area)
