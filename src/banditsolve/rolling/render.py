"""Pictures of a Rolling Bandits state: ASCII for the terminal, SVG of the train (RB-NOTE-3).

The SVG draws the wagons front (left) to back (right) with their numbers, points and trunks,
each player's dice in their colour with the symbol drawn on each die (a shape per symbol, its
name as the die's title), and, under each wagon,
who would steal it at the start of their next turn.
"""

from __future__ import annotations

import math
import xml.etree.ElementTree as ET

from banditsolve.core.svg import Svg
from banditsolve.core.text import plural
from banditsolve.rolling.edition import COLOUR_FILLS, COLOURS, LETTERS, SYMBOLS
from banditsolve.rolling.notation import held_text
from banditsolve.rolling.rules import faces_text, winners
from banditsolve.rolling.state import State, Wagon, register_form


def _who(state: State, player: int) -> str:
    return f"P{player} ({COLOURS[player]})"


def _phase_line(state: State) -> str:
    if state.phase == "over":
        won = ", ".join(f"P{p}" for p in winners(state))
        return f"game over; scores {list(state.scores)}; won by {won}"
    if state.phase in ("deal-wagon", "deal-trunk"):
        return f"set-up: {state.phase} (chance)"
    line = f"{_who(state, state.to_move)} to move, phase {state.phase}"
    if any(state.roll) or any(state.mroll):
        line += f"; rolled {faces_text(state.roll)}"
        if any(state.mroll):
            line += f" + mercenaries {faces_text(state.mroll)}"
    if state.airborne != (0, 0):
        line += f"; rolling {state.airborne[0]} dice + {state.airborne[1]} mercenaries"
    return line


def wagon_name(wagon: Wagon) -> str:
    """A wagon's label, the same in every text and picture: ``wagon 2`` (the locomotive is
    ``wagon 0``)."""
    return f"wagon {wagon.id}"


def _wagon_label(wagon: Wagon) -> str:
    loco = " (locomotive)" if wagon.loco else ""
    trunk = "" if wagon.trunk is None else f", trunk {LETTERS[wagon.trunk]}"
    return f"{wagon_name(wagon)}{loco}: need {wagon.need}, {wagon.points} pts{trunk}"


def symbol_shape(doc: Svg, parent: ET.Element, symbol: int, x: float, y: float) -> None:
    """Draw a bandit symbol in white on the 12 x 12 die whose corner is (``x``, ``y``): revolver
    a cylinder with a barrel, mask a band with two eye holes, hat a crown on a brim, boot a leg
    and foot, horseshoe an open arc (RB-NOTE-3)."""
    white = {"fill": "#fff"}
    if symbol == 0:  # revolver
        doc.add("circle", {"cx": x + 4.5, "cy": y + 6, "r": 2.8, **white}, parent=parent)
        doc.add("rect", {"x": x + 6, "y": y + 5, "width": 5, "height": 2, **white}, parent=parent)
    elif symbol == 1:  # mask
        doc.add("rect", {"x": x + 1.5, "y": y + 4, "width": 9, "height": 4, "rx": 2, **white},
                parent=parent)
        for ex in (4, 8):
            doc.add("circle", {"cx": x + ex, "cy": y + 6, "r": 1, "fill": "#000"}, parent=parent)
    elif symbol == 2:  # hat
        doc.add("rect", {"x": x + 1.5, "y": y + 8, "width": 9, "height": 1.6, **white},
                parent=parent)
        doc.add("rect", {"x": x + 4, "y": y + 3, "width": 4, "height": 5.5, **white},
                parent=parent)
    elif symbol == 3:  # boot
        points = [(4, 2), (7, 2), (7, 7), (10.5, 8), (10.5, 10), (4, 10)]
        doc.add("polygon", {"points": " ".join(f"{x + a:g},{y + b:g}" for a, b in points),
                            **white}, parent=parent)
    elif symbol == 4:  # horseshoe
        d = f"M {x + 3:g} {y + 10:g} V {y + 6:g} A 3 3 0 0 1 {x + 9:g} {y + 6:g} V {y + 10:g}"
        doc.add("path", {"d": d, "fill": "none", "stroke": "#fff", "stroke_width": 1.8},
                parent=parent)


