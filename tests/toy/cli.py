"""The toy's own command: ``banditsolve nim best POSITION`` (the best take and its chance)."""

from __future__ import annotations

import argparse
from collections.abc import Iterator
from pathlib import Path

from banditsolve.core.answer import Answer, DemoItem
from banditsolve.core.flags import add_query, emit_answer, write_svg
from banditsolve.core.hooks import CommandTable
from banditsolve.errors import IllegalActionError


def register(commands: CommandTable) -> None:
    best = add_query(commands, "best", "the best take after the roll, with its chance of winning")
    best.set_defaults(handler=cmd_best)


def answer_for(text: str) -> Answer:
    from tests.toy.game import GAME
    from tests.toy.solver import best_take

    state = GAME.read_state(text)
    if state.is_over or state.is_chance:
        raise IllegalActionError("best asks about a player who has rolled")
    take, chance = best_take(state)
    return Answer("nim", "best", "yes", "best turn", f"{take}: wins with probability {chance}",
                  certificate=[str(take)], details={"chance": str(chance)})


def cmd_best(args: argparse.Namespace) -> int:
    return emit_answer(args, answer_for(args.position))


def demo(out_dir: Path, game: str) -> Iterator[DemoItem]:
    from tests.toy.game import GAME

    position = "nim pile=4 players=2 to_move=0 rolled=3 taker=1 start=10"
    answer = answer_for(position)
    picture = write_svg(out_dir / "best.svg", GAME.svg(GAME.from_notation(position)))
    yield DemoItem("the best take from four counters", answer.reason, answer, picture)
