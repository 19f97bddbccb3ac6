"""What the box holds, for the board's position editor: the palette a position is clicked
together from (issue 30).

:func:`box` gives, for each game, the components of its edition as plain JSON: the tunnel
deck (every card type with its count, kind and modes, and the super card's sides), the booty
tiles and dice of Los Banditos, the wagons, dice and trunks of Rolling Bandits. The page
embeds it; the editor shows each component with the count that remains (the box's count less
the copies the position being set up already holds). What a position may hold is not said
here: the position the editor writes is checked by the game's own reader through the API,
whose one-line error the page shows.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from typing import Any


def _tunnels(edition: str) -> dict[str, Any]:
    from banditsolve.tunnels.cards import load_deck

    deck = load_deck(edition)
    data = deck.to_json()
    return {"kind": "tunnels", "edition": edition, "size": deck.size,
            "modes": list(deck.game_modes), "super": data["super"], "cards": data["cards"]}


def _banditos() -> dict[str, Any]:
    from banditsolve.banditos.dice import COLOUR_LETTERS, COLOURS, DICE_PER_COLOUR
    from banditsolve.banditos.state import SLOTS, TILE_COUNTS, TILE_VALUES

    return {"kind": "banditos", "slots": SLOTS,
            "tiles": [{"value": v, "count": n} for v, n in zip(TILE_VALUES, TILE_COUNTS,
                                                                strict=True)],
            "dice": [{"colour": COLOUR_LETTERS[c], "name": c.name.lower(),
                      "count": DICE_PER_COLOUR} for c in COLOURS],
            "values": list(range(1, 7))}


def _rolling() -> dict[str, Any]:
    from banditsolve.rolling.edition import COLOUR_FILLS, COLOURS, LETTERS, SYMBOLS, lookup

    edition = lookup("default")
    wagons = Counter(edition.wagons)
    trunks = Counter(SYMBOLS[t.symbol] for t in edition.trunks)
    return {"kind": "rolling", "edition": edition.name,
            "locomotive": {"need": edition.locomotive.need,
                           "points": edition.locomotive.points, "count": 1},
            "wagons": [{"need": w.need, "points": w.points, "count": n}
                       for w, n in wagons.items()],
            "dice_per_colour": edition.dice_per_colour,
            "symbols": [{"name": s, "letter": LETTERS[i], "trunks": trunks[s]}
                        for i, s in enumerate(SYMBOLS)],
            "players": [{"colour": c, "fill": f} for c, f in zip(COLOURS, COLOUR_FILLS,
                                                                   strict=True)]}


#: Each registered game's palette, by the game's name.
BOXES: dict[str, Callable[[], dict[str, Any]]] = {
    "bandido": lambda: _tunnels("bandido"),
    "bandida": lambda: _tunnels("bandida"),
    "banditos": _banditos,
    "rolling": _rolling,
}


def box(game: str) -> dict[str, Any] | None:
    """The components of ``game``'s box as JSON for the editor (None: a game without one)."""
    make = BOXES.get(game)
    return None if make is None else make()
