"""Bandida's answers drawn (issue 28): an endgame's line through its objects as a strip of
numbered tables, and mode 2's closure with the ladder named in the legend."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from pathlib import Path

from banditsolve.tunnels import Placement, min_cards_to_close, solve_game
from banditsolve.tunnels.game import BANDIDA
from banditsolve.tunnels.rules import apply
from banditsolve.tunnels.solvers.bandida_puzzles import load_bandida_puzzles
from banditsolve.tunnels.state import WON
from tests.cli_runner import run
from tests.rules import rules

NS = "{http://www.w3.org/2000/svg}"
LADDER = "bandida L+TL+TR+R+BR+BL@0,0,0 | L:ladder L*2 TL*2 L+TL TL+BL R+BR"


def groups(root: ET.Element, cls: str) -> list[ET.Element]:
    return [g for g in root.iter(f"{NS}g") if cls in (g.get("class") or "").split()]


def texts(element: ET.Element) -> list[str]:
    return [t.text or "" for t in element.iter(f"{NS}text")]


@rules("BA-SOLVE-1", "BA-NOTE-3")
def test_a_bandida_winning_line_is_a_strip_replayed_by_the_rules(tmp_path: Path) -> None:
    puzzle = next(p for p in load_bandida_puzzles() if p.id == "solve-broken-tool-decides-m1")
    state = puzzle.state()
    result = solve_game(state)
    assert result.status == "win"
    frames = groups(ET.fromstring(result._repr_svg_()), "frame")
    assert len(frames) == len(result.line) + 1
    s = state
    for k, (frame, move) in enumerate(zip(frames[1:], result.line, strict=True), 1):
        while s.is_chance:  # (the solver's line takes a chance node's first outcome)
            s = apply(s, BANDIDA.chance_outcomes(s)[0][0])
        s = apply(s, move.action)
        assert texts(frame)[-1].startswith(f"{k}. turn {move.turn}, player {move.player}: ")
        numbered = [g for g in groups(frame, "card") if g.get("data-step") is not None]
        laid = sum(isinstance(m.action, Placement) for m in result.line[:k])
        assert len(numbered) == laid
    assert s.outcome == WON
    doc = tmp_path / "game.json"
    doc.write_text(json.dumps(BANDIDA.to_json(state)), encoding="utf-8")
    out = tmp_path / "line.svg"
    shown = run("bandida", "solve", str(doc), "--svg", str(out))
    assert shown.code == 0
    assert len(groups(ET.fromstring(out.read_text(encoding="utf-8")), "frame")) == len(frames)


@rules("BA-NOTE-3")
def test_mode_2_s_closure_names_the_ladder_in_its_legend(tmp_path: Path) -> None:
    position = BANDIDA.read_position(LADDER, mode=2)
    result = min_cards_to_close(position, goal="ladder")
    assert result.status == "closable"
    root = ET.fromstring(result._repr_svg_())
    legend = {
        int(g.get("data-step", "0")): " ".join(texts(g))
        for g in groups(root, "legend")
        if g.get("data-step")
    }
    assert sorted(legend) == list(range(1, result.cards + 1))
    ladders = [n for n, p in enumerate(result.placements, 1) if ":ladder" in str(p)]
    assert len(ladders) == 1
    assert [n for n, line in legend.items() if "[ladder]" in line] == ladders
    out = tmp_path / "ladder.svg"
    assert run("bandida", "close", LADDER, "--mode", "2", "--svg", str(out)).code == 0
    ET.fromstring(out.read_text(encoding="utf-8"))
