"""``make fuzz``: every target of ``fuzz/targets.py`` for a set time, each from a corpus seeded
with real inputs (states of seeded games in notation and JSON, their actions, the packaged
decks, edition and puzzle files), one after another; a summary of executions and findings.

``python fuzz/run.py [--seconds N] [TARGET ...]``: N seconds per target (default 60). A
finding is written by libFuzzer as ``fuzz/findings/TARGET-crash-*`` (the input); make it a
regression test in ``tests/test_fuzz_findings.py``. The corpora grow in ``fuzz/corpus/``
(not kept in git). The summary is also written to ``fuzz/results.md``.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
import time
from importlib import resources
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
CORPUS = HERE / "corpus"
FINDINGS = HERE / "findings"
GAMES = ("banditos", "bandido", "bandida", "rolling")


def seeds() -> dict[str, list[bytes]]:
    """Each target's seed inputs."""
    from fuzz_states import sample, walk  # (the action target reads actions on sample's)

    from banditsolve.core.registry import load_game
    from banditsolve.tunnels import position_of, to_json, to_notation

    out: dict[str, list[bytes]] = {name: [] for name in (*GAMES, "position", "action", "deck",
                                                         "edition", "puzzles")}
    for g, name in enumerate(GAMES):
        game: Any = load_game(name)
        for seed in range(3):
            for state, _decides in walk(name, seed)[::9]:
                out[name].append(game.to_notation(state).encode())
                out[name].append(json.dumps(game.to_json(state)).encode())
                if name in ("bandido", "bandida"):
                    position = position_of(state)
                    out["position"].append(to_notation(position).encode())
                    out["position"].append(json.dumps(to_json(position)).encode())
        for i, state in enumerate(sample(name)):
            if game.current_player(state) < 0:
                continue
            for action in game.legal_actions(state)[:5]:
                text = game.action_text(state, action)
                out["action"].append(bytes([g, i]) + text.encode())
    tunnels = resources.files("banditsolve.tunnels").joinpath("data")
    out["deck"] = [tunnels.joinpath(f).read_bytes() for f in ("bandido.json", "bandida.json")]
    rolling = resources.files("banditsolve.rolling").joinpath("data")
    out["edition"] = [rolling.joinpath("edition.json").read_bytes()]
    files = (
        resources.files("banditsolve.banditos").joinpath("data", "puzzles.json"),
        rolling.joinpath("puzzles.json"),
        tunnels.joinpath("puzzles.json"),
        tunnels.joinpath("bandida_puzzles.json"),
    )
    out["puzzles"] = [bytes([k]) + f.read_bytes() for k, f in enumerate(files)]
    return out


def run_target(name: str, seconds: int, seed_inputs: list[bytes]) -> dict[str, Any]:
    corpus = CORPUS / name
    corpus.mkdir(parents=True, exist_ok=True)
    for i, data in enumerate(seed_inputs):
        (corpus / f"seed-{i:04d}").write_bytes(data)
    FINDINGS.mkdir(exist_ok=True)
    before = set(FINDINGS.glob(f"{name}-*"))
    start = time.perf_counter()
    proc = subprocess.run(
        [sys.executable, str(HERE / "targets.py"), name, str(corpus),
         f"-max_total_time={seconds}", f"-artifact_prefix={FINDINGS}/{name}-",
         "-print_final_stats=1", "-timeout=20", "-rss_limit_mb=3072", "-max_len=8192"],
        capture_output=True, text=True, check=False,
    )
    found = sorted(set(FINDINGS.glob(f"{name}-*")) - before)
    runs = re.search(r"stat::number_of_executed_units:\s*(\d+)", proc.stderr)
    cov = re.findall(r"cov: (\d+)", proc.stderr)
    tail = [line for line in proc.stderr.splitlines() if "Error" in line or "assert" in line]
    return {
        "target": name,
        "seconds": round(time.perf_counter() - start, 1),
        "executions": int(runs.group(1)) if runs else None,
        "coverage": int(cov[-1]) if cov else None,
        "seeds": len(seed_inputs),
        "findings": [p.name for p in found],
        "exit": proc.returncode,
        "first_error": tail[0][:200] if tail else "",
    }


def main(argv: list[str]) -> int:
    seconds = int(argv[argv.index("--seconds") + 1]) if "--seconds" in argv else 60
    chosen = [a for a in argv[1:] if not a.startswith("--") and not a.isdigit()]
    sys.path.insert(0, str(HERE))
    inputs = seeds()
    names = chosen or list(inputs)
    rows = []
    for name in names:
        row = run_target(name, seconds, inputs[name])
        rows.append(row)
        print(json.dumps(row), flush=True)
    lines = [
        f"# Fuzzing: {len(rows)} targets, {seconds} s each",
        "",
        "| target | seconds | executions | coverage | seeds | findings |",
        "| --- | --- | --- | --- | --- | --- |",
    ]
    lines += [
        f"| {r['target']} | {r['seconds']} | {r['executions']} | {r['coverage']} |"
        f" {r['seeds']} | {', '.join(r['findings']) or 'none'} |"
        for r in rows
    ]
    (HERE / "results.md").write_text("\n".join(lines) + "\n", encoding="utf-8")
    print("\n".join(lines))
    return 1 if any(r["findings"] for r in rows) else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
