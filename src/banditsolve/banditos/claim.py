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

import time
from collections.abc import Callable, Mapping, Sequence
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
    expect_dice,
    format_dice,
)
from banditsolve.core.answer import Answer
from banditsolve.core.io import json_type
from banditsolve.core.text import shown
from banditsolve.errors import ArgumentTypeError, InternalError, NotationError

Backend = Literal["exact", "cpsat", "z3"]
BACKENDS: tuple[Backend, ...] = ("exact", "cpsat", "z3")
Availability = tuple[int, int, int, int]


@dataclass(frozen=True, slots=True)
class ClaimVerdict:
    """The answer to "is this claim safe?".

    ``witness`` is ``None`` when the claim is safe; otherwise it is the dice the opponent adds to
    their side to beat the claim (``opponent_side`` is their whole completed side). ``safe`` is
    ``None`` (unknown) only when a solver backend's time limit ran out first; ``note`` then
    says so.
    """

    safe: bool | None
    mine: tuple[Die, ...]
    theirs: tuple[Die, ...]
    witness: tuple[Die, ...] | None
    backend: Backend = "exact"
    note: str = ""

    @property
    def is_unknown(self) -> bool:
        """Whether a limit stopped the backend before it decided."""
        return self.safe is None

    @property
    def claim_rank(self) -> Rank:
        return rank(self.mine)

    @property
    def opponent_side(self) -> tuple[Die, ...] | None:
        return None if self.witness is None else tuple(sorted(self.theirs + self.witness))

    def explain(self) -> str:
        claim = f"{format_dice(self.mine)} ({describe(self.claim_rank)})"
        if self.safe is None:
            return f"unknown: {self.note}, so the claim {claim} is not decided"
        if self.safe:
            return f"safe: no completion of [{format_dice(self.theirs)}] beats {claim}"
        side = self.opponent_side
        assert side is not None
        assert self.witness is not None
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
            "note": self.note,
        }

    def ascii(self, *, heading: str = "", available: Availability | None = None) -> str:
        """The claim drawn in text: the claimant's dice and combination, the opponent's side
        and, for an unsafe claim, the counterexample completion beside it (a safe claim says
        why: with ``available``, the opponent's best completion; an unknown one the reason).
        ``heading`` comes first (the command line names the slot and the proof there)."""
        return _picture("ascii")(self, heading, available)

    def svg(self, *, heading: str = "", available: Availability | None = None) -> str:
        """The same picture as SVG (see :meth:`ascii`)."""
        return _picture("svg")(self, heading, available)

    def _repr_svg_(self) -> str:
        return self.svg()

    def to_answer(self) -> Answer:
        """The shared answer shape: yes/``"safe"`` (no certificate), or no/``"unsafe"`` with the
        opponent's beating dice as the certificate (a counterexample)."""
        return Answer(
            game="banditos",
            question="claim",
            status="unknown" if self.safe is None else "yes" if self.safe else "no",
            answer="unknown" if self.safe is None else "safe" if self.safe else "unsafe",
            reason=self.explain(),
            certificate=None if self.witness is None else [str(d) for d in self.witness],
            details=self.to_json(),
        )


#: A verdict's picture: the verdict, a heading and (if known) the opponent's availability.
VerdictPicture = Callable[[ClaimVerdict, str, Availability | None], str]
#: The pictures of a verdict by name, as registered (this module imports no picture code:
#: :mod:`banditsolve.banditos.answers` registers them when it loads, and the package imports it).
_PICTURES: dict[str, VerdictPicture] = {}


def register_verdict_pictures(ascii: VerdictPicture, svg: VerdictPicture) -> None:
    """Make ``verdict.ascii()`` and ``verdict.svg()`` / ``_repr_svg_`` draw with these."""
    _PICTURES["ascii"] = ascii
    _PICTURES["svg"] = svg


def _picture(name: str) -> VerdictPicture:
    picture = _PICTURES.get(name)
    if picture is None:  # pragma: no cover - the package imports the pictures
        raise InternalError(
            f"no {name} picture of a claim verdict is registered: import banditsolve.banditos"
        )
    return picture


_COLOUR_INDEX = {letter: i for i, letter in enumerate("kgrb")}


def normalise_availability(available: object) -> Availability:
    """Accept ``{Colour.RED: 2, ...}``, ``{"r": 2, ...}`` or a sequence of four counts (k g r b)."""
    if (
        type(available) is tuple
        and len(available) == 4
        and all(type(n) is int and 0 <= n <= DICE_PER_COLOUR for n in available)
    ):
        return available  # already normalised: the hot path
    if isinstance(available, Mapping):
        counts = _counts_of_mapping(available)
    elif isinstance(available, Sequence) and not isinstance(available, str | bytes | bytearray):
        if len(available) != 4:
            raise NotationError(
                f"availability needs four counts (black, green, red, blue), got {len(available)}"
            )
        counts = list(available)
    else:
        raise ArgumentTypeError(
            "availability must be four counts (k g r b) or a mapping colour -> count, "
            f"not {json_type(available)}"
        )
    return _checked_counts(counts)


