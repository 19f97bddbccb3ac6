"""The one command line over every registered game: the same verbs and flags, the exit codes,
the answer shape, one-line errors, light imports."""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from banditsolve.core.registry import entries
from tests.cli_runner import run

SHARED_VERBS = ("new", "show", "moves", "apply", "play", "demo", "puzzles", "puzzle")
GAMES = [e.name for e in entries()]
ANSWER_KEYS = {"game", "question", "status", "answer", "reason", "certificate", "limits", "stats"}


def _subcommands(parser: argparse.ArgumentParser) -> dict[str, argparse.ArgumentParser]:
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            return dict(action.choices)
    return {}


def _flags(parser: argparse.ArgumentParser) -> dict[str, tuple[object, ...]]:
    """Each option and positional with what a user sees of it: metavar, default, nargs."""
    out: dict[str, tuple[object, ...]] = {}
    for action in parser._actions:
        if isinstance(action, argparse._HelpAction | argparse._SubParsersAction):
            continue
        key = action.option_strings[0] if action.option_strings else action.dest
        out[key] = (action.metavar, action.default, action.nargs, action.type is None)
    return out


def game_commands(name: str) -> dict[str, argparse.ArgumentParser]:
    from banditsolve.cli import build_parser

    return _subcommands(_subcommands(build_parser(name, all_games=False))[name])


def test_every_query_of_every_game_draws_its_answer_with_svg() -> None:
    queries = 0
    for name in GAMES:
        for verb, parser in game_commands(name).items():
            if parser.get_default("query"):
                queries += 1
                flags = _flags(parser)
                assert "--svg" in flags, (name, verb)
                assert flags["--svg"][0] == "OUT", (name, verb)
    assert queries >= 2 * len(GAMES)  # each shipped game asks two questions or more


def test_every_game_offers_the_shared_verbs_with_the_same_flags() -> None:
    reference = {verb: _flags(game_commands(GAMES[0])[verb]) for verb in SHARED_VERBS}
    assert set(reference["play"]) >= {"--seed", "--players", "--option", "--policy", "--json"}
    assert set(reference["show"]) == {"position", "--svg", "--json", "--python"}
    for name in GAMES:
        commands = game_commands(name)
        for verb in SHARED_VERBS:
            flags = _flags(commands[verb])
            # Every shared flag, the same in every game; a game may add a shorthand of its own
            # for one of its rule options (Bandida's play --mode M), which says so in its help.
            assert {k: flags[k] for k in reference[verb] if k in flags} == reference[verb]
            assert set(flags) >= set(reference[verb]), (name, verb)
            for extra in set(flags) - set(reference[verb]):
                helps = [a.help or "" for a in commands[verb]._actions if extra in a.option_strings]
                assert helps, (name, verb, extra)
                assert "the same as --option" in helps[0], (name, verb, extra)


def test_game_questions_use_the_shared_flag_names() -> None:
    banned = {"--limit", "--nodes", "--file"}
    for name in GAMES:
        for verb, parser in game_commands(name).items():
            flags = _flags(parser)
            assert not banned & set(flags), (name, verb)
            if verb not in SHARED_VERBS and verb != "placements":
                assert "position" in flags, (name, verb)
                assert "--json" in flags, (name, verb)
            if "--seed" in flags:
                assert flags["--seed"][1] == 0, (name, verb)


@pytest.mark.parametrize("argv", [["--help"], ["banditos", "--help"], ["bandido", "claim"]])
def test_help_lists_the_exit_codes(argv: list[str]) -> None:
    if argv[-1] == "claim":
        argv = ["bandido", "close", "--help"]
    result = run(*argv)
    assert result.code == 0
    assert "exit status" in result.out
    for line in ("0  yes", "1  proven no", "3  unknown", "2  bad input or usage", "70  a bug"):
        assert line in result.out


def test_games_lists_names_aliases_and_summaries() -> None:
    result = run("games", "--json")
    rows = json.loads(result.out)
    assert result.code == 0
    assert [r["name"] for r in rows] == GAMES
    assert "los-banditos" in rows[0]["aliases"]
    assert "banditos" in run("games").out


def test_aliases_reach_the_same_game() -> None:
    position = "3:k4r5b6:g5g6/2:k1k1:g1g2g3/1:r6r6r6:g4/1:b2b2k3: 123 21:3 0a"
    a = run("banditos", "claim", position, "1", "--json")
    b = run("LB", "claim", position, "1", "--json")
    assert a == b
    assert a.code == 1


