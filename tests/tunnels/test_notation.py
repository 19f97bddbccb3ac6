"""The JSON position document and the one-line notation: round trips, errors, fuzzing."""

from __future__ import annotations

import json
import random
from collections import Counter
from collections.abc import Callable

import pytest
from hypothesis import given
from hypothesis import strategies as st

from banditsolve.errors import NotationError
from banditsolve.tunnels import (
    Position,
    from_json,
    from_notation,
    load_deck,
    parse_position,
    read_position,
    to_json,
    to_notation,
)
from tests.rules import rules
from tests.tunnels.helpers import random_table

EXAMPLE = {
    "game": "bandido",
    "placements": [
        {"card": "L+TL+TR+R+BR+BL", "x": 0, "y": 0, "rotation": 0},
        {"card": "L", "x": -1, "y": 0, "rotation": 180},
    ],
    "remaining": ["L", "TL+BL", "TL+BL"],
}


@rules("BD-NOTE-1")
def test_json_document_reads_and_writes_exactly() -> None:
    position = from_json(json.dumps(EXAMPLE))
    assert to_json(position) == EXAMPLE
    assert position.table.exit_count == 5
    # Either name of a card and the aliases are accepted; output is canonical.
    other = dict(EXAMPLE, placements=[
        {"card": "super6", "x": 0, "y": 0, "rotation": 0},
        {"card": "R", "x": -2, "y": 0, "rotation": 0},
    ], remaining=["TR+BR", "L", "TL+BL"])
    assert to_json(from_json(other)) == EXAMPLE
    # Without "remaining": the deck minus the cards on the table.
    bare = from_json({"game": "bandido", "placements": EXAMPLE["placements"]})
    assert len(bare.remaining) == 68


@rules("BD-NOTE-1")
@pytest.mark.parametrize(
    ("placements", "message"),
    [
        ([("L", 0, 0, 0)], r"placement 1 \(L@0,0,0\): the first placement must be"),
        ([("super6", 0, 0, 0), ("Q+L", 2, 0, 0)], r"placement 2 \(Q\+L@2,0,0\): unknown port 'Q'"),
        ([("super6", 0, 0, 0), ("L", 1, 0, 0)], r"placement 2 .*already covered by placement 1"),
        ([("super6", 0, 0, 0), ("L+R", -1, 0, 90)], r"placement 2 .*opening of placement 1"),
        ([("super6", 0, 0, 0), ("L", 5, 5, 0)], r"placement 2 \(L@5,5,0\): no opening"),
        ([("super5", 0, 0, 0), ("L+R", -2, 0, 0)], r"opening R faces the wall of placement 1"),
        ([("super6", 0, 0, 0), ("super6", 3, 0, 0)], r"placement 2 .*a second super card"),
        ([("super6", 0, 0, 0), ("super5", 3, 0, 0)], r"placement 2 .*a second super card"),
        ([("super6", 0, 0, 0), ("L", 2, 0, 45)], r"placement 2 .*rotation"),
    ],
)
def test_bad_documents_name_the_offending_placement(
    placements: list[tuple[str, int, int, int]], message: str
) -> None:
    doc = {
        "game": "bandido",
        "placements": [{"card": c, "x": x, "y": y, "rotation": r} for c, x, y, r in placements],
        "remaining": [],
    }
    with pytest.raises(NotationError, match=message):
        from_json(doc)
    line = "bandido " + " ".join(f"{c}@{x},{y},{r}" for c, x, y, r in placements) + " |"
    with pytest.raises(NotationError, match=message):
        from_notation(line)


@rules("BD-NOTE-2")
def test_notation_example_and_round_trip() -> None:
    text = "bandido L+TL+TR+R+BR+BL@0,0,0 L@-1,0,180 | L TL+BL*2"
    position = from_notation(text)
    assert to_notation(position) == text
    assert to_json(position) == EXAMPLE
    assert parse_position(text) == parse_position(json.dumps(EXAMPLE)) == position


