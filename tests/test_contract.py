"""The contract suite over every registered game (``banditsolve.games()``).

A game registered later is covered with no change here. Random games are played once per game
(seeds ``0..N``, N scaled by the profile) and shared by the per-state checks; each check is its
own test, so a failure names the game and the check.
"""

from __future__ import annotations

import functools
import json
import random
from typing import Any

import pytest
from hypothesis import settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, rule

from banditsolve.core.limits import MAX_SEED
from banditsolve.core.play import sample_chance
from banditsolve.core.protocol import CHANCE, TERMINAL, Outcome
from banditsolve.errors import ArgumentTypeError, BanditsolveError, IllegalActionError
from tests import contract
from tests.profiles import PROFILE, scaled
from tests.strategies.games import Trace, names, play, player_counts, seeded_games

GAMES = names()
#: Random games per game for the per-state checks.
GAME_COUNT = scaled(15, 200, 1000)
#: Quick runs check the slow per-state checks on some states only (``contract.SPARSE``), and
#: each check stops after a time budget (every game's first and last state always checked);
#: CI checks every state within a larger budget; the long profile has no budget.
SPARSE = PROFILE == "default"
BUDGET = {"default": 0.4, "ci": 6.0}.get(PROFILE)
#: Quick runs round-trip the text of at most this many actions per state (spread evenly).
MAX_ACTIONS = {"default": 60, "ci": 200}.get(PROFILE)
#: Quick runs play each rule option's game for this many states (CI: to the end).
OPTION_STATES = 80 if PROFILE == "default" else None
#: Draws per chance node in the sampling test.
SAMPLES = scaled(1000, 20000)
#: Chance nodes per game in the sampling tests.
NODES = scaled(2, 5, 10)


