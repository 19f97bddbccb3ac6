"""``banditsolve bandida ...``: whole games in every mode, the shared verbs on Bandida states,
the mode's closure goal, the demo."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from banditsolve.tunnels.game import BANDIDA
from tests.cli_runner import run


@pytest.mark.parametrize("mode", ["1", "2", "3"])
@pytest.mark.parametrize("players", ["1", "4"])
def test_play_a_whole_legal_game(mode: str, players: str) -> None:
    result = run("bandida", "play", "--seed", "5", "--mode", mode, "--players", players,
                 "--policy", "greedy", "--json")
    assert result.code == 0, result.err
    doc = json.loads(result.out)
    assert doc["options"] == {"mode": int(mode)} or doc["options"] == {"mode": mode}
    state = BANDIDA.from_notation(doc["start"])
    for step in doc["steps"]:
        action = BANDIDA.parse_action(state, step["action"])
        assert action in BANDIDA.legal_actions(state)
        state = BANDIDA.apply(state, action)
        assert BANDIDA.to_notation(state) == step["notation"]
    assert state.outcome is not None
    assert doc["outcome"]["reason"] == state.reason


def test_mode_alias_and_refusals() -> None:
    same = run("bda", "play", "--seed", "2", "--option", "mode=2", "--json")
    alias = run("bda", "play", "--seed", "2", "--mode=2", "--json")
    assert same.code == alias.code == 0
    assert same.out == alias.out
    bad = run("bandida", "play", "--mode", "4")
    assert bad.code == 2
    assert "mode" in bad.err
    assert len(bad.err.splitlines()) == 1
    assert run("bandido", "play", "--option", "mode=2").code == 2


def test_show_moves_apply_on_bandida_states(tmp_path: Path) -> None:
    state = BANDIDA.new_game(2, {"mode": 3}, seed=1)
    text = BANDIDA.to_notation(state)
    shown = run("bandida", "show", text, "--svg", str(tmp_path / "s.svg"))
    assert shown.code == 0
    assert "mode 3" in shown.out
    assert (tmp_path / "s.svg").exists()
    moves = run("bandida", "moves", text, "--json")
    assert moves.code == 0
    first = BANDIDA.action_text(state, BANDIDA.legal_actions(state)[0])
    applied = run("bandida", "apply", text, first, "--json")
    assert applied.code == 0, applied.err
    path = tmp_path / "state.json"
    path.write_text(json.dumps(BANDIDA.to_json(state)), encoding="utf-8")
    assert run("bandida", "show", str(path)).code == 0


def test_close_with_the_modes_goal() -> None:
    position = "bandida L+TL+TR+R+BR+BL@0,0,0 | L:ladder L*2 TL*2 L+TL TL+BL R+BR"
    result = run("bandida", "close", position, "--mode", "2", "--json")
    assert result.code == 0, result.err
    answer = json.loads(result.out)
    assert answer["status"] == "yes"
    assert any("ladder" in c for c in answer["certificate"])
    plain = "bandido L+TL+TR+R+BR+BL@0,0,0 | L"
    assert run("bandido", "close", plain, "--goal", "ladder").code == 2


def test_demo(tmp_path: Path) -> None:
    result = run("bandida", "demo", "--out", str(tmp_path), "--json")
    assert result.code == 0, result.err
    doc = json.loads(result.out)
    assert doc["game"] == "bandida"
    assert len(doc["items"]) == 5
    assert (tmp_path / "mode3.svg").exists()
    assert (tmp_path / "ladder.svg").exists()
    # The closure through the map: its removal in the certificate, its picture drawn.
    through = doc["items"][4]["answer"]
    assert through["status"] == "yes"
    assert any(step.startswith("remove ") for step in through["certificate"])
    assert (tmp_path / "map.svg").exists()
    assert run("bandido", "demo", "--out", str(tmp_path / "bd")).code == 0


@pytest.mark.parametrize(
    ("options", "said"),
    [
        (("map_split",), "option 'map_split' is not of the form NAME=VALUE"),
        (("map_split=tunnels", "map_split=edges"), "option 'map_split' is given twice"),
    ],
)
def test_close_refuses_a_malformed_or_repeated_map_reading(
    options: tuple[str, ...], said: str
) -> None:
    position = "bandida L+TL+TR+R+BR+BL@0,0,0 L+BL@1,-1,270 | TL TL+TR L+TL+TR:map"
    flags = [flag for option in options for flag in ("--option", option)]
    refused = run("bandida", "close", position, *flags)
    assert refused.code == 2
    assert refused.err.strip() == f"banditsolve: error: {said}"
