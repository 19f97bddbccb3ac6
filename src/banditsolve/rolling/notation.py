"""The one-line notation and the JSON form of a Rolling Bandits state (RB-NOTE-*).

The notation is a line of ``key=value`` fields after the word ``rb``::

    rb ed=default n=2 phase=attack turn=0 wagons=10 train=0:5/5L:-:-|-,1:2/2:R:M2|- ...

- ``ed``: the edition's name (``default``, or one made known by ``with_edition``) or the path of
  an edition JSON file (``ed=./mine.json``; see :func:`.edition.lookup`), written back as given.
- ``train``: the cars front to back, ``,``-separated: ``id:need/points[L]:trunk:groups`` where
  ``L`` marks the locomotive, ``trunk`` is the symbol on the trunk still there (or ``-``) and
  ``groups`` gives each player's group, ``|``-separated: ``-`` or symbol and hoard dice, then
  ``+m`` mercenaries, then ``~k`` when only ``k`` of the dice rolled the symbol (``M2+1~2``).
- ``won``: each player's cars (``id:need/points[L]``), ``trunks``: each player's trunks
  (``R2b``: symbol, value, content letter; ``*`` once used); players ``|``-separated, ``-`` for
  none.
- Fields left at their defaults are left out: ``opt`` (changed rule options), ``reserve``,
  ``roll``/``mroll`` (dice rolled and not laid), ``air`` (dice in the air), ``laid``, ``jc``,
  ``usable``, ``pending`` (``3!`` for a trunk opened before an outright theft), ``resume``,
  ``discarded``.
"""

from __future__ import annotations

from typing import Any

from banditsolve.core.io import check_keys, expect_int, expect_object, load_json, read_text
from banditsolve.core.text import excerpt
from banditsolve.errors import BanditsolveError, NotationError
from banditsolve.rolling.edition import (
    CONTENT_LETTERS,
    CONTENTS,
    JOKER,
    LETTERS,
    SYMBOLS,
    Edition,
    lookup,
)
from banditsolve.rolling.rules import NO_FACES, faces_text, parse_faces
from banditsolve.rolling.state import (
    OPTION_VALUES,
    PHASES,
    Car,
    Group,
    Held,
    Options,
    Phase,
    State,
    Won,
)

# -- text -----------------------------------------------------------------------------------------


def _group_text(g: Group | None) -> str:
    if g is None:
        return "-"
    text = f"{LETTERS[g.symbol]}{g.bandits}"
    if g.mercs:
        text += f"+{g.mercs}"
    if g.natural != g.size:
        text += f"~{g.natural}"
    return text


def _car_text(c: Car) -> str:
    trunk = "-" if c.trunk is None else LETTERS[c.trunk]
    groups = "|".join(_group_text(g) for g in c.groups)
    return f"{c.id}:{c.need}/{c.points}{'L' if c.loco else ''}:{trunk}:{groups}"


def _won_text(w: Won) -> str:
    return f"{w.id}:{w.need}/{w.points}{'L' if w.loco else ''}"


def held_text(h: Held) -> str:
    return f"{LETTERS[h.symbol]}{h.value}{CONTENT_LETTERS[h.content]}{'*' if h.used else ''}"


def _list(items: list[str]) -> str:
    return ",".join(items) or "-"


