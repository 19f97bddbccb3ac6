"""The tunnel answers drawn, as SVG and ASCII.

- A closable closure: its certificate numbered in play order on the final table (each card it
  lays a ``<g class="card" data-step="N">`` with its number in a badge, the starting table's
  cards plain ``<g class="card">``, a card a map took off again dashed where it lay), and a
  legend under it: each step's number, card, object (Bandida's special cards) and the exits it
  closes, and each map's removal with the exits it opens again.
- An impossible closure: the table with every exit it leaves open ringed in red
  (``class="open-exit"``), its dead exits crossed, and the reason; an unknown one: the table
  and the reason.
- An endgame's winning line (:class:`~banditsolve.tunnels.solvers.endgame.GameSolution`): a
  strip of tables, one per move, replayed through the rules, each captioned with its number
  and move; a lost or undecided game: its start and the reason.
- A share of shuffles won (:class:`~banditsolve.tunnels.solvers.endgame.WinShare`): bars.
- One card's legal placements: numbered dashed outlines on the table and their list.

The ASCII twins write the same: the numbered steps as text lines and the step numbers on the
cards of the ASCII table.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, NamedTuple

from banditsolve.core.svg import Svg, bar_chart, strip
from banditsolve.core.text import plural
from banditsolve.tunnels.bandida.maps import rebuilt
from banditsolve.tunnels.cards import card_kind, card_name
from banditsolve.tunnels.geometry import Placement
from banditsolve.tunnels.render import KIND_WORDS, Ghost, Note, ascii_art, svg
from banditsolve.tunnels.rules import apply, chance_outcomes
from banditsolve.tunnels.state import WON, GameState
from banditsolve.tunnels.table import Exit, Table

if TYPE_CHECKING:
    from banditsolve.tunnels.solvers.endgame import GameSolution, Move, WinShare
    from banditsolve.tunnels.solvers.result import Closure

#: Frames per row of a winning line's strip, and the size of a cell in a frame (pixels).
STRIP_COLUMNS = 4
FRAME_CELL = 32


class Step(NamedTuple):
    """One step of a closure certificate, replayed: ``number`` counts the cards laid (1 for
    the first; a map's removal carries the number of the map laid just before it, 0 before any
    card), ``placement`` the card laid (None for a map's removal, whose cards are
    ``removed``), and the exits the step ``closes`` and ``opens``."""

    number: int
    placement: Placement | None
    removed: tuple[Placement, ...]
    closes: tuple[Exit, ...]
    opens: tuple[Exit, ...]


def certificate_steps(table: Table, closure: Closure) -> tuple[Step, ...]:
    """The steps of ``closure``'s certificate on ``table``, laid through the rules (each
    placement checked as it is laid, each map's removal rebuilt)."""
    t = table
    out: list[Step] = []
    n = 0
    for item in closure.steps():
        before = t.exits
        if isinstance(item, Placement):
            n += 1
            t = t.place(item)
            laid: Placement | None = t.history[-1]
            removed: tuple[Placement, ...] = ()
        else:
            t = rebuilt(t, item.cards)
            laid, removed = None, tuple(item.cards)
        after = t.exits
        out.append(Step(n, laid, removed, tuple(sorted(before - after)),
                        tuple(sorted(after - before))))
    return tuple(out)


def exits_text(exits: Sequence[Exit]) -> str:
    """Exits in words: ``(0, 0) S, (1, 0) N``."""
    return ", ".join(map(str, exits))


def object_text(p: Placement) -> str:
    """A special card's object in brackets (`` [ladder]``), empty for a plain card."""
    kind = card_kind(p.card)
    return "" if kind == "tunnel" else f" [{KIND_WORDS[kind][0]}]"


def step_text(step: Step) -> str:
    """A step of the legend: ``3. L+TL@1,-1,270 [map]: closes (1, 0) N; opens 1 exit`` or,
    for a map's removal, ``then the map's remove TL@1,1,0: opens (1, 0) S again``."""
    if step.placement is None:
        cards = " ".join(map(str, step.removed))
        again = f"opens {exits_text(step.opens)} again" if step.opens else "opens no exit"
        return f"then the map's remove {cards}: {again}"
    closes = f"closes {exits_text(step.closes)}" if step.closes else "closes no exit"
    opens = f"; opens {plural(len(step.opens), 'exit')}" if step.opens else ""
    return f"{step.number}. {step.placement}{object_text(step.placement)}: {closes}{opens}"