@pytest.mark.parametrize(
    "argv",
    [
        [],
        ["wizardry"],
        ["wizardry", "show", "x"],
        ["banditos"],
        ["banditos", "conjure"],
        ["bandido", "conjure"],
        ["banditos", "play", "--seed", "-1"],
        ["banditos", "play", "--seed", "9" * 50],
        ["banditos", "play", "--players", "3"],
        ["banditos", "play", "--option", "nosuch=1"],
        ["banditos", "play", "--option", "proof=maybe"],
        ["banditos", "play", "--option", "proof"],
        ["banditos", "play", "--policy", "wizard"],
        ["bandido", "close", "bandido super6@0,0,0", "--time-limit", "nan"],
        ["bandido", "close", "bandido super6@0,0,0", "--time-limit", "inf"],
        ["bandido", "close", "bandido super6@0,0,0", "--time-limit", "-1"],
        ["bandido", "close", "bandido super6@0,0,0", "--time-limit", "0"],
        ["bandido", "close", "bandido super6@0,0,0", "--time-limit", "1" + "0" * 400],
        ["bandido", "close", "bandido super6@0,0,0", "--node-limit", "0"],
        ["bandido", "close", "bandido super6@0,0,0", "--node-limit", "9" * 5000],
        ["banditos", "best", "x y", "--time-limit", "1e999"],
    ],
)
def test_usage_errors_are_one_line_and_exit_2(argv: list[str]) -> None:
    result = run(*argv)
    assert result.code == 2, result
    assert result.out == ""
    assert result.err.startswith("banditsolve: error: ")
    assert result.err.count("\n") == 1
    assert len(result.err) < 500


def test_unknown_game_is_named_as_a_game() -> None:
    err = run("nosuchgame", "show", "x").err
    assert "unknown game 'nosuchgame'" in err
    assert "banditos" in err


def _loadable(name: str) -> bool:
    from banditsolve import load_game

    try:
        load_game(name)
    except (ImportError, AttributeError):  # a game still being written
        return False
    return True


@pytest.mark.parametrize("game", GAMES)
def test_bad_files_are_one_line_and_exit_2(game: str, tmp_path: Path) -> None:
    if not _loadable(game):
        pytest.skip(f"{game} cannot load yet")
    cases = {
        "bom.txt": b"\xef\xbb\xbfbandido L@0,0,0",
        "latin1.txt": b"caf\xe9 1 2",
        "empty.txt": b"",
        "blank.txt": b"  \n",
        "deep.json": b"[" * 100_000 + b"]" * 100_000,
        "long.json": b'{"x": ' + b"9" * 5000 + b"}",
    }
    paths = []
    for name, data in cases.items():
        (tmp_path / name).write_bytes(data)
        paths.append(str(tmp_path / name))
    paths += [str(tmp_path), str(tmp_path / "missing.json")]
    for path in paths:
        result = run(game, "show", path)
        assert result.code == 2, (path, result)
        assert result.err.startswith("banditsolve: error: ")
        assert result.err.count("\n") == 1
        assert "Traceback" not in result.err


def test_last_line_of_defence(monkeypatch: pytest.MonkeyPatch) -> None:
    """An unexpected RecursionError, MemoryError or UnicodeError still ends in one line."""
    import banditsolve.cli.verbs as verbs

    for error in (RecursionError("deep"), MemoryError(), UnicodeError("bad")):

        def boom(args: argparse.Namespace, error: BaseException = error) -> int:
            raise error

        monkeypatch.setattr(verbs, "read_position", boom)
        result = run("banditos", "show", "x y")
        assert result.code == 2
        assert result.err.count("\n") == 1
        assert result.err.startswith("banditsolve: error: ")


def test_query_json_is_the_answer_shape() -> None:
    position = "3:k4r5b6:g5g6/2:k1k1:g1g2g3/1:r6r6r6:g4/1:b2b2k3: 123 21:3 0a"
    queries = [
        ["banditos", "claim", position, "1"],
        ["banditos", "odds", position, "1"],
        ["bandido", "close", "bandido super6@0,0,0 | L*2 TL*2 L+TL TL+BL R+BR", "--minimum"],
        ["bandido", "close", "bandido super6@0,0,0 | L", "--max-cards", "1"],
    ]
    for argv in queries:
        result = run(*argv, "--json")
        doc = json.loads(result.out)
        assert ANSWER_KEYS <= set(doc) <= ANSWER_KEYS | {"details"}, argv
        assert doc["game"] == argv[0]
        assert result.code == {"yes": 0, "no": 1, "unknown": 3}[doc["status"]]


