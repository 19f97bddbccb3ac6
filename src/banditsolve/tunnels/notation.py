"""Positions and game states: the JSON documents and the one-line notations, read and written.

A *position* is a table and the multiset of cards still to come (the closure question). JSON::

    {"game": "bandido",
     "placements": [{"card": "L+TL+TR+R+BR+BL", "x": 0, "y": 0, "rotation": 0}, ...],
     "remaining": ["L", "TL+BL", ...]}

One line (the same content)::

    bandido L+TL+TR+R+BR+BL@0,0,0 L+TL@2,0,90 | L*3 TL+BL*2

The game, then each placement in the order laid as ``CARD@X,Y,ROTATION``, then ``|`` and the
remaining multiset as ``CARD`` or ``CARD*COUNT``. Writers emit canonical card names, normalised
placements and the remaining cards sorted by code; readers accept either name of a card and the
aliases ``super6``/``super5``. Without ``remaining`` (JSON) or the ``|`` part (notation), the
remaining cards are the deck minus the cards on the table.

A position must be one the real game can hold: the super card first and nowhere else, and no
more copies of a card (on the table after the super card and among the remaining cards) than
the deck has. A puzzle that wants more says so: ``"hypothetical": true`` in JSON, the word
``hypothetical`` right after the game name in the notation
(``bandido hypothetical L+TL+TR+R+BR+BL@0,0,0 | L*5``).

A *game state* is everything a game in progress holds. Its one-line notation extends the
position's: the same game name and placements, then ``|`` and ``FIELD=VALUE`` words::

    bandido L+TL+TR+R+BR+BL@0,0,0 L@-1,0,0 | hands=L,TL*2/L+R,TR,TR+BL player=1 turn=1
      pile=TL+BL,L,... draw=0 changed=yes end=lost:hole options=hole:illegal,super_side:super5

(on one line). ``hands`` lists each player's hand (cards joined by ``,``, hands by ``/``, a
hand may be empty); ``player`` is the player to act, ``turn`` the turns played; ``unseen`` the
multiset on top of the pile whose order nobody knows, ``pile`` the known cards below it, top
first; ``draw`` the players still owed a card, in order; ``changed=yes`` after a hand change
that lets the player place (option ``hand_change=may_place``); ``end=won:no-exit`` or
``end=lost:REASON`` once the game is over (reasons: :data:`~banditsolve.tunnels.game.REASONS`);
``options`` the rule options that differ from the game's defaults, ``NAME:VALUE`` joined by
``,``. A run of one card is written ``CARD*N``. Writers emit the words in this order and leave
out empty ones (``unseen``, ``pile``, ``draw``) and defaults (``changed``, ``options``).
The JSON form has the same fields: ``game``, ``placements``, ``hands`` (lists of names),
``unseen``, ``pile``, ``to_draw``, ``player``, ``turn``, ``changed``, ``outcome`` (null,
``"won"`` or ``"lost"``), ``reason`` (the reason in words, null before the end) and
``options`` (an object).

A game state must be one the game can reach: every card of the deck exactly once (table,
hands, pile), the super card at ``(0, 0)`` rotation 0 on the side option ``super_side``
names, no hand fuller than ``hand_size`` once owed cards are counted, the end marked exactly
when the game is over (with a reason that holds), and nothing left that the game would do by
itself (a known card owed, a forced end).
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from banditsolve.core.io import (
    check_keys,
    expect_object,
    json_type,
    load_json,
    read_text,
)
from banditsolve.core.io import expect_int as io_expect_int
from banditsolve.core.text import excerpt, plural
from banditsolve.errors import BanditsolveError, NotationError, RuleOptionError
from banditsolve.tunnels.cards import (
    Deck,
    canonical_code,
    card_kind,
    card_name,
    hand_code,
    load_deck,
    parse_card,
    parse_ports,
)
from banditsolve.tunnels.game import (
    BANDIDA_OPTIONS,
    LOST,
    PHASES,
    REASON_CODES,
    REASONS,
    WON,
    GameState,
    Options,
    bandida_only,
    dead_exit_loses,
    hole_loses,
    mode_end,
    settle,
    shown,
    table_loss,
)
from banditsolve.tunnels.geometry import ROTATIONS, Placement, normalise
from banditsolve.tunnels.table import Table

#: Coordinates further than this from the origin are refused.
MAX_COORD = 10_000
#: The most turns a game state may report (a real game takes a few hundred).
MAX_TURN = 1_000_000
#: The most copies one ``CARD*N`` may stand for.
MAX_RUN = 999
_POSITION_KEYS = ("game", "placements")
_POSITION_OPTIONAL = ("remaining", "hypothetical")
_PLACEMENT_KEYS = ("card", "x", "y", "rotation")
_STATE_REQUIRED = ("game", "placements", "hands", "player")
_STATE_OPTIONAL = ("unseen", "pile", "to_draw", "turn", "changed", "outcome", "reason", "options")
_STATE_WORDS = ("hands", "player", "turn", "unseen", "pile", "draw", "changed", "end", "options")
#: Bandida's own fields of a game state (notation words and JSON keys alike): hand sizes, the
#: pending effects, the alarm's actor, the cards out of the game, the cards an alarm set aside,
#: the alarm's discards to go, the players still to discard, the players drawing nothing
#: until their hand is empty (broken tool over turns), who laid a water bottle, and the back
#: of the unseen pile's top card once seen (``alarm`` or ``plain``).
BANDIDA_FIELDS = (
    "sizes",
    "phase",
    "actor",
    "out",
    "aside",
    "left",
    "queue",
    "hold",
    "quiet",
    "top",
)
HYPOTHETICAL = "hypothetical"

Item = tuple[str, int, int, int]


@dataclass(frozen=True, slots=True)
class Position:
    """A table and the multiset of cards still available (sorted codes).

    ``hypothetical``: the position may hold more copies of a card than the deck has (a puzzle
    that says so); otherwise it is one the real game can reach.
    """

    table: Table
    remaining: tuple[int, ...]
    game: str = "bandido"
    hypothetical: bool = False

    def _repr_svg_(self) -> str:
        from banditsolve.tunnels.render import svg

        return svg(self.table, remaining=self.remaining)

    def __str__(self) -> str:
        return to_notation(self)


# -- shared pieces ------------------------------------------------------------------------------


def deck_for(game: object, deck: Deck | None = None) -> Deck:
    """The deck of the game named ``game`` (a packaged edition), or ``deck`` when given."""
    if not isinstance(game, str):
        raise NotationError(
            f"the game must be named by text such as 'bandido', not {json_type(game)}"
        )
    if deck is not None:
        return deck
    if not (game.isascii() and game.isalpha() and game.islower() and len(game) <= 20):
        raise NotationError(f"unknown game {excerpt(game)} (expected 'bandido' or 'bandida')")
    try:
        return load_deck(game)
    except BanditsolveError:
        raise NotationError(
            f"unknown game {excerpt(game)} (expected 'bandido' or 'bandida')"
        ) from None


def _number(
    text: str, what: str, where: str, low: int = -MAX_COORD, high: int = MAX_COORD
) -> int:
    """The whole number ``text`` in ``low..high``; errors say ``WHERE: WHAT must be ...`` with
    the range, whatever is wrong (not a number, too many digits, out of range)."""
    body = text[1:] if text.startswith("-") else text
    if not body.isdigit() or not body.isascii():
        raise NotationError(
            f"{where}: {what} must be a whole number between {low} and {high},"
            f" not {excerpt(text, 20)}"
        )
    if len(body) > len(str(max(-low, high))) or not low <= int(text) <= high:
        raise NotationError(
            f"{where}: {what} must be between {low} and {high}, not {excerpt(text, 20)}"
        )
    return int(text)


def parse_placement_token(token: str, where: str) -> Item:
    """``(card name, x, y, rotation)`` from ``CARD@X,Y,ROTATION`` (numbers checked, not the
    card)."""
    name, at, coords = token.partition("@")
    parts = coords.split(",")
    if not at or len(parts) != 3 or not name:
        raise NotationError(f"{where}: {excerpt(token)} is not of the form CARD@X,Y,ROTATION")
    x, y, rotation = (
        _number(f, w, where) for f, w in zip(parts, ("x", "y", "rotation"), strict=True)
    )
    return check_item((name, x, y, rotation), where)


def check_item(item: object, where: str) -> Item:
    """A raw placement ``(card, x, y, rotation)``, its types and ranges checked (for calls from
    Python too)."""
    if not isinstance(item, tuple | list) or len(item) != 4:
        raise NotationError(f"{where} must be (card, x, y, rotation)")
    name, x, y, rotation = item
    if not isinstance(name, str):
        raise NotationError(f"{where}: the card must be a card name, not {json_type(name)}")
    for what, value in (("x", x), ("y", y), ("rotation", rotation)):
        if isinstance(value, bool) or not isinstance(value, int):
            raise NotationError(f"{where}: {what} must be a whole number, not {json_type(value)}")
        if abs(value) > MAX_COORD:
            raise NotationError(f"{where}: {what} beyond ±{MAX_COORD}")
    return name, x, y, rotation


def placement_of(item: Item, where: str) -> Placement:
    """A normalised placement from raw ``(card, x, y, rotation)`` (ints within ±10,000): the
    rotation checked, the card read keeping the orientation its name gives."""
    name, x, y, rotation = item
    try:
        raw = parse_ports(name)
    except NotationError as exc:
        raise NotationError(f"{where}: {exc}") from None
    if rotation not in ROTATIONS:
        raise NotationError(f"{where}: rotation must be 0, 90, 180 or 270, not {rotation}")
    return normalise(raw, x, y, rotation)


def build_table(items: Iterable[Item], deck: Deck, *, removed: bool = False) -> Table:
    """The table of raw placements laid in order: the first must be a super card side; every
    placement must be legal when laid. Errors name the placement by its number and as given.
    ``removed``: Bandida's map has taken cards off, so a card may have joined the tunnels only
    through a card no longer there (the cells and edges are still checked)."""
    supers = dict(deck.super_sides).values()
    table = Table.empty()
    for number, raw in enumerate(items, start=1):
        item = check_item(raw, f"placement {number}")
        name, x, y, rotation = item
        where = f"placement {number} ({excerpt(name, 30)[1:-1]}@{x},{y},{rotation})"
        p = placement_of(item, where)
        code = canonical_code(p.card)
        if number == 1 and code not in supers:
            raise NotationError(f"{where}: the first placement must be the super card")
        if number > 1 and code in supers:
            raise NotationError(
                f"{where}: a second super card; the {deck.edition} game has one, laid first"
            )
        if number > 1 and not deck.knows(hand_code(code)):
            raise NotationError(
                f"{where}: {card_name(code)} is not a card of the {deck.edition} deck"
            )
        error = table.placement_error(p)
        if error is not None and not (removed and error.startswith("no opening joins")):
            raise NotationError(f"{where}: {error}")
        table = table.place(p, check=False)
    if not table.history:
        raise NotationError("a position needs at least the super card")
    return table


def parse_cards(names: Iterable[object], where: str) -> list[int]:
    """Card codes of card names (either name of a card), errors naming the card's number."""
    out: list[int] = []
    for i, name in enumerate(names, start=1):
        if not isinstance(name, str):
            raise NotationError(f"{where}: card {i} must be a card name, not {json_type(name)}")
        try:
            out.append(parse_card(name))
        except NotationError as exc:
            raise NotationError(f"{where}: card {i}: {exc}") from None
    return out


