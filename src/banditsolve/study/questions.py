"""The questions a study task asks, each a pure function of the task's fields.

:func:`run` dispatches on :attr:`Task.question`:

- ``"simulate"`` (every game): one seeded game played to the end by the policies named in the
  task, exactly :func:`banditsolve.core.play.simulate` with the same seed, players, options and
  policies. The row gives the winner, each seat's policy, return and score, the length of the
  game and a few game-specific counts (see :data:`COLUMNS`).
- ``"solve"`` (Bandido, Bandida): the shuffled deal of the seed solved with perfect
  information (the whole pile order known) by the endgame solver under a node limit (param
  ``node_limit``; a node limit, not a clock, so that the answer does not depend on the
  machine): ``win`` (with the winning line as the certificate), ``lose`` or ``unknown``. The
  same deal is also played by the shipped policies (``greedy`` and ``random``) so that the two
  shares compare deal by deal.
- ``"claim"`` (Los Banditos): a seeded game played by the policies; at every decision the
  verdict of every claim the mover could make (their side of a tile full) is found under both
  proof readings (rule option ``proof``: ``strict`` and ``bag``), and the row counts how
  often the two readings disagree.

Parameters (``task.params``): ``setting`` (a label the study gives a group of tasks, copied
into the row's ``setting`` column), ``players`` (default: the game's own default), ``policies`` (one
name for every seat, or names joined by commas, one per seat; default ``"random"``),
``node_limit`` (``"solve"``), ``samples`` (the ``montecarlo`` policy of Los Banditos).
Rule options come from ``task.options``.

Every row of one question and game has the same columns, all flat scalars; a column that does
not apply (the score of a seat beyond the number of players) is ``None``.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from banditsolve.core.play import playout, resolve_policies
from banditsolve.core.protocol import CHANCE, Policy
from banditsolve.core.registry import entry, load_game
from banditsolve.errors import RuleOptionError
from banditsolve.study.task import Row, Scalar, Task

#: The most seats any registered game has (the per-seat columns go up to this).
SEATS = 4

#: The Rolling Bandits trunk contents, in the edition's order (columns ``trunks_<kind>_<seat>``).
TRUNK_KINDS = ("nothing", "bomb", "ambush", "roll-again")

#: Samples per candidate action of the Los Banditos ``montecarlo`` policy, unless the task says.
DEFAULT_MC_SAMPLES = 16

#: The endgame solver's node limit for ``"solve"``, unless the task says.
DEFAULT_NODE_LIMIT = 20_000


class QuestionError(RuleOptionError):
    """A task asks a question that does not exist, or not of this game."""


# -- policies ------------------------------------------------------------------------------------


def _banditos_montecarlo(samples: int) -> Policy[Any, Any]:
    from banditsolve.banditos.solvers.endgame import best_turn

    def policy(state: Any, rng: random.Random) -> Any:
        seed = rng.getrandbits(32)
        turn = best_turn(state, method="monte-carlo", samples=samples, seed=seed)
        return turn.actions[0]

    return policy


def banditos_claim_aware(state: Any, rng: random.Random) -> Any:
    """Los Banditos ``claim-aware``: greedy, but it places a die where the tile can then be
    claimed at once (the most valuable such tile), and it avoids filling a side of three dice
    that cannot be claimed (the claim rule under the game's proof reading) while another
    placement remains; otherwise it plays as ``greedy``."""
    from banditsolve.banditos.players import greedy_player
    from banditsolve.banditos.rules import Claim, Place, Roll, apply, legal_actions
    from banditsolve.banditos.state import MAX_SIDE

    actions = legal_actions(state)
    if any(isinstance(a, (Claim, Roll)) for a in actions):
        return greedy_player(state, rng)  # claim the best safe tile, or roll
    places = [a for a in actions if isinstance(a, Place)]
    if not places:
        return greedy_player(state, rng)
    me = state.to_move
    claimable: list[tuple[int, Any]] = []
    stuck: set[Any] = set()
    for action in places:
        after = apply(state, action)
        tile = after.row[action.slot - 1]
        if tile is None or len(tile.side(me)) < MAX_SIDE:
            continue
        if Claim(action.slot) in legal_actions(after):
            claimable.append((tile.value, action))
        else:
            stuck.add(action)
    if claimable:
        return max(claimable, key=lambda t: (t[0], -t[1].slot))[1]
    choice = greedy_player(state, rng)
    if choice in stuck:
        rest = [a for a in places if a not in stuck]
        if rest:
            return rest[rng.randrange(len(rest))]
    return choice


def policy_names(game_name: str) -> tuple[str, ...]:
    """Every policy a task may name for ``game_name``: the game's own and the study's extra
    ones (Los Banditos: ``claim-aware`` and ``montecarlo``, the endgame solver's sampled best
    turn)."""
    game = load_game(game_name)
    names = tuple(game.policies())
    if entry(game_name).name == "banditos":
        names += ("claim-aware", "montecarlo")
    return names


def _policies(task: Task, game: Any, players: int) -> tuple[list[Policy[Any, Any]], list[str]]:
    raw = task.param("policies", "random")
    if not isinstance(raw, str) or not raw.strip():
        raise QuestionError(f"task {task.index}: policies must be names, not {raw!r}")
    names = [n.strip() for n in raw.split(",")]
    if len(names) == 1:
        names = names * players
    if len(names) != players:
        raise QuestionError(
            f"task {task.index}: {len(names)} policies for {players} players"
        )
    extra: dict[str, Policy[Any, Any]] = {}
    if game.name == "banditos":
        extra["claim-aware"] = banditos_claim_aware
    if game.name == "banditos" and "montecarlo" in names:
        samples = task.param("samples", DEFAULT_MC_SAMPLES)
        if isinstance(samples, bool) or not isinstance(samples, int) or samples < 1:
            raise QuestionError(f"task {task.index}: samples must be a positive whole number")
        extra["montecarlo"] = _banditos_montecarlo(samples)
    out: list[Policy[Any, Any]] = []
    for name in names:
        if name in extra:
            out.append(extra[name])
        else:
            out.extend(resolve_policies(game, [name], 1))
    return out, names


def _players(task: Task, game: Any) -> int | None:
    raw = task.param("players")
    if raw is None:
        return None
    if isinstance(raw, bool) or not isinstance(raw, int):
        raise QuestionError(f"task {task.index}: players must be a whole number, not {raw!r}")
    return raw


def _setting(task: Task) -> str:
    """The task's ``setting`` parameter (the study's name for its group of tasks), else ``""``."""
    value = task.param("setting", "")
    return value if isinstance(value, str) else str(value)


def options_text(options: Sequence[tuple[str, str]]) -> str:
    """The task's rule options as one text, ``name=value`` joined by commas (``""``: defaults)."""
    return ",".join(f"{k}={v}" for k, v in options)


