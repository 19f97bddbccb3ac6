"""The shipped games' hooks are typed seams: mypy checks each game's ``cli`` and ``study``
modules against :class:`~banditsolve.core.hooks.CliHooks` and
:class:`~banditsolve.core.hooks.StudyHooks` (the assignments below fail the type check if a
module lacks a method or has it with another signature), and the registry loads exactly them."""

from __future__ import annotations

import banditsolve
import banditsolve.banditos.cli
import banditsolve.banditos.study
import banditsolve.rolling.cli
import banditsolve.rolling.study
import banditsolve.tunnels.cli
import banditsolve.tunnels.study
from banditsolve.banditos.actions import Action as BanditosAction
from banditsolve.banditos.state import State as BanditosState
from banditsolve.core.hooks import CliHooks, StudyHooks
from banditsolve.core.registry import load_cli, load_study
from banditsolve.rolling.actions import Action as RollingAction
from banditsolve.rolling.state import State as RollingState
from banditsolve.tunnels.state import Action as TunnelAction
from banditsolve.tunnels.state import GameState as TunnelState

CLI: dict[str, CliHooks] = {
    "banditos": banditsolve.banditos.cli,
    "bandido": banditsolve.tunnels.cli,
    "bandida": banditsolve.tunnels.cli,
    "rolling": banditsolve.rolling.cli,
}
BANDITOS_STUDY: StudyHooks[BanditosState, BanditosAction] = banditsolve.banditos.study
ROLLING_STUDY: StudyHooks[RollingState, RollingAction] = banditsolve.rolling.study
TUNNEL_STUDY: StudyHooks[TunnelState, TunnelAction] = banditsolve.tunnels.study


def test_the_registry_loads_the_checked_hooks_of_every_game() -> None:
    studies: dict[str, object] = {
        "banditos": BANDITOS_STUDY,
        "bandido": TUNNEL_STUDY,
        "bandida": TUNNEL_STUDY,
        "rolling": ROLLING_STUDY,
    }
    assert set(CLI) == set(banditsolve.games())
    for name in banditsolve.games():
        assert load_cli(name) is CLI[name]
        assert load_study(name) is studies[name]


def test_the_study_hooks_columns_are_the_keys_of_their_rows() -> None:
    from banditsolve.banditos.game import GAME as BANDITOS
    from banditsolve.core.play import simulate
    from banditsolve.rolling.game import GAME as ROLLING
    from banditsolve.tunnels.game import BANDIDA

    lb = simulate(BANDITOS, seed=1)[1][-1].state
    assert list(BANDITOS_STUDY.final_columns(lb, 2)) == list(BANDITOS_STUDY.columns())
    rb = simulate(ROLLING, seed=1)[1][-1].state
    assert list(ROLLING_STUDY.final_columns(rb, 2)) == list(ROLLING_STUDY.columns())
    ba = simulate(BANDIDA, seed=1)[1][-1].state
    assert list(TUNNEL_STUDY.final_columns(ba, 2)) == list(TUNNEL_STUDY.columns())