def format_state(state: State) -> str:
    """The one-line notation of ``state``."""
    parts = [
        "rb",
        f"ed={state.edition}",
        f"n={state.players}",
    ]
    changed = state.options.changed()
    if changed:
        parts.append("opt=" + ",".join(f"{k}:{v}" for k, v in changed.items()))
    parts += [
        f"phase={state.phase}",
        f"turn={state.to_move}",
        f"wagons={state.wagons}",
        "train=" + _list([_car_text(c) for c in state.train]),
        "won=" + "|".join(_list([_won_text(w) for w in ws]) for ws in state.won),
        "trunks=" + "|".join(_list([held_text(h) for h in hs]) for hs in state.trunks),
    ]
    if any(state.reserve):
        parts.append("reserve=" + "|".join(str(r) for r in state.reserve))
    if any(state.roll):
        parts.append(f"roll={faces_text(state.roll)}")
    if any(state.mroll):
        parts.append(f"mroll={faces_text(state.mroll)}")
    if state.airborne != (0, 0):
        parts.append(f"air={state.airborne[0]}/{state.airborne[1]}")
    if state.laid:
        parts.append("laid=1")
    if state.joker_car is not None:
        parts.append(f"jc={state.joker_car}")
    if state.usable:
        parts.append(f"usable={state.usable}")
    if state.pending:
        parts.append("pending=" + ",".join(f"{c}{'!' if t else ''}" for c, t in state.pending))
    if state.resume != "attack":
        parts.append(f"resume={state.resume}")
    if state.discarded:
        parts.append("discarded=" + ",".join(held_text(h) for h in state.discarded))
    return " ".join(parts)


def _int(text: str, where: str, low: int = 0, high: int = 99) -> int:
    if not text.isdigit() or len(text) > 3:
        raise NotationError(f"{where}: {excerpt(text, 20)} is not a whole number")
    value = int(text)
    if not low <= value <= high:
        raise NotationError(f"{where}: {value} is not between {low} and {high}")
    return value


def _sym(text: str, where: str) -> int:
    i = LETTERS.find(text)
    if len(text) != 1 or i < 0 or i == JOKER:
        raise NotationError(f"{where}: {excerpt(text, 10)} is not a bandit symbol ({LETTERS[:5]})")
    return i


def _parse_group(text: str, where: str) -> Group | None:
    if text == "-":
        return None
    if not text:
        raise NotationError(f"{where}: empty group")
    symbol = _sym(text[0], where)
    rest = text[1:]
    natural: int | None = None
    if "~" in rest:
        rest, nat = rest.split("~", 1)
        natural = _int(nat, where)
    mercs = 0
    if "+" in rest:
        rest, m = rest.split("+", 1)
        mercs = _int(m, where)
    bandits = _int(rest, where)
    size = bandits + mercs
    if size == 0:
        raise NotationError(f"{where}: a group holds at least one die")
    if natural is None:
        natural = size
    if natural > size:
        raise NotationError(f"{where}: more natural dice than dice")
    return Group(symbol, bandits, mercs, natural)


def _parse_car(text: str, players: int, where: str) -> Car:
    fields = text.split(":")
    if len(fields) != 4:
        raise NotationError(f"{where}: a car is id:need/points:trunk:groups, not {excerpt(text)}")
    car_id = _int(fields[0], where)
    np = fields[1]
    loco = np.endswith("L")
    if loco:
        np = np[:-1]
    if np.count("/") != 1:
        raise NotationError(f"{where}: need/points expected, not {excerpt(fields[1], 10)}")
    need_text, points_text = np.split("/")
    need, points = _int(need_text, where, 1), _int(points_text, where)
    trunk = None if fields[2] == "-" else _sym(fields[2], where)
    groups = fields[3].split("|")
    if len(groups) != players:
        raise NotationError(f"{where}: {len(groups)} groups for {players} players")
    return Car(car_id, need, points, loco, trunk, tuple(_parse_group(g, where) for g in groups))


def _parse_won(text: str, where: str) -> Won:
    fields = text.split(":")
    if len(fields) != 2:
        raise NotationError(f"{where}: a won car is id:need/points, not {excerpt(text)}")
    np = fields[1]
    loco = np.endswith("L")
    np = np[:-1] if loco else np
    if np.count("/") != 1:
        raise NotationError(f"{where}: need/points expected")
    need, points = np.split("/")
    return Won(_int(fields[0], where), _int(need, where, 1), _int(points, where), loco)


def _parse_held(text: str, where: str) -> Held:
    used = text.endswith("*")
    body = text[:-1] if used else text
    if len(body) != 3:
        raise NotationError(
            f"{where}: a trunk is symbol, value, content (R2b), not {excerpt(text)}"
        )
    content = CONTENT_LETTERS.find(body[2])
    if content < 0:
        raise NotationError(f"{where}: unknown trunk content {excerpt(body[2], 5)}")
    return Held(_sym(body[0], where), _int(body[1], where, 0, 9), content, used)


