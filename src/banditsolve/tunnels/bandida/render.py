"""Pictures of a Bandida game state (BA-NOTE-3): Bandido's pictures of the table, with the
mode and its goal, each hand's size, the top of the pile (an alarm's back is marked), what is
pending and the water bottle in the caption and the text under them."""

from __future__ import annotations

from banditsolve.tunnels import render
from banditsolve.tunnels import state as states
from banditsolve.tunnels.bandida.components import MODES
from banditsolve.tunnels.bandida.rules import expect
from banditsolve.tunnels.bandida.state import BandidaState
from banditsolve.tunnels.state import GameState

#: What the player to act does in each pending effect, for the caption.
DOING = {
    "dynamite": " (dynamite: another card)",
    "tool": " (broken tool: every card)",
    "map": " (map: remove cards)",
    "alarm": " (lay the alarm)",
    "discard": " (alarm: discard a card)",
}


def caption(state: GameState, title: str = "Bandida") -> str:
    """Bandido's caption with the mode, an alarm on top of the pile, the water bottle's quiet
    round and the pending effect."""
    s = expect(state)
    after_pile = []
    if s.top_is_alarm:
        after_pile.append("an alarm on top of the pile")
    if s.quiet >= 0:
        after_pile.append(f"no talking until player {s.quiet} plays again")
    pending = s.pending
    drawing = f"the alarm discards from the pile ({s.left} to go)" if pending == "five" else ""
    return render.caption(
        s,
        title,
        after_title=(f"mode {s.mode}",),
        after_pile=after_pile,
        drawing=drawing,
        doing=DOING.get(pending, ""),
    )


def bandida_line(state: GameState) -> str:
    """Bandida's state in words: the mode's goal, the top of the pile (an alarm's back is
    marked), what is pending (the effect a finished game ended inside), and the cards out of
    the game."""
    s = expect(state)
    top = {None: "unknown", True: "an alarm", False: "no alarm"}[s.top_is_alarm]
    parts = [f"mode {s.mode}: {MODES[s.mode].words}", f"top of the pile: {top}"]
    if s.phase:  # (a game that ends inside an effect keeps its phase: nothing is pending)
        head = "pending: " if s.outcome is None else "ended inside: "
        parts.append(head + ", ".join(s.phase))
    if s.quiet >= 0:
        parts.append(f"water bottle: no talking until player {s.quiet} plays again")
    if s.discard:
        parts.append(f"out of the game: {len(s.discard)}")
    return "; ".join(parts)


def state_ascii(state: GameState, title: str = "Bandida") -> str:
    """The table in ASCII, the caption, the hands with their sizes and Bandida's line."""
    return render.state_ascii(
        state, title, text=caption(state, title), sizes=True, more=(bandida_line(state),)
    )


def state_svg(state: GameState, title: str = "Bandida") -> str:
    """The table as SVG, the caption with each hand's cards of its size and Bandida's line."""
    sizes = ", ".join(f"p{i} {len(h)}/{state.size(i)}" for i, h in enumerate(state.hands))
    text = f"{caption(state, title)}; hands {sizes}; {bandida_line(state)}"
    return render.state_svg(state, title, text=text)


states.register_pictures(BandidaState, state_svg, state_ascii)