def _run_list(value: str, where: str) -> list[str]:
    """Card names of ``A,B*3,C`` (``*N``: N copies in a row); an empty value is no card."""
    if not value:
        return []
    out: list[str] = []
    for item in value.split(","):
        name, star, count = item.partition("*")
        if not name:
            raise NotationError(f"{where}: empty card name in {excerpt(value)}")
        n = 1
        if star:
            if not count.isdigit() or len(count) > 3 or not 1 <= int(count) <= MAX_RUN:
                raise NotationError(
                    f"{where}: the count N of CARD*N must be between 1 and {MAX_RUN}, not"
                    f" {excerpt(count, 20)} (in {excerpt(item)})"
                )
            n = int(count)
        out.extend([name] * n)
    return out


def _runs(codes: Sequence[int]) -> str:
    """``A,B*3,C``: the cards in order, a run of one card as ``CARD*N``."""
    parts: list[str] = []
    i = 0
    while i < len(codes):
        j = i
        while j < len(codes) and codes[j] == codes[i]:
            j += 1
        name = card_name(codes[i])
        parts.append(name if j - i == 1 else f"{name}*{j - i}")
        i = j
    return ",".join(parts)


def _placement_json(p: Placement) -> dict[str, object]:
    return {"card": card_name(p.card), "x": p.x, "y": p.y, "rotation": p.rotation}


