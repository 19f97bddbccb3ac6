"""Bandida's states as text and pictures, action texts, and the policies (BA-NOTE-*)."""

from __future__ import annotations

import json
import random
from collections import Counter
from collections.abc import Iterator

import pytest

from banditsolve.errors import NotationError
from banditsolve.tunnels.cards import hand_code, load_deck
from banditsolve.tunnels.notation import parse_action
from banditsolve.tunnels.state import GameState
from tests.bandida.helpers import GAME, bandida, make, placements
from tests.rules import rules

OPTION_SETS: tuple[dict[str, object], ...] = (
    {"mode": 1},
    {"mode": 2, "tool": "over_turns", "map_split": "tunnels", "alarm_zero": "zero"},
    {"mode": 3, "pile_out": "must_draw", "chain": "no", "map_removes": "not_super",
     "alarm_show": "top", "hand_change": "ends_turn"},
    {"mode": 2, "tool_stuck": "under", "dynamite_stuck": "change", "map_short": "none"},
    {"mode": 3, "alarm_stuck": "no_effect", "map_reopen": "forbidden", "super_side": "super5"},
)


def states(games: int) -> Iterator[GameState]:
    for seed in range(games):
        options = OPTION_SETS[seed % len(OPTION_SETS)]
        rng = random.Random(seed)
        state = GAME.new_game(1 + seed % 4, options, seed=None if seed % 3 == 0 else seed)
        greedy = GAME.policies()["greedy"]
        while True:
            yield state
            if state.outcome is not None:
                break
            if state.is_chance:
                action = GAME.sample_chance(state, rng)
            elif seed % 2:
                action = greedy(state, rng)
            else:
                action = rng.choice(GAME.legal_actions(state))
            state = GAME.apply(state, action)


@rules("BA-NOTE-1", "BA-NOTE-2")
def test_every_state_and_action_reads_back() -> None:
    seen: set[str] = set()
    deck = load_deck("bandida")
    for i, state in enumerate(map(bandida, states(25))):
        cards = Counter(hand_code(c) for c in state.table.cards()[1:])
        cards.update(state.remaining())
        cards.update(state.discard)
        assert cards == Counter(deck.cards(state.options.mode))  # every card exactly once
        assert state.outcome is not None or GAME.legal_actions(state)
        if i % 3 and not state.phase:
            continue
        seen.update(state.phase)
        text = GAME.to_notation(state)
        assert GAME.from_notation(text) == state, text
        doc = GAME.to_json(state)
        assert GAME.from_json(json.dumps(doc)) == state
        for action in GAME.legal_actions(state)[:40]:
            assert parse_action(GAME.action_text(state, action)) == action
    assert {"map", "alarm", "discard", "dynamite"} <= seen or len(seen) >= 3


@rules("BA-NOTE-1")
def test_refusals_of_bandida_fields() -> None:
    text = GAME.to_notation(GAME.new_game(2, {"mode": 2}, seed=1))
    with pytest.raises(NotationError, match="sizes"):
        GAME.from_notation(text.replace("sizes=3,3", "sizes=3"))
    with pytest.raises(NotationError, match="phase"):
        GAME.from_notation(text + " phase=nap")
    with pytest.raises(NotationError, match="queue"):
        GAME.from_notation(text + " queue=0")
    from banditsolve.tunnels.game import BANDIDO

    bandido_text = BANDIDO.to_notation(BANDIDO.new_game(2, seed=1)) + " options=mode:2"
    with pytest.raises(NotationError, match="option mode is Bandida's; Bandido has no mode"):
        BANDIDO.from_notation(bandido_text)


@rules("BA-NOTE-3")
def test_pictures_show_the_special_cards() -> None:
    state = make([["L:ladder", "TL+TR:map", "L"], ["TL"]], start="L+R", options={"mode": 2})
    after = GAME.apply(state, placements(state, "L:ladder")[0])
    art = GAME.ascii(after)
    assert "-H-" in art
    assert "H ladder" in art
    assert "mode 2" in art
    # How many cards each player holds of how many a full hand has (BA-OBJ-2 changes it).
    assert "player 0: L L+BL TL+TR:map (3 of hand size 3)" in art
    assert "player 1: TL (1 of hand size 3)" in art
    picture = GAME.svg(after)
    assert "ladder" in picture
    assert "mode 2" in picture
    assert picture.startswith("<svg")


@rules("BA-NOTE-5", "BA-GAME-4")
def test_policies_play_whole_games() -> None:
    assert set(GAME.policies()) == {"random", "greedy"}
    for mode in (1, 2, 3):
        for seed in range(3):
            rng = random.Random(seed)
            state = GAME.new_game(2, {"mode": mode}, seed=seed)
            while state.outcome is None:
                action = GAME.policies()["greedy"](state, rng)
                assert action in GAME.legal_actions(state)
                state = GAME.apply(state, action)
