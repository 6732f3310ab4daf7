"""send_once against real local HTTPS receivers (test CA, ephemeral loopback port, injected resolver)."""

from __future__ import annotations

import hashlib
import hmac
import ssl
from pathlib import Path

import pytest
import trio
import trio.testing
import trustme

from tests.webhooks.receiver import Received, Reply, answer, hang, start_receiver
from watchers.webhooks import (
    AllowedNetworks,
    StaticResolver,
    send_once,
    verify_signature,
)

HOST = "receiver.test"
LOOPBACK_ALLOWED = AllowedNetworks.parse(["127.0.0.0/8"])
SECRET = "whsec_c2VuZGVyLXRlc3Qtc2VjcmV0LWtleS0zMmJ5dGVz"
EVENT_ID = "evt_01JD0000000000000000000000"
BODY = b'{"id":"evt_01JD0000000000000000000000","type":"agent.test"}'
LOOPBACK_RESOLVER = StaticResolver({HOST: ["127.0.0.1"]})
SENT_AT = 1_767_225_600  # the wall clock the sender signs with in these tests


async def deliver(url: str, context: ssl.SSLContext, **overrides: object):
    options: dict[str, object] = {
        "resolver": LOOPBACK_RESOLVER,
        "allow_networks": LOOPBACK_ALLOWED,
        "ssl_context": context,
        "wall_clock": lambda: float(SENT_AT),
    }
    options.update(overrides)
    return await send_once(url, EVENT_ID, BODY, SECRET, **options)  # type: ignore[arg-type]


async def test_2xx_answer_is_delivered_with_signed_headers_sni_and_host(
    ca: trustme.CA, client_context: ssl.SSLContext
) -> None:
    async with trio.open_nursery() as nursery:
        receiver = await start_receiver(nursery, ca, HOST, answer(200, b"thanks"))
        attempt = await deliver(receiver.url(HOST), client_context)
        nursery.cancel_scope.cancel()
    assert attempt.outcome == "delivered"
    assert attempt.status_code == 200
    assert attempt.error is None and attempt.failure is None
    assert attempt.response_body == "thanks"
    assert attempt.address == "127.0.0.1"
    assert attempt.latency_ms >= 0
    [request] = receiver.requests
    assert request.method == "POST"
    assert request.target == "/hook"
    assert request.body == BODY
    assert request.headers["host"] == f"{HOST}:{receiver.port}"
    assert request.headers["content-type"] == "application/json"
    assert request.headers["x-service-event-id"] == EVENT_ID
    assert request.headers["user-agent"].startswith("intentgate")
    assert receiver.server_names == [HOST]
    signature = request.headers["x-service-signature"]
    expected = hmac.new(SECRET.encode(), f"{SENT_AT}.".encode() + BODY, hashlib.sha256).hexdigest()
    assert signature == f"t={SENT_AT},v1={expected}"
    verify_signature(SECRET, signature, request.body, now=SENT_AT)


async def test_any_2xx_status_counts_as_delivered(ca: trustme.CA, client_context: ssl.SSLContext) -> None:
    async with trio.open_nursery() as nursery:
        receiver = await start_receiver(nursery, ca, HOST, answer(204))
        attempt = await deliver(receiver.url(HOST), client_context)
        nursery.cancel_scope.cancel()
    assert attempt.outcome == "delivered"
    assert attempt.status_code == 204


async def test_500_answer_is_a_failed_attempt_keeping_the_status_and_body(
    ca: trustme.CA, client_context: ssl.SSLContext
) -> None:
    async with trio.open_nursery() as nursery:
        receiver = await start_receiver(nursery, ca, HOST, answer(500, b"boom"))
        attempt = await deliver(receiver.url(HOST), client_context)
        nursery.cancel_scope.cancel()
    assert attempt.outcome == "failed"
    assert attempt.status_code == 500
    assert attempt.failure == "http_status"
    assert "500" in (attempt.error or "")
    assert attempt.response_body == "boom"


