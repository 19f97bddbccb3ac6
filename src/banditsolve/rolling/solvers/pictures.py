"""The answers drawn, as SVG and ASCII (RB-NOTE-4): a safety verdict on the train (a
counterexample's steps numbered under the wagons they touch, and the train after its last
step), odds as a bar chart, the best turn as numbered steps, Monte Carlo win shares as bars.

Every drawn element a test or a reader may look for is marked: ``<g class="step"
data-step="N">`` for step N of a line, ``<g class="wagon" data-wagon="W">`` for a wagon (the
train pictures of :mod:`banditsolve.rolling.render`), ``<g class="target" data-wagon="W">`` for
the wagon a safety question asks about, ``<g class="bar">`` for a bar.
"""

from __future__ import annotations

import re
import textwrap
import xml.etree.ElementTree as ET
from dataclasses import dataclass
from fractions import Fraction
from typing import TYPE_CHECKING

from banditsolve.core.svg import Svg, ascii_bars, bar_chart, strip
from banditsolve.core.text import plural
from banditsolve.rolling.actions import Action, Ambush, Joker, Lay, Open, parse_action
from banditsolve.rolling.notation import parse_state
from banditsolve.rolling.render import (
    BAND,
    DICE_Y,
    WAGON_STEP,
    WAGON_WIDTH,
    ascii_picture,
    svg_picture,
    text_width,
)
from banditsolve.rolling.rules import apply
from banditsolve.rolling.state import State

if TYPE_CHECKING:
    from banditsolve.rolling.solvers.montecarlo import WinChances
    from banditsolve.rolling.solvers.turn import BestTurn, Odds
    from banditsolve.rolling.solvers.verdict import Safety

#: Where a train picture of :mod:`.render` puts its first wagon's corner.
TRAIN_X, TRAIN_TOP = 10, 40
#: Characters per line of the wrapped texts of a picture.
WRAP = 96
FONT = "sans-serif"


# -- lines of play --------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Step:
    """Step ``number`` (from 1) of a line: who played it (``P1``, or ``chance``), its text, the
    wagons it names and the position after it."""

    number: int
    who: str
    action: str
    wagons: tuple[int, ...]
    after: State

    @property
    def caption(self) -> str:
        return f"{self.number}. {self.who}: {self.action}"


def _named_wagons(state: State, action: Action) -> tuple[int, ...]:
    """The wagons ``action`` acts on at ``state``: where it lays, the two an ambush swaps, the
    one whose trunk is being opened."""
    if isinstance(action, Lay | Joker):
        return (action.wagon,)
    if isinstance(action, Ambush):
        return (action.a, action.b)
    if isinstance(action, Open) and state.pending:
        return (state.pending[0][0],)
    return ()


def replay(state: State, line: tuple[str, ...] | list[str]) -> tuple[Step, ...]:
    """The steps of ``line`` from ``state``, each played by the rules (an illegal step raises
    :class:`~banditsolve.errors.IllegalActionError`, so a picture never shows a line the rules
    refuse)."""
    steps = []
    s = state
    for i, text in enumerate(line, 1):
        action = parse_action(text)
        who = "chance" if s.is_chance else f"P{s.to_move}"
        wagons = _named_wagons(s, action)
        s = apply(s, action)
        steps.append(Step(i, who, str(action), wagons, s))
    return tuple(steps)


# -- shared drawing --------------------------------------------------------------------------------


def _nest(doc: Svg, svg_text: str, x: float, y: float, cls: str) -> tuple[float, float]:
    """Put the picture ``svg_text`` at (``x``, ``y``) of ``doc`` inside a ``<g class=cls>``;
    returns its width and height."""
    inner = ET.fromstring(svg_text)
    for el in inner.iter():
        if el.tag.startswith("{"):
            el.tag = el.tag.split("}", 1)[1]
    inner.set("x", f"{x:g}")
    inner.set("y", f"{y:g}")
    doc.group({"class": cls}).append(inner)
    return float(inner.get("width", "0")), float(inner.get("height", "0"))


