"""``claim_verdict`` called the way the README shows it (LB-CLAIM-2): tuples or lists of dice,
availability as four counts or as a mapping of colour letters or ``Colour`` members. Every
documented form gets the verdict of a plain enumeration of completions (tests/banditos/
reference.py); every malformed form is refused with the error of the full check (the path taken
with a time limit, or with a backend name that is not the default's own string), whether it is
asked first or after an equal-looking valid question; and a malformed question never answers a
later one, nor a valid one a later malformed one."""

from __future__ import annotations

import dataclasses
import random
import types
from collections import OrderedDict
from collections.abc import Callable, Sequence
from typing import cast

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from banditsolve.banditos import claim_verdict
from banditsolve.banditos.claim import Backend, ClaimVerdict
from banditsolve.banditos.dice import ALL_DICE, Colour, Die, colour_counts, parse_dice
from banditsolve.core.limits import CLAIM_TIME_LIMIT
from banditsolve.errors import BanditsolveError
from tests.banditos.reference import brute_force_safe, physical, reference_key
from tests.banditos.strategies import availability, dice_lists
from tests.rules import rules

#: Equal to ``"exact"`` but another string object: the default's fast path tests identity, so
#: this name takes the full check (every argument normalised and validated, then the table).
FRESH_EXACT = cast("Backend", "".join(["ex", "act"]))

Call = Callable[[object, object, object], ClaimVerdict]


def full_check(mine: object, theirs: object, available: object) -> ClaimVerdict:
    """The full check's answer: the same library call through its slow path."""
    return claim_verdict(mine, theirs, available, backend=FRESH_EXACT)


def timed_check(mine: object, theirs: object, available: object) -> ClaimVerdict:
    """The full check's answer, reached by a time limit instead of the backend's name."""
    return claim_verdict(mine, theirs, available, time_limit=3600.0)


def default(mine: object, theirs: object, available: object) -> ClaimVerdict:
    return claim_verdict(mine, theirs, available)


SLOW_PATHS: list[Call] = [full_check, timed_check]


def test_the_full_check_is_really_another_path() -> None:
    """The reference paths are what they claim: equal to the default's name, not its object."""
    defaults = claim_verdict.__kwdefaults__
    assert defaults is not None
    assert defaults["backend"] == FRESH_EXACT
    assert FRESH_EXACT is not defaults["backend"]
    assert defaults["time_limit"] == CLAIM_TIME_LIMIT
    assert CLAIM_TIME_LIMIT != 3600.0  # timed_check's limit is not the default's


def letters(counts: Sequence[int]) -> dict[str, int]:
    """The availability as a user writes it: the letters of the colours still to get."""
    return {"kgrb"[i]: n for i, n in enumerate(counts) if n}


def colour_members(counts: Sequence[int]) -> dict[Colour, int]:
    return {Colour(i): n for i, n in enumerate(counts) if n}


def documented_forms(
    mine: Sequence[Die], theirs: Sequence[Die], avail: tuple[int, int, int, int]
) -> list[tuple[object, object, object]]:
    """One question in every documented form of its arguments."""
    dice_forms: list[tuple[object, object]] = [
        (tuple(mine), tuple(theirs)),
        (list(mine), list(theirs)),
        (tuple(mine), list(theirs)),
    ]
    mixed: dict[object, int] = {  # black and green by letter, red and blue by Colour
        "kgrb"[i] if i < 2 else Colour(i): n for i, n in enumerate(avail) if n
    }
    avail_forms: list[object] = [
        avail,
        list(avail),
        letters(avail),
        dict(zip("kgrb", avail, strict=True)),  # every colour named, zeros too
        colour_members(avail),
        {int(c): n for c, n in colour_members(avail).items()},  # the ints 0-3
        mixed,
    ]
    return [(m, t, a) for m, t in dice_forms for a in avail_forms]


def check_against_reference(
    verdict: ClaimVerdict,
    mine: Sequence[Die],
    theirs: Sequence[Die],
    avail: Sequence[int],
    safe: bool | None = None,
) -> None:
    """The verdict is the enumeration's (``safe``, when it is already known), its witness
    beats the claim within the availability, and its dice are the ones asked, in the order
    asked, as tuples."""
    if safe is None:
        safe = brute_force_safe(mine, theirs, avail)
    assert verdict.safe == safe, (mine, theirs, avail)
    assert verdict.mine == tuple(mine)
    assert verdict.theirs == tuple(theirs)
    assert type(verdict.mine) is tuple
    assert type(verdict.theirs) is tuple
    assert hash(verdict) == hash(dataclasses.replace(verdict))  # frozen, of immutable values
    if verdict.safe:
        assert verdict.witness is None
        return
    witness = verdict.witness
    assert witness is not None
    assert len(theirs) + len(witness) == 3
    used = colour_counts(witness)
    assert all(used[c] <= avail[c] for c in range(4)), (witness, avail)
    assert reference_key(tuple(theirs) + witness) > reference_key(mine)


