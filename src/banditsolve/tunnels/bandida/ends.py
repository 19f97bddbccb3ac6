"""How a Bandida game ends on its table: each mode's goal (BA-MODE-*), and a one-cell hole or a
dead exit, which lose only once no map can undo them (BA-END-2)."""

from __future__ import annotations

from dataclasses import replace
from typing import TypeVar

from banditsolve.tunnels.bandida.components import MODES
from banditsolve.tunnels.bandida.maps import joined
from banditsolve.tunnels.bandida.state import BandidaState
from banditsolve.tunnels.cards import BANDIDO_SUPER6, KIND_INDEX, KIND_SHIFT, card_kind
from banditsolve.tunnels.state import LOSES_AT_ONCE, LOST, REASONS, WON, GameState, Options
from banditsolve.tunnels.table import dead_exits

S = TypeVar("S", bound=GameState)

#: The kind of Bandida's map card (a card code's bits from :data:`KIND_SHIFT` up).
MAP_KIND = KIND_INDEX["map"]


def is_map(code: int) -> bool:
    """True for a map card."""
    return code >> KIND_SHIFT == MAP_KIND


def maps_left(state: GameState, *, laid_map: bool = False) -> bool:
    """BA-END-2: whether a map card may still take cards off the table, so that a hole or a
    dead exit may still be undone: a map in a hand or in the pile (unseen or known), or one
    laid whose removals are still to come (phase ``map``; ``laid_map``: the map just laid,
    before its effect is pending). Always False in Bandido, which has no map."""
    if not isinstance(state, BandidaState):
        return False
    if laid_map or "map" in state.phase:
        return True
    return any(
        is_map(code)
        for cards in (*state.hands, state.unseen, state.pile, state.aside)
        for code in cards
    )


def hole_is_final(options: Options, map_left: bool) -> bool:
    """BD-END-4, BD-OPT-3, BA-END-2, the one rule for holes: whether an exit running into a
    one-cell hole loses the game now. ``hole=illegal``: never (no hole is made);
    ``hole=loses``: once the hole is there for good, that is when no map is left
    (``map_left`` False; always in Bandido); ``hole=loses_at_once``: at once."""
    if options.hole == "illegal":
        return False
    return options.hole == LOSES_AT_ONCE or not map_left


def hole_loses(state: GameState, *, laid_map: bool = False) -> bool:
    """True when an exit of ``state``'s table runs into a one-cell hole and that loses the
    game now (:func:`hole_is_final`; ``laid_map`` as for :func:`maps_left`)."""
    if state.options.hole == "illegal" or not state.table.holes():
        return False
    return hole_is_final(state.options, maps_left(state, laid_map=laid_map))


def dead_exit_loses(state: GameState, *, laid_map: bool = False) -> bool:
    """True under ``dead_exit=loses`` when an exit of ``state``'s table can never be closed
    (BD-PLACE-5) for good: with no map left (BA-END-2; a map's removals empty cells, so they
    may make a dead exit's cell fillable again)."""
    options = state.options
    return (
        options.dead_exit == "loses"
        and not maps_left(state, laid_map=laid_map)
        and bool(dead_exits(state.table, state.remaining(), options.area))
    )


def table_loss(state: S, *, laid_map: bool = False) -> S | None:
    """``state`` lost on its table (a hole, then a dead exit: :func:`hole_loses`,
    :func:`dead_exit_loses`), or None while neither loses now. Checked after every card laid
    or removed, and whenever the last map may leave the game another way (a discard, the
    alarm's discards from the pile, a map with nothing to remove)."""
    if hole_loses(state, laid_map=laid_map):
        return replace(state, outcome=LOST, reason=REASONS["hole"], to_draw=())
    if dead_exit_loses(state, laid_map=laid_map):
        return replace(state, outcome=LOST, reason=REASONS["dead-exit"], to_draw=())
    return None


def closed_end(state: BandidaState) -> str:
    """BA-MODE-*: the end of the mode's game once no exit is left: ``no-exit`` (won), or lost
    for closing too soon: ``no-ladder`` (mode 2, BA-MODE-2) or ``no-join`` (mode 3,
    BA-MODE-4, BA-MODE-6)."""
    goal = MODES[state.mode].goal
    if goal == "close":
        return "no-exit"
    table = state.table
    ladder = [c for c in table.cards() if card_kind(c) == "ladder"]
    if goal == "ladder":
        return "no-exit" if ladder else "no-ladder"
    return "no-exit" if ladder and joined(table, (ladder[0], BANDIDO_SUPER6)) else "no-join"


def mode_end(state: BandidaState, *, laid_map: bool = False) -> BandidaState:
    """BA-MODE-*, BA-END-*: the end checks of a Bandida state whose table changed (a card
    laid or removed): won, lost (closed too soon, a hole or a dead exit for good:
    :func:`table_loss`) or still on. ``laid_map``: the card just laid is a map whose removals
    are to come (so a hole is not yet for good)."""
    if not state.table.exit_count:
        code = closed_end(state)
        outcome = WON if code == "no-exit" else LOST
        return replace(state, outcome=outcome, reason=REASONS[code], to_draw=())
    return table_loss(state, laid_map=laid_map) or state
