"""The board in a real browser: Debian's Chromium driven by Playwright, against ``banditsolve
serve`` started by the test on loopback (issue 30).

For each game a shipped puzzle is picked from the board's list (a click), the question asked
(a click), and the answer checked where a user sees it: the status line, and the picture
drawn into the page (a numbered certificate, the beating dice, the counterexample's steps).

Chromium comes from Debian's packages (``make browser`` installs it; ``.ci/run`` sets
``BANDITSOLVE_REQUIRE_BROWSER=1`` so that CI fails rather than skips without it).
``python -m tests.web.test_browser`` rewrites the screenshots in ``docs/screenshots/``.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("starlette")
playwright = pytest.importorskip("playwright.sync_api")

ROOT = Path(__file__).resolve().parents[2]
SHOTS = ROOT / "docs" / "screenshots"

#: The answer's picture once drawn (the board marks what its picture shows).
ANSWER_DRAWN = "#picture[data-shows='answer'] svg"
#: (game, puzzle, verb, further arguments, what the answer's picture must hold, the status).
ASKED = [
    ("bandido", "loop-1", "close", "", "g.card[data-step]", "answer: closable"),
    ("banditos", "claim-third-one", "claim", "1", "svg", "answer: unsafe"),
    ("rolling", "safe-2", "safe", "2", "svg", "answer: "),
]


def _browser() -> str:
    found = shutil.which("chromium") or shutil.which("chromium-browser")
    if found is None:
        if os.environ.get("BANDITSOLVE_REQUIRE_BROWSER") == "1":
            pytest.fail("Chromium is not installed: run `make browser` (Debian's chromium)")
        pytest.skip("Chromium is not installed (make browser installs Debian's)")
    return found


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


@pytest.fixture(scope="module")
def server() -> Iterator[str]:
    port = _free_port()
    process = subprocess.Popen(
        [sys.executable, "-m", "banditsolve", "serve", "--port", str(port)],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE,
    )
    url = f"http://127.0.0.1:{port}"
    try:
        for _ in range(100):
            try:
                with urllib.request.urlopen(url + "/", timeout=1):
                    break
            except OSError:
                if process.poll() is not None:
                    raise AssertionError(process.stderr.read().decode() if process.stderr
                                         else "the server stopped") from None
                time.sleep(0.1)
        yield url
    finally:
        process.terminate()
        process.wait(10)


@contextlib.contextmanager
def _chromium() -> Iterator[Any]:
    """A page of Debian's Chromium, headless."""
    with playwright.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=_browser(), headless=True,
                                    args=["--no-sandbox"])
        try:
            yield browser.new_page(viewport={"width": 1280, "height": 900})
        finally:
            browser.close()


def _check_certificate(page: Any) -> None:
    """The picture's certificate is numbered 1..n on the table, each number once."""
    steps = page.eval_on_selector_all(
        "#picture g.card[data-step]", "els => els.map(e => e.dataset.step)")
    assert steps
    assert sorted(int(s) for s in steps) == list(range(1, len(steps) + 1))


def _open_puzzle(page: Any, url: str, game: str, puzzle: str) -> None:
    """The board of ``game`` with a shipped puzzle picked from its list (its position filled in)."""
    page.goto(f"{url}/{game}")
    page.wait_for_selector(f"#puzzle option[value='{puzzle}']", state="attached")
    page.select_option("#puzzle", puzzle)
    page.wait_for_function("document.getElementById('position').value.length > 0")


def _ask(page: Any, url: str, game: str, puzzle: str, verb: str, args: str) -> None:
    _open_puzzle(page, url, game, puzzle)
    page.fill("#verb", verb)
    page.fill("#args", args)
    page.click("#ask")
    page.wait_for_selector("#status[data-state='answered']", timeout=60_000)
    page.wait_for_selector(ANSWER_DRAWN, timeout=60_000)


