"""Cheap hashable keys for Rolling Bandits searches, with the symmetry of free symbols.

A symbol is *fixed* when a trunk of that symbol is still on the train (opening it draws from that
symbol's tiles, which differ between symbols); every other symbol is *free*. Nothing in the rules
tells free symbols apart: the laying rules only ask whether two dice show the same symbol, the
steal only counts dice, and a held trunk's symbol matters only for the tiles still unseen of that
symbol, which matter only while a trunk of that symbol is on the train. So two positions that
differ by a permutation of free symbols have the same futures up to that permutation, and the
same answer to every question the solvers ask (which never name a symbol, except a trunk's).

:func:`position_key` writes a position with its free symbols renamed in a canonical order (by
their *profile*: where they stand on the train and how many the active player holds rolled);
free symbols with equal profiles are interchangeable and may get either name. Fields that cannot
change any future are left out (scores, unless asked for; ``laid`` when no roll-again trunk can
be used; ``joker_car`` unless option ``jokers=together``).

:func:`roll_orbits` groups the outcomes of a roll node by that symmetry: one representative per
class, with the summed probability (exact, as a :class:`~fractions.Fraction`).
"""

from __future__ import annotations

import math
from fractions import Fraction

from banditsolve.rolling.rules import ROLL_AGAIN, Rolled, roll_outcomes
from banditsolve.rolling.state import Car, Group, State

Key = tuple[object, ...]


def _fixed_symbols(state: State) -> frozenset[int]:
    return frozenset(c.trunk for c in state.train if c.trunk is not None)


def _profiles(state: State, fixed: frozenset[int]) -> dict[int, tuple[object, ...]]:
    """Each free symbol's profile: its groups (car index, player, sizes) and rolled counts."""
    where: dict[int, list[tuple[int, int, int, int, int]]] = {s: [] for s in range(5)}
    for i, car in enumerate(state.train):
        for q, g in enumerate(car.groups):
            if g is not None:
                where[g.symbol].append((i, q, g.bandits, g.mercs, g.natural))
    return {
        s: (tuple(where[s]), state.roll[s], state.mroll[s]) for s in range(5) if s not in fixed
    }


def symbol_map(state: State) -> tuple[int, ...]:
    """A renaming of the symbols (index: old symbol, value: new): fixed symbols keep their
    name; free ones are renamed onto the free names in the order of their profiles."""
    fixed = _fixed_symbols(state)
    profiles = _profiles(state, fixed)
    free_names = sorted(profiles)
    order = sorted(profiles, key=lambda s: profiles[s])
    mapping = list(range(5))
    for new, old in zip(free_names, order, strict=True):
        mapping[old] = new
    return tuple(mapping)


def _faces(faces: tuple[int, ...], mapping: tuple[int, ...]) -> tuple[int, ...]:
    out = [0] * 6
    for s in range(5):
        out[mapping[s]] = faces[s]
    out[5] = faces[5]
    return tuple(out)


def _relabel(state: State, mapping: tuple[int, ...]) -> State:
    def group(g: Group | None) -> Group | None:
        return None if g is None else Group(mapping[g.symbol], g.bandits, g.mercs, g.natural)

    train = tuple(
        Car(c.id, c.need, c.points, c.loco, c.trunk, tuple(group(g) for g in c.groups))
        for c in state.train
    )
    return state.replace(
        train=train, roll=_faces(state.roll, mapping), mroll=_faces(state.mroll, mapping)
    )


def position_key(state: State, *, scores: bool = False) -> Key:
    """A hashable key equal for positions with the same futures (see the module notes).
    ``scores``: also keep every player's points, cars and trunks taken (a turn value counts
    them)."""
    fixed = _fixed_symbols(state)
    if len(fixed) < 4:
        mapping = symbol_map(state)
        if mapping != _IDENTITY:
            state = _relabel(state, mapping)
    p = state.to_move
    usable = state.trunks[p][: state.usable] if 0 <= p < state.players else ()
    can_reroll = any(h.content == ROLL_AGAIN and not h.used for h in usable)
    held = tuple(tuple((h.content, h.used) for h in ts) for ts in state.trunks)
    opened = tuple(
        sorted(
            (h.symbol, h.value, h.content)
            for ts in (*state.trunks, state.discarded)
            for h in ts
            if h.symbol in fixed
        )
    ) if fixed else ()
    key: Key = (
        state.phase,
        p,
        state.train,
        held,
        opened,
        state.reserve,
        state.roll,
        state.mroll,
        state.airborne,
        state.laid if can_reroll else False,
        state.joker_car if state.options.jokers == "together" else None,
        state.usable,
        state.pending,
        state.resume,
    )
    if scores:
        key = (
            *key,
            state.scores,
            tuple(frozenset(w.id for w in ws) for ws in state.won),
            tuple(len(ts) for ts in state.trunks),
        )
    return key


_IDENTITY = (0, 1, 2, 3, 4)


def _classes(state: State) -> list[list[int]]:
    """Free symbols in classes of equal profile (interchangeable before the roll lands)."""
    fixed = _fixed_symbols(state)
    profiles = _profiles(state, fixed)
    by: dict[tuple[object, ...], list[int]] = {}
    for s, prof in profiles.items():
        by.setdefault(prof, []).append(s)
    return [c for c in by.values() if len(c) > 1]


def roll_orbits(state: State, n: int) -> list[tuple[Rolled, Fraction]]:
    """The outcomes of rolling ``n`` dice at ``state``, one per class of outcomes equal up to
    interchangeable free symbols, with the class's total probability. Within each class of
    interchangeable symbols the representative's counts do not increase with the symbol."""
    classes = _classes(state)
    out: list[tuple[Rolled, Fraction]] = []
    for faces, p in roll_outcomes(n):
        weight = 1
        ok = True
        for cls in classes:
            counts = [faces[s] for s in cls]
            if any(a < b for a, b in zip(counts, counts[1:], strict=False)):
                ok = False
                break
            perms = math.factorial(len(counts))
            for k in set(counts):
                perms //= math.factorial(counts.count(k))
            weight *= perms
        if ok:
            out.append((Rolled(faces), p * weight))
    return out
