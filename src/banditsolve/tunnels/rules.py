"""Bandido's rules (``specs/bandido.md``): a new game, the legal actions, chance, apply, the end
checks, and :func:`validate`, the one place that says which states the game can reach.

:func:`legal_actions` lists the moves of the player to act in a fixed order: placements sorted
by card code, then ``y``, ``x``, rotation; then :data:`~.state.CHANGE` or :data:`~.state.PASS`.
:func:`apply` returns a new state or raises :class:`IllegalActionError`.

Chance is explicit. A draw from the unseen part of the pile is a chance node:
:func:`chance_outcomes` lists each card type with probability ``count / size``, which is
exactly a uniform shuffle drawn one card at a time. A game created with a seeded
``random.Random`` (or an explicit ``order``) has the whole pile known instead and never stops at
a chance node: that is the fast path for simulation.

A state that carries a variant (:attr:`~.state.GameState.variant`: Bandida's rules) is handed
to it; this module knows no variant. The helpers a variant shares with Bandido (the
placements of a hand, the last steps of settling, the checks of a reachable state) are public
here.
"""

from __future__ import annotations

import random
from bisect import bisect_left
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import replace
from fractions import Fraction
from functools import cache
from typing import TypeVar, cast

from banditsolve.core.args import expect_players
from banditsolve.core.limits import MAX_COORD
from banditsolve.core.text import shown
from banditsolve.errors import (
    ArgumentTypeError,
    DataError,
    IllegalActionError,
    NotationError,
    RuleOptionError,
)
from banditsolve.tunnels.cards import PORT_MASK, Deck, as_code, card_name, hand_code, load_deck
from banditsolve.tunnels.geometry import ROTATIONS, Placement, normalise
from banditsolve.tunnels.reachable import (
    check_cards,
    check_full_hands,
    check_hands,
    check_no_hole,
    check_players_of,
    check_start,
    check_turn,
)
from banditsolve.tunnels.state import (
    CHANGE,
    DEFAULT_OPTIONS,
    LOST,
    MAX_PLAYERS,
    MIN_PLAYERS,
    PASS,
    REASON_CODES,
    REASONS,
    WON,
    Action,
    Change,
    Discard,
    Draw,
    GameState,
    Options,
    Pass,
    Remove,
)
from banditsolve.tunnels.table import Table, candidates, creates_hole, dead_exits

#: A state of the tunnel games: Bandido's, or a variant's (each rule returns the same kind).
S = TypeVar("S", bound=GameState)
#: The rule that states each end of Bandido's (a reason code of :data:`REASONS`): won with no
#: exit; lost with the empty pile or a draw from it (option pile_out), with no card in play
#: that fits, on a one-cell hole, or on a dead exit (option dead_exit). Bandida's ends of a
#: closed table are never Bandido's, which is won with no exit left (BD-END-1).
END_RULES: dict[str, str] = {
    "no-exit": "BD-END-1",
    "pile-empty": "BD-OPT-1",
    "no-draw": "BD-OPT-1",
    "stuck": "BD-END-3",
    "all-down": "BD-END-3",
    "hole": "BD-END-4",
    "dead-exit": "BD-OPT-5",
    "no-ladder": "BD-END-1",
    "no-join": "BD-END-1",
}

#: The codes a card may be laid as (a card with two sides: each side's code); None: itself.
Sides = Callable[[int], tuple[int, ...]] | None

# -- setup ---------------------------------------------------------------------------------------


@cache
def start_table(code: int) -> Table:
    """The table of a new game: ``Table.start(code)`` (immutable, so one per start card)."""
    return Table.start(code)


@cache
def box_cards(deck: Deck) -> tuple[int, ...]:
    """``deck.cards()``, once per deck."""
    return deck.cards()


def check_players(players: object, title: str = "Bandido") -> int:
    """``players`` if it is a player count of the game (1 to 4, BD-SETUP-1), else
    :class:`RuleOptionError`."""
    return expect_players(players, title, MIN_PLAYERS, MAX_PLAYERS)


