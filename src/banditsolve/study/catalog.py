"""The shipped studies: which tasks each runs, and the report made of their rows.

A study is a cycle of *settings* (a game, a question, rule options and question parameters,
each with a label and a weight). Task ``i`` takes the setting at ``i`` modulo the cycle, and its
seed is the study seed plus the number of tasks that setting had before it. So:

- any first ``n`` tasks are a balanced sample of every setting (a short run, or a run stopped
  half-way, still compares the settings fairly), and a larger ``--games`` only adds tasks
  after the ones already run (resume keeps them);
- the ``k``-th task of every setting plays the same seed: the same shuffled deck, the same
  dice stream, so that settings are compared on the same deals (paired comparisons).

Importing this module loads no game, no solver and no plotting library: the settings that
depend on a game's rule options are built when the tasks are first asked for.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path

from banditsolve.core.args import expect_whole
from banditsolve.core.hooks import Row, Scalar, Task
from banditsolve.core.limits import MAX_SEED
from banditsolve.study.store import StudyError


@dataclass(frozen=True, slots=True)
class Setting:
    """One group of tasks of a study. ``label`` names it in the rows (column ``setting``) and
    in the report; its prefix (``option:``, ``h2h:``, ``seats:``, ``perfect:``, ``claims:``)
    tells the report which table it belongs to."""

    label: str
    game: str
    question: str
    options: tuple[tuple[str, str], ...] = ()
    params: tuple[tuple[str, Scalar], ...] = ()
    weight: int = 1


@dataclass(frozen=True, slots=True)
class StudySpec:
    """A shipped study: its name (the command's argument), title, description, settings."""

    name: str
    title: str
    description: str
    build: Callable[[], tuple[Setting, ...]] = field(repr=False)
    default_games: int = 1000
    #: Whether the report projects the cost of the study's full size (100,000 simulated games,
    #: or 2,000 solves a setting); a study with no such size (a comparison at a few budgets)
    #: reports its measured cost only.
    projected: bool = True
    #: The packages a study needs beyond the ``study`` extra, each with its extra's name
    #: (checked before any work: one line naming the extra when one is missing).
    extras: tuple[tuple[str, str], ...] = ()

    def settings(self) -> tuple[Setting, ...]:
        return _settings(self.name)

    def cycle(self) -> tuple[Setting, ...]:
        """The settings in task order: each weighted setting repeated, the repeats spread."""
        return _cycle(self.name)

    def tasks(self, games: int, seed: int) -> Iterator[Task]:
        """The first ``games`` tasks of the study (index 0..games-1, in order); the arguments
        are checked at once, the tasks made as they are taken."""
        expect_whole(games, "the number of games", 0, None, StudyError)
        expect_whole(seed, "the seed", 0, MAX_SEED, StudyError)
        return self._tasks(games, seed)

    def _tasks(self, games: int, seed: int) -> Iterator[Task]:
        cycle = self.cycle()
        counts: dict[str, int] = {}
        for index in range(games):
            s = cycle[index % len(cycle)]
            k = counts.get(s.label, 0)
            counts[s.label] = k + 1
            params = (("setting", s.label), *s.params)
            yield Task(self.name, index, s.game, s.question, seed + k, s.options, params)

    def report(self, rows: list[Row], out_dir: Path, meta: dict[str, Scalar]) -> Path:
        """Write the report (Markdown and plots) into ``out_dir``; the Markdown's path."""
        from banditsolve.study.report import write_report

        return write_report(self, rows, Path(out_dir), meta)


def _spread(settings: tuple[Setting, ...]) -> tuple[Setting, ...]:
    """Each setting ``weight`` times, the repeats spread evenly over the cycle."""
    slots: list[tuple[float, int, Setting]] = [
        ((j + 0.5) / s.weight, order, s)
        for order, s in enumerate(settings)
        for j in range(s.weight)
    ]
    return tuple(s for _, _, s in sorted(slots, key=lambda t: (t[0], t[1])))


@cache
def _settings(name: str) -> tuple[Setting, ...]:
    out = STUDIES[name].build()
    labels = [s.label for s in out]
    if len(set(labels)) != len(labels):  # pragma: no cover - a bug in a build function
        raise ValueError(f"study {name}: two settings share a label")
    return out


@cache
def _cycle(name: str) -> tuple[Setting, ...]:
    return _spread(_settings(name))


# -- building blocks -----------------------------------------------------------------------------


def option_settings(
    game: str,
    params: tuple[tuple[str, Scalar], ...],
    *,
    skip: tuple[str, ...] = (),
    weight: int = 1,
) -> tuple[Setting, ...]:
    """``option:default`` and one setting per other value of each rule option of ``game``
    (the others at their default): the rule-option sensitivity."""
    from banditsolve.core.registry import load_game

    names = load_game(game).option_set.names()
    out = [Setting("option:default", game, "simulate", (), params, weight)]
    out.extend(
        Setting(f"option:{option}={value}", game, "simulate", ((option, value),), params, weight)
        for option, values in names.items()
        if option not in skip
        for value in values[1:]
    )
    return tuple(out)


def h2h_settings(
    game: str, pairs: tuple[tuple[str, str, int], ...], extra: tuple[tuple[str, Scalar], ...] = ()
) -> tuple[Setting, ...]:
    """Two-player head-to-head games, each pair of policies in both seatings."""
    out: list[Setting] = []
    for a, b, weight in pairs:
        for first, second in ((a, b), (b, a)):
            params: tuple[tuple[str, Scalar], ...] = (
                ("players", 2), ("policies", f"{first},{second}"), *extra
            )
            out.append(Setting(f"h2h:{first},{second}", game, "simulate", (), params, weight))
    return tuple(out)


# -- the studies ---------------------------------------------------------------------------------

#: Bandido and Bandida deals solved with perfect information: the endgame solver's node limit.
PERFECT_NODE_LIMIT = 300
#: The same for Bandida, whose positions cost more (the map's removals, the alarms).
BANDIDA_NODE_LIMIT = 200
#: Bandida's modes, each a setting of its own.
BANDIDA_MODES = ("1", "2", "3")
#: Playouts per candidate action of the Los Banditos montecarlo policy in the studies.
MC_SAMPLES = 4


def _banditos() -> tuple[Setting, ...]:
    # The montecarlo policy costs about a hundred times a greedy game: it plays few games.
    pairs = (("random", "greedy", 20), ("greedy", "claim-aware", 6), ("random", "claim-aware", 2))
    h2h = h2h_settings("banditos", pairs) + h2h_settings(
        "banditos", (("greedy", "montecarlo", 1),), (("samples", MC_SAMPLES),)
    )
    same = (
        Setting("h2h:random,random", "banditos", "simulate", (),
                (("players", 2), ("policies", "random")), 10),
    )
    options = option_settings("banditos", (("players", 2), ("policies", "greedy")), weight=20)
    return h2h + same + options


def _banditos_claims() -> tuple[Setting, ...]:
    return (
        Setting("claims:greedy, proof strict", "banditos", "claim", (),
                (("policies", "greedy"),)),
        Setting("claims:greedy, proof bag", "banditos", "claim", (("proof", "bag"),),
                (("policies", "greedy"),)),
        Setting("claims:random, proof strict", "banditos", "claim", (),
                (("policies", "random"),)),
    )


def _tunnel_simulate(game: str, modes: tuple[str, ...] = ("",)) -> tuple[Setting, ...]:
    """The policies by number of players (and by ``modes``: ``""`` means no mode option), and
    greedy two-player games under each rule option."""
    out: list[Setting] = []
    for policy in ("greedy", "random"):
        for players in (1, 2, 3, 4):
            for mode in modes:
                options = (("mode", mode),) if mode else ()
                label = f"policy:{policy} {players}p" + (f" mode {mode}" if mode else "")
                params = (("players", players), ("policies", policy))
                out.append(Setting(label, game, "simulate", options, params, 2))
    out.extend(option_settings(game, (("players", 2), ("policies", "greedy"))))
    return tuple(out)


def _tunnel_perfect(game: str, limit: int, modes: tuple[str, ...] = ("",)) -> tuple[Setting, ...]:
    """Deals solved with perfect information under the node limit ``limit``, by super-card
    side, number of players (and ``modes``)."""
    out: list[Setting] = []
    for side in ("super6", "super5"):
        for players in (1, 2, 3, 4):
            for mode in modes:
                options: tuple[tuple[str, str], ...] = (("super_side", side),)
                if mode:
                    options += (("mode", mode),)
                label = f"perfect:{side} {players}p" + (f" mode {mode}" if mode else "")
                params = (("players", players), ("node_limit", limit))
                out.append(Setting(label, game, "solve", options, params))
    return tuple(out)


def _rolling() -> tuple[Setting, ...]:
    seats = tuple(
        Setting(f"seats:{n}p greedy", "rolling", "simulate", (),
                (("players", n), ("policies", "greedy")), 2)
        for n in (2, 3, 4)
    )
    h2h = h2h_settings("rolling", (("random", "greedy", 1),))
    options = option_settings("rolling", (("players", 2), ("policies", "greedy")))
    return seats + h2h + options


#: The MCTS budgets (simulations a move) of the openspiel-mcts study, per game: what a run of
#: some 15 minutes on 2 cores affords (a Los Banditos move of MCTS 100 takes a quarter second,
#: one of Rolling Bandits at 30 about half a second: its rollouts are 200 steps long).
MCTS_BUDGETS = {"banditos": (10, 100), "rolling": (10, 30), "bandido": (10, 100), "bandida": (10,)}


def _mcts() -> tuple[Setting, ...]:
    """OpenSpiel's MCTS in both seatings against each policy of the two-player games, and as a
    whole team against the policy's team in the team games (two players, the same seeds)."""
    out: list[Setting] = []
    duels = {"banditos": ("greedy", "claim-aware", "montecarlo"), "rolling": ("greedy",)}
    for game, policies in duels.items():
        for n in MCTS_BUDGETS[game]:
            weight = 4 if n == 10 else 1
            for policy in policies:
                for pair in ((f"mcts:{n}", policy), (policy, f"mcts:{n}")):
                    params: tuple[tuple[str, Scalar], ...] = (
                        ("players", 2), ("policies", ",".join(pair)), ("samples", MC_SAMPLES)
                    )
                    label = f"mcts:{game} {','.join(pair)}"
                    out.append(Setting(label, game, "mcts", (), params, weight))
    for game in ("bandido", "bandida"):
        heavy = game == "bandida"  # (a Bandida game of MCTS 10 takes some 15 s)
        first = 2 if heavy else 4
        for name, weight in (("greedy", first), *((f"mcts:{n}", first if n == 10 else 1)
                                                  for n in MCTS_BUDGETS[game])):
            params = (("players", 2), ("policies", name))
            out.append(Setting(f"mcts:{game} {name}", game, "mcts", (), params, weight))
    return tuple(out)


STUDIES: dict[str, StudySpec] = {
    spec.name: spec
    for spec in (
        StudySpec(
            "banditos",
            "Los Banditos: policies head to head and the rule options",
            "Two-player games of the policies random, greedy, claim-aware (greedy that places "
            "for a claim it can make at once and avoids filling a side it cannot claim) and "
            "montecarlo (the endgame solver's sampled best turn, 4 greedy playouts per "
            "candidate action: with so few, candidates often tie and the tie goes to the first "
            "legal action, which is giving a tile up) against each other in both seatings, "
            "with win rates, intervals and a rating table; greedy self-play under each rule "
            "option.",
            _banditos,
            20_000,
        ),
        StudySpec(
            "banditos-claims",
            "Los Banditos: does a claim's verdict depend on the proof reading?",
            "Along seeded games, every claim a player could make is judged under both proof "
            "readings (strict: any die not on the tile; bag: only the dice in the bag).",
            _banditos_claims,
            3_000,
        ),
        StudySpec(
            "bandido",
            "Bandido: the shipped policies by number of players, and the rule options",
            "Seeded games of the greedy and random policies for 1-4 players; greedy two-player "
            "games under each rule option.",
            lambda: _tunnel_simulate("bandido"),
            10_000,
        ),
        StudySpec(
            "bandida",
            "Bandida: the shipped policies by number of players and mode, and the rule options",
            "Seeded games of the greedy and random policies for 1-4 players in each mode; "
            "greedy two-player games under each rule option.",
            lambda: _tunnel_simulate("bandida", BANDIDA_MODES),
            5_000,
        ),
        StudySpec(
            "bandido-perfect",
            "Bandido: how many shuffled deals can be won with perfect information?",
            "Each shuffled deal solved by the endgame solver knowing the whole pile order "
            "(win, lose, or unknown at the node limit), and the same deal played by the greedy "
            "and random policies; by super-card side and number of players.",
            lambda: _tunnel_perfect("bandido", PERFECT_NODE_LIMIT),
            800,
        ),
        StudySpec(
            "bandida-perfect",
            "Bandida: how many shuffled deals can be won with perfect information?",
            "Each shuffled deal solved by the endgame solver knowing the whole pile order "
            "(win, lose, or unknown at the node limit), and the same deal played by the greedy "
            "and random policies; by super-card side, number of players and mode.",
            lambda: _tunnel_perfect("bandida", BANDIDA_NODE_LIMIT, BANDIDA_MODES),
            1_200,
        ),
        StudySpec(
            "rolling",
            "Rolling Bandits: seats, policies head to head, trunks and the rule options",
            "Greedy self-play for 2-4 players (win rate by seat, the trunks taken by winners "
            "and losers), random against greedy in both seatings, and greedy two-player games "
            "under each rule option.",
            _rolling,
            5_000,
        ),
        StudySpec(
            "openspiel-mcts",
            "OpenSpiel's MCTS against our players",
            "OpenSpiel's MCTSBot (random rollouts, through banditsolve.interop.openspiel) at "
            "several budgets against the shipped policies: in both seatings in the two-player "
            "games (Los Banditos: greedy, claim-aware and montecarlo, the endgame solver's "
            "sampled best turn with 4 playouts a candidate; Rolling Bandits: greedy), and as a "
            "whole team against the greedy team on the same seeds in Bandido and Bandida (2 "
            "players, mode 1). In the games with hidden information OpenSpiel's MCTS searches "
            "the true state: it sees the other hands, which no player may.",
            _mcts,
            400,
            projected=False,
            extras=(("pyspiel", "openspiel"),),
        ),
    )
}
