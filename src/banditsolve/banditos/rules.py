"""The rules of Los Banditos as pure functions: ``legal_actions``, ``apply``, chance.

Every function takes a :class:`~banditsolve.banditos.state.State` and returns new values; nothing
is mutated. Chance is an explicit player: at a chance node ``chance_outcomes`` lists every outcome
with its exact probability, and ``sample_chance`` draws one with a seeded random source.
"""

from __future__ import annotations

import random
from bisect import bisect_right
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from itertools import accumulate

from banditsolve.banditos.claim import (
    PAIR_INDEX,
    availability_index,
    claim_is_safe,
    claim_rank,
    exact_verdict,
    normalise_availability,
)
from banditsolve.banditos.combos import rank
from banditsolve.banditos.dice import ALL_DICE, Die, colour_counts, parse_dice
from banditsolve.banditos.state import MAX_SIDE, TILE_VALUES, Slot, State, expect_state
from banditsolve.core.io import json_type
from banditsolve.core.text import excerpt, plural, shown
from banditsolve.errors import IllegalActionError, NotationError

# -- actions -------------------------------------------------------------------------------------


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
    be named in a message); an :class:`IllegalActionError` otherwise."""
    if not isinstance(action, ACTION_TYPES):
        raise IllegalActionError(f"not a Los Banditos action: {shown(action)}")
    if isinstance(action, Claim | GiveUp | Place):
        slot = action.slot
        if isinstance(slot, bool) or not isinstance(slot, int) or not 1 <= slot <= 4:
            raise IllegalActionError(
                f"slot {shown(slot)} does not exist: slots are numbered 1 to 4"
            )
    if isinstance(action, Place) and not isinstance(action.die, Die):
        raise IllegalActionError(f"{shown(action.die)} is not a die")
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
    return action


def parse_action(text: str) -> Action:
    """Read an action as written by ``str(action)``: ``claim 2``, ``give 3``, ``roll``,
    ``place r5 2``, ``end``, ``drawn r5 g3``, ``reveal 2``."""
    if not isinstance(text, str):
        raise NotationError(f"an action is text such as 'place r5 2', not {json_type(text)}")
    words = text.split()
    if not words:
        raise NotationError("empty action")
    verb, rest = words[0].lower(), words[1:]

    def slot_number(word: str) -> int:
        if word not in ("1", "2", "3", "4"):
            raise NotationError(
                f"bad slot {excerpt(word)} in action {excerpt(text)}: expected 1 to 4"
            )
        return int(word)

    if verb == "claim" and len(rest) == 1:
        return Claim(slot_number(rest[0]))
    if verb in ("give", "giveup") and len(rest) == 1:
        return GiveUp(slot_number(rest[0]))
    if verb == "roll" and not rest:
        return Roll()
    if verb == "end" and not rest:
        return EndTurn()
    if verb == "place" and len(rest) == 2:
        return Place(Die.parse(rest[0]), slot_number(rest[1]))
    if verb == "drawn" and 1 <= len(rest) <= 2:
        return Drawn(tuple(sorted(parse_dice(" ".join(rest)))))
    if verb == "reveal" and len(rest) == 1 and rest[0] in ("1", "2", "3"):
        return Reveal(int(rest[0]))
    raise NotationError(
        f"bad action {excerpt(text)}: expected claim N, give N, roll, place DIE N, end, "
        "drawn DICE or reveal V"
    )


# -- claims --------------------------------------------------------------------------------------


def full_side(
    state: State, slot: object, player: object, purpose: str
) -> tuple[tuple[Die, ...], tuple[Die, ...]]:
    """``player``'s full side of the tile in ``slot`` (default: the player to move) and the
    opponent's side; raises if the side does not hold three dice (``purpose`` names the use)."""
    tile = _tile(state, slot)
    if player is None:
        who = state.to_move
    elif isinstance(player, int) and not isinstance(player, bool) and player in (0, 1):
        who = player
    else:
        raise IllegalActionError(
            f"player {shown(player)} does not exist: players are 0 and 1"
        )
    mine = tile.side(who)
    if len(mine) != MAX_SIDE:
        raise IllegalActionError(
            f"player {who}'s side of slot {slot} holds {_dice(len(mine))}: a {purpose} needs "
            "three"
        )
    return mine, tile.side(1 - who)


