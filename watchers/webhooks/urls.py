"""Webhook endpoint URL safety at create time (contract: POST /webhook-endpoints, URL rules).

``validate_endpoint_url`` accepts only ``https://`` URLs whose host is a public IP literal or a hostname that
is not a local name. A host is judged in every spelling a resolver accepts, because ``getaddrinfo`` hands
numeric hosts to ``inet_aton``, which reads ``2130706433``, ``0177.0.0.1``, ``0x7f.0.0.1`` and ``127.1`` as
``127.0.0.1``; and because an IDN host is mapped (UTS 46) before resolution, so ``１２７。０.０.１`` is read
the same way. The returned URL spells the host canonically, so what is stored is what was checked.
"""

from __future__ import annotations

import ipaddress
import re
import urllib.parse

import idna

from engine.limits import WEBHOOK_URL_MAX_CHARS
from watchers.webhooks.addresses import NO_ALLOWANCE, AllowedNetworks, IPAddress, is_deliverable

MAX_URL_LENGTH = WEBHOOK_URL_MAX_CHARS

# Contract URL rules: `localhost`, `*.localhost`, `*.local`, `*.internal` are refused.
BLOCKED_HOSTNAMES = frozenset({"localhost"})
BLOCKED_HOSTNAME_SUFFIXES = (".localhost", ".local", ".internal")

# RFC 1123 section 2.1 host name labels (letters, digits, hyphen), 1 to 63 octets each; the underscore is
# tolerated because DNS carries it in real names. RFC 1035 section 2.3.4: at most 253 octets in total.
_LABEL = re.compile(r"^[a-z0-9_](?:[a-z0-9_-]{0,61}[a-z0-9_])?$")
MAX_HOSTNAME_LENGTH = 253

# Characters never valid in a URL we store: whitespace and controls (urllib silently drops some of them),
# and the backslash that WHATWG parsers read as "/" (a parser differential that hides the real host).
_FORBIDDEN_CHARS = re.compile(r"[\x00-\x20\x7f\\]")

# A numeric part of a legacy IPv4 spelling: decimal, octal (leading 0) or hex (0x). Source: the inet_aton
# manual (glibc) and the WHATWG URL standard's IPv4 number parser, which accept the same three radixes.
_IPV4_NUMBER = re.compile(r"^(?:0[xX][0-9a-fA-F]*|[0-9]+)$")


class InvalidUrl(ValueError):
    """A webhook URL that fails the safety check; ``field`` and ``message`` feed the error envelope."""

    def __init__(self, message: str, field: str = "url") -> None:
        super().__init__(message)
        self.field = field
        self.message = message


def parse_legacy_ipv4(host: str) -> ipaddress.IPv4Address | None:
    """Read ``host`` the way ``inet_aton`` does, or return None when it is not a numeric host.

    One to four dot-separated numbers, each decimal, octal (leading ``0``) or hex (``0x``); the last number
    fills the remaining bytes (``127.1`` is ``127.0.0.1``, ``2130706433`` is ``127.0.0.1``). Raises
    InvalidUrl when the host is numeric but out of range, since no resolver reads it as a name either.
    """
    parts = host.split(".")
    if not parts[-1] or not _IPV4_NUMBER.match(parts[-1]):
        return None
    if len(parts) > 4 or not all(_IPV4_NUMBER.match(part) for part in parts):
        raise InvalidUrl(f"host {host!r} looks like an IPv4 address but is not a valid one")
    numbers = [_ipv4_number(part) for part in parts]
    # Every number but the last is one byte; the last fills the 4 - (n - 1) bytes left.
    last_bits = 8 * (5 - len(numbers))
    if any(number > 0xFF for number in numbers[:-1]) or numbers[-1] >= 1 << last_bits:
        raise InvalidUrl(f"host {host!r} looks like an IPv4 address but a part is out of range")
    value = numbers[-1]
    for index, number in enumerate(numbers[:-1]):
        value |= number << (24 - 8 * index)
    return ipaddress.IPv4Address(value)


def _ipv4_number(part: str) -> int:
    if part[:2].lower() == "0x":
        return int(part[2:] or "0", 16)
    if len(part) > 1 and part.startswith("0"):
        if not all(c in "01234567" for c in part):
            raise InvalidUrl(f"{part!r} is not a valid octal number in an IPv4 address")
        return int(part, 8)
    return int(part)


def parse_host(host: str) -> tuple[str, IPAddress | None]:
    """Normalize a URL host and classify it: ``(canonical host, IP address or None for a name)``.

    ``host`` is the text between ``//`` and the port, IPv6 literals still in brackets. Raises InvalidUrl
    for a malformed host, a zone id, or a name that is not a valid hostname.
    """
    if host.startswith("["):
        if not host.endswith("]"):
            raise InvalidUrl("IPv6 literal is missing its closing bracket")
        literal = host[1:-1]
        if "%" in literal:
            raise InvalidUrl("IPv6 zone ids are not allowed in a webhook URL")
        try:
            ip6 = ipaddress.IPv6Address(literal)
        except ValueError as exc:
            raise InvalidUrl(f"{literal!r} is not a valid IPv6 address") from exc
        return f"[{ip6.compressed}]", ip6
    if not host.isascii():
        try:
            host = idna.encode(host, uts46=True).decode("ascii")
        except idna.IDNAError as exc:
            raise InvalidUrl(f"host {host!r} is not a valid internationalized domain name") from exc
    name = host.lower()
    # A single trailing dot marks a fully qualified name; resolvers ignore it, and so do the rules.
    if name.endswith("."):
        name = name[:-1]
    if not name:
        raise InvalidUrl("the URL has no host")
    ip4 = parse_legacy_ipv4(name)
    if ip4 is not None:
        return str(ip4), ip4
    if len(name) > MAX_HOSTNAME_LENGTH or not all(_LABEL.match(label) for label in name.split(".")):
        raise InvalidUrl(f"host {host!r} is not a valid hostname")
    return name, None


