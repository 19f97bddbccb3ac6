"""Los Banditos: the two-player dice duel over booty tiles.

The rules are in ``specs/los-banditos.md``. Quick tour::

    >>> from banditsolve.banditos import Die, claim_verdict, parse_dice
    >>> verdict = claim_verdict(parse_dice("k4 r5 b6"), parse_dice("g5 g6"), {"g": 1})
    >>> verdict.safe, [str(d) for d in verdict.witness or ()]
    (False, ['g4'])

The rules (dice, combinations, state, actions, notation) load at once; the solvers
(:mod:`banditsolve.banditos.solvers`) load on first use, and the solver backends
(``backend="cpsat"`` / ``"z3"``) load their libraries only when asked for.
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, Any

# render and answers are imported for their registration of the pictures (print(state), a
# state's and a claim verdict's _repr_svg_).
from banditsolve.banditos import answers as answers
from banditsolve.banditos import render as render
from banditsolve.banditos.actions import (
    Action,
    Claim,
    Drawn,
    EndTurn,
    GiveUp,
    Place,
    Reveal,
    Roll,
    parse_action,
)
from banditsolve.banditos.claim import ClaimVerdict
from banditsolve.banditos.combos import Category, Rank, describe, rank
from banditsolve.banditos.dice import ALL_DICE, Colour, Die, expect_dice, format_dice, parse_dice
from banditsolve.banditos.notation import (
    format_position,
    from_json,
    parse_position,
    read_position,
    to_json,
)
from banditsolve.banditos.rules import (
    apply,
    apply_all,
    chance_outcomes,
    is_legal,
    legal_actions,
    sample_chance,
    validate,
)
from banditsolve.banditos.state import OPTION_SET, Options, Slot, State, initial_state

if TYPE_CHECKING:
    from banditsolve.banditos.game import GAME, LosBanditos
    from banditsolve.banditos.solvers.claims import claim_verdict, claim_verdict_at
    from banditsolve.banditos.solvers.endgame import BestTurn, best_turn
    from banditsolve.banditos.solvers.odds import (
        CompletionOdds,
        completion_odds,
        completion_odds_at,
    )

#: Names loaded on first use, and the module that defines each.
_WHERE = {
    "GAME": "banditsolve.banditos.game",
    "LosBanditos": "banditsolve.banditos.game",
    "claim_verdict": "banditsolve.banditos.solvers.claims",
    "claim_verdict_at": "banditsolve.banditos.solvers.claims",
    "BestTurn": "banditsolve.banditos.solvers.endgame",
    "best_turn": "banditsolve.banditos.solvers.endgame",
    "CompletionOdds": "banditsolve.banditos.solvers.odds",
    "completion_odds": "banditsolve.banditos.solvers.odds",
    "completion_odds_at": "banditsolve.banditos.solvers.odds",
}


def __getattr__(name: str) -> Any:
    module = _WHERE.get(name)
    if module is None:
        raise AttributeError(f"module 'banditsolve.banditos' has no attribute {name!r}")
    value = getattr(import_module(module), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(__all__)


__all__ = [
    "ALL_DICE",
    "GAME",
    "OPTION_SET",
    "Action",
    "BestTurn",
    "Category",
    "Claim",
    "ClaimVerdict",
    "Colour",
    "CompletionOdds",
    "Die",
    "Drawn",
    "EndTurn",
    "GiveUp",
    "LosBanditos",
    "Options",
    "Place",
    "Rank",
    "Reveal",
    "Roll",
    "Slot",
    "State",
    "apply",
    "apply_all",
    "best_turn",
    "chance_outcomes",
    "claim_verdict",
    "claim_verdict_at",
    "completion_odds",
    "completion_odds_at",
    "describe",
    "expect_dice",
    "format_dice",
    "format_position",
    "from_json",
    "initial_state",
    "is_legal",
    "legal_actions",
    "parse_action",
    "parse_dice",
    "parse_position",
    "rank",
    "read_position",
    "sample_chance",
    "to_json",
    "validate",
]
