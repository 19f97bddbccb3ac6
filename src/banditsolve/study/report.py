"""Reports of the shipped studies: Markdown with tables and 95 % intervals, PNG and SVG plots.

:func:`write_report` reads a study's rows (one per task, each with its ``setting`` label) and
writes ``report.md`` and one plot per section (``<section>.png`` and ``<section>.svg``) into
the study's folder. The sections follow the labels' prefixes:

- ``perfect:`` deals solved with perfect information (win / lose / unknown, against the
  policies on the same deals);
- ``policy:`` the shipped policies' win rates in the cooperative games;
- ``h2h:`` policies head to head, with a rating table (a Bradley-Terry fit, on the Elo scale);
- ``seats:`` win rate by seat and number of players, and the trunks taken (Rolling Bandits);
- ``option:`` each rule option's other readings against the default, on the same seeds;
- ``claims:`` how often a claim's verdict depends on the proof reading (Los Banditos);
- ``mcts:`` OpenSpiel's MCTS against our players (:mod:`banditsolve.study.versus`).

The figures (intervals, the rating fit, tables, plots) are those of
:mod:`banditsolve.study.figures`.
"""

from __future__ import annotations

import math
import statistics
from collections import defaultdict
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from banditsolve.core.hooks import Row, Scalar
from banditsolve.study.figures import (
    Plots,
    bradley_terry,
    duration,
    mean_interval,
    natural_key,
    paired_difference,
    paired_shares,
    plus_minus,
    readable,
    share,
    sign_test,
    table,
)
from banditsolve.study.versus import mcts_section

if TYPE_CHECKING:
    from banditsolve.study.catalog import StudySpec

#: A study's full size: simulated games per game, solves per Bandido/Bandida setting.
TARGET_GAMES = 100_000
TARGET_SOLVES = 2_000
#: The numbers of cores the projections are given for (one worker per core).
CORES = (1, 2, 8, 32, 128)


# -- the sections --------------------------------------------------------------------------------


def _groups(rows: Sequence[Row], prefix: str) -> dict[str, list[Row]]:
    """The rows of each setting whose label starts with ``prefix``, by the rest of the label,
    in natural order (numbers by value: ``2p`` before ``10p``)."""
    out: dict[str, list[Row]] = {}
    for row in rows:
        label = str(row.get("setting", ""))
        if label.startswith(prefix):
            out.setdefault(label[len(prefix):], []).append(row)
    return {label: out[label] for label in sorted(out, key=natural_key)}


def _int(value: Scalar) -> int:
    return int(value) if isinstance(value, (int, float)) and not isinstance(value, bool) else 0


def _competitive(rows: Sequence[Row]) -> bool:
    return any(r.get("policy_1") is not None and "exits_left" not in r for r in rows)


@dataclass(frozen=True, slots=True)
class _Deals:
    """The deals of one setting of a ``perfect:`` study, counted."""

    n: int
    win: int
    lose: int
    greedy: int
    random: int
    proven: int
    beyond: int

    @property
    def unknown(self) -> int:
        return self.n - self.win - self.lose

    @staticmethod
    def of(rows: Sequence[Row]) -> _Deals:
        won = [r.get("status") == "win" for r in rows]
        by_policy = [bool(r.get("greedy_won") or r.get("random_won")) for r in rows]
        return _Deals(
            n=len(rows),
            win=sum(won),
            lose=sum(1 for r in rows if r.get("status") == "lose"),
            greedy=sum(1 for r in rows if r.get("greedy_won")),
            random=sum(1 for r in rows if r.get("random_won")),
            proven=sum(w or p for w, p in zip(won, by_policy, strict=True)),
            beyond=sum(p and not w for w, p in zip(won, by_policy, strict=True)),
        )