def _texts(doc: Svg, lines: list[str], x: float, y: float, size: int = 12,
           bold: bool = False) -> float:
    """Write ``lines`` from baseline ``y``; returns the baseline after the last."""
    for line in lines:
        attrs: dict[str, str | int | float] = {
            "x": x, "y": y, "font_size": size, "font_family": FONT}
        if bold:
            attrs["font_weight"] = "bold"
        doc.add("text", attrs, text=line)
        y += size + 5
    return y


def _wrap(text: str) -> list[str]:
    return textwrap.wrap(text, WRAP) or [""]


def _wagon_x(state: State, wagon: int) -> float | None:
    """The left edge of ``wagon`` in the train picture of ``state`` (``None``: not on it)."""
    i = state.index(wagon)
    return None if i < 0 else TRAIN_X + i * WAGON_STEP


def _outline(doc: Svg, state: State, wagon: int, dx: float, dy: float, colour: str,
             label: str) -> None:
    """A frame around ``wagon`` in the train picture of ``state`` placed at (dx, dy)."""
    x = _wagon_x(state, wagon)
    if x is None:
        return
    g = doc.group({"class": "target", "data-wagon": wagon}, title=label)
    height = DICE_Y + 4 + state.players * BAND
    doc.add("rect", {"x": dx + x - 4, "y": dy + TRAIN_TOP - 4, "width": WAGON_WIDTH + 8,
                     "height": height + 8, "rx": 8, "fill": "none", "stroke": colour,
                     "stroke_width": 3}, parent=g)


# -- is this wagon provably mine? -----------------------------------------------------------------


def _question(result: Safety) -> str:
    return (f"Is wagon {result.wagon} provably player {result.player}'s at the start of their "
            "next turn?")


def _answer_word(result: Safety) -> str:
    return {True: "yes", False: "no"}.get(result.safe, "unknown")  # type: ignore[arg-type]


def fate(end: State, wagon: int, player: int) -> str:
    """What became of ``wagon`` at the end of a counterexample line."""
    for q in range(end.players):
        if any(w.id == wagon for w in end.won[q]):
            return f"player {q} took wagon {wagon}"
    on_train = end.wagon(wagon)
    if on_train is None:  # pragma: no cover - a wagon leaves the train only when taken
        return f"wagon {wagon} left the train"
    counts = ", ".join(f"P{q} {on_train.count(q)}" for q in range(end.players) if on_train.count(q))
    when = "the game ended" if end.is_terminal else f"player {player}'s turn began"
    return (f"{when} without player {player} taking wagon {wagon} (dice there: "
            f"{counts or 'none'}; it needs {on_train.need})")


def safety_svg(result: Safety) -> str:
    """The verdict on the train: the question and the answer; with a counterexample, its steps
    numbered under the wagons they name and listed, then the train after the line."""
    state = parse_state(result.position)
    steps = replay(state, result.counterexample) if result.safe is False else ()
    before = svg_picture(state)
    after = svg_picture(steps[-1].after) if steps else ""
    head = [_question(result)]
    reason = _wrap(f"{_answer_word(result)}: {result.reason}")
    panel_w = float(ET.fromstring(before).get("width", "0"))
    if after:
        panel_w = max(panel_w, float(ET.fromstring(after).get("width", "0")))
    listing = [s.caption for s in steps] + ["x" * WRAP]
    width = max(panel_w + 20, *(20 + text_width(t, 13) for t in head + reason + listing))
    doc = Svg(round(width), 2000, title=f"{head[0]} {_answer_word(result)}")
    y = _texts(doc, head, 10, 22, 14, bold=True)
    y = _texts(doc, reason, 10, y, 12)
    top = y
    _, h = _nest(doc, before, 0, top, "position")
    colour = {True: "#2e7d32", False: "#c62828"}.get(result.safe, "#757575")  # type: ignore[arg-type]
    _outline(doc, state, result.wagon, 0, top, colour, f"wagon {result.wagon}: {reason[0]}")
    y = top + h + 6
    if steps:
        _marks(doc, state, steps, top)
        y = _texts(doc, ["a line after which it is not theirs:"], 10, y + 14, 12, bold=True)
        for step in steps:
            g = doc.group({"class": "step", "data-step": step.number}, title=step.caption)
            doc.add("text", {"x": 24, "y": y, "font_size": 12, "font_family": FONT},
                    text=step.caption, parent=g)
            y += 17
        end = steps[-1].after
        y = _texts(doc, _wrap(f"after step {len(steps)}: {fate(end, result.wagon, result.player)}"),
                   10, y + 8, 12, bold=True)
        _, h = _nest(doc, after, 0, y - 10, "after")
        _outline(doc, end, result.wagon, 0, y - 10, colour, fate(end, result.wagon, result.player))
        y = y - 10 + h
    return _fit(doc, y + 8)


