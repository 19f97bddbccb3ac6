"""The game object: notation, JSON, pictures, whole games, the command line (RB-NOTE-*)."""

from __future__ import annotations

import json
import random
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

import banditsolve
from banditsolve.core.play import resolve_policies, simulate
from banditsolve.errors import NotationError, RuleOptionError
from banditsolve.rolling.game import GAME
from banditsolve.rolling.rules import legal_actions
from banditsolve.rolling.state import State
from tests.cli_runner import run
from tests.profiles import scaled
from tests.rules import rules

SVG = "{http://www.w3.org/2000/svg}"

VARIANTS: list[tuple[int, dict[str, object]]] = [
    (2, {}),
    (3, {}),
    (4, {}),
    (2, {"mercenaries": "on"}),
    (3, {"jokers": "together", "trunk_count": "exactly", "front": "behind", "cut": "rear_back",
         "restart": "any", "keep": "must_join", "theft_trunk": "discard",
         "trunk_jokers": "natural", "locomotive": "last"}),
]


@rules("RB-NOTE-1")
@pytest.mark.parametrize(("players", "options"), VARIANTS)
def test_round_trips_over_whole_games(players: int, options: dict[str, object]) -> None:
    for seed in range(scaled(1, 5)):
        for policy in ("random", "greedy"):
            start, steps = simulate(GAME, seed=seed, players=players, options=options,
                                    policies=resolve_policies(GAME, [policy], players))
            assert GAME.outcome(steps[-1].state) is not None
            prev = start
            rng = random.Random(seed)
            for step in steps:
                s = step.state
                assert GAME.from_notation(GAME.to_notation(s)) == s
                assert GAME.from_json(json.loads(json.dumps(GAME.to_json(s)))) == s
                assert GAME.parse_action(prev, GAME.action_text(prev, step.action)) == step.action
                if rng.random() < 0.05:
                    for a in legal_actions(s)[:50]:
                        assert GAME.parse_action(s, str(a)) == a
                prev = s


@rules("RB-NOTE-2")
@pytest.mark.parametrize(
    "text",
    [
        "",
        "rb",
        "xx ed=default",
        "rb ed=default n=5 phase=start turn=0 wagons=1 train=-- won=-|- trunks=-|-",
        "rb ed=nope n=2 phase=start turn=0 wagons=1 train=0:5/5L:-:-|- won=-|- trunks=-|-",
        "rb ed=default n=2 phase=start turn=0 wagons=2 train=0:5/5L:-:-|-,1:1/1:R:R1|-,"
        "2:1/1:R:R1|- won=-|- trunks=-|-",
        "rb ed=default n=2 phase=start turn=0 wagons=2 train=0:5/5L:-:R1|-,1:1/1:R:-|-,"
        "2:1/1:R:M1|- won=-|- trunks=-|-",
        "rb ed=default n=2 phase=start turn=0 wagons=1 train=0:5/5L:-:R9|-,1:1/1:R:-|- "
        "won=-|- trunks=-|-",
        '{"game": "rolling"}',
        "[1, 2]",
    ],
)
def test_bad_positions_are_refused(text: str) -> None:
    with pytest.raises(NotationError) as exc:
        GAME.read_state(text)
    assert "\n" not in str(exc.value)
    assert len(str(exc.value)) < 300


@rules("RB-NOTE-2")
def test_a_bad_position_file_is_refused_naming_the_file(tmp_path: Path) -> None:
    too_many = (
        "rb ed=default n=2 phase=start turn=0 wagons=1 train=0:5/5L:-:R9|-,1:1/1:R:-|- "
        "won=-|- trunks=-|-"
    )
    text = tmp_path / "bad.txt"
    text.write_text(too_many + "\n", encoding="utf-8")
    with pytest.raises(NotationError) as exc:
        GAME.read_state(text)
    assert str(exc.value) == f"{text}: position: player 0 has more than 7 hoard dice (RB-SETUP-3)"
    doc = GAME.to_json(GAME.new_game(2, seed=1))
    doc["players"] = 3
    js = tmp_path / "bad.json"
    js.write_text(json.dumps(doc), encoding="utf-8")
    with pytest.raises(NotationError, match=r"^\S*bad\.json: JSON position: "):
        GAME.read_state(str(js))
    two = tmp_path / "two.txt"
    two.write_text(f"{GAME.to_notation(GAME.new_game(2, seed=1))}\nrb\n", encoding="utf-8")
    with pytest.raises(NotationError, match=r"two\.txt: a Rolling Bandits position is one line"):
        GAME.read_state(two)