# -- simulate ------------------------------------------------------------------------------------


def _seat_columns(prefix: str, values: Sequence[Scalar]) -> Row:
    return {f"{prefix}_{i}": values[i] if i < len(values) else None for i in range(SEATS)}


def _extra_columns(game_name: str, final: Any, players: int) -> Row:
    """Game-specific counts of the final state (the same keys for every row of the game)."""
    if game_name in ("bandido", "bandida"):
        return {
            "exits_left": int(final.table.exit_count),
            "cards_left": len(final.pile) + len(final.unseen),
            "game_turns": int(final.turn),
        }
    if game_name == "rolling":
        row: Row = {"cars_taken": sum(len(w) for w in final.won)}
        for k, kind in enumerate(TRUNK_KINDS):
            counts = [sum(1 for t in final.trunks[p] if t.content == k) for p in range(players)]
            row.update(_seat_columns(f"trunks_{kind}", counts))
        row.update(_seat_columns("cars", [len(final.won[p]) for p in range(players)]))
        return row
    if game_name == "banditos":
        return _seat_columns("tiles", [len(final.won[p]) for p in range(players)])
    return {}


def play(task: Task) -> tuple[Any, Any, list[Any], list[str], int, int]:
    """Play the task's game: ``(game, final state, policies, policy names, steps, decisions)``.
    The same as :func:`banditsolve.core.play.simulate` (same seed, same random stream)."""
    game = load_game(task.game)
    options: Mapping[str, object] = dict(task.options)
    start = game.new_game(_players(task, game), options, seed=task.seed)
    players = game.players(start)
    policies, names = _policies(task, game, players)
    rng = random.Random(task.seed)
    state = start
    steps = decisions = 0
    for step in playout(game, start, policies, rng):
        state = step.state
        steps += 1
        if step.actor != CHANCE:
            decisions += 1
    return game, state, policies, names, steps, decisions


