"""The actions of Los Banditos: the players' moves and chance's outcomes, immutable values with
a text form that round-trips (rule LB-NOTE-2).

``str(action)`` writes ``claim 2``, ``give 3``, ``roll``, ``place r5 2``, ``end``, ``drawn r5
g3`` or ``reveal 2``, and :func:`parse_action` reads it back; :func:`check_action` makes sure a
value is an action with fields of the right kind. Whether an action is legal in a state is for
:mod:`banditsolve.banditos.rules` to say.
"""

from __future__ import annotations

from dataclasses import dataclass

from banditsolve.banditos.dice import Die, parse_dice
from banditsolve.banditos.state import TILE_VALUES
from banditsolve.core.io import json_type
from banditsolve.core.text import excerpt, shown
from banditsolve.errors import ArgumentTypeError, IllegalActionError, NotationError


@dataclass(frozen=True, slots=True)
class Claim:
    """Claim the tile in ``slot`` (1-4): your side holds three dice and cannot be beaten."""

    slot: int

    def __str__(self) -> str:
        return f"claim {self.slot}"


@dataclass(frozen=True, slots=True)
class GiveUp:
    """Give up the tile in ``slot``: the opponent wins it."""

    slot: int

    def __str__(self) -> str:
        return f"give {self.slot}"


@dataclass(frozen=True, slots=True)
class Roll:
    """Draw this turn's dice blindly from the bag and roll them (chance decides what comes)."""

    def __str__(self) -> str:
        return "roll"


@dataclass(frozen=True, slots=True)
class Place:
    """Place the rolled ``die`` on your side of the tile in ``slot``."""

    die: Die
    slot: int

    def __str__(self) -> str:
        return f"place {self.die} {self.slot}"


@dataclass(frozen=True, slots=True)
class EndTurn:
    """End the turn once every rolled die is placed."""

    def __str__(self) -> str:
        return "end"


@dataclass(frozen=True, slots=True)
class Drawn:
    """Chance: the dice drawn from the bag and the values they show."""

    dice: tuple[Die, ...]

    def __str__(self) -> str:
        return "drawn " + " ".join(str(d) for d in self.dice)


@dataclass(frozen=True, slots=True)
class Reveal:
    """Chance: the next face-down tile turns up, worth ``value``; it fills the lowest empty slot."""

    value: int

    def __str__(self) -> str:
        return f"reveal {self.value}"


Action = Claim | GiveUp | Roll | Place | EndTurn | Drawn | Reveal
ChanceAction = Drawn | Reveal
ACTION_TYPES = (Claim, GiveUp, Roll, Place, EndTurn, Drawn, Reveal)


def check_action(action: object) -> Action:
    """``action`` if it is a Los Banditos action with fields of the right kind (so that it can
    be named in a message); an :class:`ArgumentTypeError` for anything else, an
    :class:`IllegalActionError` for an action whose fields are out of range."""
    if not isinstance(action, ACTION_TYPES):
        raise ArgumentTypeError(f"not a Los Banditos action: {shown(action)}")
    if isinstance(action, Claim | GiveUp | Place):
        slot = action.slot
        if isinstance(slot, bool) or not isinstance(slot, int) or not 1 <= slot <= 4:
            raise IllegalActionError(
                f"slot {shown(slot)} does not exist: slots are numbered 1 to 4"
            )
        if isinstance(action, Place) and not isinstance(action.die, Die):
            raise IllegalActionError(f"{shown(action.die)} is not a die")
        return action
    if isinstance(action, Reveal | Drawn):
        _check_chance_fields(action)
    return action


def _check_chance_fields(action: Reveal | Drawn) -> None:
    """An :class:`IllegalActionError` for a chance outcome whose fields are out of range: a
    reveal of no tile value, a draw that is not one or two dice."""
    if isinstance(action, Reveal) and (
        isinstance(action.value, bool)
        or not isinstance(action.value, int)
        or action.value not in TILE_VALUES
    ):
        raise IllegalActionError(f"no tile is worth {shown(action.value)}")
    if isinstance(action, Drawn) and (
        not isinstance(action.dice, tuple)
        or not 1 <= len(action.dice) <= 2
        or not all(isinstance(d, Die) for d in action.dice)
    ):
        raise IllegalActionError(f"a draw is one or two dice, not {shown(action.dice)}")


def parse_action(text: str) -> Action:
    """Read an action as written by ``str(action)``: ``claim 2``, ``give 3``, ``roll``,
    ``place r5 2``, ``end``, ``drawn r5 g3``, ``reveal 2``."""
    if not isinstance(text, str):
        raise ArgumentTypeError(f"an action is text such as 'place r5 2', not {json_type(text)}")
    words = text.split()
    if not words:
        raise NotationError("empty action")
    verb, rest = words[0].lower(), words[1:]
    action = _parse_player_action(verb, rest, text)
    if action is None:
        action = _parse_chance_action(verb, rest, text)
    if action is None:
        raise NotationError(
            f"bad action {excerpt(text)}: expected claim N, give N, roll, place DIE N, end, "
            "drawn DICE or reveal V"
        )
    return action


def _slot_number(word: str, text: str) -> int:
    """The slot (1-4) that ``word`` of the action ``text`` names; a :class:`NotationError` for
    any other word."""
    if word not in ("1", "2", "3", "4"):
        raise NotationError(f"bad slot {excerpt(word)} in action {excerpt(text)}: expected 1 to 4")
    return int(word)


def _parse_player_action(verb: str, rest: list[str], text: str) -> Action | None:
    """The player's move that ``verb`` and the words after it write (``text`` is the whole
    action, for messages); ``None`` when they write none."""
    if verb == "claim" and len(rest) == 1:
        return Claim(_slot_number(rest[0], text))
    if verb in ("give", "giveup") and len(rest) == 1:
        return GiveUp(_slot_number(rest[0], text))
    if verb == "roll" and not rest:
        return Roll()
    if verb == "end" and not rest:
        return EndTurn()
    if verb == "place" and len(rest) == 2:
        return Place(Die.parse(rest[0]), _slot_number(rest[1], text))
    return None


def _parse_chance_action(verb: str, rest: list[str], text: str) -> Action | None:
    """The chance outcome that ``verb`` and the words after it write (``text`` is the whole
    action, for messages); ``None`` when they write none."""
    if verb == "drawn" and rest:
        dice = parse_dice(" ".join(rest))  # (a word may hold two dice run together: "r5g3")
        if not 1 <= len(dice) <= 2:
            raise NotationError(
                f"bad action {excerpt(text)}: a draw is one or two dice, not {len(dice)}"
            )
        return Drawn(tuple(sorted(dice)))
    if verb == "reveal" and len(rest) == 1 and rest[0] in ("1", "2", "3"):
        return Reveal(int(rest[0]))
    return None