def _per_player(text: str, players: int, where: str) -> list[str]:
    parts = text.split("|")
    if len(parts) != players:
        raise NotationError(f"{where}: {len(parts)} entries for {players} players")
    return parts


def _items(text: str) -> list[str]:
    return [] if text == "-" else text.split(",")


_KEYS = (
    "ed",
    "n",
    "opt",
    "phase",
    "turn",
    "wagons",
    "train",
    "won",
    "trunks",
    "reserve",
    "roll",
    "mroll",
    "air",
    "laid",
    "jc",
    "usable",
    "pending",
    "resume",
    "discarded",
)
_REQUIRED = ("ed", "n", "phase", "turn", "wagons", "train", "won", "trunks")


#: Positions already read, by text and edition (states are immutable, so one may be shared).
_PARSED: dict[tuple[str, int], tuple[Edition, State]] = {}


def parse_state(text: str) -> State:
    """A state from its one-line notation (validated: :class:`NotationError` names the field)."""
    if not isinstance(text, str):
        raise NotationError(f"a position is text, not {type(text).__name__}")
    words = text.split()
    if not words or words[0] != "rb":
        raise NotationError(f"a Rolling Bandits position starts with 'rb', not {excerpt(text)}")
    fields: dict[str, str] = {}
    for word in words[1:]:
        key, sep, value = word.partition("=")
        if not sep or key not in _KEYS:
            raise NotationError(f"position: unknown field {excerpt(word, 20)}")
        if key in fields:
            raise NotationError(f"position: field {key} given twice")
        fields[key] = value
    missing = [k for k in _REQUIRED if k not in fields]
    if missing:
        raise NotationError(f"position: missing field {missing[0]}")
    try:
        edition = lookup(fields["ed"])
    except BanditsolveError:
        edition = None
    if edition is not None and len(text) <= 4000:
        cached = _PARSED.get((text, id(edition)))
        if cached is not None and cached[0] is edition:
            return cached[1]
    try:
        state = _build(fields)
        if edition is not None and len(text) <= 4000:
            if len(_PARSED) >= 4096:
                _PARSED.clear()
            _PARSED[text, id(edition)] = (edition, state)
        return state
    except BanditsolveError as exc:
        if isinstance(exc, NotationError):
            raise
        raise NotationError(f"position: {exc}") from None


def _options(pairs: dict[str, object]) -> Options:
    return Options.from_mapping(pairs)


