"""Generated Rolling Bandits safety questions for the agreement tests: positions built at random
(gangs, trunks on the train, trunks in hand, rule options) and positions of random games."""

from __future__ import annotations

import random
from collections.abc import Sequence

from banditsolve.core.play import sample_chance
from banditsolve.errors import BanditsolveError
from banditsolve.rolling.game import GAME, RollingBandits
from banditsolve.rolling.rules import apply, legal_actions
from banditsolve.rolling.state import OPTION_SET, State
from tests.rolling import reference

TINY = GAME.with_edition(reference.TINY)
TINYX = GAME.with_edition(reference.TINY_TRUNKS)
Case = tuple[State, int, int]  # position, wagon, player


def _gang(rng: random.Random, wagons: int, dice: int) -> dict[int, str]:
    length = rng.randrange(0, min(wagons, dice, 5) + 1)
    if not length:
        return {}
    start = rng.randrange(0, wagons - length + 1)
    symbols = rng.sample("RMHBS", length)
    left = dice - length
    out: dict[int, str] = {}
    for k in range(length):
        extra = rng.randrange(0, left + 1)
        left -= extra
        out[start + k] = f"{symbols[k]}{1 + extra}"
    return out


#: Each rule option's values, the default first.
OPTION_VALUES = OPTION_SET.names()


def _options(rng: random.Random, pool: Sequence[str]) -> str:
    chosen = [name for name in pool if rng.random() < 0.3]
    parts = [f"{n}:{rng.choice(OPTION_VALUES[n][1:])}" for n in chosen]
    return (" opt=" + ",".join(parts)) if parts else ""


OPTION_POOL = ("jokers", "trunk_count", "trunk_jokers", "front", "locomotive", "cut", "restart",
               "keep")


def _train(
    rng: random.Random, gangs: list[dict[int, str]], n: int, loco_need: int = 3,
    needs: tuple[int, ...] = (1, 2), trunk_chance: float = 0.35,
) -> list[str]:
    """The locomotive and ``n`` wagons in the notation, with the ``gangs`` on them: each wagon's
    need drawn from ``needs``, a trunk on it with ``trunk_chance``."""
    train = []
    for i in range(n + 1):
        groups = "|".join(g.get(i, "-") for g in gangs)
        if i == 0:
            train.append(f"0:{loco_need}/{loco_need}L:-:{groups}")
        else:
            need = rng.choice(needs)
            trunk = rng.choice("RMHBS") if rng.random() < trunk_chance else "-"
            train.append(f"{i}:{need}/{need}:{trunk}:{groups}")
    return train


def _held(
    rng: random.Random, players: int, q: int, chance: float | None
) -> tuple[list[str], int]:
    """Each player's trunks in hand in the notation and how many are usable: one or two for
    ``q`` with ``chance`` (``None``: none, and no number drawn)."""
    held = ["-"] * players
    usable = 0
    if chance is not None and rng.random() < chance:
        tiles = [f"{rng.choice('RMHBS')}1{rng.choice('ar')}" for _ in range(rng.randint(1, 2))]
        held[q] = ",".join(tiles)
        usable = len(tiles)
    return held, usable


def _usable(usable: int) -> str:
    """The notation's ``usable=`` field, none for 0."""
    return f" usable={usable}" if usable else ""


def built(
    rng: random.Random,
    *,
    edition: str = "tinyx",
    players: int = 2,
    wagons: tuple[int, int] = (2, 4),
    options: Sequence[str] = OPTION_POOL,
    trunk_chance: float = 0.4,
    held_chance: float = 0.4,
) -> Case | None:
    """One built question (``None`` if the drawn position is not a valid one)."""
    dice = 3 if edition.startswith("tiny") else 7
    loco_need = 3 if edition.startswith("tiny") else 5
    needs = (1, 2) if edition.startswith("tiny") else (1, 2, 3, 4)
    n = rng.randint(*wagons)
    gangs = [_gang(rng, n + 1, dice) for _ in range(players)]
    train = _train(rng, gangs, n, loco_need, needs, trunk_chance)
    q = rng.randrange(players)
    held, usable = _held(rng, players, q, held_chance if edition == "tinyx" else None)
    text = (
        f"rb ed={edition} n={players} phase=start turn={q} wagons={n} train={','.join(train)} "
        f"won={'|'.join('-' * 1 for _ in range(players))} trunks={'|'.join(held)}"
        + _usable(usable)
        + _options(rng, options)
    )
    try:
        state = GAME.from_notation(text)
    except BanditsolveError:
        return None
    others = [r for r in range(players) if r != q]
    p = rng.choice(others)
    # only a wagon p holds (would steal now) is asked about: any other is refused (RB-SAFE-1)
    mine = [c.id for c in state.train if state.stealer(c) == p]
    if not mine:
        return None
    return state, rng.choice(mine), p


