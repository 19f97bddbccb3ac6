"""The one-line notation and the JSON form of a Rolling Bandits state (RB-NOTE-*).

The notation is a line of ``key=value`` fields after the word ``rb``::

    rb ed=default n=2 phase=attack turn=0 wagons=10 train=0:5/5L:-:-|-,1:2/2:R:M2|- ...

- ``ed``: the edition's name (``default``, or one made known by ``with_edition``) or the path of
  an edition JSON file (``ed=./mine.json``; see :func:`.edition.lookup`), written back as given.
- ``train``: the wagons front to back, ``,``-separated: ``id:need/points[L]:trunk:groups`` where
  ``L`` marks the locomotive, ``trunk`` is the symbol on the trunk still there (or ``-``) and
  ``groups`` gives each player's group, ``|``-separated: ``-`` or symbol and hoard dice, then
  ``+m`` mercenaries, then ``~k`` when only ``k`` of the dice rolled the symbol (``M2+1~2``).
- ``won``: each player's wagons (``id:need/points[L]``), ``trunks``: each player's trunks
  (``R2b``: symbol, value, content letter; ``*`` once used); players ``|``-separated, ``-`` for
  none.
- Fields left at their defaults are left out: ``opt`` (changed rule options, ``name:value``,
  ``,``-separated: ``opt=cut:rear_back,jokers:together``; the dashed spellings of earlier
  versions are read too), ``reserve``, ``roll``/``mroll`` (dice rolled and not laid), ``air``
  (dice in the air), ``laid``, ``jc``, ``usable``, ``pending`` (``3!`` for a trunk opened before
  an outright theft), ``resume``, ``discarded``.

The readers (:func:`parse_state`, :func:`from_json`) read the fields, build the state and call
:func:`.rules.validate`, the one place that says what a reachable state is.
"""

from __future__ import annotations

from typing import Any

from banditsolve.core.io import check_keys, expect_int, expect_object, json_type, read_document
from banditsolve.core.text import excerpt, plural
from banditsolve.errors import ArgumentTypeError, BanditsolveError, NotationError, RuleOptionError
from banditsolve.rolling.edition import (
    CONTENT_LETTERS,
    CONTENTS,
    JOKER,
    LETTERS,
    SYMBOLS,
    Edition,
    lookup,
)
from banditsolve.rolling.rules import NO_FACES, faces_text, parse_faces, validate
from banditsolve.rolling.state import (
    PHASES,
    Group,
    Held,
    Options,
    Phase,
    State,
    Wagon,
    Won,
    register_form,
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


def _wagon_text(c: Wagon) -> str:
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
        "train=" + _list([_wagon_text(c) for c in state.train]),
        "won=" + "|".join(_list([_won_text(w) for w in ws]) for ws in state.won),
        "trunks=" + "|".join(_list([held_text(h) for h in hs]) for hs in state.trunks),
    ]
    parts += _round_fields(state)
    parts += _turn_fields(state)
    return " ".join(parts)


def _round_fields(state: State) -> list[str]:
    """The notation's fields of the dice in play, each written only when it holds anything:
    the reserve, the rolls, the airborne dice, a lay made, the joker's wagon."""
    parts = []
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
    if state.joker_wagon is not None:
        parts.append(f"jc={state.joker_wagon}")
    return parts


def _turn_fields(state: State) -> list[str]:
    """The notation's fields of the turn's progress, each written only when it differs from
    the start of a turn: the dice usable, the pending steps, where the turn resumes, the trunks
    discarded."""
    parts = []
    if state.usable:
        parts.append(f"usable={state.usable}")
    if state.pending:
        parts.append("pending=" + ",".join(f"{c}{'!' if t else ''}" for c, t in state.pending))
    if state.resume != "attack":
        parts.append(f"resume={state.resume}")
    if state.discarded:
        parts.append("discarded=" + ",".join(held_text(h) for h in state.discarded))
    return parts


def _int(text: str, where: str, low: int = 0, high: int = 99) -> int:
    if not (text.isascii() and text.isdigit()) or len(text) > 3:
        if text[:1] == "-" and text[1:].isascii() and text[1:].isdigit() and int(text) < low:
            raise NotationError(f"{where}: {excerpt(text, 20)} is below {low}")
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
    return Group(symbol, bandits, mercs, bandits + mercs if natural is None else natural)


