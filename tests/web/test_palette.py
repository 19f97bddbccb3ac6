"""The position editor's palette: what each game's box holds (issue 30).

The counts are checked against the component facts (``../shared/reference/components.md``,
written down here as numbers, not read from the library): Bandido's 69 tunnel cards in 31
types, Bandida's 69 deck cards (70 with the super card) with 12 special cards and the ladder,
Los Banditos' ten booty tiles worth 19 points and 24 dice, Rolling Bandits' locomotive, 16
wagons, 21 trunk tiles and 28 dice. Every card name the palette offers is one the game's reader
takes, and the page embeds the palette.
"""

from __future__ import annotations

import json
import re
from collections import Counter

import pytest

from banditsolve.tunnels.cards import parse_card
from banditsolve.web import page, palette

#: The certain facts of components.md, by game.
BANDIDO_CARDS, BANDIDO_TYPES = 69, 31
BANDIDO_DEAD_ENDS = {"L", "TL", "TR", "L+TL", "L+BL", "TL+BL", "L+TL+BL"}
BANDIDA_SPECIAL = 12
TILES = {1: 4, 2: 3, 3: 3}
LB_DICE, LB_COLOURS = 24, 4
RB_WAGONS, RB_TRUNKS, RB_DICE, RB_SYMBOLS = 16, 21, 28, 5


def test_the_bandido_palette_is_the_69_card_deck() -> None:
    box = palette.box("bandido")
    assert box is not None
    counts = {c["card"]: c["count"] for c in box["cards"]}
    assert sum(counts.values()) == BANDIDO_CARDS == box["size"]
    assert len(counts) == BANDIDO_TYPES
    assert {c for c, n in counts.items() if n == 3} == BANDIDO_DEAD_ENDS
    assert set(counts.values()) == {2, 3}
    assert box["modes"] == []
    assert set(box["super"]) == {"super6", "super5"}


def test_the_bandida_palette_has_its_objects_alarms_and_ladder_by_mode() -> None:
    box = palette.box("bandida")
    assert box is not None
    kinds = Counter(c["kind"] for c in box["cards"] for _ in range(c["count"]))
    in_box = [c for c in box["cards"] if not c.get("extra")]
    # the box says 70 with the super card; the ladder takes one copy of L
    assert sum(c["count"] for c in in_box) == box["size"] == BANDIDO_CARDS
    specials = sum(n for kind, n in kinds.items()
                   if kind not in ("tunnel", "ladder", "bandido_super"))
    assert specials == BANDIDA_SPECIAL
    ladder = next(c for c in box["cards"] if c["kind"] == "ladder")
    assert ladder["modes"] == [2, 3]
    assert box["modes"] == [1, 2, 3]
    for entry in box["cards"]:  # every name the editor writes is a card the reader takes
        name = entry["card"] if entry["kind"] == "tunnel" else f"{entry['card']}:{entry['kind']}"
        assert parse_card(name) >= 0


def test_the_los_banditos_palette_is_ten_tiles_and_24_dice() -> None:
    box = palette.box("banditos")
    assert box is not None
    assert {t["value"]: t["count"] for t in box["tiles"]} == TILES
    assert sum(t["value"] * t["count"] for t in box["tiles"]) == 19
    assert len(box["dice"]) == LB_COLOURS
    assert sum(d["count"] for d in box["dice"]) == LB_DICE
    assert [d["colour"] for d in box["dice"]] == ["k", "g", "r", "b"]


def test_the_rolling_palette_is_the_train_the_trunks_and_the_dice() -> None:
    box = palette.box("rolling")
    assert box is not None
    assert sum(w["count"] for w in box["wagons"]) == RB_WAGONS
    assert box["locomotive"]["count"] == 1
    assert {w["need"] for w in box["wagons"]} == {1, 2, 3, 4}
    assert box["locomotive"]["need"] == 5
    assert sum(s["trunks"] for s in box["symbols"]) == RB_TRUNKS
    assert len(box["symbols"]) == RB_SYMBOLS
    assert box["dice_per_colour"] * len(box["players"]) == RB_DICE


def test_a_game_without_a_palette_has_none() -> None:
    assert palette.box("no-such-game") is None


@pytest.mark.parametrize("game", sorted(palette.BOXES))
def test_each_board_embeds_its_palette_and_its_editor(game: str) -> None:
    html = page.board(game, tuple(palette.BOXES))
    found = re.search(r"<script type='application/json' id='box'>(.*?)</script>", html, re.S)
    assert found is not None
    assert json.loads(found.group(1)) == palette.box(game)
    assert "id='editor'" in html
    assert "startEditor(" in html


def test_the_pages_own_files_ship_as_package_data() -> None:
    """Every file of ``web/static/`` (inlined into the pages) matches a package-data pattern
    of pyproject.toml, so a wheel holds it."""
    import fnmatch
    import tomllib
    from pathlib import Path

    root = Path(__file__).resolve().parents[2]
    table = tomllib.loads((root / "pyproject.toml").read_text(encoding="utf-8"))
    patterns = table["tool"]["setuptools"]["package-data"]["banditsolve"]
    package = root / "src" / "banditsolve"
    files = sorted((package / "web" / "static").iterdir())
    assert files
    for path in files:
        name = path.relative_to(package).as_posix()
        assert any(fnmatch.fnmatch(name, p) for p in patterns), name
