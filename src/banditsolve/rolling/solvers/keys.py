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
free symbols with equal profiles are interchangeable and may get either name. Fields that
cannot change any future are left out (scores; ``laid`` when no roll-again trunk can be used;
``joker_wagon`` unless option ``jokers=together``).

:func:`roll_orbits` groups the outcomes of a roll node by that symmetry: one representative per
class, with the summed probability (exact, as a :class:`~fractions.Fraction`). A search that
ends with the active player's turn (``turn=True``) may also free the symbols of trunks out of
their reach this turn.
"""

from __future__ import annotations

import itertools
import math
from fractions import Fraction

from banditsolve.rolling.rules import ROLL_AGAIN, Rolled, roll_outcomes
from banditsolve.rolling.state import Group, State, Wagon

Key = tuple[object, ...]


def _fixed_symbols(state: State, turn: bool = False) -> frozenset[int]:
    """The symbols of the trunks on the train; with ``turn``, only of those the active player
    can reach in the rest of their turn: a gang never holds more than five groups, so every
    wagon they can lay on this turn lies at most five wagons in front of their gang's front (or,
    before rolling, of the rear, where a gang taken back starts again)."""
    if not turn or state.options.restart == "any":
        return frozenset(c.trunk for c in state.train if c.trunk is not None)
    p = state.to_move
    rear = len(state.train) - 1
    front = rear + 1
    for i, wagon in enumerate(state.train):
        if wagon.groups[p] is not None:
            front = i
            break
    low = front - 5
    if state.phase == "start":
        low = min(low, rear + 1 - 5)
    return frozenset(
        c.trunk for i, c in enumerate(state.train) if c.trunk is not None and i >= low
    )


def _profiles(
    state: State, fixed: frozenset[int], turn: bool = False
) -> dict[int, tuple[object, ...]]:
    """Each free symbol's profile: its groups (wagon index, player, sizes), the wagons with a trunk
    of it (not with ``turn``: those trunks are out of reach), and the rolled counts."""
    where: dict[int, list[tuple[int, int, int, int, int]]] = {s: [] for s in range(5)}
    trunks: dict[int, list[int]] = {s: [] for s in range(5)}
    for i, wagon in enumerate(state.train):
        if wagon.trunk is not None and not turn:
            trunks[wagon.trunk].append(i)
        for q, g in enumerate(wagon.groups):
            if g is not None:
                where[g.symbol].append((i, q, g.bandits, g.mercs, g.natural))
    return {
        s: (tuple(where[s]), tuple(trunks[s]), state.roll[s], state.mroll[s])
        for s in range(5)
        if s not in fixed
    }


def symbol_map(state: State, fixed: frozenset[int]) -> tuple[int, ...]:
    """A renaming of the symbols (index: old symbol, value: new): the ``fixed`` symbols keep
    their name; free ones are renamed onto the free names in the order of their profiles."""
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
    """``state`` with its symbols renamed (the result is only ever a key)."""
    def group(g: Group | None) -> Group | None:
        return None if g is None else Group(mapping[g.symbol], g.bandits, g.mercs, g.natural)

    train = tuple(
        Wagon(
            c.id,
            c.need,
            c.points,
            c.loco,
            None if c.trunk is None else mapping[c.trunk],
            tuple(group(g) for g in c.groups),
        )
        for c in state.train
    )
    return state.replace(
        train=train, roll=_faces(state.roll, mapping), mroll=_faces(state.mroll, mapping)
    )


def position_key(state: State) -> Key:
    """A hashable key equal for positions with the same futures (see the module notes)."""
    fixed = _fixed_symbols(state)
    if len(fixed) < 4:
        mapping = symbol_map(state, fixed)
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
    return (
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
        state.joker_wagon if state.options.jokers == "together" else None,
        state.usable,
        state.pending,
        state.resume,
    )


_IDENTITY = (0, 1, 2, 3, 4)


def _classes(state: State, turn: bool = False) -> list[list[int]]:
    """Free symbols in classes of equal profile (interchangeable before the roll lands)."""
    fixed = _fixed_symbols(state, turn)
    profiles = _profiles(state, fixed, turn)
    by: dict[tuple[object, ...], list[int]] = {}
    for s, prof in profiles.items():
        by.setdefault(prof, []).append(s)
    return [c for c in by.values() if len(c) > 1]


def roll_orbits(state: State, n: int, *, turn: bool = False) -> list[tuple[Rolled, Fraction]]:
    """The outcomes of rolling ``n`` dice at ``state``, one per class of outcomes equal up to
    interchangeable free symbols, with the class's total probability. Within each class of
    interchangeable symbols the representative's counts do not increase with the symbol."""
    classes = _classes(state, turn)
    out: list[tuple[Rolled, Fraction]] = []
    for faces, p in roll_outcomes(n):
        weight = 1
        ok = True
        for cls in classes:
            counts = [faces[s] for s in cls]
            if any(a < b for a, b in itertools.pairwise(counts)):
                ok = False
                break
            perms = math.factorial(len(counts))
            for k in set(counts):
                perms //= math.factorial(counts.count(k))
            weight *= perms
        if ok:
            out.append((Rolled(faces), p * weight))
    return out
