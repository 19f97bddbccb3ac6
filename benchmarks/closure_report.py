"""The closure benchmark's figures, targets and tables (``bench_closure.py`` measures; this
module turns its records into the shares, ratios and Markdown of ``results/closure*.md``)."""

from __future__ import annotations

import json
import math
import statistics
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
RESULTS = HERE / "results"
HARD = HERE.parent / "tests" / "tunnels" / "data" / "hard_closure.json"
NAMES = {"exact": "compiled", "python": "Python", "auto": "auto"}
#: The longest limit of the verdict and minimum questions (the shares' last column).
LONG = 10.0
SHARES = (0.1, 1.0, 10.0)
GB_KB = 1024 * 1024

Record = dict[str, Any]


# --- figures from the records ---------------------------------------------------------------


def decided(r: Record) -> bool:
    """Decided: any answer but ``unknown``."""
    return bool(r["status"] != "unknown")


def decided_within(r: Record, t: float) -> bool:
    """Decided within ``t`` seconds: a limit below the rerun's counts the first run alone."""
    if "first" in r and t <= r["first"]["limit"]:
        return bool(r["first"]["status"] != "unknown" and r["first"]["seconds"] <= t)
    return decided(r) and r["seconds"] <= t


def share(records: Sequence[Record], t: float) -> float:
    """The share of ``records`` decided within ``t`` seconds."""
    return sum(decided_within(r, t) for r in records) / max(len(records), 1)


def totals(records: Iterable[Record]) -> tuple[int, float]:
    """All search nodes and all wall seconds of the records (first runs included)."""
    nodes = 0
    seconds = 0.0
    for r in records:
        nodes += r["nodes"] + r.get("first", {}).get("nodes", 0)
        seconds += r["seconds"] + r.get("first", {}).get("seconds", 0.0)
    return nodes, seconds


def node_rate(records: Iterable[Record]) -> float | None:
    """Nodes per wall second over the records."""
    nodes, seconds = totals(records)
    return nodes / seconds if seconds else None


def verdicts(records: Iterable[Record]) -> dict[str, int]:
    """How many of each decided status."""
    out: dict[str, int] = {}
    for r in records:
        if decided(r):
            out[r["status"]] = out.get(r["status"], 0) + 1
    return out


def backend_row(group: dict[str, Any], first: float) -> dict[str, Any]:
    """One backend's figures on one group."""
    records = group["records"]
    shown = [min(r["seconds"], LONG) if decided(r) else LONG for r in records]
    reruns = sum("first" in r for r in records)
    rss = [r["rss_kb"] for r in records]
    grown = [r["rss_kb"] - r["rss_before_kb"] for r in records]
    rate = node_rate(records)
    return {
        "positions": len(records),
        "table_cards": _spread([r["table_cards"] for r in records]),
        **{f"decided_{t:g}s": round(share(records, t), 4) for t in SHARES},
        "at_10s": "all" if first >= LONG else f"{reruns} of {group['undecided_first']}",
        "median_ms": round(1000 * statistics.median(shown), 2) if shown else None,
        "worst_ms": round(1000 * max(shown), 1) if shown else None,
        "nodes_per_s": round(rate) if rate else None,
        "verdicts": verdicts(records),
        "not_compiled": sum(r["used"] != "exact" for r in records),
        "peak_rss_mb": round(max(rss) / 1024, 1) if rss else None,
        "peak_growth_mb": round(max(0, *grown) / 1024, 1) if grown else None,
        "baseline_mb": round(group["baseline_kb"] / 1024, 1),
    }


def compare(mine: Sequence[Record], ref: Sequence[Record], minimum: bool) -> dict[str, Any]:
    """The compiled core beside the reference on the same questions: the ratio of node rates,
    the wall-time ratio on the questions both decide, and every disagreement."""
    assert [r["id"] for r in mine] == [r["id"] for r in ref], "not the same questions"
    both = [(a, b) for a, b in zip(mine, ref, strict=True) if decided(a) and decided(b)]
    a_rate, b_rate = node_rate(mine), node_rate(ref)
    key = ("status", "cards") if minimum else ("status",)
    wrong = [a["id"] for a, b in both if any(a[k] != b[k] for k in key)]
    return {
        "both_decided": len(both),
        "node_rate_ratio": round(a_rate / b_rate, 1) if a_rate and b_rate else None,
        **_time_ratios(both),
        **_decided_by_one(mine, ref),
        "disagree": wrong,
    }


