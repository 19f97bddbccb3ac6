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
from typing import Any, cast

from banditsolve.banditos.claim import (
    BACKENDS,
    Availability,
    Backend,
    ClaimVerdict,
    check_claim,
    exact_verdict,
    table_verdict,
)
from banditsolve.banditos.dice import COLOUR_LETTERS, COLOURS, Colour, Die
from banditsolve.banditos.rules import full_side
from banditsolve.banditos.state import PROOF_OPTIONS, ProofOption, expect_state
from banditsolve.core.args import expect_choice
from banditsolve.core.limits import CLAIM_TIME_LIMIT, check_time_limit
from banditsolve.errors import RuleOptionError

_EXACT: Backend = "exact"

#: Verdicts of the hot path by the exact contents of their (checked) arguments (:func:`memo_key`):
#: the codes of the claimant's three dice and of the opponent's dice (none, one or two), each in
#: the order given, and the four counts or the items of the availability's dict (counts exactly
#: ints, keys exactly a str, Colour or int; a bool, float or numpy int never reaches the memo). A
#: verdict is frozen and holds only immutable values, so one may be returned to every caller
#: asking the same question. Cleared when it reaches :data:`MEMO_LIMIT` entries.
_MEMO: dict[tuple[object, ...], ClaimVerdict] = {}
MEMO_LIMIT = 1 << 18
_MEMO_GET = _MEMO.get

__all__ = ["BACKENDS", "Backend", "ClaimVerdict", "claim_verdict", "claim_verdict_at"]


#: The types of availability key the hot path reads: a colour letter (exactly ``str``), a
#: :class:`Colour` or an ``int``. A key of another type (a bool, a float, a numpy int, a str
#: subclass), equal as it may be to one of these, goes to the full check.
KEY_TYPES = frozenset({str, Colour, int})
#: The colour index of each availability key the full check reads: the letters ``k g r b`` and
#: the :class:`Colour` members (equal to, and found by, the ints 0-3).
KEY_INDEX: dict[object, int] = {
    **{letter: i for i, letter in enumerate(COLOUR_LETTERS)},
    **{colour: int(colour) for colour in COLOURS},
}


def memo_key(mine: Any, theirs: Any, available: Any) -> tuple[object, ...] | None:
    """The memo's key of a claim question in the forms the hot path reads, or ``None`` (the
    caller then goes to the full check): ``mine`` a tuple or list of exactly three
    :class:`Die`, ``theirs`` a tuple or list of up to two, ``available`` four counts in a tuple
    or a dict of counts by colour key (:data:`KEY_TYPES`), every count exactly an ``int`` (a
    bool, float or numpy int is equal to an int and would find an entry). The key is the codes
    of the dice, each in its place, then the four counts, or the dict's items in their order
    (as read, they are the question; items and counts never compare equal). The key's values
    are not checked here: a key holding a count or a colour out of range is never stored. The
    arguments are ``Any``: this function is what checks their types."""
    # (Its branches are written out: the claim verdict's hot path, within 10x a dict lookup for
    # the README's call (results/banditos.md). A helper for the dict's items measured +20 ns
    # (4.5 %), the two sequence checks as one `in (tuple, list)` test +25 ns (7 %). Fewer than
    # two opponent dice go through _fewer_key: +20-40 ns on those, to keep this function
    # within the house's complexity of 15.)
    kind = type(available)
    if kind is dict:
        available = tuple(available.items())
        for key, value in available:
            if type(value) is not int or type(key) not in KEY_TYPES:
                return None
    elif kind is tuple:
        try:
            k, g, r, b = available
        except ValueError:  # not four counts
            return None
        if not type(k) is type(g) is type(r) is type(b) is int:
            return None
    else:
        return None
    kind = type(mine)
    if kind is not tuple and kind is not list:
        return None
    kind = type(theirs)
    if kind is not tuple and kind is not list:
        return None
    try:
        m0, m1, m2 = mine
    except ValueError:  # not three dice
        return None
    if len(theirs) != 2:
        return _fewer_key(m0, m1, m2, theirs, available)
    t0, t1 = theirs
    if type(m0) is type(m1) is type(m2) is type(t0) is type(t1) is Die:
        return (m0.code, m1.code, m2.code, t0.code, t1.code, available)
    return None


