"""Pictures of a Los Banditos position: ASCII for the terminal, SVG (standard library only)."""

from __future__ import annotations

from xml.sax.saxutils import escape

from banditsolve.banditos.combos import describe, rank
from banditsolve.banditos.dice import COLOUR_LETTERS, Die
from banditsolve.banditos.state import MAX_SIDE, State


def _side_text(dice: tuple[Die, ...]) -> str:
    cells = [str(d) for d in dice] + ["..."[:2]] * (MAX_SIDE - len(dice))
    return " ".join(cells)


def _status(state: State) -> str:
    if state.winner is not None:
        return f"game over: player {state.winner} wins"
    if state.reveal_pending:
        return f"chance: turn up a tile (player {state.to_move}'s turn)"
    if state.roll_pending:
        dice = "1 die" if state.dice_to_draw == 1 else f"{state.dice_to_draw} dice"
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
    return "\n".join(lines)


_FILL = {"k": "#222222", "g": "#2e8b3d", "r": "#c0392b", "b": "#2c5fb3"}


def _die_svg(die: Die | None, x: float, y: float, size: float = 30) -> str:
    if die is None:
        return (
            f'<rect x="{x}" y="{y}" width="{size}" height="{size}" rx="5" fill="none" '
            'stroke="#bbbbbb" stroke-dasharray="3 3"/>'
        )
    fill = _FILL[COLOUR_LETTERS[die.colour]]
    return (
        f'<g><title>{die}</title><rect x="{x}" y="{y}" width="{size}" height="{size}" rx="5" '
        f'fill="{fill}" stroke="#000000"/><text x="{x + size / 2}" y="{y + size * 0.7}" '
        f'font-size="{size * 0.6:.0f}" text-anchor="middle" fill="#ffffff" '
        f'font-family="sans-serif" font-weight="bold">{die.value}</text></g>'
    )


def svg_picture(state: State) -> str:
    """An SVG drawing of the position (a string; no third-party libraries)."""
    width, row_h, top = 460, 56, 76
    height = top + 4 * row_h + 60
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
        f'viewBox="0 0 {width} {height}">',
        f'<rect width="{width}" height="{height}" fill="#f7f1e3"/>',
        f'<text x="10" y="20" font-family="sans-serif" font-size="13">'
        f"{escape(_status(state))}</text>",
        f'<text x="10" y="40" font-family="sans-serif" font-size="13">'
        f"P1: {state.scores[1]} points   |   P0: {state.scores[0]} points   |   "
        f"stack: {state.stack_size}</text>",
    ]
    for label, x in (("player 1", width / 2 - 84), ("player 0", width / 2 + 84)):
        parts.append(
            f'<text x="{x}" y="{top - 8}" font-family="sans-serif" font-size="12" '
            f'text-anchor="middle" fill="#555555">{label}</text>'
        )
    for index, tile in enumerate(state.row):
        y = top + index * row_h
        cx = width / 2
        parts.append(
            f'<text x="12" y="{y + 26}" font-family="sans-serif" font-size="12" '
            f'fill="#555555">{index + 1}</text>'
        )
        if tile is None:
            parts.append(
                f'<rect x="{cx - 22}" y="{y}" width="44" height="44" rx="6" fill="none" '
                'stroke="#bbbbbb" stroke-dasharray="4 3"/>'
            )
            continue
        parts.append(
            f'<g><title>tile worth {tile.value}</title><rect x="{cx - 22}" y="{y}" width="44" '
            f'height="44" rx="6" fill="#d4a017" stroke="#7a5c00"/><text x="{cx}" y="{y + 30}" '
            'font-family="sans-serif" font-size="22" text-anchor="middle" '
            f'font-weight="bold">{tile.value}</text></g>'
        )
        for player, direction in ((1, -1), (0, 1)):
            side = tile.sides[player]
            for k in range(MAX_SIDE):
                die = side[k] if k < len(side) else None
                offset = 32 + k * 36
                x = cx + offset if direction > 0 else cx - offset - 30
                parts.append(_die_svg(die, x, y + 7))
    y = top + 4 * row_h + 10
    parts.append(
        f'<text x="10" y="{y + 20}" font-family="sans-serif" font-size="13">'
        f"player {state.to_move} hand:</text>"
    )
    for k, die in enumerate(state.hand):
        parts.append(_die_svg(die, 120 + k * 36, y, 30))
    parts.append("</svg>")
    return "\n".join(parts)