def _time_ratios(both: list[tuple[Record, Record]]) -> dict[str, float | None]:
    """The reference's wall time over the compiled core's on the questions both decide: in
    total, the median and the geometric mean of the ratios per question."""
    ratios = [b["seconds"] / a["seconds"] for a, b in both if a["seconds"] > 0]
    return {
        "time_ratio_total": (
            round(sum(b["seconds"] for _, b in both) / sum(a["seconds"] for a, _ in both), 1)
            if both and sum(a["seconds"] for a, _ in both) > 0
            else None
        ),
        "time_ratio_median": round(statistics.median(ratios), 1) if ratios else None,
        "time_ratio_geomean": (
            round(math.exp(statistics.fmean(math.log(x) for x in ratios)), 1) if ratios else None
        ),
    }


def _decided_by_one(mine: Sequence[Record], ref: Sequence[Record]) -> dict[str, int]:
    """How many questions only the compiled core decided, and how many only the reference."""
    return {
        "only_compiled": sum(decided(a) and not decided(b) for a, b in zip(mine, ref, strict=True)),
        "only_python": sum(decided(b) and not decided(a) for a, b in zip(mine, ref, strict=True)),
    }


def _spread(values: list[int]) -> str:
    if not values:
        return "-"
    return f"{min(values)}-{int(statistics.median(values))}-{max(values)}"



def hard_items(path: Path = HARD) -> list[dict[str, Any]]:
    """The regression set's entries as stored (with their ``before`` answers)."""
    if not path.exists():
        return []
    items: list[dict[str, Any]] = json.loads(path.read_text(encoding="utf-8"))["cases"]
    return items


# --- the targets ----------------------------------------------------------------------------


def _part(result: dict[str, Any], kind: str, size: int | str | None = None) -> dict[str, Any]:
    for p in result["parts"]:
        if p["kind"] == kind and p["size"] == size:
            return p  # type: ignore[no-any-return]
    return {}


def _share_target(what: str, p: dict[str, Any], t: float, goal: float) -> dict[str, str]:
    row = p["rows"]["exact"]
    got = row[f"decided_{t:g}s"]
    n = row["positions"]
    missing = round((1 - got) * n)
    verdict = (
        "met"
        if got >= goal
        else f"missed by {100 * (goal - got):.1f} points ({missing} of {n} undecided)"
    )
    return {"what": what, "target": f"{100 * goal:g} %", "measured": f"{100 * got:.1f} %",
            "verdict": verdict}


def _shares_targets(result: dict[str, Any], kind: str, label: str) -> list[dict[str, str]]:
    out = []
    for size in (10, 15, 20):
        p = _part(result, kind, size)
        if p:
            out.append(_share_target(f"{label} within 1 s, {size} cards", p, 1.0, 1.0))
    p = _part(result, kind, "pile")
    if p:
        out.append(_share_target(f"{label} within 1 s, whole piles", p, 1.0, 0.995))
        out.append(_share_target(f"{label} within 10 s, whole piles", p, 10.0, 1.0))
    return out


def _rate_target(result: dict[str, Any]) -> list[dict[str, str]]:
    parts = [p for p in result["parts"] if p["kind"] == "verdict" and "compare" in p]
    if not parts:
        return []
    mine = [r for p in parts for r in p["groups"]["exact"]["records"]]
    ref = [r for p in parts for r in p["groups"]["python"]["records"]]
    a, b = node_rate(mine), node_rate(ref)
    ratio = a / b if a and b else 0.0
    each = [p["compare"]["node_rate_ratio"] for p in parts if p["compare"]["node_rate_ratio"]]
    measured = (
        f"{ratio:.0f}x over all verdict positions"
        f" ({min(each, default=0):.0f}-{max(each, default=0):.0f}x per size)"
    )
    verdict = "met" if ratio >= 100 else f"missed: {ratio:.0f}x of 100x ({100 / ratio:.1f}x short)"
    return [{"what": "node rate of the compiled search", "target": ">= 100x the Python search",
             "measured": measured, "verdict": verdict}]


