"""Every reader, fed malformed input from Python, refuses it with the library's error.

Readers: each registered game's ``read_state``, ``from_notation``, ``from_json`` and
``parse_action``; the games' own public parse functions; ``core.io.read_text/load_json``.
Inputs: hypothesis text and bytes, mutations of valid notations and actions, broken JSON
documents, hostile JSON texts (deep nesting, huge numbers, NaN), huge inputs, bad files
(BOM, UTF-16, non-UTF-8, empty, a directory, missing), and Python values of the wrong type.
A reader may accept what is valid; what it refuses it refuses with a
:class:`~banditsolve.errors.BanditsolveError` of one short line, never a traceback or a hang.
"""

from __future__ import annotations

import functools
import importlib
import inspect
import json
import math
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

from banditsolve.core.protocol import CHANCE, TERMINAL
from banditsolve.errors import (
    ArgumentTypeError,
    BanditsolveError,
    IllegalActionError,
    NotationError,
    RuleOptionError,
)
from tests import contract
from tests.profiles import PROFILE, scaled
from tests.strategies.games import names, play
from tests.strategies.json_docs import HOSTILE_TEXTS, WRONG_VALUES, broken_documents, nested
from tests.strategies.refusal import assert_clean, shown
from tests.strategies.text import mutations, quick_mutations

GAMES = names()
GAME_METHODS = ("read_state", "from_notation", "from_json", "parse_action")
MODULE_READERS = (
    "banditos.parse_position",
    "banditos.read_position",
    "banditos.from_json",
    "banditos.parse_dice",
    "banditos.Die.parse",
    "banditos.parse_action",
    "tunnels.parse_position",
    "tunnels.read_position",
    "tunnels.from_json",
    "tunnels.parse_card",
    "tunnels.load_deck",
    "core.read_text",
    "core.load_json",
)
#: Public readers found in each game's package and its ``notation`` module (``parse_*``,
#: ``read_*``, ``from_json``, ``load_*`` taking one argument), so a game added later has its
#: own parse functions fuzzed too.
READER_NAME = re.compile(r"^(parse(_\w+)?|read_\w+|from_json|from_notation|load_\w+)$")


def discovered_readers() -> tuple[str, ...]:
    from banditsolve.core.registry import entries

    found: list[str] = []
    seen: set[int] = set()
    for label in MODULE_READERS:
        try:
            seen.add(id(_module_reader(label)))
        except Exception:
            continue
    for e in entries():
        package = e.game.partition(":")[0].rsplit(".", 1)[0]
        for module_name in (package, f"{package}.notation"):
            try:
                module = importlib.import_module(module_name)
            except Exception:
                continue
            names = getattr(module, "__all__", None) or [
                n for n, v in vars(module).items() if getattr(v, "__module__", None) == module_name
            ]
            for attribute in names:
                fn = getattr(module, attribute, None)
                if not READER_NAME.match(attribute) or not callable(fn) or _arity(fn) != 1:
                    continue
                if id(fn) in seen:
                    continue  # the same function under another name
                seen.add(id(fn))
                found.append(f"{module_name.removeprefix('banditsolve.')}.{attribute}")
    return tuple(found)


def _arity(fn: Callable[..., object]) -> int:
    try:
        params = inspect.signature(fn).parameters.values()
    except (TypeError, ValueError):
        return -1
    kinds = (inspect.Parameter.POSITIONAL_ONLY, inspect.Parameter.POSITIONAL_OR_KEYWORD)
    return sum(1 for p in params if p.kind in kinds and p.default is inspect.Parameter.empty)


READERS = tuple(
    dict.fromkeys(
        [f"{g}:{m}" for g in GAMES for m in GAME_METHODS]
        + list(MODULE_READERS)
        + list(discovered_readers())
    )
)
#: Readers that take a file (a path) as well as text.
PATH_READERS = (*tuple(f"{g}:read_state" for g in GAMES), "tunnels.read_position", "core.read_text")
#: Readers that take anything textual (they read text, not a position).
ANY_TEXT = ("core.read_text",)
#: Readers for which empty text is valid (no dice).
EMPTY_OK = ("banditos.parse_dice",)