def _build(f: dict[str, str]) -> State:
    edition = lookup(f["ed"])
    players = _int(f["n"], "n", 2, 4)
    opts: dict[str, object] = {}
    if "opt" in f:
        for item in f["opt"].split(","):
            k, sep, v = item.partition(":")
            if not sep:
                raise NotationError(f"opt: {excerpt(item, 20)} is not name:value")
            opts[k] = v
    options = _options(opts)
    phase = f["phase"]
    if phase not in PHASES:
        raise NotationError(f"phase: {excerpt(phase, 20)} is not one of {', '.join(PHASES)}")
    train = tuple(_parse_car(c, players, "train") for c in _items(f["train"]))
    won = tuple(
        tuple(_parse_won(w, "won") for w in _items(part))
        for part in _per_player(f["won"], players, "won")
    )
    trunks = tuple(
        tuple(_parse_held(h, "trunks") for h in _items(part))
        for part in _per_player(f["trunks"], players, "trunks")
    )
    reserve = (
        tuple(
            _int(r, "reserve", 0, edition.dice_per_colour)
            for r in _per_player(f["reserve"], players, "reserve")
        )
        if "reserve" in f
        else (0,) * players
    )
    air = (0, 0)
    if "air" in f:
        b, sep, m = f["air"].partition("/")
        if not sep:
            raise NotationError("air: hoard/mercenaries expected")
        air = (_int(b, "air"), _int(m, "air"))
    pending: list[tuple[int, bool]] = []
    for item in _items(f.get("pending", "-")):
        theft = item.endswith("!")
        pending.append((_int(item[:-1] if theft else item, "pending"), theft))
    resume = f.get("resume", "attack")
    if resume not in ("attack", "ambush"):
        raise NotationError("resume: attack or ambush expected")
    resume_phase: Phase = "attack" if resume == "attack" else "ambush"
    laid = f.get("laid", "0")
    if laid not in ("0", "1"):
        raise NotationError("laid: 0 or 1 expected")
    checked: Phase = phase
    state = State(
        players=players,
        edition=f["ed"],  # a name, or the path of the edition's file (kept to be written back)
        options=options,
        phase=checked,
        to_move=_int(f["turn"], "turn", 0, players - 1),
        train=train,
        wagons=_int(f["wagons"], "wagons", 1, 30),
        won=won,
        trunks=trunks,
        reserve=reserve,
        roll=parse_faces(f["roll"], "roll") if "roll" in f else NO_FACES,
        mroll=parse_faces(f["mroll"], "mroll") if "mroll" in f else NO_FACES,
        airborne=air,
        laid=laid == "1",
        joker_car=_int(f["jc"], "jc") if "jc" in f else None,
        usable=_int(f.get("usable", "0"), "usable"),
        pending=tuple(pending),
        resume=resume_phase,
        discarded=tuple(_parse_held(h, "discarded") for h in _items(f.get("discarded", "-"))),
    )
    validate(state, edition)
    return state


