"""The README's ``run_study`` example, run as a script on its process pool (as a user runs it),
and the same code without its ``if __name__ == "__main__":`` guard, refused in one line."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

from banditsolve.study.batch import load_rows
from banditsolve.study.catalog import STUDIES
from banditsolve.study.questions import run

ROOT = Path(__file__).resolve().parents[2]
#: The example's size, made small for a test (the README runs 2,000 games).
GAMES = 12


def readme_example() -> str:
    """The README's Python block that calls ``run_study``, at the test's size."""
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    blocks = [b.split("```", 1)[0] for b in text.split("```python\n")[1:]]
    (block,) = [b for b in blocks if "run_study(" in b]
    assert "2000" in block
    return block.replace("2000", str(GAMES))


def run_script(code: str, folder: Path) -> subprocess.CompletedProcess[str]:
    script = folder / "example.py"
    script.write_text(code, encoding="utf-8")
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT / "src"), str(ROOT)])}
    return subprocess.run([sys.executable, str(script)], cwd=folder, env=env,
                          capture_output=True, text=True, timeout=300, check=False)


def test_the_readme_example_runs_as_a_script_on_its_process_pool(tmp_path: Path) -> None:
    done = run_script(readme_example(), tmp_path)
    assert done.returncode == 0, done.stderr
    assert done.stderr == ""
    assert done.stdout == f"{GAMES} of {GAMES} tasks, {GAMES} rows\n"
    stored = load_rows(tmp_path / "studies" / f"rolling-{GAMES}")
    assert stored == [run(task) for task in STUDIES["rolling"].tasks(GAMES, 0)]


def test_the_example_without_its_guard_is_refused_in_one_line(tmp_path: Path) -> None:
    head, body = readme_example().split('if __name__ == "__main__":', 1)
    body = textwrap.dedent(body.split("\n", 1)[1])
    done = run_script(head + body, tmp_path)
    assert done.returncode == 1
    assert done.stdout == ""
    assert done.stderr.count("Traceback") == 1  # this process's, none from workers
    last = done.stderr.strip().splitlines()[-1]
    assert last.startswith("banditsolve.study.executors.UnguardedMainError: ")
    assert "line 4 of example.py" in last
    assert 'if __name__ == "__main__":' in last
    assert not (tmp_path / "studies").exists()  # refused before anything was made
