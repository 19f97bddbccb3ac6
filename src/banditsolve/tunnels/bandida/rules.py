"""Bandida's rules (``specs/bandida.md``) as a variant of Bandido's: :class:`BandidaRules`
overrides only what differs (the deal, the pending effects of the special cards, the chance of
an alarm's marked back, the modes' ends) and plays the rest with Bandido's own helpers
(:mod:`banditsolve.tunnels.rules`).

A Bandida state carries its :class:`BandidaRules` (:attr:`~banditsolve.tunnels.state.GameState.
variant`), which holds the deck (whose data says which components each mode holds) and the
modes with their goals (:data:`~banditsolve.tunnels.bandida.components.MODES`). Bandido's
rules hand it the state.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, replace
from fractions import Fraction
from functools import cache

from banditsolve.core.limits import MAX_HAND
from banditsolve.core.text import plural, shown
from banditsolve.errors import IllegalActionError, NotationError, RuleOptionError
from banditsolve.tunnels import reachable
from banditsolve.tunnels import rules as bandido
from banditsolve.tunnels.bandida.components import MODES, Mode
from banditsolve.tunnels.bandida.effects import (
    TOOL_HAND,
    after_alarm,
    alarm_effect,
    close_five,
    end_turn,
    object_effect,
    pop,
    refill,
    take,
)
from banditsolve.tunnels.bandida.ends import (
    closed_end,
    dead_exit_loses,
    hole_loses,
    mode_end,
    table_loss,
)
from banditsolve.tunnels.bandida.maps import Choices, rebuilt, removal_indices, removals
from banditsolve.tunnels.bandida.state import PHASES, BandidaOptions, BandidaState
from banditsolve.tunnels.cards import (
    BANDIDO_SUPER5,
    BANDIDO_SUPER6,
    Deck,
    card_kind,
    hand_code,
    is_alarm,
    load_deck,
)
from banditsolve.tunnels.geometry import Placement, normalise
from banditsolve.tunnels.state import (
    LOST,
    REASON_CODES,
    REASONS,
    Action,
    Change,
    Discard,
    Draw,
    GameState,
    Remove,
)

#: The phases of an alarm acting: laid, then its discards (BA-ALARM-2, BA-ALARM-4, BA-ALARM-5).
ALARM_PHASES = ("alarm", "discard", "five")


def sides(code: int) -> tuple[int, ...]:
    """BA-MODE-5: the codes a card may be laid as: Bandido's super card on either side."""
    return (BANDIDO_SUPER6, BANDIDO_SUPER5) if code == BANDIDO_SUPER6 else (code,)


def expect(state: object) -> BandidaState:
    """``state`` as a Bandida state (:class:`NotationError` for anything else)."""
    if not isinstance(state, BandidaState):
        raise NotationError(f"expected a Bandida game state, not {shown(state)}")
    return state


# -- the map -------------------------------------------------------------------------------------


def removal_choices(state: BandidaState) -> tuple[Remove, ...]:
    """BA-OBJ-6, BA-OPT-1..4: the map's removals, in a fixed order (by the order laid)."""
    o = state.options
    return removals(state.table, o.map_removes, o.map_split, o.map_reopen, o.map_short)


def removal_sets(state: BandidaState) -> Choices:
    """:func:`removal_choices` as sets of indices into ``state.table.history``, in the same
    order (without building the actions)."""
    o = state.options
    return removal_indices(state.table, o.map_removes, o.map_split, o.map_reopen, o.map_short)


# -- the moves -----------------------------------------------------------------------------------


def hand_fits(state: GameState) -> bool:
    """True when a card of the hand of the player whose turn it is can be laid now."""
    return bandido.fits(state.table, state.hands[state.player], state.options, sides)


