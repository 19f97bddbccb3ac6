"""The typed boundary (``core.args``): a public function's arguments are checked against its
type hints, a wrong type refused as an ArgumentTypeError naming the function and argument; a
right type always passes to the function, which judges the value."""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any, Literal

import pytest
from hypothesis import given
from hypothesis import strategies as st

from banditsolve.core.args import accepts, checked, expect_choice, expect_path, expect_whole
from banditsolve.errors import ArgumentTypeError, BanditsolveError, SolverError

#: Values and, by hand, the hints each one is of.
CASES: list[tuple[object, object, bool]] = [
    (3, int, True), (True, int, False), (3, float, True), (2.5, float, True), (True, float, False),
    ("x", float, False), (None, int | None, True), (None, int, False), ("x", int | str, True),
    (b"x", int | str, False), ([1, 2], Sequence[int], True), ((1, "a"), Sequence[int], False),
    ("12", Sequence[int], False), (b"12", Iterable[int], False), ({1: 2}, Iterable[int], False),
    ({"a": 1}, Mapping[str, object], True), ([("a", 1)], Mapping[str, object], False),
    ((1, 2, 3, 4), tuple[int, int, int, int], True), ((1, 2, 3), tuple[int, int, int, int], False),
    ((1, 2.5), tuple[int, ...], False), (len, Callable[[int], int], True),
    (5, Callable[[int], int], False), ("exact", Literal["exact", "fast"], True),
    ("other", Literal["exact", "fast"], True),  # the right type: the value is the function's
    (5, Literal["exact", "fast"], False), (Path("x"), str | Path, True), (object(), Any, True),
    ([[1], [2, 3]], Sequence[Sequence[int]], True), ([[1], "23"], Sequence[Sequence[int]], False),
]


@pytest.mark.parametrize(("value", "hint", "expected"), CASES, ids=repr)
def test_a_value_is_of_a_hint_as_read_by_hand(value: object, hint: object, expected: bool) -> None:
    assert accepts(value, hint) is expected


def _target(cards: Sequence[int], *, limit: float | None = None, mode: str = "a") -> int:
    return len(cards) + (0 if limit is None else 1) + len(mode)


@given(
    st.lists(st.integers(0, 63), max_size=20), st.none() | st.floats(0.1, 9), st.text(max_size=5)
)
def test_checked_passes_every_well_typed_call_through_unchanged(
    cards: list[int], limit: float | None, mode: str
) -> None:
    wrapped = checked(_target)
    assert wrapped(cards, limit=limit, mode=mode) == _target(cards, limit=limit, mode=mode)
    assert wrapped.__name__ == "_target"
    assert wrapped.__doc__ == _target.__doc__


@given(st.one_of(st.text(max_size=3), st.binary(max_size=3), st.booleans(), st.dictionaries(
    st.integers(), st.integers(), max_size=2), st.floats(allow_nan=False)))
def test_checked_refuses_a_wrong_type_naming_the_function_and_argument(bad: object) -> None:
    wrapped: Any = checked(_target)  # called with wrong types on purpose
    with pytest.raises(ArgumentTypeError) as info:
        wrapped(bad)
    assert str(info.value).startswith("_target(): cards must be ")
    assert isinstance(info.value, TypeError)
    with pytest.raises(ArgumentTypeError, match="missing a required argument"):
        wrapped()
    with pytest.raises(ArgumentTypeError, match="limit must be"):
        wrapped([1], limit="1")


def test_the_small_checks_split_types_from_values() -> None:
    assert expect_whole(3, "n", 1, 5) == 3
    for wrong_type in (3.0, True, "3", None):
        with pytest.raises(ArgumentTypeError):
            expect_whole(wrong_type, "n", 1, 5)
    with pytest.raises(SolverError, match="n must be a whole number from 1 to 5, not 6") as info:
        expect_whole(6, "n", 1, 5)
    assert not isinstance(info.value, TypeError)
    assert expect_choice("b", ("a", "b"), "method") == "b"
    with pytest.raises(SolverError, match="unknown method 'c': expected one of a, b"):
        expect_choice("c", ("a", "b"), "method")
    with pytest.raises(ArgumentTypeError):
        expect_choice(b"a", ("a", "b"), "method")
    assert expect_path("x/y", "the folder") == "x/y"
    with pytest.raises(ArgumentTypeError):
        expect_path(5, "the folder")
    with pytest.raises(BanditsolveError) as empty:
        expect_path("  ", "the folder")
    assert not isinstance(empty.value, TypeError)


def test_every_public_tunnel_function_refuses_wrong_types_at_its_boundary() -> None:
    """Each function of ``banditsolve.tunnels`` called with each argument replaced by values
    of the wrong type: refused as an ArgumentTypeError (or, for a value its type allows, the
    library's value error), never a TypeError or AttributeError from inside."""
    import banditsolve.tunnels as tunnels

    state = tunnels.new_game(rng=random.Random(1))
    position = tunnels.position_of(state)
    table = position.table
    card = state.hands[0][0]
    placement = tunnels.legal_placements(table, card)[0]
    calls: dict[str, dict[str, object]] = {
        "apply": {"state": state, "action": tunnels.legal_actions(state)[0]},
        "as_code": {"card": card}, "ascii_art": {"table": table}, "canonical": {"mask": 3},
        "card_name": {"code": card},
        "creates_hole": {"table": table, "placement": placement},
        "dead_exits": {"table": table}, "from_json": {"document": tunnels.to_json(position)},
        "from_notation": {"text": tunnels.to_notation(position)}, "half_turn": {"mask": 3},
        "is_dead_end": {"mask": 3}, "legal_actions": {"state": state},
        "legal_placements": {"table": table, "card": card},
        "normalise": {"card": card, "x": 1, "y": 0, "rotation": 0},
        "parse_action": {"text": "pass"}, "parse_card": {"text": tunnels.card_name(card)},
        "parse_position": {"text": tunnels.to_notation(position)},
        "placements_with_delta": {"table": table, "card": card}, "play_game": {"seed": 1},
        "position_of": {"state": state}, "svg": {"table": table},
        "to_json": {"position": position}, "to_notation": {"position": position},
        "can_close": {"position": position, "time_limit": 0.05},
        "min_cards_to_close": {"position": position, "time_limit": 0.05},
        "solve_game": {"state": state, "time_limit": 0.05},
        "win_share": {"state": state, "time_limit": 0.05, "samples": 2},
    }
    for name, good in calls.items():
        function = getattr(tunnels, name)
        function(**good)  # well given: answers
        for argument in good:
            for bad in (object(), [object()], {1: object()}):
                with pytest.raises(BanditsolveError) as info:
                    function(**{**good, argument: bad})
                assert "\n" not in str(info.value)
                if isinstance(info.value, TypeError):
                    continue
                assert bad.__class__ is dict, (name, argument, str(info.value))
