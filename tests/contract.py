"""The game contract as checks: one generic suite that every registered game must pass.

Shaped after OpenSpiel's random-simulation test and pgx's API test: random legal games are
played through the protocol only (``current_player``, ``legal_actions``, ``apply``,
``chance_outcomes``), and every state they visit is checked:

- the player to act is a player number, :data:`CHANCE` or :data:`TERMINAL`, and
  :data:`TERMINAL` exactly when ``outcome`` is not ``None``;
- ``legal_actions`` is a tuple in a fixed order (twice the same), without repeats, empty exactly
  at the end, and at a chance node the outcomes of ``chance_outcomes`` in their order;
- chance probabilities are :class:`Fraction`, positive, and sum to exactly 1;
  ``chance_outcomes`` elsewhere raises :class:`IllegalActionError`;
- ``apply`` is pure: its input keeps its notation and JSON and equals a re-read copy, and the
  copy gives the same next state;
- an action that is legal somewhere else but not here (or a chance outcome at a player node,
  or a player action at a chance node, or anything at the end) raises
  :class:`IllegalActionError` and changes nothing;
- the notation and the JSON round-trip, also as JSON text, and ``read_state`` reads the
  notation, the JSON text, their bytes and a file holding either;
- every legal action's text reads back to the action;
- a finished game has a typed :class:`Outcome` with consistent winners and returns;
- the pictures draw (ASCII text; SVG that parses as ``<svg>``);
- every built-in policy (``"random"`` always among them) picks a legal action;
- every player's observation (text and tensor) is stable, the tensor of the game's fixed length
  and finite; the text and the tensor carry the same information (one text, one tensor, both
  ways); in a perfect-information game the observation determines the state;
- every legal action (and chance outcome) has an index in the game's range, distinct ones
  distinct indices, read back to the action; an index out of range, a wrong type or an illegal
  action is refused with the library's error;
- (per game) no random game is longer than ``max_game_length``; the hidden part of a state is
  hidden: two states that differ only in what a player cannot see look the same to that player
  (and not to the player who can see it).

Each check is a function ``check_*(ctx, state)`` (per state) or ``check_*(game)`` (per game);
:func:`check_game` runs them all. ``tests/test_contract.py`` runs them over the registry.
"""

from __future__ import annotations

import json
import math
import random
import tempfile
import time
import xml.etree.ElementTree as ET
from array import array
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest

import banditsolve
from banditsolve.core import protocol
from banditsolve.core.play import sample_chance, simulate
from banditsolve.core.protocol import CHANCE, TERMINAL, Outcome
from banditsolve.errors import (
    ArgumentTypeError,
    IllegalActionError,
    RuleOptionError,
)
from tests.information import HIDDEN, check_hidden, check_lengths
from tests.strategies.games import Trace, play, player_counts

__all__ = ["HIDDEN", "check_hidden", "check_lengths"]  # (the per-game information checks)

#: At most this many actions per state get the index round trip when the context sets no
#: ``max_actions`` (a Bandida map offers thousands of removals; indices by place cost a pass
#: over them each).
NUMBERED = 200
#: How many actions from elsewhere each illegal-action check tries per state.
ILLEGAL_TRIES = 3


def load(name: str) -> Any:
    """The registered game ``name``."""
    return banditsolve.load_game(name)


def _show(game: Any, state: Any) -> str:
    """A state for a failure message (its notation, cut short), whatever goes wrong."""
    try:
        text = str(game.to_notation(state))
    except Exception as exc:
        return f"<notation failed: {type(exc).__name__}>"
    return text if len(text) <= 160 else text[:157] + "..."


def _json_text(doc: object) -> str:
    try:
        return json.dumps(doc, sort_keys=True, allow_nan=False)
    except (TypeError, ValueError) as exc:
        raise AssertionError(f"to_json is not plain JSON ({exc})") from None


def assert_clear_message(exc: BaseException, limit: int = 300) -> None:
    """A user-facing error: one non-empty line, shorter than ``limit`` characters."""
    text = str(exc)
    assert text.strip(), f"{type(exc).__name__} with an empty message"
    assert "\n" not in text, f"{type(exc).__name__} message is more than one line: {text[:200]!r}"
    assert len(text) < limit, f"{type(exc).__name__} message of {len(text)} characters"


def _contains(items: Sequence[Any], item: Any) -> bool:
    return any(item == x for x in items)


