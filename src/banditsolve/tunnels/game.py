"""The cooperative game: players, hands, the draw pile, turns, the end, and rule options.

The state is immutable. :func:`legal_actions` lists the moves of the player to act in a fixed
order: placements sorted by card code, then ``y``, ``x``, rotation; then :data:`CHANGE` or
:data:`PASS`. :func:`apply` returns a new state or raises :class:`IllegalActionError`.

Chance is explicit. The pile has an *unseen* part on top (a multiset whose order nobody knows)
and a *known* part below it (cards put under the pile by a hand change, in order). A draw from
the unseen part is a chance node: :func:`chance_outcomes` lists each card type with probability
``count / size``, which is exactly a uniform shuffle drawn one card at a time. A game created
with a seeded ``random.Random`` (or an explicit ``order``) has the whole pile known instead and
never stops at a chance node: that is the fast path for simulation.
"""

from __future__ import annotations

import random
from bisect import bisect_left
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, fields, replace
from fractions import Fraction
from functools import cache
from typing import NamedTuple, TypeVar

from banditsolve.core.protocol import Policy as CorePolicy
from banditsolve.core.text import excerpt, plural
from banditsolve.errors import DataError, IllegalActionError, NotationError, RuleOptionError
from banditsolve.tunnels.cards import (
    BANDIDO_SUPER5,
    BANDIDO_SUPER6,
    KIND_INDEX,
    KIND_SHIFT,
    PORT_MASK,
    Deck,
    as_code,
    card_kind,
    card_name,
    hand_code,
    is_alarm,
    load_deck,
)
from banditsolve.tunnels.geometry import (
    ROTATIONS,
    SIDE_MASK,
    STEP,
    Cell,
    Placement,
    normalise,
    orientation,
)
from banditsolve.tunnels.table import (
    _LOCAL,
    _ROWS,
    FLASH_BIT,
    INDEX_SHIFT,
    IS_HOLE,
    LOCAL_MEMO_LIMIT,
    NO_PLACEMENT,
    PARTNER_SHIFT,
    RIM_TOUCH_SHIFT,
    ROW_UNKNOWN,
    SIGNATURE_BITS,
    TOUCH,
    TOUCH_COUNT,
    Table,
    candidates,
    creates_hole,
    dead_exits,
    lay,
    least_change,
    least_row,
    local_placements,
    signature,
)

_CHOICES: dict[str, tuple[str, ...]] = {
    "pile_out": ("play_on", "end", "must_draw"),
    "hand_change": ("ends_turn", "may_place"),
    "hole": ("loses", "illegal", "loses_at_once"),
    "dead_exit": ("play_on", "loses"),
    "super_side": ("super6", "super5"),
    # Bandida's readings (BA-OPT-*); Bandido never uses them.
    "map_removes": ("not_special", "not_super"),
    "map_split": ("edges", "tunnels"),
    "map_reopen": ("allowed", "forbidden"),
    "map_short": ("as_many", "none"),
    "tool": ("this_turn", "over_turns"),
    "tool_stuck": ("keep", "under"),
    "dynamite_stuck": ("lapse", "change"),
    "chain": ("yes", "no"),
    "alarm_stuck": ("effect", "no_effect"),
    "alarm_zero": ("keep_one", "zero"),
    "alarm_show": ("drawn", "top"),
}
#: Option values only Bandida reads: ``hole=loses_at_once`` (BA-END-2) differs from ``loses``
#: only while a map can still take cards off the table, and Bandido has no map.
BANDIDA_VALUES: dict[str, tuple[str, ...]] = {"hole": ("loses_at_once",)}
#: The options only Bandida reads (with ``mode``).
BANDIDA_OPTIONS: tuple[str, ...] = (
    "mode",
    "map_removes",
    "map_split",
    "map_reopen",
    "map_short",
    "tool",
    "tool_stuck",
    "dynamite_stuck",
    "chain",
    "alarm_stuck",
    "alarm_zero",
    "alarm_show",
)


def bandida_only(values: Mapping[str, object]) -> str | None:
    """The first option of ``values`` that only Bandida reads: its name (``mode``, ``map_short``,
    ...: :data:`BANDIDA_OPTIONS`) or ``name=value`` (:data:`BANDIDA_VALUES`); None if none."""
    for name, value in values.items():
        if name in BANDIDA_OPTIONS:
            return name
        if value in BANDIDA_VALUES.get(name, ()):
            return f"{name}={value}"
    return None


#: ``mode``: 0 is Bandido (no modes); Bandida's modes are 1, 2, 3 (BA-MODE-*).
MODES = (0, 1, 2, 3)
#: The hand sizes allowed (option ``hand_size``).
HAND_SIZES = range(1, 11)
#: ``table_size``: no edge, or a play area of ``WxH`` cells (each 2..:data:`MAX_TABLE_SIDE`).
UNBOUNDED = "unbounded"
MAX_TABLE_SIDE = 60
#: Play areas listed among the option's values (any ``WxH`` within the limits is accepted):
#: a 90 cm square table holds about 20 x 20 cells of 4.5 cm, a 120 x 80 cm one 26 x 17.
TABLE_SIZES = ("20x20", "26x17", "12x8")


def shown(value: object) -> str:
    """A user-given value for a message: a short excerpt, never a 5,000-digit number."""
    if isinstance(value, int) and not isinstance(value, bool) and abs(value) >= 10**12:
        return f"a number of about {int(abs(value).bit_length() * 0.30103) + 1} digits"
    if isinstance(value, str):
        return excerpt(value)
    if value is None or isinstance(value, bool | int | float):
        return repr(value)
    try:
        return excerpt(repr(value))
    except ValueError:  # an int too long to print inside
        return f"a {type(value).__name__}"


def type_name(value: object) -> str:
    if value is None or isinstance(value, bool | int | float):
        return shown(value)
    return f"a {type(value).__name__}"


def parse_table_size(text: str) -> tuple[int, int] | None:
    """``(width, height)`` of a ``table_size`` value (None for ``unbounded``)."""
    if text == UNBOUNDED:
        return None
    w, x, h = text.partition("x")
    if not x or not (w + h).isascii() or not (w.isdigit() and h.isdigit()) or len(w + h) > 6:
        raise RuleOptionError(
            f"option table_size={shown(text)} is not {UNBOUNDED!r} nor WIDTHxHEIGHT in cells"
            " (for example 20x20)"
        )
    width, height = int(w), int(h)
    if not (2 <= width <= MAX_TABLE_SIDE and 2 <= height <= MAX_TABLE_SIDE):
        raise RuleOptionError(
            f"option table_size={text}: width and height must be between 2 and"
            f" {MAX_TABLE_SIDE} cells"
        )
    return width, height


class TableSizes(tuple[str, ...]):
    """The values of option ``table_size`` as :meth:`Options.names` lists them: ``unbounded``
    and a few common play areas. The list is not all: ``in`` holds for every value the option
    accepts, ``unbounded`` or any ``WxH`` of 2..:data:`MAX_TABLE_SIDE` cells (BD-OPT-6), so a
    check of a value against the listed values accepts ``30x30``.

    >>> "30x30" in Options.names()["table_size"], "61x2" in Options.names()["table_size"]
    (True, False)
    """

    __slots__ = ()

    def __contains__(self, value: object) -> bool:
        if not isinstance(value, str):
            return False
        try:
            self.check(value)
        except RuleOptionError:
            return False
        return True

    @staticmethod
    def check(value: object) -> None:
        """Refuse a value the option does not take, with the spec's reason (the checker of
        :func:`~banditsolve.core.flags.parse_options` for options whose values are not all
        listed)."""
        if not isinstance(value, str):
            raise RuleOptionError(f"option table_size must be text such as 20x20, not {value!r}")
        parse_table_size(value)


