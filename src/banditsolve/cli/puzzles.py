"""Each shipped game's puzzles for ``banditsolve GAME puzzles`` and ``banditsolve GAME puzzle
ID [--solve]``: the :class:`~banditsolve.core.hooks.PuzzleHooks` of Los Banditos, Bandido,
Bandida and Rolling Bandits.

These belong in each game's own ``cli`` module (its command-line hooks, which the verbs ask
first): they are kept here, one class per game, until they move there. Each lists the game's
collection, shows a puzzle's position, and solves it with the game's solver, checking the
answer against the one stored with the puzzle.
"""

from __future__ import annotations

from fractions import Fraction
from typing import TYPE_CHECKING, Any

from banditsolve.core.hooks import PuzzleHooks
from banditsolve.core.puzzles import (
    PuzzleCard,
    PuzzleView,
    SolvedPuzzle,
    answer_picture,
    find_card,
)
from banditsolve.core.text import plural

if TYPE_CHECKING:
    from banditsolve.banditos.puzzles import Puzzle as BanditosPuzzle
    from banditsolve.rolling.puzzles import Puzzle as RollingPuzzle
    from banditsolve.tunnels.puzzles import Puzzle as BandidoPuzzle
    from banditsolve.tunnels.solvers.bandida_puzzles import BandidaPuzzle

#: Seconds a puzzle's solver may take (every shipped puzzle takes well under one).
PUZZLE_TIME_LIMIT = 60.0


def _solved(view: PuzzleView, answer: str, found: Any, expected: Any, result: object,
            ascii_picture: str, *, unknown: bool = False) -> SolvedPuzzle:
    return SolvedPuzzle(view, answer, found, expected, not unknown and found == expected,
                        ascii_picture, answer_picture(result, view.svg), unknown)


class BanditosPuzzles:
    """Los Banditos: claims (under both proofs), completion odds, the best turn."""

    def _all(self) -> list[BanditosPuzzle]:
        from banditsolve.banditos.puzzles import load_puzzles

        return load_puzzles()

    @staticmethod
    def _card(p: BanditosPuzzle) -> PuzzleCard:
        question = {
            "claim": f"is a claim on tile {p.tile} provably safe ({p.proof} proof)?",
            "odds": f"the exact odds of how the opponent's side of tile {p.tile} completes "
                    "against the claim",
            "best": "the best play of this turn, and the chance to win with it",
        }[p.question]
        return PuzzleCard(p.id, p.description, question)

    def puzzle_list(self, game: str) -> tuple[PuzzleCard, ...]:
        return tuple(self._card(p) for p in self._all())

    def _find(self, game: str, puzzle_id: str) -> BanditosPuzzle:
        puzzles = self._all()
        card = find_card([self._card(p) for p in puzzles], puzzle_id, game)
        return next(p for p in puzzles if p.id == card.id)

    def puzzle_view(self, game: str, puzzle_id: str) -> PuzzleView:
        from banditsolve.core.registry import load_game

        p = self._find(game, puzzle_id)
        rules = load_game(game)
        state = p.state()
        return PuzzleView(self._card(p), p.position, rules.ascii(state), rules.svg(state))

    def solve_puzzle(self, game: str, puzzle_id: str) -> SolvedPuzzle:
        from banditsolve.banditos import best_turn, claim_verdict_at, completion_odds_at
        from banditsolve.banditos.cli import claim_text
        from banditsolve.core.limits import BANDITOS_BEST_NODE_LIMIT
        from banditsolve.core.registry import load_game

        p = self._find(game, puzzle_id)
        view = self.puzzle_view(game, puzzle_id)
        state, rules = p.state(), load_game(game)
        result: Any
        if p.question == "claim":
            assert p.tile is not None
            strict = claim_verdict_at(state, p.tile, proof="strict")
            bag = claim_verdict_at(state, p.tile, proof="bag")
            result = strict if p.proof == "strict" else bag
            found: Any = {"safe": result.safe, "safe_strict": strict.safe, "safe_bag": bag.safe}
            text = "\n".join((claim_text(state, p.tile, "strict", strict),
                              claim_text(state, p.tile, "bag", bag)))
            return _solved(view, text, found, p.answer, result, view.ascii)
        if p.question == "odds":
            assert p.tile is not None
            result = completion_odds_at(state, p.tile)
            found = {"above": str(result.above), "equal": str(result.equal),
                     "below": str(result.below)}
            return _solved(view, result.explain(), found, p.answer, result, view.ascii)
        result = best_turn(state, time_limit=PUZZLE_TIME_LIMIT,
                           node_limit=BANDITOS_BEST_NODE_LIMIT, method="exact")
        found = {"actions": _step_texts(rules, state, result.actions),
                 "probability": str(result.probability)}
        return _solved(view, result.explain(), found, p.answer, result, view.ascii,
                       unknown=bool(result.is_unknown or result.is_estimate))


