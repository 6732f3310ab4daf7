"""The registry: chains, tokens, protocol deployments, trusted vaults and the well-known contracts it refuses
to pay, read from packaged data."""

from engine.registry.amounts import from_raw, to_raw
from engine.registry.errors import (
    InvalidAmount,
    RegistryDataError,
    RegistryError,
    UnknownChain,
    UnknownProtocol,
    UnknownToken,
    Unsupported,
)
from engine.registry.loader import build_registry, load_registry
from engine.registry.models import Chain, Deployment, KnownContract, Protocol, Token, Vault
from engine.registry.registry import Registry, normalize_name

__all__ = [
    "Chain",
    "Deployment",
    "InvalidAmount",
    "KnownContract",
    "Protocol",
    "Registry",
    "RegistryDataError",
    "RegistryError",
    "Token",
    "UnknownChain",
    "UnknownProtocol",
    "UnknownToken",
    "Unsupported",
    "Vault",
    "build_registry",
    "from_raw",
    "load_registry",
    "normalize_name",
    "to_raw",
]
