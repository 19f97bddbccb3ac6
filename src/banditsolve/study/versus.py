"""OpenSpiel's MCTS against the library's players (issue 29, item 4): the study question
``mcts`` and the report's section of its rows.

The question plays one seeded game through the OpenSpiel adapter
(:mod:`banditsolve.interop.openspiel`): each seat is named in the task's ``policies`` either
``mcts:N`` (OpenSpiel's ``MCTSBot`` with ``N`` simulations a move, one random rollout to the end
of the game per simulation, exploration constant 2) or one of the game's policies (its own and
those its study hooks add), which plays the native state. Chance is drawn from the state's
outcomes with ``random.Random(seed)``; each bot has its own stream from the seed. In a game with
hidden information OpenSpiel's MCTS searches the true state (it sees the other hands), so it
plays with more than a player may know. The row gives the winners and returns, and each seat's
moves and the seconds they took (wall clock: the policies' time per move).

The section (labels ``mcts:``): in a game where a seat's return is shared (constant sum), the
share of games MCTS won against each policy at each budget (both seatings together), with
Wilson intervals; in a team game, the team's win rate with every seat MCTS against every seat
the policy, on the same seeds (Newcombe's paired interval of the difference); the time per
move; and a sentence, made from the rows, saying where our players beat MCTS and by how much.
"""

from __future__ import annotations

import random
import time
from collections.abc import Sequence
from typing import Any

from banditsolve.core.hooks import QuestionError, Row, Task
from banditsolve.core.registry import load_game, load_study
from banditsolve.core.study import options_text, seat_columns, seats, setting, task_players
from banditsolve.study.figures import Plots, paired_shares, readable, share, sign_test, table

#: The prefix of a seat played by OpenSpiel's MCTS (``mcts:100``).
MCTS = "mcts:"
#: The exploration constant of the MCTS bots (OpenSpiel's examples use 2).
UCT_C = 2.0

MCTS_COLUMNS = (
    "setting", "seed", "players", "options", "policies", "won", "winner", "winners", "steps",
    "decisions", *seats("policy"), *seats("return"), *seats("moves"), *seats("seconds"),
)


def budget(name: str) -> int | None:
    """The simulations of a seat named ``mcts:N``; None for a policy."""
    if not name.startswith(MCTS):
        return None
    text = name[len(MCTS):]
    if not (text.isascii() and text.isdigit()) or int(text) < 1:
        raise QuestionError(f"{name!r}: an MCTS seat is mcts:N, N simulations a move")
    return int(text)


def _seat(task: Task, name: str, game: Any, native: Any, k: int) -> Any:
    """A player of seat ``k``: ``(state, rng) -> index``."""
    import numpy as np

    from banditsolve.interop import require

    n = budget(name)
    if n is not None:
        mcts = require("the MCTS study", "open_spiel.python.algorithms.mcts", "openspiel")
        stream = np.random.RandomState((task.seed * 7 + k) % 2**32)
        evaluator = mcts.RandomRolloutEvaluator(1, stream)
        bot = mcts.MCTSBot(game, UCT_C, n, evaluator, random_state=stream)
        return lambda state, rng: int(bot.step(state))
    hooks = load_study(task.game)
    extra = {} if hooks is None else hooks.policies(task)
    policy = extra.get(name) or native.policies().get(name)
    if policy is None:
        raise QuestionError(f"task {task.index}: unknown policy {name!r} for {native.title}")
    return lambda state, rng: native.action_index(state.native, policy(state.native, rng))


def _load(task: Task, players: int) -> Any:
    """The task's game through OpenSpiel, with its options as parameters."""
    from banditsolve.interop import openspiel

    native = load_game(task.game)
    openspiel.register_game(native)
    kinds = openspiel.parameters(native)
    params: dict[str, Any] = {"players": players}
    for key, value in task.options:
        params[key] = int(value) if isinstance(kinds.get(key), int) else value
    return openspiel.pyspiel.load_game(openspiel.short_name(task.game), params)


