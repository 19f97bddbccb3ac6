"""A Bandida position is a question of one mode (BA-CLOSE-1): read without a mode it is mode 1's
(Bandida's default) and holds mode 1's pile; ``mode=M`` in the notation, ``"mode"`` in JSON or
the readers' ``mode`` keyword name another; the closure question takes its goal from that mode
and refuses a goal of another mode. Bandido's positions read and write as before."""

from __future__ import annotations

import json

import pytest

from banditsolve.errors import ArgumentTypeError, NotationError, RuleOptionError, SolverError
from banditsolve.tunnels import can_close, min_cards_to_close, parse_position, read_position
from banditsolve.tunnels.bandida.components import MODES
from banditsolve.tunnels.bandida.state import OPTION_SET
from banditsolve.tunnels.cards import load_deck
from banditsolve.tunnels.game import BANDIDA, BANDIDO
from banditsolve.tunnels.geometry import Placement
from banditsolve.tunnels.notation import from_json, to_json, to_notation
from banditsolve.tunnels.table import Table
from tests.cli_runner import run
from tests.rules import rules

SUPER = "L+TL+TR+R+BR+BL"
BARE = f"bandida {SUPER}@0,0,0"
#: Mode 2's question: the ladder among the cards.
LADDER = f"bandida mode=2 {SUPER}@0,0,0 | L:ladder L*2 TL*2 L+TL TL+BL R+BR"
DECK = load_deck("bandida")


@rules("BA-CLOSE-1", "BA-SETUP-4")
def test_a_position_read_without_a_mode_is_mode_1s_question() -> None:
    """The reviewer's case: it was refused for the ladder, which a bare position held because
    it got the whole deck (ladder and Bandido's super card) as its remaining cards."""
    position = parse_position(BARE)
    assert position.mode == 1
    assert position.remaining == DECK.cards(1)
    answer = can_close(position, max_cards=3)
    assert answer.goal == "close"
    assert answer.status in ("impossible", "unknown")
    assert min_cards_to_close(position, max_cards=1).goal == "close"


@rules("BA-CLOSE-1", "BA-SETUP-4", "BA-DECK-5")
def test_the_mode_is_part_of_the_position() -> None:
    for number in MODES:
        position = BANDIDA.read_position(BARE, mode=number)
        assert position.mode == number
        assert position.remaining == DECK.cards(number)
        text = to_notation(position)
        assert (f"mode={number}" in text) == (number != 1)  # mode 1, the default, unwritten
        document = to_json(position)
        assert document["mode"] == number
        # Both forms read back the same position, with or without the game's reader.
        for again in (
            parse_position(text),
            read_position(text),
            BANDIDA.read_position(text),
            from_json(document),
            parse_position(json.dumps(document)),
        ):
            assert again == position
    # The mode asked and the mode said agree, or the position is refused.
    assert BANDIDA.read_position(LADDER, mode=2) == read_position(LADDER)
    with pytest.raises(NotationError, match="mode 2") as caught:
        BANDIDA.read_position(LADDER, mode=3)
    assert "\n" not in str(caught.value)
    document = to_json(read_position(LADDER))
    with pytest.raises(NotationError, match="mode 2"):
        from_json(document, mode=1)


@rules("BA-CLOSE-1")
def test_a_goal_of_another_mode_is_refused() -> None:
    position = read_position(LADDER)
    assert can_close(position).goal == "ladder"
    assert can_close(position, goal="ladder").goal == "ladder"
    for goal in ("close", "join"):
        with pytest.raises(SolverError, match="question of mode 2") as caught:
            can_close(position, goal=goal)
        assert "\n" not in str(caught.value)
    with pytest.raises(SolverError, match="mode 2's"):
        can_close(parse_position(BARE), goal="ladder")


@rules("BA-OPT-13")
def test_a_mode_is_refused_as_option_mode_refuses_it() -> None:
    spec = OPTION_SET.spec("mode")
    for bad in (True, False, 1.0, 0, 4, "4", "one", -1):
        with pytest.raises(RuleOptionError):
            spec.parse(bad)
        with pytest.raises(RuleOptionError):
            BANDIDA.read_position(BARE, mode=bad)  # type: ignore[arg-type]
        # The package's function checks the argument's type first (its hint: int | None).
        wrong_type = not isinstance(bad, int) or isinstance(bad, bool)
        with pytest.raises(ArgumentTypeError if wrong_type else RuleOptionError):
            parse_position(BARE, mode=bad)  # type: ignore[arg-type]
    for good in (1, 2, 3):
        assert BANDIDA.read_position(BARE, mode=good).mode == spec.parse(good)
    for bad_text in ("mode=4", "mode=0", "mode=x", "mode="):
        with pytest.raises(NotationError):
            parse_position(BARE.replace("bandida ", f"bandida {bad_text} "))