@dataclass(frozen=True, slots=True)
class Options:
    """Rule options (see ``specs/bandido.md``, BD-OPT-*). Defaults are Bandido's seed.

    - ``pile_out``: ``"play_on"`` (when the pile is empty play on with the hands until nobody
      can place) or ``"end"`` (the game is lost as soon as the pile is empty; Bandida).
    - ``hand_change``: ``"ends_turn"`` (a hand change ends the turn) or ``"may_place"`` (the
      player may then place a card from the new hand; Bandida).
    - ``hole``: ``"loses"`` (walling an exit into a one-cell hole is allowed and loses once
      the hole is there for good: at once in Bandido; in Bandida once no map card is left in a
      hand, in the pile or waiting to remove cards, BA-END-2), ``"loses_at_once"`` (Bandida:
      lost at once even while a map could still undo the hole) or ``"illegal"`` (such a
      placement is not allowed). See :func:`hole_loses`.
    - ``dead_exit``: ``"play_on"`` (play continues after an exit became impossible to close)
      or ``"loses"`` (the game ends lost as soon as one is for good, as for ``hole``; same
      results, shorter games).
    - ``super_side``: ``"super6"`` (6-exit side, the harder level) or ``"super5"`` (5-exit
      side, the beginners' level of seed 004).
    - ``hand_size``: cards in a full hand (3).
    - ``table_size``: ``"unbounded"`` (cards may go anywhere) or ``"WxH"``: the play area is
      ``W`` cells wide and ``H`` high around the super card (see :attr:`area`); cards must lie
      inside it and an exit facing its edge can never be closed (seed 004's tip).
    """

    pile_out: str = "play_on"
    hand_change: str = "ends_turn"
    hole: str = "loses"
    dead_exit: str = "play_on"
    super_side: str = "super6"
    hand_size: int = 3
    table_size: str = UNBOUNDED
    mode: int = 0
    map_removes: str = "not_special"
    map_split: str = "edges"
    map_reopen: str = "allowed"
    map_short: str = "as_many"
    tool: str = "this_turn"
    tool_stuck: str = "keep"
    dynamite_stuck: str = "lapse"
    chain: str = "yes"
    alarm_stuck: str = "effect"
    alarm_zero: str = "keep_one"
    alarm_show: str = "drawn"

    def __post_init__(self) -> None:
        for name, allowed in _CHOICES.items():
            value = getattr(self, name)
            if not isinstance(value, str) or value not in allowed:
                raise RuleOptionError(
                    f"option {name}={shown(value)} is not one of {', '.join(allowed)}"
                )
        if isinstance(self.hand_size, bool) or not isinstance(self.hand_size, int):
            raise RuleOptionError(
                f"option hand_size must be a whole number, not {shown(self.hand_size)}"
            )
        if self.hand_size not in HAND_SIZES:
            raise RuleOptionError(
                f"option hand_size={shown(self.hand_size)} is outside"
                f" {HAND_SIZES[0]}..{HAND_SIZES[-1]}"
            )
        if isinstance(self.mode, bool) or self.mode not in MODES:
            raise RuleOptionError(f"option mode={shown(self.mode)} is not one of 1, 2, 3")
        if not self.mode and self.hole in BANDIDA_VALUES["hole"]:
            # Bandido has no map: a hole is always for good, so only Bandida tells them apart.
            raise RuleOptionError(f"option hole={self.hole} is Bandida's (Bandido has no map)")
        if not isinstance(self.table_size, str):
            raise RuleOptionError(
                f"option table_size must be text such as 20x20, not {shown(self.table_size)}"
            )
        parse_table_size(self.table_size)

    @property
    def area(self) -> tuple[int, int, int, int] | None:
        """The play area as ``(min_x, min_y, max_x, max_y)`` (None when unbounded): ``W``
        columns and ``H`` rows as centred on the super card (cells ``(0, 0)`` and ``(1, 0)``)
        as whole cells allow (an odd width leaves the extra column in the east, an even height
        the extra row in the south)."""
        size = parse_table_size(self.table_size)
        if size is None:
            return None
        width, height = size
        min_x = -((width - 2) // 2)
        min_y = -((height - 1) // 2)
        return min_x, min_y, min_x + width - 1, min_y + height - 1

    @staticmethod
    def bandido(**changes: object) -> Options:
        """Bandido's rules (the defaults), with ``changes`` applied."""
        return Options.from_mapping(changes)

    @staticmethod
    def bandida(**changes: object) -> Options:
        """Bandida's readings of the shared rules, with ``changes`` applied."""
        base: dict[str, object] = dict(BANDIDA_RULES)
        base.update(changes)
        return Options.from_mapping(base)

    @staticmethod
    def from_mapping(values: Mapping[str, object], base: Options | None = None) -> Options:
        """Options from ``name -> value`` over ``base`` (the defaults); values may be given as
        text (``"4"`` for ``hand_size``), as from the command line. Unknown names and values
        raise :class:`RuleOptionError`."""
        if not isinstance(values, Mapping):
            raise RuleOptionError(f"rule options must be a mapping, not {shown(values)}")
        known = [f.name for f in fields(Options)]
        out = (base or Options()).to_dict()
        for name, value in values.items():
            if name not in known:
                what = excerpt(name) if isinstance(name, str) else shown(name)
                raise RuleOptionError(
                    f"unknown rule option {what} (options are {', '.join(known)})"
                )
            if name == "mode" and isinstance(value, str):
                text = value.strip()
                if text not in ("1", "2", "3"):
                    raise RuleOptionError(f"option mode={shown(value)} is not one of 1, 2, 3")
                value = int(text)
            if name == "hand_size" and isinstance(value, str):
                text = value.strip()
                if not text.isascii() or not text.isdigit() or len(text) > 3:
                    raise RuleOptionError(
                        f"option hand_size={shown(value)} is not a whole number"
                        f" {HAND_SIZES[0]}..{HAND_SIZES[-1]}"
                    )
                value = int(text)
            out[name] = value
        return Options(**out)  # type: ignore[arg-type]

    @staticmethod
    def names() -> dict[str, tuple[str, ...]]:
        """Each option and its allowed values as text, Bandido's default first (``hand_size``
        takes 1..10; ``table_size`` any ``WxH`` of 2..60 cells, a few are listed)."""
        default = Options()
        out: dict[str, tuple[str, ...]] = {}
        for name, allowed in _CHOICES.items():
            first = getattr(default, name)
            out[name] = (first, *(v for v in allowed if v != first))
        sizes = [str(n) for n in HAND_SIZES]
        out["hand_size"] = (str(default.hand_size), *(n for n in sizes if n != "3"))
        out["table_size"] = TableSizes((UNBOUNDED, *TABLE_SIZES))
        out["mode"] = ("1", "2", "3")
        return out

    def to_dict(self) -> dict[str, object]:
        """The options as a plain mapping."""
        return {f.name: getattr(self, f.name) for f in fields(self)}

    def to_text(self) -> dict[str, str]:
        """The options as text values (what :meth:`from_mapping` reads back)."""
        return {name: str(value) for name, value in self.to_dict().items()}

    def changes(self, base: Options | None = None) -> dict[str, str]:
        """The options that differ from ``base`` (the defaults), as text."""
        ref = (base or Options()).to_text()
        return {k: v for k, v in self.to_text().items() if ref[k] != v}


#: ``Options()``, made once (immutable): what :func:`new_game` uses when given no options.
_DEFAULT_OPTIONS = Options()

#: Bandida's readings of the rules Bandido and Bandida share (seed 003), and its first mode.
BANDIDA_RULES: dict[str, object] = {"pile_out": "end", "hand_change": "may_place", "mode": 1}


@dataclass(frozen=True, slots=True)
class Change:
    """Put the whole hand under the pile and draw as many cards (only when nothing fits)."""

    def __str__(self) -> str:
        return "change"


@dataclass(frozen=True, slots=True)
class Pass:
    """End the turn without placing (no card fits and the pile is empty, or after a change)."""

    def __str__(self) -> str:
        return "pass"


@dataclass(frozen=True, slots=True)
class Draw:
    """A chance outcome: the top card of the unseen pile turns out to be ``card``. In Bandida
    the back of the card below it shows at the same time whether that one is an alarm
    (``top``: ``"alarm"`` or ``"plain"``; empty when the next card is known or none is left)."""

    card: int
    top: str = ""

    def __str__(self) -> str:
        return f"draw {card_name(self.card)}" + (f" top={self.top}" if self.top else "")


@dataclass(frozen=True, slots=True)
class Discard:
    """Bandida's alarm "every player discards one card": the player to act discards ``card``."""

    card: int

    def __str__(self) -> str:
        return f"discard {card_name(self.card)}"


@dataclass(frozen=True, slots=True)
class Remove:
    """Bandida's map: take these cards (placements on the table, in the order laid) off."""

    cards: tuple[Placement, ...]

    def __str__(self) -> str:
        return " ".join(("remove", *(str(p) for p in self.cards)))


CHANGE = Change()
PASS = Pass()
Action = Placement | Change | Pass | Draw | Discard | Remove

WON = "won"
LOST = "lost"
#: Why a game ended: a short code (used by the notation) and the reason in words.
REASONS: dict[str, str] = {
    "no-exit": "no exit is left",
    "pile-empty": "the draw pile is empty",
    "stuck": "no card still in play fits anywhere",
    "all-down": "every card is down",
    "hole": "an exit runs into a one-cell hole",
    "dead-exit": "an exit can no longer be closed",
    "no-ladder": "every exit is closed but the ladder is not on the table",
    "no-join": "every exit is closed before both super cards and the ladder are down and joined",
    "no-draw": "a card must be drawn from the empty pile",
}
#: The phases of a Bandida turn (a stack in :attr:`GameState.phase`, innermost last).
PHASES = ("deal", "dynamite", "tool", "map", "alarm", "discard", "five")
REASON_CODES: dict[str, str] = {text: code for code, text in REASONS.items()}


@dataclass(frozen=True, slots=True)
class GameState:
    """A moment of a game. Build one with :func:`new_game`.

    ``hands`` are sorted tuples of card codes; ``unseen`` is the sorted multiset on top of the
    pile; ``pile`` the known cards below it, top first; ``to_draw`` the players still owed one
    card each, in order; ``changed`` is set after a hand change that lets the player place.
    """

    table: Table
    hands: tuple[tuple[int, ...], ...]
    unseen: tuple[int, ...]
    pile: tuple[int, ...]
    player: int
    to_draw: tuple[int, ...]
    options: Options
    changed: bool = False
    outcome: str | None = None
    reason: str = ""
    turn: int = 0
    #: Bandida only (empty or neutral in Bandido): each player's hand size (BA-OBJ-2, BA-ALARM-3),
    #: the stack of pending effects (:data:`PHASES`), the player acting inside an alarm,
    #: the cards out of the game (sorted), the cards an alarm set aside while discarding five,
    #: the discards still to come (alarm: cards; discard: players), the players drawing nothing
    #: until their hand is empty (option ``tool=over_turns``), and who laid a water bottle.
    sizes: tuple[int, ...] = ()
    phase: tuple[str, ...] = ()
    actor: int = 0
    discard: tuple[int, ...] = ()
    aside: tuple[int, ...] = ()
    left: int = 0
    queue: tuple[int, ...] = ()
    hold: tuple[int, ...] = ()
    quiet: int = -1
    #: Bandida: the back of the top card of the unseen pile, once seen (``"alarm"`` or
    #: ``"plain"``; empty while unknown or when the top card is known).
    top: str = ""

    @property
    def to_act(self) -> int:
        """The player who decides now: inside an alarm the drawer (or the player discarding),
        else the player whose turn it is."""
        if self.phase and self.phase[-1] in ("alarm", "discard"):
            return self.actor if self.phase[-1] == "alarm" else self.queue[0]
        return self.player

    def size(self, player: int) -> int:
        """The number of cards ``player`` holds when their hand is full."""
        return self.sizes[player] if self.sizes else self.options.hand_size

    @property
    def top_is_alarm(self) -> bool | None:
        """Whether the top card of the pile is an alarm (their backs are marked, BA-ALARM-1):
        known when the top card is; None when the top lies in the unseen part."""
        if self.unseen:
            return {"alarm": True, "plain": False}.get(self.top)
        return bool(self.pile) and is_alarm(self.pile[0])

    @property
    def players(self) -> int:
        """Number of players."""
        return len(self.hands)

    @property
    def is_terminal(self) -> bool:
        """True once the game is won or lost."""
        return self.outcome is not None

    @property
    def is_chance(self) -> bool:
        """True when the next event is a draw from the unseen pile (or, in Bandida's alarm,
        the discard of its top card)."""
        if self.outcome is not None or not self.unseen:
            return False
        if self.phase and self.phase[-1] != "deal":
            return self.phase[-1] == "five"
        return bool(self.to_draw)

    @property
    def pile_size(self) -> int:
        """Cards left in the draw pile (unseen and known)."""
        return len(self.unseen) + len(self.pile)

    def remaining(self) -> tuple[int, ...]:
        """Sorted codes of every card not on the table (hands and pile)."""
        out = [c for hand in self.hands for c in hand]
        out.extend(self.unseen)
        out.extend(self.pile)
        out.extend(self.aside)
        return tuple(sorted(out))

    def returns(self) -> tuple[float, ...]:
        """1.0 for every player after a win, 0.0 otherwise (the game is cooperative)."""
        value = 1.0 if self.outcome == WON else 0.0
        return (value,) * self.players

    def caption(self, title: str = "Bandido") -> str:
        """One line saying where the game stands: the turn, the last card laid, the pile,
        whose move, and the result once over."""
        parts = [f"{title}, turn {self.turn}"]
        if len(self.table) > 1:
            parts.append(f"last card {self.table.history[-1]}")
        parts.append(f"pile {plural(self.pile_size, 'card')}")
        if self.options.mode:
            parts.insert(1, f"mode {self.options.mode}")
            if self.top_is_alarm:
                parts.append("an alarm on top of the pile")
            if self.quiet >= 0:
                parts.append(f"no talking until player {self.quiet} plays again")
        if self.outcome is not None:
            parts.append(f"{self.outcome}: {self.reason}")
        elif self.is_chance:
            if self.phase and self.phase[-1] == "five":
                parts.append(f"the alarm discards from the pile ({self.left} to go)")
            else:
                parts.append(f"player {self.to_draw[0]} draws")
        else:
            doing = {
                "dynamite": " (dynamite: another card)",
                "tool": " (broken tool: every card)",
                "map": " (map: remove cards)",
                "alarm": " (lay the alarm)",
                "discard": " (alarm: discard a card)",
            }.get(self.phase[-1] if self.phase else "", "")
            parts.append(f"player {self.to_act} to act{doing}")
        return ", ".join(parts)

    def _repr_svg_(self) -> str:
        from banditsolve.tunnels.render import svg

        return svg(
            self.table, remaining=self.remaining(), caption=self.caption(), area=self.options.area
        )


# -- setup --------------------------------------------------------------------------------------


@cache
def _start_table(code: int) -> Table:
    """The table of a new game: ``Table.start(code)`` (immutable, so one per start card)."""
    return Table.start(code)


@cache
def _box_cards(deck: Deck) -> tuple[int, ...]:
    """``deck.cards()``, once per deck."""
    return deck.cards()


def new_game(
    players: int = 2,
    options: Options | None = None,
    *,
    deck: Deck | None = None,
    rng: random.Random | None = None,
    order: Sequence[int] | None = None,
) -> GameState:
    """A new game with the super card down and the deal to come.

    With ``rng`` the deck is shuffled by it and the deal happens at once (no chance nodes).
    With ``order`` the pile is exactly that sequence, top first. With neither, the pile is
    unseen and the deal is a sequence of chance nodes.
    """
    if isinstance(players, bool) or not isinstance(players, int) or not 1 <= players <= 4:
        raise RuleOptionError(f"Bandido is played by 1 to 4 players, not {shown(players)}")
    options = options or _DEFAULT_OPTIONS
    deck = deck or load_deck()
    table = _start_table(deck.super_card(options.super_side))
    if options.mode:
        return _ba_new_game(players, options, deck, table, rng)
    cards = _box_cards(deck)
    unseen: tuple[int, ...] = cards
    pile: tuple[int, ...] = ()
    if order is not None:
        if Counter(order) != Counter(cards):
            raise DataError(f"the pile order is not a shuffle of the {deck.edition} deck")
        unseen, pile = (), tuple(order)
    elif rng is not None:
        shuffled = list(cards)
        rng.shuffle(shuffled)
        unseen, pile = (), tuple(shuffled)
    deal = tuple(p for _ in range(options.hand_size) for p in range(players))
    state = GameState(table, ((),) * players, unseen, pile, 0, deal, options)
    return settle(state)


# -- queries ------------------------------------------------------------------------------------


def _playable_placements(table: Table, code: int, options: Options) -> Iterator[Placement]:
    area = options.area
    # Bandido's super card in Bandida's mode 3 is laid on the side the players choose.
    sides = (BANDIDO_SUPER6, BANDIDO_SUPER5) if code == BANDIDO_SUPER6 else (code,)
    for side in sides:
        for x, y, r, _ in candidates(table, side & PORT_MASK):
            p = Placement(side, x, y, r)
            if area is not None and not inside(p, area):
                continue
            if options.hole == "illegal" and creates_hole(table, p):
                continue
            yield p


def inside(p: Placement, area: tuple[int, int, int, int]) -> bool:
    """True when both cells of ``p`` lie in the play area ``(min_x, min_y, max_x, max_y)``."""
    min_x, min_y, max_x, max_y = area
    return all(min_x <= x <= max_x and min_y <= y <= max_y for x, y in p.cells)


def _fits(table: Table, codes: Sequence[int], options: Options) -> bool:
    return any(
        next(_playable_placements(table, code, options), None) is not None for code in set(codes)
    )


def legal_actions(state: GameState) -> tuple[Action, ...]:
    """The moves of the player to act, in the documented order (empty when terminal).

    At a chance node this is the list of possible draws (see :func:`chance_outcomes`).
    """
    if state.outcome is not None:
        return ()
    if state.is_chance:
        return tuple(a for a, _ in chance_outcomes(state))
    if state.options.mode:
        return _ba_legal(state)
    actions: list[Action] = []
    for code in sorted(set(state.hands[state.player])):
        found = sorted(
            (p.y, p.x, p.rotation, p)
            for p in _playable_placements(state.table, code, state.options)
        )
        actions.extend(p for _, _, _, p in found)
    if state.changed:
        actions.append(PASS)
    elif not actions:
        actions.append(CHANGE if state.pile_size else PASS)
    return tuple(actions)


def chance_outcomes(state: GameState) -> tuple[tuple[Draw, Fraction], ...]:
    """At a chance node, each possible draw (by card code) with its exact probability;
    :class:`IllegalActionError` anywhere else."""
    last = _LAST_CHANCE[0]
    if last is not None and last[0] is state:
        return last[1]
    if not state.is_chance:
        raise IllegalActionError("not a chance node: no card is to be drawn now")
    counts = Counter(state.unseen)
    if state.options.mode:
        outcomes: tuple[tuple[Draw, Fraction], ...] = _ba_chance(state, counts)
    else:
        total = len(state.unseen)
        outcomes = tuple((Draw(code), Fraction(n, total)) for code, n in sorted(counts.items()))
    # The same state is asked again at once (a draw sampled from it, then applied and checked).
    _LAST_CHANCE[0] = (state, outcomes)
    return outcomes


T = TypeVar("T")

_LAST_CHANCE: list[tuple[GameState, tuple[tuple[Draw, Fraction], ...]] | None] = [None]


def _back(code: int) -> str:
    return "alarm" if is_alarm(code) else "plain"


def _ba_chance(state: GameState, counts: Counter[int]) -> tuple[tuple[Draw, Fraction], ...]:
    """BA-ALARM-1, BA-NOTE-4: the top card is uniform among the unseen cards whose back
    matches the one showing (``state.top``); the next card's back shows at the same time."""
    eligible = {c: n for c, n in counts.items() if not state.top or _back(c) == state.top}
    total = sum(eligible.values())
    alarms = sum(n for c, n in counts.items() if is_alarm(c))
    rest = len(state.unseen) - 1
    out: list[tuple[Draw, Fraction]] = []
    both = total * rest
    for code, n in sorted(eligible.items()):
        if not rest:
            out.append((Draw(code), Fraction(n, total)))
            continue
        after = alarms - is_alarm(code)
        for back, m in (("alarm", after), ("plain", rest - after)):
            if m:
                out.append((Draw(code, back), Fraction(n * m, both)))
    return tuple(out)


def sample_chance(state: GameState, rng: random.Random) -> Draw:
    """Draw a chance outcome with the right probabilities from ``rng``."""
    if not state.is_chance:
        raise IllegalActionError("not a chance node: nothing to draw")
    if state.options.mode:
        outcomes = chance_outcomes(state)
        pick = rng.random()
        for action, p in outcomes:
            pick -= float(p)
            if pick < 0:
                return action
        return outcomes[-1][0]
    return Draw(state.unseen[rng.randrange(len(state.unseen))])


# -- transitions --------------------------------------------------------------------------------


def _remove_one(cards: tuple[int, ...], code: int) -> tuple[int, ...]:
    i = cards.index(code)
    return cards[:i] + cards[i + 1 :]


def _insert_sorted(cards: tuple[int, ...], code: int) -> tuple[int, ...]:
    i = bisect_left(cards, code)
    return (*cards[:i], code, *cards[i:])


def _give(state: GameState, code: int, unseen: tuple[int, ...], pile: tuple[int, ...]) -> GameState:
    who = state.to_draw[0]
    hands = list(state.hands)
    hands[who] = _insert_sorted(hands[who], code)
    return replace(state, hands=tuple(hands), unseen=unseen, pile=pile, to_draw=state.to_draw[1:])


def _deal_known(state: GameState) -> GameState:
    """:func:`_give` the top card of the known pile to each player owed one, in turn, while the
    pile lasts (one new state for the lot)."""
    hands = list(state.hands)
    pile = state.pile
    owed = state.to_draw
    k = min(len(owed), len(pile))
    for who, code in zip(owed[:k], pile[:k], strict=True):
        hands[who] = _insert_sorted(hands[who], code)
    return replace(state, hands=tuple(hands), unseen=(), pile=pile[k:], to_draw=owed[k:])


def settle(state: GameState) -> GameState:
    """Carry out everything that needs no decision: known draws, end checks, forced passes.

    Every state :func:`new_game` and :func:`apply` return is settled (``settle`` leaves it
    as it is)."""
    if state.options.mode:
        return _ba_settle(state)
    while state.outcome is None:
        if state.to_draw:
            if state.unseen:
                return state  # chance node
            if state.pile:
                state = _deal_known(state)
            elif state.options.pile_out == "must_draw":
                return replace(state, outcome=LOST, reason=REASONS["no-draw"], to_draw=())
            else:
                state = replace(state, to_draw=())
            continue
        state, settled = _when_nothing_is_owed(state, _hand_fits)
        if settled:
            return state
    return state


def _hand_fits(state: GameState) -> bool:
    return _fits(state.table, state.hands[state.player], state.options)


def _ba_hand_fits(state: GameState) -> bool:
    return _fits_hand(state, state.player)


def _when_nothing_is_owed(
    state: GameState, hand_fits: Callable[[GameState], bool]
) -> tuple[GameState, bool]:
    """The last steps of settling, shared by Bandido and Bandida, once no draw is owed: an empty
    pile under ``pile_out=end`` loses; a hand that fits waits for its player; no card in play
    fitting anywhere loses; after a hand change the turn passes. Returns the state and whether
    it is settled (``False``: settle again)."""
    if state.options.pile_out == "end" and not state.pile_size:
        return replace(state, outcome=LOST, reason=REASONS["pile-empty"]), True
    if hand_fits(state):
        return state, True
    remaining = state.remaining()
    if not _fits(state.table, remaining, state.options):
        reason = REASONS["stuck"] if remaining else REASONS["all-down"]
        return replace(state, outcome=LOST, reason=reason), True
    if state.changed:
        # After a hand change, nothing fits: the turn ends (BD-TURN-*, BA-TURN-3).
        passed = replace(
            state, player=(state.player + 1) % state.players, changed=False, turn=state.turn + 1
        )
        return passed, False
    return state, True


# -- the end on the table: holes and dead exits (BD-END-4, BD-OPT-5, BA-END-2) -----------------

#: The kind of Bandida's map card (a card code's bits from :data:`KIND_SHIFT` up).
_MAP_KIND = KIND_INDEX["map"]


def maps_left(state: GameState, *, laid_map: bool = False) -> bool:
    """BA-END-2: whether a map card may still take cards off the table, so that a hole or a
    dead exit may still be undone: a map in a hand or in the pile (unseen or known), or one
    laid whose removals are still to come (phase ``map``; ``laid_map``: the map just laid,
    before its effect is pending). Always False in Bandido, which has no map."""
    if not state.options.mode:
        return False
    if laid_map or "map" in state.phase:
        return True
    return any(
        code >> KIND_SHIFT == _MAP_KIND
        for cards in (*state.hands, state.unseen, state.pile, state.aside)
        for code in cards
    )


def hole_is_final(options: Options, map_left: bool) -> bool:
    """BD-END-4, BD-OPT-3, BA-END-2, the one rule for holes: whether an exit running into a
    one-cell hole loses the game now. ``hole=illegal``: never (no hole is made);
    ``hole=loses``: once the hole is there for good, that is when no map is left
    (``map_left`` False; always in Bandido); ``hole=loses_at_once``: at once."""
    if options.hole == "illegal":
        return False
    return options.hole == "loses_at_once" or not map_left


def hole_loses(state: GameState, *, laid_map: bool = False) -> bool:
    """True when an exit of ``state``'s table runs into a one-cell hole and that loses the
    game now (:func:`hole_is_final`; ``laid_map`` as for :func:`maps_left`)."""
    if state.options.hole == "illegal" or not state.table.holes():
        return False
    return hole_is_final(state.options, maps_left(state, laid_map=laid_map))


def dead_exit_loses(state: GameState, *, laid_map: bool = False) -> bool:
    """True under ``dead_exit=loses`` when an exit of ``state``'s table can never be closed
    (BD-PLACE-5) for good: with no map left (BA-END-2; a map's removals empty cells, so they
    may make a dead exit's cell fillable again)."""
    options = state.options
    return (
        options.dead_exit == "loses"
        and not maps_left(state, laid_map=laid_map)
        and bool(dead_exits(state.table, state.remaining(), options.area))
    )


def table_loss(state: GameState, *, laid_map: bool = False) -> GameState | None:
    """``state`` lost on its table (a hole, then a dead exit: :func:`hole_loses`,
    :func:`dead_exit_loses`), or None while neither loses now. Checked after every card laid
    or removed, and in Bandida whenever the last map may leave the game another way (a
    discard, the alarm's discards from the pile, a map with nothing to remove)."""
    if hole_loses(state, laid_map=laid_map):
        return replace(state, outcome=LOST, reason=REASONS["hole"], to_draw=())
    if dead_exit_loses(state, laid_map=laid_map):
        return replace(state, outcome=LOST, reason=REASONS["dead-exit"], to_draw=())
    return None


def apply(state: GameState, action: Action) -> GameState:
    """The state after ``action``; :class:`IllegalActionError` (state unchanged) if illegal."""
    if state.outcome is not None:
        raise IllegalActionError(f"the game is over ({state.outcome}: {state.reason})")
    check_action(action)
    if state.is_chance:
        if not isinstance(action, Draw):
            raise IllegalActionError(f"a card must be drawn now, not {action}")
        if action.card not in state.unseen:
            raise IllegalActionError(f"{action}: no such card in the unseen pile")
        unseen = _remove_one(state.unseen, action.card)
        if state.options.mode:
            if action not in dict(chance_outcomes(state)):
                raise IllegalActionError(
                    f"{action}: not a possible draw (the top card's back shows"
                    f" {state.top or 'nothing yet'}; top= names the next card's back)"
                )
            new = replace(state, top=action.top)
            return _ba_settle(_ba_take(new, action.card, unseen, state.pile))
        if action.top:
            raise IllegalActionError(f"{action}: top= is Bandida's")
        return settle(_give(state, action.card, unseen, state.pile))
    if isinstance(action, Placement):
        action = normalise(action.card, action.x, action.y, action.rotation)
    if state.options.mode:
        return _ba_apply(state, action)
    if isinstance(action, Placement):
        action = normalise(action.card, action.x, action.y, action.rotation)
    if not _is_legal(state, action):
        raise IllegalActionError(_why_illegal(state, action))
    player = state.player
    nxt = (player + 1) % state.players
    options = state.options
    if isinstance(action, Placement):
        hands = list(state.hands)
        hands[player] = _remove_one(hands[player], action.card)
        table = state.table.place(action, check=False)
        new = replace(
            state,
            table=table,
            hands=tuple(hands),
            player=nxt,
            to_draw=(player,) if state.pile_size or options.pile_out == "must_draw" else (),
            changed=False,
            turn=state.turn + 1,
        )
        if not table.exit_count:
            return replace(new, outcome=WON, reason=REASONS["no-exit"], to_draw=())
        lost = table_loss(new)
        if lost is not None:
            return lost
        return settle(new)
    if isinstance(action, Change):
        hand = state.hands[player]
        hands = list(state.hands)
        hands[player] = ()
        stays = options.hand_change == "may_place"
        new = replace(
            state,
            hands=tuple(hands),
            pile=state.pile + hand,
            to_draw=(player,) * len(hand),
            player=player if stays else nxt,
            changed=stays,
            turn=state.turn if stays else state.turn + 1,
        )
        return settle(new)
    # Pass
    return settle(replace(state, player=nxt, changed=False, turn=state.turn + 1))


#: Coordinates beyond this are never legal (and are refused before any work).
MAX_COORD = 10_000


def check_action(action: object) -> None:
    """Refuse what is not an action of the tunnel game at all (:class:`IllegalActionError`):
    a placement of wrong types, a rotation that is not a quarter turn, a coordinate beyond
    ±10,000, a draw of something that is no card, anything else."""
    if isinstance(action, Placement):
        if any(isinstance(v, bool) or not isinstance(v, int) for v in action):
            raise IllegalActionError(f"not a placement: {shown(tuple(action))}")
        if action.rotation not in ROTATIONS:
            raise IllegalActionError(
                f"rotation must be 0, 90, 180 or 270, not {shown(action.rotation)}"
            )
        if abs(action.x) > MAX_COORD or abs(action.y) > MAX_COORD:
            raise IllegalActionError(f"a placement beyond ±{MAX_COORD}: {shown(tuple(action))}")
        _check_code(action.card)
    elif isinstance(action, Draw | Discard):
        _check_code(action.card)
    elif isinstance(action, Remove):
        if not isinstance(action.cards, tuple) or len(action.cards) > 3:
            raise IllegalActionError(f"a map removes at most three cards: {shown(action)}")
        for p in action.cards:
            if not isinstance(p, Placement):
                raise IllegalActionError(f"not a placement: {shown(p)}")
            check_action(p)
    elif action is not CHANGE and action is not PASS and not isinstance(action, Change | Pass):
        raise IllegalActionError(f"not an action of the tunnel game: {shown(action)}")


def _check_code(card: object) -> None:
    try:
        as_code(card)  # type: ignore[arg-type]
    except NotationError as exc:
        raise IllegalActionError(str(exc)) from None
    if isinstance(card, str):
        raise IllegalActionError(f"a card in an action is a card code, not the name {shown(card)}")


def _is_legal(state: GameState, action: Action) -> bool:
    if isinstance(action, Placement):
        area = state.options.area
        return (
            hand_code(action.card) in state.hands[state.to_act]
            and state.table.placement_error(action) is None
            and (area is None or inside(action, area))
            and not (state.options.hole == "illegal" and creates_hole(state.table, action))
        )
    return action in legal_actions(state)


def _why_illegal(state: GameState, action: Action) -> str:
    if isinstance(action, Draw):
        return f"{action}: no card is to be drawn now"
    if isinstance(action, Placement):
        if hand_code(action.card) not in state.hands[state.to_act]:
            return f"{action}: player {state.to_act} holds no {card_name(action.card)}"
        error = state.table.placement_error(action)
        if error:
            return f"{action}: {error}"
        area = state.options.area
        if area is not None and not inside(action, area):
            return (
                f"{action}: leaves the play area (option table_size={state.options.table_size}:"
                f" x {area[0]}..{area[2]}, y {area[1]}..{area[3]})"
            )
        if state.options.hole == "illegal" and creates_hole(state.table, action):
            return f"{action}: walls an exit into a one-cell hole (option hole=illegal)"
        return f"{action}: not a legal move now"
    if isinstance(action, Change):
        return "change: allowed only when no card in hand fits"
    return f"{action}: not allowed now (a card can be placed)"


# -- simulation ---------------------------------------------------------------------------------

#: A policy of the tunnel game (the core contract's policy type).
Policy = CorePolicy[GameState, Action]


def greedy_policy(state: GameState, rng: random.Random) -> Action:
    """A simple built-in policy: the placement leaving the fewest exits, avoiding holes.

    Ties are broken by ``rng``. With no placement, the only legal action (change or pass).
    """
    if state.is_chance:
        return sample_chance(state, rng)
    if state.outcome is not None:
        raise IllegalActionError("the game is over")
    top = state.phase[-1] if state.phase else ""
    if top == "map":
        # legal_actions(state)[rng.randrange(...)], without building every removal.
        sets = _removal_sets(state)
        combo = sets.nth(rng.randrange(sets.size))
        return Remove(tuple(state.table.history[i] for i in combo))
    if top == "discard":
        choices = legal_actions(state)
        return choices[rng.randrange(len(choices))]
    hand = state.hands[state.to_act]
    if top == "alarm":
        hand = tuple(c for c in hand if is_alarm(c))
    table = state.table
    exits = table.exit_count
    found: list[tuple[int, int, int, int, int, bool]] = []
    area = state.options.area
    rim = table.rim
    # A card can wall an exit into a hole only by covering the open side of an empty cell
    # walled on three sides (a card touches a cell on one side at most): ``danger``.
    danger = set()
    for c, v in rim.items():
        if TOUCH_COUNT[v] == 3:
            dx, dy = STEP[(~v >> RIM_TOUCH_SHIFT & SIDE_MASK).bit_length() - 1]
            danger.add((c[0] + dx, c[1] + dy))
    # candidates() for each card, from the placements of each front cell's local signature.
    keyed = [(code, (code & PORT_MASK) << SIGNATURE_BITS) for code in set(hand)]
    for t in table.front_rim:
        tx, ty = t
        s = signature(rim, t)
        near = t in danger
        for code, k in keyed:
            for delta, adx, ady, r, odx, ody in local_placements(k | s):
                x, y = tx + adx, ty + ady
                if area is None or inside(Placement(code, x, y, r), area):
                    risky = near or (tx + odx, ty + ody) in danger
                    found.append((delta, code, y, x, r, risky))
    found.sort()
    best: list[Placement] = []
    holes: list[Placement] = []
    i = 0
    while i < len(found) and not best:
        delta = found[i][0]
        while i < len(found) and found[i][0] == delta:
            _, code, y, x, r, risky = found[i]
            p = Placement(code, x, y, r)
            if risky and exits + delta > 0 and creates_hole(table, p):
                holes.append(p)
            else:
                best.append(p)
            i += 1
    if not best and state.options.hole != "illegal":
        best = holes[:1]
    if not best:
        return legal_actions(state)[-1]
    return best[rng.randrange(len(best))] if len(best) > 1 else best[0]


def step(state: GameState, rng: random.Random, policy: Policy = greedy_policy) -> GameState:
    """Advance one event: a sampled draw at a chance node, else the policy's move."""
    if state.is_chance:
        return apply(state, sample_chance(state, rng))
    return apply(state, policy(state, rng))


def playout(
    state: GameState, rng: random.Random, policy: Policy = greedy_policy
) -> Iterator[tuple[GameState, Action, GameState]]:
    """Play to the end, yielding ``(before, action, after)`` for every event. Draws at chance
    nodes come from this engine's sampler (:func:`sample_chance`: one ``randrange`` over the
    unseen cards), not from ``core.play.sample_chance``, so that seeded playouts stay the
    same games they always were."""
    while state.outcome is None:
        action = sample_chance(state, rng) if state.is_chance else policy(state, rng)
        after = apply(state, action)
        yield state, action, after
        state = after


def play_game(
    players: int = 2,
    seed: int | None = None,
    options: Options | None = None,
    policy: Policy = greedy_policy,
    deck: Deck | None = None,
) -> GameState:
    """A whole simulated game: a seeded shuffle, then ``policy`` for every player (the last
    state of :func:`simulate`'s game)."""
    if policy is greedy_policy and (options is None or not options.mode):
        rng = random.Random(seed)
        start = new_game(players, options, deck=deck, rng=rng)
        if not start.unseen and _keys_fit(start):
            return _fast_bandido(start, rng, keep=False)[0][-1]
    return simulate(players, seed, options, policy, deck)[-1]


def simulate(
    players: int = 2,
    seed: int | None = None,
    options: Options | None = None,
    policy: Policy = greedy_policy,
    deck: Deck | None = None,
) -> list[GameState]:
    """Every state of :func:`play_game`'s game in order, from the deal to the finished game
    (the last one). The shuffle and the policy share one ``random.Random(seed)``; the pile is
    then known, so there is no chance node. A Bandido game with :func:`greedy_policy` is played
    by this engine's fast simulator (no validation of the moves it generates itself, the
    placements of each front cell memoised by its local signature); any other game by
    ``core.play.playout`` (:func:`simulate_generic`). Both give the same games."""
    rng = random.Random(seed)
    if options is not None and options.mode and deck is None:
        deck = load_deck("bandida")
    start = new_game(players, options, deck=deck, rng=rng)
    if policy is greedy_policy and not start.options.mode and not start.unseen and _keys_fit(start):
        return _fast_bandido(start, rng)[0]
    return _play_generic(start, policy, rng)


def simulate_generic(
    players: int = 2,
    seed: int | None = None,
    options: Options | None = None,
    policy: Policy = greedy_policy,
    deck: Deck | None = None,
) -> list[GameState]:
    """:func:`simulate` played through the game contract (``core.play.playout`` over
    :func:`legal_actions` and :func:`apply`, every move validated) whatever the policy: the
    reference the fast simulator must agree with."""
    rng = random.Random(seed)
    if options is not None and options.mode and deck is None:
        deck = load_deck("bandida")
    return _play_generic(new_game(players, options, deck=deck, rng=rng), policy, rng)


def _play_generic(start: GameState, policy: Policy, rng: random.Random) -> list[GameState]:
    from banditsolve.core.play import playout as core_playout
    from banditsolve.tunnels.variants import BANDIDA, BANDIDO

    game = BANDIDA if start.options.mode else BANDIDO
    return [start, *(step.state for step in core_playout(game, start, policy, rng))]


# -- the fast Bandido simulator -------------------------------------------------------------------
#
# ``simulate`` of a Bandido game with the greedy policy plays here: the same rules, the same
# greedy choices and the same random draws as the generic path (``core.play.playout`` over
# :func:`greedy_policy` and :func:`apply`), without validating what it generated itself and with
# the placements of each front cell worked out once per local signature
# (:func:`~banditsolve.tunnels.table.local_placements`). ``tests/tunnels/test_game.py`` checks it
# against the generic path on many seeds and against recorded games.

#: The fast simulator's cells are ints: ``(x, y)`` is ``(y + _KEY_OFFSET) * _KEY_WIDTH + x +
#: _KEY_OFFSET``, so the cell ``dx, dy`` away is ``dy * _KEY_WIDTH + dx`` away, and keys order
#: as ``(y, x)`` does, while ``-_KEY_OFFSET <= x, y < _KEY_OFFSET``. Laid cards reach less than
#: ``2 * cards`` cells from the start, the cells read around them two more: a game of fewer than
#: :data:`_FAST_CARDS` cards stays inside; every key stays a one-digit int. The width is not a
#: power of two so that the low bits of a key (a dict's first slot) mix x and y: cells of one
#: column would otherwise share a slot (measured on the tables of 40 games: 2.60 probes per key
#: for a width of 8192, 1.18 for this one, 1.40 for tuple cells).
_KEY_OFFSET = 4000
_KEY_WIDTH = 8192 + 27
_FAST_CARDS = _KEY_OFFSET // 2 - 2
#: Every key is below ``1 << _KEY_SIZE``.
_KEY_SIZE = 26
assert (2 * _KEY_OFFSET) * _KEY_WIDTH < 1 << _KEY_SIZE
_KEY_MASK = (1 << _KEY_SIZE) - 1
#: A placement of the greedy player's group is one int, ``rank << _RANK_SHIFT | key << 2 |
#: rotation index`` (:func:`_entry`): ints order as ``(code, y, x, rotation)``, as
#: greedy_policy sorts them.
_RANK_SHIFT = _KEY_SIZE + 2


def _entry(rank: int, key: int, rotation: int) -> int:
    """A group entry: the code of rank ``rank`` in the hand, square A at ``key``, turned
    ``rotation`` degrees."""
    return rank << _RANK_SHIFT | key << 2 | rotation // 90


#: ``STEP`` as key offsets.
_KEY_STEP = tuple(dy * _KEY_WIDTH + dx for dx, dy in STEP)


def _key(cell: Cell) -> int:
    """The fast simulator's key of ``cell``."""
    return (cell[1] + _KEY_OFFSET) * _KEY_WIDTH + cell[0] + _KEY_OFFSET


def _cell(key: int) -> Cell:
    """The cell of a fast simulator's key."""
    y, x = divmod(key, _KEY_WIDTH)
    return x - _KEY_OFFSET, y - _KEY_OFFSET


def _keyed(cells: Mapping[Cell, int]) -> dict[int, int]:
    """A mapping of cells as one of keys."""
    w, o = _KEY_WIDTH, _KEY_OFFSET
    return {(y + o) * w + x + o: v for (x, y), v in cells.items()}


class _CellOf(dict[int, Cell]):
    """The cell of each key (:func:`_cell`), worked out once (emptied beyond
    :data:`~banditsolve.tunnels.table.LOCAL_MEMO_LIMIT` keys)."""

    __slots__ = ()

    def __missing__(self, key: int) -> Cell:
        if len(self) >= LOCAL_MEMO_LIMIT:
            self.clear()
        cell = self[key] = _cell(key)
        return cell


_CELL_OF = _CellOf()


def _celled(keys: Mapping[int, int]) -> dict[Cell, int]:
    """A mapping of keys as one of cells (in the same order)."""
    return dict(zip(map(_CELL_OF.__getitem__, keys), keys.values(), strict=True))


def _keys_fit(state: GameState) -> bool:
    """True when every card of ``state`` laid in a line stays within the fast simulator's keys."""
    return len(state.table) + len(state.pile) + sum(map(len, state.hands)) < _FAST_CARDS


def _fast_bandido(
    start: GameState, rng: random.Random, keep: bool = True
) -> tuple[list[GameState], list[Action]]:
    """Play a settled Bandido game (the pile known) to the end with :func:`greedy_policy`:
    every state (with ``keep``; else the start and the last), and the actions between them."""
    options = start.options
    fast = options.area is None
    # Holes may be made (hole=loses or loses_at_once); Bandido has no map, so a hole made is
    # there for good and the game is lost (hole_is_final with no map left, BD-END-4).
    holes_allowed = options.hole != "illegal"
    fast_fits = fast and holes_allowed
    hole_loses = hole_is_final(options, map_left=False)
    dead_loses = options.dead_exit == "loses"
    must_draw = options.pile_out == "must_draw"
    pile_end = options.pile_out == "end"
    may_place = options.hand_change == "may_place"
    players = start.players
    # The table as mappings of our own by cell key, changed in place: ``table`` is the
    # current table as an immutable Table (made for each state kept), or None.
    packed = _keyed(start.table.packed)
    rim = _keyed(start.table.rim)
    front = _keyed(start.table.front_rim)
    # When Tables are made often (every state kept, or the generic functions read the table
    # each turn), the same mappings by cell are kept beside them, changed card by card.
    mirrored = keep or not fast_fits or dead_loses
    cpacked = dict(start.table.packed) if mirrored else {}
    crim = dict(start.table.rim) if mirrored else {}
    cfront = dict(start.table.front_rim) if mirrored else {}
    cell_of = _CELL_OF
    history = list(start.table.history)
    table: Table | None = start.table
    hands = list(start.hands)
    pile = start.pile
    player = start.player
    to_draw = start.to_draw
    changed = start.changed
    turn = start.turn
    outcome = start.outcome
    reason = start.reason
    states = [start]
    actions: list[Action] = []
    state: GameState | None = start
    exits = start.table.exit_count
    # The signature of every front cell, kept up to date on each placement.
    fsig = {t: _key_signature(rim, t) for t in front}
    hand_get = _HAND_MASKS.get
    new_tuple = tuple.__new__
    local_get = _LOCAL.get
    place_sets = _PLACE_SETS
    # Each front cell's row of least changes (least_row of its signature), kept beside fsig.
    frow = {t: least_row(s) for t, s in fsig.items()}
    # The empty cells walled on three sides, each with the cell on its fourth side; a card
    # can wall an exit into a hole only by covering one of those (``danger``, with counts).
    three: dict[int, int] = {}
    danger: dict[int, int] = {}
    for c, v in rim.items():
        if TOUCH_COUNT[v] == 3:
            _walled(three, danger, c, v)

    def made(copy: bool) -> Table:
        # A Table of the mappings now. Without mirrors: new mappings by cell, converted from
        # the keyed ones. With them: copies (``copy``, for a state kept) or the mirrors
        # themselves (a passing view, or the last table).
        if not mirrored:
            return Table(_celled(packed), _celled(rim), _celled(front), tuple(history))
        if copy:
            return Table(dict(cpacked), dict(crim), dict(cfront), tuple(history))
        return Table(cpacked, crim, cfront, tuple(history))

    def mirror(a: int, code: int, r: int) -> None:
        # The mirrors after laying ``code`` at key ``a`` turned rotation index ``r``: the
        # card's cells, then each side neighbour's rim value (front if it has an opening).
        steps = _LAY_KEYED[(code & PORT_MASK) << 2 | r] or _lay_keyed(code & PORT_MASK, r)
        for k in (a, a + steps[0]):
            c = cell_of[k]
            crim.pop(c, None)
            cfront.pop(c, None)
            cpacked[c] = packed[k]
        for _, n, _, _, _ in steps[3]:
            v = rim.get(n + a)
            if v is not None:
                c = cell_of[n + a]
                crim[c] = v
                if v & SIDE_MASK:
                    cfront[c] = v

    def view() -> Table:
        # The table for a generic function to read now: a kept one, or one made from the
        # mappings (with mirrors a passing view, never kept: they change with the next card).
        return table if table is not None else made(False)

    def now() -> GameState:
        nonlocal state
        if state is None:
            state = GameState(
                view(), tuple(hands), (), pile, player, to_draw, options, changed, outcome,
                reason, turn,
            )
        return state

    def gather(hand: tuple[int, ...]) -> _Gathered:
        """The placements of ``hand`` (a sorted tuple) that change the exits least: their
        change, the placements (see :func:`_entry`) and those that cover a cell of ``danger``,
        and the hand's codes without repeats, in order (an entry's rank is its index)."""
        codes, masks, first, more = hand_get(hand) or _hand_masks(hand)
        # The least change of each card on each front cell, read from the cell's row by
        # index (an entry not worked out yet is ROW_UNKNOWN, less than any change); only the
        # (cell, card) pairs of the least change are then looked up. The order found does not
        # matter: the group is sorted, the risky ones are a set.
        no_fit = NO_PLACEMENT - 1  # above every change: NO_PLACEMENT entries never count
        best_delta = no_fit
        hits: list[tuple[int, list[int], int]] = []
        for t, row in frow.items():
            for m in masks:
                d = row[m]
                if d <= best_delta:
                    if d < best_delta:
                        if d == ROW_UNKNOWN:
                            d = row[m] = least_change(m << SIGNATURE_BITS | fsig[t])
                            if d >= best_delta:
                                if d == best_delta:
                                    hits.append((t, row, m))
                                continue
                        best_delta = d
                        hits = [(t, row, m)]
                    else:
                        hits.append((t, row, m))
        group: list[int] = []
        risky: list[int] = []
        if best_delta == no_fit:
            return NO_PLACEMENT, group, risky, codes
        for t, row, m in hits:
            # The least placements' set, by its index kept in the row beside the change.
            i = row[m + _ROW_PLACES]
            if i < 0:
                i = row[m + _ROW_PLACES] = _least_placed_index(m << SIGNATURE_BITS | fsig[t])
            least = place_sets[i]
            base = first[m] + (t << 2)
            if t in danger:
                for ar, _ in least:
                    group.append(base + ar)
                    risky.append(base + ar)
            else:
                for ar, o in least:
                    group.append(base + ar)
                    if t + o in danger:
                        risky.append(base + ar)
            if more and m in more:
                # Other codes of the same port mask in the hand: the same placements.
                for base in more[m]:
                    base += t << 2
                    for ar, o in least:
                        group.append(base + ar)
                        if t in danger or t + o in danger:
                            risky.append(base + ar)
        return best_delta, group, risky, codes

    def every(hand: tuple[int, ...], above: int) -> list[tuple[int, int, int, int, int, int]]:
        """Every placement of ``hand`` that changes the exits by more than ``above``, as
        greedy_policy lists them, sorted: ``(change, code, key of square A, rotation, key of
        the front cell it covers, key of its other cell)`` (keys order as ``(y, x)``)."""
        found = []
        for t, s in fsig.items():
            for code in set(hand):
                key = (code & PORT_MASK) << SIGNATURE_BITS | s
                for d, adx, ady, r, odx, ody in local_get(key) or local_placements(key):
                    if d > above:
                        w = _KEY_WIDTH
                        found.append((d, code, t + ady * w + adx, r, t, t + ody * w + odx))
        found.sort()
        return found

    gathered: _Gathered | None = None
    while outcome is None:
        # -- the greedy policy's move (greedy_policy, in the same order and with the same draws)
        action: Action | None = None
        delta = 99
        lay_key = lay_turn = -1  # the key and rotation index of a placement, when known
        if fast:
            if gathered is None:
                gathered = gather(hands[player])
            best_delta, group, risky, codes = gathered
            if not group:
                action = PASS if changed or not pile else CHANGE
            else:
                # Sorted as greedy_policy sorts: by code, cell (y, x) and rotation.
                group.sort()
                best = group
                if risky and exits + best_delta > 0:
                    holes = {
                        g
                        for g in risky
                        if _walls_hole(
                            rim, three, codes[g >> _RANK_SHIFT], g >> 2 & _KEY_MASK, g & 3
                        )
                    }
                    if holes:
                        best = [g for g in group if g not in holes]
                if best:
                    g = best[rng.randrange(len(best))] if len(best) > 1 else best[0]
                    lay_key = k = g >> 2 & _KEY_MASK
                    lay_turn = g & 3
                    # Placement(...) without its Python-level __new__ (the same tuple).
                    action = new_tuple(
                        Placement,
                        (
                            codes[g >> _RANK_SHIFT],
                            k % _KEY_WIDTH - _KEY_OFFSET,
                            k // _KEY_WIDTH - _KEY_OFFSET,
                            ROTATIONS[lay_turn],
                        ),
                    )
                    delta = best_delta
                else:
                    # Every placement of the least change walls in a hole: greedy_policy's
                    # other groups, in order (a placement can wall a hole only if it covers a
                    # cell of ``danger``); failing all, the first wall of the least group.
                    ordered = every(hands[player], best_delta)
                    picks: list[tuple[int, int, int, int, int, int]] = []
                    i = 0
                    while i < len(ordered) and not picks:
                        d = ordered[i][0]
                        while i < len(ordered) and ordered[i][0] == d:
                            e = ordered[i]
                            if not (
                                exits + d > 0
                                and (e[4] in danger or e[5] in danger)
                                and _walls_hole(rim, three, e[1], e[2], e[3] // 90)
                            ):
                                picks.append(e)
                            i += 1
                    if picks:
                        e = picks[rng.randrange(len(picks))] if len(picks) > 1 else picks[0]
                        x, y = _cell(e[2])
                        action = Placement(e[1], x, y, e[3])
                        delta = 99
                    elif holes_allowed:
                        g = group[0]
                        x, y = _cell(g >> 2 & _KEY_MASK)
                        action = Placement(codes[g >> _RANK_SHIFT], x, y, ROTATIONS[g & 3])
                        delta = 99
                    else:
                        action = PASS if changed or not pile else CHANGE
        else:
            action = greedy_policy(now(), rng)
        gathered = None
        actions.append(action)
        # -- apply (the action is legal: generated from the table and the hand)
        nxt = (player + 1) % players
        if isinstance(action, Placement):
            code = action.card
            if lay_key < 0:
                lay_key = (action.y + _KEY_OFFSET) * _KEY_WIDTH + action.x + _KEY_OFFSET
                lay_turn = action.rotation // 90
            hand = hands[player]
            i = hand.index(code)
            hands[player] = hand[:i] + hand[i + 1 :]
            hole = _lay_tracked(
                packed, rim, front, fsig, frow, three, danger, code, lay_key, lay_turn,
                len(history),
            )
            if mirrored:
                mirror(lay_key, code, lay_turn)
            history.append(action)
            table = None
            if delta == 99:
                exits = sum((v & SIDE_MASK).bit_count() for v in front.values())
            else:
                exits += delta
            to_draw = (player,) if pile or must_draw else ()
            player = nxt
            changed = False
            turn += 1
            if not exits:
                outcome, reason, to_draw = WON, REASONS["no-exit"], ()
            elif hole_loses and hole:
                outcome, reason, to_draw = LOST, REASONS["hole"], ()
            elif dead_loses:
                left = tuple(sorted((*(c for h in hands for c in h), *pile)))
                if dead_exits(view(), left, options.area):
                    outcome, reason, to_draw = LOST, REASONS["dead-exit"], ()
        elif isinstance(action, Change):
            hand = hands[player]
            hands[player] = ()
            pile = pile + hand
            to_draw = (player,) * len(hand)
            if may_place:
                changed = True
            else:
                player, changed, turn = nxt, False, turn + 1
        else:
            player, changed, turn = nxt, False, turn + 1
        # -- settle (settle and _when_nothing_is_owed, for a known pile)
        while outcome is None:
            if to_draw:
                if pile:
                    who = to_draw[0]
                    hand = hands[who]
                    i = bisect_left(hand, pile[0])
                    hands[who] = hand[:i] + pile[:1] + hand[i:]
                    pile = pile[1:]
                    to_draw = to_draw[1:]
                elif must_draw:
                    outcome, reason, to_draw = LOST, REASONS["no-draw"], ()
                else:
                    to_draw = ()
                continue
            if pile_end and not pile:
                outcome, reason = LOST, REASONS["pile-empty"]
                break
            if fast_fits:
                gathered = gather(hands[player])
                if gathered[1]:
                    break
            elif _fits(view(), hands[player], options):
                break
            left = (*(c for h in hands for c in h), *pile)
            if not (_fits_fast(fsig, frow, left) if fast_fits else _fits(view(), left, options)):
                outcome, reason = LOST, REASONS["stuck" if left else "all-down"]
                break
            if changed:
                player, changed, turn = (player + 1) % players, False, turn + 1
                gathered = None
                continue
            break
        state = None
        if keep:
            if table is None:
                table = made(True)
            states.append(now())
    if not keep and len(states) == 1 and actions:
        table = made(False)
        states.append(now())
    return states, actions


_Gathered = tuple[int, list[int], list[int], tuple[int, ...]]


def _key_signature(rim: Mapping[int, int], k: int) -> int:
    """:func:`~banditsolve.tunnels.table.signature` of the cell of key ``k``."""
    get = rim.get
    return (
        get(k, 0)
        | get(k - _KEY_WIDTH, 0) << 8
        | get(k + 1, 0) << 16
        | get(k + _KEY_WIDTH, 0) << 24
        | get(k - 1, 0) << 32
    )


def _least_placed(key: int) -> tuple[tuple[int, int], ...]:
    """The placements of :func:`~banditsolve.tunnels.table.local_placements` ``(key)`` whose
    exit change is the least, in its order, each as ``(4 * offset of square A + rotation
    index, offset of the other cell)`` in keys (added to 4 * a cell's key, the first is an
    :func:`_entry` of rank 0)."""
    found = local_placements(key)
    return tuple(
        (4 * (ady * _KEY_WIDTH + adx) + r // 90, ody * _KEY_WIDTH + odx)
        for d, adx, ady, r, odx, ody in found
        if d == found[0][0]
    )


#: Every distinct :func:`_least_placed` set, and each set's index there. Never emptied: the sets
#: depend only on the shape of the cards about one cell (a few hundred), and a row keeps the
#: index (entry ``_ROW_PLACES + mask`` of a :func:`~banditsolve.tunnels.table.least_row`).
_PLACE_SETS: list[tuple[tuple[int, int], ...]] = []
_PLACE_INDEX: dict[tuple[tuple[int, int], ...], int] = {}
_ROW_PLACES = PORT_MASK + 1


def _least_placed_index(key: int) -> int:
    """The index of ``_least_placed(key)`` in :data:`_PLACE_SETS` (added if new)."""
    least = _least_placed(key)
    i = _PLACE_INDEX.get(least)
    if i is None:
        i = _PLACE_INDEX[least] = len(_PLACE_SETS)
        _PLACE_SETS.append(least)
    return i


_HandMasks = tuple[tuple[int, ...], list[int], dict[int, int], dict[int, list[int]]]
#: ``_HAND_MASKS[hand]``: a sorted hand's codes without repeats, its port masks without repeats,
#: for each mask the rank of its first code (shifted by ``_RANK_SHIFT``), and for each mask of
#: more than one code the ranks of the others (none in the Bandido box: one code per mask).
_HAND_MASKS: dict[tuple[int, ...], _HandMasks] = {}


def _hand_masks(hand: tuple[int, ...]) -> _HandMasks:
    """The entry of :data:`_HAND_MASKS` for ``hand`` (worked out and kept; emptied beyond
    :data:`~banditsolve.tunnels.table.LOCAL_MEMO_LIMIT` hands)."""
    codes = tuple(dict.fromkeys(hand))
    first: dict[int, int] = {}
    more: dict[int, list[int]] = {}
    for rank, code in enumerate(codes):
        m = code & PORT_MASK
        # The entry of the code at key 0 unturned: gather adds ``key << 2`` and the rotation
        # index to it, which is _entry(rank, key, rotation).
        if m in first:
            more.setdefault(m, []).append(_entry(rank, 0, 0))
        else:
            first[m] = _entry(rank, 0, 0)
    if len(_HAND_MASKS) >= LOCAL_MEMO_LIMIT:
        _HAND_MASKS.clear()
    found = _HAND_MASKS[hand] = codes, list(first), first, more
    return found


def _fits_fast(fsig: dict[int, int], frow: dict[int, list[int]], codes: Iterable[int]) -> bool:
    """True when a card of ``codes`` can be laid on the table whose front cells have the
    signatures ``fsig`` and the rows ``frow`` (no play area, holes allowed)."""
    masks = {code & PORT_MASK for code in codes}
    for t, row in frow.items():
        for m in masks:
            d = row[m]
            if d == ROW_UNKNOWN:
                d = row[m] = least_change(m << SIGNATURE_BITS | fsig[t])
            if d != NO_PLACEMENT:
                return True
    return False


def _walls_hole(rim: dict[int, int], three: dict[int, int], code: int, a: int, r: int) -> bool:
    """:func:`creates_hole` for laying ``code`` with square A at key ``a`` turned rotation index
    ``r`` (``ROTATIONS[r]``), from the
    cells walled on three sides (``three``, each with the cell on its open side; all by key): a
    hole appears exactly where a square of the card covers such a cell's open side, the other
    square does not cover the cell itself, and an opening then runs into it."""
    steps = _LAY_KEYED[(code & PORT_MASK) << 2 | r] or _lay_keyed(code & PORT_MASK, r)
    get = three.get
    # The sides of a square that do not face the other square: the neighbour's offset, its
    # square's offset, and whether the card opens that side.
    for h, square, opens in steps[4]:
        h += a
        q = get(h)
        if q is not None and q == a + square and (opens or rim[h] & SIDE_MASK):
            return True
    return False


#: One side of a laid card's square (see :func:`_lay_steps`).
_LaySide = tuple[int, int, int, int, int, tuple[tuple[int, int, int], ...]]


@cache
def _lay_steps(mask: int, rotation: int) -> tuple[int, int, int, int, tuple[_LaySide, ...]]:
    """What laying port mask ``mask`` turned ``rotation`` does around it, from
    :func:`~banditsolve.tunnels.geometry.orientation` and :data:`~banditsolve.tunnels.table.TOUCH`
    (as :func:`~banditsolve.tunnels.table.lay`): square B's offset from A, the cell values of A
    and B without the index, and for each side of a square that does not face the other
    square: the square (0 = A, 1 = B), the neighbour's offset from A, what the card adds to its
    rim value, the shift of the neighbour's signature byte that faces the square, and the
    neighbour's other three neighbours (offsets from it, and the shift of their byte facing it)."""
    o = orientation(mask, rotation)
    bdx, bdy = o.b_step
    va = o.open_a | (o.b_side << PARTNER_SHIFT)
    vb = o.open_b | (((o.b_side + 2) & 3) << PARTNER_SHIFT)
    sides: list[_LaySide] = []
    for square, (cx, cy), open4, partner in (
        (0, (0, 0), o.open_a, o.b_side),
        (1, (bdx, bdy), o.open_b, (o.b_side + 2) & 3),
    ):
        for side, (dx, dy) in enumerate(STEP):
            if side == partner:
                continue
            facing = (side + 2) & 3
            around = tuple(
                (STEP[d][0], STEP[d][1], 8 * (((d + 2) & 3) + 1)) for d in range(4) if d != facing
            )
            sides.append(
                (square, cx + dx, cy + dy, TOUCH[open4 << 2 | side], 8 * (facing + 1), around)
            )
    return (
        bdx,
        bdy,
        va if o.open_a else va | FLASH_BIT,
        vb if o.open_b else vb | FLASH_BIT,
        tuple(sides),
    )


#: One side of a laid card's square in keys (see :func:`_lay_keyed`).
_KeyedSide = tuple[int, int, int, int, tuple[tuple[int, int], ...]]


_KeyedSteps = tuple[int, int, int, tuple[_KeyedSide, ...], tuple[tuple[int, int, int], ...]]
#: ``_LAY_KEYED[mask << 2 | r]``: :func:`_lay_keyed` of ``mask`` turned ``ROTATIONS[r]``, or None
#: until worked out.
_LAY_KEYED: list[_KeyedSteps | None] = [None] * ((PORT_MASK + 1) << 2)


def _lay_keyed(mask: int, r: int) -> _KeyedSteps:
    """:func:`_lay_steps` of ``mask`` turned ``ROTATIONS[r]`` with offsets as key offsets:
    square B's offset from A, the cell values of A and B, for each side ``(square,
    neighbour's offset from A, rim added, shift back, ((offset from the neighbour, shift),
    ...))``, and the same sides for :func:`_walls_hole`: ``(neighbour's offset, its square's
    offset, 1 if the card opens that side else 0)``. Kept in :data:`_LAY_KEYED`."""
    bdx, bdy, va, vb, sides = _lay_steps(mask, ROTATIONS[r])
    w = _KEY_WIDTH
    b = bdy * w + bdx
    steps = _LAY_KEYED[mask << 2 | r] = (
        b,
        va,
        vb,
        tuple(
            (square, ndy * w + ndx, add, back, tuple((uy * w + ux, sh) for ux, uy, sh in around))
            for square, ndx, ndy, add, back, around in sides
        ),
        tuple(
            (ndy * w + ndx, b if square else 0, 1 if add & SIDE_MASK else 0)
            for square, ndx, ndy, add, _, _ in sides
        ),
    )
    return steps


def _lay_tracked(
    packed: dict[int, int],
    rim: dict[int, int],
    front: dict[int, int],
    fsig: dict[int, int],
    frow: dict[int, list[int]],
    three: dict[int, int],
    danger: dict[int, int],
    code: int,
    a: int,
    r: int,
    index: int,
) -> bool:
    """:func:`~banditsolve.tunnels.table.lay` of ``code`` with square A at key ``a`` turned
    ``ROTATIONS[r]`` on mappings by cell key, keeping the front signatures ``fsig``, their rows
    ``frow`` (:func:`~banditsolve.tunnels.table.least_row`) and the walled cells (``three``,
    ``danger``) up to date. True when the card walls an exit into a one-cell hole."""
    bk, va, vb, sides, _ = _LAY_KEYED[(code & PORT_MASK) << 2 | r] or _lay_keyed(
        code & PORT_MASK, r
    )
    b = a + bk
    covered = (rim.pop(a, 0), rim.pop(b, 0))
    front.pop(a, None)
    front.pop(b, None)
    fsig.pop(a, None)
    fsig.pop(b, None)
    frow.pop(a, None)
    frow.pop(b, None)
    if three:
        if a in three:
            _unwalled(three, danger, a)
        if b in three:
            _unwalled(three, danger, b)
    shifted = index << INDEX_SHIFT
    packed[a] = va | shifted
    packed[b] = vb | shifted
    hole = False
    fresh: list[int] = []
    fget = fsig.get
    rget = rim.get
    row_get = _ROWS.get
    for square, n, add, shift_back, around in sides:
        n += a
        if n in packed:
            continue
        old = rget(n, 0)
        v = old | add
        rim[n] = v
        change = old ^ v
        if v & SIDE_MASK:
            front[n] = v
            s = fget(n)
            if s is None:
                fresh.append(n)
            else:
                s ^= change ^ (covered[square] << shift_back)
                fsig[n] = s
                frow[n] = row_get(s) or least_row(s)
        for u, shift in around:
            u += n
            s = fget(u)
            if s is not None:
                s ^= change << shift
                fsig[u] = s
                frow[u] = row_get(s) or least_row(s)
        count = TOUCH_COUNT[v]
        if count == 3:
            _walled(three, danger, n, v)
        elif count == 4:
            _unwalled(three, danger, n)
            hole = hole or IS_HOLE[v]
    for n in fresh:
        # _key_signature(rim, n), inline
        s = (
            rget(n, 0)
            | rget(n - _KEY_WIDTH, 0) << 8
            | rget(n + 1, 0) << 16
            | rget(n + _KEY_WIDTH, 0) << 24
            | rget(n - 1, 0) << 32
        )
        fsig[n] = s
        frow[n] = row_get(s) or least_row(s)
    return hole


def _walled(three: dict[int, int], danger: dict[int, int], cell: int, rim: int) -> None:
    """Note the empty cell of key ``cell`` walled on three sides (rim value ``rim``) and its
    open side's neighbour."""
    q = cell + _KEY_STEP[(~rim >> RIM_TOUCH_SHIFT & SIDE_MASK).bit_length() - 1]
    three[cell] = q
    danger[q] = danger.get(q, 0) + 1


def _unwalled(three: dict[int, int], danger: dict[int, int], cell: int) -> None:
    """Forget ``cell`` (covered, or walled on its fourth side)."""
    q = three.pop(cell, None)
    if q is not None:
        if danger[q] == 1:
            del danger[q]
        else:
            danger[q] -= 1

def state_from(
    table: Table,
    hands: Sequence[Sequence[int]],
    pile: Sequence[int] = (),
    *,
    unseen: Sequence[int] = (),
    player: int = 0,
    options: Options | None = None,
) -> GameState:
    """A game state from its parts: the table, each player's hand, the known pile (top first)
    and an unseen multiset on top of it, whose turn it is, and the rule options.

    The state is settled as after any move (a player whose hand does not fit still has to
    change; the game may already be over).
    """
    options = options or Options()
    if not 1 <= len(hands) <= 4:
        raise RuleOptionError(f"Bandido is played by 1 to 4 players, not {len(hands)}")
    if not 0 <= player < len(hands):
        raise RuleOptionError(f"player {player} does not exist ({len(hands)} players)")
    for i, hand in enumerate(hands):
        if len(hand) > options.hand_size:
            raise RuleOptionError(
                f"hand {i} holds {len(hand)} cards, more than {options.hand_size}"
            )
    state = GameState(
        table,
        tuple(tuple(sorted(h)) for h in hands),
        tuple(sorted(unseen)),
        tuple(pile),
        player,
        (),
        options,
    )
    if not table.exit_count:
        return replace(state, outcome=WON, reason=REASONS["no-exit"])
    return settle(state)


# -- Bandida (seed 003): the special cards, the alarms and the modes -----------------------------
#
# The same state and the same placement rules; what differs is kept here: each player's hand
# size, the stack of pending effects (``phase``), the alarm's discards and the modes' ends.
# Every function below runs only when ``options.mode`` is 1, 2 or 3 (see specs/bandida.md).

#: Cards a map may never take off under ``map_removes=not_special`` (besides the start card and
#: the map just laid): the ladder and Bandido's super card.
_KEEP_KINDS = frozenset({"ladder", "bandido_super"})


def _ba_new_game(
    players: int, options: Options, deck: Deck, table: Table, rng: random.Random | None
) -> GameState:
    """BA-SETUP-*: the mode's pile; three cards each, an alarm dealt going back."""
    cards = deck.cards(options.mode)
    sizes = (options.hand_size,) * players
    deal = tuple(p for _ in range(options.hand_size) for p in range(players))
    if rng is None:
        state = GameState(
            table, ((),) * players, cards, (), 0, deal, options, sizes=sizes, phase=("deal",)
        )
        return _ba_settle(state)
    pile = list(cards)
    rng.shuffle(pile)
    hands: list[list[int]] = [[] for _ in range(players)]
    for p in deal:
        while is_alarm(pile[0]):
            # BA-SETUP-3: the alarm goes back into the pile, which is shuffled again.
            rng.shuffle(pile)
        hands[p].append(pile.pop(0))
    state = GameState(
        table,
        tuple(tuple(sorted(h)) for h in hands),
        (),
        tuple(pile),
        0,
        (),
        options,
        sizes=sizes,
    )
    return _ba_settle(state)


def _top(state: GameState) -> str:
    return state.phase[-1] if state.phase else ""


def _pop(state: GameState) -> GameState:
    return replace(state, phase=state.phase[:-1])


def _refill(state: GameState, player: int) -> GameState:
    """The player draws up to their hand size (BA-TURN-2, BA-OBJ-*): owed draws."""
    if player in state.hold:
        if state.hands[player]:
            return state
        state = replace(state, hold=tuple(p for p in state.hold if p != player))
    owed = max(0, state.size(player) - len(state.hands[player]))
    return replace(state, to_draw=(player,) * owed)


def _end_turn(state: GameState) -> GameState:
    """The turn of ``state.player`` is over: refill, then the next player."""
    player = state.player
    state = _refill(state, player)
    return replace(
        state,
        player=(player + 1) % state.players,
        changed=False,
        turn=state.turn + 1,
    )


def _close_five(state: GameState) -> GameState:
    """BA-ALARM-5, the alarm's five discards done: what was set aside goes back, then the pile
    is shuffled (its order unknown again)."""
    everything = (*state.unseen, *state.pile, *state.aside)
    return replace(state, unseen=tuple(sorted(everything)), pile=(), aside=(), left=0, top="")


def _ba_take(
    state: GameState, code: int, unseen: tuple[int, ...], pile: tuple[int, ...]
) -> GameState:
    """The top card of the pile is ``code`` (drawn at a chance node or known)."""
    if _top(state) == "five":
        # BA-ALARM-5: discarded, or set aside when it is the ladder or Bandido's super card.
        if card_kind(code) in _KEEP_KINDS:
            return replace(state, unseen=unseen, pile=pile, aside=_insert_sorted(state.aside, code))
        state = replace(
            state,
            unseen=unseen,
            pile=pile,
            discard=_insert_sorted(state.discard, code),
            left=state.left - 1,
        )
        if code >> KIND_SHIFT == _MAP_KIND:
            lost = table_loss(state)  # BA-END-2: maybe the last map gone
            if lost is not None:
                # The alarm's discards end with the game when they are done anyway.
                done = lost.left <= 0 or not lost.pile_size
                return _pop(_close_five(lost)) if done else lost
        return state
    who = state.to_draw[0]
    if is_alarm(code):
        if _top(state) == "deal":
            # BA-SETUP-3: an alarm dealt at the start goes back into the pile (shuffled).
            return replace(state, unseen=tuple(sorted((*unseen, *pile, code))), pile=(), top="")
        # BA-ALARM-2: laid at once by the player who drew it (the draws resume after it).
        state = _give(state, code, unseen, pile)
        return replace(state, phase=(*state.phase, "alarm"), actor=who, to_draw=())
    return _give(state, code, unseen, pile)


def _joined(table: Table, codes: Sequence[int]) -> bool:
    """True when the cards with these codes (each on the table) and the start card are all in
    one tunnel network."""
    links = _links(table, True)
    wanted = {0} | {i for i, p in enumerate(table.history) if hand_code(p.card) in codes}
    if len(wanted) != 1 + len(codes):
        return False
    return wanted <= _reach(links, 0, frozenset())


def _links(table: Table, tunnels: bool) -> tuple[frozenset[int], ...]:
    """For each card of ``table.history``, the cards touching it edge to edge, or
    (``tunnels``) joined to it by an edge open on both sides."""
    out: list[set[int]] = [set() for _ in table.history]
    packed = table.packed
    for (x, y), v in packed.items():
        mine = v >> INDEX_SHIFT
        for side, (dx, dy) in enumerate(((0, -1), (1, 0), (0, 1), (-1, 0))):
            w = packed.get((x + dx, y + dy))
            if w is None or w >> INDEX_SHIFT == mine:
                continue
            if tunnels and not (v >> side & 1):
                continue  # a wall (openings meet openings, BD-PLACE-2)
            out[mine].add(w >> INDEX_SHIFT)
    return tuple(frozenset(s) for s in out)


def _reach(links: Sequence[frozenset[int]], start: int, gone: frozenset[int]) -> set[int]:
    seen = {start}
    todo = [start]
    while todo:
        for j in links[todo.pop()]:
            if j not in seen and j not in gone:
                seen.add(j)
                todo.append(j)
    return seen


def _rebuilt(table: Table, removed: Sequence[Placement]) -> Table:
    """The table laid again without ``removed``, in the order laid (on one set of mappings:
    what :meth:`Table.place` card by card gives)."""
    gone = set(removed)
    kept = (table.history[0], *(p for p in table.history[1:] if p not in gone))
    cells: dict[Cell, int] = {}
    rim: dict[Cell, int] = {}
    front: dict[Cell, int] = {}
    for index, p in enumerate(kept):
        lay(cells, rim, front, p, index)
    return Table(cells, rim, front, kept)


def _removal_choices(state: GameState) -> tuple[Remove, ...]:
    """BA-OBJ-6, BA-OPT-1..4: the map's removals, in a fixed order (by the order laid)."""
    o = state.options
    return _removals(state.table, o.map_removes, o.map_split, o.map_reopen, o.map_short)


def _removal_sets(state: GameState) -> _Choices:
    """:func:`_removal_choices` as sets of indices into ``state.table.history``, in the same
    order (without building the actions)."""
    o = state.options
    return _removal_indices(state.table, o.map_removes, o.map_split, o.map_reopen, o.map_short)


def _removals(
    table: Table, removes: str, split: str, reopen: str, short: str
) -> tuple[Remove, ...]:
    key = (table.history, removes, split, reopen, short)
    found = _REMOVE_MEMO.get(key)
    if found is None:
        history = table.history
        found = tuple(
            Remove(tuple(history[i] for i in combo))
            for combo in _removal_indices(table, removes, split, reopen, short).each()
        )
        _remember(_REMOVE_MEMO, key, found)
    return found


#: The removals of recent tables, by the placements in the order laid (tables holding the
#: same cards laid in another order are equal, but their last card and indices differ).
_REMOVE_MEMO: dict[tuple[object, ...], tuple[Remove, ...]] = {}
_INDEX_MEMO: dict[tuple[object, ...], _Choices] = {}
_REMOVAL_MEMO_LIMIT = 64


def _remember(memo: dict[tuple[object, ...], T], key: tuple[object, ...], value: T) -> None:
    if len(memo) >= _REMOVAL_MEMO_LIMIT:
        memo.clear()
    memo[key] = value


class _Choices(NamedTuple):
    """The map's removals as rows ``(prefix, mask)``: the sets ``(*prefix, k)`` for every bit
    ``k`` of ``mask``, rows in order and ``k`` increasing (every set sorted, the sets in the
    order :func:`_removal_choices` lists them); ``size`` sets in all."""

    size: int
    rows: tuple[tuple[tuple[int, ...], int], ...]

    def each(self) -> Iterator[tuple[int, ...]]:
        for prefix, mask in self.rows:
            for k in _bits(mask):
                yield (*prefix, k)

    def nth(self, index: int) -> tuple[int, ...]:
        """The set at ``index`` (0 ≤ index < size)."""
        for prefix, mask in self.rows:
            count = mask.bit_count()
            if index < count:
                for k in _bits(mask):
                    if not index:
                        return (*prefix, k)
                    index -= 1
            index -= count
        raise IndexError("no such removal")

    def holds(self, combo: tuple[int, ...]) -> bool:
        """True when the sorted set ``combo`` is one of the removals."""
        if not combo:
            return False
        prefix, k = combo[:-1], combo[-1]
        return any(p == prefix and mask >> k & 1 for p, mask in self.rows)


def _bits(mask: int) -> Iterator[int]:
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


def _removal_indices(
    table: Table, removes: str, split: str, reopen: str, short: str
) -> _Choices:
    key = (table.history, removes, split, reopen, short)
    found = _INDEX_MEMO.get(key)
    if found is None:
        found = _search_removals(table, removes, split, reopen, short)
        _remember(_INDEX_MEMO, key, found)
    return found


def _search_removals(
    table: Table, removes: str, split: str, reopen: str, short: str
) -> _Choices:
    history = table.history
    last = len(history) - 1
    pool = [
        i
        for i in range(1, len(history))
        if card_kind(history[i].card) != "bandido_super"
        and (
            removes == "not_super"
            or (card_kind(history[i].card) not in _KEEP_KINDS and i != last)
        )
    ]
    links = _links(table, split == "tunnels")
    tunnel_links = links if split == "tunnels" else _links(table, True)
    n = len(history)
    full = (1 << n) - 1
    forbidden = reopen == "forbidden"
    # BA-OPT-3: each card's tunnel neighbours, as a bit mask.
    tunnels = [sum(1 << w for w in s) for s in tunnel_links]
    masks = [sum(1 << w for w in s) for s in links]

    def keeps(combo: tuple[int, ...]) -> bool:
        if not forbidden:
            return True
        gone = 0
        for v in combo:
            gone |= 1 << v
        # BA-OPT-3: a kept card's opening would face an emptied cell.
        return not any(tunnels[v] & ~gone for v in combo)

    # BA-OPT-2: the cards left must stay one group. A set {i, j, k} may go when the table
    # without i and j is one group in which k is no cut vertex, or two groups one of which
    # is k alone (so no set of three needs its own search).
    #
    # For each i, one search of the table without i finds its blocks (biconnected parts) and
    # cut vertices. Taking j away then changes only the block holding j: the cut vertices
    # without i and j are those of the table without i outside that block, and the cards of
    # the block without j that then lie in two blocks or more (one small search).
    adjacent = [tuple(sorted(s)) for s in links]
    triples: list[tuple[tuple[int, ...], int]] = []
    total = 0
    whole_pairs: list[tuple[int, int]] = []
    alone_ok = [False] * n
    pool_mask = sum(1 << i for i in pool)
    # The cut vertices of a block without one card (the same block is found again for every
    # i outside it), and each block's own adjacency.
    block_cuts: dict[tuple[int, int], int] = {}
    within: dict[int, list[tuple[int, ...]]] = {}
    for a, i in enumerate(pool):
        bi = 1 << i
        reached, size, blocks, apart = _blocks(adjacent, bi, 0)
        alone_ok[i] = reached == full & ~bi
        # The cards the table without i leaves apart from the start card's group.
        cut_off = full & ~bi & ~reached
        count = [0] * n
        block_of = [0] * n
        for blk in blocks:
            for v in _bits(blk):
                count[v] += 1
                block_of[v] = blk
        cut = cut3 = 0
        for v in range(n):
            if count[v] >= 2:
                cut |= 1 << v
                if count[v] >= 3:
                    cut3 |= 1 << v
        for b in range(a + 1, len(pool)):
            j = pool[b]
            bj = 1 << j
            later = pool_mask & ~((bj << 1) - 1)
            ks = 0
            if cut_off:
                # i is a cut vertex: only a card or two hanging from it alone can go with it.
                if cut_off == bj:
                    whole_pairs.append((i, j))
                    ks = later & ~cut
                elif cut_off.bit_count() == 2 and cut_off & bj:
                    other = cut_off & ~bj
                    if not masks[other.bit_length() - 1] & ~bi & ~bj:
                        ks = later & other
                elif cut_off.bit_count() == 1 and count[j] < 2:
                    ks = later & cut_off
            elif count[j] >= 2:
                # j is a cut vertex: what it cuts off is its children below it.
                below = apart.get(j, ())
                if len(below) == 1 and size[below[0]] == 1:
                    k = below[0]
                    if not masks[k] & ~bi & ~bj:
                        ks = later & 1 << k
            else:
                whole_pairs.append((i, j))
                if not later:
                    continue
                blk = block_of[j]
                if not later & blk:
                    # No card to come lies in the block: its own cut vertices do not matter.
                    bad = cut
                elif blk.bit_count() == 2:
                    # A bridge: its other end is left in the blocks it had besides.
                    bad = (cut & ~blk) | (cut3 & blk)
                else:
                    key = (blk, j)
                    inner = block_cuts.get(key)
                    if inner is None:
                        inner = _block_cuts(_within(within, adjacent, blk), blk, j, block_cuts)
                        block_cuts[key] = inner
                    bad = cut | inner
                ks = later & ~bad
            if forbidden:
                ks &= sum(1 << k for k in _bits(ks) if keeps((i, j, k)))
            if ks:
                triples.append(((i, j), ks))
                total += ks.bit_count()
    if triples or short == "none":
        return _Choices(total, tuple(triples))
    rows: dict[int, int] = {}
    for i, j in whole_pairs:
        if keeps((i, j)):
            rows[i] = rows.get(i, 0) | 1 << j
    if rows:
        how_many = sum(m.bit_count() for m in rows.values())
        return _Choices(how_many, tuple(((i,), m) for i, m in rows.items()))
    singles = sum(1 << i for i in pool if alone_ok[i] and keeps((i,)))
    return _Choices(singles.bit_count(), (((), singles),) if singles else ())


def _within(
    memo: dict[int, list[tuple[int, ...]]], adjacent: Sequence[tuple[int, ...]], blk: int
) -> list[tuple[int, ...]]:
    """The card graph inside the block ``blk`` (a bit mask): each card's neighbours in it."""
    found = memo.get(blk)
    if found is None:
        found = [
            tuple(w for w in near if blk >> w & 1) if blk >> v & 1 else ()
            for v, near in enumerate(adjacent)
        ]
        memo[blk] = found
    return found


def _block_cuts(
    adjacent: Sequence[tuple[int, ...]], blk: int, j: int, memo: dict[tuple[int, int], int]
) -> int:
    """The cut vertices (a bit mask) of the block ``blk`` (biconnected, three cards or more;
    ``adjacent``: the graph inside it) without its card ``j``. A card with two neighbours in
    the block lies on a chain of such cards between two cards with more: without it, the
    chain hangs as two paths from its ends off the block without the whole chain (the same
    for every card of the chain, searched once, ``memo``)."""
    near = adjacent[j]
    bj = 1 << j
    if len(near) != 2:
        return _articulations(adjacent, blk & ~bj, bj)
    sides: list[tuple[list[int], int]] = []
    for start in near:
        path: list[int] = []
        before, v = j, start
        while v != j and len(adjacent[v]) == 2:
            path.append(v)
            first, second = adjacent[v]
            before, v = v, second if first == before else first
        if v == j:  # the block is a cycle: without j, a path
            return blk & ~bj & ~(1 << near[0]) & ~(1 << near[1])
        sides.append((path, v))
    chain = bj
    extra = 0
    for path, end in sides:
        for v in path:
            chain |= 1 << v
        if path:
            # A path hanging from ``end``: it and every card of it but the far tip cut.
            extra |= 1 << end
            for v in path[1:]:
                extra |= 1 << v
    key = (blk, -chain)
    base = memo.get(key)
    if base is None:
        base = _articulations(adjacent, blk & ~chain, chain)
        memo[key] = base
    return base | extra


def _articulations(adjacent: Sequence[tuple[int, ...]], members: int, gone: int) -> int:
    """The cut vertices (a bit mask) of the connected graph on the cards ``members`` (bit
    mask; ``adjacent`` lists no card outside ``members`` but those of ``gone``, a bit mask):
    Tarjan's low links from the lowest card, iteratively."""
    n = len(adjacent)
    root = (members & -members).bit_length() - 1
    disc = [0] * n
    for g in _bits(gone):
        disc[g] = n + 2
    low = [0] * n
    disc[root] = low[root] = 1
    clock = 2
    found = 0
    children = 0
    stack = [(root, iter(adjacent[root]))]
    while stack:
        v, neighbours = stack[-1]
        for w in neighbours:
            dw = disc[w]
            if not dw:
                disc[w] = low[w] = clock
                clock += 1
                stack.append((w, iter(adjacent[w])))
                break
            if dw < low[v]:
                low[v] = dw
        else:
            stack.pop()
            if stack:
                u = stack[-1][0]
                lv = low[v]
                if lv < low[u]:
                    low[u] = lv
                if u == root:
                    children += 1
                elif lv >= disc[u]:
                    found |= 1 << u
    if children >= 2:
        found |= 1 << root
    return found


def _blocks(
    adjacent: Sequence[tuple[int, ...]], gone: int, root: int
) -> tuple[int, list[int], list[int], dict[int, list[int]]]:
    """A depth-first search of the card graph without the cards of ``gone`` (a bit mask) from
    ``root``: the cards reached (a bit mask), the size of each card's subtree, the blocks
    (biconnected parts, as bit masks: a card in two or more is a cut vertex) and, for each
    card that cuts some off, its children whose subtrees it cuts off. Tarjan's low links,
    iteratively (the tree edge back to the parent may count in a low link: a child's low
    link is at least its parent's discovery time exactly when it is without it)."""
    n = len(adjacent)
    disc = [0] * n
    for g in _bits(gone):
        disc[g] = n + 2  # never entered, never lowers a low link
    low = [0] * n
    size = [1] * n
    apart: dict[int, list[int]] = {}
    disc[root] = low[root] = 1
    clock = 2
    reached = 1 << root
    trail = [root]
    blocks: list[int] = []
    stack = [(root, iter(adjacent[root]))]
    while stack:
        v, neighbours = stack[-1]
        for w in neighbours:
            dw = disc[w]
            if not dw:
                disc[w] = low[w] = clock
                clock += 1
                reached |= 1 << w
                trail.append(w)
                stack.append((w, iter(adjacent[w])))
                break
            if dw < low[v]:
                low[v] = dw
        else:
            stack.pop()
            if stack:
                u = stack[-1][0]
                size[u] += size[v]
                lv = low[v]
                if lv < low[u]:
                    low[u] = lv
                if lv >= disc[u]:
                    blk = 1 << u
                    while True:
                        x = trail.pop()
                        blk |= 1 << x
                        if x == v:
                            break
                    blocks.append(blk)
                    if u in apart:
                        apart[u].append(v)
                    else:
                        apart[u] = [v]
    return reached, size, blocks, apart


def _fits_hand(state: GameState, player: int) -> bool:
    return _fits(state.table, state.hands[player], state.options)


def _placements_of(state: GameState, codes: Iterable[int]) -> list[Action]:
    actions: list[Action] = []
    for code in sorted(set(codes)):
        found = sorted(
            (p.y, p.x, p.rotation, p)
            for p in _playable_placements(state.table, code, state.options)
        )
        actions.extend(p for _, _, _, p in found)
    return actions


def _ba_legal(state: GameState) -> tuple[Action, ...]:
    top = _top(state)
    if top == "alarm":
        return tuple(
            _placements_of(state, (c for c in state.hands[state.actor] if is_alarm(c)))
        )
    if top == "discard":
        return tuple(Discard(c) for c in sorted(set(state.hands[state.queue[0]])))
    if top == "map":
        return _removal_choices(state)
    actions = _placements_of(state, state.hands[state.player])
    if state.changed:
        actions.append(PASS)
    elif not actions:
        actions.append(CHANGE if state.pile_size else PASS)
    return tuple(actions)


def _alarm_effect(state: GameState, code: int) -> GameState:
    """BA-ALARM-4/5: the alarm's effect for everyone, then the drawer refills (at the end)."""
    if card_kind(code) == "alarm_discard_five":
        return replace(state, phase=(*state.phase[:-1], "five"), left=5)
    floor = 0 if state.options.alarm_zero == "zero" else 1
    order = [(state.actor + i) % state.players for i in range(state.players)]
    queue = tuple(p for p in order if state.hands[p] and state.size(p) > floor)
    sizes = tuple(
        state.size(p) - 1 if state.size(p) > floor else state.size(p) for p in range(state.players)
    )
    return replace(state, phase=(*state.phase[:-1], "discard"), queue=queue, sizes=sizes)


def _after_alarm(state: GameState) -> GameState:
    """The alarm is done: the drawer draws to refill the hand."""
    state = _pop(state)
    owed = max(0, state.size(state.actor) - len(state.hands[state.actor]))
    return replace(state, to_draw=(state.actor,) * owed, actor=0)


def _ba_settle(state: GameState) -> GameState:
    """Everything that needs no decision, for Bandida (see :func:`settle`)."""
    options = state.options
    while state.outcome is None:
        top = _top(state)
        if top == "five":
            if state.left <= 0 or not state.pile_size:
                state = _after_alarm(_close_five(state))
                continue
            if state.unseen:
                return state  # chance node: which card is discarded
            state = _ba_take(state, state.pile[0], (), state.pile[1:])
            continue
        if top == "alarm":
            if _ba_legal(state):
                return state
            # BA-OPT-9: an alarm that cannot be laid leaves the game; its effect per option.
            hand = state.hands[state.actor]
            code = next(c for c in hand if is_alarm(c))
            hands = list(state.hands)
            hands[state.actor] = _remove_one(hand, code)
            state = replace(
                state, hands=tuple(hands), discard=_insert_sorted(state.discard, code)
            )
            if options.alarm_stuck == "effect":
                state = _alarm_effect(state, code)
            else:
                state = _after_alarm(state)
            continue
        if top == "discard":
            while state.queue and not state.hands[state.queue[0]]:
                state = replace(state, queue=state.queue[1:])
            if state.queue:
                return state
            state = _after_alarm(state)
            continue
        if top == "map":
            if _removal_sets(state).size:
                return state
            state = _pop(state)
            lost = table_loss(state)  # BA-END-2: this map removes nothing
            if lost is not None:
                return lost
            if not state.phase:
                state = _end_turn(state)
            continue
        if top in ("dynamite", "tool"):
            if _fits_hand(state, state.player):
                return state
            if (
                top == "dynamite"
                and options.dynamite_stuck == "change"
                and state.pile_size
                and not state.changed
            ):
                return state  # BA-OPT-7: the player may change the hand
            if top == "tool" and options.tool_stuck == "under" and state.hands[state.player]:
                hands = list(state.hands)
                rest = hands[state.player]
                hands[state.player] = ()
                state = replace(state, hands=tuple(hands), pile=state.pile + rest)
            state = replace(_pop(state), changed=False)
            if not state.phase:
                state = _end_turn(state)
            continue
        if state.to_draw:
            if not state.pile_size:
                if options.pile_out == "must_draw" and top != "deal":
                    return replace(state, outcome=LOST, reason=REASONS["no-draw"], to_draw=())
                state = replace(state, to_draw=())
                continue
            if state.unseen:
                return state  # chance node
            state = _ba_take(state, state.pile[0], (), state.pile[1:])
            continue
        if top == "deal":
            state = _pop(state)
            continue
        if options.alarm_show == "top" and state.top_is_alarm:
            # BA-OPT-12: an alarm showing on top of the pile is taken at once by the player
            # whose turn it is (a draw among the alarms when the pile is unseen).
            state = replace(state, to_draw=(state.player,))
            continue
        state, settled = _when_nothing_is_owed(state, _ba_hand_fits)
        if settled:
            return state
    return state


def mode_end(state: GameState, *, laid_map: bool = False) -> GameState:
    """BA-MODE-*, BA-END-*: the end checks of a Bandida state whose table changed (a card
    laid or removed): won, lost (closed too soon, a hole or a dead exit for good:
    :func:`table_loss`) or still on. ``laid_map``: the card just laid is a map whose removals
    are to come (so a hole is not yet for good)."""
    table = state.table
    options = state.options
    if not table.exit_count:
        mode = options.mode
        if mode == 1:
            return replace(state, outcome=WON, reason=REASONS["no-exit"], to_draw=())
        ladder = [c for c in table.cards() if card_kind(c) == "ladder"]
        if mode == 2:
            if ladder:
                return replace(state, outcome=WON, reason=REASONS["no-exit"], to_draw=())
            return replace(state, outcome=LOST, reason=REASONS["no-ladder"], to_draw=())
        if ladder and _joined(table, (ladder[0], BANDIDO_SUPER6)):
            return replace(state, outcome=WON, reason=REASONS["no-exit"], to_draw=())
        return replace(state, outcome=LOST, reason=REASONS["no-join"], to_draw=())
    return table_loss(state, laid_map=laid_map) or state


def _ba_apply(state: GameState, action: Action) -> GameState:
    """A player's action in Bandida (chance draws are handled by :func:`apply`)."""
    if isinstance(action, Draw):
        raise IllegalActionError(f"{action}: no card is to be drawn now")
    top = _top(state)
    if isinstance(action, Placement):
        if top in ("map", "discard"):
            raise IllegalActionError(
                f"{action}: the {'map' if top == 'map' else 'alarm'} wants a"
                f" {'removal' if top == 'map' else 'discard'} first"
            )
        if top == "alarm" and not is_alarm(action.card):
            raise IllegalActionError(f"{action}: the alarm just drawn must be laid first")
        if not _is_legal(state, action):
            raise IllegalActionError(_why_illegal(state, action))
        who = state.to_act
        hands = list(state.hands)
        hands[who] = _remove_one(hands[who], hand_code(action.card))
        table = state.table.place(action, check=False)
        new = replace(state, table=table, hands=tuple(hands), changed=state.changed)
        if top == "alarm":
            new = mode_end(new)
            if new.outcome is not None:
                return new
            return _ba_settle(_alarm_effect(new, action.card))
        new = replace(new, changed=False)
        if new.quiet == who and not state.phase:
            new = replace(new, quiet=-1)  # BA-OBJ-7: the round is over
        effects = top not in ("dynamite", "tool") or state.options.chain == "yes"
        kind = card_kind(action.card)
        new = mode_end(new, laid_map=effects and kind == "map")
        if new.outcome is not None:
            return new
        if top == "dynamite":
            new = _pop(new)  # the dynamite's extra card is down
        if effects:
            sizes = list(new.sizes) or [new.options.hand_size] * new.players
            if kind == "backpack":
                sizes[who] += 1  # BA-OBJ-2
            elif kind == "water_bottle":
                new = replace(new, quiet=who)  # BA-OBJ-7
            elif kind == "dynamite":
                new = replace(new, phase=(*new.phase, "dynamite"))  # BA-OBJ-3
            elif kind == "broken_tool":
                sizes[who] = 3  # BA-OBJ-4: afterwards three cards, whatever was held
                if new.options.tool == "over_turns":
                    new = replace(new, hold=tuple(sorted({*new.hold, who})))
                elif top != "tool":
                    new = replace(new, phase=(*new.phase, "tool"))
            elif kind == "map":
                new = replace(new, phase=(*new.phase, "map"))  # BA-OBJ-5
            new = replace(new, sizes=tuple(sizes))
        if not new.phase:
            new = _end_turn(new)
        return _ba_settle(new)
    if isinstance(action, Remove):
        order = {p: i for i, p in enumerate(state.table.history)}
        known = all(p in order for p in action.cards)
        combo = tuple(sorted(order[p] for p in action.cards)) if known else ()
        if known:
            action = Remove(tuple(state.table.history[i] for i in combo))
        if top != "map" or len(set(combo)) != len(combo) or not _removal_sets(state).holds(combo):
            raise IllegalActionError(f"{action}: not a removal the map allows now")
        table = _rebuilt(state.table, action.cards)
        out = tuple(sorted((*state.discard, *(p.card for p in action.cards))))
        new = _pop(replace(state, table=table, discard=out))
        new = mode_end(new)
        if new.outcome is not None:
            return new
        if not new.phase:
            new = _end_turn(new)
        return _ba_settle(new)
    if isinstance(action, Discard):
        if top != "discard" or action.card not in state.hands[state.queue[0]]:
            raise IllegalActionError(f"{action}: not a discard the alarm asks for now")
        who = state.queue[0]
        hands = list(state.hands)
        hands[who] = _remove_one(hands[who], action.card)
        new = replace(
            state,
            hands=tuple(hands),
            discard=_insert_sorted(state.discard, action.card),
            queue=state.queue[1:],
        )
        if action.card >> KIND_SHIFT == _MAP_KIND:
            lost = table_loss(new)  # BA-END-2: maybe the last map gone
            if lost is not None:
                # The alarm's discards end with the game when nobody is left to discard.
                return lost if lost.queue else _pop(lost)
        return _ba_settle(new)
    if action not in _ba_legal(state):
        raise IllegalActionError(_why_illegal(state, action))
    player = state.player
    if isinstance(action, Change):
        hand = state.hands[player]
        hands = list(state.hands)
        hands[player] = ()
        new = replace(
            state,
            hands=tuple(hands),
            pile=state.pile + hand,
            to_draw=(player,) * len(hand),
            changed=True,
        )
        if state.options.hand_change == "ends_turn":  # Bandido's reading (BD-OPT-2)
            new = replace(
                new,
                phase=(),
                changed=False,
                player=(player + 1) % state.players,
                turn=state.turn + 1,
            )
        return _ba_settle(new)
    # Pass: the turn ends (a dynamite or a tool still pending lapses).
    return _ba_settle(_end_turn(replace(state, phase=(), changed=False)))