def perfect_section(rows: Sequence[Row], plots: Plots) -> list[str]:
    groups = _groups(rows, "perfect:")
    if not groups:
        return []
    limit = max((_int(r.get("node_limit")) for g in groups.values() for r in g), default=0)
    out = [
        "## Deals winnable with perfect information",
        "",
        "Each task is one shuffled deal (its seed), solved by the endgame solver "
        "(`banditsolve.tunnels.solvers.endgame.solve_game`) knowing the whole pile order. "
        f"**win**: the solver found a winning line (its certificate); **lose**: it proved that "
        f"every line loses; **unknown**: its node limit ({limit} positions) ran out first. "
        "Unknown is never counted as a win or a loss: the share of winnable deals lies between "
        "the *proven* share (win) and win + unknown. The same deal is also played by the "
        "shipped policies (every seat greedy, or every seat random); a policy's win is a "
        "winning line too, so *winnable (proven)* counts the deals the solver or a policy won.",
        "",
    ]
    body = []
    counts = {label: _Deals.of(g) for label, g in groups.items()}
    for label, c in counts.items():
        n = c.n
        body.append((readable(label), n, share(c.win, n), share(c.lose, n), share(c.unknown, n),
                     f"{100 * c.win / n:.1f}-{100 * (c.win + c.unknown) / n:.1f} %",
                     share(c.proven, n), share(c.greedy, n), share(c.random, n), c.beyond))
    labels = [readable(label) for label in counts]

    def percent(part: Callable[[_Deals], int]) -> list[float]:
        return [100 * part(c) / c.n for c in counts.values()]

    wins, unknowns, loses = percent(lambda c: c.win), percent(lambda c: c.unknown), percent(
        lambda c: c.lose)
    greedy, rand = percent(lambda c: c.greedy), percent(lambda c: c.random)
    out.append(table(
        ("setting", "deals", "win (solver)", "lose (proven)", "unknown", "winnable lies in",
         "winnable (proven)", "greedy won", "random won", "won by a policy, not the solver"),
        body,
    ))
    out += ["", "Shares with their 95 % Wilson interval in brackets.", ""]
    nodes = [_int(r.get("nodes")) for g in groups.values() for r in g if r.get("status") == "win"]
    if nodes:
        out.append(
            f"The solver's wins took {min(nodes)} to {max(nodes)} positions "
            f"(median {statistics.median(nodes):g}): the wins it finds, it finds at once; "
            "the unknown deals are the ones its first lines of play do not win."
        )
        out.append("")
    out += perfect_marginals([r for g in groups.values() for r in g])
    out.append(plots.stacked(
        "perfect", labels,
        [("win (solver)", wins), ("unknown", unknowns), ("lose (proven)", loses)],
        [("greedy won", greedy), ("random won", rand)],
        "Shuffled deals solved with perfect information", "share of deals (%)",
    ))
    out.append("")
    return out


def _factors(row: Row) -> dict[str, str]:
    """The setting's factors of a solve row: super-card side, players and (Bandida) mode."""
    opts = dict(
        item.split("=", 1) for item in str(row.get("options") or "").split(",") if "=" in item
    )
    out = {"super-card side": opts.get("super_side", "super6"),
           "players": str(row.get("players"))}
    if "mode" in opts:
        out["mode"] = opts["mode"]
    return out


def perfect_marginals(rows: Sequence[Row]) -> list[str]:
    """The same shares by one factor at a time (the other factors pooled)."""
    cells: dict[tuple[str, str], list[Row]] = defaultdict(list)
    for r in rows:
        for factor, value in _factors(r).items():
            cells[(factor, value)].append(r)
    body = []
    for (factor, value), g in sorted(cells.items(), key=lambda t: natural_key(" ".join(t[0]))):
        n = len(g)
        w = sum(1 for r in g if r.get("status") == "win")
        u = sum(1 for r in g if r.get("status") == "unknown")
        gw = sum(1 for r in g if r.get("greedy_won"))
        proven = sum(1 for r in g if r.get("status") == "win" or r.get("greedy_won")
                     or r.get("random_won"))
        body.append((factor, value, n, share(w, n), share(u, n), share(proven, n),
                     share(gw, n)))
    return [
        "By one factor at a time (the deals of the other factors pooled):",
        "",
        table(("factor", "value", "deals", "win (solver)", "unknown", "winnable (proven)",
               "greedy won"), body),
        "",
    ]


