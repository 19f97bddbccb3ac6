"""The tunnel answers' pictures in docs/pictures/ are what the library draws today.

Regenerate them with ``python -m tests.tunnels.test_doc_pictures``."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent.parent
PICTURES_DIR = ROOT / "docs" / "pictures"

#: The README's closing example, its impossible twin (an exit walled into a hole), and a
#: Bandida closure through a map's removal.
CLOSING = "bandido L+TL+TR+R+BR+BL@0,0,0 | L*2 TL*2 L+TL TL+BL R+BR"
HOLE = "bandido L+TL+TR+R+BR+BL@0,0,0 L+BR@-1,-1,0 TL@-2,-1,90 TR@-1,1,0 | L*3 TL+BL*2"
THROUGH_MAP = (
    "bandida L+TL+TR+R+BR+BL@0,0,0 L+R@-2,0,0 L@0,-1,270 TR@2,1,270"
    " | L+TL+TR:map L+BL L+BL L TL+TR"
)


def bandido_close() -> str:
    from banditsolve.tunnels import min_cards_to_close, parse_position

    return min_cards_to_close(parse_position(CLOSING), backend="exact")._repr_svg_()


def bandido_impossible() -> str:
    from banditsolve.tunnels import can_close, parse_position

    return can_close(parse_position(HOLE), backend="exact")._repr_svg_()


def bandido_solve() -> str:
    from banditsolve.tunnels import load_puzzles, solve_game

    puzzle = next(p for p in load_puzzles() if p.id == "game-win-2")
    return solve_game(puzzle.state())._repr_svg_()


def bandida_close_map() -> str:
    from banditsolve.tunnels import can_close, parse_position

    return can_close(parse_position(THROUGH_MAP), backend="exact")._repr_svg_()


PICTURES: dict[str, Callable[[], str]] = {
    "bandido-close.svg": bandido_close,
    "bandido-impossible.svg": bandido_impossible,
    "bandido-solve.svg": bandido_solve,
    "bandida-close-map.svg": bandida_close_map,
}


@pytest.mark.parametrize("name", sorted(PICTURES))
def test_pictures_are_current(name: str) -> None:
    path = PICTURES_DIR / name
    assert path.read_text(encoding="utf-8") == PICTURES[name](), (
        f"docs/pictures/{name} is stale: regenerate it with"
        " `python -m tests.tunnels.test_doc_pictures`"
    )


if __name__ == "__main__":
    PICTURES_DIR.mkdir(parents=True, exist_ok=True)
    for name, draw in PICTURES.items():
        (PICTURES_DIR / name).write_text(draw(), encoding="utf-8")
        print(f"wrote docs/pictures/{name}")
