"""Los Banditos' information and numbering (issue 29, for the OpenSpiel and PettingZoo
adapters): perfect information, the observation, fixed action indices, the longest game.

**Perfect information.** Nothing is hidden from either player: the four tiles of the row lie
face up (LB-SETUP-2), the dice on them and in hand are in view, and what no one knows (the order
of the face-down stack, the dice still in the bag) is drawn by chance (LB-SETUP-2: "the order of
the face-down stack is never part of the position, since no player can know it"; LB-TURN-2: the
dice are drawn blindly). So each player's observation is the whole position: its notation.

**Fixed indices** (the same action has the same index in every state). Player actions, 106:
``claim S`` is ``S - 1`` (0-3), ``give S`` is ``4 + S - 1`` (4-7), ``roll`` 8, ``end`` 9,
``place D S`` is ``10 + 4 * code(D) + S - 1`` (10-105; a die's code is ``colour * 6 + value -
1``, 0-23). Chance outcomes, 327: ``reveal V`` is ``V - 1`` (0-2), ``drawn D`` (the opening's one
die) ``3 + code(D)`` (3-26), ``drawn D E`` (two dice, whatever their order) ``27 + pair(code(D),
code(E))`` where pair numbers the 300 unordered pairs of codes (27-326).

**The longest game: 1,700 steps.** Every tile leaves the row by being won (claimed, given up
or resolved), and a game that has seen all ten tiles won has ended (the values sum to 19, so
someone has 10: LB-END-1); so at most 10 tiles are won (``W``), at most 10 tiles are turned up
(reveals: LB-SETUP-2, LB-WIN-2) and at most 10 claims or give-ups are played. Between two tile
wins the dice on the tiles in play only grow, and at most 20 lie there (LB-TURN-7: five a tile,
a sixth resolves it), so at most 21 dice are placed in each of the 11 stretches: 231 places
(``P``). A turn is ``roll``, one chance draw and ``end`` (3 steps) besides its places and wins,
and it places a die or wins a tile (LB-TURN-3, LB-TURN-6), except under
``unplaceable=return`` when all the mover's sides are full, and then the opponent has a free
side on every tile (both full resolves it: LB-RESOLVE-1) and must place: no two turns in a row
are empty, so there are at most ``2 * (P + W) + 1 = 483`` turns. In all at most
``10 + 10 + 231 + 3 * 483 = 1,700`` steps, under either option.
"""

from __future__ import annotations

from banditsolve.banditos import notation, rules
from banditsolve.banditos.actions import (
    Action,
    Claim,
    Drawn,
    EndTurn,
    GiveUp,
    Place,
    Reveal,
    Roll,
    check_action,
)
from banditsolve.banditos.dice import COLOURS, Die
from banditsolve.banditos.state import SLOTS, TILE_VALUES, Options, Slot, State
from banditsolve.core.observe import (
    Frame,
    Memo,
    Piece,
    expect_index,
    expect_observer,
    piece,
)
from banditsolve.errors import IllegalActionError

PERFECT_INFORMATION = True
#: The dice there are, by code (four colours of six values).
CODES = len(COLOURS) * 6
#: 4 claims, 4 give-ups, roll, end, and a place for each die code and slot.
DISTINCT_ACTIONS = 2 * SLOTS + 2 + CODES * SLOTS
#: 3 reveals, 24 single dice (the opening), 300 unordered pairs of dice.
CHANCE_OUTCOMES = len(TILE_VALUES) + CODES + CODES * (CODES + 1) // 2
#: The longest game (see the module notes).
MAX_GAME_LENGTH = 1700
#: Per slot: present, value, the dice of each side by code (2 * 24); then the stack (3), the bag
#: (4), the tiles won by value for each player (6), to_move, rolled, roll_pending, opening, the
#: hand by code (24), and the two options.
TENSOR_LENGTH = SLOTS * (2 + 2 * CODES) + 3 + 4 + 6 + 4 + CODES + 2


def observation(state: State, player: int) -> str:
    """The whole position (perfect information): its notation."""
    expect_observer(player, 2, "Los Banditos")
    return notation.format_position(state)


