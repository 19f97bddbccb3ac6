"""The tunnel games' information and numbering (issue 29, for the OpenSpiel and PettingZoo
adapters): imperfect information, the observation, action indices by place, the longest game.
Bandido and Bandida alike (a Bandida state's own fields are read where it has them).

**Imperfect information.** The hands are hidden from the other players: seed 004 (its Dutch
note: "je mag je kaarten niet letterlijk aan medespelers laten zien of exacte afbeeldingen
benoemen", you may not show your cards or name them) and seed 003 ("How to Play": the players
may neither show nor describe their cards; BA-GAME-3). The engine holds every hand for the
solvers (BA-GAME-3, BD-SOLVE-1), but a player sees only their own. Nobody sees the pile's order
(BD-SETUP-2: the pile is shuffled face down), nor which cards lie in it (that would tell the
other hands, the deck less the table, the discards and one's own hand): a player sees the table,
their own hand, how many cards each hand and the pile hold, and the rest of the state that is
on the table (turn, who owes a draw, the options; Bandida's hand sizes, pending effects,
discards and the back of the top card, BA-ALARM-1). The observation is the state's JSON with
the other hands, the unseen cards and the known cards under the pile as counts.

**Indices by place** (:mod:`banditsolve.core.observe`): an action's index is its place in
``legal_actions(state)`` (the engine's fixed order). The range is a bound, with ``N`` the
deck's cards and ``H`` the largest hand (``hand_size``; Bandida: :data:`HAND_ROOM`, as a
backpack may grow it and an alarm drawn sits in the hand until laid): a placement lays a card
of the hand (``H`` kinds at most) so that one of its squares covers a cell in front of an exit
(BD-PLACE-4), one of at most ``6 (N + 1)`` empty cells next to the table (the start card and
at most ``N`` more; a card's two cells touch at most six others), with one of its two squares
there and one of four rotations: ``48 (N + 1) H`` placements, and ``change`` and ``pass``; an
alarm's discard is one of ``H`` cards; a map removes at most three of the ``N`` cards laid
(BA-OBJ-5): ``C(N, 3) + C(N, 2) + N + 1`` sets. Chance: a draw names one of the deck's card
types and, in Bandida, the back of the next card (none, alarm, plain): ``3 T`` for ``T`` types.

**The longest game** (loose): ``D + 3 N + (3 N + 1) * P * (N + 2)`` steps for ``P`` players,
``D`` the chance draws. In Bandido ``D = N``: each card leaves the unseen pile at most once
(cards changed under the pile stay known and are drawn without chance, BD-SETUP-2), and the
rules bound every game. In Bandida a discard-five alarm shuffles the known cards and those it
set aside back into the unseen pile (BA-ALARM-5; two alarms: each card is drawn by chance at
most three times), and an alarm dealt at the set-up goes back into the pile and is shuffled
again (BA-SETUP-3), which may in principle repeat for ever: ``D = 3 N + R`` allows ``R =``
:data:`ALARM_REDRAWS` such redraws, and the length is then a cap (each redraw has a chance of
at most 2 in 50: 100 of them, less than ``1e-139``). The rest: each card is laid at most once
(a card a map takes off leaves the game) and taken off or discarded at most once, ``3 N``
player steps. Between two of them the table does not change, and when no card still in play
fits the game is lost (BD-END-3; BA-OPT-10: no hand left); otherwise a fitting card is in a
hand (laid within ``P`` turns: placing is compulsory, BD-TURN-1) or in the pile, which every
turn without a placement turns through by at least one card (a change draws as many cards as it
puts under, BD-TURN-3), so within ``P * (N + 2)`` turns, each one step besides its draws.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

from banditsolve.core.limits import MAX_HAND
from banditsolve.core.observe import (
    KEPT,
    Frame,
    Memo,
    Piece,
    at_place,
    expect_observer,
    observation_text,
    padded,
    piece,
    place_of,
)
from banditsolve.tunnels import rules
from banditsolve.tunnels.cards import Deck
from banditsolve.tunnels.geometry import Placement
from banditsolve.tunnels.notation import StateForm, state_to_json
from banditsolve.tunnels.state import MAX_PLAYERS, Action, GameState, Options

PERFECT_INFORMATION = False
#: The backs a draw may show of the next card ("", "alarm", "plain").
TOPS = ("", "alarm", "plain")
#: Bandida's pending effects (its ``PHASES``), the outcomes, for the tensor.
EFFECTS = ("deal", "dynamite", "tool", "map", "alarm", "discard", "five")
OUTCOMES = (None, "won", "lost")
#: The alarms dealt at a Bandida set-up that :func:`max_game_length` allows to go back into the
#: pile (BA-SETUP-3; the module notes).
ALARM_REDRAWS = 100
#: The most cards a hand holds: ``MAX_HAND``, and an alarm just drawn, laid at once (BA-ALARM-2).
HAND_ROOM = MAX_HAND + 1
#: The deepest stack of pending effects the tensor has room for.
DEPTH = 2 * len(EFFECTS)


def hand_bound(options: Options, variant: bool) -> int:
    """``H``: the most cards a hand can hold (see the module notes)."""
    return HAND_ROOM if variant else options.hand_size


def distinct_actions(deck: Deck, options: Options, variant: bool) -> int:
    """The bound on a state's legal player actions (the module notes)."""
    n = deck.size
    h = hand_bound(options, variant)
    removals = math.comb(n, 3) + math.comb(n, 2) + n + 1 if variant else 0
    return max(48 * (n + 1) * h + 2, h, removals)