def expect_int(value: object, where: str, low: int, high: int) -> int:
    """:func:`banditsolve.core.io.expect_int`, also for an int too long to print."""
    if isinstance(value, int) and not isinstance(value, bool) and value.bit_length() > 64:
        digits = int(value.bit_length() * 0.30103) + 1
        raise NotationError(
            f"{where} must be between {low} and {high}, not a number of about {digits} digits"
        )
    return io_expect_int(value, where, low, high)


def _json_items(raw: object) -> list[Item]:
    if not isinstance(raw, list):
        raise NotationError(f"'placements' must be a list, not {json_type(raw)}")
    items: list[Item] = []
    for number, entry in enumerate(raw, start=1):
        where = f"placement {number}"
        obj = expect_object(entry, where)
        check_keys(obj, where, required=_PLACEMENT_KEYS)
        name = obj["card"]
        if not isinstance(name, str):
            raise NotationError(f"{where}: 'card' must be a card name, not {json_type(name)}")
        items.append(
            (
                name,
                expect_int(obj["x"], f"{where}: x", -MAX_COORD, MAX_COORD),
                expect_int(obj["y"], f"{where}: y", -MAX_COORD, MAX_COORD),
                expect_int(obj["rotation"], f"{where}: rotation", 0, 270),
            )
        )
    return items


def _document(document: object, what: str) -> dict[str, Any]:
    if isinstance(document, str):
        if not document.strip():
            raise NotationError(f"empty JSON {what}")
        document = load_json(document, f"JSON {what}")
    return expect_object(document, f"a {what} document")


# -- positions ----------------------------------------------------------------------------------


def _default_remaining(deck: Deck, table: Table, hypothetical: bool) -> tuple[int, ...]:
    left = Counter(dict(deck.counts))
    for p in table.history[1:]:
        if left[p.card] <= 0 and not hypothetical:
            raise NotationError(
                f"the table holds more {card_name(p.card)} cards than the {deck.edition} deck"
                f" ({deck.count(p.card)})"
            )
        left[p.card] -= 1
    return tuple(sorted(left.elements()))


def build_position(
    game: str,
    placements: Iterable[Item],
    remaining: Iterable[str] | None,
    deck: Deck | None = None,
    *,
    hypothetical: bool = False,
) -> Position:
    """Check and build a position from raw ``(card, x, y, rotation)`` items and card names.

    Errors name the offending placement by its number (1 = the super card). Unless
    ``hypothetical``, the table (after the super card) and the remaining cards together may
    hold no more copies of a card than the deck.
    """
    deck = deck_for(game, deck)
    table = build_table(placements, deck)
    if remaining is None:
        rest = _default_remaining(deck, table, hypothetical)
    else:
        rest = tuple(sorted(parse_cards(remaining, "remaining cards")))
    deck.check_counts(rest, "remaining cards", hypothetical=True)
    deck.check_counts(
        (*table.cards()[1:], *rest), "the table and the remaining cards", hypothetical=hypothetical
    )
    return Position(table, rest, game, hypothetical)


def check_json_game(data: Mapping[str, Any], game: str | None) -> None:
    """Refuse a document of another tunnel game than ``game`` (None: any game)."""
    if game is not None and "game" in data and data["game"] != game:
        raise NotationError(f'"game" must be "{game}", not {shown(data["game"])}')


