"""Closure with a Bandida mode's goal: certificates replayed on the oracle's plain table with the
goal checked independently (ladder among the cards laid, the second super card laid and joined
through the tunnels), the backends compared per goal on generated cases, and the honesty rules
(map cards never give ``impossible``)."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from banditsolve.errors import SolverError
from banditsolve.tunnels import (
    Closure,
    GameState,
    Table,
    can_close,
    card_name,
    min_cards_to_close,
    plain_search,
)
from banditsolve.tunnels.cards import as_code
from banditsolve.tunnels.geometry import Placement
from banditsolve.tunnels.simulate import simulate
from tests.bandida.helpers import make
from tests.bandida.map_oracle import brute_close, replay_with_maps
from tests.profiles import scaled
from tests.rules import rules
from tests.tunnels.helpers import random_table
from tests.tunnels.oracle import Footprint, PlainTable, Vec, footprint

GOALS = ("close", "ladder", "join")
LADDER = "L:ladder"
#: Small cards for the mode-3 cases.
SMALL = [as_code(c) for c in ("L", "TL", "TR", "L+TL", "TL+BL", "L+BL", "TL+TR", "L+R")]
BANDIDO = "bandido6"


def to_footprint(p: Placement) -> Footprint:
    """The oracle's footprint of a placement of any card kind (the kind has no openings)."""
    return footprint(card_name(p.card).split(":")[0], p.x, p.y, p.rotation)


def connected(plain: PlainTable, a: Vec, b: Vec) -> bool:
    """Oracle: cells ``a`` and ``b`` joined through openings (a card's two squares are joined
    when both have openings)."""
    cards: dict[int, list[Vec]] = {}
    for cell, (n, _opens) in plain.cells.items():
        cards.setdefault(n, []).append(cell)
    seen, todo = {a}, [a]
    while todo:
        c = todo.pop()
        n, opens = plain.cells[c]
        nexts = [(c[0] + d[0], c[1] + d[1]) for d in opens]
        if opens:
            nexts += [o for o in cards[n] if o != c and plain.cells[o][1]]
        for m in nexts:
            if m in plain.cells and m not in seen:
                seen.add(m)
                todo.append(m)
    return b in seen


def replay_goal(table: Table, result: Closure, goal: str) -> None:
    """Lay the certificate on the map oracle's table: each card legal when laid, each map's
    removal one it allows, no exit at the end, and the goal's cards on the final table (the
    second super card joined to the first)."""
    final = replay_with_maps(table, result)  # (a line without a map: each card legal, in turn)
    plain = final.plain()
    cards = tuple(final.cards)
    assert not plain.exits()
    names = [card_name(p.card) for p in cards]
    if goal in ("ladder", "join"):
        assert any(n.endswith(":ladder") for n in names)
    if goal == "join":
        seconds = [p for p in cards[1:] if ":bandido_super" in card_name(p.card)]
        assert seconds
        start = table.history[0].cells[0]
        assert any(connected(plain, start, c) for p in seconds for c in p.cells)


@rules("BA-CLOSE-1")
def test_ladder_goal_needs_the_ladder() -> None:
    t = Table.start("super6")
    cards = ["TL+TR", "TL+TR", "L", LADDER]
    for backend in ("exact", "cpsat", "z3"):
        r = min_cards_to_close(t, cards, goal="ladder", backend=backend, hypothetical=True)
        assert r.status == "closable", r.reason
        assert r.cards == 4, r.reason
        assert r.minimum, r.reason
        assert r.goal == "ladder"
        replay_goal(t, r, "ladder")
    r = can_close(t, ["TL+TR", "TL+TR", "L", "L"], goal="ladder", hypothetical=True)
    assert r.status == "impossible"
    assert "ladder" in r.reason
    # The same cards close the table in mode 1.
    assert can_close(t, ["TL+TR", "TL+TR", "L", "L"], hypothetical=True).status == "closable"


@rules("BA-CLOSE-1")
def test_closed_before_the_ladder_is_lost() -> None:
    """A closed table takes no card: without the ladder on it, mode 2 is lost for good."""
    t = Table.start("super6")
    closed = can_close(t, ["TL+TR", "TL+TR", "L", "L"], hypothetical=True)
    table = t.place_all(closed.placements)
    r = can_close(table, [LADDER, "L+R"], goal="ladder", hypothetical=True)
    assert r.status == "impossible"
    assert "without the ladder" in r.reason
    assert can_close(table, [LADDER], goal="close", hypothetical=True).status == "closable"


@rules("BA-CLOSE-1")
def test_join_goal_chooses_the_side() -> None:
    """Bandido's super card is one card laid on either side: the 5-exit side closes here with
    fewer cards (its L end is a wall)."""
    t = Table.start("super6")
    cards = ["TL+TR", "TL+TR", "TL+TR", "L", "L", LADDER, BANDIDO, "L+R"]
    r = min_cards_to_close(t, cards, goal="join", hypothetical=True, time_limit=30)
    assert r.status == "closable", r.reason
    assert r.minimum, r.reason
    replay_goal(t, r, "join")
    assert any(card_name(p.card).startswith("TL+TR+R+BR+BL") for p in r.placements)
    r = can_close(t, cards[:-2], goal="join", hypothetical=True)
    assert r.status == "impossible"
    assert "second super card" in r.reason