def _repeated(items: Sequence[Any]) -> Any:
    """An item listed twice in ``items``, or None (hashing when the items allow it)."""
    try:
        seen: set[Any] = set()
        for x in items:
            if x in seen:
                return x
            seen.add(x)
        return None
    except TypeError:
        for i, x in enumerate(items):
            if _contains(items[:i], x):
                return x
        return None


@dataclass
class Context:
    """What the per-state checks share: the game, a scratch directory, and the actions seen
    in other states (to try as illegal ones here)."""

    game: Any
    tmp: Path
    player_actions: list[Any] = field(default_factory=list)
    chance_actions: list[Any] = field(default_factory=list)
    rng: random.Random = field(default_factory=lambda: random.Random(0))
    #: At most this many actions per state get the text round-trip (None: all of them).
    max_actions: int | None = None
    #: What each observation was seen with: (player, text) -> tensor, (player, tensor) -> text,
    #: and (a perfect-information game) text -> notation, tensor -> notation.
    seen: dict[Any, Any] = field(default_factory=dict)

    def learn(self, state: Any) -> None:
        """Remember the actions of ``state`` (a few per state) for later illegal tries."""
        game = self.game
        actor = game.current_player(state)
        if actor == TERMINAL:
            return
        pool = self.chance_actions if actor == CHANCE else self.player_actions
        for action in game.legal_actions(state)[:4]:
            if len(pool) < 400 and not _contains(pool, action):
                pool.append(action)


@contextmanager
def context(game: Any, *, max_actions: int | None = None) -> Iterator[Context]:
    with tempfile.TemporaryDirectory(prefix="contract-") as tmp:
        yield Context(game, Path(tmp), max_actions=max_actions)


# -- per-state checks ---------------------------------------------------------------------------


def check_current_player(ctx: Context, state: Any) -> None:
    game = ctx.game
    players = game.players(state)
    assert type(players) is int, (
        f"players(state) is {players!r}, not a count in {game.min_players}..{game.max_players}"
    )
    assert game.min_players <= players <= game.max_players, (
        f"players(state) is {players!r}, not a count in {game.min_players}..{game.max_players}"
    )
    actor = game.current_player(state)
    assert type(actor) is int, f"current_player is {type(actor).__name__}, not int"
    assert actor in (CHANCE, TERMINAL) or 0 <= actor < players, (
        f"current_player {actor} is no player of {players}, nor CHANCE nor TERMINAL"
    )
    ended = game.outcome(state) is not None
    assert ended == (actor == TERMINAL), (
        f"current_player is {actor} but outcome is {'set' if ended else 'None'}"
    )


def check_legal_actions(ctx: Context, state: Any) -> None:
    game = ctx.game
    actions = game.legal_actions(state)
    assert isinstance(actions, tuple), f"legal_actions is a {type(actions).__name__}, not tuple"
    again = game.legal_actions(state)
    assert again == actions, "legal_actions gave two different answers for one state"
    twice = _repeated(actions)
    assert twice is None, f"legal_actions lists {twice!r} twice"
    actor = game.current_player(state)
    if actor == TERMINAL:
        assert actions == (), f"a finished game has legal actions {actions[:3]!r}"
    else:
        assert actions, "a game that is not over has no legal action"
    if actor == CHANCE:
        listed = tuple(a for a, _ in game.chance_outcomes(state))
        assert actions == listed, "at a chance node legal_actions differs from chance_outcomes"


def check_chance_outcomes(ctx: Context, state: Any) -> None:
    game = ctx.game
    if game.current_player(state) != CHANCE:
        with pytest.raises(IllegalActionError):
            game.chance_outcomes(state)
        return
    outcomes = game.chance_outcomes(state)
    assert isinstance(outcomes, tuple), f"chance_outcomes is a {type(outcomes).__name__}"
    assert outcomes, "a chance node with no outcome"
    total = Fraction(0)
    for pair in outcomes:
        assert isinstance(pair, tuple), f"{pair!r} is not (action, p)"
        assert len(pair) == 2, f"{pair!r} is not (action, p)"
        action, p = pair
        assert type(p) is Fraction, f"probability of {action!r} is {type(p).__name__}"
        assert p > 0, f"probability of {action!r} is {p}"
        total += p
    assert total == 1, f"chance probabilities sum to {total}, not 1"
    twice = _repeated([a for a, _ in outcomes])
    assert twice is None, f"chance outcome {twice!r} listed twice"