def ask_every_form(
    mine: Sequence[Die], theirs: Sequence[Die], avail: tuple[int, int, int, int], turn: int
) -> set[bool]:
    """Every form of the question, the first (asked while the question is new) the one at
    ``turn``: each form is the first for some questions. The verdicts' ``safe`` seen (each
    checked against the brute force)."""
    safe = brute_force_safe(mine, theirs, avail)
    forms = documented_forms(mine, theirs, avail)
    turn %= len(forms)
    seen = set()
    for m, t, a in forms[turn:] + forms[:turn]:
        first = default(m, t, a)
        assert first.safe is not None  # the closed form always decides
        seen.add(first.safe)
        check_against_reference(first, mine, theirs, avail, safe)
        again = default(m, t, a)  # asked again: from the memo
        check_against_reference(again, mine, theirs, avail, safe)
        assert again == first
        for slow in SLOW_PATHS:
            assert slow(m, t, a) == first, (m, t, a)
    return seen


@rules("LB-CLAIM-2")
def test_the_readme_call() -> None:
    """The README's example, worked by hand: only a green 4 beats the straight, and one green
    die is left (g4 g5 g6, a colour straight 4-5-6, beats k4 r5 b6, a straight 4-5-6)."""
    mine, theirs = parse_dice("k4 r5 b6"), parse_dice("g5 g6")
    for available in [{"g": 1}, {Colour.GREEN: 1}, {1: 1}, (0, 1, 0, 0), [0, 1, 0, 0]]:
        for dice in [(mine, theirs), (list(mine), list(theirs))]:
            verdict = claim_verdict(*dice, available)
            assert not verdict.safe
            assert verdict.witness == parse_dice("g4")
            assert verdict.backend == "exact"
            assert verdict.to_answer().answer == "unsafe"
    # Without a green die the opponent can at best tie (a straight 4-5-6), which does not beat.
    for available in [{"k": 3, "r": 3, "b": 3}, {"g": 0, "k": 3}, {}]:
        assert claim_verdict(mine, theirs, available).safe


@rules("LB-CLAIM-2")
@given(dice_lists(3, 3), dice_lists(0, 2), availability, st.integers(0, 100))
def test_every_documented_form_gets_the_enumerations_verdict(
    mine: list[Die], theirs: list[Die], avail: tuple[int, int, int, int], turn: int
) -> None:
    assert len(ask_every_form(mine, theirs, physical(mine, theirs, avail), turn)) == 1


@rules("LB-CLAIM-2")
def test_every_documented_form_on_seeded_cases() -> None:
    rng = random.Random(20261204)
    for turn in range(250):
        mine = rng.choices(ALL_DICE, k=3)
        theirs = rng.choices(ALL_DICE, k=rng.randint(0, 2))
        scarce = rng.choice([0, 1, 2, 3, 6])
        avail = [rng.randint(0, scarce) for _ in range(4)]
        assert len(ask_every_form(mine, theirs, physical(mine, theirs, avail), turn)) == 1


@rules("LB-CLAIM-2")
def test_questions_differing_in_one_place_get_their_own_verdicts() -> None:
    """Questions that differ from one another in one die, one count, the number or the order
    of the opponent's dice, asked one after the other (each while the others are remembered)
    and then all again: every answer is the enumeration's, with the dice in the order asked."""
    k1, k4, r4, r5, b6, g4, g5, g6 = parse_dice("k1 k4 r4 r5 b6 g4 g5 g6")
    sides: list[list[Die]] = [[], [g5], [g6], [g5, g6], [g6, g5], [g4, g6], [k1, g6], [g5, g5]]
    claims: list[list[Die]] = [[k4, r5, b6], [b6, k4, r5], [r4, r5, b6], [k1, r5, b6]]
    counts: list[tuple[int, int, int, int]] = [
        (0, 0, 0, 0), (0, 1, 0, 0), (1, 0, 0, 0), (0, 0, 1, 0), (0, 0, 0, 1), (3, 2, 3, 3),
    ]
    questions = [
        (mine, theirs, physical(mine, theirs, avail))
        for mine in claims
        for theirs in sides
        for avail in counts
    ]
    expected = [brute_force_safe(*q) for q in questions]
    assert 0 < sum(expected) < len(expected)  # both answers occur
    for dice_form in (list, tuple):
        for (mine, theirs, avail), safe in zip(questions, expected, strict=True):
            verdict = claim_verdict(dice_form(mine), dice_form(theirs), letters(avail))
            check_against_reference(verdict, mine, theirs, avail, safe)