def simulate(task: Task) -> Row:
    """One seeded game played to the end (see the module notes)."""
    game, final, _, names, steps, decisions = play(task)
    players = game.players(final)
    outcome = game.outcome(final)
    if outcome is None:  # pragma: no cover - playout only stops at the end
        raise QuestionError(f"task {task.index}: the game did not end")
    winners = outcome.winners
    row: Row = {
        "setting": _setting(task),
        "seed": task.seed,
        "players": players,
        "options": options_text(task.options),
        "policies": ",".join(names),
        "won": bool(winners),
        "winner": winners[0] if len(winners) == 1 else -1,
        "winners": len(winners),
        "steps": steps,
        "decisions": decisions,
        "reason": outcome.reason,
    }
    row.update(_seat_columns("policy", names))
    row.update(_seat_columns("return", [float(r) for r in outcome.returns]))
    row.update(_seat_columns("score", list(outcome.scores)))
    row.update(_extra_columns(game.name, final, players))
    return row


# -- solve (Bandido, Bandida) --------------------------------------------------------------------


def _policy_won(task: Task, policy: str) -> bool:
    """Whether ``policy`` (every seat) wins the task's deal (the same seed, so the same deal)."""
    params = (*tuple((k, v) for k, v in task.params if k != "policies"), ("policies", policy))
    other = Task(task.study, task.index, task.game, "simulate", task.seed, task.options, params)
    game, final, *_ = play(other)
    outcome = game.outcome(final)
    return bool(outcome is not None and outcome.winners)


def solve(task: Task) -> Row:
    """The seed's shuffled deal solved with perfect information (see the module notes)."""
    from banditsolve.tunnels.solvers.endgame import action_text, solve_game

    name = entry(task.game).name
    if name not in ("bandido", "bandida"):
        raise QuestionError(f"task {task.index}: solve is a question of Bandido and Bandida")
    game = load_game(name)
    limit = task.param("node_limit", DEFAULT_NODE_LIMIT)
    if isinstance(limit, bool) or not isinstance(limit, int) or limit < 1:
        raise QuestionError(f"task {task.index}: node_limit must be a positive whole number")
    start = game.new_game(_players(task, game), dict(task.options), seed=task.seed)
    solution = solve_game(start, time_limit=None, node_limit=limit)
    certificate = (
        " ".join(action_text(m.action) for m in solution.line) if solution.status == "win" else ""
    )
    return {
        "setting": _setting(task),
        "seed": task.seed,
        "players": game.players(start),
        "options": options_text(task.options),
        "status": solution.status,
        "win": True if solution.status == "win" else (False if solution.status == "lose" else None),
        "nodes": solution.nodes,
        "node_limit": limit,
        "line_length": len(solution.line) if solution.status == "win" else 0,
        "certificate": certificate,
        "win_chance": None if solution.win_chance is None else float(solution.win_chance),
        "reason": solution.reason,
        "greedy_won": _policy_won(task, "greedy"),
        "random_won": _policy_won(task, "random"),
    }


# -- claim (Los Banditos) ------------------------------------------------------------------------