@rules("RB-NOTE-2")
def test_a_bad_wagon_in_json_is_named_by_its_number_and_its_place_in_the_train() -> None:
    doc = GAME.to_json(GAME.new_game(2, seed=1))
    doc["train"][0]["trunk"] = "banana"  # the locomotive: wagon 0, first in the list
    with pytest.raises(NotationError, match=r"^JSON position: train\[0\] \(wagon 0\): trunk "):
        GAME.read_state(json.dumps(doc))
    doc = GAME.to_json(GAME.new_game(2, seed=1))
    doc["train"][2]["groups"][1] = {"symbol": "hat", "bandits": -1, "mercs": 0, "natural": 0}
    with pytest.raises(
        NotationError, match=r"^JSON position: train\[2\] \(wagon 2\): group of player 1: bandits"
    ):
        GAME.read_state(json.dumps(doc))


@rules("RB-NOTE-2")
def test_a_bad_number_or_phase_is_named_for_what_it_is() -> None:
    text = GAME.to_notation(GAME.new_game(2, seed=1))
    with pytest.raises(NotationError, match=r"^turn: '-1' is below 0$"):
        GAME.read_state(text.replace("turn=0", "turn=-1"))
    with pytest.raises(NotationError, match=r"^turn: 'x' is not a whole number$"):
        GAME.read_state(text.replace("turn=0", "turn=x"))
    with pytest.raises(NotationError, match=r": 1 group for 2 players$"):
        GAME.read_state(text.replace("|-,", ",", 1))
    doc = GAME.to_json(GAME.new_game(2, seed=1))
    with pytest.raises(NotationError, match=r"^JSON position: phase must be text, not a number$"):
        GAME.read_state(json.dumps({**doc, "phase": 3}))
    with pytest.raises(NotationError, match=r"phase must be one of .*, not 'rolling'$"):
        GAME.read_state(json.dumps({**doc, "phase": "rolling"}))


@rules("RB-NOTE-2")
def test_bad_actions_and_options() -> None:
    state = GAME.new_game(2, seed=1)
    for bad in ("", "lay J@1", "fly", "roll +x", "open R2z"):
        with pytest.raises(NotationError):
            GAME.parse_action(state, bad)
    with pytest.raises(RuleOptionError):
        GAME.new_game(2, {"jokers": "maybe"})
    with pytest.raises(RuleOptionError):
        GAME.new_game(2, {"colour": "red"})
    with pytest.raises(RuleOptionError):
        GAME.new_game(5)


