"""Claim verdicts with a choice of backend (rules LB-CLAIM-2, LB-OPT-1).

``backend="exact"`` is the closed form of :mod:`banditsolve.banditos.claim` (the rule itself);
``"cpsat"`` and ``"z3"`` are independent solver encodings of the same question, loaded only when
asked for. All three give the same verdict; witnesses may differ, each beats the claim.

>>> from banditsolve.banditos.dice import parse_dice
>>> claim_verdict(parse_dice("k4 r5 b6"), parse_dice("g5 g6"), {"g": 1}).to_answer().answer
'unsafe'
"""

from __future__ import annotations

from banditsolve.banditos.claim import (
    BACKENDS,
    Backend,
    ClaimVerdict,
    check_claim,
    exact_verdict,
)
from banditsolve.banditos.rules import full_side
from banditsolve.banditos.state import PROOF_OPTIONS, ProofOption, expect_state
from banditsolve.core.limits import check_time_limit
from banditsolve.core.text import shown
from banditsolve.errors import RuleOptionError, SolverError

__all__ = ["BACKENDS", "Backend", "ClaimVerdict", "claim_verdict", "claim_verdict_at"]


def check_backend(backend: object) -> Backend:
    """``backend`` if it names a claim backend; a :class:`SolverError` otherwise."""
    if type(backend) is str and backend in BACKENDS:
        return backend
    raise SolverError(
        f"unknown backend {shown(backend)}: expected one of {', '.join(BACKENDS)}"
    )


def claim_verdict(
    mine: object,
    theirs: object,
    available: object,
    *,
    backend: Backend = "exact",
    time_limit: float | None = None,
) -> ClaimVerdict:
    """Is a claim with ``mine`` (three dice) safe against ``theirs`` (zero to two dice)?

    ``available`` gives, per colour, how many dice the opponent could still get to complete the
    side: four counts (black, green, red, blue) or a mapping such as ``{"g": 1}``. Values are
    free: any die may show any value. Dice may be given as :class:`~banditsolve.banditos.Die`
    values or as text (``"k4 r5 b6"``). ``backend`` picks the method; ``time_limit`` (seconds,
    ``None``: none) bounds the solver backends, which raise :class:`SolverError` rather than
    guess when it runs out.
    """
    chosen = check_backend(backend)
    seconds = check_time_limit(time_limit)
    mine_t, theirs_t, avail = check_claim(mine, theirs, available)
    if chosen == "exact":
        return exact_verdict(mine_t, theirs_t, avail)
    if chosen == "cpsat":
        from banditsolve.banditos.solvers.cpsat import claim_verdict_cpsat

        return claim_verdict_cpsat(mine_t, theirs_t, avail, time_limit=seconds)
    from banditsolve.banditos.solvers.z3model import claim_verdict_z3

    return claim_verdict_z3(mine_t, theirs_t, avail, time_limit=seconds)


def check_proof(proof: object) -> ProofOption | None:
    """``proof`` if it is ``None`` or a proof option; a :class:`RuleOptionError` otherwise."""
    if proof is None:
        return None
    for name in PROOF_OPTIONS:
        if proof == name and isinstance(proof, str):
            return name
    raise RuleOptionError(
        f"unknown proof option {shown(proof)}: expected one of {', '.join(PROOF_OPTIONS)}"
    )


def claim_verdict_at(
    state: object,
    slot: object,
    *,
    player: object = None,
    proof: object = None,
    backend: Backend = "exact",
    time_limit: float | None = None,
) -> ClaimVerdict:
    """The claim verdict for ``player`` (default: the player to move) on the tile in ``slot``.

    ``proof`` overrides the state's proof option (``"strict"`` or ``"bag"``, rule LB-OPT-1).
    """
    position = expect_state(state)
    chosen_proof = check_proof(proof)
    chosen = check_backend(backend)
    mine, theirs = full_side(position, slot, player, "claim")
    assert isinstance(slot, int)
    avail = position.availability(slot, chosen_proof)
    return claim_verdict(mine, theirs, avail, backend=chosen, time_limit=time_limit)