def built_cases(count: int, seed: int, **kw: object) -> list[Case]:
    rng = random.Random(seed)
    out: list[Case] = []
    while len(out) < count:
        case = built(rng, **kw)  # type: ignore[arg-type]
        if case is not None:
            out.append(case)
    return out


def game_cases(
    game: RollingBandits,
    count: int,
    seed: int,
    players: int = 2,
    options: dict[str, str] | None = None,
) -> list[Case]:
    """Positions of random games (any phase but set-up) with a wagon the previous player holds
    (would steal if their turn began now)."""
    rng = random.Random(seed)
    out: list[Case] = []
    while len(out) < count:
        state = game.new_game(players, options, seed=rng.randrange(10**6))
        for _ in range(300):
            if state.is_terminal or len(out) >= count:
                break
            prev = (state.to_move - 1) % state.players
            if rng.random() < 0.2 and state.phase not in ("deal-wagon", "deal-trunk"):
                mine = [c.id for c in state.train if state.stealer(c) == prev]
                if mine:
                    out.append((state, rng.choice(mine), prev))
            if state.is_chance:
                action = sample_chance(game, state, rng)
            else:
                acts = legal_actions(state)
                action = acts[rng.randrange(len(acts))]
            state = apply(state, action)
    return out


def _own_gang(rng: random.Random, w: int) -> dict[int, str]:
    """The asked player's gang in :func:`far`: two or three dice on wagon ``w``, sometimes one
    of another symbol on the wagon behind it."""
    extra = {w + 1: f"{rng.choice('RMHBS')}1"} if rng.random() < 0.3 else {}
    mine = rng.choice("RMHBS")
    while any(v[0] == mine for v in extra.values()):
        mine = rng.choice("RMHBS")
    return {w: f"{mine}{3 - len(extra) - rng.randrange(2)}", **extra}


def _far_gang(rng: random.Random, w: int, n: int) -> dict[int, str]:
    """An opponent's gang in :func:`far`: up to two single dice from a random wagon behind
    (or next to) wagon ``w``, on the train of ``n`` wagons."""
    start = rng.randint(w - 1, n)
    length = rng.randint(0, min(2, n - start + 1))
    symbols = rng.sample("RMHBS", length)
    g = {}
    for k in range(length):
        if start + k >= 0 and start + k <= n:
            g[start + k] = f"{symbols[k]}1"
    return g


def far(
    rng: random.Random, players: int, options: Sequence[str] = OPTION_POOL, merc: bool = False
) -> Case | None:
    """A question on a longer tinyx train where the player's wagon is near the front and the
    opponents' gangs lie behind it at random distances: safe and unsafe answers both occur
    (three dice per colour, so every wagon between costs an opponent one of few dice). With
    ``merc`` (two players), the mercenary variant with a reserve of 0 to 3 for each."""
    n = rng.randint(5, 8)
    p = rng.randrange(players)
    w = rng.randint(1, 3)
    gangs = [_own_gang(rng, w) if r == p else _far_gang(rng, w, n) for r in range(players)]
    wagons = _train(rng, gangs, n)
    q = (p + 1 + rng.randrange(players - 1)) % players
    held, usable = _held(rng, players, q, 0.35)
    text = (
        f"rb ed=tinyx n={players} phase=start turn={q} wagons={n} train={','.join(wagons)} "
        f"won={'|'.join('-' for _ in range(players))} trunks={'|'.join(held)}"
        + _usable(usable)
        + _options(rng, options)
    )
    if merc:
        text += ",mercenaries:on" if " opt=" in text else " opt=mercenaries:on"
        text += f" reserve={rng.randrange(4)}|{rng.randrange(4)}"
    try:
        state = GAME.from_notation(text)
    except BanditsolveError:
        return None
    wagon = state.wagon(w)
    if wagon is None or state.stealer(wagon) != p:  # only a wagon p holds (RB-SAFE-1)
        return None
    return state, w, p