@rules("BA-CLOSE-2")
def test_every_backend_closes_through_the_map() -> None:
    """Without the map the cards cannot close the start card's six exits; with it laid last
    they can (the oracle's search of every line agrees), on every backend; a line through
    the map is never a proven minimum, and a reason that holds whatever the map removes is
    still a proof."""
    t = Table.start("super6")
    cards = ["TL+TR", "TL+TR", "L", "L+TL+TR:map"]
    assert can_close(t, cards[:3], hypothetical=True).status == "impossible"
    assert brute_close(t, [as_code(c) for c in cards])
    for backend in ("auto", "exact", "python", "cpsat", "z3"):
        r = can_close(t, cards, backend=backend, hypothetical=True)
        assert r.status == "closable", (backend, r.reason)
        assert "map" in r.reason
        assert r.notes
        replay_goal(t, r, "close")
    r = min_cards_to_close(t, cards, hypothetical=True)
    assert r.status == "closable"
    assert not r.minimum
    r = can_close(t, cards, goal="ladder", hypothetical=True)
    assert r.status == "impossible"
    assert "ladder" in r.reason


@rules("BA-CLOSE-2")
def test_hand_objects_count_as_tunnel_cards() -> None:
    t = Table.start("super6")
    cards = ["TL+TR:broken_tool", "TL+TR", "L", "L"]
    r = min_cards_to_close(t, cards, hypothetical=True)
    assert r.status == "closable"
    assert r.minimum
    assert r.cards == 4
    replay_goal(t, r, "close")
    assert any(card_name(p.card) == "TL+TR:broken_tool" for p in r.placements)
    assert any("broken tool" in n for n in r.notes)
    assert r.to_json()["notes"]


def test_goal_from_the_position_and_refusals() -> None:
    """The goal comes from the game the position is of: a Bandida state's mode's (mode 2: the
    ladder), unless asked; a goal that is no goal is refused; Bandido's answers keep their
    JSON shape."""
    state = make(
        [["TL+TR", "TL+TR", "L"], ["L"]], pile=["L+BL"], start="super6", options={"mode": 2}
    )
    r = can_close(state, hypothetical=True)
    assert r.status == "impossible"
    assert r.goal == "ladder"
    assert can_close(state, hypothetical=True, goal="close").status == "closable"
    with pytest.raises(SolverError):
        can_close(Table.start(), ["L"], goal="escape", hypothetical=True)
    # Bandido's answers keep their JSON shape.
    assert "goal" not in can_close(Table.start(), ["L"] * 2, hypothetical=True).to_json()


def positions(seeds: range, every: int = 3) -> list[GameState]:
    return [s for seed in seeds for s in simulate(2, seed)[:-1][::every]]


def _goal_cards(s: GameState, goal: str, i: int, rng: random.Random) -> list[str]:
    """The cards of generated case ``i``: a few of the state's with the goal's special cards
    added, or (two cases in three, every join case) a small closure's cards plus one, when the
    state has one."""
    pool = list(s.hands[s.player]) + list(s.pile)
    extra = {"close": [], "ladder": [LADDER], "join": [LADDER, BANDIDO, "L", "TL"]}[goal]
    n = rng.randint(2, 4)
    cards = [card_name(c) for c in pool[:n]] + extra
    if i % 3 != 2 or goal == "join":
        # A case built to be closable more often: the cards of a small closure, plus one.
        found = can_close(
            s.table,
            [*map(card_name, s.remaining()), *extra],
            goal=goal,
            time_limit=0.5,
            max_cards=5 if goal != "join" else 7,
            hypothetical=True,
        )
        if found.status == "closable":
            cards = [card_name(p.card) for p in found.placements] + [card_name(pool[0])]
    return cards


def _check_cpsat_agrees(table: Table, cards: list[str], goal: str, exact: Closure) -> None:
    """CP-SAT's answer, unless unknown, has the exact search's status, no fewer cards (as few
    when it says minimum) and a certificate that reaches the goal."""
    cp = min_cards_to_close(
        table, cards, goal=goal, backend="cpsat", hypothetical=True, time_limit=5
    )
    if cp.status != "unknown":
        assert cp.status == exact.status, (cards, exact.reason, cp.reason)
        if exact.status == "closable":
            # (CP-SAT may prove one side of the second super card and time out on the other.)
            assert cp.cards >= exact.cards
            assert (cp.cards == exact.cards or not cp.minimum)
            replay_goal(table, cp, goal)


