"""The contract's per-game information checks (issue 29), apart from ``tests/contract.py``
which runs them in :func:`~tests.contract.check_game`: no random game is longer than the game's
``max_game_length``, and the hidden part of a state is hidden.

A game with hidden information names, in :data:`HIDDEN`, how to change a state in a part only
one player sees (a hand card swapped with a pile card; a closed trunk's tile swapped): the
changed state must look the same to every other player and not the same to that one.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from dataclasses import replace
from typing import Any

from banditsolve.errors import BanditsolveError
from tests.strategies.games import Trace


def check_lengths(game: Any, traces: Sequence[Trace]) -> None:
    """No game is longer than ``max_game_length`` (steps: the states after the first)."""
    for trace in traces:
        steps = len(trace.visits) - 1
        bound = game.max_game_length(trace.players, trace.options or None)
        assert steps <= bound, (
            f"{game.name}: seed {trace.seed} took {steps} steps, more than max_game_length "
            f"{bound}"
        )


def _tunnel_swaps(game: Any, state: Any) -> Iterator[tuple[Any, int]]:
    """A tunnel state with a card of one hand swapped with a card no player holds (one of the
    unseen pile, or of the known cards under it), and whose hand it was."""
    for owner, hand in enumerate(state.hands):
        for other in sorted({*state.unseen, *state.pile} - set(hand))[:2]:
            card = hand[0] if hand else None
            if card is None:
                continue
            hands = list(state.hands)
            hands[owner] = tuple(sorted((*hand[1:], other)))
            if other in state.unseen:
                unseen = list(state.unseen)
                unseen.remove(other)
                changed = {"unseen": tuple(sorted((*unseen, card)))}
            else:
                changed = {"pile": tuple(card if c == other else c for c in state.pile)}
            yield replace(state, hands=tuple(hands), **changed), owner


def _trunk_swaps(game: Any, state: Any) -> Iterator[tuple[Any, int]]:
    """A Rolling Bandits state with one player's closed trunk holding another tile of the same
    symbol, and whose trunk it is."""
    tiles = game.edition.trunk_kinds
    for owner, held in enumerate(state.trunks):
        for k, trunk in enumerate(held):
            if trunk.used:
                continue
            for tile in tiles:
                if tile.symbol != trunk.symbol or (tile.value, tile.content) == (
                    trunk.value, trunk.content
                ) or tile.content == 1:  # (a bomb is never held closed: RB-TRUNK-3)
                    continue
                new = replace(trunk, value=tile.value, content=tile.content)
                rows = list(state.trunks)
                rows[owner] = (*held[:k], new, *held[k + 1 :])
                yield state.replace(trunks=tuple(rows)), owner


def _ambush_swaps(game: Any, state: Any) -> Iterator[tuple[Any, int]]:
    """A Rolling Bandits state at the ambush step (which only a usable ambush trunk opens)
    as the attack with everything laid and that trunk holding another tile: the mover's."""
    if state.phase != "ambush":
        return
    mover = state.to_move
    held = state.trunks[mover]
    for k, trunk in enumerate(held):
        if trunk.used or trunk.content != 2:  # (an ambush: CONTENTS[2])
            continue
        for tile in game.edition.trunk_kinds:
            if tile.symbol == trunk.symbol and tile.content == 0:
                rows = list(state.trunks)
                new = replace(trunk, value=tile.value, content=0)
                rows[mover] = (*held[:k], new, *held[k + 1 :])
                yield state.replace(trunks=tuple(rows), phase="attack"), mover


def _rolling_swaps(game: Any, state: Any) -> Iterator[tuple[Any, int]]:
    yield from _ambush_swaps(game, state)
    yield from _trunk_swaps(game, state)


#: For each game with hidden information: states that differ from a given one only in a part
#: that one player (the second item) sees and the others do not.
HIDDEN: dict[str, Callable[[Any, Any], Iterator[tuple[Any, int]]]] = {
    "bandido": _tunnel_swaps,
    "bandida": _tunnel_swaps,
    "rolling": _rolling_swaps,
}


def check_hidden(game: Any, traces: Sequence[Trace], most: int = 60) -> int:
    """The hidden part is hidden: a state changed only in what player ``owner`` alone sees
    (and still a state the rules accept) looks the same to every other player, text and tensor,
    and not the same to ``owner``. Returns how many such pairs were checked."""
    if game.perfect_information:
        return 0
    assert game.name in HIDDEN, f"{game.name} hides information but has no swap in HIDDEN"
    checked = 0
    for trace in traces:
        for visit in trace.visits[:: max(1, len(trace.visits) // 8)]:
            for other, owner in HIDDEN[game.name](game, visit.state):
                try:
                    game.validate(other)
                except BanditsolveError:
                    continue
                assert game.to_notation(other) != game.to_notation(visit.state)
                for player in range(game.players(other)):
                    same_text = game.observation(other, player) == game.observation(
                        visit.state, player
                    )
                    same_tensor = game.observation_tensor(
                        other, player
                    ) == game.observation_tensor(visit.state, player)
                    where = f"{game.name} seed {trace.seed}, player {player}, owner {owner}"
                    if player == owner:
                        assert not same_text, f"{where}: the owner does not see the change"
                        assert not same_tensor, f"{where}: the owner's tensor misses it"
                    else:
                        assert same_text, f"{where}: another player sees a hidden change"
                        assert same_tensor, f"{where}: another player's tensor shows it"
                checked += 1
                if checked >= most:
                    return checked
    return checked
