"""Regenerate ``src/banditsolve/tunnels/data/puzzles.json`` (run as a script; not a test).

Positions come from seeded simulated games; each puzzle's expected answer is what the exact
solver says, and the tests check every answer independently (oracle replay, a second backend or
the plain search).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from banditsolve.tunnels import (
    Table,
    can_close,
    card_name,
    min_cards_to_close,
    solve_game,
    to_json,
)
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


#: How many closure puzzles of each kind the file holds.
WANT = {"every": 4, "min": 5, "impossible_exhaustive": 3, "unfillable": 2, "counting": 1, "loop": 2}
DESCRIPTIONS = {
    "every": "closable, but only by laying every one of the cards",
    "loop": "the fewest cards close it with a loop: one card joins two exits",
    "min": "the fewest cards that close it",
    "impossible_exhaustive": "impossible: no bound shows it, the search does",
    "unfillable": "impossible: an exit faces a cell none of the cards can fill",
    "counting": "impossible: too few openings to absorb the exits",
}
GAME_DESCRIPTIONS = {
    "win": "the team can still win with perfect play",
    "lose": "every line of play loses",
    "change": "nothing in the hand fits: the win starts with a hand change",
}


class Collector:
    """The puzzles found so far, and how many of each kind."""

    def __init__(self) -> None:
        self.puzzles: list[dict[str, object]] = []
        self.got = dict.fromkeys(WANT, 0)
        self.got_game = {"change": 0, "win": 0, "lose": 0}

    def kind(self, table: Any, r: Any, n: int) -> str | None:
        """The kind of closure puzzle an answer ``r`` on ``n`` cards makes, if any."""
        if r.status == "closable" and r.minimum:
            loop = any(d <= -2 for d in _deltas(table, r.placements))
            if r.cards == n and r.cards >= 3:
                return "every"
            if loop and r.cards >= 2 and self.got["loop"] < WANT["loop"]:
                return "loop"
            return "min" if r.cards >= 2 else None
        if r.status == "impossible":
            for word, kind in (
                ("exhaustive", "impossible_exhaustive"), ("fill", "unfillable"),
                ("openings", "counting"),
            ):
                if word in r.reason:
                    return kind
        return None

    def closures(self) -> None:
        """Closure puzzles from seeded games' positions (the hand and the pile's top cards)."""
        for seed in range(60):
            for s in states(seed)[3::5]:
                for n in (3, 4, 5, 6):
                    cards = (list(s.hands[s.player]) + list(s.pile))[:n]
                    r = min_cards_to_close(s.table, cards, backend="exact", time_limit=2)
                    kind = self.kind(s.table, r, n)
                    if kind is None or self.got[kind] >= WANT[kind]:
                        continue
                    self.got[kind] += 1
                    closure = kind.startswith("imp") or kind in ("unfillable", "counting")
                    expected: dict[str, object] = {"status": r.status}
                    if r.status == "closable":
                        expected["cards"] = r.cards
                    self.puzzles.append({
                        "id": f"{kind}-{self.got[kind]}",
                        "description": DESCRIPTIONS[kind],
                        "question": "can_close" if closure else "min_cards",
                        "position": doc(s.table, cards),
                        "expected": expected,
                    })

    def hole_and_bounded(self) -> None:
        """The leaflet's hole, and a closable case made impossible by a tight play area."""
        hole = parse_position(
            "bandido L+TL+TR+R+BR+BL@0,0,0 L+BR@-1,-1,0 TL@-2,-1,90 TR@-1,1,0 | L*3 TL+BL*2"
        )
        self.puzzles.append({
            "id": "hole-1", "description": "impossible: an exit runs into a walled-in cell",
            "question": "can_close", "position": to_json(hole),
            "expected": {"status": "impossible"},
        })
        for p in list(self.puzzles):
            expected = p["expected"]
            assert isinstance(expected, dict)
            if p["question"] != "min_cards" or expected["status"] != "closable":
                continue
            pos = parse_position(json.dumps(p["position"]))
            area = pos.table.bounds()
            if can_close(pos, backend="exact", bounds=area).status == "impossible":
                self.puzzles.append({
                    "id": "bounded-1",
                    "description": "closable on an open table, impossible when the play area "
                    "is the table's bounding box",
                    "question": "can_close", "position": p["position"],
                    "bounds": list(area), "expected": {"status": "impossible"},
                })
                return

    def every_of(self, final: GameState, before: GameState) -> None:
        """Closures that need every card: the last cards of a won game (``before``: its state
        before the last move)."""
        for k in (3, 4, 5):
            if self.got["every"] >= WANT["every"] or len(before.table.history) <= k + 1:
                continue
            t = Table.empty()
            for laid in final.table.history[:-k]:
                t = t.place(laid)
            cards = [q.card for q in final.table.history[-k:]]
            rk = min_cards_to_close(t, cards, backend="exact", time_limit=2)
            if rk.status == "closable" and rk.cards == k:
                self.got["every"] += 1
                self.puzzles.append({
                    "id": f"every-{self.got['every']}",
                    "description": DESCRIPTIONS["every"],
                    "question": "min_cards", "position": doc(t, cards),
                    "expected": {"status": "closable", "cards": k},
                })

    def game(self, s: GameState) -> None:
        """A game puzzle from ``s``, if perfect play decides it and its kind is wanted."""
        st = state_from(s.table, s.hands, s.pile, player=s.player)
        if st.outcome is not None:
            return
        g = solve_game(st, time_limit=0.5)
        if g.status == "unknown":
            return
        kind: str = g.status
        if kind == "win" and any(str(m.action) == "change" for m in g.line[:1]):
            kind = "change"
        if self.got_game[kind] >= (3 if kind == "lose" else 2):
            return
        self.got_game[kind] += 1
        self.puzzles.append({
            "id": f"game-{kind}-{self.got_game[kind]}",
            "description": GAME_DESCRIPTIONS[kind],
            "question": "solve",
            "position": doc(s.table, []) | {"remaining": []},
            "hands": [[card_name(c) for c in h] for h in s.hands],
            "pile": [card_name(c) for c in s.pile],
            "player": s.player,
            "options": {},
            "expected": {"status": g.status, "turns": len(g.line)},
        })

    def games(self) -> None:
        """Game puzzles (perfect information, 2 players) from seeded games' last states."""
        for seed in range(300):
            if min(self.got_game.values()) >= 2 and self.got["every"] >= WANT["every"]:
                return
            history = states(seed)
            final = FINAL[seed]
            picks = [h for h in history[-14:] if len(h.pile) <= 9]
            if final.outcome == "won":
                picks = history[-6:]
                self.every_of(final, history[-1])
            for s in picks:
                if final.outcome != "won" and self.got_game["lose"] >= 3:
                    break
                self.game(s)


def main() -> None:
    found = Collector()
    found.closures()
    found.hole_and_bounded()
    found.games()
    OUT.write_text(json.dumps(found.puzzles, indent=1) + "\n", encoding="utf-8")
    print(len(found.puzzles), found.got, found.got_game)


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