def check_notation_game(found: str, game: str | None) -> None:
    """Refuse a notation of another tunnel game than ``game`` (None: any game)."""
    if game is not None and found != game:
        raise NotationError(
            f"the notation must start with the game name {game!r}, not {excerpt(found, 20)}"
        )


def from_json(
    document: object,
    deck: Deck | None = None,
    *,
    hypothetical: bool = False,
    game: str | None = None,
) -> Position:
    """Read a position document (JSON text or an already parsed object). With
    ``hypothetical`` the position may hold more copies of a card than the deck, as if the
    document said ``"hypothetical": true``. With ``game`` the document must be of that game
    (its ``"game"``); a document of the other tunnel game is refused."""
    data = _document(document, "position")
    check_json_game(data, game)
    if "hands" in data:
        raise NotationError(
            "this is a game state (it has 'hands'), not a position; read it as a game state"
        )
    check_keys(data, "position document", required=_POSITION_KEYS, optional=_POSITION_OPTIONAL)
    items = _json_items(data["placements"])
    rest = data.get("remaining")
    names: list[str] | None = None
    if rest is not None:
        if not isinstance(rest, list):
            raise NotationError(f"'remaining' must be a list of card names, not {json_type(rest)}")
        names = rest
    flag = data.get("hypothetical", False)
    if not isinstance(flag, bool):
        raise NotationError(f"'hypothetical' must be true or false, not {json_type(flag)}")
    return build_position(data["game"], items, names, deck, hypothetical=flag or hypothetical)


def to_json(position: Position) -> dict[str, object]:
    """The position document as a JSON-ready mapping."""
    out: dict[str, object] = {
        "game": position.game,
        "placements": [_placement_json(p) for p in position.table.history],
        "remaining": [card_name(c) for c in sorted(position.remaining)],
    }
    if position.hypothetical:
        out["hypothetical"] = True
    return out


def to_json_text(position: Position) -> str:
    """The position document as JSON text."""
    return json.dumps(to_json(position))


def to_notation(position: Position) -> str:
    """The one-line notation of a position."""
    parts = [position.game]
    if position.hypothetical:
        parts.append(HYPOTHETICAL)
    parts.extend(str(p) for p in position.table.history)
    parts.append("|")
    counts = Counter(position.remaining)
    for code in sorted(counts):
        n = counts[code]
        parts.append(card_name(code) if n == 1 else f"{card_name(code)}*{n}")
    return " ".join(parts)


def _split(text: object, what: str) -> tuple[str, bool, list[Item], list[str] | None]:
    """``(game, hypothetical, placements, words after the bar or None)`` of a notation."""
    if not isinstance(text, str):
        raise NotationError(f"a {what} notation must be text, not {json_type(text)}")
    tokens = text.split()
    if not tokens:
        raise NotationError(f"empty {what} notation")
    game = tokens[0]
    if "@" in game or game == "|":
        raise NotationError(f"the {what} notation must start with the game name, e.g. 'bandido'")
    i = 1
    hypothetical = i < len(tokens) and tokens[i] == HYPOTHETICAL
    if hypothetical:
        i += 1
    items: list[Item] = []
    while i < len(tokens) and tokens[i] != "|":
        items.append(parse_placement_token(tokens[i], f"placement {len(items) + 1}"))
        i += 1
    rest = tokens[i + 1 :] if i < len(tokens) else None
    return game, hypothetical, items, rest


def from_notation(
    text: object,
    deck: Deck | None = None,
    *,
    hypothetical: bool = False,
    game: str | None = None,
) -> Position:
    """Read the one-line notation of a position (``hypothetical``, ``game``: as
    :func:`from_json`; ``game`` is the first word)."""
    expected = game
    game, flag, items, rest = _split(text, "position")
    check_notation_game(game, expected)
    names: list[str] | None = None
    if rest is not None:
        if any("=" in token for token in rest):
            raise NotationError(
                "this is a game state (it has FIELD=VALUE words), not a position;"
                " read it as a game state"
            )
        names = []
        for token in rest:
            names.extend(_run_list(token, "remaining cards"))
    return build_position(game, items, names, deck, hypothetical=flag or hypothetical)


def parse_position(
    text: object,
    deck: Deck | None = None,
    *,
    hypothetical: bool = False,
    game: str | None = None,
) -> Position:
    """Read a position from either form (JSON when it starts with ``{``; ``hypothetical``,
    ``game``: as :func:`from_json`)."""
    if not isinstance(text, str):
        raise NotationError(f"a position must be given as text, not {json_type(text)}")
    if text.lstrip()[:1] in ("{", "["):
        return from_json(text, deck, hypothetical=hypothetical, game=game)
    return from_notation(text, deck, hypothetical=hypothetical, game=game)


def read_position(
    source: object,
    deck: Deck | None = None,
    *,
    hypothetical: bool = False,
    game: str | None = None,
) -> Position:
    """A position from text (notation or JSON), UTF-8 bytes, or a file holding either
    (``hypothetical``, ``game``: as :func:`from_json`)."""
    text, where = read_text(source, "position")
    try:
        return parse_position(text, deck, hypothetical=hypothetical, game=game)
    except NotationError as exc:
        if where == "position":
            raise
        raise NotationError(f"{where}: {exc}") from None


def position_of(state: object) -> Position:
    """The position of a game state: its table and every card not on it."""
    if not isinstance(state, GameState):
        raise NotationError(f"position_of needs a GameState, not {json_type(state)}")
    return Position(state.table, state.remaining(), "bandida" if state.options.mode else "bandido")


