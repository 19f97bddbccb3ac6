"""Pictures of a Los Banditos position: ASCII for the terminal, SVG (built with
:class:`banditsolve.core.svg.Svg`, escaped by construction).

Loading this module registers both pictures with the state
(:func:`~banditsolve.banditos.state.register_pictures`): ``print(state)`` draws the ASCII picture
and a notebook shows the SVG (``_repr_svg_``). The package imports it."""

from __future__ import annotations

import xml.etree.ElementTree as ET

from banditsolve.banditos.combos import describe, rank
from banditsolve.banditos.dice import COLOUR_LETTERS, COLOURS, Die
from banditsolve.banditos.state import MAX_SIDE, State, register_pictures
from banditsolve.core.svg import Attrs, Svg
from banditsolve.core.text import plural


def _side_text(dice: tuple[Die, ...]) -> str:
    cells = [str(d) for d in dice] + ["..."[:2]] * (MAX_SIDE - len(dice))
    return " ".join(cells)


def _status(state: State) -> str:
    if state.winner is not None:
        return f"game over: player {state.winner} wins"
    if state.reveal_pending:
        return f"chance: turn up a tile (player {state.to_move}'s turn)"
    if state.roll_pending:
        dice = plural(state.dice_to_draw, "die", "dice")
        return f"chance: player {state.to_move} draws {dice}"
    if state.rolled:
        hand = " ".join(str(d) for d in state.hand) or "all placed"
        return f"player {state.to_move} to move, rolled dice to place: {hand}"
    extra = " (opening turn: one die)" if state.opening else ""
    return f"player {state.to_move} to move, before rolling{extra}"


def ascii_picture(state: State) -> str:
    """A fixed-width drawing: player 1's sides on the left, tiles in the middle, player 0's on
    the right; a ``*`` marks a full side (it completed first)."""
    s0, s1 = state.scores
    won = ["+".join(str(v) for v in w) or "-" for w in state.won]
    bag = " ".join(f"{c}{n}" for c, n in zip(COLOUR_LETTERS, state.bag, strict=True))
    lines = [
        f"Los Banditos | {_status(state)}",
        f"score  P0 {s0} ({won[0]})  P1 {s1} ({won[1]})  |  stack {state.stack_size}"
        f"  |  bag {bag}",
        "slot   player 1       tile   player 0",
    ]
    for number, tile in enumerate(state.row, start=1):
        if tile is None:
            lines.append(f"  {number}                  ( )")
            continue
        marks = ["*" if len(side) == MAX_SIDE else " " for side in tile.sides]
        lines.append(
            f"  {number}   {_side_text(tile.sides[1])} {marks[1]}   [{tile.value}]   "
            f"{_side_text(tile.sides[0])} {marks[0]}".rstrip()
        )
        for player in (0, 1):
            side = tile.sides[player]
            if len(side) == MAX_SIDE:
                lines.append(f"       P{player}: {describe(rank(side))}")
    if state.options.changed():
        lines.append(f"rule options: {_options_text(state)}")
    return "\n".join(lines)


def _options_text(state: State) -> str:
    return " ".join(f"{name}={value}" for name, value in state.options.changed().items())


_FILL = {"k": "#222222", "g": "#2e8b3d", "r": "#c0392b", "b": "#2c5fb3"}
FONT = "sans-serif"
_GREY = "#555555"
_DIE = 30


def draw_die(doc: Svg, die: Die | None, x: float, y: float, size: float = _DIE, *,
             parent: ET.Element | None = None, attrs: Attrs | None = None) -> None:
    """A die at ``(x, y)`` in a ``<g>`` (with ``attrs``) titled by its text, under ``parent``;
    ``None`` draws an empty place (a dashed square)."""
    if die is None:
        doc.add(
            "rect",
            {"x": x, "y": y, "width": size, "height": size, "rx": 5, "fill": "none",
             "stroke": "#bbbbbb", "stroke_dasharray": "3 3"},
            parent=parent,
        )
        return
    group = doc.group(attrs, title=str(die), parent=parent)
    doc.add(
        "rect",
        {"x": x, "y": y, "width": size, "height": size, "rx": 5,
         "fill": _FILL[COLOUR_LETTERS[die.colour]], "stroke": "#000000"},
        parent=group,
    )
    doc.add(
        "text",
        {"x": x + size / 2, "y": y + size * 0.7, "font_size": round(size * 0.6),
         "text_anchor": "middle", "fill": "#ffffff", "font_family": FONT,
         "font_weight": "bold"},
        text=str(die.value),
        parent=group,
    )


def _text(doc: Svg, x: float, y: float, text: str, size: int = 13, **attrs: str) -> None:
    doc.add("text", {"x": x, "y": y, "font_family": FONT, "font_size": size, **attrs}, text=text)


