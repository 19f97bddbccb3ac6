"""The ``banditsolve banditos`` commands, driven as a user would (LB-NOTE-1, LB-CLAIM-2)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from banditsolve.banditos.notation import parse_position, to_json
from banditsolve.cli import main
from tests.rules import rules

POSITION = "3:k4r5b6:g5g6/2:k1k1:g1g2g3/1:r6r6r6:g4/1:b2b2k3: 123 21:3 0a"


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


@rules("LB-NOTE-1")
def test_show_reads_notation_and_files(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    code, out, _ = run(capsys, "banditos", "show", POSITION)
    assert code == 0 and "straight 4-5-6" in out
    as_json = tmp_path / "pos.json"
    as_json.write_text(json.dumps(to_json(parse_position(POSITION))))
    code, out, _ = run(capsys, "banditos", "show", str(as_json), "--json")
    assert code == 0 and json.loads(out)["notation"] == parse_position(POSITION).notation()
    svg = tmp_path / "pos.svg"
    code, _, _ = run(capsys, "banditos", "show", POSITION, "--svg", str(svg))
    assert code == 0 and svg.read_text().startswith("<svg")


@rules("LB-CLAIM-2", "LB-OPT-1")
def test_claim_command(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "banditos", "claim", POSITION, "1", "--json")
    verdict = json.loads(out)
    assert code == 0 and verdict["safe"] is False and verdict["witness"] == ["g4"]
    code, out, _ = run(capsys, "banditos", "claim", POSITION, "1", "--proof", "bag", "--json")
    assert json.loads(out)["safe"] is True
    code, out, _ = run(capsys, "banditos", "claim", POSITION, "3")
    assert code == 0 and out.startswith("slot 3") and "safe" in out


@rules("LB-NOTE-2")
def test_moves_and_apply(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "banditos", "moves", POSITION, "--json")
    actions = json.loads(out)["actions"]
    assert code == 0 and "claim 3" in actions and "roll" in actions and "claim 1" not in actions
    code, out, _ = run(capsys, "banditos", "apply", POSITION, "claim 3", "--json")
    assert code == 0 and json.loads(out)["scores"] == [4, 3]
    code, out, _ = run(capsys, "banditos", "moves", "-/-/-/- 1111222333 -:- 0A")
    assert "reveal 1  p=2/5" in out


def test_messages_name_the_problem(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    _, _, err = run(capsys, "banditos", "show", "no-such-file.json")
    assert "no such file: no-such-file.json" in err
    _, _, err = run(capsys, "banditos", "show", str(tmp_path))
    assert "is a directory" in err
    _, _, err = run(capsys, "banditos", "apply", POSITION, "roll", "place k1 1")
    assert "action 2 ('place k1 1')" in err
    code, out, _ = run(capsys, "banditos", "moves", "1::/2::/1::/1:: 3 3322:1 0a", "--json")
    assert json.loads(out) == {"chance": False, "actions": [], "winner": 0}


def test_play_is_reproducible(capsys: pytest.CaptureFixture[str]) -> None:
    _, first, _ = run(capsys, "banditos", "play", "--seed", "7", "--json")
    _, second, _ = run(capsys, "banditos", "play", "--seed", "7", "--json")
    game = json.loads(first)
    assert first == second
    assert game["winner"] in (0, 1) and max(game["scores"]) >= 10
    replay = parse_position(game["steps"][-1]["position"])
    assert replay.winner == game["winner"]


@pytest.mark.parametrize(
    "args",
    [
        ["banditos", "show", "not a position"],
        ["banditos", "claim", POSITION, "2"],  # only two dice on player 0's side
        ["banditos", "apply", POSITION, "place r5 1"],  # nothing rolled
        ["banditos", "apply", POSITION, "fly away"],
        ["banditos", "play", "--seed", "1", "--players", "greedy,wizard"],
        ["banditos", "show", "no-such-file.json"],
        ["banditos", "claim", POSITION, "9"],
        ["banditos", "odds", POSITION, "0"],
        ["banditos"],
        ["wizardry"],
    ],
)
def test_errors_are_one_line_and_exit_2(
    capsys: pytest.CaptureFixture[str], args: list[str]
) -> None:
    try:
        code, out, err = run(capsys, *args)
    except SystemExit as exit_:  # argparse's usage errors
        out, err = capsys.readouterr()
        code = int(exit_.code or 0)
    assert code == 2
    assert out == ""
    assert err.startswith("banditsolve") and ": error: " in err and err.count("\n") == 1
    assert "Traceback" not in err


def test_console_script_and_light_imports() -> None:
    script = Path(sys.executable).parent / "banditsolve"
    result = subprocess.run(
        [str(script), "banditos", "show", "x y"], capture_output=True, text=True, check=False
    )
    assert result.returncode == 2 and "Traceback" not in result.stderr
    probe = (
        "import sys, banditsolve, banditsolve.banditos, banditsolve.cli;"
        "banditsolve.cli.build_parser();"
        "print(any(m.split('.')[0] in ('ortools', 'z3') for m in sys.modules))"
    )
    result = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True)
    assert result.stdout.strip() == "False", result.stderr
