"""Statistics shared by the estimates every game reports and by the studies' reports: the Wilson
interval of a share, Newcombe's interval of a difference of two paired shares."""

from __future__ import annotations

import math

#: The normal quantile of a two-sided 95 % interval.
Z95 = 1.959963984540054


def wilson(successes: int, n: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of a binomial proportion (95 % by default).

    >>> low, high = wilson(50, 100)
    >>> round(low, 4), round(high, 4)
    (0.4038, 0.5962)
    >>> wilson(0, 0)
    (0.0, 1.0)
    """
    if n <= 0:
        return (0.0, 1.0)
    if not 0 <= successes <= n:
        raise ValueError(f"successes {successes} outside 0..{n}")
    p = successes / n
    z2 = z * z
    centre = (p + z2 / (2 * n)) / (1 + z2 / n)
    half = z * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n)) / (1 + z2 / n)
    return (max(0.0, centre - half), min(1.0, centre + half))


def paired_share_difference(
    both: int, first_only: int, second_only: int, neither: int, z: float = Z95
) -> tuple[float, float, float]:
    """The difference of two shares measured on the same cases (``second - first``: each case
    a yes or no under both), with its interval: Newcombe's hybrid score interval for paired
    proportions (his method 10, 1998), built from each share's Wilson interval and their
    correlation. Unlike the normal interval of the mean difference it stays within [-1, 1]
    however few the cases.

    ``both``: the cases yes under both; ``first_only`` / ``second_only``: yes under one only;
    ``neither``: no under both.

    >>> mean, low, high = paired_share_difference(1, 0, 1, 0)  # two cases: the normal
    >>> round(mean, 2), -1 <= low <= mean <= high <= 1          # interval reaches past 1
    (0.5, True)
    >>> paired_share_difference(30, 0, 0, 70)[:1]
    (0.0,)
    """
    counts = (both, first_only, second_only, neither)
    if any(c < 0 for c in counts):
        raise ValueError(f"paired counts must not be negative: {counts}")
    n = sum(counts)
    if n == 0:
        return (math.nan, -1.0, 1.0)
    p1, p2 = (both + first_only) / n, (both + second_only) / n
    l1, u1 = wilson(both + first_only, n, z)
    l2, u2 = wilson(both + second_only, n, z)
    product = (both + first_only) * (second_only + neither) * (both + second_only) * (
        first_only + neither)
    phi = (both * neither - first_only * second_only) / math.sqrt(product) if product else 0.0
    diff = p2 - p1
    below = math.sqrt(max(0.0, (p2 - l2) ** 2 - 2 * phi * (p2 - l2) * (u1 - p1) + (u1 - p1) ** 2))
    above = math.sqrt(max(0.0, (u2 - p2) ** 2 - 2 * phi * (u2 - p2) * (p1 - l1) + (p1 - l1) ** 2))
    return (diff, max(-1.0, diff - below), min(1.0, diff + above))
