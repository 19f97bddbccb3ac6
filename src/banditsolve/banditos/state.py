"""The Los Banditos game state: one immutable value (rules LB-SETUP-*, LB-TURN-*).

Tiles sit in four row slots numbered 1 to 4. A tile that is won leaves its slot empty until the
next face-down tile is turned up into the same slot (a chance step); once the stack is used up,
slots stay empty and the row shrinks.

This module holds the types and the rule options (:data:`OPTION_SET`) only. What a reachable
state is, is said by :func:`banditsolve.banditos.rules.validate`; the text forms and the pictures
a state offers (``state.notation()``, ``str(state)``, ``_repr_svg_``) are made by
:mod:`~banditsolve.banditos.notation` and :mod:`~banditsolve.banditos.render`, which register
them here when they load (:func:`register_notation`, :func:`register_pictures`; the package
imports both), so that this module imports neither.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from typing import Literal

from banditsolve.banditos.dice import DICE_PER_COLOUR, Die, colour_counts
from banditsolve.core.args import expect_whole
from banditsolve.core.io import json_type
from banditsolve.core.options import KnownKeywords, OptionSet, OptionSpec
from banditsolve.errors import ArgumentTypeError, InternalError, RuleOptionError

ProofOption = Literal["strict", "bag"]
PROOF_OPTIONS: tuple[ProofOption, ...] = ("strict", "bag")
UnplaceableOption = Literal["give_up", "return"]
UNPLACEABLE_OPTIONS: tuple[UnplaceableOption, ...] = ("give_up", "return")

#: The rule options of Los Banditos (specs/los-banditos.md, LB-OPT-*): their values, defaults,
#: the reasons for the defaults and the rules they belong to. Everything that reads or lists
#: options goes through it: :class:`Options`, the notation's option fields, the JSON
#: ``"options"``, ``--option NAME=VALUE`` and ``play --help``.
OPTION_SET = OptionSet(
    "Los Banditos",
    (
        OptionSpec(
            "proof",
            PROOF_OPTIONS,
            "strict",
            "a claim proven against every die not on its tile holds under any reading, and "
            "the dice on the other tiles do come back to the bag as those tiles are won",
            ("LB-OPT-1", "LB-CLAIM-2"),
        ),
        OptionSpec(
            "unplaceable",
            UNPLACEABLE_OPTIONS,
            "give_up",
            "both rulebooks say every rolled die must be placed, and their examples treat a "
            "die with nowhere to go as a problem to solve by giving a tile up, never as a pass",
            ("LB-OPT-4", "LB-TURN-6"),
            old_values=(("give-up", "give_up"),),
        ),
    ),
)

SLOTS = 4
TILE_VALUES = (1, 2, 3)
#: Booty tiles in the box: four worth 1, three worth 2, three worth 3 (LB-SETUP-1).
TILE_COUNTS = (4, 3, 3)
WINNING_SCORE = 10
MAX_SIDE = 3


@dataclass(frozen=True, slots=True)
class Options(KnownKeywords):
    """Rule options where the seeds are silent (see specs/los-banditos.md, LB-OPT-*); their
    values, defaults and reasons are :data:`OPTION_SET`'s.

    ``proof`` (LB-OPT-1): which dice a claim proof may assume the opponent can still get.
    ``"strict"`` (default): any die not already on this tile. ``"bag"``: only dice in the bag now.

    ``unplaceable`` (LB-OPT-4): a rolled die that has no free place (every own side in the row
    is full). ``"give_up"`` (default): the player must make room by giving up (or claiming) a
    tile. ``"return"``: the player may instead end the turn, and the dice that cannot be placed
    go back into the bag. The old spelling ``"give-up"`` is still read, with a deprecation note.
    """

    proof: ProofOption = "strict"
    unplaceable: UnplaceableOption = "give_up"

    def __post_init__(self) -> None:
        for spec in OPTION_SET:
            value = getattr(self, spec.name)
            if isinstance(value, str) and value in dict(spec.old_values):
                # An old spelling: read as the new one, with the deprecation note.
                object.__setattr__(self, spec.name, spec.parse(value))
        OPTION_SET.check(self.values())

    @staticmethod
    def from_mapping(values: Mapping[str, object] | None) -> Options:
        """The options named in ``values`` (the others at their default), read by
        :data:`OPTION_SET`: an unknown name or value is refused with
        :class:`~banditsolve.errors.RuleOptionError`."""
        read = OPTION_SET.read(values)
        return Options(**read)  # type: ignore[arg-type]

    def values(self) -> dict[str, str]:
        """Every option by name, in :data:`OPTION_SET`'s order."""
        return {"proof": self.proof, "unplaceable": self.unplaceable}

    def changed(self) -> dict[str, str]:
        """The options that differ from the default, in :data:`OPTION_SET`'s order."""
        return OPTION_SET.changes(self.values())