def _dice(n: int) -> str:
    return plural(n, "die", "dice")


def _tile(state: State, slot: object) -> Slot:
    if isinstance(slot, bool) or not isinstance(slot, int) or slot not in (1, 2, 3, 4):
        raise IllegalActionError(
            f"slot {shown(slot)} does not exist: slots are numbered 1 to 4"
        )
    tile = state.row[slot - 1]
    if tile is None:
        raise IllegalActionError(f"slot {slot} holds no tile")
    return tile


# -- chance --------------------------------------------------------------------------------------


@lru_cache(maxsize=8192)
def _draw_weights(
    bag: tuple[int, int, int, int], count: int
) -> tuple[tuple[Drawn, ...], tuple[int, ...], int]:
    """The draws of ``count`` dice from ``bag`` in sorted order, their integer weights summed
    cumulatively, and the common denominator."""
    total = sum(bag)
    if count == 1:
        dice = tuple(die for die in ALL_DICE if bag[die.colour])
        weights = [bag[die.colour] for die in dice]
        draws = tuple(Drawn((die,)) for die in dice)
        return draws, tuple(accumulate(weights)), total * 6
    # Ordered draws of two colours without replacement, each value 1/6: integer weights over the
    # common denominator total * (total - 1) * 36, merged into unordered outcomes.
    pairs: dict[tuple[int, int], int] = {}
    for c1 in range(4):
        for c2 in range(4):
            weight = bag[c1] * (bag[c2] - (c1 == c2))
            if weight <= 0:
                continue
            for v1 in range(6):
                for v2 in range(6):
                    a, b = c1 * 6 + v1, c2 * 6 + v2
                    key = (a, b) if a <= b else (b, a)
                    pairs[key] = pairs.get(key, 0) + weight
    keys = sorted(pairs)
    draws = tuple(Drawn((ALL_DICE[a], ALL_DICE[b])) for a, b in keys)
    return draws, tuple(accumulate(pairs[k] for k in keys)), total * (total - 1) * 36


@lru_cache(maxsize=8192)
def _draw_distribution(
    bag: tuple[int, int, int, int], count: int
) -> tuple[tuple[Drawn, Fraction], ...]:
    draws, cumulative, denominator = _draw_weights(bag, count)
    weights = [b - a for a, b in zip((0, *cumulative), cumulative, strict=False)]
    return tuple(
        (draw, Fraction(w, denominator)) for draw, w in zip(draws, weights, strict=True)
    )


def chance_outcomes(state: State) -> list[tuple[ChanceAction, Fraction]]:
    """Every outcome of the chance step at ``state`` with its exact probability (sums to 1).

    Turning up a tile: each remaining tile value, weighted by how many of it are face down.
    Drawing dice: colours drawn without replacement from the bag, each value 1-6 equally likely;
    outcomes are unordered (``r5 g3`` is the same roll as ``g3 r5``).
    """
    expect_state(state)
    if not state.is_chance:
        raise IllegalActionError("this position is not a chance node")
    if state.reveal_pending:
        total = state.stack_size
        return [
            (Reveal(v), Fraction(n, total))
            for v, n in zip(TILE_VALUES, state.stack, strict=True)
            if n
        ]
    return list(_draw_distribution(state.bag, state.dice_to_draw))


