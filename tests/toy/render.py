"""The toy's pictures: a row of counters."""

from __future__ import annotations

from banditsolve.core.svg import Svg
from tests.toy.state import State


def caption(state: State) -> str:
    if state.is_over:
        return f"over: player {state.taker} took the last counter"
    doing = "to roll" if state.is_chance else f"to take up to {min(state.rolled, state.pile)}"
    return f"{state.pile} of {state.options.pile} counters; player {state.to_move} {doing}"


def ascii_art(state: State) -> str:
    return f"{'o' * state.pile or '-'}\n{caption(state)}"


def svg(state: State) -> str:
    doc = Svg(20 + 16 * state.options.pile, 60, title=caption(state))
    for i in range(state.pile):
        doc.add("circle", {"cx": 18 + 16 * i, "cy": 20, "r": 6, "fill": "#795548"})
    doc.add("text", {"x": 10, "y": 50, "font_size": 11}, text=caption(state))
    return doc.to_string()
