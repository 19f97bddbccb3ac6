"""Is a claim provably safe? The rule and its exact closed form (rules LB-CLAIM-*).

A claim on a tile is safe when no way of completing the opponent's side of that tile, with the
dice the opponent could still get, ranks above the claimant's three dice. Ties go to the side that
was completed first, which is always the claimant's, so only a strictly better combination beats a
claim.

The opponent's best completion has a closed form (:func:`best_completion`), because die values
are free and only colours are ever scarce: :func:`exact_verdict` answers the question exactly
and without a solver, and :func:`claim_is_safe` is its fast path for ``legal_actions`` and the
searches. The solver backends (CP-SAT, Z3) and the dispatch between them live in
:mod:`banditsolve.banditos.solvers.claims`; this module imports none of them.
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
    parse_dice,
)
from banditsolve.core.answer import Answer
from banditsolve.core.io import json_type
from banditsolve.core.text import shown
from banditsolve.errors import NotationError

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

    def to_answer(self) -> Answer:
        """The shared answer shape: yes/``"safe"`` (no certificate), or no/``"unsafe"`` with the
        opponent's beating dice as the certificate (a counterexample)."""
        return Answer(
            game="banditos",
            question="claim",
            status="yes" if self.safe else "no",
            answer="safe" if self.safe else "unsafe",
            reason=self.explain(),
            certificate=None if self.witness is None else [str(d) for d in self.witness],
            details=self.to_json(),
        )


def claim_dice(dice: object, what: str) -> tuple[Die, ...]:
    """``dice`` (a sequence of :class:`Die`, or their text such as ``"k4 r5 b6"``) as a tuple;
    anything else is refused with a :class:`NotationError` naming ``what``."""
    if type(dice) is tuple:  # the hot path: a tuple of dice
        for die in dice:
            if type(die) is not Die:
                break
        else:
            return dice
    if isinstance(dice, str):
        return parse_dice(dice)
    if isinstance(dice, Mapping) or not isinstance(dice, Sequence):
        raise NotationError(f"{what} must be dice (a list of Die, or text like 'r5 g3'), "
                            f"not {json_type(dice)}")
    out = tuple(dice)
    for die in out:
        if not isinstance(die, Die):
            raise NotationError(f"{what}: {shown(die)} is not a die")
    return out


_COLOUR_INDEX = {letter: i for i, letter in enumerate("kgrb")}


def normalise_availability(available: object) -> Availability:
    """Accept ``{Colour.RED: 2, ...}``, ``{"r": 2, ...}`` or a sequence of four counts (k g r b)."""
    if (
        type(available) is tuple
        and len(available) == 4
        and all(type(n) is int and 0 <= n <= DICE_PER_COLOUR for n in available)
    ):
        return available  # already normalised: the hot path
    counts: list[object] = [0, 0, 0, 0]
    if isinstance(available, Mapping):
        for key, value in available.items():
            index = _COLOUR_INDEX.get(key) if isinstance(key, str) else None
            if index is not None:
                counts[index] = value
                continue
            if isinstance(key, str):
                colour = Colour.parse(key)
            elif isinstance(key, int) and not isinstance(key, bool) and 0 <= key < 4:
                colour = Colour(key)
            else:
                raise NotationError(
                    f"availability: {shown(key)} is not a colour (k g r b, or 0-3)"
                )
            counts[colour] = value
    elif isinstance(available, Sequence) and not isinstance(available, str):
        if len(available) != 4:
            raise NotationError(
                f"availability needs four counts (black, green, red, blue), got {len(available)}"
            )
        counts = list(available)
    else:
        raise NotationError(
            "availability must be four counts (k g r b) or a mapping colour -> count, "
            f"not {json_type(available)}"
        )
    out: list[int] = []
    for colour, value in zip(COLOURS, counts, strict=True):
        if type(value) is not int or not 0 <= value <= DICE_PER_COLOUR:
            raise NotationError(
                f"availability of {colour.name.lower()} must be a count from 0 to "
                f"{DICE_PER_COLOUR}, not {shown(value)}"
            )
        out.append(value)
    return (out[0], out[1], out[2], out[3])


def check_claim(
    mine: object, theirs: object, available: object
) -> tuple[tuple[Die, ...], tuple[Die, ...], Availability]:
    """Validate a claim question: three dice of your own, at most two of the opponent's, and an
    availability the dice on this tile leave possible. Returns them normalised."""
    mine_t = claim_dice(mine, "your dice")
    theirs_t = claim_dice(theirs, "the opponent's dice")
    if len(mine_t) != 3:
        raise NotationError(f"a claim needs exactly three dice of your own, got {len(mine_t)}")
    if len(theirs_t) > 2:
        raise NotationError(
            f"the opponent's side holds at most two dice when you claim, got {len(theirs_t)}"
        )
    avail = normalise_availability(available)
    shown = colour_counts(mine_t + theirs_t)
    if (
        shown[0] + avail[0] <= DICE_PER_COLOUR
        and shown[1] + avail[1] <= DICE_PER_COLOUR
        and shown[2] + avail[2] <= DICE_PER_COLOUR
        and shown[3] + avail[3] <= DICE_PER_COLOUR
    ):
        return mine_t, theirs_t, avail  # the usual case, without the loop
    for colour in COLOURS:
        if shown[colour] + avail[colour] <= DICE_PER_COLOUR:
            continue
        if shown[colour] > DICE_PER_COLOUR:
            raise NotationError(
                f"{shown[colour]} {colour.name.lower()} dice lie on this tile, but the game has "
                f"only {DICE_PER_COLOUR}"
            )
        if shown[colour] + avail[colour] > DICE_PER_COLOUR:
            raise NotationError(
                f"{shown[colour]} {colour.name.lower()} dice lie on this tile, so the opponent "
                f"can get at most {DICE_PER_COLOUR - shown[colour]} more, not {avail[colour]}"
            )
    return mine_t, theirs_t, avail


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


def exact_verdict(
    mine: tuple[Die, ...], theirs: tuple[Die, ...], avail: Availability
) -> ClaimVerdict:
    """The verdict from the closed form, on arguments already checked (:func:`check_claim`)."""
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
