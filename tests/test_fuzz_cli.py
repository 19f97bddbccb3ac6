"""Every command, fed malformed input, refuses it the same way: exit 2 and one line on stderr
starting ``banditsolve: error:``; no traceback, no hang.

The commands and their arguments are read from the parser itself (``banditsolve.cli``), so a
verb or a game added later is fuzzed with no change here. Runs go through ``main()`` in
process (``tests/cli_runner.run``).
"""

from __future__ import annotations

import argparse
import functools
import json
import os
from pathlib import Path

import pytest
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

from banditsolve.core.protocol import CHANCE, TERMINAL
from tests import contract
from tests.profiles import PROFILE, scaled
from tests.strategies.games import names, play
from tests.strategies.json_docs import nested
from tests.strategies.refusal import assert_cli_clean, assert_cli_refuses
from tests.strategies.text import quick_mutations

GAMES = names()
#: Verbs that write files or run every game: fuzzed only through their flags, not at random.
WRITERS = ("demo",)
#: A time limit that keeps a solver run short when a fuzzed input happens to be valid.
SHORT = ("--time-limit", "2")

fuzz = settings(
    deadline=None,
    max_examples=scaled(15, 80, 400),
    suppress_health_check=[HealthCheck.too_slow],
    report_multiple_bugs=False,
    phases=tuple(Phase) if PROFILE == "long" else (Phase.explicit, Phase.reuse, Phase.generate),
)


@functools.cache
def verbs(name: str) -> dict[str, tuple[tuple[str, ...], tuple[str, ...]]]:
    """``verb -> (positional dests, option strings)`` for game ``name``, from the parser."""
    from banditsolve.cli import build_parser

    def subparsers(parser: argparse.ArgumentParser) -> dict[str, argparse.ArgumentParser]:
        for action in parser._actions:
            if isinstance(action, argparse._SubParsersAction):
                return dict(action.choices)
        return {}

    game_parser = subparsers(build_parser(name, all_games=False))[name]
    out: dict[str, tuple[tuple[str, ...], tuple[str, ...]]] = {}
    for verb, parser in subparsers(game_parser).items():
        positional = tuple(a.dest for a in parser._actions if not a.option_strings)
        flags = tuple(s for a in parser._actions for s in a.option_strings)
        out[verb] = (positional, flags)
    return out


