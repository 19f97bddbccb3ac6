"""The toy's information and numbering (issue 29): perfect information, the observation, the
action indices and the longest game.

- Nim with a die has no hidden part: the pile, the roll and the turn are on the table (NIM-1,
  NIM-2), so every player's observation is the whole state (its notation).
- Indices are fixed: ``take N`` is ``N - 1`` (3 of them), the chance outcome ``roll V`` is
  ``V - 1`` (3 of them).
- The longest game: every ``take`` removes at least one counter (NIM-2) and follows exactly one
  roll, so a pile of ``P`` ends within ``2 * P`` steps (``P`` from option ``pile``).
"""

from __future__ import annotations

from collections.abc import Mapping

from banditsolve.core.observe import expect_index, expect_observer, fixed
from banditsolve.errors import IllegalActionError
from tests.toy import notation, rules
from tests.toy.state import FACES, OPTIONS, Action, Roll, State, Take

PERFECT_INFORMATION = True
#: Take 1..3, as 0..2.
DISTINCT_ACTIONS = 3
#: Roll 1..3, as 0..2.
CHANCE_OUTCOMES = len(FACES)
#: pile, players, to_move, rolled, taker, the starting pile, last=loses.
TENSOR_LENGTH = 7


def observation(state: State, player: int) -> str:
    expect_observer(player, state.players, "Nim")
    return notation.to_notation(state)


def observation_tensor(state: State, player: int) -> tuple[float, ...]:
    expect_observer(player, state.players, "Nim")
    o = state.options
    values = (state.pile, state.players, state.to_move, state.rolled, state.taker, o.pile,
              int(o.last == "loses"))
    return fixed(values, TENSOR_LENGTH, "the Nim tensor")


def action_index(state: State, action: Action) -> int:
    if not any(action == a for a in rules.legal_actions(state)):
        raise IllegalActionError(f"{action!r} is not a legal Nim action here")
    return action.value - 1 if isinstance(action, Roll) else action.count - 1


def legal_indices(state: State) -> tuple[int, ...]:
    return tuple(
        a.value - 1 if isinstance(a, Roll) else a.count - 1 for a in rules.legal_actions(state)
    )


def action_from_index(state: State, index: int) -> Action:
    size = CHANCE_OUTCOMES if state.is_chance else DISTINCT_ACTIONS
    i = expect_index(index, size, "a Nim action index")
    action: Action = Roll(i + 1) if state.is_chance else Take(i + 1)
    if not any(action == a for a in rules.legal_actions(state)):
        raise IllegalActionError(f"Nim action index {i} names no legal action here")
    return action


def max_game_length(options: Mapping[str, object] | None) -> int:
    pile = int(OPTIONS.read(options)["pile"])
    return 2 * pile