@dataclasses.dataclass(frozen=True)
class LookAlike:
    """Not a die, though it has a die's fields."""

    colour: Colour
    value: int
    code: int


K4, R5, B6 = parse_dice("k4 r5 b6")
G5, G6 = parse_dice("g5 g6")
FAKE_G5 = LookAlike(G5.colour, G5.value, G5.code)

#: Malformed questions next to the valid one (k4 r5 b6 against g5 g6, one green die left:
#: unsafe) that they equal or resemble.
MALFORMED: list[tuple[str, object, object, object]] = [
    ("bool count", [K4, R5, B6], [G5, G6], {"g": True}),
    ("float count", [K4, R5, B6], [G5, G6], {"g": 1.0}),
    ("numpy count", [K4, R5, B6], [G5, G6], {"g": np.int64(1)}),
    ("None count", (K4, R5, B6), (G5, G6), {"g": None}),
    ("negative count", [K4, R5, B6], [G5, G6], {"g": -1}),
    ("count over six", (K4, R5, B6), (G5, G6), {"g": 7}),
    ("huge count", (K4, R5, B6), (G5, G6), {"g": 10**30}),
    ("more green than the game has", [K4, R5, B6], [G5, G6], {"g": 5}),
    ("more than the game has, Colour key", [K4, R5, B6], [G5, G6], {Colour.GREEN: 5}),
    ("unknown letter", [K4, R5, B6], [G5, G6], {"x": 1}),
    ("upper-case letter", [K4, R5, B6], [G5, G6], {"G": 1}),
    ("colour name", (K4, R5, B6), (G5, G6), {"green": 1}),
    ("bool key", [K4, R5, B6], [G5, G6], {True: 1}),
    ("float key", [K4, R5, B6], [G5, G6], {1.0: 1}),
    ("numpy key", [K4, R5, B6], [G5, G6], {np.int64(1): 1}),
    ("int key out of range", (K4, R5, B6), (G5, G6), {4: 1}),
    ("negative int key", (K4, R5, B6), (G5, G6), {-1: 1}),
    ("three counts", [K4, R5, B6], [G5, G6], (0, 1, 0)),
    ("five counts", [K4, R5, B6], [G5, G6], (0, 1, 0, 0, 0)),
    ("bool in four counts", [K4, R5, B6], [G5, G6], (0, True, 0, 0)),
    ("two dice of my own", [K4, R5], [G5, G6], {"g": 1}),
    ("four dice of my own", [K4, R5, B6, K4], [G5, G6], {"g": 1}),
    ("three opponent dice", [K4, R5, B6], [G5, G6, G6], {"g": 1}),
    ("a die as text in a list", ["k4", R5, B6], [G5, G6], {"g": 1}),
    ("a look-alike opponent die", [K4, R5, B6], [FAKE_G5, G6], {"g": 1}),
    ("a look-alike die of mine", (LookAlike(K4.colour, 4, K4.code), R5, B6), (G5, G6), {"g": 1}),
    ("codes for dice", [K4, R5, B6], [G5.code, G6.code], {"g": 1}),
    ("dice as a mapping", {0: K4, 1: R5, 2: B6}, [G5, G6], {"g": 1}),
    ("my dice as a set", {K4, R5, B6}, [G5, G6], {"g": 1}),
    ("the opponent's dice as a set", (K4, R5, B6), {G5, G6}, {"g": 1}),
    ("the opponent's dice as a frozenset", [K4, R5, B6], frozenset({G5}), {"g": 1}),
    ("availability as text", [K4, R5, B6], [G5, G6], "g1"),
]


def refusal(call: Call, mine: object, theirs: object, available: object) -> str:
    """The library error ``call`` raises, as its type and message (it must raise one)."""
    with pytest.raises(BanditsolveError) as raised:
        call(mine, theirs, available)
    return f"{type(raised.value).__name__}: {raised.value}"


def valid_question() -> ClaimVerdict:
    verdict = claim_verdict([K4, R5, B6], [G5, G6], {"g": 1})
    assert not verdict.safe
    assert verdict.witness == parse_dice("g4")
    return verdict


@rules("LB-CLAIM-2")
@pytest.mark.parametrize(("what", "mine", "theirs", "available"), MALFORMED,
                         ids=[m[0] for m in MALFORMED])
