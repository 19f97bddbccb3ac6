"""Pictures of the table: ASCII for the terminal and SVG (standard library only).

ASCII legend: ``o`` tunnel square, ``*`` flashlight square of a dead end, ``@`` super card;
``|`` and ``---`` walls, ``-`` and ``-|-`` tunnels crossing between cards; ``< > ^ v`` exits (an
opening facing an empty cell, pointing out); ``X`` a one-cell hole an exit runs into; ``!`` an
empty cell faced by an exit that no remaining card can fill.
"""

from __future__ import annotations

from collections.abc import Iterable

from banditsolve.tunnels.cards import PORT_MASK
from banditsolve.tunnels.geometry import STEP, Cell
from banditsolve.tunnels.table import Table, dead_exits


def escape(text: str) -> str:
    """Escape text for SVG content."""
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


LEGEND = "o tunnel  * dead end  @ super card  <>^v exit  X hole  ! unfillable  (x east, y south)"


def _marks(table: Table, remaining: Iterable[int] | None) -> dict[Cell, str]:
    marks: dict[Cell, str] = {}
    pool = None if remaining is None else tuple(remaining)
    for dead in dead_exits(table, pool):
        marks[dead.exit.target] = "X" if dead.reason == "hole" else "!"
    return marks


def _is_super(table: Table, cell: Cell) -> bool:
    index = table.owner(cell)
    return index is not None and (table.history[index].card & PORT_MASK).bit_count() >= 5


def ascii_art(table: Table, remaining: Iterable[int] | None = None, legend: bool = True) -> str:
    """The table drawn in ASCII with coordinates; exits are marked, dead exits flagged."""
    if not table.history:
        return "(empty table)"
    min_x, min_y, max_x, max_y = table.bounds()
    xs = range(min_x - 1, max_x + 2)
    ys = range(min_y - 1, max_y + 2)
    width, height = 4 * len(xs) + 1, 2 * len(ys) + 1
    grid = [[" "] * width for _ in range(height)]
    marks = _marks(table, remaining)

    def occ(c: Cell) -> bool:
        return table.is_occupied(c)

    for j, y in enumerate(ys):
        for i, x in enumerate(xs):
            c = (x, y)
            row, col = 2 * j + 1, 4 * i
            if occ(c):
                open4 = table.open_sides(c)
                partner = table.partner_side(c)
                if _is_super(table, c):
                    centre = "@"
                elif table.is_flashlight(c):
                    centre = "*"
                else:
                    centre = "o"
                grid[row][col + 2] = centre
                if open4 >> 3 & 1 or partner == 3:
                    grid[row][col + 1] = "-"
                if open4 >> 1 & 1 or partner == 1:
                    grid[row][col + 3] = "-"
            elif c in marks:
                grid[row][col + 2] = marks[c]
            # West edge of c.
            w = (x - 1, y)
            grid[row][col] = _vertical(table, w, c)
            # North edge of c.
            n = (x, y - 1)
            grid[row - 1][col + 1 : col + 4] = list(_horizontal(table, n, c))
            if occ(c) or occ(w) or occ(n) or occ((x - 1, y - 1)):
                grid[row - 1][col] = "+"
    header = "    " + "".join(f"{x:>3} " for x in xs)
    lines = [header]
    for r, chars in enumerate(grid):
        label = f"{ys[r // 2]:>3} " if r % 2 else "    "
        lines.append((label + "".join(chars)).rstrip())
    if legend:
        lines.append(LEGEND)
    return "\n".join(lines)


def _vertical(table: Table, west: Cell, east: Cell) -> str:
    ow, oe = table.is_occupied(west), table.is_occupied(east)
    if not ow and not oe:
        return " "
    if ow and oe:
        if table.owner(west) == table.owner(east) or table.open_sides(east) >> 3 & 1:
            return "-"
        return "|"
    if ow:
        return ">" if table.open_sides(west) >> 1 & 1 else "|"
    return "<" if table.open_sides(east) >> 3 & 1 else "|"


def _horizontal(table: Table, north: Cell, south: Cell) -> str:
    on, os_ = table.is_occupied(north), table.is_occupied(south)
    if not on and not os_:
        return "   "
    if on and os_:
        if table.owner(north) == table.owner(south):
            return " | "
        return "-|-" if table.open_sides(south) & 1 else "---"
    if on:
        return "-v-" if table.open_sides(north) >> 2 & 1 else "---"
    return "-^-" if table.open_sides(south) & 1 else "---"


