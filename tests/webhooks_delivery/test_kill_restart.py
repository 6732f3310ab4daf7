"""At-least-once across a crash: a worker process killed (SIGKILL) while its attempt is in flight leaves
the delivery leased; after the lease expires a restarted worker sends it again with the same event id,
signed with the same secret (the master key file made on first start is reused)."""

from __future__ import annotations

import json
import signal
import sys
import time
from pathlib import Path

import sqlalchemy as sa
import trio
import trustme

from storage import Database, accounts, sqlalchemy_url
from storage import events as event_store
from storage import webhooks as repo
from storage.schema import deliveries
from tests.webhooks.receiver import Received, Reply, start_receiver
from tests.webhooks_delivery.support import independent_check
from watchers.outbox import MASTER_KEY_FILENAME
from watchers.webhooks import derive_signing_secret, secret_hash

HOST = "hooks.partner.test"
ROOT = Path(__file__).resolve().parents[2]
# Short pacing so the test waits seconds, not minutes: the lease must outlast the attempt by 5 s.
TIMEOUT_S, LEASE_S = 1.0, 6.0


def write_config(data_dir: Path, ca_bundle: str) -> Path:
    path = data_dir.parent / "worker.toml"
    path.write_text(
        "\n".join(
            [
                'role = "workers"',
                'log_format = "text"',
                "delivery_tick_s = 0.1",
                f"delivery_lease_s = {LEASE_S}",
                f"webhook_timeout_s = {TIMEOUT_S}",
                'webhook_allow_networks = ["127.0.0.0/8"]',
                f"webhook_ca_bundle = {json.dumps(ca_bundle)}",
                "[webhook_static_hosts]",
                f'"{HOST}" = "127.0.0.1"',
            ]
        )
        + "\n"
    )
    return path


async def start_worker(data_dir: Path, config: Path, log: Path) -> trio.Process:
    command = [sys.executable, "-m", "gateway", "serve", "--data-dir", str(data_dir), "--config", str(config)]
    with log.open("ab") as out:
        return await trio.lowlevel.open_process(command, cwd=ROOT, stdout=out, stderr=out)


async def wait_for_file(path: Path) -> None:
    with trio.fail_after(60):  # a cold interpreter on a loaded 2-core machine imports slowly
        while not await trio.Path(path).exists():  # noqa: ASYNC110 - made by another process
            await trio.sleep(0.05)


def delivery_row(db: Database) -> sa.Row:
    return db.transaction(lambda conn: conn.execute(sa.select(deliveries)).one())


async def test_attempt_in_flight_when_the_worker_is_killed_is_sent_again_after_restart(
    tmp_path: Path, ca: trustme.CA, ca_bundle: str
) -> None:
    data_dir = tmp_path / "data"
    data_dir.mkdir()
    config = write_config(data_dir, ca_bundle)
    log = tmp_path / "worker.log"
    db = Database(sqlalchemy_url(None, data_dir))
    db.upgrade()
    tenant = db.transaction(accounts.ensure_tenant, "acme", None)
    first_arrived, second_arrived = trio.Event(), trio.Event()
    arrivals: list[float] = []

    async def receive(_received: Received) -> Reply:
        arrivals.append(time.time())
        if not first_arrived.is_set():
            first_arrived.set()
            await trio.sleep_forever()  # the worker dies while waiting for this answer
        second_arrived.set()
        return Reply(200)

    async with trio.open_nursery() as nursery:
        receiver = await start_receiver(nursery, ca, HOST, receive)
        first = await start_worker(data_dir, config, log)
        try:
            await wait_for_file(data_dir / MASTER_KEY_FILENAME)
            master_key = (data_dir / MASTER_KEY_FILENAME).read_text().strip().encode()
            endpoint_id, salt = "we_01JD5ZR0000000000000000000", b"\x07" * 32
            secret = derive_signing_secret(master_key, endpoint_id, salt)
            db.transaction(
                repo.create_endpoint,
                tenant.id,
                endpoint_id,
                receiver.url(HOST),
                secret_hash(secret),
                salt.hex(),
                0,
                5,
            )
            event = event_store.Event(
                id=event_store.new_event_id(),
                tenant_id=tenant.id,
                agent_id="w_alert_01JD5ZQ4J8Y7T6R5E4W3Q2P1N0",
                agent_kind="price",
                type="agent.test",
                trigger={"headline": "Test event", "kind": "price", "condition": "above", "threshold": 0},
                created_at=int(time.time() * 1000),
            )
            db.transaction(lambda conn: event_store.record_event(conn, event, deliver_at=0))
            with trio.fail_after(60):
                await first_arrived.wait()
            first.send_signal(signal.SIGKILL)
            await first.wait()
        finally:
            if first.returncode is None:
                first.kill()
        in_flight = delivery_row(db)
        assert (in_flight.state, in_flight.attempts) == ("queued", 0)
        assert in_flight.lease_owner is not None and in_flight.lease_until is not None
        assert db.transaction(lambda conn: repo.list_attempts(conn, tenant.id, endpoint_id, 10)) == []

        second = await start_worker(data_dir, config, log)
        try:
            with trio.fail_after(60):
                await second_arrived.wait()
                while delivery_row(db).state != "delivered":  # noqa: ASYNC110 - written by the other process
                    await trio.sleep(0.05)
        finally:
            second.send_signal(signal.SIGTERM)
            with trio.move_on_after(20):
                await second.wait()
            if second.returncode is None:
                second.kill()
        nursery.cancel_scope.cancel()
    db.dispose()
    assert first.returncode == -signal.SIGKILL
    # Not before the dead worker's lease ran out, then once, with the same event id and a valid signature.
    assert arrivals[1] >= in_flight.lease_until / 1000 - 0.05
    assert len(receiver.requests) == 2
    for request in receiver.requests:
        assert request.headers["x-service-event-id"] == event.id
        assert json.loads(request.body)["id"] == event.id
        independent_check(secret, request.headers["x-service-signature"], request.body)
    done = delivery_row(db)
    assert (done.state, done.attempts, done.lease_owner) == ("delivered", 1, None)
    [attempt] = db.transaction(lambda conn: repo.list_attempts(conn, tenant.id, endpoint_id, 10))
    assert (attempt.attempt, attempt.outcome, attempt.status_code) == (1, "delivered", 200)