def test_a_malformed_form_is_refused_as_the_full_check_refuses_it(
    what: str, mine: object, theirs: object, available: object
) -> None:
    expected = refusal(full_check, mine, theirs, available)
    assert refusal(timed_check, mine, theirs, available) == expected
    # Asked first, twice: the first refusal left nothing in the memo for the second.
    assert refusal(default, mine, theirs, available) == expected, what
    assert refusal(default, mine, theirs, available) == expected, what
    # The valid question it resembles still gets its own verdict, and asked after it (its
    # verdict now in the memo) the malformed one is still refused.
    valid_question()
    assert refusal(default, mine, theirs, available) == expected, what
    valid_question()


@rules("LB-CLAIM-2")
def test_a_malformed_question_never_answers_from_the_memo_nor_fills_it() -> None:
    """A count given as a bool, float or numpy int, a colour key given as a bool or float
    (``True == 1 == Colour.GREEN``, ``1.0 == 1``: equal, and hashing equal, to what a valid
    question holds), asked right after that valid question, on many questions."""
    rng = random.Random(26)
    for _ in range(60):
        mine = rng.choices(ALL_DICE, k=3)
        theirs = rng.choices(ALL_DICE, k=rng.randint(0, 2))
        avail = physical(mine, theirs, [rng.randint(0, 3) for _ in range(4)])
        good = letters(avail) or {"k": 0}
        verdict = claim_verdict(mine, theirs, good)
        check_against_reference(verdict, mine, theirs, avail)
        letter, count = next(iter(good.items()))
        index = "kgrb".index(letter)
        bad_forms: list[object] = [
            {**good, letter: odd} for odd in (bool(count), float(count), np.int64(count))
        ]
        rest: dict[object, int] = {k: v for k, v in good.items() if k != letter}
        if index < 2:  # the keys False == 0 and True == 1 are refused, not read as a colour
            bad_forms.append({**rest, bool(index): count})
        bad_forms.append({**rest, float(index): count})
        for bad in bad_forms:
            expected = refusal(full_check, mine, theirs, bad)
            assert refusal(default, mine, theirs, bad) == expected, bad
        # and nothing the refusals did changed the valid question's answer
        check_against_reference(claim_verdict(mine, theirs, good), mine, theirs, avail)


class Letter(str):
    """A str subclass: the full check reads it as the letter it holds."""

    __slots__ = ()


@rules("LB-CLAIM-2")
def test_other_accepted_forms_are_answered_as_the_full_check_answers_them() -> None:
    """Forms outside the fast path but read by the full check: the same verdict, which is the
    enumeration's with the count that the full check reads (for one colour named twice, by a
    letter and by its Colour or int, the later one)."""
    mine, theirs = [K4, R5, B6], [G5, G6]
    cases: list[tuple[object, tuple[int, int, int, int]]] = [
        ({"g": 0, Colour.GREEN: 1}, (0, 1, 0, 0)),
        ({Colour.GREEN: 1, "g": 0}, (0, 0, 0, 0)),
        ({"g": 1, 1: 0}, (0, 0, 0, 0)),
        ({1: 0, "g": 1}, (0, 1, 0, 0)),
        ({Letter("g"): 1}, (0, 1, 0, 0)),
        (OrderedDict(g=1), (0, 1, 0, 0)),
        (types.MappingProxyType({"g": 1, "k": 2}), (2, 1, 0, 0)),
    ]
    for available, counts in cases:
        for _ in range(2):
            verdict = default(mine, theirs, available)
            assert verdict == full_check(mine, theirs, available), available
            check_against_reference(verdict, mine, theirs, counts)
    # Dice as text are read as parse_dice reads them.
    verdict = default("k4 r5 b6", "g5 g6", {"g": 1})
    assert verdict == full_check("k4 r5 b6", "g5 g6", {"g": 1})
    check_against_reference(verdict, mine, theirs, (0, 1, 0, 0))


@rules("LB-CLAIM-2")
def test_the_memo_follows_the_contents_of_a_list_or_dict_not_the_object() -> None:
    """A user may change a list or dict between calls: each call answers what it holds then."""
    mine, theirs, available = [K4, R5, B6], [G5, G6], {"g": 1}
    first = claim_verdict(mine, theirs, available)
    assert not first.safe
    available["g"] = 0  # no green die left: the opponent cannot beat the straight
    check_against_reference(claim_verdict(mine, theirs, available), mine, theirs, (0, 0, 0, 0))
    theirs[1] = parse_dice("g2")[0]  # g5 g2, one green die left: at best a colour pair
    available["g"] = 1
    check_against_reference(claim_verdict(mine, theirs, available), mine, theirs, (0, 1, 0, 0))
    mine[0] = parse_dice("r4")[0]
    check_against_reference(claim_verdict(mine, theirs, available), mine, theirs, (0, 1, 0, 0))
    # The first verdict kept the dice it was asked about.
    assert first.mine == (K4, R5, B6)
    assert first.theirs == (G5, G6)