def legal_actions(state: BandidaState) -> tuple[Action, ...]:
    """The moves of the player to act (not at a chance node, not over): the alarm just drawn,
    a discard, a map's removal, or a turn's placements, change and pass."""
    pending = state.pending
    table, options = state.table, state.options
    if pending == "alarm":
        alarms = (c for c in state.hands[state.actor] if is_alarm(c))
        return tuple(bandido.placements_of(table, alarms, options, sides))
    if pending == "discard":
        return tuple(Discard(c) for c in sorted(set(state.hands[state.queue[0]])))
    if pending == "map":
        return removal_choices(state)
    found = bandido.placements_of(table, state.hands[state.player], options, sides)
    return bandido.with_turn_end(state, found)


def _back(code: int) -> str:
    return "alarm" if is_alarm(code) else "plain"


def chance_outcomes(state: BandidaState) -> tuple[tuple[Draw, Fraction], ...]:
    """BA-ALARM-1, BA-NOTE-4: the top card is uniform among the unseen cards whose back
    matches the one showing (``state.top``); the next card's back shows at the same time."""
    counts = Counter(state.unseen)
    eligible = {c: n for c, n in counts.items() if not state.top or _back(c) == state.top}
    total = sum(eligible.values())
    alarms = sum(n for c, n in counts.items() if is_alarm(c))
    rest = len(state.unseen) - 1
    out: list[tuple[Draw, Fraction]] = []
    both = total * rest
    for code, n in sorted(eligible.items()):
        if not rest:
            out.append((Draw(code), Fraction(n, total)))
            continue
        after = alarms - is_alarm(code)
        for back, m in (("alarm", after), ("plain", rest - after)):
            if m:
                out.append((Draw(code, back), Fraction(n * m, both)))
    return tuple(out)


# -- settling: what happens without a decision, by the pending effect ---------------------------


def settle(state: BandidaState) -> BandidaState:
    """Everything that needs no decision, for Bandida (see :func:`banditsolve.tunnels.rules.
    settle`): each pending effect's automatic steps, the draws, the end checks."""
    while state.outcome is None:
        step = _SETTLE.get(state.pending, _settle_turn)
        state, done = step(state)
        if done:
            return state
    return state


Step = Callable[[BandidaState], tuple[BandidaState, bool]]


def _settle_five(state: BandidaState) -> tuple[BandidaState, bool]:
    """BA-ALARM-5: the alarm discards the pile's top cards, one chance node each."""
    if state.left <= 0 or not state.pile_size:
        return after_alarm(close_five(state)), False
    if state.unseen:
        return state, True  # chance node: which card is discarded
    return take(state, state.pile[0], (), state.pile[1:]), False


def _settle_alarm(state: BandidaState) -> tuple[BandidaState, bool]:
    """BA-ALARM-2, BA-OPT-9: an alarm that cannot be laid leaves the game; its effect per
    option."""
    if legal_actions(state):
        return state, True
    hand = state.hands[state.actor]
    code = next(c for c in hand if is_alarm(c))
    hands = list(state.hands)
    hands[state.actor] = bandido.remove_one(hand, code)
    state = replace(state, hands=tuple(hands), discard=bandido.insert_sorted(state.discard, code))
    if state.options.alarm_stuck == "effect":
        return alarm_effect(state, code), False
    return after_alarm(state), False


def _settle_discard(state: BandidaState) -> tuple[BandidaState, bool]:
    """BA-ALARM-4: the players with an empty hand discard nothing."""
    while state.queue and not state.hands[state.queue[0]]:
        state = replace(state, queue=state.queue[1:])
    if state.queue:
        return state, True
    return after_alarm(state), False


def _settle_map(state: BandidaState) -> tuple[BandidaState, bool]:
    """BA-OBJ-5, BA-OPT-4: a map with nothing to remove is done (maybe the last map: BA-END-2)."""
    if removal_sets(state).size:
        return state, True
    state = pop(state)
    lost = table_loss(state)  # BA-END-2: this map removes nothing
    if lost is not None:
        return lost, True
    return (state if state.phase else end_turn(state)), False


