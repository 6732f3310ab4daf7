"""The SSRF matrix at send time: a host is re-resolved and every address vetted before any connection."""

from __future__ import annotations

import ssl

import pytest
import trio
import trio.testing
import trustme

from tests.webhooks.receiver import answer, start_receiver
from watchers.webhooks import (
    AllowedNetworks,
    ResolveError,
    StaticResolver,
    SystemResolver,
    send_once,
)
from watchers.webhooks.addresses import IPAddress

SECRET = "whsec_cmVmdXNhbC10ZXN0LXNlY3JldA"
BODY = b'{"id":"evt_1","type":"agent.test"}'
LOOPBACK_ALLOWED = AllowedNetworks.parse(["127.0.0.0/8"])


class RecordingResolver:
    """Answers from a table and remembers what it was asked."""

    def __init__(self, table: dict[str, list[str]]) -> None:
        self.inner = StaticResolver(table)
        self.asked: list[tuple[str, int]] = []

    async def resolve(self, host: str, port: int) -> list[IPAddress]:
        self.asked.append((host, port))
        return await self.inner.resolve(host, port)


@pytest.mark.parametrize(
    "addresses",
    [
        ["127.0.0.1"],
        ["10.0.0.7"],
        ["169.254.169.254"],
        ["100.64.1.1"],
        ["::1"],
        ["::ffff:127.0.0.1"],
        ["fd00:ec2::254"],
        ["fe80::1%2"],
        ["64:ff9b::a00:1"],
        ["2002:7f00:1::1"],
        ["93.184.215.14", "10.0.0.1"],
        ["2606:2800:21f:cb07:6820:80da:af6b:8b2c", "::1"],
    ],
)
async def test_public_looking_host_resolving_to_a_non_public_address_is_refused(
    addresses: list[str], client_context: ssl.SSLContext
) -> None:
    resolver = RecordingResolver({"hooks.example.com": addresses})
    attempt = await send_once(
        "https://hooks.example.com/hook",
        "evt_1",
        BODY,
        SECRET,
        resolver=resolver,
        ssl_context=client_context,
    )
    assert attempt.outcome == "failed"
    assert attempt.failure == "refused_address"
    assert "no connection was made" in (attempt.error or "")
    assert attempt.address is None
    assert resolver.asked == [("hooks.example.com", 443)]


async def test_refused_mix_makes_no_connection_even_to_the_allowed_address(
    ca: trustme.CA, client_context: ssl.SSLContext
) -> None:
    async with trio.open_nursery() as nursery:
        receiver = await start_receiver(nursery, ca, "receiver.test", answer(200))
        resolver = StaticResolver({"receiver.test": ["127.0.0.1", "10.0.0.1"]})
        attempt = await send_once(
            receiver.url("receiver.test"),
            "evt_1",
            BODY,
            SECRET,
            resolver=resolver,
            allow_networks=LOOPBACK_ALLOWED,
            ssl_context=client_context,
        )
        await trio.testing.wait_all_tasks_blocked()
        nursery.cancel_scope.cancel()
    assert attempt.failure == "refused_address"
    assert "10.0.0.1" in (attempt.error or "")
    assert "127.0.0.1" not in (attempt.error or "")
    assert receiver.connections == 0


async def test_loopback_receiver_is_refused_without_the_operator_allowance(
    ca: trustme.CA, client_context: ssl.SSLContext
) -> None:
    async with trio.open_nursery() as nursery:
        receiver = await start_receiver(nursery, ca, "receiver.test", answer(200))
        attempt = await send_once(
            receiver.url("receiver.test"),
            "evt_1",
            BODY,
            SECRET,
            resolver=StaticResolver({"receiver.test": ["127.0.0.1"]}),
            ssl_context=client_context,
        )
        await trio.testing.wait_all_tasks_blocked()
        nursery.cancel_scope.cancel()
    assert attempt.failure == "refused_address"
    assert receiver.connections == 0


@pytest.mark.parametrize(
    "url",
    ["https://127.0.0.1/hook", "https://0x7f.1/hook", "https://[::ffff:a9fe:a9fe]/", "https://svc.internal/"],
)
async def test_stored_url_failing_the_rules_is_refused_at_send_without_resolving(
    url: str, client_context: ssl.SSLContext
) -> None:
    resolver = RecordingResolver({})
    attempt = await send_once(url, "evt_1", BODY, SECRET, resolver=resolver, ssl_context=client_context)
    assert attempt.failure == "invalid_url"
    assert resolver.asked == []


async def test_unresolvable_host_is_a_failed_attempt(client_context: ssl.SSLContext) -> None:
    attempt = await send_once(
        "https://nowhere.example/hook",
        "evt_1",
        BODY,
        SECRET,
        resolver=StaticResolver({}),
        ssl_context=client_context,
    )
    assert attempt.outcome == "failed"
    assert attempt.failure == "resolve"
    assert "nowhere.example" in (attempt.error or "")


async def test_public_ip_literal_is_vetted_without_the_resolver(client_context: ssl.SSLContext) -> None:
    resolver = RecordingResolver({})
    allowed = AllowedNetworks.parse(["127.0.0.0/8"])
    # 127.0.0.1 is allowed here so the attempt gets as far as connecting; port 1 has no listener.
    attempt = await send_once(
        "https://127.0.0.1:1/hook",
        "evt_1",
        BODY,
        SECRET,
        resolver=resolver,
        allow_networks=allowed,
        ssl_context=client_context,
    )
    assert resolver.asked == []
    assert attempt.failure == "connect"


async def test_system_resolver_answers_numeric_hosts_without_dns() -> None:
    resolver = SystemResolver(timeout=5)
    assert [str(a) for a in await resolver.resolve("127.0.0.1", 443)] == ["127.0.0.1"]
    assert [str(a) for a in await resolver.resolve("::1", 443)] == ["::1"]


async def test_static_resolver_ignores_case_and_trailing_dot_and_refuses_unknown_names() -> None:
    resolver = StaticResolver({"Receiver.Test": ["127.0.0.1"]})
    assert [str(a) for a in await resolver.resolve("receiver.test.", 443)] == ["127.0.0.1"]
    with pytest.raises(ResolveError):
        await resolver.resolve("other.test", 443)
