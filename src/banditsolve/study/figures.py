"""The figures of the studies' reports: shares, intervals and paired differences, a rating
fit, Markdown tables and durations, and the plots (matplotlib, imported only when a report is
drawn; backend Agg: no display needed).

Every interval is 95 %: Wilson's for a share, Newcombe's for the difference of two shares
measured on the same seeds (both within [0, 100] % and [-100, 100] points), the normal interval
of the mean of the per-seed differences for a paired comparison of a length.
"""

from __future__ import annotations

import math
import re
import statistics
from collections import defaultdict
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

from banditsolve.core.stats import Z95, paired_share_difference, wilson
from banditsolve.core.text import plural

# -- statistics ----------------------------------------------------------------------------------


def share(successes: int, n: int) -> str:
    """``"41.2 % (38.1-44.4)"``: the share and its Wilson interval, in percent."""
    if n == 0:
        return "-"
    low, high = wilson(successes, n)
    return f"{100 * successes / n:.1f} % ({100 * low:.1f}-{100 * high:.1f})"


def mean_interval(values: Sequence[float]) -> tuple[float, float, float]:
    """The mean of ``values`` and its 95 % normal interval (``mean ± z·s/√n``)."""
    n = len(values)
    if n == 0:
        return (math.nan, math.nan, math.nan)
    mean = math.fsum(values) / n
    if n < 2:
        return (mean, math.nan, math.nan)
    half = Z95 * statistics.stdev(values) / math.sqrt(n)
    return (mean, mean - half, mean + half)


def paired_difference(
    base: dict[int, float], other: dict[int, float]
) -> tuple[int, float, float, float]:
    """``(pairs, mean, low, high)``: the mean over the seeds both have of ``other - base``, with
    its 95 % interval."""
    seeds = sorted(set(base) & set(other))
    diffs = [other[s] - base[s] for s in seeds]
    mean, low, high = mean_interval(diffs)
    return (len(seeds), mean, low, high)


def paired_shares(
    base: dict[int, float], other: dict[int, float]
) -> tuple[int, float, float, float]:
    """``(pairs, mean, low, high)`` for outcomes that are 0 or 1: the difference of the shares
    (``other - base``) over the seeds both have, with Newcombe's paired interval (always
    within [-1, 1], unlike the normal interval of :func:`paired_difference` on few seeds)."""
    seeds = sorted(set(base) & set(other))
    both = sum(1 for s in seeds if base[s] and other[s])
    base_only = sum(1 for s in seeds if base[s] and not other[s])
    other_only = sum(1 for s in seeds if other[s] and not base[s])
    neither = len(seeds) - both - base_only - other_only
    mean, low, high = paired_share_difference(both, base_only, other_only, neither)
    return (len(seeds), mean, low, high)


def sign_test(better: int, worse: int) -> float:
    """The exact two-sided sign test of ``better`` against ``worse`` changed pairs: the chance,
    were both directions equally likely, of a split at least this uneven (1.0 with none)."""
    n = better + worse
    if n == 0:
        return 1.0
    k = min(better, worse)
    count: int = sum(math.comb(n, i) for i in range(k + 1))
    tail: float = count / (1 << n)  # big-int division, correctly rounded
    return min(1.0, 2 * tail)


def bradley_terry(
    games: dict[tuple[str, str], tuple[float, float]], *, prior: float = 0.5, rounds: int = 2000
) -> dict[str, float]:
    """Bradley-Terry strengths fitted by the minorisation-maximisation iteration, on the Elo
    scale (``400·log10``, the mean of the players 0).

    ``games[(a, b)] = (wins of a, wins of b)`` over their games (ties as half a win each).
    ``prior`` adds that many wins to each side of every pair that met, so that a policy that won
    every game still has a finite rating."""
    names = sorted({n for pair in games for n in pair})
    wins, meets = _bt_tally(games, prior)
    strength = dict.fromkeys(names, 1.0)
    for _ in range(rounds):
        new = {i: _bt_update(i, wins, meets, strength) for i in names}
        scale = math.exp(statistics.fmean(math.log(v) for v in new.values()))
        new = {k: v / scale for k, v in new.items()}
        done = max(abs(new[k] - strength[k]) for k in names) < 1e-12
        strength = new
        if done:
            break
    return {n: 400 * math.log10(strength[n]) for n in names}


