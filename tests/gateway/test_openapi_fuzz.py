"""Schemathesis against the served app, following the OpenAPI document as published (its URL alone, no
base-URL override): no answer is a 5xx, and every answer conforms to the document (status codes, content
types, headers, bodies, server-sent events).

Positive data acceptance is not asserted: rules that tie a value to the registry or to another field (an
asset listed on a chain, a protocol that supports an action, an address of the chain's family, a number's
smallest magnitude) are the service's, answered 400 naming the field (docs/decisions.md)."""

from __future__ import annotations

import itertools
import shutil
import sys
from pathlib import Path

import trio
from quart_trio import QuartTrio

from engine.limits import RATE_TIERS
from gateway.config import Settings
from gateway.ratelimit import MemoryRateLimiter
from gateway.services import Services
from storage import accounts
from tests.support.server import running_service

CHECKS = (
    "not_a_server_error,status_code_conformance,content_type_conformance,"
    "response_headers_conformance,response_schema_conformance"
)
# The run's budget, by count so that every run sends the same cases whatever the machine's speed: the
# coverage phase whole (the schema's boundary and invalid values for every operation, about 4,800 cases),
# then generated cases per operation and stateful scenarios. A 60-second run at 9 requests a second (the
# high tier's 600 a minute) sent about 440: 364 of the coverage phase's (317 of them on 2 operations), 1 to
# 5 generated cases an operation, 6 scenarios.
BUDGET = """
[phases.fuzzing.generation]
max-examples = 5

[phases.stateful.generation]
max-examples = 32
"""
SEED = "20261124"
# Seconds before a hung run is stopped: it takes about 40 s of CPU, 100 s on a machine loaded 7.
RUN_LIMIT = 600


def windows_of_their_own(_app: QuartTrio, services: Services) -> None:
    """Count each request in a rate window of its own: the fuzz run is about answers, not the tier's limit
    (tests/gateway/test_envelope.py holds that), and schemathesis then sends at full speed with no 429."""
    ticks = itertools.count(step=RATE_TIERS["high"][1])
    services.limiter = MemoryRateLimiter(clock=lambda: next(ticks))


def schemathesis() -> str:
    found = shutil.which("st") or str(Path(sys.executable).parent / "st")
    assert Path(found).exists(), "schemathesis is a test dependency (pip install -e '.[test]')"
    return found


async def test_every_answer_conforms_to_the_published_document(settings: Settings, tmp_path: Path) -> None:
    budget = tmp_path / "schemathesis.toml"
    budget.write_text(BUDGET)
    quiet = settings.model_copy(update={"log_level": "warning"})
    async with running_service(quiet, customize=windows_of_their_own) as service:
        db = service.services.db
        tenant = await db.run(accounts.ensure_tenant, "fuzz", "high")
        key, _ = await db.run(accounts.create_key, tenant, ("plan", "agents"))
        await db.run(accounts.grant_credits, tenant.id, 10_000_000, "fuzzing")
        command = [
            schemathesis(),
            "--config-file",
            str(budget),
            "run",
            f"{service.api}/openapi.json",
            "--header",
            f"Authorization: Bearer {key}",
            "--checks",
            CHECKS,
            "--workers",
            "2",
            "--phases",
            "examples,coverage,fuzzing,stateful",
            "--seed",
            SEED,
            "--continue-on-failure",
            "--no-color",
        ]
        with trio.fail_after(RUN_LIMIT):
            done = await trio.run_process(command, capture_stdout=True, capture_stderr=True, check=False)
    report = done.stdout.decode(errors="replace")
    assert done.returncode == 0, report[-6000:] + done.stderr.decode(errors="replace")[-2000:]
    assert "generated" in report