def _hard_target(result: dict[str, Any]) -> list[dict[str, str]]:
    p = _part(result, "hard")
    if not p:
        return []
    out = []
    for backend in ("auto", "exact"):  # the default backend first
        if backend not in p["groups"]:
            continue
        records = p["groups"][backend]["records"]
        limit = p["groups"][backend]["first"]
        done = sum(decided(r) for r in records)
        n = len(records)
        verdict = "met" if done == n else f"missed by {n - done} positions"
        if limit < 60 and done < n:
            verdict += f" (at this run's {limit:g} s limit; 60 s not run)"
        out.append({
            "what": f"the regression positions ({NAMES[backend]})",
            "target": "all decided, within 60 s each",
            "measured": f"{done} of {n} within {limit:g} s", "verdict": verdict,
        })
    return out


def _bandida_target(result: dict[str, Any]) -> list[dict[str, str]]:
    p = _part(result, "bandida")
    if not p:
        return []
    records = p["groups"]["exact"]["records"]
    unknown = sum(not decided(r) for r in records) / max(len(records), 1)
    verdict = "met" if unknown <= 0.01 else f"missed by {100 * (unknown - 0.01):.1f} points"
    return [{"what": "Bandida with a map card among the cards", "target": "<= 1 % unknown in 10 s",
             "measured": f"{100 * unknown:.1f} % unknown of {len(records)}", "verdict": verdict}]


def _memory_target(result: dict[str, Any]) -> list[dict[str, str]]:
    peaks = [r["rss_kb"] for p in result["parts"] for r in p["groups"]["exact"]["records"]]
    if not peaks:
        return []
    top = max(peaks)
    verdict = "met" if top <= GB_KB else f"missed by {(top - GB_KB) / 1024:.0f} MB"
    return [{"what": "memory (compiled core)", "target": "peak <= 1 GB per solve",
             "measured": f"{top / 1024:.0f} MB peak RSS of the process during one solve",
             "verdict": verdict}]


def _agreement_target(result: dict[str, Any]) -> list[dict[str, str]]:
    compared = [p["compare"] for p in result["parts"] if "compare" in p]
    if not compared:
        return []
    both = sum(c["both_decided"] for c in compared)
    wrong = sum(len(c["disagree"]) for c in compared)
    return [{"what": "agreement", "target": "every answer as the Python reference's",
             "measured": f"{wrong} different of {both} both decided",
             "verdict": "met" if not wrong else f"missed: {wrong} different"}]


def targets(result: dict[str, Any]) -> list[dict[str, str]]:
    """The issue's targets, each with what this run measured and whether it is met."""
    return [
        *_rate_target(result),
        *_shares_targets(result, "verdict", "decided"),
        *_shares_targets(result, "minimum", "minimum cards decided"),
        *_hard_target(result),
        *_bandida_target(result),
        *_memory_target(result),
        *_agreement_target(result),
    ]


# --- the tables -----------------------------------------------------------------------------


def _header(result: dict[str, Any], title: str) -> list[str]:
    s = result["settings"]
    load = result["load"]
    how = (
        "every position 10 s with both backends"
        if s["quick"]
        else "the compiled core 10 s on every position; the Python reference 1 s on every"
        " position, then 10 s on up to 8 of those it left undecided (column `10 s run on`;"
        " one not rerun counts as undecided at 10 s)"
    )
    return [
        f"# {title}",
        "",
        f"Quick mode: {s['quick']} ({s['per_side']} positions per super-card side and size;"
        f" {how}).",
        f"{result['cores']} cores; Python {result['python']}; whole run {result['seconds']} s;"
        f" {result['code']}.",
        f"Load average (1 min) during the run: {load['min']}-{load['max']}"
        f" (median {load['median']}, {load['samples']} samples);"
        f" `uptime` before: `{result['uptime_before']}`;"
        f" after: `{result['uptime_after']}`. {result['note']}.",
        "",
        "Backends: `compiled` is `backend=\"exact\"` (the compiled core), `Python` is",
        "`backend=\"python\"` (the reference search); one process each (`workers=1`), the same",
        "positions, each group of positions in a fresh subprocess per backend. Decided: any",
        "answer but `unknown` (for minimum cards: `impossible` or a closure proven the fewest).",
        "Times are wall clock around the call; median and worst count an undecided position",
        "as 10 s. Nodes/s: all nodes over all wall time of the group (each backend counts its",
        "own nodes: the compiled core prunes differently, so its nodes are not the reference's",
        "one for one). Ratios: node rate compiled over Python; wall time Python over compiled",
        "on the positions both decide (total, and median per position).",
        "",
    ]


