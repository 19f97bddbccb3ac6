"""Tunnel cards: ports as a 6-bit mask, names, half turns, card kinds and decks.

A card lies in its reference frame horizontally: square A on the west, square B on the east.
Its six possible openings ("ports") are numbered in the order ``L, TL, TR, R, BR, BL``; a card's
port set is the bitmask with bit ``i`` set when port ``i`` is open. A half turn maps port ``i`` to
port ``(i + 3) % 6`` (``L<->R``, ``TL<->BR``, ``TR<->BL``), so it is a 3-bit rotation of the mask.

A *card code* is a small int: the canonical port mask in bits 0-5 and the card's kind index
(see :data:`KINDS`) from bit 6 up. Bandido only has kind 0 (plain tunnel cards), so there a
card code is just its canonical port mask.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from functools import cache
from importlib import resources
from pathlib import Path

from banditsolve.core.io import load_json, read_text
from banditsolve.core.limits import MAX_CARD_COPIES, MAX_DECK_CARDS
from banditsolve.core.text import excerpt
from banditsolve.errors import ArgumentTypeError, DataError, NotationError, RuleOptionError

#: Port names in bit order.
PORTS: tuple[str, ...] = ("L", "TL", "TR", "R", "BR", "BL")
PORT_BIT: dict[str, int] = {name: 1 << i for i, name in enumerate(PORTS)}
#: Ports on square A (west square in the reference frame) and on square B.
SQUARE_A_PORTS = PORT_BIT["L"] | PORT_BIT["TL"] | PORT_BIT["BL"]
SQUARE_B_PORTS = PORT_BIT["TR"] | PORT_BIT["R"] | PORT_BIT["BR"]
#: The port bits of a card code (bits 0-5): every port open.
PORT_MASK = 0b111111
#: A card code's kind index starts at this bit.
KIND_SHIFT = 6

#: Card kinds, as data: plain tunnels, and the special cards of Bandida (seed 003): the ladder,
#: the five objects, the two alarms and, in Bandida's mode 3, Bandido's super card shuffled into
#: the pile (``bandido_super``; its code carries the 6-exit mask, and either side may be laid).
KINDS: tuple[str, ...] = (
    "tunnel",
    "ladder",
    "backpack",
    "water_bottle",
    "broken_tool",
    "dynamite",
    "map",
    "alarm_discard_five",
    "alarm_discard_one",
    "bandido_super",
)
KIND_INDEX: dict[str, int] = {kind: i for i, kind in enumerate(KINDS)}
#: The object kinds (effects when laid, BA-OBJ-*), the alarm kinds (BA-ALARM-*).
OBJECT_KINDS: frozenset[str] = frozenset(
    {"backpack", "water_bottle", "broken_tool", "dynamite", "map"}
)
ALARM_KINDS: frozenset[str] = frozenset({"alarm_discard_five", "alarm_discard_one"})

SUPER6 = PORT_MASK
#: The 5-exit side of the super card: every port but ``L``.
SUPER5 = PORT_MASK & ~PORT_BIT["L"]
#: Bandido's super card as a card of Bandida's mode-3 pile (its hand code is the 6-exit side).
BANDIDO_SUPER6 = SUPER6 | (KIND_INDEX["bandido_super"] << KIND_SHIFT)
BANDIDO_SUPER5 = SUPER5 | (KIND_INDEX["bandido_super"] << KIND_SHIFT)
ALIASES: dict[str, int] = {
    "super6": SUPER6,
    "super5": SUPER5,
    "bandido6": BANDIDO_SUPER6,
    "bandido5": BANDIDO_SUPER5,
}


def half_turn(mask: int) -> int:
    """The port mask of a card turned half round in its own frame (a 3-bit rotation)."""
    mask &= PORT_MASK
    return ((mask << 3) | (mask >> 3)) & PORT_MASK


def _port_tuple(mask: int) -> tuple[int, ...]:
    return tuple(i for i in range(6) if mask >> i & 1)


@cache
def canonical(mask: int) -> int:
    """The canonical one of ``mask`` and its half turn.

    The canonical mask is the one whose sorted port indices come first lexicographically
    (so ``L`` is preferred over ``R``), except that of two five-port masks the one without
    ``L`` is canonical (the super card's 5-exit side is ``TL+TR+R+BR+BL``).
    """
    mask &= PORT_MASK
    other = half_turn(mask)
    if mask.bit_count() == 5 and (mask ^ other) & 1:
        return mask if not mask & 1 else other
    return min(mask, other, key=_port_tuple)


def is_symmetric(mask: int) -> bool:
    """True when a half turn leaves the port set unchanged."""
    return half_turn(mask) == mask & PORT_MASK


def is_dead_end(mask: int) -> bool:
    """True when every opening is on one square (the other square shows the flashlight)."""
    mask &= PORT_MASK
    return bool(mask) and (not mask & SQUARE_A_PORTS or not mask & SQUARE_B_PORTS)


def port_names(mask: int) -> str:
    """The ``+``-joined port names of a mask, in port order (no normalisation)."""
    return "+".join(PORTS[i] for i in range(6) if mask >> i & 1)


def card_mask(code: int) -> int:
    """The port mask of a card code."""
    return code & PORT_MASK


def kind_index(code: int) -> int:
    """The kind index of a card code (0 for a plain tunnel card)."""
    return code >> KIND_SHIFT


def with_kind(mask: int, kind: int) -> int:
    """The card code of port mask ``mask`` and kind index ``kind``."""
    return (mask & PORT_MASK) | (kind << KIND_SHIFT)


def card_kind(code: int) -> str:
    """The kind of a card code (``"tunnel"`` for plain cards)."""
    return KINDS[code >> KIND_SHIFT]


def hand_code(code: int) -> int:
    """The card a placement of ``code`` takes from the hand: itself, except that either side
    of Bandido's super card is the one card :data:`BANDIDO_SUPER6`."""
    return BANDIDO_SUPER6 if code >> KIND_SHIFT == KIND_INDEX["bandido_super"] else code


def is_alarm(code: int) -> bool:
    """True for an alarm card."""
    return KINDS[code >> KIND_SHIFT] in ALARM_KINDS


def card_name(code: int) -> str:
    """The canonical name of a card code: its ports, and ``:kind`` for special cards."""
    name = port_names(canonical(code & PORT_MASK))
    kind = code >> KIND_SHIFT
    return name if kind == 0 else f"{name}:{KINDS[kind]}"


def parse_card(text: str) -> int:
    """Read a card name (``L+TL+BR``, its half turn ``R+BR+TL``, ``super6``, ``L+R:ladder``).

    Returns the canonical card code. Ports may come in any order; each at most once.
    """
    return canonical_code(parse_ports(text))


def names_map(name: object) -> bool:
    """True for text that names a map card; anything else (a name of another card, a name
    that does not read, not text) is False, its own checks coming later."""
    if not isinstance(name, str):
        return False
    try:
        return card_kind(parse_ports(name)) == "map"
    except NotationError:
        return False


def canonical_code(raw: int) -> int:
    """A card code with its port mask made canonical (the kind kept)."""
    return canonical(raw & PORT_MASK) | (raw & ~PORT_MASK)


def parse_ports(text: str) -> int:
    """Read a card name keeping its orientation: the port mask exactly as named, plus kind.

    Use this (not :func:`parse_card`) for a placement given with either name of its card.
    """
    if not isinstance(text, str):
        raise ArgumentTypeError(f"a card name must be text, not {type(text).__name__}")
    raw = text.strip()
    if not raw:
        raise NotationError("empty card name")
    if raw in ALIASES:
        return ALIASES[raw]
    ports, sep, kind_name = raw.partition(":")
    kind = 0
    if sep:
        if kind_name not in KIND_INDEX:
            raise NotationError(
                f"unknown card kind {excerpt(kind_name, 20)} in card name {excerpt(text)}"
            )
        kind = KIND_INDEX[kind_name]
    mask = 0
    for token in ports.split("+"):
        bit = PORT_BIT.get(token)
        if bit is None:
            raise NotationError(
                f"unknown port {excerpt(token, 20)} in card name {excerpt(text)}"
                f" (ports are {', '.join(PORTS)})"
            )
        if mask & bit:
            raise NotationError(f"port {token} repeated in card name {excerpt(text)}")
        mask |= bit
    return with_kind(mask, kind)


CardLike = int | str


def as_code(card: CardLike) -> int:
    """A card code from a code or a name, normalised to the canonical mask."""
    if isinstance(card, str):
        return parse_card(card)
    if (
        isinstance(card, bool)
        or not isinstance(card, int)
        or card < 0
        or card >> KIND_SHIFT >= len(KINDS)
    ):
        raise NotationError(f"not a card code: {card!r:.40}")
    if not card & PORT_MASK:
        raise NotationError("a card needs at least one opening")
    return canonical_code(card)


def all_tunnel_types() -> tuple[int, ...]:
    """The 31 plain card types: port sets of size 1 to 4 up to a half turn, in code order."""
    return tuple(sorted({canonical(m) for m in range(1, 64) if 1 <= m.bit_count() <= 4}))


#: The modes of a tunnel game are numbered from this one, its default (Bandida's mode 1), to at
#: most :data:`MAX_MODES` (Bandida's three, BA-GAME-2): a deck's entries name modes among them.
FIRST_MODE, MAX_MODES = 1, 3
#: The components a deck's data may keep out of some modes' piles, each named in a refusal
#: with the rule that says in which modes it is (specs/bandida.md); any other card a deck's data
#: keeps out of a mode is refused under BA-DECK-1 (the data says where each card is).
MODE_RULES: dict[str, tuple[str, str]] = {
    "ladder": ("the ladder", "BA-SETUP-4"),
    "bandido_super": ("Bandido's super card", "BA-DECK-5"),
}


def modes_text(modes: Iterable[int]) -> str:
    """``mode 3``, ``modes 2 and 3``, ``modes 1, 2 and 3``."""
    listed = [str(m) for m in modes]
    if len(listed) == 1:
        return f"mode {listed[0]}"
    return f"modes {', '.join(listed[:-1])} and {listed[-1]}"


@dataclass(frozen=True, slots=True)
class Deck:
    """One edition's cards: the deck multiset (codes with counts) and the super card sides.

    A game with modes (Bandida, BA-DECK-1) says in its data which cards are in the pile of
    which modes: this data is the one place that says which components each mode holds
    (:meth:`in_mode`, :meth:`cards`, :meth:`refuse_outside`, :attr:`game_modes`)."""

    edition: str
    counts: tuple[tuple[int, int], ...]
    super_sides: tuple[tuple[str, int], ...]
    #: Cards that are in the pile only in some game modes: ``(code, modes)`` (Bandida's ladder:
    #: modes 2 and 3). A card not listed is in the pile in every mode.
    modes: tuple[tuple[int, tuple[int, ...]], ...] = ()
    #: Cards that are not in this box (Bandido's super card in Bandida's mode 3): not counted
    #: by :attr:`size` nor dealt by :meth:`cards` without a mode.
    extra: tuple[int, ...] = ()

    @property
    def types(self) -> tuple[int, ...]:
        """The card codes of the deck, in code order."""
        return tuple(code for code, _ in self.counts)

    @property
    def size(self) -> int:
        """Number of deck cards in the box (the super card not included)."""
        return len(self.cards())

    @property
    def game_modes(self) -> tuple[int, ...]:
        """The game's modes, numbered from 1 to the highest that a card's entry names (mode 1,
        the first, is the default); none when no entry names a mode (Bandido)."""
        highest = max((m for _, listed in self.modes for m in listed), default=FIRST_MODE - 1)
        return tuple(range(FIRST_MODE, highest + 1))

    def mode_of(self, mode: object) -> int | None:
        """``mode`` checked as a mode of this game: a whole number (or its digits as text, as
        option ``mode`` reads it) among :attr:`game_modes`; None stays None. Anything else,
        and any mode of a game without modes, is refused with :class:`RuleOptionError`."""
        if mode is None:
            return None
        modes = self.game_modes
        number: int | None = None
        if isinstance(mode, int) and not isinstance(mode, bool):
            number = mode
        elif isinstance(mode, str) and len(mode) <= 20:
            digits = mode.strip()
            number = int(digits) if digits.isascii() and digits.isdigit() else None
        if number is None or number not in modes:
            listed = ", ".join(map(str, modes)) or "none"
            what = excerpt(mode, 20) if isinstance(mode, str) else f"{mode!r:.20}"
            raise RuleOptionError(
                f"the {self.edition} game has no mode {what} (modes: {listed})"
            )
        return number

    def in_mode(self, code: int, mode: int | None) -> bool:
        """True when ``code`` (a card, or a side of a card laid) is in the pile of game mode
        ``mode`` (None: the box's cards)."""
        code = hand_code(code)
        if mode is None:
            return code not in self.extra
        modes = dict(self.modes).get(code)
        return modes is None or mode in modes

    def cards(self, mode: int | None = None) -> tuple[int, ...]:
        """The deck as a sorted tuple of card codes, one entry per physical card: the box's
        cards, or with ``mode`` the pile of that game mode (BA-SETUP-*)."""
        return tuple(
            code for code, n in self.counts if self.in_mode(code, mode) for _ in range(n)
        )

    def refuse_outside(self, codes: Iterable[int], mode: int, where: str = "") -> None:
        """Refuse (:class:`NotationError`, one line naming the rule, after ``where`` when
        given) a card of ``codes`` that is not in the game in ``mode``: Bandida's ladder in
        mode 1 (BA-SETUP-4), Bandido's super card outside mode 3 (BA-DECK-5)."""
        for code in codes:
            if self.in_mode(code, mode):
                continue
            card = hand_code(code)
            name = card_name(card)
            what, rule = MODE_RULES.get(card_kind(card), (name, "BA-DECK-1"))
            held = modes_text(dict(self.modes)[card])
            raise NotationError(
                f"{where}{': ' if where else ''}{what} ({name}) is not in the game in mode"
                f" {mode} ({rule}: {what} is in the game in {held} only)"
            )

    def check_card(self, code: int, mode: int | None, where: str) -> None:
        """Refuse (:class:`NotationError`) a card that is not one of this game's (BD-DECK-2;
        a super card side, BD-DECK-3) or, with a ``mode``, not one of that mode's
        (BA-SETUP-4, BA-DECK-5)."""
        self.check_counts([hand_code(code)], where, hypothetical=True)
        if mode is not None:
            self.refuse_outside([code], mode, where)

    def count(self, card: CardLike) -> int:
        """How many copies of ``card`` the deck has."""
        code = as_code(card)
        return dict(self.counts).get(code, 0)

    def check_counts(
        self, codes: Iterable[int], where: str, *, hypothetical: bool = False
    ) -> None:
        """Refuse a multiset of cards the real game cannot hold at once (the table after its
        start card, the hands and the pile): a card that is not in this deck, a super card
        side (the one super card lies at the start of the table, nowhere else), or more
        copies of a card than the deck has unless ``hypothetical``. Raises
        :class:`NotationError` naming the card and the counts, prefixed with ``where``."""
        counts = dict(self.counts)
        supers = {code: name for name, code in self.super_sides}
        seen: Counter[int] = Counter()
        for code in codes:
            if isinstance(code, bool) or not isinstance(code, int):
                raise NotationError(f"{where}: not a card code: {code!r:.40}")
            seen[code] += 1
        for code, n in sorted(seen.items()):
            if code in supers:
                raise NotationError(
                    f"{where}: the super card ({supers[code]}) lies only at the start of the"
                    f" table; the {self.edition} game has one super card (BD-DECK-3)"
                )
            have = counts.get(code)
            if have is None:
                raise NotationError(
                    f"{where}: {card_name(code)} is not a card of the {self.edition} deck"
                    " (BD-DECK-2)"
                )
            if n > have and not hypothetical:
                raise NotationError(
                    f"{where}: {n} copies of {card_name(code)}, but the {self.edition} deck"
                    f" has {have} (a puzzle with more copies must say it is hypothetical:"
                    " the word after the game name, or \"hypothetical\": true; BD-DECK-2)"
                )

    def super_card(self, side: str) -> int:
        """The code of the super card's named side (``super6`` or ``super5``)."""
        sides = dict(self.super_sides)
        if side not in sides:
            raise DataError(f"edition {self.edition!r} has no super card side {excerpt(str(side))}")
        return sides[side]

    def knows(self, code: int) -> bool:
        """True for a deck card type or a super card side."""
        return code in dict(self.counts) or code in dict(self.super_sides).values()

    def to_json(self) -> dict[str, object]:
        """The deck as a data document of the form :func:`load_deck` reads."""
        return {
            "edition": self.edition,
            "super": {name: card_name(code) for name, code in self.super_sides},
            "cards": [self._entry(code, n) for code, n in self.counts],
        }

    def _entry(self, code: int, n: int) -> dict[str, object]:
        name = port_names(canonical(code & PORT_MASK))
        entry: dict[str, object] = {"card": name, "count": n, "kind": card_kind(code)}
        if code in dict(self.modes):
            entry["modes"] = list(dict(self.modes)[code])
        if code in self.extra:
            entry["extra"] = True
        return entry


def deck_from_json(data: object, where: str = "deck data") -> Deck:
    """Build a :class:`Deck` from a parsed data document; raise :class:`DataError` if malformed."""
    if not isinstance(data, Mapping):
        raise DataError(f"{where}: expected a JSON object")
    edition = data.get("edition")
    if not isinstance(edition, str) or not edition:
        raise DataError(f"{where}: 'edition' must be a non-empty string")
    sides = _super_sides(data.get("super"), where)
    cards = data.get("cards")
    if not isinstance(cards, list) or not cards:
        raise DataError(f"{where}: 'cards' must be a non-empty list")
    counter: Counter[int] = Counter()
    modes: list[tuple[int, tuple[int, ...]]] = []
    extra: list[int] = []
    for i, entry in enumerate(cards):
        code, count, entry_modes, is_extra = _card_entry(entry, f"{where}: cards[{i}]")
        if code in counter:
            raise DataError(f"{where}: cards[{i}] ({entry['card']}): card listed twice")
        if entry_modes is not None:
            modes.append((code, entry_modes))
        if is_extra:
            extra.append(code)
        counter[code] = count
    if counter.total() > MAX_DECK_CARDS:
        raise DataError(f"{where}: {counter.total()} cards, more than {MAX_DECK_CARDS} in a deck")
    return Deck(
        edition,
        tuple(sorted(counter.items())),
        tuple(sides),
        tuple(sorted(modes)),
        tuple(sorted(extra)),
    )


def _super_sides(sup: object, where: str) -> list[tuple[str, int]]:
    """The super card's sides of a deck document: side name to card code."""
    if not isinstance(sup, Mapping) or not sup:
        raise DataError(f"{where}: 'super' must map side names to card names")
    sides: list[tuple[str, int]] = []
    for name, card in sup.items():
        try:
            code = parse_card(card) if isinstance(card, str) else -1
        except NotationError as exc:
            raise DataError(f"{where}: super side {name!r}: {exc}") from exc
        if code < 0:
            raise DataError(f"{where}: super side {name!r} must be a card name")
        sides.append((str(name), code))
    return sides


def _card_entry(entry: object, where: str) -> tuple[int, int, tuple[int, ...] | None, bool]:
    """One entry of a deck document's cards: its code (kind included), count, the modes whose
    pile it is in (None: every mode) and whether it is not in the box (``extra``)."""
    if not isinstance(entry, Mapping):
        raise DataError(f"{where} must be an object")
    card, count, kind = entry.get("card"), entry.get("count"), entry.get("kind", "tunnel")
    if not isinstance(card, str):
        raise DataError(f"{where}: 'card' must be a card name")
    where = f"{where} ({card})"
    if isinstance(count, bool) or not isinstance(count, int) or count < 1:
        raise DataError(f"{where}: 'count' must be a positive integer")
    if count > MAX_CARD_COPIES:
        raise DataError(f"{where}: 'count' {count:.3g} is more than {MAX_CARD_COPIES} copies")
    if kind not in KIND_INDEX:
        raise DataError(f"{where}: unknown kind {kind!r}")
    try:
        code = parse_card(card)
    except NotationError as exc:
        raise DataError(f"{where.rsplit(' (', 1)[0]}: {exc}") from exc
    if kind_index(code):
        raise DataError(f"{where.rsplit(' (', 1)[0]}: give the kind in 'kind', not in the name")
    unknown = set(entry) - {"card", "count", "kind", "modes", "extra"}
    if unknown:
        raise DataError(f"{where}: unknown field {sorted(unknown)[0]!r}")
    flag = entry.get("extra", False)
    if not isinstance(flag, bool):
        raise DataError(f"{where}: 'extra' must be true or false")
    return with_kind(code, KIND_INDEX[str(kind)]), count, _entry_modes(entry, where), flag


def _entry_modes(entry: Mapping[str, object], where: str) -> tuple[int, ...] | None:
    if "modes" not in entry:
        return None
    listed = entry["modes"]
    allowed = range(FIRST_MODE, MAX_MODES + 1)
    if (
        not isinstance(listed, list)
        or not listed
        or any(isinstance(m, bool) or m not in allowed for m in listed)
    ):
        raise DataError(f"{where}: 'modes' must list modes among {modes_text(allowed)[6:]}")
    return tuple(sorted(set(listed)))


@cache
def _packaged_deck(edition: str) -> Deck:
    if not (edition.isascii() and edition.isalpha() and len(edition) <= 20) or edition in (
        "puzzles",
    ):
        raise DataError(f"no packaged deck data for edition {excerpt(edition, 20)}")
    ref = resources.files("banditsolve.tunnels") / "data" / f"{edition}.json"
    try:
        text = ref.read_text(encoding="utf-8")
    except (FileNotFoundError, IsADirectoryError):
        raise DataError(f"no packaged deck data for edition {edition!r}") from None
    return deck_from_json(load_json(text, f"packaged {edition}.json"), f"packaged {edition}.json")


def load_deck(source: str | Path = "bandido") -> Deck:
    """Load a deck: a packaged edition by name (``"bandido"``, loaded once) or a JSON file
    (read by :mod:`banditsolve.core.io`: UTF-8 only, no byte-order mark, size and depth
    guarded; every problem a :class:`DataError`)."""
    if isinstance(source, Path) or (isinstance(source, str) and source.endswith(".json")):
        path = Path(source)
        try:
            text, where = read_text(path, "deck file")
            data = load_json(text, where)
        except NotationError as exc:
            raise DataError(str(exc)) from None
        return deck_from_json(data, where)
    if not isinstance(source, str):
        raise DataError(f"a deck is an edition name or a .json file, not {type(source).__name__}")
    return _packaged_deck(source)


def multiset_name(codes: Iterable[int]) -> list[str]:
    """Card names of a multiset of codes, sorted by code."""
    return [card_name(c) for c in sorted(codes)]
