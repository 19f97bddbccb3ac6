"""The documentation site (``make docs``): it builds with every warning an error, its API
reference names every public name, every rule ID of ``specs/`` has its anchor, the gallery
shows every picture, and the tutorials are run by pytest.

The site is built once per run into a temporary folder (about 5 s). Without MkDocs and its
plugins (the ``docs`` extra) these tests are skipped, saying so.
"""

from __future__ import annotations

import importlib
import importlib.util
import os
import pkgutil
import re
import subprocess
import sys
import tomllib
from collections.abc import Iterator
from html.parser import HTMLParser
from pathlib import Path
from types import ModuleType

import pytest

import banditsolve
from tests.rules import spec_rule_ids

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"

#: What ``make docs`` needs besides MkDocs itself.
DOCS_TOOLS = ("mkdocs", "material", "mkdocstrings", "mkdocstrings_handlers.python")

SVG = "http://www.w3.org/2000/svg"


def _missing_tools() -> list[str]:
    return [name for name in DOCS_TOOLS if importlib.util.find_spec(name.split(".")[0]) is None]


needs_mkdocs = pytest.mark.skipif(
    bool(_missing_tools()),
    reason="the docs extra is not installed (pip install -e '.[docs]': mkdocs-material, "
    "mkdocstrings[python]); make docs builds the site",
)


class _Ids(HTMLParser):
    """Every ``id`` attribute of a page, and every link's target."""

    def __init__(self) -> None:
        super().__init__()
        self.ids: set[str] = set()
        self.links: list[str] = []
        self.images: list[tuple[str, str]] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        found = dict(attrs)
        if found.get("id"):
            self.ids.add(str(found["id"]))
        if tag == "a" and found.get("href"):
            self.links.append(str(found["href"]))
        if tag == "img":
            self.images.append((str(found.get("src", "")), str(found.get("alt", ""))))


