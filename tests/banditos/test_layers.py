"""The shape of the solvers' answers (``to_answer``), the layering (rules import no solver, no
import circle), and the rules' fast paths agreeing with the slow, validating ones."""

from __future__ import annotations

import random
import subprocess
import sys

from banditsolve.banditos import (
    GAME,
    best_turn,
    claim_verdict,
    claim_verdict_at,
    completion_odds_at,
    parse_dice,
    parse_position,
)
from banditsolve.banditos.players import greedy_player, random_player
from banditsolve.banditos.rules import Claim, legal_actions, sample_chance
from banditsolve.banditos.solvers.endgame import playout
from banditsolve.core import play
from banditsolve.core.answer import Answer
from banditsolve.core.limits import BANDITOS_BEST_NODE_LIMIT, BANDITOS_BEST_TIME_LIMIT
from tests.banditos.strategies import played_states
from tests.rules import rules

POSITION = "3:k4r5b6:g5g6/2:k1k1:g1g2g3/1:r6r6r6:g4/1:b2b2k3: 123 21:3 0a"
ENDGAME = "1:k6k6:r1/1::b5b5b6/-/- - 3321:3221 0h:k2g4"


@rules("LB-CLAIM-2")
def test_claim_verdicts_answer_yes_safe_or_no_unsafe_with_the_beating_dice() -> None:
    unsafe = claim_verdict_at(parse_position(POSITION), 1).to_answer()
    assert isinstance(unsafe, Answer)
    assert (unsafe.game, unsafe.question, unsafe.status, unsafe.answer) == (
        "banditos", "claim", "no", "unsafe"
    )
    assert unsafe.certificate == ["g4"]
    assert unsafe.exit_code == 1
    assert unsafe.reason.startswith("unsafe: adding g4 to [g5 g6]")
    safe = claim_verdict(parse_dice("r6 r6 r6"), (), (6, 6, 3, 6)).to_answer()
    assert (safe.status, safe.answer, safe.certificate, safe.exit_code) == ("yes", "safe", None, 0)
    assert safe.to_json()["details"]["backend"] == "exact"


@rules("LB-TURN-2")
def test_odds_answer_yes_exact_with_the_fractions_as_text() -> None:
    answer = completion_odds_at(parse_position(POSITION), 1).to_answer()
    assert (answer.question, answer.status, answer.answer) == ("odds", "yes", "exact")
    assert (answer.details["above"], answer.details["equal"], answer.details["below"]) == (
        "0", "1/6", "5/6"
    )
    assert "\n" not in answer.reason


@rules("LB-END-1")
def test_best_turn_answers_yes_when_exact_and_unknown_when_estimated() -> None:
    result = best_turn(parse_position(ENDGAME))
    exact = result.to_answer()
    assert (exact.question, exact.status, exact.answer) == ("best", "yes", "best turn")
    assert exact.certificate == ["give 1", "place k2 2", "place g4 2", "end"]
    # The documented defaults, the same as the command line's (test_cli_limits).
    assert exact.limits == {
        "time_limit": BANDITOS_BEST_TIME_LIMIT, "node_limit": BANDITOS_BEST_NODE_LIMIT
    }
    assert exact.stats["nodes"] == result.nodes > 0
    estimate = best_turn(parse_position(ENDGAME), method="monte-carlo", samples=20).to_answer()
    assert (estimate.status, estimate.answer, estimate.certificate) == ("unknown", "estimate", None)
    assert estimate.exit_code == 3
    assert estimate.details["samples"] == estimate.stats["samples"] >= 20
    low, high = estimate.details["confidence_interval"]
    assert 0 <= low <= estimate.details["estimate"] <= high <= 1
    assert "not a proof" in estimate.reason


def _modules_after(statement: str) -> set[str]:
    code = f"import sys; {statement}; print(' '.join(sorted(sys.modules)))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    return set(out.stdout.split())


def test_the_rules_load_no_solver_and_the_solvers_load_lazily() -> None:
    rules_only = _modules_after(
        "import banditsolve.banditos.rules, banditsolve.banditos.notation, "
        "banditsolve.banditos.players, banditsolve.banditos.render, banditsolve.banditos.game"
    )
    assert not {m for m in rules_only if m.startswith("banditsolve.banditos.solvers")}
    package = _modules_after("import banditsolve.banditos")
    assert not {m for m in package if m.startswith("banditsolve.banditos.solvers")}
    used = _modules_after("from banditsolve.banditos import claim_verdict_at")
    assert "banditsolve.banditos.solvers.claims" in used
    assert not {m for m in used if m.split(".")[0] in ("ortools", "z3")}


def test_every_solver_module_imports_on_its_own() -> None:
    # No circle: each module imports first in a fresh interpreter.
    for module in ("claims", "cpsat", "z3model", "odds", "endgame"):
        assert f"banditsolve.banditos.solvers.{module}" in _modules_after(
            f"import banditsolve.banditos.solvers.{module}"
        )


@rules("LB-CLAIM-2", "LB-OPT-1")
def test_legal_claims_are_exactly_the_safe_verdicts() -> None:
    checked = 0
    for seed in range(30):
        for state in played_states((greedy_player, greedy_player), seed=seed):
            if state.is_chance or state.is_terminal:
                continue
            legal = set(legal_actions(state))
            for number, tile in state.tiles_in_play():
                if len(tile.side(state.to_move)) == 3:
                    checked += 1
                    assert (Claim(number) in legal) == claim_verdict_at(state, number).safe
    assert checked > 100


@rules("LB-TURN-2")
def test_the_fast_chance_sampler_draws_what_the_core_sampler_draws() -> None:
    for seed in range(40):
        for state in played_states((random_player, greedy_player), seed=seed)[:60]:
            if state.is_chance:
                rng_fast, rng_core = random.Random(seed), random.Random(seed)
                assert sample_chance(state, rng_fast) == play.sample_chance(GAME, state, rng_core)
                assert rng_fast.random() == rng_core.random()  # the same draws were used


def test_the_fast_playout_is_the_core_playout_with_greedy_players() -> None:
    for seed in range(20):
        start = played_states((random_player, random_player), seed=seed)[8]
        steps = list(play.playout(GAME, start, greedy_player, random.Random(seed)))
        assert playout(start, random.Random(seed)) == steps[-1].state.winner
