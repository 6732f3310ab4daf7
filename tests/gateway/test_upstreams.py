"""Which upstreams `intentgate serve` plans against: the configured ones, else each chain's public endpoint
from the registry (each with the document that names it), said at start without any secret."""

from __future__ import annotations

from engine.registry import load_registry
from gateway.config import Settings
from gateway.upstreams import ACROSS_PUBLIC_API, across_api_url, describe, rpc_urls, shown

REGISTRY = load_registry()


def test_every_chain_lists_an_https_public_endpoint_with_its_source() -> None:
    for chain in REGISTRY.chains():
        assert chain.public_rpc is not None and chain.public_rpc.startswith("https://"), chain.slug
        assert chain.public_rpc_source is not None and chain.public_rpc_source.startswith("https://")


def test_by_default_each_chain_without_a_configured_endpoint_uses_its_public_one() -> None:
    settings = Settings(rpc_urls={"base": "https://base.example/v2/SECRETKEY"})
    urls = rpc_urls(settings, REGISTRY)
    assert urls["base"] == "https://base.example/v2/SECRETKEY"
    assert urls["ethereum"] == REGISTRY.chain("ethereum").public_rpc
    assert set(urls) == {chain.slug for chain in REGISTRY.chains()}
    assert across_api_url(settings) == ACROSS_PUBLIC_API
    off = Settings(public_upstreams=False, rpc_urls={"base": "https://base.example"})
    assert rpc_urls(off, REGISTRY) == {"base": "https://base.example"} and across_api_url(off) is None


def test_the_start_lines_name_each_upstream_and_no_secret() -> None:
    settings = Settings(
        rpc_urls={"base": "https://user:pw@base.example:8545/v2/SECRETKEY?token=T"},
        price_api_url="https://pro-api.coingecko.com/api/v3",
    )
    lines = describe(settings, REGISTRY)
    text = "\n".join(lines)
    assert "upstream base RPC: https://base.example:8545/… (configured)" in lines
    assert "upstream solana RPC: https://api.mainnet-beta.solana.com (public endpoint, rate limited)" in lines
    assert "upstream Across API: https://app.across.to" in lines
    assert "upstream yields API: none (set yields_api_url)" in lines
    assert "SECRETKEY" not in text and "pw" not in text and "token" not in text
    none = describe(Settings(public_upstreams=False), REGISTRY)
    assert "upstream ethereum RPC: none (plans on it answer 503; set rpc_urls.ethereum)" in none
    assert shown("http://127.0.0.1:40279") == "http://127.0.0.1:40279"
