"""Where a study's results live: a folder of Parquet part files, a journal and a manifest.

Layout of a study folder::

    manifest.json          the study, its parameters, the library version, the number of tasks
                           and one line per run (when, how long, on what)
    parts/part-NNNNNN.parquet
                           finished results, one row per task that ended (columns
                           ``_index``, ``_status`` ("ok" or "error"), ``_attempts``,
                           ``_error_type``, ``_error_message``, ``_seconds``, ``_digest``, then
                           the question's own columns, the same in every row of a part); each
                           part's schema metadata repeats the
                           study, its parameters and the library version
    journal.jsonl          results that arrived since the last part was written, one JSON line
                           each, written as they arrive (so that a crash loses nothing that
                           finished); folded into a part when it grows, at the end of a run and
                           when a stopped study starts again
    .lock                  held while a run is writing (a second run on the folder is refused)

Every write that replaces a file goes to a temporary name first and is then renamed, so a part
is either whole or absent. A result can be stored twice (a crash between writing a part and
emptying the journal); readers keep one record per task index, an ``ok`` one when there is one,
so nothing is ever counted twice.

Nothing here imports pyarrow until a part is written or read.
"""

from __future__ import annotations

import json
import os
import time
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any

from banditsolve import __version__
from banditsolve.core.hooks import Row, Scalar
from banditsolve.errors import BanditsolveError

#: The layout version of a study folder.
FORMAT = 1

MANIFEST = "manifest.json"
JOURNAL = "journal.jsonl"
PARTS = "parts"
LOCK = ".lock"

#: The bookkeeping columns of a stored record (a question's own columns must not start with "_").
META_COLUMNS = (
    "_index",
    "_status",
    "_attempts",
    "_error_type",
    "_error_message",
    "_seconds",
    "_digest",
)


class StudyError(BanditsolveError):
    """A study folder cannot be used as asked."""


class StudyMismatchError(StudyError):
    """The folder holds a study started with other parameters (or another library version, or
    other tasks): its results cannot be mixed with this run's."""


class StudyBusyError(StudyError):
    """Another run is writing to the folder."""


@dataclass(frozen=True, slots=True)
class Record:
    """One stored result: a task attempt that ended, with its row or its error."""

    index: int
    status: str  # "ok" or "error"
    attempts: int
    error_type: str | None
    error_message: str | None
    seconds: float
    digest: str
    row: Row

    @property
    def ok(self) -> bool:
        return self.status == "ok"

    def to_flat(self) -> dict[str, Scalar]:
        flat: dict[str, Scalar] = {
            "_index": self.index,
            "_status": self.status,
            "_attempts": self.attempts,
            "_error_type": self.error_type,
            "_error_message": self.error_message,
            "_seconds": self.seconds,
            "_digest": self.digest,
        }
        flat.update(self.row)
        return flat

    @staticmethod
    def from_flat(flat: Mapping[str, Any]) -> Record:
        return Record(
            index=int(flat["_index"]),
            status=str(flat["_status"]),
            attempts=int(flat["_attempts"]),
            error_type=flat.get("_error_type"),
            error_message=flat.get("_error_message"),
            seconds=float(flat["_seconds"]),
            digest=str(flat["_digest"]),
            row={k: v for k, v in flat.items() if not k.startswith("_")},
        )


def _short(text: object, limit: int = 60) -> str:
    s = str(text)
    return s if len(s) <= limit else s[: limit - 3] + "..."


def _atomic_write_text(path: Path, text: str) -> None:
    tmp = path.with_name(f".{path.name}.tmp-{os.getpid()}")
    with open(tmp, "w", encoding="utf-8") as handle:
        handle.write(text)
        handle.flush()
        os.fsync(handle.fileno())
    os.replace(tmp, path)


# -- columns ------------------------------------------------------------------------------------


_BASES = (bool, int, float, str)  # bool first: a bool is an int too
_BASE_SET = frozenset(_BASES)


