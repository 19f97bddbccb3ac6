"""The toy's immutable types: its options, its state and its two actions."""

from __future__ import annotations

from dataclasses import dataclass

from banditsolve.core.options import OptionSet, OptionSpec

OPTIONS = OptionSet(
    "Nim with a die",
    (
        OptionSpec("pile", ("7", "10", "15"), "10", "a short game", ("NIM-1",), kind="int"),
        OptionSpec(
            "last", ("wins", "loses"), "wins", "the classic reading", ("NIM-4",),
            old_names=("last-counter",),
        ),
    ),
)

#: The die's faces (NIM-2).
FACES = (1, 2, 3)
MIN_PLAYERS, MAX_PLAYERS = 2, 3


@dataclass(frozen=True, slots=True)
class Options:
    """The rule options in force (see :data:`OPTIONS`)."""

    pile: int = 10
    last: str = "wins"

    def __post_init__(self) -> None:
        OPTIONS.check({"pile": self.pile, "last": self.last})


@dataclass(frozen=True, slots=True)
class State:
    """A moment of the game. ``rolled`` is 0 until the player to move has rolled; ``taker``
    took the last counters taken (-1 before anyone took)."""

    pile: int
    players: int
    to_move: int = 0
    rolled: int = 0
    taker: int = -1
    options: Options = Options()

    @property
    def is_over(self) -> bool:
        return self.pile == 0

    @property
    def is_chance(self) -> bool:
        return not self.is_over and self.rolled == 0


@dataclass(frozen=True, slots=True)
class Roll:
    """A chance outcome: the die shows ``value``."""

    value: int

    def __str__(self) -> str:
        return f"roll {self.value}"


@dataclass(frozen=True, slots=True)
class Take:
    """Take ``count`` counters."""

    count: int

    def __str__(self) -> str:
        return f"take {self.count}"


Action = Roll | Take
