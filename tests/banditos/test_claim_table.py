"""The claim table (LB-CLAIM-2) against an independent enumeration of every completion, over
every one of its 83,200 keys; and the verdicts its hot path builds."""

from __future__ import annotations

import dataclasses
import itertools

import pytest

from banditsolve.banditos import claim as table
from banditsolve.banditos.claim import ClaimVerdict, claim_key
from banditsolve.banditos.combos import rank
from banditsolve.banditos.dice import ALL_DICE, Die, parse_dice
from banditsolve.banditos.solvers.claims import claim_verdict
from tests.banditos.reference import completions, reference_key
from tests.rules import rules

Best = dict[tuple[int, ...], tuple[tuple[int, ...], tuple[Die, ...]]]


def _best_by_colours(side: tuple[Die, ...]) -> Best:
    """For each count of dice per colour a completion uses: the best completion (by the
    rulebook's key) among those using exactly those counts."""
    best: Best = {}
    for extra in completions(side, (3, 3, 3, 3)):
        used = tuple(sum(1 for d in extra if d.colour == c) for c in range(4))
        key = reference_key(side + extra)
        if used not in best or key > best[used][0]:
            best[used] = (key, side + extra)
    return best


@rules("LB-CLAIM-2", "LB-OPT-1", "LB-NOTE-3")
def test_every_table_entry_is_the_best_completion_of_a_plain_enumeration() -> None:
    sides: list[tuple[Die, ...]] = [()]
    sides += [(d,) for d in ALL_DICE]
    sides += list(itertools.combinations_with_replacement(ALL_DICE, 2))
    assert len(sides) == table.SIDES
    keys = set()
    for side in sides:
        by_colours = _best_by_colours(side)
        for k, g, r, b in itertools.product(range(4), repeat=4):
            avail = (k, g, r, b)
            usable = [v for used, v in by_colours.items() if all(map(int.__le__, used, avail))]
            key = claim_key([d.code for d in side], avail)
            keys.add(key)
            if not usable:
                assert table.best_rank(key) == -1, (side, avail)
                continue
            ref_key, triple = max(usable)
            assert table.best_rank(key) == rank(triple), (side, avail, ref_key)
            # Counts above three mean the same as three: a side never takes more.
            more = [n + 3 if n == 3 else n for n in avail]
            assert claim_key([d.code for d in side], (more[0], more[1], more[2], more[3])) == key
    assert keys == set(range(table.TABLE_SIZE))


@rules("LB-CLAIM-2")
def test_the_witness_stored_with_each_entry_completes_the_side_to_its_best_rank() -> None:
    for key in range(0, table.TABLE_SIZE, 7):
        side_number, avail_index = divmod(key, table.AVAILABILITIES)
        avail = (avail_index >> 6, avail_index >> 4 & 3, avail_index >> 2 & 3, avail_index & 3)
        side = table.opponent_sides()[side_number]
        witness = table.WITNESS[key]
        if table.best_rank(key) < 0:
            assert witness is None
            continue
        assert witness is not None
        assert len(side) + len(witness) == 3
        assert all(sum(1 for d in witness if d.colour == c) <= avail[c] for c in range(4))
        dice = tuple(ALL_DICE[c] for c in side) + witness
        assert rank(dice) == table.best_rank(key)


def test_the_table_builds_once_and_says_how_long_it_took() -> None:
    seconds = table.build_table()
    assert 0 < seconds == table.build_table() == table.build_seconds
    assert len(table.BEST_RANK) == table.TABLE_SIZE


@pytest.mark.parametrize(
    ("mine", "theirs", "avail"),
    [("k4 r5 b6", "g5 g6", (1, 2, 3, 0)), ("k4 r5 b6", "g5 g6", (0, 0, 0, 0)),
     ("r6 r6 r6", "", (6, 6, 3, 6)), ("k1 g2 b4", "r3", (0, 2, 0, 0))],
)
def test_hot_path_verdicts_are_ordinary_frozen_verdicts(
    mine: str, theirs: str, avail: tuple[int, int, int, int]
) -> None:
    m, t = parse_dice(mine), parse_dice(theirs)
    fast = claim_verdict(m, t, avail)
    slow = claim_verdict(list(m), list(t), list(avail))  # lists take the full check
    assert type(fast) is ClaimVerdict
    assert fast == slow
    assert hash(fast) == hash(slow)
    assert repr(fast) == repr(slow)
    assert dataclasses.astuple(fast) == dataclasses.astuple(slow)
    with pytest.raises(dataclasses.FrozenInstanceError):
        fast.safe = not fast.safe  # type: ignore[misc]


