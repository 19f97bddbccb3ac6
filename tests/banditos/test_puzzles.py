"""Every bundled puzzle's answer, re-derived here without the code under test (brute force
claim checks, plain enumeration of odds, a plain expectimax over the rules)."""

from __future__ import annotations

from fractions import Fraction

import pytest

from banditsolve.banditos.dice import Die
from banditsolve.banditos.puzzles import Puzzle, load_puzzles, parse_puzzles, puzzle_by_id
from banditsolve.banditos.rules import (
    EndTurn,
    apply,
    chance_outcomes,
    legal_actions,
    parse_action,
)
from banditsolve.banditos.state import State
from banditsolve.errors import DataError
from tests.banditos.reference import brute_force_safe, odds_by_colour_sequences
from tests.rules import rules

PUZZLES = load_puzzles()


def _of(kind: str) -> list[Puzzle]:
    return [p for p in PUZZLES if p.question == kind]


def _id(p: Puzzle) -> str:
    return p.id


def test_collection_has_every_kind() -> None:
    assert len(PUZZLES) >= 20
    kinds = {p.question for p in PUZZLES}
    assert kinds == {"claim", "odds", "best"}
    claims = [p for p in PUZZLES if p.question == "claim"]
    assert any(not p.answer["safe_strict"] and p.answer["safe_bag"] for p in claims)
    assert any(p.answer["safe_strict"] for p in claims)
    best = [p for p in PUZZLES if p.question == "best"]
    assert any(p.answer["actions"][0].startswith("give") and p.answer["probability"] == "1"
               for p in best)
    assert all(p.description and len(p.description.splitlines()) == 1 for p in PUZZLES)


def _tile_sides(puzzle: Puzzle) -> tuple[State, tuple[Die, ...], tuple[Die, ...]]:
    state = puzzle.state()
    assert puzzle.tile is not None
    tile = state.row[puzzle.tile - 1]
    assert tile is not None
    return state, tile.side(state.to_move), tile.side(1 - state.to_move)


@rules("LB-CLAIM-2", "LB-OPT-1")
@pytest.mark.parametrize("puzzle", _of("claim"), ids=_id)
def test_claim_puzzle(puzzle: Puzzle) -> None:
    state, mine, theirs = _tile_sides(puzzle)
    assert len(mine) == 3
    on_tile = [sum(1 for d in mine + theirs if d.colour == c) for c in range(4)]
    strict = [6 - n for n in on_tile]
    bag = [6 - sum(1 for d in state.dice_on_tiles() + state.hand if d.colour == c)
           for c in range(4)]
    assert puzzle.answer["safe_strict"] == brute_force_safe(mine, theirs, strict)
    assert puzzle.answer["safe_bag"] == brute_force_safe(mine, theirs, bag)
    key = "safe_bag" if puzzle.proof == "bag" else "safe_strict"
    assert puzzle.answer["safe"] == puzzle.answer[key]


@rules("LB-TURN-2")
@pytest.mark.parametrize("puzzle", _of("odds"), ids=_id)
def test_odds_puzzle(puzzle: Puzzle) -> None:
    state, mine, theirs = _tile_sides(puzzle)
    bag = [6 - sum(1 for d in state.dice_on_tiles() + state.hand if d.colour == c)
           for c in range(4)]
    out = odds_by_colour_sequences(mine, theirs, tuple(bag))
    answer = puzzle.answer
    assert (Fraction(answer["above"]), Fraction(answer["equal"]), Fraction(answer["below"])) == (
        out[0], out[1], out[2]
    )


def plain_expectimax(state: State, memo: dict[State, Fraction]) -> Fraction:
    """The probability that player 0 wins with best play by both. The only shortcut: a player
    who has found a certain win looks no further."""
    if state.winner is not None:
        return Fraction(1 if state.winner == 0 else 0)
    if state in memo:
        return memo[state]
    if state.is_chance:
        value = sum(
            (p * plain_expectimax(apply(state, a), memo) for a, p in chance_outcomes(state)),
            Fraction(0),
        )
    else:
        values = []
        certain = Fraction(1 if state.to_move == 0 else 0)
        for action in legal_actions(state):
            values.append(plain_expectimax(apply(state, action), memo))
            if values[-1] == certain:
                break
        value = max(values) if state.to_move == 0 else min(values)
    memo[state] = value
    return value


@rules("LB-TURN-5", "LB-GIVE-1", "LB-END-1")
@pytest.mark.parametrize("puzzle", _of("best"), ids=_id)
def test_best_puzzle(puzzle: Puzzle) -> None:
    state = puzzle.state()
    player = state.to_move
    memo: dict[State, Fraction] = {}

    def for_player(s: State) -> Fraction:
        v = plain_expectimax(s, memo)
        return v if player == 0 else 1 - v

    best = for_player(state)
    assert Fraction(puzzle.answer["probability"]) == best
    # The answer's decisions are legal and keep the best value at every step.
    for text in puzzle.answer["actions"]:
        action = parse_action(text)
        assert action in legal_actions(state)
        state = apply(state, action)
        assert for_player(state) == best
        if isinstance(action, EndTurn):
            break
    # The sequence runs to the end of the turn, a chance step or the end of the game.
    assert state.is_terminal or state.is_chance or state.to_move != player


def test_bad_puzzle_data_is_a_data_error() -> None:
    entry = PUZZLES[0].to_json()
    assert parse_puzzles([entry]) == [PUZZLES[0]]
    cases: list[tuple[object, str]] = [
        ([{"id": "x"}], "missing field"),
        ({"puzzles": [entry]}, "JSON list"),
        ([entry, entry], "appears twice"),
        ([{**entry, "position": "bad"}], "4 to 6 fields"),
        ([{**entry, "colour": "red"}], "unknown field 'colour'"),
        ([{**entry, "question": "why"}], "unknown question"),
        ([{**entry, "tile": 9}], "names a tile 1-4"),
        ([{**entry, "tile": True}], "names a tile 1-4"),
        ([{**entry, "answer": []}], "the answer is an object"),
        ([{**entry, "proof": "bag"}], "contradicts the position's proof=strict"),
    ]
    for doc, message in cases:
        with pytest.raises(DataError, match=message):
            parse_puzzles(doc)


def test_puzzles_are_found_by_id() -> None:
    assert puzzle_by_id(PUZZLES[-1].id) == PUZZLES[-1]
    with pytest.raises(DataError, match="no bundled puzzle"):
        puzzle_by_id("no-such-puzzle")
