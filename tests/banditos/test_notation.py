"""Notation and JSON: round trips, clear errors, and fuzzed readers (LB-NOTE-1)."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from banditsolve.banditos.notation import (
    format_position,
    from_json,
    parse_position,
    read_position,
    to_json,
)
from banditsolve.banditos.players import greedy_player, random_player
from banditsolve.banditos.state import State, initial_state
from banditsolve.errors import BanditsolveError, NotationError
from tests.banditos.strategies import played_states
from tests.rules import rules


def _reachable(count: int, seed: int) -> list[State]:
    states = [initial_state()]
    for game in range(count):
        states.extend(played_states((greedy_player, random_player), seed=seed + game))
    return states


@st.composite
def reachable_states(draw: st.DrawFn) -> State:
    seed = draw(st.integers(0, 10_000))
    states = played_states((random_player, greedy_player), seed=seed)
    return states[draw(st.integers(0, len(states) - 1))]


@rules("LB-NOTE-1")
@given(reachable_states())
def test_notation_and_json_round_trip(state: State) -> None:
    assert parse_position(format_position(state)) == state
    assert from_json(to_json(state)) == state
    assert from_json(json.dumps(to_json(state))) == state
    assert read_position(json.dumps(to_json(state))) == state
    assert read_position(format_position(state)) == state


@rules("LB-NOTE-1")
def test_the_notation_is_one_line_with_the_documented_fields() -> None:
    text = format_position(initial_state())
    assert text == "-/-/-/- 1111222333 -:- 0A"
    assert "\n" not in text
    assert parse_position("3:k4r5b6:g5g6/2::/1::/1:: 112233 -:- 1h:k1 proof=bag").options.proof == (
        "bag"
    )


@rules("LB-NOTE-1")
@pytest.mark.parametrize(
    ("text", "fragment"),
    [
        ("", "empty position"),
        ("1::/2::/3:: 112233 -:- 0a", "4 slots"),
        ("1::/2::/3::/1:: 11223 -:- 0a", "tiles worth 3"),
        ("1:k1k2k3k4:/2::/3::/1:: 112233 -:- 0a", "slot 1, player 0's side: 4 dice"),
        ("1:k1k2k3:g1g2g3/2::/3::/1:: 112233 -:- 0a", "slot 1: both sides"),
        ("1:x1:/2::/3::/1:: 112233 -:- 0a", "slot 1, player 0's side"),
        ("1::/2::/3::/1:: 112233 -:- 2a", "turn field"),
        ("1::/2::/3::/1:: 112233 -:- 0h:k1k2k3", "3 dice in hand"),
        ("1::/2::/3::/1:: 112233 -:- 0H:k1k2", "draws only 1"),
        ("1:k1k1k1:/2:k1k1k1:/3::/1:: 112233 -:- 0h:k1", "7 black dice"),
        ("1::/2::/3::/1:: 112233 -:- 0a proof=maybe", "option"),
        ("1::/2::/3::/1:: 11223 3:- 0A", "opening turn"),
        ("1:k1:g2/2::/3::/1:: 112233 -:- 0A", "opening turn"),
        ("1::g2/2::/3::/1:: 112233 -:- 0A", "opening turn"),
    ],
)
def test_bad_notation_says_what_and_where(text: str, fragment: str) -> None:
    with pytest.raises(NotationError, match=fragment):
        parse_position(text)


@rules("LB-NOTE-1")
@given(st.text(max_size=80))
def test_notation_reader_raises_only_library_errors(text: str) -> None:
    try:
        state = parse_position(text)
    except BanditsolveError as exc:  # any text: refused or read, so pytest.raises does not fit
        assert str(exc)  # noqa: PT017
        assert "\n" not in str(exc)  # noqa: PT017
    else:
        assert parse_position(format_position(state)) == state


_NOTATION_ALPHABET = "0123456789kgrbAaHhRr:/- =proofbagstrict"


@rules("LB-NOTE-1")
@given(st.text(alphabet=_NOTATION_ALPHABET, max_size=60))
def test_notation_reader_on_near_miss_text(text: str) -> None:
    try:
        state = parse_position(text)
    except BanditsolveError:
        return
    assert parse_position(format_position(state)) == state


json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-3, 12) | st.text(max_size=6),
    lambda children: st.lists(children, max_size=5)
    | st.dictionaries(st.text(max_size=8), children, max_size=6),
    max_leaves=25,
)


@rules("LB-NOTE-1")
@given(json_values)
def test_json_reader_raises_only_library_errors(doc: Any) -> None:
    try:
        state = from_json(doc)
    except BanditsolveError as exc:  # any document: refused or read, so no pytest.raises
        assert str(exc)  # noqa: PT017
        assert "\n" not in str(exc)  # noqa: PT017
    else:
        assert from_json(to_json(state)) == state


@rules("LB-NOTE-1")
@given(st.data())
def test_json_reader_on_mutated_documents(data: st.DataObject) -> None:
    rng = random.Random(data.draw(st.integers(0, 1000)))
    states = _reachable(1, rng.randint(0, 1000))
    doc = to_json(states[rng.randrange(len(states))])
    key = data.draw(st.sampled_from(sorted(doc)))
    doc[key] = data.draw(json_values)
    try:
        state = from_json(doc)
    except BanditsolveError:
        return
    assert from_json(to_json(state)) == state


def test_json_reader_rejects_non_json_text() -> None:
    with pytest.raises(NotationError, match="bad JSON at line 1"):
        from_json("{not json")
    with pytest.raises(NotationError, match="game"):
        from_json({"game": "bandido"})