def _counts(dice: tuple[Die, ...]) -> list[int]:
    out = [0] * CODES
    for die in dice:
        out[die.code] += 1
    return out


def _slot(slot: Slot) -> Piece:
    values = [1, slot.value, *_counts(slot.sides[0]), *_counts(slot.sides[1])]
    return piece(values)


def _hand(hand: tuple[Die, ...]) -> Piece:
    return _HANDS.put(hand, 0, piece(_counts(hand)))


def _options(options: Options) -> Piece:
    flags = (int(options.proof == "bag"), int(options.unplaceable == "return"))
    return _OPTIONS.put(options, 0, piece(flags))


#: The hands' and the options' pieces (:class:`~banditsolve.core.observe.Memo`), by the hand
#: and the options (a state shares them with the state before it; the frame writes the tiles
#: of the row that changed).
_HANDS, _OPTIONS = Memo(), Memo()
#: The numbers of a slot (present, value, the dice of each side by code).
SLOT_NUMBERS = 2 + 2 * CODES


def _filled(state: State, player: int) -> Frame:
    """The whole position as numbers (the layout of :data:`TENSOR_LENGTH`)."""
    expect_observer(player, 2, "Los Banditos")
    frame = Frame.of(("banditos",), TENSOR_LENGTH)
    frame.put_rows(0, state.row, SLOTS, SLOT_NUMBERS, _slot)
    values = [*state.stack, *state.bag]
    for won in state.won:
        values += [won.count(v) for v in TILE_VALUES]
    values += [state.to_move, int(state.rolled), int(state.roll_pending), int(state.opening)]
    at = SLOTS * SLOT_NUMBERS
    frame.put_numbers(at, values)
    frame.put(at + len(values), _HANDS.get(state.hand, 0) or _hand(state.hand))
    frame.put(TENSOR_LENGTH - 2, _OPTIONS.get(state.options, 0) or _options(state.options))
    return frame


def observation_tensor(state: State, player: int) -> tuple[float, ...]:
    """The observation tensor (the layout of :func:`_filled`)."""
    return _filled(state, player).made()


def observation_bytes(state: State, player: int) -> bytes:
    """:func:`observation_tensor` as ``float32`` bytes, without the tuple."""
    return _filled(state, player).raw()


def _pair(a: int, b: int) -> int:
    low, high = min(a, b), max(a, b)
    return low * CODES - low * (low - 1) // 2 + (high - low)


def index_of(action: Action) -> int:
    """The fixed index of ``action`` (a player move's among :data:`DISTINCT_ACTIONS`, a chance
    outcome's among :data:`CHANCE_OUTCOMES`)."""
    if isinstance(action, Claim):
        return action.slot - 1
    if isinstance(action, GiveUp):
        return SLOTS + action.slot - 1
    if isinstance(action, Roll):
        return 2 * SLOTS
    if isinstance(action, EndTurn):
        return 2 * SLOTS + 1
    if isinstance(action, Place):
        return 2 * SLOTS + 2 + SLOTS * action.die.code + action.slot - 1
    if isinstance(action, Reveal):
        return action.value - 1
    assert isinstance(action, Drawn)
    codes = [d.code for d in action.dice]
    if len(codes) == 1:
        return len(TILE_VALUES) + codes[0]
    return len(TILE_VALUES) + CODES + _pair(codes[0], codes[1])


def action_index(state: State, action: Action) -> int:
    """The fixed index of ``action``, legal at ``state``."""
    check_action(action)
    if not any(action == a for a in rules.legal_actions(state)):
        raise IllegalActionError(f"{action} is not a legal Los Banditos action here")
    return index_of(action)


def legal_indices(state: State) -> tuple[int, ...]:
    """The fixed indices of ``state``'s legal actions, in their order."""
    return tuple(index_of(a) for a in rules.legal_actions(state))


def action_from_index(state: State, index: int) -> Action:
    """The legal action of ``state`` with the fixed index ``index``."""
    size = CHANCE_OUTCOMES if state.is_chance else DISTINCT_ACTIONS
    i = expect_index(index, size, "a Los Banditos action index")
    for action in rules.legal_actions(state):
        if index_of(action) == i:
            return action
    raise IllegalActionError(f"Los Banditos action index {i} names no legal action here")