def _parse_wagon(text: str, players: int, where: str) -> Wagon:
    fields = text.split(":")
    if len(fields) != 4:
        raise NotationError(f"{where}: a wagon is id:need/points:trunk:groups, not {excerpt(text)}")
    wagon_id = _int(fields[0], where)
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
        raise NotationError(
            f"{where}: {plural(len(groups), 'group')} for {plural(players, 'player')}"
        )
    return Wagon(wagon_id, need, points, loco, trunk, tuple(_parse_group(g, where) for g in groups))


def _parse_won(text: str, where: str) -> Won:
    fields = text.split(":")
    if len(fields) != 2:
        raise NotationError(f"{where}: a won wagon is id:need/points, not {excerpt(text)}")
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
    """A state from its one-line notation: :class:`NotationError` names the field; a state no
    game reaches is refused by :func:`.rules.validate`, naming the rule."""
    if not isinstance(text, str):
        raise ArgumentTypeError(f"a position is text, not {type(text).__name__}")
    text = text.strip()
    if "\n" in text:
        raise NotationError("a Rolling Bandits position is one line")
    words = text.split()
    if not words or words[0] != "rb":
        raise NotationError(f"a Rolling Bandits position starts with 'rb', not {excerpt(text)}")
    fields = _fields(words[1:])
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
    except NotationError:
        raise
    except BanditsolveError as exc:
        raise NotationError(f"position: {exc}") from None
    if edition is not None and len(text) <= 4000:
        if len(_PARSED) >= 4096:
            _PARSED.clear()
        _PARSED[text, id(edition)] = (edition, state)
    return state


def _fields(words: list[str]) -> dict[str, str]:
    """The ``key=value`` words as a mapping: each key known, given once, the required ones
    there."""
    fields: dict[str, str] = {}
    for word in words:
        key, sep, value = word.partition("=")
        if not sep or key not in _KEYS:
            raise NotationError(f"position: unknown field {excerpt(word, 20)}")
        if key in fields:
            raise NotationError(f"position: field {key} given twice")
        fields[key] = value
    missing = [k for k in _REQUIRED if k not in fields]
    if missing:
        raise NotationError(f"position: missing field {missing[0]}")
    return fields


def _options(text: str | None) -> Options:
    """``opt=name:value,...`` (the options read by :data:`.state.OPTION_SET`)."""
    pairs: dict[str, object] = {}
    for item in [] if text is None else text.split(","):
        k, sep, v = item.partition(":")
        if not sep:
            raise NotationError(f"opt: {excerpt(item, 20)} is not name:value")
        pairs[k] = v
    return Options.from_mapping(pairs)


def _phase(text: str, where: str, phases: tuple[Phase, ...] = PHASES) -> Phase:
    for phase in phases:
        if text == phase:
            return phase
    raise NotationError(f"{where}: {excerpt(text, 20)} is not one of {', '.join(phases)}")


def _air(text: str | None) -> tuple[int, int]:
    if text is None:
        return (0, 0)
    b, sep, m = text.partition("/")
    if not sep:
        raise NotationError("air: hoard/mercenaries expected")
    return (_int(b, "air"), _int(m, "air"))


def _pending(text: str) -> tuple[tuple[int, bool], ...]:
    pending: list[tuple[int, bool]] = []
    for item in _items(text):
        theft = item.endswith("!")
        pending.append((_int(item[:-1] if theft else item, "pending"), theft))
    return tuple(pending)


def _flag(text: str, where: str) -> bool:
    if text not in ("0", "1"):
        raise NotationError(f"{where}: 0 or 1 expected")
    return text == "1"