def _check_z3_agrees(table: Table, cards: list[str], goal: str, exact: Closure) -> None:
    """Z3's answer, unless unknown, has the exact search's status, and a closable one its
    minimum, proven, with a certificate that reaches the goal."""
    z = min_cards_to_close(
        table, cards, goal=goal, backend="z3", hypothetical=True, time_limit=5
    )
    if z.status != "unknown":
        assert z.status == exact.status, (cards, exact.reason, z.reason)
        if z.status == "closable":
            assert z.cards == exact.cards
            assert z.minimum
            replay_goal(table, z, goal)


@rules("BA-CLOSE-3")
@pytest.mark.parametrize("goal", ["close", "ladder", "join"])
def test_backends_agree_per_goal(goal: str) -> None:
    """Exact vs CP-SAT vs Z3 (not for the join goal) on generated cases of a few cards with the
    goal's special cards added; statuses and minima equal, certificates replayed on the oracle
    with the goal checked; some impossible ones confirmed by the plain search."""
    rng = random.Random(GOALS.index(goal))
    states = positions(range(4), every=2)
    rng.shuffle(states)
    count = scaled(12, 40) if goal != "join" else scaled(4, 20)
    if goal == "join":
        # Small tables (mode 3 cases need the super card and its exits closed as well).
        tables = [random_table(seed, seed % 3, "super5") for seed in range(count)]
    else:
        tables = [s.table for s in states[:count]]
    closable = impossible = 0
    for i, table in enumerate(tables):
        s = states[i]
        if goal == "join":
            s = replace(s, table=table, hands=((),), player=0, pile=tuple(rng.choices(SMALL, k=8)))
        cards = _goal_cards(s, goal, i, rng)
        exact = min_cards_to_close(s.table, cards, goal=goal, hypothetical=True, time_limit=30)
        assert exact.status != "unknown", exact.reason
        _check_cpsat_agrees(s.table, cards, goal, exact)
        # (Not for the join goal: Z3 ran out of its 5 s on 4 of the 6 default join cases.)
        if goal != "join":
            _check_z3_agrees(s.table, cards, goal, exact)
        if exact.status == "closable":
            closable += 1
            replay_goal(s.table, exact, goal)
        else:
            impossible += 1
            if i % 3 == 0 and len(cards) <= 5:
                plain = plain_search(s.table, cards, goal=goal, hypothetical=True, time_limit=5)
                assert plain.status in ("impossible", "unknown")
    assert closable >= 2, (closable, impossible)
    assert impossible >= 1, (closable, impossible)


# A mode 3 game of seed 15 (its pile unseen): the search with Bandido's super card on its
# 6-exit side takes about 1.2 s to end, while the 5-exit side closes in a few hundredths.
_TWO_SIDES = (
    "bandida L+TL+TR+R+BR+BL@0,0,0 L+BR+BL@0,-1,0 L+TL+R:alarm_discard_one@0,1,90 L+R:broken_"
    "tool@-2,-1,0 TL+TR+BR+BL@-3,-2,90 L+TR+BL@1,1,90 TR@-4,-3,90 L+TL+R:water_bottle@0,4,270"
    " TL+BL@0,5,180 L+TR+BR+BL@2,0,0 L+TL+R+BL:backpack@2,2,270 L+TL+BR:alarm_discard_five@3,"
    "1,90 | hands=TR+BL,L+TR+BR+BL/L+TL+R+BR,L+TR+R+BL player=0 turn=8 unseen=L,TL*3,L+TL*2,T"
    "R*2,L+TR,TL+TR,L+TL+TR,L+R,L+TR+R*2,L+TL+TR+R,L+BR*2,TL+BR*2,L+TL+BR,TL+TR+BR*2,L+TL+TR+"
    "BR,L+BL*3,TL+BL,L+TL+BL*3,L+TR+BL,TL+TR+BL*2,L+TL+TR+BL*2,L+TL+R+BL,L+TR+R+BL,L+BR+BL,L+"
    "TL+BR+BL*2,TL+TR+BR+BL,L:ladder,TR+BL:water_bottle,TL+TR:broken_tool,L+TL+R+BR:dynamite,"
    "L+TL+TR:map,L+TR+BR:map,L+TL+TR+R+BR+BL:bandido_super draw=1,1 options=mode:3 sizes=2,4 "
    "out=L,L+TL,L+TR,L+TR+BR,TL+BL,L+TL+TR+R:backpack,L+TL+TR+BR:dynamite"
)


@rules("BA-CLOSE-1")
def test_each_side_of_the_second_super_card_gets_its_share_of_the_time() -> None:
    """The two sides' searches share the time: the first one's long search, cut at its part,
    does not starve the second, which closes (it got 0.01 s and the answer was unknown)."""
    from banditsolve.tunnels.game import BANDIDA

    state = BANDIDA.read_state(_TWO_SIDES)
    r = can_close(state, backend="exact", time_limit=2, workers=1)
    assert r.status == "closable", r.reason
    assert "super5 side" in r.reason
    assert "other side was not searched to the end" in r.reason