def new_game(
    players: int = 2,
    options: Options | None = None,
    *,
    deck: Deck | None = None,
    rng: random.Random | None = None,
    order: Sequence[int] | None = None,
) -> GameState:
    """A new Bandido game with the super card down and the deal to come (BD-SETUP-*).

    With ``rng`` the deck is shuffled by it and the deal happens at once (no chance nodes).
    With ``order`` the pile is exactly that sequence, top first. With neither, the pile is
    unseen and the deal is a sequence of chance nodes. (A variant deals its own games:
    Bandida's are :func:`banditsolve.tunnels.bandida.rules.new_game`.)
    """
    check_players(players)
    options = options or DEFAULT_OPTIONS
    if type(options) is not Options:
        raise RuleOptionError(
            f"these are {options.OPTION_SET.game}'s options; its own new_game deals its games"
        )
    deck = deck or load_deck()
    table = start_table(deck.super_card(options.super_side))
    cards = box_cards(deck)
    unseen: tuple[int, ...] = cards
    pile: tuple[int, ...] = ()
    if order is not None:
        if Counter(order) != Counter(cards):
            raise DataError(f"the pile order is not a shuffle of the {deck.edition} deck")
        unseen, pile = (), tuple(order)
    elif rng is not None:
        shuffled = list(cards)
        rng.shuffle(shuffled)
        unseen, pile = (), tuple(shuffled)
    deal = tuple(p for _ in range(options.hand_size) for p in range(players))
    state = GameState(table, ((),) * players, unseen, pile, 0, deal, options)
    return settle(state)


def state_from(
    table: Table,
    hands: Sequence[Sequence[int]],
    pile: Sequence[int] = (),
    *,
    unseen: Sequence[int] = (),
    player: int = 0,
    options: Options | None = None,
) -> GameState:
    """A Bandido game state from its parts: the table, each player's hand, the known pile (top
    first) and an unseen multiset on top of it, whose turn it is (at that player's first turn:
    player 0 plays turn 0, BD-TURN-1), and the rule options.

    The state is settled as after any move (a player whose hand does not fit still has to
    change; the game may already be over).
    """
    options = options or DEFAULT_OPTIONS
    if not MIN_PLAYERS <= len(hands) <= MAX_PLAYERS:
        raise RuleOptionError(f"Bandido is played by 1 to 4 players, not {len(hands)}")
    if not 0 <= player < len(hands):
        raise RuleOptionError(f"player {player} does not exist ({len(hands)} players)")
    for i, hand in enumerate(hands):
        if len(hand) > options.hand_size:
            raise RuleOptionError(
                f"hand {i} holds {len(hand)} cards, more than {options.hand_size}"
            )
    state = GameState(
        table,
        tuple(tuple(sorted(h)) for h in hands),
        tuple(sorted(unseen)),
        tuple(pile),
        player,
        (),
        options,
        turn=player,
    )
    if not table.exit_count:
        return replace(state, outcome=WON, reason=REASONS["no-exit"])
    return settle(state)


# -- placements ----------------------------------------------------------------------------------


def inside(p: Placement, area: tuple[int, int, int, int]) -> bool:
    """True when both cells of ``p`` lie in the play area ``(min_x, min_y, max_x, max_y)``."""
    min_x, min_y, max_x, max_y = area
    return all(min_x <= x <= max_x and min_y <= y <= max_y for x, y in p.cells)


def placements(
    table: Table, code: int, options: Options, sides: Sides = None
) -> Iterator[Placement]:
    """Every legal placement of the card ``code`` (laid as each code of ``sides(code)``, a card
    with two sides; by default as itself) under ``options``: the play area (BD-OPT-6) and, with
    ``hole=illegal``, no wall around a one-cell hole (BD-OPT-3)."""
    area = options.area
    for side in (code,) if sides is None else sides(code):
        for x, y, r, _ in candidates(table, side & PORT_MASK):
            p = Placement(side, x, y, r)
            if area is not None and not inside(p, area):
                continue
            if options.hole == "illegal" and creates_hole(table, p):
                continue
            yield p