def check_outcome(ctx: Context, state: Any) -> None:
    game = ctx.game
    outcome = game.outcome(state)
    if game.current_player(state) != TERMINAL:
        assert outcome is None, f"outcome {outcome!r} before the end"
        return
    assert isinstance(outcome, Outcome), f"outcome is a {type(outcome).__name__}, not Outcome"
    players = game.players(state)
    assert isinstance(outcome.winners, tuple)
    assert isinstance(outcome.returns, tuple)
    assert len(outcome.returns) == players, (
        f"{len(outcome.returns)} returns for {players} players"
    )
    assert all(type(w) is int and 0 <= w < players for w in outcome.winners), (
        f"winners {outcome.winners} are not players of {players}"
    )
    assert len(set(outcome.winners)) == len(outcome.winners), f"winners {outcome.winners} repeat"
    for p, r in enumerate(outcome.returns):
        assert isinstance(r, float | int), f"return {r!r} of player {p}"
        assert math.isfinite(r), f"return {r!r} of player {p}"
        if p in outcome.winners:
            assert r > 0, f"winner {p} has return {r}"
        else:
            assert r == 0, f"player {p} did not win but has return {r}"
    if outcome.winners:
        best = max(outcome.returns)
        assert all(outcome.returns[w] == best for w in outcome.winners)
    if game.cooperative:
        assert len(set(outcome.returns)) == 1, f"a team game's returns differ: {outcome.returns}"
    else:
        assert not outcome.winners or math.isclose(sum(outcome.returns), 1.0), (
            f"the returns of a game played against each other sum to {sum(outcome.returns)}")
    assert isinstance(outcome.reason, str), "outcome without reason"
    assert outcome.reason.strip(), "outcome without reason"
    assert "\n" not in outcome.reason, "outcome reason is more than one line"
    assert isinstance(outcome.scores, tuple), f"scores {outcome.scores!r} for {players} players"
    assert len(outcome.scores) in (0, players), f"scores {outcome.scores!r} for {players} players"
    assert all(type(s) is int for s in outcome.scores), f"scores {outcome.scores!r}"
    json.dumps(outcome.to_json(), allow_nan=False)


def check_notation(ctx: Context, state: Any) -> None:
    game = ctx.game
    text = game.to_notation(state)
    assert isinstance(text, str), "empty notation"
    assert text.strip(), "empty notation"
    assert "\n" not in text, "the notation is more than one line"
    assert "\r" not in text, "the notation is more than one line"
    back = game.from_notation(text)
    assert back == state, f"from_notation(to_notation(s)) != s for {text!r}"
    assert game.to_notation(back) == text, "the notation is not stable through a round trip"


def check_json(ctx: Context, state: Any) -> None:
    game = ctx.game
    doc = game.to_json(state)
    assert isinstance(doc, dict), f"to_json is a {type(doc).__name__}, not a dict"
    text = _json_text(doc)  # plain JSON: no NaN, no Python objects
    assert game.from_json(doc) == state, "from_json(to_json(s)) != s"
    assert game.from_json(json.loads(text)) == state, "from_json after json.dumps/loads != s"
    assert _json_text(game.to_json(game.from_json(doc))) == text, "JSON is not stable"
    assert _json_text(doc) == text, "from_json changed the document it was given"


def check_read_state(ctx: Context, state: Any) -> None:
    game = ctx.game
    notation = game.to_notation(state)
    doc_text = json.dumps(game.to_json(state), allow_nan=False)
    for label, text in (("notation", notation), ("JSON text", doc_text)):
        assert game.read_state(text) == state, f"read_state of the {label}"
        assert game.read_state(text.encode("utf-8")) == state, f"read_state of the {label} bytes"
        path = ctx.tmp / ("position.json" if label == "JSON text" else "position.txt")
        path.write_text(text + "\n", encoding="utf-8")
        assert game.read_state(path) == state, f"read_state of a Path to the {label}"
        assert game.read_state(str(path)) == state, f"read_state of a file name ({label})"


def _some(items: Sequence[Any], most: int | None) -> Sequence[Any]:
    """``items``, or ``most`` of them spread evenly (the first and last included)."""
    if most is None or len(items) <= most:
        return items
    step = (len(items) - 1) / (most - 1)
    return [items[round(k * step)] for k in range(most)]