def _modules_after(code: str) -> list[str]:
    probe = (
        "import contextlib, io, sys\n"
        f"{code}\n"
        "heavy = ('ortools', 'z3', 'banditsolve.banditos', 'banditsolve.tunnels')\n"
        "print(sorted({m for m in sys.modules if m.startswith(heavy)}))"
    )
    result = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
    found: list[str] = json.loads(result.stdout.strip().replace("'", '"'))
    return found


def test_import_and_help_stay_light() -> None:
    assert _modules_after("import banditsolve") == []
    help_only = (
        "from banditsolve.cli import main\n"
        "with contextlib.redirect_stdout(io.StringIO()):\n"
        "    main(['--help'])"
    )
    assert _modules_after(help_only) == []
    # Every game's commands built: their cli modules load, no solver library.
    loaded = _modules_after("import banditsolve.cli\nbanditsolve.cli.build_parser()")
    assert not [m for m in loaded if m.startswith(("ortools", "z3"))]
    assert not [m for m in loaded if m.startswith("banditsolve.tunnels.solvers")]


def test_console_script_exits_2_without_a_traceback() -> None:
    script = Path(sys.executable).parent / "banditsolve"
    result = subprocess.run(
        [str(script), "banditos", "show", "x y"], capture_output=True, text=True, check=False
    )
    assert result.returncode == 2
    assert "Traceback" not in result.stderr
    assert result.stderr.count("\n") == 1


@pytest.mark.parametrize("json_flag", [[], ["--json"]])
def test_a_reader_that_goes_away_leaves_the_answers_status(json_flag: list[str]) -> None:
    """`banditsolve ... | grep -q ...` under `set -o pipefail`: the reader is gone before the
    answer is printed, and the status is still the answer's (1: impossible), with nothing on
    stderr."""
    script = Path(sys.executable).parent / "banditsolve"
    read, write = os.pipe()
    os.close(read)
    try:
        result = subprocess.run(
            [str(script), "bandido", "close", "bandido L+TL+TR+R+BR+BL@0,0,0 | L", *json_flag],
            stdout=write, stderr=subprocess.PIPE, check=False,
        )
    finally:
        os.close(write)
    assert result.returncode == 1
    assert result.stderr == b""


def test_demo_of_every_game_writes_its_pictures(tmp_path: Path) -> None:
    result = run("demo", "--out", str(tmp_path), "--json")
    assert result.code == 0, result.err
    doc = json.loads(result.out)
    assert [g["game"] for g in doc["games"]] == GAMES
    for game in doc["games"]:
        assert game["items"]
        for item in game["items"]:
            assert item["svg"]
            assert Path(item["svg"]).read_text().startswith("<svg")
            assert item["answer"] is None or set(item["answer"]) >= ANSWER_KEYS
    text = run("demo", "--out", str(tmp_path)).out
    said = [line for line in text.splitlines() if line.startswith(("==", "picture: "))]
    assert len(said) == len(set(said)) == 2 * sum(len(g["items"]) for g in doc["games"])
    assert "lost after" not in text


@pytest.mark.parametrize("name", GAMES)
def test_play_help_lists_rule_options_the_game_accepts(name: str) -> None:
    """`GAME play --help` lists every rule option with its values, the default first: each
    value listed starts a game, and a value not listed is refused."""
    from banditsolve.core.registry import load_game
    from banditsolve.errors import RuleOptionError

    result = run(name, "play", "--help")
    assert result.code == 0
    header = " (--option NAME=VALUE; the first value listed is the default):"
    text = result.out.split(header)[1]
    listed: dict[str, list[str]] = {}
    for line in text.splitlines()[1:]:
        if not line.startswith("  "):
            break
        option, _, shown = line.strip().partition(": ")
        values_text = shown.split(" (default ")[0]
        values_text = values_text.removesuffix(", or any other value the option takes")
        listed[option] = values_text.split(", ")
    game = load_game(name)
    assert listed, name
    for option, values in listed.items():
        assert len(values) == len(set(values)) >= 2, (name, option)
        for value in values:
            chosen: object = int(value) if value.isdigit() else value
            game.new_game(options={option: chosen}, seed=1)
        with pytest.raises(RuleOptionError):
            game.new_game(options={option: "no-such-value"}, seed=1)
    # The play command takes them: the default of the first option, given explicitly.
    first = next(iter(listed))
    played = run(name, "play", "--option", f"{first}={listed[first][0]}", "--json")
    assert played.code == 0, played.err


