"""``--python``: every question the command line asks, written as the library call that asks it.

Each snippet is run (as a user would paste it) and its answer compared with the command line's
own answer to the same question: the same verdict, the same certificate. A snippet that called
the wrong function, dropped an argument that matters, or read the position otherwise would give
another answer or fail to run.
"""

from __future__ import annotations

import contextlib
import io
import json
import sys
from typing import Any

import pytest

from tests.cli_runner import run


def _puzzle(game: str, puzzle_id: str) -> str:
    position = json.loads(run(game, "puzzle", puzzle_id, "--json").out)["position"]
    assert isinstance(position, str)
    return position


def _new(game: str, *flags: str) -> str:
    notation = json.loads(run(game, "new", *flags, "--json").out)["notation"]
    assert isinstance(notation, str)
    return notation


def _exec(snippet: str) -> tuple[dict[str, Any], str]:
    """Run ``snippet``; its names and what it printed."""
    names: dict[str, Any] = {}
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(compile(snippet, "<snippet>", "exec"), names)
    return names, out.getvalue()


def _answer_of(result: Any, game: str) -> dict[str, Any]:
    try:
        answer = result.to_answer()
    except TypeError:  # the tunnel games' answers name their game
        answer = result.to_answer(game)
    doc = answer.to_json()
    assert isinstance(doc, dict)
    return doc


#: (game, verb, arguments after POSITION, flags) for each question, and how to get POSITION.
QUESTIONS = [
    ("banditos", "claim", ["1"], [], ("puzzle", "claim-third-one")),
    ("banditos", "claim", ["1"], ["--proof", "bag"], ("puzzle", "claim-sixes-need-bag")),
    ("banditos", "claim", ["1"], ["--proof", "strict"], ("puzzle", "claim-sixes-need-bag")),
    ("banditos", "odds", ["1"], [], ("puzzle", "claim-third-one")),
    ("banditos", "best", [], ["--node-limit", "20000", "--method", "exact"],
     ("puzzle", "claim-third-one")),
    ("bandido", "close", [], [], ("puzzle", "loop-1")),
    ("bandido", "close", [], ["--minimum"], ("puzzle", "loop-1")),
    ("bandido", "close", [], [], ("new", "--players", "2", "--seed", "3")),
    ("bandido", "solve", [], ["--time-limit", "5"], ("puzzle", "game-win-1")),
    ("bandida", "close", [], [], ("new", "--players", "2", "--seed", "3")),
    ("bandida", "close", [], ["--mode", "2"], ("puzzle", "close-mode2-ladder")),
    ("rolling", "safe", ["2"], [], ("puzzle", "safe-2")),
    ("rolling", "odds", [], ["--at-least", "2"], ("puzzle", "lay-1")),
    ("rolling", "best", [], ["--time-limit", "5"], ("puzzle", "safe-2")),
]


@pytest.mark.parametrize(("game", "verb", "args", "flags", "source"), QUESTIONS)
def test_the_snippet_asks_the_same_question(
    game: str, verb: str, args: list[str], flags: list[str], source: tuple[str, ...]
) -> None:
    position = _puzzle(game, source[1]) if source[0] == "puzzle" else _new(game, *source[1:])
    shell = run(game, verb, position, *args, *flags, "--json")
    assert shell.code in (0, 1, 3), shell.err
    expected = json.loads(shell.out)
    snippet = run(game, verb, position, *args, *flags, "--python")
    assert snippet.code == 0, snippet.err
    assert snippet.out.startswith("import banditsolve\n")
    names, printed = _exec(snippet.out)
    assert printed.strip() == repr(names["answer"]).strip()
    got = _answer_of(names["answer"], game)
    if expected["status"] == "unknown":  # a limit decided it: only the question must match
        assert got["question"] == expected["question"]
        return
    for key in ("question", "status", "answer", "certificate"):
        assert got[key] == expected[key], key
    as_json = json.loads(run(game, verb, position, *args, *flags, "--python", "--json").out)
    assert as_json == {"python": snippet.out.rstrip("\n")}


class _Stdin:
    """A stand-in for ``sys.stdin`` with a byte buffer."""

    def __init__(self, data: bytes) -> None:
        self.buffer = io.BytesIO(data)


