"""The JSON API mirrors the command line and keeps serving under faults (issue 30).

The app runs in process (Starlette's test client); each question runs, as in production, in a
``banditsolve`` process of its own. The command line it is compared with runs in process
(``tests.cli_runner``), so the two paths share nothing but the library.
"""

from __future__ import annotations

import json
import threading
import warnings
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("starlette")
pytest.importorskip("httpx")
with warnings.catch_warnings():  # starlette 1.x prefers httpx2 for its test client
    warnings.filterwarnings("ignore", message="Using `httpx` with `starlette.testclient`")
    from starlette.testclient import TestClient

from banditsolve.web.app import Settings, create_app
from tests.cli_runner import run

GAMES = ("banditos", "bandido", "bandida", "rolling")

#: Fields of an answer that measure the run, not the question.
TIMING = frozenset({"seconds", "elapsed", "time", "wall", "cpu", "time_spent"})


def _untimed(doc: Any) -> Any:
    if isinstance(doc, dict):
        return {k: _untimed(v) for k, v in doc.items() if k not in TIMING}
    if isinstance(doc, list):
        return [_untimed(v) for v in doc]
    return doc


@pytest.fixture(scope="module")
def client() -> Iterator[TestClient]:
    with TestClient(create_app(Settings(workers=2))) as c:
        yield c


def _first_puzzle(game: str) -> dict[str, Any]:
    listed = json.loads(run(game, "puzzles", "--json").out)
    first = json.loads(run(game, "puzzle", listed[0]["id"], "--json").out)
    assert isinstance(first, dict)
    return first


@pytest.mark.parametrize("game", GAMES)
def test_each_answer_is_what_the_command_line_prints(client: TestClient, game: str) -> None:
    puzzle = _first_puzzle(game)
    asked = [
        ("show", [puzzle["position"]], {}),
        ("moves", [puzzle["position"]], {}),
        ("puzzle", [puzzle["id"]], {"solve": True}),
    ]
    for verb, args, options in asked:
        reply = client.post(f"/api/{game}/{verb}", json={"args": args, "options": options})
        flags = [f"--{k}" for k in options]
        shell = run(game, verb, *flags, "--json", "--", *args)
        if shell.code == 2:  # refused: the same one line
            assert reply.status_code == 400
            assert reply.json()["error"] == shell.err.strip().removeprefix("banditsolve: error: ")
            continue
        assert reply.status_code == 200, reply.text
        assert reply.headers["Banditsolve-Exit-Status"] == str(shell.code)
        assert _untimed(reply.json()) == _untimed(json.loads(shell.out))
        command = reply.headers["Banditsolve-Command"]
        assert command.startswith(f"banditsolve {game} {verb} ")


def test_a_proven_no_and_an_unknown_are_answers_with_their_exit_status(client: TestClient) -> None:
    position = "3:k4g5r6:g1g1/2::/1::/1:: 112233 -:- 0a"
    no = client.post("/api/banditos/claim", json={"args": [position, 1]})
    assert no.status_code == 200
    assert no.headers["Banditsolve-Exit-Status"] == "1"
    assert no.json()["answer"] == "unsafe"
    assert no.json()["certificate"] == ["g1"]  # the opponent's beating die
    puzzle = _first_puzzle("bandido")
    unknown = client.post("/api/bandido/close", json={
        "args": [puzzle["position"]], "options": {"node-limit": 1}})
    assert unknown.status_code == 200
    shell = run("bandido", "close", "--node-limit", "1", "--json", "--", puzzle["position"])
    assert unknown.headers["Banditsolve-Exit-Status"] == str(shell.code)


def test_the_picture_is_the_one_the_command_line_draws(client: TestClient, tmp_path: Path) -> None:
    position = "3:k4g5r6:g1g1/2::/1::/1:: 112233 -:- 0a"
    reply = client.post("/api/banditos/claim/svg", json={"args": [position, 1]})
    assert reply.status_code == 200
    assert reply.headers["content-type"].startswith("image/svg+xml")
    out = tmp_path / "claim.svg"
    assert run("banditos", "claim", position, "1", "--svg", str(out)).code == 1
    assert reply.text == out.read_text("utf-8")


