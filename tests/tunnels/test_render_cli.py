"""Pictures (ASCII and SVG) and the bandido commands."""

from __future__ import annotations

import argparse
import json
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from banditsolve.errors import BanditsolveError
from banditsolve.tunnels import Table, ascii_art, from_notation, svg
from banditsolve.tunnels import cli as tunnels_cli
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
    assert "<" in row0 and ">" in row0
    assert start.count("^") == 2 and start.count("v") == 2
    five = ascii_art(Table.start("super5"), legend=False)
    assert "<" not in five.splitlines()[3] and five.count("^") == 2
    hole = ascii_art(hole_table(), legend=False)
    assert "X" in hole and "*" in hole  # the hole and the flashlight squares of dead ends
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


def run(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str]:
    parser = argparse.ArgumentParser(prog="banditsolve")
    games = parser.add_subparsers(dest="game")
    tunnels_cli.register(games)
    args = parser.parse_args(argv)
    code = args.handler(args)
    return code, capsys.readouterr().out


@rules("BD-NOTE-1", "BD-NOTE-3")
def test_show_command(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    f = tmp_path / "hole.txt"
    f.write_text(HOLE, encoding="utf-8")
    out_svg = tmp_path / "hole.svg"
    code, out = run(["bandido", "show", str(f), "--svg", str(out_svg)], capsys)
    assert code == 0 and "hole" in out and "X" in out
    ET.fromstring(out_svg.read_text(encoding="utf-8"))
    code, out = run(["bandido", "show", HOLE, "--json"], capsys)
    payload = json.loads(out)
    assert payload["dead_exits"] == [{"x": 0, "y": 0, "side": "W", "reason": "hole"}]
    assert payload["notation"] == HOLE.replace("super6", "L+TL+TR+R+BR+BL")
    with pytest.raises(BanditsolveError):
        run(["bandido", "show", "bandido L@0,0,0"], capsys)


@rules("BD-PLACE-4")
def test_moves_command(capsys: pytest.CaptureFixture[str]) -> None:
    code, out = run(["bandido", "moves", "bandido super6@0,0,0", "L", "--json"], capsys)
    payload = json.loads(out)
    assert code == 0 and payload["card"] == "L" and len(payload["placements"]) == 6
    assert all(p["exits_after"] == 5 for p in payload["placements"])
    code, out = run(["bandido", "moves", "bandido super6@0,0,0", "R+BR"], capsys)
    assert out.startswith("10 legal placements of L+TL")


@rules("BD-TURN-1", "BD-END-1")
def test_play_and_demo_commands(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out = run(
        ["bandido", "play", "--seed", "0", "--players", "2", "--svg-dir", str(tmp_path), "--json"],
        capsys,
    )
    payload = json.loads(out)
    assert code == 0 and payload["outcome"] in ("won", "lost")
    assert payload["turns"] and payload["turns"][0]["player"] == 0
    assert len(list(tmp_path.glob("turn_*.svg"))) == payload["cards_down"]
    code, out = run(["bandido", "play", "--seed", "3", "--players", "1",
                     "--option", "pile_out=end"], capsys)
    assert "result:" in out
    code, out = run(["bandido", "demo"], capsys)
    assert code == 0 and "hole" in out and ("won" in out or "lost" in out)