@pytest.mark.parametrize("game", ["banditos", "bandido", "bandida", "rolling"])
def test_a_position_from_standard_input_is_in_the_snippet(
    game: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """POSITION `-` reads standard input; the snippet holds what it gave (run on its own, its
    standard input is not the command's)."""
    position = _new(game, "--players", "2", "--seed", "5")
    monkeypatch.setattr(sys, "stdin", _Stdin(position.encode()))
    snippet = run(game, "moves", "-", "--python")
    assert snippet.code == 0, snippet.err
    assert repr(position) in snippet.out
    monkeypatch.setattr(sys, "stdin", _Stdin(b""))
    _, printed = _exec(snippet.out)
    assert printed.strip() == run(game, "moves", position).out.strip()


@pytest.mark.parametrize("game", ["banditos", "bandido", "bandida", "rolling"])
def test_the_shared_verbs_in_python_print_what_the_command_line_does(game: str) -> None:
    made = run(game, "new", "--players", "2", "--seed", "5", "--python")
    _, printed = _exec(made.out)
    state = _new(game, "--players", "2", "--seed", "5")
    assert printed.strip() == state
    moves = json.loads(run(game, "moves", state, "--json").out)
    _, listed = _exec(run(game, "moves", state, "--python").out)
    assert listed.strip() == run(game, "moves", state).out.strip()  # (odds too, at chance)
    first = moves["actions"][0]
    _, applied = _exec(run(game, "apply", state, first, "--python").out)
    assert applied.strip() == json.loads(run(game, "apply", state, first, "--json").out)[
        "notation"]
    _, drawn = _exec(run(game, "show", state, "--python").out)
    assert drawn.strip() == run(game, "show", state).out.strip()


@pytest.mark.parametrize(("game", "position"), [
    ("bandido", "bandido L+TL+TR+R+BR+BL@0,0,0 L+R@2,0,0 | L TR*2"),
    ("bandida", "bandida mode=2 L+TL+TR+R+BR+BL@0,0,0 | L L:ladder TL+TR:broken_tool"),
])
def test_a_tunnel_position_shown_in_python_prints_what_the_command_line_does(
    game: str, position: str
) -> None:
    _, drawn = _exec(run(game, "show", position, "--python").out)
    assert drawn.strip() == run(game, "show", position).out.strip() != ""


@pytest.mark.parametrize(("game", "card"), [("bandido", "L+TL"), ("bandida", "TL+TR:broken_tool")])
def test_the_placements_snippet_lists_what_the_command_line_lists(game: str, card: str) -> None:
    position = _new(game, "--players", "2", "--seed", "3").split(" | ")[0] + " | L"
    listed = json.loads(run(game, "placements", position, card, "--json").out)["placements"]
    names, _ = _exec(run(game, "placements", position, card, "--python").out)
    from banditsolve.tunnels.cli import placement_text

    assert [placement_text(p) for p in names["answer"]] == [row["placement"] for row in listed]
    assert listed  # (a question with an answer to compare)


@pytest.mark.parametrize("argv", [
    ["bandido", "placements", "bandido L+TL+TR+R+BR+BL@0,0,0 | L", "XX", "--python"],
    ["banditos", "claim", "garbage", "1", "--python"],
    ["rolling", "safe", "x y", "2", "--python"],
    ["bandido", "show", "bandido nonsense | L", "--python"],
    ["bandido", "new", "--players", "9", "--python"],
    # (a question the backend refuses: its snippet would only raise)
    ["bandido", "close", "bandido L+TL+TR+R+BR+BL@0,0,0 | L", "--backend", "z3",
     "--node-limit", "100", "--python"],
])
def test_bad_input_gets_its_one_line_not_a_snippet(argv: list[str]) -> None:
    result = run(*argv)
    assert result.code == 2
    assert result.out == ""
    assert result.err.startswith("banditsolve: error: ")
    assert len(result.err.strip().splitlines()) == 1


@pytest.mark.parametrize("flags", [
    ("--mode", "2"),  # (a mode 1 game: its own mode's question, BA-CLOSE-4)
    ("--option", "map_split=tunnels"),  # (a game state reads the map by its own options)
    ("--hypothetical",),
])
def test_a_game_state_s_close_refuses_with_python_what_it_refuses_without(
    flags: tuple[str, ...],
) -> None:
    state = _new("bandida", "--seed", "3")
    plain = run("bandida", "close", state, *flags)
    snippet = run("bandida", "close", state, *flags, "--python")
    assert plain.code == snippet.code == 2
    assert snippet.out == ""
    assert snippet.err == plain.err