# -- game states --------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class StateParts:
    """A game state's fields as read, before the checks."""

    game: str
    items: list[Item]
    hands: list[list[str]]
    unseen: list[str]
    pile: list[str]
    to_draw: list[int]
    player: int
    turn: int
    changed: bool
    end: tuple[str, str] | None  # (outcome, reason code)
    options: Options
    extra: Mapping[str, Any] | None = None  # Bandida's fields, already typed (see below)


def state_to_notation(state: GameState, game: str = "bandido", base: Options | None = None) -> str:
    """The one-line notation of a game state (``base``: the game's default options)."""
    parts = [game, *(str(p) for p in state.table.history), "|"]
    parts.append("hands=" + "/".join(_runs(h) for h in state.hands))
    parts.append(f"player={state.player}")
    parts.append(f"turn={state.turn}")
    if state.unseen:
        parts.append("unseen=" + _runs(state.unseen))
    if state.pile:
        parts.append("pile=" + _runs(state.pile))
    if state.to_draw:
        parts.append("draw=" + ",".join(map(str, state.to_draw)))
    if state.changed:
        parts.append("changed=yes")
    if state.outcome is not None:
        parts.append(f"end={state.outcome}:{REASON_CODES[state.reason]}")
    changes = state.options.changes(base)
    if changes:
        parts.append("options=" + ",".join(f"{k}:{v}" for k, v in changes.items()))
    if state.options.mode:
        parts.append("sizes=" + ",".join(map(str, state.sizes)))
        if state.phase:
            parts.append("phase=" + ",".join(state.phase))
        if state.actor:
            parts.append(f"actor={state.actor}")
        if state.discard:
            parts.append("out=" + _runs(state.discard))
        if state.aside:
            parts.append("aside=" + _runs(state.aside))
        if state.left:
            parts.append(f"left={state.left}")
        if state.queue:
            parts.append("queue=" + ",".join(map(str, state.queue)))
        if state.hold:
            parts.append("hold=" + ",".join(map(str, state.hold)))
        if state.quiet >= 0:
            parts.append(f"quiet={state.quiet}")
        if state.top:
            parts.append(f"top={state.top}")
    return " ".join(parts)


def _numbers(text: str, what: str, high: int) -> list[int]:
    return [_number(t, what, "game state", 0, high) for t in text.split(",")] if text else []


def _extra_from_words(words: Mapping[str, str]) -> dict[str, Any]:
    """Bandida's fields from the notation words (types only; :func:`build_state` checks)."""
    return {
        "sizes": _numbers(words.get("sizes", ""), "sizes", 20),
        "phase": [p for p in words.get("phase", "").split(",") if p],
        "actor": _number(words.get("actor", "0"), "actor", "game state", 0, 3),
        "out": _run_list(words.get("out", ""), "cards out of the game"),
        "aside": _run_list(words.get("aside", ""), "cards set aside"),
        "left": _number(words.get("left", "0"), "left", "game state", 0, 5),
        "queue": _numbers(words.get("queue", ""), "queue", 3),
        "hold": _numbers(words.get("hold", ""), "hold", 3),
        "quiet": _number(words.get("quiet", "-1"), "quiet", "game state", -1, 3),
        "top": words.get("top", ""),
    }


def state_from_notation(
    text: object, base: Options | None = None, deck: Deck | None = None
) -> GameState:
    """Read the one-line notation of a game state (see the module notes)."""
    game, hypothetical, items, rest = _split(text, "game state")
    if hypothetical:
        raise NotationError("a game state cannot be hypothetical: it holds the whole deck")
    if rest is None or not any("=" in token for token in rest):
        # A position (table and remaining cards): its own errors first, then say what it is.
        from_notation(text, deck)
        raise NotationError(
            "this is a position (table and remaining cards), not a game state: a game state"
            " gives hands=..., player=... after the '|'"
        )
    words: dict[str, str] = {}
    for token in rest:
        key, eq, value = token.partition("=")
        if not eq:
            if "@" in token:
                raise NotationError(f"placement {excerpt(token)} after the '|'")
            raise NotationError(
                f"{excerpt(token)} is not FIELD=VALUE; a game state gives hands=..., player=..."
                " (a list of cards alone is a position)"
            )
        allowed = _STATE_WORDS + (BANDIDA_FIELDS if _is_bandida(game, base) else ())
        if key not in allowed:
            raise NotationError(
                f"unknown game state field {excerpt(key, 20)}"
                f" (fields are {', '.join(allowed)})"
            )
        if key in words:
            raise NotationError(f"game state field {key} given twice")
        words[key] = value
    for key in ("hands", "player"):
        if key not in words:
            raise NotationError(f"the game state has no {key}=...")
    hands = [_run_list(h, f"hand {i}") for i, h in enumerate(words["hands"].split("/"))]
    draw = words.get("draw", "")
    to_draw = [_number(d, "player", "draw", 0, 3) for d in draw.split(",")] if draw else []
    changed_text = words.get("changed", "no")
    if changed_text not in ("yes", "no"):
        raise NotationError(f"changed={excerpt(changed_text)} must be yes or no")
    end: tuple[str, str] | None = None
    if "end" in words:
        outcome, colon, code = words["end"].partition(":")
        if outcome not in (WON, LOST) or not colon or code not in REASONS:
            raise NotationError(
                f"end={excerpt(words['end'])} is not won:REASON or lost:REASON"
                f" (reasons: {', '.join(REASONS)})"
            )
        end = (outcome, code)
    changes: dict[str, str] = {}
    if words.get("options"):
        for pair in words["options"].split(","):
            name, colon, value = pair.partition(":")
            if not colon:
                raise NotationError(f"option {excerpt(pair)} is not NAME:VALUE")
            if name in changes:
                raise NotationError(f"option {excerpt(name, 20)} given twice")
            changes[name] = value
    parts = StateParts(
        game,
        items,
        hands,
        [] if "unseen" not in words else _run_list(words["unseen"], "unseen cards"),
        [] if "pile" not in words else _run_list(words["pile"], "pile"),
        to_draw,
        _number(words["player"], "player", "game state", 0, 3),
        _number(words.get("turn", "0"), "turn", "game state", 0, MAX_TURN),
        changed_text == "yes",
        end,
        _options(changes, base),
        _extra_from_words(words) if _is_bandida(game, base) else None,
    )
    return build_state(parts, deck)