def _line_to(game_name: str, verb: str, seed: int, players: int) -> tuple[list[str], str]:
    """The moves of a seeded greedy game (as ``moves`` prints them) up to the first position
    where ``banditsolve GAME VERB POSITION ARG`` answers (not refused), and that ARG."""
    from banditsolve.core.play import simulate
    from banditsolve.core.registry import load_game
    from tests.cli_runner import run

    game = load_game(game_name)
    greedy = game.policies()["greedy"]
    start, steps = simulate(game, seed=seed, players=players, policies=greedy)
    played: list[str] = []
    state = start
    for step in steps:
        played.append(game.action_text(state, step.action))
        state = step.state
        text = game.to_notation(state)
        for arg in ("1", "2", "3", "4"):
            if run(game_name, verb, text, arg, "--json").code != 2:
                return played, arg
    raise AssertionError(f"no {verb} question along seed {seed}")


#: (game, players, seed, the question asked once the game is set up, the status it shows).
SET_UP = [
    ("bandido", 2, 3, "close", "answer: closable"),
    ("bandida", 2, 3, "close", "answer: closable"),
    ("banditos", 2, 1, "claim", "answer: "),
    ("rolling", 2, 2, "safe", "answer: "),
]
#: The tunnel games are set up by laying two cards; the others along a seeded game.
TUNNELS = ("bandido", "bandida")


def _moves_for(game: str, verb: str, players: int, seed: int) -> tuple[list[str], str]:
    """The moves clicked to set ``game`` up, and the question's further argument."""
    if game not in TUNNELS:
        return _line_to(game, verb, seed, players)
    from banditsolve.core.registry import load_game

    tunnel = load_game(game)
    state = tunnel.new_game(players, seed=seed)
    moves = []
    for _ in range(2):  # two cards laid by clicking, then: can the tunnel still close?
        action = tunnel.legal_actions(state)[0]
        moves.append(tunnel.action_text(state, action))
        state = tunnel.apply(state, action)
    return moves, ""


def _set_up(page: Any, url: str, game: str, players: int, seed: int, moves: list[str]) -> None:
    page.goto(f"{url}/{game}")
    page.fill("#players", str(players))
    page.fill("#seed", str(seed))
    page.click("#new")
    for move in moves:
        button = page.locator(f"#moves button.move[data-action='{move}']")
        button.wait_for(state="attached", timeout=60_000)
        before = page.input_value("#position")
        button.click()
        page.wait_for_function(
            "b => document.getElementById('position').value !== b", arg=before, timeout=60_000)
    page.wait_for_selector("#moves[data-ready]:not([data-ready=''])", timeout=60_000)


@pytest.mark.parametrize(("game", "players", "seed", "verb", "said"), SET_UP)
def test_a_game_set_up_by_clicking_its_moves_is_asked_and_answered(
    server: str, game: str, players: int, seed: int, verb: str, said: str
) -> None:
    moves, arg = _moves_for(game, verb, players, seed)
    with _chromium() as page:
        _set_up(page, server, game, players, seed, moves)
        page.fill("#verb", verb)
        page.fill("#args", arg)
        page.click("#ask")
        page.wait_for_selector("#status[data-state='answered']", timeout=60_000)
        assert said in page.inner_text("#status")
        page.wait_for_selector(ANSWER_DRAWN, timeout=60_000)
        if game in TUNNELS:
            _check_certificate(page)


@pytest.mark.parametrize(("game", "puzzle", "verb", "args", "drawn", "said"), ASKED)
def test_a_question_asked_in_the_browser_is_answered_and_drawn(
    server: str, game: str, puzzle: str, verb: str, args: str, drawn: str, said: str
) -> None:
    with _chromium() as page:
        _ask(page, server, game, puzzle, verb, args)
        assert said in page.inner_text("#status")
        assert page.locator(f"#picture {drawn}").count() >= 1
        if drawn == "g.card[data-step]":
            _check_certificate(page)
        command = page.inner_text("#command")
        assert command.startswith(f"banditsolve {game} {verb} ")
        page.wait_for_function("document.getElementById('python').textContent.length > 0")
        assert page.inner_text("#python").startswith("import banditsolve")
        # the address holds the question: opened afresh, it asks it again
        page.goto(page.url)
        page.wait_for_selector("#status[data-state='answered']", timeout=60_000)
        assert said in page.inner_text("#status")


def _held(page: Any, pattern: str, first_only: bool = False) -> list[Any]:
    """The requests of ``page`` to ``pattern`` held back (only the first with ``first_only``),
    as a list the test lets through one by one with ``route.continue_()``."""
    held: list[Any] = []

    def hold(route: Any) -> None:
        if first_only and held:
            route.continue_()
        else:
            held.append(route)

    page.route(pattern, hold)
    return held


