"""Dice of Los Banditos: four colours, six dice each, written colour letter then value (``r5``)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from enum import IntEnum

from banditsolve.core.io import json_type
from banditsolve.core.text import excerpt, shown
from banditsolve.errors import ArgumentTypeError, NotationError

DICE_PER_COLOUR = 6
VALUES = range(1, 7)


class Colour(IntEnum):
    """The four die colours, in the fixed order black, green, red, blue."""

    BLACK = 0
    GREEN = 1
    RED = 2
    BLUE = 3

    @property
    def letter(self) -> str:
        return COLOUR_LETTERS[self]

    @classmethod
    def parse(cls, text: str) -> Colour:
        found = _BY_LETTER.get(text) if isinstance(text, str) else None
        if found is not None:
            return found
        given = excerpt(text) if isinstance(text, str) else shown(text)
        raise NotationError(
            f"unknown colour {given}: expected one of k (black), g (green), r (red), b (blue)"
        )


COLOUR_LETTERS = "kgrb"
COLOURS = tuple(Colour)
_BY_LETTER: dict[str, Colour] = {letter: Colour(i) for i, letter in enumerate(COLOUR_LETTERS)}


@dataclass(frozen=True, slots=True, order=True)
class Die:
    """A rolled die: its colour and the value it shows (1 to 6). Ordered by colour, then value."""

    colour: Colour
    value: int
    #: A small int 0..23 unique to the colour and value: ``colour * 6 + value - 1`` (derived, so
    #: it takes no part in comparisons).
    code: int = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        if not isinstance(self.colour, Colour):
            colour = self.colour
            if isinstance(colour, str):
                object.__setattr__(self, "colour", Colour.parse(colour))
            elif isinstance(colour, int) and not isinstance(colour, bool) and 0 <= colour < 4:
                object.__setattr__(self, "colour", Colour(colour))
            else:
                raise NotationError(
                    f"bad die colour {shown(colour)}: expected a Colour, a letter k g r b, "
                    "or 0-3"
                )
        if (
            isinstance(self.value, bool)
            or not isinstance(self.value, int)
            or self.value not in VALUES
        ):
            raise NotationError(f"die value {shown(self.value)} is not between 1 and 6")
        object.__setattr__(self, "code", int(self.colour) * 6 + self.value - 1)

    @classmethod
    def parse(cls, text: str) -> Die:
        """Read a die such as ``"r5"`` (red five)."""
        if not isinstance(text, str):
            raise ArgumentTypeError(f"a die is text such as 'r5', not {json_type(text)}")
        token = text.strip()
        if not token:
            raise NotationError("empty die: expected a colour letter (k g r b) and a value 1-6")
        if len(token) != 2 or token[1] not in "123456":
            raise NotationError(
                f"bad die {excerpt(text)}: expected a colour letter (k g r b) and a value 1-6, "
                "like 'r5'"
            )
        return cls(Colour.parse(token[0]), int(token[1]))

    def __str__(self) -> str:
        return f"{COLOUR_LETTERS[self.colour]}{self.value}"

    def __repr__(self) -> str:
        return f"Die.parse({str(self)!r})"


#: Every distinct die face, in code order.
ALL_DICE: tuple[Die, ...] = tuple(Die(c, v) for c in COLOURS for v in VALUES)


def parse_dice(text: str) -> tuple[Die, ...]:
    """Read dice separated by spaces or commas (``"r5 g3 k1"``); the empty string is no dice.

    A run of dice without separators (``"r5g3"``) is accepted too. More dice of a colour than
    the game has (six) are refused.
    """
    if not isinstance(text, str):
        raise ArgumentTypeError(f"dice are text such as 'r5 g3', not {json_type(text)}")
    if len(text) > 4 * DICE_PER_COLOUR * 4:
        raise NotationError(
            f"{len(text)} characters are more than the game's 24 dice need: {excerpt(text)}"
        )
    cleaned = text.replace(",", " ").split()
    dice: list[Die] = []
    for word in cleaned:
        if len(word) % 2:
            raise NotationError(
                f"bad dice {excerpt(word)}: each die is a colour letter and a value"
            )
        dice.extend(Die.parse(word[i : i + 2]) for i in range(0, len(word), 2))
    for colour in COLOURS:
        n = sum(1 for die in dice if die.colour == colour)
        if n > DICE_PER_COLOUR:
            raise NotationError(
                f"{n} {colour.name.lower()} dice, but the game has only {DICE_PER_COLOUR}"
            )
    return tuple(dice)


def expect_dice(dice: object, what: str = "dice") -> tuple[Die, ...]:
    """``dice`` (a sequence of :class:`Die`, or their text such as ``"k4 r5 b6"``) as a tuple;
    anything else is an :class:`ArgumentTypeError` naming ``what``."""
    if type(dice) is tuple:  # the hot path: a tuple of dice
        for die in dice:
            if type(die) is not Die:
                break
        else:
            return dice
    if isinstance(dice, str):
        return parse_dice(dice)
    if isinstance(dice, Mapping | bytes | bytearray) or not isinstance(dice, Sequence):
        raise ArgumentTypeError(
            f"{what} must be dice (a list of Die, or text like 'r5 g3'), not {json_type(dice)}"
        )
    out = tuple(dice)
    for die in out:
        if not isinstance(die, Die):
            raise ArgumentTypeError(f"{what}: {shown(die)} is not a die")
    return out


def format_dice(dice: object, sep: str = " ") -> str:
    """Write dice (as :func:`expect_dice` takes them) in the notation ``parse_dice`` reads."""
    if not isinstance(sep, str):
        raise ArgumentTypeError(f"the separator must be text, not {json_type(sep)}")
    return sep.join(str(d) for d in expect_dice(dice))


def colour_counts(dice: tuple[Die, ...] | list[Die]) -> tuple[int, int, int, int]:
    """How many of the dice are black, green, red and blue."""
    counts = [0, 0, 0, 0]
    for die in dice:
        counts[die.colour] += 1
    return (counts[0], counts[1], counts[2], counts[3])
