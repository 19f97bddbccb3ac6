"""The package as it ships: an OSI licence named in the metadata, the project's URLs and
classifiers, the version in one place, a changelog, an sdist that holds what the project's own
checks need (``specs/``, ``docs/``, ``tests/``, ``benchmarks/``), and a wheel that carries the
compiled core and its stubs, installs with no compiler on the PATH and answers through that core.

Building the sdist takes a few seconds and a wheel from it a minute (the compiled core), so the
build is in ``make package`` (which runs this module on its sdist and wheel: ``python -m
tests.test_package dist/banditsolve-*.tar.gz dist/banditsolve-*.whl``) and behind the ``slow``
mark here.
"""

from __future__ import annotations

import re
import subprocess
import sys
import tarfile
import tempfile
import tomllib
import zipfile
from email.parser import HeaderParser
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parent.parent

#: The folders an sdist must hold, each with at least one file.
SDIST_FOLDERS = ("specs", "docs", "tests", "benchmarks", "csrc", "src")
#: The files an sdist must hold at its top.
SDIST_FILES = ("LICENSE", "CHANGELOG.md", "README.md", "pyproject.toml", "setup.py", "PKG-INFO")

REPOSITORY = "https://github.com/banditsolve/banditsolve"


def project() -> dict[str, Any]:
    table: dict[str, Any] = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    return dict(table["project"])


def test_the_licence_is_mit_and_named_in_the_metadata() -> None:
    text = (ROOT / "LICENSE").read_text(encoding="utf-8")
    assert text.startswith("MIT License")
    assert "Copyright (c) 2026 the banditsolve authors" in text
    assert "WITHOUT WARRANTY OF ANY KIND" in text
    meta = project()
    assert meta["license"] == "MIT"
    assert meta["license-files"] == ["LICENSE"]
    # A licence expression and a licence classifier together are refused by the build (PEP 639).
    assert not [c for c in meta["classifiers"] if c.startswith("License ::")]


def test_the_project_urls_and_classifiers() -> None:
    meta = project()
    urls = meta["urls"]
    assert {"Homepage", "Documentation", "Repository", "Changelog"} <= set(urls)
    assert all(url.startswith(REPOSITORY) for url in urls.values()), urls
    classifiers = meta["classifiers"]
    assert "Typing :: Typed" in classifiers
    assert f"Programming Language :: Python :: {meta['requires-python'].lstrip('>=')}" in (
        classifiers
    )
    assert (ROOT / "src" / "banditsolve" / "py.typed").is_file()


def test_the_version_has_one_source() -> None:
    """pyproject.toml sets it; nothing else in the sources or the build files spells it."""
    version = project()["version"]
    assert re.fullmatch(r"\d+\.\d+\.\d+", version)
    assert "dynamic" not in project() or "version" not in project()["dynamic"]
    spelled = [
        path.relative_to(ROOT).as_posix()
        for path in [*(ROOT / "src").rglob("*.py"), ROOT / "setup.py", ROOT / "mkdocs.yml"]
        if version in path.read_text(encoding="utf-8")
    ]
    assert spelled == []
    assert "version=" not in (ROOT / "setup.py").read_text(encoding="utf-8").replace(" ", "")


def test_the_changelog_has_the_current_version() -> None:
    """Keep a Changelog: an Unreleased section, then each version with its date, newest first,
    each heading with its link; the version pyproject.toml sets is there."""
    text = (ROOT / "CHANGELOG.md").read_text(encoding="utf-8")
    headings = re.findall(r"^## \[([^\]]+)\](?: - (\d{4}-\d{2}-\d{2}))?$", text, re.MULTILINE)
    assert headings[0] == ("Unreleased", "")
    versions = [name for name, _ in headings[1:]]
    assert project()["version"] in versions
    keys = [tuple(int(part) for part in v.split(".")) for v in versions]
    assert keys == sorted(keys, reverse=True)
    assert all(date for _, date in headings[1:])
    for name, _ in headings:
        assert re.search(rf"^\[{re.escape(name)}\]: {REPOSITORY}/", text, re.MULTILINE), name


def test_the_manifest_grafts_every_folder_the_sdist_needs() -> None:
    lines = (ROOT / "MANIFEST.in").read_text(encoding="utf-8").splitlines()
    grafted = {line.split()[1] for line in lines if line.startswith("graft ")}
    included = {word for line in lines if line.startswith("include ") for word in line.split()[1:]}
    assert set(SDIST_FOLDERS) - {"src"} <= grafted
    assert set(SDIST_FILES) - {"PKG-INFO", "pyproject.toml"} <= included