def _build(f: dict[str, str]) -> State:
    players = _int(f["n"], "n", 2, 4)
    state = State(
        players=players,
        edition=f["ed"],  # a name, or the path of the edition's file (kept to be written back)
        options=_options(f.get("opt")),
        phase=_phase(f["phase"], "phase"),
        to_move=_int(f["turn"], "turn", 0, players - 1),
        train=tuple(_parse_wagon(c, players, "train") for c in _items(f["train"])),
        wagons=_int(f["wagons"], "wagons", 1, 30),
        won=tuple(
            tuple(_parse_won(w, "won") for w in _items(part))
            for part in _per_player(f["won"], players, "won")
        ),
        trunks=tuple(
            tuple(_parse_held(h, "trunks") for h in _items(part))
            for part in _per_player(f["trunks"], players, "trunks")
        ),
        reserve=tuple(_int(r, "reserve") for r in _per_player(f["reserve"], players, "reserve"))
        if "reserve" in f
        else (0,) * players,
        roll=parse_faces(f["roll"], "roll") if "roll" in f else NO_FACES,
        mroll=parse_faces(f["mroll"], "mroll") if "mroll" in f else NO_FACES,
        airborne=_air(f.get("air")),
        laid=_flag(f.get("laid", "0"), "laid"),
        joker_wagon=_int(f["jc"], "jc") if "jc" in f else None,
        usable=_int(f.get("usable", "0"), "usable"),
        pending=_pending(f.get("pending", "-")),
        resume=_phase(f.get("resume", "attack"), "resume", ("attack", "ambush")),
        discarded=tuple(_parse_held(h, "discarded") for h in _items(f.get("discarded", "-"))),
    )
    validate(state)
    return state


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
        "joker_wagon": state.joker_wagon,
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
    return Group(
        _j_sym(doc["symbol"], f"{where}: symbol"),
        expect_int(doc["bandits"], f"{where}: bandits", 0, 99),
        expect_int(doc["mercs"], f"{where}: mercs", 0, 99),
        expect_int(doc["natural"], f"{where}: natural", 0, 99),
    )


def _j_wagon(value: object, where: str, players: int) -> Wagon:
    """A wagon of the train list; ``where`` names its place in the list, and once its id is
    read the messages name the wagon by its number too (the locomotive is wagon 0)."""
    c = expect_object(value, where)
    check_keys(c, where, required=("id", "need", "points", "locomotive", "trunk", "groups"))
    number = expect_int(c["id"], f"{where}: id", 0, 99)
    where = f"{where} (wagon {number})"
    groups = _j_list(c["groups"], f"{where}: groups")
    if len(groups) != players:
        raise NotationError(f"{where}: one group entry per player")
    return Wagon(
        number,
        expect_int(c["need"], f"{where}: need", 1, 99),
        expect_int(c["points"], f"{where}: points", 0, 99),
        _j_bool(c["locomotive"], f"{where}: locomotive"),
        None if c["trunk"] is None else _j_sym(c["trunk"], f"{where}: trunk"),
        tuple(_j_group(g, f"{where}: group of player {k}") for k, g in enumerate(groups)),
    )


def _j_won(value: object, where: str) -> Won:
    wd = expect_object(value, where)
    check_keys(wd, where, required=("id", "need", "points", "locomotive"))
    return Won(
        expect_int(wd["id"], f"{where}: id", 0, 99),
        expect_int(wd["need"], f"{where}: need", 1, 99),
        expect_int(wd["points"], f"{where}: points", 0, 99),
        _j_bool(wd["locomotive"], f"{where}: locomotive"),
    )


_JSON = "JSON position"
_JSON_REQUIRED = (
    "game", "edition", "players", "options", "phase", "to_move", "wagons", "train", "won", "trunks"
)
_JSON_OPTIONAL = (
    "reserve", "roll", "mroll", "airborne", "laid", "joker_wagon", "usable", "pending", "resume",
    "discarded", "notation",
)