def _column(values: list[Scalar]) -> tuple[Any, list[Scalar]]:
    """The Arrow type that holds every value of a column without loss (nulls allowed), and
    the values to store in it: booleans, 64-bit integers (signed, else unsigned), floats
    (integers among floats become floats), else text (a value that is not text stored as
    its JSON). The column's types are looked at once; values are converted only when the
    column mixes them."""
    import pyarrow as pa

    kinds = _kinds(values)
    if not kinds:
        return pa.null(), values
    if kinds == {bool}:
        return pa.bool_(), values
    if kinds == {int}:
        fits = _int_type([v for v in values if isinstance(v, int)])
        if fits is not None:
            return fits, values
    elif kinds <= {int, float}:  # (not bool: a column of bools and numbers is text)
        return pa.float64(), [None if v is None else float(v) for v in values]
    if kinds == {str}:
        return pa.string(), values
    return pa.string(), [v if v is None or isinstance(v, str) else json.dumps(v)
                         for v in values]


def _kinds(values: list[Scalar]) -> set[type]:
    """The base types of a column's values (None left out; a subclass such as an IntEnum or
    a str subclass counted by what it is)."""
    kinds: set[type] = set(map(type, values))
    kinds.discard(type(None))
    if kinds <= _BASE_SET:
        return kinds
    return {next(base for base in _BASES if isinstance(v, base)) for v in values if v is not None}


def _int_type(present: list[int]) -> Any:
    """The Arrow integer type holding every value (signed, else unsigned 64 bits), or None."""
    import pyarrow as pa

    low, high = min(present), max(present)
    if low >= -(2**63) and high < 2**63:
        return pa.int64()
    if low >= 0 and high < 2**64:
        return pa.uint64()
    return None


_META_TYPES = {"_index": "int64", "_attempts": "int16", "_seconds": "float64",
               "_status": "string", "_error_type": "string", "_error_message": "string",
               "_digest": "string"}


def records_table(records: list[Record], metadata: Mapping[str, str]) -> Any:
    """The records as one Arrow table (the union of their columns; absent values are null)."""
    import pyarrow as pa

    flats = [r.to_flat() for r in records]
    names: dict[str, None] = dict.fromkeys(META_COLUMNS)
    for flat in flats:
        names.update(dict.fromkeys(flat))
    arrays = []
    fields = []
    for name in names:
        values = [flat.get(name) for flat in flats]
        meta = _META_TYPES.get(name)
        if meta is not None:
            kind: Any = getattr(pa, meta)()
        else:
            kind, values = _column(values)
        arrays.append(pa.array(values, type=kind))
        fields.append(pa.field(name, kind))
    schema = pa.schema(fields, metadata=dict(metadata))
    return pa.Table.from_arrays(arrays, schema=schema)


# -- the store ----------------------------------------------------------------------------------