def policy_section(rows: Sequence[Row], plots: Plots) -> list[str]:
    groups = _groups(rows, "policy:")
    if not groups:
        return []
    out = [
        "## The shipped policies",
        "",
        "Every seat plays the same policy; the team wins when every exit is closed (or the "
        "mode's goal is met). *exits left*: the mean number of open exits when the game ended.",
        "",
    ]
    body, labels, values = [], [], []
    for label, g in groups.items():
        n = len(g)
        w = sum(1 for r in g if r.get("won"))
        exits = mean_interval([float(_int(r.get("exits_left"))) for r in g])
        turns = mean_interval([float(_int(r.get("decisions"))) for r in g])
        body.append((readable(label), n, share(w, n), f"{exits[0]:.1f}", f"{turns[0]:.1f}"))
        labels.append(readable(label))
        values.append((w, n))
    out.append(table(("setting", "games", "team won", "exits left", "decisions"), body))
    out.append("")
    out.append(plots.bars("policies", labels, [("team won", values)],
                          "Team win rate of the shipped policies", "games won (%)"))
    out.append("")
    return out


Pair = tuple[str, str]


def _tally_pairs(
    groups: dict[str, list[Row]],
) -> tuple[dict[Pair, list[float]], dict[Pair, int], list[tuple[str, int, int]]]:
    """The wins of each pair of policies (a tie counts half each), their ties, and each
    seating's games won by seat 0."""
    pair_games: dict[tuple[str, str], list[float]] = defaultdict(lambda: [0.0, 0.0])
    ties: dict[tuple[str, str], int] = defaultdict(int)
    seat0: list[tuple[str, int, int]] = []
    for label, g in groups.items():
        a, b = label.split(",")
        key = (a, b) if a <= b else (b, a)
        first = 0 if a == key[0] else 1
        winners = [r.get("winner") for r in g]
        pair_games[key][first] += winners.count(0)
        pair_games[key][1 - first] += winners.count(1)
        tied = len(winners) - winners.count(0) - winners.count(1)
        pair_games[key][0] += 0.5 * tied
        pair_games[key][1] += 0.5 * tied
        ties[key] += tied
        seat0.append((label, winners.count(0), len(g)))
    return pair_games, ties, seat0


def h2h_section(rows: Sequence[Row], plots: Plots) -> list[str]:
    groups = _groups(rows, "h2h:")
    if not groups:
        return []
    out = [
        "## Policies head to head",
        "",
        "Two-player games; each pair of policies plays in both seatings on the same seeds. "
        "*A wins*: the share of the pair's games won by the first-named policy (ties, if any, "
        "count half, and are listed).",
        "",
    ]
    pair_games, ties, seat0 = _tally_pairs(groups)
    body, labels, values = [], [], []
    for (a, b), (wa, wb) in sorted(pair_games.items()):
        if a == b:
            continue
        n = round(wa + wb)
        body.append((f"{a} vs {b}", n, share(round(wa), n), ties[(a, b)]))
        labels.append(f"{a} vs {b}")
        values.append((round(wa), n))
    if body:
        out.append(table(("pair (A vs B)", "games", "A wins", "ties"), body))
        out.append("")
        out.append(plots.bars("h2h", labels, [("A wins", values)],
                              "Head to head: the first policy's share of wins", "games won (%)"))
        out.append("")
    out.append("Each seating apart (*seat 0 wins*: the share won by the policy named first, "
               "who moves first):")
    out.append("")
    out.append(table(("seating", "games", "seat 0 wins"),
                     [(lab, n, share(k, n)) for lab, k, n in seat0]))
    out.append("")
    games = {k: (v[0], v[1]) for k, v in pair_games.items() if k[0] != k[1]}
    if games:
        ratings = bradley_terry(games)
        anchor = ratings.get("random", 0.0)
        out += [
            "### Rating table",
            "",
            "A Bradley-Terry fit of all the head-to-head games (each pair given half a win "
            "each way as a prior, so that an unbeaten policy has a finite rating), on the Elo "
            "scale and anchored at random = 0: a difference of D points means the stronger "
            "wins a share 1/(1+10^(-D/400)) of their games.",
            "",
            table(("policy", "rating", "games"),
                  [(p, f"{r - anchor:.0f}",
                    round(sum(wa + wb for (a, b), (wa, wb) in games.items() if p in (a, b))))
                   for p, r in sorted(ratings.items(), key=lambda t: -t[1])]),
            "",
        ]
    return out