def chance_outcomes(deck: Deck) -> int:
    return len(TOPS) * len(deck.types)


def max_game_length(deck: Deck, players: int, variant: bool) -> int:
    """The bound (Bandido) or cap (Bandida) of the module notes."""
    n = deck.size
    draws = 3 * n + ALARM_REDRAWS if variant else n
    return draws + 3 * n + (3 * n + 1) * players * (n + 2)


def _document(state: GameState, player: int, form: StateForm) -> dict[str, Any]:
    expect_observer(player, state.players, form.game)
    document: dict[str, Any] = dict(state_to_json(state, form))
    document.pop("notation", None)
    document["hands"] = [
        hand if p == player else len(hand) for p, hand in enumerate(document["hands"])
    ]
    document["unseen"] = len(state.unseen)
    document["pile"] = len(state.pile)
    document["observer"] = player
    return document


def observation(state: GameState, player: int, form: StateForm) -> str:
    """What ``player`` sees (the module notes)."""
    return observation_text(_document(state, player, form))


def tensor_length(deck: Deck, options: type[Options]) -> int:
    """Per card of the deck and the start card: a placement (present, code, x, y, rotation /
    90); per card of the deck a discard and a card set aside; the observer's hand
    (:data:`HAND_ROOM` codes); per seat the hand's count, its size, owed a draw, to discard, on
    hold; the pending effects (:data:`DEPTH`); 13 more; each rule option (the place of its
    value) and the play area (4)."""
    n = deck.size
    seats = MAX_PLAYERS * 5
    rest = DEPTH + 13 + len(options.OPTION_SET.names()) + 4
    return (n + 1) * 5 + n * 2 + HAND_ROOM + seats + rest


def _seats(state: GameState, name: str, default: Sequence[int]) -> list[int]:
    values: Sequence[int] = getattr(state, name, default)
    return [int(p in values) for p in range(MAX_PLAYERS)]


def _options(options: Options) -> list[int]:
    """The place of each option's value among its listed ones, then the play area (kept by
    the options' identity)."""
    entry = _OPTIONS.get(id(options))
    if entry is not None and entry[0] is options:
        return entry[1]
    chosen = options.to_text()
    out: list[int] = []
    for name, listed in options.OPTION_SET.names().items():
        value = chosen[name]
        out.append(listed.index(value) if value in listed else len(listed))
    area = options.area or (0, 0, 0, 0)
    if len(_OPTIONS) >= KEPT:
        _OPTIONS.clear()
    _OPTIONS[id(options)] = (options, [*out, *area])
    return [*out, *area]