def test_a_late_drawing_of_the_position_does_not_replace_the_answers_picture(server: str) -> None:
    """The position's drawing is held back until the answer is drawn, then let through: the
    picture still shows the answer (a user who asks at once must see the answer's picture)."""
    with _chromium() as page:
        held = _held(page, "**/api/bandido/show/svg")
        _open_puzzle(page, server, "bandido", "loop-1")
        page.fill("#verb", "close")
        page.click("#ask")
        page.wait_for_selector(ANSWER_DRAWN, timeout=60_000)
        assert held, "the position's drawing was not asked for"
        for route in held:
            route.continue_()
        # the drawing of the position ends by listing the moves (or why there are none)
        page.wait_for_function("document.getElementById('moves').textContent.length > 0")
        assert page.get_attribute("#picture", "data-shows") == "answer"
        _check_certificate(page)


def test_an_answer_that_comes_back_after_a_later_question_is_dropped(server: str) -> None:
    """``close`` is asked and its reply held back, then ``show`` asked and answered; the held
    reply let through: the status, the command and the picture still belong to ``show``."""
    with _chromium() as page:
        held = _held(page, "**/api/bandido/close", first_only=True)
        _open_puzzle(page, server, "bandido", "loop-1")
        page.fill("#verb", "close")
        page.click("#ask")
        page.wait_for_selector("#status[data-state='asking']")
        page.fill("#verb", "show")
        page.click("#ask")
        page.wait_for_selector(ANSWER_DRAWN, timeout=60_000)
        assert held, "the first question was not asked"
        page.wait_for_function("document.getElementById('python').textContent.length > 0")
        with page.expect_event("requestfinished", lambda r: r.url.endswith("/bandido/close")):
            held[0].continue_()
        page.wait_for_timeout(300)  # the page reads the held reply (and drops it)
        assert page.inner_text("#command").startswith("banditsolve bandido show ")
        assert "closable" not in page.inner_text("#status")
        assert page.locator("#picture g.card[data-step]").count() == 0


def test_a_second_move_clicked_before_the_first_is_applied_is_not_played(server: str) -> None:
    """The first move's reply is held back and another move clicked meanwhile: one move is
    applied, the one clicked first, and the game goes on from it."""
    from banditsolve.core.registry import load_game

    bandido = load_game("bandido")
    state = bandido.new_game(2, seed=3)
    actions = bandido.legal_actions(state)
    first, second = (bandido.action_text(state, a) for a in actions[:2])
    applied = bandido.to_notation(bandido.apply(state, actions[0]))
    with _chromium() as page:
        held = _held(page, "**/api/bandido/apply")
        page.goto(f"{server}/bandido")
        _paste(page, bandido.to_notation(state))
        page.wait_for_selector("#moves[data-ready]:not([data-ready=''])", timeout=60_000)
        page.click(f"#moves button.move[data-action='{first}']")
        page.click(f"#moves button.move[data-action='{second}']")
        page.wait_for_timeout(300)  # a second apply, were it asked, would be held here too
        assert len(held) == 1
        held[0].continue_()
        page.wait_for_function(
            "p => document.getElementById('position').value === p", arg=applied, timeout=60_000)
        page.wait_for_selector("#moves[data-ready]:not([data-ready=''])", timeout=60_000)
        assert len(held) == 1


def _paste(page: Any, notation: str) -> None:
    """A position pasted into the board's field (set and announced at once, no focus left)."""
    page.eval_on_selector("#position", "(e, v) => { e.value = v; e.dispatchEvent("
                          "new Event('change')); }", notation)