def seats_section(rows: Sequence[Row], plots: Plots) -> list[str]:
    groups = _groups(rows, "seats:")
    if not groups:
        return []
    out = [
        "## Win rate by seat",
        "",
        "Every seat plays greedy; seat 0 moves first. A seat's share counts the games it won "
        "alone (shared first places are listed apart). If the seat did not matter, each of k "
        "seats would win 1/k of the games.",
        "",
    ]
    body: list[Sequence[object]] = []
    series: list[tuple[str, list[tuple[int, int]]]] = []
    labels: list[str] = []
    seats = max(_int(r.get("players")) for g in groups.values() for r in g)
    per_seat: list[list[tuple[int, int]]] = [[] for _ in range(seats)]
    for label, g in groups.items():
        n = len(g)
        players = _int(g[0].get("players"))
        shared = sum(1 for r in g if _int(r.get("winners")) > 1)
        cells: list[object] = [readable(label), n]
        for s in range(seats):
            if s < players:
                k = sum(1 for r in g if r.get("winner") == s)
                cells.append(share(k, n))
                per_seat[s].append((k, n))
            else:
                cells.append("")
                per_seat[s].append((0, 0))
        cells.append(shared)
        body.append(cells)
        labels.append(readable(label))
    series = [(f"seat {s}", per_seat[s]) for s in range(seats)]
    out.append(table(("setting", "games", *(f"seat {s} wins" for s in range(seats)), "shared"),
                     body))
    out.append("")
    out.append(plots.bars("seats", labels, series, "Win rate by seat", "games won (%)"))
    out.append("")
    out += trunks_section(rows, groups, plots)
    return out


def trunks_section(rows: Sequence[Row], groups: dict[str, list[Row]], plots: Plots) -> list[str]:
    kinds = sorted({k[len("trunks_"):-2] for r in rows for k in r if k.startswith("trunks_")})
    if not kinds:
        return []
    out = [
        "### The value of each trunk kind",
        "",
        "Over the same greedy games, each player's game counts once (a *player-game*). For "
        "each trunk kind: the win rate of the player-games that carried off at least one trunk "
        "of that kind against those that carried off none, and the difference in mean final "
        "points (the trunks' own points included). "
        "This is a correlation, not a controlled experiment: a player who takes more wagons "
        "also meets more trunks.",
        "",
    ]
    body, labels, with_s, without_s = [], [], [], []
    for kind in kinds:
        took_w = took_n = none_w = none_n = 0
        took_pts: list[float] = []
        none_pts: list[float] = []
        for g in groups.values():
            for r in g:
                for s in range(_int(r.get("players"))):
                    count = r.get(f"trunks_{kind}_{s}")
                    if count is None:
                        continue
                    won = r.get("winner") == s
                    pts = float(_int(r.get(f"score_{s}")))
                    if _int(count) > 0:
                        took_n += 1
                        took_w += won
                        took_pts.append(pts)
                    else:
                        none_n += 1
                        none_w += won
                        none_pts.append(pts)
        diff = (statistics.fmean(took_pts) - statistics.fmean(none_pts)
                if took_pts and none_pts else math.nan)
        body.append((kind, took_n, share(took_w, took_n), none_n, share(none_w, none_n),
                     f"{diff:+.2f}" if not math.isnan(diff) else "-"))
        labels.append(kind)
        with_s.append((took_w, took_n))
        without_s.append((none_w, none_n))
    out.append(table(("trunk kind", "player-games with", "won", "player-games without", "won",
                      "points difference"), body))
    out.append("")
    out.append(plots.bars("trunks", labels, [("took one or more", with_s), ("took none",
                                                                          without_s)],
                          "Win rate of player-games with and without each trunk kind",
                          "player-games won (%)"))
    out.append("")
    return out


