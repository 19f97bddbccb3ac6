"""The Rolling Bandits game state: one immutable value (RB-SETUP-*, RB-TURN-*).

The train is a tuple of :class:`Car` from the front (the locomotive, while it is there) to the
back. Each car keeps the number it had when the train was built (``id``: 0 the locomotive, 1 the
wagon behind it, and so on), so a car keeps its name when the train closes up after a steal.
On a car each player has at most one :class:`Group`: dice of one symbol (jokers laid there show
that symbol too).
"""

from __future__ import annotations

from dataclasses import dataclass, fields, replace
from typing import Literal

from banditsolve.errors import RuleOptionError

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

#: The rule options (RB-OPT-*): name -> allowed values, the default first.
OPTION_VALUES: dict[str, tuple[str, ...]] = {
    "mercenaries": ("off", "on"),
    "jokers": ("split", "together"),
    "trunk-count": ("at-least", "exactly"),
    "trunk-jokers": ("count", "natural"),
    "front": ("keep", "behind"),
    "locomotive": ("wagon", "last"),
    "cut": ("join", "rear-back"),
    "restart": ("last", "any"),
    "theft-mercenaries": ("colour", "hoard", "any"),
    "keep": ("allowed", "must-join"),
    "theft-trunk": ("open", "discard"),
}


@dataclass(frozen=True, slots=True)
class Options:
    """The rule options in force, by the names of :data:`OPTION_VALUES` (underscores for
    dashes). See ``specs/rolling-bandits.md`` (RB-OPT-*) for the readings and defaults."""

    mercenaries: str = "off"
    jokers: str = "split"
    trunk_count: str = "at-least"
    trunk_jokers: str = "count"
    front: str = "keep"
    locomotive: str = "wagon"
    cut: str = "join"
    restart: str = "last"
    theft_mercenaries: str = "colour"
    keep: str = "allowed"
    theft_trunk: str = "open"

    def __post_init__(self) -> None:
        for f in fields(self):
            name = f.name.replace("_", "-")
            value = getattr(self, f.name)
            allowed = OPTION_VALUES[name]
            if value not in allowed:
                shown = value if isinstance(value, str) and len(value) <= 20 else "that value"
                raise RuleOptionError(
                    f"Rolling Bandits option {name} cannot be {shown!r}: "
                    f"choose from {', '.join(allowed)}"
                )

    @staticmethod
    def from_mapping(values: dict[str, object]) -> Options:
        """Options from ``name -> value`` (names with dashes or underscores, text values)."""
        kwargs: dict[str, str] = {}
        for raw_name, value in values.items():
            name = str(raw_name).replace("_", "-")
            if name not in OPTION_VALUES:
                shown = name if len(name) <= 30 else name[:27] + "..."
                raise RuleOptionError(
                    f"unknown Rolling Bandits rule option {shown!r} "
                    f"(options are {', '.join(OPTION_VALUES)})"
                )
            if isinstance(value, bool):
                value = OPTION_VALUES[name][1] if value else OPTION_VALUES[name][0]
            if not isinstance(value, str):
                raise RuleOptionError(f"Rolling Bandits option {name} takes a text value")
            kwargs[name.replace("-", "_")] = value
        return Options(**kwargs)

    def changed(self) -> dict[str, str]:
        """The options that differ from the default, by name."""
        default = Options()
        return {
            f.name.replace("_", "-"): getattr(self, f.name)
            for f in fields(self)
            if getattr(self, f.name) != getattr(default, f.name)
        }


DEFAULT_OPTIONS = Options()


@dataclass(frozen=True, slots=True)
class Group:
    """One player's dice on one car: ``symbol`` (0-4), ``bandits`` of the hoard colour,
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
class Car:
    """A car of the train: its ``id``, number ``need``, ``points``, whether it is the
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

    def with_group(self, player: int, group: Group | None) -> Car:
        groups = (*self.groups[:player], group, *self.groups[player + 1 :])
        return Car(self.id, self.need, self.points, self.loco, self.trunk, groups)


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
    """A car a player took: its id, number and points, and whether it is the locomotive."""

    id: int
    need: int
    points: int
    loco: bool


