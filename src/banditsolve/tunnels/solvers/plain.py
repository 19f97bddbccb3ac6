"""The baseline closure search: depth first over every remaining card type and every legal
placement, in any order, with no memo and no bound but the card budget. Complete, and slow;
the tests and the benchmark measure the exact search against it."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence

from banditsolve.core.limits import CLOSURE_TIME_LIMIT, Budget, LimitReached, Limits
from banditsolve.tunnels.cards import CardLike
from banditsolve.tunnels.geometry import Placement
from banditsolve.tunnels.solvers.inputs import (
    cards_of,
    check_cards,
    check_limits,
    table_of,
)
from banditsolve.tunnels.solvers.result import Closure, SearchStats, Status, certify
from banditsolve.tunnels.table import Table, legal_placements


def plain_search(
    position: object,
    cards: Iterable[CardLike] | None = None,
    *,
    max_cards: int | None = None,
    time_limit: float | None = CLOSURE_TIME_LIMIT,
    node_limit: int | None = None,
    hypothetical: bool = False,
) -> Closure:
    """The baseline: depth-first over every remaining card type and every legal placement, in
    any order, with no memo and no bound but the card budget. Complete, and slow. Arguments as
    for :func:`~banditsolve.tunnels.solvers.closure.can_close`."""
    table = table_of(position)
    codes = cards_of(position, cards)
    limits = check_limits(max_cards, time_limit, node_limit)
    check_cards(position, table, codes, hypothetical)
    return search_plain(table, codes, max_cards, limits)


def search_plain(
    table: Table,
    codes: tuple[int, ...],
    max_cards: int | None,
    limits: Limits,
    required: Sequence[frozenset[int]] = (),
) -> Closure:
    """:func:`plain_search` on checked inputs (``required``: groups of codes of which a
    closure must lay one card each, a Bandida mode's goal)."""
    budget_nodes = Budget(limits)
    counts = Counter(codes)
    budget = len(codes) if max_cards is None else min(max_cards, len(codes))
    path: list[Placement] = []

    given = Counter(codes)

    def dfs(t: Table, left: int) -> bool:
        budget_nodes.tick()
        if not t.exit_count:
            return not any(all(counts[c] >= given[c] for c in g) for g in required)
        if left == 0:
            return False
        for code in sorted(counts):
            if counts[code] <= 0:
                continue
            for p in legal_placements(t, code):
                counts[code] -= 1
                path.append(p)
                if dfs(t.place(p, check=False), left - 1):
                    counts[code] += 1
                    return True
                path.pop()
                counts[code] += 1
        return False

    def done(status: Status, placements: tuple[Placement, ...], reason: str) -> Closure:
        stats = SearchStats(budget_nodes.nodes, budget_nodes.elapsed)
        return Closure(
            status,
            placements,
            reason,
            "plain",
            stats,
            limits=limits,
            max_cards=max_cards,
        )

    try:
        found = dfs(table, budget)
    except LimitReached as exc:
        return done("unknown", (), exc.reason)
    if found:
        return done("closable", certify(table, path), "found by plain search")
    return done("impossible", (), f"plain search exhausted ({budget_nodes.nodes} nodes)")
