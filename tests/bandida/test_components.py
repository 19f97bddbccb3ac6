"""Each Bandida mode holds its own components (BA-SETUP-4, BA-DECK-5), as the deck's data says
(BA-DECK-1): a position or a state holding one its mode lacks is refused with one line naming
the rule, from Python and on the command line; the closure question takes its cards and its
goal from the mode the position is a question of; and each tunnel adapter refuses the other
game's states."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from banditsolve.errors import NotationError, SolverError
from banditsolve.tunnels import can_close, min_cards_to_close, read_position
from banditsolve.tunnels.bandida.components import GOAL_MODES, GOALS, MODES
from banditsolve.tunnels.bandida.rules import BandidaRules, expect, new_game
from banditsolve.tunnels.bandida.state import OPTION_SET, BandidaOptions
from banditsolve.tunnels.cards import card_kind, load_deck, parse_card
from banditsolve.tunnels.game import BANDIDA, BANDIDO
from banditsolve.tunnels.notation import Position
from tests.bandida.helpers import make
from tests.cli_runner import CliResult, run
from tests.rules import rules

SUPER = "L+TL+TR+R+BR+BL"
#: The issue's mode-1 question: the ladder among the cards, which mode 1 takes out of the game.
LADDER = f"bandida {SUPER}@0,0,0 | L:ladder TL L+TL"
#: Bandido's super card among the cards of a mode-2 question.
BANDIDO_SUPER = f"bandida {SUPER}@0,0,0 | {SUPER}:bandido_super L:ladder TL L+TL"


def by_hand(text: str, mode: int | None = None) -> Position:
    """The position of ``text`` (read in mode 3, which holds every component) built again by
    hand as a position of ``mode`` (None: a Bandida position that names no mode)."""
    read = BANDIDA.read_position(text, mode=3)
    return Position(read.table, read.remaining, "bandida", mode=mode)


def refused(result: CliResult) -> str:
    """The one line of a refusal (exit status 2, nothing on stdout)."""
    assert result.code == 2, (result.code, result.out[:200], result.err)
    assert result.out == ""
    lines = result.err.splitlines()
    assert len(lines) == 1, result.err
    assert lines[0].startswith("banditsolve: error: "), result.err
    return lines[0]


@rules("BA-SETUP-4", "BA-SETUP-5", "BA-DECK-5")
def test_each_mode_knows_its_components_and_its_pile() -> None:
    deck = load_deck("bandida")
    for number, mode in MODES.items():
        assert mode.pile(deck) == deck.cards(number)  # the deck's data is the modes' piles
        kinds = {card_kind(c) for c in mode.pile(deck)}
        assert ("ladder" in kinds) == (number in (2, 3))
        assert ("bandido_super" in kinds) == (number == 3)
        assert GOAL_MODES[mode.goal] == number
    assert [m.goal for m in MODES.values()] == ["close", "ladder", "join"]
    assert GOALS == ("close", "ladder", "join")
    # The modes the deck's data names are the modes there are, and option mode's values.
    assert tuple(MODES) == deck.game_modes == (1, 2, 3)
    assert OPTION_SET.spec("mode").listed() == ("1", "2", "3")
    assert load_deck("bandido").game_modes == ()


@rules("BA-DECK-1", "BA-SETUP-4")
def test_a_decks_own_modes_are_the_ones_played(tmp_path: Path) -> None:
    """A user's deck that puts the ladder in every mode's pile: the rules deal it in mode 1
    and the readers take it there (the data is the one place saying where each card is)."""
    doc = load_deck("bandida").to_json()
    doc["edition"] = "mine"
    cards = doc["cards"]
    assert isinstance(cards, list)
    for entry in cards:
        if entry["kind"] == "ladder":
            entry["modes"] = [1, 2, 3]
    path = tmp_path / "mine.json"
    path.write_text(json.dumps(doc), encoding="utf-8")
    mine = load_deck(path)
    assert mine.cards(1) == load_deck("bandida").cards(2)
    state = new_game(2, BandidaOptions(mode=1), deck=mine)
    assert any(card_kind(c) == "ladder" for c in state.remaining())
    position = read_position(LADDER, mine)
    assert position.mode == 1
    assert position.remaining[-1] == parse_card("L:ladder")


@rules("BA-DECK-1", "BA-DECK-2", "BA-MODE-1", "BA-MODE-2", "BA-MODE-4")
def test_the_variant_holds_the_deck_the_special_cards_the_modes_and_their_ends() -> None:
    state = expect(BANDIDA.new_game(2, {"mode": 3}, seed=1))
    variant = state.variant
    assert isinstance(variant, BandidaRules)
    assert variant.deck == load_deck("bandida") == BANDIDA.deck
    kinds = sorted(card_kind(c) for c in variant.deck.cards(3) if card_kind(c) != "tunnel")
    assert kinds.count("map") == 2
    assert kinds.count("ladder") == kinds.count("bandido_super") == 1
    assert variant.modes is MODES
    assert variant.mode(state).goal == "join"
    assert BANDIDO.new_game(2, seed=1).variant is None  # Bandido plays its own rules


@rules("BA-SETUP-4")
def test_the_ladder_in_a_mode_1_position_is_refused_from_python() -> None:
    with pytest.raises(NotationError, match="BA-SETUP-4") as caught:
        BANDIDA.read_position(LADDER, mode=1)
    assert "\n" not in str(caught.value)
    # Read without a mode, a Bandida position is mode 1's (Bandida's first): the same line.
    for read in (read_position, BANDIDA.read_position):
        with pytest.raises(NotationError, match="BA-SETUP-4"):
            read(LADDER)
    for position in (by_hand(LADDER), by_hand(LADDER, 1)):  # built by hand, no reader
        for goal in (None, "close"):  # close is mode 1's goal, and mode 1 Bandida's first
            with pytest.raises(NotationError, match="BA-SETUP-4"):
                can_close(position, goal=goal)
            with pytest.raises(NotationError, match="BA-SETUP-4"):
                min_cards_to_close(position, goal=goal)
    # In mode 2 the ladder is in the game and the same cards are asked about.
    position = BANDIDA.read_position(LADDER, mode=2)
    assert position == read_position(LADDER.replace("bandida ", "bandida mode=2 ", 1))
    assert position == by_hand(LADDER, 2)
    assert can_close(position, goal="ladder").goal == "ladder"
    assert can_close(position).goal == "ladder"
    # On the table too: a ladder laid is refused in a mode-1 question.
    laid = f"bandida {SUPER}@0,0,0 L:ladder@-1,0,180 | TL L+TL"
    with pytest.raises(NotationError, match="BA-SETUP-4"):
        read_position(laid)
    with pytest.raises(NotationError, match="BA-SETUP-4"):
        can_close(by_hand(laid))


@rules("BA-DECK-5")
def test_bandidos_super_card_outside_mode_3_is_refused_from_python() -> None:
    for mode in (1, 2):
        with pytest.raises(NotationError, match=r"BA-DECK-5|BA-SETUP-4"):
            BANDIDA.read_position(BANDIDO_SUPER, mode=mode)
    with pytest.raises(NotationError, match="BA-DECK-5"):
        can_close(by_hand(BANDIDO_SUPER, 2), goal="ladder")
    three = BANDIDA.read_position(BANDIDO_SUPER, mode=3)
    assert three == read_position(BANDIDO_SUPER.replace("bandida ", "bandida mode=3 ", 1))
    joined = can_close(three, goal="join", time_limit=5)
    assert joined.goal == "join"
    # A goal of another mode than the position's is refused (ask it in that mode).
    with pytest.raises(SolverError, match="mode 2's") as caught:
        can_close(three, goal="ladder")
    assert "\n" not in str(caught.value)


@rules("BA-SETUP-4", "BA-DECK-5", "BA-CLOSE-1")
def test_without_remaining_cards_a_position_holds_its_modes_pile() -> None:
    deck = load_deck("bandida")
    bare = f"bandida {SUPER}@0,0,0"
    for number, mode in MODES.items():
        position = BANDIDA.read_position(bare, mode=number)
        assert position.remaining == mode.pile(deck)
        assert position.mode == number
    # Read without a mode, a position is mode 1's and holds mode 1's pile less the table: the
    # closure question (mode 1's) is answered, not refused for the ladder it never held.
    for position in (read_position(bare), BANDIDA.read_position(bare)):
        assert position.mode == 1
        assert position.remaining == MODES[1].pile(deck)
        answer = can_close(position, max_cards=1)
        assert answer.goal == "close"
        assert answer.status == "impossible", answer.reason  # one card, a map or not
        assert "map" in answer.reason


@rules("BA-SETUP-4", "BA-DECK-5")
def test_the_command_line_refuses_a_component_the_mode_lacks() -> None:
    line = refused(run("bandida", "close", LADDER, "--mode", "1"))
    assert "BA-SETUP-4" in line
    assert "ladder" in line
    # Without --mode the question is mode 1's (close every exit).
    assert "BA-SETUP-4" in refused(run("bandida", "close", LADDER))
    assert "BA-SETUP-4" in refused(run("bandida", "close", LADDER, "--goal", "close"))
    line = refused(run("bandida", "close", BANDIDO_SUPER, "--mode", "2"))
    assert "BA-DECK-5" in line
    assert "super card" in line
    answered = run("bandida", "close", BANDIDO_SUPER, "--mode", "3", "--json", "--time-limit", "5")
    assert answered.code in (0, 1, 3), answered.err
    assert json.loads(answered.out)["details"].get("goal") == "join"
    # The mode's goal is still answered when the cards are the mode's.
    assert run("bandida", "close", LADDER, "--mode", "2").code in (0, 1)


@rules("BA-SETUP-4")
def test_the_refusal_names_the_file_the_position_came_from(tmp_path: Path) -> None:
    path = tmp_path / "ladder.txt"
    path.write_text(LADDER, encoding="utf-8")
    line = refused(run("bandida", "close", str(path), "--mode", "1"))
    assert line.startswith(f"banditsolve: error: {path}: the ladder (L:ladder) is not in the game")
    with pytest.raises(NotationError, match=r"ladder\.txt: the ladder .*BA-SETUP-4"):
        BANDIDA.read_position(path, mode=1)


@rules("BA-SETUP-4", "BA-DECK-5", "BA-NOTE-1")
def test_a_state_holding_a_component_its_mode_lacks_is_refused() -> None:
    two = BANDIDA.to_json(BANDIDA.new_game(2, {"mode": 2}, seed=1))
    held = [card for hand in two["hands"] for card in hand]
    assert any(card.endswith(":ladder") for card in [*two["pile"], *held])
    as_mode_1 = {**two, "options": {**two["options"], "mode": 1}}
    with pytest.raises(NotationError, match="BA-SETUP-4"):
        BANDIDA.from_json(as_mode_1)
    three = BANDIDA.to_json(BANDIDA.new_game(2, {"mode": 3}, seed=1))
    as_mode_2 = {**three, "options": {**three["options"], "mode": 2}}
    with pytest.raises(NotationError, match="BA-DECK-5"):
        BANDIDA.from_json(as_mode_2)
    # A Bandida state's closure question is its mode's: cards its game lacks are refused.
    state = make([["TL+TR", "TL+TR", "L"], ["L"]], start="super6", options={"mode": 1})
    with pytest.raises(NotationError, match="BA-SETUP-4"):
        can_close(state, ["L:ladder", "L"], hypothetical=True)


def test_each_adapter_refuses_the_other_games_states() -> None:
    bandido = BANDIDO.new_game(2, seed=1)
    bandida = BANDIDA.new_game(2, seed=1)
    for game, other in ((BANDIDO, bandida), (BANDIDA, bandido)):
        for call in (
            game.legal_actions,
            game.to_notation,
            game.to_json,
            game.validate,
            game.current_player,
            game.ascii,
            lambda s, g=game: g.apply(s, g.legal_actions(s)[0]),
        ):
            with pytest.raises(NotationError, match="is not a state of") as caught:
                call(other)
            assert "\n" not in str(caught.value)
    with pytest.raises(NotationError, match="game name 'bandido'"):
        BANDIDO.from_notation(BANDIDA.to_notation(bandida))
    with pytest.raises(NotationError, match='"game" must be "bandida"'):
        BANDIDA.from_json(BANDIDO.to_json(bandido))