def _is_bandida(game: object, base: Options | None) -> bool:
    return bool(base is not None and base.mode) or game == "bandida"


def _options(values: Mapping[str, object], base: Options | None) -> Options:
    bandida = base is not None and bool(base.mode)
    if not bandida:
        what = bandida_only(values)
        if what is not None:
            raise NotationError(f"game state options: {what} is an option of Bandida only")
    try:
        options = Options.from_mapping(values, base)
    except RuleOptionError as exc:
        raise NotationError(f"game state options: {exc}") from None
    if bandida and not options.mode:
        raise NotationError("game state options: mode must be 1, 2 or 3")
    return options


def state_to_json(state: GameState, game: str = "bandido") -> dict[str, Any]:
    """The game state as a JSON-ready mapping (every field, every option)."""
    return {
        "game": game,
        "placements": [_placement_json(p) for p in state.table.history],
        "hands": [[card_name(c) for c in hand] for hand in state.hands],
        "unseen": [card_name(c) for c in state.unseen],
        "pile": [card_name(c) for c in state.pile],
        "to_draw": list(state.to_draw),
        "player": state.player,
        "turn": state.turn,
        "changed": state.changed,
        "outcome": state.outcome,
        "reason": state.reason if state.outcome is not None else None,
        "options": _json_options(state.options),
        **(_extra_json(state) if state.options.mode else {}),
    }


def _json_options(options: Options) -> dict[str, object]:
    out = options.to_dict()
    if not options.mode:
        for name in BANDIDA_OPTIONS:
            del out[name]
    return out


def _extra_json(state: GameState) -> dict[str, Any]:
    return {
        "sizes": list(state.sizes),
        "phase": list(state.phase),
        "actor": state.actor,
        "out": [card_name(c) for c in state.discard],
        "aside": [card_name(c) for c in state.aside],
        "left": state.left,
        "queue": list(state.queue),
        "hold": list(state.hold),
        "quiet": state.quiet,
        "top": state.top,
    }


def state_from_json(
    document: object,
    base: Options | None = None,
    deck: Deck | None = None,
    *,
    settled: bool = False,
) -> GameState:
    """Read a game state document (JSON text or an already parsed object).

    With ``settled`` the state is carried on as after any move (known draws, forced ends: see
    :func:`~banditsolve.tunnels.game.settle`) instead of refused when the game would go on by
    itself: for hand-written puzzles."""
    data = _document(document, "game state")
    if "remaining" in data and "hands" not in data:
        from_json(data, deck)
        raise NotationError(
            "this is a position (table and remaining cards), not a game state: a game state"
            " gives 'hands', 'player' and the pile"
        )
    bandida = _is_bandida(data.get("game"), base)
    optional = _STATE_OPTIONAL + (BANDIDA_FIELDS if bandida else ())
    check_keys(data, "game state document", required=_STATE_REQUIRED, optional=optional)
    hands_raw = data["hands"]
    if not isinstance(hands_raw, list) or not all(isinstance(h, list) for h in hands_raw):
        raise NotationError(
            f"'hands' must be a list of lists of card names, not {json_type(hands_raw)}"
        )
    lists: dict[str, list[Any]] = {}
    for key in ("unseen", "pile", "to_draw"):
        value = data.get(key, [])
        if not isinstance(value, list):
            raise NotationError(f"'{key}' must be a list, not {json_type(value)}")
        lists[key] = value
    for key in ("unseen", "pile"):
        bad = [c for c in lists[key] if not isinstance(c, str)]
        if bad:
            raise NotationError(f"'{key}' must list card names, not {json_type(bad[0])}")
    for i, hand in enumerate(hands_raw):
        bad = [c for c in hand if not isinstance(c, str)]
        if bad:
            raise NotationError(f"hand {i} must list card names, not {json_type(bad[0])}")
    changed = data.get("changed", False)
    if not isinstance(changed, bool):
        raise NotationError(f"'changed' must be true or false, not {json_type(changed)}")
    outcome, reason = data.get("outcome"), data.get("reason")
    end: tuple[str, str] | None = None
    if outcome is None:
        if reason is not None:
            raise NotationError("'reason' is given but 'outcome' is null (the game is not over)")
    else:
        if outcome not in (WON, LOST):
            raise NotationError(
                f'\'outcome\' must be null, "won" or "lost", not {shown(outcome)}'
            )
        if not isinstance(reason, str) or reason not in REASON_CODES:
            raise NotationError(
                "'reason' must be one of the game's reasons in words"
                f" (codes: {', '.join(REASONS)}),"
                f" not {excerpt(reason) if isinstance(reason, str) else json_type(reason)}"
            )
        end = (outcome, REASON_CODES[reason])
    options = data.get("options", {})
    if not isinstance(options, dict):
        raise NotationError(f"'options' must be an object, not {json_type(options)}")
    parts = StateParts(
        data["game"],
        _json_items(data["placements"]),
        hands_raw,
        lists["unseen"],
        lists["pile"],
        [expect_int(p, "to_draw", 0, 3) for p in lists["to_draw"]],
        expect_int(data["player"], "'player'", 0, 3),
        expect_int(data.get("turn", 0), "'turn'", 0, MAX_TURN),
        changed,
        end,
        _options(options, base),
        _extra_from_json(data) if bandida else None,
    )
    return build_state(parts, deck, settled=settled)


