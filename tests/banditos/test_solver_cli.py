"""The ``odds`` and ``best`` commands, text and JSON."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from banditsolve.cli import main

POSITION = "3:k4g5r6:g1g1/2::/1::/1:: 112233 -:- 0a"
LAST_TILE = "1:k6k6:r1/-/-/- - 3321:32211 0h:g5k6"


def test_odds_command_json(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["banditos", "odds", POSITION, "1", "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert (doc["above"], doc["equal"], doc["below"]) == ("1/6", "0", "5/6")


def test_best_command_text_and_json(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["banditos", "best", LAST_TILE]) == 0
    assert "place k6 1, claim 1" in capsys.readouterr().out
    assert main(["banditos", "best", LAST_TILE, "--json", "--limit", "5"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["method"] == "exact" and doc["probability"] == "1" and doc["complete"]


def test_position_from_a_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "pos.txt"
    path.write_text(POSITION + "\n")
    assert main(["banditos", "odds", str(path), "1"]) == 0
    assert "above 1/6" in capsys.readouterr().out


def test_errors_exit_2(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["banditos", "odds", POSITION, "2"]) == 2
    assert "error" in capsys.readouterr().err
