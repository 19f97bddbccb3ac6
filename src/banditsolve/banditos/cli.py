"""Command line for Los Banditos (``banditsolve banditos ...``).

A POSITION argument is the one-line notation, or a file holding it or its JSON form.
"""

from __future__ import annotations

import argparse
import json
import os
from importlib import import_module
from typing import Any

from banditsolve.cli import emit
from banditsolve.errors import IllegalActionError, NotationError


def read_position_arg(text: str) -> Any:
    """A position from the command line: a file (notation or JSON) or the notation itself."""
    from banditsolve.banditos.notation import read_position

    if os.path.isfile(text):
        with open(text, encoding="utf-8") as handle:
            content = handle.read()
        try:
            return read_position(content)
        except NotationError as exc:
            raise NotationError(f"{text}: {exc}") from None
    if os.path.isdir(text):
        raise NotationError(f"{text} is a directory, not a position file")
    if not text.strip().startswith("{") and len(text.split()) == 1:
        # Every position in the notation has spaces; one word can only be meant as a file.
        raise NotationError(f"no such file: {text} (and it is not a position in the notation)")
    return read_position(text)


def _options(proof: str | None) -> Any:
    from banditsolve.banditos.state import Options

    return Options() if proof is None else Options(proof=proof)  # type: ignore[arg-type]


def cmd_show(args: argparse.Namespace) -> int:
    from banditsolve.banditos.notation import to_json

    state = read_position_arg(args.position)
    if args.svg:
        with open(args.svg, "w", encoding="utf-8") as handle:
            handle.write(state.svg())
    emit(args, state.ascii(), to_json(state))
    return 0


def cmd_moves(args: argparse.Namespace) -> int:
    from banditsolve.banditos.rules import chance_outcomes, legal_actions

    state = read_position_arg(args.position)
    if state.is_chance:
        outcomes = chance_outcomes(state)
        text = "\n".join(f"{action}  p={p}" for action, p in outcomes)
        payload: Any = {
            "chance": True,
            "outcomes": [
                {"action": str(action), "probability": str(p)} for action, p in outcomes
            ],
        }
    else:
        actions = legal_actions(state)
        text = "\n".join(str(a) for a in actions) or (
            f"(no legal action: the game is over, player {state.winner} won)"
        )
        payload = {"chance": False, "actions": [str(a) for a in actions], "winner": state.winner}
    emit(args, text, payload)
    return 0


def cmd_apply(args: argparse.Namespace) -> int:
    from banditsolve.banditos.notation import to_json
    from banditsolve.banditos.rules import apply, parse_action

    state = read_position_arg(args.position)
    for number, text in enumerate(args.actions, start=1):
        try:
            state = apply(state, parse_action(text))
        except NotationError as exc:
            raise NotationError(f"action {number} ({text!r}): {exc}") from None
        except IllegalActionError as exc:
            raise IllegalActionError(f"action {number} ({text!r}): {exc}") from None
    emit(args, f"{state.notation()}\n\n{state.ascii()}", to_json(state))
    return 0


def cmd_claim(args: argparse.Namespace) -> int:
    from banditsolve.banditos.rules import claim_verdict_at

    state = read_position_arg(args.position)
    verdict = claim_verdict_at(
        state, args.tile, player=args.player, proof=args.proof, backend=args.backend
    )
    proof = args.proof or state.options.proof
    payload = {"tile": args.tile, "proof": proof, **verdict.to_json()}
    emit(args, f"slot {args.tile} ({proof} proof, {verdict.backend}): {verdict.explain()}", payload)
    return 0


def cmd_play(args: argparse.Namespace) -> int:
    from banditsolve.banditos.game import play
    from banditsolve.banditos.players import PLAYERS

    names = args.players.split(",")
    if len(names) != 2 or any(n not in PLAYERS for n in names):
        raise NotationError(
            f"--players takes two of {', '.join(PLAYERS)} separated by a comma, got "
            f"{args.players!r}"
        )
    players = (PLAYERS[names[0]], PLAYERS[names[1]])
    steps = list(play(players, seed=args.seed, options=_options(args.proof)))
    final = steps[-1].state
    if args.json:
        print(
            json.dumps(
                {
                    "seed": args.seed,
                    "players": names,
                    "steps": [
                        {"actor": s.actor, "action": str(s.action), "position": s.state.notation()}
                        for s in steps
                    ],
                    "winner": final.winner,
                    "scores": list(final.scores),
                },
                indent=2,
            )
        )
        return 0
    for number, step in enumerate(steps, start=1):
        who = "chance" if step.actor == "chance" else f"P{step.actor}"
        print(f"{number:4d}. {who:>6}: {step.action}")
    print()
    print(final.ascii())
    return 0