def _settle_extra(state: BandidaState) -> tuple[BandidaState, bool]:
    """BA-OBJ-3, BA-OBJ-4, BA-OPT-6, BA-OPT-7: the dynamite's second card or the broken tool's
    cards, while one fits; then the effect lapses."""
    pending, options = state.pending, state.options
    if hand_fits(state):
        return state, True
    if (
        pending == "dynamite"
        and options.dynamite_stuck == "change"
        and state.pile_size
        and not state.changed
    ):
        return state, True  # BA-OPT-7: the player may change the hand
    if pending == "tool" and options.tool_stuck == "under" and state.hands[state.player]:
        hands = list(state.hands)
        rest = hands[state.player]
        hands[state.player] = ()
        state = replace(state, hands=tuple(hands), pile=state.pile + rest)
    state = replace(pop(state), changed=False)
    return (state if state.phase else end_turn(state)), False


def _settle_turn(state: BandidaState) -> tuple[BandidaState, bool]:
    """The draws owed (BA-TURN-2, BA-END-1), the deal's end, an alarm showing on top of the
    pile (BA-OPT-12), then Bandido's last steps."""
    if state.to_draw:
        if not state.pile_size:
            if state.options.pile_out == "must_draw" and state.pending != "deal":
                return replace(state, outcome=LOST, reason=REASONS["no-draw"], to_draw=()), True
            return replace(state, to_draw=()), False
        if state.unseen:
            return state, True  # chance node
        return take(state, state.pile[0], (), state.pile[1:]), False
    if state.pending == "deal":
        return pop(state), False
    if not any(state.hands) and not any(state.size(p) for p in range(state.players)):
        # BA-OPT-10 (alarm_zero=zero): nobody holds a card or may draw one, for good.
        return replace(state, outcome=LOST, reason=REASONS["no-hand"]), True
    if state.options.alarm_show == "top" and state.top_is_alarm:
        # BA-OPT-12: an alarm showing on top of the pile is taken at once by the player
        # whose turn it is (a draw among the alarms when the pile is unseen).
        return replace(state, to_draw=(state.player,)), False
    return bandido.when_nothing_is_owed(state, hand_fits, sides)


_SETTLE: dict[str, Step] = {
    "five": _settle_five,
    "alarm": _settle_alarm,
    "discard": _settle_discard,
    "map": _settle_map,
    "dynamite": _settle_extra,
    "tool": _settle_extra,
}


# -- applying an action --------------------------------------------------------------------------


def apply(state: BandidaState, action: Action) -> BandidaState:
    """The state after ``action`` (already checked as an action of the tunnel game)."""
    if state.is_chance:
        return _draw(state, action)
    if isinstance(action, Placement):
        return _lay(state, normalise(action.card, action.x, action.y, action.rotation))
    if isinstance(action, Draw):
        raise IllegalActionError(f"{action}: no card is to be drawn now")
    if isinstance(action, Remove):
        return _remove(state, action)
    if isinstance(action, Discard):
        return _discard(state, action)
    if action not in legal_actions(state):
        raise IllegalActionError(bandido.why_illegal(state, action))
    if isinstance(action, Change):
        return _change(state)
    # Pass: the turn ends (a dynamite or a tool still pending lapses).
    return settle(end_turn(replace(state, phase=(), changed=False)))


def _draw(state: BandidaState, action: Action) -> BandidaState:
    """A chance outcome: the card drawn (or discarded by the alarm) and the next back shown."""
    unseen = bandido.drawn_from(state, action)
    assert isinstance(action, Draw)
    if action not in dict(bandido.chance_outcomes(state)):
        raise IllegalActionError(
            f"{action}: not a possible draw (the top card's back shows"
            f" {state.top or 'nothing yet'}; top= names the next card's back)"
        )
    new = replace(state, top=action.top)
    return settle(take(new, action.card, unseen, state.pile))


