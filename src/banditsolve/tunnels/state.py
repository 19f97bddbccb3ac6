"""The tunnel games' immutable types: Bandido's rule options, the game state, the actions and
the ends of a game.

Nothing here decides a move: :mod:`banditsolve.tunnels.rules` does (and says which states are
reachable). A variant of the rules (Bandida: :mod:`banditsolve.tunnels.bandida`) keeps its own
options and state as subclasses of :class:`Options` and :class:`GameState`, and a state of
the variant carries the rules that differ (:attr:`GameState.variant`, typed by
:class:`VariantRules`), so that Bandido's rules never need to know the variant.

The state is immutable. The pile has an *unseen* part on top (a multiset whose order nobody
knows) and a *known* part below it (cards put under the pile by a hand change, in order); a
draw from the unseen part is a chance node (BD-SETUP-2).
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Mapping
from dataclasses import dataclass, fields
from fractions import Fraction
from typing import TYPE_CHECKING, ClassVar, Protocol, TypeVar

from banditsolve.core.limits import MAX_TABLE_SIDE
from banditsolve.core.options import KnownKeywords, OptionSet, OptionSpec
from banditsolve.core.text import excerpt, plural, shown
from banditsolve.errors import ArgumentTypeError, InternalError, RuleOptionError
from banditsolve.tunnels.cards import card_name
from banditsolve.tunnels.geometry import Placement

if TYPE_CHECKING:
    from banditsolve.tunnels.table import Table

# -- rule options (BD-OPT-*) ---------------------------------------------------------------------

#: ``table_size``: no edge, or a play area of ``WxH`` cells (each 2..:data:`MAX_TABLE_SIDE`).
UNBOUNDED = "unbounded"
#: Play areas listed among the option's values (any ``WxH`` within the limits is accepted):
#: a 90 cm square table holds about 20 x 20 cells of 4.5 cm, a 120 x 80 cm one 26 x 17.
TABLE_SIZES = ("20x20", "26x17", "12x8")
#: The hand sizes allowed (option ``hand_size``, BD-OPT-7).
HAND_SIZES = range(1, 11)
#: The value of option ``hole`` that only a game with maps reads (Bandida, BA-OPT-14).
LOSES_AT_ONCE = "loses_at_once"
#: The player counts of a tunnel game: seed 004 names solo play; 4 is our reading (BD-SETUP-1).
MIN_PLAYERS, MAX_PLAYERS = 1, 4


def parse_table_size(text: str) -> tuple[int, int] | None:
    """``(width, height)`` of a ``table_size`` value (None for ``unbounded``); any other text
    is refused with :class:`RuleOptionError` (BD-OPT-6)."""
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


def check_table_size(value: str) -> None:
    """The ``check`` of option ``table_size``: accept any ``WxH`` of 2..60 cells (BD-OPT-6)."""
    parse_table_size(value)


#: Bandido's rule options (specs/bandido.md, BD-OPT-*): the one parser of them.
OPTION_SET = OptionSet(
    "Bandido",
    (
        OptionSpec(
            "pile_out",
            ("play_on", "end", "must_draw"),
            "play_on",
            "seed 004: when the pile runs out, play goes on with the cards in hand until "
            "nobody can lay one (end and must_draw are readings of Bandida's seed)",
            ("BD-OPT-1", "BD-END-2"),
        ),
        OptionSpec(
            "hand_change",
            ("ends_turn", "may_place"),
            "ends_turn",
            "seed 004: a player who changes the hand draws as many cards and the turn ends "
            "(may_place is Bandida's seed: lay a card of the new hand if one fits)",
            ("BD-OPT-2", "BD-TURN-3"),
        ),
        OptionSpec(
            "hole",
            ("loses", "illegal"),
            "loses",
            "the leaflet only warns against walling an exit into a one-cell hole, so such a "
            "placement is legal and the game is lost with it (illegal: it is not offered)",
            ("BD-OPT-3", "BD-END-4"),
        ),
        OptionSpec(
            "dead_exit",
            ("play_on", "loses"),
            "play_on",
            "the seed's own course plays on after an exit can no longer be closed (loses: "
            "the game ends there, with the same result, sooner)",
            ("BD-OPT-5", "BD-PLACE-5"),
        ),
        OptionSpec(
            "super_side",
            ("super6", "super5"),
            "super6",
            "the seeds leave the side to the players; the six-exit side is the level not "
            "marked for beginners, and every published example uses it",
            ("BD-OPT-4", "BD-SETUP-1"),
        ),
        OptionSpec(
            "hand_size",
            tuple(str(n) for n in HAND_SIZES),
            "3",
            "seed 004 deals every player three cards",
            ("BD-OPT-7", "BD-SETUP-1"),
            kind="int",
        ),
        OptionSpec(
            "table_size",
            (UNBOUNDED, *TABLE_SIZES),
            UNBOUNDED,
            "seed 004 lets the players agree to move the cards when the tunnels near the "
            "edge of the table, which never changes the game (WxH: cards stay inside a play "
            "area of that many cells)",
            ("BD-OPT-6",),
            check=check_table_size,
        ),
    ),
)


OptionsT = TypeVar("OptionsT", bound="Options")


@dataclass(frozen=True, slots=True)
class Options(KnownKeywords):
    """Bandido's rule options (``specs/bandido.md``, BD-OPT-*), read and checked by
    :data:`OPTION_SET` (their values, defaults and reasons are there).

    - ``pile_out``: ``"play_on"`` (when the pile is empty play on with the hands until nobody
      can place), ``"end"`` (lost as soon as the pile is empty) or ``"must_draw"`` (lost when
      a player must draw from the empty pile).
    - ``hand_change``: ``"ends_turn"`` (a hand change ends the turn) or ``"may_place"`` (the
      player may then place a card from the new hand).
    - ``hole``: ``"loses"`` (walling an exit into a one-cell hole is allowed and loses) or
      ``"illegal"`` (such a placement is not allowed).
    - ``dead_exit``: ``"play_on"`` (play continues after an exit became impossible to close)
      or ``"loses"`` (the game ends lost as soon as one is; same results, shorter games).
    - ``super_side``: ``"super6"`` (6-exit side, the harder level) or ``"super5"``.
    - ``hand_size``: cards in a full hand (3).
    - ``table_size``: ``"unbounded"`` or ``"WxH"``: the play area is ``W`` cells wide and ``H``
      high around the super card (see :attr:`area`).

    A variant's options are a subclass with more fields and its own :attr:`OPTION_SET`.
    """

    #: The option set that reads and checks this class's options.
    OPTION_SET: ClassVar[OptionSet] = OPTION_SET

    pile_out: str = "play_on"
    hand_change: str = "ends_turn"
    hole: str = "loses"
    dead_exit: str = "play_on"
    super_side: str = "super6"
    hand_size: int = 3
    table_size: str = UNBOUNDED

    def __post_init__(self) -> None:
        values = self.to_dict()
        type(self).refuse(values)
        self.OPTION_SET.check(values)

    @classmethod
    def refuse(cls, values: Mapping[str, object]) -> None:
        """Refuse an option value that only a variant reads, as any option of the other tunnel
        game is refused (:func:`foreign_option`): Bandido has no map, so a hole is always for
        good and ``hole=loses_at_once`` is Bandida's (BD-OPT-3, BA-OPT-14). A variant's
        subclass that reads it overrides this."""
        hole = values.get("hole")
        if isinstance(hole, str) and hole.strip() == LOSES_AT_ONCE:
            raise foreign_option(f"hole={LOSES_AT_ONCE}", "Bandido", "Bandida")

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

    @classmethod
    def from_mapping(
        cls: type[OptionsT], values: Mapping[str, object], base: Options | None = None
    ) -> OptionsT:
        """Options from ``name -> value`` over ``base`` (the defaults); values may be given as
        text (``"4"`` for ``hand_size``), as from the command line. Unknown names and values
        raise :class:`RuleOptionError` (one line, from :data:`OPTION_SET`)."""
        if not isinstance(values, Mapping):
            raise ArgumentTypeError(f"rule options must be a mapping, not {shown(values)}")
        cls.refuse(values)
        read = cls.OPTION_SET.read(values, None if base is None else base.to_dict())
        return cls(**read)  # type: ignore[arg-type]

    def to_dict(self) -> dict[str, object]:
        """The options as a plain mapping."""
        return {f.name: getattr(self, f.name) for f in fields(self)}

    def to_text(self) -> dict[str, str]:
        """The options as text values (what :meth:`from_mapping` reads back)."""
        return {name: str(value) for name, value in self.to_dict().items()}

    def changes(self, base: Options | None = None) -> dict[str, str]:
        """The options that differ from ``base`` (the defaults), as text."""
        ref = (base or type(self)()).to_text()
        return {k: v for k, v in self.to_text().items() if ref.get(k) != v}


#: ``Options()``, made once (immutable): what a new game uses when given no options.
DEFAULT_OPTIONS = Options()

# -- actions (BD-NOTE-5, BA-NOTE-2) --------------------------------------------------------------


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


@dataclass(frozen=True, slots=True, eq=False)
class Remove:
    """Bandida's map: take these cards (placements on the table, in the order laid) off.

    Two removals are equal when they take the same cards off, whatever order they list them
    in (tables laid in other orders list a removal's cards in other orders)."""

    cards: tuple[Placement, ...]

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Remove):
            return NotImplemented
        return Counter(self.cards) == Counter(other.cards)

    def __hash__(self) -> int:
        return hash(frozenset(Counter(self.cards).items()))

    def __str__(self) -> str:
        return " ".join(("remove", *(str(p) for p in self.cards)))