def cmd_demo(args: argparse.Namespace) -> int:
    from banditsolve.banditos import notation
    from banditsolve.banditos.rules import claim_verdict_at
    from banditsolve.banditos.state import ProofOption

    print("== Los Banditos: is this claim provably safe? ==\n")
    state = notation.parse_position(DEMO_POSITION)
    print(state.notation())
    print(state.ascii())
    proofs: tuple[ProofOption, ...] = ("strict", "bag")
    for slot in (1, 3, 4):
        for proof in proofs:
            verdict = claim_verdict_at(state, slot, proof=proof)
            print(f"slot {slot}, {proof:6} proof: {verdict.explain()}")
    print()
    import_module("banditsolve.banditos.solver_cli").demo_solvers()
    return 0


#: Slot 1 is safe only if the opponent is limited to the bag (no green die is left there);
#: slot 3 cannot be beaten; slot 4 falls to a colour three-of-a-kind.
DEMO_POSITION = "3:k4r5b6:g5g6/2:k1k1:g1g2g3/1:r6r6r6:g4/1:b2b2k3: 123 21:3 0a"


def _add_common(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--json", action="store_true", help="print JSON instead of text")


def register(games: Any) -> None:
    parser: argparse.ArgumentParser = games.add_parser(
        "banditos",
        help="Los Banditos: the dice duel",
        description="Los Banditos. POSITION is the one-line notation, or a file holding it or "
        "its JSON form.",
    )
    commands = parser.add_subparsers(dest="command", metavar="COMMAND")
    commands.required = True

    show = commands.add_parser("show", help="draw a position")
    show.add_argument("position", metavar="POSITION")
    show.add_argument("--svg", metavar="OUT", help="also write an SVG picture to OUT")
    _add_common(show)
    show.set_defaults(handler=cmd_show)

    moves = commands.add_parser("moves", help="list the legal actions (or chance outcomes)")
    moves.add_argument("position", metavar="POSITION")
    _add_common(moves)
    moves.set_defaults(handler=cmd_moves)

    apply_p = commands.add_parser("apply", help="apply actions and print the new position")
    apply_p.add_argument("position", metavar="POSITION")
    apply_p.add_argument("actions", nargs="+", metavar="ACTION", help="e.g. 'place r5 2'")
    _add_common(apply_p)
    apply_p.set_defaults(handler=cmd_apply)

    claim = commands.add_parser("claim", help="is a claim on a tile provably safe?")
    claim.add_argument("position", metavar="POSITION")
    claim.add_argument("tile", metavar="TILE", type=int, choices=(1, 2, 3, 4), help="slot 1-4")
    claim.add_argument(
        "--backend",
        choices=("exact", "cpsat", "z3"),
        default="exact",
        help="exact closed form (default), an OR-Tools CP-SAT model or a Z3 model",
    )
    claim.add_argument("--proof", choices=("strict", "bag"), help="override the proof option")
    claim.add_argument("--player", type=int, choices=(0, 1), help="claimant (default: to move)")
    _add_common(claim)
    claim.set_defaults(handler=cmd_claim)

    play = commands.add_parser("play", help="play a whole game between built-in players")
    play.add_argument("--seed", type=int, required=True)
    play.add_argument("--players", default="greedy,greedy", help="two of: greedy, random")
    play.add_argument("--proof", choices=("strict", "bag"))
    _add_common(play)
    play.set_defaults(handler=cmd_play)

    demo = commands.add_parser("demo", help="solve bundled positions and draw them")
    demo.set_defaults(handler=cmd_demo)

    import_module("banditsolve.banditos.solver_cli").register_solver_commands(commands)