def test_a_late_list_of_moves_does_not_replace_the_later_positions(server: str) -> None:
    """One position pasted, its moves' list held back, another pasted and listed; the first list
    let through: the moves shown are the second position's."""
    from banditsolve.core.registry import load_game

    bandido = load_game("bandido")
    before = bandido.new_game(2, seed=3)
    after = bandido.apply(before, bandido.legal_actions(before)[0])
    expected = {bandido.action_text(after, a) for a in bandido.legal_actions(after)}
    assert expected != {bandido.action_text(before, a) for a in bandido.legal_actions(before)}
    with _chromium() as page:
        held = _held(page, "**/api/bandido/moves", first_only=True)
        page.goto(f"{server}/bandido")
        with page.expect_request("**/api/bandido/moves"):
            _paste(page, bandido.to_notation(before))
        _paste(page, bandido.to_notation(after))
        page.wait_for_selector("#moves[data-ready]:not([data-ready=''])", timeout=60_000)
        with page.expect_event("requestfinished", lambda r: r.url.endswith("/bandido/moves")):
            held[0].continue_()
        page.wait_for_timeout(300)  # the page reads the held list (and drops it)
        shown = page.eval_on_selector_all(
            "#moves button.move", "els => els.map(e => e.dataset.action)")
        assert set(shown) == expected


#: The position editor (issue 30): each game's position clicked together from the palette of
#: what remains, as (game, the clicks, the question's status). A click is ``("click", SELECTOR)``
#: or ``("select", SELECTOR, VALUE)``; each ends with the editor's check and then Ask.
EDITED: list[tuple[str, list[tuple[str, ...]], str]] = [
    ("bandido", [
        ("click", "#ed-palette button[data-card='L+R']"),
        ("click", "#ed-grid rect.cell[data-x='2'][data-y='0']"),
        ("click", "#ed-palette button[data-card='TR']"),
        ("select", "#ed-rot", "90"),
        ("click", "#ed-grid rect.cell[data-x='-3'][data-y='-3']"),  # joins nothing: refused
        ("refused", "no opening joins an exit"),
        ("click", "#ed-grid g.laid[data-index='2']"),  # taken back
        ("click", "#ed-palette button[data-card='L']"),
        ("select", "#ed-rot", "0"),
        ("click", "#ed-grid rect.cell[data-x='4'][data-y='0']"),
        *[("click", f"#ed-palette button[data-give='{card}']")
          for card in ("L", "L", "TR", "TL", "TL")],
    ], "answer: closable"),
    ("banditos", [
        *[step for slot, value in ((1, 3), (2, 2), (3, 1), (4, 1)) for step in (
            ("click", f"#ed-palette button[data-tile='{value}']"),
            ("click", f"#ed-board button[data-slot-tile='{slot}']"))],
        *[step for colour, value, side in (("k", 4, 0), ("g", 5, 0), ("r", 6, 0), ("g", 1, 1),
                                           ("g", 1, 1)) for step in (
            ("click", f"#ed-palette button[data-colour='{colour}']"),
            ("click", f"#ed-palette button[data-value='{value}']"),
            ("click", f"#ed-board button[data-put='1:{side}']"))],
    ], "answer: unsafe"),
    ("rolling", [
        *[("click", f"#ed-palette button[data-wagon='{w}']")
          for w in ("2/2", "5/5L", "3/3", "4/4", "1/1")],  # the locomotive goes to the front
        ("click", "#ed-palette button[data-symbol='R']"),
        *[("click", "#ed-board button[data-lay='2:0']")] * 3,
        ("select", "#ed-turn", "1"),
        ("select", "#ed-ask", "2"),
    ], "answer: unsafe"),
]
#: The notation each editor wrote, as the game's own writer writes it.
WRITTEN = {
    "bandido": "bandido super6@0,0,0 L+R@2,0,0 L@4,0,0 | L*2 TR TL*2",
    "banditos": "3:k4g5r6:g1g1/2::/1::/1:: 112233 -:- 0a",
    "rolling": "rb ed=default n=2 phase=start turn=1 wagons=4 train=0:5/5L:-:-|-,1:2/2:-:-|-,"
               "2:3/3:-:R3|-,3:4/4:-:-|-,4:1/1:-:-|- won=-|- trunks=-|-",
}


def _checked(page: Any, state: str) -> None:
    page.wait_for_selector(f"#ed-status[data-state='{state}']", timeout=60_000)


def _edit(page: Any, url: str, game: str, steps: list[tuple[str, ...]]) -> None:
    """Click ``game``'s position together in the editor, check it, and ask the question."""
    page.goto(f"{url}/{game}")
    for step in steps:
        if step[0] == "click":
            page.click(step[1])
        elif step[0] == "select":
            page.select_option(step[1], step[2])
        else:
            _checked(page, "invalid")
            assert step[1] in page.inner_text("#ed-status")
    _checked(page, "valid")
    page.click("#ask")
    page.wait_for_selector("#status[data-state='answered']", timeout=60_000)
    page.wait_for_selector(ANSWER_DRAWN, timeout=60_000)