def check_action_texts(ctx: Context, state: Any) -> None:
    game = ctx.game
    for action in _some(game.legal_actions(state), ctx.max_actions):
        text = game.action_text(state, action)
        assert isinstance(text, str), f"action_text of {action!r} is {text!r}"
        assert text.strip(), f"action_text of {action!r} is {text!r}"
        assert "\n" not in text, f"action_text of {action!r} is more than one line"
        back = game.parse_action(state, text)
        assert back == action, f"parse_action(action_text({action!r})) gave {back!r}"


def check_pictures(ctx: Context, state: Any) -> None:
    game = ctx.game
    art = game.ascii(state)
    assert isinstance(art, str), "empty ASCII picture"
    assert art.strip(), "empty ASCII picture"
    picture = game.svg(state)
    assert isinstance(picture, str), f"svg is a {type(picture).__name__}"
    root = ET.fromstring(picture)
    assert root.tag.rsplit("}", 1)[-1] == "svg", f"the SVG's root is <{root.tag}>"


def _snapshot(game: Any, state: Any) -> tuple[str, str]:
    return game.to_notation(state), _json_text(game.to_json(state))


def check_apply_pure(ctx: Context, state: Any, actions: Iterable[Any] | None = None) -> None:
    """``apply`` leaves its input as it was and depends on nothing the notation leaves out."""
    game = ctx.game
    if game.current_player(state) == TERMINAL:
        return
    legal = game.legal_actions(state)
    chosen = list(actions) if actions is not None else [legal[0], legal[-1]]
    before = _snapshot(game, state)
    copy = game.from_notation(before[0])
    for action in chosen:
        after = game.apply(state, action)
        assert _snapshot(game, state) == before, f"apply({action!r}) changed its input"
        assert state == copy, f"apply({action!r}) left its input unequal to a re-read copy"
        again = game.apply(copy, action)
        assert again == after, f"apply({action!r}) on a re-read copy gave another state"
        legal_one = protocol.apply_legal(game, state, action)  # the game's own, or the default
        assert legal_one == after, f"apply_legal({action!r}) is not apply"


def illegal_candidates(ctx: Context, state: Any) -> list[Any]:
    """Actions from elsewhere that are not legal in ``state``."""
    game = ctx.game
    actor = game.current_player(state)
    legal = game.legal_actions(state)
    if actor == TERMINAL:
        pool = ctx.player_actions[:ILLEGAL_TRIES] + ctx.chance_actions[:ILLEGAL_TRIES]
    elif actor == CHANCE:
        pool = ctx.rng.sample(ctx.player_actions, min(ILLEGAL_TRIES, len(ctx.player_actions)))
    else:
        others = ctx.rng.sample(
            ctx.player_actions, min(4 * ILLEGAL_TRIES, len(ctx.player_actions))
        )
        chance = ctx.rng.sample(ctx.chance_actions, min(2, len(ctx.chance_actions)))
        pool = [a for a in others if not _contains(legal, a)][:ILLEGAL_TRIES] + chance
    return [a for a in pool if not _contains(legal, a)]


def check_illegal_actions(ctx: Context, state: Any) -> None:
    game = ctx.game
    before = _snapshot(game, state)
    copy = game.from_notation(before[0])
    for action in illegal_candidates(ctx, state):
        with pytest.raises(IllegalActionError):
            game.apply(state, action)
        assert _snapshot(game, state) == before, f"refused {action!r} but changed the state"
        assert state == copy, f"refused {action!r} but the state no longer equals its copy"


def check_policies(ctx: Context, state: Any) -> None:
    game = ctx.game
    policies = game.policies()
    assert "random" in policies, f"policies are {sorted(policies)}, without 'random'"
    if game.current_player(state) in (CHANCE, TERMINAL):
        return
    legal = game.legal_actions(state)
    for name, policy in policies.items():
        action = policy(state, random.Random(7))
        assert _contains(legal, action), f"policy {name!r} chose {action!r}, not a legal action"


def _options_of(game: Any, state: Any) -> Any:
    """The rule options of ``state`` as its JSON writes them (None where it writes none)."""
    options = game.to_json(state).get("options")
    return options if isinstance(options, dict) else None


def _same(ctx: Context, key: Any, value: Any, message: str) -> None:
    """``value`` is what ``key`` was seen with before (or ``key`` is new)."""
    before = ctx.seen.setdefault(key, value)
    assert before == value, message