async def test_large_response_body_is_truncated_to_one_kibibyte(
    ca: trustme.CA, client_context: ssl.SSLContext
) -> None:
    async with trio.open_nursery() as nursery:
        receiver = await start_receiver(nursery, ca, HOST, answer(200, b"x" * 200_000))
        attempt = await deliver(receiver.url(HOST), client_context)
        nursery.cancel_scope.cancel()
    assert attempt.outcome == "delivered"
    assert attempt.response_body == "x" * 1024


@pytest.mark.parametrize("status", [301, 302, 303, 307, 308])
async def test_redirect_is_never_followed_and_fails_the_attempt(
    status: int, ca: trustme.CA, client_context: ssl.SSLContext
) -> None:
    async with trio.open_nursery() as nursery:
        receiver = await start_receiver(
            nursery, ca, HOST, answer(status, headers=(("location", "/elsewhere"),))
        )
        attempt = await deliver(receiver.url(HOST), client_context)
        nursery.cancel_scope.cancel()
    assert attempt.outcome == "failed"
    assert attempt.status_code == status
    assert attempt.failure == "redirect"
    assert "redirect" in (attempt.error or "") and "/elsewhere" in (attempt.error or "")
    assert [request.target for request in receiver.requests] == ["/hook"]
    assert receiver.connections == 1


async def test_receiver_that_hangs_fails_at_the_deadline_on_virtual_time(
    ca: trustme.CA, client_context: ssl.SSLContext, autojump_clock: trio.testing.MockClock
) -> None:
    async with trio.open_nursery() as nursery:
        receiver = await start_receiver(nursery, ca, HOST, hang)
        started = trio.current_time()
        attempt = await deliver(receiver.url(HOST), client_context)
        elapsed = trio.current_time() - started
        nursery.cancel_scope.cancel()
    assert attempt.outcome == "failed"
    assert attempt.failure == "timeout"
    assert attempt.status_code is None
    assert "within 10 s" in (attempt.error or "")
    assert attempt.latency_ms == 10_000
    assert elapsed == pytest.approx(10.0)


async def test_per_attempt_deadline_comes_from_the_caller(
    ca: trustme.CA, client_context: ssl.SSLContext, autojump_clock: trio.testing.MockClock
) -> None:
    async with trio.open_nursery() as nursery:
        receiver = await start_receiver(nursery, ca, HOST, hang)
        attempt = await deliver(receiver.url(HOST), client_context, timeout=3.0)
        nursery.cancel_scope.cancel()
    assert attempt.failure == "timeout"
    assert attempt.latency_ms == 3_000


async def test_slow_answer_after_the_deadline_is_a_timeout_not_a_delivery(
    ca: trustme.CA, client_context: ssl.SSLContext, autojump_clock: trio.testing.MockClock
) -> None:
    async def slow(_received: Received) -> Reply:
        await trio.sleep(11)
        return Reply(200)

    async with trio.open_nursery() as nursery:
        receiver = await start_receiver(nursery, ca, HOST, slow)
        attempt = await deliver(receiver.url(HOST), client_context)
        nursery.cancel_scope.cancel()
    assert attempt.outcome == "failed"
    assert attempt.failure == "timeout"


async def test_certificate_for_another_hostname_is_rejected(
    ca: trustme.CA, client_context: ssl.SSLContext
) -> None:
    async with trio.open_nursery() as nursery:
        receiver = await start_receiver(nursery, ca, "someone-else.test", answer(200))
        attempt = await deliver(receiver.url(HOST), client_context)
        nursery.cancel_scope.cancel()
    assert attempt.outcome == "failed"
    assert attempt.failure == "tls"
    assert "certificate" in (attempt.error or "").lower()
    assert HOST in (attempt.error or "")
    assert receiver.requests == []


async def test_certificate_from_an_untrusted_authority_is_rejected(
    ca: trustme.CA, client_context: ssl.SSLContext
) -> None:
    stranger = trustme.CA()
    async with trio.open_nursery() as nursery:
        receiver = await start_receiver(nursery, stranger, HOST, answer(200))
        attempt = await deliver(receiver.url(HOST), client_context)
        nursery.cancel_scope.cancel()
    assert attempt.failure == "tls"
    assert receiver.requests == []