def _lay(state: BandidaState, action: Placement) -> BandidaState:
    """A card laid: the alarm just drawn, or a turn's card with its object's effect."""
    _check_lay(state, action)
    pending = state.pending
    who = state.to_act
    hands = list(state.hands)
    hands[who] = bandido.remove_one(hands[who], hand_code(action.card))
    table = state.table.place(action, check=False)
    new = replace(state, table=table, hands=tuple(hands))
    if pending == "alarm":
        new = mode_end(new)
        if new.outcome is not None:
            return new
        return settle(alarm_effect(new, action.card))
    new = replace(new, changed=False)
    if new.quiet == who and not state.phase:
        new = replace(new, quiet=-1)  # BA-OBJ-7: the round is over
    effects = pending not in ("dynamite", "tool") or state.options.chain == "yes"
    kind = card_kind(action.card)
    new = mode_end(new, laid_map=effects and kind == "map")
    if new.outcome is not None:
        return new
    if pending == "dynamite":
        new = pop(new)  # the dynamite's extra card is down
    if effects:
        new = object_effect(new, who, kind, pending)
    if not new.phase:
        new = end_turn(new)
    return settle(new)


def _check_lay(state: BandidaState, action: Placement) -> None:
    """:class:`IllegalActionError` for a card laid while a map's removal, a discard or the
    alarm just drawn is owed first, or laid where the rules forbid."""
    pending = state.pending
    if pending in ("map", "discard"):
        effect, wanted = ("map", "removal") if pending == "map" else ("alarm", "discard")
        raise IllegalActionError(f"{action}: the {effect} wants a {wanted} first")
    if pending == "alarm" and not is_alarm(action.card):
        raise IllegalActionError(f"{action}: the alarm just drawn must be laid first")
    if not bandido.is_legal(state, action):
        raise IllegalActionError(bandido.why_illegal(state, action))


def _remove(state: BandidaState, action: Remove) -> BandidaState:
    """BA-OBJ-5: the map's removal (its cards in the order laid), then the end checks."""
    history = state.table.history
    order = {p: i for i, p in enumerate(history)}
    known = all(p in order for p in action.cards)
    combo = tuple(sorted(order[p] for p in action.cards)) if known else ()
    if known:
        action = Remove(tuple(history[i] for i in combo))
    if (
        state.pending != "map"
        or len(set(combo)) != len(combo)
        or not removal_sets(state).holds(combo)
    ):
        raise IllegalActionError(f"{action}: not a removal the map allows now")
    table = rebuilt(state.table, action.cards)
    out = tuple(sorted((*state.discard, *(p.card for p in action.cards))))
    new = mode_end(pop(replace(state, table=table, discard=out)))
    if new.outcome is not None:
        return new
    return settle(new if new.phase else end_turn(new))


def _discard(state: BandidaState, action: Discard) -> BandidaState:
    """BA-ALARM-4: the player to act discards a card (maybe the last map, or the last card
    that could fill an exit's cell: BA-END-2)."""
    if state.pending != "discard" or action.card not in state.hands[state.queue[0]]:
        raise IllegalActionError(f"{action}: not a discard the alarm asks for now")
    who = state.queue[0]
    hands = list(state.hands)
    hands[who] = bandido.remove_one(hands[who], action.card)
    new = replace(
        state,
        hands=tuple(hands),
        discard=bandido.insert_sorted(state.discard, action.card),
        queue=state.queue[1:],
    )
    lost = table_loss(new)  # BA-END-2: maybe the last map gone, or an exit now dead
    if lost is not None:
        # The alarm's discards end with the game when nobody is left to discard.
        return lost if lost.queue else pop(lost)
    return settle(new)


def _change(state: BandidaState) -> BandidaState:
    """BA-TURN-3: the hand under the pile, as many cards owed; the player may then lay one
    (under Bandido's reading, ``hand_change=ends_turn``, the turn ends)."""
    player = state.player
    hand = state.hands[player]
    hands = list(state.hands)
    hands[player] = ()
    new = replace(
        state,
        hands=tuple(hands),
        pile=state.pile + hand,
        to_draw=(player,) * len(hand),
        changed=True,
    )
    if not hand and player in state.hold:
        # BA-OBJ-4 (tool=over_turns): a hand emptied (by an alarm's discard) draws three again.
        new = refill(new, player)
    if state.options.hand_change == "ends_turn":  # Bandido's reading (BD-OPT-2)
        new = replace(
            new, phase=(), changed=False, player=(player + 1) % state.players, turn=state.turn + 1
        )
    return settle(new)