def check_observation(ctx: Context, state: Any) -> None:
    """Every player's observation: text and tensor, stable, of the fixed length, finite, the
    same information in both; in a perfect-information game, the state itself."""
    game = ctx.game
    players = game.players(state)
    shape = game.observation_shape(players, _options_of(game, state))
    assert isinstance(shape, tuple), f"observation_shape is {shape!r}"
    assert all(type(n) is int and n > 0 for n in shape), f"observation_shape is {shape!r}"
    notation = game.to_notation(state)
    for player in range(players):
        text = game.observation(state, player)
        assert isinstance(text, str), f"observation is a {type(text).__name__}"
        assert text.strip(), "an empty observation"
        assert game.observation(state, player) == text, "two observations of one state"
        tensor = game.observation_tensor(state, player)
        assert isinstance(tensor, tuple), f"observation_tensor is a {type(tensor).__name__}"
        assert len(tensor) == math.prod(shape), (
            f"a tensor of {len(tensor)} numbers, not {math.prod(shape)} (shape {shape})"
        )
        assert all(type(x) is float and math.isfinite(x) for x in tensor), "a tensor not of floats"
        assert game.observation_tensor(state, player) == tensor, "two tensors of one state"
        raw = protocol.observation_bytes(game, state, player)  # the game's own, or the default
        assert raw == array("f", tensor).tobytes(), "observation_bytes: not the tensor's float32"
        _same(ctx, ("text", player, text), tensor, "one observation text, two tensors")
        _same(ctx, ("tensor", player, tensor), text, "one tensor, two observation texts")
        if game.perfect_information:
            _same(ctx, ("state", player, text), notation, "one observation, two states")
            _same(ctx, ("state", player, tensor), notation, "one tensor, two states")
    for bad in (players, -1):
        with pytest.raises(RuleOptionError) as refused:
            game.observation(state, bad)
        assert_clear_message(refused.value)
        with pytest.raises(RuleOptionError):
            game.observation_tensor(state, bad)
    for wrong in ("0", 0.0, True):
        with pytest.raises(ArgumentTypeError):
            game.observation(state, wrong)


def check_numbering(ctx: Context, state: Any) -> None:
    """Every legal action (a spread of them, with ``max_actions``) has an index in the range,
    distinct actions distinct indices, read back to the action; out of range, wrong types and
    illegal actions are refused."""
    game = ctx.game
    actor = game.current_player(state)
    if actor == TERMINAL:
        with pytest.raises(IllegalActionError):
            game.action_from_index(state, 0)
        return
    players = game.players(state)
    options = _options_of(game, state)
    size = (game.max_chance_outcomes if actor == CHANCE else game.num_distinct_actions)(
        players, options
    )
    assert type(size) is int, f"an index range of {size!r}"
    assert size > 0, f"an index range of {size!r}"
    legal = game.legal_actions(state)
    assert len(legal) <= size, f"{len(legal)} legal actions, more than the {size} indices"
    listed = game.legal_indices(state)
    assert isinstance(listed, tuple), f"legal_indices is a {type(listed).__name__}"
    assert len(listed) == len(legal), f"{len(listed)} indices for {len(legal)} legal actions"
    assert len(set(listed)) == len(listed), "legal_indices repeats an index"
    paired = protocol.legal_actions_and_indices(game, state)  # the game's own, or the default
    assert paired == (legal, listed), "legal_actions_and_indices: not the two listings"
    assert all(type(i) is int and 0 <= i < size for i in listed), "an index out of range"
    indices: dict[int, Any] = {}
    most = ctx.max_actions if ctx.max_actions is not None else NUMBERED
    for place, action in _some(list(enumerate(legal)), most):
        index = game.action_index(state, action)
        assert type(index) is int, f"index {index!r} of {action!r} is no int"
        assert 0 <= index < size, f"index {index} of {action!r} is outside 0..{size - 1}"
        assert index not in indices, f"{action!r} and {indices.get(index)!r} share index {index}"
        indices[index] = action
        back = game.action_from_index(state, index)
        assert back == action, f"action_from_index({index}) gave {back!r}, not {action!r}"
        assert listed[place] == index, f"legal_indices gives {listed[place]}, not {index}"
    for bad in (size, -1, 10**30):
        with pytest.raises(IllegalActionError) as refused:
            game.action_from_index(state, bad)
        assert not isinstance(refused.value, TypeError)
        assert_clear_message(refused.value)
    for wrong in ("0", 0.0, True, None):
        with pytest.raises(ArgumentTypeError):
            game.action_from_index(state, wrong)
    for action in illegal_candidates(ctx, state)[:2]:
        with pytest.raises(IllegalActionError):
            game.action_index(state, action)