def sample_chance(state: State, rng: random.Random) -> ChanceAction:
    """One chance outcome, drawn with its exact probability.

    The fast path of :func:`banditsolve.core.play.sample_chance`: the same single
    ``rng.random()`` call picks the same outcome (the first whose cumulative probability
    exceeds it), with integer arithmetic instead of fractions."""
    expect_state(state)
    if not state.is_chance:
        raise IllegalActionError("this position is not a chance node")
    if not isinstance(rng, random.Random):
        raise NotationError(f"sample_chance needs a random.Random, not {json_type(rng)}")
    num, den = rng.random().as_integer_ratio()
    if state.reveal_pending:
        values = [v for v, n in zip(TILE_VALUES, state.stack, strict=True) if n]
        cumulative = tuple(accumulate(n for n in state.stack if n))
        index = bisect_right(cumulative, num * state.stack_size // den)
        return Reveal(values[min(index, len(values) - 1)])
    draws, cumulative, denominator = _draw_weights(state.bag, state.dice_to_draw)
    index = bisect_right(cumulative, num * denominator // den)
    return draws[min(index, len(draws) - 1)]


# -- legal actions -------------------------------------------------------------------------------


def legal_actions(state: State) -> list[Action]:
    """Every legal action, in a fixed order.

    At a chance node: the chance outcomes (tile values ascending, or rolls in sorted order).
    Otherwise: claims (slots ascending), give-ups (slots ascending), roll, placements (dice in
    hand ascending, then slots ascending), end turn. A terminal state has none.
    """
    expect_state(state)
    if state.is_terminal:
        return []
    if state.is_chance:
        return [action for action, _ in chance_outcomes(state)]
    me = state.to_move
    actions: list[Action] = []
    tiles = state.tiles_in_play()
    for number, tile in tiles:
        if len(tile.side(me)) == MAX_SIDE and _claim_is_safe(state, number, tile, me):
            actions.append(Claim(number))
    actions.extend(GiveUp(number) for number, _ in tiles)
    if not state.rolled:
        actions.append(Roll())
    for die in sorted(set(state.hand)):
        actions.extend(
            Place(die, number) for number, tile in tiles if len(tile.side(me)) < MAX_SIDE
        )
    if state.rolled and (not state.hand or _may_return(state, me)):
        actions.append(EndTurn())
    return actions


def _may_return(state: State, me: int) -> bool:
    """Option LB-OPT-4 ``unplaceable="return"``: the dice in hand have no free place, so the
    turn may end with them going back into the bag."""
    return state.options.unplaceable == "return" and all(
        len(tile.side(me)) == MAX_SIDE for _, tile in state.tiles_in_play()
    )


def _claim_is_safe(state: State, number: int, tile: Slot, me: int) -> bool:
    """The claim rule's check: one lookup in the claim table (no validation: the state is
    consistent by construction)."""
    m0, m1, m2 = tile.sides[me]
    theirs = tile.sides[1 - me]
    n = len(theirs)
    if n == 2:
        side = PAIR_INDEX[theirs[0].code * 24 + theirs[1].code]
    else:
        side = 1 + theirs[0].code if n else 0
    avail = state.bag if state.options.proof == "bag" else state.availability(number)
    return claim_is_safe(
        claim_rank(m0.code, m1.code, m2.code), side << 8 | availability_index(avail)
    )


def is_legal(state: State, action: Action) -> bool:
    try:
        apply(state, action)
    except IllegalActionError:
        return False
    return True


# -- apply ---------------------------------------------------------------------------------------


def _win_tile(state: State, slot: int, player: int) -> State:
    """``player`` takes the tile in ``slot``; its dice go back to the bag; the slot empties."""
    tile = state.row[slot - 1]
    assert tile is not None
    back = colour_counts(tile.dice)
    bag = (
        state.bag[0] + back[0],
        state.bag[1] + back[1],
        state.bag[2] + back[2],
        state.bag[3] + back[3],
    )
    row = list(state.row)
    row[slot - 1] = None
    won = list(state.won)
    won[player] = tuple(sorted((*won[player], tile.value), reverse=True))
    return state.replace(row=tuple(row), bag=bag, won=(won[0], won[1]))


def apply(state: State, action: Action) -> State:
    """The state after ``action``. Raises :class:`IllegalActionError` (and changes nothing) when
    the action is not legal here."""
    expect_state(state)
    check_action(action)
    if state.is_terminal:
        raise IllegalActionError(f"the game is over (player {state.winner} won): no {action}")
    if state.is_chance:
        return _apply_chance(state, action)
    me = state.to_move
    if isinstance(action, Claim):
        tile = _tile(state, action.slot)
        if len(tile.side(me)) != MAX_SIDE:
            raise IllegalActionError(
                f"cannot claim slot {action.slot}: your side holds {_dice(len(tile.side(me)))}, "
                "a claim needs three"
            )
        if not _claim_is_safe(state, action.slot, tile, me):
            avail = normalise_availability(state.availability(action.slot))
            verdict = exact_verdict(tile.side(me), tile.side(1 - me), avail)
            raise IllegalActionError(f"cannot claim slot {action.slot}: {verdict.explain()}")
        return _win_tile(state, action.slot, me)
    if isinstance(action, GiveUp):
        _tile(state, action.slot)
        return _win_tile(state, action.slot, 1 - me)
    if isinstance(action, Roll):
        if state.rolled:
            raise IllegalActionError("the dice have already been drawn and rolled this turn")
        return state.replace(roll_pending=True)
    if isinstance(action, Place):
        if action.die not in state.hand:
            raise IllegalActionError(f"cannot place {action.die}: it is not among the rolled dice")
        tile = _tile(state, action.slot)
        if len(tile.side(me)) >= MAX_SIDE:
            raise IllegalActionError(
                f"cannot place {action.die} on slot {action.slot}: your side already holds 3 dice"
            )
        hand = list(state.hand)
        hand.remove(action.die)
        first = tile.first_complete
        new_tile = tile.with_die(me, action.die)
        row = list(state.row)
        row[action.slot - 1] = new_tile
        after = state.replace(row=tuple(row), hand=tuple(hand))
        if len(new_tile.sides[0]) == MAX_SIDE and len(new_tile.sides[1]) == MAX_SIDE:
            r0, r1 = rank(new_tile.sides[0]), rank(new_tile.sides[1])
            taker = 0 if r0 > r1 else 1 if r1 > r0 else first
            assert taker is not None
            after = _win_tile(after, action.slot, taker)
        return after
    if isinstance(action, EndTurn):
        if not state.rolled:
            raise IllegalActionError("cannot end the turn before drawing and rolling the dice")
        if state.hand and not _may_return(state, me):
            raise IllegalActionError(
                "cannot end the turn: every rolled die must be placed first "
                f"({' '.join(str(d) for d in state.hand)} left)"
            )
        back = colour_counts(state.hand)
        bag = tuple(n + b for n, b in zip(state.bag, back, strict=True))
        return state.replace(to_move=1 - me, rolled=False, opening=False, hand=(), bag=bag)
    if isinstance(action, Drawn | Reveal):
        raise IllegalActionError(f"{action} is a chance outcome, but the player is to act")
    raise IllegalActionError(f"not a Los Banditos action: {shown(action)}")


def _apply_chance(state: State, action: Action) -> State:
    if state.reveal_pending:
        if not isinstance(action, Reveal):
            raise IllegalActionError(f"a tile must be turned up first, not {action}")
        index = action.value - 1
        if action.value not in TILE_VALUES or state.stack[index] == 0:
            raise IllegalActionError(f"no face-down tile worth {action.value} remains")
        stack = list(state.stack)
        stack[index] -= 1
        row = list(state.row)
        row[row.index(None)] = Slot(action.value)
        return state.replace(row=tuple(row), stack=(stack[0], stack[1], stack[2]))
    if not isinstance(action, Drawn):
        raise IllegalActionError(f"the dice are being drawn: expected an outcome, not {action}")
    if len(action.dice) != state.dice_to_draw:
        raise IllegalActionError(
            f"this turn draws {_dice(state.dice_to_draw)}, the outcome has {len(action.dice)}"
        )
    need = colour_counts(action.dice)
    if any(n > have for n, have in zip(need, state.bag, strict=True)):
        raise IllegalActionError(f"the bag does not hold the dice {action}")
    bag = tuple(have - n for n, have in zip(need, state.bag, strict=True))
    return state.replace(
        bag=bag, hand=tuple(sorted(action.dice)), rolled=True, roll_pending=False
    )


def apply_all(state: State, actions: Sequence[Action | str]) -> State:
    """Apply a sequence of actions (objects or their text) in turn."""
    if isinstance(actions, str) or not isinstance(actions, Sequence):
        raise NotationError(
            f"apply_all takes a list of actions (or their texts), not {json_type(actions)}"
        )
    for action in actions:
        state = apply(state, parse_action(action) if isinstance(action, str) else action)
    return state