def _laid(placement: Placement) -> Piece:
    return piece((1, placement.card, placement.x, placement.y, placement.rotation // 90))


def _cards(memo: Memo, cards: tuple[int, ...], width: int) -> Piece:
    """``cards`` as their codes + 1, in ``width`` numbers (kept in ``memo``)."""
    return memo.get(cards, width) or memo.put(
        cards, width, padded([c + 1 for c in cards], width, "a row of cards")
    )


#: The pieces of the tensors made (:class:`~banditsolve.core.observe.Memo`), each by the value
#: it is made from and the room for it: a state shares its discards and hands with the state
#: before it, but for the one that changed (and its table but for the last card: the frame
#: writes the placements that changed). One memo a part, as two parts may be made from one
#: value (the empty tuple).
_DISCARD, _ASIDE, _HAND = (Memo() for _ in range(3))
_OPTIONS: dict[int, tuple[Options, list[int]]] = {}
_SIZES: dict[tuple[int, type[Options]], tuple[Deck, tuple[int, int]]] = {}


def _sizes(deck: Deck, options: type[Options]) -> tuple[int, int]:
    """The deck's cards and :func:`tensor_length` (kept by the deck's identity)."""
    entry = _SIZES.get((id(deck), options))
    if entry is None or entry[0] is not deck:
        entry = (deck, (deck.size, tensor_length(deck, options)))
        if len(_SIZES) >= KEPT:
            _SIZES.clear()
        _SIZES[(id(deck), options)] = entry
    return entry[1]


def _filled(state: GameState, player: int, deck: Deck) -> Frame:
    """:func:`observation` as numbers, :func:`tensor_length` long: per card laid (the start
    card first, room for every card) 1, its code, x, y and rotation / 90; the codes + 1 of the
    discards, of the cards set aside, of the observer's hand (zeros after each); per seat the
    hand's count and size; per seat owed a draw, to discard, on hold; the pending effects
    (their place in :data:`EFFECTS` + 1); the unseen pile's count, the known pile's, the
    player, the actor, the turn, changed, the outcome, the players, the observer, Bandida's
    actor, cards left to discard, quiet turn and top card; the options and the play area."""
    expect_observer(player, state.players, "a tunnel game")
    n, length = _sizes(deck, type(state.options))
    frame = Frame.of(("tunnels", n, length, player), length)
    frame.put_rows(0, state.table.history, n + 1, 5, _laid)
    at = 5 * (n + 1)
    frame.put(at, _cards(_DISCARD, getattr(state, "discard", ()), n))
    frame.put(at + n, _cards(_ASIDE, getattr(state, "aside", ()), n))
    frame.put(at + 2 * n, _cards(_HAND, state.hands[player], HAND_ROOM))
    sizes: Sequence[int] = getattr(state, "sizes", ())
    values: list[int] = []
    for seat in range(MAX_PLAYERS):
        held = len(state.hands[seat]) if seat < state.players else 0
        size = sizes[seat] if seat < len(sizes) else state.options.hand_size
        values += [held, size if seat < state.players else 0]
    values += [int(p in state.to_draw) for p in range(MAX_PLAYERS)]
    values += _seats(state, "queue", ()) + _seats(state, "hold", ())
    phase: Sequence[str] = getattr(state, "phase", ())
    values += [EFFECTS.index(p) + 1 for p in phase] + [0] * (DEPTH - len(phase))
    values += [len(state.unseen), len(state.pile), state.player, state.to_act, state.turn]
    values += [int(state.changed), OUTCOMES.index(state.outcome), state.players, player]
    values += [getattr(state, "actor", 0), getattr(state, "left", 0), getattr(state, "quiet", -1)]
    values += [TOPS.index(getattr(state, "top", "")), *_options(state.options)]
    frame.put(at + 2 * n + HAND_ROOM, padded(values, length - at - 2 * n - HAND_ROOM, "the rest"))
    return frame


def observation_tensor(state: GameState, player: int, deck: Deck) -> tuple[float, ...]:
    """The observation tensor (the layout of :func:`_filled`)."""
    return _filled(state, player, deck).made()


def observation_bytes(state: GameState, player: int, deck: Deck) -> bytes:
    """:func:`observation_tensor` as ``float32`` bytes, without the tuple."""
    return _filled(state, player, deck).raw()


def action_index(state: GameState, action: Action, title: str) -> int:
    return place_of(rules.legal_actions(state), action, title)


def action_from_index(state: GameState, index: int, size: int, title: str) -> Action:
    return at_place(rules.legal_actions(state), index, size, title)
