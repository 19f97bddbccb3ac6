"""The package as it ships: an OSI licence named in the metadata, the project's URLs and
classifiers, the version in one place, a changelog, and an sdist that holds what the project's
own checks need (``specs/``, ``docs/``, ``tests/``, ``benchmarks/``).

Building the sdist takes a few seconds and a wheel from it a minute (the compiled core), so the
build is in ``make package`` (which runs this module on its sdist: ``python -m tests.test_package
dist/banditsolve-*.tar.gz``) and behind the ``slow`` mark here.
"""

from __future__ import annotations

import re
import subprocess
import sys
import tarfile
import tomllib
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


def main(paths: list[str]) -> int:
    """``python -m tests.test_package SDIST...``: each sdist checked; 1 when one falls short."""
    if not paths:
        print("usage: python -m tests.test_package SDIST...", file=sys.stderr)
        return 2
    failed = False
    for path in paths:
        problems = sdist_problems(Path(path))
        for problem in problems:
            print(f"{path}: {problem}", file=sys.stderr)
        if not problems:
            print(f"{path}: holds {', '.join(f'{f}/' for f in SDIST_FOLDERS)} and the licence")
        failed = failed or bool(problems)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