# -- which states the game can reach -------------------------------------------------------------


def check_fields(state: BandidaState) -> None:
    """BA-NOTE-1: Bandida's fields agree with each other and with the players."""
    players = state.players
    sizes = state.sizes
    if len(sizes) != players or not all(0 <= n <= MAX_HAND for n in sizes):
        raise NotationError(
            f"sizes must give {plural(players, 'hand size')} of 0..{MAX_HAND} (BA-OBJ-2)"
        )
    _check_phases(state.phase)
    for key, value, low in (("actor", state.actor, 0), ("quiet", state.quiet, -1)):
        if not low <= value < players:
            raise NotationError(f"{key}: player {value} does not exist (BA-NOTE-1)")
    if any(not 0 <= p < players for p in (*state.queue, *state.hold)):
        raise NotationError(
            f"queue/hold: no such player ({plural(players, 'player')}; BA-NOTE-1)"
        )
    pending = state.pending
    if bool(state.queue) != (pending == "discard") or len(set(state.queue)) != len(state.queue):
        raise NotationError(
            "queue lists the players still to discard, only in phase discard (BA-ALARM-4)"
        )
    if (state.left > 0) != (pending == "five"):
        raise NotationError(
            "left counts the cards an alarm still discards, only in phase five (BA-ALARM-5)"
        )
    if state.aside and pending != "five":
        raise NotationError(
            "aside: cards are set aside only while an alarm discards five (BA-ALARM-5)"
        )
    _check_alarm(state)


def _check_alarm(state: BandidaState) -> None:
    """BA-ALARM-2: an alarm is being laid (phase ``alarm``) only by a drawer who holds one, and
    a game not over names an actor (the drawer) only while an alarm acts."""
    pending = state.pending
    laying = pending == "alarm" and state.outcome is None  # (a game may end as it is laid)
    if laying and not any(is_alarm(c) for c in state.hands[state.actor]):
        raise NotationError(
            f"phase alarm: an alarm is being laid, but the actor (player {state.actor}) holds"
            " none (BA-ALARM-2)"
        )
    if state.actor and state.outcome is None and pending not in ALARM_PHASES:
        raise NotationError(
            f"actor={state.actor}: the actor is the drawer of an alarm, named only while the"
            f" alarm acts (phase {', '.join(ALARM_PHASES)}; BA-ALARM-2)"
        )


def _check_phases(phase: tuple[str, ...]) -> None:
    for i, name in enumerate(phase):
        if name not in PHASES:
            raise NotationError(
                f"phase {name[:20]!r} is not one of {', '.join(PHASES)} (BA-NOTE-1)"
            )
        if name in ("alarm", "discard", "five", "deal") and i != len(phase) - 1:
            raise NotationError(f"phase {name} can only be the last (innermost) one (BA-NOTE-1)")
    if len(set(phase)) != len(phase):
        raise NotationError("a phase is listed twice (BA-NOTE-1)")


def check_top(state: BandidaState) -> None:
    """BA-ALARM-1: the back seen on top of the unseen pile is that of an unseen card."""
    top = state.top
    if top not in ("", "alarm", "plain"):
        raise NotationError(f"top={top[:20]!r} is not alarm or plain (BA-ALARM-1)")
    if top and not any(is_alarm(c) == (top == "alarm") for c in state.unseen):
        raise NotationError(f"top={top}: no such card among the unseen cards (BA-ALARM-1)")


