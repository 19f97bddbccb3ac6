"""Los Banditos' information and numbering (``banditos/info.py``), pinned: perfect information,
the fixed indices of the module notes, the longest game."""

from __future__ import annotations

import pytest

from banditsolve import load_game
from banditsolve.banditos.actions import Claim, Drawn, EndTurn, GiveUp, Place, Reveal, Roll
from banditsolve.banditos.dice import Colour, Die
from banditsolve.banditos.info import index_of
from banditsolve.errors import ArgumentTypeError, IllegalActionError, RuleOptionError
from tests.rules import rules


@rules("LB-SETUP-2")
def test_los_banditos_has_perfect_information_and_the_observation_is_the_position() -> None:
    game = load_game("banditos")
    state = game.new_game()
    assert game.perfect_information
    assert game.length_bounded_by_rules
    assert game.observation(state, 0) == game.observation(state, 1) == game.to_notation(state)


def test_the_fixed_indices_of_the_module_notes() -> None:
    k1, b6 = Die(Colour.BLACK, 1), Die(Colour.BLUE, 6)
    assert [index_of(a) for a in (Claim(1), Claim(4), GiveUp(1), GiveUp(4))] == [0, 3, 4, 7]
    assert [index_of(Roll()), index_of(EndTurn())] == [8, 9]
    assert index_of(Place(k1, 1)) == 10
    assert index_of(Place(b6, 4)) == 105
    assert [index_of(Reveal(v)) for v in (1, 2, 3)] == [0, 1, 2]
    assert index_of(Drawn((k1,))) == 3
    assert index_of(Drawn((b6,))) == 26
    assert index_of(Drawn((k1, k1))) == 27
    assert index_of(Drawn((b6, b6))) == 326
    assert index_of(Drawn((k1, b6))) == index_of(Drawn((b6, k1)))
    game = load_game("banditos")
    assert game.num_distinct_actions() == 106
    assert game.max_chance_outcomes() == 327
    assert game.max_game_length() == 1700
    pairs = {index_of(Drawn(tuple(sorted((Die(Colour(a // 6), a % 6 + 1),
                                          Die(Colour(b // 6), b % 6 + 1))))))
             for a in range(24) for b in range(a, 24)}
    assert pairs == set(range(27, 327))


def test_wrong_indices_and_players_are_refused_in_one_line() -> None:
    game = load_game("banditos")
    state = game.new_game()
    with pytest.raises(IllegalActionError, match="action index"):
        game.action_from_index(state, 327)
    with pytest.raises(IllegalActionError, match="names no legal action"):
        game.action_from_index(state, 5)
    with pytest.raises(ArgumentTypeError):
        game.action_from_index(state, "0")  # type: ignore[arg-type]
    with pytest.raises(IllegalActionError):
        game.action_index(state, Roll())
    with pytest.raises(RuleOptionError, match="observing player"):
        game.observation(state, 2)
    with pytest.raises(ArgumentTypeError):
        game.observation_tensor(None, 0)  # type: ignore[arg-type]
