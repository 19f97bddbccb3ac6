"""The toy's rules: legal actions, apply, chance, the outcome, and ``validate``."""

from __future__ import annotations

from dataclasses import replace
from fractions import Fraction

from banditsolve.core.protocol import Outcome
from banditsolve.errors import IllegalActionError, NotationError
from tests.toy.state import FACES, MAX_PLAYERS, MIN_PLAYERS, Action, Roll, State, Take


def chance_outcomes(state: State) -> tuple[tuple[Action, Fraction], ...]:
    """NIM-2: each face of the die, 1/3."""
    if not state.is_chance:
        raise IllegalActionError("not a chance node: nobody is to roll now")
    return tuple((Roll(v), Fraction(1, len(FACES))) for v in FACES)


def legal_actions(state: State) -> tuple[Action, ...]:
    if state.is_over:
        return ()
    if state.is_chance:
        return tuple(a for a, _ in chance_outcomes(state))
    return tuple(Take(k) for k in range(1, min(state.rolled, state.pile) + 1))


def apply(state: State, action: Action) -> State:
    """The state after ``action`` (:class:`IllegalActionError`, nothing changed, if illegal)."""
    if action not in legal_actions(state):
        raise IllegalActionError(f"{action} is not legal now")
    if isinstance(action, Roll):
        return replace(state, rolled=action.value)
    nxt = (state.to_move + 1) % state.players
    return replace(
        state, pile=state.pile - action.count, to_move=nxt, rolled=0, taker=state.to_move
    )


def outcome(state: State) -> Outcome | None:
    """NIM-4."""
    if not state.is_over:
        return None
    if state.options.last == "wins":
        winners: tuple[int, ...] = (state.taker,)
    else:
        winners = tuple(p for p in range(state.players) if p != state.taker)
    return Outcome.win(winners, state.players, f"player {state.taker} took the last counter")


def validate(state: State) -> None:
    """Refuse a state no game reaches, naming the rule."""
    if not MIN_PLAYERS <= state.players <= MAX_PLAYERS:
        raise NotationError(f"NIM-1: {state.players} players (2 or 3 play)")
    if not 0 <= state.pile <= state.options.pile:
        raise NotationError(f"NIM-1: a pile of {state.pile} (at most {state.options.pile})")
    if not 0 <= state.to_move < state.players:
        raise NotationError(f"NIM-3: player {state.to_move} does not play")
    if state.rolled not in (0, *FACES) or (state.is_over and state.rolled):
        raise NotationError(f"NIM-2: a roll of {state.rolled} here")
    started = state.pile < state.options.pile
    if started != (state.taker >= 0):
        raise NotationError("NIM-3: counters are taken exactly when someone took them")
    if started and state.taker != (state.to_move - 1) % state.players:
        raise NotationError(f"NIM-3: player {state.to_move} moves after player {state.taker}")