def fits(table: Table, codes: Iterable[int], options: Options, sides: Sides = None) -> bool:
    """True when some card of ``codes`` can be laid now."""
    return any(
        next(placements(table, code, options, sides), None) is not None for code in set(codes)
    )


def placements_of(
    table: Table, codes: Iterable[int], options: Options, sides: Sides = None
) -> list[Action]:
    """The legal placements of ``codes`` in the order :func:`legal_actions` lists them: by card
    code, then ``y``, ``x``, rotation."""
    actions: list[Action] = []
    for code in sorted(set(codes)):
        found = sorted((p.y, p.x, p.rotation, p) for p in placements(table, code, options, sides))
        actions.extend(p for _, _, _, p in found)
    return actions


def with_turn_end(state: GameState, actions: list[Action]) -> tuple[Action, ...]:
    """A turn's placements and then :data:`~.state.PASS` after a hand change (BD-OPT-2), or,
    when nothing fits, :data:`~.state.CHANGE` (:data:`~.state.PASS` with an empty pile:
    BD-TURN-3, BD-TURN-4)."""
    if state.changed:
        actions.append(PASS)
    elif not actions:
        actions.append(CHANGE if state.pile_size else PASS)
    return tuple(actions)


def legal_actions(state: GameState) -> tuple[Action, ...]:
    """The moves of the player to act, in the documented order (empty when terminal).

    At a chance node this is the list of possible draws (see :func:`chance_outcomes`).
    """
    if state.outcome is not None:
        return ()
    if state.is_chance:
        return tuple(a for a, _ in chance_outcomes(state))
    if state.variant is not None:
        return state.variant.legal_actions(state)
    found = placements_of(state.table, state.hands[state.player], state.options)
    return with_turn_end(state, found)


def cards_to_lay(state: GameState) -> tuple[int, ...]:
    """The cards the player to act may lay now: the hand (a variant may say otherwise)."""
    if state.variant is not None:
        return state.variant.cards_to_lay(state)
    return state.hands[state.player]


def random_choice(state: GameState, rng: random.Random) -> Action | None:
    """A uniformly random legal choice when the decision now is not a placement (a variant's
    pending effects: Bandida's discards and map removals), else None (Bandido: never)."""
    if state.variant is not None:
        return state.variant.random_choice(state, rng)
    return None


# -- chance --------------------------------------------------------------------------------------

#: The outcomes of the last chance node asked (the same state is asked again at once: a draw
#: sampled from it, then applied and checked).
_LAST_CHANCE: list[tuple[GameState, tuple[tuple[Draw, Fraction], ...]] | None] = [None]


def chance_outcomes(state: GameState) -> tuple[tuple[Draw, Fraction], ...]:
    """At a chance node, each possible draw (by card code) with its exact probability
    (BD-SETUP-2); :class:`IllegalActionError` anywhere else."""
    last = _LAST_CHANCE[0]
    if last is not None and last[0] is state:
        return last[1]
    if not state.is_chance:
        raise IllegalActionError("not a chance node: no card is to be drawn now")
    if state.variant is not None:
        outcomes = state.variant.chance_outcomes(state)
    else:
        counts = Counter(state.unseen)
        total = len(state.unseen)
        outcomes = tuple((Draw(code), Fraction(n, total)) for code, n in sorted(counts.items()))
    _LAST_CHANCE[0] = (state, outcomes)
    return outcomes


def sample_chance(state: GameState, rng: random.Random) -> Draw:
    """Draw a chance outcome with the right probabilities from ``rng`` (Bandido: one
    ``randrange`` over the unseen cards)."""
    if not state.is_chance:
        raise IllegalActionError("not a chance node: nothing to draw")
    if state.variant is not None:
        return state.variant.sample_chance(state, rng)
    return Draw(state.unseen[rng.randrange(len(state.unseen))])


# -- transitions ---------------------------------------------------------------------------------


