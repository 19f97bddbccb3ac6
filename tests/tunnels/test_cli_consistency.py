"""The tunnel games' commands agree with each other, the README and the specs: each refuses the
other tunnel game's input, flags that contradict each other are refused, ``play`` accepts what
the spec allows and deals to the library's player count, and the notation's messages give the
range a number must be in."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from banditsolve.errors import NotationError, RuleOptionError
from banditsolve.tunnels import load_puzzles
from banditsolve.tunnels.game import BANDIDA, BANDIDO, TunnelGame
from banditsolve.tunnels.notation import read_position
from banditsolve.tunnels.puzzles import game_state
from tests.cli_runner import CliResult, run
from tests.rules import rules

SUPER = "L+TL+TR+R+BR+BL"
CARDS = "L*2 TL*2 L+TL TL+BL R+BR"
GAMES = {"bandido": BANDIDO, "bandida": BANDIDA}


def other(name: str) -> str:
    return "bandida" if name == "bandido" else "bandido"


def position_inputs(name: str) -> dict[str, str]:
    """A position of the game ``name`` as notation and as JSON text."""
    doc = {"game": name, "placements": [{"card": SUPER, "x": 0, "y": 0, "rotation": 0}]}
    return {"notation": f"{name} {SUPER}@0,0,0 | {CARDS}", "json": json.dumps(doc)}


def state_inputs(name: str) -> dict[str, str]:
    """A game state of the game ``name`` as notation, JSON text and a puzzle's game document
    (a position with hands and pile, no player)."""
    game = GAMES[name]
    state = game.new_game(2, seed=3)
    doc = game.to_json(state)
    puzzle = {key: doc[key] for key in ("game", "placements", "hands", "pile")}
    return {
        "notation": game.to_notation(state),
        "json": json.dumps(doc),
        "document": json.dumps(puzzle),
    }


def refused(result: CliResult) -> str:
    """The one line of a refusal (exit status 2, nothing on stdout)."""
    assert result.code == 2, (result.code, result.out[:200], result.err)
    assert result.out == ""
    lines = result.err.splitlines()
    assert len(lines) == 1, result.err
    assert lines[0].startswith("banditsolve: error: "), result.err
    return lines[0]


# -- one game's command, the other game's input -----------------------------------------------


@rules("BD-NOTE-1")
@pytest.mark.parametrize("command", ["bandido", "bandida"])
@pytest.mark.parametrize("form", ["notation", "json"])
@pytest.mark.parametrize("verb", ["close", "placements"])
def test_position_commands_refuse_the_other_games_position(
    command: str, form: str, verb: str
) -> None:
    source = position_inputs(other(command))[form]
    extra = ["L"] if verb == "placements" else ["--max-cards", "2"]
    line = refused(run(command, verb, source, *extra))
    if form == "json":
        assert f'"game" must be "{command}", not \'{other(command)}\'' in line
    else:
        assert f"must start with the game name '{command}', not '{other(command)}'" in line


@rules("BD-NOTE-4", "BA-NOTE-1")
@pytest.mark.parametrize("command", ["bandido", "bandida"])
@pytest.mark.parametrize("form", ["notation", "json", "document"])
@pytest.mark.parametrize("verb", ["show", "moves", "apply", "solve"])
def test_state_commands_refuse_the_other_games_state(
    command: str, form: str, verb: str, tmp_path: Path
) -> None:
    path = tmp_path / "state.txt"
    path.write_text(state_inputs(other(command))[form], encoding="utf-8")
    extra = {"apply": ["pass"], "solve": ["--time-limit", "1"]}.get(verb, [])
    line = refused(run(command, verb, str(path), *extra))
    assert other(command) in line
    assert command in line
    assert ("game name" if form == "notation" else '"game" must be') in line


def test_the_mode_2_position_of_the_report_is_refused_not_answered() -> None:
    # Reported: answered "impossible: no ladder card" (exit 1) for a Bandido position.
    line = refused(run("bandida", "close", f"bandido {SUPER}@0,0,0 | {CARDS}", "--mode", "2"))
    assert "game name 'bandida', not 'bandido'" in line


def test_the_readers_take_the_game_to_expect() -> None:
    text = f"bandida {SUPER}@0,0,0 | {CARDS}"
    assert read_position(text, game="bandida").game == "bandida"
    assert read_position(text).game == "bandida"  # no game asked: any tunnel game
    with pytest.raises(NotationError, match="game name 'bandido'"):
        read_position(text, game="bandido")


# -- close: --mode and --goal ----------------------------------------------------------------

LADDER = f"bandida {SUPER}@0,0,0 | {CARDS}"


@rules("BA-MODE-2")
@pytest.mark.parametrize(("mode", "goal"), [("2", "close"), ("3", "ladder"), ("1", "join")])
def test_close_refuses_a_mode_and_a_goal_that_disagree(mode: str, goal: str) -> None:
    line = refused(run("bandida", "close", LADDER, "--mode", mode, "--goal", goal))
    assert f"--mode {mode}" in line
    assert f"--goal {goal}" in line
    assert "disagree" in line


@rules("BA-MODE-2")
def test_close_takes_a_mode_and_the_same_goal() -> None:
    both = run("bandida", "close", LADDER, "--mode", "2", "--goal", "ladder", "--json")
    alone = run("bandida", "close", LADDER, "--mode", "2", "--json")
    assert both.code == alone.code == 1, both.err
    assert json.loads(both.out)["reason"] == json.loads(alone.out)["reason"]
    assert "ladder" in json.loads(both.out)["reason"]


def test_bandido_close_has_no_mode() -> None:
    plain = f"bandido {SUPER}@0,0,0 | {CARDS}"
    assert "--mode" in refused(run("bandido", "close", plain, "--mode", "1"))
    assert "Bandida's" in refused(run("bandido", "close", plain, "--goal", "join"))
    assert run("bandido", "close", plain, "--goal", "close", "--max-cards", "2").code == 1


# -- play --------------------------------------------------------------------------------------


@rules("BD-OPT-6")
@pytest.mark.parametrize("size", ["30x30", "60x2", "2x60"])
def test_play_accepts_any_table_size_of_the_spec(size: str) -> None:
    result = run("bandido", "play", "--option", f"table_size={size}", "--json")
    assert result.code == 0, result.err
    doc = json.loads(result.out)
    assert doc["options"] == {"table_size": size}
    assert f"table_size:{size}" in doc["start"]


@rules("BD-OPT-6")
@pytest.mark.parametrize(
    ("size", "message"),
    [("61x2", "width and height must be between 2 and 60 cells"), ("1x9", "between 2 and 60"),
     ("big", "WIDTHxHEIGHT")],
)
def test_play_refuses_a_table_size_outside_the_spec(size: str, message: str) -> None:
    assert message in refused(run("bandida", "play", "--option", f"table_size={size}"))


@rules("BD-OPT-6")
def test_option_names_admit_every_table_size_of_the_spec() -> None:
    for game in GAMES.values():
        sizes = game.option_set.names()["table_size"]
        assert sizes[0] == "unbounded"
        assert "20x20" in sizes
        spec = game.option_set.spec("table_size")
        for size in ("30x30", "60x60", "2x2"):
            assert spec.parse(size) == size
        for size in ("61x2", "1x1", "30"):
            with pytest.raises(RuleOptionError):
                spec.parse(size)
    assert "any WIDTHxHEIGHT of 2 to 60 cells" in run("bandido", "play", "--help").out


@rules("BD-SETUP-1", "BA-SETUP-2")
@pytest.mark.parametrize("game", ["bandido", "bandida"])
def test_play_deals_to_the_libraries_default_players(game: str) -> None:
    result = run(game, "play", "--seed", "4", "--json")
    assert result.code == 0, result.err
    doc = json.loads(result.out)
    library: TunnelGame = GAMES[game]
    assert doc["players"] == 2 == library.default_players
    assert doc["start"] == library.to_notation(library.new_game(seed=4))


@rules("BA-OPT-13")
def test_bandida_play_help_lists_mode_and_mode_agrees_with_option() -> None:
    help_text = run("bandida", "play", "--help").out
    assert "--mode M" in help_text.split("rule options")[0]
    assert "--mode" not in run("bandido", "play", "--help").out
    line = refused(run("bandida", "play", "--mode", "2", "--option", "mode=3"))
    assert "--mode 2" in line
    assert "mode=3" in line
    same = run("bandida", "play", "--mode", "2", "--option", "mode=2", "--json")
    alone = run("bandida", "play", "--mode", "2", "--json")
    assert same.code == alone.code == 0
    assert same.out == alone.out


# -- a puzzle's game document --------------------------------------------------------------


def puzzle_document() -> dict[str, Any]:
    puzzle = next(p for p in load_puzzles() if p.id == "game-win-1")
    assert puzzle.document is not None
    return {k: v for k, v in puzzle.document.items() if k not in ("player", "options")}


@rules("BD-NOTE-4")
def test_every_state_command_reads_a_puzzles_game_document(tmp_path: Path) -> None:
    doc = puzzle_document()
    assert "player" not in doc
    assert doc["remaining"] == []
    path = tmp_path / "game-win-1.json"
    path.write_text(json.dumps(doc), encoding="utf-8")
    state = game_state(doc)
    assert state.player == 0
    shown = run("bandido", "show", str(path), "--json")
    assert shown.code == 0, shown.err
    assert json.loads(shown.out)["notation"] == BANDIDO.to_notation(state)
    moves = run("bandido", "moves", str(path))
    assert moves.code == 0, moves.err
    expected = [BANDIDO.action_text(state, a) for a in BANDIDO.legal_actions(state)]
    assert moves.lines == expected
    first = expected[0]
    applied = run("bandido", "apply", str(path), first, "--json")
    assert applied.code == 0, applied.err
    after = BANDIDO.apply(state, BANDIDO.parse_action(state, first))
    assert json.loads(applied.out)["notation"] == BANDIDO.to_notation(after)
    solved = run("bandido", "solve", str(path), "--time-limit", "10", "--json")
    assert solved.code == 0, solved.err
    assert json.loads(solved.out)["answer"] == "win", solved.err


def test_a_game_document_with_leftover_remaining_cards_is_refused() -> None:
    doc = puzzle_document() | {"remaining": ["L"]}
    line = refused(run("bandido", "show", json.dumps(doc)))
    assert "'remaining' must be empty" in line


# -- the notation's numbers --------------------------------------------------------------------


@rules("BD-NOTE-4")
@pytest.mark.parametrize("turn", ["-5", "-3", "1000001", "9" * 40, "x"])
def test_turn_messages_give_the_range(turn: str) -> None:
    text = BANDIDO.to_notation(BANDIDO.new_game(2, seed=1))
    assert " turn=0" in text
    line = refused(run("bandido", "show", text.replace(" turn=0", f" turn={turn}")))
    assert "between 0 and 1000000" in line
    assert "turn must be" in line
    assert "±" not in line
    assert "digits" not in line
    if turn.lstrip("-").isdigit():
        assert "not a whole number" not in line


@rules("BD-NOTE-4")
def test_player_and_count_messages_give_the_range() -> None:
    text = BANDIDO.to_notation(BANDIDO.new_game(2, seed=1))
    line = refused(run("bandido", "show", text.replace("player=0", "player=-2")))
    assert "player must be between 0 and 1, not '-2'" in line  # (two hands: players 0 and 1)
    broken = text.replace("hands=", "hands=L*-2,", 1)
    assert "must be between 1 and 999, not '-2'" in refused(run("bandido", "show", broken))
    line = refused(run("bandido", "close", f"bandido {SUPER}@0,-99999999,0 |"))
    assert "y must be between -10000 and 10000" in line


@rules("BD-DECK-2", "BD-DECK-3", "BA-SETUP-4", "BA-DECK-5")
@pytest.mark.parametrize(("game", "position", "card", "why"), [
    ("bandido", f"bandido {SUPER}@0,0,0 | L", "L:ladder", "not a card of the bandido deck"),
    ("bandido", f"bandido {SUPER}@0,0,0 | L", "super5", "lies only at the start"),
    ("bandida", f"bandida {SUPER}@0,0,0 | L", "L:ladder", "not in the game in mode 1"),
    ("bandida", f"bandida mode=2 {SUPER}@0,0,0 | L", "bandido5", "mode 3 only"),
])
def test_placements_takes_the_cards_close_takes(
    game: str, position: str, card: str, why: str
) -> None:
    """``placements`` of a card the game (or the position's mode) does not hold is refused in
    one line, as ``close`` refuses it among the cards; the game's own cards are listed."""
    refused = run(game, "placements", position, card)
    assert refused.code == 2
    assert why in refused.err
    assert len(refused.err.strip().splitlines()) == 1
    assert run(game, "close", position.replace("| L", f"| {card}")).code == 2
    assert run(game, "placements", position, "L").code == 0
    if game == "bandida":
        laid = run(game, "placements", f"bandida mode=3 {SUPER}@0,0,0 | L", "bandido5")
        assert laid.code == 0
        assert "legal placements of TL+TR+R+BR+BL:bandido_super" in laid.out
