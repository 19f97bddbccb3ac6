"""The answers drawn (issue 28): a claim beside its counterexample, the odds as bars, the best
turn as numbered steps, in SVG (parsed with ElementTree) and ASCII; the notebook display of
every state and result type; ``str(state)`` and ``repr(state)``; ``--svg`` on the commands; the
pictures committed under ``docs/pictures/``."""

from __future__ import annotations

import dataclasses
import xml.etree.ElementTree as ET
from fractions import Fraction
from pathlib import Path

import pytest

import banditsolve.banditos as banditos
from banditsolve.banditos import (
    BestTurn,
    ClaimVerdict,
    CompletionOdds,
    Die,
    Place,
    State,
    apply,
    best_turn,
    claim_verdict_at,
    completion_odds_at,
    parse_dice,
    parse_position,
)
from banditsolve.banditos.dice import colour_counts, format_dice
from banditsolve.banditos.players import greedy_player, random_player
from banditsolve.banditos.puzzles import load_puzzles
from tests.banditos.reference import odds_by_colour_sequences, reference_key
from tests.banditos.strategies import played_states
from tests.cli_runner import run
from tests.rules import rules

NS = "{http://www.w3.org/2000/svg}"
ROOT = Path(__file__).resolve().parents[2]
PICTURES = ROOT / "docs" / "pictures"

#: The README's position: slot 1's straight falls to a green 4 under the strict proof.
POSITION = "3:k4r5b6:g5g6/2:k1k1:g1g2g3/1:r6r6r6:g4/1:b2b2k3: 123 21:3 0a"
#: Giving a tile away wins: four decisions, solved exactly in a few dozen positions.
ENDGAME = "1:k6k6:r1/1::b5b5b6/-/- - 3321:3221 0h:k2g4"


def parse(svg: str) -> ET.Element:
    root = ET.fromstring(svg)
    assert root.tag == f"{NS}svg"
    return root


def dice_drawn(root: ET.Element, role: str) -> list[str]:
    """The dice a picture draws in ``role``, in drawing order, read from their marks."""
    return [
        g.get("data-die", "")
        for g in root.iter(f"{NS}g")
        if g.get("class") == "die" and g.get("data-role") == role
    ]


def texts(root: ET.Element) -> list[str]:
    return [t.text or "" for t in root.iter(f"{NS}text")]


def owner_after(state: State, slot: int, opponent: int, dice: tuple[Die, ...]) -> int | None:
    """Who takes the tile in ``slot`` when ``opponent`` places ``dice`` on it one by one, as the
    rules resolve it (``None``: still on the table)."""
    before = len(state.won[opponent])
    for die in dice:
        turn = state.replace(to_move=opponent, rolled=True, roll_pending=False, hand=(die,),
                             opening=False)
        state = apply(turn, Place(die, slot))
    if state.row[slot - 1] is not None:
        return None
    return opponent if len(state.won[opponent]) > before else 1 - opponent


def claims(seeds: range) -> list[tuple[State, int]]:
    """Every (state, slot) of a few seeded games where the player to move has a full side and
    the opponent's is not full: a claim question, safe or not."""
    found = []
    for seed in seeds:
        policies = (greedy_player, random_player) if seed % 2 else (greedy_player, greedy_player)
        for state in played_states(policies, seed=seed):
            if state.is_chance or state.is_terminal:
                continue
            for number, tile in state.tiles_in_play():
                me = state.to_move
                if len(tile.side(me)) == 3 and len(tile.side(1 - me)) < 3:
                    found.append((state, number))
    found.extend(
        (p.state(), p.tile)
        for p in load_puzzles()
        if p.question == "claim" and p.tile is not None
    )
    return list(dict.fromkeys(found))  # each question once


CLAIMS = claims(range(60))


def test_the_claim_questions_cover_both_answers() -> None:
    verdicts = [claim_verdict_at(s, n).safe for s, n in CLAIMS]
    assert verdicts.count(True) > 20
    assert verdicts.count(False) > 100


