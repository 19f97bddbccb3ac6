"""The cooperative game: setup, turns, hand changes, the end, options, chance, many games."""

from __future__ import annotations

import json
import random
from collections import Counter
from dataclasses import replace
from fractions import Fraction
from pathlib import Path

import pytest
from hypothesis import settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, invariant, rule

from banditsolve.errors import IllegalActionError, RuleOptionError
from banditsolve.tunnels import (
    CHANGE,
    PASS,
    Action,
    Draw,
    GameState,
    Options,
    Placement,
    Table,
    apply,
    chance_outcomes,
    from_json,
    from_notation,
    greedy_policy,
    legal_actions,
    load_deck,
    new_game,
    parse_card,
    play_game,
    position_of,
    sample_chance,
    to_json,
    to_notation,
)
from banditsolve.tunnels.bandida.rules import expect
from banditsolve.tunnels.bandida.rules import new_game as bandida_new_game
from banditsolve.tunnels.bandida.state import BandidaOptions, BandidaState
from banditsolve.tunnels.cards import card_kind
from banditsolve.tunnels.simulate import simulate, simulate_generic
from tests.profiles import scaled
from tests.rules import rules
from tests.tunnels.helpers import plain_copy
from tests.tunnels.oracle import Footprint, is_legal

DECK = load_deck()


def connected(table: Table) -> bool:
    """Every card is reachable from the super card through openings that meet."""
    plain = plain_copy(table)
    start = (table.history[0].x, table.history[0].y)
    seen, todo = {start}, [start]
    partner: dict[tuple[int, int], tuple[int, int]] = {}
    for p in table.history:
        a, b = p.cells
        partner[a], partner[b] = b, a
    while todo:
        cell = todo.pop()
        nxt = [partner[cell]]
        for d in plain.cells[cell][1]:
            n = (cell[0] + d[0], cell[1] + d[1])
            if n in plain.cells and (-d[0], -d[1]) in plain.cells[n][1]:
                nxt.append(n)
        for n in nxt:
            if n not in seen:
                seen.add(n)
                todo.append(n)
    return seen == set(plain.cells)


def check(state: GameState) -> None:
    total = len(state.table) + sum(len(h) for h in state.hands) + state.pile_size
    assert total == 70
    assert Counter(state.table.cards()[1:]) + Counter(state.remaining()) == Counter(DECK.cards())
    assert all(len(h) <= state.options.hand_size for h in state.hands)


@rules("BD-SETUP-1", "BD-TURN-2")
def test_setup_deals_three_each_from_a_seeded_shuffle() -> None:
    for players in (1, 2, 3, 4):
        state = new_game(players, rng=random.Random(players))
        assert not state.is_chance
        assert state.player == 0
        assert all(len(h) == 3 for h in state.hands)
        assert state.pile_size == 69 - 3 * players
        assert len(state.table) == 1
        assert state.table.exit_count == 6
        check(state)
    assert new_game(1, Options(super_side="super5"), rng=random.Random(0)).table.exit_count == 5
    with pytest.raises(RuleOptionError):
        new_game(5)
    with pytest.raises(RuleOptionError):
        new_game(0)


@rules("BD-SETUP-2")
def test_chance_is_explicit() -> None:
    state = new_game(2)
    assert state.is_chance
    outcomes = chance_outcomes(state)
    assert sum(p for _, p in outcomes) == 1
    probs = {card.card: p for card, p in outcomes}
    assert probs[parse_card("L")] == Fraction(3, 69)
    assert probs[parse_card("L+R")] == Fraction(2, 69)
    after = apply(state, Draw(parse_card("L")))
    assert after.hands[0] == (parse_card("L"),)
    assert {c.card: p for c, p in chance_outcomes(after)}[parse_card("L")] == Fraction(2, 68)
    with pytest.raises(IllegalActionError):
        apply(state, PASS)
    rng = random.Random(5)
    while state.is_chance:
        state = apply(state, sample_chance(state, rng))
    assert all(len(h) == 3 for h in state.hands)
    assert state.pile_size == 63
    with pytest.raises(IllegalActionError, match="not a chance node"):
        chance_outcomes(state)
    # After the deal, every draw is again a chance node.
    state = apply(state, legal_actions(state)[0])
    assert state.is_chance
    assert state.to_draw == (0,)