def _policy_names(task: Task, players: int) -> list[str]:
    """The task's policy per seat: its ``policies`` parameter, one name for every seat or one
    name per seat (``random`` by default)."""
    raw = task.param("policies", "random")
    names = [n.strip() for n in str(raw).split(",")]
    names = names * players if len(names) == 1 else names
    if len(names) != players:
        raise QuestionError(f"task {task.index}: {len(names)} policies for {players} players")
    return names


def mcts_game(task: Task) -> Row:
    """One seeded game of the task's seats through OpenSpiel (see the module notes)."""
    native = load_game(task.game)
    players = task_players(task) or native.players(native.new_game())
    names = _policy_names(task, players)
    game = _load(task, players)
    seats_ = [_seat(task, name, game, native, k) for k, name in enumerate(names)]
    rng = random.Random(task.seed)
    moves, seconds = [0] * players, [0.0] * players
    state = game.new_initial_state()
    steps = 0
    while not state.is_terminal():
        player = state.current_player()
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            action = rng.choices([a for a, _ in outcomes], [p for _, p in outcomes])[0]
        else:
            start = time.perf_counter()
            action = seats_[player](state, rng)
            seconds[player] += time.perf_counter() - start
            moves[player] += 1
        state.apply_action(action)
        steps += 1
    returns = [float(r) for r in state.returns()]
    winners = [p for p, r in enumerate(returns) if r > 0 and r == max(returns)]
    row: Row = {
        "setting": setting(task), "seed": task.seed, "players": players,
        "options": options_text(task.options), "policies": ",".join(names),
        "won": bool(winners), "winner": winners[0] if len(winners) == 1 else -1,
        "winners": len(winners), "steps": steps, "decisions": sum(moves),
    }
    row.update(seat_columns("policy", names))
    row.update(seat_columns("return", returns))
    row.update(seat_columns("moves", moves))
    row.update(seat_columns("seconds", [round(s, 4) for s in seconds]))
    return row


# -- the report's section -----------------------------------------------------------------------


def _names(row: Row) -> list[str]:
    return [str(n) for n in str(row.get("policies", "")).split(",")]


def _per_move(rows: Sequence[Row], name: str) -> str:
    """The mean seconds a move of the seats named ``name`` took."""
    total, count = 0.0, 0
    for r in rows:
        for k, n in enumerate(_names(r)):
            if n == name:
                total += float(r.get(f"seconds_{k}") or 0.0)
                count += int(r.get(f"moves_{k}") or 0)
    return "-" if count == 0 else f"{1000 * total / count:.1f} ms"


def _duels(rows: Sequence[Row]) -> dict[tuple[str, int, str], list[tuple[bool, bool]]]:
    """Per (game, budget, policy): one (MCTS won, the policy won) per game of one MCTS seat
    against the policy."""
    out: dict[tuple[str, int, str], list[tuple[bool, bool]]] = {}
    for r in rows:
        names = _names(r)
        bots = [k for k, n in enumerate(names) if budget(n) is not None]
        others = [k for k, n in enumerate(names) if budget(n) is None]
        if len(bots) != 1 or len(others) != 1:
            continue
        b, o = bots[0], others[0]
        key = (str(r.get("game", "")), budget(names[b]) or 0, names[o])
        winner = r.get("winner")
        out.setdefault(key, []).append((winner == b, winner == o))
    return out


def _teams(rows: Sequence[Row]) -> dict[tuple[str, str], dict[int, float]]:
    """Per (game, policy) of games with every seat the same: won (1.0 or 0.0) by seed."""
    out: dict[tuple[str, str], dict[int, float]] = {}
    for r in rows:
        names = _names(r)
        if len(set(names)) != 1:
            continue
        seed = int(r.get("seed") or 0)
        out.setdefault((str(r.get("game", "")), names[0]), {})[seed] = float(bool(r.get("won")))
    return out


def mcts_section(rows: Sequence[Row], plots: Plots) -> list[str]:
    """The section of the ``mcts:`` rows (see the module notes)."""
    ours = [
        {**r, "game": str(r.get("setting", ""))[len(MCTS):].split()[0]}
        for r in rows
        if str(r.get("setting", "")).startswith(MCTS)
    ]
    if not ours:
        return []
    out = ["## OpenSpiel's MCTS against our players", ""]
    out += _duel_lines(ours, plots)
    out += _team_lines(ours)
    return out