@rules("LB-CLAIM-2", "LB-RESOLVE-1")
def test_an_unsafe_claim_draws_the_solvers_counterexample_and_it_beats_the_claim() -> None:
    checked = 0
    for state, slot in CLAIMS:
        verdict = claim_verdict_at(state, slot)
        if verdict.safe is not False:
            continue
        available = state.availability(slot)
        root = parse(verdict.svg(heading=f"slot {slot}", available=available))
        me = state.to_move
        tile = state.slot(slot)
        assert tile is not None
        assert verdict.witness is not None
        # The picture: the claim's dice, the opponent's, and the solver's counterexample.
        assert dice_drawn(root, "claim") == [str(d) for d in tile.side(me)]
        assert dice_drawn(root, "opponent") == [str(d) for d in tile.side(1 - me)]
        assert dice_drawn(root, "counterexample") == [str(d) for d in verdict.witness]
        assert root.find(f".//{NS}g[@data-status='unsafe']") is not None
        # The counterexample is real: the opponent can get those dice, and placing them makes
        # the rules give the tile to the opponent.
        wanted = colour_counts(verdict.witness)
        assert all(w <= a for w, a in zip(wanted, available, strict=True))
        assert owner_after(state, slot, 1 - me, verdict.witness) == 1 - me
        assert reference_key(tile.side(1 - me) + verdict.witness) > reference_key(tile.side(me))
        # The ASCII picture shows the same dice, the counterexample in brackets.
        text = verdict.ascii(available=available)
        line = next(x for x in text.splitlines() if x.startswith("counterexample"))
        assert [x.strip("[]") for x in line.split() if x.startswith("[")] == [
            str(d) for d in verdict.witness
        ]
        checked += 1
    assert checked > 100


@rules("LB-CLAIM-2", "LB-RESOLVE-1")
def test_a_safe_claim_says_why_with_the_opponents_best_completion_that_does_not_win() -> None:
    checked = 0
    for state, slot in CLAIMS:
        verdict = claim_verdict_at(state, slot)
        if verdict.safe is not True:
            continue
        available = state.availability(slot)
        root = parse(verdict.svg(available=available))
        me = state.to_move
        tile = state.slot(slot)
        assert tile is not None
        assert dice_drawn(root, "counterexample") == []
        assert root.find(f".//{NS}g[@data-status='safe']") is not None
        best = tuple(Die.parse(d) for d in dice_drawn(root, "best-completion"))
        words = " ".join(texts(root))
        text = verdict.ascii(available=available)
        assert "safe: " in text
        if not best:  # the opponent cannot fill the side
            assert "cannot fill their side" in words
            continue
        assert all(
            w <= a for w, a in zip(colour_counts(best), available, strict=True)
        )
        assert len(tile.side(1 - me)) + len(best) == 3
        assert owner_after(state, slot, 1 - me, best) == me
        assert f"their best completion, {format_dice(sorted(tile.side(1 - me) + best))}" in words
        assert f"their best completion, {format_dice(sorted(tile.side(1 - me) + best))}" in text
        checked += 1
    assert checked > 20


@rules("LB-CLAIM-2")
def test_an_unknown_claim_shows_its_reason() -> None:
    verdict = ClaimVerdict(
        safe=None, mine=parse_dice("k4 r5 b6"), theirs=parse_dice("g5 g6"), witness=None,
        backend="cpsat", note="the time limit ran out (0.001 s)",
    )
    root = parse(verdict._repr_svg_())
    assert root.find(f".//{NS}g[@data-status='unknown']") is not None
    assert dice_drawn(root, "counterexample") == []
    assert any("the time limit ran out (0.001 s)" in t for t in texts(root))
    assert "the time limit ran out (0.001 s)" in verdict.ascii()