def validate(state: State, edition: Edition) -> None:
    """Refuse a state no game can reach in ways that would break the rules engine."""
    p = state.players
    dice = edition.dice_per_colour
    ids = [c.id for c in state.train] + [w.id for ws in state.won for w in ws]
    if len(set(ids)) != len(ids):
        raise NotationError("position: a car appears twice")
    if any(c.loco != (c.id == 0) for c in state.train) or any(
        w.loco != (w.id == 0) for ws in state.won for w in ws
    ):
        raise NotationError("position: car 0 and only car 0 is the locomotive")
    if any(c.id > state.wagons for c in state.train):
        raise NotationError("position: a car number is larger than the train")
    if state.wagons > len(edition.wagons):
        raise NotationError(f"position: the edition has only {len(edition.wagons)} wagons")
    setup = state.phase in ("deal-wagon", "deal-trunk")
    if not setup and len(ids) != state.wagons + 1:
        raise NotationError(f"position: {len(ids)} cars in play and taken, not {state.wagons + 1}")
    ordered = [c.id for c in state.train]
    if ordered != sorted(ordered):
        raise NotationError("position: the cars must be in train order")
    if not state.train and state.phase != "over":
        raise NotationError("position: an empty train means the game is over")
    if state.phase == "over" and state.train:
        raise NotationError("position: the game is over only when the train is empty")
    for q in range(p):
        b = sum(g.bandits for c in state.train if (g := c.groups[q]) is not None)
        m = sum(g.mercs for c in state.train if (g := c.groups[q]) is not None)
        in_hand_b = sum(state.roll) + state.airborne[0] if q == state.to_move else 0
        in_hand_m = sum(state.mroll) + state.airborne[1] if q == state.to_move else 0
        if b + in_hand_b > dice:
            raise NotationError(f"position: player {q} has more than {dice} hoard dice")
        if m + in_hand_m + state.reserve[q] > dice:
            raise NotationError(f"position: player {q} has more than {dice} mercenaries")
        gang = state.gang(q)
        if gang and gang[-1] - gang[0] + 1 != len(gang):
            raise NotationError(f"position: player {q}'s gang is not on neighbouring cars")
        symbols = [g.symbol for c in state.train if (g := c.groups[q]) is not None]
        if len(set(symbols)) != len(symbols):
            raise NotationError(f"position: player {q} has two groups of one symbol")
    if state.options.mercenaries == "off" and (
        any(state.reserve)
        or any(state.mroll)
        or state.airborne[1]
        or any(g is not None and g.mercs for c in state.train for g in c.groups)
    ):
        raise NotationError("position: mercenaries without the mercenary variant")
    if state.options.mercenaries == "on" and p != 2:
        raise NotationError("position: the mercenary variant is for two players")
    if state.usable > len(state.trunks[state.to_move]):
        raise NotationError("position: usable counts more trunks than the player holds")
    phase = state.phase
    if phase not in ("attack", "reveal", "roll", "mroll") and (any(state.roll) or any(state.mroll)):
        raise NotationError(f"position: rolled dice outside the attack (phase {phase})")
    if phase not in ("roll", "mroll") and state.airborne != (0, 0):
        raise NotationError("position: dice in the air outside a roll")
    if phase == "mroll" and state.airborne[1] == 0:
        raise NotationError("position: a mercenary roll with no mercenaries in the air")
    if (phase == "reveal") != bool(state.pending):
        raise NotationError("position: pending trunks go with phase reveal, and only with it")
    for car_id, _ in state.pending:
        car = state.car(car_id)
        if car is None or car.trunk is None or car.groups[state.to_move] is None:
            raise NotationError(f"position: pending trunk on car {car_id} is not there")
    if state.joker_car is not None and phase not in ("attack", "reveal", "over"):
        raise NotationError("position: jc only during an attack")
    if phase == "deal-wagon" and (
        len(state.train) - 1 >= state.wagons or any(c.trunk is not None for c in state.train)
    ):
        raise NotationError("position: dealing wagons to a train that is complete")
    if setup and (
        any(g is not None for c in state.train for g in c.groups)
        or any(state.won)
        or any(state.trunks)
    ):
        raise NotationError("position: dice or takings during the set-up")
    if phase == "deal-trunk":
        have = [c.trunk is not None for c in state.train if not c.loco]
        if len(state.train) - 1 != state.wagons or all(have) or have != sorted(have, reverse=True):
            raise NotationError("position: trunks are dealt front to back to a complete train")
    if not setup and any(c.trunk is not None for c in state.train if c.loco):
        raise NotationError("position: the locomotive has no trunk")
    from collections import Counter

    from banditsolve.rolling.edition import TrunkTile, Wagon

    left = Counter(edition.wagons)
    left.subtract(Wagon(c.need, c.points) for c in state.train if not c.loco)
    left.subtract(Wagon(w.need, w.points) for ws in state.won for w in ws if not w.loco)
    if any(v < 0 for v in left.values()):
        raise NotationError("position: wagons that the edition does not have")
    locos = [c for c in state.train if c.loco] + [w for ws in state.won for w in ws if w.loco]
    if any(
        (c.need, c.points) != (edition.locomotive.need, edition.locomotive.points) for c in locos
    ):
        raise NotationError("position: the locomotive differs from the edition's")
    tiles = Counter(edition.trunks)
    tiles.subtract(TrunkTile(h.symbol, h.value, h.content) for hs in state.trunks for h in hs)
    tiles.subtract(TrunkTile(h.symbol, h.value, h.content) for h in state.discarded)
    if any(v < 0 for v in tiles.values()):
        raise NotationError("position: trunks that the edition does not have")
    for c in state.train:
        if c.trunk is not None and not any(v > 0 for t, v in tiles.items() if t.symbol == c.trunk):
            raise NotationError(f"position: no {SYMBOLS[c.trunk]} trunk is left for car {c.id}")
    if sum(1 for c in state.train if c.trunk is not None) > sum(max(v, 0) for v in tiles.values()):
        raise NotationError("position: more face-down trunks than tiles left")
    _check_steal_step(state)


#: The phases in which the train is still as the turn's steal step left it: the take backs
#: (which only lower the mover's own counts) and the roll, before anything is laid (a roll-again
#: trunk rerolls before laying too). After a laying the mover may lead a car: they steal it as
#: their next turn begins. (An attack with laid=0 is no different, but the notation leaves
#: ``laid`` out by default, so attack positions are not judged on it.)
_AFTER_STEAL: frozenset[str] = frozenset({"start", "roll", "mroll"})