def _step_texts(rules: Any, state: Any, actions: tuple[Any, ...]) -> list[str]:
    """The actions of a turn as text, each read in the state it is played in."""
    out = []
    for action in actions:
        out.append(rules.action_text(state, action))
        state = rules.apply(state, action)
    return out


class RollingPuzzles:
    """Rolling Bandits: laying odds, safe wagons, trunks, the ambush, the chance to steal."""

    def _all(self) -> list[RollingPuzzle]:
        from banditsolve.rolling.puzzles import load_puzzles

        return load_puzzles()

    @staticmethod
    def _card(p: RollingPuzzle) -> PuzzleCard:
        question = {
            "lay": f"the chance that the coming roll lays {p.k} or more dice of {p.symbol}",
            "safe": f"is wagon {p.car} provably player {p.player}'s at their next turn?",
            "trunk": "the one wagon whose trunk some laying of this roll carries off",
            "ambush": "the ambush swap that carries off the most trunks",
            "steal": f"the chance, with the best play of the rest of the turn, that wagon "
                     f"{p.car} is the mover's to steal at their next turn",
        }[p.question]
        return PuzzleCard(p.id, p.description, question)

    def puzzle_list(self, game: str) -> tuple[PuzzleCard, ...]:
        return tuple(self._card(p) for p in self._all())

    def _find(self, game: str, puzzle_id: str) -> RollingPuzzle:
        puzzles = self._all()
        card = find_card([self._card(p) for p in puzzles], puzzle_id, game)
        return next(p for p in puzzles if p.id == card.id)

    def puzzle_view(self, game: str, puzzle_id: str) -> PuzzleView:
        from banditsolve.core.registry import load_game

        p = self._find(game, puzzle_id)
        rules = load_game(game)
        state = p.state()
        return PuzzleView(self._card(p), p.position, rules.ascii(state), rules.svg(state))

    def solve_puzzle(self, game: str, puzzle_id: str) -> SolvedPuzzle:
        from banditsolve.rolling.edition import LETTERS
        from banditsolve.rolling.solvers.safety import is_safe
        from banditsolve.rolling.solvers.turn import (
            best_ambush,
            chance_to_lay,
            steal_chance,
            trunk_cars,
        )

        p = self._find(game, puzzle_id)
        view = self.puzzle_view(game, puzzle_id)
        state = p.state()
        if p.question == "safe":
            verdict = is_safe(state, p.car, p.player, time_limit=PUZZLE_TIME_LIMIT)
            found: Any = None if verdict.safe is None else ("safe" if verdict.safe else "unsafe")
            return _solved(view, verdict.explain(), found, p.answer, verdict, view.ascii,
                           unknown=verdict.safe is None)
        if p.question == "lay":
            chance = chance_to_lay(state, LETTERS.index(p.symbol), p.k)
            text = f"{chance} ({float(chance):.2%}) to lay {p.k} or more dice of {p.symbol}"
            return _solved(view, text, str(chance), p.answer, chance, view.ascii)
        if p.question == "steal":
            chance = steal_chance(state, p.car)
            text = f"{chance} ({float(chance):.2%}) that wagon {p.car} is the mover's to steal"
            return _solved(view, text, str(chance), p.answer, chance, view.ascii)
        if p.question == "trunk":
            wagons = trunk_cars(state)
            found = ",".join(map(str, wagons))
            text = (f"wagon {found}'s trunk" if len(wagons) == 1
                    else f"the trunks of wagons {found}") + " can be carried off this turn"
            return _solved(view, text, found, p.answer, wagons, view.ascii)
        swap, trunks = best_ambush(state)
        text = f"{swap}: it carries off {plural(trunks, 'trunk')}"
        found = swap if trunks == p.k else f"{swap} ({trunks} trunks)"
        return _solved(view, text, found, p.answer, swap, view.ascii)


class BandidoPuzzles:
    """Bandido: can the tunnel close, the fewest cards that close it, a game solved."""

    def _all(self) -> tuple[BandidoPuzzle, ...]:
        from banditsolve.tunnels.puzzles import load_puzzles

        return load_puzzles()

    @staticmethod
    def _card(p: BandidoPuzzle) -> PuzzleCard:
        question = {
            "can_close": "can the tunnel still be closed with the cards to come?",
            "min_cards": "the fewest of the cards to come that close the tunnel",
            "solve": "can this game be won, every card's place in the pile known?",
        }[p.question]
        return PuzzleCard(p.id, p.description, question)

    def puzzle_list(self, game: str) -> tuple[PuzzleCard, ...]:
        return tuple(self._card(p) for p in self._all())

    def _find(self, game: str, puzzle_id: str) -> BandidoPuzzle:
        puzzles = self._all()
        card = find_card([self._card(p) for p in puzzles], puzzle_id, game)
        return next(p for p in puzzles if p.id == card.id)

    def puzzle_view(self, game: str, puzzle_id: str) -> PuzzleView:
        from banditsolve.core.registry import load_game
        from banditsolve.tunnels import ascii_art, svg
        from banditsolve.tunnels.notation import to_notation

        p = self._find(game, puzzle_id)
        if p.question == "solve":
            rules = load_game(game)
            state = p.state()
            return PuzzleView(self._card(p), rules.to_notation(state), rules.ascii(state),
                              rules.svg(state))
        table, remaining = p.position.table, p.position.remaining
        return PuzzleView(self._card(p), to_notation(p.position),
                          ascii_art(table, remaining, legend=False), svg(table, remaining))

    def solve_puzzle(self, game: str, puzzle_id: str) -> SolvedPuzzle:
        from banditsolve.tunnels import min_cards_to_close

        p = self._find(game, puzzle_id)
        view = self.puzzle_view(game, puzzle_id)
        if p.question == "solve":
            return _solve_game(view, p.state(), dict(p.expected))
        result = min_cards_to_close(p.position, bounds=p.bounds, time_limit=PUZZLE_TIME_LIMIT)
        found: dict[str, Any] = {"status": result.status}
        if p.question == "min_cards" and result.status == "closable":
            found["cards"] = result.cards
        return _closure(view, p.position.table, result, found, dict(p.expected))


