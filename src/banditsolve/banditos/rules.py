"""The rules of Los Banditos as pure functions: ``legal_actions``, ``apply``, chance, and
``validate``, the one place that says which states the game can reach.

Every function takes a :class:`~banditsolve.banditos.state.State` and returns new values; nothing
is mutated. Chance is an explicit player: at a chance node ``chance_outcomes`` lists every outcome
with its exact probability, and ``sample_chance`` draws one with a seeded random source.
:func:`validate` refuses a state no game reaches, with one line naming the rule it breaks; every
reader (:mod:`~banditsolve.banditos.notation`) calls it.
"""

from __future__ import annotations

import random
from bisect import bisect_right
from collections.abc import Callable, Sequence
from fractions import Fraction
from functools import lru_cache
from itertools import accumulate
from typing import NoReturn

# The actions are re-exported (``from banditsolve.banditos.rules import Claim`` keeps working).
from banditsolve.banditos.actions import ACTION_TYPES as ACTION_TYPES
from banditsolve.banditos.actions import Action as Action
from banditsolve.banditos.actions import ChanceAction as ChanceAction
from banditsolve.banditos.actions import Claim as Claim
from banditsolve.banditos.actions import Drawn as Drawn
from banditsolve.banditos.actions import EndTurn as EndTurn
from banditsolve.banditos.actions import GiveUp as GiveUp
from banditsolve.banditos.actions import Place as Place
from banditsolve.banditos.actions import Reveal as Reveal
from banditsolve.banditos.actions import Roll as Roll
from banditsolve.banditos.actions import check_action as check_action
from banditsolve.banditos.actions import parse_action as parse_action
from banditsolve.banditos.claim import (
    PAIR_INDEX,
    availability_index,
    claim_is_safe,
    claim_rank,
    exact_verdict,
    normalise_availability,
)
from banditsolve.banditos.combos import rank
from banditsolve.banditos.dice import (
    ALL_DICE,
    COLOURS,
    DICE_PER_COLOUR,
    Die,
    colour_counts,
    format_dice,
)
from banditsolve.banditos.state import (
    MAX_SIDE,
    SLOTS,
    TILE_COUNTS,
    TILE_VALUES,
    Options,
    Slot,
    State,
    expect_state,
)
from banditsolve.core.args import expect_whole
from banditsolve.core.io import json_type
from banditsolve.core.text import plural, shown
from banditsolve.errors import ArgumentTypeError, IllegalActionError, NotationError

# -- claims --------------------------------------------------------------------------------------


def full_side(
    state: State, slot: object, player: object, purpose: str
) -> tuple[tuple[Die, ...], tuple[Die, ...]]:
    """``player``'s full side of the tile in ``slot`` (default: the player to move) and the
    opponent's side; raises if the side does not hold three dice (``purpose`` names the use)."""
    if player is None:
        who = state.to_move
    else:
        who = expect_whole(player, "the player", 0, 1, IllegalActionError)
    tile = _tile(state, slot)
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
    if isinstance(slot, bool) or not isinstance(slot, int):
        raise ArgumentTypeError(f"a slot is a number from 1 to 4, not {json_type(slot)}")
    if slot not in (1, 2, 3, 4):
        raise IllegalActionError(
            f"slot {shown(slot)} does not exist: slots are numbered 1 to 4"
        )
    tile = state.row[slot - 1]
    if tile is None:
        raise IllegalActionError(f"slot {slot} holds no tile")
    return tile


# -- chance --------------------------------------------------------------------------------------


