"""Which test profile is running: ``default`` (quick, local), ``ci`` (more examples and games) or
``long``. Set with ``HYPOTHESIS_PROFILE``; CI (``CI`` set) defaults to ``ci``."""

from __future__ import annotations

import os

PROFILE = os.environ.get("HYPOTHESIS_PROFILE") or ("ci" if os.environ.get("CI") else "default")


def scaled(default: int, ci: int, long: int | None = None) -> int:
    """A loop count for the running profile (seeded game loops, generated cases)."""
    if PROFILE == "long":
        return long if long is not None else ci * 5
    return ci if PROFILE == "ci" else default