def svg(
    table: Table,
    remaining: Iterable[int] | None = None,
    size: int = 40,
    highlight_from: int | None = None,
) -> str:
    """The table as an SVG document: cards, tunnels, dead ends, exits (red), coordinates.

    ``highlight_from``: placements from this index of the history on (for example the cards of a
    closing sequence) are drawn in green.
    """
    if not table.history:
        return '<svg xmlns="http://www.w3.org/2000/svg" width="80" height="40"></svg>'
    min_x, min_y, max_x, max_y = table.bounds()
    x0, y0 = min_x - 1, min_y - 1
    cols, rows = max_x - min_x + 3, max_y - min_y + 3
    margin = 24
    w, h = cols * size + margin, rows * size + margin
    marks = _marks(table, remaining)
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" '
        f'viewBox="0 0 {w} {h}" font-family="sans-serif" font-size="10">',
        f'<rect x="0" y="0" width="{w}" height="{h}" fill="#f7f4ec"/>',
    ]

    def px(x: int, y: int) -> tuple[float, float]:
        return margin + (x - x0) * size, margin + (y - y0) * size

    for i in range(cols):
        cx, _ = px(x0 + i, y0)
        out.append(
            f'<text x="{cx + size / 2}" y="14" text-anchor="middle" fill="#777">{x0 + i}</text>'
        )
    for j in range(rows):
        _, cy = px(x0, y0 + j)
        out.append(
            f'<text x="12" y="{cy + size / 2 + 4}" text-anchor="middle" fill="#777">{y0 + j}</text>'
        )
    half = size / 2
    tunnel = size * 0.28
    for index, p in enumerate(table.history):
        a, b = p.cells
        ax, ay = px(*a)
        bx, by = px(*b)
        left, top = min(ax, bx), min(ay, by)
        width = abs(ax - bx) + size
        height = abs(ay - by) + size
        fill = "#e8b4a0" if (p.card & PORT_MASK).bit_count() >= 5 else "#d9c7a3"
        if highlight_from is not None and index >= highlight_from:
            fill = "#a8d5a2"
        out.append(
            f"<g><title>{escape(f'placement {index + 1}: {p}')}</title>"
            f'<rect x="{left + 1}" y="{top + 1}" width="{width - 2}" height="{height - 2}" '
            f'rx="4" fill="{fill}" stroke="#6b4f2a" stroke-width="2"/>'
        )
        out.append(
            f'<line x1="{ax + half}" y1="{ay + half}" x2="{bx + half}" y2="{by + half}" '
            f'stroke="#3b2a1a" stroke-width="{tunnel}" stroke-linecap="round"/>'
        )
        for cell, (cx, cy) in ((a, (ax, ay)), (b, (bx, by))):
            open4 = table.open_sides(cell)
            for side in range(4):
                if open4 >> side & 1:
                    dx, dy = STEP[side]
                    ex, ey = cx + half + dx * half, cy + half + dy * half
                    out.append(
                        f'<line x1="{cx + half}" y1="{cy + half}" x2="{ex}" y2="{ey}" '
                        f'stroke="#3b2a1a" stroke-width="{tunnel}"/>'
                    )
            if table.is_flashlight(cell):
                out.append(
                    f'<circle cx="{cx + half}" cy="{cy + half}" r="{size * 0.2}" '
                    f'fill="#ffd93b" stroke="#8a6d00"/>'
                )
        out.append("</g>")
    for opening in sorted(table.exits):
        cx, cy = px(opening.x, opening.y)
        dx, dy = STEP[opening.side]
        mx, my = cx + half + dx * half, cy + half + dy * half
        out.append(
            f'<circle cx="{mx}" cy="{my}" r="{size * 0.16}" fill="#d62828" stroke="#fff">'
            f"<title>exit {escape(str(opening))}</title></circle>"
        )
    for cell, mark in sorted(marks.items()):
        cx, cy = px(*cell)
        colour = "#d62828" if mark == "X" else "#f77f00"
        q = size * 0.25
        out.append(
            f'<path d="M{cx + q},{cy + q} L{cx + size - q},{cy + size - q} '
            f'M{cx + size - q},{cy + q} L{cx + q},{cy + size - q}" stroke="{colour}" '
            f'stroke-width="3"><title>{"hole" if mark == "X" else "unfillable"}</title></path>'
        )
    out.append("</svg>")
    return "\n".join(out)
