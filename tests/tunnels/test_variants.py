"""Bandido on the game contract: the game-state notation and JSON, action texts, outcomes,
pictures, the bounded table, and the refusal of everything the real game cannot reach.

The generic contract checks (every registered game) live in ``tests/contract.py``; this file
keeps what is particular to the tunnel games, notably states with chance nodes (the unseeded
deal) that the contract's seeded games never reach.
"""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from banditsolve.core.protocol import CHANCE, TERMINAL
from banditsolve.errors import (
    ArgumentTypeError,
    BanditsolveError,
    IllegalActionError,
    NotationError,
    RuleOptionError,
)
from banditsolve.tunnels import (
    CHANGE,
    PASS,
    Action,
    Draw,
    GameState,
    Options,
    Placement,
    card_name,
    legal_actions,
    parse_card,
    parse_position,
    play_game,
    read_position,
    to_notation,
)
from banditsolve.tunnels.game import BANDIDO
from banditsolve.tunnels.notation import parse_action
from banditsolve.tunnels.players import greedy_policy
from banditsolve.tunnels.rules import sample_chance
from banditsolve.tunnels.simulate import simulate
from banditsolve.tunnels.state import REASONS
from tests.profiles import scaled
from tests.rules import rules

GAME = BANDIDO
SUPER = "L+TL+TR+R+BR+BL"
START = f"bandido {SUPER}@0,0,0"

#: Option sets the sampled games are played under (every option value at least once).
OPTION_SETS: tuple[dict[str, str], ...] = (
    {},
    {"pile_out": "end", "hand_change": "may_place"},
    {"hole": "illegal", "super_side": "super5"},
    {"dead_exit": "loses", "hand_size": "2"},
    {"table_size": "12x8"},
    {"hand_change": "may_place", "table_size": "8x6", "hand_size": "4"},
)


def states(seed: int, options: dict[str, str], *, chance: bool) -> Iterator[GameState]:
    """Every state of one game: random or greedy moves, the deal seeded (known pile) or drawn
    at chance nodes."""
    rng = random.Random(seed)
    players = 1 + seed % 4
    state = GAME.new_game(players, options, seed=None if chance else seed)
    greedy = seed % 3 != 0
    action: Action
    while True:
        yield state
        if state.outcome is not None:
            return
        if state.is_chance:
            action = sample_chance(state, rng)
        elif greedy:
            action = greedy_policy(state, rng)
        else:
            action = rng.choice(GAME.legal_actions(state))
        state = GAME.apply(state, action)


def sampled_states(games: int) -> Iterator[tuple[int, GameState]]:
    for seed in range(games):
        options = OPTION_SETS[seed % len(OPTION_SETS)]
        for i, state in enumerate(states(seed, options, chance=seed % 2 == 0)):
            if i % 3 == 0 or state.outcome is not None or state.changed:
                yield seed, state


@rules("BD-NOTE-4")
def test_game_state_notation_and_json_round_trip_on_many_games() -> None:
    seen_chance = seen_changed = seen_end = seen_bounded = 0
    for seed, state in sampled_states(scaled(30, 120)):
        text = GAME.to_notation(state)
        assert "\n" not in text
        back = GAME.from_notation(text)
        assert back == state, (seed, text)
        assert back.table.history == state.table.history
        assert GAME.to_notation(back) == text
        doc = GAME.to_json(state)
        again = GAME.from_json(json.loads(json.dumps(doc)))
        assert again == state, (seed, text)
        assert GAME.to_json(again) == doc, (seed, text)
        assert GAME.read_state(text.encode()) == state
        seen_chance += state.is_chance
        seen_changed += state.changed
        seen_end += state.outcome is not None
        seen_bounded += state.options.area is not None
    assert seen_chance
    assert seen_changed
    assert seen_end
    assert seen_bounded