def _marks(doc: Svg, state: State, steps: tuple[Step, ...], dy: float) -> None:
    """On the top edge of each wagon of the train picture placed at ``dy``, a red label with
    the numbers of the steps that name it (``<g class="mark" data-wagon="W"
    data-steps="3 5">``)."""
    named: dict[int, list[Step]] = {}
    for step in steps:
        for wagon in step.wagons:
            named.setdefault(wagon, []).append(step)
    for wagon, on in named.items():
        x = _wagon_x(state, wagon)
        if x is None:
            continue
        label = "step " + ", ".join(str(s.number) for s in on)
        w = text_width(label, 10) + 8
        left = x + WAGON_WIDTH - 4 - w
        g = doc.group(
            {"class": "mark", "data-wagon": wagon,
             "data-steps": " ".join(str(s.number) for s in on)},
            title="; ".join(s.caption for s in on),
        )
        doc.add("rect", {"x": left, "y": dy + TRAIN_TOP - 11, "width": w, "height": 16,
                         "rx": 8, "fill": "#c62828"}, parent=g)
        doc.add("text", {"x": left + w / 2, "y": dy + TRAIN_TOP + 1, "font_size": 10,
                         "fill": "#fff", "text_anchor": "middle", "font_family": FONT},
                text=label, parent=g)


def _fit(doc: Svg, height: float) -> str:
    """Cut the canvas (and its background) to ``height``."""
    h = f"{round(height)}"
    doc.root.set("height", h)
    width = doc.root.get("width", "0")
    doc.root.set("viewBox", f"0 0 {width} {h}")
    for el in doc.root:
        if el.tag == "rect":
            el.set("height", h)
            break
    return doc.to_string()


def safety_ascii(result: Safety) -> str:
    """The same as :func:`safety_svg`, in text."""
    state = parse_state(result.position)
    lines = [f"{_question(result)} {_answer_word(result)}", result.reason, "", "the position:",
             ascii_picture(state)]
    if result.safe is False:
        steps = replay(state, result.counterexample)
        lines += ["", "a line after which it is not theirs:"]
        for step in steps:
            on = ", ".join(f"wagon {w}" for w in step.wagons)
            lines.append(f"  {step.caption}" + (f"  [{on}]" if on else ""))
        end = steps[-1].after if steps else state
        lines += ["", f"after step {len(steps)}: {fate(end, result.wagon, result.player)}",
                  ascii_picture(end)]
    return "\n".join(lines)


# -- odds ------------------------------------------------------------------------------------------


def _odds_bars(result: Odds) -> tuple[list[tuple[str, float]], list[str]]:
    """(label, chance) of every odds worked out, and the labels of those left unknown."""
    bars: list[tuple[str, float]] = []
    unknown: list[str] = []
    named = (
        [(f"lay {k}", v) for k, v in result.lay.items()]
        + [(f"trunk of wagon {k}", v) for k, v in result.trunks.items()]
        + [(f"steal wagon {k}", v) for k, v in result.stealable.items()]
    )
    for label, value in named:
        if value == "unknown":
            unknown.append(label)
        else:
            bars.append((label, float(Fraction(value))))
    return bars, unknown


def _odds_title(result: Odds, unknown: list[str], *, listed: bool = True) -> str:
    """The chart's title; with ``listed`` false the questions not worked out are counted, not
    named (a picture's title stays one short line however many a limit cut)."""
    again = " (a roll-again trunk used at its best)" if result.roll_again else ""
    title = f"odds of the roll of {plural(result.roll_dice, 'die', 'dice')}{again}"
    if unknown and listed:
        title += f"; not worked out: {', '.join(unknown)}"
    elif unknown:
        title += f"; {plural(len(unknown), 'question')} not worked out (a limit ran out)"
    return title