def _reading_row(
    label: str,
    g: Sequence[Row],
    b_out: dict[int, float],
    b_len: dict[int, float],
    outcome: Callable[[Row], float],
    length: Callable[[Row], float],
) -> tuple[tuple[object, ...], tuple[float, float, float], float]:
    """One option reading against the defaults: its table row, its difference in percentage
    points (mean, low, high) and the sign test's p."""
    o = {_int(r.get("seed")): outcome(r) for r in g}
    ln = {_int(r.get("seed")): length(r) for r in g}
    _pairs, mean, low, high = paired_shares(b_out, o)
    _, lmean, llow, lhigh = paired_difference(b_len, ln)
    k = sum(1 for r in g if outcome(r))
    better = sum(1 for seed in o if seed in b_out and o[seed] > b_out[seed])
    worse = sum(1 for seed in o if seed in b_out and o[seed] < b_out[seed])
    p = sign_test(better, worse)
    row = (label, len(g), share(k, len(g)), plus_minus(mean, low, high, 100, " pp"),
           f"{better}/{worse}, p = {p:.2g}", f"{statistics.fmean(ln.values()):.1f}",
           plus_minus(lmean, llow, lhigh))
    return row, (100 * mean, 100 * low, 100 * high), p


def options_section(rows: Sequence[Row], plots: Plots) -> list[str]:
    groups = _groups(rows, "option:")
    base = groups.get("default")
    if not base:
        return []
    competitive = _competitive(base)
    measure_name = "seat 0 wins" if competitive else "team won"

    def outcome(r: Row) -> float:
        return 1.0 if (r.get("winner") == 0 if competitive else r.get("won")) else 0.0

    def length(r: Row) -> float:
        return float(_int(r.get("decisions")))

    out = [
        "## Sensitivity to each rule option",
        "",
        f"Each rule option's other readings, one at a time, against the defaults, on the same "
        f"seeds (policies: {base[0].get('policies')}). *{measure_name}*: the share of games "
        f"{'won by the first player' if competitive else 'the team won'}; *difference*: the "
        "difference of the two shares over the seeds both settings played (this reading - "
        "default), in percentage points, with its 95 % interval for paired shares (Newcombe's, "
        "from the two Wilson intervals); *length*: the mean number of decisions in a game, "
        "and its paired difference with the normal interval of the mean.",
        "",
    ]
    b_out = {_int(r.get("seed")): outcome(r) for r in base}
    b_len = {_int(r.get("seed")): length(r) for r in base}
    k = sum(1 for r in base if outcome(r))
    body: list[tuple[object, ...]] = [("default", len(base), share(k, len(base)), "", "",
                                       f"{statistics.fmean(b_len.values()):.1f}", "")]
    labels, diffs, pvalues = [], [], []
    for label, g in groups.items():
        if label == "default":
            continue
        row, diff, p = _reading_row(label, g, b_out, b_len, outcome, length)
        body.append(row)
        labels.append(label)
        diffs.append(diff)
        pvalues.append(p)
    out.append(table(("option reading", "games", measure_name, "difference",
                      "seeds changed +/- (sign test)", "length", "length difference"), body))
    out.append("")
    out.append("A reading with 0/0 seeds changed had the same outcome as the default on every "
               "seed (the option did not change who won); its interval is still that of two "
               "shares measured on that many seeds.")
    out.append("")
    out.append("*seeds changed +/-*: on how many seeds the reading turned the outcome from "
               "no to yes and from yes to no; *p* is the exact two-sided sign test on those "
               "seeds (when few seeds change, trust it over the normal interval).")
    out.append("")
    significant = [(lab, d, p) for lab, d, p in zip(labels, diffs, pvalues, strict=True)
                   if p < 0.05]
    if significant:
        out.append("Readings that change the outcome (sign test p < 0.05): " + "; ".join(
            f"{lab} ({d[0]:+.1f} pp)" for lab, d, _ in significant) + ".")
    else:
        out.append("No reading changes the outcome detectably at this sample size "
                   "(sign test p >= 0.05 for each).")
    out.append("")
    if labels:
        out.append(plots.intervals("options", labels, diffs,
                                   f"Change in '{measure_name}' against the defaults",
                                   "percentage points (95 % interval)"))
        out.append("")
    return out