def test_the_odds_chart_has_one_bar_per_outcome_with_its_exact_fraction() -> None:
    cases = [(parse_position(POSITION), 1), (parse_position(POSITION), 3)]
    cases += [
        (p.state(), p.tile)
        for p in load_puzzles()
        if p.question == "odds" and p.tile is not None
    ]
    for state, slot in cases:
        odds = completion_odds_at(state, slot)
        tile = state.slot(slot)
        assert tile is not None
        me = state.to_move
        expected = odds_by_colour_sequences(tile.side(me), tile.side(1 - me), state.bag)
        root = parse(odds.svg())
        bars = [g for g in root.iter(f"{NS}g") if g.get("class") == "bar"]
        assert len(bars) == 3
        labels = [next(iter(b.iter(f"{NS}text"))).text for b in bars]
        assert labels == [f"{name} {p}" for name, p in zip(("above", "equal", "below"),
                                                              expected, strict=True)]
        widths = [float(next(iter(b.iter(f"{NS}rect"))).get("width", "0")) for b in bars]
        top = max(expected)
        for width, p in zip(widths, expected, strict=True):
            assert width == pytest.approx(max(widths) * float(p / top), abs=0.05)
        assert dice_drawn(root, "opponent") == [str(d) for d in tile.side(1 - me)]
        lines = odds.ascii().splitlines()
        for name, p in zip(("above", "equal", "below"), expected, strict=True):
            assert any(line.startswith(f"{name} {p} ") for line in lines)


def _boards(frame: ET.Element) -> list[str]:
    """The dice a frame's board shows (the dice's titles)."""
    titles = [t.text or "" for t in frame.iter(f"{NS}title")]
    return sorted(t for t in titles if len(t) == 2)


@rules("LB-END-1")
def test_the_best_turn_draws_its_line_as_numbered_steps_each_board_after_it() -> None:
    start = parse_position(ENDGAME)
    result = best_turn(start)
    assert result.method == "exact"
    assert result.probability == 1
    root = parse(result.svg())
    steps = [g for g in root.iter(f"{NS}g") if g.get("class") == "step"]
    n = len(result.actions)
    assert n >= 2
    assert [g.get("data-step") for g in steps] == [str(k) for k in range(1, n + 1)]
    state = start
    for k, (action, step) in enumerate(zip(result.actions, steps, strict=True), start=1):
        state = apply(state, action)  # every step is legal, by the rules
        assert f"{k}. {action}" in texts(step)
        assert _boards(step) == sorted(str(d) for d in state.dice_on_tiles() + state.hand)
    title = root.find(f"{NS}title")
    assert title is not None
    assert "wins with probability 1" in (title.text or "")
    text = result.ascii()
    for k, action in enumerate(result.actions, start=1):
        assert f"  {k}. {action}" in text.splitlines()
    assert str(state) in text  # the board at the end of the line


def test_a_best_turn_without_its_start_is_a_numbered_list() -> None:
    result = dataclasses.replace(best_turn(parse_position(ENDGAME)), start=None)
    root = parse(result._repr_svg_())
    steps = [g for g in root.iter(f"{NS}g") if g.get("class") == "step"]
    assert [g.get("data-step") for g in steps] == [
        str(k) for k in range(1, len(result.actions) + 1)
    ]
    for step, action in zip(steps, result.actions, strict=True):
        assert str(action) in texts(step)


def test_an_unknown_best_turn_draws_its_reason_and_no_step() -> None:
    result = best_turn(parse_position(POSITION), node_limit=300, method="exact")
    assert result.is_unknown
    root = parse(result.svg())
    assert [g for g in root.iter(f"{NS}g") if g.get("class") == "step"] == []
    assert "node limit" in " ".join(texts(root))
    assert result.ascii() == f"unknown: {result.note}"


