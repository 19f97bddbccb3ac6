"""Pictures of the table: ASCII for the terminal and SVG (standard library only).

ASCII legend: ``o`` tunnel square, ``*`` flashlight square of a dead end, ``@`` super card;
``|`` and ``---`` walls, ``-`` and ``-|-`` tunnels crossing between cards; ``< > ^ v`` exits (an
opening facing an empty cell, pointing out); ``X`` a one-cell hole an exit runs into; ``!`` an
empty cell faced by an exit that no remaining card can fill; ``#`` a cell outside the play area
faced by an exit. Bandida's special cards show a letter on a tunnel square (see
:data:`KIND_MARKS`: ``H`` ladder, ``B`` backpack, ``W`` water bottle, ``T`` broken tool, ``D``
dynamite, ``M`` map, ``5`` and ``1`` the alarms) and Bandido's super card in Bandida's mode 3 is
``&``. The SVG is built with :class:`banditsolve.core.svg.Svg` (escaped by
construction) and draws dead exits apart from live ones.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import NamedTuple
from xml.etree.ElementTree import Element

from banditsolve.core.svg import BAR_COLOURS, Svg, wrap
from banditsolve.core.text import plural
from banditsolve.tunnels import state as states
from banditsolve.tunnels import table as tables
from banditsolve.tunnels.cards import PORT_MASK, card_kind, card_name
from banditsolve.tunnels.geometry import STEP, Cell, Placement
from banditsolve.tunnels.state import GameState
from banditsolve.tunnels.table import Area, Exit, Table, dead_exits

LEGEND = (
    "o tunnel  * dead end  @ super card  <>^v exit  X hole  ! unfillable  # off the table"
    "  (x east, y south)"
)
#: The letter of a special card's square (ASCII) and its word and colour (SVG).
KIND_MARKS = {
    "ladder": "H",
    "backpack": "B",
    "water_bottle": "W",
    "broken_tool": "T",
    "dynamite": "D",
    "map": "M",
    "alarm_discard_five": "5",
    "alarm_discard_one": "1",
    "bandido_super": "&",
}
KIND_WORDS = {
    "ladder": ("ladder", "#7fb069"),
    "backpack": ("backpack", "#c9d6ea"),
    "water_bottle": ("water", "#9ad1d4"),
    "broken_tool": ("tool", "#c4b7a6"),
    "dynamite": ("dynamite", "#f4a259"),
    "map": ("map", "#e9d985"),
    "alarm_discard_five": ("alarm 5", "#ef6f6c"),
    "alarm_discard_one": ("alarm 1", "#ef6f6c"),
    "bandido_super": ("Bandido", "#9fc5e8"),
}
#: The SVG's caption: its font size (its lines wrapped by :func:`~banditsolve.core.svg.wrap`)
#: and the height of a line.
CAPTION_FONT = 12
CAPTION_LINE = 16
#: The narrowest picture that has a caption.
CAPTION_MIN_WIDTH = 320
#: The font size of a special card's letter in the SVG, drawn in a corner of the card's first
#: square, clear of the tunnels (the word is in the card's tooltip and the caption's legend).
KIND_FONT = 10
#: The mark of a cell an exit faces but no card can ever cover, by the reason.
MARKS = {"hole": "X", "unfillable": "!", "outside": "#"}
MARK_WORDS = {"X": "hole", "!": "unfillable", "#": "outside the play area"}
DEAD_WORDS = {
    "hole": "runs into a one-cell hole",
    "unfillable": "no remaining card fits the cell it faces",
    "outside": "faces the edge of the play area",
}


def _marks(
    table: Table, remaining: Iterable[int] | None, area: Area | None = None
) -> dict[Cell, str]:
    marks: dict[Cell, str] = {}
    pool = None if remaining is None else tuple(remaining)
    for dead in dead_exits(table, pool, area):
        marks[dead.exit.target] = MARKS[dead.reason]
    return marks


def _is_super(table: Table, cell: Cell) -> bool:
    index = table.owner(cell)
    return index is not None and (table.history[index].card & PORT_MASK).bit_count() >= 5


def _special(table: Table, cell: Cell) -> str | None:
    """The letter of a special card on this square (the first tunnel square of the card)."""
    index = table.owner(cell)
    if index is None:
        return None
    p = table.history[index]
    kind = card_kind(p.card)
    if kind == "tunnel":
        return None
    if kind == "bandido_super":
        return KIND_MARKS[kind]
    first = next(c for c in p.cells if not table.is_flashlight(c))
    return KIND_MARKS[kind] if cell == first else None


def ascii_art(
    table: Table,
    remaining: Iterable[int] | None = None,
    legend: bool = True,
    *,
    area: Area | None = None,
    steps: Mapping[int, int] | None = None,
) -> str:
    """The table drawn in ASCII with coordinates; exits are marked, dead exits flagged (the
    cell they face: ``X`` hole, ``!`` unfillable, ``#`` outside the play area ``area``).
    ``steps``: a number written on cards (the index of a card in the table's history to its
    step, 1 for the first card of a certificate), in place of the ``o`` of one of its tunnel
    squares (a number of two digits also takes the place of the tunnel mark west of it)."""
    if not table.history:
        return "(empty table)"
    min_x, min_y, max_x, max_y = table.bounds()
    xs = range(min_x - 1, max_x + 2)
    ys = range(min_y - 1, max_y + 2)
    width, height = 4 * len(xs) + 1, 2 * len(ys) + 1
    grid = [[" "] * width for _ in range(height)]
    _draw_grid(grid, table, xs, ys, _marks(table, remaining, area), _labels(table, steps or {}))
    header = "    " + "".join(f"{x:>3} " for x in xs)
    lines = [header]
    for r, chars in enumerate(grid):
        label = f"{ys[r // 2]:>3} " if r % 2 else "    "
        lines.append((label + "".join(chars)).rstrip())
    if legend:
        lines.append(LEGEND)
        kinds = sorted({card_kind(p.card) for p in table.history} - {"tunnel"})
        if kinds:
            lines.append(
                "  ".join(f"{KIND_MARKS[k]} {KIND_WORDS[k][0]}" for k in kinds)
            )
    return "\n".join(lines)


def _draw_grid(
    grid: list[list[str]],
    table: Table,
    xs: range,
    ys: range,
    marks: Mapping[Cell, str],
    labels: Mapping[Cell, str],
) -> None:
    """Each cell of ``xs`` by ``ys`` into ``grid``: its square, label or mark, its west and
    north edges and their corner."""
    occ = table.is_occupied
    for j, y in enumerate(ys):
        for i, x in enumerate(xs):
            c = (x, y)
            row, col = 2 * j + 1, 4 * i
            if occ(c):
                _draw_square(grid[row], col, table, c)
                if c in labels:
                    text = labels[c]
                    grid[row][col + 3 - len(text) : col + 3] = list(text)
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


def _labels(table: Table, steps: Mapping[int, int]) -> dict[Cell, str]:
    """Each numbered card's step, on the square of :func:`_step_cell`."""
    return {_step_cell(table, table.history[i]): str(step)[-2:] for i, step in steps.items()}


def _step_cell(table: Table, p: Placement) -> Cell:
    """The square a card's step is written on, in both pictures: one whose centre is a plain
    ``o``, else a flashlight's ``*`` (a special card's letter and the super card's ``@``
    stay), else its first square."""
    centres = [_centre(table, c) for c in p.cells]
    for mark in ("o", "*"):
        if mark in centres:
            return p.cells[centres.index(mark)]
    return p.cells[0]


def _centre(table: Table, c: Cell) -> str:
    """The letter in the middle of an occupied cell: a special card's, ``@`` a super card,
    ``*`` a flashlight square, ``o`` a tunnel square."""
    special = _special(table, c)
    if special is not None:
        return special
    if _is_super(table, c):
        return "@"
    return "*" if table.is_flashlight(c) else "o"


def _draw_square(line: list[str], col: int, table: Table, c: Cell) -> None:
    """An occupied cell on its line of the picture: its centre and the tunnels running west
    and east of it (to a neighbour or to the card's other square)."""
    open4 = table.open_sides(c)
    partner = table.partner_side(c)
    line[col + 2] = _centre(table, c)
    if open4 >> 3 & 1 or partner == 3:
        line[col + 1] = "-"
    if open4 >> 1 & 1 or partner == 1:
        line[col + 3] = "-"


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


class Ghost(NamedTuple):
    """A card drawn as a dashed outline: a card a map took off the table (``role``
    ``"removed"``: a ``<g class="card removed">``, its step's badge in a corner, None for a card
    of the starting table), or a legal placement of a card (``"placement"``: a ``<g
    class="placement">``, its number's badge near the centre of its first square, in the
    corner ``corner`` 0 to 3 so that the placements sharing that square stay apart)."""

    placement: Placement
    step: int | None
    role: str = "removed"
    corner: int = 0


class Note(NamedTuple):
    """A line of an answer's legend under the table: the step it describes (``data-step``;
    None for a note that is no step) and its text."""

    step: int | None
    text: str


def svg(
    table: Table,
    remaining: Iterable[int] | None = None,
    size: int = 40,
    highlight_from: int | None = None,
    *,
    caption: str | None = None,
    area: Area | None = None,
    steps: Mapping[int, int] | None = None,
    ghosts: Sequence[Ghost] = (),
    open_exits: bool = False,
    legend: Sequence[Note] = (),
    span: Area | None = None,
) -> str:
    """The table as an SVG document: cards, tunnels, dead ends, exits, coordinates.

    A live exit is a red dot; a dead exit (one that can never be closed: it runs into a hole,
    faces a cell no remaining card fits, or leaves the play area) is a dark ring with a cross
    on the cell it faces. ``highlight_from``: placements from this index of the history on
    (for example the cards of a closing sequence) are drawn in green. ``caption``: a line of
    text under the table (a game's turn, player, last card and result), wrapped to the
    picture's width. ``area``: the play area ``(min_x, min_y, max_x, max_y)``, drawn as a
    dashed frame. A special card (Bandida) shows its letter of :data:`KIND_MARKS` in a corner,
    its word in its tooltip and in a legend line under the table.

    The pictures of an answer add: ``steps`` (the index of a card in the history to its step
    number: every card is then a ``<g class="card">``, a numbered one with ``data-step`` and
    its number in a badge), ``ghosts`` (cards a map took off, dashed, each a ``<g
    class="card removed">`` with its ``data-step``), ``open_exits`` (each exit ringed in red,
    ``class="open-exit"``: an impossible closure's) and ``legend`` (lines under the caption,
    each a ``<g class="legend">``, with ``data-step`` for a step) and ``span`` (cells the
    picture spans at least: the frames of a line drawn alike).
    """
    if not table.history:
        doc = Svg(80, 40, title="empty table", background="#f7f4ec")
        return doc.to_string()
    min_x, min_y, max_x, max_y = _extent(table, area, ghosts, span)
    grid = _Grid(min_x - 1, min_y - 1, size, 24)
    cols, rows = max_x - min_x + 3, max_y - min_y + 3
    laid = (*table.history, *(g.placement for g in ghosts))
    w, lines, notes, foot = _footer(laid, caption, legend, cols * size + grid.margin, grid.margin)
    doc = Svg(
        w,
        rows * size + grid.margin + foot,
        title=caption or f"tunnel table of {len(table)} cards",
        background="#f7f4ec",
    )
    doc.root.set("font-family", "sans-serif")
    doc.root.set("font-size", "10")
    _axes(doc, grid, cols, rows)
    if area is not None:
        _area(doc, grid, area)
    _cards(doc, grid, table, highlight_from, steps)
    for ghost in ghosts:  # (dashed outlines over the cards laid since)
        colour = "#555" if ghost.role == "removed" else BAR_COLOURS[(ghost.step or 0) % 6]
        _ghost(doc, grid, ghost, colour)
    pool = None if remaining is None else tuple(remaining)
    _exits(doc, grid, table, {d.exit: d.reason for d in dead_exits(table, pool, area)})
    _crosses(doc, grid, _marks(table, pool, area))
    if open_exits:
        _open_exits(doc, grid, table)
    _foot(doc, grid.margin, rows * size + grid.margin, lines, notes)
    return doc.to_string()


def _footer(
    laid: Sequence[Placement], caption: str | None, legend: Sequence[Note], w: int, margin: int
) -> tuple[int, list[str], list[tuple[int | None, list[str]]], int]:
    """The width (at least ``w``), the caption's lines with the key of the special cards
    ``laid``, the legend's lines per note, and the height of the foot they fill."""
    kinds = sorted({card_kind(p.card) for p in laid} - {"tunnel"})
    key = ", ".join(f"{KIND_MARKS[k]} = {KIND_WORDS[k][0]}" for k in kinds)
    text = "\n".join(t for t in (caption, key) if t)
    if text or legend:
        w = max(w, LEGEND_MIN_WIDTH if legend else CAPTION_MIN_WIDTH)
    lines = wrap(text, w - 2 * margin, CAPTION_FONT) if text else []
    notes = [(n.step, wrap(n.text, w - 2 * margin, CAPTION_FONT)) for n in legend]
    count = len(lines) + sum(len(chunk) for _, chunk in notes)
    return w, lines, notes, count * CAPTION_LINE + 6 if count else 0


def _cards(
    doc: Svg, grid: _Grid, table: Table, highlight_from: int | None, steps: Mapping[int, int] | None
) -> None:
    """The table's cards, green from ``highlight_from`` on and when numbered by ``steps``."""
    for index, p in enumerate(table.history):
        green = highlight_from is not None and index >= highlight_from
        step = None if steps is None else steps.get(index)
        green = green or step is not None
        _card(doc, grid, table, index, p, green, step=step, classed=steps is not None)


#: A step's badge: its radius and the distance of its centre from the corner of its square (a
#: card of 40 pixels keeps it clear of a flashlight's disc).
BADGE_RADIUS = 7.5
BADGE_INSET = 8.5
#: The narrowest picture that has a legend (an answer's steps).
LEGEND_MIN_WIDTH = 520


def _extent(
    table: Table, area: Area | None, ghosts: Sequence[Ghost], span: Area | None = None
) -> tuple[int, int, int, int]:
    """The cells a picture spans: the table's, the ghosts', ``span``, and the play area's
    within two cells of them."""
    min_x, min_y, max_x, max_y = table.bounds()
    if span is not None:
        min_x, min_y = min(min_x, span[0]), min(min_y, span[1])
        max_x, max_y = max(max_x, span[2]), max(max_y, span[3])
    for ghost in ghosts:
        for x, y in ghost.placement.cells:
            min_x, min_y, max_x, max_y = min(min_x, x), min(min_y, y), max(max_x, x), max(max_y, y)
    if area is not None:
        min_x, min_y = max(min(min_x, area[0]), min_x - 2), max(min(min_y, area[1]), min_y - 2)
        max_x, max_y = min(max(max_x, area[2]), max_x + 2), min(max(max_y, area[3]), max_y + 2)
    return min_x, min_y, max_x, max_y


def _foot(
    doc: Svg,
    x: float,
    top: float,
    lines: Sequence[str],
    notes: Sequence[tuple[int | None, Sequence[str]]],
) -> None:
    """The caption's lines, then each legend entry's lines in its ``<g class="legend">``."""
    y = top
    for line in lines:
        y += CAPTION_LINE
        doc.add(
            "text",
            {"x": x, "y": y, "font-size": CAPTION_FONT, "fill": "#222"},
            text=line,
        )
    for step, chunk in notes:
        attrs: dict[str, str | int] = {"class": "legend"}
        if step is not None:
            attrs["data-step"] = step
        g = doc.group(attrs)
        for line in chunk:
            y += CAPTION_LINE
            doc.add(
                "text",
                {"x": x, "y": y, "font-size": CAPTION_FONT, "fill": "#222"},
                text=line,
                parent=g,
            )


class _Grid(NamedTuple):
    """Where the cells of an SVG picture lie: the first column and row drawn, a cell's size in
    pixels and the margin for the coordinates."""

    x0: int
    y0: int
    size: int
    margin: int

    def px(self, x: int, y: int) -> tuple[float, float]:
        """The top-left corner of cell ``(x, y)``."""
        return self.margin + (x - self.x0) * self.size, self.margin + (y - self.y0) * self.size


def _axes(doc: Svg, grid: _Grid, cols: int, rows: int) -> None:
    """The coordinates along the top and the left."""
    size = grid.size
    for i in range(cols):
        cx, _ = grid.px(grid.x0 + i, grid.y0)
        doc.add(
            "text",
            {"x": cx + size / 2, "y": 14, "text-anchor": "middle", "fill": "#777"},
            text=str(grid.x0 + i),
        )
    for j in range(rows):
        _, cy = grid.px(grid.x0, grid.y0 + j)
        doc.add(
            "text",
            {"x": 12, "y": cy + size / 2 + 4, "text-anchor": "middle", "fill": "#777"},
            text=str(grid.y0 + j),
        )


def _area(doc: Svg, grid: _Grid, area: Area) -> None:
    """The play area, as a dashed frame."""
    ax, ay = grid.px(area[0], area[1])
    doc.add(
        "rect",
        {
            "x": ax,
            "y": ay,
            "width": (area[2] - area[0] + 1) * grid.size,
            "height": (area[3] - area[1] + 1) * grid.size,
            "fill": "none",
            "stroke": "#8a7f6a",
            "stroke-dasharray": "6 4",
        },
    )


def _fill(p: Placement, green: bool) -> str:
    """A card's colour: green when highlighted, a special card's, the super card's, plain."""
    if green:
        return "#a8d5a2"
    kind = card_kind(p.card)
    if kind != "tunnel":
        return KIND_WORDS[kind][1]
    return "#e8b4a0" if (p.card & PORT_MASK).bit_count() >= 5 else "#d9c7a3"


def _card(
    doc: Svg,
    grid: _Grid,
    table: Table,
    index: int,
    p: Placement,
    green: bool,
    *,
    step: int | None = None,
    classed: bool = False,
) -> None:
    """One card: its outline, the tunnel between its squares, its openings, its flashlight and
    a special card's letter in the corner of its first square; ``classed``: in a ``<g
    class="card">``, with ``data-step`` and a numbered badge when it has a ``step``."""
    size = grid.size
    half = size / 2
    tunnel = size * 0.28
    a, b = p.cells
    ax, ay = grid.px(*a)
    bx, by = grid.px(*b)
    kind = card_kind(p.card)
    word = "" if kind == "tunnel" else f" ({KIND_WORDS[kind][0]})"
    attrs: dict[str, str | int] = {"class": "card"} if classed else {}
    label = f"placement {index + 1}: {p}{word}"
    if step is not None:
        attrs["data-step"] = step
        label = f"step {step}: {p}{word}"
    g = doc.group(attrs, title=label)
    doc.add(
        "rect",
        {
            "x": min(ax, bx) + 1,
            "y": min(ay, by) + 1,
            "width": abs(ax - bx) + size - 2,
            "height": abs(ay - by) + size - 2,
            "rx": 4,
            "fill": _fill(p, green),
            "stroke": "#6b4f2a",
            "stroke-width": 2,
        },
        parent=g,
    )
    doc.add(
        "line",
        {
            "x1": ax + half,
            "y1": ay + half,
            "x2": bx + half,
            "y2": by + half,
            "stroke": "#3b2a1a",
            "stroke-width": tunnel,
            "stroke-linecap": "round",
        },
        parent=g,
    )
    for cell, corner in ((a, (ax, ay)), (b, (bx, by))):
        _square(doc, g, grid, table, cell, corner)
    if kind != "tunnel":
        # The top-left corner of the card's first square: the tunnels run from the
        # squares' centres along the axes, so a corner of (half - tunnel / 2) is free.
        doc.add(
            "text",
            {
                "x": ax + 4,
                "y": ay + 3 + KIND_FONT,
                "font-size": KIND_FONT,
                "font-weight": "bold",
                "fill": "#111",
            },
            text=KIND_MARKS[kind],
            parent=g,
        )
    if step is not None:
        # The bottom-right corner of the square the ASCII picture numbers: clear of the
        # tunnels (from the squares' centres along the axes) and of a special card's letter.
        cx, cy = (ax, ay) if _step_cell(table, p) == a else (bx, by)
        _badge(doc, g, (cx + size - BADGE_INSET, cy + size - BADGE_INSET), step)


def _badge(doc: Svg, g: Element, centre: tuple[float, float], step: int) -> None:
    """A step number in a white disc centred on ``centre``."""
    x, y = centre
    doc.add(
        "circle",
        {"cx": x, "cy": y, "r": BADGE_RADIUS, "fill": "#fff", "stroke": "#1d3557",
         "stroke-width": 1.5},
        parent=g,
    )
    doc.add(
        "text",
        {
            "class": "step-label",
            "x": x,
            "y": y + 3.5,
            "text-anchor": "middle",
            "font-size": 9 if step < 10 else 7.5,
            "font-weight": "bold",
            "fill": "#1d3557",
        },
        text=str(step),
        parent=g,
    )


def _ghost(doc: Svg, grid: _Grid, ghost: Ghost, colour: str = "#555") -> None:
    """A card drawn as a dashed outline (:class:`Ghost`): a card a map took off the table, or
    a legal placement, with its badge."""
    size = grid.size
    p = ghost.placement
    (ax, ay), (bx, by) = (grid.px(*c) for c in p.cells)
    removed = ghost.role == "removed"
    attrs: dict[str, str | int] = {"class": "card removed" if removed else "placement"}
    label = f"taken off by a map: {p}" if removed else f"placement {ghost.step}: {p}"
    if ghost.step is not None:
        attrs["data-step" if removed else "data-index"] = ghost.step
        if removed:
            label = f"step {ghost.step}, taken off by a map: {p}"
    g = doc.group(attrs, title=label)
    inset = 3 + 2 * ghost.corner
    doc.add(
        "rect",
        {
            "x": min(ax, bx) + inset,
            "y": min(ay, by) + inset,
            "width": abs(ax - bx) + size - 2 * inset,
            "height": abs(ay - by) + size - 2 * inset,
            "rx": 4,
            "fill": "none",
            "stroke": colour,
            "stroke-width": 1.5,
            "stroke-dasharray": "4 3",
        },
        parent=g,
    )
    if ghost.step is None:
        return
    if removed:
        _badge(doc, g, (ax + size - BADGE_INSET, ay + size - BADGE_INSET), ghost.step)
        return
    dx, dy = ((-1, -1), (1, -1), (-1, 1), (1, 1))[ghost.corner % 4]
    _badge(doc, g, (ax + size / 2 + dx * 9, ay + size / 2 + dy * 9), ghost.step)


def _open_exits(doc: Svg, grid: _Grid, table: Table) -> None:
    """A red ring round each exit (``class="open-exit"``): the exits an impossible closure
    leaves open."""
    half = grid.size / 2
    for opening in sorted(table.exits):
        cx, cy = grid.px(opening.x, opening.y)
        dx, dy = STEP[opening.side]
        ring = doc.add(
            "circle",
            {
                "class": "open-exit",
                "cx": cx + half + dx * half,
                "cy": cy + half + dy * half,
                "r": grid.size * 0.3,
                "fill": "none",
                "stroke": "#d62828",
                "stroke-width": 2.5,
            },
        )
        doc.add("title", text=f"open exit {opening}", parent=ring)


def _square(
    doc: Svg, g: Element, grid: _Grid, table: Table, cell: Cell, corner: tuple[float, float]
) -> None:
    """A card's square: the tunnels to its open sides, and the flashlight of a dead end."""
    half = grid.size / 2
    cx, cy = corner
    open4 = table.open_sides(cell)
    for side in range(4):
        if open4 >> side & 1:
            dx, dy = STEP[side]
            doc.add(
                "line",
                {
                    "x1": cx + half,
                    "y1": cy + half,
                    "x2": cx + half + dx * half,
                    "y2": cy + half + dy * half,
                    "stroke": "#3b2a1a",
                    "stroke-width": grid.size * 0.28,
                },
                parent=g,
            )
    if table.is_flashlight(cell):
        doc.add(
            "circle",
            {
                "cx": cx + half,
                "cy": cy + half,
                "r": grid.size * 0.2,
                "fill": "#ffd93b",
                "stroke": "#8a6d00",
            },
            parent=g,
        )


def _exits(doc: Svg, grid: _Grid, table: Table, dead_at: Mapping[Exit, str]) -> None:
    """Each exit: a red dot, or a dark ring for a dead exit (with its reason)."""
    half = grid.size / 2
    for opening in sorted(table.exits):
        cx, cy = grid.px(opening.x, opening.y)
        dx, dy = STEP[opening.side]
        mx, my = cx + half + dx * half, cy + half + dy * half
        reason = dead_at.get(opening)
        attrs: dict[str, str | float]
        if reason is None:
            attrs = {"fill": "#d62828", "stroke": "#fff"}
            label = f"exit {opening}"
        else:
            attrs = {"fill": "#fff", "stroke": "#222", "stroke-width": 2.5}
            label = f"dead exit {opening}: {DEAD_WORDS[reason]}"
        dot = doc.add("circle", {"cx": mx, "cy": my, "r": grid.size * 0.16, **attrs})
        doc.add("title", text=label, parent=dot)


def _crosses(doc: Svg, grid: _Grid, marks: Mapping[Cell, str]) -> None:
    """A cross on each cell a dead exit faces (a hole, unfillable, off the table)."""
    size = grid.size
    for cell, mark in sorted(marks.items()):
        cx, cy = grid.px(*cell)
        colour = {"X": "#d62828", "!": "#f77f00", "#": "#555"}[mark]
        q = size * 0.25
        cross = doc.add(
            "path",
            {
                "d": f"M{cx + q},{cy + q} L{cx + size - q},{cy + size - q} "
                f"M{cx + size - q},{cy + q} L{cx + q},{cy + size - q}",
                "stroke": colour,
                "stroke-width": 3,
            },
        )
        doc.add("title", text=MARK_WORDS[mark], parent=cross)


# -- pictures of a game state (BD-NOTE-3) --------------------------------------------------------


def caption(
    state: GameState,
    title: str = "Bandido",
    *,
    after_title: Sequence[str] = (),
    after_pile: Sequence[str] = (),
    drawing: str = "",
    doing: str = "",
) -> str:
    """One line saying where the game stands: the turn, the last card laid, the pile, whose
    move, and the result once over (a variant adds its parts: ``after_title``, ``after_pile``,
    what a chance node does, ``drawing``, and what the player to act does, ``doing``)."""
    parts = [f"{title}, turn {state.turn}", *after_title]
    if len(state.table) > 1:
        parts.append(f"last card {state.table.history[-1]}")
    parts.append(f"pile {plural(state.pile_size, 'card')}")
    parts.extend(after_pile)
    if state.outcome is not None:
        parts.append(f"{state.outcome}: {state.reason}")
    elif state.is_chance:
        parts.append(drawing or f"player {state.to_draw[0]} draws")
    else:
        parts.append(f"player {state.to_act} to act{doing}")
    return ", ".join(parts)


def hands_line(state: GameState, sizes: bool = False) -> str:
    """Each player's hand in words (``sizes``: with the cards held of the hand size)."""
    return "hands: " + "; ".join(
        f"player {i}: {' '.join(card_name(c) for c in hand) or '-'}"
        + (f" ({len(hand)} of hand size {state.size(i)})" if sizes else "")
        for i, hand in enumerate(state.hands)
    )


def state_ascii(
    state: GameState, title: str = "Bandido", *, text: str | None = None,
    sizes: bool = False, more: Sequence[str] = (),
) -> str:
    """The table of ``state`` in ASCII, its caption (``text``, by default :func:`caption`),
    the hands and ``more`` lines."""
    lines = [
        ascii_art(state.table, state.remaining(), area=state.options.area),
        caption(state, title) if text is None else text,
        hands_line(state, sizes),
        *more,
    ]
    return "\n".join(lines)


def state_svg(state: GameState, title: str = "Bandido", *, text: str | None = None) -> str:
    """The table of ``state`` as SVG with its caption (``text``, by default :func:`caption`)."""
    return svg(
        state.table,
        remaining=state.remaining(),
        caption=caption(state, title) if text is None else text,
        area=state.options.area,
    )


tables.register_pictures(ascii_art, svg)
states.register_pictures(GameState, state_svg, state_ascii)
