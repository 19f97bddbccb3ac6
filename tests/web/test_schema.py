"""Schemathesis against the API's own OpenAPI schema: every request the schema allows gets an
answer the schema documents (its status, its media type, its body's shape), never a server
error, and on a refusal one line of JSON."""

from __future__ import annotations

import warnings
from typing import Any

import pytest

pytest.importorskip("starlette")
schemathesis = pytest.importorskip("schemathesis")

from hypothesis import HealthCheck, settings  # noqa: E402

from banditsolve.web.app import Settings, create_app  # noqa: E402

with warnings.catch_warnings():
    warnings.simplefilter("ignore", DeprecationWarning)
    SCHEMA = schemathesis.openapi.from_asgi(
        "/openapi.json", create_app(Settings(workers=2, max_time_limit=2, deadline=8))
    )


@SCHEMA.parametrize()  # type: ignore[untyped-decorator]
@settings(max_examples=25, deadline=None, suppress_health_check=list(HealthCheck))
def test_every_request_the_schema_allows_gets_a_documented_answer(case: Any) -> None:
    response = case.call()
    assert response.status_code < 500 or response.status_code in (503, 504), response.text
    # A request the schema allows may still be refused: the schema cannot say which text is a
    # legal position, so "schema-valid data is accepted" is the one check left out.
    case.validate_response(response, excluded_checks=[schemathesis.checks.positive_data_acceptance])
    if response.status_code != 200:
        error = response.json()["error"]
        assert error
        assert "\n" not in error
