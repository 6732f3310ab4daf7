"""Which IP addresses a webhook may be delivered to: the one predicate create and send both use.

An address is public when it is globally routable unicast and not in any special-purpose block. Tunnel and
translation prefixes that embed an IPv4 address (IPv4-mapped, NAT64, 6to4) are judged by the address they
embed, so ``::ffff:127.0.0.1`` or ``2002:7f00:1::`` are as refused as ``127.0.0.1`` itself.
"""

from __future__ import annotations

import ipaddress
from collections.abc import Iterable
from dataclasses import dataclass

IPAddress = ipaddress.IPv4Address | ipaddress.IPv6Address
IPNetwork = ipaddress.IPv4Network | ipaddress.IPv6Network

# Source: IANA IPv4 Special-Purpose Address Registry
# (https://www.iana.org/assignments/iana-ipv4-special-registry, RFC 6890 / RFC 8190), plus the multicast
# block 224.0.0.0/4 (RFC 5771) and the reserved block 240.0.0.0/4 (RFC 1112) that holds 255.255.255.255.
# Blocks the registry marks globally reachable but which are anycast infrastructure (AS112, AMT) are refused
# too: no partner receiver lives there.
BLOCKED_IPV4: tuple[ipaddress.IPv4Network, ...] = tuple(
    ipaddress.IPv4Network(cidr)
    for cidr in (
        "0.0.0.0/8",  # "this network", includes the unspecified address (RFC 791)
        "10.0.0.0/8",  # private-use (RFC 1918)
        "100.64.0.0/10",  # shared address space, carrier-grade NAT (RFC 6598)
        "127.0.0.0/8",  # loopback (RFC 1122)
        "169.254.0.0/16",  # link-local, holds the cloud metadata address 169.254.169.254 (RFC 3927)
        "172.16.0.0/12",  # private-use (RFC 1918)
        "192.0.0.0/24",  # IETF protocol assignments (RFC 6890)
        "192.0.2.0/24",  # documentation TEST-NET-1 (RFC 5737)
        "192.31.196.0/24",  # AS112-v4 (RFC 7535)
        "192.52.193.0/24",  # AMT (RFC 7450)
        "192.88.99.0/24",  # deprecated 6to4 relay anycast (RFC 7526)
        "192.168.0.0/16",  # private-use (RFC 1918)
        "192.175.48.0/24",  # direct delegation AS112 service (RFC 7534)
        "198.18.0.0/15",  # benchmarking (RFC 2544)
        "198.51.100.0/24",  # documentation TEST-NET-2 (RFC 5737)
        "203.0.113.0/24",  # documentation TEST-NET-3 (RFC 5737)
        "224.0.0.0/4",  # multicast (RFC 5771)
        "240.0.0.0/4",  # reserved, includes limited broadcast 255.255.255.255 (RFC 1112, RFC 919)
    )
)

# Source: RFC 4291 section 2.4 (only 2000::/3 is assigned global unicast; IANA IPv6 Address Space registry).
IPV6_GLOBAL_UNICAST = ipaddress.IPv6Network("2000::/3")

# Source: IANA IPv6 Special-Purpose Address Registry
# (https://www.iana.org/assignments/iana-ipv6-special-registry). Only blocks inside 2000::/3 need listing,
# everything outside it (::1, ::, ::/96, ::ffff:0:0/96, 64:ff9b:1::/48, 100::/64, fc00::/7 ULA which holds
# fd00:ec2::254, fe80::/10, fec0::/10, ff00::/8) is refused by the global-unicast rule above.
BLOCKED_IPV6: tuple[ipaddress.IPv6Network, ...] = tuple(
    ipaddress.IPv6Network(cidr)
    for cidr in (
        # IETF protocol assignments (RFC 2928): Teredo 2001::/32 (RFC 4380), benchmarking 2001:2::/48
        # (RFC 5180), ORCHIDv2 2001:20::/28 (RFC 7343) and anycast services. Teredo is refused whole: the
        # client address inside it is obfuscated and the tunnel reaches wherever its relay does.
        "2001::/23",
        "2001:db8::/32",  # documentation (RFC 3849)
        "3fff::/20",  # documentation (RFC 9637)
    )
)

# Source: RFC 6052 section 2.1, the NAT64 well-known prefix; the IPv4 address is the last 32 bits.
NAT64_WELL_KNOWN = ipaddress.IPv6Network("64:ff9b::/96")

# Source: RFC 3056 section 2, 6to4: the IPv4 address is bits 16 to 48 (ipaddress.IPv6Address.sixtofour).
SIX_TO_FOUR = ipaddress.IPv6Network("2002::/16")


def is_public_address(ip: IPAddress) -> bool:
    """Return True when ``ip`` is a globally routable unicast address a webhook may be sent to.

    IPv6 addresses with a zone id are never public; IPv4-mapped, NAT64 and 6to4 addresses are public only
    when the IPv4 address they embed is.
    """
    if isinstance(ip, ipaddress.IPv4Address):
        return not any(ip in net for net in BLOCKED_IPV4)
    if ip.scope_id:
        return False
    if ip.ipv4_mapped is not None:
        return is_public_address(ip.ipv4_mapped)
    if ip in NAT64_WELL_KNOWN:
        return is_public_address(ipaddress.IPv4Address(int(ip) & 0xFFFFFFFF))
    if ip in SIX_TO_FOUR and ip.sixtofour is not None:
        return is_public_address(ip.sixtofour)
    if ip not in IPV6_GLOBAL_UNICAST:
        return False
    return not any(ip in net for net in BLOCKED_IPV6)


@dataclass(frozen=True)
class AllowedNetworks:
    """Operator allowance: networks a webhook may reach at send time although they are not public.

    Empty by default. It exists so tests and ``--devnet`` can deliver to receivers on loopback, the way
    Svix's ``whitelist_subnets`` setting does; production leaves it empty.
    """

    networks: tuple[IPNetwork, ...] = ()

    @classmethod
    def parse(cls, cidrs: Iterable[str]) -> AllowedNetworks:
        """Build an allowance from CIDR strings such as ``"127.0.0.0/8"``; raises ValueError on a bad one."""
        return cls(tuple(ipaddress.ip_network(cidr.strip(), strict=True) for cidr in cidrs))

    def permits(self, ip: IPAddress) -> bool:
        """Return True when ``ip`` lies in one of the allowed networks; a zoned IPv6 address never does."""
        if isinstance(ip, ipaddress.IPv6Address) and ip.scope_id:
            return False
        return any(ip.version == net.version and ip in net for net in self.networks)


NO_ALLOWANCE = AllowedNetworks()


def is_deliverable(ip: IPAddress, allowed: AllowedNetworks = NO_ALLOWANCE) -> bool:
    """Return True when a webhook may be sent to ``ip``: it is public, or the operator allowed its network."""
    return is_public_address(ip) or allowed.permits(ip)
