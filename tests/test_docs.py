"""The pictures in docs/ (shown in the README) are what the library draws today."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"

BANDITOS_POSITION = "3:k4r5b6:g5g6/2:k1k1:g1g2g3/1:r6r6r6:g4/1:b2b2k3: 123 21:3 0h:r3b4"


def banditos_picture() -> str:
    from banditsolve.banditos import parse_position

    return parse_position(BANDITOS_POSITION).svg()


#: The README's closing example: the start card, then the six cards of its closing certificate.
BANDIDO_CLOSED = (
    "bandido L+TL+TR+R+BR+BL@0,0,0 L@0,1,90 L+TL@1,-1,270 L+TL@0,-1,180 L@-1,0,180 TL@1,1,0 "
    "TL@2,0,270 |"
)


def bandido_picture() -> str:
    from banditsolve.tunnels import parse_position
    from banditsolve.tunnels.render import svg

    return svg(parse_position(BANDIDO_CLOSED).table, highlight_from=1)


PICTURES: dict[str, Callable[[], str]] = {
    "los-banditos.svg": banditos_picture,
    "bandido-closed.svg": bandido_picture,
}


@pytest.mark.parametrize("name", sorted(PICTURES))
def test_pictures_are_current(name: str) -> None:
    path = DOCS / name
    assert path.read_text(encoding="utf-8") == PICTURES[name](), (
        f"docs/{name} is stale: regenerate it with `python -m tests.test_docs`"
    )


if __name__ == "__main__":
    for name, draw in PICTURES.items():
        (DOCS / name).write_text(draw(), encoding="utf-8")
        print(f"wrote docs/{name}")
