"""Rolling Bandits' rule options, on the one options system (RB-OPT-*): one spec per option,
one spelling (underscores), the dashed spellings written before still read with a one-line
note, never written."""

from __future__ import annotations

import json
from dataclasses import fields

import pytest

from banditsolve.core.options import DeprecatedSpelling
from banditsolve.errors import NotationError, RuleOptionError
from banditsolve.rolling.game import GAME
from banditsolve.rolling.state import OPTION_SET, Options
from tests.cli_runner import run
from tests.rules import rules

ALL_OPT = (
    "rb ed=default n=2 opt=trunk_count:exactly,cut:rear_back,keep:must_join phase=start turn=1 "
    "wagons=2 train=0:5/5L:-:-|-,1:2/2:R:M3|H2,2:3/3:H:B1|S2 won=-|- trunks=-|-"
)
#: The same position as written before the options had one spelling.
OLD_OPT = ALL_OPT.replace("trunk_count:exactly,cut:rear_back,keep:must_join",
                          "trunk-count:exactly,cut:rear-back,keep:must-join")


@rules("RB-OPT-1", "RB-OPT-2", "RB-OPT-3", "RB-OPT-4", "RB-OPT-5", "RB-OPT-6", "RB-OPT-7",
       "RB-OPT-8", "RB-OPT-9", "RB-OPT-10", "RB-OPT-11")
def test_one_spec_per_option_with_its_reason_and_rules() -> None:
    assert GAME.option_set is OPTION_SET
    assert [s.name for s in OPTION_SET] == [f.name for f in fields(Options)]
    assert OPTION_SET.defaults() == Options().values()
    for spec in OPTION_SET:
        assert spec.name.replace("_", "").isalpha()
        assert all(v.replace("_", "").isalpha() for v in spec.values), spec.name
        assert spec.reason
        assert spec.rules[0].startswith("RB-OPT-")
        assert spec.default == spec.values[0]
    assert OPTION_SET.names()["cut"] == ("join", "rear_back")
    assert OPTION_SET.names()["trunk_count"] == ("at_least", "exactly")
    assert "trunk_count: at_least, exactly (default at_least: " in OPTION_SET.help()


@rules("RB-OPT-2", "RB-OPT-6", "RB-OPT-10", "RB-NOTE-1")
def test_the_new_spellings_are_written() -> None:
    state = GAME.from_notation(ALL_OPT)
    assert state.options == Options(trunk_count="exactly", cut="rear_back", keep="must_join")
    assert GAME.to_notation(state) == ALL_OPT
    assert GAME.to_json(state)["options"] == {
        "trunk_count": "exactly", "cut": "rear_back", "keep": "must_join"
    }
    made = GAME.new_game(2, {"trunk_count": "exactly", "theft_trunk": "discard"}, seed=1)
    assert made.options.changed() == {"trunk_count": "exactly", "theft_trunk": "discard"}


@rules("RB-OPT-2", "RB-OPT-6", "RB-OPT-10", "RB-NOTE-1")
def test_old_spellings_are_read_with_a_note_and_never_written() -> None:
    new = GAME.from_notation(ALL_OPT)
    with pytest.warns(DeprecatedSpelling) as notes:
        assert GAME.from_notation(OLD_OPT) == new
    assert sorted(str(n.message).split()[0] for n in notes) == [
        "cut=rear-back", "keep=must-join", "option"
    ]
    assert "trunk-count is an old spelling, read as option trunk_count" in str(notes[0].message)
    # a JSON document as written before (its notation in the old spelling too)
    old_doc = GAME.to_json(new)
    old_doc["options"] = {"trunk-count": "exactly", "cut": "rear-back", "keep": "must-join"}
    old_doc["notation"] = OLD_OPT
    with pytest.warns(DeprecatedSpelling):
        assert GAME.from_json(json.loads(json.dumps(old_doc))) == new
    with pytest.warns(DeprecatedSpelling) as notes:
        made = GAME.new_game(2, {"trunk-count": "exactly", "cut": "rear-back"}, seed=1)
    assert len(notes) == 2
    assert made.options == Options(trunk_count="exactly", cut="rear_back")
    with pytest.warns(DeprecatedSpelling):
        assert Options(keep="must-join") == Options(keep="must_join")
    assert "-" not in GAME.to_notation(made).split(" opt=")[1].split()[0]


@rules("RB-OPT-6", "RB-NOTE-1")
def test_the_command_line_reads_an_old_spelling_with_one_line() -> None:
    played = run("rolling", "play", "--seed", "1", "--option", "cut=rear-back", "--json")
    assert played.code == 0, played.err
    assert played.err.splitlines() == [
        "banditsolve: warning: cut=rear-back is an old spelling, read as cut=rear_back; "
        "write cut=rear_back"
    ]
    doc = json.loads(played.out)
    assert doc["options"] == {"cut": "rear_back"}
    assert " opt=cut:rear_back " in doc["start"]


@rules("RB-NOTE-2")
def test_bad_options_are_refused() -> None:
    with pytest.raises(RuleOptionError, match="option jokers takes one of split, together"):
        Options(jokers="maybe")
    with pytest.raises(RuleOptionError, match="unknown Rolling Bandits rule option"):
        Options.from_mapping({"colour": "red"})
    with pytest.raises(RuleOptionError):
        GAME.new_game(2, {"mercenaries": True})
    with pytest.raises(NotationError, match="option cut takes one of join, rear_back"):
        GAME.from_notation(ALL_OPT.replace("cut:rear_back", "cut:sideways"))
    doc = GAME.to_json(GAME.from_notation(ALL_OPT))
    doc["options"] = {"cut": 3}
    with pytest.raises(NotationError, match="JSON position: option cut takes text"):
        GAME.from_json(doc)