@rules("BD-NOTE-4", "BD-SETUP-1", "BD-SETUP-2")
def test_the_notation_of_a_new_game() -> None:
    dealt = GAME.new_game(2, seed=3)
    text = GAME.to_notation(dealt)
    assert text.startswith(f"{START} | hands=")
    assert " player=0 turn=0 pile=" in text
    assert "unseen" not in text
    assert "draw=" not in text
    drawn = GAME.new_game(2)
    assert GAME.current_player(drawn) == CHANCE
    unseen = ",".join(
        card_name(code) + ("" if n == 1 else f"*{n}") for code, n in GAME.deck.counts
    )
    assert GAME.to_notation(drawn) == (
        f"{START} | hands=/ player=0 turn=0 unseen={unseen} draw=0,1,0,1,0,1"
    )
    five = GAME.new_game(1, {"super_side": "super5"}, seed=0)
    assert GAME.to_notation(five).endswith("options=super_side:super5")
    assert GAME.from_notation(GAME.to_notation(five)) == five


@rules("BD-NOTE-5")
def test_action_texts_round_trip() -> None:
    counted = 0
    for _seed, state in sampled_states(scaled(10, 40)):
        for action in GAME.legal_actions(state):
            text = GAME.action_text(state, action)
            assert GAME.parse_action(state, text) == action, text
            counted += 1
    assert counted > 500
    p = Placement(parse_card("L+TL"), 2, 0, 90)
    assert str(p) == "L+TL@2,0,90"
    assert parse_action("L+TL@2,0,90") == p
    # Either name of the card; the normal form comes back.
    assert parse_action("R+BR@2,1,270") == parse_action(str(parse_action("R+BR@2,1,270")))
    assert parse_action(" change ") == CHANGE
    assert parse_action("pass") == PASS
    assert parse_action("draw R") == Draw(parse_card("L"))


@rules("BD-NOTE-5")
@pytest.mark.parametrize(
    "text",
    ["", "chance", "L@1,2", "L@1,2,45", "L@x,0,0", "Q@0,0,0", "draw", "draw Q", "L@" + "9" * 5000
     + ",0,0", "pass pass", "L@1,2,3,4", "@1,2,3"],
)
def test_bad_action_texts_are_notation_errors(text: str) -> None:
    with pytest.raises(NotationError) as caught:
        parse_action(text)
    assert "\n" not in str(caught.value)
    assert len(str(caught.value)) < 200


@rules("BD-END-1", "BD-END-2")
def test_outcomes_are_typed_and_cooperative() -> None:
    won = lost = 0
    for seed in range(40):
        final = play_game(1 + seed % 4, seed)
        outcome = GAME.outcome(final)
        assert outcome is not None
        assert GAME.current_player(final) == TERMINAL
        assert outcome.reason == final.reason
        if final.outcome == "won":
            won += 1
            assert outcome.winners == tuple(range(final.players))
            assert outcome.returns == (1.0,) * final.players
        else:
            lost += 1
            assert outcome.winners == ()
            assert outcome.returns == (0.0,) * final.players
    assert won
    assert lost
    assert GAME.outcome(GAME.new_game(2, seed=1)) is None


def test_seeded_new_games_are_the_games_play_game_plays() -> None:
    for seed in range(5):
        assert GAME.new_game(2, seed=seed) == simulate(2, seed)[0]


@rules("BD-NOTE-3")
def test_pictures_carry_a_caption_and_mark_dead_exits() -> None:
    final = next(s for s in (play_game(2, seed) for seed in range(40)) if s.outcome == "lost")
    picture = GAME.svg(final)
    assert f"turn {final.turn}" in picture
    assert "lost" in picture
    assert final.reason in picture
    assert "last card" in picture
    assert str(final.table.history[-1]) in picture
    art = GAME.ascii(final)
    assert GAME.caption(final) in art
    assert "hands:" in art
    # A hole: its exit is drawn as a dead exit (a ring), apart from live exits (red dots).
    hole = parse_position(f"{START} L+BR@-1,-1,0 TL@-2,-1,90 TR@-1,1,0 | L*3 TL+BL*2")
    from banditsolve.tunnels.render import svg

    drawn = svg(hole.table, hole.remaining)
    assert "dead exit" in drawn
    assert "runs into a one-cell hole" in drawn
    assert drawn.count('fill="#d62828" stroke="#fff"') == hole.table.exit_count - 1
    assert "<svg" in svg(hole.table, caption="a <caption> & more")
    assert "&lt;caption&gt;" in svg(
        hole.table, caption="a <caption> & more"
    )


# -- the bounded table ---------------------------------------------------------------------------


