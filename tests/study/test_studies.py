"""The shipped studies: their tasks (order, seeds, balance, validity) and a light import."""

from __future__ import annotations

import subprocess
import sys
from collections import Counter

import pytest

from banditsolve.core.registry import load_game
from banditsolve.study.catalog import STUDIES
from banditsolve.study.questions import columns, questions, run


@pytest.mark.parametrize("name", sorted(STUDIES))
def test_tasks_are_indexed_in_order_and_prefix_stable(name: str) -> None:
    spec = STUDIES[name]
    assert spec.name == name
    assert spec.title
    assert spec.description
    cycle = len(spec.cycle())
    long = list(spec.tasks(2 * cycle + 3, 5))
    assert [t.index for t in long] == list(range(2 * cycle + 3))
    assert list(spec.tasks(cycle + 1, 5)) == long[: cycle + 1]
    assert all(t.study == name for t in long)
    # Another study seed gives other seeds, nothing else.
    other = list(spec.tasks(cycle, 6))
    assert [t.seed for t in other] != [t.seed for t in long[:cycle]]
    assert [(t.game, t.options, t.params) for t in other] == [
        (t.game, t.options, t.params) for t in long[:cycle]
    ]


@pytest.mark.parametrize("name", sorted(STUDIES))
def test_each_setting_gets_its_weight_and_shares_seeds(name: str) -> None:
    """Every cycle holds each setting ``weight`` times; the k-th task of every setting has the
    same seed (settings are compared on the same deals)."""
    spec = STUDIES[name]
    settings = spec.settings()
    n = len(spec.cycle())
    tasks = list(spec.tasks(3 * n, 100))
    per: dict[str, list[int]] = {}
    for t in tasks:
        label = t.param("setting")
        assert isinstance(label, str)
        per.setdefault(label, []).append(t.seed)
    assert Counter({s.label: 3 * s.weight for s in settings}) == Counter(
        {k: len(v) for k, v in per.items()}
    )
    for seeds in per.values():
        assert seeds == list(range(100, 100 + len(seeds)))
    # The first cycle alone is balanced too.
    first = Counter(t.param("setting") for t in tasks[:n])
    assert first == Counter({s.label: s.weight for s in settings})


@pytest.mark.parametrize("name", sorted(STUDIES))
def test_every_setting_is_a_valid_game_and_question(name: str) -> None:
    for s in STUDIES[name].settings():
        assert s.question in questions(s.game)
        game = load_game(s.game)
        names = game.option_set.names()
        for option, value in s.options:
            assert value in names[option], (s.label, option)
        players = dict(s.params).get("players")
        assert players is None or isinstance(players, int)
        state = game.new_game(players, dict(s.options), seed=1)  # refuses a bad combination
        assert game.players(state) == (players or game.players(state))
        columns(s.question, s.game)


def test_the_option_settings_cover_every_reading_of_every_option() -> None:
    for name, game in (("bandido", "bandido"), ("rolling", "rolling"), ("banditos", "banditos"),
                       ("bandida", "bandida")):
        labels = {s.label for s in STUDIES[name].settings()}
        assert "option:default" in labels
        for option, values in load_game(game).option_set.names().items():
            for value in values[1:]:
                assert f"option:{option}={value}" in labels


@pytest.mark.parametrize("name", ["rolling", "bandido", "banditos-claims"])
def test_a_first_few_tasks_run_and_have_their_columns(name: str) -> None:
    spec = STUDIES[name]
    for task in spec.tasks(3, 0):
        row = run(task)
        assert list(row) == list(columns(task.question, task.game))
        assert row["setting"] == task.param("setting")


def test_importing_the_catalog_loads_no_heavy_library_and_no_game() -> None:
    code = (
        "import sys, banditsolve.study.catalog as c; c.STUDIES['rolling'].title; "
        "heavy = [m for m in sys.modules if m.split('.')[0] in "
        "('matplotlib', 'pyarrow', 'dask', 'distributed', 'ortools', 'z3') "
        "or m.startswith(('banditsolve.rolling', 'banditsolve.tunnels', 'banditsolve.banditos'))]; "
        "print(heavy)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"