#: Every per-state check by name (the order they run in).
STATE_CHECKS: dict[str, Callable[[Context, Any], None]] = {
    "current_player": check_current_player,
    "legal_actions": check_legal_actions,
    "chance_outcomes": check_chance_outcomes,
    "outcome": check_outcome,
    "notation": check_notation,
    "json": check_json,
    "read_state": check_read_state,
    "action_texts": check_action_texts,
    "pictures": check_pictures,
    "apply_pure": check_apply_pure,
    "illegal_actions": check_illegal_actions,
    "policies": check_policies,
    "observation": check_observation,
    "numbering": check_numbering,
}

#: Checks too slow for every state in a quick run: with ``sparse=True`` they run on every
#: ``SPARSE[name]``-th state of a game (and at its first and last).
SPARSE: dict[str, int] = {
    "policies": 5,
    "read_state": 4,
    "pictures": 3,
    "json": 2,
    "apply_pure": 2,
    "illegal_actions": 2,
    "action_texts": 2,
    "observation": 2,
}


def check_state(ctx: Context, state: Any, names: Iterable[str] | None = None) -> None:
    """Every per-state check (or those named) at ``state``."""
    ctx.learn(state)
    for name in names if names is not None else STATE_CHECKS:
        run_check(ctx, name, state)


def run_check(ctx: Context, name: str, state: Any, where: str = "") -> None:
    """One check, with the game and state named in the failure."""
    try:
        STATE_CHECKS[name](ctx, state)
    except AssertionError as exc:
        raise AssertionError(
            f"{ctx.game.name} {name}{where} at {_show(ctx.game, state)!r}: {exc}"
        ) from exc


def check_order(traces: Sequence[Trace]) -> list[tuple[Trace, int]]:
    """Every ``(trace, step)`` in the order the checks visit them: each game's first and last
    state, then the rest in a seeded shuffle (so that a time budget still spreads over every
    game and every phase)."""
    ends = [(t, i) for t in traces for i in sorted({0, len(t.visits) - 1})]
    rest = [(t, i) for t in traces for i in range(1, len(t.visits) - 1)]
    random.Random(0).shuffle(rest)
    return ends + rest


def check_traces(
    ctx: Context,
    traces: Sequence[Trace],
    name: str,
    *,
    sparse: bool = False,
    budget: float | None = None,
    learn: bool = True,
) -> int:
    """Run check ``name`` over the states of ``traces``; the number of states checked.

    With ``sparse`` the slow checks run on some states only (:data:`SPARSE`); with ``budget``
    (seconds) the check stops once the budget is spent and every game's first and last state
    were checked. ``learn=False``: the context already knows the traces' actions."""
    if learn:
        for trace in traces:
            for visit in trace.visits:
                ctx.learn(visit.state)
    every = SPARSE.get(name, 1) if sparse else 1
    order = check_order(traces)
    must = sum(1 for t in traces for _ in {0, len(t.visits) - 1})
    start = time.monotonic()
    checked = 0
    for n, (trace, i) in enumerate(order):
        if n >= must:
            if every > 1 and n % every:
                continue
            if budget is not None and time.monotonic() - start > budget:
                break
        _check_visit(ctx, name, trace, i)
        checked += 1
    return checked


def _check_visit(ctx: Context, name: str, trace: Trace, i: int) -> None:
    """Check ``name`` on step ``i`` of ``trace``, a failure naming the seed and the step."""
    visit, where = trace.visits[i], f" (seed {trace.seed}, step {i})"
    if name != "apply_pure" or visit.action is None:
        run_check(ctx, name, visit.state, where)
        return
    try:
        check_apply_pure(ctx, visit.state, [visit.action])
    except AssertionError as exc:
        raise AssertionError(
            f"{ctx.game.name} apply_pure{where} at {_show(ctx.game, visit.state)!r}: {exc}"
        ) from exc


# -- per-game checks ----------------------------------------------------------------------------