@pytest.mark.parametrize(
    ("path", "body", "status", "words"),
    [
        ("/api/banditos/show", {"args": ["not a position"]}, 400, "position"),
        ("/api/banditos/fly", {"args": []}, 400, "invalid choice"),
        ("/api/chess/show", {"args": ["x y"]}, 404, "no game named"),
        ("/api/banditos/show", {"args": "x"}, 400, "must be a list"),
        ("/api/banditos/show", {"args": [], "extra": 1}, 400, "unknown field"),
        ("/api/banditos/show", {"options": {"svg": "/tmp/x.svg"}}, 400, "--svg is not offered"),
        ("/api/banditos/show", {"options": {"out": "/tmp"}}, 400, "--out is not offered"),
        ("/api/banditos/demo", {}, 400, "not offered"),
        ("/api/banditos/show", {"options": {"Bad Name": 1}}, 400, "lower-case word"),
        ("/api/banditos/show", {"args": [{"a": 1}]}, 400, "text or a number"),
    ],
)
def test_bad_requests_get_one_line(
    client: TestClient, path: str, body: object, status: int, words: str
) -> None:
    reply = client.post(path, json=body)
    assert reply.status_code == status
    error = reply.json()["error"]
    assert words in error
    assert "\n" not in error
    assert "Traceback" not in error


def test_no_file_of_the_server_is_ever_read(client: TestClient, tmp_path: Path) -> None:
    position = "3:k4g5r6:g1g1/2::/1::/1:: 112233 -:- 0a"
    stored = tmp_path / "position.txt"
    stored.write_text(position, "utf-8")
    assert run("banditos", "show", str(stored), "--json").code == 0  # the shell reads it...
    for source in (str(stored), "/etc/passwd", "-"):
        reply = client.post("/api/banditos/show", json={"args": [source]})
        assert reply.status_code == 400  # ...the API never does
        assert "not read here" in reply.json()["error"]


def test_a_body_too_large_is_refused_before_any_work(client: TestClient) -> None:
    reply = client.post("/api/banditos/show", content=b"{" + b" " * (300 * 1024) + b"}")
    assert reply.status_code == 413


def test_a_repeated_question_comes_from_the_cache(client: TestClient) -> None:
    app = client.app.state.banditsolve  # type: ignore[attr-defined]
    position = "3:k4g5r6:g1g1/2::/1::/1:: 112233 -:- 0a"
    body = {"args": [position, 2]}
    first = client.post("/api/banditos/claim", json=body)
    started = app.runner.started
    again = client.post("/api/banditos/claim", json=body)
    assert app.runner.started == started  # no process ran
    assert again.content == first.content


def _long_search() -> dict[str, Any]:
    """Rolling Bandits' two-player start: its best turn takes far longer than a second."""
    from banditsolve.core.registry import load_game

    game = load_game("rolling")
    start = game.to_notation(game.new_game(2, seed=0))
    return {"args": [start], "options": {"time-limit": 30}}


def test_a_question_past_the_deadline_is_stopped_and_the_server_serves_on() -> None:
    with TestClient(create_app(Settings(workers=1, deadline=1.5, max_time_limit=60))) as c:
        slow = c.post("/api/rolling/best", json=_long_search())
        assert slow.status_code == 504
        assert slow.json()["error"] == (
            "the question ran past the server's limit of 1.5 s and was stopped")
        fine = c.post("/api/banditos/moves", json={"args": [puzzle_position()]})
        assert fine.status_code == 200


def puzzle_position() -> str:
    return "3:k4g5r6:g1g1/2::/1::/1:: 112233 -:- 0a"


def test_a_time_limit_above_the_cap_is_lowered_and_said() -> None:
    with TestClient(create_app(Settings(max_time_limit=2))) as c:
        reply = c.post("/api/banditos/claim", json={
            "args": [puzzle_position(), 1], "options": {"time-limit": 500}})
        assert reply.status_code == 200
        assert reply.headers["Banditsolve-Time-Limit"] == "2"
        assert "--time-limit=2" in reply.headers["Banditsolve-Command"]
        # as text too; and with none given, the command's own default (30 s) is lowered in
        # its worker
        mine = (
            "rb ed=default n=2 phase=start turn=1 wagons=6 train=0:5/5L:-:-|M4,2:2/2:R:H4|R2,"
            "3:3/3:-:-|-,4:1/1:-:-|-,5:2/2:-:-|-,6:3/3:-:-|- won=-|1:2/2 trunks=-|-"
        )
        text = c.post("/api/rolling/safe", json={"args": [mine, 2], "options": {
            "time-limit": "500"}})
        assert text.headers["Banditsolve-Time-Limit"] == "2"
        assert text.json()["limits"]["time_limit"] == 2
        default = c.post("/api/rolling/safe", json={"args": [mine, 2]})
        assert default.status_code == 200, default.text
        assert default.json()["limits"]["time_limit"] == 2
        # repeated (a list), each value is lowered; one the command line refuses is its 400
        listed = c.post("/api/rolling/safe", json={"args": [mine, 2], "options": {
            "time-limit": ["500"]}})
        assert listed.headers["Banditsolve-Time-Limit"] == "2"
        assert "--time-limit=500" not in listed.headers["Banditsolve-Command"]
        for bad in ("infinity", "1e999", "nan"):
            refused = c.post("/api/rolling/safe", json={"args": [mine, 2], "options": {
                "time-limit": bad}})
            assert refused.status_code == 400, (bad, refused.text)
            assert "Banditsolve-Time-Limit" not in refused.headers