class Store:
    """A study folder, opened for one run (see the module's description of the layout)."""

    def __init__(self, out_dir: str | os.PathLike[str]) -> None:
        self.root = Path(out_dir)
        self._lock: IO[str] | None = None
        self._journal: IO[str] | None = None
        self._pending: list[Record] = []
        self._next_part = 0

    # -- paths
    @property
    def manifest_path(self) -> Path:
        return self.root / MANIFEST

    @property
    def journal_path(self) -> Path:
        return self.root / JOURNAL

    @property
    def parts_dir(self) -> Path:
        return self.root / PARTS

    # -- opening
    def open(self, manifest: Mapping[str, Any], grow: Iterable[str] = ()) -> bool:
        """Take the folder for a run of the study ``manifest`` describes: create it, or check
        that it holds the same study (else :class:`StudyMismatchError`); fold a journal left by a
        stopped run into a part. The parameters named in ``grow`` may differ from the stored
        ones when the study grows (more tasks; the stored tasks' results are kept): the answer
        is then true, and :meth:`resize` records the new size once the caller has checked that
        the stored results are of its tasks."""
        if self.root.exists() and not self.root.is_dir():
            raise StudyError(f"{_short(self.root)} is a file, not a study folder")
        try:
            self.root.mkdir(parents=True, exist_ok=True)
            self.parts_dir.mkdir(exist_ok=True)
        except OSError as exc:
            raise StudyError(
                f"cannot create the study folder {_short(self.root)}: "
                f"{exc.strerror or exc.__class__.__name__}"
            ) from None
        self._take_lock()
        grows = False
        try:
            existing = read_manifest(self.root)
            if existing is None:
                if any(self.parts_dir.glob("*.parquet")) or self.journal_path.exists():
                    raise StudyMismatchError(
                        f"{_short(self.root)} holds results but no {MANIFEST}: "
                        "give another --out folder"
                    )
                _atomic_write_text(self.manifest_path, json.dumps(dict(manifest), indent=2))
            else:
                grows = check_same_study(existing, manifest, self.root, tuple(grow))
            self._next_part = 1 + max(
                (int(p.stem.split("-")[1]) for p in self.parts_dir.glob("part-*.parquet")),
                default=0,
            )
            for leftover in self.parts_dir.glob(".part-*.tmp-*"):
                leftover.unlink()  # a part a crash cut short (never renamed: not a result)
            self._recover_journal()
            # kept open for appends until close(): it outlives this block
            self._journal = open(self.journal_path, "a", encoding="utf-8")  # noqa: SIM115
        except BaseException:
            self.close()
            raise
        return existing is not None and grows

    def resize(self, manifest: Mapping[str, Any]) -> None:
        """Record the grown study's parameters and number of tasks in the manifest."""
        existing = read_manifest(self.root) or {}
        existing.update(params=dict(manifest["params"]), tasks=manifest["tasks"])
        _atomic_write_text(self.manifest_path, json.dumps(existing, indent=2))

    def _take_lock(self) -> None:
        import fcntl

        # kept open (holding the lock) until close(): it outlives this method
        handle = open(self.root / LOCK, "a+", encoding="utf-8")  # noqa: SIM115
        try:
            fcntl.flock(handle.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            handle.close()
            raise StudyBusyError(
                f"another run is writing to {_short(self.root)}: wait for it or stop it"
            ) from None
        self._lock = handle

    def _recover_journal(self) -> None:
        records = list(read_journal(self.journal_path))
        if records:
            self._write_part(records)
        if self.journal_path.exists():
            self.journal_path.unlink()

    # -- writing
    def append(self, records: Iterable[Record]) -> None:
        """Store finished results: one journal line each, written now."""
        batch = list(records)
        if not batch:
            return
        assert self._journal is not None, "the store is not open"
        self._journal.write(
            "".join(json.dumps(r.to_flat(), separators=(",", ":")) + "\n" for r in batch)
        )
        self._journal.flush()
        self._pending.extend(batch)

    @property
    def pending(self) -> int:
        """Results in the journal, not yet in a part."""
        return len(self._pending)

    def flush(self) -> None:
        """Move the journal's results into a new part (written whole, then renamed)."""
        if not self._pending:
            return
        assert self._journal is not None, "the store is not open"
        self._write_part(self._pending)
        self._pending = []
        self._journal.seek(0)
        self._journal.truncate()
        self._journal.flush()

    def _write_part(self, records: list[Record]) -> None:
        """Write the records as parts, one per set of columns (the rows of one question), so
        that a row read back has exactly the columns it was stored with."""
        shapes: dict[tuple[str, ...], list[Record]] = {}
        for record in records:
            shapes.setdefault(tuple(record.row), []).append(record)
        for group in shapes.values():
            self._write_one_part(group)

    def _write_one_part(self, records: list[Record]) -> None:
        import pyarrow.parquet as pq

        manifest = read_manifest(self.root) or {}
        metadata = {
            "banditsolve.study": str(manifest.get("study")),
            "banditsolve.params": json.dumps(manifest.get("params", {}), sort_keys=True),
            "banditsolve.version": str(manifest.get("version")),
        }
        table = records_table(records, metadata)
        path = self.parts_dir / f"part-{self._next_part:06d}.parquet"
        tmp = self.parts_dir / f".{path.name}.tmp-{os.getpid()}"
        pq.write_table(table, tmp)
        with open(tmp, "rb") as handle:
            os.fsync(handle.fileno())
        os.replace(tmp, path)
        self._next_part += 1

    def add_run(self, run: Mapping[str, Any]) -> None:
        """Add a line about this run to the manifest."""
        manifest = read_manifest(self.root) or {}
        manifest.setdefault("runs", []).append(dict(run))
        _atomic_write_text(self.manifest_path, json.dumps(manifest, indent=2))

    def close(self) -> None:
        """Flush what is pending and let go of the folder."""
        try:
            if self._journal is not None:
                self.flush()
                self._journal.close()
                if self.journal_path.exists() and self.journal_path.stat().st_size == 0:
                    self.journal_path.unlink()
        finally:
            self._journal = None
            if self._lock is not None:
                self._lock.close()
                self._lock = None


# -- reading ------------------------------------------------------------------------------------


def new_manifest(study: str, params: Mapping[str, Scalar], tasks: int) -> dict[str, Any]:
    return {
        "format": FORMAT,
        "study": study,
        "params": dict(params),
        "version": __version__,
        "tasks": tasks,
        "created": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
        "runs": [],
    }


def read_manifest(out_dir: str | os.PathLike[str]) -> dict[str, Any] | None:
    """The folder's manifest, or ``None`` when it has none."""
    path = Path(out_dir) / MANIFEST
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return None
    try:
        data = json.loads(text)
    except ValueError:
        raise StudyError(f"{_short(path)} is not a study manifest (not JSON)") from None
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise StudyError(f"{_short(path)} is not a study manifest of format {FORMAT}")
    return data


def _normal(value: Any) -> Any:
    return json.loads(json.dumps(value, sort_keys=True))


def check_same_study(
    existing: Mapping[str, Any], wanted: Mapping[str, Any], where: Path, grow: tuple[str, ...] = ()
) -> bool:
    """Refuse (:class:`StudyMismatchError`) to add to a folder that holds another study: another
    name, library version, other parameters (but those in ``grow``), or another number of tasks
    (unless a parameter in ``grow`` changed and the number of tasks grew). True when the study
    grows."""
    old_params = dict(_normal(existing.get("params")) or {})
    new_params = dict(_normal(wanted.get("params")) or {})
    fixed_old = {k: v for k, v in old_params.items() if k not in grow}
    fixed_new = {k: v for k, v in new_params.items() if k not in grow}
    grows = old_params != new_params
    old_tasks, new_tasks = existing.get("tasks"), wanted.get("tasks")
    for _key, what, old, new in (
        ("study", "another study", existing.get("study"), wanted.get("study")),
        ("version", "results of another library version", existing.get("version"),
         wanted.get("version")),
        ("params", "the same study with other parameters", fixed_old, fixed_new),
        ("tasks", "another number of tasks", old_tasks if not grows else None,
         new_tasks if not grows else None),
    ):
        if _normal(old) != _normal(new):
            raise StudyMismatchError(
                f"{_short(where)} holds {what} "
                f"({_short(json.dumps(old, sort_keys=True), 80)}, not "
                f"{_short(json.dumps(new, sort_keys=True), 80)}): "
                "give another --out folder or remove that one"
            )
    if (
        grows
        and isinstance(old_tasks, int)
        and isinstance(new_tasks, int)
        and new_tasks < old_tasks
    ):
        raise StudyMismatchError(
            f"{_short(where)} holds a larger run of this study ({old_tasks} tasks, not "
            f"{new_tasks}): a study can grow, not shrink; give the same size or another "
            "--out folder"
        )
    return grows


def read_journal(path: Path) -> Iterator[Record]:
    """The journal's records; a last line cut short by a crash is left out."""
    try:
        # opened apart from the ``with`` below (which closes it) so that only a missing
        # journal is caught, not an error while reading it
        handle = open(path, encoding="utf-8")  # noqa: SIM115
    except FileNotFoundError:
        return
    with handle:
        for line in handle:
            if not line.endswith("\n"):
                break  # written in part when the run stopped: that result is not finished
            try:
                yield Record.from_flat(json.loads(line))
            except (ValueError, KeyError, TypeError):
                continue


def read_records(out_dir: str | os.PathLike[str]) -> dict[int, Record]:
    """Every stored result, one per task index (an ``ok`` record over an error; the first
    of equals), including those still in the journal."""
    import pyarrow.parquet as pq

    root = Path(out_dir)
    found: dict[int, Record] = {}

    def keep(record: Record) -> None:
        old = found.get(record.index)
        if old is None or (record.ok and not old.ok) or (
            record.ok == old.ok and not record.ok and record.attempts > old.attempts
        ):
            found[record.index] = record

    for path in sorted((root / PARTS).glob("part-*.parquet")):
        for flat in pq.read_table(path).to_pylist():
            keep(Record.from_flat(flat))
    for record in read_journal(root / JOURNAL):
        keep(record)
    return found
