"""The Rolling Bandits game state: one immutable value (RB-SETUP-*, RB-TURN-*).

The train is a tuple of :class:`Wagon` from the front (the locomotive, while it is there) to the
back. Each wagon keeps the number it had when the train was built (``id``: 0 the locomotive, 1 the
wagon behind it, and so on), so a wagon keeps its name when the train closes up after a steal.
On a wagon each player has at most one :class:`Group`: dice of one symbol (jokers laid there show
that symbol too).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, fields, replace
from typing import Literal

from banditsolve.core.options import KnownKeywords, OptionSet, OptionSpec
from banditsolve.errors import ArgumentTypeError, InternalError

Phase = Literal[
    "deal-wagon",  # chance: the next wagon of the train (set-up)
    "deal-trunk",  # chance: the symbol of the next wagon's trunk (set-up)
    "start",  # the active player may take groups back, then rolls
    "roll",  # chance: the bandit dice in the air
    "mroll",  # chance: the mercenary dice in the air
    "attack",  # the active player lays groups and jokers, may use a roll-again trunk, ends
    "ambush",  # the active player may swap two groups with an ambush trunk, ends
    "reveal",  # chance: what a trunk just carried off holds
    "over",  # the game is over
]
PHASES: tuple[Phase, ...] = (
    "deal-wagon",
    "deal-trunk",
    "start",
    "roll",
    "mroll",
    "attack",
    "ambush",
    "reveal",
    "over",
)
CHANCE_PHASES = frozenset({"deal-wagon", "deal-trunk", "roll", "mroll", "reveal"})


def _spec(name: str, values: tuple[str, ...], reason: str, rules: tuple[str, ...]) -> OptionSpec:
    """One option, its first value the default; the dashed spellings of its name and values
    (``trunk-count``, ``at-least``), written before, are still read."""
    return OptionSpec(
        name,
        values,
        values[0],
        reason,
        rules,
        old_names=(name.replace("_", "-"),) if "_" in name else (),
        old_values=tuple((v.replace("_", "-"), v) for v in values if "_" in v),
    )


#: The rule options (RB-OPT-*), each with the reason for its default (in ``specs/`` order of
#: the fields of :class:`Options`). Names and values are written with underscores; the dashed
#: spellings of earlier versions (``trunk-count=at-least``) are still read, with a note.
OPTION_SET = OptionSet(
    "Rolling Bandits",
    (
        _spec("mercenaries", ("off", "on"),
              "the mercenaries are a variation for two players, not the base game",
              ("RB-OPT-8", "RB-MERC-1")),
        _spec("jokers", ("split", "together"),
              "a joker counts as a die of the group it joins, so each may join any group",
              ("RB-OPT-1", "RB-JOKER-1")),
        _spec("trunk_count", ("at_least", "exactly"),
              "three bandits read as three or more: a group of four surely finds the trunk too",
              ("RB-OPT-2", "RB-TRUNK-1")),
        _spec("trunk_jokers", ("count", "natural"),
              "a laid joker is turned to show the symbol, so the wagon shows three of it",
              ("RB-OPT-3", "RB-TRUNK-1")),
        _spec("front", ("keep", "behind"),
              "a group laid behind the gang would go further back than its last wagon, so a new "
              "symbol with no wagon in front is kept",
              ("RB-OPT-4", "RB-ATTACK-4")),
        _spec("locomotive", ("wagon", "last"),
              "the rules never set the locomotive apart: it is attacked like any wagon",
              ("RB-OPT-5",)),
        _spec("cut", ("join", "rear_back"),
              "the train closes up after a steal, so the two parts of a cut gang touch again",
              ("RB-OPT-6", "RB-STEAL-3")),
        _spec("restart", ("last", "any"),
              "a player with no dice on the train starts on the rearmost wagon, as the rulebook "
              "says in general",
              ("RB-OPT-7", "RB-ATTACK-4")),
        _spec("theft_mercenaries", ("colour", "hoard", "any"),
              "mercenaries work like the hoard, so all the dice of either colour make the theft",
              ("RB-OPT-9", "RB-THEFT-1")),
        _spec("keep", ("allowed", "must_join"),
              "the rulebook lets each new group be laid or taken back",
              ("RB-OPT-10", "RB-ATTACK-1")),
        _spec("theft_trunk", ("open", "discard"),
              "the bomb note has the thief open the trunk after the theft: a bomb does nothing",
              ("RB-OPT-11", "RB-TRUNK-4")),
    ),
)


@dataclass(frozen=True, slots=True)
class Options(KnownKeywords):
    """The rule options in force, one field per option of :data:`OPTION_SET`. See
    ``specs/rolling-bandits.md`` (RB-OPT-*) for the readings and defaults. A value in an old
    (dashed) spelling is read as the new one, with a deprecation note."""

    mercenaries: str = "off"
    jokers: str = "split"
    trunk_count: str = "at_least"
    trunk_jokers: str = "count"
    front: str = "keep"
    locomotive: str = "wagon"
    cut: str = "join"
    restart: str = "last"
    theft_mercenaries: str = "colour"
    keep: str = "allowed"
    theft_trunk: str = "open"

    def __post_init__(self) -> None:
        for spec in OPTION_SET:
            value = getattr(self, spec.name)
            if value == spec.default:
                continue
            checked = spec.parse(value)  # refuses a value the option does not take
            if checked != value:  # an old spelling, read as the new one
                object.__setattr__(self, spec.name, checked)

    @staticmethod
    def from_mapping(values: Mapping[str, object] | None) -> Options:
        """Options from ``name -> value`` (the defaults for the options not given), read by
        :data:`OPTION_SET`: an unknown name or value is refused with
        :class:`~banditsolve.errors.RuleOptionError`."""
        if values is None or (isinstance(values, Mapping) and not values):
            return DEFAULT_OPTIONS
        read = OPTION_SET.read(values)
        return Options(**{name: str(value) for name, value in read.items()})

    def values(self) -> dict[str, str]:
        """Every option's value, by name."""
        return {spec.name: getattr(self, spec.name) for spec in OPTION_SET}

    def changed(self) -> dict[str, str]:
        """The options that differ from the default, by name (what the notation and the JSON
        write)."""
        return OPTION_SET.changes(self.values())