def claims_section(rows: Sequence[Row], plots: Plots) -> list[str]:
    groups = _groups(rows, "claims:")
    if not groups:
        return []
    out = [
        "## Does a claim's verdict depend on the proof reading?",
        "",
        "Along each game, every claim the player to move could make (their side of a tile "
        "full) is judged by the exact rule under both readings of LB-OPT-1: *strict* (the "
        "opponent may get any die not already on the tile) and *bag* (only the dice in the bag "
        "now). Each distinct question is counted once per game. *differ*: the share of "
        "questions whose verdict changes with the reading (the interval treats questions as "
        "independent, which questions of one game are not); *games with a difference*: the "
        "share of games with at least one (games are independent).",
        "",
    ]
    body, labels, per_q, per_g = [], [], [], []
    for label, g in groups.items():
        n = len(g)
        checked = sum(_int(r.get("claims_checked")) for r in g)
        differ = sum(_int(r.get("differ")) for r in g)
        strict_only = sum(_int(r.get("strict_only")) for r in g)
        bag_only = sum(_int(r.get("bag_only")) for r in g)
        games = sum(1 for r in g if _int(r.get("differ")) > 0)
        body.append((readable(label), n, checked, share(differ, checked), strict_only, bag_only,
                     share(games, n)))
        labels.append(readable(label))
        per_q.append((differ, checked))
        per_g.append((games, n))
    out.append(table(("setting", "games", "claim questions", "differ", "safe only if strict",
                      "safe only if bag", "games with a difference"), body))
    out.append("")
    out.append("The bag never holds a die the strict reading does not allow, so a claim safe "
               "under *strict* is safe under *bag* too: every difference is a claim that only "
               "the *bag* reading allows. The games of one seed are the same under both "
               "readings up to the first such claim, so the share of games with a difference "
               "is the same whichever reading is played.")
    if any(per[1] == 0 for per in per_q):
        out.append("A setting with no claim questions never had a side of three dice (random "
                   "players give their tiles up long before).")
    out.append("")
    out.append(plots.bars("claims", labels, [("questions", per_q), ("games", per_g)],
                          "Claims whose verdict depends on the proof reading", "share (%)"))
    out.append("")
    return out


SECTIONS: tuple[Callable[[Sequence[Row], Plots], list[str]], ...] = (
    perfect_section, policy_section, h2h_section, seats_section, claims_section, options_section,
    mcts_section,
)


# -- the run and the projection ------------------------------------------------------------------


def _cpu_share(meta: dict[str, Scalar]) -> float | None:
    """The tasks' CPU time over their wall-clock time in the runs that recorded both (at most
    1), or None if no run did."""
    wall, cpu = meta.get("cpu_timed_task_seconds"), meta.get("cpu_timed_task_cpu_seconds")
    if not isinstance(wall, int | float) or not isinstance(cpu, int | float) or wall <= 0:
        return None
    return min(1.0, float(cpu) / float(wall)) if cpu > 0 else None


def _cpu_per_task(meta: dict[str, Scalar]) -> tuple[float, int] | None:
    """The mean CPU seconds of a task in the runs that recorded their tasks' CPU time, and how
    many tasks those runs ran; None if no run recorded both."""
    cpu, tasks = meta.get("cpu_timed_task_cpu_seconds"), meta.get("cpu_timed_tasks")
    if (not isinstance(cpu, int | float) or isinstance(tasks, bool) or not isinstance(tasks, int)
            or tasks <= 0 or cpu <= 0):
        return None
    return float(cpu) / tasks, tasks


def run_section(
    rows: Sequence[Row], meta: dict[str, Scalar], *, projected: bool = True
) -> list[str]:
    """What the runs took, and (``projected``) what the study's full size would take on N
    cores."""
    task_seconds = meta.get("task_seconds")
    out = ["## The run", "", _run_facts(rows, meta), ""]
    timed = [r for r in rows if isinstance(r.get("_seconds"), (int, float))]
    per_setting: dict[str, list[float]] = defaultdict(list)
    for r in timed:
        per_setting[str(r.get("setting"))].append(float(r["_seconds"] or 0.0))
    if timed:
        total = math.fsum(float(r["_seconds"] or 0.0) for r in timed)
    else:
        total = float(task_seconds) if isinstance(task_seconds, (int, float)) else 0.0
    if total and rows:
        per = total / (len(timed) or len(rows))
        if projected:
            out.extend(_projection(rows, meta, per, per_setting))
        else:
            out.extend(_measured(meta, per, per_setting))
    details = run_details(meta)
    if details:
        out.extend((table(("run detail", "value"), details), ""))
    return out


