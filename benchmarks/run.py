"""Run every benchmark suite: each ``benchmarks/bench_*.py`` with its ``run(quick=...)``.

    python benchmarks/run.py [--quick] [--only NAME]

Each suite writes its own results (markdown and JSON under ``benchmarks/results/``) and returns
a dict; this script prints the files each suite reports under ``"written"``. A suite whose
``INCLUDED_IN`` names another runs within that one's run (skipped here unless ``--only`` names
it).
"""

from __future__ import annotations

import argparse
import importlib.util
import sys
import time
from pathlib import Path
from types import ModuleType

HERE = Path(__file__).resolve().parent


def load_suite(path: Path) -> ModuleType:
    spec = importlib.util.spec_from_file_location(f"benchmarks_{path.stem}", path)
    if spec is None or spec.loader is None:
        raise ImportError(f"cannot load benchmark suite {path}")
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="fewer cases, for a smoke run")
    parser.add_argument("--only", help="run only bench_NAME.py")
    args = parser.parse_args(argv)
    suites = sorted(HERE.glob("bench_*.py"))
    if args.only:
        suites = [p for p in suites if p.stem in (args.only, f"bench_{args.only}")]
        if not suites:
            print(f"no benchmark suite named {args.only!r}", file=sys.stderr)
            return 2
    for path in suites:
        suite = load_suite(path)
        part_of = getattr(suite, "INCLUDED_IN", None)
        if part_of and not args.only:
            print(f"== {path.name}: part of {part_of}.py's run", flush=True)
            continue
        print(f"== {path.name}", flush=True)
        start = time.perf_counter()
        result = suite.run(quick=args.quick)
        elapsed = time.perf_counter() - start
        written = result.get("written", []) if isinstance(result, dict) else []
        for item in written if isinstance(written, list) else [written]:
            print(f"   wrote {item}")
        print(f"   done in {elapsed:.1f} s", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