DEFAULT_OPTIONS = Options()


@dataclass(frozen=True, slots=True)
class Group:
    """One player's dice on one wagon: ``symbol`` (0-4), ``bandits`` of the hoard colour,
    ``mercs`` mercenaries, and ``natural``: how many of them rolled the symbol (the others are
    jokers turned to it)."""

    symbol: int
    bandits: int
    mercs: int = 0
    natural: int = 0

    @property
    def size(self) -> int:
        return self.bandits + self.mercs


@dataclass(frozen=True, slots=True)
class Wagon:
    """A wagon of the train: its ``id``, number ``need``, ``points``, whether it is the
    locomotive, the symbol of the trunk still on it (``None``: none) and each player's group."""

    id: int
    need: int
    points: int
    loco: bool
    trunk: int | None
    groups: tuple[Group | None, ...]

    def count(self, player: int) -> int:
        group = self.groups[player]
        return 0 if group is None else group.size

    def with_group(self, player: int, group: Group | None) -> Wagon:
        groups = (*self.groups[:player], group, *self.groups[player + 1 :])
        return Wagon(self.id, self.need, self.points, self.loco, self.trunk, groups)


@dataclass(frozen=True, slots=True)
class Held:
    """A trunk a player carried off: the tile and whether its action has been used (a bomb is
    used at once; a trunk with nothing inside is never used)."""

    symbol: int
    value: int
    content: int
    used: bool = False


@dataclass(frozen=True, slots=True)
class Won:
    """A wagon a player took: its id, number and points, and whether it is the locomotive."""

    id: int
    need: int
    points: int
    loco: bool


