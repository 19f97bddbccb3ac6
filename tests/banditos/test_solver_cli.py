"""The ``odds`` and ``best`` commands: text, the answer JSON, exit codes."""

from __future__ import annotations

import json
from pathlib import Path

from tests.cli_runner import run

POSITION = "3:k4g5r6:g1g1/2::/1::/1:: 112233 -:- 0a"
LAST_TILE = "1:k6k6:r1/-/-/- - 3321:32211 0h:g5k6"
OPEN = "3:k4r5b6:g5g6/2:k1k1:g1g2g3/1:r6r6r6:g4/1:b2b2k3: 123 21:3 0a"


def test_odds_command_json() -> None:
    result = run("banditos", "odds", POSITION, "1", "--json")
    doc = json.loads(result.out)
    assert result.code == 0 and (doc["status"], doc["answer"]) == ("yes", "exact")
    odds = doc["details"]
    assert (odds["above"], odds["equal"], odds["below"]) == ("1/6", "0", "5/6")


def test_best_command_exact_is_yes() -> None:
    text = run("banditos", "best", LAST_TILE)
    assert text.code == 0 and "place k6 1, claim 1" in text.out
    result = run("banditos", "best", LAST_TILE, "--json", "--time-limit", "5")
    doc = json.loads(result.out)
    assert result.code == 0 and doc["question"] == "best" and doc["status"] == "yes"
    assert doc["certificate"] == ["place k6 1", "claim 1"]
    assert doc["limits"] == {"time_limit": 5.0, "node_limit": 50_000}


def test_best_command_estimate_is_unknown() -> None:
    result = run("banditos", "best", OPEN, "--method", "monte-carlo", "--samples", "5",
                 "--json")
    doc = json.loads(result.out)
    assert result.code == 3 and (doc["status"], doc["answer"]) == ("unknown", "estimate")
    assert doc["certificate"] is None
    cut = run("banditos", "best", OPEN, "--node-limit", "10", "--samples", "3", "--json")
    assert cut.code == 3


def test_position_from_a_file(tmp_path: Path) -> None:
    path = tmp_path / "pos.txt"
    path.write_text(POSITION + "\n")
    result = run("banditos", "odds", str(path), "1")
    assert result.code == 0 and "above 1/6" in result.out


def test_errors_exit_2() -> None:
    result = run("banditos", "odds", POSITION, "2")
    assert result.code == 2 and result.err.startswith("banditsolve: error: ")