def test_bandido_positions_read_and_write_as_before() -> None:
    text = f"bandido {SUPER}@0,0,0 L+BR@-1,-1,0 TL@-2,-1,90 TR@-1,1,0 | L*3 TL+BL*2"
    position = parse_position(text)
    assert position.mode is None
    assert to_notation(position) == text
    assert to_json(position) == {
        "game": "bandido",
        "placements": [
            {"card": SUPER, "x": 0, "y": 0, "rotation": 0},
            {"card": "L+BR", "x": -1, "y": -1, "rotation": 0},
            {"card": "TL", "x": -2, "y": -1, "rotation": 90},
            {"card": "TR", "x": -1, "y": 1, "rotation": 0},
        ],
        "remaining": ["L", "L", "L", "TL+BL", "TL+BL"],
    }
    assert len(parse_position(f"bandido {SUPER}@0,0,0").remaining) == 69
    with pytest.raises(RuleOptionError, match="no mode"):
        BANDIDO.read_position(text, mode=1)
    with pytest.raises(NotationError, match="no mode"):
        parse_position(text.replace("bandido ", "bandido mode=2 "))
    with pytest.raises(NotationError, match="no mode"):
        from_json({**to_json(position), "mode": 1})


@rules("BA-CLOSE-1")
def test_the_command_line_asks_the_positions_mode() -> None:
    # The bare position of the report, from the command line: answered, not refused.
    bare = run("bandida", "close", BARE, "--max-cards", "1", "--json")
    assert bare.code in (1, 3), bare.err
    # A position that says its mode asks that mode's goal, with or without --mode.
    for extra in ((), ("--mode", "2"), ("--goal", "ladder")):
        answer = run("bandida", "close", LADDER, "--json", *extra)
        assert answer.code == 0, answer.err
        assert json.loads(answer.out)["details"]["goal"] == "ladder"
    for extra in (("--mode", "3"), ("--goal", "close")):
        refused = run("bandida", "close", LADDER, *extra)
        assert refused.code == 2
        assert "mode 2" in refused.err
        assert len(refused.err.splitlines()) == 1


@rules("BA-MODE-5", "BA-DECK-5", "BD-DECK-3")
def test_a_mode_3_position_holds_bandidos_super_card_on_either_side() -> None:
    """Bandido's super card is one card of the mode 3 deck, laid on either side: a position
    may hold it on the table or among its cards by either side's name (as a winning line
    writes it), once; two of it, or it outside mode 3, are refused."""
    start = f"bandida mode=3 {SUPER}@0,0,0 TL+TR@1,-1,180 L@-1,0,180 TL+TR:broken_tool@0,1,0"
    cards = "TR L+BR L+BL L+TR L:ladder"
    for side in ("bandido5", "bandido6", "TL+TR+R+BR+BL:bandido_super"):
        laid = parse_position(f"{start} {side}@3,0,180 | {cards}")
        assert can_close(laid, time_limit=30).status != "unknown"
        held = parse_position(f"{start} | {cards} {side}")
        assert can_close(held, time_limit=30).status != "unknown"
    with pytest.raises(NotationError, match="2 copies"):
        parse_position(f"{start} bandido5@3,0,180 | {cards} bandido6")
    with pytest.raises(NotationError, match="mode 3 only"):
        parse_position(f"bandida {SUPER}@0,0,0 | TR bandido5")


def _joins_in_order(history: tuple[Placement, ...]) -> bool:
    """True when every card of a table joined the tunnels as laid, in its order."""
    table = Table.empty()
    for p in history:
        if table.history and table.placement_error(p) is not None:
            return False
        table = table.place(p, check=False)
    return True


@rules("BA-NOTE-1", "BA-OBJ-5")
def test_a_table_after_a_maps_removal_reads_as_a_position() -> None:
    """A table a map's removal left may hold a card that joined the tunnels only through the
    card taken off (BA-NOTE-1): random games reach such tables, and each reads back as a
    position of its mode (the question of closing it), the same table."""
    import random

    import banditsolve

    game = banditsolve.load_game("bandida")
    found = 0
    for seed in range(80):
        rng = random.Random(seed)
        mode = 1 + seed % 3
        state = game.new_game(1, {"mode": mode}, seed=seed)
        for _ in range(rng.randrange(6, 16)):
            if game.current_player(state) < 0:
                break
            actions = game.legal_actions(state)
            state = game.apply(state, actions[rng.randrange(len(actions))])
        history = state.table.history
        if _joins_in_order(history):
            continue
        found += 1
        text = f"bandida mode={mode} " + " ".join(str(p) for p in history) + " | L"
        assert parse_position(text).table == state.table, text
    assert found >= 2, found