def ascii_picture(state: State) -> str:
    """A few lines: the train front to back, then each player's takings."""
    lines = [_phase_line(state)]
    for wagon in state.train:
        groups = []
        for q, g in enumerate(wagon.groups):
            if g is None:
                continue
            text = f"P{q}:{LETTERS[g.symbol]}x{g.size}"
            if g.mercs:
                text += f"({g.mercs} merc)"
            groups.append(text)
        thief = state.stealer(wagon)
        steal = f"  <- P{thief} steals" if thief is not None else ""
        lines.append(f"  {_wagon_label(wagon):<38} {' '.join(groups) or '.'}{steal}")
    for q in range(state.players):
        won = ",".join(str(w.id) for w in state.won[q]) or "-"
        trunks = ",".join(held_text(h) for h in state.trunks[q]) or "-"
        extra = f" mercs {state.reserve[q]}" if state.options.mercenaries == "on" else ""
        lines.append(
            f"{_who(state, q)}: {state.score(q)} pts; wagons {won}; trunks {trunks}{extra}"
        )
    return "\n".join(lines)


#: A generous width of one character, in ems, for sans-serif text (wider than the average of
#: any common sans-serif font): the layout keeps every label apart at this width.
EM_PER_CHAR = 0.65
#: The wagon's width, its inner margin and the distance from one wagon to the next.
WAGON_WIDTH, WAGON_PAD, WAGON_STEP = 100, 6, 110
#: The header rows of a wagon (name; need; points), the trunk box beside the last two, then the
#: dice rows (two rows of seven dice fit one player's 26-pixel band).
NAME_Y, NEED_Y, POINTS_Y, DICE_Y, BAND = 16, 31, 46, 54, 26


def text_width(text: str, size: float) -> float:
    """The width :data:`EM_PER_CHAR` gives ``text`` at font size ``size``."""
    return len(text) * EM_PER_CHAR * size


def svg_picture(state: State) -> str:
    """The train as an SVG picture: each wagon a column whose labels sit on rows of their own
    (name; need; points, with the trunk beside them), so no two labels overlap, and a canvas
    wide enough for the longest line."""
    wagons = max(1, len(state.train))
    top = 40
    wagon_height = DICE_Y + 4 + state.players * BAND
    steal_y = top + wagon_height + 16
    y0 = steal_y + 24
    phase = _phase_line(state)
    lines = []
    for q in range(state.players):
        trunks = ",".join(held_text(h) for h in state.trunks[q]) or "-"
        lines.append(
            f"{_who(state, q)}: {plural(state.score(q), 'point')}, "
            f"{plural(len(state.won[q]), 'wagon')}, "
            f"trunks {trunks}"
        )
    width = max(
        20 + wagons * WAGON_STEP,
        20 + text_width(phase, 14),
        *(20 + text_width(line, 12) for line in lines),
    )
    height = y0 + (state.players - 1) * 18 + 16
    doc = Svg(math.ceil(width), height, title=f"Rolling Bandits: {phase}")
    doc.add("text", {"x": 10, "y": 22, "font_size": 14, "font_family": "sans-serif"}, text=phase)
    for i, wagon in enumerate(state.train):
        x = 10 + i * WAGON_STEP
        g = doc.group({"class": "wagon", "data-wagon": wagon.id}, title=_wagon_label(wagon))
        doc.add(
            "rect",
            {
                "x": x,
                "y": top,
                "width": WAGON_WIDTH,
                "height": wagon_height,
                "rx": 6,
                "fill": "#5d4037" if wagon.loco else "#8d6e63",
                "stroke": "#3e2723",
            },
            parent=g,
        )
        _draw_wagon_labels(doc, g, wagon, x, top)
        _draw_groups(doc, g, wagon, x, top)
        thief = state.stealer(wagon)
        label = f"P{thief} steals" if thief is not None else "nobody steals"
        doc.add(
            "text",
            {
                "x": x + 4,
                "y": steal_y,
                "font_size": 10,
                "font_family": "sans-serif",
                "fill": COLOUR_FILLS[thief] if thief is not None else "#555",
            },
            text=label,
            parent=g,
        )
    for q, line in enumerate(lines):
        doc.add(
            "text",
            {
                "x": 10,
                "y": y0 + q * 18,
                "font_size": 12,
                "fill": COLOUR_FILLS[q],
                "font_family": "sans-serif",
            },
            text=line,
        )
    return doc.to_string()


