"""Rolling Bandits' hidden information (``rolling/info.py``): a closed trunk is its holder's
secret, the ambush step does not give it away, and what is open is open to all."""

from __future__ import annotations

import functools
import json
from typing import Any

from banditsolve import load_game
from tests.information import _ambush_swaps
from tests.rules import rules
from tests.strategies.games import Trace, seeded_games


@functools.cache
def _traces() -> tuple[Trace, ...]:
    return tuple(seeded_games(load_game("rolling"), 40))


def _first(test: Any) -> Any:
    for trace in _traces():
        for visit in trace.visits:
            if test(visit.state):
                return visit.state
    raise AssertionError("no such state in 40 random games")


@rules("RB-TRUNK-1", "RB-TRUNK-5")
def test_a_closed_trunk_is_known_to_its_holder_only() -> None:
    game = load_game("rolling")
    state = _first(lambda s: any(not h.used for row in s.trunks for h in row))
    owner = next(p for p, row in enumerate(state.trunks) if any(not h.used for h in row))
    held = next(h for h in state.trunks[owner] if not h.used)
    for player in range(state.players):
        shown = json.loads(game.observation(state, player))["trunks"][owner]
        closed = [t for t in shown if not t["used"]]
        if player == owner:
            assert {t["value"] for t in closed} >= {held.value}
            assert "?" not in {t["content"] for t in closed}
        else:
            assert {(t["value"], t["content"]) for t in closed} == {("?", "?")}
        assert "notation" not in json.loads(game.observation(state, player))
    assert not game.perfect_information


@rules("RB-TRUNK-3")
def test_a_bomb_lies_open_to_everyone() -> None:
    game = load_game("rolling")
    state = _first(lambda s: any(h.content == 1 for row in s.trunks for h in row))
    owner = next(p for p, row in enumerate(state.trunks) if any(h.content == 1 for h in row))
    for player in range(state.players):
        shown = json.loads(game.observation(state, player))["trunks"][owner]
        assert "bomb" in {t["content"] for t in shown}


@rules("RB-AMBUSH-1")
def test_the_ambush_step_looks_like_the_attack_to_the_others() -> None:
    """The ambush step comes only to a mover with a usable ambush trunk: to the others it
    must look like an attack with everything laid by a mover whose trunk holds nothing."""
    game = load_game("rolling")
    pairs = 0
    for trace in _traces():
        for visit in trace.visits:
            for other, mover in _ambush_swaps(game, visit.state):
                try:
                    game.validate(other)
                except ValueError:
                    continue
                pairs += 1
                for player in range(other.players):
                    same = game.observation(other, player) == game.observation(
                        visit.state, player
                    )
                    same_tensor = game.observation_tensor(
                        other, player
                    ) == game.observation_tensor(visit.state, player)
                    assert same == same_tensor == (player != mover), (trace.seed, player)
    assert pairs >= 10, pairs