def fixed_game(order_front: list[str], players: int = 1, **options: object) -> GameState:
    """A game whose pile starts with the named cards (top first), the rest of the deck after."""
    front = [parse_card(n) for n in order_front]
    rest = Counter(DECK.cards()) - Counter(front)
    return new_game(players, Options.from_mapping(options), order=front + sorted(rest.elements()))


@rules("BD-TURN-1", "BD-TURN-2")
def test_placing_then_drawing_and_turn_order() -> None:
    state = fixed_game(["L", "L", "L", "TL", "TL", "TL", "L+R"], players=2)
    assert state.hands == ((parse_card("L"), parse_card("L"), parse_card("TL")),
                           (parse_card("L"), parse_card("TL"), parse_card("TL")))
    actions = legal_actions(state)
    assert CHANGE not in actions
    assert all(isinstance(a, Placement) for a in actions)
    # The documented order: card code, then y, x, rotation.
    keys = [(a.card, a.y, a.x, a.rotation) for a in actions if isinstance(a, Placement)]
    assert keys == sorted(keys)
    after = apply(state, actions[0])
    assert after.player == 1
    assert len(after.hands[0]) == 3
    assert parse_card("L+R") in after.hands[0]
    with pytest.raises(IllegalActionError):
        apply(state, CHANGE)  # only when nothing fits
    with pytest.raises(IllegalActionError):
        apply(state, Placement(parse_card("L+R"), 5, 5, 0))  # not in hand


def blocked_state(hand_change: str) -> GameState:
    """The first state of seeded greedy games where the player to act cannot place."""
    options = Options(hand_change=hand_change)
    for seed in range(200):
        rng = random.Random(seed)
        state = new_game(2, options, rng=rng)
        while state.outcome is None:
            if legal_actions(state) == (CHANGE,):
                return state
            state = apply(state, greedy_policy(state, rng))
    raise AssertionError("no blocked hand found")


@rules("BD-TURN-3", "BD-OPT-2")
def test_hand_change_only_when_nothing_fits_and_it_ends_the_turn() -> None:
    from banditsolve.tunnels import legal_placements

    state = blocked_state("ends_turn")
    player = state.player
    assert all(legal_placements(state.table, c) == () for c in state.hands[player])
    after = apply(state, CHANGE)
    assert after.player == (player + 1) % 2
    assert len(after.hands[player]) == 3
    assert after.table == state.table
    # The old hand went under the pile (known, at the bottom).
    assert tuple(sorted(after.pile[-3:])) == state.hands[player]
    assert after.pile_size == state.pile_size
    # Bandida's reading: the player may place from the new hand, or pass.
    state2 = blocked_state("may_place")
    after2 = apply(state2, CHANGE)
    if after2.player == state2.player:
        assert after2.changed
        assert PASS in legal_actions(after2)
        assert apply(after2, PASS).player != state2.player
    else:  # nothing in the new hand fits: the turn ended by itself
        assert not after2.changed
        assert all(legal_placements(after2.table, c) == () for c in after2.hands[state2.player])


def _states(players: int, seed: int, options: Options | None = None) -> list[GameState]:
    from banditsolve.tunnels.simulate import simulate

    return simulate(players, seed, options)


