"""Regenerate ``src/banditsolve/tunnels/data/puzzles.json`` (run as a script; not a test).

Positions come from seeded simulated games; each puzzle's expected answer is what the exact
solver says, and the tests check every answer independently (oracle replay, a second backend or
the plain search).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from banditsolve.tunnels import can_close, card_name, min_cards_to_close, solve_game, to_json
from banditsolve.tunnels.notation import Position, parse_position
from banditsolve.tunnels.rules import state_from
from banditsolve.tunnels.simulate import simulate
from banditsolve.tunnels.state import GameState

OUT = Path(__file__).resolve().parents[2] / "src/banditsolve/tunnels/data/puzzles.json"


FINAL: dict[int, GameState] = {}


def states(seed: int) -> list[GameState]:
    *out, final = simulate(2, seed)
    FINAL[seed] = final
    return out


def doc(table: Any, cards: list[int]) -> dict[str, object]:
    return to_json(Position(table, tuple(sorted(cards))))


def main() -> None:
    puzzles: list[dict[str, object]] = []
    want = {"every": 4, "min": 5, "impossible_exhaustive": 3, "unfillable": 2, "counting": 1,
            "loop": 2}
    got = dict.fromkeys(want, 0)
    for seed in range(60):
        for s in states(seed)[3::5]:
            for n in (3, 4, 5, 6):
                cards = (list(s.hands[s.player]) + list(s.pile))[:n]
                r = min_cards_to_close(s.table, cards, backend="exact", time_limit=2)
                kind = None
                if r.status == "closable" and r.minimum:
                    loop = any(
                        d <= -2 for d in _deltas(s.table, r.placements)
                    )
                    if r.cards == n and r.cards >= 3:
                        kind = "every"
                    elif loop and r.cards >= 2 and got["loop"] < want["loop"]:
                        kind = "loop"
                    elif r.cards >= 2:
                        kind = "min"
                elif r.status == "impossible":
                    if "exhaustive" in r.reason:
                        kind = "impossible_exhaustive"
                    elif "fill" in r.reason:
                        kind = "unfillable"
                    elif "openings" in r.reason:
                        kind = "counting"
                if kind is None or got[kind] >= want[kind]:
                    continue
                got[kind] += 1
                question = "can_close" if kind.startswith("imp") or kind in (
                    "unfillable", "counting") else "min_cards"
                expected: dict[str, object] = {"status": r.status}
                if r.status == "closable":
                    expected["cards"] = r.cards
                desc = {
                    "every": "closable, but only by laying every one of the cards",
                    "loop": "the fewest cards close it with a loop: one card joins two exits",
                    "min": "the fewest cards that close it",
                    "impossible_exhaustive": "impossible: no bound shows it, the search does",
                    "unfillable": "impossible: an exit faces a cell none of the cards can fill",
                    "counting": "impossible: too few openings to absorb the exits",
                }[kind]
                puzzles.append({
                    "id": f"{kind}-{got[kind]}",
                    "description": desc,
                    "question": question,
                    "position": doc(s.table, cards),
                    "expected": expected,
                })
    # A walled-in cell: the leaflet's hole.
    hole = parse_position(
        "bandido L+TL+TR+R+BR+BL@0,0,0 L+BR@-1,-1,0 TL@-2,-1,90 TR@-1,1,0 | L*3 TL+BL*2"
    )
    puzzles.append({
        "id": "hole-1", "description": "impossible: an exit runs into a walled-in cell",
        "question": "can_close", "position": to_json(hole),
        "expected": {"status": "impossible"},
    })
    # The bounded table: a closable case made impossible by a tight play area.
    for p in list(puzzles):
        if p["question"] == "min_cards" and p["expected"]["status"] == "closable":  # type: ignore[index]
            pos = parse_position(json.dumps(p["position"]))
            x0, y0, x1, y1 = pos.table.bounds()
            area = (x0, y0, x1, y1)
            r = can_close(pos, backend="exact", bounds=area)
            if r.status == "impossible":
                puzzles.append({
                    "id": "bounded-1",
                    "description": "closable on an open table, impossible when the play area "
                    "is the table's bounding box",
                    "question": "can_close", "position": p["position"],
                    "bounds": list(area), "expected": {"status": "impossible"},
                })
                break
    # Game puzzles: perfect information, 2 players.
    got_game = {"change": 0, "win": 0, "lose": 0}
    for seed in range(300):
        if min(got_game.values()) >= 2 and got['every'] >= want['every']:
            break
        history = states(seed)
        final = FINAL[seed]
        picks = [h for h in history[-14:] if len(h.pile) <= 9]
        if final.outcome == "won":
            picks = history[-6:]
            base = history[-1].table
            for k in (3, 4, 5):
                if got["every"] >= want["every"] or len(base.history) <= k + 1:
                    continue
                from banditsolve.tunnels import Table
                t = Table.empty()
                for laid in final.table.history[:-k]:
                    t = t.place(laid)
                cards = [q.card for q in final.table.history[-k:]]
                rk = min_cards_to_close(t, cards, backend="exact", time_limit=2)
                if rk.status == "closable" and rk.cards == k:
                    got["every"] += 1
                    puzzles.append({
                        "id": f"every-{got['every']}",
                        "description": "closable, but only by laying every one of the cards",
                        "question": "min_cards", "position": doc(t, cards),
                        "expected": {"status": "closable", "cards": k},
                    })
        for s in picks:
            if final.outcome != "won" and got_game["lose"] >= 3:
                break
            st = state_from(s.table, s.hands, s.pile, player=s.player)
            if st.outcome is not None:
                continue
            g = solve_game(st, time_limit=0.5)
            if g.status == "unknown":
                continue
            kind = g.status
            if kind == "win" and any(str(m.action) == "change" for m in g.line[:1]):
                kind = "change"
            if got_game[kind] >= (3 if kind == "lose" else 2):
                continue
            got_game[kind] += 1
            puzzles.append({
                "id": f"game-{kind}-{got_game[kind]}",
                "description": {
                    "win": "the team can still win with perfect play",
                    "lose": "every line of play loses",
                    "change": "nothing in the hand fits: the win starts with a hand change",
                }[kind],
                "question": "solve",
                "position": doc(s.table, []) | {"remaining": []},
                "hands": [[card_name(c) for c in h] for h in s.hands],
                "pile": [card_name(c) for c in s.pile],
                "player": s.player,
                "options": {},
                "expected": {"status": g.status, "turns": len(g.line)},
            })
    OUT.write_text(json.dumps(puzzles, indent=1) + "\n", encoding="utf-8")
    print(len(puzzles), got, got_game)


def _deltas(table: Any, placements: Any) -> list[int]:
    out = []
    t = table
    for p in placements:
        before = t.exit_count
        t = t.place(p)
        out.append(t.exit_count - before)
    return out


if __name__ == "__main__":
    main()