def far_cases(count: int, seed: int, players: int = 2, **kw: object) -> list[Case]:
    rng = random.Random(seed)
    out: list[Case] = []
    while len(out) < count:
        case = far(rng, players, **kw)  # type: ignore[arg-type]
        if case is not None:
            out.append(case)
    return out


def _merc_gang(rng: random.Random, n: int) -> tuple[dict[int, str], int]:
    """A gang of hoard dice and mercenaries on a train of ``n`` wagons (at most 3 of each), and
    the mercenaries left for the reserve."""
    length = rng.randrange(0, min(n + 1, 3) + 1)
    start = rng.randrange(0, n + 2 - length) if length else 0
    symbols = rng.sample("RMHBS", length)
    hoard, mercs = 3, rng.randrange(0, 4)
    g = {}
    for k in range(length):
        b = min(hoard, rng.randrange(0, 3))
        m = min(mercs, rng.randrange(0, 2))
        if b + m == 0:
            b = 1 if hoard else 0
            m = 0 if hoard else 1
        if b + m == 0 or b > hoard or m > mercs:
            continue
        hoard, mercs = hoard - b, mercs - m
        g[start + k] = f"{symbols[k]}{b}" + (f"+{m}" if m else "")
    return g, mercs


def _merc_options(rng: random.Random) -> str:
    """The rule options of :func:`merc`: mercenaries on, sometimes theft_mercenaries, and the
    others at random."""
    opts = "mercenaries:on"
    if rng.random() < 0.5:
        opts += f",theft_mercenaries:{rng.choice(('hoard', 'any'))}"
    extra = _options(rng, OPTION_POOL)
    if extra:
        opts += "," + extra[len(" opt="):]
    return opts


def _into_the_turn(rng: random.Random, state: State) -> State | None:
    """Half the time, play into the turn: a roll with some mercenaries, maybe its faces
    (``None`` if that leaves a chance node other than a roll's)."""
    if rng.random() < 0.5:
        rolls = [a for a in legal_actions(state) if str(a).startswith("roll")]
        state = apply(state, rng.choice(rolls))
        while state.is_chance and rng.random() < 0.6:
            state = apply(state, sample_chance(GAME, state, rng))
        if state.is_chance and state.phase not in ("roll", "mroll"):
            return None
    return state


def merc(rng: random.Random) -> Case | None:
    """A two-player question of the mercenary variant on a tinyx train: gangs of hoard dice and
    mercenaries, reserves, trunks, the theft_mercenaries option and the others at random; the
    mover is in any phase of their turn before laying (start, a roll in the air, an attack)."""
    n = rng.randint(2, 5)
    q = rng.randrange(2)
    p = 1 - q
    gangs: list[dict[int, str]] = []
    reserve = []
    for _ in range(2):
        gang, mercs = _merc_gang(rng, n)
        gangs.append(gang)
        reserve.append(rng.randrange(0, mercs + 1))
    wagons = _train(rng, gangs, n)
    held, usable = _held(rng, 2, q, 0.35)
    text = (
        f"rb ed=tinyx n=2 phase=start turn={q} wagons={n} train={','.join(wagons)} "
        f"won=-|- trunks={'|'.join(held)} reserve={reserve[0]}|{reserve[1]}"
        + _usable(usable)
        + f" opt={_merc_options(rng)}"
    )
    try:
        state = GAME.from_notation(text)
    except BanditsolveError:
        return None
    mine = [c.id for c in state.train if c.groups[p] is not None]
    if not mine:
        return None
    into = _into_the_turn(rng, state)
    if into is None:
        return None
    state = into
    if state.wagon(mine[0]) is None and not mine[1:]:
        return None
    alive = [c for c in mine if _holds(state, c, p)]
    if not alive:
        return None
    return state, rng.choice(alive), p


def _holds(state: State, wagon: int, player: int) -> bool:
    """Whether ``player`` holds ``wagon`` (would steal it now): what ``is_safe`` asks about."""
    w = state.wagon(wagon)
    return w is not None and state.stealer(w) == player


def merc_cases(count: int, seed: int) -> list[Case]:
    rng = random.Random(seed)
    out: list[Case] = []
    while len(out) < count:
        case = merc(rng)
        if case is not None:
            out.append(case)
    return out
