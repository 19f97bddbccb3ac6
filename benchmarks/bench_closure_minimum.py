"""Benchmark of the minimum-cards question (``min_cards_to_close``): the compiled core beside
the Python reference, on the closure benchmark's positions.

The positions, limits and figures are ``bench_closure.py``'s (see its docstring): 5, 10, 15,
20 cards and the whole remaining pile, both super-card sides, seeded greedy games at a random
stage of each; the share decided within 0.1, 1 and 10 s per backend, the ratio of node rates
and of wall times, agreement (same verdict and same number of cards) and peak memory. A
position counts as decided when the answer is ``impossible`` or a closure whose card count is a
proven minimum; a closure found without that proof counts as undecided here.

``bench_closure.py`` runs this part too (its ``closure.md`` has a section for it, and it writes
``closure_minimum.md`` from the same run), so ``benchmarks/run.py`` skips this suite unless
``--only closure_minimum`` names it. Run ``python benchmarks/bench_closure_minimum.py [--quick]``
for this part alone; it writes ``benchmarks/results/closure_minimum.md`` and ``.json``.
"""

from __future__ import annotations

import json

import bench_closure  # the script's own folder

#: benchmarks/run.py runs this part within bench_closure's run, not again on its own.
INCLUDED_IN = "bench_closure"


def run(quick: bool = False) -> dict[str, object]:
    """The minimum-cards groups of ``bench_closure`` alone."""
    return bench_closure.run(quick, kinds=("minimum",), name="closure_minimum")


if __name__ == "__main__":
    from flags import read_flags  # the script's own folder

    print(json.dumps(run(quick="--quick" in read_flags(__doc__)[0]), indent=1))