def _duel_lines(rows: Sequence[Row], plots: Plots) -> list[str]:
    duels = _duels(rows)
    if not duels:
        return []
    body, labels, values, verdicts = [], [], [], []
    for (game, n, policy), games in sorted(duels.items()):
        won = sum(1 for m, _ in games if m)
        lost = sum(1 for _, p in games if p)
        title = load_game(game).title
        body.append((title, f"MCTS {n}", policy, len(games), share(won, len(games)),
                     share(lost, len(games)),
                     _per_move([r for r in rows if r["game"] == game], f"{MCTS}{n}"),
                     _per_move([r for r in rows if r["game"] == game], policy)))
        labels.append(f"{title}: MCTS {n} vs {policy}")
        values.append((won, len(games)))
        gap = 100 * (lost - won) / len(games)
        verdicts.append((gap, title, n, policy, lost, won, len(games)))
    lines = [
        "Two-player games, each pairing in both seatings on the same seeds: the share of games "
        "MCTS won and the share the policy won (Wilson intervals), and the mean time per move "
        "of each side (wall clock on the worker: on a core shared with other work it counts "
        "that work's time too, see the run below).",
        "",
        table(("game", "MCTS", "against", "games", "MCTS won", "policy won", "MCTS per move",
               "policy per move"), body),
        "",
        plots.bars("mcts", labels, [("MCTS won", values)],
                   "OpenSpiel's MCTS against our players", "games won by MCTS (%)"),
        "",
    ]
    lines += _verdict(verdicts)
    return lines


def _verdict(verdicts: list[tuple[float, str, int, str, int, int, int]]) -> list[str]:
    """One sentence per kind of result, made from the tallies: where our players beat MCTS
    (an exact sign test over the decided games, p < 0.05), where MCTS beat them, and where the
    games do not tell."""
    ours: list[str] = []
    theirs: list[str] = []
    unclear: list[str] = []
    for gap, title, n, policy, lost, won, games in sorted(verdicts, reverse=True):
        p = sign_test(lost, won)
        text = (f"{policy} against MCTS {n} in {title}, {lost} wins to {won} of {games} games "
                f"({gap:+.1f} points, p = {p:.2g})")
        (unclear if p >= 0.05 else ours if gap > 0 else theirs).append(text)
    parts = []
    if ours:
        parts.append("Our players beat MCTS: " + "; ".join(ours) + ".")
    if theirs:
        parts.append("MCTS beat our players: " + "; ".join(theirs) + ".")
    if unclear:
        parts.append("Not told apart by these games: " + "; ".join(unclear) + ".")
    return [" ".join(parts), ""]


def _team_lines(rows: Sequence[Row]) -> list[str]:
    teams = _teams(rows)
    if not teams:
        return []
    body = []
    for game in sorted({g for g, _ in teams}):
        policies = sorted((p for g, p in teams if g == game), key=lambda p: budget(p) or 0)
        base = [p for p in policies if budget(p) is None]
        for p in policies:
            won = teams[(game, p)]
            diff = "-"
            if base and p != base[0]:
                pairs, mean, low, high = paired_shares(teams[(game, base[0])], won)
                diff = f"{100 * mean:+.1f} ({100 * low:+.1f} to {100 * high:+.1f}), {pairs} seeds"
            body.append((load_game(game).title, readable(p), len(won),
                         share(int(sum(won.values())), len(won)), diff,
                         _per_move([r for r in rows if r["game"] == game], p)))
    return [
        "Team games (every seat the same player, the same seeds): the team's win rate, and its "
        "difference from our policy's on the same seeds (Newcombe's paired interval). The "
        "tunnel games' exact solver plays knowing the whole pile (the perfect-information "
        "studies), so it is no player here.",
        "",
        table(("game", "every seat", "games", "team won", "minus the policy's (points)",
               "per move"), body),
        "",
    ]