def _targets_table(result: dict[str, Any]) -> list[str]:
    lines = ["| what | target | measured | met? |", "| --- | --- | --- | --- |"]
    lines += [f"| {t['what']} | {t['target']} | {t['measured']} | {t['verdict']} |"
              for t in result["targets"]]
    return lines


def _shares_table(result: dict[str, Any], kind: str) -> list[str]:
    lines = [
        "| cards | backend | positions | table | decided 0.1 s | 1 s | 10 s | 10 s run on |"
        " median ms | worst ms | nodes/s | verdicts |",
        "| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |",
    ]
    for p in result["parts"]:
        if p["kind"] != kind:
            continue
        for backend, r in p["rows"].items():
            shares = " | ".join(f"{100 * r[f'decided_{t:g}s']:.1f} %" for t in SHARES)
            lines.append(
                f"| {p['size']} | {NAMES[backend]} | {r['positions']} | {r['table_cards']} |"
                f" {shares} | {r['at_10s']} | {r['median_ms']} | {r['worst_ms']} |"
                f" {r['nodes_per_s'] or '-'} | {_verdicts_text(r['verdicts'])} |"
            )
    return lines


def _verdicts_text(v: dict[str, int]) -> str:
    return ", ".join(f"{k} {n}" for k, n in sorted(v.items())) or "-"


def _compare_table(result: dict[str, Any], kinds: tuple[str, ...]) -> list[str]:
    lines = [
        "| question | cards | both decided | node rate ratio | wall-time ratio (total) |"
        " (median) | decided by one only (compiled / Python) | different answers |",
        "| --- | --- | --- | --- | --- | --- | --- | --- |",
    ]
    for p in result["parts"]:
        c = p.get("compare")
        if p["kind"] not in kinds or c is None:
            continue
        lines.append(
            f"| {p['kind']} | {p['size'] if p['size'] is not None else '-'} |"
            f" {c['both_decided']} | {_times(c['node_rate_ratio'])} |"
            f" {_times(c['time_ratio_total'])} | {_times(c['time_ratio_median'])} |"
            f" {c['only_compiled']} / {c['only_python']} |"
            f" {len(c['disagree'])} |"
        )
    return lines


def _times(x: float | None) -> str:
    return "-" if x is None else f"{x:g}x"


def _hard_table(result: dict[str, Any]) -> list[str]:
    p = _part(result, "hard")
    if not p:
        return []
    mine = p["groups"]["exact"]
    ref = p["groups"].get("python")
    limit = mine["first"]
    ref_head = f"Python within {limit:g} s" if ref else "Python, last known (`before`: 1 s / 10 s)"
    lines = [
        "",
        f"## The regression set ({len(mine['records'])} positions, limit {limit:g} s each)",
        "",
        "Positions an earlier search left undecided within 1 s"
        " (`tests/tunnels/data/hard_closure.json`)."
        + ("" if ref else " The Python reference was not run on them in this mode (it would"
           " take up to 41 x the limit): its column is the file's `before` field, the answers"
           " of the search of that time within 1 s and 10 s, not this run's."),
        "",
        f"| # | position | cards | table | compiled | seconds | nodes | auto (solver, seconds) |"
        f" {ref_head} |",
        "| --- | --- | --- | --- | --- | --- | --- | --- | --- |",
    ]
    items = hard_items()
    auto = p["groups"].get("auto")
    for i, r in enumerate(mine["records"]):
        raced = "-"
        if auto is not None:
            a = auto["records"][i]
            raced = f"{a['status']} ({a['used']}, {a['seconds']:.2f})"
        if ref:
            theirs = ref["records"][i]
            other = f"{theirs['status']} ({theirs['seconds']:.2f} s)"
        else:
            before = items[i]["before"]
            other = f"{before['at_1s']} / {before['at_10s']} (before)"
        lines.append(
            f"| {i + 1} | {r['id']} | {r['n_cards']} | {r['table_cards']} | {r['status']} |"
            f" {r['seconds']:.2f} | {r['nodes']} | {raced} | {other} |"
        )
    done = sum(decided(r) for r in mine["records"])
    lines += ["", f"Compiled core: {done} of {len(mine['records'])} decided within {limit:g} s."]
    if auto is not None:
        raced_done = sum(decided(r) for r in auto["records"])
        lines.append(
            f"The default backend, `auto` (the core raced with the SAT finder): {raced_done} of"
            f" {len(auto['records'])} within {limit:g} s."
        )
    if ref:
        ref_done = sum(decided(r) for r in ref["records"])
        lines.append(f"Python reference: {ref_done} of {len(ref['records'])} within {limit:g} s.")
    return lines


