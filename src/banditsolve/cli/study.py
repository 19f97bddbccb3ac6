"""``banditsolve study list`` and ``banditsolve study NAME ...``: run a shipped study, then write
its report.

The studies are those of :data:`banditsolve.study.catalog.STUDIES`. A study runs through
:func:`banditsolve.study.batch.run_study` on the executor ``--executor`` names (a process pool
on this machine by default, or Dask), stores its results under ``--out`` and resumes there when
it is started again with the same parameters. Nothing of the study libraries is imported until
the command runs.
"""

from __future__ import annotations

import argparse
import importlib.util
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from banditsolve.core.answer import ExitStatus
from banditsolve.core.flags import (
    Commands,
    add_json,
    add_quiet,
    count,
    emit,
    fail,
    folder_to_make,
    seed_number,
)
from banditsolve.core.limits import MAX_STUDY_WORKERS

#: The tasks a study runs when ``--games`` is not given and the study names no default.
DEFAULT_GAMES = 1000
#: The packages of the ``study`` extra a study needs, as imported: the stored results
#: (pyarrow), the report's plots (matplotlib), the progress bar (tqdm); and for the Dask
#: executors, dask and distributed.
STUDY_PACKAGES = ("pyarrow", "matplotlib", "tqdm")
DASK_PACKAGES = ("dask", "distributed")
INSTALL_STUDY = "pip install 'banditsolve[study]'"

EXIT_HELP = f"""\
exit status:
  {ExitStatus.YES:<4} the study ran to the end (tasks that failed are in the results, with \
their error)
  {ExitStatus.BAD_INPUT:<4} bad input or usage (one line on stderr: "banditsolve: error: ...")
  {ExitStatus.INTERRUPTED:<4} stopped by Ctrl-C: the results so far are kept; run the same \
command to resume
  {ExitStatus.TERMINATED:<4} stopped by SIGTERM: the same"""


def register(commands: Commands) -> None:
    """Add the ``study`` command to the top-level commands."""
    study: argparse.ArgumentParser = commands.add_parser(
        "study",
        help="run a study (many games or solves) and write its report",
        description="Run a shipped study (`banditsolve study list` lists them) and write its\n"
        "report. Results are stored under --out as they arrive; the same command started\n"
        "again resumes where it stopped, with nothing lost or counted twice; with a larger\n"
        "--games it grows the study (the tasks already run are kept).",
        epilog=EXIT_HELP,
    )
    add_json(study)
    add_quiet(study, "draw no progress bar (one is drawn on standard error when it is a "
              "terminal, unless --json is given)")
    study.add_argument("name", metavar="NAME", help="a study name, or `list`")
    study.add_argument(
        "--games",
        type=count(1, 10**9, "the number of games"),
        default=None,
        metavar="N",
        help="how many tasks (games or solves) in all, over the study's settings (default: "
        "the study's own); a larger N on a stored study grows it",
    )
    study.add_argument(
        "--seed", type=seed_number, default=0, metavar="S", help="the study's seed (default 0)"
    )
    study.add_argument(
        "--executor",
        nargs="+",
        default=["local"],
        metavar=("KIND", "ADDRESS"),
        help="local (a process pool, the default), dask ADDRESS (a Dask scheduler, e.g. "
        "tcp://host:8786), dask without an address (a Dask LocalCluster on this machine), "
        "or inline (this process)",
    )
    study.add_argument(
        "--workers",
        type=count(1, MAX_STUDY_WORKERS, "the number of workers"),
        default=None,
        metavar="K",
        help="worker processes (default: one per core; a Dask scheduler: its workers)",
    )
    study.add_argument(
        "--out",
        type=folder_to_make,
        metavar="DIR",
        help="the study folder: results and report (default: studies/NAME)",
    )
    study.add_argument(
        "--report",
        type=folder_to_make,
        metavar="DIR",
        help="write the report to DIR (default: the --out folder)",
    )
    study.add_argument(
        "--chunk-size",
        type=count(1, 10**6, "the chunk size"),
        default=None,
        metavar="N",
        help="tasks per call on a worker (default: sized for about 0.1 s of work per call, 2 s on "
        "Dask)",
    )
    study.add_argument(
        "--report-only",
        action="store_true",
        help="run nothing: write the report of the results stored in --out so far (of a "
        "study stopped, or still running elsewhere), with the stored study's parameters",
    )
    study.add_argument(
        "--retry-failed",
        action="store_true",
        help="run again the tasks whose stored result is an error",
    )
    # Its bar shows the tasks; the searches inside them draw no line of their own.
    study.set_defaults(handler=cmd_study, search_line=False)


def _catalog() -> dict[str, Any]:
    try:
        from banditsolve.study.catalog import STUDIES
    except ModuleNotFoundError as exc:
        if exc.name == "banditsolve.study.catalog":
            fail("no studies are shipped in this version")
        raise
    return dict(STUDIES)


def _require(packages: tuple[str, ...]) -> None:
    """Refuse in one line, before any work, when a package of the study extra is missing."""
    import importlib

    for package in packages:
        try:
            importlib.import_module(package)
        except ImportError:
            fail(f"the studies need the package {package}, of banditsolve's optional extra "
                 f"'study', which is not installed: {INSTALL_STUDY}")


def _executor(words: list[str]) -> tuple[str, str | None]:
    if len(words) > 2:
        fail(f"--executor takes a kind and at most one address, not {' '.join(words)[:60]!r}")
    kind = words[0].strip().lower()
    address = words[1] if len(words) == 2 else None
    if address is None and "://" in kind:
        return "dask", words[0]
    if kind == "dask" and address is None:
        return "local-dask", None
    return kind, address