#: Shrinking is skipped under the quick profiles: a failing reader is reported at once with
#: its (already short) input instead of minutes of shrinking.
fuzz = settings(
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
    report_multiple_bugs=False,
    phases=tuple(Phase) if PROFILE == "long" else (Phase.explicit, Phase.reuse, Phase.generate),
)


@functools.cache
def sample_states(name: str) -> tuple[Any, ...]:
    """A few states of ``name``: the start, some mid-game player and chance nodes, an end."""
    game = contract.load(name)
    trace = play(game, 5, mix=True)
    visits = trace.visits
    picks = [visits[0], visits[len(visits) // 3], visits[len(visits) // 2], visits[-1]]
    picks += [v for v in visits if v.actor >= 0][:2]
    picks += [v for v in visits if v.actor == CHANCE][:1]
    return tuple(v.state for v in picks)


def player_state(name: str) -> Any:
    game = contract.load(name)
    for state in sample_states(name)[1:]:
        if game.current_player(state) not in (CHANCE, TERMINAL):
            return state
    return sample_states(name)[0]


def reader(label: str) -> Callable[[Any], object]:
    """The function behind a reader's label (imported when the test runs)."""
    if ":" in label:
        name, method = label.split(":")
        game = contract.load(name)
        if method == "parse_action":
            state = player_state(name)
            return lambda text: game.parse_action(state, text)
        fn: Callable[[Any], object] = getattr(game, method)
        return fn
    return _module_reader(label)


def _module_reader(label: str) -> Callable[[Any], object]:
    if label == "core.read_text":
        from banditsolve.core import io

        return io.read_text
    if label == "core.load_json":
        from banditsolve.core import io

        return lambda text: io.load_json(text, "fuzz input")
    if label == "banditos.Die.parse":
        from banditsolve.banditos import Die

        die: Callable[[Any], object] = Die.parse
        return die
    module_name, _, attribute = label.rpartition(".")
    module: Any = importlib.import_module(f"banditsolve.{module_name}")
    found: Callable[[Any], object] = getattr(module, attribute)
    return found


def valid_texts(label: str) -> list[str]:
    """Valid inputs for ``label``, to mutate."""
    if ":" in label:
        return _game_method_texts(label)
    if label.startswith("banditos."):
        return _banditos_texts(label)
    if label.startswith("tunnels."):
        return _tunnels_texts(label)
    from banditsolve.core.registry import entries

    for e in entries():
        package = e.game.partition(":")[0].rsplit(".", 1)[0].removeprefix("banditsolve.")
        if label.startswith(package + ".") and e.name in GAMES:
            game = contract.load(e.name)
            states = sample_states(e.name)
            return [game.to_notation(s) for s in states] + [json.dumps(game.to_json(states[1]))]
    return ['{"a": [1, 2, {"b": null}]}', "text"]


def _game_method_texts(label: str) -> list[str]:
    """Valid inputs for ``GAME:method``: legal actions' texts, or states' JSON and notation."""
    name, method = label.split(":")
    game = contract.load(name)
    if method == "parse_action":
        state = player_state(name)
        return [game.action_text(state, a) for a in game.legal_actions(state)[:5]]
    states = sample_states(name)
    if method == "from_json":
        return [json.dumps(game.to_json(s)) for s in states[:3]]
    return [game.to_notation(s) for s in states] + [json.dumps(game.to_json(states[1]))]


def _banditos_texts(label: str) -> list[str]:
    """Valid inputs for a ``banditos.`` reader: dice, actions, or states' JSON or notation."""
    game = contract.load("banditos")
    states = sample_states("banditos")
    if label == "banditos.parse_dice":
        return ["r5 g3 b1 k6", "r1"]
    if label == "banditos.Die.parse":
        return ["r5", "k1"]
    if label == "banditos.parse_action":
        return ["claim 1", "give 4", "roll", "place 2 r5", "end", "reveal 3"]
    if label == "banditos.from_json":
        return [json.dumps(game.to_json(s)) for s in states[:3]]
    return [game.to_notation(s) for s in states]


def _tunnels_texts(label: str) -> list[str]:
    """Valid inputs for a ``tunnels.`` reader: cards, a deck's name, a position's JSON or
    notation."""
    if label == "tunnels.parse_card":
        return ["L+TL+BR", "super6", "R+BR+TL"]
    if label == "tunnels.load_deck":
        return ["bandido"]
    notation = "bandido L+TL+TR+R+BR+BL@0,0,0 L+TL@2,0,90 | L*3 TL+BL*2"
    if label == "tunnels.from_json":
        return [
            json.dumps(
                {
                    "game": "bandido",
                    "placements": [{"card": "super6", "x": 0, "y": 0, "rotation": 0}],
                    "remaining": ["L", "TL+BL"],
                }
            )
        ]
    return [notation]


# -- hypothesis text and bytes ------------------------------------------------------------------


@pytest.mark.parametrize("label", READERS)
@fuzz
@given(text=st.text(max_size=120))
def test_any_text(label: str, text: str) -> None:
    assert_clean(label, reader(label), text)


@pytest.mark.parametrize("label", READERS)
@fuzz
@given(data=st.binary(max_size=120))
def test_any_bytes(label: str, data: bytes) -> None:
    assert_clean(label, reader(label), data)


@pytest.mark.parametrize("label", READERS)
@fuzz
@given(data=st.data())
def test_mutated_valid_input(label: str, data: st.DataObject) -> None:
    texts = valid_texts(label)
    text = data.draw(st.sampled_from(texts).flatmap(quick_mutations), label="mutated")
    assert_clean(label, reader(label), text)


# -- Python values of the wrong type ------------------------------------------------------------


@pytest.mark.parametrize("label", READERS)
def test_wrong_python_types(label: str) -> None:
    call = reader(label)
    values: list[object] = [*WRONG_VALUES, object(), 1j, {1, 2}, (1,), bytearray(b"\xff"), print]
    for value in values:
        text = isinstance(value, str) and value.strip()
        empty = isinstance(value, str) and not value.strip() and label in EMPTY_OK
        assert_clean(label, call, value, must_refuse=not (label in ANY_TEXT and text) and not empty)


# -- hostile JSON, huge inputs ------------------------------------------------------------------


def _attack(text: str) -> bool:
    """JSON that attacks the parser: deep nesting, long numbers, constants, out-of-range."""
    return (
        len(text) > 1000 or "NaN" in text or "Infinity" in text or "e999" in text or "e400" in text
    )


@pytest.mark.parametrize("label", READERS)
def test_hostile_json(label: str) -> None:
    call = reader(label)
    for text in HOSTILE_TEXTS:
        must = label not in ANY_TEXT and (label != "core.load_json" or _attack(text))
        assert_clean(label, call, text, must_refuse=must)
        if label not in ("core.load_json",):
            assert_clean(label, call, text.encode("utf-8"), must_refuse=must)


@pytest.mark.parametrize("label", READERS)
def test_huge_input_gets_a_short_message(label: str) -> None:
    """A megabyte of input gets a message of a line; past the size limit (4 MB) the readers
    that take files refuse by size."""
    call = reader(label)
    base = valid_texts(label)[0]
    huge = [
        "x" * 1_000_000,
        (base + " ") * (1_000_000 // (len(base) + 1)),
        base + " " + "9" * 1_000_000,
    ]
    if "json" in label or label.endswith(("read_state", "read_position")):
        huge += ["[" + "1," * 500_000 + "1]", '{"game": "' + "g" * 1_000_000 + '"}']
    if label in PATH_READERS:
        huge.append("x" * 5_000_000)
    for text in huge:
        # core.load_json takes JSON text of any size: the size limit is read_text's
        must = False if label == "core.load_json" else (
            label not in ANY_TEXT or len(text) > 4_500_000
        )
        assert_clean(label, call, text, must_refuse=must)


# -- broken JSON documents --------------------------------------------------------------------


def _dumps(doc: object) -> str | None:
    try:
        return json.dumps(doc)
    except (ValueError, TypeError):
        return None  # a 5,000-digit int cannot even be written


@pytest.mark.parametrize("name", GAMES)
@fuzz
@given(data=st.data())
def test_broken_json_documents(name: str, data: st.DataObject) -> None:
    game = contract.load(name)
    state = data.draw(st.sampled_from(sample_states(name)), label="state")
    doc = game.to_json(state)
    broken = data.draw(broken_documents(doc), label="broken")
    assert_clean(f"{name}:from_json", game.from_json, broken)
    text = _dumps(broken)
    if text is not None:
        assert_clean(f"{name}:read_state", game.read_state, text)


@pytest.mark.parametrize("name", GAMES)
def test_json_with_non_json_values(name: str) -> None:
    """NaN, infinities, huge ints, tuples and objects inside a document are refused."""
    game = contract.load(name)
    doc = game.to_json(sample_states(name)[1])
    for key in doc:
        for value in (float("nan"), float("inf"), 10**5000, object(), (1, 2), b"x"):
            broken = dict(doc)
            broken[key] = value
            assert_clean(f"{name}:from_json", game.from_json, broken, must_refuse=True)


@pytest.mark.parametrize("name", GAMES)
def test_json_unknown_and_missing_fields(name: str) -> None:
    game = contract.load(name)
    doc = game.to_json(sample_states(name)[1])
    assert_clean(f"{name}:from_json", game.from_json, {**doc, "no_such_field": 1}, must_refuse=True)
    assert_clean(f"{name}:from_json", game.from_json, {**doc, "": None}, must_refuse=True)
    text = json.dumps({**doc, "surprise": [1, 2]})
    assert_clean(f"{name}:read_state", game.read_state, text, must_refuse=True)
    assert_clean(f"{name}:from_json", game.from_json, {}, must_refuse=True)
    assert_clean(f"{name}:from_json", game.from_json, {"game": name}, must_refuse=True)


@pytest.mark.parametrize("name", GAMES)
def test_json_of_another_game_is_refused(name: str) -> None:
    game = contract.load(name)
    for other in GAMES:
        if other == name:
            continue
        try:
            doc = contract.load(other).to_json(sample_states(other)[1])
        except Exception:
            continue
        assert_clean(f"{name}:from_json", game.from_json, doc, must_refuse=True)
        assert_clean(f"{name}:read_state", game.read_state, json.dumps(doc), must_refuse=True)


# -- files --------------------------------------------------------------------------------------


def _bad_files(tmp: Path, valid: str) -> dict[str, tuple[object, tuple[str, ...]]]:
    """Bad files (path, words one of which the message must contain)."""
    files: dict[str, tuple[object, tuple[str, ...]]] = {}

    def write(name: str, data: bytes, words: tuple[str, ...]) -> None:
        path = tmp / name
        path.write_bytes(data)
        files[name] = (path, words)

    write("bom.txt", b"\xef\xbb\xbf" + valid.encode(), ("byte-order mark", "BOM"))
    write("utf16.txt", valid.encode("utf-16"), ("UTF-16", "UTF-8"))
    write("latin1.txt", valid.encode() + b" \xe9\xff", ("UTF-8",))
    write("empty.txt", b"", ("empty",))
    write("blank.txt", b"  \n\t\n", ("empty",))
    write("nul.txt", b"\x00" * 64, ())
    write("deep.json", nested(10_000).encode(), ())
    write("number.json", ("1" + "0" * 5000).encode(), ())
    (tmp / "a-directory").mkdir()
    files["directory"] = (tmp / "a-directory", ("directory",))
    files["missing"] = (tmp / "no-such-file.txt", ("no such file",))
    return files


@pytest.mark.parametrize("label", PATH_READERS)
def test_bad_files(label: str, tmp_path: Path) -> None:
    call = reader(label)
    valid = valid_texts(label)[0]
    for name, (path, words) in _bad_files(tmp_path, valid).items():
        for source in (path, str(path)):
            must = label not in ANY_TEXT or name not in ("nul.txt", "deep.json", "number.json")
            exc = assert_clean(label, call, source, must_refuse=must)
            if exc is not None and words:
                assert any(w.lower() in str(exc).lower() for w in words), (
                    f"{label}({name}): the message {str(exc)!r} does not say {' or '.join(words)}"
                )


@pytest.mark.parametrize("label", PATH_READERS)
def test_bad_bytes_say_what_is_wrong(label: str) -> None:
    call = reader(label)
    valid = valid_texts(label)[0]
    for data, words in (
        (b"\xef\xbb\xbf" + valid.encode(), ("byte-order mark",)),
        (valid.encode() + b"\xff", ("UTF-8",)),
        (b"", ("empty",)),
    ):
        exc = assert_clean(label, call, data, must_refuse=True)
        assert exc is not None, f"{label}: message {exc} does not say {words}"
        assert any(w.lower() in str(exc).lower() for w in words), (
            f"{label}: message {exc} does not say {words}"
        )


# -- actions, options and limits from Python --------------------------------------------------


@pytest.mark.parametrize("name", GAMES)
def test_apply_refuses_things_that_are_not_actions(name: str) -> None:
    game = contract.load(name)
    for state in sample_states(name):
        before = game.to_notation(state)
        for thing in (None, 0, -1, "x", "", [], {}, object(), 10**5000, float("nan")):
            try:
                game.apply(state, thing)
            except ArgumentTypeError as exc:  # no action object at all: a TypeError too
                contract.assert_clear_message(exc)
            except Exception as exc:
                raise AssertionError(
                    f"{name}: apply({shown(thing)}) raised {type(exc).__name__}: "
                    f"{shown(str(exc), 200)}"
                ) from exc
            else:
                raise AssertionError(f"{name}: apply accepted {shown(thing)}")
            assert game.to_notation(state) == before


@pytest.mark.parametrize("name", GAMES)
def test_parse_action_with_text_of_other_states(name: str) -> None:
    """Action texts legal elsewhere parse or are refused cleanly; a parsed one that is not legal
    here is refused by ``apply``."""
    game = contract.load(name)
    texts: list[str] = []
    for state in sample_states(name):
        texts += [game.action_text(state, a) for a in game.legal_actions(state)[:6]]
    for state in sample_states(name):
        legal = game.legal_actions(state)
        for text in texts:
            try:
                action = game.parse_action(state, text)
            except BanditsolveError as exc:
                contract.assert_clear_message(exc)
                continue
            if not any(action == a for a in legal):
                with pytest.raises(IllegalActionError):
                    game.apply(state, action)


@pytest.mark.parametrize("name", GAMES)
def test_new_game_refuses_options_of_the_wrong_shape(name: str) -> None:
    game = contract.load(name)
    for options in ("proof=bag", ["proof"], [("proof", "bag")], {1: 2}, {None: "x"}, 5):
        # Not a mapping: a wrong type; a mapping whose names are not text: a wrong option.
        error = RuleOptionError if isinstance(options, dict) else ArgumentTypeError
        with pytest.raises(error) as caught:
            game.new_game(None, options, seed=0)
        contract.assert_clear_message(caught.value)


def _ids(value: object) -> str:
    return "huge" if isinstance(value, int) and abs(value) > 10**100 else repr(value)


@pytest.mark.parametrize(
    "value", [math.nan, math.inf, -math.inf, -1, 0, -0.0, True, "1", 10**5000, [1], 1e300], ids=_ids
)
def test_time_limits_are_checked(value: object) -> None:
    from banditsolve.core.limits import Limits, check_time_limit

    wrong_type = isinstance(value, bool) or not isinstance(value, int | float)
    with pytest.raises(BanditsolveError) as caught:
        check_time_limit(value)
    contract.assert_clear_message(caught.value)
    assert isinstance(caught.value, TypeError) == wrong_type  # (ArgumentTypeError)
    with pytest.raises(BanditsolveError):
        Limits(time_limit=value)  # type: ignore[arg-type]


@pytest.mark.parametrize("value", [-1, 0, 1.5, math.nan, True, "5", 10**5000, [1]], ids=_ids)
def test_node_limits_are_checked(value: object) -> None:
    from banditsolve.core.limits import check_node_limit

    with pytest.raises(BanditsolveError) as caught:
        check_node_limit(value)
    contract.assert_clear_message(caught.value)
    wrong_type = isinstance(value, bool) or not isinstance(value, int)
    assert isinstance(caught.value, TypeError) == wrong_type


def test_notation_errors_are_banditsolve_errors() -> None:
    """The hierarchy the fuzz tests rely on."""
    assert issubclass(NotationError, BanditsolveError)
    assert issubclass(BanditsolveError, ValueError)


@pytest.mark.slow
@pytest.mark.parametrize("label", READERS)
@settings(fuzz, max_examples=scaled(1000, 3000, 20000))
@given(data=st.data())
def test_long_fuzz_of_every_reader(label: str, data: st.DataObject) -> None:
    """Many more inputs per reader (run with ``-m slow``)."""
    texts = valid_texts(label)
    value = data.draw(
        st.one_of(
            st.sampled_from(texts).flatmap(mutations),
            st.text(max_size=300),
            st.binary(max_size=300),
            st.sampled_from(HOSTILE_TEXTS),
        ),
        label="input",
    )
    assert_clean(label, reader(label), value)


def test_the_refusal_check_is_not_vacuous() -> None:
    """``assert_clean`` fails on a stray exception, a long or multi-line message, an accepted input
    that must be refused, and a hang; ``cli_problem`` on a traceback or a second line."""
    import time as _time

    from tests.cli_runner import CliResult
    from tests.strategies import refusal

    def raises(exc: BaseException) -> Callable[[object], object]:
        def call(_: object) -> object:
            raise exc

        return call

    assert assert_clean("ok", raises(NotationError("bad input")), "x") is not None
    for bad in (TypeError("x"), KeyError("x"), ValueError("x"), RecursionError()):
        with pytest.raises(AssertionError):
            assert_clean("stray", raises(bad), "x")
    for message in ("two\nlines", "x" * 400, ""):
        with pytest.raises(AssertionError):
            assert_clean("message", raises(NotationError(message)), "x")
    with pytest.raises(AssertionError):
        assert_clean("accepts", lambda v: v, "x", must_refuse=True)
    with pytest.raises(refusal.TookTooLong), refusal.bounded(0.05):
        _time.sleep(1)
    good = CliResult(2, "", "banditsolve: error: bad position\n")
    assert refusal.cli_problem(good) is None
    for result in (
        CliResult(1, "", "banditsolve: error: bad position\n"),
        CliResult(2, "", "banditsolve: error: bad\nTraceback (most recent call last):\n"),
        CliResult(2, "", "usage: banditsolve ...\nbanditsolve: error: bad\n"),
        CliResult(2, "", "error: bad\n"),
        CliResult(2, "", ""),
    ):
        assert refusal.cli_problem(result) is not None, result