def check_attributes(game: Any) -> None:
    assert game.name in banditsolve.games(), f"{game.name!r} is not a registered name"
    assert load(game.name) is game, "load_game does not give this object back"
    assert isinstance(game.title, str)
    assert game.title.strip()
    assert isinstance(game.seeds, tuple)
    assert all(isinstance(s, str) for s in game.seeds)
    assert type(game.min_players) is int
    assert type(game.max_players) is int
    assert 1 <= game.min_players <= game.max_players <= 12
    assert type(game.perfect_information) is bool, "perfect_information is not a bool"
    assert type(game.length_bounded_by_rules) is bool, "length_bounded_by_rules is not a bool"
    assert type(game.cooperative) is bool, "cooperative is not a bool"
    for players in player_counts(game):
        for method in ("num_distinct_actions", "max_chance_outcomes", "max_game_length"):
            value = getattr(game, method)(players, None)
            assert type(value) is int, f"{method}({players}) is {value!r}"
            assert value > 0, f"{method}({players}) is {value!r}"
        shape = game.observation_shape(players, None)
        assert isinstance(shape, tuple), f"observation_shape({players}) is {shape!r}"
        assert all(type(n) is int and n > 0 for n in shape), f"observation_shape is {shape!r}"
    for method in ("num_distinct_actions", "max_chance_outcomes", "max_game_length"):
        with pytest.raises(RuleOptionError):
            getattr(game, method)(game.max_players + 1, None)
        with pytest.raises(RuleOptionError):
            getattr(game, method)(None, {"no_such_option": "x"})
        with pytest.raises(ArgumentTypeError):
            getattr(game, method)("2", None)


def check_player_counts(game: Any) -> None:
    for players in player_counts(game):
        state = game.new_game(players, seed=1)
        assert game.players(state) == players, f"new_game({players}) has {game.players(state)}"
    # A count the game is not played by is a RuleOptionError; a value that is no count at all
    # is an ArgumentTypeError (also a TypeError).
    for bad in (game.min_players - 1, game.max_players + 1, 0, -1, 10**100, 10**5000):
        with pytest.raises(RuleOptionError) as caught:
            game.new_game(bad, seed=1)
        assert not isinstance(caught.value, TypeError)
        assert_clear_message(caught.value)
    for wrong in (float(game.min_players), str(game.min_players), True, [game.min_players]):
        with pytest.raises(ArgumentTypeError) as refused:
            game.new_game(wrong, seed=1)
        assert_clear_message(refused.value)


def option_values(game: Any) -> list[tuple[str, str]]:
    """Every ``(option, value)`` pair that ``option_set.names()`` allows."""
    names = game.option_set.names()
    pairs: list[tuple[str, str]] = []
    for name, values in names.items():
        assert isinstance(name, str), f"option name {name!r}"
        assert name, f"option name {name!r}"
        assert isinstance(values, tuple), f"option {name!r} has no values"
        assert values, f"option {name!r} has no values"
        assert all(isinstance(v, str) for v in values), f"option {name!r} values {values!r}"
        pairs.extend((name, v) for v in values)
    return pairs


