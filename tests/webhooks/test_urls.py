"""The SSRF matrix at create time: every spelling of a non-public host is refused, public ones pass."""

from __future__ import annotations

import ipaddress
import socket
import sys

import pytest

from watchers.webhooks import AllowedNetworks, InvalidUrl, is_public_address, validate_endpoint_url
from watchers.webhooks.urls import parse_legacy_ipv4

REFUSED = [
    # Scheme, shape, userinfo, length.
    ("http://example.com/hook", "https://"),
    ("ftp://example.com/hook", "https://"),
    ("example.com/hook", "https://"),
    ("https:///hook", "no host"),
    ("https://user@example.com/hook", "user name"),
    ("https://user:secret@example.com/hook", "user name"),
    ("https://example.com/" + "a" * 2030, "2048"),
    ("https://exa mple.com/hook", "whitespace"),
    ("https://example.com\\@127.0.0.1/", "backslash"),
    ("https://example.com\t/hook", "whitespace"),
    ("https://example.com:0/hook", "port"),
    ("https://example.com:65536/hook", "port"),
    ("https://example.com:https/hook", "port"),
    ("https://%31%32%37.0.0.1/", "not a valid"),
    ("https://[::1/hook", ""),
    # IPv4 literals in the ranges the contract names, and the special-purpose registry.
    ("https://127.0.0.1/", "not a public address"),
    ("https://127.255.255.254/", "not a public address"),
    ("https://10.0.0.5/", "not a public address"),
    ("https://172.16.3.4/", "not a public address"),
    ("https://172.31.255.255/", "not a public address"),
    ("https://192.168.1.1/", "not a public address"),
    ("https://100.64.0.1/", "not a public address"),
    ("https://100.127.255.254/", "not a public address"),
    ("https://169.254.169.254/latest/meta-data/", "not a public address"),
    ("https://169.254.1.1/", "not a public address"),
    ("https://0.0.0.0/", "not a public address"),
    ("https://224.0.0.1/", "not a public address"),
    ("https://239.255.255.250/", "not a public address"),
    ("https://240.0.0.1/", "not a public address"),
    ("https://255.255.255.255/", "not a public address"),
    ("https://198.18.0.1/", "not a public address"),
    ("https://198.19.255.1/", "not a public address"),
    ("https://192.0.2.10/", "not a public address"),
    ("https://192.0.0.8/", "not a public address"),
    # Legacy inet_aton spellings of loopback, private and metadata addresses.
    ("https://2130706433/", "127.0.0.1"),
    ("https://0177.0.0.1/", "127.0.0.1"),
    ("https://0x7f.0.0.1/", "127.0.0.1"),
    ("https://0x7F.0x0.0x0.0x1/", "127.0.0.1"),
    ("https://0x7f000001/", "127.0.0.1"),
    ("https://017700000001/", "127.0.0.1"),
    ("https://127.1/", "127.0.0.1"),
    ("https://127.0.1/", "127.0.0.1"),
    ("https://10.1/", "10.0.0.1"),
    ("https://0/", "0.0.0.0"),
    ("https://0x/", "0.0.0.0"),
    ("https://2852039166/", "169.254.169.254"),
    ("https://0xa9.0xfe.0xa9.0xfe/", "169.254.169.254"),
    ("https://0251.0376.0251.0376/", "169.254.169.254"),
    ("https://169.254.43518/", "169.254.169.254"),
    ("https://127.0.0.1./", "127.0.0.1"),
    ("https://１２７。０.０.１/", "127.0.0.1"),
    ("https://256.0.0.1/", "out of range"),
    ("https://1.2.3.4.5/", "not a valid one"),
    ("https://0189.0.0.1/", "octal"),
    ("https://example.123/", "not a valid one"),
    # IPv6 literals.
    ("https://[::1]/", "not a public address"),
    ("https://[::]/", "not a public address"),
    ("https://[0:0:0:0:0:0:0:1]/", "not a public address"),
    ("https://[::ffff:127.0.0.1]/", "not a public address"),
    ("https://[::ffff:7f00:1]/", "not a public address"),
    ("https://[::ffff:169.254.169.254]/", "not a public address"),
    ("https://[::ffff:10.0.0.1]/", "not a public address"),
    ("https://[::127.0.0.1]/", "not a public address"),
    ("https://[::8.8.8.8]/", "not a public address"),
    ("https://[64:ff9b::10.0.0.1]/", "not a public address"),
    ("https://[64:ff9b::7f00:1]/", "not a public address"),
    ("https://[64:ff9b:1::8.8.8.8]/", "not a public address"),
    ("https://[2002:7f00:1::]/", "not a public address"),
    ("https://[2002:a9fe:a9fe::1]/", "not a public address"),
    ("https://[2002:c0a8:101::1]/", "not a public address"),
    ("https://[2001:0:4136:e378:8000:63bf:3fff:fdd2]/", "not a public address"),
    ("https://[2001:db8::1]/", "not a public address"),
    ("https://[3fff::1]/", "not a public address"),
    ("https://[fc00::1]/", "not a public address"),
    ("https://[fd00:ec2::254]/", "not a public address"),
    ("https://[fe80::1]/", "not a public address"),
    ("https://[fe80::1%25eth0]/", "zone id"),
    ("https://[2606:4700::1111%25eth0]/", "zone id"),
    ("https://[fec0::1]/", "not a public address"),
    ("https://[ff02::1]/", "not a public address"),
    ("https://[100::1]/", "not a public address"),
    # Local names.
    ("https://localhost/hook", "local name"),
    ("https://LOCALHOST/hook", "local name"),
    ("https://localhost./hook", "local name"),
    ("https://localhost:8443/hook", "local name"),
    ("https://api.localhost/hook", "local name"),
    ("https://printer.local/hook", "local name"),
    ("https://Printer.LOCAL./hook", "local name"),
    ("https://metadata.google.internal/computeMetadata/v1/", "local name"),
    ("https://svc.cluster.Internal/hook", "local name"),
    ("https://ｌｏｃａｌｈｏｓｔ/hook", "local name"),
    ("https://under_score..example.com/", "not a valid hostname"),
]