def _draw_wagon_labels(doc: Svg, g: ET.Element, wagon: Wagon, x: float, top: float) -> None:
    """A wagon's labels in its group ``g`` (the wagon at ``x``, the train at ``top``): its
    name, need and points on rows of their own, and beside the last two its trunk or, on the
    locomotive without one, the locomotive's badge."""
    for row_y, size, text in (
        (NAME_Y, 12, wagon_name(wagon)),
        (NEED_Y, 11, f"need {wagon.need}"),
        (POINTS_Y, 11, f"{wagon.points} pts"),
    ):
        doc.add(
            "text",
            {
                "x": x + WAGON_PAD,
                "y": top + row_y,
                "font_size": size,
                "fill": "#fff",
                "font_family": "sans-serif",
            },
            text=text,
            parent=g,
        )
    if wagon.loco and wagon.trunk is None:
        # the locomotive's badge, where a wagon shows its trunk
        doc.add(
            "text",
            {
                "x": x + 78,
                "y": top + 34,
                "font_size": 9,
                "fill": "#fff",
                "text_anchor": "middle",
                "font_family": "sans-serif",
            },
            text="loco",
            parent=g,
        )
    if wagon.trunk is not None:
        # beside the need and points rows, right of the widest of them ("need 99": 50 px)
        doc.add(
            "rect",
            {
                "x": x + 62,
                "y": top + 22,
                "width": 32,
                "height": 16,
                "fill": "#ffd54f",
                "stroke": "#000",
            },
            parent=g,
        )
        doc.add(
            "text",
            {
                "x": x + 78,
                "y": top + 34,
                "font_size": 9,
                "text_anchor": "middle",
                "font_family": "sans-serif",
            },
            text=f"{LETTERS[wagon.trunk]} {SYMBOLS[wagon.trunk][:3]}",
            parent=g,
        )


def _draw_groups(doc: Svg, g: ET.Element, wagon: Wagon, x: float, top: float) -> None:
    """Each player's group of dice on a wagon, in the wagon's group ``g`` (the wagon at ``x``,
    the train at ``top``), one band a player, a mercenary in its own colour."""
    for q, grp in enumerate(wagon.groups):
        if grp is None:
            continue
        y = top + DICE_Y + q * BAND
        for k in range(grp.size):
            merc = k >= grp.bandits
            dx = x + WAGON_PAD + (k % 7) * 13
            dy = y + (k // 7) * 13
            die = doc.group(
                {"class": f"die die-{SYMBOLS[grp.symbol]}"},
                title=f"{COLOURS[q + 2 if merc else q]} {SYMBOLS[grp.symbol]}",
                parent=g,
            )
            doc.add(
                "rect",
                {
                    "x": dx,
                    "y": dy,
                    "width": 12,
                    "height": 12,
                    "rx": 2,
                    "fill": COLOUR_FILLS[q + 2 if merc else q],
                    "stroke": "#000",
                },
                parent=die,
            )
            symbol_shape(doc, die, grp.symbol, dx, dy)


register_form("ascii", ascii_picture)
register_form("svg", svg_picture)