def samples_at(game: Any, node: Any) -> int:
    """:data:`SAMPLES`, fewer at a node with hundreds of outcomes (each draw of
    ``core.play.sample_chance`` walks the outcomes), never fewer than 1000."""
    return max(1000, min(SAMPLES, 1_000_000 // len(game.chance_outcomes(node))))


@functools.cache
def traces(name: str) -> tuple[Trace, ...]:
    return tuple(seeded_games(contract.load(name), GAME_COUNT))


@functools.cache
def pools(name: str) -> tuple[tuple[Any, ...], tuple[Any, ...]]:
    """The player and chance actions seen in the random games (to try as illegal ones)."""
    game = contract.load(name)
    with contract.context(game) as ctx:
        for trace in traces(name):
            for visit in trace.visits:
                ctx.learn(visit.state)
        return tuple(ctx.player_actions), tuple(ctx.chance_actions)


@pytest.mark.parametrize("name", GAMES)
def test_attributes(name: str) -> None:
    contract.check_attributes(contract.load(name))


@pytest.mark.parametrize("name", GAMES)
def test_player_counts(name: str) -> None:
    contract.check_player_counts(contract.load(name))


@pytest.mark.parametrize("name", GAMES)
def test_options(name: str) -> None:
    contract.check_options(contract.load(name), stop_at=OPTION_STATES)


@pytest.mark.parametrize("name", GAMES)
def test_seeded_games_are_deterministic(name: str) -> None:
    contract.check_deterministic(contract.load(name))


@pytest.mark.parametrize("name", GAMES)
def test_random_games_end(name: str) -> None:
    game = contract.load(name)
    ends = [t.last for t in traces(name)]
    assert ends
    assert all(game.current_player(s) == TERMINAL for s in ends)
    # Random games take different courses: not every game is the same.
    assert len({game.to_notation(s) for s in ends}) > 1 or len(ends) == 1


@pytest.mark.parametrize("check", list(contract.STATE_CHECKS))
@pytest.mark.parametrize("name", GAMES)
def test_every_visited_state(name: str, check: str) -> None:
    game = contract.load(name)
    with contract.context(game, max_actions=MAX_ACTIONS) as ctx:
        players, chance = pools(name)
        ctx.player_actions, ctx.chance_actions = list(players), list(chance)
        checked = contract.check_traces(
            ctx, traces(name), check, sparse=SPARSE, budget=BUDGET, learn=False
        )
    assert checked >= GAME_COUNT


@pytest.mark.parametrize("name", GAMES)
def test_no_game_is_longer_than_max_game_length(name: str) -> None:
    contract.check_lengths(contract.load(name), traces(name))


@pytest.mark.parametrize("name", GAMES)
def test_hidden_information_is_hidden(name: str) -> None:
    """Two states that differ only in a player's hidden part (a hand card swapped with a pile
    card; a closed trunk's tile swapped) look the same to the others and not to that player."""
    game = contract.load(name)
    checked = contract.check_hidden(game, traces(name))
    assert checked >= (0 if game.perfect_information else 10), f"{name}: {checked} pairs"


@pytest.mark.parametrize("name", GAMES)
def test_chance_is_explicit(name: str) -> None:
    """Some random game meets a chance node (every registered game has chance: dice, tiles or
    a shuffled deck, drawn at chance nodes when the game starts without a seed)."""
    game = contract.load(name)
    assert contract.chance_nodes(game, traces(name), 1), f"{name}: no chance node reached"


@pytest.mark.parametrize("name", GAMES)
def test_sample_chance_follows_the_probabilities(name: str) -> None:
    game = contract.load(name)
    nodes = contract.chance_nodes(game, traces(name), NODES)
    assert nodes
    for node in nodes:
        draw = lambda s, rng: sample_chance(game, s, rng)  # noqa: E731
        contract.check_sampling(game, node, draw, samples_at(game, node))


@pytest.mark.parametrize("name", GAMES)
def test_the_games_own_sampler_follows_the_probabilities(name: str) -> None:
    """A game's own fast ``sample_chance(state, rng)``, where it has one."""
    game = contract.load(name)
    own = getattr(game, "sample_chance", None)
    if own is None:
        return
    for node in contract.chance_nodes(game, traces(name), NODES):
        contract.check_sampling(game, node, own, samples_at(game, node), seed=99)


def test_chi_square_catches_a_biased_sampler() -> None:
    """The sampling check is not vacuous: a sampler that ignores the probabilities fails."""
    game = contract.load(GAMES[0])
    nodes = [
        n
        for n in contract.chance_nodes(game, traces(GAMES[0]), 20)
        if len({p for _, p in game.chance_outcomes(n)}) > 1
    ]
    assert nodes, "no chance node with unequal probabilities"

    def uniform(state: Any, rng: random.Random) -> Any:
        actions = [a for a, _ in game.chance_outcomes(state)]
        return actions[rng.randrange(len(actions))]

    with pytest.raises(AssertionError, match="chi-square"):
        contract.check_sampling(game, nodes[0], uniform, 20000)


def test_chi_square_statistic() -> None:
    from fractions import Fraction

    stat, df = contract.chi_square([50, 50], [Fraction(1, 2), Fraction(1, 2)])
    assert (stat, df) == (0.0, 1)
    stat, df = contract.chi_square([100, 0, 0], [Fraction(1, 3)] * 3)
    assert df == 2
    assert stat == pytest.approx(200.0)
    assert stat > contract.chi_square_bound(df)


@pytest.mark.parametrize("name", GAMES)
def test_check_game_runs_whole(name: str) -> None:
    """The one-call suite that a new game's own tests can use (few seeds here)."""
    contract.check_game(
        contract.load(name),
        seeds=range(100, 100 + scaled(1, 3, 10)),
        samples=scaled(200, 2000),
        sparse=SPARSE,
        budget=BUDGET / 5 if BUDGET else None,
        max_actions=MAX_ACTIONS,
        stop_at=OPTION_STATES and OPTION_STATES // 4,
    )


# -- a hypothesis state machine per game -----------------------------------------------------


def machine(name: str) -> type[RuleBasedStateMachine]:
    """A state machine that plays ``name`` with hypothesis choosing every action and checks
    the whole per-state contract after each one."""

    class ContractMachine(RuleBasedStateMachine):
        def __init__(self) -> None:
            super().__init__()
            self.game = contract.load(name)
            self._tmp = contract.context(self.game, max_actions=MAX_ACTIONS)
            self.ctx = self._tmp.__enter__()
            # Actions from other games, so that "legal elsewhere" has something to offer.
            players, chance = pools(name)
            self.ctx.player_actions, self.ctx.chance_actions = list(players), list(chance)
            self.state: Any = None

        def teardown(self) -> None:
            self._tmp.__exit__(None, None, None)

        @initialize(seed=st.integers(0, 2**32 - 1), which=st.integers(0, 11))
        def start(self, seed: int, which: int) -> None:
            counts = player_counts(self.game)
            self.state = self.game.new_game(counts[which % len(counts)], seed=seed)

        @rule(choice=st.integers(0, 10**6))
        def act(self, choice: int) -> None:
            game = self.game
            if game.current_player(self.state) == TERMINAL:
                self.state = game.new_game(None, seed=choice)
                return
            actions = game.legal_actions(self.state)
            action = actions[choice % len(actions)]
            contract.check_apply_pure(self.ctx, self.state, [action])
            self.state = game.apply(self.state, action)

        @rule(seed=st.integers(0, 2**32 - 1))
        def chance(self, seed: int) -> None:
            if self.game.current_player(self.state) == CHANCE:
                action = sample_chance(self.game, self.state, random.Random(seed))
                self.state = self.game.apply(self.state, action)

        @rule(choice=st.integers(0, 10**6))
        def illegal(self, choice: int) -> None:
            game = self.game
            pool = self.ctx.player_actions + self.ctx.chance_actions
            if not pool:
                return
            action = pool[choice % len(pool)]
            if contract._contains(game.legal_actions(self.state), action):
                return
            before = contract._snapshot(game, self.state)
            with pytest.raises(IllegalActionError):
                game.apply(self.state, action)
            assert contract._snapshot(game, self.state) == before

        @invariant()
        def contract_holds(self) -> None:
            if self.state is None:
                return
            self.steps = getattr(self, "steps", 0) + 1
            names = list(contract.STATE_CHECKS)
            if SPARSE and self.steps % 4:
                names = [n for n in names if n not in ("read_state", "pictures", "policies")]
            contract.check_state(self.ctx, self.state, names)

    ContractMachine.__name__ = ContractMachine.__qualname__ = f"ContractMachine_{name}"
    return ContractMachine


@pytest.mark.parametrize("name", GAMES)
def test_state_machine(name: str) -> None:
    from hypothesis.stateful import run_state_machine_as_test

    run_state_machine_as_test(
        machine(name),
        settings=settings(
            max_examples=scaled(5, 25, 200), stateful_step_count=scaled(20, 50, 100), deadline=None
        ),
    )


@pytest.mark.slow
@pytest.mark.parametrize("name", GAMES)
def test_many_more_random_games(name: str) -> None:
    game = contract.load(name)
    counts = player_counts(game)
    with contract.context(game) as ctx:
        for seed in range(10_000, 10_000 + scaled(500, 2000, 10_000)):
            trace = play(game, seed, players=counts[seed % len(counts)])
            for visit in trace.visits:
                contract.check_state(ctx, visit.state)


# -- the checks are not vacuous: a game broken in one way fails the check for it -------------


class Broken:
    """The first registered game with one method replaced."""

    def __init__(self, game: Any, **methods: Any) -> None:
        self._game = game
        self._methods = methods

    def __getattr__(self, name: str) -> Any:
        if name in self._methods:
            return self._methods[name]
        return getattr(self._game, name)


def _states(game: Any) -> dict[str, Any]:
    """A chance node, a player node with several actions, and a finished game."""
    found: dict[str, Any] = {}
    for trace in traces(game.name):
        for visit in trace.visits:
            actor = visit.actor
            if actor == CHANCE:
                found.setdefault("chance", visit.state)
            elif actor == TERMINAL:
                found.setdefault("end", visit.state)
            elif len(game.legal_actions(visit.state)) > 1:
                found.setdefault("player", visit.state)
    assert set(found) == {"chance", "player", "end"}, sorted(found)
    return found


FAILS = (AssertionError, pytest.fail.Exception)


def test_each_check_catches_its_violation() -> None:
    from fractions import Fraction

    game = contract.load(GAMES[0])
    s = _states(game)

    def check(name: str, state: Any, **methods: Any) -> None:
        broken = Broken(game, **methods)
        with contract.context(broken) as ctx:
            ctx.player_actions = list(pools(game.name)[0])
            ctx.chance_actions = list(pools(game.name)[1])
            with pytest.raises(FAILS):
                contract.STATE_CHECKS[name](ctx, state)

    calls = {"n": 0}

    def unstable(state: Any) -> tuple[Any, ...]:
        calls["n"] += 1
        actions = tuple(game.legal_actions(state))
        return actions if calls["n"] % 2 else actions[::-1]

    def lenient_apply(state: Any, action: Any) -> Any:
        if not any(action == a for a in game.legal_actions(state)):
            return state
        return game.apply(state, action)

    check("legal_actions", s["player"], legal_actions=lambda st: list(game.legal_actions(st)))
    check("legal_actions", s["player"], legal_actions=unstable)
    check("legal_actions", s["end"], legal_actions=lambda st: game.legal_actions(s["player"]))
    check(
        "chance_outcomes",
        s["chance"],
        chance_outcomes=lambda st: tuple((a, float(p)) for a, p in game.chance_outcomes(st)),
    )
    check(
        "chance_outcomes",
        s["chance"],
        chance_outcomes=lambda st: tuple((a, p / 2) for a, p in game.chance_outcomes(st)),
    )
    check("chance_outcomes", s["player"], chance_outcomes=lambda st: ())
    check("illegal_actions", s["player"], apply=lenient_apply)
    check("notation", s["player"], to_notation=lambda st: game.to_notation(s["chance"]))
    check("json", s["player"], to_json=lambda st: {**game.to_json(st), "x": float("nan")})
    check(
        "outcome",
        s["end"],
        outcome=lambda st: Outcome((0,), (1.0,), "won", ()),
    )
    check("outcome", s["player"], outcome=lambda st: game.outcome(s["end"]))
    check("pictures", s["player"], svg=lambda st: "<html></html>")
    check("pictures", s["player"], ascii=lambda st: "")
    check("policies", s["player"], policies=lambda: {"first": lambda st, rng: None})
    check(
        "action_texts",
        s["player"],
        parse_action=lambda st, text: game.legal_actions(st)[0],
    )
    check("current_player", s["end"], current_player=lambda st: 0)
    check("read_state", s["player"], read_state=lambda src: s["chance"])
    check("policies", s["player"], policies=lambda: {"random": lambda st, rng: None})
    flips = {"n": 0}

    def hidden_state_apply(state: Any, action: Any) -> Any:
        flips["n"] += 1
        after = game.apply(state, action)
        return after if flips["n"] % 2 else state

    check("apply_pure", s["player"], apply=hidden_state_apply)
    check(
        "chance_outcomes",
        s["chance"],
        chance_outcomes=lambda st: tuple((a, Fraction(0)) for a, _ in game.chance_outcomes(st)),
    )


#: The contract's methods that take a state, with their other arguments.
STATE_METHODS: tuple[tuple[str, tuple[object, ...]], ...] = (
    ("players", ()), ("current_player", ()), ("legal_actions", ()), ("chance_outcomes", ()),
    ("outcome", ()), ("to_notation", ()), ("to_json", ()), ("ascii", ()), ("svg", ()),
    ("apply", (None,)), ("action_text", (None,)), ("parse_action", ("x",)),
    ("sample_chance", (random.Random(0),)),
)


@pytest.mark.parametrize("name", GAMES)
def test_a_game_refuses_what_is_not_its_state_as_a_type_error(name: str) -> None:
    """Every method that takes a state refuses anything else in one line with the library's
    error, which is also a TypeError: no AttributeError from inside."""
    game = contract.load(name)
    other = next(n for n in GAMES if n != name)
    foreign = contract.load(other).new_game(seed=1)
    for method, rest in STATE_METHODS:
        for bad in (None, 42, "text", foreign):
            if bad is foreign and type(foreign) is type(game.new_game(seed=1)):
                continue  # (the other tunnel game's state: refused as not this game's, below)
            with pytest.raises(ArgumentTypeError) as caught:
                getattr(game, method)(bad, *rest)
            assert isinstance(caught.value, TypeError)
            assert isinstance(caught.value, BanditsolveError)
            assert "\n" not in str(caught.value)


@pytest.mark.parametrize("name", GAMES)
def test_random_play_under_random_option_sets_reaches_only_accepted_states(name: str) -> None:
    """Every game, every option drawn at random (and a random player count the options allow):
    every state random play reaches passes the game's ``validate``, and the game ends. (A
    random option set a game refuses, such as a two-player variant with three players, is
    drawn again.)"""
    game = contract.load(name)
    rng = random.Random(2720)
    names = game.option_set.names()
    played = 0
    while played < scaled(60, 200):
        options = {option: rng.choice(values) for option, values in names.items()}
        options.pop("table_size", None)  # (a play area is drawn at once by other tests)
        players = rng.choice(player_counts(game))
        try:
            game.new_game(players, options, seed=0)
        except BanditsolveError:
            continue
        trace = play(game, rng.randrange(10**6), players=players, options=options,
                     mix=played % 2 == 1)
        for visit in trace.visits:
            game.validate(visit.state)
        assert game.current_player(trace.last) == TERMINAL  # (the game ended)
        assert game.outcome(trace.last) is not None
        played += 1


@pytest.mark.parametrize("name", GAMES)
def test_new_game_takes_the_seeds_the_command_line_takes(name: str) -> None:
    """``seed`` is a whole number from 0 to :data:`MAX_SEED` in every game, as ``--seed``
    takes it: a negative one was dealt from in Python and refused on the command line."""
    game = contract.load(name)
    game.new_game(seed=MAX_SEED)
    for bad in (-1, MAX_SEED + 1):
        with pytest.raises(BanditsolveError, match="the seed") as info:
            game.new_game(seed=bad)
        assert isinstance(info.value, ValueError)
        assert not isinstance(info.value, TypeError)
    for wrong in ("1", 1.0, True):
        with pytest.raises(ArgumentTypeError, match="the seed"):
            game.new_game(seed=wrong)


@pytest.mark.parametrize("name", GAMES)
def test_a_game_reads_text_and_refuses_other_types_as_type_errors(name: str) -> None:
    """The readers take text (or bytes, or a parsed JSON document): anything else is a
    TypeError in one line; text that does not read is a value error, not a TypeError."""
    game = contract.load(name)
    state = game.new_game(seed=1)
    for bad in (None, 42, 2.5, ["x"], object()):
        for reader in (game.from_json, game.read_state, game.from_notation):
            with pytest.raises(ArgumentTypeError) as caught:
                reader(bad)
            assert "\n" not in str(caught.value)
    for text in ("[1, 2]", "{", '"x"'):
        with pytest.raises(BanditsolveError) as refused:
            game.from_json(text)
        assert not isinstance(refused.value, TypeError), (text, str(refused.value))
    assert game.from_json(game.to_json(state)) == state
    assert game.from_json(json.dumps(game.to_json(state)).encode("utf-8")) == state


def test_the_information_checks_catch_their_violations() -> None:
    """A game that leaks, blurs or misnumbers fails the check for it."""
    perfect = contract.load("banditos")
    hidden = contract.load("bandido")
    assert perfect.perfect_information
    assert not hidden.perfect_information
    some = traces(perfect.name)[:3]

    def fails(game: Any, name: str, run: Any = None) -> None:
        with contract.context(game) as ctx:
            ctx.player_actions = list(pools(game._game.name)[0])
            ctx.chance_actions = list(pools(game._game.name)[1])
            check = run if run is not None else lambda: contract.check_traces(ctx, some, name)
            with pytest.raises(FAILS):
                check()

    def blurred(state: Any, player: int) -> str:
        return str(perfect.observation(state, player))[:3]

    fails(Broken(perfect, observation=blurred), "observation")
    fails(Broken(perfect, observation_tensor=lambda st, p: (0.0,)), "observation")
    def flat(state: Any, player: int) -> tuple[float, ...]:
        return (0.0,) * len(perfect.observation_tensor(state, player))

    fails(Broken(perfect, observation_tensor=flat), "observation")
    fails(Broken(perfect, action_index=lambda st, a: 0), "numbering")
    fails(
        Broken(perfect, action_from_index=lambda st, i: perfect.legal_actions(st)[0]),
        "numbering",
    )
    fails(Broken(perfect, num_distinct_actions=lambda players, options: 1), "numbering")
    fails(Broken(perfect, legal_indices=lambda st: perfect.legal_indices(st)[::-1]), "numbering")
    short = Broken(perfect, max_game_length=lambda players, options: 5)
    fails(short, "", lambda: contract.check_lengths(short, some))
    leaky = Broken(hidden, observation=lambda st, p: hidden.to_notation(st))
    fails(leaky, "", lambda: contract.check_hidden(leaky, traces(hidden.name)))
    blind = Broken(
        hidden, observation_tensor=lambda st, p: hidden.observation_tensor(st, (p + 1) % 2)
    )
    fails(blind, "", lambda: contract.check_hidden(blind, traces(hidden.name)))
