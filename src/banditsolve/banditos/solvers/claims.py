"""Claim verdicts with a choice of backend (rules LB-CLAIM-2, LB-OPT-1).

``backend="exact"`` is the claim table of :mod:`banditsolve.banditos.claim` (built from the
closed form of the rule);
``"cpsat"`` and ``"z3"`` are independent solver encodings of the same question, loaded only when
asked for. All three give the same verdict; witnesses may differ, each beats the claim.

>>> from banditsolve.banditos.dice import parse_dice
>>> claim_verdict(parse_dice("k4 r5 b6"), parse_dice("g5 g6"), {"g": 1}).to_answer().answer
'unsafe'
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import cast

from banditsolve.banditos.claim import (
    BACKENDS,
    Availability,
    Backend,
    ClaimVerdict,
    check_claim,
    exact_verdict,
    mapping_counts,
    table_verdict,
)
from banditsolve.banditos.dice import Die
from banditsolve.banditos.rules import full_side
from banditsolve.banditos.state import PROOF_OPTIONS, ProofOption, expect_state
from banditsolve.core.limits import check_time_limit
from banditsolve.core.text import shown
from banditsolve.errors import RuleOptionError, SolverError

_EXACT: Backend = "exact"

#: Verdicts of the hot path by the exact contents of their (checked) arguments: the codes of the
#: claimant's three dice and of the opponent's dice (none, one or two), each in the order given,
#: and the four counts (exactly ints; a bool, float or numpy int never reaches the memo). A verdict
#: is frozen and holds only immutable values, so one may be returned to every caller asking the
#: same question. Cleared when it reaches :data:`MEMO_LIMIT` entries.
_MEMO: dict[tuple[object, ...], ClaimVerdict] = {}
MEMO_LIMIT = 1 << 18
_MEMO_GET = _MEMO.get

__all__ = ["BACKENDS", "Backend", "ClaimVerdict", "claim_verdict", "claim_verdict_at"]


def memo_key(mine: object, theirs: object, counts: tuple[object, ...]) -> tuple[object, ...] | None:
    """The memo's key of a claim question in the forms the hot path reads, or ``None`` (the
    caller then goes to the full check): ``mine`` a tuple or list of exactly three
    :class:`Die`, ``theirs`` a tuple or list of up to two, and four counts that are exactly
    ``int`` (a bool, float or numpy int is equal to an int and would find its entry). The key
    is the codes of the dice, each in its place, then the four counts as a tuple."""
    if not (type(mine) is tuple or type(mine) is list) or not (
        type(theirs) is tuple or type(theirs) is list
    ):
        return None
    try:
        k, g, r, b = counts
        m0, m1, m2 = mine
    except ValueError:
        return None
    if not (
        type(k) is int
        and type(g) is int
        and type(r) is int
        and type(b) is int
        and type(m0) is Die
        and type(m1) is Die
        and type(m2) is Die
    ):
        return None
    n = len(theirs)
    if n == 0:
        return (m0.code, m1.code, m2.code, counts)
    if n == 1:
        t0 = theirs[0]
        if type(t0) is Die:
            return (m0.code, m1.code, m2.code, t0.code, counts)
    elif n == 2:
        t0, t1 = theirs
        if type(t0) is Die and type(t1) is Die:
            return (m0.code, m1.code, m2.code, t0.code, t1.code, counts)
    return None


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
    if backend is _EXACT and time_limit is None:  # the default, or any same "exact"
        # The hot path. The memo of verdicts is keyed by the exact contents of the arguments
        # (every die code in its place, the four counts: :func:`memo_key`), and only arguments
        # that passed every check enter it, so a hit is itself the validation. A miss goes
        # through the one-pass check (:func:`~banditsolve.banditos.claim.table_verdict`);
        # anything that does not pass goes on to the full check, which says what is wrong.
        counts: tuple[object, ...] | None = None
        if type(available) is tuple:
            counts = available
        elif type(available) is dict:  # the README's form, {"g": 1}: read into four counts
            counts = mapping_counts(available)
        key = None if counts is None else memo_key(mine, theirs, counts)
        if key is not None:
            known = _MEMO_GET(key)
            if known is not None:
                return known
            verdict = table_verdict(
                cast("tuple[Die, Die, Die]", tuple(cast("Sequence[Die]", mine))),
                tuple(cast("Sequence[Die]", theirs)),
                cast("Availability", key[-1]),
            )
            if verdict is not None:
                if len(_MEMO) >= MEMO_LIMIT:
                    _MEMO.clear()
                _MEMO[key] = verdict
                return verdict
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
