"""What fuzzing the readers found (``make fuzz``, ``fuzz/targets.py``), each kept as a test: the
input, and the one-line library error it must now get."""

from __future__ import annotations

import json
from importlib import resources
from typing import Any

import pytest

from banditsolve.core.puzzles import parse_puzzle_list
from banditsolve.errors import DataError
from banditsolve.rolling import puzzles as rolling_puzzles


def _rolling_entry() -> dict[str, Any]:
    text = resources.files("banditsolve.rolling").joinpath("data", "puzzles.json").read_text()
    entry: dict[str, Any] = json.loads(text)[0]
    return entry


@pytest.mark.parametrize(
    ("field", "value", "words"),
    [
        ("k", "x", "k must be a whole number, not a string"),  # once a ValueError from int()
        ("wagon", 2.5, "wagon must be a whole number, not the number 2.5"),  # once read as 2
        ("player", True, "player must be a whole number, not a boolean"),  # once read as 1
        ("description", ["a"], "description must be text, not a list"),  # once str() of it
        ("extra", 1, "unknown field 'extra'"),  # once ignored
    ],
)
def test_a_rolling_puzzle_file_with_a_field_of_the_wrong_kind_is_refused(
    field: str, value: object, words: str
) -> None:
    entry = _rolling_entry()
    parse_puzzle_list([entry], rolling_puzzles._make, "puzzles.json")  # the file as shipped
    entry[field] = value
    with pytest.raises(DataError) as info:
        parse_puzzle_list([entry], rolling_puzzles._make, "puzzles.json")
    message = str(info.value)
    assert words in message, message
    assert message.count("puzzles.json: puzzle") == 1, message  # named once
    assert "\n" not in message


def test_a_tunnel_puzzle_whose_position_is_json_text_is_refused() -> None:
    """A solve puzzle's position given as JSON text instead of an object: once a ValueError
    from inside (``dict()`` of the text)."""
    from banditsolve.tunnels import puzzles as tunnel_puzzles

    text = resources.files("banditsolve.tunnels").joinpath("data", "puzzles.json").read_text()
    entry = next(e for e in json.loads(text) if e["question"] == "solve")
    parse_puzzle_list([entry], tunnel_puzzles._puzzle, "puzzles.json")  # as shipped
    entry["position"] = json.dumps(entry["position"])
    with pytest.raises(DataError, match="position must be a JSON object, not a string"):
        parse_puzzle_list([entry], tunnel_puzzles._puzzle, "puzzles.json")


@pytest.mark.parametrize("text", ["drawn k3k3 k3", "drawn r5g3b1", "drawn k1 k2 k3"])
def test_a_los_banditos_draw_of_three_dice_is_not_read(text: str) -> None:
    """``drawn k3k3 k3`` (two words, three dice) was read as a draw that no action text
    writes: the action reader gave what the game's own check then refused."""
    from banditsolve.banditos.rules import parse_action
    from banditsolve.errors import NotationError

    with pytest.raises(NotationError, match="a draw is one or two dice, not 3"):
        parse_action(text)
    assert str(parse_action("drawn r5g3")) == "drawn g3 r5"  # two dice run together still read