def svg_picture(state: State) -> str:
    """An SVG drawing of the position: the status, scores, stack and bag, every tile with both
    sides (a full side framed, with its combination's name), and the dice still in hand."""
    width, row_h, top = 520, 66, 104
    height = top + 4 * row_h + (56 if state.hand else 12)
    doc = Svg(width, height, title=f"Los Banditos: {_status(state)}", background="#f7f1e3")
    _draw_header(doc, state)
    cx = width / 2
    for label, x in (("player 1", cx - 84), ("player 0", cx + 84)):
        _text(doc, x, top - 10, label, 12, text_anchor="middle", fill=_GREY)
    for index, tile in enumerate(state.row):
        y = top + index * row_h
        _text(doc, 12, y + 26, str(index + 1), 12, fill=_GREY)
        if tile is None:
            doc.add("rect", {"x": cx - 22, "y": y, "width": 44, "height": 44, "rx": 6,
                             "fill": "none", "stroke": "#bbbbbb", "stroke_dasharray": "4 3"})
            continue
        group = doc.group(title=f"tile worth {tile.value}")
        doc.add("rect", {"x": cx - 22, "y": y, "width": 44, "height": 44, "rx": 6,
                         "fill": "#d4a017", "stroke": "#7a5c00"}, parent=group)
        doc.add("text", {"x": cx, "y": y + 30, "font_family": FONT, "font_size": 22,
                         "text_anchor": "middle", "font_weight": "bold"},
                text=str(tile.value), parent=group)
        for player, direction in ((1, -1), (0, 1)):
            _draw_side(doc, tile.sides[player], player, direction, cx, y)
    if state.hand:
        y = top + 4 * row_h + 10
        _text(doc, 10, y + 20, f"player {state.to_move} to place:")
        for k, die in enumerate(state.hand):
            draw_die(doc, die, 150 + k * 36, y)
    return doc.to_string()


def _draw_header(doc: Svg, state: State) -> None:
    """The picture's top lines: the status, the scores with the tiles won, the stack, the
    changed rule options and the bag."""
    _text(doc, 10, 20, _status(state))
    won = ["+".join(str(v) for v in w) or "none" for w in state.won]
    _text(
        doc, 10, 40,
        f"P1: {state.scores[1]} points ({won[1]})   |   P0: {state.scores[0]} points "
        f"({won[0]})   |   stack: {state.stack_size} face down",
    )
    if state.options.changed():
        _text(doc, 300, 64, f"rule options: {_options_text(state)}", 12, fill=_GREY)
    _text(doc, 10, 64, "bag:")
    bag = doc.group(title="bag: " + " ".join(
        f"{n} {colour.name.lower()}" for colour, n in zip(COLOURS, state.bag, strict=True)
    ))
    for k, (letter, n) in enumerate(zip(COLOUR_LETTERS, state.bag, strict=True)):
        bx = 46 + k * 52
        doc.add("rect", {"x": bx, "y": 50, "width": 18, "height": 18, "rx": 3,
                         "fill": _FILL[letter], "stroke": "#000000"}, parent=bag)
        doc.add("text", {"x": bx + 23, "y": 64, "font_family": FONT, "font_size": 13},
                text=f"×{n}", parent=bag)


def _draw_side(
    doc: Svg, side: tuple[Die, ...], player: int, direction: int, cx: float, y: float
) -> None:
    """One player's side of the tile in the row at height ``y``: its dice and empty places
    outward from the tile (``direction`` -1 to the left, 1 to the right of ``cx``), a full side
    framed with its combination's name."""
    near: float = cx + 32 if direction > 0 else cx - 32 - (MAX_SIDE * 36 - 6)
    if len(side) == MAX_SIDE:
        name = describe(rank(side))
        frame = doc.group(title=f"player {player}'s side is full: {name}")
        doc.add("rect", {"x": near - 4, "y": y + 3, "width": MAX_SIDE * 36 + 2,
                         "height": _DIE + 8, "rx": 6, "fill": "none",
                         "stroke": "#7a5c00", "stroke_width": 2}, parent=frame)
        doc.add("text", {"x": near + (MAX_SIDE * 36 - 6) / 2, "y": y + 56,
                         "font_family": FONT, "font_size": 11,
                         "text_anchor": "middle", "fill": "#333333"},
                text=f"full: {name}", parent=frame)
    for k in range(MAX_SIDE):
        die = side[k] if k < len(side) else None
        offset = 32 + k * 36
        x = cx + offset if direction > 0 else cx - offset - _DIE
        draw_die(doc, die, x, y + 7)


register_pictures(ascii_picture, svg_picture)