def _solve_game(view: PuzzleView, state: Any, expected: dict[str, Any]) -> SolvedPuzzle:
    from banditsolve.tunnels import solve_game

    result = solve_game(state, time_limit=PUZZLE_TIME_LIMIT)
    found: dict[str, Any] = {"status": result.status}
    if "turns" in expected:
        found["turns"] = len(result.line)
    if "win_chance" in expected and result.win_chance is not None:
        found["win_chance"] = str(Fraction(result.win_chance).limit_denominator(10**6))
    text = "\n".join([f"{result.status}: {result.reason}", *(f"  {m}" for m in result.line)])
    return _solved(view, text, found, expected, result, view.ascii,
                   unknown=result.status == "unknown")


def _closure(view: PuzzleView, table: Any, result: Any, found: dict[str, Any],
             expected: dict[str, Any]) -> SolvedPuzzle:
    """A closure answer: its words and its picture, the cards it lays drawn on the table."""
    from banditsolve.tunnels.cli import answer_svg, closure_text

    solved = _solved(view, closure_text(table, result, legend=False), found, expected, result,
                     view.ascii, unknown=result.status == "unknown")
    if getattr(result, "_repr_svg_", None) is None and result.placements:
        from dataclasses import replace

        return replace(solved, svg=answer_svg(table, result))
    return solved


class BandidaPuzzles:
    """Bandida: can it still be won in a mode with these cards (and how few), a game solved."""

    def _all(self) -> tuple[BandidaPuzzle, ...]:
        from banditsolve.tunnels.solvers.bandida_puzzles import load_bandida_puzzles

        return load_bandida_puzzles()

    @staticmethod
    def _card(p: BandidaPuzzle) -> PuzzleCard:
        if p.question == "solve":
            question = "can this game be won, every card's place in the pile known?"
        else:
            goal = f" (goal: {p.goal})" if p.goal else ""
            question = (f"the fewest of the cards {', '.join(p.cards or ())} that reach the "
                        f"mode's goal{goal}")
        return PuzzleCard(p.id, p.description, question)

    def puzzle_list(self, game: str) -> tuple[PuzzleCard, ...]:
        return tuple(self._card(p) for p in self._all())

    def _find(self, game: str, puzzle_id: str) -> BandidaPuzzle:
        puzzles = self._all()
        card = find_card([self._card(p) for p in puzzles], puzzle_id, game)
        return next(p for p in puzzles if p.id == card.id)

    def puzzle_view(self, game: str, puzzle_id: str) -> PuzzleView:
        from banditsolve.core.registry import load_game

        p = self._find(game, puzzle_id)
        rules = load_game(game)
        state = p.state()
        return PuzzleView(self._card(p), p.position, rules.ascii(state), rules.svg(state))

    def solve_puzzle(self, game: str, puzzle_id: str) -> SolvedPuzzle:
        from banditsolve.tunnels import card_name, min_cards_to_close, parse_card

        p = self._find(game, puzzle_id)
        view = self.puzzle_view(game, puzzle_id)
        state = p.state()
        expected = dict(p.expected)
        if p.question == "solve":
            return _solve_game(view, state, expected)
        cards = [card_name(parse_card(c)) for c in p.cards or ()]
        result = min_cards_to_close(state, cards, goal=p.goal, hypothetical=p.hypothetical,
                                    time_limit=PUZZLE_TIME_LIMIT)
        found: dict[str, Any] = {"status": result.status}
        if result.status == "closable":
            found |= {"cards": result.cards, "minimum": result.minimum}
        return _closure(view, state.table, result, found, expected)


#: The hooks of each shipped game, by registered name, until each game's ``cli`` module has
#: its own.
SHIPPED: dict[str, PuzzleHooks] = {
    "banditos": BanditosPuzzles(),
    "rolling": RollingPuzzles(),
    "bandido": BandidoPuzzles(),
    "bandida": BandidaPuzzles(),
}