def check_objects(state: BandidaState, pile: tuple[int, ...]) -> None:
    """What the objects and alarms leave behind agrees with the cards played (a card of the
    mode's pile not among those in play was laid, discarded or taken off: an upper bound on
    those laid): no hand keeps an alarm but the drawer's, while it is being laid (BA-ALARM-2);
    phase ``dynamite`` right after a dynamite (BA-OBJ-3); a quiet round after a water bottle
    (BA-OBJ-7); hand sizes above the larger of the option's and a broken tool's only by
    backpacks laid, one each, and no hand larger than the largest size (BA-OBJ-2, BA-OBJ-4)."""
    # (A game that ends inside an effect keeps its phase as it was: no phase is checked then.)
    going = state.outcome is None
    left = Counter(card_kind(c) for c in state.remaining())
    played = Counter(card_kind(c) for c in pile)
    played.subtract(left)
    _check_alarms_held(state, going)
    if "dynamite" in state.phase and going:
        history = state.table.history
        if len(history) < 2 or card_kind(history[-1].card) != "dynamite":
            raise NotationError(
                "phase dynamite: another card is laid right after a dynamite, but the last"
                " card laid is no dynamite (BA-OBJ-3)"
            )
    if state.quiet >= 0 and played["water_bottle"] <= 0:
        raise NotationError(
            f"quiet={state.quiet}: a quiet round follows a water bottle laid, but every water"
            " bottle is still in play (BA-OBJ-7)"
        )
    _check_hand_sizes(state, played)


def _check_alarms_held(state: BandidaState, going: bool) -> None:
    """BA-ALARM-2: no hand keeps an alarm but the drawer's, one, while it is being laid (or
    one in any hand once the game is over: ``going`` False)."""
    for i, hand in enumerate(state.hands):
        alarms = sum(1 for c in hand if is_alarm(c))
        drawer = state.pending == "alarm" and i == state.actor
        if alarms and not (alarms == 1 and (drawer or not going)):
            raise NotationError(
                f"hand {i} keeps an alarm card: a drawn alarm is laid at once, by the drawer"
                " (phase alarm; BA-ALARM-2)"
            )


def _check_hand_sizes(state: BandidaState, played: Counter[str]) -> None:
    """BA-OBJ-2, BA-OBJ-4: hand sizes above the larger of the option's and a broken tool's
    only by the backpacks ``played``, one each, and no hand larger than the largest size;
    BA-ALARM-4, BA-OPT-10: below the smaller only by the alarms played that make every player
    discard one."""
    base = max(state.options.hand_size, TOOL_HAND)
    backpacks = max(0, played["backpack"])
    grown = sum(max(0, state.size(p) - base) for p in range(state.players))
    if grown > backpacks:
        raise NotationError(
            f"sizes: the hand sizes grow {grown} past {base} (the hand size or a broken"
            f" tool's three), but {plural(backpacks, 'backpack')} can have been laid (BA-OBJ-2)"
        )
    # The other way: a size falls only by the alarm that makes everyone discard one, one each
    # (never below one under alarm_zero=keep_one), from the option's size or a broken tool's.
    floor = 0 if state.options.alarm_zero == "zero" else 1
    start = min(state.options.hand_size, TOOL_HAND if played["broken_tool"] > 0 else 99)
    least = max(floor, start - max(0, played["alarm_discard_one"]))
    for p in range(state.players):
        if state.size(p) < least:
            raise NotationError(
                f"sizes: hand {p}'s size {state.size(p)} is below {least}, the least it can"
                f" fall to (from {start}, by {plural(start - least, 'alarm')} that makes every"
                " player discard one, never below one under alarm_zero=keep_one; BA-ALARM-4,"
                " BA-OPT-10)"
            )
    most = base + backpacks + 1  # (+1: an alarm just drawn)
    for i, hand in enumerate(state.hands):
        if len(hand) > most:
            raise NotationError(
                f"hand {i} holds {len(hand)} cards, more than any hand can: {most - 1} with"
                f" {plural(backpacks, 'backpack')} laid (BA-OBJ-2, BA-OBJ-4)"
            )


