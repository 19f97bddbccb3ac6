"""Tie tests to the rule IDs of ``specs/``.

Use ``@rules("LB-CLAIM-2", "LB-CLAIM-3")`` on a test function (or class). The rule-coverage test
reads every test module and fails when a rule ID of the specs has no test, or when a test names
an ID that no spec defines.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SPECS = ROOT / "specs"

#: A rule is defined by a list item that starts with its bold ID: ``- **LB-CLAIM-2** ...``.
DEFINITION = re.compile(r"^\s*[-*]\s+\*\*(?P<id>[A-Z]{2}-[A-Z]+-\d+)\*\*", re.MULTILINE)
RULE_ID = re.compile(r"^[A-Z]{2}-[A-Z]+-\d+$")


def rules(*ids: str) -> pytest.MarkDecorator:
    """Mark a test as exercising the given rule IDs."""
    for rule_id in ids:
        if not RULE_ID.match(rule_id):
            raise ValueError(f"malformed rule ID {rule_id!r}")
    return pytest.mark.rules(*ids)


def spec_rule_ids() -> dict[str, str]:
    """Every rule ID defined in ``specs/*.md``, mapped to the spec file that defines it."""
    found: dict[str, str] = {}
    for spec in sorted(SPECS.glob("*.md")):
        for match in DEFINITION.finditer(spec.read_text(encoding="utf-8")):
            rule_id = match.group("id")
            if rule_id in found:
                raise ValueError(f"rule ID {rule_id} defined twice ({found[rule_id]}, {spec.name})")
            found[rule_id] = spec.name
    return found