CHANGE = Change()
PASS = Pass()
Action = Placement | Change | Pass | Draw | Discard | Remove

# -- ends ----------------------------------------------------------------------------------------

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
    "no-hand": "every hand is empty and every hand size zero: no card can be laid again",
}
REASON_CODES: dict[str, str] = {text: code for code, text in REASONS.items()}


# -- the state -----------------------------------------------------------------------------------


class VariantRules(Protocol):
    """The rules a variant of Bandido overrides, carried by each state of the variant
    (:attr:`GameState.variant`): :mod:`banditsolve.tunnels.rules` hands a variant's states to
    these, and plays Bandido's own rules on a state without a variant. Bandida's rules are
    :class:`banditsolve.tunnels.bandida.rules.BandidaRules`."""

    @property
    def name(self) -> str:
        """The game's registry name (``"bandida"``)."""
        ...

    def legal_actions(self, state: GameState) -> tuple[Action, ...]:
        """The moves of the player to act (the state is not at a chance node, not over)."""
        ...

    def chance_outcomes(self, state: GameState) -> tuple[tuple[Draw, Fraction], ...]:
        """At a chance node, each draw with its exact probability."""
        ...

    def sample_chance(self, state: GameState, rng: random.Random) -> Draw:
        """A chance outcome drawn with the right probabilities."""
        ...

    def apply(self, state: GameState, action: Action) -> GameState:
        """The state after ``action`` (checked as an action of the tunnel game already)."""
        ...

    def settle(self, state: GameState) -> GameState:
        """Everything that needs no decision, carried out."""
        ...

    def validate(self, state: GameState, *, course: bool = True) -> None:
        """Refuse a state the variant's rules cannot reach, naming the rule (``course``: also
        its end, or that the game stops there)."""
        ...

    def carry_on(self, state: GameState) -> GameState:
        """A state written by hand carried on as after any move (its end, or settled)."""
        ...

    def cards_to_lay(self, state: GameState) -> tuple[int, ...]:
        """The cards the player to act may lay now (a policy's choice among them)."""
        ...

    def random_choice(self, state: GameState, rng: random.Random) -> Action | None:
        """A uniformly random legal choice when the decision now is not a placement (the
        variant's pending effects), else None."""
        ...