def remove_one(cards: tuple[int, ...], code: int) -> tuple[int, ...]:
    """``cards`` without one ``code``."""
    i = cards.index(code)
    return cards[:i] + cards[i + 1 :]


def insert_sorted(cards: tuple[int, ...], code: int) -> tuple[int, ...]:
    """The sorted ``cards`` with ``code`` added in its place."""
    i = bisect_left(cards, code)
    return (*cards[:i], code, *cards[i:])


def give(state: S, code: int, unseen: tuple[int, ...], pile: tuple[int, ...]) -> S:
    """The first player owed a card gets ``code``; the pile is then ``unseen`` and ``pile``."""
    who = state.to_draw[0]
    hands = list(state.hands)
    hands[who] = insert_sorted(hands[who], code)
    return replace(state, hands=tuple(hands), unseen=unseen, pile=pile, to_draw=state.to_draw[1:])


def deal_known(state: S) -> S:
    """:func:`give` the top card of the known pile to each player owed one, in turn, while the
    pile lasts (one new state for the lot)."""
    hands = list(state.hands)
    pile = state.pile
    owed = state.to_draw
    k = min(len(owed), len(pile))
    for who, code in zip(owed[:k], pile[:k], strict=True):
        hands[who] = insert_sorted(hands[who], code)
    return replace(state, hands=tuple(hands), unseen=(), pile=pile[k:], to_draw=owed[k:])


def drawn_from(state: GameState, action: Action) -> tuple[int, ...]:
    """At a chance node: the unseen cards after the draw ``action``; anything but a draw of an
    unseen card is refused with :class:`IllegalActionError`."""
    if not isinstance(action, Draw):
        raise IllegalActionError(f"a card must be drawn now, not {action}")
    if action.card not in state.unseen:
        raise IllegalActionError(f"{action}: no such card in the unseen pile")
    return remove_one(state.unseen, action.card)


def apply(state: S, action: Action) -> S:
    """The state after ``action``; :class:`IllegalActionError` (state unchanged) if illegal."""
    check_action(action)
    if state.outcome is not None:
        raise IllegalActionError(f"the game is over ({state.outcome}: {state.reason})")
    if state.variant is not None:
        return cast(S, state.variant.apply(state, action))
    if state.is_chance:
        unseen = drawn_from(state, action)
        assert isinstance(action, Draw)
        if action.top:
            raise IllegalActionError(f"{action}: top= is Bandida's")
        return settle(give(state, action.card, unseen, state.pile))
    if isinstance(action, Placement):
        action = normalise(action.card, action.x, action.y, action.rotation)
    if not is_legal(state, action):
        raise IllegalActionError(why_illegal(state, action))
    if isinstance(action, Placement):
        return _lay(state, action)
    if isinstance(action, Change):
        return settle(change_hand(state))
    return settle(next_turn(state))


def next_turn(state: S) -> S:
    """The turn passes to the next player (BD-TURN-1)."""
    nxt = (state.player + 1) % state.players
    return replace(state, player=nxt, changed=False, turn=state.turn + 1)


def _lay(state: S, action: Placement) -> S:
    """BD-TURN-1, BD-TURN-2: the card laid, a draw owed, then the end checks (BD-END-*)."""
    player = state.player
    hands = list(state.hands)
    hands[player] = remove_one(hands[player], action.card)
    table = state.table.place(action, check=False)
    owed = (player,) if state.pile_size or state.options.pile_out == "must_draw" else ()
    new = replace(next_turn(state), table=table, hands=tuple(hands), to_draw=owed)
    if not table.exit_count:
        return replace(new, outcome=WON, reason=REASONS["no-exit"], to_draw=())
    lost = table_loss(new)
    if lost is not None:
        return lost
    return settle(new)


def change_hand(state: S) -> S:
    """BD-TURN-3, BD-OPT-2: the hand goes under the pile, as many cards are owed, and the turn
    ends (or, with ``hand_change=may_place``, the player may still lay one)."""
    player = state.player
    hand = state.hands[player]
    hands = list(state.hands)
    hands[player] = ()
    new = replace(state, hands=tuple(hands), pile=state.pile + hand, to_draw=(player,) * len(hand))
    if state.options.hand_change == "may_place":
        return replace(new, changed=True)
    return next_turn(new)