def _check_steal_step(state: State) -> None:
    """Refuse a car the player to move would steal while their turn is still at its start.

    The steal is the first step of every turn (RB-TURN-1, RB-STEAL-1) and the engine takes it
    as the turn begins, so at phase start (and in the roll that follows) no car is one the
    mover steals, with one exception: under cut=rear-back the steal itself can send another
    player's rear groups home, leaving the mover ahead on a car the step did not judge theirs.
    """
    if state.phase not in _AFTER_STEAL:
        return
    p = state.to_move
    for car in state.train:
        if state.stealer(car) != p or _left_by_rear_back(state, car):
            continue
        raise NotationError(
            f"position: car {car.id} is player {p}'s to steal ({car.count(p)} dice, "
            f"{car.need} needed), but a turn begins with the steal, so at phase {state.phase} "
            "it would already be taken (RB-STEAL-1)"
        )


def _left_by_rear_back(state: State, car: Car) -> bool:
    """Can this turn's steal have left the mover alone ahead on ``car`` (cut=rear-back)?

    Only if some car ``s`` the mover won lies in front of ``car``, the mover has nothing left
    in front of ``s`` (else their own groups behind ``s``, ``car``'s among them, went home too),
    and another player still has dice in front of ``s`` and none behind it (their group on
    ``car`` went home when ``s`` was stolen from the middle of their gang).
    """
    if state.options.cut != "rear-back":
        return False
    p = state.to_move
    ids = {q: [c.id for c in state.train if c.groups[q] is not None] for q in range(state.players)}
    for s in state.won[p]:
        if s.loco or s.id >= car.id or any(i < s.id for i in ids[p]):
            continue
        for q in range(state.players):
            if q != p and ids[q] and ids[q][-1] < s.id:
                return True
    return False


# -- JSON --------------------------------------------------------------------------------


def _group_json(g: Group | None) -> dict[str, Any] | None:
    if g is None:
        return None
    return {
        "symbol": SYMBOLS[g.symbol],
        "bandits": g.bandits,
        "mercs": g.mercs,
        "natural": g.natural,
    }


def _held_json(h: Held) -> dict[str, Any]:
    return {
        "symbol": SYMBOLS[h.symbol],
        "value": h.value,
        "content": CONTENTS[h.content],
        "used": h.used,
    }


def to_json(state: State) -> dict[str, Any]:
    """The JSON document of ``state`` (:func:`from_json` reads it back)."""
    return {
        "game": "rolling",
        "edition": state.edition,
        "players": state.players,
        "options": state.options.changed(),
        "phase": state.phase,
        "to_move": state.to_move,
        "wagons": state.wagons,
        "train": [
            {
                "id": c.id,
                "need": c.need,
                "points": c.points,
                "locomotive": c.loco,
                "trunk": None if c.trunk is None else SYMBOLS[c.trunk],
                "groups": [_group_json(g) for g in c.groups],
            }
            for c in state.train
        ],
        "won": [
            [{"id": w.id, "need": w.need, "points": w.points, "locomotive": w.loco} for w in ws]
            for ws in state.won
        ],
        "trunks": [[_held_json(h) for h in hs] for hs in state.trunks],
        "reserve": list(state.reserve),
        "roll": faces_text(state.roll),
        "mroll": faces_text(state.mroll),
        "airborne": list(state.airborne),
        "laid": state.laid,
        "joker_car": state.joker_car,
        "usable": state.usable,
        "pending": [[c, t] for c, t in state.pending],
        "resume": state.resume,
        "discarded": [_held_json(h) for h in state.discarded],
        "notation": format_state(state),
    }


def _j_sym(value: object, where: str) -> int:
    if value not in SYMBOLS:
        raise NotationError(f"{where} must be one of {', '.join(SYMBOLS)}")
    assert isinstance(value, str)
    return SYMBOLS.index(value)


def _j_bool(value: object, where: str) -> bool:
    if not isinstance(value, bool):
        raise NotationError(f"{where} must be true or false")
    return value


