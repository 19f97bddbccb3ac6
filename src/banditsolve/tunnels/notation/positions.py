"""Positions (a table and the cards still to come): their JSON documents and one-line
notations, read and written.

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
remaining cards are the game's pile minus the cards on the table.

A position of a game with modes (Bandida, BA-CLOSE-1) is a question of one mode: its cards are
that mode's components (the deck's data says which: BA-SETUP-4, BA-DECK-5), and without
remaining cards they are that mode's pile less the table. The mode is said by the word
``mode=M`` after the game name (``bandida mode=2 L+TL+TR+R+BR+BL@0,0,0 | L:ladder TL``), by
``"mode": M`` in JSON, or by the reader's ``mode`` keyword; without one it is the game's first
mode (Bandida's mode 1, its default). The notation writes the word for any other mode, JSON
always. A game without modes (Bandido) has none: its positions read and write as they always
did.

A position must be one the real game can hold: the super card first and nowhere else, and no
more copies of a card (on the table after the super card and among the remaining cards) than
the deck has. A puzzle that wants more says so: ``"hypothetical": true`` in JSON, the word
``hypothetical`` right after the game name in the notation
(``bandido hypothetical L+TL+TR+R+BR+BL@0,0,0 | L*5``).
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from banditsolve.core.io import (
    check_keys,
    expect_object,
    json_type,
    read_document,
    read_state,
)
from banditsolve.core.io import expect_int as io_expect_int
from banditsolve.core.limits import MAX_CARD_COPIES, MAX_COORD
from banditsolve.core.text import excerpt, shown
from banditsolve.errors import ArgumentTypeError, BanditsolveError, NotationError, RuleOptionError
from banditsolve.tunnels.cards import (
    FIRST_MODE,
    MAX_MODES,
    Deck,
    canonical_code,
    card_name,
    hand_code,
    load_deck,
    names_map,
    parse_card,
    parse_ports,
)
from banditsolve.tunnels.geometry import ROTATIONS, Placement, normalise
from banditsolve.tunnels.render import ascii_art, svg
from banditsolve.tunnels.table import Table

_POSITION_KEYS = ("game", "placements")
_POSITION_OPTIONAL = ("remaining", "hypothetical", "mode")
_PLACEMENT_KEYS = ("card", "x", "y", "rotation")
HYPOTHETICAL = "hypothetical"
#: The notation's word that names a position's mode (``mode=2``).
MODE_WORD = "mode="

Item = tuple[str, int, int, int]


@dataclass(frozen=True, slots=True)
class Position:
    """A table and the multiset of cards still available (sorted codes).

    ``hypothetical``: the position may hold more copies of a card than the deck has (a puzzle
    that says so); otherwise it is one the real game can reach. ``mode``: the game mode the
    position is a question of (Bandida's 1, 2 or 3: its cards are that mode's components, and
    the closure question asks that mode's goal, BA-CLOSE-1); None for a game without modes.
    """

    table: Table
    remaining: tuple[int, ...]
    game: str = "bandido"
    hypothetical: bool = False
    mode: int | None = None

    def _repr_svg_(self) -> str:
        """The table with its exits, dead exits marked against the cards to come, and the
        cards to come written under it."""
        return svg(self.table, remaining=self.remaining, caption=self.cards_line())

    def __str__(self) -> str:
        """The ASCII picture: the table, its exits and dead exits, then the cards to come."""
        return f"{ascii_art(self.table, self.remaining)}\n{self.cards_line()}"

    def __repr__(self) -> str:
        """``parse_position('...')``: the expression that reads the position back through its
        notation (``parse_position`` of :mod:`banditsolve.tunnels`)."""
        return f"parse_position({to_notation(self)!r})"

    def cards_line(self) -> str:
        """The cards to come, in words: ``cards to come (7): L*2 TL*2 ...``."""
        cards = runs(self.remaining).replace(",", " ") or "-"
        return f"cards to come ({len(self.remaining)}): {cards}"


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


def number(
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
    # (leading zeros are no digits too many: 000090 is 90)
    if len(body.lstrip("0")) > len(str(max(-low, high))) or not low <= int(text) <= high:
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
        number(f, w, where) for f, w in zip(parts, ("x", "y", "rotation"), strict=True)
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


def run_list(value: str, where: str) -> list[str]:
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
            digits = count.isascii() and count.isdigit() and len(count) <= 3
            if not digits or not 1 <= int(count) <= MAX_CARD_COPIES:
                raise NotationError(
                    f"{where}: the count N of CARD*N must be between 1 and {MAX_CARD_COPIES}, not"
                    f" {excerpt(count, 20)} (in {excerpt(item)})"
                )
            n = int(count)
        out.extend([name] * n)
    return out


def runs(codes: Sequence[int]) -> str:
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


def placement_json(p: Placement) -> dict[str, object]:
    return {"card": card_name(p.card), "x": p.x, "y": p.y, "rotation": p.rotation}


def expect_int(value: object, where: str, low: int, high: int) -> int:
    """:func:`banditsolve.core.io.expect_int`, also for an int too long to print."""
    if isinstance(value, int) and not isinstance(value, bool) and value.bit_length() > 64:
        digits = int(value.bit_length() * 0.30103) + 1
        raise NotationError(
            f"{where} must be between {low} and {high}, not a number of about {digits} digits"
        )
    return io_expect_int(value, where, low, high)


def json_items(raw: object) -> list[Item]:
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


# -- positions ----------------------------------------------------------------------------------


def _default_remaining(
    deck: Deck, table: Table, hypothetical: bool, mode: int | None
) -> tuple[int, ...]:
    """The cards of the game's pile (of ``mode``, for a game with modes) less those on the
    table."""
    left = Counter(deck.cards(mode))
    laid: Counter[int] = Counter()
    for p in table.history[1:]:
        code = hand_code(p.card)
        laid[code] += 1
        if laid[code] > deck.count(code) and not hypothetical:
            raise NotationError(
                f"the table holds more {card_name(code)} cards than the {deck.edition} deck"
                f" ({deck.count(code)})"
            )
        if left[code] > 0:
            left[code] -= 1
    return tuple(sorted(left.elements()))


def position_mode(deck: Deck, asked: object = None, said: object = None) -> int | None:
    """The mode a position of ``deck``'s game is a question of: ``asked`` (the reader's
    ``mode`` keyword) or ``said`` (the position's own ``mode=M`` or ``"mode"``), which must
    agree when both are given, or else the game's first mode; None for a game without modes.
    A mode the game does not have is refused (:meth:`~banditsolve.tunnels.cards.Deck.
    mode_of`: the same verdict as option ``mode``)."""
    chosen = deck.mode_of(asked)
    try:
        written = deck.mode_of(said)
    except RuleOptionError as exc:
        raise NotationError(f"position: {exc}") from None
    if chosen is not None and written is not None and chosen != written:
        raise NotationError(
            f"the position is of mode {written} ({MODE_WORD}{written}), not of mode {chosen}"
            " as asked: give one of them"
        )
    found = chosen if chosen is not None else written
    if found is None and deck.game_modes:
        return deck.game_modes[0]
    return found


def build_position(
    game: str,
    placements: Iterable[Item],
    remaining: Iterable[str] | None,
    deck: Deck | None = None,
    *,
    hypothetical: bool = False,
    mode: int | None = None,
) -> Position:
    """Check and build a position from raw ``(card, x, y, rotation)`` items and card names.

    Errors name the offending placement by its number (1 = the super card). Unless
    ``hypothetical``, the table (after the super card) and the remaining cards together may
    hold no more copies of a card than the deck. ``mode`` (a game with modes: see
    :func:`position_mode`; by default the game's first mode): the table and the remaining
    cards may hold only that mode's components (refused with the rule's ID: the ladder outside
    modes 2 and 3, BA-SETUP-4; Bandido's super card outside mode 3, BA-DECK-5). Without
    ``remaining``, the remaining cards are the game's pile (the mode's) less the table.
    """
    deck = deck_for(game, deck)
    chosen = position_mode(deck, mode)
    items = list(placements)
    # (A table with a map on it, as a game state's after its removal (BA-NOTE-1), may hold a
    # card that joined the tunnels only through a card the map took off.)
    # (a raw placement naming a map: its own checks come in build_table)
    removed = any(isinstance(i, tuple | list) and i and names_map(i[0]) for i in items[1:])
    table = build_table(items, deck, removed=removed)
    if remaining is None:
        rest = _default_remaining(deck, table, hypothetical, chosen)
    else:
        rest = tuple(sorted(parse_cards(remaining, "remaining cards")))
    # (Either side of Bandido's super card is its one card: hand_code.)
    cards = [hand_code(c) for c in (*table.cards()[1:], *rest)]
    deck.check_counts([hand_code(c) for c in rest], "remaining cards", hypothetical=True)
    deck.check_counts(cards, "the table and the remaining cards", hypothetical=hypothetical)
    if chosen is not None:
        deck.refuse_outside(cards, chosen)
    return Position(table, rest, game, hypothetical, chosen)


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
    mode: int | None = None,
) -> Position:
    """Read a position document (JSON text or an already parsed object). With
    ``hypothetical`` the position may hold more copies of a card than the deck, as if the
    document said ``"hypothetical": true``. With ``game`` the document must be of that game
    (its ``"game"``); a document of the other tunnel game is refused. ``mode``: the mode asked
    (a game with modes), which the document's ``"mode"`` must agree with when it has one (see
    :func:`position_mode` and :func:`build_position`)."""
    data = read_document(document, "position")
    check_json_game(data, game)
    if "hands" in data:
        raise NotationError(
            "this is a game state (it has 'hands'), not a position; read it as a game state"
        )
    check_keys(data, "position document", required=_POSITION_KEYS, optional=_POSITION_OPTIONAL)
    items = json_items(data["placements"])
    rest = data.get("remaining")
    names: list[str] | None = None
    if rest is not None:
        if not isinstance(rest, list):
            raise NotationError(f"'remaining' must be a list of card names, not {json_type(rest)}")
        names = rest
    flag = data.get("hypothetical", False)
    if not isinstance(flag, bool):
        raise NotationError(f"'hypothetical' must be true or false, not {json_type(flag)}")
    said = data.get("mode")
    if said is not None:
        said = expect_int(said, "'mode'", 1, MAX_MODES)
    chosen = position_mode(deck_for(data["game"], deck), mode, said)
    return build_position(
        data["game"], items, names, deck, hypothetical=flag or hypothetical, mode=chosen
    )


def to_json(position: Position) -> dict[str, object]:
    """The position document as a JSON-ready mapping."""
    out: dict[str, object] = {
        "game": position.game,
        "placements": [placement_json(p) for p in position.table.history],
        "remaining": [card_name(c) for c in sorted(position.remaining)],
    }
    if position.hypothetical:
        out["hypothetical"] = True
    if position.mode is not None:
        out["mode"] = position.mode
    return out


def to_json_text(position: Position) -> str:
    """The position document as JSON text."""
    return json.dumps(to_json(position))


def to_notation(position: Position) -> str:
    """The one-line notation of a position."""
    parts = [position.game]
    if position.hypothetical:
        parts.append(HYPOTHETICAL)
    if position.mode is not None and position.mode != FIRST_MODE:
        parts.append(f"{MODE_WORD}{position.mode}")
    parts.extend(str(p) for p in position.table.history)
    parts.append("|")
    counts = Counter(position.remaining)
    for code in sorted(counts):
        n = counts[code]
        parts.append(card_name(code) if n == 1 else f"{card_name(code)}*{n}")
    return " ".join(parts)


@dataclass(frozen=True, slots=True)
class Notation:
    """A notation's parts: the game name, the word ``hypothetical``, the word ``mode=M`` (its
    ``M``, or None), the placements and the words after the bar (None without a bar)."""

    game: str
    hypothetical: bool
    mode: str | None
    items: list[Item]
    rest: list[str] | None


def split_notation(text: object, what: str) -> Notation:
    """The parts of a notation (:class:`Notation`): the game name, then the words
    ``hypothetical`` and ``mode=M`` (each at most once, in either order), the placements, and
    the words after the bar."""
    if not isinstance(text, str):
        raise ArgumentTypeError(f"a {what} notation must be text, not {json_type(text)}")
    tokens = text.split()
    if not tokens:
        raise NotationError(f"empty {what} notation")
    game = tokens[0]
    if "@" in game or game == "|":
        raise NotationError(f"the {what} notation must start with the game name, e.g. 'bandido'")
    i = 1
    hypothetical = False
    mode: str | None = None
    while i < len(tokens):
        if tokens[i] == HYPOTHETICAL and not hypothetical:
            hypothetical = True
        elif tokens[i].startswith(MODE_WORD) and mode is None:
            mode = tokens[i][len(MODE_WORD) :]
        else:
            break
        i += 1
    items: list[Item] = []
    while i < len(tokens) and tokens[i] != "|":
        items.append(parse_placement_token(tokens[i], f"placement {len(items) + 1}"))
        i += 1
    rest = tokens[i + 1 :] if i < len(tokens) else None
    return Notation(game, hypothetical, mode, items, rest)


def from_notation(
    text: object,
    deck: Deck | None = None,
    *,
    hypothetical: bool = False,
    game: str | None = None,
    mode: int | None = None,
) -> Position:
    """Read the one-line notation of a position (``hypothetical``, ``game``, ``mode``: as
    :func:`from_json`; ``game`` is the first word, the notation's mode its ``mode=M``)."""
    parts = split_notation(text, "position")
    check_notation_game(parts.game, game)
    said = None
    if parts.mode is not None:
        said = number(parts.mode, "mode", "position", 1, MAX_MODES)
    chosen = position_mode(deck_for(parts.game, deck), mode, said)
    names: list[str] | None = None
    rest = parts.rest
    if rest is not None:
        if any("=" in token for token in rest):
            raise NotationError(
                "this is a game state (it has FIELD=VALUE words), not a position;"
                " read it as a game state"
            )
        names = []
        for token in rest:
            names.extend(run_list(token, "remaining cards"))
    return build_position(
        parts.game,
        parts.items,
        names,
        deck,
        hypothetical=parts.hypothetical or hypothetical,
        mode=chosen,
    )


def parse_position(
    text: object,
    deck: Deck | None = None,
    *,
    hypothetical: bool = False,
    game: str | None = None,
    mode: int | None = None,
) -> Position:
    """Read a position from either form (JSON when it starts with ``{``; ``hypothetical``,
    ``game``, ``mode``: as :func:`from_json`)."""
    if not isinstance(text, str):
        raise ArgumentTypeError(f"a position must be given as text, not {json_type(text)}")
    if text.lstrip()[:1] in ("{", "["):
        return from_json(text, deck, hypothetical=hypothetical, game=game, mode=mode)
    return from_notation(text, deck, hypothetical=hypothetical, game=game, mode=mode)


def read_position(
    source: object,
    deck: Deck | None = None,
    *,
    hypothetical: bool = False,
    game: str | None = None,
    mode: int | None = None,
) -> Position:
    """A position from text (notation or JSON), UTF-8 bytes, a file holding either, or ``-``
    (standard input): :func:`banditsolve.core.io.read_state` with the two readers
    (``hypothetical``, ``game``, ``mode``: as :func:`from_json`)."""
    return read_state(
        source,
        notation=lambda text: from_notation(
            text, deck, hypothetical=hypothetical, game=game, mode=mode
        ),
        json_document=lambda data: from_json(
            data, deck, hypothetical=hypothetical, game=game, mode=mode
        ),
        what="position",
    )