def _loose(state: BandidaState) -> Callable[[int], int]:
    """The cards a player holds beside the hand: an alarm just drawn (BA-ALARM-2), an alarm
    showing on top of the pile owed to the player whose turn it is (BA-OPT-12) or a card still
    to discard; no bound under a broken tool, nor once one has been laid under
    ``tool_stuck=keep``, where the cards that did not fit stay in hand above its new size
    (BA-OBJ-4, BA-OPT-6; :func:`check_objects` bounds every hand)."""
    shown = state.options.alarm_show == "top" and state.top_is_alarm is not False
    kept = state.options.tool_stuck == "keep" and any(
        card_kind(c) == "broken_tool" for c in (*state.table.cards(), *state.discard)
    )

    def loose(i: int) -> int:
        if kept or i in state.hold or ("tool" in state.phase and i == state.player):
            return -1
        alarm = "alarm" in state.phase and i == state.actor
        on_top = shown and i == state.player and i in state.to_draw
        return int(alarm) + int(on_top) + int(i in state.queue)

    return loose


@dataclass(frozen=True, slots=True)
class BandidaRules:
    """Bandida's rules as a variant of Bandido's (:class:`~banditsolve.tunnels.state.VariantRules`):
    the deck (``deck``: its special cards marked by kind, and its data saying which cards each
    mode's pile holds), the modes with their goals
    (:data:`~banditsolve.tunnels.bandida.components.MODES`), and the rules that differ. One per
    deck (:func:`rules_for`)."""

    deck: Deck

    @property
    def name(self) -> str:
        """The game's registry name."""
        return "bandida"

    @property
    def modes(self) -> dict[int, Mode]:
        """Each mode by its number and its goal (its components: the deck's data)."""
        return MODES

    def mode(self, state: object) -> Mode:
        """The mode ``state`` is played in."""
        return MODES[expect(state).mode]

    # The rules hand a variant only its own states (each carries its variant): the hot methods
    # below narrow the type with an assertion rather than a call.

    def legal_actions(self, state: GameState) -> tuple[Action, ...]:
        assert isinstance(state, BandidaState)
        return legal_actions(state)

    def chance_outcomes(self, state: GameState) -> tuple[tuple[Draw, Fraction], ...]:
        assert isinstance(state, BandidaState)
        return chance_outcomes(state)

    def sample_chance(self, state: GameState, rng: random.Random) -> Draw:
        """A draw with the right probabilities: one ``rng.random()`` over the outcomes."""
        outcomes = bandido.chance_outcomes(state)
        pick = rng.random()
        for action, p in outcomes:
            pick -= float(p)
            if pick < 0:
                return action
        return outcomes[-1][0]

    def apply(self, state: GameState, action: Action) -> GameState:
        assert isinstance(state, BandidaState)
        return apply(state, action)

    def settle(self, state: GameState) -> GameState:
        assert isinstance(state, BandidaState)
        return settle(state)

    def carry_on(self, state: GameState) -> GameState:
        s = expect(state)
        if not s.table.exit_count:
            return mode_end(s)
        return table_loss(s) or settle(s)

    def cards_to_lay(self, state: GameState) -> tuple[int, ...]:
        """The hand of the player to act (only its alarms while an alarm is to be laid)."""
        assert isinstance(state, BandidaState)
        hand = state.hands[state.to_act]
        if state.phase and state.phase[-1] == "alarm":
            return tuple(c for c in hand if is_alarm(c))
        return hand

    def random_choice(self, state: GameState, rng: random.Random) -> Action | None:
        """BA-NOTE-5: a discard or a map's removal at random (a removal without building every
        one: the same choice as ``legal_actions(state)[rng.randrange(...)]``)."""
        assert isinstance(state, BandidaState)
        pending = state.phase[-1] if state.phase else ""
        if pending == "map":
            sets = removal_sets(state)
            combo = sets.nth(rng.randrange(sets.size))
            return Remove(tuple(state.table.history[i] for i in combo))
        if pending == "discard":
            choices = legal_actions(state)
            return choices[rng.randrange(len(choices))]
        return None

    def validate(self, state: GameState, *, course: bool = True) -> None:
        """Refuse a Bandida state the rules cannot reach: Bandido's checks (the start card,
        every card of the mode's pile once, players, hands, the end), a component the mode
        lacks (BA-SETUP-4, BA-DECK-5), and Bandida's own fields (BA-NOTE-1)."""
        s = expect(state)
        if s.variant != self:
            raise NotationError(
                "a Bandida state must carry the rules of its own deck (its variant; BA-DECK-1)"
            )
        reachable.check_start(s, self.deck)
        laid = [hand_code(c) for c in s.table.cards()[1:]]
        self.deck.refuse_outside((*laid, *s.remaining(), *s.discard), s.mode, "game state")
        pile = self.deck.cards(s.mode)
        reachable.check_cards(s, self.deck, pile, out=s.discard, where=f" of mode {s.mode}")
        reachable.check_players_of(s)
        check_fields(s)
        check_top(s)
        check_objects(s, pile)
        reachable.check_hands(s, s.size, _loose(s))
        reachable.check_turn(s)
        reachable.check_no_hole(s)
        if not course:
            return
        if s.outcome is None:
            bandido.check_stops(s, table_loss, settle, END_RULES)
            return
        code = REASON_CODES[s.reason]
        if code in CLOSED:
            holds = not s.table.exit_count and closed_end(s) == code
        else:
            holds = bandido.reason_holds(s, hole_loses, dead_exit_loses, sides)
        rule = MODES[s.mode].rule if code == "no-exit" else END_RULES[code]
        bandido.check_end(s, holds, rule, CLOSED[1:])