@dataclass(frozen=True, slots=True, repr=False)
class GameState:
    """A moment of a game (BD-NOTE-4). Build one with :func:`~banditsolve.tunnels.rules.
    new_game` (or a variant's).

    ``hands`` are sorted tuples of card codes; ``unseen`` is the sorted multiset on top of the
    pile; ``pile`` the known cards below it, top first; ``to_draw`` the players still owed one
    card each, in order; ``changed`` is set after a hand change that lets the player place;
    ``variant``: the rules that differ from Bandido's (None: Bandido's own).
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
    variant: VariantRules | None = None

    @property
    def to_act(self) -> int:
        """The player who decides now."""
        return self.player

    def size(self, player: int) -> int:
        """The number of cards ``player`` holds when their hand is full."""
        return self.options.hand_size

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
        """True when the next event is a draw from the unseen pile."""
        return self.outcome is None and bool(self.unseen) and bool(self.to_draw)

    @property
    def pile_size(self) -> int:
        """Cards left in the draw pile (unseen and known)."""
        return len(self.unseen) + len(self.pile)

    def remaining(self) -> tuple[int, ...]:
        """Sorted codes of every card not on the table (hands and pile)."""
        out = [c for hand in self.hands for c in hand]
        out.extend(self.unseen)
        out.extend(self.pile)
        return tuple(sorted(out))

    def returns(self) -> tuple[float, ...]:
        """1.0 for every player after a win, 0.0 otherwise (the game is cooperative)."""
        value = 1.0 if self.outcome == WON else 0.0
        return (value,) * self.players

    def _repr_svg_(self) -> str:
        return picture("svg", self)

    def __str__(self) -> str:
        """The ASCII picture (the game's, as ``game.ascii(state)`` draws it)."""
        return picture("ascii", self)

    def __repr__(self) -> str:
        """One short line that sums the state up. (A game state's notation holds every card
        of the deck, some 60 to 70 of them: ``GAME.to_notation(state)`` writes it in full,
        and ``GAME.from_notation`` reads it back.)"""
        game = "bandido" if self.variant is None else self.variant.name
        end = f", {self.outcome}" if self.outcome is not None else ""
        hands = "/".join(str(len(h)) for h in self.hands)
        return (
            f"<{game.capitalize()} state: turn {self.turn}, {plural(len(self.table), 'card')}"
            f" on the table, {plural(self.table.exit_count, 'exit')}, hands {hands}, pile"
            f" {self.pile_size}, player {self.to_act} to act{end};"
            f" {game.upper()}.to_notation(state) writes it in full>"
        )


# -- pictures: registered by the render modules (which import this one) --------------------------

View = Callable[[GameState], str]
#: The pictures of a state, by state class and kind (``"svg"``, ``"ascii"``), as registered.
_PICTURES: dict[tuple[type, str], View] = {}


def register_pictures(cls: type[GameState], svg: View, ascii: View | None = None) -> None:
    """Make ``state._repr_svg_()`` of states of class ``cls`` draw ``svg(state)`` and
    ``str(state)`` draw ``ascii(state)`` (the render modules register their pictures when they
    load; the package imports them)."""
    _PICTURES[cls, "svg"] = svg
    if ascii is not None:
        _PICTURES[cls, "ascii"] = ascii


def picture(kind: str, state: GameState) -> str:
    """The registered picture ``kind`` of ``state`` (by its class, or the nearest base)."""
    for cls in type(state).__mro__:
        view = _PICTURES.get((cls, kind))
        if view is not None:
            return view(state)
    raise InternalError(
        f"no {excerpt(kind, 10)} picture is registered: import banditsolve.tunnels, which loads"
        " them"
    )


def only_in(values: object, own: OptionSet, other: OptionSet) -> str | None:
    """The first option of the mapping ``values`` that the option set ``other`` reads and
    ``own`` does not: its name, or ``name=value`` for a value that only ``other`` lists (a
    command of one tunnel game given the other's option); None if none."""
    if not isinstance(values, Mapping):
        return None
    for name, value in values.items():
        if not isinstance(name, str):
            continue
        key = name.strip()
        if key not in other:
            continue
        if key not in own:
            return key
        text = value.strip() if isinstance(value, str) else None
        if text and text not in own.spec(key).values and text in other.spec(key).values:
            return f"{key}={text}"
    return None


def foreign_option(what: str, own: str, other: str) -> RuleOptionError:
    """The one refusal of an option (``name``, or ``name=value``) that only the other tunnel
    game reads: ``own`` and ``other`` are the games' titles (BA-OPT-13)."""
    return RuleOptionError(f"option {what} is {other}'s; {own} has no {what} (BA-OPT-13)")


def refuse_foreign(values: object, own: OptionSet, other: OptionSet | None) -> None:
    """Refuse (:func:`foreign_option`) the first option of the mapping ``values`` that the
    option set ``other`` (the other tunnel game's, if any) reads and ``own`` does not."""
    if other is None:
        return
    what = only_in(values, own, other)
    if what is not None:
        raise foreign_option(what, own.game, other.game)
