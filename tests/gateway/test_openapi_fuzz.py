"""Schemathesis against the served app, following the OpenAPI document as published (its URL alone, no
base-URL override): no answer is a 5xx, and every answer conforms to the document (status codes, content
types, headers, bodies, server-sent events).

Positive data acceptance is not asserted: rules that tie a value to the registry or to another field (an
asset listed on a chain, a protocol that supports an action, an address of the chain's family, a number's
smallest magnitude) are the service's, answered 400 naming the field (docs/decisions.md)."""

from __future__ import annotations

import shutil
import sys
from pathlib import Path

import trio

from gateway.config import Settings
from storage import accounts
from tests.support.server import running_service

CHECKS = (
    "not_a_server_error,status_code_conformance,content_type_conformance,"
    "response_headers_conformance,response_schema_conformance"
)
# The run's budget: the high tier admits 600 requests a minute, so 9 a second for 60 s stays under it.
SECONDS, RATE = 60, "9/s"
SEED = "20261124"


def schemathesis() -> str:
    found = shutil.which("st") or str(Path(sys.executable).parent / "st")
    assert Path(found).exists(), "schemathesis is a test dependency (pip install -e '.[test]')"
    return found


async def test_every_answer_conforms_to_the_published_document(settings: Settings) -> None:
    async with running_service(settings.model_copy(update={"log_level": "warning"})) as service:
        db = service.services.db
        tenant = await db.run(accounts.ensure_tenant, "fuzz", "high")
        key, _ = await db.run(accounts.create_key, tenant, ("plan", "agents"))
        await db.run(accounts.grant_credits, tenant.id, 10_000_000, "fuzzing")
        command = [
            schemathesis(),
            "run",
            f"{service.api}/openapi.json",
            "--header",
            f"Authorization: Bearer {key}",
            "--checks",
            CHECKS,
            "--rate-limit",
            RATE,
            "--max-time",
            str(SECONDS),
            "--workers",
            "2",
            "--phases",
            "examples,coverage,fuzzing,stateful",
            "--seed",
            SEED,
            "--continue-on-failure",
            "--no-color",
        ]
        with trio.fail_after(SECONDS * 4):
            done = await trio.run_process(command, capture_stdout=True, capture_stderr=True, check=False)
    report = done.stdout.decode(errors="replace")
    assert done.returncode == 0, report[-6000:] + done.stderr.decode(errors="replace")[-2000:]
    assert "generated" in report
