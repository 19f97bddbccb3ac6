"""The effects of Bandida's special cards: the objects laid (BA-OBJ-*), the alarms drawn
(BA-ALARM-*), and the draws back up to each hand's size that they change (BA-TURN-2)."""

from __future__ import annotations

from dataclasses import replace

from banditsolve.tunnels.bandida.ends import table_loss
from banditsolve.tunnels.bandida.maps import KEEP_KINDS
from banditsolve.tunnels.bandida.state import BandidaState
from banditsolve.tunnels.cards import card_kind, is_alarm
from banditsolve.tunnels.rules import give, insert_sorted

#: A broken tool leaves its player three cards to hold (BA-OBJ-4).
TOOL_HAND = 3


def pop(state: BandidaState) -> BandidaState:
    """The innermost pending effect is done."""
    return replace(state, phase=state.phase[:-1])


def refill(state: BandidaState, player: int) -> BandidaState:
    """The player draws up to their hand size (BA-TURN-2, BA-OBJ-*): owed draws (none while
    the player draws nothing until the hand is empty, ``tool=over_turns``)."""
    if player in state.hold:
        if state.hands[player]:
            return state
        state = replace(state, hold=tuple(p for p in state.hold if p != player))
    owed = max(0, state.size(player) - len(state.hands[player]))
    return replace(state, to_draw=(player,) * owed)


def end_turn(state: BandidaState) -> BandidaState:
    """The turn of ``state.player`` is over: refill, then the next player."""
    player = state.player
    state = refill(state, player)
    return replace(
        state, player=(player + 1) % state.players, changed=False, turn=state.turn + 1
    )


def close_five(state: BandidaState) -> BandidaState:
    """BA-ALARM-5, the alarm's five discards done: what was set aside goes back, then the pile
    is shuffled (its order unknown again)."""
    everything = (*state.unseen, *state.pile, *state.aside)
    return replace(state, unseen=tuple(sorted(everything)), pile=(), aside=(), left=0, top="")


def take(
    state: BandidaState, code: int, unseen: tuple[int, ...], pile: tuple[int, ...]
) -> BandidaState:
    """The top card of the pile is ``code`` (drawn at a chance node or known): the alarm's
    discard (phase ``five``), a dealt card, or a drawn one (an alarm is laid at once)."""
    if state.pending == "five":
        return _discard_top(state, code, unseen, pile)
    if is_alarm(code):
        if state.pending == "deal":
            # BA-SETUP-3: an alarm dealt at the start goes back into the pile (shuffled).
            return replace(state, unseen=tuple(sorted((*unseen, *pile, code))), pile=(), top="")
        # BA-ALARM-2: laid at once by the player who drew it (the draws resume after it).
        who = state.to_draw[0]
        state = give(state, code, unseen, pile)
        return replace(state, phase=(*state.phase, "alarm"), actor=who, to_draw=())
    return give(state, code, unseen, pile)


def _discard_top(
    state: BandidaState, code: int, unseen: tuple[int, ...], pile: tuple[int, ...]
) -> BandidaState:
    """BA-ALARM-5: the top card discarded, or set aside when it is the ladder or Bandido's
    super card; the last map gone, or the last card that could fill an exit's cell, may end
    the game (BA-END-2)."""
    if card_kind(code) in KEEP_KINDS:
        return replace(state, unseen=unseen, pile=pile, aside=insert_sorted(state.aside, code))
    state = replace(
        state,
        unseen=unseen,
        pile=pile,
        discard=insert_sorted(state.discard, code),
        left=state.left - 1,
    )
    lost = table_loss(state)  # BA-END-2: maybe the last map gone, or an exit now dead
    if lost is not None:
        # The alarm's discards end with the game when they are done anyway.
        done = lost.left <= 0 or not lost.pile_size
        return pop(close_five(lost)) if done else lost
    return state


def alarm_effect(state: BandidaState, code: int) -> BandidaState:
    """BA-ALARM-3..5: the alarm's effect for everyone, then the drawer refills (at the end):
    five cards off the pile, or every player discards one card and plays on with one fewer
    (option ``alarm_zero``: a hand size of one stays, BA-OPT-10)."""
    if card_kind(code) == "alarm_discard_five":
        return replace(state, phase=(*state.phase[:-1], "five"), left=5)
    floor = 0 if state.options.alarm_zero == "zero" else 1
    order = [(state.actor + i) % state.players for i in range(state.players)]
    queue = tuple(p for p in order if state.hands[p] and state.size(p) > floor)
    sizes = tuple(
        state.size(p) - 1 if state.size(p) > floor else state.size(p) for p in range(state.players)
    )
    return replace(state, phase=(*state.phase[:-1], "discard"), queue=queue, sizes=sizes)


def after_alarm(state: BandidaState) -> BandidaState:
    """The alarm is done: the drawer draws to refill the hand."""
    state = pop(state)
    owed = max(0, state.size(state.actor) - len(state.hands[state.actor]))
    return replace(state, to_draw=(state.actor,) * owed, actor=0)


def object_effect(state: BandidaState, who: int, kind: str, pending: str) -> BandidaState:
    """BA-OBJ-2..7: the effect of an object of ``kind`` just laid by ``who`` (inside the
    effect ``pending``, if any): a bigger hand, a quiet round, another card, every card, or
    cards taken off the table."""
    sizes = list(state.sizes) or [state.options.hand_size] * state.players
    if kind == "backpack":
        sizes[who] += 1  # BA-OBJ-2
    elif kind == "water_bottle":
        state = replace(state, quiet=who)  # BA-OBJ-7
    elif kind == "dynamite":
        state = replace(state, phase=(*state.phase, "dynamite"))  # BA-OBJ-3
    elif kind == "broken_tool":
        sizes[who] = TOOL_HAND  # BA-OBJ-4: afterwards three cards, whatever was held
        if state.options.tool == "over_turns":
            state = replace(state, hold=tuple(sorted({*state.hold, who})))
        elif pending != "tool":
            state = replace(state, phase=(*state.phase, "tool"))
    elif kind == "map":
        state = replace(state, phase=(*state.phase, "map"))  # BA-OBJ-5
    return replace(state, sizes=tuple(sizes))
