"""The exact search's per-node shortcuts, checked against the plain computation.

The tight case of :meth:`ExactSearch.expand` asks :meth:`ExactSearch.zone_options` twice per
front cell (first for any option, then for all) and keeps the verdicts per footprint between
the two calls; the kept verdicts must give what a fresh call gives, on random boards."""

from __future__ import annotations

import random

from banditsolve.core.limits import Limits
from banditsolve.tunnels import load_deck
from banditsolve.tunnels.cards import PORT_MASK
from banditsolve.tunnels.geometry import STEP, Cell
from banditsolve.tunnels.solvers.exact import ExactSearch
from banditsolve.tunnels.solvers.options import fits_zone, rows, signature
from tests.profiles import scaled
from tests.tunnels.helpers import random_table


def test_zone_options_with_kept_verdicts_are_the_fresh_ones() -> None:
    """On random boards, with a zone of every front cell and its four neighbours, the options
    at each front cell after a first call (``first``) with kept verdicts are those of a fresh
    call, and each is an option whose footprint :func:`fits_zone` accepts."""
    types = load_deck().types
    checked = 0
    for seed in range(scaled(30, 90)):
        rng = random.Random(seed)
        table = random_table(seed, rng.randrange(2, 9))
        kinds = tuple(sorted(rng.sample(types, 6)))
        search = ExactSearch(table, list(kinds), None, Limits())
        zone: dict[Cell, list[Cell]] = {}
        for tx, ty in table.front_rim:
            zone.setdefault((tx, ty), []).append((tx, ty))
            for dx, dy in STEP:
                if rng.random() < 0.5:
                    zone.setdefault((tx + dx, ty + dy), []).append((tx, ty))
        for t, fv in table.front_rim.items():
            sig = signature(table.rim, t, fv, None)
            kept: dict[tuple[Cell, tuple[Cell, ...]], bool] = {}
            first = search.zone_options(t, sig, kinds, zone, True, kept)
            again = search.zone_options(t, sig, kinds, zone, False, kept)
            fresh = search.zone_options(t, sig, kinds, zone, False)
            assert again == fresh
            assert first == fresh[:1]
            tx, ty = t
            expected = [
                (delta, code, tx + adx, ty + ady, rotation)
                for code in kinds
                for delta, adx, ady, rotation, other, faced in rows(code & PORT_MASK, sig)
                if fits_zone(t, other, faced, table.cells, zone)
            ]
            assert fresh == expected
            checked += len(fresh)
    assert checked > 0