def _check_after_the_pile(states: list[GameState], first: int) -> bool:
    """Check the turns of a play_on game from ``first``, its first state with an empty pile,
    and its end (BD-TURN-4, BD-END-2); whether a card was placed after the pile ran out."""
    from banditsolve.tunnels import legal_placements

    for state in states[first:-1]:
        acts = legal_actions(state)
        assert CHANGE not in acts  # nothing to change with
        if not any(isinstance(a, Placement) for a in acts):
            assert acts == (PASS,)  # BD-TURN-4
    after = [s for s in states[first + 1 :] if len(s.table) > len(states[first].table)]
    final = states[-1]
    if final.outcome == "lost":
        assert final.reason in ("no card still in play fits anywhere", "every card is down")
        assert final.table.exit_count > 0
        for hand in final.hands:
            for code in hand:
                assert legal_placements(final.table, code) == ()
    return bool(after)


def _check_pile_out_end(states: list[GameState]) -> bool:
    """Check a game with pile_out=end (BD-END-3): the pile never runs out before its last
    state, which is lost when it does; whether it ended that way."""
    final = states[-1]
    assert all(s.pile_size > 0 for s in states[:-1])
    if final.reason != "the draw pile is empty":
        assert final.outcome == "won" or final.pile_size > 0
        return False
    assert final.outcome == "lost"
    assert final.pile_size == 0
    assert final.table.exit_count > 0
    assert any(final.hands)
    return True


@rules("BD-TURN-4", "BD-END-2", "BD-END-3", "BD-OPT-1")
def test_end_of_the_pile() -> None:
    # play_on: the game goes on after the pile is empty, and ends only when nobody can place.
    reached = played_on = 0
    for seed in range(40):
        states = _states(1 + seed % 2, seed)
        empty = [i for i, s in enumerate(states) if s.pile_size == 0 and s.outcome is None]
        if not empty:
            continue
        reached += 1
        played_on += _check_after_the_pile(states, empty[0])
        if reached >= 5 and played_on >= 3:
            break
    assert reached >= 5, (reached, played_on)
    assert played_on >= 3, (reached, played_on)
    # end: the game is lost as soon as the pile is empty, with exits left and cards in hand.
    ended = 0
    for seed in range(20):
        ended += _check_pile_out_end(_states(1 + seed % 2, seed, Options(pile_out="end")))
    assert ended >= 3


@rules("BD-END-1")
def test_win_the_moment_no_exit_is_left() -> None:
    wins = 0
    cards_left = 0
    for seed in range(60):
        states = _states(1 + seed % 3, seed)
        # No state before the end is without exits: the game stops the moment none is left.
        assert all(s.table.exit_count > 0 for s in states[:-1])
        final = states[-1]
        if final.outcome != "won":
            continue
        wins += 1
        before = states[-2]
        assert len(final.table) == len(before.table) + 1  # the winning move laid a card
        assert final.table.exit_count == 0
        assert final.reason == "no exit is left"
        # Whatever remains in the pile or in hands: nobody draws, nobody moves.
        cards_left += final.pile_size + sum(len(h) for h in final.hands) > 0
        assert final.to_draw == ()
        assert legal_actions(final) == ()
        with pytest.raises(IllegalActionError):
            apply(final, PASS)
        assert final.returns() == (1.0,) * final.players
    assert wins >= 3, (wins, cards_left)
    assert cards_left >= 1, (wins, cards_left)


@rules("BD-OPT-3", "BD-END-4", "BD-PLACE-5")
def test_hole_option() -> None:
    from tests.tunnels.test_table import hole_table

    table = hole_table()
    before = Table.start("super6").place_all(list(table.history[1:3]))
    last = table.history[3]
    hand = (last.card, parse_card("L"), parse_card("L"))
    rest = Counter(DECK.cards()) - Counter(hand) - Counter(p.card for p in before.history[1:])
    pile = tuple(sorted(rest.elements()))
    loses = GameState(before, (hand,), (), pile, 0, (), Options(hole="loses"))
    assert last in legal_actions(loses)
    after = apply(loses, last)
    assert after.outcome == "lost"
    assert "hole" in after.reason
    illegal = GameState(before, (hand,), (), pile, 0, (), Options(hole="illegal"))
    assert last not in legal_actions(illegal)
    with pytest.raises(IllegalActionError, match="hole"):
        apply(illegal, last)


