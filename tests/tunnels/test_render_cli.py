"""Pictures (ASCII and SVG) and the bandido commands."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from banditsolve.tunnels import Table, ascii_art, from_notation, svg
from tests.cli_runner import run
from tests.rules import rules
from tests.tunnels.test_table import hole_table

HOLE = "bandido super6@0,0,0 L+BR@-1,-1,0 TL@-2,-1,90 TR@-1,1,0 | L*3 TL+BL*2"


@rules("BD-NOTE-3")
def test_ascii_marks_exits_walls_dead_ends_and_holes() -> None:
    start = ascii_art(Table.start("super6"), legend=False)
    lines = start.splitlines()
    # Coordinates across the top and down the side.
    assert lines[0].split() == ["-1", "0", "1", "2"]
    row0 = next(line for line in lines if line.lstrip().startswith("0 "))
    # Six exits: west and east ends, two north, two south.
    assert "<" in row0
    assert ">" in row0
    assert start.count("^") == 2
    assert start.count("v") == 2
    five = ascii_art(Table.start("super5"), legend=False)
    assert "<" not in five.splitlines()[3]
    assert five.count("^") == 2
    hole = ascii_art(hole_table(), legend=False)
    assert "X" in hole
    assert "*" in hole
    assert hole.count("<") == 1  # the exit into the hole is still an exit


@rules("BD-NOTE-3")
def test_svg_is_well_formed_and_shows_exits() -> None:
    table = Table.start("super6")
    doc = svg(table)
    root = ET.fromstring(doc)
    assert root.tag.endswith("svg")
    circles = root.iter("{http://www.w3.org/2000/svg}circle")
    exits = [c for c in circles if c.get("fill") == "#d62828"]
    assert len(exits) == 6
    assert table._repr_svg_() == doc
    hole = ET.fromstring(svg(hole_table()))
    titles = [t.text for t in hole.iter("{http://www.w3.org/2000/svg}title")]
    assert "hole" in titles
    assert from_notation(HOLE)._repr_svg_().startswith("<svg")


def _bandido_ready() -> bool:
    try:
        from banditsolve import load_game

        load_game("bandido")
    except (ImportError, AttributeError):
        return False
    return True


needs_game = pytest.mark.skipif(not _bandido_ready(), reason="the Bandido game object is not in")
START = "bandido L+TL+TR+R+BR+BL@0,0,0 | L*2 TL*2 L+TL TL+BL R+BR"


def _state_notation(seed: int = 1) -> str:
    from banditsolve import load_game

    game = load_game("bandido")
    notation: str = game.to_notation(game.new_game(2, seed=seed))
    return notation


@needs_game
@rules("BD-NOTE-1", "BD-NOTE-3")
def test_show_moves_apply_on_a_game_state(tmp_path: Path) -> None:
    state = _state_notation()
    f = tmp_path / "state.txt"
    f.write_text(state, encoding="utf-8")
    out_svg = tmp_path / "state.svg"
    result = run("bandido", "show", str(f), "--svg", str(out_svg))
    assert result.code == 0
    assert "@" in result.out
    ET.fromstring(out_svg.read_text(encoding="utf-8"))
    doc = json.loads(run("bandido", "show", state, "--json").out)
    assert set(doc) == {"game", "notation", "state", "current_player", "outcome"}
    assert doc["game"] == "bandido"
    assert doc["notation"] == state
    assert doc["current_player"] == 0
    assert json.loads(run("bandido", "show", json.dumps(doc["state"]), "--json").out) == doc
    moves = json.loads(run("bandido", "moves", state, "--json").out)
    assert moves["actions"]
    assert all("@" in a or a in ("change", "pass") for a in moves["actions"])
    applied = run("bandido", "apply", state, moves["actions"][0], "--json")
    assert applied.code == 0
    assert json.loads(applied.out)["current_player"] in (1, -1)
    bad = run("bandido", "apply", state, "L@99,99,0")
    assert bad.code == 2
    assert bad.err.count("\n") == 1
    assert "nothing was applied" in bad.err
    bad = run("bandido", "show", "bandido L@0,0,0")
    assert bad.code == 2
    assert bad.err.count("\n") == 1


@rules("BD-NOTE-2", "BD-NOTE-3", "BD-CLOSE-6")
def test_show_draws_a_position_as_close_reads_it(tmp_path: Path) -> None:
    """``show`` takes a position (the table and the cards to come) wherever ``close`` does:
    text, JSON or a file; a position the game cannot hold is one line and exit 2."""
    out_svg = tmp_path / "position.svg"
    drawn = run("bandido", "show", START, "--svg", str(out_svg))
    assert drawn.code == 0, drawn.err
    position = from_notation(START)
    assert drawn.out.strip() == ascii_art(position.table, position.remaining).strip()
    root = ET.fromstring(out_svg.read_text(encoding="utf-8"))
    circles = root.iter("{http://www.w3.org/2000/svg}circle")
    assert len([c for c in circles if c.get("fill") == "#d62828"]) == 6  # the six live exits
    doc = json.loads(run("bandido", "show", START, "--json").out)
    assert set(doc) == {"game", "notation", "position", "exits"}
    assert (doc["game"], doc["exits"]) == ("bandido", 6)
    # R+BR is L+TL turned: the normal name is written (BD-NOTE-2).
    assert doc["position"]["remaining"] == ["L", "L", "TL", "TL", "L+TL", "L+TL", "TL+BL"]
    assert doc["notation"] == "bandido L+TL+TR+R+BR+BL@0,0,0 | L*2 TL*2 L+TL*2 TL+BL"
    for written in (doc["notation"], json.dumps(doc["position"])):
        assert json.loads(run("bandido", "show", written, "--json").out) == doc
    f = tmp_path / "position.txt"
    f.write_text(HOLE, encoding="utf-8")
    hole = run("bandido", "show", str(f))
    assert hole.code == 0
    assert "X" in hole.out
    for bad in ("bandido L+TL+TR+R+BR+BL@0,0,0 L@5,5,0 | L",  # joins no exit (BD-PLACE-3)
                "bandido L+TL+TR+R+BR+BL@0,0,0 | L*9"):  # more copies than the deck
        refused = run("bandido", "show", bad)
        assert refused.code == 2
        assert refused.err.count("\n") == 1, refused.err
    shown = run("bandido", "show", "bandido hypothetical L+TL+TR+R+BR+BL@0,0,0 | L*9", "--json")
    assert json.loads(shown.out)["position"]["remaining"] == ["L"] * 9
    assert run("bandida", "show", START).code == 2  # a position of the other tunnel game


@rules("BD-PLACE-4")
def test_placements_command() -> None:
    result = run("bandido", "placements", "bandido super6@0,0,0", "L", "--json")
    doc = json.loads(result.out)
    assert result.code == 0
    assert doc["card"] == "L"
    assert len(doc["placements"]) == 6
    assert all(p["exits_after"] == 5 for p in doc["placements"])
    assert all("@" in p["placement"] for p in doc["placements"])
    text = run("bandido", "placements", "bandido super6@0,0,0", "R+BR")
    assert text.out.startswith("10 legal placements of L+TL")


@rules("BD-CLOSE-1")
def test_close_answers_and_exit_codes(tmp_path: Path) -> None:
    out_svg = tmp_path / "closed.svg"
    closable = run("bandido", "close", START, "--minimum", "--json", "--svg", str(out_svg))
    doc = json.loads(closable.out)
    assert closable.code == 0
    assert (doc["status"], doc["answer"]) == ("yes", "closable")
    assert len(doc["certificate"]) == 6
    assert all("@" in p for p in doc["certificate"])
    assert out_svg.read_text(encoding="utf-8").startswith("<svg")
    impossible = run("bandido", "close", HOLE, "--json")
    doc = json.loads(impossible.out)
    assert impossible.code == 1
    assert doc["answer"] == "impossible"
    assert "one-cell hole" in doc["reason"]
    assert doc["certificate"] is None
    assert run("bandido", "close", START, "--max-cards", "2").code == 1
    unknown = run("bandido", "close", "bandido super6@0,0,0", "--node-limit", "1", "--json")
    doc = json.loads(unknown.out)
    assert unknown.code == 3
    assert doc["status"] == "unknown"
    assert "node limit" in doc["reason"]
    assert doc["limits"]["node_limit"] == 1
    text = run("bandido", "close", START, "--minimum")
    assert text.lines[0].startswith("closable: ")
    assert text.lines[1].startswith("  1. ")


def test_close_reads_files_and_json_text(tmp_path: Path) -> None:
    from banditsolve.tunnels import parse_position, to_json

    document = json.dumps(to_json(parse_position(START)))
    f = tmp_path / "p.json"
    f.write_text(document)
    for source in (str(f), document):
        assert run("bandido", "close", source, "--max-cards", "2").code == 1
    for args in (["--bounds", "1,2"], ["--workers", "0"], ["--backend", "bogus"]):
        bad = run("bandido", "close", START, *args)
        assert bad.code == 2
        assert bad.err.startswith("banditsolve: error: ")


def test_numbers_on_the_command_line_take_the_digits_0_to_9_only() -> None:
    """Python's int() reads other scripts' digits (``'\u0663'`` is 3) and fails on others
    (``'\u00b3'``) with its own words: every number is refused in one line instead."""
    for args in (
        ["--max-cards", "\u0663"],
        ["--bounds=\u0660,0,1,1"],
        ["--time-limit", "\u0663"],
        ["--workers", "\uff12"],
    ):
        bad = run("bandido", "close", START, *args)
        assert bad.code == 2, args
        assert bad.err.count("\n") == 1
        assert bad.err.startswith("banditsolve: error: "), args
    for count in ("\u00b3", "\u0663"):
        bad = run("bandido", "close", f"bandido super6@0,0,0 | L*{count}")
        assert bad.code == 2
        assert "the count N of CARD*N must be between 1 and 999" in bad.err


@needs_game
@rules("BD-TURN-1", "BD-END-1")
def test_play_and_demo_commands(tmp_path: Path) -> None:
    result = run("bandido", "play", "--seed", "0", "--players", "2", "--svg-dir", str(tmp_path),
                 "--json")
    doc = json.loads(result.out)
    assert result.code == 0
    assert doc["outcome"] is not None
    assert len(list(tmp_path.glob("step-*.svg"))) == len(doc["steps"]) + 1
    one = run("bandido", "play", "--seed", "3", "--players", "1")
    assert one.code == 0
    assert "result:" in one.out
    demo = run("bandido", "demo", "--out", str(tmp_path / "demo"))
    assert demo.code == 0
    assert "closable" in demo.out
    assert "one-cell hole" in demo.out
    said = [line for line in demo.lines if line.startswith(("==", "picture:", "closable:",
                                                            "impossible:", "win:", "o tunnel"))]
    assert len(said) == len(set(said))
    assert len(said) >= 7


@needs_game
@rules("BD-SOLVE-1")
def test_solve_answers_and_exit_codes(tmp_path: Path) -> None:
    from banditsolve.tunnels import load_puzzles

    documents = {p.id: p.document for p in load_puzzles() if p.document is not None}
    f = tmp_path / "win.json"
    f.write_text(json.dumps(dict(documents["game-win-1"])))
    won = run("bandido", "solve", str(f), "--json")
    doc = json.loads(won.out)
    assert won.code == 0
    assert (doc["question"], doc["answer"]) == ("solve", "win")
    assert doc["certificate"]
    assert all(isinstance(a, str) for a in doc["certificate"])
    lost = run("bandido", "solve", json.dumps(dict(documents["game-lose-1"])))
    assert lost.code == 1
    assert lost.out.startswith("lose: ")
    cut = run("bandido", "solve", str(f), "--node-limit", "1")
    assert cut.code == 3
    assert cut.out.startswith("unknown: ")
    state = _state_notation()
    assert run("bandido", "solve", state, "--time-limit", "0.5").code in (0, 1, 3)
