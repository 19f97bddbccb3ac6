"""``banditsolve GAME puzzles`` and ``banditsolve GAME puzzle ID [--solve] [--svg OUT]``: every
shipped puzzle listed, its position drawn, its answer found by the solver, checked against the
stored one and drawn; an unknown id refused in one line; a disagreement reported as a bug."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from dataclasses import replace
from importlib import resources
from pathlib import Path
from typing import Any

import pytest

from tests.cli_runner import run

#: Each game's puzzle file, read here on its own (not through the library's loaders).
FILES = {
    "banditos": ("banditsolve.banditos", "puzzles.json"),
    "rolling": ("banditsolve.rolling", "puzzles.json"),
    "bandido": ("banditsolve.tunnels", "puzzles.json"),
    "bandida": ("banditsolve.tunnels", "bandida_puzzles.json"),
}
SVG = "{http://www.w3.org/2000/svg}svg"


def stored(game: str) -> list[dict[str, Any]]:
    package, name = FILES[game]
    text = resources.files(package).joinpath("data", name).read_text(encoding="utf-8")
    entries: list[dict[str, Any]] = json.loads(text)
    return entries


def stored_answer(game: str, puzzle_id: str) -> Any:
    (entry,) = [e for e in stored(game) if e["id"] == puzzle_id]
    return entry.get("answer", entry.get("expected"))


def svg_root(path: Path) -> ET.Element:
    root = ET.parse(path).getroot()
    assert root.tag == SVG
    return root


@pytest.mark.parametrize("game", sorted(FILES))
def test_the_list_names_every_puzzle_with_its_title_and_question(game: str) -> None:
    result = run(game, "puzzles", "--json")
    assert result.code == 0, result.err
    listed = json.loads(result.out)
    entries = stored(game)
    assert [row["id"] for row in listed] == [e["id"] for e in entries]
    assert [row["title"] for row in listed] == [e["description"] for e in entries]
    assert all(row["question"].strip() for row in listed)
    text = run(game, "puzzles")
    assert text.code == 0
    assert text.lines[0].startswith(f"{len(entries)} puzzles")
    for entry in entries:
        assert any(line.startswith(entry["id"]) and entry["description"] in line
                   for line in text.lines)


def test_a_puzzle_shows_its_position(tmp_path: Path) -> None:
    from banditsolve.core.registry import load_game

    entry = stored("banditos")[0]
    out = tmp_path / "position.svg"
    result = run("banditos", "puzzle", entry["id"], "--svg", str(out))
    assert result.code == 0, result.err
    assert result.lines[0] == f"{entry['id']}: {entry['description']}"
    assert entry["position"] in result.lines
    game = load_game("banditos")
    assert game.ascii(game.read_state(entry["position"])) in result.out
    svg_root(out)
    assert "verified" not in result.out  # nothing solved without --solve


#: One puzzle of each question.
SOLVED = [
    ("banditos", "claim-sixes-need-bag"),
    ("banditos", "odds-third-one"),
    ("banditos", "best-give-up-to-win"),
    ("rolling", "lay-4"),
    ("rolling", "safe-8"),
    ("rolling", "trunk-only"),
    ("rolling", "ambush-two"),
    ("rolling", "bomb-steal"),
    ("bandido", "counting-1"),
    ("bandido", "min-2"),
    ("bandido", "game-win-2"),
    ("bandida", "close-mode2-ladder"),
    ("bandida", "solve-ladder-win-m2"),
]


@pytest.mark.parametrize(("game", "puzzle_id"), SOLVED)
def test_solve_gives_the_stored_answer_verified_and_drawn(
    game: str, puzzle_id: str, tmp_path: Path
) -> None:
    out = tmp_path / "answer.svg"
    result = run(game, "puzzle", puzzle_id, "--solve", "--json", "--svg", str(out))
    assert result.code == 0, result.err
    payload = json.loads(result.out)
    assert payload["verified"] is True
    assert payload["unknown"] is False
    expected = stored_answer(game, puzzle_id)
    assert payload["expected"] == expected
    assert payload["answer"] == expected  # the solver's own answer, as stored
    svg_root(out)
    text = run(game, "puzzle", puzzle_id, "--solve")
    assert text.code == 0
    assert text.lines[-1] == "verified: the solver's answer is the stored one"


def test_a_closure_answer_draws_the_cards_it_lays(tmp_path: Path) -> None:
    position, answer = tmp_path / "position.svg", tmp_path / "answer.svg"
    assert run("bandido", "puzzle", "min-2", "--svg", str(position)).code == 0
    assert run("bandido", "puzzle", "min-2", "--solve", "--svg", str(answer)).code == 0
    # The answer's table holds the four cards the closure lays on top of the position's.
    drawn = [len(list(svg_root(p).iter())) for p in (position, answer)]
    assert drawn[1] > drawn[0]


def test_an_answer_that_draws_itself_is_drawn_so(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from banditsolve.rolling.solvers.verdict import Safety

    picture = '<svg xmlns="http://www.w3.org/2000/svg"><text>the verdict</text></svg>'
    monkeypatch.setattr(Safety, "_repr_svg_", lambda self: picture, raising=False)
    out = tmp_path / "answer.svg"
    assert run("rolling", "puzzle", "safe-8", "--solve", "--svg", str(out)).code == 0
    assert [t.text for t in svg_root(out).iter("{http://www.w3.org/2000/svg}text")] == [
        "the verdict"]


def test_an_unknown_id_is_refused_in_one_line() -> None:
    result = run("rolling", "puzzle", "no-such-puzzle", "--solve")
    assert result.code == 2
    assert result.out == ""
    assert result.err.count("\n") == 1
    assert "no puzzle 'no-such-puzzle'" in result.err
    assert "banditsolve rolling puzzles" in result.err


def test_an_answer_that_disagrees_with_the_stored_one_is_a_bug(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from banditsolve.banditos import puzzles
    from banditsolve.banditos.puzzles import load_puzzles

    wrong = [replace(p, answer={"above": "1/2", "equal": "0", "below": "1/2"})
             if p.id == "odds-third-one" else p for p in load_puzzles()]
    monkeypatch.setattr(puzzles, "load_puzzles", lambda: wrong)
    result = run("banditos", "puzzle", "odds-third-one", "--solve")
    assert result.code == 70
    assert result.out == ""
    assert "internal error" in result.err
    assert "odds-third-one" in result.err
