"""Benchmark of the web board's API under a bounded load (issue 30): 200 requests from 8 clients
on loopback, against ``banditsolve serve`` started here as a user starts it.

Three runs, each 8 client threads sending their share of 200 requests one after another
(``http.client`` on keep-alive connections to 127.0.0.1):

- **cached**: every client asks the same claim question (answered once before timing, so every
  timed request is a repeat, served from the answer cache); target: 95th percentile <= 50 ms,
  no request lost;
- **fresh**: 200 different questions (Los Banditos claims on the 4 slots of the positions of
  seeded greedy games), each run in a worker process of its own: the throughput of the pool,
  and no request lost (every answer a 200 or a documented refusal, none dropped);
- **reference**: ``GET /openapi.json``, the same server's cheapest route (no worker, no cache):
  the cost of the HTTP round trip itself, the physical floor beside the cached answers.

Run ``python benchmarks/bench_web.py [--quick]`` (quick: 40 requests a run); writes
``benchmarks/results/web.md`` and ``.json``. Set ``BENCH_NOTE`` to say what else ran.
"""

from __future__ import annotations

import http.client
import json
import os
import platform
import socket
import statistics
import subprocess
import sys
import threading
import time
import urllib.request
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
RESULTS = HERE / "results"
sys.path.insert(0, str(HERE))

from flags import read_flags  # noqa: E402

CLIENTS = 8
CLAIM = "3:k4g5r6:g1g1/2::/1::/1:: 112233 -:- 0a"


def _port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def _start(port: int) -> subprocess.Popen[bytes]:
    process = subprocess.Popen(
        [sys.executable, "-m", "banditsolve", "serve", "--port", str(port)],
        stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
    )
    for _ in range(200):
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=1):
                return process
        except OSError:
            time.sleep(0.05)
    process.kill()
    raise SystemExit("the server did not start")


def _answerable(args: list[object]) -> bool:
    """Whether ``banditsolve banditos claim ARGS`` answers (not refused as bad input)."""
    import contextlib
    import io

    from banditsolve.cli import main as cli

    with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
        return cli(["banditos", "claim", *map(str, args), "--json"]) != 2


def _fresh_questions(n: int) -> list[tuple[str, str, bytes]]:
    """``n`` different claim questions the command line answers: positions of seeded greedy
    Los Banditos games, each slot whose side holds a claim."""
    from banditsolve.core.play import simulate
    from banditsolve.core.registry import load_game

    game = load_game("banditos")
    out: list[tuple[str, str, bytes]] = []
    seed = 0
    while len(out) < n:
        greedy = game.policies()["greedy"]
        _, steps = simulate(game, players=2, seed=seed, policies=greedy)
        for step in steps:
            if len(out) >= n:
                break
            if game.current_player(step.state) < 0:
                continue
            text = game.to_notation(step.state)
            for slot in range(1, 5):
                if _answerable([text, slot]):
                    body = json.dumps({"args": [text, slot]}).encode()
                    out.append(("POST", "/api/banditos/claim", body))
        seed += 1
    return out[:n]


def _load(port: int, requests: list[tuple[str, str, bytes]]) -> dict[str, Any]:
    """Send ``requests`` from :data:`CLIENTS` threads; latencies and statuses."""
    shares = [requests[i::CLIENTS] for i in range(CLIENTS)]
    latencies: list[float] = []
    statuses: list[int] = []
    lost: list[str] = []
    lock = threading.Lock()

    def client(share: list[tuple[str, str, bytes]]) -> None:
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=120)
        for method, path, body in share:
            began = time.perf_counter()
            try:
                conn.request(method, path, body=body or None,
                             headers={"Content-Type": "application/json"})
                response = conn.getresponse()
                response.read()
                status = response.status
            except OSError as exc:
                with lock:
                    lost.append(f"{type(exc).__name__}: {exc}")
                conn.close()
                conn = http.client.HTTPConnection("127.0.0.1", port, timeout=120)
                continue
            with lock:
                latencies.append(time.perf_counter() - began)
                statuses.append(status)
        conn.close()

    began = time.perf_counter()
    threads = [threading.Thread(target=client, args=(s,)) for s in shares]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    wall = time.perf_counter() - began
    ms = sorted(x * 1000 for x in latencies)
    counts: dict[str, int] = {}
    for s in statuses:
        counts[str(s)] = counts.get(str(s), 0) + 1
    return {
        "requests": len(requests), "answered": len(statuses), "lost": len(lost),
        "lost_examples": lost[:3], "statuses": counts, "wall_s": round(wall, 3),
        "per_s": round(len(statuses) / wall, 1),
        "p50_ms": round(statistics.median(ms), 2) if ms else None,
        "p95_ms": round(ms[max(0, int(0.95 * len(ms)) - 1)], 2) if ms else None,
        "max_ms": round(ms[-1], 2) if ms else None,
    }


def main() -> None:
    on, _ = read_flags(__doc__)
    total = 40 if "--quick" in on else 200
    port = _port()
    server = _start(port)
    try:
        cached_body = json.dumps({"args": [CLAIM, 1]}).encode()
        warm = urllib.request.Request(f"http://127.0.0.1:{port}/api/banditos/claim",
                                      data=cached_body, method="POST")
        with urllib.request.urlopen(warm, timeout=60):
            pass
        runs = {
            "reference": _load(port, [("GET", "/openapi.json", b"")] * total),
            "cached": _load(port, [("POST", "/api/banditos/claim", cached_body)] * total),
            "fresh": _load(port, _fresh_questions(total)),
        }
    finally:
        server.terminate()
        server.wait(10)
    cached = runs["cached"]
    met = cached["lost"] == 0 and cached["p95_ms"] is not None and cached["p95_ms"] <= 50
    doc = {
        "runs": runs, "clients": CLIENTS, "target": "cached p95 <= 50 ms, no request lost",
        "met": met and all(r["lost"] == 0 for r in runs.values()),
        "machine": f"{platform.machine()}, {os.cpu_count()} cores, Python "
                   f"{platform.python_version()}",
        "note": os.environ.get("BENCH_NOTE", ""),
        "date": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()),
    }
    RESULTS.mkdir(exist_ok=True)
    (RESULTS / "web.json").write_text(json.dumps(doc, indent=2) + "\n", "utf-8")
    lines = [
        "# The web board's API under load",
        "",
        f"{total} requests a run from {CLIENTS} clients on loopback, `banditsolve serve` with "
        f"its defaults (2 workers). {doc['date']}; {doc['machine']}. {doc['note']}",
        "",
        "| run | answered / sent | lost | statuses | requests/s | p50 | p95 | max |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for name, r in runs.items():
        statuses = ", ".join(f"{k}: {v}" for k, v in sorted(r["statuses"].items()))
        lines.append(f"| {name} | {r['answered']} / {r['requests']} | {r['lost']} | {statuses} | "
                     f"{r['per_s']} | {r['p50_ms']} ms | {r['p95_ms']} ms | {r['max_ms']} ms |")
    verdict = "met" if doc["met"] else "missed"
    lines += ["", f"Target ({doc['target']}): **{verdict}** (cached p95 {cached['p95_ms']} ms)."]
    (RESULTS / "web.md").write_text("\n".join(lines) + "\n", "utf-8")
    print("\n".join(lines))


if __name__ == "__main__":
    main()
