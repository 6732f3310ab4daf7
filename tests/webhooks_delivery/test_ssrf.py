"""Server-side request forgery defence, with the operator allowance off: the create route refuses every
spelling of a non-public host, and at send time a name that resolves to any non-public address is
refused before any connection (so DNS rebinding after create reaches nothing)."""

from __future__ import annotations

import pytest
import trio
import trio.testing
import trustme

from gateway.config import Settings
from storage import Database
from tests.gateway.test_envelope import make_key
from tests.support.server import running_service
from tests.webhooks.receiver import answer, start_receiver
from tests.webhooks_delivery.support import make_outbox, make_world
from watchers.webhooks import NO_ALLOWANCE, StaticResolver

# URL -> why it is refused at create (contract: POST /webhook-endpoints URL rules).
REFUSED_AT_CREATE: dict[str, str] = {
    "http://hooks.example.com/": "plain http",
    "ftp://hooks.example.com/": "another scheme",
    "https://127.0.0.1/": "loopback",
    "https://127.1/": "short IPv4 form of loopback",
    "https://2130706433/": "decimal loopback",
    "https://0177.0.0.1/": "octal loopback",
    "https://0x7f.0.0.1/": "hex loopback",
    "https://0x7f000001/": "single hex number loopback",
    "https://10.0.0.1/": "private 10/8",
    "https://10.1/": "short private",
    "https://172.16.0.1/": "private 172.16/12",
    "https://192.168.1.1/": "private 192.168/16",
    "https://169.254.169.254/latest/meta-data/": "cloud metadata address",
    "https://0xa9fea9fe/": "metadata address in hex",
    "https://100.64.0.1/": "carrier-grade NAT",
    "https://0.0.0.0/": "unspecified",
    "https://224.0.0.1/": "multicast",
    "https://255.255.255.255/": "broadcast",
    "https://198.18.0.1/": "benchmarking",
    "https://[::1]/": "IPv6 loopback",
    "https://[::]/": "IPv6 unspecified",
    "https://[::ffff:127.0.0.1]/": "IPv4-mapped loopback",
    "https://[::ffff:a9fe:a9fe]/": "IPv4-mapped metadata address",
    "https://[64:ff9b::7f00:1]/": "NAT64 of loopback",
    "https://[64:ff9b::a9fe:a9fe]/": "NAT64 of the metadata address",
    "https://[2002:7f00:1::]/": "6to4 of loopback",
    "https://[2002:c0a8:101::1]/": "6to4 of a private address",
    "https://[fc00::1]/": "unique local",
    "https://[fd00:ec2::254]/": "IPv6 metadata address",
    "https://[fe80::1]/": "IPv6 link-local",
    "https://[fe80::1%25eth0]/": "zone id",
    "https://localhost/": "localhost",
    "https://LOCALHOST./": "localhost, upper case with a trailing dot",
    "https://api.localhost/": "*.localhost",
    "https://printer.local/": "*.local",
    "https://metadata.google.internal/": "*.internal",
    "https://１２７.０.０.１/": "full-width digits mapped to loopback",
    "https://user:secret@hooks.example.com/": "credentials in the URL",
    "https://hooks.example.com\\@127.0.0.1/": "backslash parser confusion",
    "https:///hook": "no host",
    "https://hooks.example.com/" + "a" * 2030: "longer than 2048 characters",
}

# Address answers at send time for a name that passed the create rules.
REFUSED_AT_SEND: dict[str, list[str]] = {
    "loopback": ["127.0.0.1"],
    "loopback elsewhere in 127/8": ["127.0.0.53"],
    "private 10/8": ["10.0.0.5"],
    "private 172.16/12": ["172.31.255.255"],
    "private 192.168/16": ["192.168.0.10"],
    "cloud metadata": ["169.254.169.254"],
    "carrier-grade NAT metadata": ["100.100.100.200"],
    "unspecified": ["0.0.0.0"],
    "multicast": ["224.0.0.251"],
    "reserved": ["240.0.0.1"],
    "IPv6 loopback": ["::1"],
    "IPv4-mapped loopback": ["::ffff:127.0.0.1"],
    "NAT64 metadata": ["64:ff9b::a9fe:a9fe"],
    "6to4 private": ["2002:c0a8:1::1"],
    "unique local metadata": ["fd00:ec2::254"],
    "link-local": ["fe80::1"],
    "one private among public answers": ["2606:4700::1111", "127.0.0.1"],
}


async def test_create_refuses_every_non_public_spelling_with_invalid_url(settings: Settings) -> None:
    wrong: list[str] = []
    async with (
        running_service(settings) as svc,
        svc.client(make_key(svc.services, "ssrf", tier="high")) as client,
    ):
        for url, why in REFUSED_AT_CREATE.items():
            response = await client.post("/webhook-endpoints", json={"url": url})
            body = response.json()
            if response.status_code != 400 or body.get("error") != "invalid_url":
                wrong.append(f"{why}: {url[:60]} -> {response.status_code} {body}")
            elif [issue["field"] for issue in body["issues"]] != ["url"]:
                wrong.append(f"{why}: issues {body['issues']}")
        listed = (await client.get("/webhook-endpoints")).json()
    assert wrong == []
    assert listed == {"endpoints": []}
    assert len(REFUSED_AT_CREATE) >= 40


@pytest.mark.parametrize("case", list(REFUSED_AT_SEND))
async def test_send_refuses_a_name_resolving_to_a_non_public_address_without_connecting(
    case: str, db: Database, ca: trustme.CA, ca_bundle: str, autojump_clock: trio.testing.MockClock
) -> None:
    host = "rebinding.example.com"  # passes the create rules; DNS now answers something else
    world = make_world(db)
    async with trio.open_nursery() as nursery:
        receiver = await start_receiver(nursery, ca, host, answer(200))
        world.endpoint(receiver.url(host))
        world.event()
        resolver = StaticResolver({host: REFUSED_AT_SEND[case]})
        outbox = make_outbox(db, resolver, allow=NO_ALLOWANCE, ca_bundle=ca_bundle)
        await nursery.start(outbox.run)
        with trio.fail_after(60):
            while not world.attempts():  # noqa: ASYNC110 - the store has no event to wait on
                await trio.sleep(0.1)
        nursery.cancel_scope.cancel()
    [attempt] = world.attempts()
    assert attempt.outcome == "failed" and attempt.status_code is None
    assert "not a public address" in attempt.error and "no connection was made" in attempt.error
    assert receiver.connections == 0
    [delivery] = world.deliveries()
    assert delivery.state == "queued" and delivery.next_attempt_at == attempt.at + 60_000