def test_a_bug_is_one_line_with_its_own_status_never_a_proven_no(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Anything that escapes a handler is a bug: one line, exit status 70 (not 1, which a
    script reads as a proven no), and the traceback only on request."""
    import banditsolve.cli.verbs as verbs

    def broken(args: object) -> int:
        raise StopIteration("the bug")

    monkeypatch.setattr(verbs, "cmd_show", broken)
    result = run("banditos", "show", "-/-/-/- 1111222333 -:- 0A")
    assert result.code == 70
    assert result.err.splitlines() == [
        "banditsolve: internal error: StopIteration: the bug (a bug in banditsolve: please "
        "report it with the command that caused it)"
    ]
    monkeypatch.setenv("BANDITSOLVE_TRACEBACK", "1")
    with pytest.raises(StopIteration):
        run("banditos", "show", "-/-/-/- 1111222333 -:- 0A")


@pytest.mark.parametrize("name", GAMES)
def test_new_is_the_game_a_seed_deals_and_its_moves_set_a_position_up(name: str) -> None:
    from banditsolve.core.registry import load_game

    game = load_game(name)
    players = game.min_players if game.min_players > 1 else 2
    dealt = run(name, "new", "--players", str(players), "--seed", "7", "--json")
    assert dealt.code == 0, dealt.err
    doc = json.loads(dealt.out)
    state = game.new_game(players, seed=7)
    assert doc["notation"] == game.to_notation(state)
    assert run(name, "new", "--players", str(players), "--json").out == run(
        name, "new", "--players", str(players), "--seed", "0", "--json").out  # default seed 0
    # the first legal move, applied the way the board does it, is the rules' own
    first = json.loads(run(name, "moves", doc["notation"], "--json").out)["actions"][0]
    applied = json.loads(run(name, "apply", doc["notation"], first, "--json").out)
    expected = game.apply(state, game.parse_action(state, first))
    assert applied["notation"] == game.to_notation(expected)
    by_chance = json.loads(run(name, "new", "--players", str(players), "--by-chance",
                               "--json").out)
    unseeded = game.new_game(players)
    assert by_chance["notation"] == game.to_notation(unseeded)
    too_many = run(name, "new", "--players", str(game.max_players + 1))
    assert too_many.code == 2
    assert f"not {game.max_players + 1}" in too_many.err


@pytest.mark.parametrize("name", GAMES)
def test_what_new_and_apply_print_is_read_back(name: str, tmp_path: Path) -> None:
    """The --json of new (and of apply) is itself a state every command reads, by its
    notation; so is the text of new, a notation above its picture, whole; cut, it is refused
    with a hint to its first line."""
    dealt = run(name, "new", "--seed", "7", "--json")
    saved = tmp_path / "state.json"
    saved.write_text(dealt.out, encoding="utf-8")
    notation = json.loads(dealt.out)["notation"]
    assert run(name, "moves", str(saved)).out == run(name, "moves", notation).out
    first = json.loads(run(name, "moves", notation, "--json").out)["actions"][0]
    saved.write_text(run(name, "apply", str(saved), first, "--json").out, encoding="utf-8")
    assert run(name, "show", str(saved)).code == 0
    text = tmp_path / "state.txt"
    printed = run(name, "new", "--seed", "7").out
    text.write_text(printed, encoding="utf-8")
    assert run(name, "moves", str(text)).out == run(name, "moves", notation).out
    text.write_text(printed.rstrip("\n").rsplit("\n", 1)[0], encoding="utf-8")
    refused = run(name, "show", str(text))
    assert refused.code == 2
    assert "a notation is one line" in refused.err


def test_every_query_of_every_game_writes_itself_as_python() -> None:
    for name in GAMES:
        for verb, parser in game_commands(name).items():
            if parser.get_default("query") or verb in ("new", "show", "moves", "apply"):
                assert "--python" in _flags(parser), (name, verb)
