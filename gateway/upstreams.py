"""Which upstreams the process plans against: each chain's JSON-RPC endpoint (the configured one, else the
chain's public endpoint from the registry) and the Across API (the configured root, else Across's public
one), and the lines `intentgate serve` prints about them at start."""

from __future__ import annotations

import urllib.parse

from engine.registry import Registry
from gateway.config import Settings

# Across's public API root (its suggested-fees endpoint is /api/suggested-fees): keyless, documented at
# https://docs.across.to/reference/api-reference.
ACROSS_PUBLIC_API = "https://app.across.to"


def rpc_urls(settings: Settings, registry: Registry) -> dict[str, str]:
    """Chain slug -> JSON-RPC URL: `rpc_urls`, then (with `public_upstreams`) the registry's public
    endpoint of every chain it leaves out."""
    urls = dict(settings.rpc_urls)
    if settings.public_upstreams:
        for chain in registry.chains():
            if chain.slug not in urls and chain.public_rpc:
                urls[chain.slug] = chain.public_rpc
    return urls


def across_api_url(settings: Settings) -> str | None:
    """The Across API root: `across_api_url`, else (with `public_upstreams`) Across's public one."""
    if settings.across_api_url:
        return settings.across_api_url
    return ACROSS_PUBLIC_API if settings.public_upstreams else None


def shown(url: str) -> str:
    """A URL as it may be printed: scheme, host and port only (a provider's key often sits in the path or
    the query, and a password in the user part)."""
    parts = urllib.parse.urlsplit(url)
    host = parts.hostname or ""
    if ":" in host:
        host = f"[{host}]"
    origin = f"{parts.scheme}://{host}" + (f":{parts.port}" if parts.port else "")
    return origin + ("/…" if parts.path.strip("/") or parts.query else "")


def describe(settings: Settings, registry: Registry) -> list[str]:
    """One line per upstream: where each chain's reads, quotes and simulations go, and the market APIs."""
    urls = rpc_urls(settings, registry)
    lines = []
    for chain in registry.chains():
        url = urls.get(chain.slug)
        if url is None:
            lines.append(
                f"upstream {chain.slug} RPC: none (plans on it answer 503; set rpc_urls.{chain.slug})"
            )
            continue
        origin = "configured" if chain.slug in settings.rpc_urls else "public endpoint, rate limited"
        lines.append(f"upstream {chain.slug} RPC: {shown(url)} ({origin})")
    across = across_api_url(settings)
    lines.append(f"upstream Across API: {shown(across)}" if across else "upstream Across API: none")
    for name, setting, url in (
        ("prices", "price_api_url", settings.price_api_url),
        ("yields", "yields_api_url", settings.yields_api_url),
    ):
        lines.append(f"upstream {name} API: {shown(url) if url else f'none (set {setting})'}")
    return lines
