"""Reading a game state back: a state the game has already ended is refused unless it says so,
a saved state is never mistaken for a puzzle's game document, and every state of seeded
Bandida games (alarms and maps included) reads back as itself (BD-NOTE-4, BA-END-2)."""

from __future__ import annotations

import json

import pytest

from banditsolve.core.play import simulate
from banditsolve.errors import NotationError
from banditsolve.tunnels.game import BANDIDA, BANDIDO, TunnelGame
from banditsolve.tunnels.state import REASONS
from tests.rules import rules


def _ended_on_a_hole(game: TunnelGame) -> tuple[str, object]:
    """The notation and the last state of the first seeded game that ends on a hole."""
    for seed in range(60):
        _start, steps = simulate(game, seed=seed, players=2)
        last = steps[-1].state
        if last.outcome is not None and "hole" in last.reason:
            return game.to_notation(last), last
    raise AssertionError("no seeded game ended on a hole")


@rules("BD-NOTE-4", "BA-END-2")
@pytest.mark.parametrize("game", [BANDIDO, BANDIDA], ids=["bandido", "bandida"])
def test_a_state_already_lost_is_refused_without_its_end(game: TunnelGame) -> None:
    text, last = _ended_on_a_hole(game)
    assert game.from_notation(text) == last  # with end=lost:hole it reads back
    cut = " ".join(word for word in text.split() if not word.startswith("end="))
    with pytest.raises(NotationError, match=r"already over.*end=lost:hole"):
        game.from_notation(cut)
    document = game.to_json(last)
    for key in ("outcome", "reason"):
        document.pop(key, None)
    with pytest.raises(NotationError, match="already over"):
        game.from_json(json.dumps(document))


@rules("BD-NOTE-4")
def test_a_saved_state_without_turn_is_not_read_as_a_puzzle_document() -> None:
    """``turn`` may be left out of a saved state; the state's own fields (``draw`` here) keep
    it a state, checked as one: a card owed but not drawn is not a state the game stops at."""
    state = BANDIDO.new_game(2, seed=3)
    document = BANDIDO.to_json(state)
    document.pop("turn", None)
    assert BANDIDO.from_json(json.dumps(document)) == state
    hands = [list(h) for h in document["hands"]]
    moved = hands[0].pop()
    owed = dict(document, hands=hands, pile=[moved, *document["pile"]], to_draw=[0])
    with pytest.raises(NotationError, match="not a state the game stops at"):
        BANDIDO.from_json(json.dumps(owed))


@rules("BA-END-2", "BA-ALARM-5")
def test_every_state_of_seeded_bandida_games_reads_back() -> None:
    """Games ended by the last map leaving in an alarm's discards used to keep the alarm's
    phase with nobody left to discard, a state the reader refuses (seeds 14, 25, 28)."""
    for seed in (14, 25, 28, *range(6)):
        _start, steps = simulate(BANDIDA, seed=seed, players=2)
        for step in steps:
            state = step.state
            assert BANDIDA.from_notation(BANDIDA.to_notation(state)) == state, seed
            assert BANDIDA.from_json(BANDIDA.to_json(state)) == state, seed


@rules("BD-END-3", "BA-END-2")
@pytest.mark.parametrize("game", [BANDIDO, BANDIDA], ids=["bandido", "bandida"])
def test_a_stuck_end_is_refused_where_a_card_in_play_still_fits(game: TunnelGame) -> None:
    """``end=lost:stuck`` claims that no card still in play fits anywhere: on a new game's
    table, where the hand's cards fit, the claim is false (it was read as true once an exit
    was open and a card was left)."""
    state = game.new_game(2, seed=5)
    assert game.legal_actions(state)
    text = game.to_notation(state)
    with pytest.raises(NotationError, match=r"end=lost:stuck.*not true of this table"):
        game.from_notation(f"{text} end=lost:stuck")
    document = dict(game.to_json(state), outcome="lost", reason=REASONS["stuck"])
    with pytest.raises(NotationError, match="not true of this table"):
        game.from_json(json.dumps(document))


@rules("BA-END-2")
def test_a_game_that_really_ended_stuck_reads_back() -> None:
    # (seed 265 with four players: the first seeded game found to end so)
    _start, steps = simulate(BANDIDA, seed=265, players=4)
    last = steps[-1].state
    assert last.reason == REASONS["stuck"]
    assert BANDIDA.from_notation(BANDIDA.to_notation(last)) == last
