"""The solver commands of ``banditsolve banditos``: ``odds`` and ``best``, and the solver part
of ``demo``. Solver modules are imported only when a command runs."""

from __future__ import annotations

import argparse
from typing import Any

from banditsolve.banditos.cli import read_position_arg
from banditsolve.cli import emit


def cmd_odds(args: argparse.Namespace) -> int:
    from banditsolve.banditos.odds import completion_odds_at

    state = read_position_arg(args.position)
    odds = completion_odds_at(state, args.tile, args.player)
    emit(args, odds.explain(), {"tile": args.tile, **odds.to_json()})
    return 0


def cmd_best(args: argparse.Namespace) -> int:
    from banditsolve.banditos.endgame import best_turn

    state = read_position_arg(args.position)
    result = best_turn(
        state,
        limit_seconds=args.limit,
        node_limit=args.nodes,
        samples=args.samples,
        method=args.method,
        seed=args.seed,
    )
    emit(args, result.explain(), result.to_json())
    return 0


def register_solver_commands(commands: Any) -> None:
    """Add ``odds`` and ``best`` to the ``banditsolve banditos`` sub-commands."""
    odds = commands.add_parser(
        "odds", help="exact odds that the opponent's side, filled from the bag, beats yours"
    )
    odds.add_argument("position", metavar="POSITION", help="notation, JSON, or a file")
    odds.add_argument("tile", metavar="TILE", type=int, choices=(1, 2, 3, 4), help="slot 1-4")
    odds.add_argument(
        "--player", type=int, choices=(0, 1), help="whose full side (default: to move)"
    )
    odds.add_argument("--json", action="store_true", help="print JSON")
    odds.set_defaults(handler=cmd_odds)

    best = commands.add_parser("best", help="best play this turn and the chance of winning")
    best.add_argument("position", metavar="POSITION", help="notation, JSON, or a file")
    best.add_argument("--limit", type=float, default=30.0, metavar="SECONDS",
                      help="time limit (default 30 s); a cut search says so")
    best.add_argument("--nodes", type=int, default=50_000,
                      help="positions the exact search may visit before falling back")
    best.add_argument("--samples", type=int, default=100,
                      help="Monte Carlo playouts for the best candidates (sequential halving "
                      "gives weaker ones fewer)")
    best.add_argument("--method", choices=("auto", "exact", "monte-carlo"), default="auto")
    best.add_argument("--seed", type=int, default=0, help="seed of the Monte Carlo playouts")
    best.add_argument("--json", action="store_true", help="print JSON")
    best.set_defaults(handler=cmd_best)


def _picture(state: Any) -> str:
    try:
        from banditsolve.banditos.render import ascii_picture
    except ImportError:  # pragma: no cover
        from banditsolve.banditos.notation import format_position

        return str(format_position(state))
    return str(ascii_picture(state))


def demo_solvers() -> None:
    """Solve a few bundled puzzles, with pictures."""
    from banditsolve.banditos.claim import BACKENDS
    from banditsolve.banditos.endgame import best_turn
    from banditsolve.banditos.odds import completion_odds_at
    from banditsolve.banditos.puzzles import puzzle_by_id
    from banditsolve.banditos.rules import claim_verdict_at

    print("== Claim proofs: the same question on three engines")
    for pid in ("claim-third-one", "claim-sixes-need-bag", "claim-tie-is-enough"):
        puzzle = puzzle_by_id(pid)
        state = puzzle.state()
        assert puzzle.tile is not None
        print(f"\n-- {puzzle.id}: {puzzle.description}")
        print(_picture(state))
        for proof in ("strict", "bag"):
            verdicts = [
                claim_verdict_at(state, puzzle.tile, proof=proof, backend=b)
                for b in BACKENDS
            ]
            agree = "all three agree" if len({v.safe for v in verdicts}) == 1 else "DISAGREE"
            print(f"claim slot {puzzle.tile} under proof={proof}: {verdicts[0].explain()} "
                  f"[{agree}]")

    print("\n== Odds from the bag")
    puzzle = puzzle_by_id("odds-third-one")
    assert puzzle.tile is not None
    print(f"-- {puzzle.id}: {puzzle.description}")
    print(completion_odds_at(puzzle.state(), puzzle.tile).explain())

    print("\n== Best play")
    for pid in ("best-roll-for-the-six", "best-give-up-to-win"):
        puzzle = puzzle_by_id(pid)
        state = puzzle.state()
        print(f"\n-- {puzzle.id}: {puzzle.description}")
        print(_picture(state))
        print(best_turn(state, limit_seconds=30).explain())