def parse(page: Path) -> _Ids:
    parser = _Ids()
    parser.feed(page.read_text(encoding="utf-8"))
    return parser


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The site as ``make docs`` builds it (``mkdocs build --strict``), in a temporary folder."""
    out = tmp_path_factory.mktemp("site")
    env = {**os.environ, "NO_MKDOCS_2_WARNING": "1"}
    done = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "--quiet",
         "--config-file", str(ROOT / "mkdocs.yml"), "--site-dir", str(out)],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=600, check=False,
    )
    assert done.returncode == 0, f"mkdocs build --strict failed:\n{done.stdout}\n{done.stderr}"
    return out


@needs_mkdocs
def test_the_site_builds_with_warnings_as_errors(site: Path) -> None:
    for page in ("index.html", "glossary/index.html", "gallery/index.html",
                 "rules/index.html", "reference/index.html", "tutorials/index.html",
                 "changelog/index.html"):
        assert (site / page).is_file(), page


def packages() -> Iterator[ModuleType]:
    """Every package of the library (``banditsolve`` and its subpackages), imported."""
    yield banditsolve
    for info in pkgutil.walk_packages(banditsolve.__path__, "banditsolve."):
        if info.ispkg:
            yield importlib.import_module(info.name)


def reference_ids(site: Path) -> set[str]:
    found: set[str] = set()
    for page in (site / "reference").rglob("*.html"):
        found |= parse(page).ids
    return found


@needs_mkdocs
def test_every_public_name_is_in_the_api_reference(site: Path) -> None:
    """Every package has its section, and every name of its ``__all__`` its entry."""
    documented = reference_ids(site)
    missing = []
    for package in packages():
        wanted = [package.__name__]
        wanted += [f"{package.__name__}.{name}" for name in getattr(package, "__all__", ())]
        missing += [path for path in wanted if path not in documented]
    assert missing == []


@needs_mkdocs
def test_the_docstrings_sphinx_roles_become_links_or_code(site: Path) -> None:
    role = re.compile(r":(?:func|class|mod|meth|attr|data|exc|obj):`")
    left = {
        page.parent.name: role.findall(page.read_text(encoding="utf-8"))
        for page in (site / "reference").rglob("*.html")
    }
    assert {name: found for name, found in left.items() if found} == {}
    tunnels = (site / "reference" / "tunnels-solvers" / "index.html").read_text(encoding="utf-8")
    # ":func:`~.closure.can_close`" in the package's docstring, resolved relative to it.
    assert 'href="#banditsolve.tunnels.solvers.closure.can_close"' in tunnels


@needs_mkdocs
def test_every_rule_id_has_an_anchor(site: Path) -> None:
    anchors = {
        spec: parse(site / "rules" / Path(spec).stem / "index.html").ids
        for spec in set(spec_rule_ids().values())
    }
    missing = [rule for rule, spec in spec_rule_ids().items() if rule not in anchors[spec]]
    assert missing == []
    assert len(spec_rule_ids()) > 100


@needs_mkdocs
def test_rule_ids_link_to_their_rule(site: Path) -> None:
    """The rules index, the rules pages and the API reference link rule IDs to their anchors,
    and every such link lands on the spec that defines the rule."""
    defined = spec_rule_ids()
    target = re.compile(r"(?:^|/)(?P<page>[\w-]+)/#(?P<id>[A-Z]{2}-[A-Z]+-\d+)$")
    checked = 0
    for page in [*(site / "reference").rglob("*.html"), site / "rules" / "index.html"]:
        for link in parse(page).links:
            match = target.search(link)
            if match:
                assert defined[match["id"]] == f"{match['page']}.md", (page, link)
                checked += 1
    index_links = [link for link in parse(site / "rules" / "index.html").links if "#" in link]
    assert len(index_links) >= len(defined)
    assert checked > len(defined)


def pictures() -> list[Path]:
    return sorted((DOCS / "pictures").glob("*.svg")) + sorted(DOCS.glob("*.svg"))


@needs_mkdocs
def test_the_gallery_shows_every_picture(site: Path) -> None:
    shown = {src.split("/", 1)[-1] if src.startswith("../") else src
             for src, _ in parse(site / "gallery" / "index.html").images}
    expected = {path.relative_to(DOCS).as_posix() for path in pictures()}
    assert expected, "docs/ holds no picture"
    assert expected <= shown
    for picture in expected:
        assert (site / picture).is_file(), picture


def _hooks() -> ModuleType:
    spec = importlib.util.spec_from_file_location("docs_hooks", DOCS / "hooks.py")
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@needs_mkdocs
def test_a_picture_added_later_is_captioned_by_its_title(tmp_path: Path) -> None:
    (tmp_path / "pictures").mkdir()
    (tmp_path / "pictures" / "a-closed-tunnel.svg").write_text(
        f'<svg xmlns="{SVG}" width="10" height="10"><title>A tunnel closed by 6 cards</title>'
        "</svg>", encoding="utf-8")
    (tmp_path / "wagon-odds.svg").write_text(
        f'<svg xmlns="{SVG}" width="10" height="10"></svg>', encoding="utf-8")
    page = _hooks().gallery_page(tmp_path)
    assert "![A tunnel closed by 6 cards](pictures/a-closed-tunnel.svg)" in page
    assert "![Wagon odds](wagon-odds.svg)" in page
    assert page.index("a-closed-tunnel") < page.index("wagon-odds")


def test_the_tutorials_are_collected_as_doctests() -> None:
    """``pytest`` runs every tutorial's examples (pyproject: testpaths and doctest-glob)."""
    tutorials = sorted((DOCS / "tutorials").glob("*.md"))
    with_examples = [t for t in tutorials if ">>> " in t.read_text(encoding="utf-8")]
    assert len(with_examples) >= 5
    # A bare ``pytest`` starts from its testpaths; the doctest globs pick the pages there.
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    testpaths = config["tool"]["pytest"]["ini_options"]["testpaths"]
    assert {"docs/tutorials", "docs/index.md"} <= set(testpaths)
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "--collect-only", "-q", "-p", "no:cacheprovider",
         "docs/tutorials", "docs/index.md"],
        cwd=ROOT, capture_output=True, text=True, timeout=300, check=False,
    )
    collected = {line.split("::")[0] for line in done.stdout.splitlines() if "::" in line}
    missing = [t.relative_to(ROOT).as_posix() for t in with_examples
               if t.relative_to(ROOT).as_posix() not in collected]
    assert missing == []
    assert "docs/index.md" in collected
