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
