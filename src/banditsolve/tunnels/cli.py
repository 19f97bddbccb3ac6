"""Command line for the tunnel games (``banditsolve bandido ...``).

Commands: ``show FILE [--svg OUT]``, ``moves FILE CARD``, ``play --seed N --players K
[--svg-dir DIR]``, ``close FILE [--max-cards N] [--minimum] [--backend B] [--bounds X0,Y0,X1,Y1]
[--node-limit N] [--workers N] [--svg OUT]``, ``solve FILE [--samples N]`` and ``demo``; each
takes ``--json``. FILE is a JSON position document, a file holding the one-line notation, or the
notation itself (``solve`` reads a JSON game document).
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any


def _add_common(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--json", action="store_true", help="print JSON instead of text")


def register(games: Any) -> None:
    parser: argparse.ArgumentParser = games.add_parser("bandido", help="Bandido: the tunnel game")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND")
    commands.required = True

    show = commands.add_parser("show", help="draw a position and list its exits")
    show.add_argument("file", metavar="FILE", help="position: JSON file, notation file or text")
    show.add_argument("--svg", metavar="OUT", help="also write an SVG picture to OUT")
    _add_common(show)
    show.set_defaults(handler=_show)

    moves = commands.add_parser("moves", help="legal placements of a card in a position")
    moves.add_argument("file", metavar="FILE", help="position: JSON file, notation file or text")
    moves.add_argument("card", metavar="CARD", help="card name, e.g. L+TL+BR")
    _add_common(moves)
    moves.set_defaults(handler=_moves)

    play = commands.add_parser("play", help="simulate a whole game with the built-in policy")
    play.add_argument("--seed", type=int, default=0, help="random seed (default 0)")
    play.add_argument("--players", type=int, default=2, help="1 to 4 players (default 2)")
    play.add_argument("--svg-dir", metavar="DIR", help="write one SVG picture per turn to DIR")
    play.add_argument(
        "--option",
        action="append",
        default=[],
        metavar="NAME=VALUE",
        help="rule option, e.g. pile_out=end, hole=illegal, super_side=super5",
    )
    _add_common(play)
    play.set_defaults(handler=_play)

    close = commands.add_parser("close", help="can the tunnel still close with these cards?")
    close.add_argument("file", metavar="FILE", help="position: JSON file, notation file or text")
    close.add_argument(
        "--max-cards", type=int, default=None, metavar="N", help="use at most N cards"
    )
    close.add_argument("--minimum", action="store_true", help="find the fewest cards")
    close.add_argument("--backend", default="auto", help="auto, exact, cpsat, z3 or plain")
    close.add_argument("--time-limit", type=float, default=10.0, help="seconds (default 10)")
    close.add_argument(
        "--bounds",
        metavar="X0,Y0,X1,Y1",
        default=None,
        help=(
            "play area: cards only on cells with X0 <= x <= X1 and Y0 <= y <= Y1 "
            "(write --bounds=-2,-3,3,1 when X0 is negative)"
        ),
    )
    close.add_argument(
        "--node-limit", type=int, default=None, metavar="N", help="stop the search after N nodes"
    )
    close.add_argument(
        "--workers",
        type=int,
        default=None,
        metavar="N",
        help="processes a long exact search may use (default: cores, at most 4; 1: no fork)",
    )
    close.add_argument("--svg", metavar="OUT", help="write a picture with the closing cards laid")
    _add_common(close)
    close.set_defaults(handler=_close)

    solve = commands.add_parser("solve", help="solve the whole game with everything known")
    solve.add_argument("file", metavar="FILE", help="game document (JSON)")
    solve.add_argument(
        "--time-limit",
        type=float,
        default=10.0,
        help="seconds in all, shared among the samples when cards are unseen (default 10)",
    )
    solve.add_argument("--samples", type=int, default=50, help="shuffles when cards are unseen")
    _add_common(solve)
    solve.set_defaults(handler=_solve)

    demo = commands.add_parser("demo", help="show bundled positions and a simulated game")
    _add_common(demo)
    demo.set_defaults(handler=_demo)


def _position_payload(position: Any) -> dict[str, Any]:
    from banditsolve.tunnels.notation import to_json, to_notation
    from banditsolve.tunnels.table import dead_exits

    table = position.table
    return {
        "position": to_json(position),
        "notation": to_notation(position),
        "exits": [{"x": e.x, "y": e.y, "side": "NESW"[e.side]} for e in sorted(table.exits)],
        "dead_exits": [
            {"x": d.exit.x, "y": d.exit.y, "side": "NESW"[d.exit.side], "reason": d.reason}
            for d in dead_exits(table, position.remaining)
        ],
    }


def _describe(position: Any) -> str:
    from banditsolve.tunnels.render import ascii_art
    from banditsolve.tunnels.table import dead_exits

    table = position.table
    dead = dead_exits(table, position.remaining)
    lines = [ascii_art(table, position.remaining)]
    lines.append(
        f"{len(table.history)} cards down, {len(position.remaining)} remaining, "
        f"{table.exit_count} exits: " + ", ".join(str(e) for e in sorted(table.exits))
    )
    if dead:
        lines.append(
            "dead: " + ", ".join(f"{d.exit} ({d.reason})" for d in dead) + " -- the game is lost"
        )
    elif not table.exit_count:
        lines.append("no exit is left: the bandit is caught")
    return "\n".join(lines)


def _show(args: argparse.Namespace) -> int:
    from banditsolve.cli import emit
    from banditsolve.tunnels.notation import read_position
    from banditsolve.tunnels.render import svg

    position = read_position(args.file)
    if args.svg:
        Path(args.svg).write_text(svg(position.table, position.remaining), encoding="utf-8")
    emit(args, _describe(position), _position_payload(position))
    return 0


def _moves(args: argparse.Namespace) -> int:
    from banditsolve.cli import emit
    from banditsolve.tunnels.cards import card_name, parse_card
    from banditsolve.tunnels.notation import read_position
    from banditsolve.tunnels.table import creates_hole, placements_with_delta

    position = read_position(args.file)
    code = parse_card(args.card)
    found = placements_with_delta(position.table, code)
    rows = []
    for p, delta in found:
        hole = creates_hole(position.table, p)
        rows.append(
            {
                "x": p.x,
                "y": p.y,
                "rotation": p.rotation,
                "exits_after": position.table.exit_count + delta,
                "hole": hole,
            }
        )
    text = [f"{len(found)} legal placements of {card_name(code)}:"]
    text += [
        f"  ({r['x']}, {r['y']}) rot {r['rotation']}: {r['exits_after']} exits after"
        + ("  [walls an exit into a hole]" if r["hole"] else "")
        for r in rows
    ]
    emit(args, "\n".join(text), {"card": card_name(code), "placements": rows})
    return 0


def _parse_options(items: list[str]) -> Any:
    from banditsolve.errors import RuleOptionError
    from banditsolve.tunnels.game import Options

    values: dict[str, object] = {}
    for item in items:
        name, eq, value = item.partition("=")
        if not eq:
            raise RuleOptionError(f"option {item!r} is not of the form NAME=VALUE")
        values[name.strip()] = int(value) if value.strip().isdigit() else value.strip()
    return Options.from_mapping(values)


def _play(args: argparse.Namespace) -> int:
    import random

    from banditsolve.cli import emit
    from banditsolve.tunnels.cards import card_name
    from banditsolve.tunnels.game import new_game, playout
    from banditsolve.tunnels.geometry import Placement
    from banditsolve.tunnels.render import svg

    options = _parse_options(args.option)
    rng = random.Random(args.seed)
    state = new_game(args.players, options, rng=rng)
    svg_dir = Path(args.svg_dir) if args.svg_dir else None
    if svg_dir is not None:
        svg_dir.mkdir(parents=True, exist_ok=True)
        (svg_dir / "turn_000.svg").write_text(svg(state.table), encoding="utf-8")
    lines = [f"Bandido, {args.players} player(s), seed {args.seed}, options {options.to_dict()}"]
    turns = []
    for before, action, after in playout(state, rng):
        hand = " ".join(card_name(c) for c in before.hands[before.player])
        entry = {
            "turn": before.turn + 1,
            "player": before.player,
            "hand": [card_name(c) for c in before.hands[before.player]],
            "action": str(action),
            "exits": after.table.exit_count,
            "pile": after.pile_size,
        }
        turns.append(entry)
        lines.append(
            f"turn {before.turn + 1:>3}  player {before.player}  hand [{hand}]  -> {action}  "
            f"| exits {after.table.exit_count}, pile {after.pile_size}"
        )
        if svg_dir is not None and isinstance(action, Placement):
            name = f"turn_{len(after.table.history) - 1:03d}.svg"
            (svg_dir / name).write_text(svg(after.table), encoding="utf-8")
        state = after
    lines.append(f"result: {state.outcome} ({state.reason}) after {state.turn} turns")
    payload = {
        "players": args.players,
        "seed": args.seed,
        "options": options.to_dict(),
        "turns": turns,
        "outcome": state.outcome,
        "reason": state.reason,
        "cards_down": len(state.table.history),
    }
    emit(args, "\n".join(lines), payload)
    return 0


#: Bundled positions for the demo: the leaflet's one-cell hole and a small open network.
DEMO_POSITIONS = {
    "one-cell hole (the leaflet's warning)": (
        "bandido L+TL+TR+R+BR+BL@0,0,0 L+BR@-1,-1,0 TL@-2,-1,90 TR@-1,1,0 | L*3 TL+BL*2"
    ),
    "five-exit start": "bandido TL+TR+R+BR+BL@0,0,0",
}


def _demo(args: argparse.Namespace) -> int:
    from banditsolve.cli import emit
    from banditsolve.tunnels.game import play_game
    from banditsolve.tunnels.notation import parse_position

    parts = []
    payload: dict[str, Any] = {"positions": {}, "games": []}
    for title, text in DEMO_POSITIONS.items():
        position = parse_position(text)
        parts.append(f"== {title}\n{text}\n{_describe(position)}")
        payload["positions"][title] = _position_payload(position)
    wins = 0
    lines = []
    for seed in range(10):
        final = play_game(2, seed)
        wins += final.outcome == "won"
        lines.append(
            f"  seed {seed}: {final.outcome} after {final.turn} turns, "
            f"{len(final.table.history)} cards down ({final.reason})"
        )
        payload["games"].append({"seed": seed, "outcome": final.outcome, "turns": final.turn})
    parts.append("== ten simulated 2-player games (greedy policy)\n" + "\n".join(lines))
    parts.append(f"won {wins} of 10")
    from banditsolve.tunnels.closure import min_cards_to_close
    from banditsolve.tunnels.puzzles import load_puzzles
    from banditsolve.tunnels.render import ascii_art

    payload["puzzles"] = []
    # One of each kind: a loop closure, a hole, a minimum that needs every card.
    wanted = ("loop-1", "hole-1", "every-1")
    shown = [p for p in load_puzzles() if p.id in wanted]
    for puzzle in sorted(shown, key=lambda p: wanted.index(p.id)):
        r = min_cards_to_close(puzzle.position, bounds=puzzle.bounds)
        laid = puzzle.position.table.place_all(r.placements)
        parts.append(
            f"== puzzle {puzzle.id}: {puzzle.description}\n{r.status}: {r.reason}\n"
            + ascii_art(laid, puzzle.position.remaining)
        )
        payload["puzzles"].append({"id": puzzle.id, "answer": r.to_json()})
    emit(args, "\n\n".join(parts), payload)
    return 0


def _close(args: argparse.Namespace) -> int:
    from banditsolve.cli import emit
    from banditsolve.errors import SolverError
    from banditsolve.tunnels.closure import can_close, min_cards_to_close
    from banditsolve.tunnels.notation import read_position
    from banditsolve.tunnels.render import ascii_art, svg

    position = read_position(args.file)
    solver = min_cards_to_close if args.minimum else can_close
    bounds = None
    if args.bounds is not None:
        try:
            x0, y0, x1, y1 = (int(v) for v in args.bounds.split(","))
        except ValueError:
            raise SolverError(
                f"--bounds takes four integers X0,Y0,X1,Y1, not {args.bounds!r}"
            ) from None
        bounds = (x0, y0, x1, y1)
    result = solver(
        position,
        max_cards=args.max_cards,
        backend=args.backend,
        bounds=bounds,
        time_limit=args.time_limit,
        node_limit=args.node_limit,
        workers=args.workers,
    )
    table = position.table.place_all(result.placements)
    if args.svg:
        picture = svg(table, highlight_from=len(position.table.history))
        Path(args.svg).write_text(picture, encoding="utf-8")
    lines = [f"{result.status}: {result.reason}"]
    lines += [f"  {i + 1}. {p}" for i, p in enumerate(result.placements)]
    if result.placements:
        lines.append(ascii_art(table))
    emit(args, "\n".join(lines), result.to_json())
    return 0


def _solve(args: argparse.Namespace) -> int:
    import json

    from banditsolve.cli import emit
    from banditsolve.errors import NotationError
    from banditsolve.tunnels.endgame import solve_game, win_share
    from banditsolve.tunnels.puzzles import game_state

    try:
        data = json.loads(Path(args.file).read_text(encoding="utf-8"))
    except json.JSONDecodeError as exc:
        raise NotationError(f"{args.file}: not valid JSON ({exc.msg})") from exc
    if not isinstance(data, dict):
        raise NotationError("a game document must be a JSON object")
    state = game_state(data)
    if state.unseen:
        share = win_share(state, samples=args.samples, time_limit=args.time_limit)
        undecided = f", {share.unknown} undecided" if share.unknown else ""
        text = (
            f"won {share.won} of {share.samples} sampled shuffles{undecided} "
            f"({share.share:.1%}, 95% CI {share.low:.1%}-{share.high:.1%}): {share.label}"
        )
        emit(args, text, share.to_json())
        return 0
    result = solve_game(state, time_limit=args.time_limit)
    lines = [f"{result.status}: {result.reason}"] + [f"  {m}" for m in result.line]
    emit(args, "\n".join(lines), result.to_json())
    return 0