DEFAULT_OPTIONS = Options()


@dataclass(frozen=True, slots=True)
class Slot:
    """A booty tile in the row: its value and the dice on each player's side (sorted)."""

    value: int
    sides: tuple[tuple[Die, ...], tuple[Die, ...]] = ((), ())

    def side(self, player: int) -> tuple[Die, ...]:
        return self.sides[player]

    @property
    def first_complete(self) -> int | None:
        """The player whose side reached three dice first, if either has.

        Both sides full is resolved at once, so at most one side of a tile in play is full and
        the order of completion is always known from the dice.
        """
        if len(self.sides[0]) == MAX_SIDE:
            return 0
        if len(self.sides[1]) == MAX_SIDE:
            return 1
        return None

    @property
    def dice(self) -> tuple[Die, ...]:
        return self.sides[0] + self.sides[1]

    def with_die(self, player: int, die: Die) -> Slot:
        side = tuple(sorted((*self.sides[player], die)))
        sides = (side, self.sides[1]) if player == 0 else (self.sides[0], side)
        return Slot(self.value, sides)


@dataclass(frozen=True, slots=True)
class State:
    """A whole Los Banditos position.

    - ``row``: four slots, each a :class:`Slot` or ``None`` (empty: waiting for a tile, or gone).
    - ``stack``: how many face-down tiles of value 1, 2 and 3 remain (their order is unknown).
    - ``bag``: dice in the bag per colour (black, green, red, blue).
    - ``won``: the values of the tiles each player has won, largest first.
    - ``to_move``: 0 or 1, the player whose turn it is.
    - ``rolled``: this turn's dice have been drawn and rolled.
    - ``roll_pending``: the player has asked to draw and roll; a chance step comes next.
    - ``hand``: rolled dice not yet placed (sorted).
    - ``opening``: this is the game's first turn, on which one die is drawn instead of two.
    - ``options``: the rule options in force.
    """

    row: tuple[Slot | None, Slot | None, Slot | None, Slot | None]
    stack: tuple[int, int, int] = (0, 0, 0)
    bag: tuple[int, int, int, int] = (6, 6, 6, 6)
    won: tuple[tuple[int, ...], tuple[int, ...]] = ((), ())
    to_move: int = 0
    rolled: bool = False
    roll_pending: bool = False
    hand: tuple[Die, ...] = ()
    opening: bool = False
    options: Options = field(default=DEFAULT_OPTIONS)

    # -- derived facts -------------------------------------------------------------------------

    @property
    def scores(self) -> tuple[int, int]:
        return (sum(self.won[0]), sum(self.won[1]))

    @property
    def winner(self) -> int | None:
        """The player with 10 or more points, if any: the game is then over (LB-END-1)."""
        s0, s1 = self.scores
        if s0 >= WINNING_SCORE:
            return 0
        if s1 >= WINNING_SCORE:
            return 1
        return None

    @property
    def is_terminal(self) -> bool:
        return self.winner is not None

    @property
    def reveal_pending(self) -> bool:
        """A slot is empty while face-down tiles remain: the next tile is turned up first."""
        return sum(self.stack) > 0 and any(slot is None for slot in self.row)

    @property
    def is_chance(self) -> bool:
        """The next step is chance's: turning up a tile or drawing and rolling dice."""
        return not self.is_terminal and (self.reveal_pending or self.roll_pending)

    @property
    def dice_to_draw(self) -> int:
        return 1 if self.opening else 2

    @property
    def stack_size(self) -> int:
        return sum(self.stack)

    def slot(self, number: int) -> Slot | None:
        """The tile in slot ``number`` (1 to 4)."""
        return self.row[number - 1]

    def tiles_in_play(self) -> list[tuple[int, Slot]]:
        return [(i + 1, s) for i, s in enumerate(self.row) if s is not None]

    def dice_on_tiles(self) -> tuple[Die, ...]:
        return tuple(d for _, s in self.tiles_in_play() for d in s.dice)

    def availability(
        self, number: int, option: ProofOption | None = None
    ) -> tuple[int, int, int, int]:
        """Dice per colour the opponent of a claim on slot ``number`` may assume they can get."""
        proof = option or self.options.proof
        slot = self.row[number - 1]
        assert slot is not None
        if proof == "bag":
            return self.bag
        k, g, r, b = colour_counts(slot.dice)
        n = DICE_PER_COLOUR
        return (n - k, n - g, n - r, n - b)

    # -- text and pictures (registered by the notation and render modules) ---------------

    def notation(self) -> str:
        """The one-line notation (see :mod:`banditsolve.banditos.notation`)."""
        return _view("notation")(self)

    def ascii(self) -> str:
        """The ASCII picture (see :mod:`banditsolve.banditos.render`)."""
        return _view("ascii")(self)

    def svg(self) -> str:
        """The SVG picture (see :mod:`banditsolve.banditos.render`)."""
        return _view("svg")(self)

    def _repr_svg_(self) -> str:
        return self.svg()

    def __str__(self) -> str:
        return self.ascii()

    def __repr__(self) -> str:
        """One line that evaluates back to this state with ``parse_position`` (a name of
        :mod:`banditsolve.banditos`): ``parse_position('... 0a')``. A state the notation cannot
        write (one no game reaches, built by hand) gets a short summary instead."""
        try:
            return f"parse_position({self.notation()!r})"
        except (ValueError, KeyError, IndexError, TypeError, AssertionError):
            s0, s1 = self.scores
            tiles = len(self.tiles_in_play())
            return (
                f"<Los Banditos State: player {self.to_move} to move, score {s0}:{s1}, "
                f"{tiles} tiles in the row, stack {self.stack_size}>"
            )

    def replace(self, **changes: object) -> State:
        return replace(self, **changes)  # type: ignore[arg-type]


