"""Closure with a map laid in a chain (BA-OPT-8 ``chain=no``): such a map takes nothing off.

Under ``chain=no`` only the first object of a chain acts, so a map laid as the dynamite's second
card or under the broken tool is a plain tunnel card. The closure search's maps always remove
(:mod:`~banditsolve.tunnels.solvers.mapclose`), so its ``impossible`` does not yet cover the
lines in which some maps are chained. :func:`chained_closure` asks those lines too: each choice
of maps laid as plain cards (the others removing as before) is one more question with those
maps' port sets as plain cards, and ``impossible`` stands only when every choice is proven
impossible. A closure found with a chained map is not a line the rules replay as it stands (it
needs the dynamite or the tool to carry the map, in an order the closure question does not
fix), so the answer is then ``unknown``, its reason naming the maps a closure lays in a chain.
"""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Callable
from dataclasses import replace
from itertools import product

from banditsolve.core.limits import Limits
from banditsolve.tunnels.bandida.ends import is_map
from banditsolve.tunnels.cards import PORT_MASK, card_kind, card_name
from banditsolve.tunnels.solvers.result import Closure, SearchStats

__all__ = ["CHAIN_KINDS", "MAX_CHOICES", "chain_possible", "chained_closure"]

#: The objects a map may be chained to (BA-OPT-8): the dynamite's second card, or a card laid
#: under the broken tool.
CHAIN_KINDS = frozenset({"dynamite", "broken_tool"})
#: The state phases inside such a chain (BA-OBJ-3, BA-OBJ-4): the next card laid is chained.
CHAIN_PHASES = frozenset({"dynamite", "tool"})
#: The most choices of chained maps asked; with more, ``impossible`` becomes ``unknown``.
MAX_CHOICES = 8

#: One closure question on checked inputs (its verdict only: no minimum): the cards and the
#: limits.
Ask = Callable[[tuple[int, ...], Limits], Closure]


def chain_possible(position: object, codes: tuple[int, ...]) -> bool:
    """True when a closure of ``position`` with ``codes`` may lay a map in a chain that takes
    nothing off: a Bandida state under ``chain=no`` (BA-OPT-8), a map among the cards, and a
    dynamite, or a broken tool whose cards are laid at once (``tool=this_turn``, BA-OPT-5), among
    them, or a chain under way (the state's phase)."""
    options = getattr(position, "options", None)
    if getattr(options, "chain", "yes") != "no" or not any(is_map(c) for c in codes):
        return False
    carriers = set(CHAIN_KINDS)
    if getattr(options, "tool", "this_turn") == "over_turns":
        carriers.discard("broken_tool")  # (its cards are laid over the next turns: no chain)
    phases = set(getattr(position, "phase", ()))
    return bool(phases & CHAIN_PHASES) or any(card_kind(c) in carriers for c in codes)


def _choices(codes: tuple[int, ...]) -> list[tuple[int, ...]]:
    """Every non-empty choice of map cards (a multiset of codes) laid as plain cards."""
    counts = sorted(Counter(c for c in codes if is_map(c)).items())
    out = []
    for taken in product(*(range(n + 1) for _code, n in counts)):
        chosen = tuple(code for (code, _n), k in zip(counts, taken, strict=True) for _ in range(k))
        if chosen:
            out.append(chosen)
    return out


def _as_plain(codes: tuple[int, ...], chosen: tuple[int, ...]) -> tuple[int, ...]:
    left = Counter(chosen)
    out = []
    for c in codes:
        if left[c]:
            left[c] -= 1
            out.append(c & PORT_MASK)
        else:
            out.append(c)
    return tuple(out)


def _named(chosen: tuple[int, ...]) -> str:
    return ", ".join(card_name(c) for c in chosen)


def chained_closure(
    first: Closure, codes: tuple[int, ...], limits: Limits, start: float, ask: Ask
) -> Closure:
    """``first``, the closure question's answer with every map removing, made to hold under
    ``chain=no`` when a chain is possible (:func:`chain_possible`): an ``impossible`` one is
    asked again for each choice of maps laid in a chain (their port sets as plain cards), and
    stands only when every choice is impossible too; else it becomes ``unknown``."""
    if first.status != "impossible":
        return first
    choices = _choices(codes)
    why = "under chain=no a map laid in a chain (BA-OPT-8) takes nothing off"
    if len(choices) > MAX_CHOICES:
        return replace(first, status="unknown", reason=f"{why}: too many maps to ask of")
    nodes = first.stats.nodes

    def spent() -> SearchStats:
        return replace(first.stats, nodes=nodes, seconds=time.perf_counter() - start)

    for chosen in choices:
        left = limits.after(start, nodes)
        if isinstance(left, str):
            lines = f"the lines with {_named(chosen)} in a chain"
            reason = f"{why}, and {limits.reason(left)} ({lines})"
            return replace(first, status="unknown", reason=reason, stats=spent())
        answer = ask(_as_plain(codes, chosen), left)
        nodes += answer.stats.nodes
        if answer.status == "impossible":
            continue
        if answer.status == "closable":
            reason = (
                f"{why}: the tunnel closes with {_named(chosen)} laid in a chain, which needs a"
                " dynamite or the broken tool to carry it"
            )
        else:
            reason = (
                f"{why}, and the lines with {_named(chosen)} in a chain were left undecided"
                " within the limits"
            )
        return replace(first, status="unknown", reason=reason, stats=spent())
    return replace(
        first,
        reason=f"{first.reason}; also with any map laid in a chain, taking nothing off (chain=no)",
        stats=spent(),
    )