def claim(task: Task) -> Row:
    """How often a claim's verdict depends on the proof reading, along one seeded game."""
    from banditsolve.banditos.claim import exact_verdict, normalise_availability
    from banditsolve.banditos.state import MAX_SIDE

    if entry(task.game).name != "banditos":
        raise QuestionError(f"task {task.index}: claim is a question of Los Banditos")
    game = load_game("banditos")
    options: Mapping[str, object] = dict(task.options)
    start = game.new_game(_players(task, game), options, seed=task.seed)
    policies, names = _policies(task, game, game.players(start))
    rng = random.Random(task.seed)
    checked = strict_safe = bag_safe = strict_only = bag_only = 0
    seen: set[tuple[object, ...]] = set()
    state = start
    steps = 0

    def look(s: Any) -> None:
        nonlocal checked, strict_safe, bag_safe, strict_only, bag_only
        if s.is_terminal or s.is_chance:
            return
        me = s.to_move
        for number, tile in s.tiles_in_play():
            mine = tile.side(me)
            if len(mine) != MAX_SIDE:
                continue
            other = tile.side(1 - me)
            theirs = tuple(d.code for d in other)
            strict = normalise_availability(s.availability(number, "strict"))
            bag = normalise_availability(s.availability(number, "bag"))
            key = (number, tuple(d.code for d in mine), theirs, strict, bag)
            if key in seen:  # the same question again later in the turn
                continue
            seen.add(key)
            a = exact_verdict(mine, other, strict).safe
            b = exact_verdict(mine, other, bag).safe
            checked += 1
            strict_safe += a
            bag_safe += b
            strict_only += a and not b
            bag_only += b and not a

    look(state)
    for step in playout(game, start, policies, rng):
        state = step.state
        steps += 1
        look(state)
    outcome = game.outcome(state)
    assert outcome is not None
    winners = outcome.winners
    return {
        "setting": _setting(task),
        "seed": task.seed,
        "options": options_text(task.options),
        "policies": ",".join(names),
        "claims_checked": checked,
        "strict_safe": strict_safe,
        "bag_safe": bag_safe,
        "strict_only": strict_only,
        "bag_only": bag_only,
        "differ": strict_only + bag_only,
        "winner": winners[0] if len(winners) == 1 else -1,
        "steps": steps,
    }


def _seats(prefix: str) -> tuple[str, ...]:
    return tuple(f"{prefix}_{i}" for i in range(SEATS))


#: The columns of a ``"simulate"`` row common to every game, in order.
SIMULATE_COLUMNS = (
    "setting", "seed", "players", "options", "policies", "won", "winner", "winners", "steps",
    "decisions", "reason", *_seats("policy"), *_seats("return"), *_seats("score"),
)
#: The game-specific columns a ``"simulate"`` row adds.
EXTRA_COLUMNS: dict[str, tuple[str, ...]] = {
    "banditos": _seats("tiles"),
    "bandido": ("exits_left", "cards_left", "game_turns"),
    "bandida": ("exits_left", "cards_left", "game_turns"),
    "rolling": (
        "cars_taken",
        *(c for kind in TRUNK_KINDS for c in _seats(f"trunks_{kind}")),
        *_seats("cars"),
    ),
}
SOLVE_COLUMNS = (
    "setting", "seed", "players", "options", "status", "win", "nodes", "node_limit",
    "line_length", "certificate", "win_chance", "reason", "greedy_won", "random_won",
)
CLAIM_COLUMNS = (
    "setting", "seed", "options", "policies", "claims_checked", "strict_safe", "bag_safe",
    "strict_only", "bag_only", "differ", "winner", "steps",
)


def columns(question: str, game: str) -> tuple[str, ...]:
    """The columns of every row of ``question`` about ``game``, in order."""
    name = entry(game).name
    if question == "simulate":
        return SIMULATE_COLUMNS + EXTRA_COLUMNS.get(name, ())
    if question == "solve":
        return SOLVE_COLUMNS
    if question == "claim":
        return CLAIM_COLUMNS
    raise QuestionError(f"unknown question {question!r}: the questions are {', '.join(QUESTIONS)}")


#: The questions by name.
QUESTIONS: dict[str, Callable[[Task], Row]] = {
    "simulate": simulate,
    "solve": solve,
    "claim": claim,
}


def run(task: Task) -> Row:
    """The row answering ``task`` (raises on a task that cannot be answered)."""
    question = QUESTIONS.get(task.question)
    if question is None:
        raise QuestionError(
            f"task {task.index}: unknown question {task.question!r}: the questions are "
            f"{', '.join(QUESTIONS)}"
        )
    return question(task)
