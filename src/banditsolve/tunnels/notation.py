"""Positions: the JSON document and the one-line notation, read and written.

JSON::

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
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path

from banditsolve.errors import BanditsolveError, NotationError
from banditsolve.tunnels.cards import (
    Deck,
    canonical_code,
    card_name,
    load_deck,
    parse_card,
    parse_ports,
)
from banditsolve.tunnels.geometry import ROTATIONS, normalise
from banditsolve.tunnels.table import Table

#: Coordinates further than this from the origin are refused.
MAX_COORD = 10_000
_KEYS = {"game", "placements", "remaining"}
_PLACEMENT_KEYS = {"card", "x", "y", "rotation"}


@dataclass(frozen=True, slots=True)
class Position:
    """A table and the multiset of cards still available (sorted codes)."""

    table: Table
    remaining: tuple[int, ...]
    game: str = "bandido"

    def _repr_svg_(self) -> str:
        from banditsolve.tunnels.render import svg

        return svg(self.table, remaining=self.remaining)

    def __str__(self) -> str:
        return to_notation(self)


def _deck_for(game: str, deck: Deck | None) -> Deck:
    if deck is not None:
        return deck
    if not (game.isascii() and game.isalpha() and game.islower()):
        raise NotationError(f"unknown game {game[:40]!r}")
    try:
        return load_deck(game)
    except BanditsolveError as exc:
        raise NotationError(f"unknown game {game!r}") from exc


def _default_remaining(deck: Deck, table: Table) -> tuple[int, ...]:
    left = Counter(dict(deck.counts))
    for p in table.history[1:]:
        if left[p.card] <= 0:
            raise NotationError(
                f"the table holds more {card_name(p.card)} cards than the {deck.edition} deck;"
                " give 'remaining' explicitly"
            )
        left[p.card] -= 1
    return tuple(sorted(left.elements()))


def build_position(
    game: str,
    placements: Iterable[tuple[str, int, int, int]],
    remaining: Iterable[str] | None,
    deck: Deck | None = None,
) -> Position:
    """Check and build a position from raw ``(card, x, y, rotation)`` items and card names.

    Errors name the offending placement by its number (1 = the super card).
    """
    deck = _deck_for(game, deck)
    supers = dict(deck.super_sides).values()
    table = Table.empty()
    for number, (name, x, y, rotation) in enumerate(placements, start=1):
        where = f"placement {number} ({name} at ({x}, {y}) rot {rotation})"
        try:
            raw = parse_ports(name)
        except NotationError as exc:
            raise NotationError(f"{where}: {exc}") from exc
        code = canonical_code(raw)
        if abs(x) > MAX_COORD or abs(y) > MAX_COORD:
            raise NotationError(f"{where}: coordinates beyond ±{MAX_COORD}")
        if rotation not in ROTATIONS:
            raise NotationError(f"{where}: rotation must be 0, 90, 180 or 270")
        if number == 1 and code not in supers:
            raise NotationError(f"{where}: the first placement must be the super card")
        if number > 1 and (code in supers or not deck.knows(code)):
            raise NotationError(f"{where}: {name} is not a card of the {deck.edition} deck")
        try:
            table = table.place(normalise(raw, x, y, rotation))
        except BanditsolveError as exc:
            raise NotationError(str(exc)) from exc
    if not table.history:
        raise NotationError("a position needs at least the super card")
    if remaining is None:
        rest = _default_remaining(deck, table)
    else:
        codes = []
        for i, name in enumerate(remaining):
            try:
                code = parse_card(name)
            except NotationError as exc:
                raise NotationError(f"remaining card {i + 1}: {exc}") from exc
            if not deck.knows(code):
                raise NotationError(
                    f"remaining card {i + 1}: {name} is not a card of the {deck.edition} deck"
                )
            codes.append(code)
        rest = tuple(sorted(codes))
    return Position(table, rest, game)


def _int(value: object, what: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise NotationError(f"{what} must be an integer, not {value!r:.40}")
    return value


def from_json(document: str | Mapping[str, object], deck: Deck | None = None) -> Position:
    """Read a position document (a JSON string or an already parsed mapping)."""
    if isinstance(document, str):
        try:
            data: object = json.loads(document)
        except (ValueError, RecursionError) as exc:
            raise NotationError(f"not a JSON document: {str(exc)[:80]}") from exc
    else:
        data = document
    if not isinstance(data, Mapping):
        raise NotationError("a position document must be a JSON object")
    extra = set(data) - _KEYS
    if extra:
        raise NotationError(f"unknown keys in position document: {sorted(map(str, extra))}")
    game = data.get("game")
    if not isinstance(game, str):
        raise NotationError("'game' must be a string such as \"bandido\"")
    raw = data.get("placements")
    if not isinstance(raw, list):
        raise NotationError("'placements' must be a list")
    items: list[tuple[str, int, int, int]] = []
    for number, entry in enumerate(raw, start=1):
        if not isinstance(entry, Mapping):
            raise NotationError(f"placement {number}: must be an object")
        if set(entry) != _PLACEMENT_KEYS:
            raise NotationError(f"placement {number}: needs exactly the keys card, x, y, rotation")
        name = entry["card"]
        if not isinstance(name, str):
            raise NotationError(f"placement {number}: 'card' must be a card name")
        items.append(
            (
                name,
                _int(entry["x"], f"placement {number}: x"),
                _int(entry["y"], f"placement {number}: y"),
                _int(entry["rotation"], f"placement {number}: rotation"),
            )
        )
    rest = data.get("remaining")
    names: list[str] | None = None
    if rest is not None:
        if not isinstance(rest, list) or not all(isinstance(n, str) for n in rest):
            raise NotationError("'remaining' must be a list of card names")
        names = list(rest)
    return build_position(game, items, names, deck)


def to_json(position: Position) -> dict[str, object]:
    """The position document as a JSON-ready mapping."""
    return {
        "game": position.game,
        "placements": [
            {"card": card_name(p.card), "x": p.x, "y": p.y, "rotation": p.rotation}
            for p in position.table.history
        ],
        "remaining": [card_name(c) for c in sorted(position.remaining)],
    }


def to_json_text(position: Position) -> str:
    """The position document as JSON text."""
    return json.dumps(to_json(position))


def to_notation(position: Position) -> str:
    """The one-line notation of a position."""
    parts = [position.game]
    parts.extend(f"{card_name(p.card)}@{p.x},{p.y},{p.rotation}" for p in position.table.history)
    parts.append("|")
    counts = Counter(position.remaining)
    for code in sorted(counts):
        n = counts[code]
        parts.append(card_name(code) if n == 1 else f"{card_name(code)}*{n}")
    return " ".join(parts)


def from_notation(text: str, deck: Deck | None = None) -> Position:
    """Read the one-line notation."""
    if not isinstance(text, str):
        raise NotationError("notation must be a string")
    tokens = text.split()
    if not tokens:
        raise NotationError("empty position notation")
    game = tokens[0]
    if "@" in game or game == "|":
        raise NotationError("the notation must start with the game name, e.g. 'bandido'")
    items: list[tuple[str, int, int, int]] = []
    i = 1
    while i < len(tokens) and tokens[i] != "|":
        token = tokens[i]
        number = len(items) + 1
        name, at, coords = token.partition("@")
        fields = coords.split(",")
        if not at or len(fields) != 3:
            raise NotationError(
                f"placement {number}: {token[:40]!r} is not of the form CARD@X,Y,ROTATION"
            )
        try:
            x, y, rotation = (int(f) for f in fields)
        except ValueError as exc:
            raise NotationError(f"placement {number}: bad number in {token[:40]!r}") from exc
        items.append((name, x, y, rotation))
        i += 1
    names: list[str] | None = None
    if i < len(tokens):
        names = []
        for token in tokens[i + 1 :]:
            name, star, count = token.partition("*")
            n = 1
            if star:
                if not count.isdigit() or len(count) > 3 or int(count) < 1:
                    raise NotationError(f"bad count in remaining card {token[:40]!r}")
                n = int(count)
            names.extend([name] * n)
    return build_position(game, items, names, deck)


def parse_position(text: str, deck: Deck | None = None) -> Position:
    """Read a position from either form (JSON when it starts with ``{``)."""
    if not isinstance(text, str):
        raise NotationError("a position must be given as text")
    if text.lstrip().startswith("{"):
        return from_json(text, deck)
    return from_notation(text, deck)


def read_position(source: str, deck: Deck | None = None) -> Position:
    """A position from a file (JSON or notation) or, if no such file, from the text itself."""
    path = Path(source)
    try:
        is_file = path.is_file()
    except (OSError, ValueError):
        is_file = False
    if is_file:
        return parse_position(path.read_text(encoding="utf-8"), deck)
    text = source.strip()
    if text.endswith(".json") or (text and " " not in text and ("/" in text or "\\" in text)):
        # Not notation (which starts with the game's name and holds spaces): a path.
        what = "is a directory, not a file" if path.is_dir() else "no such file"
        raise NotationError(f"{source}: {what}")
    return parse_position(source, deck)


def position_of(state: object) -> Position:
    """The position of a game state: its table and every card not on it."""
    from banditsolve.tunnels.game import GameState

    if not isinstance(state, GameState):
        raise NotationError("position_of needs a GameState")
    return Position(state.table, state.remaining(), "bandido")