def _counts_of_mapping(available: Mapping[object, object]) -> list[object]:
    """The four counts (k g r b, not yet checked) that a mapping colour -> count gives: a colour
    left out counts 0, a later key for the same colour wins; a key that is no colour is refused."""
    counts: list[object] = [0, 0, 0, 0]
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
            raise ArgumentTypeError(
                f"availability: {shown(key)} is not a colour (k g r b, or 0-3)"
            )
        counts[colour] = value
    return counts


def _checked_counts(counts: list[object]) -> Availability:
    """The four counts (k g r b) as an availability, each refused unless it is an int from 0 to
    :data:`DICE_PER_COLOUR` (a :class:`NotationError` for an int out of range, an
    :class:`ArgumentTypeError` for anything else)."""
    out: list[int] = []
    for colour, value in zip(COLOURS, counts, strict=True):
        if type(value) is not int or not 0 <= value <= DICE_PER_COLOUR:
            error = NotationError if type(value) is int else ArgumentTypeError
            raise error(
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
    if type(mine) is tuple and type(theirs) is tuple and type(available) is tuple:
        # The hot path: tuples of dice and four counts, checked in place (the counts left and
        # the dice joined are all it builds), with no normalised copies.
        fast = _check_tuples(mine, theirs, available)
        if fast:
            return mine, theirs, available
    mine_t = expect_dice(mine, "your dice")
    theirs_t = expect_dice(theirs, "the opponent's dice")
    if len(mine_t) != 3:
        raise NotationError(f"a claim needs exactly three dice of your own, got {len(mine_t)}")
    if len(theirs_t) > 2:
        raise NotationError(
            f"the opponent's side holds at most two dice when you claim, got {len(theirs_t)}"
        )
    avail = normalise_availability(available)
    shown = colour_counts(mine_t + theirs_t)
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


def _check_tuples(mine: tuple[object, ...], theirs: tuple[object, ...], avail: tuple[object, ...]
                  ) -> bool:
    """Whether the tuples are a valid claim question as they stand (``False`` sends the caller
    to the full check, which names what is wrong)."""
    if len(mine) != 3 or len(theirs) > 2 or len(avail) != 4:
        return False
    k, g, r, b = avail
    if not type(k) is type(g) is type(r) is type(b) is int:
        return False
    left = [DICE_PER_COLOUR - k, DICE_PER_COLOUR - g, DICE_PER_COLOUR - r, DICE_PER_COLOUR - b]
    if left[0] > 6 or left[1] > 6 or left[2] > 6 or left[3] > 6:
        return False
    for die in mine + theirs:
        if type(die) is not Die:
            return False
        left[die.colour] -= 1
    return left[0] >= 0 and left[1] >= 0 and left[2] >= 0 and left[3] >= 0


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
    return _complete_pair(theirs[0], theirs[1], a)


def _complete_pair(d1: int, d2: int, a: list[int]) -> tuple[int, ...]:
    """The die code that completes the opponent's two dice ``d1`` and ``d2`` (die codes) to the
    best possible combination, with ``a`` the dice of each colour they can still get (capped at
    one; at least one in all): :func:`best_completion` when one die is needed."""
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


# -- the claim table: one lookup and one comparison -------------------------------------------
#
# The opponent's best completion depends only on their side (no die, one die or an unordered pair:
# 1 + 24 + 300 = 325 sides) and on how many dice of each colour they can still get, each capped at
# three (a side never takes more than three dice): 4**4 = 256 availabilities. The table holds, for
# each of the 325 * 256 = 83,200 keys, the rank of the best completion (-1 when the side cannot be
# completed at all) and the dice of that completion. It is built on first use from the closed form
# of :func:`best_completion`, once per side and availability capped at the number of dice the side
# still needs (at most 7,000 distinct questions), in a few tens of milliseconds.

#: How many opponent sides and availabilities the key distinguishes.
SIDES = 325
AVAILABILITIES = 256
TABLE_SIZE = SIDES * AVAILABILITIES
_CAP = (0, 1, 2, 3, 3, 3, 3)
#: ``PAIR_INDEX[a * 24 + b]``: the side index of the dice with codes ``a`` and ``b`` (any order).
PAIR_INDEX: list[int] = [0] * 576
_index = 25
for _a in range(24):
    for _b in range(_a, 24):
        PAIR_INDEX[_a * 24 + _b] = PAIR_INDEX[_b * 24 + _a] = _index
        _index += 1
del _a, _b, _index
#: The best completion's rank per key (filled on first use); -1: no completion exists.
BEST_RANK: list[int] = []
#: The dice of that completion per key (``None`` when there is none).
WITNESS: list[tuple[Die, ...] | None] = []
#: The rank of three dice by ``code1 * 576 + code2 * 24 + code3`` (13,824 entries, filled with
#: the table).
RANK3: list[int] = []
#: Seconds the table took to build (``None`` until it is built).
build_seconds: float | None = None


def side_index(theirs: Sequence[int]) -> int:
    """The opponent side's part of the key (0-324): no die, one die, or an unordered pair of
    die codes."""
    n = len(theirs)
    if n == 0:
        return 0
    if n == 1:
        return 1 + theirs[0]
    return PAIR_INDEX[theirs[0] * 24 + theirs[1]]


def availability_index(avail: Availability) -> int:
    """The availability's part of the key (0-255): each colour's count capped at three."""
    return _CAP[avail[0]] << 6 | _CAP[avail[1]] << 4 | _CAP[avail[2]] << 2 | _CAP[avail[3]]


def claim_key(theirs: Sequence[int], avail: Availability) -> int:
    """The table key of a claim question: the opponent's die codes and their availability."""
    return side_index(theirs) << 8 | availability_index(avail)


def opponent_sides() -> list[tuple[int, ...]]:
    """Every opponent side of a claim (no die, one die or a pair, as die codes) in the order
    of the claim table's keys (:func:`side_index`)."""
    out: list[tuple[int, ...]] = [()]
    out.extend((a,) for a in range(24))
    out.extend((a, b) for a in range(24) for b in range(a, 24))
    return out


def build_table() -> float:
    """Fill the claim table (if it is not yet filled); the seconds the build took."""
    global build_seconds
    if BEST_RANK:
        assert build_seconds is not None
        return build_seconds
    start = time.perf_counter()
    best: list[int] = []
    witness: list[tuple[Die, ...] | None] = []
    # For each number of dice still needed: each availability's counts capped at that number
    # (the best completion depends on nothing more), and the distinct capped counts.
    capped_of: dict[int, list[tuple[int, int, int, int]]] = {}
    for need in (1, 2, 3):
        capped_of[need] = [
            (min(a >> 6, need), min(a >> 4 & 3, need), min(a >> 2 & 3, need), min(a & 3, need))
            for a in range(AVAILABILITIES)
        ]
    for side in opponent_sides():
        need = 3 - len(side)
        capped = capped_of[need]
        found: dict[tuple[int, int, int, int], tuple[int, tuple[Die, ...] | None]] = {}
        for counts in set(capped):
            extra = best_completion(side, counts)
            if extra is None:
                found[counts] = (-1, None)
            else:
                full = side + extra
                found[counts] = (
                    rank_codes(full[0], full[1], full[2]),
                    tuple(ALL_DICE[code] for code in extra),
                )
        entries = [found[counts] for counts in capped]
        best.extend([entry[0] for entry in entries])
        witness.extend([entry[1] for entry in entries])
    AVAIL_CODES.update(_packed_availabilities())
    RANK3[:] = [rank_codes(a, b, c) for a in range(24) for b in range(24) for c in range(24)]
    WITNESS[:] = witness
    BEST_RANK[:] = best  # last: a filled BEST_RANK means a filled table
    build_seconds = time.perf_counter() - start
    return build_seconds


def best_rank(key: int) -> int:
    """The rank of the opponent's best completion for the table ``key`` (-1: none exists)."""
    try:
        return BEST_RANK[key]
    except IndexError:
        build_table()
        return BEST_RANK[key]


def claim_is_safe(mine_rank: int, key: int) -> bool:
    """The hot path: is a claim of rank ``mine_rank`` safe against the question ``key``
    (:func:`claim_key`)? One lookup and one comparison."""
    try:
        return BEST_RANK[key] <= mine_rank
    except IndexError:
        build_table()
        return BEST_RANK[key] <= mine_rank


def claim_rank(c0: int, c1: int, c2: int) -> int:
    """The rank of three dice given by their codes, from the table (:func:`rank_codes`)."""
    try:
        return RANK3[c0 * 576 + c1 * 24 + c2]
    except IndexError:
        build_table()
        return RANK3[c0 * 576 + c1 * 24 + c2]


def claim_is_safe_codes(mine_rank: int, theirs: Sequence[int], avail: Availability) -> bool:
    """The same question from the opponent's die codes and the availability."""
    return claim_is_safe(mine_rank, claim_key(theirs, avail))


def exact_verdict(
    mine: tuple[Die, ...], theirs: tuple[Die, ...], avail: Availability
) -> ClaimVerdict:
    """The verdict from the claim table, on arguments already checked (:func:`check_claim`)."""
    if not BEST_RANK:
        build_table()
    key = side_index([d.code for d in theirs]) << 8 | availability_index(avail)
    return _verdict(RANK3[mine[0].code * 576 + mine[1].code * 24 + mine[2].code], key, mine,
                    theirs)


def _verdict(mine_rank: int, key: int, mine: tuple[Die, ...], theirs: tuple[Die, ...]
             ) -> ClaimVerdict:
    verdict = _UnfrozenVerdict()
    verdict.mine = mine
    verdict.theirs = theirs
    verdict.backend = "exact"
    verdict.note = ""
    if BEST_RANK[key] <= mine_rank:
        verdict.safe = True
        verdict.witness = None
    else:
        verdict.safe = False
        verdict.witness = WITNESS[key]
    verdict.__class__ = ClaimVerdict  # type: ignore[assignment]
    return verdict  # type: ignore[return-value]


class _UnfrozenVerdict:
    """A verdict under construction: the slots of :class:`ClaimVerdict`, in the same order, and
    writable. Once filled, its class is set to :class:`ClaimVerdict` (the layouts are the same,
    so Python allows it), which then is an ordinary, frozen verdict: equal to, and hashing like,
    one built by the constructor. The frozen constructor alone costs more than a whole verdict
    built this way."""

    # The order of ClaimVerdict's fields: the layouts must match for the class swap.
    __slots__ = ("safe", "mine", "theirs", "witness", "backend", "note")  # noqa: RUF023
    safe: bool
    mine: tuple[Die, ...]
    theirs: tuple[Die, ...]
    witness: tuple[Die, ...] | None
    backend: Backend
    note: str


assert _UnfrozenVerdict.__slots__ == ClaimVerdict.__slots__


def _packed_availabilities() -> dict[tuple[int, int, int, int], tuple[int, int]]:
    """Every availability of four counts 0-6: its counts packed six bits a colour, and its
    index in the claim table."""
    out = {}
    for k in range(7):
        for g in range(7):
            for r in range(7):
                for b in range(7):
                    out[(k, g, r, b)] = (
                        k << 18 | g << 12 | r << 6 | b,
                        availability_index((k, g, r, b)),
                    )
    return out


#: Availability -> (counts packed six bits a colour, table index); built with the table.
AVAIL_CODES: dict[tuple[int, int, int, int], tuple[int, int]] = {}
#: A die's colour as a packed count, by code.
COLOUR_UNIT = tuple(1 << (6 * (3 - code // 6)) for code in range(24))
#: Added to packed counts, a field overflows into its top bit exactly when it exceeds six.
FIELD_BIAS = 25 << 18 | 25 << 12 | 25 << 6 | 25
FIELD_OVER = 32 << 18 | 32 << 12 | 32 << 6 | 32


def table_verdict(
    mine: tuple[Die, Die, Die], theirs: tuple[Die, ...], available: tuple[int, int, int, int]
) -> ClaimVerdict | None:
    """The verdict from the claim table if the arguments (tuples of exactly :class:`Die` and
    of four ints, as the hot path of
    :func:`~banditsolve.banditos.solvers.claims.claim_verdict` has made sure) are a valid
    claim question; ``None`` if not (no colour with more than six dice on the tile and still
    to get, every count 0-6): the one-pass check and the verdict built at once."""
    entry = AVAIL_CODES.get(available)
    if entry is None:
        if AVAIL_CODES:
            return None
        build_table()
        entry = AVAIL_CODES.get(available)
        if entry is None:
            return None
    c0, c1, c2 = mine[0].code, mine[1].code, mine[2].code
    counts = COLOUR_UNIT[c0] + COLOUR_UNIT[c1] + COLOUR_UNIT[c2] + entry[0]
    n = len(theirs)
    if n == 2:
        t0, t1 = theirs[0].code, theirs[1].code
        counts += COLOUR_UNIT[t0] + COLOUR_UNIT[t1]
        side = PAIR_INDEX[t0 * 24 + t1]
    elif n == 1:
        counts += COLOUR_UNIT[theirs[0].code]
        side = 1 + theirs[0].code
    else:
        side = 0
    if (counts + FIELD_BIAS) & FIELD_OVER:
        return None
    key = side << 8 | entry[1]
    verdict = _UnfrozenVerdict()
    verdict.mine = mine
    verdict.theirs = theirs
    verdict.backend = "exact"
    verdict.note = ""
    if BEST_RANK[key] <= RANK3[c0 * 576 + c1 * 24 + c2]:
        verdict.safe = True
        verdict.witness = None
    else:
        verdict.safe = False
        verdict.witness = WITNESS[key]
    verdict.__class__ = ClaimVerdict  # type: ignore[assignment]
    return verdict  # type: ignore[return-value]