ACCEPTED = [
    ("https://example.com/hook", "https://example.com/hook"),
    ("https://example.com", "https://example.com/"),
    ("HTTPS://Example.COM:443/Hook?x=1#frag", "https://example.com/Hook?x=1"),
    ("https://hooks.example.com:8443/a/b", "https://hooks.example.com:8443/a/b"),
    ("https://example.com./hook", "https://example.com/hook"),
    ("https://localhost.example.com/hook", "https://localhost.example.com/hook"),
    ("https://internal.example.com/hook", "https://internal.example.com/hook"),
    ("https://my-local.dev/hook", "https://my-local.dev/hook"),
    ("https://bücher.example/hook", "https://xn--bcher-kva.example/hook"),
    ("https://8.8.8.8/hook", "https://8.8.8.8/hook"),
    ("https://134744072/hook", "https://8.8.8.8/hook"),
    ("https://0x08.0x08.0x08.0x08/hook", "https://8.8.8.8/hook"),
    ("https://100.128.0.1/", "https://100.128.0.1/"),
    ("https://172.32.0.1/", "https://172.32.0.1/"),
    ("https://[2606:4700:4700::1111]/hook", "https://[2606:4700:4700::1111]/hook"),
    ("https://[2606:4700:4700:0:0:0:0:1111]:8443/", "https://[2606:4700:4700::1111]:8443/"),
    ("https://[2002:808:808::1]/", "https://[2002:808:808::1]/"),
    ("https://[::ffff:8.8.8.8]/", "https://[::ffff:808:808]/"),
]


@pytest.mark.parametrize(("url", "reason"), REFUSED)
def test_create_refuses_non_public_or_malformed_url(url: str, reason: str) -> None:
    with pytest.raises(InvalidUrl) as caught:
        validate_endpoint_url(url)
    assert reason in caught.value.message
    assert caught.value.field == "url"


@pytest.mark.parametrize(("url", "normalized"), ACCEPTED)
def test_create_accepts_public_url_and_normalizes_it(url: str, normalized: str) -> None:
    assert validate_endpoint_url(url) == normalized


def test_normalized_url_is_stable_when_validated_again() -> None:
    for url, normalized in ACCEPTED:
        assert validate_endpoint_url(normalized) == normalized, url


def test_url_of_exactly_2048_characters_is_accepted() -> None:
    url = "https://example.com/" + "a" * (2048 - len("https://example.com/"))
    assert validate_endpoint_url(url) == url


def test_operator_allowance_exempts_only_the_listed_networks() -> None:
    allowed = AllowedNetworks.parse(["127.0.0.0/8"])
    assert (
        validate_endpoint_url("https://127.0.0.1:9000/", allow_networks=allowed) == "https://127.0.0.1:9000/"
    )
    with pytest.raises(InvalidUrl):
        validate_endpoint_url("https://10.0.0.1/", allow_networks=allowed)
    with pytest.raises(InvalidUrl):
        validate_endpoint_url("https://api.localhost/", allow_networks=allowed)


def test_allowance_rejects_a_malformed_network() -> None:
    with pytest.raises(ValueError):
        AllowedNetworks.parse(["127.0.0.1/8"])


LEGACY_SPELLINGS = [
    "2130706433",
    "0177.0.0.1",
    "0x7f.0.0.1",
    "0x7f000001",
    "017700000001",
    "127.1",
    "127.0.1",
    "10.1",
    "0",
    "0xa9.0xfe.0xa9.0xfe",
    "169.254.43518",
    "1.2.3.4",
    "0x08080808",
]


@pytest.mark.parametrize("spelling", LEGACY_SPELLINGS)
@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="glibc inet_aton is the reference")
def test_legacy_ipv4_parser_agrees_with_inet_aton(spelling: str) -> None:
    expected = ipaddress.IPv4Address(socket.inet_aton(spelling))
    assert parse_legacy_ipv4(spelling) == expected


@pytest.mark.parametrize(
    ("address", "public"),
    [
        ("8.8.8.8", True),
        ("1.1.1.1", True),
        ("127.0.0.1", False),
        ("169.254.169.254", False),
        ("100.64.0.1", False),
        ("2606:4700:4700::1111", True),
        ("::ffff:8.8.8.8", True),
        ("::ffff:127.0.0.1", False),
        ("64:ff9b::8.8.8.8", True),
        ("64:ff9b::a9fe:a9fe", False),
        ("2002:808:808::1", True),
        ("2002:7f00:1::1", False),
        ("2001::1", False),
        ("fd00:ec2::254", False),
        ("fe80::1%eth0", False),
    ],
)
def test_is_public_address_judges_embedded_ipv4(address: str, public: bool) -> None:
    assert is_public_address(ipaddress.ip_address(address)) is public
