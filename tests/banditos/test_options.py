"""Los Banditos' rule options through the one option set (LB-OPT-1, LB-OPT-4): the specs with
their reasons and rule IDs, one spelling everywhere, the old spelling ``give-up`` still read
(Python, notation, JSON, ``--option``) with a deprecation note and never written."""

from __future__ import annotations

import json
import warnings

import pytest

from banditsolve.banditos.game import GAME
from banditsolve.banditos.notation import format_position, from_json, parse_position, to_json
from banditsolve.banditos.state import OPTION_SET, Options, initial_state
from banditsolve.core.options import DeprecatedSpelling
from banditsolve.errors import NotationError, RuleOptionError
from tests.cli_runner import run
from tests.rules import rules

POSITION = "3:k4r5b6:g5g6/2:k1k1:g1g2g3/1:r6r6r6:g4/1:b2b2k3: 123 21:3 0a"


@rules("LB-OPT-1", "LB-OPT-4")
def test_the_option_set_says_each_option_once_with_its_reason_and_rules() -> None:
    assert GAME.option_set is OPTION_SET
    assert OPTION_SET.names() == {"proof": ("strict", "bag"), "unplaceable": ("give_up", "return")}
    defaults = {"proof": "strict", "unplaceable": "give_up"}
    assert OPTION_SET.defaults() == Options().values() == defaults
    specs = {spec.name: spec for spec in OPTION_SET}
    assert specs["proof"].rules[0] == "LB-OPT-1"
    assert specs["unplaceable"].rules[0] == "LB-OPT-4"
    for spec in OPTION_SET:
        assert len(spec.reason) > 40
        line = spec.help()
        assert spec.reason in line
        assert spec.rules[0] in line
        assert "\n" not in line
    help_text = run("banditos", "play", "--help").out
    assert "unplaceable: give_up, return (default give_up:" in help_text
    assert "give-up" not in help_text


@rules("LB-OPT-1", "LB-OPT-4")
def test_options_are_read_and_checked_by_the_option_set() -> None:
    assert Options.from_mapping(None) == Options()
    assert Options.from_mapping({"proof": "bag"}) == Options(proof="bag")
    assert Options(proof="bag", unplaceable="return").changed() == {
        "proof": "bag", "unplaceable": "return"
    }
    assert Options().changed() == {}
    for bad in ({"proof": "maybe"}, {"proof": 3}, {"proof": " bag"}, {"proof": None}):
        with pytest.raises(RuleOptionError):
            Options(**bad)
    with pytest.raises(RuleOptionError, match="unknown Los Banditos rule option 'speed'"):
        Options.from_mapping({"speed": "fast"})
    with pytest.raises(RuleOptionError, match="option proof takes one of strict, bag, not 'maybe'"):
        GAME.new_game(options={"proof": "maybe"})


def _reads_old(call: object) -> None:
    assert callable(call)
    with pytest.warns(DeprecatedSpelling, match="unplaceable=give-up is an old spelling"):
        assert call() == "give_up"


@rules("LB-OPT-4", "LB-NOTE-1")
def test_the_old_spelling_give_up_is_read_everywhere_with_a_note() -> None:
    _reads_old(lambda: Options(unplaceable="give-up").unplaceable)  # type: ignore[arg-type]
    _reads_old(lambda: Options.from_mapping({"unplaceable": "give-up"}).unplaceable)
    _reads_old(lambda: GAME.new_game(options={"unplaceable": "give-up"}).options.unplaceable)
    _reads_old(lambda: parse_position(POSITION + " unplaceable=give-up").options.unplaceable)
    old_json = to_json(parse_position(POSITION))
    old_json["options"] = {"proof": "strict", "unplaceable": "give-up"}  # as written before
    _reads_old(lambda: from_json(old_json).options.unplaceable)
    _reads_old(lambda: GAME.read_state(json.dumps(old_json)).options.unplaceable)
    with pytest.warns(DeprecatedSpelling):
        assert from_json(old_json) == parse_position(POSITION)
    result = run("banditos", "play", "--seed", "3", "--option", "unplaceable=give-up")
    assert result.code == 0
    assert "unplaceable=give-up is an old spelling, read as unplaceable=give_up" in result.err
    assert "banditsolve: warning:" in result.err


@rules("LB-OPT-4", "LB-NOTE-1")
def test_the_old_spelling_is_never_written() -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # nothing written here is an old spelling
        state = initial_state(Options())
        assert to_json(state)["options"] == {"proof": "strict", "unplaceable": "give_up"}
        assert "unplaceable" not in format_position(state)
        returning = initial_state(Options(unplaceable="return"))
        assert format_position(returning).endswith(" unplaceable=return")
        assert from_json(to_json(returning)) == returning


@rules("LB-OPT-1", "LB-NOTE-1")
def test_bad_option_fields_are_notation_errors_naming_the_field() -> None:
    for text, fragment in (
        (POSITION + " proof=maybe", "option field: option proof takes one of strict, bag"),
        (POSITION + " proof", "option field: option 'proof' is not of the form NAME=VALUE"),
        (POSITION + " speed=fast", "unknown Los Banditos rule option 'speed'"),
        (POSITION + " proof=bag proof=strict", "option field: option 'proof' is given twice"),
    ):
        with pytest.raises(NotationError, match=fragment):
            parse_position(text)
    doc = to_json(parse_position(POSITION))
    doc["options"] = {"proof": 3}
    with pytest.raises(NotationError, match="'options': option proof takes text"):
        from_json(doc)