@dataclass(frozen=True, slots=True)
class State:
    """A whole Rolling Bandits position.

    - ``players``: 2 to 4; ``edition``: the edition's name (the game object holds its data).
    - ``phase`` (see :data:`PHASES`) and ``to_move``: the active player.
    - ``train``: the wagons from the front to the back.
    - ``wagons``: how many wagons the finished train has (set-up deals until then).
    - ``won``, ``trunks``: each player's taken wagons and carried-off trunks, in order.
    - ``reserve``: each player's mercenaries not yet used (0 without the variant).
    - ``roll``, ``mroll``: face counts (R M H B S J) of the dice the active player rolled this
      turn and has not laid (hoard and mercenaries).
    - ``airborne``: (hoard, mercenary) dice being rolled at a roll chance node.
    - ``laid``: something was laid this turn (a roll-again trunk can no longer be used).
    - ``joker_wagon``: the wagon the jokers of this turn went to (option jokers=together).
    - ``usable``: how many of the active player's trunks were held at the start of the turn
      (only those may be used this turn).
    - ``pending``: trunks to open, as (wagon id, outright theft follows) pairs; ``resume``: the
      phase to return to after them.
    - ``discarded``: trunks opened and thrown away (a bomb found after an outright theft).
    """

    players: int
    edition: str
    options: Options
    phase: Phase
    to_move: int
    train: tuple[Wagon, ...]
    wagons: int
    won: tuple[tuple[Won, ...], ...]
    trunks: tuple[tuple[Held, ...], ...]
    reserve: tuple[int, ...]
    roll: tuple[int, ...] = (0, 0, 0, 0, 0, 0)
    mroll: tuple[int, ...] = (0, 0, 0, 0, 0, 0)
    airborne: tuple[int, int] = (0, 0)
    laid: bool = False
    joker_wagon: int | None = None
    usable: int = 0
    pending: tuple[tuple[int, bool], ...] = ()
    resume: Phase = "attack"
    discarded: tuple[Held, ...] = ()

    # -- derived facts -------------------------------------------------------------------------

    @property
    def is_terminal(self) -> bool:
        return self.phase == "over"

    @property
    def is_chance(self) -> bool:
        return self.phase in CHANCE_PHASES

    def wagon(self, wagon_id: int) -> Wagon | None:
        for wagon in self.train:
            if wagon.id == wagon_id:
                return wagon
        return None

    def index(self, wagon_id: int) -> int:
        for i, wagon in enumerate(self.train):
            if wagon.id == wagon_id:
                return i
        return -1

    def gang(self, player: int) -> tuple[int, ...]:
        """The train indices (front to back) of the wagons holding ``player``'s groups."""
        return tuple(i for i, wagon in enumerate(self.train) if wagon.groups[player] is not None)

    def on_train(self, player: int) -> tuple[int, int]:
        """(hoard dice, mercenaries) of ``player`` on the train."""
        b = m = 0
        for wagon in self.train:
            g = wagon.groups[player]
            if g is not None:
                b += g.bandits
                m += g.mercs
        return b, m

    def score(self, player: int) -> int:
        return sum(w.points for w in self.won[player]) + sum(t.value for t in self.trunks[player])

    @property
    def scores(self) -> tuple[int, ...]:
        return tuple(self.score(p) for p in range(self.players))

    def stealer(self, wagon: Wagon) -> int | None:
        """The player who would steal ``wagon`` at the start of their turn: at least its number of
        dice there and strictly more than every other player (RB-STEAL-1), if anyone."""
        best = second = 0
        who = -1
        for p, g in enumerate(wagon.groups):
            if g is None:
                continue
            n = g.bandits + g.mercs
            if n > best:
                second, best, who = best, n, p
            elif n > second:
                second = n
        if who >= 0 and best >= wagon.need and best > second:
            return who
        return None

    # -- text and pictures (made by the modules that register them: notation, render) ------------

    def notation(self) -> str:
        """The one-line notation (:func:`banditsolve.rolling.notation.format_state`)."""
        return _form("notation")(self)

    def ascii(self) -> str:
        """The ASCII picture (:func:`banditsolve.rolling.render.ascii_picture`)."""
        return _form("ascii")(self)

    def svg(self) -> str:
        """The SVG picture (:func:`banditsolve.rolling.render.svg_picture`)."""
        return _form("svg")(self)

    def __str__(self) -> str:
        return self.ascii()

    def __repr__(self) -> str:
        """One line that reads back: ``parse_state('rb ...')`` (``parse_state`` is exported by
        :mod:`banditsolve.rolling`), so ``eval(repr(state)) == state`` where it is in scope. A
        value the notation cannot write (only a broken one) shows its phase and mover instead."""
        try:
            return f"parse_state({self.notation()!r})"
        except Exception:  # a repr must not raise, whatever the value holds
            return f"<Rolling Bandits State phase={self.phase!r} to_move={self.to_move!r}>"

    def _repr_svg_(self) -> str:
        """Jupyter's rich display: the SVG picture of the train."""
        return self.svg()

    def replace(self, **changes: object) -> State:
        """A copy with ``changes`` (a fast :func:`dataclasses.replace`: the engine's every step
        makes one; measured 5x cheaper)."""
        if not changes.keys() <= _STATE_FIELDS:
            return replace(self, **changes)  # type: ignore[arg-type]  # raises the usual error
        new = object.__new__(State)
        for name in _STATE_ORDER:
            _SET(new, name, changes[name] if name in changes else getattr(self, name))
        return new


_STATE_ORDER: tuple[str, ...] = tuple(f.name for f in fields(State))
_STATE_FIELDS = frozenset(_STATE_ORDER)
_SET = object.__setattr__


Form = Literal["notation", "ascii", "svg"]
#: The text and pictures of a state, by form: registered by the modules that make them (the
#: package imports them), so that this module imports neither.
_FORMS: dict[str, Callable[[State], str]] = {}


def register_form(form: Form, make: Callable[[State], str]) -> None:
    """Make ``make`` the maker of ``state.notation()`` (``form="notation"``), ``state.ascii()``
    and ``str(state)`` (``"ascii"``) or ``state.svg()`` (``"svg"``)."""
    _FORMS[form] = make


def _form(form: Form) -> Callable[[State], str]:
    make = _FORMS.get(form)
    if make is None:  # pragma: no cover - the package registers every form on import
        raise InternalError(f"no {form} form registered for Rolling Bandits states")
    return make


def expect_state(state: object) -> State:
    """``state`` if it is a Rolling Bandits :class:`State`; an
    :class:`~banditsolve.errors.ArgumentTypeError` otherwise (read text with
    ``GAME.from_notation`` or ``GAME.read_state`` first)."""
    if not isinstance(state, State):
        raise ArgumentTypeError(
            "a Rolling Bandits position must be a State (read text with GAME.from_notation),"
            f" not {type(state).__name__}"
        )
    return state