# What the refusal of a receiver on this machine, or on a private network, says admits it.
LOCAL_HINT = (
    "; a receiver on this machine is admitted over http or https with the setting "
    "webhook_local_receivers = true (INTENTGATE_WEBHOOK_LOCAL_RECEIVERS=true), which serve --devnet turns on"
)
PRIVATE_HINT = (
    "; a receiver on a private network is admitted by registering it under a host name that the setting "
    "webhook_static_hosts maps to its address and allowing its network in webhook_allow_networks"
)
# Receivers on this machine: the loopback networks and the name localhost (never admitted in production).
LOOPBACK = AllowedNetworks.parse(["127.0.0.0/8", "::1/128"])
LOCAL_NAMES = frozenset({"localhost"})


def is_local_host(name: str, ip: IPAddress | None) -> bool:
    """True for a host on this machine: a loopback address, or ``localhost``."""
    return LOOPBACK.permits(ip) if ip is not None else name in LOCAL_NAMES


def check_host_rules(name: str, ip: IPAddress | None, allow_networks: AllowedNetworks = NO_ALLOWANCE) -> None:
    """Apply the contract's host rules to a host from ``parse_host``; raises InvalidUrl on a violation,
    saying which settings would admit the host."""
    hint = LOCAL_HINT if is_local_host(name, ip) else PRIVATE_HINT
    if ip is not None:
        if not is_deliverable(ip, allow_networks):
            raise InvalidUrl(f"host {ip} is not a public address{hint}")
        return
    if name in BLOCKED_HOSTNAMES or name.endswith(BLOCKED_HOSTNAME_SUFFIXES):
        raise InvalidUrl(f"host {name!r} is a local name{hint}")


def validate_endpoint_url(
    url: str, *, allow_networks: AllowedNetworks = NO_ALLOWANCE, local_receivers: bool = False
) -> str:
    """Return the normalized form of a webhook URL, or raise InvalidUrl saying what is wrong.

    Rules: ``https://`` only; at most 2048 characters; a host present; no userinfo; the host is not a
    private, loopback, link-local, CGNAT, unspecified, multicast, reserved, documentation or benchmark IP
    literal in any spelling, nor ``localhost``, ``*.localhost``, ``*.local`` or ``*.internal``.
    ``allow_networks`` is the operator allowance (send time only); the create path leaves it empty.
    ``local_receivers`` (the devnet's, never production's) admits a host on this machine (a loopback
    address or ``localhost``) over ``http://`` or ``https://``. The normalized URL has a lowercase scheme
    and host, the host in canonical form, no default port, no fragment, and ``/`` for an empty path.
    """
    if not isinstance(url, str):
        raise InvalidUrl("url must be a string")
    if len(url) > MAX_URL_LENGTH:
        raise InvalidUrl(f"url is longer than {MAX_URL_LENGTH} characters")
    if _FORBIDDEN_CHARS.search(url):
        raise InvalidUrl("url contains whitespace, a control character or a backslash")
    try:
        parts = urllib.parse.urlsplit(url)
    except ValueError as exc:
        raise InvalidUrl(f"url cannot be parsed: {exc}") from exc
    scheme = parts.scheme.lower()
    if scheme not in ("https", "http"):
        raise InvalidUrl("url must start with https://")
    netloc = parts.netloc
    if not netloc:
        raise InvalidUrl("url has no host")
    if "@" in netloc:
        raise InvalidUrl("url must not carry a user name or password")
    host, port = _split_host_port(netloc)
    name, ip = parse_host(host)
    if not (local_receivers and is_local_host(name, ip)):
        if scheme != "https":
            raise InvalidUrl("url must start with https://" + (LOCAL_HINT if is_local_host(name, ip) else ""))
        check_host_rules(name, ip, allow_networks)
    authority = name if port in (None, DEFAULT_PORTS[scheme]) else f"{name}:{port}"
    return urllib.parse.urlunsplit((scheme, authority, parts.path or "/", parts.query, ""))


DEFAULT_PORTS = {"https": 443, "http": 80}


def _split_host_port(netloc: str) -> tuple[str, int | None]:
    if netloc.startswith("["):
        end = netloc.find("]")
        if end == -1:
            raise InvalidUrl("IPv6 literal is missing its closing bracket")
        host, rest = netloc[: end + 1], netloc[end + 1 :]
    else:
        host, sep, port_text = netloc.partition(":")
        rest = sep + port_text
    if not rest:
        return host, None
    if not rest.startswith(":") or not rest[1:].isdigit() or not rest[1:].isascii():
        raise InvalidUrl("url has a malformed port")
    port = int(rest[1:])
    if not 1 <= port <= 65535:
        raise InvalidUrl("url port must be between 1 and 65535")
    return host, port