@rules("RB-NOTE-3")
def test_pictures() -> None:
    _start, steps = simulate(GAME, seed=2, players=3)
    mid = steps[len(steps) // 3].state
    text = GAME.ascii(mid)
    for wagon in mid.train:  # one label form for a wagon, in text and picture: "wagon 2"
        assert f"wagon {wagon.id}" in text
    svg = GAME.svg(mid)
    assert svg.startswith("<svg")
    assert "steals" in svg
    assert "#c62828" in svg
    for wagon in mid.train:
        assert f"wagon {wagon.id}" in svg


@rules("RB-NOTE-1")
def test_registry_and_cli_play() -> None:
    assert "rolling" in banditsolve.games()
    assert banditsolve.load_game("rb") is GAME
    for players in ("2", "3", "4"):
        result = run("rolling", "play", "--seed", "3", "--players", players, "--json")
        assert result.code == 0, result.err
        doc = json.loads(result.out)
        assert doc["game"] == "rolling"
        assert doc["steps"]
    merc = run("rolling", "play", "--seed", "3", "--players", "2", "--option",
               "mercenaries=on", "--json")
    assert merc.code == 0, merc.err


@rules("RB-SAFE-1", "RB-ODDS-1", "RB-BEST-1")
def test_cli_questions() -> None:
    from banditsolve.rolling.cli import DEMO_UNSAFE

    no = run("rolling", "safe", DEMO_UNSAFE, "1", "--player", "0", "--json")
    assert no.code == 1
    assert json.loads(no.out)["answer"] == "unsafe"
    unknown = run("rolling", "safe", DEMO_UNSAFE, "1", "--node-limit", "2")
    assert unknown.code == 3
    odds = run("rolling", "odds", DEMO_UNSAFE, "--json")
    assert odds.code == 0
    assert json.loads(odds.out)["question"] == "odds"
    attack = (
        "rb ed=default n=2 phase=attack turn=0 wagons=2 train=0:5/5L:-:-|-,1:2/2:R:M1|H2,"
        "2:3/3:H:B1|S1 won=-|- trunks=-|- roll=MJS"
    )
    best = run("rolling", "best", attack, "--json")
    assert best.code == 0
    assert json.loads(best.out)["status"] == "yes"
    bad = run("rolling", "safe", "rb nonsense", "1")
    assert bad.code == 2
    assert bad.err.count("\n") == 1


@rules("RB-SAFE-3")
def test_cli_safe_backends() -> None:
    from banditsolve.rolling.cli import DEMO_UNSAFE

    safe = (
        "rb ed=default n=2 phase=start turn=1 wagons=4 train=0:5/5L:-:-|-,1:2/2:-:R5|-,"
        "2:3/3:-:-|-,3:4/4:-:-|-,4:1/1:-:-|- won=-|- trunks=-|-"
    )
    for backend in ("exact", "cpsat", "z3", "auto"):  # plain needs minutes for this proof
        yes = run("rolling", "safe", safe, "1", "--backend", backend, "--json")
        assert yes.code == 0, (backend, yes.err)
        assert json.loads(yes.out)["stats"]["method"] == ("exact" if backend == "auto" else backend)
    unsafe = safe.replace("1:2/2:-:R5|-", "1:2/2:-:R3|-")
    no = run("rolling", "safe", unsafe, "1", "--backend", "cpsat", "--workers", "2", "--json")
    assert no.code == 1
    assert json.loads(no.out)["certificate"][0] == "roll"
    assert run("rolling", "safe", unsafe, "1", "--backend", "plain").code == 1
    trunk = run("rolling", "safe", DEMO_UNSAFE, "1", "--backend", "z3", "--json")  # W's trunk
    assert trunk.code == 1, trunk.err
    # Any counterexample will do (the model may find another line from run to run): it must be
    # a legal line after which player 0's next turn begins without wagon 1 taken by player 0.
    state = GAME.read_state(DEMO_UNSAFE)
    for text in json.loads(trunk.out)["certificate"]:
        state = GAME.apply(state, GAME.parse_action(state, text))
    assert state.is_terminal or state.to_move == 0 or state.wagon(1) is None
    assert not any(w.id == 1 for w in state.won[0])
    # the mercenary variant with no mercenary in reserve: seven dice cannot reach wagon 1
    merc = safe.replace(" won=", " opt=mercenaries:on won=")
    assert run("rolling", "safe", merc, "1", "--backend", "cpsat").code == 0
    # with a hat trunk on wagon 1 a line with an outright theft elsewhere is not settled
    hat = merc.replace("1:2/2:-:R5|-", "1:2/2:H:R5|-")
    unknown = run("rolling", "safe", hat, "1", "--backend", "cpsat", "--json")
    assert unknown.code == 3
    assert "outright theft" in json.loads(unknown.out)["reason"]


@rules("RB-NOTE-3")
def test_svg_draws_a_shape_per_symbol() -> None:
    import xml.etree.ElementTree as ET

    state = GAME.from_notation(
        "rb ed=default n=2 phase=start turn=1 wagons=5 train=0:5/5L:-:-|-,1:2/2:-:R1|-,"
        "2:3/3:-:M1|-,3:3/3:-:H1|-,4:2/2:-:B1|S1,5:1/1:-:-|- won=-|- trunks=-|-"
    )
    root = ET.fromstring(GAME.svg(state))
    ns = "{http://www.w3.org/2000/svg}"
    dice = [g for g in root.iter(f"{ns}g") if "die" in (g.get("class") or "").split()]
    kinds = {g.get("class", "").split()[1] for g in dice}
    assert kinds == {f"die-{s}" for s in ("revolver", "mask", "hat", "boot", "horseshoe")}
    shapes = {g.get("class"): sorted(child.tag.removeprefix(ns) for child in g) for g in dice}
    assert shapes["die die-revolver"] == ["circle", "rect", "rect", "title"]
    assert shapes["die die-horseshoe"] == ["path", "rect", "title"]
    assert "polygon" in shapes["die die-boot"]
    assert len({tuple(v) for v in shapes.values()}) == 5  # five different drawings


@rules("RB-NOTE-3", "RB-SAFE-1")
def test_cli_queries_write_pictures(tmp_path: Path) -> None:
    from banditsolve.rolling.cli import DEMO_UNSAFE

    out = tmp_path / "pics" / "safe.svg"
    (tmp_path / "pics").mkdir()
    answer = run("rolling", "safe", DEMO_UNSAFE, "1", "--svg", str(out), "--json")
    assert answer.code == 1
    line = json.loads(answer.out)["certificate"]
    # the picture is the answer's: the line's steps listed in order, and no second file
    root = ET.fromstring(out.read_text())
    steps = [g.get("data-step") for g in root.iter(f"{SVG}g") if g.get("class") == "step"]
    assert steps == [str(n) for n in range(1, len(line) + 1)]
    assert list((tmp_path / "pics").iterdir()) == [out]
    odds = tmp_path / "odds.svg"
    assert run("rolling", "odds", DEMO_UNSAFE, "--svg", str(odds)).code == 0
    bars = [g for g in ET.parse(odds).getroot().iter(f"{SVG}g") if g.get("class") == "bar"]
    assert bars
    attack = (
        "rb ed=default n=2 phase=attack turn=0 wagons=2 train=0:5/5L:-:-|-,1:2/2:R:M1|H2,"
        "2:3/3:H:B1|S1 won=-|- trunks=-|- roll=MJS"
    )
    assert run("rolling", "best", attack, "--svg", str(tmp_path)).code == 2  # a folder


#: The README's Rolling Bandits example: player 1 to move, one die to roll (six on the train:
#: four masks on the locomotive, which needs five, and two revolvers on wagon 2); wagon 1 is theirs.
README_POSITION = (
    "rb ed=default n=2 phase=start turn=1 wagons=6 train=0:5/5L:-:-|M4,2:2/2:R:H4|R2,"
    "3:3/3:-:-|-,4:1/1:-:-|-,5:2/2:-:-|-,6:3/3:-:-|- won=-|1:2/2 trunks=-|-"
)


@rules("RB-ODDS-1")
def test_cli_odds_at_least_zero_is_certain_for_every_symbol() -> None:
    answer = run("rolling", "odds", README_POSITION, "--at-least", "0", "--json")
    assert answer.code == 0
    lay = json.loads(answer.out)["details"]["lay_at_least"]
    assert lay == {f"0+ {s}": "1" for s in "RMHBS"}
    # one die: R or a joker joins the revolvers, M or a joker the masks on the locomotive; H, B,
    # S would start a group in front of the gang, but the gang holds the locomotive and nothing
    # is in front of it (option front=keep): never
    one = json.loads(run("rolling", "odds", README_POSITION, "--at-least", "1", "--json").out)
    assert one["details"]["lay_at_least"] == {
        "1+ R": "1/3", "1+ M": "1/3", "1+ H": "0", "1+ B": "0", "1+ S": "0"
    }
    bad = run("rolling", "odds", README_POSITION, "--at-least", "-1")
    assert bad.code == 2
    assert bad.out == ""
    assert len(bad.err.splitlines()) == 1
    assert "--at-least" in bad.err


@rules("RB-SAFE-4")
@pytest.mark.parametrize("backend", ["exact", "cpsat", "z3", "auto"])
def test_cli_safe_refuses_plain_with_another_backend(backend: str) -> None:
    answer = run("rolling", "safe", README_POSITION, "2", "--plain", "--backend", backend)
    assert answer.code == 2
    assert answer.out == ""
    assert answer.err.startswith("banditsolve: error: ")
    assert len(answer.err.splitlines()) == 1
    assert "--plain" in answer.err
    assert f"--backend {backend}" in answer.err
    # the same flag twice is no clash: the plain enumeration finds the README's lost wagon
    same = run("rolling", "safe", README_POSITION, "2", "--plain", "--backend", "plain")
    assert same.code == 1
    assert "can be lost" in same.out


@rules("RB-SAFE-4")
def test_is_safe_refuses_share_false_with_another_backend() -> None:
    from banditsolve.errors import SolverError
    from banditsolve.rolling.solvers.safety import is_safe

    state = GAME.from_notation(README_POSITION)
    with pytest.raises(SolverError, match="clashes with backend 'cpsat'"):
        is_safe(state, 2, share=False, backend="cpsat")
    assert is_safe(state, 2, share=False, backend="plain").method == "plain"


def _write_edition(path: Path) -> None:
    """A small edition: four dice per colour, a 3-bandit locomotive worth 4."""
    path.write_text(
        json.dumps(
            {
                "name": "four-dice",
                "dice_per_colour": 4,
                "locomotive": {"need": 3, "points": 4},
                "wagons": [{"need": 1, "points": 1, "count": 7},
                           {"need": 2, "points": 3, "count": 2}],
                "trunks": [{"symbol": "revolver", "value": 1, "content": "nothing", "count": 9}],
            }
        ),
        encoding="utf-8",
    )


#: Player 0 leads wagon 2 with H4 against player 1's R2; player 1 has three dice on the train.
EDITION_POSITION = (
    "rb ed={ed} n=2 phase=start turn=1 wagons=3 train=0:{loco}L:-:-|-,1:2/{w1}:-:-|M1,"
    "2:1/1:-:H4|R2,3:1/1:-:-|- won=-|- trunks=-|-"
)


@rules("RB-COMP-6", "RB-NOTE-1")
def test_cli_reads_an_edition_file_named_in_the_position(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from banditsolve.rolling.edition import load_edition

    ed = tmp_path / "four.json"
    _write_edition(ed)
    mine = EDITION_POSITION.format(ed=ed, loco="3/4", w1="3")
    default = EDITION_POSITION.format(ed="default", loco="5/5", w1="2")
    # four dice a colour: even taking everything back, player 1 starts on wagon 3 and has at most
    # three dice for wagon 2 against H4: safe; with the default edition's seven they have six
    assert run("rolling", "safe", mine, "2").code == 0
    assert run("rolling", "safe", default, "2").code == 1
    rolled = run("rolling", "apply", mine, "roll")
    assert rolled.code == 0
    assert "air=1/0" in rolled.out
    # what apply prints names the same file, so the next command reads it back
    after = rolled.out.splitlines()[0]
    assert f"ed={ed} " in after
    assert run("rolling", "moves", after).lines == [
        f"rolled {f}  p=1/6" for f in "RMHBSJ"
    ]
    # the same answer as the library's own way: load the file, name the edition
    from banditsolve.rolling.solvers.safety import is_safe

    state = GAME.read_state(mine)
    named = GAME.with_edition(load_edition(ed)).read_state(
        EDITION_POSITION.format(ed="four-dice", loco="3/4", w1="3")
    )
    assert is_safe(state, 2).safe is is_safe(named, 2).safe is True
    assert GAME.from_json(json.loads(json.dumps(GAME.to_json(state)))) == state
    # a relative path is read from the current directory
    monkeypatch.chdir(tmp_path)
    assert run("rolling", "safe", mine.replace(f"ed={ed}", "ed=./four.json"), "2").code == 0


@rules("RB-COMP-6", "RB-NOTE-2")
def test_library_readers_open_no_file_a_position_names_unless_allowed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Reading a position from elsewhere never opens a file it names, until a program allows
    it (the command line does); a file loaded by the program itself is named as an edition."""
    from banditsolve.errors import BanditsolveError
    from banditsolve.rolling import edition

    ed = tmp_path / "four.json"
    _write_edition(ed)
    mine = EDITION_POSITION.format(ed=ed, loco="3/4", w1="3")
    monkeypatch.setitem(edition._FILES, "allowed", False)
    monkeypatch.setattr(edition, "_KNOWN", {})
    with pytest.raises(BanditsolveError, match="names a file"):
        GAME.from_notation(mine)
    with pytest.raises(BanditsolveError, match="names a file"):
        GAME.from_json({**GAME.to_json(GAME.new_game(2, seed=1)), "edition": "/etc/passwd"})
    edition.allow_edition_files()
    assert GAME.from_notation(mine).edition == str(ed)


@rules("RB-COMP-6", "RB-NOTE-2")
def test_cli_refuses_a_missing_or_bad_edition_file(tmp_path: Path) -> None:
    missing = EDITION_POSITION.format(ed=tmp_path / "nope.json", loco="3/4", w1="3")
    bad_file = tmp_path / "bad.json"
    bad_file.write_text('{"name": "bad", "locomotive": {"need": 3, "points": 4}, '
                        '"wagons": [], "trunks": []}', encoding="utf-8")
    bad = EDITION_POSITION.format(ed=bad_file, loco="3/4", w1="3")
    unknown = EDITION_POSITION.format(ed="four-dice-x", loco="3/4", w1="3")
    folder = EDITION_POSITION.format(ed=tmp_path, loco="3/4", w1="3")
    for position, words in (
        (missing, ("nope.json", "no such file")),
        (folder, (tmp_path.name, "a folder, not a file")),
        (bad, ("bad.json", "wagons must be a non-empty list")),
        (unknown, ("unknown edition", "path of its JSON file")),
    ):
        answer = run("rolling", "safe", position, "2")
        assert answer.code == 2
        assert answer.out == ""
        assert len(answer.err.splitlines()) == 1
        for word in words:
            assert word in answer.err


def _text_boxes(svg: str) -> tuple[float, float, list[tuple[str, float, float, float, float]]]:
    """The canvas size and every text's box (text, left, top, right, bottom), with a generous
    width per character (0.65 em; the average sans-serif letter is about 0.55 em), the full font
    size above the baseline and a quarter of it below."""
    import xml.etree.ElementTree as ET

    root = ET.fromstring(svg)
    ns = "{http://www.w3.org/2000/svg}"
    boxes = []
    for t in root.iter(f"{ns}text"):
        text = t.text or ""
        size = float(t.get("font-size", "16"))
        x, y = float(t.get("x", "0")), float(t.get("y", "0"))
        width = len(text) * 0.65 * size
        anchor = t.get("text-anchor", "start")
        left = x - (width / 2 if anchor == "middle" else width if anchor == "end" else 0)
        boxes.append((text, left, y - size, left + width, y + 0.25 * size))
    return float(root.get("width", "0")), float(root.get("height", "0")), boxes


def _svg_states() -> list[State]:
    from banditsolve.rolling.cli import DEMO_UNSAFE
    from banditsolve.rolling.edition import parse_edition

    states: list[State] = [GAME.from_notation(DEMO_UNSAFE), GAME.from_notation(README_POSITION)]
    big = GAME.with_edition(parse_edition({
        "name": "big-numbers",
        "dice_per_colour": 12,
        "locomotive": {"need": 99, "points": 99},
        "wagons": [{"need": 99, "points": 99, "count": 30}],
        "trunks": [{"symbol": "horseshoe", "value": 9, "content": "nothing", "count": 30}],
    }))
    states.append(big.new_game(4, seed=3))
    for players, options in ((2, {"mercenaries": "on"}), (3, {}), (4, {})):
        _, steps = simulate(GAME, seed=players, players=players, options=options)
        states += [steps[i].state for i in range(0, len(steps), max(1, len(steps) // 6))]
    return states


@rules("RB-NOTE-3")
def test_svg_labels_never_overlap() -> None:
    for state in _svg_states():
        svg = GAME.svg(state)
        width, height, boxes = _text_boxes(svg)
        names = sorted(t for t, *_ in boxes if t.startswith("wagon "))
        assert names == sorted(f"wagon {c.id}" for c in state.train)
        for text, left, top, right, bottom in boxes:
            assert left >= 0, text
            assert right <= width, text
            assert top >= 0, text
            assert bottom <= height, text
        for i, (a, al, at, ar, ab) in enumerate(boxes):
            for b, bl, bt, br, bb in boxes[i + 1 :]:
                apart = ar <= bl or br <= al or ab <= bt or bb <= at
                assert apart, f"{a!r} overlaps {b!r} in {GAME.to_notation(state)}"