@rules("BD-OPT-6")
def test_a_bounded_table_keeps_every_card_inside_and_its_edge_exits_are_dead() -> None:
    options = Options(table_size="6x3")
    assert options.area == (-2, -1, 3, 1)
    assert Options(table_size="7x4").area == (-2, -1, 4, 2)
    for seed in range(scaled(12, 40)):
        final = None
        for state in states(seed, {"table_size": "6x3", "dead_exit": "loses"}, chance=False):
            for x, y in state.table.packed:
                assert -2 <= x <= 3
                assert -1 <= y <= 1
            final = state
        assert final is not None
        assert final.outcome is not None
    state = GAME.new_game(1, {"table_size": "6x3"}, seed=1)
    for action in legal_actions(state):
        if isinstance(action, Placement):
            assert all(-2 <= x <= 3 and -1 <= y <= 1 for x, y in action.cells)
    outside = Placement(parse_card("L"), 0, -1, 90)  # covers (0, -1) and (0, -2)
    if parse_card("L") in state.hands[0]:
        with pytest.raises(IllegalActionError, match="play area"):
            GAME.apply(state, outside)
    # An exit facing the edge of a 2x2 area is dead at once: the game is lost with dead_exit.
    tiny = Options(table_size="2x2", dead_exit="loses")
    from banditsolve.tunnels.table import dead_exits

    table = GAME.new_game(1, seed=0).table
    assert any(d.reason == "outside" for d in dead_exits(table, None, tiny.area))
    for bad in ("0x5", "61x2", "axb", "20x", "x20", "20x20x2", "\uff11\uff12x8", 20):
        with pytest.raises(RuleOptionError):
            Options.from_mapping({"table_size": bad})


# -- what the real game cannot reach -------------------------------------------------------------


def _doc(seed: int = 2) -> dict[str, Any]:
    state = GAME.new_game(2, seed=seed)
    state = GAME.apply(state, GAME.legal_actions(state)[0])
    return GAME.to_json(state)


@rules("BD-NOTE-4", "BD-DECK-2", "BD-DECK-3")
def test_game_states_refuse_impossible_card_counts() -> None:
    doc = _doc()
    assert GAME.from_json(doc) is not None
    cases: list[tuple[dict[str, Any], str]] = []

    def broken(pattern: str, **changes: Any) -> None:
        cases.append(({**json.loads(json.dumps(doc)), **changes}, pattern))

    hand0, pile = doc["hands"][0], doc["pile"]
    broken("super card", hands=[[*hand0[:2], "super6"], doc["hands"][1]])
    broken("super card", pile=["super5", *pile[1:]])
    broken("super card", unseen=["super6"])
    broken("copies of L, but the bandido deck has 3", pile=[*pile, "L", "L", "L", "L"])
    broken("nowhere", pile=pile[1:])
    broken(r"more than hand_size", hands=[[*hand0, pile[0]], doc["hands"][1]], pile=pile[1:])
    broken("'player' must be between 0 and 1, not 2", player=2)  # (two hands)
    broken("to_draw must be between 0 and 1, not 3", to_draw=[3])
    broken("unknown field", remaining=[])
    broken("unknown field", surprise=1)
    broken("'reason' is given", reason="no exit is left")
    broken("reasons", outcome="lost", reason="bored")
    broken("is not true of this table", outcome="lost", reason=REASONS["hole"])
    broken("won", outcome="won", reason=REASONS["no-exit"])
    broken("rule option", options={"colour": "red"})
    broken("hole", options={"hole": "maybe"})
    broken("super_side", options={"super_side": "super5"})
    broken("must be a whole number", turn="7")
    broken("must be between", turn=10**40)
    broken("card name", hands=[[1, 2], []])
    broken("must be true or false", changed="yes")
    broken('"game" must be "bandido"', game="bandida")
    for case, pattern in cases:
        with pytest.raises(NotationError, match=pattern) as caught:
            GAME.from_json(case)
        assert "\n" not in str(caught.value), caught.value
        assert len(str(caught.value)) < 300, caught.value