def _run_facts(rows: Sequence[Row], meta: dict[str, Scalar]) -> str:
    """The run's sentence: how many tasks have a result (and failed), its wall-clock time and
    the time inside its tasks, each where recorded."""
    task_seconds = meta.get("task_seconds")
    wall_seconds = meta.get("wall_seconds")
    failed = _int(meta.get("failed"))
    facts = [f"**{len(rows)}** tasks with a result" + (f", {failed} failed" if failed else "")]
    if isinstance(wall_seconds, (int, float)) and wall_seconds:
        facts.append(f"wall-clock time {duration(float(wall_seconds))}")
    if isinstance(task_seconds, (int, float)) and task_seconds:
        facts.append(f"time inside the tasks {duration(float(task_seconds))}")
    return "; ".join(facts) + "."


#: The run details a report lists, in order, with their labels (seconds shown as durations).
RUN_DETAILS = (
    ("version", "banditsolve version"),
    ("games", "tasks asked for (--games)"),
    ("seed", "seed (--seed)"),
    ("tasks", "tasks in the study"),
    ("done", "tasks with a result"),
    ("ok", "tasks answered"),
    ("failed", "tasks that failed"),
    ("runs", "runs"),
    ("executor", "executor of the last run"),
    ("workers", "workers of the last run"),
    ("wall_seconds", "wall-clock time of the runs"),
    ("task_seconds", "time inside the tasks"),
    ("cpu_timed_tasks", "tasks whose CPU time was measured"),
    ("cpu_timed_task_seconds", "their time inside the task"),
    ("cpu_timed_task_cpu_seconds", "their CPU time"),
)
#: Meta fields a report names elsewhere (the title and the command at its top).
NOT_DETAILS = frozenset({"study", "title"})


def run_details(meta: dict[str, Scalar]) -> list[tuple[str, str]]:
    """The run details of ``meta`` as (label, value) rows: the known ones in order with their
    labels, any other after them with its name in words."""
    known = dict(RUN_DETAILS)
    keys = [k for k, _ in RUN_DETAILS if k in meta]
    keys += sorted(k for k in meta if k not in known and k not in NOT_DETAILS)
    rows = []
    for key in keys:
        value = meta[key]
        if value is None:
            continue
        label = known.get(key, key.replace("_", " "))
        if key == "executor" and value == "none":
            text = "none (nothing was left to run)"
        elif key.endswith("seconds") and isinstance(value, int | float):
            text = duration(float(value))
        elif isinstance(value, int) and not isinstance(value, bool):
            text = f"{value:,}"
        else:
            text = str(value)
        rows.append((label, text))
    return rows


def _projection(
    rows: Sequence[Row], meta: dict[str, Scalar], per: float, per_setting: dict[str, list[float]]
) -> list[str]:
    """The full size's cost from ``per`` seconds a task (and each setting's mean)."""
    settings = len({r.get("setting") for r in rows})
    if not any(str(r.get("setting", "")).startswith("perfect:") for r in rows):
        target = TARGET_GAMES
        what = f"{TARGET_GAMES:,} simulated games"
        cpu = per * target  # the settings keep their shares of the cycle
    else:
        target = TARGET_SOLVES * settings
        what = f"{TARGET_SOLVES:,} solves in each of the {settings} settings"
        cpu = (TARGET_SOLVES * math.fsum(statistics.fmean(v) for v in per_setting.values())
               if per_setting else per * target)
    basis, cpu = _cost_basis(meta, target, cpu)
    out = [
        f"Measured cost: {per * 1000:.1f} ms per task on average, {basis}. The study's full "
        f"size, {what} ({target:,} tasks), would take {duration(cpu)} of one core; spread "
        "over N cores (a process pool or a Dask cluster, one worker per core, the batch "
        "overhead neglected):",
        "",
        table(("cores", "time"), [(n, duration(cpu / n)) for n in CORES]),
        "",
    ]
    return out + _by_setting(per_setting)


