"""The house's own rules, checked on the source tree: short files, no private name shared
between modules, one version, and a layout document that matches the tree."""

from __future__ import annotations

import ast
import importlib.metadata
import re
import tomllib
from pathlib import Path

import banditsolve

ROOT = Path(__file__).resolve().parent.parent
SRC = ROOT / "src" / "banditsolve"
#: The longest a source file may be.
MAX_LINES = 800
#: Underscore names that are public API of the standard library (NamedTuple's methods).
PUBLIC_UNDERSCORE = {"_replace", "_asdict", "_fields", "_make", "_field_defaults"}


def sources() -> list[Path]:
    return sorted(SRC.rglob("*.py"))


def test_no_source_file_is_longer_than_800_lines() -> None:
    long = {
        str(p.relative_to(ROOT)): n
        for p in sources()
        if (n := len(p.read_text(encoding="utf-8").splitlines())) > MAX_LINES
    }
    assert long == {}


def _private_uses(path: Path) -> list[str]:
    """``from banditsolve.x import _name`` and ``module._name`` in ``path``."""
    found: list[str] = []
    tree = ast.parse(path.read_text(encoding="utf-8"))
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("banditsolve"):
            found.extend(
                f"{path.name}:{node.lineno} imports {node.module}.{alias.name}"
                for alias in node.names
                if alias.name.startswith("_") and not alias.name.startswith("__")
            )
        elif (
            isinstance(node, ast.Attribute)
            and node.attr.startswith("_")
            and not node.attr.startswith("__")
            and node.attr not in PUBLIC_UNDERSCORE
            and isinstance(node.value, ast.Name)
            and node.value.id not in ("self", "cls")
        ):
            found.append(f"{path.name}:{node.lineno} uses {node.value.id}.{node.attr}")
    return found


def test_no_private_name_is_used_across_modules() -> None:
    uses = [use for p in sources() for use in _private_uses(p)]
    assert uses == []


def test_the_version_is_defined_once() -> None:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    assert banditsolve.__version__ == importlib.metadata.version("banditsolve")
    assert banditsolve.__version__ == project["version"]
    literal = re.compile(r"__version__\s*=\s*['\"]\d")
    assert [p.name for p in sources() if literal.search(p.read_text(encoding="utf-8"))] == []


def _documented_files() -> list[str]:
    """The files ``ARCHITECTURE.md`` lists under "Every file", one per line."""
    text = (ROOT / "ARCHITECTURE.md").read_text(encoding="utf-8")
    block = text.split("## Every file", 1)[1].split("```")[1]
    return [line.split()[0] for line in block.splitlines() if line.strip()]


def test_the_layout_document_lists_every_file_once_with_its_job() -> None:
    listed = _documented_files()
    assert len(listed) == len(set(listed))
    tree = sorted(str(p.relative_to(SRC)) for p in sources())
    assert sorted(listed) == tree
    text = (ROOT / "ARCHITECTURE.md").read_text(encoding="utf-8")
    block = text.split("## Every file", 1)[1].split("```")[1]
    assert all(len(line.split()) > 2 for line in block.splitlines() if line.strip())