def _j_list(value: object, where: str) -> list[Any]:
    if not isinstance(value, list):
        raise NotationError(f"{where} must be a list")
    return value


def _j_held(value: object, where: str) -> Held:
    doc = expect_object(value, where)
    check_keys(doc, where, required=("symbol", "value", "content", "used"))
    content = doc["content"]
    if content not in CONTENTS:
        raise NotationError(f"{where}: content must be one of {', '.join(CONTENTS)}")
    return Held(
        _j_sym(doc["symbol"], f"{where}: symbol"),
        expect_int(doc["value"], f"{where}: value", 0, 9),
        CONTENTS.index(content),
        _j_bool(doc["used"], f"{where}: used"),
    )


def _j_group(value: object, where: str) -> Group | None:
    if value is None:
        return None
    doc = expect_object(value, where)
    check_keys(doc, where, required=("symbol", "bandits", "mercs", "natural"))
    g = Group(
        _j_sym(doc["symbol"], f"{where}: symbol"),
        expect_int(doc["bandits"], f"{where}: bandits", 0, 99),
        expect_int(doc["mercs"], f"{where}: mercs", 0, 99),
        expect_int(doc["natural"], f"{where}: natural", 0, 99),
    )
    if g.size == 0 or g.natural > g.size:
        raise NotationError(f"{where}: a group holds at least one die, natural ones among them")
    return g