def _bt_tally(
    games: dict[tuple[str, str], tuple[float, float]], prior: float
) -> tuple[dict[str, float], dict[tuple[str, str], float]]:
    """Each player's wins and each pair's games (both with ``prior`` added per side), a pair
    keyed by its names in order; a player's games against itself left out."""
    wins: dict[str, float] = defaultdict(float)
    meets: dict[tuple[str, str], float] = defaultdict(float)
    for (a, b), (wa, wb) in games.items():
        if a == b:
            continue
        wins[a] += wa + prior
        wins[b] += wb + prior
        key = (a, b) if a < b else (b, a)
        meets[key] += wa + wb + 2 * prior
    return wins, meets


def _bt_update(
    i: str, wins: dict[str, float], meets: dict[tuple[str, str], float],
    strength: dict[str, float],
) -> float:
    """Player ``i``'s next strength in the minorisation-maximisation iteration (its strength
    unchanged if it met no one)."""
    denominator = 0.0
    for (a, b), m in meets.items():
        if i in (a, b):
            j = b if i == a else a
            denominator += m / (strength[i] + strength[j])
    return wins[i] / denominator if denominator > 0 else strength[i]


# -- formatting ----------------------------------------------------------------------------------

#: The readable name of each section prefix of a setting's label.
SECTION_NAMES = {
    "perfect": "perfect information",
    "policy": "policies",
    "h2h": "head to head",
    "seats": "seats",
    "option": "rule option",
    "claims": "claims",
}


def natural_key(text: str) -> tuple[tuple[int, int | str], ...]:
    """A sort key that orders the numbers inside ``text`` by value: ``hand_size=2`` before
    ``hand_size=10``, ``12x8`` before ``20x20``.

    >>> sorted(["size=10", "size=9", "size=12x8", "b"], key=natural_key)
    ['b', 'size=9', 'size=10', 'size=12x8']
    """
    return tuple((0, int(part)) if part.isdigit() else (1, part)
                 for part in re.split(r"(\d+)", text) if part)


def readable(label: str, *, section: bool = False) -> str:
    """A setting's label for a reader: ``2p`` as ``2 players``, the section's prefix named in
    words (with ``section``) or left out.

    >>> readable("seats:1p greedy", section=True)
    'seats: 1 player greedy'
    >>> readable("policy:random 3p mode 2")
    'random 3 players mode 2'
    """
    prefix, sep, rest = label.partition(":")
    if not sep or prefix not in SECTION_NAMES:
        prefix, rest = "", label
    rest = re.sub(r"\b(\d+)p\b", lambda m: plural(int(m.group(1)), "player"), rest)
    return f"{SECTION_NAMES[prefix]}: {rest}" if section and prefix else rest



def table(header: Sequence[str], body: Iterable[Sequence[object]]) -> str:
    """A Markdown table."""
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    lines.extend("| " + " | ".join(_cell(v) for v in row) + " |" for row in body)
    return "\n".join(lines)


def _cell(value: object) -> str:
    if isinstance(value, float):
        return "-" if math.isnan(value) else f"{value:.3g}"
    return str(value)


def plus_minus(mean: float, low: float, high: float, scale: float = 1.0, unit: str = "") -> str:
    """``mean`` with its interval, signed, scaled by ``scale`` (``"-"`` when there is none)."""
    if math.isnan(mean):
        return "-"
    if math.isnan(low):
        return f"{scale * mean:+.2f}{unit}"
    return f"{scale * mean:+.2f}{unit} ({scale * low:+.2f} to {scale * high:+.2f})"


def duration(seconds: float) -> str:
    """``"2 h 05 min"``, ``"3 min 20 s"`` or ``"12.5 s"``."""
    if seconds >= 3600:
        return f"{int(seconds // 3600)} h {int(seconds % 3600 // 60):02d} min"
    if seconds >= 60:
        return f"{int(seconds // 60)} min {int(seconds % 60):02d} s"
    return f"{seconds:.1f} s"


# -- plots ---------------------------------------------------------------------------------------