async def test_context_that_skips_hostname_checks_is_refused(ca: trustme.CA) -> None:
    lax = ssl.create_default_context()
    ca.configure_trust(lax)
    lax.check_hostname = False
    with pytest.raises(ValueError, match="verifies certificates and hostnames"):
        await deliver("https://receiver.test/hook", lax)


async def test_connection_refused_at_first_address_falls_back_to_the_next_vetted_one(
    ca: trustme.CA, client_context: ssl.SSLContext
) -> None:
    async with trio.open_nursery() as nursery:
        receiver = await start_receiver(nursery, ca, HOST, answer(200))
        # Nothing listens on 127.0.0.2 (the receiver is bound to 127.0.0.1 only).
        resolver = StaticResolver({HOST: ["127.0.0.2", "127.0.0.1"]})
        attempt = await deliver(receiver.url(HOST), client_context, resolver=resolver)
        nursery.cancel_scope.cancel()
    assert attempt.outcome == "delivered"
    assert attempt.address == "127.0.0.1"


async def test_nothing_listening_is_a_connect_failure(client_context: ssl.SSLContext) -> None:
    # Bind then close a socket to learn a port that nothing listens on.
    sock = trio.socket.socket()
    await sock.bind(("127.0.0.1", 0))
    port = sock.getsockname()[1]
    sock.close()
    attempt = await deliver(f"https://{HOST}:{port}/hook", client_context)
    assert attempt.outcome == "failed"
    assert attempt.failure == "connect"
    assert "127.0.0.1" in (attempt.error or "")


async def test_ipv6_vetted_address_is_connected_to_with_the_hostname_kept(
    ca: trustme.CA, client_context: ssl.SSLContext
) -> None:
    async with trio.open_nursery() as nursery:
        try:
            receiver = await start_receiver(nursery, ca, HOST, answer(200), bind="::1")
        except OSError:
            pytest.skip("this machine has no IPv6 loopback")
        attempt = await deliver(
            receiver.url(HOST),
            client_context,
            resolver=StaticResolver({HOST: ["::1"]}),
            allow_networks=AllowedNetworks.parse(["::1/128"]),
        )
        nursery.cancel_scope.cancel()
    assert attempt.outcome == "delivered"
    assert attempt.address == "::1"
    assert receiver.requests[0].headers["host"] == f"{HOST}:{receiver.port}"
    assert receiver.server_names == [HOST]


async def test_2xx_status_in_time_is_delivered_even_if_the_body_stalls(
    ca: trustme.CA, client_context: ssl.SSLContext, autojump_clock: trio.testing.MockClock
) -> None:
    async def stall(_received: Received) -> Reply:
        return Reply(200, b"partial", stall_body=True)

    async with trio.open_nursery() as nursery:
        receiver = await start_receiver(nursery, ca, HOST, stall)
        attempt = await deliver(receiver.url(HOST), client_context)
        nursery.cancel_scope.cancel()
    assert attempt.outcome == "delivered"
    assert attempt.status_code == 200
    assert attempt.response_body == "partial"
    assert attempt.latency_ms == 10_000


async def test_ca_bundle_file_is_used_to_verify_the_receiver(ca: trustme.CA, tmp_path: Path) -> None:
    bundle = tmp_path / "ca.pem"
    ca.cert_pem.write_to_path(str(bundle))
    async with trio.open_nursery() as nursery:
        receiver = await start_receiver(nursery, ca, HOST, answer(200))
        attempt = await send_once(
            receiver.url(HOST),
            EVENT_ID,
            BODY,
            SECRET,
            resolver=LOOPBACK_RESOLVER,
            allow_networks=LOOPBACK_ALLOWED,
            ca_bundle=str(bundle),
        )
        nursery.cancel_scope.cancel()
    assert attempt.outcome == "delivered"


async def test_default_trust_store_does_not_trust_the_test_ca(ca: trustme.CA) -> None:
    async with trio.open_nursery() as nursery:
        receiver = await start_receiver(nursery, ca, HOST, answer(200))
        attempt = await send_once(
            receiver.url(HOST),
            EVENT_ID,
            BODY,
            SECRET,
            resolver=LOOPBACK_RESOLVER,
            allow_networks=LOOPBACK_ALLOWED,
        )
        nursery.cancel_scope.cancel()
    assert attempt.failure == "tls"