def initial_state(options: Options = DEFAULT_OPTIONS, first_player: int = 0) -> State:
    """The position before setup: an empty row, all ten tiles face down, all dice in the bag.

    It is a chance node: the four tiles of the row are turned up one by one (LB-SETUP-2).
    """
    if not isinstance(options, Options):
        raise ArgumentTypeError(
            f"options must be Options (Options.from_mapping reads a dict), not {json_type(options)}"
        )
    expect_whole(first_player, "the first player", 0, 1, RuleOptionError)
    return State(
        row=(None, None, None, None),
        stack=TILE_COUNTS,
        to_move=first_player,
        opening=True,
        options=options,
    )


def expect_state(state: object, what: str = "position") -> State:
    """``state`` if it is a Los Banditos :class:`State`; a :class:`NotationError` otherwise
    (parse text with :func:`~banditsolve.banditos.notation.read_position` first)."""
    if not isinstance(state, State):
        raise ArgumentTypeError(
            f"a Los Banditos {what} must be a State (read text with read_position), "
            f"not {json_type(state)}"
        )
    return state


View = Callable[[State], str]
#: The text form and the pictures of a state, by name, as registered.
_VIEWS: dict[str, View] = {}


def register_notation(notation: View) -> None:
    """Make ``state.notation()`` write ``notation(state)`` (the notation module registers its
    writer when it loads)."""
    _VIEWS["notation"] = notation


def register_pictures(ascii: View, svg: View) -> None:
    """Make ``str(state)`` draw ``ascii(state)`` and ``state.svg()`` / ``_repr_svg_`` draw
    ``svg(state)`` (the render module registers its pictures when it loads)."""
    _VIEWS["ascii"] = ascii
    _VIEWS["svg"] = svg


def _view(name: str) -> View:
    view = _VIEWS.get(name)
    if view is None:  # pragma: no cover - the package imports notation and render
        raise InternalError(
            f"no {name} writer is registered: import banditsolve.banditos, which loads them"
        )
    return view