@rules("BD-OPT-5", "BD-PLACE-5")
def test_dead_exit_option_gives_the_same_results_sooner() -> None:
    from banditsolve.tunnels import dead_exits

    sooner = 0
    for seed in range(scaled(24, 60)):
        players = 1 + seed % 4
        full = _states(players, seed)
        short = _states(players, seed, Options(dead_exit="loses"))
        a, b = full[-1], short[-1]
        # The same results ...
        assert b.outcome == a.outcome, seed
        assert b.turn <= a.turn
        # ... by the same moves, up to the first dead exit, where the short game stops.
        for x, y in zip(full, short[:-1], strict=False):
            assert x.table == y.table
            assert x.hands == y.hands
            assert x.pile == y.pile
        if b.reason == "an exit can no longer be closed":
            assert dead_exits(b.table, b.remaining())
            assert a.outcome == "lost"
            assert not any(dead_exits(s.table, s.remaining()) for s in short[:-1])
            sooner += b.turn < a.turn
        else:
            assert len(full) == len(short)
            assert b == replace(a, options=b.options)
    assert sooner >= 3, sooner


@rules("BD-OPT-4", "BD-DECK-3")
def test_the_super_side_option_sets_the_start() -> None:
    five = play_game(1, 3, Options(super_side="super5"))
    assert five.table.history[0] == Placement(parse_card("super5"), 0, 0, 0)
    assert new_game(1, Options(super_side="super5"), rng=random.Random(0)).table.exit_count == 5
    assert new_game(1, Options(), rng=random.Random(0)).table.exit_count == 6


@rules("BD-OPT-7")
def test_options_are_validated() -> None:
    assert BandidaOptions().pile_out == "end"
    assert BandidaOptions().hand_change == "may_place"
    assert Options.from_mapping({}) == Options()
    assert Options.from_mapping({"hand_size": "4", "hole": "illegal"}) == Options(
        hand_size=4, hole="illegal"
    )
    bads: list[dict[str, object]] = [
        {"pile_out": "later"},
        {"hand_change": "never"},
        {"hole": "maybe"},
        {"dead_exit": 1},
        {"super_side": "super7"},
        {"colour": "red"},
        {"hand_size": 0},
        {"hand_size": "11"},
        {"hand_size": True},
        {"table_size": "1x1"},
    ]
    for bad in bads:
        with pytest.raises(RuleOptionError, match=str(next(iter(bad)))):
            Options.from_mapping(bad)