@pytest.mark.parametrize(("game", "steps", "said"), EDITED)
def test_a_position_clicked_together_from_the_palette_is_asked_and_answered(
    server: str, game: str, steps: list[tuple[str, ...]], said: str
) -> None:
    with _chromium() as page:
        _edit(page, server, game, steps)
        assert page.input_value("#position") == WRITTEN[game]
        assert page.inner_text("#ed-notation") == WRITTEN[game]
        assert said in page.inner_text("#status")
        if game == "bandido":
            _check_certificate(page)
            # what remains: L's three copies are one laid and two given to the question
            assert page.locator("#ed-palette button[data-card='L']").is_disabled()
            assert page.inner_text("#ed-palette button[data-card='L+R']").endswith("×1")
        # the address holds the position: opened afresh, the editor holds it again
        page.goto(page.url)
        page.wait_for_selector("#status[data-state='answered']", timeout=60_000)
        assert page.inner_text("#ed-notation") == WRITTEN[game]
        assert said in page.inner_text("#status")


def test_bandidas_editor_lays_the_ladder_in_its_modes_only(server: str) -> None:
    with _chromium() as page:
        page.goto(f"{server}/bandida")
        assert page.locator("#ed-palette button[data-card='L:ladder']").count() == 0
        page.select_option("#ed-mode", "2")
        page.click("#ed-palette button[data-card='L:ladder']")
        page.click("#ed-grid rect.cell[data-x='2'][data-y='0']")
        _checked(page, "valid")
        assert page.input_value("#options") == "mode=2"
        page.select_option("#ed-mode", "1")  # the ladder is not in mode 1's game
        _checked(page, "invalid")
        assert "BA-SETUP-4" in page.inner_text("#ed-status")


def test_a_puzzle_picked_comes_into_the_editor(server: str) -> None:
    with _chromium() as page:
        page.goto(f"{server}/banditos")
        page.wait_for_selector("#puzzle option[value='claim-third-one']", state="attached")
        page.select_option("#puzzle", "claim-third-one")
        page.wait_for_function("document.getElementById('ed-notation').textContent"
                               ".startsWith('3:k4g5r6')")
        assert page.inner_text("#ed-palette button[data-colour='g']").endswith("×3")
        page.click("#ed-board button[data-die='g1']")  # one of the opponent's 1s taken back
        _checked(page, "valid")
        assert page.input_value("#position") == "3:k4g5r6:g1/2::/1::/1:: 112233 -:- 0a"


def main() -> None:  # pragma: no cover - rewrites the committed screenshots
    """Serve, ask each question in Chromium, and save the screenshots under docs/."""
    SHOTS.mkdir(parents=True, exist_ok=True)
    context = server.__wrapped__()  # type: ignore[attr-defined]
    url = next(context)
    try:
        with playwright.sync_playwright() as p:
            path = shutil.which("chromium")
            browser = p.chromium.launch(executable_path=path, headless=True, args=["--no-sandbox"])
            page = browser.new_page(viewport={"width": 1280, "height": 900})
            for game, puzzle, verb, args, _, _ in ASKED:
                _ask(page, url, game, puzzle, verb, args)
                page.screenshot(path=str(SHOTS / f"{game}-{verb}.png"), full_page=True)
            for game, players, seed, verb, _ in SET_UP:
                moves, arg = _moves_for(game, verb, players, seed)
                _set_up(page, url, game, players, seed, moves)
                page.fill("#verb", verb)
                page.fill("#args", arg)
                page.click("#ask")
                page.wait_for_selector("#status[data-state='answered']", timeout=60_000)
                page.wait_for_selector(ANSWER_DRAWN, timeout=60_000)
                shot = SHOTS / f"{game}-set-up-{verb}.png"
                page.screenshot(path=str(shot), full_page=True)
            for game, steps, _ in EDITED:
                _edit(page, url, game, steps)
                page.screenshot(path=str(SHOTS / f"{game}-editor.png"), full_page=True)
            browser.close()
    finally:
        next(context, None)


if __name__ == "__main__":  # pragma: no cover
    main()