class _Terminated(KeyboardInterrupt):
    """SIGTERM (``kill``) during a study: it stops as Ctrl-C does."""


def _stop_on_terminate() -> Callable[[], None]:
    """Until the returned function is called, SIGTERM stops the study as Ctrl-C does: the
    results that arrived are stored and the worker processes are shut down (the default action
    would end this process alone and leave its workers running). A study started in the
    background from a script ignores Ctrl-C's signal, so ``kill`` is how such a study is
    stopped."""
    import signal
    import threading

    if threading.current_thread() is not threading.main_thread():
        return lambda: None

    def stop(_signum: int, _frame: object) -> None:
        raise _Terminated

    previous = signal.signal(signal.SIGTERM, stop)

    def restore() -> None:
        signal.signal(signal.SIGTERM, previous)

    return restore


def _list_studies(args: argparse.Namespace, studies: dict[str, Any]) -> int:
    """``banditsolve study list``: each study's name and title."""
    rows = [{"name": name, "title": spec.title} for name, spec in sorted(studies.items())]
    width = max((len(r["name"]) for r in rows), default=0)
    emit(args, "\n".join(f"{r['name']:<{width}}  {r['title']}" for r in rows), rows)
    return 0


def _require_extras(spec: Any) -> None:
    """Refuse a study whose optional extras' packages are not installed, naming the extra."""
    for package, extra in spec.extras:
        if importlib.util.find_spec(package) is None:
            fail(f"the study {spec.name} needs the package {package}, of banditsolve's optional "
                 f"extra '{extra}', which is not installed: pip install 'banditsolve[{extra}]'")


def cmd_study(args: argparse.Namespace) -> int:
    studies = _catalog()
    if args.name == "list":
        return _list_studies(args, studies)
    spec = studies.get(args.name)
    if spec is None:
        fail(f"unknown study {args.name[:40]!r} (studies: {', '.join(sorted(studies)) or 'none'})")
    kind, address = _executor(args.executor)
    _require(STUDY_PACKAGES + (DASK_PACKAGES if kind in ("dask", "local-dask") else ()))
    _require_extras(spec)
    from banditsolve.study.batch import run_study
    from banditsolve.study.executors import open_executor

    out = Path(args.out) if args.out else Path("studies") / spec.name
    if args.report_only:
        return _report_only(args, spec, out)
    games = args.games or getattr(spec, "default_games", None) or DEFAULT_GAMES
    params = {"games": games, "seed": args.seed}
    tasks = spec.tasks(games, args.seed)
    restore = _stop_on_terminate()
    try:
        with open_executor(kind, address, args.workers) as pool:
            summary = run_study(
                tasks,
                out,
                executor=pool,
                chunk_size=args.chunk_size,
                progress=False if args.json or args.quiet else None,
                params=params,
                retry_failed=args.retry_failed,
                grow=("games",),
            )
    except KeyboardInterrupt as stop:
        print(
            f"banditsolve: stopped; the results so far are stored in {out}: run the same "
            "command again to resume",
            file=sys.stderr,
        )
        return ExitStatus.TERMINATED if isinstance(stop, _Terminated) else ExitStatus.INTERRUPTED
    finally:
        restore()
    report, stats = _write_report(args, spec, out, games, args.seed, summary.executor,
                                  summary.workers)
    payload = {**summary.to_json(), "report": str(report), "stored": stats}
    text = (
        f"{spec.title}: {summary.ran} tasks run ({summary.failed} failed), "
        f"{summary.already_done} already done, in {summary.wall_seconds:.1f} s on "
        f"{summary.executor} ({summary.tasks_per_second:.1f} tasks/s); results in {out}; "
        f"report: {report}"
    )
    emit(args, text, payload)
    return 0


def _write_report(args: argparse.Namespace, spec: Any, out: Path, games: object, seed: object,
                  executor: object, workers: object) -> tuple[Path, dict[str, Any]]:
    """The report of the results stored in ``out`` (written to ``--report`` or ``out``), and
    what the folder holds."""
    from banditsolve.study.batch import load_rows, study_stats

    stats = study_stats(out)
    meta: dict[str, Any] = {
        "study": spec.name,
        "title": spec.title,
        "games": games,
        "seed": seed,
        "executor": executor,
        "workers": workers,
        **{k: v for k, v in stats.items() if k != "study"},
    }
    rows = load_rows(out, with_index=True, with_seconds=True)
    report: Path = spec.report(rows, Path(args.report) if args.report else out, meta)
    return report, stats


def _report_only(args: argparse.Namespace, spec: Any, out: Path) -> int:
    """``--report-only``: the report of the results stored in ``out``, nothing run."""
    from banditsolve.study.store import read_manifest

    manifest = read_manifest(out) if out.is_dir() else None
    if manifest is None:
        fail(f"{str(out)[:60]} is not a study folder (no manifest.json): nothing to report")
    if manifest.get("study") != spec.name:
        fail(f"{str(out)[:60]} holds the study {str(manifest.get('study'))[:40]!r}, not "
             f"{spec.name!r}")
    stored = manifest.get("params") or {}
    last = (manifest.get("runs") or [{}])[-1]
    report, stats = _write_report(args, spec, out, stored.get("games"), stored.get("seed"),
                                  last.get("executor"), last.get("workers"))
    text = (f"{spec.title}: report of the {stats['done']} of {stats['tasks']} tasks stored in "
            f"{out}: {report}")
    emit(args, text, {"report": str(report), "stored": stats})
    return 0