def final_table(table: Table, closure: Closure) -> tuple[Table, dict[int, int], list[Ghost]]:
    """The table after the certificate, each of its cards the certificate laid numbered (index
    in its history to step), and the cards a map took off as ghosts with their steps (None
    for a card of the starting table)."""
    t = table
    number: dict[Placement, int | None] = dict.fromkeys(table.history)
    ghosts: list[Ghost] = []
    n = 0
    for item in closure.steps():
        if isinstance(item, Placement):
            n += 1
            t = t.place(item)
            number[t.history[-1]] = n
        else:
            t = rebuilt(t, item.cards)
            ghosts.extend(Ghost(p, number.pop(p, None)) for p in item.cards)
    steps = {i: s for i, p in enumerate(t.history) if (s := number.get(p)) is not None}
    return t, steps, ghosts


def _head(closure: Closure) -> str:
    """The answer's first lines: its status and reason, then its notes."""
    return "\n".join((f"{closure.status}: {closure.reason}", *closure.notes))


def closure_svg(closure: Closure, table: Table | None = None) -> str:
    """``closure`` drawn on ``table`` (by default the table it was asked of): see the module
    notes. An answer that does not know its table is written as text alone."""
    table = closure.table if table is None else table
    if table is None:
        return words_svg(f"closure: {closure.status}", _head(closure))
    if closure.status != "closable":
        impossible = closure.status == "impossible"
        legend = (
            [Note(None, f"open exits ({len(table.exits)}): {exits_text(sorted(table.exits))}")]
            if impossible and table.exits
            else []
        )
        return svg(
            table,
            remaining=closure.pool,
            caption=_head(closure),
            area=closure.area,
            open_exits=impossible,
            legend=legend,
        )
    final, numbers, ghosts = final_table(table, closure)
    notes = [
        Note(step.number if step.placement is not None else None, step_text(step))
        for step in certificate_steps(table, closure)
    ]
    return svg(
        final, caption=_head(closure), area=closure.area, steps=numbers, ghosts=ghosts,
        legend=notes,
    )


def closure_ascii(closure: Closure, table: Table | None = None, *, source: str | None = None,
                  legend: bool = True) -> str:
    """The answer in ASCII: its status and reason, ``source`` (where the cards came from, for
    a game state's question), the numbered steps, and the final table with each laid card's
    number; an impossible or unknown answer: the table asked of, its exits and dead exits (and
    for an impossible one the exits left open)."""
    table = closure.table if table is None else table
    lines = [f"{closure.status}: {closure.reason}"]
    if source is not None:
        lines.append(f"  with {source}")
    if table is None:
        return "\n".join(lines)
    if closure.status == "closable":
        for step in certificate_steps(table, closure):
            indent = "  " if step.placement is not None else "     "
            lines.append(indent + step_text(step))
        if closure.placements:
            final, numbers, _ = final_table(table, closure)
            lines.append(ascii_art(final, legend=legend, steps=numbers))
        return "\n".join(lines)
    lines.append(ascii_art(table, closure.pool, legend=legend, area=closure.area))
    if closure.status == "impossible" and table.exits:
        lines.append(f"open exits ({len(table.exits)}): {exits_text(sorted(table.exits))}")
    return "\n".join(lines)


def words_svg(title: str, text: str) -> str:
    """A picture of text alone (an answer that has no table to draw)."""
    lines = [line for line in text.splitlines() if line] or [title]
    doc = Svg(max(320, 8 * max(len(line) for line in lines) + 16), 24 * len(lines) + 16,
              title=title)
    for i, line in enumerate(lines):
        doc.add("text", {"x": 8, "y": 24 * i + 24, "font_size": 13, "font_family": "sans-serif"},
                text=line)
    return doc.to_string()


# -- an endgame's line -------------------------------------------------------------------------


class Frame(NamedTuple):
    """One table of a winning line: its caption (its number and move), the state after the
    move, and the cards the line laid so far with their numbers."""

    caption: str
    state: GameState
    numbers: dict[Placement, int]


def move_text(number: int, move: Move) -> str:
    """``3. turn 4, player 1: L@0,1,90`` (a placement), ``change``, ``pass`` or another
    decision's words."""
    return f"{number}. turn {move.turn}, player {move.player}: {move.action}"


def line_frames(start: GameState, line: Sequence[Move]) -> list[Frame]:
    """The start and the state after each move of ``line``, replayed through the rules (each
    move checked legal as it is applied; a chance node met on the way takes its first
    outcome, as the solver's line shows it)."""
    s = start
    numbers: dict[Placement, int] = {}
    frames = [Frame(f"0. start, player {start.to_act} to act", s, {})]
    for k, move in enumerate(line, 1):
        while s.is_chance:
            s = apply(s, chance_outcomes(s)[0][0])
        s = apply(s, move.action)
        if isinstance(move.action, Placement):
            numbers = {**numbers, s.table.history[-1]: k}
        end = " (won)" if s.outcome == WON else ""
        frames.append(Frame(move_text(k, move) + end, s, numbers))
    return frames