def test_no_option_writes_a_file_by_a_prefix_or_a_value_that_looks_like_one(
    client: TestClient, tmp_path: Path
) -> None:
    target = tmp_path / "written.svg"
    for options in (
        {"sv": str(target)},  # a prefix of --svg
        {"quiet": f"--svg={target}"},  # a value read as an option of its own
        {"time-limit": f"--svg={target}"},
        {"worker": 8},  # a prefix of --workers
    ):
        reply = client.post(
            "/api/banditos/claim", json={"args": [puzzle_position(), 1], "options": options})
        assert reply.status_code == 400, (options, reply.text)
        assert "\n" not in reply.json()["error"]
    assert not target.exists()


def test_a_line_break_in_an_argument_gets_an_answer_with_one_line_headers(
    client: TestClient,
) -> None:
    for args in (["garbage\n"], [puzzle_position() + "\n"]):
        reply = client.post("/api/banditos/show", json={"args": args})
        assert reply.status_code in (200, 400), reply.text
        assert "\n" not in reply.headers["Banditsolve-Command"]
        assert "\\n" in reply.headers["Banditsolve-Command"]


def test_busy_workers_and_a_busy_client_are_refused_in_one_line() -> None:
    """One worker, a queue that does not wait: of two questions at once, one is refused with
    503; one question per client: the second at once gets 429."""
    slow = {**_long_search(), "options": {"time-limit": 2}}
    for settings, status in ((Settings(workers=1, queue_wait=0.01), 503),
                             (Settings(workers=2, per_client=1), 429)):
        with TestClient(create_app(settings)) as c:
            codes: list[int] = []

            def ask(c: TestClient = c, codes: list[int] = codes) -> None:
                codes.append(c.post("/api/rolling/best", json=slow).status_code)

            threads = [threading.Thread(target=ask) for _ in range(2)]
            for t in threads:
                t.start()
            for t in threads:
                t.join()
            assert status in codes, codes
            again = c.post("/api/banditos/moves", json={"args": [puzzle_position()]})
            assert again.status_code == 200  # and it serves on


def test_the_schema_names_every_game_and_status(client: TestClient) -> None:
    schema = client.get("/openapi.json").json()
    post = schema["paths"]["/api/{game}/{verb}"]["post"]
    games = next(p for p in post["parameters"] if p["name"] == "game")["schema"]["enum"]
    assert sorted(games) == sorted(GAMES)
    assert {"200", "400", "404", "413", "429", "500", "503", "504"} <= set(post["responses"])


def test_the_pages_ask_the_api(client: TestClient) -> None:
    index = client.get("/")
    assert index.status_code == 200
    for game in GAMES:
        assert f"href='/{game}'" in index.text
        board = client.get(f"/{game}")
        assert board.status_code == 200
        assert f"data-game='{game}'" in board.text
        assert "/api/${game}/${verb}" in board.text
    assert client.get("/chess").status_code == 404


def test_serve_refuses_an_address_it_cannot_have_in_one_line() -> None:
    import socket

    held = socket.socket()
    held.bind(("127.0.0.1", 0))
    held.listen(1)
    try:
        port = held.getsockname()[1]
        busy = run("serve", "--port", str(port))
        assert busy.code == 2
        assert busy.err.strip() == (
            f"banditsolve: error: cannot serve on 127.0.0.1:{port}: Address already in use")
        assert busy.out == ""  # nothing said of serving
    finally:
        held.close()
    for host in ("999.1.1.1", "a" * 70 + ".com"):  # (the second: a name IDNA refuses)
        nowhere = run("serve", "--host", host)
        assert nowhere.code == 2
        assert nowhere.err.startswith(f"banditsolve: error: cannot serve on {host}:8000: ")
        assert len(nowhere.err.splitlines()) == 1