def _extra_from_json(data: Mapping[str, Any]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key in ("sizes", "phase", "out", "aside", "queue", "hold"):
        value = data.get(key, [])
        if not isinstance(value, list):
            raise NotationError(f"'{key}' must be a list, not {json_type(value)}")
        kind = str if key in ("phase", "out", "aside") else int
        for item in value:
            if kind is int:
                expect_int(item, f"'{key}'", 0, 99)
            elif not isinstance(item, str):
                raise NotationError(f"'{key}' must list names, not {json_type(item)}")
        out[key] = value
    out["actor"] = expect_int(data.get("actor", 0), "'actor'", 0, 3)
    out["left"] = expect_int(data.get("left", 0), "'left'", 0, 5)
    out["quiet"] = expect_int(data.get("quiet", -1), "'quiet'", -1, 3)
    top = data.get("top", "")
    if not isinstance(top, str):
        raise NotationError(f"'top' must be \"alarm\", \"plain\" or \"\", not {json_type(top)}")
    out["top"] = top
    return out


def build_state(parts: StateParts, deck: Deck | None = None, *, settled: bool = False) -> GameState:
    """Check the parts of a game state against everything the game can reach and build it."""
    deck = deck_for(parts.game, deck)
    options = parts.options
    extra = dict(parts.extra or {})
    out = tuple(sorted(parse_cards(extra.get("out", []), "cards out of the game")))
    aside = tuple(sorted(parse_cards(extra.get("aside", []), "cards set aside")))
    removed = any(card_kind(c) == "map" for c in out) or any(
        card_kind(parse_ports(item[0])) == "map" for item in parts.items[1:] if _is_card(item[0])
    )
    table = build_table(parts.items, deck, removed=removed)
    start = table.history[0]
    side = deck.super_card(options.super_side)
    if start != Placement(side, 0, 0, 0):
        raise NotationError(
            f"a game starts with the super card's {options.super_side} side at 0,0,0"
            f" (option super_side), not {start}"
        )
    players = len(parts.hands)
    if not 1 <= players <= 4:
        raise NotationError(f"a game has 1 to 4 players, not {players} hands")
    hands = [tuple(sorted(parse_cards(h, f"hand {i}"))) for i, h in enumerate(parts.hands)]
    unseen = tuple(sorted(parse_cards(parts.unseen, "unseen cards")))
    pile = tuple(parse_cards(parts.pile, "pile"))
    everything = [
        *(hand_code(c) for c in table.cards()[1:]),
        *(c for h in hands for c in h),
        *unseen,
        *pile,
        *out,
        *aside,
    ]
    deck.check_counts(everything, "game state")
    cards = deck.cards(options.mode or None)
    surplus = Counter(everything) - Counter(cards)
    if surplus:
        raise NotationError(
            f"game state: {card_name(sorted(surplus)[0])} is not in the pile of mode"
            f" {options.mode}"
        )
    missing = Counter(cards) - Counter(everything)
    if missing:
        names = ", ".join(card_name(c) for c in sorted(missing)[:4])
        raise NotationError(
            f"game state: {plural(sum(missing.values()), 'card')} of the {deck.edition} deck"
            f" are nowhere (on the table, in a hand or in the pile): {names}"
            + (", ..." if len(missing) > 4 else "")
        )
    if not 0 <= parts.player < players:
        raise NotationError(f"player {parts.player} does not exist ({plural(players, 'player')})")
    for p in parts.to_draw:
        if not 0 <= p < players:
            raise NotationError(f"draw: player {p} does not exist ({plural(players, 'player')})")
    sizes = _check_extra(extra, players) if options.mode else ()
    for i, hand in enumerate(hands):
        owed = parts.to_draw.count(i)
        full = sizes[i] if sizes else options.hand_size
        # An alarm just drawn is held beside the hand until it is laid (BA-ALARM-2).
        phase = extra.get("phase", ())
        held = len(hand) - (1 if "alarm" in phase and i == extra["actor"] else 0)
        held -= 1 if i in extra.get("queue", ()) else 0
        # A broken tool leaves three cards to hold, whatever was held before (BA-OBJ-4).
        loose = i in extra.get("hold", ()) or ("tool" in phase and i == parts.player)
        if held + owed > full and not loose:
            raise NotationError(
                f"hand {i} holds {plural(len(hand), 'card')}"
                + (f" and is owed {owed}" if owed else "")
                + f", more than {'its hand size' if sizes else 'hand_size'} {full}"
            )
    if not 0 <= parts.turn <= MAX_TURN:
        raise NotationError(f"game state: turn must be between 0 and {MAX_TURN}, not {parts.turn}")
    state = GameState(
        table,
        tuple(hands),
        unseen,
        pile,
        parts.player,
        tuple(parts.to_draw),
        options,
        parts.changed,
        None if parts.end is None else parts.end[0],
        "" if parts.end is None else REASONS[parts.end[1]],
        parts.turn,
        sizes,
        tuple(extra.get("phase", ())),
        extra.get("actor", 0),
        out,
        aside,
        extra.get("left", 0),
        tuple(extra.get("queue", ())),
        tuple(sorted(set(extra.get("hold", ())))),
        extra.get("quiet", -1),
        _check_top(extra.get("top", ""), unseen),
    )
    if settled and parts.end is None:
        if not state.table.exit_count:
            return replace(state, outcome=WON, reason=REASONS["no-exit"], to_draw=())
        lost = table_loss(state)  # a hole or dead exit that loses for good (BA-END-2)
        if lost is not None:
            return lost
        state = settle(state)
        if state.outcome is not None:
            return state
    _check_reachable(state, parts.end)
    return state


def _check_top(top: str, unseen: Sequence[int]) -> str:
    """The back seen on top of the unseen pile: consistent with the unseen cards."""
    if top not in ("", "alarm", "plain"):
        raise NotationError(f"top={excerpt(top, 20)} is not alarm or plain")
    if top and not any((card_kind(c).startswith("alarm")) == (top == "alarm") for c in unseen):
        raise NotationError(f"top={top}: no such card among the unseen cards")
    return top


def _is_card(name: str) -> bool:
    try:
        parse_ports(name)
    except NotationError:
        return False
    return True


def _check_extra(extra: Mapping[str, Any], players: int) -> tuple[int, ...]:
    """Bandida's fields checked against the number of players; the hand sizes returned."""
    sizes = tuple(extra.get("sizes", ()))
    if len(sizes) != players or not all(0 <= n <= 20 for n in sizes):
        raise NotationError(f"sizes must give {plural(players, 'hand size')} of 0..20")
    phase = tuple(extra.get("phase", ()))
    for i, name in enumerate(phase):
        if name not in PHASES:
            raise NotationError(
                f"phase {excerpt(name, 20)} is not one of {', '.join(PHASES)}"
            )
        if name in ("alarm", "discard", "five", "deal") and i != len(phase) - 1:
            raise NotationError(f"phase {name} can only be the last (innermost) one")
    if len(set(phase)) != len(phase):
        raise NotationError("a phase is listed twice")
    top = phase[-1] if phase else ""
    for key in ("actor", "quiet"):
        value = extra.get(key, 0)
        if not (-1 if key == "quiet" else 0) <= value < players:
            raise NotationError(f"{key}: player {value} does not exist")
    queue = extra.get("queue", [])
    if any(not 0 <= p < players for p in (*queue, *extra.get("hold", []))):
        raise NotationError(f"queue/hold: no such player ({plural(players, 'player')})")
    if bool(queue) != (top == "discard") or len(set(queue)) != len(queue):
        raise NotationError("queue lists the players still to discard, only in phase discard")
    if (extra.get("left", 0) > 0) != (top == "five"):
        raise NotationError("left counts the cards an alarm still discards, only in phase five")
    if extra.get("aside") and top != "five":
        raise NotationError("aside: cards are set aside only while an alarm discards five")
    return sizes


def _check_reachable(state: GameState, end: tuple[str, str] | None) -> None:
    """Refuse an end that does not hold and a state the game would not stop at."""
    exits = state.table.exit_count
    if end is None:
        if not exits:
            raise NotationError("no exit is left, so the game is won: write end=won:no-exit")
        lost = table_loss(state)
        if lost is not None:
            raise NotationError(
                f"the game is already over ({lost.reason}):"
                f" write end=lost:{REASON_CODES[lost.reason]}"
            )
        after = settle(state)
        if after != state:
            what = (
                f"the game is already over ({after.reason})"
                if after.outcome is not None
                else "the game would go on by itself from here (a known card is owed, or the"
                " turn passes)"
            )
            raise NotationError(f"not a state the game stops at: {what}")
        return
    outcome, code = end
    if (outcome == WON) != (code == "no-exit"):
        raise NotationError(f"end={outcome}:{code} does not go together")
    if state.to_draw:
        raise NotationError("a finished game owes no card (draw=...)")
    holds = {
        "no-exit": not exits,
        "hole": hole_loses(state),
        "pile-empty": state.options.pile_out == "end" and not state.pile_size,
        "dead-exit": dead_exit_loses(state),
        "stuck": exits > 0 and bool(state.remaining()),
        "all-down": exits > 0 and not state.remaining(),
        "no-ladder": not exits and state.options.mode == 2,
        "no-join": not exits and state.options.mode == 3,
        "no-draw": state.options.pile_out == "must_draw" and not state.pile_size,
    }[code]
    if state.options.mode and code in ("no-exit", "no-ladder", "no-join"):
        holds = mode_end(replace(state, outcome=None, reason="")).reason == REASONS[code]
    if not holds:
        raise NotationError(f"end={outcome}:{code}: {REASONS[code]} is not true of this table")
    if outcome == LOST and not exits and code not in ("no-ladder", "no-join"):
        raise NotationError("no exit is left, so the game is won, not lost")