#: The ends of a closed table (BA-MODE-*): won, or lost for closing too soon.
CLOSED = ("no-exit", "no-ladder", "no-join")
#: The rule that states each of Bandida's ends but the win (its mode's rule, BA-MODE-*): the
#: empty pile (BA-END-1) or a draw from it (BA-OPT-11), no card in play that fits, a hole or a
#: dead exit for good (BA-END-2), a table closed too soon (BA-MODE-6).
END_RULES: dict[str, str] = {
    "pile-empty": "BA-END-1",
    "no-draw": "BA-OPT-11",
    "stuck": "BA-END-2",
    "all-down": "BA-END-2",
    "hole": "BA-END-2",
    "dead-exit": "BA-END-2",
    "no-ladder": "BA-MODE-6",
    "no-join": "BA-MODE-6",
    "no-hand": "BA-OPT-10",
}


@cache
def rules_for(deck: Deck) -> BandidaRules:
    """Bandida's rules with ``deck`` (one object per deck)."""
    return BandidaRules(deck)


def new_game(
    players: int = 2,
    options: BandidaOptions | None = None,
    *,
    deck: Deck | None = None,
    rng: random.Random | None = None,
) -> BandidaState:
    """A new Bandida game (BA-SETUP-*): the super card down, the mode's pile shuffled, three
    cards each, an alarm dealt going back. With ``rng`` the pile is shuffled by it and the
    deal happens at once; without, the deal is a sequence of chance nodes."""
    bandido.check_players(players, "Bandida")
    options = options or BandidaOptions()
    if not isinstance(options, BandidaOptions):
        raise RuleOptionError("Bandida's games are played with BandidaOptions")
    deck = deck or load_deck("bandida")
    table = bandido.start_table(deck.super_card(options.super_side))
    cards = deck.cards(options.mode)
    sizes = (options.hand_size,) * players
    deal = tuple(p for _ in range(options.hand_size) for p in range(players))
    variant = rules_for(deck)
    if rng is None:
        start = BandidaState(
            table, ((),) * players, cards, (), 0, deal, options, variant=variant, sizes=sizes,
            phase=("deal",),
        )
        return settle(start)
    pile = list(cards)
    rng.shuffle(pile)
    hands: list[list[int]] = [[] for _ in range(players)]
    for p in deal:
        while is_alarm(pile[0]):
            # BA-SETUP-3: the alarm goes back into the pile, which is shuffled again.
            rng.shuffle(pile)
        hands[p].append(pile.pop(0))
    start = BandidaState(
        table,
        tuple(tuple(sorted(h)) for h in hands),
        (),
        tuple(pile),
        0,
        (),
        options,
        variant=variant,
        sizes=sizes,
    )
    return settle(start)

