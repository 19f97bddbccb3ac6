"""The ``banditsolve banditos`` commands, driven as a user would (LB-NOTE-1, LB-CLAIM-2)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from banditsolve.banditos.notation import parse_position, to_json
from tests.cli_runner import run
from tests.rules import rules

POSITION = "3:k4r5b6:g5g6/2:k1k1:g1g2g3/1:r6r6r6:g4/1:b2b2k3: 123 21:3 0a"


@rules("LB-NOTE-1")
def test_show_reads_notation_json_and_files(tmp_path: Path) -> None:
    result = run("banditos", "show", POSITION)
    assert result.code == 0
    assert "straight 4-5-6" in result.out
    document = json.dumps(to_json(parse_position(POSITION)))
    as_json = tmp_path / "pos.json"
    as_json.write_text(document)
    for source in (str(as_json), document):
        shown = json.loads(run("banditos", "show", source, "--json").out)
        assert shown["notation"] == parse_position(POSITION).notation()
        assert shown["game"] == "banditos"
        assert shown["current_player"] == 0
        assert shown["outcome"] is None
        assert shown["state"] == json.loads(document)
    svg = tmp_path / "pos.svg"
    assert run("banditos", "show", POSITION, "--svg", str(svg)).code == 0
    assert svg.read_text().startswith("<svg")


@rules("LB-CLAIM-2", "LB-OPT-1")
def test_claim_answers_and_exit_codes() -> None:
    unsafe = run("banditos", "claim", POSITION, "1", "--json")
    doc = json.loads(unsafe.out)
    assert unsafe.code == 1
    assert (doc["question"], doc["status"], doc["answer"]) == ("claim", "no", "unsafe")
    assert doc["certificate"] == ["g4"]
    safe = run("banditos", "claim", POSITION, "1", "--proof", "bag", "--json")
    assert safe.code == 0
    assert json.loads(safe.out)["answer"] == "safe"
    text = run("banditos", "claim", POSITION, "3")
    assert text.code == 0
    assert text.out.startswith("slot 3 (strict proof, exact): safe")


@rules("LB-CLAIM-2")
def test_claim_backends_agree() -> None:
    for backend in ("cpsat", "z3"):
        assert run("banditos", "claim", POSITION, "1", "--backend", backend).code == 1
        assert run("banditos", "claim", POSITION, "1", "--proof", "bag",
                   "--backend", backend).code == 0


@rules("LB-NOTE-2")
def test_moves_and_apply() -> None:
    doc = json.loads(run("banditos", "moves", POSITION, "--json").out)
    assert doc["actions"] == ["claim 3", "give 1", "give 2", "give 3", "give 4", "roll"]
    assert doc["probabilities"] is None
    assert doc["current_player"] == 0
    applied = run("banditos", "apply", POSITION, "claim 3", "--json")
    assert applied.code == 0
    assert json.loads(applied.out)["state"]["scores"] == [4, 3]
    chance = run("banditos", "moves", "-/-/-/- 1111222333 -:- 0A")
    assert chance.lines == ["reveal 1  p=2/5", "reveal 2  p=3/10", "reveal 3  p=3/10"]
    doc = json.loads(run("banditos", "moves", "-/-/-/- 1111222333 -:- 0A", "--json").out)
    assert doc["current_player"] == -1
    assert doc["probabilities"] == ["2/5", "3/10", "3/10"]


def test_messages_name_the_problem(tmp_path: Path) -> None:
    assert "no such file: 'no-such-file.json'" in run("banditos", "show", "no-such-file.json").err
    assert "is a directory" in run("banditos", "show", str(tmp_path)).err
    err = run("banditos", "apply", POSITION, "roll", "place k1 1").err
    assert "action 2 ('place k1 1')" in err
    assert "nothing was applied" in err
    over = run("banditos", "moves", "1::/2::/1::/1:: 3 3322:1 0a", "--json")
    doc = json.loads(over.out)
    assert doc["actions"] == []
    assert doc["outcome"]["winners"] == [0]
    assert "game is over" in run("banditos", "moves", "1::/2::/1::/1:: 3 3322:1 0a").out


def test_play_is_reproducible(tmp_path: Path) -> None:
    first = run("banditos", "play", "--seed", "7", "--policy", "greedy", "--json")
    second = run("banditos", "play", "--seed", "7", "--policy", "greedy", "--json")
    game = json.loads(first.out)
    assert first == second
    assert first.code == 0
    outcome = game["outcome"]
    assert outcome["winners"] in ([0], [1])
    assert max(outcome["scores"]) >= 10
    replay = parse_position(game["steps"][-1]["notation"])
    assert replay.winner == outcome["winners"][0]
    mixed = run("banditos", "play", "--seed", "3", "--policy", "greedy", "--policy", "random",
                "--option", "proof=bag", "--svg-dir", str(tmp_path), "--json")
    doc = json.loads(mixed.out)
    assert doc["policies"] == ["greedy", "random"]
    assert doc["options"] == {"proof": "bag"}
    assert len(list(tmp_path.glob("step-*.svg"))) == len(doc["steps"]) + 1
    assert run("banditos", "play").code == 0


def test_demo_shows_each_answer_once(tmp_path: Path) -> None:
    result = run("banditos", "demo", "--out", str(tmp_path))
    assert result.code == 0
    assert result.out.count("unsafe: adding g4 to [g5 g6]") == 1
    assert "safe: no completion of [r6 r6]" in result.out
    assert "above 1/6" in result.out
    assert "wins with probability 1" in result.out
    pictures = [line.split(": ", 1)[1] for line in result.lines if line.startswith("picture: ")]
    assert len(pictures) == 4 == len(set(pictures))
    assert all(Path(p).read_text().startswith("<svg") for p in pictures)


@pytest.mark.parametrize(
    "args",
    [
        ["banditos", "show", "not a position"],
        ["banditos", "claim", POSITION, "2"],  # only two dice on player 0's side
        ["banditos", "apply", POSITION, "place r5 1"],  # nothing rolled
        ["banditos", "apply", POSITION, "fly away"],
        ["banditos", "play", "--seed", "1", "--policy", "greedy", "--policy", "wizard"],
        ["banditos", "show", "no-such-file.json"],
        ["banditos", "claim", POSITION, "9"],
        ["banditos", "claim", POSITION, "1", "--proof", "x"],
        ["banditos", "odds", POSITION, "0"],
        ["banditos", "best", POSITION, "--time-limit", "nan"],
        ["banditos", "best", POSITION, "--node-limit", "-5"],
        ["banditos", "best", POSITION, "--limit", "5"],
        ["banditos"],
        ["wizardry"],
    ],
)
def test_errors_are_one_line_and_exit_2(args: list[str]) -> None:
    result = run(*args)
    assert result.code == 2
    assert result.out == ""
    assert result.err.startswith("banditsolve: error: ")
    assert result.err.count("\n") == 1
