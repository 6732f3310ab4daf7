"""A rotated signing secret, through the real outbox to a local HTTPS receiver on virtual time: during the
overlap each delivery carries one `v1=` per secret and verifies with either; once the overlap ends, or
when the rotation asked for none, only the new secret signs, even right after a send cached the old one."""

from __future__ import annotations

import hashlib
import hmac
import re
import secrets

import trio
import trio.testing
import trustme

from storage import Database
from storage import webhooks as repo
from tests.webhooks.receiver import answer, start_receiver
from tests.webhooks_delivery.support import MASTER_KEY, World, make_outbox, make_world, wall_ms
from tests.webhooks_delivery.test_outbox_delivery import RESOLVER, until
from watchers.webhooks import derive_signing_secret, secret_hash

HOST = "hooks.receiver.test"
HOUR_MS = 3_600_000


def rotate(world: World, endpoint_id: str, previous_until: int | None) -> str:
    """Rotate the endpoint's secret as the API does (a fresh salt); returns the new secret."""
    salt = secrets.token_bytes(32)
    secret = derive_signing_secret(MASTER_KEY, endpoint_id, salt)
    rotated = world.db.transaction(
        repo.rotate_secret, world.tenant_id, endpoint_id, secret_hash(secret), salt.hex(), previous_until
    )
    assert rotated is not None
    return secret


def signed_by(header: str, body: bytes, secret: str) -> bool:
    """Whether any v1 entry of the header is the HMAC of `t.body` under `secret` (the contract's text)."""
    timestamp = re.search(r"t=(\d+)", header)
    assert timestamp, header
    expected = hmac.new(
        secret.encode(), timestamp.group(1).encode() + b"." + body, hashlib.sha256
    ).hexdigest()
    return any(hmac.compare_digest(expected, v1) for v1 in re.findall(r"v1=([0-9a-f]{64})", header))


async def test_rotation_signs_with_both_secrets_until_the_overlap_ends_then_with_the_new_one(
    db: Database, ca: trustme.CA, ca_bundle: str, autojump_clock: trio.testing.MockClock
) -> None:
    world = make_world(db)
    async with trio.open_nursery() as nursery:
        receiver = await start_receiver(nursery, ca, HOST, answer(200, b"ok"))
        endpoint_id, old = world.endpoint(receiver.url(HOST))
        await nursery.start(make_outbox(db, RESOLVER, ca_bundle=ca_bundle, tick_s=30.0).run)
        world.event()
        await until(lambda: len(receiver.requests) == 1)
        new = rotate(world, endpoint_id, wall_ms() + HOUR_MS)
        world.event()
        await until(lambda: len(receiver.requests) == 2)
        await trio.sleep(HOUR_MS / 1000 + 1)
        world.event()
        await until(lambda: len(receiver.requests) == 3)
        newest = rotate(world, endpoint_id, None)
        world.event()
        await until(lambda: len(receiver.requests) == 4)
        nursery.cancel_scope.cancel()
    before, during, after, immediate = receiver.requests
    sig = "x-service-signature"
    assert before.headers[sig].count("v1=") == 1 and signed_by(before.headers[sig], before.body, old)
    assert during.headers[sig].count("v1=") == 2
    assert signed_by(during.headers[sig], during.body, new) and signed_by(
        during.headers[sig], during.body, old
    )
    assert after.headers[sig].count("v1=") == 1
    assert signed_by(after.headers[sig], after.body, new) and not signed_by(
        after.headers[sig], after.body, old
    )
    assert immediate.headers[sig].count("v1=") == 1
    assert signed_by(immediate.headers[sig], immediate.body, newest)
    assert not signed_by(immediate.headers[sig], immediate.body, new)
    row = world.endpoint_row(endpoint_id)
    assert (
        row.previous_salt is None
        and row.previous_expires_at is None
        and row.secret_hash == secret_hash(newest)
    )


async def test_rotating_an_unknown_deleted_or_foreign_endpoint_changes_nothing(db: Database) -> None:
    world = make_world(db)
    endpoint_id, secret = world.endpoint("https://hooks.receiver.test/a")
    assert db.transaction(repo.rotate_secret, "ten_other", endpoint_id, "0" * 64, "00", None) is None
    assert world.endpoint_row(endpoint_id).secret_hash == secret_hash(secret)
    db.transaction(repo.delete_endpoint, world.tenant_id, endpoint_id, wall_ms())
    assert db.transaction(repo.rotate_secret, world.tenant_id, endpoint_id, "0" * 64, "00", None) is None
    assert db.transaction(repo.rotate_secret, world.tenant_id, "we_nope", "0" * 64, "00", None) is None
    assert world.endpoint_row(endpoint_id).secret_hash == secret_hash(secret)