def _bandida_table(result: dict[str, Any]) -> list[str]:
    p = _part(result, "bandida")
    if not p:
        return []
    lines = [
        "",
        "## Bandida with a map card among the cards (limit 10 s)",
        "",
        "States of seeded Bandida games of every mode (every 10th state from the third), the",
        "next 10 or 15 cards in play or the whole remaining pile, kept when a map card is among",
        "them; each mode's goal. Unknown: neither closable nor impossible within 10 s.",
        "",
        "| mode | cards | positions | compiled unknown | Python unknown | compiled median ms |"
        " worst ms | Python median ms | worst ms |",
        "| --- | --- | --- | --- | --- | --- | --- | --- | --- |",
    ]
    mine = p["groups"]["exact"]["records"]
    ref = p["groups"]["python"]["records"]
    keys = [*sorted({_bandida_key(r) for r in mine}, key=str), ("all", "all")]
    for key in keys:
        a = [r for r in mine if key == ("all", "all") or _bandida_key(r) == key]
        b = [r for r in ref if key == ("all", "all") or _bandida_key(r) == key]
        lines.append(f"| {key[0]} | {key[1]} | {len(a)} | {_unknown(a)} | {_unknown(b)} |"
                     f" {_ms(a)} | {_ms(b)} |")
    return lines


def _bandida_key(r: Record) -> tuple[str, str]:
    mode, _seed, _stage, size = r["id"].split("/")
    return mode.removeprefix("mode "), size


def _unknown(records: Sequence[Record]) -> str:
    n = sum(not decided(r) for r in records)
    return f"{n} ({100 * n / max(len(records), 1):.0f} %)"


def _ms(records: Sequence[Record]) -> str:
    ts = [min(r["seconds"], LONG) if decided(r) else LONG for r in records]
    return f"{1000 * statistics.median(ts):.1f} | {1000 * max(ts):.0f}" if ts else "- | -"


def _memory_table(result: dict[str, Any]) -> list[str]:
    lines = [
        "",
        "## Peak memory per solve",
        "",
        "Measured in each group's own process: before every solve its peak RSS is reset",
        "(`/proc/self/clear_refs`), after it `getrusage(RUSAGE_SELF).ru_maxrss` is read. `peak`",
        "is the largest such peak of the process over the group's solves (the interpreter and",
        "the positions included: `before` is the process's RSS before its first solve);",
        "`growth` is the largest rise over the RSS just before the solve (the kernel's",
        "counters lag by a few pages, so a rise under 0.5 MB is noise; a fall shows as 0).",
        "",
        "| question | cards | backend | before MB | peak MB | growth MB |",
        "| --- | --- | --- | --- | --- | --- |",
    ]
    for p in result["parts"]:
        for backend, r in p["rows"].items():
            per = "" if p["groups"][backend]["per_solve_peak"] else " (group peak: reset refused)"
            lines.append(
                f"| {p['kind']} | {p['size'] if p['size'] is not None else '-'} |"
                f" {NAMES[backend]} | {r['baseline_mb']} | {r['peak_rss_mb']}{per} |"
                f" {r['peak_growth_mb']} |"
            )
    return lines


def write(result: dict[str, Any], name: str) -> list[str]:
    """``results/NAME.md`` and ``.json``; their paths."""
    RESULTS.mkdir(exist_ok=True)
    kinds = {p["kind"] for p in result["parts"]}
    title = "Closure benchmark: the compiled core beside the Python reference"
    if kinds == {"minimum"}:
        title = "Minimum cards (`min_cards_to_close`): the compiled core beside the reference"
    lines = [*_header(result, title), "## Targets", "", *_targets_table(result)]
    for kind, head in (("verdict", "Verdicts (`can_close`)"),
                       ("minimum", "Minimum cards (`min_cards_to_close`)")):
        if kind in kinds:
            lines += ["", f"## {head}", "", *_shares_table(result, kind), "",
                      *_compare_table(result, (kind,))]
    lines += _hard_table(result)
    lines += _bandida_table(result)
    lines += _memory_table(result)
    md = RESULTS / f"{name}.md"
    js = RESULTS / f"{name}.json"
    md.write_text("\n".join(lines) + "\n", encoding="utf-8")
    js.write_text(json.dumps(result, indent=1) + "\n", encoding="utf-8")
    return [str(md), str(js)]