@functools.cache
def positions(name: str) -> tuple[str, ...]:
    """Valid positions of ``name`` (notations): the start, a player node, a late state."""
    game = contract.load(name)
    trace = play(game, 11, mix=True)
    states = [trace.visits[0].state]
    states += [v.state for v in trace.visits if v.actor not in (CHANCE, TERMINAL)][:1]
    states.append(trace.visits[len(trace.visits) * 2 // 3].state)
    return tuple(game.to_notation(s) for s in states)


def filler(name: str, dest: str) -> list[str]:
    """A plausible value for a positional argument other than the position."""
    if dest == "actions":
        game = contract.load(name)
        state = game.from_notation(positions(name)[1])
        return [game.action_text(state, game.legal_actions(state)[0])]
    return {"tile": ["1"], "card": ["L"]}.get(dest, ["1"])


def command(name: str, verb: str, position: str) -> list[str]:
    """``GAME VERB POSITION OTHER...`` with the other positionals filled in."""
    positional, flags = verbs(name)[verb]
    argv = [name, verb]
    for dest in positional:
        argv += [position] if dest == "position" else filler(name, dest)
    if "--time-limit" in flags:
        argv += list(SHORT)
    return argv


def position_verbs(name: str) -> list[str]:
    return [v for v, (pos, _) in verbs(name).items() if "position" in pos]


def _all_position_verbs() -> list[tuple[str, str]]:
    out: list[tuple[str, str]] = []
    for g in GAMES:
        try:
            out += [(g, v) for v in position_verbs(g)]
        except Exception:
            out += [(g, v) for v in ("show", "moves", "apply")]
    return out


POSITION_VERBS = _all_position_verbs()

BAD_POSITIONS = (
    "x",
    "  ",
    "garbage garbage",
    "- - - -",
    "{",
    "{}",
    "[]",
    "null",
    '{"game": "nosuchgame"}',
    nested(10_000),
    '{"x": ' + "1" * 5_000 + "}",
    '{"x": NaN}',
    "1e999999",
    "x" * 1_000_000,
    "a b c " * 200_000,
    "\x00",
    "\ud800",
)


@pytest.mark.parametrize(("name", "verb"), POSITION_VERBS)
def test_bad_positions(name: str, verb: str) -> None:
    for text in BAD_POSITIONS:
        assert_cli_refuses(*command(name, verb, text))


def _bad_files(tmp: Path, valid: str) -> dict[str, Path]:
    files = {
        "bom.txt": b"\xef\xbb\xbf" + valid.encode(),
        "utf16.txt": valid.encode("utf-16"),
        "latin1.txt": valid.encode() + b" \xe9\xff",
        "empty.txt": b"",
        "blank.txt": b"  \n\t\n",
        "nul.txt": b"\x00" * 64,
        "deep.json": nested(10_000).encode(),
        "number.json": ("1" + "0" * 5000).encode(),
        "huge.txt": b"x" * (5 * 1024 * 1024),
    }
    out: dict[str, Path] = {}
    for name, data in files.items():
        (tmp / name).write_bytes(data)
        out[name] = tmp / name
    (tmp / "a-directory").mkdir()
    out["directory"] = tmp / "a-directory"
    out["missing"] = tmp / "no-such-file.txt"
    os.mkfifo(tmp / "a-pipe")
    out["pipe"] = tmp / "a-pipe"  # (never opened: reading one blocks until it is written)
    out["device"] = Path(os.devnull)
    return out


@pytest.mark.parametrize(("name", "verb"), POSITION_VERBS)
def test_bad_position_files(name: str, verb: str, tmp_path: Path) -> None:
    for label, path in _bad_files(tmp_path, positions(name)[1]).items():
        result = assert_cli_refuses(*command(name, verb, str(path)))
        if label in ("bom.txt",):
            assert "byte-order mark" in result.err, result.err
        if label in ("latin1.txt",):
            assert "UTF-8" in result.err, result.err
        if label in ("empty.txt", "blank.txt"):
            assert "empty" in result.err, result.err
        if label == "directory":
            assert "directory" in result.err, result.err
        if label in ("pipe", "device"):
            assert "not a regular file" in result.err, result.err


@pytest.mark.parametrize("name", GAMES)
@fuzz
@given(data=st.one_of(st.binary(max_size=300), st.text(max_size=300).map(str.encode)))
def test_random_files(name: str, data: bytes) -> None:
    import tempfile

    with tempfile.TemporaryDirectory(prefix="fuzz-") as tmp:
        path = Path(tmp) / "position.txt"
        path.write_bytes(data)
        assert_cli_clean(name, "show", str(path))
        assert_cli_clean(name, "moves", str(path))


@pytest.mark.parametrize(("name", "verb"), POSITION_VERBS)
@fuzz
@given(data=st.data())
def test_mutated_positions(name: str, verb: str, data: st.DataObject) -> None:
    text = data.draw(st.sampled_from(positions(name)).flatmap(quick_mutations), label="position")
    assert_cli_clean(*command(name, verb, text))


@pytest.mark.parametrize("name", GAMES)
@fuzz
@given(data=st.data())
def test_mutated_json_positions(name: str, data: st.DataObject) -> None:
    game = contract.load(name)
    doc = json.dumps(game.to_json(game.from_notation(positions(name)[1])))
    text = data.draw(quick_mutations(doc), label="json")
    assert_cli_clean(*command(name, "show", text))


@pytest.mark.parametrize("name", GAMES)
def test_bad_actions(name: str) -> None:
    position = positions(name)[1]
    for action in ("", "x", "nosuch 1", "9" * 5000, "claim 99999999999999999999", "\x00", "{}"):
        assert_cli_refuses(name, "apply", position, action)
    assert_cli_refuses(name, "apply", position)


# -- flags ---------------------------------------------------------------------------------------

BAD_TIME_LIMITS: tuple[str, ...] = ("nan", "NaN", "inf", "-inf", "Infinity", "-1", "0", "-0")
BAD_TIME_LIMITS += ("", "x", "1e999", "9" * 5000, "1,5", "0x10", "1e-400")
BAD_NODE_LIMITS = ("-1", "0", "1.5", "nan", "inf", "x", "", "9" * 5000, "1e3")


def _limited_verbs() -> list[tuple[str, str]]:
    out: list[tuple[str, str]] = []
    for g in GAMES:
        try:
            out += [(g, v) for v, (_, flags) in verbs(g).items() if "--time-limit" in flags]
        except Exception:
            continue
    return out


LIMITED = _limited_verbs()


@pytest.mark.parametrize(("name", "verb"), LIMITED)
def test_bad_time_limits(name: str, verb: str) -> None:
    base = command(name, verb, positions(name)[1])[: -len(SHORT)]
    for value in BAD_TIME_LIMITS:
        assert_cli_refuses(*base, "--time-limit", value)
        assert_cli_refuses(*base, f"--time-limit={value}")


@pytest.mark.parametrize(("name", "verb"), LIMITED)
def test_bad_node_limits(name: str, verb: str) -> None:
    base = command(name, verb, positions(name)[1])
    if "--node-limit" not in verbs(name)[verb][1]:
        return
    for value in BAD_NODE_LIMITS:
        assert_cli_refuses(*base, "--node-limit", value)


@pytest.mark.parametrize("name", GAMES)
def test_bad_play_flags(name: str) -> None:
    game = contract.load(name)
    for players in ("0", "-1", "99", "x", "1.5", "9" * 5000, str(game.max_players + 1)):
        assert_cli_refuses(name, "play", "--players", players)
    if game.min_players > 1:
        assert_cli_refuses(name, "play", "--players", str(game.min_players - 1))
    for seed in ("x", "1.5", "nan", "", "-1", "9" * 5000):
        assert_cli_refuses(name, "play", "--seed", seed)
    for option in ("nosuch=1", "noequals", "=x", "", "=", "x" * 5000 + "=1"):
        assert_cli_refuses(name, "play", "--option", option)
    for option_name in game.option_set.names():
        assert_cli_refuses(name, "play", "--option", f"{option_name}=no-such-value")
        assert_cli_refuses(name, "play", "--option", f"{option_name}=")
    for policy in ("nosuch", "", "x" * 5000):
        assert_cli_refuses(name, "play", "--policy", policy)


@pytest.mark.parametrize("flag", ["--max-cards", "--workers", "--samples"])
def test_a_count_flag_given_no_number_says_what_it_wants(flag: str) -> None:
    parser_flags = verbs("bandido")["close"][1] + verbs("bandido")["solve"][1]
    assert flag in parser_flags
    verb = "solve" if flag == "--samples" else "close"
    base = command("bandido", verb, positions("bandido")[1])
    for value in ("abc", "1.5", ""):
        refused = assert_cli_refuses(*base, flag, value)
        assert f"{flag}: expected a whole number, not" in refused.err, refused.err


@pytest.mark.parametrize("name", GAMES)
def test_options_from_option_names_are_accepted(name: str) -> None:
    game = contract.load(name)
    for option_name, values in game.option_set.names().items():
        for value in values:
            result = assert_cli_clean(
                name, "play", "--seed", "3", "--option", f"{option_name}={value}"
            )
            assert result.code == 0, (option_name, value, result.err)


@pytest.mark.parametrize("name", GAMES)
def test_bad_svg_outputs(name: str, tmp_path: Path) -> None:
    position = positions(name)[0]
    (tmp_path / "a-file").write_text("x")
    assert_cli_refuses(name, "show", position, "--svg", str(tmp_path / "a-file" / "x.svg"))
    assert_cli_refuses(name, "show", position, "--svg", str(tmp_path))
    assert_cli_refuses(name, "show", position, "--svg", "")


def test_bad_demo_outputs(tmp_path: Path) -> None:
    (tmp_path / "a-file").write_text("x")
    assert_cli_refuses("demo", "--out", str(tmp_path / "a-file"))
    assert_cli_refuses("demo", "--out", str(tmp_path / "a-file" / "below"))
    for name in GAMES:
        assert_cli_refuses(name, "demo", "--out", str(tmp_path / "a-file"))


def test_unknown_games_verbs_and_flags() -> None:
    assert_cli_refuses()
    assert_cli_refuses("games", "extra")
    assert_cli_refuses("games", "--nosuchflag")
    assert_cli_refuses("nosuchgame")
    assert_cli_refuses("nosuchgame", "show", "x")
    assert_cli_refuses("x" * 5000)
    assert_cli_refuses("--nosuchflag")
    for name in GAMES:
        assert_cli_refuses(name)
        assert_cli_refuses(name, "nosuchverb")
        assert_cli_refuses(name, "show")
        assert_cli_refuses(name, "show", positions(name)[0], "--nosuchflag")
        assert_cli_refuses(name, "show", positions(name)[0], "extra")


# -- random command lines ------------------------------------------------------------------------


@functools.cache
def vocabulary() -> tuple[str, ...]:
    words: list[str] = ["--json", "--seed", "--players", "--option", "--policy", "--", "-"]
    words += ["--time-limit", "--node-limit", "nan", "-1", "0", "1", "2", "99", "x", ""]
    for g in GAMES:
        words.append(g)
        try:
            for verb, (_, flags) in verbs(g).items():
                if verb not in WRITERS:
                    words.append(verb)
                words += [f for f in flags if f not in ("--svg", "--svg-dir", "--out")]
            words += list(positions(g))
        except Exception:
            continue
    return tuple(dict.fromkeys(words))


@fuzz
@given(data=st.data())
def test_random_command_lines(data: st.DataObject) -> None:
    words = vocabulary()
    argv: list[str] = data.draw(
        st.lists(st.one_of(st.sampled_from(words), st.text(max_size=8)), max_size=7),
        label="argv",
    )
    if any(w in ("--svg", "--svg-dir", "--out", *WRITERS) for w in argv):
        return
    # A valid query runs briefly: a short limit, given last, wins over any other.
    limited = (
        len(argv) >= 2
        and argv[0] in GAMES
        and "--" not in argv
        and "--time-limit" in verbs(argv[0]).get(argv[1], ((), ()))[1]
    )
    assert_cli_clean(*argv, *(SHORT if limited else ()))


@pytest.mark.parametrize("name", GAMES)
def test_valid_positions_are_accepted(name: str, tmp_path: Path) -> None:
    """The fuzz is not vacuous: the same commands accept valid input (notation, JSON text, a
    file of either) with exit 0."""
    game = contract.load(name)
    for position in positions(name):
        state = game.from_notation(position)
        doc = json.dumps(game.to_json(state))
        (tmp_path / "p.txt").write_text(position + "\n")
        (tmp_path / "p.json").write_text(doc)
        for source in (position, doc, str(tmp_path / "p.txt"), str(tmp_path / "p.json")):
            for verb in ("show", "moves"):
                result = assert_cli_clean(*command(name, verb, source))
                assert result.code == 0, (verb, source[:80], result.err)
        if game.current_player(state) != TERMINAL:
            action = game.action_text(state, game.legal_actions(state)[0])
            result = assert_cli_clean(name, "apply", position, action)
            assert result.code == 0, (position, action, result.err)


@pytest.mark.parametrize("name", GAMES)
def test_a_json_object_naming_a_key_twice_is_refused(name: str) -> None:
    """A game's JSON document (as ``new --json`` writes it) with its first key given twice:
    one line naming the key, exit 2 (the last value was read silently)."""
    from tests.cli_runner import run

    doc = json.loads(run(name, "new", "--json").out)
    key = next(iter(doc))
    text = "{" + json.dumps(key) + ": " + json.dumps(doc[key]) + ", " + json.dumps(doc)[1:]
    assert json.loads(text) == doc  # (Python's reader keeps the last silently)
    result = run(name, "show", text)
    assert result.code == 2, result.out
    assert f"names {key!r} twice" in result.err
    assert len(result.err.strip().splitlines()) == 1
