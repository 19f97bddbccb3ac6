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
    assert result.code == 0
    assert (doc["status"], doc["answer"]) == ("yes", "exact")
    odds = doc["details"]
    assert (odds["above"], odds["equal"], odds["below"]) == ("1/6", "0", "5/6")


def test_best_command_exact_is_yes() -> None:
    text = run("banditos", "best", LAST_TILE)
    assert text.code == 0
    assert "place k6 1, claim 1" in text.out
    result = run("banditos", "best", LAST_TILE, "--json", "--time-limit", "5")
    doc = json.loads(result.out)
    assert result.code == 0
    assert doc["question"] == "best"
    assert doc["status"] == "yes"
    assert doc["certificate"] == ["place k6 1", "claim 1"]
    assert doc["limits"] == {"time_limit": 5.0, "node_limit": 50_000}


def test_best_command_estimate_is_unknown() -> None:
    result = run("banditos", "best", OPEN, "--method", "monte-carlo", "--samples", "5",
                 "--json")
    doc = json.loads(result.out)
    assert result.code == 3
    assert (doc["status"], doc["answer"]) == ("unknown", "estimate")
    assert doc["certificate"] is None
    cut = run("banditos", "best", OPEN, "--node-limit", "10", "--samples", "3", "--json")
    assert cut.code == 3


def test_best_command_method_exact_answers_unknown_with_the_limit_that_stopped_it() -> None:
    text = run("banditos", "best", OPEN, "--node-limit", "300", "--method", "exact")
    assert text.code == 3
    assert text.err == ""
    assert text.lines == [
        "unknown: the exact search stopped after 300 positions: the node limit ran out "
        "(300 nodes) before an answer was proven"
    ]
    result = run("banditos", "best", OPEN, "--node-limit", "300", "--method", "exact", "--json")
    doc = json.loads(result.out)
    assert result.code == 3
    assert (doc["status"], doc["answer"]) == ("unknown", "unknown")
    assert doc["certificate"] is None
    assert "node limit ran out (300 nodes)" in doc["reason"]
    assert "estimate" not in result.out.lower()
    finished = run("banditos", "best", LAST_TILE, "--method", "exact")
    assert finished.code == 0
    assert finished.out.startswith("exact: ")


def test_best_command_auto_says_the_exact_search_had_half_the_time_limit() -> None:
    result = run("banditos", "best", OPEN, "--time-limit", "0.6", "--node-limit", "10000000",
                 "--samples", "3")
    assert result.code == 3
    assert result.out.startswith("ESTIMATE")
    assert (
        "the exact search's share of the time limit (0.3 s of 0.6 s) ran out" in result.out
    )
    assert "the time limit ran out (0.3 s)" not in result.out


def test_best_help_explains_the_methods() -> None:
    result = run("banditos", "best", "--help")
    text = " ".join(result.out.split())
    assert result.code == 0
    assert (
        "exact: the exact search only, unknown (exit 3) with the reason if a limit stops it"
        in text
    )
    assert "with --method auto the exact search gets half of it" in text


def test_position_from_a_file(tmp_path: Path) -> None:
    path = tmp_path / "pos.txt"
    path.write_text(POSITION + "\n")
    result = run("banditos", "odds", str(path), "1")
    assert result.code == 0
    assert "above 1/6" in result.out


def test_errors_exit_2() -> None:
    result = run("banditos", "odds", POSITION, "2")
    assert result.code == 2
    assert result.err.startswith("banditsolve: error: ")