def check_options(game: Any, *, stop_at: int | None = None) -> None:
    """Every listed option value is accepted (and the game it sets up is playable, to its end
    or for ``stop_at`` states); unknown names and values are refused with
    :class:`RuleOptionError`."""
    with context(game) as ctx:
        for name, value in option_values(game):
            trace = play(game, 3, options={name: value}, stop_at=stop_at)
            for visit in trace.visits[:: max(1, len(trace.visits) // 10)]:
                check_state(ctx, visit.state, ("current_player", "notation", "json"))
            check_state(ctx, trace.last, ("outcome", "notation", "json"))
    for bad in ({"no-such-option": "x"}, {"": ""}, {"no_such_option": True}, {"x" * 5000: "y"}):
        with pytest.raises(RuleOptionError) as caught:
            game.new_game(None, bad, seed=1)
        assert_clear_message(caught.value)
    bad_values: tuple[object, ...] = ("no-such-value", "", " ", "x" * 5000, None, 10**5000)
    for key in game.option_set.names():
        for bad_value in (*bad_values, 1.5, ["x"]):
            with pytest.raises(RuleOptionError) as caught:
                game.new_game(None, {key: bad_value}, seed=1)
            assert_clear_message(caught.value)


def check_deterministic(game: Any, seeds: Iterable[int] = (0, 1, 2)) -> None:
    """The same seed gives the same game (``new_game`` and ``core.play.simulate``)."""
    for seed in seeds:
        assert game.new_game(None, None, seed=seed) == game.new_game(None, None, seed=seed)
        first, steps = simulate(game, seed=seed)
        first2, steps2 = simulate(game, seed=seed)
        assert first == first2
        assert [game.to_notation(s.state) for s in steps] == [
            game.to_notation(s.state) for s in steps2
        ], f"seed {seed} gave two different games"


def chance_nodes(game: Any, traces: Sequence[Trace], count: int) -> list[Any]:
    """Up to ``count`` distinct chance nodes of ``traces`` for a sampling test: those with
    unequal probabilities first, then those with a moderate number of outcomes (2 to 60: a
    chi-square has power there), then the rest by their number of outcomes."""
    seen: dict[str, Any] = {}
    for trace in traces:
        for visit in trace.visits:
            if visit.actor == CHANCE and len(seen) < 300:  # enough to choose from
                seen.setdefault(game.to_notation(visit.state), visit.state)

    def key(state: Any) -> tuple[bool, bool, int]:
        outcomes = game.chance_outcomes(state)
        unequal = len({p for _, p in outcomes}) > 1
        return (not unequal, not 2 <= len(outcomes) <= 60, len(outcomes))

    return sorted(seen.values(), key=key)[:count]


def chi_square(counts: Sequence[int], probabilities: Sequence[Fraction]) -> tuple[float, int]:
    """Pearson's statistic and its degrees of freedom, cells of expected count below 5 pooled."""
    n = sum(counts)
    cells: list[tuple[float, int]] = []
    pooled_e, pooled_o = 0.0, 0
    for o, p in zip(counts, probabilities, strict=True):
        e = float(p) * n
        if e < 5:
            pooled_e += e
            pooled_o += o
        else:
            cells.append((e, o))
    if pooled_e > 0:
        cells.append((pooled_e, pooled_o))
    stat = sum((o - e) ** 2 / e for e, o in cells)
    return stat, max(len(cells) - 1, 0)


def chi_square_bound(df: int) -> float:
    """A generous bound: the mean plus six standard deviations, plus 10."""
    return df + 6 * math.sqrt(2 * df) + 10


def check_sampling(
    game: Any,
    state: Any,
    draw: Callable[[Any, random.Random], Any],
    samples: int,
    seed: int = 12345,
) -> None:
    """``samples`` draws of ``draw`` at chance node ``state`` follow the listed probabilities."""
    outcomes = game.chance_outcomes(state)
    actions = [a for a, _ in outcomes]
    counts = [0] * len(outcomes)
    try:
        index: dict[Any, int] | None = {a: i for i, a in enumerate(actions)}
    except TypeError:
        index = None
    rng = random.Random(seed)
    for _ in range(samples):
        action = draw(state, rng)
        i = index.get(action) if index is not None else None
        if i is None:
            i = next((j for j, a in enumerate(actions) if a == action), None)
        assert i is not None, f"sampled {action!r}, not a listed chance outcome"
        counts[i] += 1
    stat, df = chi_square(counts, [p for _, p in outcomes])
    assert stat <= chi_square_bound(df), (
        f"{game.name}: sampled frequencies far from the probabilities at "
        f"{_show(game, state)!r} (chi-square {stat:.1f} on {df} degrees of freedom)"
    )


def check_game(
    game: Any,
    *,
    seeds: Iterable[int] = range(20),
    samples: int = 2000,
    sparse: bool = False,
    budget: float | None = None,
    max_actions: int | None = None,
    stop_at: int | None = None,
) -> None:
    """The whole contract for ``game``: per-game checks, then every per-state check at every
    state of random games at ``seeds``, then sampling at a few chance nodes. ``sparse``,
    ``budget``, ``max_actions`` and ``stop_at`` make a quick run (see :func:`check_traces`
    and :func:`check_options`)."""
    check_attributes(game)
    check_player_counts(game)
    check_options(game, stop_at=stop_at)
    check_deterministic(game)
    counts = player_counts(game)
    traces = [
        play(game, s, players=counts[s % len(counts)], seeded_setup=s % 2 == 0) for s in seeds
    ]
    with context(game, max_actions=max_actions) as ctx:
        for name in STATE_CHECKS:
            check_traces(ctx, traces, name, sparse=sparse, budget=budget)
    check_lengths(game, traces)
    check_hidden(game, traces)
    for node in chance_nodes(game, traces, 3):
        check_sampling(game, node, lambda s, rng: sample_chance(game, s, rng), samples)