def test_the_hot_path_refuses_what_the_full_check_refuses() -> None:
    from banditsolve.errors import ArgumentTypeError, NotationError

    m, t = parse_dice("k4 r5 b6"), parse_dice("g5 g6")
    for avail in [(True, 0, 0, 0), (1.0, 0, 0, 0)]:  # not counts: a wrong type
        with pytest.raises(ArgumentTypeError):
            claim_verdict(m, t, avail)
    for avail in [(7, 0, 0, 0), (-1, 0, 0, 0), (0, 5, 0, 0)]:  # counts the game cannot have
        with pytest.raises(NotationError):
            claim_verdict(m, t, avail)
    with pytest.raises(NotationError):
        claim_verdict(m + m[:1], t, (0, 0, 0, 0))
    with pytest.raises(NotationError):
        claim_verdict(m, t + t[:1], (0, 0, 0, 0))
    with pytest.raises(ArgumentTypeError):
        claim_verdict(m, ("g5",), (0, 0, 0, 0))  # text inside a tuple of dice


def test_a_memoised_verdict_never_answers_input_the_full_check_refuses() -> None:
    """The hot path's memo holds verdicts of checked arguments only; an argument equal to a
    memoised one (``True == 1``, ``1.0 == 1``, a numpy int, a look-alike die) still meets the
    full check."""
    import numpy as np

    from banditsolve.errors import ArgumentTypeError

    m, t = parse_dice("k4 r5 b6"), parse_dice("g5 g6")
    for avail in [(1, 0, 0, 0), (1, 1, 1, 1), (0, 0, 0, 0)]:
        claim_verdict(m, t, avail)  # now memoised
        for i in range(4):
            for odd in (bool(avail[i]), float(avail[i]), np.int64(avail[i])):
                bad = (*avail[:i], odd, *avail[i + 1:])
                assert bad == avail
                assert hash(bad) == hash(avail)
                with pytest.raises(ArgumentTypeError):
                    claim_verdict(m, t, bad)

    @dataclasses.dataclass(frozen=True)
    class LookAlike:
        colour: int
        value: int
        code: int

    fake = LookAlike(int(m[0].colour), m[0].value, m[0].code)
    with pytest.raises(ArgumentTypeError):
        claim_verdict((fake, m[1], m[2]), t, (1, 0, 0, 0))
    fake = LookAlike(int(t[0].colour), t[0].value, t[0].code)
    with pytest.raises(ArgumentTypeError):
        claim_verdict(m, (fake, t[1]), (1, 0, 0, 0))
    with pytest.raises(ArgumentTypeError):  # die codes are not dice
        claim_verdict(m, (t[0].code, t[1].code), (1, 0, 0, 0))


def test_memoised_verdicts_answer_equal_questions_with_their_own_dice_order() -> None:
    """Every question asked twice, with fresh but equal tuples, gets the verdict of the full
    check (a time limit takes it: lists of dice reach the memo too), with the dice in the order
    asked."""
    import random

    rng = random.Random(7)
    for _ in range(600):
        mine = tuple(rng.choice(ALL_DICE) for _ in range(3))
        theirs = tuple(rng.choice(ALL_DICE) for _ in range(rng.randrange(3)))
        on_tile = [sum(1 for d in mine + theirs if d.colour == c) for c in range(4)]
        avail = tuple(rng.randint(0, 6 - n) for n in on_tile)
        slow = claim_verdict(list(mine), list(theirs), list(avail), time_limit=3600.0)
        for _ in range(2):
            fast = claim_verdict(tuple(mine), tuple(theirs), tuple(avail))
            assert fast == slow
            assert fast.mine == mine
            assert fast.theirs == theirs
        if len(theirs) == 2:
            turned = claim_verdict(mine, theirs[::-1], avail)
            assert turned.theirs == theirs[::-1]
            assert turned.safe == slow.safe