@dataclass(frozen=True, slots=True)
class State:
    """A whole Rolling Bandits position.

    - ``players``: 2 to 4; ``edition``: the edition's name (the game object holds its data).
    - ``phase`` (see :data:`PHASES`) and ``to_move``: the active player.
    - ``train``: the cars from the front to the back.
    - ``wagons``: how many wagons the finished train has (set-up deals until then).
    - ``won``, ``trunks``: each player's taken cars and carried-off trunks, in order.
    - ``reserve``: each player's mercenaries not yet used (0 without the variant).
    - ``roll``, ``mroll``: face counts (R M H B S J) of the dice the active player rolled this
      turn and has not laid (hoard and mercenaries).
    - ``airborne``: (hoard, mercenary) dice being rolled at a roll chance node.
    - ``laid``: something was laid this turn (a roll-again trunk can no longer be used).
    - ``joker_car``: the car the jokers of this turn went to (option jokers=together).
    - ``usable``: how many of the active player's trunks were held at the start of the turn
      (only those may be used this turn).
    - ``pending``: trunks to open, as (car id, outright theft follows) pairs; ``resume``: the
      phase to return to after them.
    - ``discarded``: trunks opened and thrown away (a bomb found after an outright theft).
    """

    players: int
    edition: str
    options: Options
    phase: Phase
    to_move: int
    train: tuple[Car, ...]
    wagons: int
    won: tuple[tuple[Won, ...], ...]
    trunks: tuple[tuple[Held, ...], ...]
    reserve: tuple[int, ...]
    roll: tuple[int, ...] = (0, 0, 0, 0, 0, 0)
    mroll: tuple[int, ...] = (0, 0, 0, 0, 0, 0)
    airborne: tuple[int, int] = (0, 0)
    laid: bool = False
    joker_car: int | None = None
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

    def car(self, car_id: int) -> Car | None:
        for car in self.train:
            if car.id == car_id:
                return car
        return None

    def index(self, car_id: int) -> int:
        for i, car in enumerate(self.train):
            if car.id == car_id:
                return i
        return -1

    def gang(self, player: int) -> tuple[int, ...]:
        """The train indices (front to back) of the cars holding ``player``'s groups."""
        return tuple(i for i, car in enumerate(self.train) if car.groups[player] is not None)

    def on_train(self, player: int) -> tuple[int, int]:
        """(hoard dice, mercenaries) of ``player`` on the train."""
        b = m = 0
        for car in self.train:
            g = car.groups[player]
            if g is not None:
                b += g.bandits
                m += g.mercs
        return b, m

    def score(self, player: int) -> int:
        return sum(w.points for w in self.won[player]) + sum(t.value for t in self.trunks[player])

    @property
    def scores(self) -> tuple[int, ...]:
        return tuple(self.score(p) for p in range(self.players))

    def stealer(self, car: Car) -> int | None:
        """The player who would steal ``car`` at the start of their turn: at least its number of
        dice there and strictly more than every other player (RB-STEAL-1), if anyone."""
        best = second = 0
        who = -1
        for p, g in enumerate(car.groups):
            if g is None:
                continue
            n = g.bandits + g.mercs
            if n > best:
                second, best, who = best, n, p
            elif n > second:
                second = n
        if who >= 0 and best >= car.need and best > second:
            return who
        return None

    # -- pictures and notation (imported lazily) ------------------------------------------------

    def notation(self) -> str:
        from banditsolve.rolling.notation import format_state

        return format_state(self)

    def ascii(self) -> str:
        from banditsolve.rolling.render import ascii_picture

        return ascii_picture(self)

    def svg(self) -> str:
        from banditsolve.rolling.render import svg_picture

        return svg_picture(self)

    def __str__(self) -> str:
        return self.ascii()

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