@lru_cache(maxsize=8192)
def draw_weights(
    bag: tuple[int, int, int, int], count: int
) -> tuple[tuple[Drawn, ...], tuple[int, ...], int]:
    """The draws of ``count`` dice from ``bag`` in sorted order, their integer weights summed
    cumulatively, and the common denominator: the one table of the draw's odds (LB-TURN-2),
    behind :func:`chance_outcomes`, :func:`sample_chance` and the exact searches."""
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
    draws, cumulative, denominator = draw_weights(bag, count)
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
        raise ArgumentTypeError(f"sample_chance needs a random.Random, not {json_type(rng)}")
    num, den = rng.random().as_integer_ratio()
    if state.reveal_pending:
        values = [v for v, n in zip(TILE_VALUES, state.stack, strict=True) if n]
        cumulative = tuple(accumulate(n for n in state.stack if n))
        index = bisect_right(cumulative, num * state.stack_size // den)
        return Reveal(values[min(index, len(values) - 1)])
    draws, cumulative, denominator = draw_weights(state.bag, state.dice_to_draw)
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
    if isinstance(action, Claim):
        return _claim(state, action.slot)
    if isinstance(action, GiveUp):
        _tile(state, action.slot)
        return _win_tile(state, action.slot, 1 - state.to_move)
    if isinstance(action, Roll):
        if state.rolled:
            raise IllegalActionError("the dice have already been drawn and rolled this turn")
        return state.replace(roll_pending=True)
    if isinstance(action, Place):
        return _place(state, action.die, action.slot)
    if isinstance(action, EndTurn):
        return _end_turn(state)
    raise IllegalActionError(f"{action} is a chance outcome, but the player is to act")


def _claim(state: State, slot: int) -> State:
    """LB-CLAIM-1/2/3: the mover's full side, proven safe, wins the tile."""
    me = state.to_move
    tile = _tile(state, slot)
    if len(tile.side(me)) != MAX_SIDE:
        raise IllegalActionError(
            f"cannot claim slot {slot}: your side holds {_dice(len(tile.side(me)))}, "
            "a claim needs three"
        )
    if not _claim_is_safe(state, slot, tile, me):
        avail = normalise_availability(state.availability(slot))
        verdict = exact_verdict(tile.side(me), tile.side(1 - me), avail)
        raise IllegalActionError(f"cannot claim slot {slot}: {verdict.explain()}")
    return _win_tile(state, slot, me)


def _place(state: State, die: Die, slot: int) -> State:
    """LB-TURN-3/4, LB-RESOLVE-1/2: a rolled die onto the mover's side; both sides full
    resolves the tile at once (a tie to the side full first)."""
    me = state.to_move
    if die not in state.hand:
        raise IllegalActionError(f"cannot place {die}: it is not among the rolled dice")
    tile = _tile(state, slot)
    if len(tile.side(me)) >= MAX_SIDE:
        raise IllegalActionError(
            f"cannot place {die} on slot {slot}: your side already holds 3 dice"
        )
    hand = list(state.hand)
    hand.remove(die)
    first = tile.first_complete
    new_tile = tile.with_die(me, die)
    row = list(state.row)
    row[slot - 1] = new_tile
    after = state.replace(row=tuple(row), hand=tuple(hand))
    if len(new_tile.sides[0]) == MAX_SIDE and len(new_tile.sides[1]) == MAX_SIDE:
        r0, r1 = rank(new_tile.sides[0]), rank(new_tile.sides[1])
        taker = 0 if r0 > r1 else 1 if r1 > r0 else first
        assert taker is not None
        after = _win_tile(after, slot, taker)
    return after


def _end_turn(state: State) -> State:
    """LB-TURN-1/5, LB-OPT-4: the turn ends once the dice are placed (or, under ``return``,
    cannot be); dice left go back to the bag."""
    me = state.to_move
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
        raise ArgumentTypeError(
            f"apply_all takes a list of actions (or their texts), not {json_type(actions)}"
        )
    for action in actions:
        state = apply(state, parse_action(action) if isinstance(action, str) else action)
    return state


# -- what the game can reach ---------------------------------------------------------------------
#
# Each rule below is one function that refuses a state breaking it, with one line ending in the
# rule's ID. :func:`validate` runs them in order: the kinds of the fields first (so that the
# others can read them), then the components, then the turn.


def _refuse(message: str, rule: str) -> NoReturn:
    raise NotationError(f"{message} ({rule})")


def _is_int(value: object) -> bool:
    return type(value) is int


def _is_dice(value: object) -> bool:
    return isinstance(value, tuple) and all(isinstance(d, Die) for d in value)


def check_row_kinds(state: State) -> None:
    """LB-SETUP-1, LB-COMP-2: the row is four places, each empty (``None``) or a :class:`Slot`:
    a tile worth 1 to 3 with two sides of dice."""
    row = state.row
    if not isinstance(row, tuple) or len(row) != SLOTS:
        _refuse(f"the row is {SLOTS} slots, each a tile or None, not {shown(row)}", "LB-SETUP-1")
    for number, tile in enumerate(row, start=1):
        if tile is None:
            continue
        if not isinstance(tile, Slot) or not _is_int(tile.value) or tile.value not in TILE_VALUES:
            _refuse(f"slot {number} holds {shown(tile)}, not a tile worth 1 to 3", "LB-COMP-2")
        sides = tile.sides
        if not isinstance(sides, tuple) or len(sides) != 2 or not all(map(_is_dice, sides)):
            _refuse(
                f"slot {number}: a tile has two sides of dice, not {shown(sides)}", "LB-SETUP-1"
            )


def check_count_kinds(state: State) -> None:
    """LB-COMP-1, LB-COMP-2: the stack counts the face-down tiles of each value, the bag the
    dice of each colour, and the won tiles are tile values, two lists of them."""
    stack, bag, won = state.stack, state.bag, state.won
    if not _is_counts(stack, 3, 0):
        _refuse(f"the stack is three counts of face-down tiles, not {shown(stack)}", "LB-COMP-2")
    if not _is_counts(bag, 4, None):
        _refuse(f"the bag is four counts of dice, one a colour, not {shown(bag)}", "LB-COMP-1")
    if not _is_won_lists(won):
        _refuse(f"the won tiles are two lists of tile values, not {shown(won)}", "LB-COMP-2")


def _is_counts(value: object, size: int, least: int | None) -> bool:
    """Whether ``value`` is a tuple of ``size`` ints, each at least ``least`` (any int when
    ``least`` is ``None``)."""
    if not isinstance(value, tuple) or len(value) != size or not all(map(_is_int, value)):
        return False
    return least is None or all(n >= least for n in value)


def _is_won_lists(won: object) -> bool:
    """Whether ``won`` is two tuples of tile values (the tiles each player has won)."""
    return isinstance(won, tuple) and len(won) == 2 and all(map(_is_tile_values, won))


def _is_tile_values(value: object) -> bool:
    """Whether ``value`` is a tuple of tile values."""
    return isinstance(value, tuple) and all(_is_int(v) and v in TILE_VALUES for v in value)


def check_turn_kinds(state: State) -> None:
    """LB-SETUP-1, LB-TURN-2: two players, the turn's phase as flags, the dice in hand, and the
    rule options."""
    if not _is_int(state.to_move) or state.to_move not in (0, 1):
        _refuse(f"the player to move is 0 or 1, not {shown(state.to_move)}", "LB-SETUP-1")
    flags = (state.rolled, state.roll_pending, state.opening)
    if not all(isinstance(flag, bool) for flag in flags):
        _refuse(
            f"rolled, roll_pending and opening are true or false, not {shown(flags)}", "LB-TURN-2"
        )
    if not _is_dice(state.hand):
        _refuse(f"the dice in hand are a tuple of dice, not {shown(state.hand)}", "LB-TURN-2")
    if not isinstance(state.options, Options):
        _refuse(f"the rule options are Options, not {shown(state.options)}", "LB-OPT-1")


def _ascending(dice: tuple[Die, ...]) -> bool:
    codes = [d.code for d in dice]  # the order of the dice (colour, then value)
    return codes == sorted(codes)


def check_order(state: State) -> None:
    """LB-NOTE-1: one position, one state: each side's dice and the hand in ascending order, the
    won tiles largest first (as the rules keep them), so that equal positions are equal."""
    for number, tile in state.tiles_in_play():
        for player, side in enumerate(tile.sides):
            if not _ascending(side):
                _refuse(
                    f"slot {number}, player {player}'s side {format_dice(side)} is not in "
                    "ascending order", "LB-NOTE-1",
                )
    if not _ascending(state.hand):
        _refuse(f"the hand {format_dice(state.hand)} is not in ascending order", "LB-NOTE-1")
    for player, won in enumerate(state.won):
        if list(won) != sorted(won, reverse=True):
            _refuse(f"player {player}'s won tiles are not listed largest first", "LB-NOTE-1")


def check_side_size(state: State) -> None:
    """LB-TURN-4: no side holds more than three dice."""
    for number, tile in state.tiles_in_play():
        for player, side in enumerate(tile.sides):
            if len(side) > MAX_SIDE:
                _refuse(
                    f"slot {number}, player {player}'s side: {len(side)} dice, but at most "
                    f"{MAX_SIDE} may lie on a side", "LB-TURN-4",
                )


def check_resolved(state: State) -> None:
    """LB-RESOLVE-1: a tile whose two sides are full is resolved at once, so none is in play."""
    for number, tile in state.tiles_in_play():
        if len(tile.sides[0]) == MAX_SIDE and len(tile.sides[1]) == MAX_SIDE:
            _refuse(
                f"slot {number}: both sides hold 3 dice, but such a tile is resolved at once",
                "LB-RESOLVE-1",
            )


def check_tile_counts(state: State) -> None:
    """LB-COMP-2: the row, the stack and the won tiles hold the box's ten tiles, four worth 1,
    three worth 2 and three worth 3 (so both players cannot reach 10: they are worth 19)."""
    in_row = [tile.value for tile in state.row if tile is not None]
    for value, count in zip(TILE_VALUES, TILE_COUNTS, strict=True):
        seen = (
            in_row.count(value)
            + state.stack[value - 1]
            + state.won[0].count(value)
            + state.won[1].count(value)
        )
        if seen != count:
            _refuse(
                f"tiles worth {value}: the row, stack and won tiles hold {seen}, the game has "
                f"{count}", "LB-COMP-2",
            )


def dice_out(state: State) -> tuple[int, int, int, int]:
    """Per colour, the dice on the tiles and in hand (the others are in the bag)."""
    return colour_counts(state.dice_on_tiles() + state.hand)


def check_dice_counts(state: State) -> None:
    """LB-COMP-1: six dice of each colour, no more, lie on the tiles and in hand."""
    for colour, n in zip(COLOURS, dice_out(state), strict=True):
        if n > DICE_PER_COLOUR:
            _refuse(
                f"{n} {colour.name.lower()} dice on the tiles and in hand, but the game has only "
                f"{DICE_PER_COLOUR}", "LB-COMP-1",
            )


def check_bag(state: State) -> None:
    """LB-COMP-1: the bag holds every die that is not on a tile or in hand."""
    rest = tuple(DICE_PER_COLOUR - n for n in dice_out(state))
    if state.bag != rest:
        _refuse(
            f"the bag holds {shown(state.bag)} dice per colour, but the dice not on a tile or "
            f"in hand are {rest}", "LB-COMP-1",
        )


def check_phase(state: State) -> None:
    """LB-TURN-2: the dice are drawn and rolled once a turn: a draw pending has not happened
    yet, and dice are in hand only after it."""
    if state.rolled and state.roll_pending:
        _refuse("the dice cannot be rolled and their draw pending at once", "LB-TURN-2")
    if state.hand and not state.rolled:
        _refuse(
            f"{_dice(len(state.hand))} in hand, but this turn's dice are not drawn yet",
            "LB-TURN-2",
        )


def check_hand_size(state: State) -> None:
    """LB-TURN-2: a turn draws two dice, the game's opening turn one."""
    limit = state.dice_to_draw
    if len(state.hand) > limit:
        _refuse(
            f"{len(state.hand)} dice in hand, but this turn draws only {_dice(limit)}",
            "LB-TURN-2",
        )


def _anything_out(state: State) -> bool:
    return bool(state.hand) or any(tile.dice for _, tile in state.tiles_in_play())


def check_opening(state: State) -> None:
    """LB-TURN-2, LB-SETUP-3: on the game's first turn nothing can have been claimed or
    resolved, and only the opening player's one die can lie on a tile."""
    if not state.opening:
        return
    me = state.to_move
    placed = [
        player for _, tile in state.tiles_in_play() for player in (0, 1)
        for _ in tile.sides[player]
    ]
    if state.won[me] or len(placed) + len(state.hand) > 1 or any(p != me for p in placed):
        _refuse(
            "an opening turn (A, R or H) cannot have tiles won by the player to move or dice "
            "on the tiles other than that player's one die", "LB-TURN-2",
        )


def check_after_opening(state: State) -> None:
    """LB-TURN-2: after the opening turn a die lies on a tile (or in hand) or a tile has been
    won: a later turn with neither is the opening turn."""
    if state.opening or _anything_out(state) or state.won[0] or state.won[1]:
        return
    _refuse(
        "after the opening turn a die lies on a tile or a tile has been won: mark the opening "
        "turn with a capital A, R or H", "LB-TURN-2",
    )


def check_refill(state: State) -> None:
    """LB-WIN-2, LB-SETUP-2: a won tile is replaced at once while face-down tiles remain, so
    only the setup, before any die is drawn, has several slots waiting (filled from slot 1)."""
    empty = [number for number, tile in enumerate(state.row, start=1) if tile is None]
    if not state.stack_size or len(empty) <= 1:
        return
    setup = (
        state.opening and not state.rolled and not state.roll_pending
        and not _anything_out(state) and not state.won[0] and not state.won[1]
        and empty == list(range(SLOTS - len(empty) + 1, SLOTS + 1))
    )
    if not setup:
        _refuse(
            f"slots {', '.join(map(str, empty))} wait for a tile while face-down tiles remain: "
            "a won tile is replaced at once, and only the setup fills several slots, in order "
            "from slot 1, before any die is drawn", "LB-WIN-2",
        )


def check_refill_first(state: State) -> None:
    """LB-WIN-2: a slot waiting for a tile is filled before anything else, so no draw is
    pending meanwhile."""
    if state.roll_pending and state.reveal_pending:
        _refuse("a draw cannot be pending while a slot waits for a tile", "LB-WIN-2")


def check_over(state: State) -> None:
    """LB-END-1: the game ends at once when a player reaches 10 points, and a tile is won by
    a claim, a give-up or a placement, never by the roll: no draw is pending after the end."""
    if state.is_terminal and state.roll_pending:
        _refuse(
            "the game is over, so no draw can be pending (a tile is won by a claim, a give-up "
            "or a placement, never by the roll)", "LB-END-1",
        )


#: Every rule :func:`validate` checks, in order.
REACHABILITY: tuple[Callable[[State], None], ...] = (
    check_row_kinds,
    check_count_kinds,
    check_turn_kinds,
    check_order,
    check_side_size,
    check_resolved,
    check_tile_counts,
    check_dice_counts,
    check_bag,
    check_phase,
    check_hand_size,
    check_opening,
    check_after_opening,
    check_refill,
    check_refill_first,
    check_over,
)


def validate(state: object) -> None:
    """Refuse ``state`` unless the real game can reach it: a
    :class:`~banditsolve.errors.NotationError` of one line that says what is wrong and ends
    with the ID of the rule broken (specs/los-banditos.md). The one place that says what a
    reachable state is: every reader calls it (:mod:`~banditsolve.banditos.notation`), and
    so does ``GAME.validate``."""
    position = expect_state(state)
    for rule in REACHABILITY:
        rule(position)