def settle(state: S) -> S:
    """Carry out everything that needs no decision: known draws, end checks, forced passes.

    Every state :func:`new_game` and :func:`apply` return is settled (``settle`` leaves it
    as it is)."""
    if state.variant is not None:
        return cast(S, state.variant.settle(state))
    while state.outcome is None:
        if state.to_draw:
            if state.unseen:
                return state  # chance node
            if state.pile:
                state = deal_known(state)
            elif state.options.pile_out == "must_draw":
                return replace(state, outcome=LOST, reason=REASONS["no-draw"], to_draw=())
            else:
                state = replace(state, to_draw=())
            continue
        state, settled = when_nothing_is_owed(state, hand_fits)
        if settled:
            return state
    return state


def hand_fits(state: GameState) -> bool:
    """True when a card of the hand of the player whose turn it is can be laid now."""
    return fits(state.table, state.hands[state.player], state.options)


def when_nothing_is_owed(
    state: S, hand_fits: Callable[[S], bool], sides: Sides = None
) -> tuple[S, bool]:
    """The last steps of settling, shared with the variants, once no draw is owed: an empty
    pile under ``pile_out=end`` loses (BD-OPT-1); a hand that fits waits for its player; no
    card in play fitting anywhere loses (BD-END-3); after a hand change the turn passes.
    Returns the state and whether it is settled (``False``: settle again)."""
    if state.options.pile_out == "end" and not state.pile_size:
        return replace(state, outcome=LOST, reason=REASONS["pile-empty"]), True
    if hand_fits(state):
        return state, True
    remaining = state.remaining()
    if not fits(state.table, remaining, state.options, sides):
        reason = REASONS["stuck"] if remaining else REASONS["all-down"]
        return replace(state, outcome=LOST, reason=reason), True
    if state.changed:
        # After a hand change, nothing fits: the turn ends (BD-TURN-*, BA-TURN-3).
        return next_turn(state), False
    return state, True


# -- the end on the table: holes and dead exits (BD-END-4, BD-OPT-3, BD-OPT-5) -------------------


def hole_loses(state: GameState) -> bool:
    """BD-END-4, BD-OPT-3: True when an exit runs into a one-cell hole and ``hole`` is not
    ``illegal`` (in Bandido, with no card that takes cards off the table, a hole is for good)."""
    return state.options.hole != "illegal" and bool(state.table.holes())


def dead_exit_loses(state: GameState) -> bool:
    """BD-OPT-5: True under ``dead_exit=loses`` when an exit can never be closed (BD-PLACE-5)."""
    options = state.options
    return options.dead_exit == "loses" and bool(
        dead_exits(state.table, state.remaining(), options.area)
    )


def table_loss(state: S) -> S | None:
    """``state`` lost on its table (a hole, then a dead exit: :func:`hole_loses`,
    :func:`dead_exit_loses`), or None while neither loses. Checked after every card laid."""
    if hole_loses(state):
        return replace(state, outcome=LOST, reason=REASONS["hole"], to_draw=())
    if dead_exit_loses(state):
        return replace(state, outcome=LOST, reason=REASONS["dead-exit"], to_draw=())
    return None


# -- what an action is ---------------------------------------------------------------------------


def check_action(action: object) -> None:
    """Refuse what is not an action of the tunnel game at all (an :class:`ArgumentTypeError`
    when it is no action object; :class:`IllegalActionError` for one out of range): a
    placement of wrong types, a rotation that is not a quarter turn, a coordinate beyond
    ±10,000, a draw of something that is no card, anything else."""
    if isinstance(action, Placement):
        _check_placement(action)
    elif isinstance(action, Draw | Discard):
        check_code(action.card)
    elif isinstance(action, Remove):
        if not isinstance(action.cards, tuple) or len(action.cards) > 3:
            raise IllegalActionError(f"a map removes at most three cards: {shown(action)}")
        for p in action.cards:
            if not isinstance(p, Placement):
                raise IllegalActionError(f"not a placement: {shown(p)}")
            _check_placement(p)
    elif not isinstance(action, Change | Pass):
        raise ArgumentTypeError(f"not an action of the tunnel game: {shown(action)}")