@rules("BD-NOTE-1", "BD-NOTE-2")
@given(st.integers(0, 10_000), st.integers(0, 25))
def test_round_trips_on_random_positions(seed: int, cards: int) -> None:
    table = random_table(seed, cards)
    rng = random.Random(seed)
    deck = Counter(load_deck().cards())
    laid = Counter(table.cards()[1:])
    left = list((deck - laid).elements())
    remaining = tuple(sorted(rng.sample(left, rng.randrange(10))))
    # random_table lays random types: more copies than the deck holds make it hypothetical.
    position = Position(table, remaining, hypothetical=bool(laid - deck))
    assert from_notation(to_notation(position)) == position
    assert from_json(json.dumps(to_json(position))) == position
    assert to_notation(from_notation(to_notation(position))) == to_notation(position)
    assert from_json(to_json(position)).table.history == table.history


@rules("BD-NOTE-1", "BD-NOTE-2")
@given(st.text(max_size=200))
def test_readers_fed_arbitrary_text_raise_only_notation_errors(text: str) -> None:
    for reader in (from_notation, from_json, parse_position):
        outcome = _outcome(reader, text)
        assert _read_or_one_line(outcome), outcome


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(max_size=12)
    | st.sampled_from(["bandido", "L+TL", "super6", "R", "game", "placements"]),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(
        st.sampled_from(["game", "placements", "remaining", "card", "x", "y", "rotation", "z"]),
        inner, max_size=5,
    ),
    max_leaves=20,
)


@rules("BD-NOTE-1")
@given(json_values)
def test_json_reader_fed_arbitrary_documents_raises_only_notation_errors(doc: object) -> None:
    outcome = _outcome(from_json, json.dumps(doc))
    assert _read_or_one_line(outcome), outcome


@rules("BD-NOTE-2")
@given(
    st.lists(
        st.sampled_from(["bandido", "super6@0,0,0", "L@2,0,0", "|", "L*2", "R@-1,0,180", "@",
                         "L@1,1", "TL+BL*0", "x@0,0,0", "L*999", "1_0", "L@-2,0,0",
                         "L*\u00b3", "L*\u0663", "L@\u0663,0,0"]),
        max_size=8,
    )
)
def test_notation_reader_fed_token_soup_raises_only_notation_errors(tokens: list[str]) -> None:
    outcome = _outcome(from_notation, " ".join(tokens))
    assert _read_or_one_line(outcome), outcome


def _outcome(reader: Callable[[str], object], text: str) -> object:
    """What ``reader`` makes of ``text``: what it read, or the NotationError it raised (any
    other exception fails the test)."""
    try:
        return reader(text)
    except NotationError as exc:
        return exc


def _read_or_one_line(outcome: object) -> bool:
    """True for a position read, or a refusal in one non-empty line."""
    if isinstance(outcome, NotationError):
        message = str(outcome)
        return bool(message) and "\n" not in message
    return isinstance(outcome, Position)


def test_deeply_nested_json_is_a_notation_error() -> None:
    with pytest.raises(NotationError):
        from_json("[" * 100_000)
    with pytest.raises(NotationError):
        from_json('{"game": "../../etc/passwd", "placements": []}')


@rules("BD-NOTE-1")
def test_read_position_from_files_or_text(tmp_path: object) -> None:
    from pathlib import Path

    assert isinstance(tmp_path, Path)
    j = tmp_path / "p.json"
    j.write_text(json.dumps(EXAMPLE), encoding="utf-8")
    n = tmp_path / "p.txt"
    n.write_text("bandido super6@0,0,0 R@-2,0,0 | L TL+BL*2\n", encoding="utf-8")
    assert read_position(str(j)) == read_position(str(n)) == from_json(EXAMPLE)
    assert read_position("bandido super6@0,0,0 | L") == from_notation("bandido super6@0,0,0 | L")


def test_a_missing_file_is_named_as_such(tmp_path: object) -> None:
    from pathlib import Path

    from banditsolve.tunnels.notation import read_position

    assert isinstance(tmp_path, Path)
    with pytest.raises(NotationError, match="no such file"):
        read_position(str(tmp_path / "nope.json"))
    with pytest.raises(NotationError, match="directory"):
        read_position(str(tmp_path))


@rules("BD-NOTE-2")
def test_leading_zeros_are_read_as_the_number_they_write() -> None:
    """``000090`` is 90 (it was refused as out of the range -10000..10000, a user's trial)."""
    plain = from_notation("bandido super6@0,0,0 L@1,-1,270 | L")
    assert from_notation("bandido super6@0,0,0 L@0001,-0001,000270 | L") == plain
    with pytest.raises(NotationError, match="between -10000 and 10000"):
        from_notation("bandido super6@0,0,0 L@0010001,-1,270 | L")