def _frame_steps(table: Table, numbers: dict[Placement, int]) -> dict[int, int]:
    return {i: n for i, p in enumerate(table.history) if (n := numbers.get(p)) is not None}


def solution_svg(solution: GameSolution, start: GameState | None = None) -> str:
    """An endgame's answer: with a line, a strip of tables, one per move (each card the line
    laid numbered by its move), titled with the status and reason; without one, the start
    and the reason."""
    start = solution.start if start is None else start
    head = f"{solution.status}: {solution.reason}"
    if start is None:
        return words_svg(f"solve: {solution.status}", head)
    if not solution.line:
        return svg(start.table, remaining=start.remaining(), caption=head,
                   area=start.options.area)
    line = line_frames(start, solution.line)
    span = _span(f.state.table for f in line)
    frames = [
        (f.caption, svg(f.state.table, size=FRAME_CELL, span=span, area=f.state.options.area,
                        steps=_frame_steps(f.state.table, f.numbers)))
        for f in line
    ]
    return strip(frames, title=head, columns=STRIP_COLUMNS)


def _span(tables: Iterable[Table]) -> tuple[int, int, int, int]:
    """The cells every one of ``tables`` covers."""
    boxes = [t.bounds() for t in tables]
    return (min(b[0] for b in boxes), min(b[1] for b in boxes), max(b[2] for b in boxes),
            max(b[3] for b in boxes))


def solution_ascii(solution: GameSolution, start: GameState | None = None) -> str:
    """An endgame's answer in ASCII: the status and reason, each move numbered, then the
    table at the end of the line with each card the line laid numbered (or the start's table
    when there is no line)."""
    start = solution.start if start is None else start
    lines = [f"{solution.status}: {solution.reason}"]
    lines += [f"  {move_text(k, m)}" for k, m in enumerate(solution.line, 1)]
    if start is None:
        return "\n".join(lines)
    if not solution.line:
        lines.append(ascii_art(start.table, start.remaining(), legend=False,
                               area=start.options.area))
        return "\n".join(lines)
    last = line_frames(start, solution.line)[-1]
    steps = _frame_steps(last.state.table, last.numbers)
    lines.append(ascii_art(last.state.table, legend=False, area=last.state.options.area,
                           steps=steps))
    return "\n".join(lines)


def share_svg(share: WinShare) -> str:
    """The sampled shuffles won, lost and undecided as bars; the share won and its 95 %
    interval in the title."""
    n = max(1, share.samples)
    title = share.headline
    bars = [("won", share.won / n), ("lost", share.lost / n), ("undecided", share.unknown / n)]
    return bar_chart(bars, title=title, scale=1.0, width=max(360, 7 * len(title) + 16))


# -- one card's placements ----------------------------------------------------------------------


class Spot(NamedTuple):
    """A legal placement of a card, with the exits left after it and whether it walls an exit
    into a one-cell hole."""

    placement: Placement
    exits_after: int
    hole: bool


def spot_text(number: int, spot: Spot) -> str:
    """``3. L@0,1,90: 5 exits after`` (and a hole's warning)."""
    warn = "  [walls an exit into a hole]" if spot.hole else ""
    return f"{number}. {spot.placement}: {plural(spot.exits_after, 'exit')} after{warn}"


def placements_svg(
    table: Table, card: int, spots: Sequence[Spot], remaining: Sequence[int] | None = None
) -> str:
    """The legal placements of ``card`` on ``table`` as numbered dashed outlines (each a
    ``<g class="placement" data-index="N">``), listed under the table."""
    seen: dict[tuple[int, int], int] = {}
    ghosts = []
    for k, spot in enumerate(spots, 1):
        p = spot.placement
        corner = seen.get((p.x, p.y), 0)
        seen[p.x, p.y] = corner + 1
        ghosts.append(Ghost(p, k, "placement", corner))
    legend = [Note(None, f"{plural(len(spots), 'legal placement')} of {card_name(card)}")]
    legend += [Note(k, spot_text(k, s)) for k, s in enumerate(spots, 1)]
    return svg(table, remaining=remaining, ghosts=ghosts, legend=legend)


def placements_ascii(card: int, spots: Sequence[Spot]) -> str:
    """The legal placements of ``card`` as numbered lines."""
    lines = [f"{plural(len(spots), 'legal placement')} of {card_name(card)}:"]
    lines += [f"  {spot_text(k, s)}" for k, s in enumerate(spots, 1)]
    return "\n".join(lines)

