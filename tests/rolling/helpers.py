"""Building Rolling Bandits positions for tests: a train from short texts."""

from __future__ import annotations

from collections.abc import Sequence

from banditsolve.rolling.edition import LETTERS
from banditsolve.rolling.rules import NO_FACES, parse_faces, validate
from banditsolve.rolling.state import Group, Held, Options, Phase, State, Wagon, Won


def group(text: str | None) -> Group | None:
    """``"R3"`` (3 hoard revolvers), ``"M2+1"`` (2 hoard and 1 mercenary mask), ``"R5~2"``
    (5 revolvers, 2 of them rolled as such and 3 jokers)."""
    if text is None or text == "-":
        return None
    sym = LETTERS.index(text[0])
    rest = text[1:]
    natural = None
    if "~" in rest:
        rest, n = rest.split("~")
        natural = int(n)
    mercs = 0
    if "+" in rest:
        rest, m = rest.split("+")
        mercs = int(m)
    b = int(rest)
    return Group(sym, b, mercs, b + mercs if natural is None else natural)


def position(
    wagons: Sequence[tuple[int, str | None, Sequence[str | None]]],
    *,
    loco: Sequence[str | None] | None = None,
    phase: Phase = "attack",
    to_move: int = 0,
    roll: str = "-",
    mroll: str = "-",
    trunks: Sequence[Sequence[Held]] | None = None,
    usable: int | None = None,
    options: Options | None = None,
    reserve: Sequence[int] | None = None,
    laid: bool = False,
) -> State:
    """A position: ``wagons`` behind the locomotive as (need, trunk letter, groups per player);
    ``loco`` the groups on the locomotive (``None``: no locomotive, it was taken by player 0)."""
    players = len(wagons[0][2]) if wagons else len(loco or ())
    held = tuple(tuple(t) for t in (trunks or [()] * players))
    state = State(
        players=players,
        edition="default",
        options=options or Options(),
        phase=phase,
        to_move=to_move,
        train=_train(wagons, loco),
        wagons=len(wagons),
        won=_won(players, loco),
        trunks=held,
        reserve=tuple(reserve or [0] * players),
        roll=_faces(roll),
        mroll=_faces(mroll),
        laid=laid,
        usable=len(held[to_move]) if usable is None else usable,
    )
    validate(state)
    return state


def _train(
    wagons: Sequence[tuple[int, str | None, Sequence[str | None]]],
    loco: Sequence[str | None] | None,
) -> tuple[Wagon, ...]:
    """The train of :func:`position`: the locomotive (if ``loco`` is given), then ``wagons``."""
    train: list[Wagon] = []
    if loco is not None:
        train.append(Wagon(0, 5, 5, True, None, tuple(group(g) for g in loco)))
    for i, (need, trunk, groups) in enumerate(wagons, start=1):
        t = None if trunk is None else LETTERS.index(trunk)
        train.append(Wagon(i, need, need, False, t, tuple(group(g) for g in groups)))
    return tuple(train)


def _won(players: int, loco: Sequence[str | None] | None) -> tuple[tuple[Won, ...], ...]:
    """The wagons won in :func:`position`: none, but the locomotive, player 0's, when there is
    no ``loco``."""
    won_t: tuple[tuple[Won, ...], ...] = tuple(() for _ in range(players))
    if loco is None:
        won_t = ((Won(0, 5, 5, True),), *won_t[1:])
    return won_t


def _faces(text: str) -> tuple[int, ...]:
    """Rolled faces from their text, ``-`` for none."""
    return parse_faces(text) if text != "-" else NO_FACES