@rules("BD-TURN-1", "BD-END-3", "BD-NOTE-1", "BD-NOTE-2")
def test_many_seeded_games_conserve_cards_and_stay_connected() -> None:
    games = scaled(400, 1000)
    outcomes: Counter[str] = Counter()
    for seed in range(games):
        rng = random.Random(seed)
        players = 1 + seed % 4
        options = Options(
            pile_out=("play_on", "end")[seed % 2],
            hand_change=("ends_turn", "may_place")[(seed // 2) % 2],
            hole=("loses", "illegal")[(seed // 4) % 2],
        )
        state = new_game(players, options, rng=rng)
        steps = 0
        while state.outcome is None:
            if seed % 5 == 0:
                action = rng.choice(legal_actions(state))  # a random player
            else:
                action = greedy_policy(state, rng)
            state = apply(state, action)
            steps += 1
            if steps % 10 == 0:
                check(state)
        check(state)
        assert connected(state.table)
        plain = plain_copy(state.table)
        assert state.table.exit_count == len(plain.exits())
        position = position_of(state)
        assert from_notation(to_notation(position)) == position
        assert from_json(to_json(position)) == position
        outcomes[state.outcome] += 1
    assert outcomes["won"] > 0
    assert outcomes["lost"] > 0


class GameMachine(RuleBasedStateMachine):
    """Random games with explicit chance nodes, checking the tunnel invariants after every
    event: cards conserved, the network connected, every placement legal by the oracle, the
    position round-trips. (The generic contract checks, illegal actions leaving the state as
    it was among them, are in ``tests/contract.py`` for every game.)"""

    def __init__(self) -> None:
        super().__init__()
        self.state = new_game(2)

    @rule(data=st.data())
    def act(self, data: st.DataObject) -> None:
        if self.state.outcome is not None:
            return
        action: Action
        if self.state.is_chance:
            draws = [d for d, _ in chance_outcomes(self.state)]
            action = data.draw(st.sampled_from(draws))
        else:
            action = data.draw(st.sampled_from(legal_actions(self.state)))
        before = self.state
        self.state = apply(self.state, action)
        assert before.table.history == self.state.table.history[: len(before.table)]
        if isinstance(action, Placement):
            assert is_legal(plain_copy(before.table), _fp(action))

    @invariant()
    def conserved_connected_and_round_trips(self) -> None:
        check(self.state)
        assert connected(self.state.table)
        position = position_of(self.state)
        assert from_notation(to_notation(position)) == position
        assert from_json(to_json(position)) == position


def _fp(p: Placement) -> Footprint:
    from tests.tunnels.helpers import to_footprint

    return to_footprint(p)


GameMachine.TestCase.settings = settings(
    max_examples=10, stateful_step_count=40, deadline=None
)
TestGameMachine = rules("BD-SETUP-2", "BD-PLACE-2", "BD-NOTE-2")(GameMachine.TestCase)


def test_states_made_by_replace_share_no_legal_action_memo() -> None:
    from dataclasses import replace

    state = fixed_game(["L", "L", "L"])
    first = legal_actions(state)
    other = replace(state, hands=((parse_card("L+R"),),))
    assert legal_actions(other) != first
    cards = {a.card for a in legal_actions(other) if isinstance(a, Placement)}
    assert cards == {parse_card("L+R")}
    assert legal_actions(state) == first


# -- the fast simulator: the same games as the generic path ------------------------------------

GOLDEN = Path(__file__).parent / "data" / "sim_golden.json"


def _golden_games(game: str) -> list[dict[str, object]]:
    games = json.loads(GOLDEN.read_text(encoding="utf-8"))["games"]
    return [g for g in games if g["game"] == game]


def _golden_options(entry: dict[str, object]) -> Options:
    values = entry["options"]
    assert isinstance(values, dict)
    if entry["game"] == "bandida":
        return BandidaOptions.from_mapping(values)
    return Options.from_mapping(values)


def _fast_game(players: int, seed: int, options: Options) -> tuple[list[GameState], list[Action]]:
    from banditsolve.tunnels.fast import fast_bandido

    rng = random.Random(seed)
    return fast_bandido(new_game(players, options, rng=rng), rng)


@rules("BD-TURN-1", "BD-END-3")
def test_fast_simulator_replays_the_recorded_bandido_games() -> None:
    """Games recorded from the generic path before the fast simulator existed (every option,
    1-4 players): the same moves, the same end, the same hands, and simulate() gives them."""
    entries = _golden_games("bandido")
    assert len(entries) >= 150
    for entry in entries:
        players, seed = entry["players"], entry["seed"]
        assert isinstance(players, int)
        assert isinstance(seed, int)
        options = _golden_options(entry)
        states, actions = _fast_game(players, seed, options)
        assert " ; ".join(map(str, actions)) == entry["actions"], (players, seed, options)
        final = states[-1]
        _assert_recorded_end(final, entry)
        if seed < 3:
            assert simulate(players, seed, options) == states


def _assert_recorded_end(final: GameState, entry: dict[str, object]) -> None:
    """The game's end as recorded: outcome, reason, turn, hands, pile and cards laid."""
    assert (final.outcome, final.reason, final.turn) == (
        entry["outcome"],
        entry["reason"],
        entry["turn"],
    )
    assert [list(h) for h in final.hands] == entry["hands"]
    assert final.pile_size == entry["pile"]
    assert len(final.table) == entry["cards"]


@rules("BD-TURN-1")
def test_fast_simulator_gives_the_states_of_the_generic_path() -> None:
    """Every state, on seeds the recording does not hold: equal to the generic path's
    (core.play.playout over legal_actions and apply), the table laid in the same order."""
    for seed in range(1000, 1000 + scaled(12, 60)):
        players = 1 + seed % 4
        options = Options(
            hand_change=("ends_turn", "may_place")[seed % 2],
            hole=("loses", "illegal")[(seed // 2) % 2],
            dead_exit=("play_on", "loses")[(seed // 4) % 3 == 0],
            table_size=("unbounded", "unbounded", "20x20")[seed % 3],
        )
        fast = simulate(players, seed, options)
        generic = simulate_generic(players, seed, options)
        assert fast == generic, (players, seed, options)
        for mine, theirs in zip(fast, generic, strict=True):
            assert mine.table.history == theirs.table.history
            assert mine.table.packed == theirs.table.packed
            assert mine.table.rim == theirs.table.rim
            assert mine.table.front_rim == theirs.table.front_rim
        assert play_game(players, seed, options) == generic[-1]


def _bandida_transcript(
    players: int, seed: int, options: Options
) -> tuple[list[GameState], list[str]]:
    """A seeded Bandida game as :func:`simulate` plays it, with its moves as recorded (``*``
    before a chance draw): the steps of ``core.play.playout`` from the same start and rng."""
    from banditsolve.core.play import playout
    from banditsolve.core.protocol import CHANCE
    from banditsolve.tunnels.game import BANDIDA
    from banditsolve.tunnels.players import greedy_policy

    assert isinstance(options, BandidaOptions)
    rng = random.Random(seed)
    start = bandida_new_game(players, options, deck=load_deck("bandida"), rng=rng)
    states: list[GameState] = [start]
    moves: list[str] = []
    for step in playout(BANDIDA, start, greedy_policy, rng):
        moves.append(("*" if step.actor == CHANCE else "") + str(step.action))
        states.append(step.state)
    return states, moves


@rules("BA-TURN-2", "BA-OBJ-6")
def test_bandida_games_replay_the_recorded_transcripts() -> None:
    """Bandida games recorded from the generic path before any simulator change (the three
    modes, every option, 1-3 players): the same moves (chance draws too), the same end and
    hands, and simulate() and play_game() give that game (a sample in the default profile,
    all of them under ci)."""
    entries = _golden_games("bandida")
    assert len(entries) >= 150
    step = max(1, len(entries) // scaled(20, len(entries)))
    for entry in entries[::step]:
        players, seed = entry["players"], entry["seed"]
        assert isinstance(players, int)
        assert isinstance(seed, int)
        options = _golden_options(entry)
        states, moves = _bandida_transcript(players, seed, options)
        assert " ; ".join(moves) == entry["actions"], (players, seed, options)
        final = states[-1]
        _assert_recorded_end(final, entry)
        assert play_game(players, seed, options) == final
        if seed < 2:
            assert simulate(players, seed, options) == states


GOLDEN_BANDIDA = Path(__file__).parent / "data" / "sim_golden_bandida.json"


def _state_key(state: GameState) -> str:
    """Every field of a state as text (the table by its placements in the order laid)."""
    names = "hands unseen pile player to_draw changed outcome reason turn sizes phase actor"
    rest = (getattr(state, n) for n in (*names.split(), "discard", "aside", "left", "queue"))
    last = (getattr(state, n) for n in ("hold", "quiet", "top"))
    return repr((state.table.history, *rest, *last))


def _digest(states: list[GameState]) -> str:
    import hashlib

    h = hashlib.sha256()
    for state in states:
        h.update(_state_key(state).encode())
        h.update(b"\n")
    return h.hexdigest()


@rules("BA-TURN-2", "BA-ALARM-2", "BA-OBJ-6")
def test_bandida_games_keep_every_recorded_state() -> None:
    """Bandida games recorded before the engine's speed-up (the three modes, 2 players on the
    benchmark's seeds, and a few other options): every state of simulate() and of the study's
    path (core.play.simulate with the greedy policy) is the one recorded, field by field (a
    sample in the default profile, all of them under ci)."""
    from banditsolve.core.play import simulate as core_simulate
    from banditsolve.core.protocol import CHANCE
    from banditsolve.tunnels.game import BANDIDA
    from banditsolve.tunnels.players import greedy_policy

    entries = json.loads(GOLDEN_BANDIDA.read_text(encoding="utf-8"))["games"]
    assert len(entries) >= 200
    step = max(1, len(entries) // scaled(24, len(entries)))
    for entry in entries[::step]:
        values, players, seed = entry["options"], entry["players"], entry["seed"]
        states = simulate(players, seed, BandidaOptions.from_mapping(values))
        assert len(states) == entry["simulate_states"], entry
        assert (states[-1].outcome, states[-1].turn) == (entry["outcome"], entry["turn"])
        assert _digest(states) == entry["simulate_digest"], entry
        start, steps = core_simulate(
            BANDIDA, seed=seed, players=players, options=values, policies=greedy_policy
        )
        moves = " ; ".join(("*" if s.actor == CHANCE else "") + str(s.action) for s in steps)
        assert moves == entry["study_moves"], entry
        assert _digest([start, *(s.state for s in steps)]) == entry["study_digest"], entry


def _removals_by_definition(state: BandidaState) -> list[tuple[int, ...]]:
    """BA-OBJ-6, BA-OPT-1..4 read literally: every set of three cards (else two, else one)
    whose removal leaves one group, tried one by one."""
    from itertools import combinations

    from banditsolve.tunnels.bandida.maps import links as card_links

    o = state.options
    history = state.table.history
    kinds = [card_kind(p.card) for p in history]
    pool = [
        i
        for i in range(1, len(history))
        if kinds[i] != "bandido_super"
        and (
            o.map_removes == "not_super"
            or (kinds[i] not in ("ladder", "bandido_super") and i != len(history) - 1)
        )
    ]
    links = card_links(state.table, o.map_split == "tunnels")
    tunnels = card_links(state.table, True)

    def one_group(gone: set[int]) -> bool:
        seen, todo = {0}, [0]
        while todo:
            for w in links[todo.pop()]:
                if w not in seen and w not in gone:
                    seen.add(w)
                    todo.append(w)
        return len(seen) == len(history) - len(gone)

    def keeps(gone: set[int]) -> bool:
        return o.map_reopen == "allowed" or all(tunnels[v] <= gone for v in gone)

    for size in (3, 2, 1):
        found = [c for c in combinations(pool, size) if one_group(set(c)) and keeps(set(c))]
        if found or (size == 3 and o.map_short == "none"):
            return found
    return []


@rules("BA-OBJ-6", "BA-OPT-1", "BA-OPT-2", "BA-OPT-3", "BA-OPT-4")
def test_map_removals_are_every_set_that_leaves_one_group() -> None:
    """At every map of seeded games (each reading of the map's options), the removals listed
    are exactly the sets found by trying every set of cards, in the order laid."""
    from banditsolve.tunnels.state import Remove

    readings = [
        {},
        {"map_split": "tunnels", "map_reopen": "forbidden"},
        {"map_removes": "not_super", "map_short": "none"},
    ]
    checked = 0
    for seed in range(scaled(6, 24)):
        values = dict(readings[seed % 3], mode=1 + seed % 3)
        for state in simulate(2, seed, BandidaOptions.from_mapping(values)):
            state = expect(state)
            if state.outcome is None and state.phase[-1:] == ("map",) and len(state.table) <= 36:
                history = state.table.history
                sets = _removals_by_definition(state)
                want = [Remove(tuple(history[i] for i in c)) for c in sets]
                assert list(legal_actions(state)) == want, (seed, values)
                checked += 1
    assert checked >= 3
