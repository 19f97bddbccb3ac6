"""The actions of Rolling Bandits and their text (RB-NOTE-1): one small frozen value per kind of
move or chance outcome, ``str(action)`` its text and :func:`parse_action` the way back.

>>> parse_action("lay R@3"), str(parse_action("ROLL  +2"))
(Lay(symbol=0, wagon=3), 'roll +2')
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from banditsolve.core.text import excerpt
from banditsolve.errors import ArgumentTypeError, NotationError
from banditsolve.rolling.edition import CONTENT_LETTERS, JOKER, LETTERS

#: No dice: the face counts (R M H B S J) of an empty roll.
NO_FACES = (0, 0, 0, 0, 0, 0)


def faces_text(faces: Sequence[int]) -> str:
    """Face counts as letters (``RRMJ``); ``-`` for none."""
    text = "".join(LETTERS[i] * n for i, n in enumerate(faces))
    return text or "-"


def parse_faces(text: str, where: str = "faces") -> tuple[int, ...]:
    if text == "-":
        return NO_FACES
    counts = [0] * 6
    for ch in text.upper():
        i = LETTERS.find(ch)
        if i < 0:
            raise NotationError(f"{where}: {excerpt(ch, 5)} is not a face (faces are {LETTERS})")
        counts[i] += 1
    return tuple(counts)


@dataclass(frozen=True, slots=True)
class DealWagon:
    """Set-up chance: the next wagon (from the locomotive back) is one of this kind."""

    need: int
    points: int

    def __str__(self) -> str:
        return f"wagon {self.need}/{self.points}"


@dataclass(frozen=True, slots=True)
class DealTrunk:
    """Set-up chance: the next wagon's trunk shows this symbol on its back."""

    symbol: int

    def __str__(self) -> str:
        return f"trunk {LETTERS[self.symbol]}"


@dataclass(frozen=True, slots=True)
class TakeBack:
    """Before rolling: take back the rearmost group (RB-TAKE-1)."""

    def __str__(self) -> str:
        return "take back"


@dataclass(frozen=True, slots=True)
class Roll:
    """Roll every available hoard die, and ``mercs`` mercenaries (RB-ROLL-1, RB-MERC-2)."""

    mercs: int = 0

    def __str__(self) -> str:
        return "roll" if not self.mercs else f"roll +{self.mercs}"


@dataclass(frozen=True, slots=True)
class Rolled:
    """Chance: the dice in the air landed showing these face counts (R M H B S J)."""

    faces: tuple[int, ...]

    def __str__(self) -> str:
        return f"rolled {faces_text(self.faces)}"


@dataclass(frozen=True, slots=True)
class Reroll:
    """Use a roll-again trunk: roll these of the dice just rolled again (hoard, mercenaries)."""

    bandits: tuple[int, ...]
    mercs: tuple[int, ...] = NO_FACES

    def __str__(self) -> str:
        text = f"reroll {faces_text(self.bandits)}"
        return text + (f"/{faces_text(self.mercs)}" if any(self.mercs) else "")


@dataclass(frozen=True, slots=True)
class Lay:
    """Lay every rolled die of ``symbol`` (hoard and mercenaries) on wagon ``wagon``."""

    symbol: int
    wagon: int

    def __str__(self) -> str:
        return f"lay {LETTERS[self.symbol]}@{self.wagon}"


@dataclass(frozen=True, slots=True)
class Joker:
    """Lay one rolled joker (a mercenary one if ``merc``) on wagon ``wagon``, showing the symbol of
    the player's group there."""

    wagon: int
    merc: bool = False

    def __str__(self) -> str:
        return f"{'merc ' if self.merc else ''}joker@{self.wagon}"


@dataclass(frozen=True, slots=True)
class Ambush:
    """Use an ambush trunk: swap the player's groups on wagons ``a`` and ``b``."""

    a: int
    b: int

    def __str__(self) -> str:
        return f"ambush {self.a} {self.b}"


@dataclass(frozen=True, slots=True)
class End:
    """End the attack (dice not laid are kept), or end the turn after ambushes."""

    def __str__(self) -> str:
        return "end"


@dataclass(frozen=True, slots=True)
class Open:
    """Chance: the trunk just carried off is this tile."""

    symbol: int
    value: int
    content: int

    def __str__(self) -> str:
        return f"open {LETTERS[self.symbol]}{self.value}{CONTENT_LETTERS[self.content]}"


Action = (
    DealWagon | DealTrunk | TakeBack | Roll | Rolled | Reroll | Lay | Joker | Ambush | End | Open
)

def _symbol(letter: str) -> int:
    i = LETTERS.find(letter.upper())
    if i < 0 or i == JOKER:
        raise NotationError(f"{letter!r} is not a bandit symbol (symbols are {LETTERS[:5]})")
    return i


def _open(m: re.Match[str]) -> Action:
    content = CONTENT_LETTERS.find(m[3].lower())
    if content < 0:
        raise NotationError(f"{excerpt(m[0])}: unknown trunk content {m[3]!r}")
    return Open(_symbol(m[1]), int(m[2]), content)


def _reroll(m: re.Match[str]) -> Action:
    mercs = parse_faces(m[2], "reroll") if m[2] else NO_FACES
    return Reroll(parse_faces(m[1], "reroll"), mercs)


#: Each action's text pattern and how a match makes the action (:func:`parse_action`).
_PATTERNS: tuple[tuple[re.Pattern[str], Callable[[re.Match[str]], Action]], ...] = tuple(
    (re.compile(p, re.IGNORECASE), make)
    for p, make in (
        (r"wagon (\d{1,2})/(\d{1,2})", lambda m: DealWagon(int(m[1]), int(m[2]))),
        (r"trunk ([A-Z])", lambda m: DealTrunk(_symbol(m[1]))),
        (r"take back", lambda m: TakeBack()),
        (r"roll(?: \+(\d{1,2}))?", lambda m: Roll(int(m[1]) if m[1] else 0)),
        (r"rolled ([A-Z]+|-)", lambda m: Rolled(parse_faces(m[1], "rolled"))),
        (r"reroll ([A-Z]+|-)(?:/([A-Z]+))?", _reroll),
        (r"lay ([A-Z])@(\d{1,2})", lambda m: Lay(_symbol(m[1]), int(m[2]))),
        (r"(merc )?joker@(\d{1,2})", lambda m: Joker(int(m[2]), bool(m[1]))),
        (r"ambush (\d{1,2}) (\d{1,2})", lambda m: Ambush(int(m[1]), int(m[2]))),
        (r"end", lambda m: End()),
        (r"open ([A-Z])(\d)([A-Z])", _open),
    )
)


def parse_action(text: object) -> Action:
    """An action from its text (the inverse of ``str(action)``)."""
    if not isinstance(text, str):
        raise ArgumentTypeError(f"an action is text, not {type(text).__name__}")
    raw = " ".join(text.strip().split())
    if len(raw) > 60:
        raise NotationError(f"unknown action {excerpt(text)}")
    for pattern, make in _PATTERNS:
        m = pattern.fullmatch(raw)
        if m:
            return make(m)
    raise NotationError(
        f"unknown action {excerpt(text)} (actions: roll, roll +N, take back, lay R@3, joker@3, "
        "reroll RJ, ambush 2 4, end, rolled RRMJ, open R2b, wagon 3/3, trunk R)"
    )
