"""Every search has a default time limit, one named constant in ``core/limits``, the same from
Python and on the command line (issue: every search stops). A verb that searches without one
fails here, and so does a Python default that drifts from the command line's."""

from __future__ import annotations

import argparse
import inspect
from collections.abc import Callable
from typing import Any

from banditsolve.banditos.solvers.claims import claim_verdict, claim_verdict_at
from banditsolve.banditos.solvers.endgame import best_turn as banditos_best
from banditsolve.cli import build_parser
from banditsolve.core import limits
from banditsolve.core.registry import games
from banditsolve.rolling.solvers.safety import is_safe
from banditsolve.rolling.solvers.turn import best_turn as rolling_best
from banditsolve.rolling.solvers.turn import odds
from banditsolve.tunnels.solvers.closure import can_close, min_cards_to_close, plain_search
from banditsolve.tunnels.solvers.endgame import solve_game, win_share

TUNNELS = {
    "close": ((can_close, min_cards_to_close, plain_search), limits.CLOSURE_TIME_LIMIT),
    "solve": ((solve_game, win_share), limits.TUNNEL_SOLVE_TIME_LIMIT),
}
#: Each game's searching verbs: the Python calls behind it and the default they share.
SEARCHES: dict[str, dict[str, tuple[tuple[Callable[..., Any], ...], float]]] = {
    "banditos": {
        "claim": ((claim_verdict, claim_verdict_at), limits.CLAIM_TIME_LIMIT),
        "best": ((banditos_best,), limits.BANDITOS_BEST_TIME_LIMIT),
    },
    "bandido": TUNNELS,
    "bandida": TUNNELS,
    "rolling": {
        "odds": ((odds,), limits.ODDS_TIME_LIMIT),
        "best": ((rolling_best,), limits.BEST_TURN_TIME_LIMIT),
        "safe": ((is_safe,), limits.SAFE_TIME_LIMIT),
    },
}


def _subcommands(parser: argparse.ArgumentParser) -> dict[str, argparse.ArgumentParser]:
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            return dict(action.choices)
    return {}


def _cli_default(parser: argparse.ArgumentParser) -> float | None:
    for action in parser._actions:
        if "--time-limit" in action.option_strings:
            assert isinstance(action.default, float)
            assert f"{action.default:g} s" in (action.help or ""), action.help
            return action.default
    return None


def test_every_searching_verb_has_the_python_default_time_limit() -> None:
    top = _subcommands(build_parser())
    assert sorted(SEARCHES) == sorted(games())
    for game in games():
        verbs = _subcommands(top[game])
        limited = {verb: _cli_default(p) for verb, p in verbs.items()}
        limited = {verb: value for verb, value in limited.items() if value is not None}
        assert sorted(limited) == sorted(SEARCHES[game]), game
        for verb, (calls, default) in SEARCHES[game].items():
            assert 0 < default <= 60
            assert limited[verb] == default, (game, verb)
            for call in calls:
                given = inspect.signature(call).parameters["time_limit"].default
                assert given == default, (game, verb, call.__name__)