def test_every_state_and_result_type_displays_in_a_notebook() -> None:
    state = parse_position(POSITION)
    shown: list[object] = [
        state,
        banditos.initial_state(),
        claim_verdict_at(state, 1),
        claim_verdict_at(state, 1, proof="bag"),
        completion_odds_at(state, 1),
        best_turn(parse_position(ENDGAME)),
        best_turn(state, node_limit=300, samples=2),
        best_turn(state, node_limit=300, method="exact"),
    ]
    kinds = {type(x) for x in shown}
    assert kinds == {State, ClaimVerdict, CompletionOdds, BestTurn}
    for thing in shown:
        parse(thing._repr_svg_())  # type: ignore[attr-defined]


def test_str_of_a_state_is_its_ascii_picture_and_its_repr_evaluates_back() -> None:
    states = [s for seed in range(3) for s in played_states((greedy_player, greedy_player),
                                                             seed=seed)]
    for state in states:
        assert str(state) == state.ascii() == banditos.GAME.ascii(state)
        text = repr(state)
        assert "\n" not in text
        assert len(text) < 120
        assert text.startswith("parse_position(")
        assert eval(text, {"parse_position": banditos.parse_position}) == state


def test_odds_is_a_result_with_fractions_that_sum_to_one() -> None:
    odds = completion_odds_at(parse_position(POSITION), 1)
    assert odds.above + odds.equal + odds.below == Fraction(1)


@pytest.mark.parametrize(
    ("argv", "code"),
    [
        (["claim", POSITION, "1"], 1),
        (["claim", POSITION, "1", "--proof", "bag"], 0),
        (["odds", POSITION, "1"], 0),
        (["best", ENDGAME], 0),
        (["best", POSITION, "--node-limit", "300", "--method", "exact"], 3),
    ],
)
def test_the_commands_write_their_answer_as_svg(
    tmp_path: Path, argv: list[str], code: int
) -> None:
    out = tmp_path / "answer.svg"
    result = run("banditos", *argv, "--svg", str(out))
    assert result.code == code
    assert result.err == ""
    root = parse(out.read_text(encoding="utf-8"))
    plain = run("banditos", *argv)
    assert plain.out == result.out  # the picture is written beside the same text
    if argv[0] == "claim" and code == 1:
        assert dice_drawn(root, "counterexample") == ["g4"]
        assert "counterexample  g5 g6 [g4]" in result.out
    if argv[0] == "odds":
        assert len([g for g in root.iter(f"{NS}g") if g.get("class") == "bar"]) == 3
    if argv[0] == "best" and code == 0:
        assert [g.get("data-step") for g in root.iter(f"{NS}g") if g.get("class") == "step"]
        assert "  1. give 1" in result.lines


def test_the_svg_file_is_checked_before_any_work() -> None:
    result = run("banditos", "best", POSITION, "--svg", "")
    assert result.code == 2
    assert result.out == ""


def pictures() -> dict[str, str]:
    """The pictures committed under docs/pictures/, as the library draws them today."""
    state = parse_position(POSITION)
    verdict = claim_verdict_at(state, 1)
    return {
        "banditos-claim-unsafe.svg": verdict.svg(
            heading="slot 1 (strict proof, exact)", available=state.availability(1)
        ),
        "banditos-odds.svg": completion_odds_at(state, 1).svg(),
        "banditos-best.svg": best_turn(parse_position(ENDGAME)).svg(),
    }


@pytest.mark.parametrize("name", sorted(pictures()))
def test_the_committed_pictures_are_current(name: str) -> None:
    assert (PICTURES / name).read_text(encoding="utf-8") == pictures()[name], (
        f"docs/pictures/{name} is stale: regenerate with "
        "`python -m tests.banditos.test_answer_pictures`"
    )


if __name__ == "__main__":
    PICTURES.mkdir(exist_ok=True)
    for file, picture in pictures().items():
        (PICTURES / file).write_text(picture, encoding="utf-8")
        print(f"wrote docs/pictures/{file}")
