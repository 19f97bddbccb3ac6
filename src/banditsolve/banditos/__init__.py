"""Los Banditos: the two-player dice duel over booty tiles.

The rules are in ``specs/los-banditos.md``. Quick tour::

    >>> from banditsolve.banditos import Die, claim_verdict, parse_dice
    >>> verdict = claim_verdict(parse_dice("k4 r5 b6"), parse_dice("g5 g6"), {"g": 1})
    >>> verdict.safe, [str(d) for d in verdict.witness or ()]
    (False, ['g4'])

Solver backends (``backend="cpsat"`` / ``"z3"``) load their libraries only when used.
"""

from banditsolve.banditos.claim import ClaimVerdict, best_completion, claim_verdict
from banditsolve.banditos.combos import Category, Rank, describe, rank
from banditsolve.banditos.dice import ALL_DICE, Colour, Die, format_dice, parse_dice
from banditsolve.banditos.endgame import BestTurn, best_turn
from banditsolve.banditos.notation import (
    format_position,
    from_json,
    parse_position,
    read_position,
    to_json,
)
from banditsolve.banditos.odds import CompletionOdds, completion_odds, completion_odds_at
from banditsolve.banditos.rules import (
    Action,
    Claim,
    Drawn,
    EndTurn,
    GiveUp,
    Place,
    Reveal,
    Roll,
    apply,
    apply_all,
    chance_outcomes,
    claim_verdict_at,
    is_legal,
    legal_actions,
    parse_action,
    sample_chance,
)
from banditsolve.banditos.state import Options, Slot, State, initial_state

__all__ = [
    "ALL_DICE",
    "Action",
    "BestTurn",
    "Category",
    "Claim",
    "ClaimVerdict",
    "CompletionOdds",
    "Colour",
    "Die",
    "Drawn",
    "EndTurn",
    "GiveUp",
    "Options",
    "Place",
    "Rank",
    "Reveal",
    "Roll",
    "Slot",
    "State",
    "apply",
    "apply_all",
    "best_completion",
    "best_turn",
    "chance_outcomes",
    "claim_verdict",
    "claim_verdict_at",
    "completion_odds",
    "completion_odds_at",
    "describe",
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
]