def from_json(document: Any) -> State:
    """A state from :func:`to_json`'s document (or its text)."""
    if isinstance(document, str | bytes):
        text = document.decode("utf-8", "replace") if isinstance(document, bytes) else document
        document = load_json(text, "JSON position")
    doc = expect_object(document, "JSON position")
    keys = (
        "game",
        "edition",
        "players",
        "options",
        "phase",
        "to_move",
        "wagons",
        "train",
        "won",
        "trunks",
    )
    optional = (
        "reserve",
        "roll",
        "mroll",
        "airborne",
        "laid",
        "joker_car",
        "usable",
        "pending",
        "resume",
        "discarded",
        "notation",
    )
    check_keys(doc, "JSON position", required=keys, optional=optional)
    if doc["game"] != "rolling":
        raise NotationError('JSON position: game must be "rolling"')
    if not isinstance(doc["edition"], str):
        raise NotationError("JSON position: edition must be a name or an edition file's path")
    edition = lookup(doc["edition"])
    players = expect_int(doc["players"], "JSON position: players", 2, 4)
    options_doc = expect_object(doc["options"], "JSON position: options")
    for k, v in options_doc.items():
        if k not in OPTION_VALUES or not isinstance(v, str):
            raise NotationError(
                f"JSON position: option {excerpt(str(k), 20)} is not an option with a text value"
            )
    options = Options.from_mapping(dict(options_doc))
    phase = doc["phase"]
    if phase not in PHASES:
        raise NotationError(f"JSON position: phase must be one of {', '.join(PHASES)}")
    train: list[Car] = []
    for i, raw in enumerate(_j_list(doc["train"], "JSON position: train")):
        where = f"JSON position: car {i + 1}"
        c = expect_object(raw, where)
        check_keys(c, where, required=("id", "need", "points", "locomotive", "trunk", "groups"))
        groups = _j_list(c["groups"], f"{where}: groups")
        if len(groups) != players:
            raise NotationError(f"{where}: one group entry per player")
        train.append(
            Car(
                expect_int(c["id"], f"{where}: id", 0, 99),
                expect_int(c["need"], f"{where}: need", 1, 99),
                expect_int(c["points"], f"{where}: points", 0, 99),
                _j_bool(c["locomotive"], f"{where}: locomotive"),
                None if c["trunk"] is None else _j_sym(c["trunk"], f"{where}: trunk"),
                tuple(_j_group(g, f"{where}: group {k}") for k, g in enumerate(groups)),
            )
        )

    def per_player(key: str) -> list[Any]:
        items = _j_list(doc[key], f"JSON position: {key}")
        if len(items) != players:
            raise NotationError(f"JSON position: {key} needs one entry per player")
        return items

    won: list[tuple[Won, ...]] = []
    for q, ws in enumerate(per_player("won")):
        row: list[Won] = []
        for w in _j_list(ws, f"JSON position: won {q}"):
            where = f"JSON position: a car won by player {q}"
            wd = expect_object(w, where)
            check_keys(wd, where, required=("id", "need", "points", "locomotive"))
            row.append(
                Won(
                    expect_int(wd["id"], f"{where}: id", 0, 99),
                    expect_int(wd["need"], f"{where}: need", 1, 99),
                    expect_int(wd["points"], f"{where}: points", 0, 99),
                    _j_bool(wd["locomotive"], f"{where}: locomotive"),
                )
            )
        won.append(tuple(row))
    trunks = tuple(
        tuple(_j_held(h, f"JSON position: trunk of player {q}") for h in _j_list(hs, "trunks"))
        for q, hs in enumerate(per_player("trunks"))
    )
    reserve = tuple(
        expect_int(r, "JSON position: reserve", 0, edition.dice_per_colour)
        for r in (per_player("reserve") if "reserve" in doc else [0] * players)
    )

    def faces(key: str) -> tuple[int, ...]:
        value = doc.get(key, "-")
        if not isinstance(value, str) or len(value) > 40:
            raise NotationError(f"JSON position: {key} must be face letters")
        return parse_faces(value, f"JSON position: {key}")

    air = _j_list(doc.get("airborne", [0, 0]), "JSON position: airborne")
    if len(air) != 2:
        raise NotationError("JSON position: airborne is [hoard, mercenaries]")
    pending: list[tuple[int, bool]] = []
    for item in _j_list(doc.get("pending", []), "JSON position: pending"):
        pair = _j_list(item, "JSON position: pending entry")
        if len(pair) != 2:
            raise NotationError("JSON position: a pending entry is [car, theft]")
        pending.append(
            (expect_int(pair[0], "JSON position: pending car", 0, 99), _j_bool(pair[1], "theft"))
        )
    resume = doc.get("resume", "attack")
    if resume not in ("attack", "ambush"):
        raise NotationError("JSON position: resume must be attack or ambush")
    joker_car = doc.get("joker_car")
    state = State(
        players=players,
        edition=doc["edition"],
        options=options,
        phase=phase,
        to_move=expect_int(doc["to_move"], "JSON position: to_move", 0, players - 1),
        train=tuple(train),
        wagons=expect_int(doc["wagons"], "JSON position: wagons", 1, 30),
        won=tuple(won),
        trunks=trunks,
        reserve=reserve,
        roll=faces("roll"),
        mroll=faces("mroll"),
        airborne=(
            expect_int(air[0], "JSON position: airborne", 0, 99),
            expect_int(air[1], "JSON position: airborne", 0, 99),
        ),
        laid=_j_bool(doc.get("laid", False), "JSON position: laid"),
        joker_car=None
        if joker_car is None
        else expect_int(joker_car, "JSON position: joker_car", 0, 99),
        usable=expect_int(doc.get("usable", 0), "JSON position: usable", 0, 99),
        pending=tuple(pending),
        resume=resume,
        discarded=tuple(
            _j_held(h, "JSON position: discarded")
            for h in _j_list(doc.get("discarded", []), "discarded")
        ),
    )
    validate(state, edition)
    if "notation" in doc:
        written = doc["notation"]
        if not isinstance(written, str) or written != format_state(state):
            raise NotationError(
                "JSON position: the field 'notation' does not match the position the other "
                "fields describe"
            )
    return state


def read_state(source: object) -> State:
    """A state from the notation or JSON: text, UTF-8 bytes, or a file holding either."""
    text, where = read_text(source, "position")
    stripped = text.strip()
    try:
        if stripped.startswith("{"):
            return from_json(load_json(stripped, "JSON position"))
        if "\n" in stripped:
            raise NotationError("a Rolling Bandits position is one line")
        return parse_state(stripped)
    except NotationError as exc:
        if where == "position":
            raise
        raise NotationError(f"{where}: {exc}") from None