def sdist_problems(sdist: Path) -> list[str]:
    """What an sdist lacks of the folders and files above, and of the licence in its metadata."""
    with tarfile.open(sdist) as archive:
        names = archive.getnames()
        top = names[0].split("/")[0]
        info = archive.extractfile(f"{top}/PKG-INFO")
        metadata = HeaderParser().parsestr(info.read().decode("utf-8") if info else "")
    files = {name.split("/", 1)[1] for name in names if "/" in name}
    problems = [f"no {folder}/" for folder in SDIST_FOLDERS
                if not any(name.startswith(f"{folder}/") for name in files)]
    problems += [f"no {name}" for name in SDIST_FILES if name not in files]
    if metadata.get("License-Expression") != "MIT":
        problems.append(f"License-Expression is {metadata.get('License-Expression')!r}")
    if "LICENSE" not in metadata.get_all("License-File", []):
        problems.append("LICENSE is not a License-File")
    return problems


@pytest.mark.slow
def test_the_sdist_holds_the_checks_and_the_licence(tmp_path: Path) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "build", "--sdist", "--outdir", str(tmp_path), str(ROOT)],
        capture_output=True, text=True, timeout=900, check=False,
    )
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-2000:]
    (sdist,) = tmp_path.glob("banditsolve-*.tar.gz")
    assert sdist.name == f"banditsolve-{project()['version']}.tar.gz"
    assert sdist_problems(sdist) == []


#: What a wheel must hold beside the Python code: the compiled core, its stubs, the type marker.
WHEEL_FILES = (
    "banditsolve/tunnels/solvers/closure_core.pyi",
    "banditsolve/py.typed",
)
CORE_PREFIX = "banditsolve/tunnels/solvers/closure_core."

#: Run by the wheel's own interpreter check: the compiled core from the wheel answers a closure
#: question the README shows (six cards, proven the fewest), through the library's call.
WHEEL_CALL = """
import sys
from banditsolve.tunnels import parse_position, min_cards_to_close
from banditsolve.tunnels.solvers import closure_core
assert closure_core.__file__.startswith(sys.argv[1]), closure_core.__file__
position = parse_position("bandido L+TL+TR+R+BR+BL@0,0,0 | L*2 TL*2 L+TL TL+BL R+BR")
result = min_cards_to_close(position, backend="exact")
assert (result.status, result.cards, result.minimum, result.backend) == (
    "closable", 6, True, "exact"), result
print(closure_core.__file__)
"""


def no_compiler_env(target: Path) -> dict[str, str]:
    """An environment with no C or C++ compiler on its PATH (only the interpreter's own folder,
    which holds none) and CC/CXX that fail, with ``target`` first on the import path."""
    return {
        "PATH": str(Path(sys.executable).parent),
        "CC": "/bin/false",
        "CXX": "/bin/false",
        "PYTHONPATH": str(target),
        "HOME": str(target),
    }


def wheel_problems(wheel: Path, target: Path) -> list[str]:
    """What a wheel lacks (the compiled core, its stubs), and whether it installs and runs the
    compiled core with no compiler at hand (installed without its dependencies into
    ``target``, which the running interpreter's own packages then complete)."""
    with zipfile.ZipFile(wheel) as archive:
        names = set(archive.namelist())
    problems = [f"no {name}" for name in WHEEL_FILES if name not in names]
    if not any(n.startswith(CORE_PREFIX) and n.endswith(".so") for n in names):
        problems.append("no compiled core (closure_core*.so)")
    if problems:
        return problems
    env = no_compiler_env(target)
    for tool in ("gcc", "g++", "cc", "c++"):
        found = subprocess.run(["/bin/sh", "-c", f"command -v {tool}"], env=env, check=False,
                               capture_output=True, text=True)
        if found.stdout.strip():
            problems.append(f"{tool} is still on the PATH of the check: {found.stdout.strip()}")
    steps = (
        [sys.executable, "-m", "pip", "install", "--quiet", "--no-deps", "--no-index",
         "--target", str(target), str(wheel)],
        [sys.executable, "-c", WHEEL_CALL, str(target)],
    )
    for step in steps:
        done = subprocess.run(step, env=env, capture_output=True, text=True, timeout=600,
                              check=False)
        if done.returncode:
            problems.append(f"{step[1:3]} failed: {(done.stdout + done.stderr)[-1500:]}")
            break
    return problems


def main(paths: list[str]) -> int:
    """``python -m tests.test_package SDIST... WHEEL...``: each sdist and wheel checked; 1 when
    one falls short."""
    if not paths:
        print("usage: python -m tests.test_package SDIST... WHEEL...", file=sys.stderr)
        return 2
    failed = False
    for path in paths:
        if path.endswith(".whl"):
            with tempfile.TemporaryDirectory() as target:
                problems = wheel_problems(Path(path), Path(target))
            done = "installs with no compiler and answers through its compiled core"
        else:
            problems = sdist_problems(Path(path))
            done = f"holds {', '.join(f'{f}/' for f in SDIST_FOLDERS)} and the licence"
        for problem in problems:
            print(f"{path}: {problem}", file=sys.stderr)
        if not problems:
            print(f"{path}: {done}")
        failed = failed or bool(problems)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
