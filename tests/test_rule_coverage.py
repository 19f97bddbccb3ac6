"""Every rule ID in specs/ is exercised by a test, and every ID a test names exists."""

from __future__ import annotations

import ast
from pathlib import Path

from tests.rules import RULE_ID, spec_rule_ids

TESTS = Path(__file__).resolve().parent


def _marked_ids() -> dict[str, set[str]]:
    """Rule IDs named in ``rules(...)`` / ``pytest.mark.rules(...)`` calls, by test file."""
    found: dict[str, set[str]] = {}
    for path in sorted(TESTS.rglob("test_*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        for node in ast.walk(tree):
            if not isinstance(node, ast.Call):
                continue
            func = node.func
            name = func.id if isinstance(func, ast.Name) else getattr(func, "attr", None)
            if name != "rules":
                continue
            for arg in node.args:
                if isinstance(arg, ast.Constant) and isinstance(arg.value, str):
                    found.setdefault(arg.value, set()).add(path.name)
    return found


def _is_rules_mark(node: ast.expr) -> bool:
    """``@rules(...)`` or ``@pytest.mark.rules(...)``."""
    if not isinstance(node, ast.Call):
        return False
    func = node.func
    name = func.id if isinstance(func, ast.Name) else getattr(func, "attr", None)
    return name == "rules"


def _trivial(body: list[ast.stmt]) -> bool:
    """A body that does nothing: only a docstring, ``pass`` or ``...``."""
    for stmt in body:
        if isinstance(stmt, ast.Pass):
            continue
        if isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Constant):
            continue  # a docstring or ``...``
        return False
    return True


def empty_marked_tests(source: str, filename: str = "<test>") -> list[str]:
    """Tests marked with rule IDs whose body does nothing (``pass``, ``...``, a docstring)."""
    tree = ast.parse(source, filename=filename)
    found: list[str] = []
    for node in ast.walk(tree):
        if not isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            continue
        if not any(_is_rules_mark(d) for d in node.decorator_list):
            continue
        if isinstance(node, ast.ClassDef):
            methods = [
                n for n in node.body if isinstance(n, ast.FunctionDef | ast.AsyncFunctionDef)
            ]
            if _trivial(node.body) or (methods and all(_trivial(m.body) for m in methods)):
                found.append(f"{filename}:{node.lineno} {node.name}")
        elif _trivial(node.body):
            found.append(f"{filename}:{node.lineno} {node.name}")
    return found


def test_no_marked_test_is_empty() -> None:
    empty: list[str] = []
    for path in sorted(TESTS.rglob("test_*.py")):
        empty += empty_marked_tests(path.read_text(encoding="utf-8"), path.name)
    assert not empty, f"tests marked for rules that do nothing: {empty}"


def test_the_empty_body_check_works() -> None:
    source = """
@rules("ZZ-SELFTEST-1")
def test_a():
    \"\"\"Docstring only.\"\"\"

@pytest.mark.rules("ZZ-SELFTEST-1")
def test_b():
    pass

@rules("ZZ-SELFTEST-1")
def test_c():
    ...

@rules("ZZ-SELFTEST-1")
def test_d():
    assert 1 + 1 == 2

@rules("ZZ-SELFTEST-1")
class TestE:
    def test_x(self):
        pass

def test_f():
    pass
"""
    found = [entry.split()[-1] for entry in empty_marked_tests(source)]
    assert found == ["test_a", "test_b", "test_c", "TestE"]


def test_each_spec_has_its_own_prefix() -> None:
    """All IDs of one spec share one prefix (``LB``, ``BD``, ``RB``...), and no two specs share
    one, so a test's ID says which spec it belongs to."""
    prefixes: dict[str, set[str]] = {}
    for rule_id, spec in spec_rule_ids().items():
        prefixes.setdefault(spec, set()).add(rule_id.split("-")[0])
    for spec, found in prefixes.items():
        assert len(found) == 1, f"{spec} uses the prefixes {sorted(found)}"
    owners = [next(iter(p)) for p in prefixes.values()]
    assert len(owners) == len(set(owners)), f"specs share a prefix: {prefixes}"


def test_rule_ids_cited_in_specs_exist() -> None:
    """A spec that refers to another rule (``see LB-CLAIM-2``) names one that is defined."""
    import re

    from tests.rules import SPECS

    defined = spec_rule_ids()
    cited = re.compile(r"\b[A-Z]{2}-[A-Z]+-\d+\b")
    dangling = sorted(
        f"{spec.name}: {m.group(0)}"
        for spec in SPECS.glob("*.md")
        for m in cited.finditer(spec.read_text(encoding="utf-8"))
        if m.group(0) not in defined
    )
    assert not dangling, f"specs cite rule IDs that no spec defines: {dangling}"


def test_specs_define_rules() -> None:
    ids = spec_rule_ids()
    assert ids, "no rule IDs found in specs/"
    assert all(RULE_ID.match(rule_id) for rule_id in ids)


def test_every_rule_has_a_test() -> None:
    defined = spec_rule_ids()
    marked = _marked_ids()
    missing = sorted(set(defined) - set(marked))
    assert not missing, f"rule IDs with no test: {missing}"


def test_every_marked_rule_exists() -> None:
    defined = spec_rule_ids()
    marked = _marked_ids()
    unknown = {
        rule_id: sorted(files)
        for rule_id, files in marked.items()
        if rule_id not in defined and not rule_id.startswith("ZZ-")
    }
    assert not unknown, f"tests name rule IDs that no spec defines: {unknown}"


def test_the_scanner_sees_this_file() -> None:
    # A self-check of the scanner: the call below must be found.
    from tests.rules import rules

    rules("ZZ-SELFTEST-1")
    assert "ZZ-SELFTEST-1" in _marked_ids()