def _check_placement(action: Placement) -> None:
    if any(isinstance(v, bool) or not isinstance(v, int) for v in action):
        raise IllegalActionError(f"not a placement: {shown(tuple(action))}")
    if action.rotation not in ROTATIONS:
        raise IllegalActionError(
            f"rotation must be 0, 90, 180 or 270, not {shown(action.rotation)}"
        )
    if abs(action.x) > MAX_COORD or abs(action.y) > MAX_COORD:
        raise IllegalActionError(f"a placement beyond ±{MAX_COORD}: {shown(tuple(action))}")
    check_code(action.card)


def check_code(card: object) -> None:
    """Refuse what is not a card code (:class:`IllegalActionError`)."""
    try:
        as_code(card)  # type: ignore[arg-type]
    except NotationError as exc:
        raise IllegalActionError(str(exc)) from None
    if isinstance(card, str):
        raise IllegalActionError(f"a card in an action is a card code, not the name {shown(card)}")


def is_legal(state: GameState, action: Action) -> bool:
    """True when ``action`` (a placement normalised) is legal now."""
    if isinstance(action, Placement):
        area = state.options.area
        return (
            hand_code(action.card) in state.hands[state.to_act]
            and state.table.placement_error(action) is None
            and (area is None or inside(action, area))
            and not (state.options.hole == "illegal" and creates_hole(state.table, action))
        )
    return action in legal_actions(state)


def why_illegal(state: GameState, action: Action) -> str:
    """Why ``action`` is not legal now, in one line."""
    if isinstance(action, Draw):
        return f"{action}: no card is to be drawn now"
    if isinstance(action, Placement):
        return _why_not_placed(state, action)
    if isinstance(action, Change):
        return "change: allowed only when no card in hand fits"
    return f"{action}: not allowed now (a card can be placed)"


def _why_not_placed(state: GameState, action: Placement) -> str:
    if hand_code(action.card) not in state.hands[state.to_act]:
        return f"{action}: player {state.to_act} holds no {card_name(action.card)}"
    error = state.table.placement_error(action)
    if error:
        return f"{action}: {error}"
    area = state.options.area
    if area is not None and not inside(action, area):
        return (
            f"{action}: leaves the play area (option table_size={state.options.table_size}:"
            f" x {area[0]}..{area[2]}, y {area[1]}..{area[3]})"
        )
    if state.options.hole == "illegal" and creates_hole(state.table, action):
        return f"{action}: walls an exit into a one-cell hole (option hole=illegal)"
    return f"{action}: not a legal move now"


# -- which states the game can reach (BD-NOTE-4) -------------------------------------------------


def validate(state: GameState, deck: Deck | None = None, *, course: bool = True) -> None:
    """Refuse a state the rules cannot reach, with one line naming the rule
    (:class:`NotationError`): the super card not at the start on the side ``super_side`` names,
    a card missing or twice too often (``deck``: the game's, by default Bandido's), a player or
    a hand the game cannot have, and (``course``) an end that is not true of the table (or
    none where the game is over) or a state the game would not stop at. A state with a variant
    is checked by the variant's rules."""
    if not isinstance(state, GameState):
        raise NotationError(f"expected a tunnel game state, not {shown(state)}")
    if state.variant is not None:
        state.variant.validate(state, course=course)
        return
    deck = deck or load_deck()
    check_start(state, deck)
    check_cards(state, deck, deck.cards())
    check_players_of(state)
    check_hands(state, lambda i: state.options.hand_size)
    check_turn(state)
    check_no_hole(state)
    if not course:
        return
    if state.outcome is None:
        check_stops(state, table_loss, settle)
        check_full_hands(state)
    else:
        rule = END_RULES[REASON_CODES[state.reason]]
        check_end(state, reason_holds(state, hole_loses, dead_exit_loses), rule)


