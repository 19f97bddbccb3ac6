"""``rolling safe`` refuses a wagon the player does not hold (issue 28, item 9; RB-SAFE-1).

A player holds a wagon when they would steal it if their turn began now (RB-STEAL-1): at least
its number of dice there and strictly more than every other player. Only such a wagon can be
"provably mine"; asking about any other one used to answer "can be lost".
"""

from __future__ import annotations

import pytest

from banditsolve.errors import BanditsolveError, SolverError
from banditsolve.rolling.game import GAME
from banditsolve.rolling.solvers.safety import is_safe
from tests.cli_runner import run
from tests.rules import rules

#: Player 1 to move. Wagon 1 (need 2): player 0 has 3, player 1 has 2: held by player 0.
#: Wagon 2 (need 3): player 0 has 1, player 1 has 2: held by nobody. Wagon 3 (need 2): a tie.
POSITION = (
    "rb ed=default n=2 phase=start turn=1 wagons=3 train=0:5/5L:-:-|-,1:2/2:R:M3|H2,"
    "2:3/3:H:B1|S2,3:2/2:-:R2|B2 won=-|- trunks=-|-"
)


@rules("RB-SAFE-1")
@pytest.mark.parametrize("wagon", [0, 2, 3])
def test_a_wagon_the_player_does_not_hold_is_refused(wagon: int) -> None:
    state = GAME.from_notation(POSITION)
    with pytest.raises(SolverError, match=rf"player 0 does not hold wagon {wagon}\b"):
        is_safe(state, wagon, 0)
    for backend in ("plain", "cpsat", "z3", "auto"):  # every backend asks the same question
        with pytest.raises(BanditsolveError, match=f"wagon {wagon}"):
            is_safe(state, wagon, 0, backend=backend)


@rules("RB-SAFE-1")
def test_a_held_wagon_is_still_answered() -> None:
    state = GAME.from_notation(POSITION)
    verdict = is_safe(state, 1, 0)
    assert verdict.safe is not None
    assert verdict.player == 0


def test_the_command_line_refuses_in_one_line_with_exit_2() -> None:
    result = run("rolling", "safe", POSITION, "2", "--player", "0")
    assert result.code == 2
    assert result.out == ""
    lines = result.err.strip().splitlines()
    assert len(lines) == 1, result.err
    assert "wagon 2" in lines[0]
    assert "player 0" in lines[0]
    assert "Traceback" not in result.err
    assert "can be lost" not in result.err