def _measured(
    meta: dict[str, Scalar], per: float, per_setting: dict[str, list[float]]
) -> list[str]:
    """The measured cost of a study with no full size to project."""
    text = (f"Measured cost: {per * 1000:.1f} ms per task on average, the wall-clock time "
            "inside the task on its worker (which counts the time its core gave other work, if "
            "it was shared)")
    timed_cpu = _cpu_per_task(meta)
    if timed_cpu is not None:
        text += (f"; {timed_cpu[0] * 1000:.1f} ms of CPU time per task, measured by the "
                 f"workers in {timed_cpu[1]:,} tasks")
    return [text + ".", "", *_by_setting(per_setting)]


def _by_setting(per_setting: dict[str, list[float]]) -> list[str]:
    if not per_setting or len(per_setting) > 30:
        return []
    return [
        "Cost by setting (mean time per task):",
        "",
        table(("setting", "tasks", "ms per task"),
              [(readable(k, section=True), len(v), f"{1000 * statistics.fmean(v):.1f}")
               for k, v in sorted(per_setting.items(), key=lambda t: natural_key(t[0]))]),
        "",
    ]


def _cost_basis(meta: dict[str, Scalar], target: int, cpu: float) -> tuple[str, float]:
    """What the measured cost stands on, in words, and the projected CPU time it gives."""
    timed_cpu = _cpu_per_task(meta)
    if timed_cpu is not None:
        # The tasks' own CPU time, measured on their workers in the runs that recorded it: the
        # cost a dedicated core would pay, whatever else shared the machine (a task's wall clock
        # includes the time its core ran other work). The settings take turns in the task
        # list, so those runs hold each setting's share.
        per_cpu, timed_tasks = timed_cpu
        basis = (f"the wall-clock time inside the task on its worker (which counts the time "
                 f"its core gave other work, if it was shared); the projection below is of "
                 f"CPU time: "
                 f"{per_cpu * 1000:.1f} ms per task, the CPU time the workers measured in "
                 f"the {timed_tasks:,} tasks of the runs that recorded it")
        return basis, per_cpu * target
    share = _cpu_share(meta)
    if share is None:
        return ("the wall-clock time inside the task on its worker (an upper estimate of "
                "the CPU time when its core was shared with other work)"), cpu
    # On a shared machine a task's wall clock includes the time its core ran other work: the
    # CPU time the workers measured is the cost a dedicated core would pay.
    basis = (f"the wall-clock time inside the task on its worker; the tasks had their "
             f"core for {100 * share:.0f} % of it (their CPU time over their wall-clock "
             "time, in the runs that measured both: the cores were shared), so the "
             "projection below is of CPU time: the wall-clock figures times that share")
    return basis, cpu * share


def write_report(spec: StudySpec, rows: list[Row], out_dir: Path,
                 meta: dict[str, Scalar]) -> Path:
    """Write ``report.md`` and its plots into ``out_dir``; the Markdown file's path."""
    out_dir.mkdir(parents=True, exist_ok=True)
    plots = Plots(out_dir)
    lines = [f"# {spec.title}", "", spec.description, ""]
    games = meta.get("games", len(rows))
    seed = meta.get("seed", 0)
    lines.append(
        f"Made by `banditsolve study {spec.name} --games {games} --seed {seed}` from "
        f"{len(rows)} task results (one task is one game, or one deal solved). Rerun the "
        "same command with a larger `--games` to extend it (the tasks already run are kept). "
        "Every interval is a 95 % interval."
    )
    lines.append("")
    for section in SECTIONS:
        lines += section(rows, plots)
    lines += run_section(rows, meta, projected=spec.projected)
    path = out_dir / "report.md"
    path.write_text("\n".join(lines).rstrip() + "\n", encoding="utf-8")
    return path