def carry_on(state: S) -> S:
    """A state written by hand (a puzzle's game document) carried on as after any move: won
    with no exit left, lost on its table, else settled (BD-NOTE-4)."""
    if state.variant is not None:
        return cast(S, state.variant.carry_on(state))
    if not state.table.exit_count:
        return replace(state, outcome=WON, reason=REASONS["no-exit"], to_draw=())
    return table_loss(state) or settle(state)


def check_stops(
    state: S,
    loss: Callable[[S], GameState | None],
    settle: Callable[[S], GameState],
    rules: Mapping[str, str] | None = None,
) -> None:
    """BD-END-1, BD-NOTE-4: a game not over is one the game stops at: exits left, no loss on
    the table (``loss``), nothing it would do by itself (``settle`` leaves it as it is).
    ``rules``: the rule of each end (a reason code's; Bandido's :data:`END_RULES` by
    default)."""
    if not state.table.exit_count:
        raise NotationError(
            "no exit is left, so the game is won: write end=won:no-exit (BD-END-1)"
        )
    lost = loss(state)
    if lost is not None:
        code = REASON_CODES[lost.reason]
        raise NotationError(
            f"the game is already over ({lost.reason}): write end=lost:{code}"
            f" ({(rules or END_RULES)[code]})"
        )
    after = settle(state)
    if after != state:
        what = (
            f"the game is already over ({after.reason})"
            if after.outcome is not None
            else "the game would go on by itself from here (a known card is owed, or the"
            " turn passes)"
        )
        raise NotationError(f"not a state the game stops at: {what} (BD-NOTE-4)")


def reason_holds(
    state: GameState,
    hole: Callable[[GameState], bool],
    dead_exit: Callable[[GameState], bool],
    sides: Sides = None,
) -> bool:
    """Whether the reason of the finished ``state`` is true of it (BD-END-*), the table's
    losses judged by ``hole`` and ``dead_exit``, and a card's placements by ``sides`` (a
    variant's own rules for them)."""
    exits = state.table.exit_count
    code = REASON_CODES[state.reason]
    if code == "no-exit":
        return not exits
    if code == "hole":
        return hole(state)
    if code == "dead-exit":
        return dead_exit(state)
    if code == "no-hand":
        return not any(state.hands) and not any(state.size(p) for p in range(state.players))
    if code in ("stuck", "all-down"):
        # (BD-END-3: no card still in play fits anywhere, as settling finds it)
        remaining = state.remaining()
        stuck = bool(remaining) and not fits(state.table, remaining, state.options, sides)
        return exits > 0 and (stuck if code == "stuck" else not remaining)
    pile_out = {"pile-empty": "end", "no-draw": "must_draw"}.get(code)
    return pile_out is not None and state.options.pile_out == pile_out and not state.pile_size


def check_end(
    state: GameState, holds: bool, rule: str, closed_loses: tuple[str, ...] = ()
) -> None:
    """BD-END-*: a finished game's end goes together (won exactly for ``no-exit``), owes no
    card, and its reason is true of the table (``holds``; else refused naming ``rule``, the
    rule of that end: :data:`END_RULES`, or a variant's); a closed table is won unless the
    reason is one of ``closed_loses`` (a variant's)."""
    assert state.outcome is not None
    code = REASON_CODES[state.reason]
    if (state.outcome == WON) != (code == "no-exit"):
        raise NotationError(f"end={state.outcome}:{code} does not go together (BD-END-1)")
    if state.to_draw:
        raise NotationError("a finished game owes no card (draw=...) (BD-END-1)")
    if not holds:
        raise NotationError(
            f"end={state.outcome}:{code}: {REASONS[code]} is not true of this table ({rule})"
        )
    if state.outcome == LOST and not state.table.exit_count and code not in closed_loses:
        raise NotationError("no exit is left, so the game is won, not lost (BD-END-1)")