@rules("BD-NOTE-4")
def test_game_state_notation_refuses_what_the_game_cannot_reach() -> None:
    text = GAME.to_notation(GAME.new_game(2, seed=5))
    table, _, fields = text.partition(" | ")
    cases = {
        f"{table} | {fields} turn=3": "twice",
        f"{table} | {fields} colour=red": "unknown game state field",
        f"{table} | {fields} end=won:no-exit": "is not true of this table|does not go",
        f"{table} | {fields} end=lost:bored": "won:REASON or lost:REASON",
        f"{table} | {fields} changed=maybe": "yes or no",
        f"{table} | {fields} options=hole:maybe": "hole",
        f"{table} | {fields} options=hole": "NAME:VALUE",
        f"{table} | {fields} draw=0": "more than hand_size",
        f"{table} | {fields.replace('player=0', 'player=99999999')}": (
            "player must be between 0 and 1,"
        ),
        f"{table} L@" + "9" * 5000 + ",0,0 | " + fields: "x must be between -10000 and 10000,",
        f"{table} | L*3": "position",
        f"{table} {SUPER}@5,5,0 | {fields}": "second super card",
        f"bandido hypothetical {SUPER}@0,0,0 | {fields}": "cannot be hypothetical",
        f"bandido super5@0,0,0 | {fields}": "super6 side",
        f"{table} | {fields.replace('hands=', 'hands=super6,')}": "super card",
        f"{table} | {fields.replace('player=0', '')}": "no player",
    }
    for case, pattern in cases.items():
        with pytest.raises(NotationError, match=pattern) as caught:
            GAME.from_notation(case)
        assert "\n" not in str(caught.value), caught.value
        assert len(str(caught.value)) < 300, caught.value


@rules("BD-NOTE-4")
def test_a_state_the_game_would_not_stop_at_is_refused() -> None:
    # A card owed while the pile is known: the game draws it by itself.
    owed = GAME.to_json(GAME.new_game(1, seed=4))
    owed["pile"] = [owed["hands"][0].pop(), *owed["pile"]]
    owed["to_draw"] = [0]
    with pytest.raises(NotationError, match="would go on by itself"):
        GAME.from_json(owed)
    # The pile is empty under pile_out=end: the game is already lost.
    from banditsolve.tunnels.rules import new_game as engine_new_game

    state = engine_new_game(1, Options(hand_size=3), order=list(GAME.deck.cards()))
    doc = GAME.to_json(state)
    doc["hands"][0] += doc["pile"][:0]
    assert GAME.from_json(doc) == state


@rules("BD-NOTE-1", "BD-NOTE-2", "BD-DECK-2", "BD-DECK-3")
def test_positions_refuse_extra_copies_unless_hypothetical_and_a_misplaced_super_card() -> None:
    for text in (f"{START} | L*4", f"{START} L@2,0,0 | L*3", f"{START} | L+TL*3 L+TL"):
        with pytest.raises(NotationError, match=r"copies of .* hypothetical"):
            parse_position(text)
        flagged = text.replace("bandido ", "bandido hypothetical ", 1)
        position = parse_position(flagged)
        assert position.hypothetical
        assert parse_position(to_notation(position)) == position
        assert parse_position(json.dumps(_json(position))) == position
        assert parse_position(text, hypothetical=True) == position
    for text in (f"{START} | super6", f"{START} | super5 L", f"{START} super6@2,0,0"):
        with pytest.raises(NotationError, match="super card"):
            parse_position(text)
        with pytest.raises(NotationError, match="super card"):
            parse_position(text.replace("bandido ", "bandido hypothetical ", 1))
    with pytest.raises(NotationError, match="'hypothetical' must be true or false"):
        parse_position(json.dumps({"game": "bandido", "placements": [], "hypothetical": 1}))


def _json(position: Any) -> dict[str, Any]:
    from banditsolve.tunnels import to_json

    return to_json(position)


WRONG_TYPES: tuple[object, ...] = (None, 70, 2.5, ["bandido"], {"game": 1}, b"\xff", True)