class _Doc:
    """A JSON position being read: its fields, each read with the field named in errors."""

    def __init__(self, document: Any) -> None:
        self.doc = expect_object(document, _JSON)
        check_keys(self.doc, _JSON, required=_JSON_REQUIRED, optional=_JSON_OPTIONAL)
        if self.doc["game"] != "rolling":
            raise NotationError(f'{_JSON}: game must be "rolling"')
        if not isinstance(self.doc["edition"], str):
            raise NotationError(f"{_JSON}: edition must be a name or an edition file's path")
        self.players = expect_int(self.doc["players"], f"{_JSON}: players", 2, 4)

    def per_player(self, key: str, default: object = None) -> list[Any]:
        items = _j_list(self.doc.get(key, default), f"{_JSON}: {key}")
        if len(items) != self.players:
            raise NotationError(f"{_JSON}: {key} needs one entry per player")
        return items

    def options(self) -> Options:
        values = expect_object(self.doc["options"], f"{_JSON}: options")
        try:
            return Options.from_mapping(values)
        except RuleOptionError as exc:
            raise NotationError(f"{_JSON}: {exc}") from None

    def phase(self, key: str, default: str, phases: tuple[Phase, ...] = PHASES) -> Phase:
        value = self.doc.get(key, default)
        for phase in phases:
            if value == phase:
                return phase
        if not isinstance(value, str):
            raise NotationError(f"{_JSON}: {key} must be text, not {json_type(value)}")
        raise NotationError(
            f"{_JSON}: {key} must be one of {', '.join(phases)}, not {excerpt(value, 20)}"
        )

    def number(self, key: str, low: int, high: int, default: object = None) -> int:
        return expect_int(self.doc.get(key, default), f"{_JSON}: {key}", low, high)

    def faces(self, key: str) -> tuple[int, ...]:
        value = self.doc.get(key, "-")
        if not isinstance(value, str) or len(value) > 40:
            raise NotationError(f"{_JSON}: {key} must be face letters")
        return parse_faces(value, f"{_JSON}: {key}")

    def airborne(self) -> tuple[int, int]:
        air = _j_list(self.doc.get("airborne", [0, 0]), f"{_JSON}: airborne")
        if len(air) != 2:
            raise NotationError(f"{_JSON}: airborne is [hoard, mercenaries]")
        return (
            expect_int(air[0], f"{_JSON}: airborne", 0, 99),
            expect_int(air[1], f"{_JSON}: airborne", 0, 99),
        )

    def pending(self) -> tuple[tuple[int, bool], ...]:
        pending: list[tuple[int, bool]] = []
        for item in _j_list(self.doc.get("pending", []), f"{_JSON}: pending"):
            pair = _j_list(item, f"{_JSON}: pending entry")
            if len(pair) != 2:
                raise NotationError(f"{_JSON}: a pending entry is [wagon, theft]")
            wagon = expect_int(pair[0], f"{_JSON}: pending wagon", 0, 99)
            pending.append((wagon, _j_bool(pair[1], "theft")))
        return tuple(pending)

    def state(self) -> State:
        doc, players = self.doc, self.players
        joker_wagon = doc.get("joker_wagon")
        train = _j_list(doc["train"], f"{_JSON}: train")
        return State(
            players=players,
            edition=doc["edition"],
            options=self.options(),
            phase=self.phase("phase", ""),
            to_move=self.number("to_move", 0, players - 1),
            train=tuple(
                _j_wagon(c, f"{_JSON}: train[{i}]", players) for i, c in enumerate(train)
            ),
            wagons=self.number("wagons", 1, 30),
            won=tuple(
                tuple(
                    _j_won(w, f"{_JSON}: a wagon won by player {q}")
                    for w in _j_list(ws, f"{_JSON}: won {q}")
                )
                for q, ws in enumerate(self.per_player("won"))
            ),
            trunks=tuple(
                tuple(_j_held(h, f"{_JSON}: trunk of player {q}") for h in _j_list(hs, "trunks"))
                for q, hs in enumerate(self.per_player("trunks"))
            ),
            reserve=tuple(
                expect_int(r, f"{_JSON}: reserve", 0, 99)
                for r in self.per_player("reserve", [0] * players)
            ),
            roll=self.faces("roll"),
            mroll=self.faces("mroll"),
            airborne=self.airborne(),
            laid=_j_bool(doc.get("laid", False), f"{_JSON}: laid"),
            joker_wagon=None if joker_wagon is None else self.number("joker_wagon", 0, 99),
            usable=self.number("usable", 0, 99, 0),
            pending=self.pending(),
            resume=self.phase("resume", "attack", ("attack", "ambush")),
            discarded=tuple(
                _j_held(h, f"{_JSON}: discarded")
                for h in _j_list(doc.get("discarded", []), "discarded")
            ),
        )


def from_json(document: Any) -> State:
    """A state from :func:`to_json`'s document (or its text); a state no game reaches is
    refused by :func:`.rules.validate`, naming the rule. The document's ``notation``, if any,
    must be the same position (in any spelling the notation reader reads)."""
    doc = _Doc(read_document(document, "position"))
    state = doc.state()
    validate(state)
    if "notation" in doc.doc:
        written = doc.doc["notation"]
        if not isinstance(written, str) or not _same_position(written, state):
            raise NotationError(
                f"{_JSON}: the field 'notation' does not match the position the other "
                "fields describe"
            )
    return state


def _same_position(written: str, state: State) -> bool:
    """Whether the notation ``written`` is ``state``'s (as written now, or in an older spelling
    of the options that reads back to the same state)."""
    if written == format_state(state):
        return True
    try:
        return parse_state(written) == state
    except BanditsolveError:
        return False


register_form("notation", format_state)