def _fewer_key(m0: Any, m1: Any, m2: Any, theirs: Any, available: Any) -> tuple[object, ...] | None:
    """:func:`memo_key` for fewer (or more) than two opponent dice."""
    n = len(theirs)
    if n > 1 or type(m0) is not Die or type(m1) is not Die or type(m2) is not Die:
        return None
    if n == 0:
        return (m0.code, m1.code, m2.code, available)
    t0 = theirs[0]
    return (m0.code, m1.code, m2.code, t0.code, available) if type(t0) is Die else None


def key_counts(available: tuple[object, ...]) -> Availability | None:
    """The four counts of a memo key's availability (:func:`memo_key`): its four counts, or the
    counts its dict's items give (a colour left out counts 0, a later key for the same colour
    wins, as in the full check); ``None`` for a key that names no colour."""
    if available and type(available[0]) is int:  # four counts
        return cast("Availability", available)
    counts = [0, 0, 0, 0]
    for key, value in cast("tuple[tuple[object, int], ...]", available):
        index = KEY_INDEX.get(key)
        if index is None:
            return None
        counts[index] = value
    return (counts[0], counts[1], counts[2], counts[3])


def check_backend(backend: object) -> Backend:
    """``backend`` if it names a claim backend; refused otherwise."""
    return expect_choice(backend, BACKENDS, "backend")


def claim_verdict(
    mine: object,
    theirs: object,
    available: object,
    *,
    backend: Backend = "exact",
    time_limit: float | None = CLAIM_TIME_LIMIT,
) -> ClaimVerdict:
    """Is a claim with ``mine`` (three dice) safe against ``theirs`` (zero to two dice)?

    ``available`` gives, per colour, how many dice the opponent could still get to complete the
    side: four counts (black, green, red, blue) or a mapping such as ``{"g": 1}``. Values are
    free: any die may show any value. Dice may be given as :class:`~banditsolve.banditos.Die`
    values or as text (``"k4 r5 b6"``). ``backend`` picks the method; ``time_limit`` (seconds,
    default :data:`~banditsolve.core.limits.CLAIM_TIME_LIMIT`, ``None``: none) bounds the solver
    backends, which answer unknown (``safe is None``) rather than guess when it runs out.
    """
    if backend is _EXACT and (time_limit is CLAIM_TIME_LIMIT or time_limit is None):
        # The hot path. The memo of verdicts is keyed by the exact contents of the arguments
        # (every die code in its place, the four counts or the dict's items: :func:`memo_key`),
        # and only arguments that passed every check enter it, so a hit is itself the
        # validation. A miss goes through the one-pass check (:func:`key_counts`, then
        # :func:`~banditsolve.banditos.claim.table_verdict`); anything that does not pass goes
        # on to the full check, which says what is wrong.
        key = memo_key(mine, theirs, available)
        if key is not None:
            known = _MEMO_GET(key)
            if known is not None:
                return known
            counts = key_counts(cast("tuple[object, ...]", key[-1]))
            verdict = None if counts is None else table_verdict(
                cast("tuple[Die, Die, Die]", tuple(cast("Sequence[Die]", mine))),
                tuple(cast("Sequence[Die]", theirs)),
                counts,
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
    """``proof`` if it is ``None`` or a proof option; refused otherwise."""
    if proof is None:
        return None
    return expect_choice(proof, PROOF_OPTIONS, "proof option", RuleOptionError)


def claim_verdict_at(
    state: object,
    slot: object,
    *,
    player: object = None,
    proof: object = None,
    backend: Backend = "exact",
    time_limit: float | None = CLAIM_TIME_LIMIT,
) -> ClaimVerdict:
    """The claim verdict for ``player`` (default: the player to move) on the tile in ``slot``.

    ``proof`` overrides the state's proof option (``"strict"`` or ``"bag"``, rule LB-OPT-1).
    """
    position = expect_state(state)
    chosen_proof = check_proof(proof)
    chosen = check_backend(backend)
    check_time_limit(time_limit)
    mine, theirs = full_side(position, slot, player, "claim")
    assert isinstance(slot, int)
    avail = position.availability(slot, chosen_proof)
    return claim_verdict(mine, theirs, avail, backend=chosen, time_limit=time_limit)
