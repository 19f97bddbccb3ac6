"""Is a claim provably safe? (rules LB-CLAIM-*)

A claim on a tile is safe when no way of completing the opponent's side of that tile, with the
dice the opponent could still get, ranks above the claimant's three dice. Ties go to the side that
was completed first, which is always the claimant's, so only a strictly better combination beats a
claim.

``claim_verdict`` answers that exactly and without a solver: the opponent's best completion has a
closed form, because die values are free and only colours are ever scarce.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Literal

from banditsolve.banditos.combos import Rank, describe, rank, rank_codes
from banditsolve.banditos.dice import (
    ALL_DICE,
    COLOURS,
    DICE_PER_COLOUR,
    Colour,
    Die,
    colour_counts,
    format_dice,
)
from banditsolve.errors import NotationError, SolverError

Backend = Literal["exact", "cpsat", "z3"]
BACKENDS: tuple[Backend, ...] = ("exact", "cpsat", "z3")
Availability = tuple[int, int, int, int]


@dataclass(frozen=True, slots=True)
class ClaimVerdict:
    """The answer to "is this claim safe?".

    ``witness`` is ``None`` when the claim is safe; otherwise it is the dice the opponent adds to
    their side to beat the claim (``opponent_side`` is their whole completed side).
    """

    safe: bool
    mine: tuple[Die, ...]
    theirs: tuple[Die, ...]
    witness: tuple[Die, ...] | None
    backend: Backend = "exact"

    @property
    def claim_rank(self) -> Rank:
        return rank(self.mine)

    @property
    def opponent_side(self) -> tuple[Die, ...] | None:
        return None if self.witness is None else tuple(sorted(self.theirs + self.witness))

    def explain(self) -> str:
        claim = f"{format_dice(self.mine)} ({describe(self.claim_rank)})"
        if self.safe:
            return f"safe: no completion of [{format_dice(self.theirs)}] beats {claim}"
        side = self.opponent_side
        assert side is not None and self.witness is not None
        return (
            f"unsafe: adding {format_dice(self.witness)} to [{format_dice(self.theirs)}] gives "
            f"{format_dice(side)} ({describe(rank(side))}), which beats {claim}"
        )

    def to_json(self) -> dict[str, object]:
        side = self.opponent_side
        return {
            "safe": self.safe,
            "mine": [str(d) for d in self.mine],
            "claim": describe(self.claim_rank),
            "theirs": [str(d) for d in self.theirs],
            "witness": None if self.witness is None else [str(d) for d in self.witness],
            "opponent_side": None if side is None else [str(d) for d in side],
            "opponent_combination": None if side is None else describe(rank(side)),
            "backend": self.backend,
        }


def normalise_availability(
    available: Mapping[Colour, int] | Mapping[str, int] | Sequence[int],
) -> Availability:
    """Accept ``{Colour.RED: 2, ...}``, ``{"r": 2, ...}`` or a sequence of four counts (k g r b)."""
    if (
        type(available) is tuple
        and len(available) == 4
        and all(type(n) is int and n >= 0 for n in available)
    ):
        return available  # already normalised: the hot path
    counts = [0, 0, 0, 0]
    if isinstance(available, Mapping):
        for key, value in available.items():
            colour = Colour.parse(key) if isinstance(key, str) else Colour(key)
            counts[colour] = value
    else:
        if len(available) != 4:
            raise NotationError(
                f"availability needs four counts (black, green, red, blue), got {len(available)}"
            )
        counts = list(available)
    for colour, value in zip(COLOURS, counts, strict=True):
        if not isinstance(value, int) or value < 0:
            raise NotationError(f"availability of {colour.name.lower()} must be a count >= 0")
    return (counts[0], counts[1], counts[2], counts[3])


def _take(avail: list[int], value: int, need: int, prefer: int = -1) -> list[int] | None:
    """Die codes for ``need`` dice of ``value``, colours taken greedily (``prefer`` first)."""
    out: list[int] = []
    order = ([prefer] if prefer >= 0 else []) + [c for c in range(4) if c != prefer]
    for c in order:
        while avail[c] > 0 and len(out) < need:
            avail[c] -= 1
            out.append(c * 6 + value - 1)
    return out if len(out) == need else None


def best_completion(theirs: Sequence[int], avail: Availability) -> tuple[int, ...] | None:
    """The dice codes that complete ``theirs`` (die codes) to the best possible combination.

    ``None`` when the opponent cannot complete the side at all with ``avail``.
    """
    need = 3 - len(theirs)
    a = [min(n, need) for n in avail]
    if sum(a) < need:
        return None
    if need == 0:
        return ()
    if need == 3:
        for c in range(4):
            if a[c] >= 3:
                return (c * 6 + 5,) * 3  # colour three-of-a-kind of 6s
        return tuple(_take(a, 6, 3) or ())  # three-of-a-kind of 6s
    if need == 2:
        c, v = divmod(theirs[0], 6)
        if a[c] >= 2:
            return (theirs[0], theirs[0])  # colour three-of-a-kind
        return tuple(_take(a, v + 1, 2) or ())  # three-of-a-kind
    d1, d2 = theirs
    c1, v1 = divmod(d1, 6)
    c2, v2 = divmod(d2, 6)
    v1 += 1
    v2 += 1
    if v1 == v2:
        if d1 == d2 and a[c1]:
            return (d1,)  # colour three-of-a-kind
        return tuple(_take(a, v1, 1) or ())  # three-of-a-kind
    lo, hi = min(v1, v2), max(v1, v2)
    if hi - lo <= 2:
        w = lo + 1 if hi - lo == 2 else (hi + 1 if hi < 6 else lo - 1)
        prefer = c1 if c1 == c2 else -1  # a colour straight when that colour is still there
        return tuple(_take(a, w, 1, prefer) or ())
    # No three-of-a-kind or straight can be made: the best is a pair of the higher value if a
    # matching die of the same colour exists (a colour pair), whichever pair value is higher.
    options = sorted(((v1, d1), (v2, d2)), reverse=True)
    for _value, d in options:
        if a[d // 6]:
            return (d,)
    return tuple(_take(a, hi, 1) or ())  # a plain pair (colour pair impossible)


def _exact(mine: tuple[Die, ...], theirs: tuple[Die, ...], avail: Availability) -> ClaimVerdict:
    m = rank_codes(mine[0].code, mine[1].code, mine[2].code)
    codes = tuple(d.code for d in theirs)
    best = best_completion(codes, avail)
    if best is None:
        return ClaimVerdict(True, mine, theirs, None, "exact")
    full = codes + best
    if rank_codes(full[0], full[1], full[2]) > m:
        witness = tuple(ALL_DICE[code] for code in best)
        return ClaimVerdict(False, mine, theirs, witness, "exact")
    return ClaimVerdict(True, mine, theirs, None, "exact")


def claim_is_safe(mine_rank: Rank, theirs: Sequence[int], avail: Availability) -> bool:
    """The hot path for searches: die codes in, a bool out."""
    best = best_completion(theirs, avail)
    if best is None:
        return True
    full = tuple(theirs) + best
    return rank_codes(full[0], full[1], full[2]) <= mine_rank


def claim_verdict(
    mine: Sequence[Die],
    theirs: Sequence[Die],
    available: Mapping[Colour, int] | Mapping[str, int] | Sequence[int],
    *,
    backend: Backend = "exact",
) -> ClaimVerdict:
    """Is a claim with ``mine`` (three dice) safe against ``theirs`` (zero to two dice)?

    ``available`` gives, per colour, how many dice the opponent could still get to complete the
    side. Values are free: any die may show any value. ``backend`` picks the method; all three
    give the same verdict (witnesses may differ, each beats the claim).
    """
    mine_t = tuple(mine)
    theirs_t = tuple(theirs)
    if len(mine_t) != 3:
        raise NotationError(f"a claim needs exactly three dice of your own, got {len(mine_t)}")
    if len(theirs_t) > 2:
        raise NotationError(
            f"the opponent's side holds at most two dice when you claim, got {len(theirs_t)}"
        )
    avail = normalise_availability(available)
    shown = colour_counts(mine_t + theirs_t)
    for colour in COLOURS:
        if shown[colour] + avail[colour] > DICE_PER_COLOUR:
            raise NotationError(
                f"{shown[colour]} {colour.name.lower()} dice lie on this tile, so the opponent "
                f"can get at most {DICE_PER_COLOUR - shown[colour]} more, not {avail[colour]}"
            )
    if backend == "exact":
        return _exact(mine_t, theirs_t, avail)
    if backend == "cpsat":
        from banditsolve.banditos.cpsat import claim_verdict_cpsat

        return claim_verdict_cpsat(mine_t, theirs_t, avail)
    if backend == "z3":
        from banditsolve.banditos.z3model import claim_verdict_z3

        return claim_verdict_z3(mine_t, theirs_t, avail)
    raise SolverError(f"unknown backend {backend!r}: expected one of {', '.join(BACKENDS)}")