class Plots:
    """Writes each figure as PNG and SVG into the report's folder (matplotlib, Agg)."""

    def __init__(self, out_dir: Path) -> None:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt

        self.plt = plt
        self.out_dir = out_dir
        self.written: list[str] = []

    def save(self, fig: Any, name: str) -> str:
        fig.tight_layout()
        for ext in ("png", "svg"):
            fig.savefig(self.out_dir / f"{name}.{ext}", dpi=110)
        self.plt.close(fig)
        self.written.append(name)
        return f"![{name}]({name}.png) ([SVG]({name}.svg))"

    def bars(
        self,
        name: str,
        labels: Sequence[str],
        series: Sequence[tuple[str, Sequence[tuple[int, int]]]],
        title: str,
        xlabel: str,
    ) -> str:
        """Horizontal bars of shares with Wilson intervals: ``series`` of (name, [(k, n)])."""
        fig, ax = self.plt.subplots(figsize=(8, 0.45 * len(labels) * len(series) + 1.6))
        height = 0.8 / max(1, len(series))
        for s, (sname, values) in enumerate(series):
            ys = [i + s * height for i in range(len(labels))]
            xs, lo, hi = [], [], []
            for k, n in values:
                p = k / n if n else 0.0
                a, b = wilson(k, n) if n else (p, p)
                xs.append(100 * p)
                lo.append(max(0.0, 100 * (p - a)))
                hi.append(max(0.0, 100 * (b - p)))
            ax.barh(ys, xs, height=height, xerr=[lo, hi], capsize=3, label=sname)
        ax.set_yticks([i + height * (len(series) - 1) / 2 for i in range(len(labels))])
        ax.set_yticklabels(labels, fontsize=8)
        ax.invert_yaxis()
        ax.set_xlim(0, 100)  # shares: the axis ends where they do
        ax.set_xlabel(xlabel)
        ax.set_title(title, fontsize=10)
        if len(series) > 1:
            ax.legend(fontsize=8)
        return self.save(fig, name)

    def intervals(
        self, name: str, labels: Sequence[str], values: Sequence[tuple[float, float, float]],
        title: str, xlabel: str,
    ) -> str:
        """Points with intervals around zero (paired differences)."""
        fig, ax = self.plt.subplots(figsize=(8, 0.3 * len(labels) + 1.6))
        ys = list(range(len(labels)))
        xs = [m for m, _, _ in values]
        err_lo = [0.0 if math.isnan(lo) else m - lo for m, lo, _ in values]
        err_hi = [0.0 if math.isnan(hi) else hi - m for m, _, hi in values]
        ax.errorbar(xs, ys, xerr=[err_lo, err_hi], fmt="o", capsize=3)
        ax.axvline(0.0, color="grey", linewidth=0.8)
        ax.set_yticks(ys)
        ax.set_yticklabels(labels, fontsize=7)
        ax.invert_yaxis()
        ax.set_xlabel(xlabel)
        ax.set_title(title, fontsize=10)
        return self.save(fig, name)

    def stacked(
        self, name: str, labels: Sequence[str], parts: Sequence[tuple[str, Sequence[float]]],
        marks: Sequence[tuple[str, Sequence[float]]], title: str, xlabel: str,
    ) -> str:
        """Stacked horizontal bars (shares in percent) with point marks."""
        fig, ax = self.plt.subplots(figsize=(8, 0.35 * len(labels) + 1.8))
        ys = list(range(len(labels)))
        left = [0.0] * len(labels)
        colours = ("#2e7d32", "#bdbdbd", "#c62828")
        for (pname, values), colour in zip(parts, colours, strict=False):
            ax.barh(ys, values, left=left, color=colour, label=pname)
            left = [a + b for a, b in zip(left, values, strict=True)]
        for (mname, values), marker in zip(marks, ("D", "x"), strict=False):
            ax.scatter(values, ys, marker=marker, color="black", zorder=3, label=mname)
        ax.set_yticks(ys)
        ax.set_yticklabels(labels, fontsize=8)
        ax.invert_yaxis()
        ax.set_xlim(0, 100)
        ax.set_xlabel(xlabel)
        ax.set_title(title, fontsize=10)
        ax.legend(fontsize=7, loc="lower right")
        return self.save(fig, name)