@rules("BD-NOTE-1", "BD-NOTE-4")
def test_python_level_wrong_types_raise_library_errors() -> None:
    from banditsolve.tunnels import from_json, from_notation

    readers: tuple[Any, ...] = (
        from_notation,
        from_json,
        parse_position,
        read_position,
        GAME.from_notation,
        GAME.from_json,
        GAME.read_state,
        parse_action,
        lambda v: GAME.parse_action(GAME.new_game(1, seed=0), v),
        lambda v: GAME.apply(GAME.new_game(1, seed=0), v),
        lambda v: GAME.legal_actions(v),
        lambda v: GAME.to_notation(v),
        lambda v: Options.from_mapping(v),
        lambda v: GAME.new_game(1, {"hand_size": v}),
    )
    for reader in readers:
        for value in WRONG_TYPES:
            # each is refused (bytes name a state only as UTF-8 text, and b"\xff" is not)
            with pytest.raises(BanditsolveError) as info:
                reader(value)
            assert "\n" not in str(info.value)
            assert len(str(info.value)) < 300
    for value in WRONG_TYPES[1:]:
        # 70 players is a count the game is not played by; the rest are no counts at all.
        with pytest.raises(RuleOptionError if value == 70 else ArgumentTypeError):
            GAME.new_game(value)  # type: ignore[arg-type]
        if value != 70:
            with pytest.raises(ArgumentTypeError):
                GAME.new_game(1, seed=value)  # type: ignore[arg-type]


@rules("BD-NOTE-1", "BD-NOTE-4")
def test_readers_refuse_bad_files_and_numbers(tmp_path: Path) -> None:
    good = GAME.to_notation(GAME.new_game(2, seed=1))
    for name, data, pattern in (
        ("bom.txt", b"\xef\xbb\xbf" + good.encode(), "byte-order mark"),
        ("latin.txt", good.encode() + b"\xe9", "not UTF-8"),
        ("empty.txt", b"", "empty"),
        ("deep.json", b"[" * 10_000, "deeper"),
        ("long.json", b'{"game": "bandido", "placements": [], "x": ' + b"9" * 5000 + b"}",
         "digits"),
    ):
        path = tmp_path / name
        path.write_bytes(data)
        for reader in (GAME.read_state, read_position):
            with pytest.raises(NotationError, match=pattern) as caught:
                reader(path)
            assert len(str(caught.value)) < 300
    from banditsolve.tunnels import from_json

    huge = {
        "game": "bandido",
        "placements": [{"card": SUPER, "x": 10**5000, "y": 0, "rotation": 0}],
    }
    with pytest.raises(NotationError, match="between"):
        from_json(huge)
    with pytest.raises(NotationError, match="y must be between -10000 and 10000,"):
        parse_position(f"bandido {SUPER}@0," + "1" * 5000 + ",0 |")
    with pytest.raises(NotationError, match="unknown game"):
        parse_position("nosuchgame super6@0,0,0 |")


@rules("BD-OPT-1", "BD-OPT-2", "BD-OPT-3", "BD-OPT-4", "BD-OPT-5", "BD-OPT-6")
def test_option_names_list_every_value_with_the_default_first() -> None:
    names = GAME.option_set.names()
    assert names["pile_out"][0] == "play_on"
    assert names["super_side"][0] == "super6"
    assert names["hand_size"][0] == "3"
    assert names["table_size"][0] == "unbounded"
    for name, values in names.items():
        for value in values:
            state = GAME.new_game(1, {name: value}, seed=0)
            assert state.options.to_text()[name] == value
    for bad in ({"pile_out": "later"}, {"hand_size": "0"}, {"hand_size": "x" * 5000},
                {"x" * 5000: "1"}, {"table_size": "x" * 5000}, {"hand_size": 10**5000}):
        with pytest.raises(RuleOptionError) as caught:
            GAME.new_game(1, bad, seed=0)
        assert len(str(caught.value)) < 300


@rules("BD-NOTE-5")
def test_apply_refuses_what_is_not_an_action() -> None:
    state = GAME.new_game(1, seed=0)
    drawn = GAME.new_game(1)
    code = state.hands[0][0]
    for thing in (None, "change", 7):  # no action object at all
        for where in (state, drawn):
            with pytest.raises(ArgumentTypeError):
                GAME.apply(where, thing)  # type: ignore[arg-type]
    for action in (
        Placement("L", 0, 0, 0),  # type: ignore[arg-type]
        Placement(code, 10**5000, 0, 0),
        Placement(code, 0, 0, 45),
        Placement(code, True, 0, 0),
        Placement(0, -1, 0, 0),
        Draw("L"),  # type: ignore[arg-type]
        Draw(10**40),
    ):
        for where in (state, drawn):
            with pytest.raises(IllegalActionError) as caught:
                GAME.apply(where, action)
            assert len(str(caught.value)) < 200