def odds_svg(result: Odds) -> str:
    """The odds as a bar chart, one labelled bar per question (a share of 100 %)."""
    bars, unknown = _odds_bars(result)
    title = _odds_title(result, unknown, listed=False)
    return bar_chart(bars, title=title, scale=1.0, width=max(360, round(text_width(title, 13))))


def odds_ascii(result: Odds) -> str:
    bars, unknown = _odds_bars(result)
    return f"{_odds_title(result, unknown)}:\n{ascii_bars(bars, scale=1.0)}"


# -- the best turn ---------------------------------------------------------------------------------


def _best_title(result: BestTurn, player: int) -> str:
    if result.value is None:
        return f"best turn for player {player}: unknown ({result.reason})"
    return (f"best turn for player {player}: expected {result.objective} {result.value} "
            f"(= {float(result.value):.3f})")


_FRAME = re.compile(r'<g class="frame">')


def best_svg(result: BestTurn) -> str:
    """The best turn as numbered steps: the position, then the train after each step of the
    plan, side by side (``<g class="frame step" data-step="N">``, the position step 0)."""
    state = parse_state(result.position)
    steps = replay(state, result.plan)
    frames = [(f"0. now: player {state.to_move} to move", svg_picture(state))]
    frames += [(s.caption, _framed(s.after, s.wagons)) for s in steps]
    if steps and steps[-1].after.is_chance:
        last = frames[-1]
        frames[-1] = (f"{last[0]} (then chance)", last[1])
    text = strip(frames, title=_best_title(result, state.to_move), columns=2)
    count = iter(range(len(frames)))

    def mark(_: re.Match[str]) -> str:
        n = next(count)
        cls = "frame step" if n else "frame start"
        return f'<g class="{cls}" data-step="{n}">'

    return _FRAME.sub(mark, text)


def _framed(state: State, wagons: tuple[int, ...]) -> str:
    """The train picture of ``state`` with the wagons a step acted on framed in red."""
    root = ET.fromstring(svg_picture(state))
    ns = root.tag[: root.tag.index("}") + 1] if root.tag.startswith("{") else ""
    height = DICE_Y + 4 + state.players * BAND
    for wagon in wagons:
        x = _wagon_x(state, wagon)
        if x is not None:
            ET.SubElement(root, f"{ns}rect", {
                "class": "acted", "data-wagon": str(wagon), "x": f"{x - 3:g}",
                "y": f"{TRAIN_TOP - 3:g}", "width": f"{WAGON_WIDTH + 6:g}",
                "height": f"{height + 6:g}", "rx": "7", "fill": "none", "stroke": "#c62828",
                "stroke-width": "3"})
    return ET.tostring(root, encoding="unicode")


def best_ascii(result: BestTurn) -> str:
    state = parse_state(result.position)
    lines = [_best_title(result, state.to_move), "", "0. now:", ascii_picture(state)]
    for step in replay(state, result.plan):
        lines += ["", f"{step.caption}:", ascii_picture(step.after)]
    return "\n".join(lines)


# -- Monte Carlo -----------------------------------------------------------------------------------


def _win_bars(result: WinChances) -> list[tuple[str, float]]:
    return [(e.action, e.wins / e.samples) for e in result.estimates]


def _win_title(result: WinChances) -> str:
    n = result.estimates[0].samples if result.estimates else 0
    return (f"player {result.player}'s win share after each action (Monte Carlo estimate, "
            f"{n} games each, policy {result.policy})")


def wins_svg(result: WinChances) -> str:
    title = _win_title(result)
    return bar_chart(_win_bars(result), title=title, scale=1.0,
                     width=max(360, round(text_width(title, 13))))


def wins_ascii(result: WinChances) -> str:
    return f"{_win_title(result)}:\n{ascii_bars(_win_bars(result), scale=1.0)}"
