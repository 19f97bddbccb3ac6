"""Every rolling answer drawn (issue 28, items 1 and 2; RB-NOTE-4): the pictures parse, show the
answer the solver gave (a counterexample replayed by the rules really keeps the wagon from the
player), label their bars and number their steps; states and results display in Jupyter, and
``str`` / ``repr`` of a state are its picture and its notation."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from collections.abc import Sequence
from fractions import Fraction
from pathlib import Path

import pytest

from banditsolve.core.play import simulate
from banditsolve.rolling import parse_state
from banditsolve.rolling.actions import Ambush, Joker, Lay, parse_action
from banditsolve.rolling.cli import DEMO_UNSAFE
from banditsolve.rolling.game import GAME
from banditsolve.rolling.render import ascii_picture
from banditsolve.rolling.rules import apply
from banditsolve.rolling.solvers.montecarlo import win_chances
from banditsolve.rolling.solvers.safety import is_safe
from banditsolve.rolling.solvers.turn import best_turn, odds
from banditsolve.rolling.solvers.verdict import Safety
from banditsolve.rolling.state import State
from tests.cli_runner import run
from tests.rolling import cases
from tests.rules import rules

SVG = "{http://www.w3.org/2000/svg}"

#: Player 1 to move, one die to roll; player 0's H4 on wagon 2 (need 2) against R2 (the README's).
README_POSITION = (
    "rb ed=default n=2 phase=start turn=1 wagons=6 train=0:5/5L:-:-|M4,2:2/2:R:H4|R2,"
    "3:3/3:-:-|-,4:1/1:-:-|-,5:2/2:-:-|-,6:3/3:-:-|- won=-|1:2/2 trunks=-|-"
)
#: My six dice on wagon 5: the opponent can put at most five there (a proven bound).
SAFE_POSITION = (
    "rb ed=default n=2 phase=start turn=1 wagons=7 train=0:5/5L:-:-|-,1:2/2:-:-|-,"
    "2:3/3:-:-|-,3:4/4:-:-|-,4:1/1:-:-|-,5:2/2:-:R6|-,6:3/3:-:-|-,7:4/4:-:-|- "
    "won=-|- trunks=-|-"
)
#: Player 0 attacking with a mask, a horseshoe and a joker rolled.
ATTACK = (
    "rb ed=default n=2 phase=attack turn=0 wagons=2 train=0:5/5L:-:-|-,1:2/2:R:M1|H2,"
    "2:3/3:H:B1|S1 won=-|- trunks=-|- roll=MJS"
)


def _root(svg: str) -> ET.Element:
    root = ET.fromstring(svg)  # well formed, or this raises
    assert root.tag == f"{SVG}svg"
    return root


def _groups(root: ET.Element, cls: str) -> list[ET.Element]:
    return [g for g in root.iter(f"{SVG}g") if cls in (g.get("class") or "").split()]


def _texts(el: ET.Element) -> list[str]:
    return [t.text or "" for t in el.iter(f"{SVG}text")]


def _unsafe_cases() -> list[tuple[State, int, int]]:
    out = [(GAME.from_notation(DEMO_UNSAFE), 1, 0), (GAME.from_notation(README_POSITION), 2, 0)]
    for state, wagon, player in cases.built_cases(12, 5):
        if len(out) >= 6:
            break
        if is_safe(state, wagon, player, node_limit=4000).safe is False:
            out.append((state, wagon, player))
    return out


def _replay_steps(
    state: State, steps: list[ET.Element], line: Sequence[str]
) -> tuple[State, dict[int, set[str]]]:
    """Check each drawn step's words (its number, who played it, the solver's action) and replay
    the ``line`` by the rules from ``state``; the state reached, and the step numbers that lay
    on or swap each wagon."""
    s = state
    marked: dict[int, set[str]] = {}
    for g, text in zip(steps, line, strict=True):
        who = "chance" if s.is_chance else f"P{s.to_move}"
        action = parse_action(text)
        assert _texts(g) == [f"{g.get('data-step')}. {who}: {text}"]
        if isinstance(action, Lay | Joker):
            marked.setdefault(action.wagon, set()).add(g.get("data-step") or "")
        if isinstance(action, Ambush):
            for w in (action.a, action.b):
                marked.setdefault(w, set()).add(g.get("data-step") or "")
        s = apply(s, action)  # the rules accept every step
    return s, marked


@rules("RB-NOTE-4", "RB-SAFE-1")
def test_the_counterexample_drawn_is_the_solvers_and_really_keeps_the_wagon_away() -> None:
    for state, wagon, player in _unsafe_cases():
        verdict = is_safe(state, wagon, player, node_limit=4000)
        assert verdict.safe is False
        root = _root(verdict.svg())
        # the target wagon is framed
        assert [g.get("data-wagon") for g in _groups(root, "target")][:1] == [str(wagon)]
        # the steps 1..n, in order, are the solver's line, each with who played it
        steps = _groups(root, "step")
        assert [g.get("data-step") for g in steps] == [
            str(n) for n in range(1, len(verdict.counterexample) + 1)
        ]
        s, marked = _replay_steps(state, steps, verdict.counterexample)
        # replayed by the rules, the line ends with the player's turn begun (or the game over,
        # or the wagon gone) without the wagon in the player's hands
        assert s.is_terminal or s.to_move == player or s.wagon(wagon) is None
        assert not any(w.id == wagon for w in s.won[player])
        # every step that lays on a wagon or swaps it is numbered on that wagon
        marks = {int(g.get("data-wagon") or -1): set((g.get("data-steps") or "").split())
                 for g in _groups(root, "mark")}
        for w, numbers in marked.items():
            assert numbers <= marks[w], (w, numbers, marks)
        # the train after the line is drawn, with the wagon's fate
        assert len(_groups(root, "after")) == 1
        assert any(t.startswith(f"after step {len(steps)}:") for t in _texts(root))


@rules("RB-NOTE-4", "RB-SAFE-2")
def test_a_proven_safe_answer_says_why_on_the_train() -> None:
    verdict = is_safe(GAME.from_notation(SAFE_POSITION), 5, 0)
    assert verdict.safe is True
    root = _root(verdict.svg())
    words = " ".join(_texts(root))
    assert "yes:" in words
    assert "at most 5 dice" in words
    assert [g.get("data-wagon") for g in _groups(root, "target")] == ["5"]
    assert not _groups(root, "step")
    assert "at most 5 dice" in verdict.ascii()


@rules("RB-NOTE-4")
def test_an_unknown_answer_is_drawn_as_unknown() -> None:
    verdict = is_safe(GAME.from_notation(DEMO_UNSAFE), 1, 0, node_limit=2)
    assert verdict.safe is None
    root = _root(verdict.svg())
    assert any(t.startswith("unknown:") for t in _texts(root))
    assert not _groups(root, "step")


@rules("RB-NOTE-4", "RB-ODDS-1")
def test_odds_bars_are_labelled_with_their_question_and_chance() -> None:
    result = odds(GAME.from_notation(DEMO_UNSAFE))
    expected = (
        [(f"lay {k}", v) for k, v in result.lay.items()]
        + [(f"trunk of wagon {k}", v) for k, v in result.trunks.items()]
        + [(f"steal wagon {k}", v) for k, v in result.stealable.items()]
    )
    bars = _groups(_root(result.svg()), "bar")
    assert len(bars) == len(expected) == 5 + 2 + 3  # five symbols, two trunks, three wagons
    for bar, (label, value) in zip(bars, expected, strict=True):
        texts = _texts(bar)
        assert texts[0] == label
        assert texts[-1] == f"{100 * float(Fraction(value)):.1f} %"
    art = result.ascii()
    for label, value in expected:
        line = next(x for x in art.splitlines() if x.startswith(label + " "))
        assert line.endswith(f"{100 * float(Fraction(value)):.1f} %")


@rules("RB-NOTE-4", "RB-BEST-1")
def test_the_best_turn_is_numbered_steps_under_its_value() -> None:
    state = GAME.from_notation(ATTACK)
    result = best_turn(state)
    assert result.value is not None
    assert result.plan
    root = _root(result.svg())
    title = root.find(f"{SVG}title")
    assert title is not None
    assert str(result.value) in (title.text or "")
    steps = _groups(root, "step")
    assert [g.get("data-step") for g in steps] == [
        str(n) for n in range(1, len(result.plan) + 1)
    ]
    assert len(_groups(root, "start")) == 1  # the position before step 1
    s = state
    for g, action in zip(steps, result.plan, strict=True):
        caption = _texts(g)[-1]  # the frame's caption, under its train
        assert caption.startswith(f"{g.get('data-step')}. P0: {action}")
        s = apply(s, parse_action(action))
        # each frame draws the train after its step: a wagon per wagon of that position, and
        # the wagon the step laid on framed
        wagons = {w.get("data-wagon") for w in _groups(g, "wagon")}
        assert wagons == {str(c.id) for c in s.train}
        acted = {r.get("data-wagon") for r in g.iter(f"{SVG}rect") if r.get("class") == "acted"}
        laid = parse_action(action)
        assert acted == ({str(laid.wagon)} if isinstance(laid, Lay | Joker) else set())
    art = result.ascii()
    for n, action in enumerate(result.plan, 1):
        assert f"{n}. P0: {action}:" in art


@rules("RB-NOTE-4")
def test_every_state_and_result_displays_in_jupyter() -> None:
    _, steps = simulate(GAME, seed=4, players=3)
    states = [GAME.from_notation(DEMO_UNSAFE)]
    states += [s.state for s in steps[:: max(1, len(steps) // 8)]]
    for state in states:
        _root(state._repr_svg_())
    demo = GAME.from_notation(DEMO_UNSAFE)
    results: list[object] = [
        is_safe(demo, 1, 0),  # no
        is_safe(demo, 1, 0, node_limit=2),  # unknown
        is_safe(GAME.from_notation(SAFE_POSITION), 5, 0),  # yes
        odds(demo),
        odds(demo, node_limit=1),  # some odds unknown
        best_turn(GAME.from_notation(ATTACK)),
        best_turn(GAME.from_notation(ATTACK), node_limit=1),  # unknown
        win_chances(GAME.from_notation(ATTACK), samples=2),
    ]
    for result in results:
        svg = result._repr_svg_()  # type: ignore[attr-defined]
        _root(svg)
        assert isinstance(result.ascii(), str)  # type: ignore[attr-defined]
    assert isinstance(results[0], Safety)


@rules("RB-NOTE-3")
def test_str_is_the_ascii_picture_and_repr_reads_back() -> None:
    _start, steps = simulate(GAME, seed=6, players=2, options={"mercenaries": "on"})
    states = [GAME.from_notation(DEMO_UNSAFE), _start]
    states += [s.state for s in steps[:: max(1, len(steps) // 12)]] + [steps[-1].state]
    assert {"start", "attack", "over"} <= {s.phase for s in states}
    for state in states:
        assert str(state) == ascii_picture(state)
        text = repr(state)
        assert "\n" not in text
        assert re.fullmatch(r"parse_state\('rb [^']*'\)", text)
        assert eval(text, {"parse_state": parse_state}) == state
    # a value the notation cannot write (no options: a broken value) still has a one-line repr
    broken = states[0].replace(options=None)
    assert "\n" not in repr(broken)
    assert repr(broken).startswith("<Rolling Bandits State")


def test_cli_svg_on_every_query_writes_the_answer_drawn(tmp_path: Path) -> None:
    safe = tmp_path / "safe.svg"
    answer = run("rolling", "safe", README_POSITION, "2", "--svg", str(safe))
    assert answer.code == 1
    assert _groups(_root(safe.read_text()), "step")
    assert "1. P1: roll" in answer.out  # the same line, drawn in text
    odds_out = tmp_path / "odds.svg"
    assert run("rolling", "odds", DEMO_UNSAFE, "--svg", str(odds_out)).code == 0
    assert _groups(_root(odds_out.read_text()), "bar")
    best = tmp_path / "best.svg"
    drawn = run("rolling", "best", ATTACK, "--svg", str(best))
    assert drawn.code == 0
    assert _groups(_root(best.read_text()), "step")
    assert "1. P0: " in drawn.out


CAR = re.compile(r"\bcars?\b", re.IGNORECASE)


@pytest.mark.parametrize("verb", [(), ("safe",), ("odds",), ("best",), ("show",), ("apply",)])
def test_the_rolling_help_never_says_car(verb: tuple[str, ...]) -> None:
    result = run("rolling", *verb, "--help")
    assert result.code == 0
    assert "wagon" in result.out or verb not in ((), ("safe",))
    assert not CAR.search(result.out), CAR.findall(result.out)


def test_answers_never_say_car() -> None:
    demo = GAME.from_notation(DEMO_UNSAFE)
    texts = [
        is_safe(demo, 1, 0).explain(),
        is_safe(demo, 1, 0, node_limit=2).explain(),
        is_safe(GAME.from_notation(SAFE_POSITION), 5, 0).explain(),
        is_safe(demo, 1, 0, backend="cpsat").explain(),
        odds(demo).explain(),
        best_turn(GAME.from_notation(ATTACK)).explain(),
        run("rolling", "safe", DEMO_UNSAFE, "2", "--player", "0").err,  # refused
        run("rolling", "safe", DEMO_UNSAFE, "7", "--player", "0").err,  # not on the train
    ]
    for text in texts:
        assert text
        assert not CAR.search(text), text


#: The committed pictures of docs/pictures/ and the answers they draw.
DOCS = Path(__file__).resolve().parents[2] / "docs" / "pictures"
BEST_POSITION = (
    "rb ed=default n=2 phase=attack turn=0 wagons=3 train=0:5/5L:-:-|-,1:2/2:R:M1|H2,"
    "2:3/3:H:B1|S1,3:2/2:S:-|- won=-|- trunks=-|- roll=MMSJJ"
)


@pytest.mark.parametrize(
    ("name", "draw"),
    [
        ("rolling-safe-counterexample.svg",
         lambda: is_safe(GAME.from_notation(README_POSITION), 2).svg()),
        ("rolling-odds.svg", lambda: odds(GAME.from_notation(DEMO_UNSAFE)).svg()),
        ("rolling-best.svg", lambda: best_turn(GAME.from_notation(BEST_POSITION)).svg()),
    ],
)
def test_the_pictures_in_docs_are_what_the_library_draws(name: str, draw: object) -> None:
    assert callable(draw)
    assert (DOCS / name).read_text(encoding="utf-8") == draw(), (
        f"regenerate docs/pictures/{name} (see the test's answers)"
    )
