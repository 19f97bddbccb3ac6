"""Which tunnel game states the rules can reach, one check per rule (BD-NOTE-4): the start
card, the cards of the deck each once, the players, the hands, the turn and a hand change,
the holes an option forbids. :func:`banditsolve.tunnels.rules.validate` calls them for Bandido
and the Bandida variant's validation for its states; what needs the rules' own moves (the
state the game stops at, the end) stays in :mod:`~banditsolve.tunnels.rules`."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence

from banditsolve.core.limits import MAX_TURN
from banditsolve.core.text import plural
from banditsolve.errors import NotationError
from banditsolve.tunnels.cards import Deck, card_name, hand_code
from banditsolve.tunnels.geometry import Placement
from banditsolve.tunnels.state import MAX_PLAYERS, MIN_PLAYERS, GameState


def check_start(state: GameState, deck: Deck) -> None:
    """BD-SETUP-1, BD-DECK-3: the super card's side that ``super_side`` names lies first, at
    ``(0, 0)`` turned 0, and no other super card lies on the table."""
    history = state.table.history
    side = deck.super_card(state.options.super_side)
    if not history or history[0] != Placement(side, 0, 0, 0):
        start = history[0] if history else "an empty table"
        raise NotationError(
            f"a game starts with the super card's {state.options.super_side} side at 0,0,0"
            f" (option super_side), not {start} (BD-SETUP-1)"
        )
    supers = dict(deck.super_sides).values()
    for number, p in enumerate(history[1:], start=2):
        if p.card in supers:
            raise NotationError(
                f"placement {number} ({p}): a second super card; the {deck.edition} game has"
                " one, laid first (BD-DECK-3)"
            )


def check_cards(
    state: GameState, deck: Deck, cards: Sequence[int], *, out: Sequence[int] = (), where: str = ""
) -> None:
    """BD-DECK-2, BD-DECK-3: every card of the game's pile ``cards`` exactly once: on the table
    after the start card, in a hand, in the pile or (a variant's) out of the game ``out``."""
    everything = [*(hand_code(c) for c in state.table.cards()[1:]), *state.remaining(), *out]
    deck.check_counts(everything, "game state")
    surplus = Counter(everything) - Counter(cards)
    if surplus:
        raise NotationError(
            f"game state: {card_name(sorted(surplus)[0])} is not in the pile{where}"
            " (BD-DECK-2)"
        )
    missing = Counter(cards) - Counter(everything)
    if missing:
        names = ", ".join(card_name(c) for c in sorted(missing)[:4])
        n = sum(missing.values())
        raise NotationError(
            f"game state: {plural(n, 'card')} of the {deck.edition} deck{where}"
            f" {'is' if n == 1 else 'are'} nowhere (on the table, in a hand or in the pile):"
            f" {names}" + (", ..." if len(missing) > 4 else "") + " (BD-DECK-2)"
        )


def check_players_of(state: GameState) -> None:
    """BD-SETUP-1, BD-TURN-1: 1 to 4 players; the player to act and those owed a card exist."""
    players = state.players
    if not MIN_PLAYERS <= players <= MAX_PLAYERS:
        raise NotationError(f"a game has 1 to 4 players, not {players} hands (BD-SETUP-1)")
    if not 0 <= state.player < players:
        raise NotationError(
            f"player {state.player} does not exist ({plural(players, 'player')}; BD-TURN-1)"
        )
    for p in state.to_draw:
        if not 0 <= p < players:
            raise NotationError(
                f"draw: player {p} does not exist ({plural(players, 'player')}; BD-TURN-2)"
            )


def check_hands(
    state: GameState, full: Callable[[int], int], loose: Callable[[int], int] | None = None
) -> None:
    """BD-SETUP-1, BD-TURN-2: no hand holds more than its size once the cards owed to it are
    counted (``full(i)``: player ``i``'s hand size; ``loose(i)``: cards a variant lets it hold
    beside its hand, or a negative number for no bound)."""
    for i, hand in enumerate(state.hands):
        owed = state.to_draw.count(i)
        extra = 0 if loose is None else loose(i)
        if extra < 0:
            continue
        size = full(i)
        if len(hand) - extra + owed > size:
            what = "its hand size" if state.variant is not None else "hand_size"
            raise NotationError(
                f"hand {i} holds {plural(len(hand), 'card')}"
                + (f" and is owed {owed}" if owed else "")
                + f", more than {what} {size} (BD-TURN-2)"
            )


def check_full_hands(state: GameState) -> None:
    """BD-TURN-2: a hand is refilled from the pile after every card laid and every change, so
    while cards are left in the pile every hand holds its size, counting the cards owed to it
    (a hand falls short only once the pile has run out, or as the game ends: a game not over;
    a hand change puts its cards under the pile and draws as many back)."""
    if not state.pile_size:
        return
    size = state.options.hand_size
    for i, hand in enumerate(state.hands):
        held = len(hand) + state.to_draw.count(i)
        if held < size:
            raise NotationError(
                f"hand {i} holds {plural(len(hand), 'card')}"
                + (f" and is owed {state.to_draw.count(i)}" if state.to_draw.count(i) else "")
                + f", fewer than hand_size {size}, while {plural(state.pile_size, 'card')} are"
                " left in the pile to refill it (BD-TURN-2)"
            )


def check_no_hole(state: GameState) -> None:
    """BD-OPT-3: under ``hole=illegal`` no card makes a one-cell hole (and a map's removal
    never does), so no exit of a reachable table runs into one."""
    holes = state.table.holes() if state.options.hole == "illegal" else ()
    if holes:
        raise NotationError(
            f"an exit runs into the one-cell hole {holes[0]}, which no card may make under"
            " hole=illegal (BD-OPT-3)"
        )


def check_turn(state: GameState) -> None:
    """The turn count within what a game can take and the player its turn's (player 0 plays
    turn 0, BD-TURN-1); a hand changed and the turn not over only
    where the player may still lay a card after it (``hand_change=may_place``, BD-OPT-2)."""
    if not 0 <= state.turn <= MAX_TURN:
        raise NotationError(
            f"game state: turn must be between 0 and {MAX_TURN}, not {state.turn} (BD-NOTE-4)"
        )
    if state.turn % state.players != state.player:
        raise NotationError(
            f"game state: player {state.player} cannot be to play at turn {state.turn} of a game"
            f" of {state.players} players: player 0 plays the first turn (turn 0) and each turn"
            f" passes to the next, so turn {state.turn} is player"
            f" {state.turn % state.players}'s (BD-TURN-1)"
        )
    if state.changed and state.options.hand_change != "may_place":
        raise NotationError(
            f"changed=yes: under hand_change={state.options.hand_change} a hand change ends the"
            " turn, so no turn goes on after one (BD-OPT-2)"
        )
